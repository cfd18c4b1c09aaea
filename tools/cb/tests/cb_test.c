/*
 * damka_cb as the GUIs see it: loads the library by name (dlopen / LoadLibrary), looks the
 * functions up (dlsym / GetProcAddress), and drives the CheckerBoard API and the Kallisto
 * EI_* interface the way CheckerBoard and the Kallisto GUIs do. Builds with gcc against
 * libdamka_cb.so and with mingw against damka_cb.dll (run under wine).
 *
 *   cb_test [library] [games]
 *
 * Prints one line per failed check and "N passed, M failed"; exits 1 on any failure.
 * The board conventions are written here from cb_interface.h, independently of the library:
 * board[x][y], square n at y = (n-1)/4, x = 2*(3-(n-1)%4) + y%2; Russian White (moves first)
 * on squares 21-32.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

#ifdef _WIN32
#include <windows.h>
#define CALL __stdcall
typedef HMODULE lib_t;
static lib_t lib_open(const char *name) { return LoadLibraryA(name); }
static void *lib_sym(lib_t l, const char *name) { return (void *)GetProcAddress(l, name); }
static double now_ms(void)
{
	LARGE_INTEGER f, c;
	QueryPerformanceFrequency(&f);
	QueryPerformanceCounter(&c);
	return (double)c.QuadPart * 1000.0 / (double)f.QuadPart;
}
static void sleep_ms(int ms) { Sleep(ms); }
typedef HANDLE thread_t;
static thread_t thread_start(DWORD(WINAPI *fn)(void *), void *arg) { return CreateThread(NULL, 0, fn, arg, 0, NULL); }
static void thread_join(thread_t t) { WaitForSingleObject(t, INFINITE); CloseHandle(t); }
#define THREAD_FN(name) static DWORD WINAPI name(void *arg)
#define THREAD_RET return 0
#else
#include <dlfcn.h>
#include <pthread.h>
#include <time.h>
#define CALL
typedef void *lib_t;
static lib_t lib_open(const char *name) { return dlopen(name, RTLD_NOW); }
static void *lib_sym(lib_t l, const char *name) { return dlsym(l, name); }
static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000.0 + t.tv_nsec / 1.0e6;
}
static void sleep_ms(int ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&t, NULL);
}
typedef pthread_t thread_t;
static thread_t thread_start(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	pthread_create(&t, NULL, fn, arg);
	return t;
}
static void thread_join(thread_t t) { pthread_join(t, NULL); }
#define THREAD_FN(name) static void *name(void *arg)
#define THREAD_RET return NULL
#endif

#define CB_WHITE 1
#define CB_BLACK 2
#define CB_MAN 4
#define CB_KING 8
#define CB_DRAW 0
#define CB_WIN 1
#define CB_LOSS 2
#define CB_UNKNOWN 3

struct coor { int x, y; };
struct CBmove {
	int jumps, newpiece, oldpiece;
	struct coor from, to;
	struct coor path[12];
	struct coor del[12];
	int delpiece[12];
};

typedef int(CALL *getmove_t)(int b[8][8], int color, double maxtime, char str[1024], int *playnow, int info, int moreinfo, struct CBmove *m);
typedef int(CALL *islegal_t)(int b[8][8], int color, int from, int to, struct CBmove *m);
typedef int(CALL *enginecommand_t)(const char *cmd, char reply[1024]);
typedef int(CALL *enginename_t)(char str[255]);
typedef void(CALL *searchinfo_t)(int score, int depth, int speed, char *pv, char *cm);
typedef void(CALL *searchinfoex_t)(char *score, char *depth, char *speed, char **pv, char *cv);
typedef void(CALL *ei_init_t)(searchinfo_t si, int mem);
typedef void(CALL *ei_void_t)(void);
typedef void(CALL *ei_str_t)(const char *);
typedef char *(CALL *ei_think_t)(void);
typedef char *(CALL *ei_ponderhit_t)(const char *);
typedef void(CALL *ei_int2_t)(int, int);
typedef void(CALL *ei_sie_t)(searchinfoex_t);
typedef void(CALL *ei_egdb_t)(void *);

static getmove_t getmove;
static islegal_t islegal;
static enginecommand_t enginecommand;
static enginename_t enginename;
static ei_init_t EI_Initialization;
static ei_void_t EI_NewGame, EI_Ponder, EI_Stop, EI_OnExit, EI_Analyse;
static ei_str_t EI_SetupBoard, EI_MakeMove;
static ei_think_t EI_Think, EI_GetName;
static ei_ponderhit_t EI_PonderHit;
static ei_int2_t EI_SetTimeControl, EI_SetTime;
static ei_sie_t EI_SetSearchInfoEx;
static ei_egdb_t EI_EGDB;

static int passed, failed;

static void check(int ok, const char *fmt, ...)
{
	va_list ap;
	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* ---- board conventions, from cb_interface.h ---- */

static void num_to_xy(int n, int *x, int *y)
{
	n--;
	*y = n / 4;
	*x = 2 * (3 - n % 4) + (*y % 2);
}

static int xy_to_num(int x, int y) { return 4 * (y + 1) - x / 2; }

static void start_board(int b[8][8])
{
	int n, x, y;
	memset(b, 0, sizeof(int) * 64);
	for (n = 1; n <= 12; n++) {
		num_to_xy(n, &x, &y);
		b[x][y] = CB_BLACK | CB_MAN;
	}
	for (n = 21; n <= 32; n++) {
		num_to_xy(n, &x, &y);
		b[x][y] = CB_WHITE | CB_MAN;
	}
}

static void board_fen(int b[8][8], int color, char *out)
{
	int side, n, x, y, first;
	char *p = out;
	p += sprintf(p, "%c", color == CB_WHITE ? 'W' : 'B');
	for (side = CB_WHITE; side <= CB_BLACK; side++) {
		p += sprintf(p, ":%c", side == CB_WHITE ? 'W' : 'B');
		first = 1;
		for (n = 1; n <= 32; n++) {
			num_to_xy(n, &x, &y);
			if (b[x][y] & side) {
				p += sprintf(p, "%s%s%d", first ? "" : ",", (b[x][y] & CB_KING) ? "K" : "", n);
				first = 0;
			}
		}
	}
}

/* A move of a "get movelist" reply. */
struct entry {
	int jumps, oldpiece, newpiece, from, to;
	int land[16], cap[16], cappiece[16];
};

/* Parses "movelist N,<move>;<move>;..."; returns N, or -1 if malformed. */
static int parse_movelist(const char *reply, struct entry *e, int max)
{
	int n, i, j, k;
	const char *p;
	if (strncmp(reply, "movelist ", 9) != 0)
		return -1;
	p = reply + 9;
	n = (int)strtol(p, (char **)&p, 10);
	if (n == 0)
		return *p == 0 ? 0 : -1;
	if (*p != ',' || n > max)
		return -1;
	p++;
	for (i = 0; i < n; i++) {
		int f[5];
		for (k = 0; k < 5; k++) {
			f[k] = (int)strtol(p, (char **)&p, 10);
			if (*p == ',')
				p++;
		}
		e[i].jumps = f[0];
		e[i].oldpiece = f[1];
		e[i].newpiece = f[2];
		e[i].from = f[3];
		e[i].to = f[4];
		if (f[0] < 0 || f[0] > 16)
			return -1;
		for (j = 0; j < f[0]; j++) {
			e[i].land[j] = (int)strtol(p, (char **)&p, 10);
			if (*p == ',')
				p++;
			e[i].cap[j] = (int)strtol(p, (char **)&p, 10);
			if (*p == ',')
				p++;
			e[i].cappiece[j] = (int)strtol(p, (char **)&p, 10);
			if (*p == ',')
				p++;
		}
		if (*p != ';')
			return -1;
		p++;
	}
	return *p == 0 ? n : -1;
}

static void apply_entry(int b[8][8], const struct entry *e)
{
	int x, y, j;
	num_to_xy(e->from, &x, &y);
	b[x][y] = 0;
	for (j = 0; j < e->jumps; j++) {
		num_to_xy(e->cap[j], &x, &y);
		b[x][y] = 0;
	}
	num_to_xy(e->to, &x, &y);
	b[x][y] = e->newpiece;
}

/* The entry a CBmove is: same start, end and captured set. */
static int match_cbmove(const struct entry *list, int n, const struct CBmove *m)
{
	int i, j, k;
	int from = xy_to_num(m->from.x, m->from.y), to = xy_to_num(m->to.x, m->to.y);
	for (i = 0; i < n; i++) {
		int ok = list[i].from == from && list[i].to == to && list[i].jumps == m->jumps &&
		         list[i].oldpiece == m->oldpiece && list[i].newpiece == m->newpiece;
		for (j = 0; ok && j < m->jumps && j < 12; j++) {
			int c = xy_to_num(m->del[j].x, m->del[j].y), found = 0;
			for (k = 0; k < list[i].jumps; k++)
				found |= list[i].cap[k] == c;
			ok = found;
		}
		if (ok)
			return i;
	}
	return -1;
}

static char reply[1024];

static int cmd(const char *c)
{
	memset(reply, 0, sizeof reply);
	return enginecommand(c, reply);
}

/* The legal moves of the position (the engine's "get movelist"), or -1 after a failed check
 * naming the game and ply. */
static int legal_moves(int b[8][8], int color, struct entry *list, const char *what, int game, int ply)
{
	char fen[512], c[600];
	int n;
	board_fen(b, color, fen);
	sprintf(c, "get movelist %s", fen);
	if (cmd(c) != 1 || (n = parse_movelist(reply, list, 256)) < 0) {
		check(0, "%s game %d ply %d: bad movelist reply %s", what, game, ply, reply);
		return -1;
	}
	return n;
}

static int load(lib_t l)
{
	int ok = 1;
#define LOAD(v, t, name) \
	do { \
		v = (t)lib_sym(l, name); \
		check(v != NULL, "export %s not found", name); \
		ok &= v != NULL; \
	} while (0)
	LOAD(getmove, getmove_t, "getmove");
	LOAD(islegal, islegal_t, "islegal");
	LOAD(enginecommand, enginecommand_t, "enginecommand");
	LOAD(enginename, enginename_t, "enginename");
	LOAD(EI_Initialization, ei_init_t, "EI_Initialization");
	LOAD(EI_NewGame, ei_void_t, "EI_NewGame");
	LOAD(EI_Ponder, ei_void_t, "EI_Ponder");
	LOAD(EI_Stop, ei_void_t, "EI_Stop");
	LOAD(EI_OnExit, ei_void_t, "EI_OnExit");
	LOAD(EI_Analyse, ei_void_t, "EI_Analyse");
	LOAD(EI_SetupBoard, ei_str_t, "EI_SetupBoard");
	LOAD(EI_MakeMove, ei_str_t, "EI_MakeMove");
	LOAD(EI_Think, ei_think_t, "EI_Think");
	LOAD(EI_GetName, ei_think_t, "EI_GetName");
	LOAD(EI_PonderHit, ei_ponderhit_t, "EI_PonderHit");
	LOAD(EI_SetTimeControl, ei_int2_t, "EI_SetTimeControl");
	LOAD(EI_SetTime, ei_int2_t, "EI_SetTime");
	LOAD(EI_SetSearchInfoEx, ei_sie_t, "EI_SetSearchInfoEx");
	LOAD(EI_EGDB, ei_egdb_t, "EI_EGDB");
	return ok;
}

/* ---- CheckerBoard API ---- */

static void test_commands(void)
{
	char name[256] = {0};
	check(cmd("get gametype") == 1 && strcmp(reply, "25") == 0, "get gametype: %s", reply);
	check(cmd("get protocolversion") == 1 && strcmp(reply, "2") == 0, "get protocolversion: %s", reply);
	check(cmd("name") == 1 && strncmp(reply, "damka", 5) == 0, "name: %s", reply);
	check(cmd("about") == 1 && strstr(reply, "Russian") != NULL, "about: %s", reply);
	check(cmd("help") == 1 && strstr(reply, ".htm") != NULL, "help: %s", reply);
	check(cmd("frobnicate the board") == 0 && strcmp(reply, "?") == 0, "unknown command: %s", reply);
	check(cmd("get frobnicity") == 0 && strcmp(reply, "?") == 0, "unknown get: %s", reply);
	check(cmd("set hashsize 16") == 1, "set hashsize: %s", reply);
	check(cmd("get hashsize") == 1 && strcmp(reply, "16") == 0, "get hashsize: %s", reply);
	check(cmd("set hashsize lots") == 0, "set hashsize lots accepted: %s", reply);
	check(cmd("set threads 1") == 1, "set threads: %s", reply);
	check(cmd("set book 0") == 1, "set book 0: %s", reply);
	check(cmd("get book") == 1 && strcmp(reply, "0") == 0, "get book: %s", reply);
	check(cmd("set book 9") == 0, "set book 9 accepted: %s", reply);
	check(cmd("get dbpath") == 1, "get dbpath: %s", reply);
	check(cmd("get movelist W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12") == 1 &&
	          strncmp(reply, "movelist 7,", 11) == 0, "get movelist (start): %s", reply);
	check(cmd("get movelist W:W:B1") == 1 && strcmp(reply, "movelist 0") == 0, "get movelist (no move): %s", reply);
	check(cmd("get movelist nonsense") == 0, "get movelist nonsense accepted: %s", reply);
	check(cmd("set gamehist W:W21-32:B1-12 22-18 11-15") == 1, "set gamehist: %s", reply);
	check(cmd("set gamehist W:W21-32:B1-12 22-19") == 0, "set gamehist with an illegal move accepted: %s", reply);
	check(enginename(name) == 1 && strncmp(name, "damka", 5) == 0, "enginename: %s", name);
	/* NULL for the reply or the command must not crash. */
	check(enginecommand("name", NULL) == 1, "enginecommand with a NULL reply");
	check(enginecommand(NULL, reply) == 0, "enginecommand(NULL) accepted");
}

static void test_islegal(void)
{
	int b[8][8];
	struct CBmove m;
	int x, y;
	start_board(b);
	memset(&m, 0, sizeof m);
	check(islegal(b, CB_WHITE, 22, 18, &m) == 1, "islegal 22-18 (c3-d4) refused");
	num_to_xy(22, &x, &y);
	check(m.from.x == x && m.from.y == y && m.jumps == 0 && m.oldpiece == (CB_WHITE | CB_MAN),
	      "islegal 22-18 move record: from %d,%d jumps %d", m.from.x, m.from.y, m.jumps);
	check(islegal(b, CB_WHITE, 22, 19, &m) == 0, "islegal 22-19 accepted");
	check(islegal(b, CB_WHITE, 9, 13, &m) == 0, "islegal of a black man for White accepted");
	check(islegal(b, CB_BLACK, 9, 13, &m) == 1, "islegal 9-13 for Black refused");
	check(islegal(b, CB_WHITE, 0, 99, &m) == 0, "islegal 0-99 accepted");
	check(islegal(b, CB_WHITE, 22, 18, NULL) == 1, "islegal with a NULL move");
	check(islegal(NULL, CB_WHITE, 22, 18, &m) == 0, "islegal(NULL board) accepted");
	check(islegal(b, 7, 22, 18, &m) == 0, "islegal with colour 7 accepted");
	{
		/* A capture: White c3 (22) takes d4 (18) and f6 (11), landing on g7 (8). */
		int c[8][8];
		memset(c, 0, sizeof c);
		num_to_xy(22, &x, &y);
		c[x][y] = CB_WHITE | CB_MAN;
		num_to_xy(18, &x, &y);
		c[x][y] = CB_BLACK | CB_MAN;
		num_to_xy(11, &x, &y);
		c[x][y] = CB_BLACK | CB_MAN;
		memset(&m, 0, sizeof m);
		check(islegal(c, CB_WHITE, 22, 8, &m) == 1 && m.jumps == 2 &&
		          xy_to_num(m.path[1].x, m.path[1].y) == 15 && xy_to_num(m.del[0].x, m.del[0].y) == 18 &&
		          xy_to_num(m.del[1].x, m.del[1].y) == 11 && m.delpiece[1] == (CB_BLACK | CB_MAN),
		      "islegal capture 22x8: jumps %d", m.jumps);
		check(islegal(c, CB_WHITE, 22, 17, &m) == 0, "islegal quiet move when a capture is due accepted");
	}
}

static void test_bad_boards(void)
{
	int b[8][8], orig[8][8], playnow = 0;
	char str[1024];
	struct CBmove m;
	/* A piece on a light square: x + y odd. */
	start_board(b);
	b[0][1] = CB_WHITE | CB_MAN;
	memcpy(orig, b, sizeof b);
	str[0] = 0;
	check(getmove(b, CB_WHITE, 0.01, str, &playnow, 0, 0, &m) == CB_UNKNOWN && memcmp(b, orig, sizeof b) == 0 &&
	          strstr(str, "light") != NULL, "piece on a light square: %s", str);
	start_board(b);
	b[0][0] = 7;
	memcpy(orig, b, sizeof b);
	check(getmove(b, CB_WHITE, 0.01, str, &playnow, 0, 0, &m) == CB_UNKNOWN && memcmp(b, orig, sizeof b) == 0,
	      "impossible piece code 7: %s", str);
	start_board(b);
	b[0][0] = 12;
	check(getmove(b, CB_WHITE, 0.01, str, &playnow, 0, 0, &m) == CB_UNKNOWN, "piece code 12 accepted");
	start_board(b);
	check(getmove(b, 5, 0.01, str, &playnow, 0, 0, &m) == CB_UNKNOWN, "colour 5 accepted");
	check(getmove(NULL, CB_WHITE, 0.01, str, &playnow, 0, 0, &m) == CB_UNKNOWN, "NULL board accepted");
	/* A white man on the crowning rank (square 1 = b8) cannot be. */
	memset(b, 0, sizeof b);
	b[6][0] = CB_WHITE | CB_MAN;
	b[7][1] = CB_BLACK | CB_MAN;
	check(getmove(b, CB_WHITE, 0.01, str, &playnow, 0, 0, &m) == CB_UNKNOWN, "white man on b8 accepted: %s", str);
	/* NULL for every optional argument: a move still comes. */
	start_board(b);
	memcpy(orig, b, sizeof b);
	getmove(b, CB_WHITE, 0.01, NULL, NULL, 0, 0, NULL);
	check(memcmp(b, orig, sizeof b) != 0, "getmove with NULL str, playnow, move: no move played");
	/* No legal move: the side to move has lost. */
	memset(b, 0, sizeof b);
	b[7][1] = CB_BLACK | CB_MAN; /* a7 */
	check(getmove(b, CB_WHITE, 0.01, str, &playnow, 0, 0, &m) == CB_LOSS, "no white piece: not CB_LOSS");
	/* An incremental clock (bits 2-3 of info, times in moreinfo): 0.01 s units, 1 s left, 0.1 s increment. */
	start_board(b);
	{
		double t0 = now_ms();
		int r = getmove(b, CB_WHITE, 100.0, str, &playnow, 2 << 2, (100 << 16) | 10, &m);
		double t = now_ms() - t0;
		check(r != -1 && t < 1500, "incremental clock not honoured: %.0f ms", t);
	}
}

static int g_playnow;
static int g_board[8][8];
static char g_str[1024];
static struct CBmove g_move;
static int g_result;
static volatile double g_done_at;

THREAD_FN(think_long)
{
	(void)arg;
	g_result = getmove(g_board, CB_WHITE, 30.0, g_str, &g_playnow, 0, 0, &g_move);
	g_done_at = now_ms();
	THREAD_RET;
}

/* One long think stopped by *playnow from this thread; returns ms from the flag to the move. */
static double playnow_once(int *moved, int *wrote)
{
	thread_t t;
	double set_at;
	int orig[8][8];
	start_board(g_board);
	memcpy(orig, g_board, sizeof orig);
	g_str[0] = 0;
	g_playnow = 0;
	g_done_at = 0;
	cmd("set gamehist W:W21-32:B1-12");
	t = thread_start(think_long, NULL);
	sleep_ms(400);
	*wrote = g_str[0] != 0 && strncmp(g_str, "damka", 5) == 0;
	set_at = now_ms();
	*(volatile int *)&g_playnow = 1;
	thread_join(t);
	*moved = memcmp(orig, g_board, sizeof orig) != 0;
	return g_done_at - set_at;
}

/* Timing checks on a busy machine: the best of three tries must be within the limit. */
#define TRIES 3

static void test_playnow(void)
{
	int i, moved = 0, wrote = 0;
	double best = 1e9, t;
	for (i = 0; i < TRIES; i++) {
		t = playnow_once(&moved, &wrote);
		printf("playnow: move %.1f ms after the flag; str: %.60s\n", t, g_str);
		check(wrote, "no search line in str while thinking");
		check(moved, "playnow: no move on the board");
		if (t < best)
			best = t;
		if (best < 50.0)
			break;
	}
	check(best < 50.0, "playnow: move came %.1f ms after the flag at best (limit 50)", best);
}

static const char *start_fen = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

/* One game through getmove; returns 1 if it ended properly. */
static int cb_game(int game, double movetime)
{
	int b[8][8], after[8][8], color = CB_WHITE, ply, playnow = 0;
	static struct entry list[256];
	static char hist[65536], c[66000];
	char str[1024], mtext[128];
	struct CBmove m;
	start_board(b);
	strcpy(hist, start_fen);
	for (ply = 0; ply < 600; ply++) {
		int n, k, r, j;
		if ((n = legal_moves(b, color, list, "CB", game, ply)) < 0)
			return 0;
		if (n == 0) {
			printf("CB game %d: %s has no move after %d plies: %s wins\n", game,
			       color == CB_WHITE ? "White" : "Black", ply, color == CB_WHITE ? "Black" : "White");
			return 1;
		}
		sprintf(c, "set gamehist %s", hist);
		check(cmd(c) == 1, "game %d ply %d: set gamehist refused: %s", game, ply, reply);
		memcpy(after, b, sizeof b);
		memset(&m, 0, sizeof m);
		r = getmove(after, color, movetime, str, &playnow, 0, 0, &m);
		k = match_cbmove(list, n, &m);
		if (k < 0) {
			check(0, "game %d ply %d: getmove's move %d-%d (jumps %d) is not legal", game, ply,
			      xy_to_num(m.from.x, m.from.y), xy_to_num(m.to.x, m.to.y), m.jumps);
			return 0;
		}
		apply_entry(b, &list[k]);
		if (memcmp(after, b, sizeof b) != 0) {
			check(0, "game %d ply %d: getmove's board differs from its move", game, ply);
			return 0;
		}
		/* The move in the history with its landing squares, CheckerBoard's numbers. */
		{
			char *p = mtext;
			p += sprintf(p, "%d", list[k].from);
			if (list[k].jumps == 0)
				sprintf(p, "-%d", list[k].to);
			for (j = 0; j < list[k].jumps; j++)
				p += sprintf(p, "x%d", list[k].land[j]);
		}
		strcat(hist, " ");
		strcat(hist, mtext);
		color = color == CB_WHITE ? CB_BLACK : CB_WHITE;
		if (r == CB_DRAW) {
			printf("CB game %d: drawn by the rules after %d plies\n", game, ply + 1);
			return 1;
		}
	}
	check(0, "game %d: no end after 600 plies", game);
	return 0;
}

/* ---- Kallisto interface ---- */

static int info_calls, info_ex_calls;
static void CALL on_info(int score, int depth, int speed, char *pv, char *cm)
{
	(void)score; (void)depth; (void)speed; (void)pv; (void)cm;
	info_calls++;
}
static void CALL on_info_ex(char *score, char *depth, char *speed, char **pv, char *cv)
{
	(void)speed; (void)cv;
	if (score && depth && pv && *pv)
		info_ex_calls++;
}

/* The dark square of a Kallisto name (a1 .. h8), as a CheckerBoard number. */
static int name_sq(const char *s)
{
	int n, x, y;
	for (n = 1; n <= 32; n++) {
		num_to_xy(n, &x, &y);
		if (s[0] == 'a' + 7 - x && s[1] == '1' + 7 - y)
			return n;
	}
	return 0;
}

/* The movelist entry a Kallisto move string names (start, captured..., end). */
static int match_kallisto(const struct entry *list, int n, const char *mv)
{
	int sq[20], ns = 0, i, j, k;
	const char *p = mv;
	while (*p && ns < 20) {
		if (*p == ':') {
			p++;
			continue;
		}
		sq[ns] = name_sq(p);
		if (!sq[ns] || !p[1])
			return -1;
		ns++;
		p += 2;
	}
	if (ns < 2)
		return -1;
	for (i = 0; i < n; i++) {
		int ok = list[i].from == sq[0] && list[i].to == sq[ns - 1] &&
		         (list[i].jumps == ns - 2 || (list[i].jumps == 0 && ns == 2));
		for (j = 1; ok && j < ns - 1; j++) {
			int found = 0;
			for (k = 0; k < list[i].jumps; k++)
				found |= list[i].cap[k] == sq[j];
			ok = found;
		}
		if (ok)
			return i;
	}
	return -1;
}

static int ei_game(int game)
{
	int b[8][8], color = CB_WHITE, ply;
	static int past[700][8][8];
	static struct entry list[256];
	start_board(b);
	EI_NewGame();
	for (ply = 0; ply < 600; ply++) {
		int n, k, rep = 0, i;
		char *mv;
		memcpy(past[ply], b, sizeof b);
		for (i = ply - 2; i >= 0; i -= 2)
			rep += memcmp(past[i], b, sizeof b) == 0;
		if (rep >= 2) {
			printf("EI game %d: threefold repetition after %d plies\n", game, ply);
			return 1;
		}
		if ((n = legal_moves(b, color, list, "EI", game, ply)) < 0)
			return 0;
		if (n == 0) {
			printf("EI game %d: %s has no move after %d plies\n", game, color == CB_WHITE ? "White" : "Black", ply);
			return 1;
		}
		EI_SetTime(600, 600); /* 0.6 s on the clock: about 20 ms a move */
		mv = EI_Think();
		if (!mv || (k = match_kallisto(list, n, mv)) < 0) {
			check(0, "EI game %d ply %d: EI_Think gave %s, not a legal move", game, ply, mv ? mv : "NULL");
			return 0;
		}
		apply_entry(b, &list[k]);
		color = color == CB_WHITE ? CB_BLACK : CB_WHITE;
	}
	check(0, "EI game %d: no end after 600 plies", game);
	return 0;
}

static volatile double ei_done_at;
static char *ei_think_result;
/* EI_Think when arg is not NULL, else EI_Analyse; notes when it returned. */
THREAD_FN(ei_work)
{
	if (arg)
		ei_think_result = EI_Think();
	else
		EI_Analyse();
	ei_done_at = now_ms();
	THREAD_RET;
}

/* How long after EI_Stop, sent from this thread 300 ms into a long EI_Think (think) or an
 * EI_Analyse, the call returned, ms. */
static double ei_stop_delay(int think)
{
	thread_t t;
	double at;
	EI_NewGame();
	if (think)
		EI_SetTime(600000, 600000);
	ei_done_at = 0;
	t = thread_start(ei_work, think ? (void *)1 : NULL);
	sleep_ms(300);
	at = now_ms();
	EI_Stop();
	thread_join(t);
	return ei_done_at - at;
}

static void test_ei(int games)
{
	int i, n, k;
	static struct entry list[256];
	char *name;
	EI_Initialization(on_info, 64);
	EI_EGDB(NULL);
	EI_SetTimeControl(1, 0);
	name = EI_GetName();
	check(name && strncmp(name, "damka", 5) == 0, "EI_GetName: %s", name ? name : "NULL");
	/* Bad input leaves the position alone. */
	EI_NewGame();
	EI_SetupBoard(NULL);
	EI_SetupBoard("this is no position");
	EI_SetupBoard("bbbbbbbbbbbb........wwwwwwwwwwwwx");
	EI_MakeMove(NULL);
	EI_MakeMove("z9z9");
	EI_MakeMove("c3c5");
	EI_MakeMove("c3:d4");
	EI_SetTime(200, 200);
	cmd("get movelist W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
	n = parse_movelist(reply, list, 256);
	{
		char *mv = EI_Think();
		check(mv && match_kallisto(list, n, mv) >= 0, "after bad input EI_Think is not a start move: %s", mv ? mv : "NULL");
	}
	check(info_calls > 0, "the search info callback was never called");
	EI_SetSearchInfoEx(on_info_ex);
	/* A capture in Kallisto notation: White c3 against Black d4 and f6. */
	EI_SetupBoard("..........b......b...w..........w");
	EI_SetTime(200, 200);
	{
		char *mv = EI_Think();
		check(mv && strcmp(mv, "c3:d4:f6:g7") == 0, "capture in Kallisto notation: %s", mv ? mv : "NULL");
	}
	check(info_ex_calls > 0, "the text search info callback was never called");
	/* The opponent's capture given by its captured square: Black d4 takes c3; White has nothing left. */
	EI_SetupBoard(".................b...w..........b");
	EI_MakeMove("d4:c3:b2");
	{
		char *mv = EI_Think();
		check(mv && mv[0] == 0, "after d4:c3:b2 White should have no move, EI_Think gave %s", mv ? mv : "NULL");
	}
	/* Pondering: White plays c3-d4, the engine ponders, Black answers f6-g5, the engine moves. */
	EI_SetupBoard("bbbbbbbbbbbb........wwwwwwwwwwwww");
	EI_MakeMove("c3d4");
	EI_Ponder();
	sleep_ms(50);
	{
		static struct entry pl[256];
		char *mv = EI_PonderHit("f6g5");
		int pn;
		cmd("get movelist W:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,16");
		pn = parse_movelist(reply, pl, 256);
		check(mv && match_kallisto(pl, pn, mv) >= 0, "EI_PonderHit gave %s, not a legal move", mv ? mv : "NULL");
	}
	/* EI_Stop ends EI_Analyse and a long EI_Think within 50 ms, from another thread. */
	{
		double best = 1e9, d;
		for (i = 0; i < TRIES && best >= 50.0; i++) {
			d = ei_stop_delay(0);
			printf("EI_Stop: EI_Analyse returned %.1f ms after it\n", d);
			if (d < best)
				best = d;
		}
		check(best < 50.0, "EI_Stop ended EI_Analyse %.1f ms later at best (limit 50)", best);
		best = 1e9;
		for (i = 0; i < TRIES && best >= 50.0; i++) {
			d = ei_stop_delay(1);
			k = ei_think_result ? match_kallisto(list, n, ei_think_result) : -1;
			check(k >= 0, "EI_Think stopped gave %s, not a start move", ei_think_result ? ei_think_result : "NULL");
			printf("EI_Stop: EI_Think returned %.1f ms after it with %s\n", d, ei_think_result);
			if (d < best)
				best = d;
		}
		check(best < 50.0, "EI_Stop ended EI_Think %.1f ms later at best (limit 50)", best);
	}
	for (i = 0; i < games; i++)
		check(ei_game(i + 1), "EI game %d did not end properly", i + 1);
	EI_OnExit();
	/* The library is usable again after EI_OnExit. */
	check(cmd("get gametype") == 1, "enginecommand after EI_OnExit");
}

int main(int argc, char **argv)
{
#ifdef _WIN32
	const char *name = argc > 1 ? argv[1] : "damka_cb.dll";
#else
	const char *name = argc > 1 ? argv[1] : "libdamka_cb.so";
#endif
	int games = argc > 2 ? atoi(argv[2]) : 2, i;
	lib_t l = lib_open(name);
	setvbuf(stdout, NULL, _IONBF, 0);
	if (!l) {
		printf("cannot load %s\n0 passed, 1 failed\n", name);
		return 1;
	}
	if (load(l)) {
		test_commands();
		test_islegal();
		test_bad_boards();
		test_playnow();
		for (i = 0; i < games; i++)
			check(cb_game(i + 1, 0.02), "CB game %d did not end properly", i + 1);
		test_ei(games);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
