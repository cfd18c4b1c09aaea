#!/usr/bin/env python3
"""Browser tests of the damka-web page: a real headless Chromium driven through chromedriver
(Selenium), by the page's testability contract (README, "Web page"): data-square, data-piece,
#moves, #status, the #new-game form and the data-action buttons. Every wait is on a
condition, never a fixed sleep.

    python3 tools/web/browser_test.py --server target/ci/damka-web [--screenshots DIR] [--stored]

--stored runs only the tests whose games and rooms outlive a reload or a restart of the
server, or are kept with a game (what differs between the SQLite and PostgreSQL stores).
"""

import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

# The analysis and review checks, and the download helper, are shared with the WebAssembly
# page's tests.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "wasm"))
import browser_review  # noqa: E402

WAIT = 30  # seconds: generous for a loaded 2-core machine; conditions end waits early


def database_args(db):
    """--db FILE, or with DAMKA_WEB_TEST_PG (tools/web/pg_test.sh) a PostgreSQL database of
    its own for the file (the same one after a restart): the page against either back end."""
    base = os.environ.get("DAMKA_WEB_TEST_PG")
    if not base:
        return ["--db", db]
    name = "b_" + hashlib.sha1(db.encode()).hexdigest()[:12]
    psql = os.path.join(os.environ.get("DAMKA_PG_BIN", ""), "psql")
    if not os.path.exists(psql):
        psql = "psql"
    query = f"SELECT 1 FROM pg_database WHERE datname = '{name}'"
    found = subprocess.run([psql, base, "-tAc", query], capture_output=True, text=True, check=True)
    if found.stdout.strip() != "1":
        subprocess.run([psql, base, "-qc", f"CREATE DATABASE {name}"], capture_output=True, check=True)
    return ["--database", base.rsplit("/", 1)[0] + "/" + name]


def start_server(binary, db, port=0, extra=()):
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--threads", "2", "--hash", "8", *database_args(db), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    line = proc.stdout.readline()
    while line.startswith("damka-web: node "):
        line = proc.stdout.readline()
    m = re.search(r"(http://\S+)", line)
    if not m:
        proc.kill()
        raise RuntimeError(f"damka-web did not start: {line!r}")
    return proc, m.group(1)


PHONE = {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": True, "mobile": True},
         "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                      "Chrome/130.0 Mobile Safari/537.36"}


def start_browser(download_dir, phone=False, dark=False, size=None):
    """A headless Chromium: a 1000x820 desktop window, or with `phone` a 390x844 touch screen
    (`phone=(width, height)`: a touch screen of that size); `size=(width, height)`: a desktop
    window of that size; `dark`: the system asks for the dark colour scheme."""
    opts = webdriver.ChromeOptions()
    width, height = size or (1000, 820)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--disable-extensions"):
        opts.add_argument(arg)
    if phone:
        metrics = dict(PHONE["deviceMetrics"])
        if isinstance(phone, tuple):
            metrics["width"], metrics["height"] = phone
        opts.add_experimental_option("mobileEmulation", dict(PHONE, deviceMetrics=metrics))
    opts.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    opts.add_experimental_option("prefs", {
        "download.default_directory": download_dir,
        "download.prompt_for_download": False,
    })
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(service=service, options=opts)
    driver.execute_cdp_cmd("Page.setDownloadBehavior",
                           {"behavior": "allow", "downloadPath": download_dir})
    if dark:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    return driver


class Page:
    """The page, by its testability contract."""

    def __init__(self, driver, url):
        self.d = driver
        self.url = url

    def wait(self, test, what):
        try:
            return WebDriverWait(self.d, WAIT, poll_frequency=0.05,
                                 ignored_exceptions=[StaleElementReferenceException]
                                 ).until(lambda _: test())
        except TimeoutException as e:
            raise AssertionError(f"timed out waiting for {what}; status: {self.status()!r}") from e

    def open(self):
        self.d.get(self.url)
        # The page opens on the form or on this browser's last game: wait for either, so the
        # last game cannot arrive after the game a test starts.
        self.wait(lambda: self.text("connection") == "connected" and "Connecting" not in self.status()
                  and (self.status().startswith("Choose a game")
                       or self.d.execute_script("return location.hash").startswith("#g")
                       and self.status() != ""),
                  "the page ready")

    def text(self, element_id):
        try:
            return self.d.find_element(By.ID, element_id).text
        except Exception:
            return ""

    def text_of(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css).text

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def status(self):
        try:
            return self.d.find_element(By.ID, "status").text
        except Exception:
            return ""

    # Reads are one script each, so a redraw cannot happen half way through.
    def squares(self):
        """The playable squares' names in the page's order (top left first)."""
        return self.d.execute_script(
            "return [...document.querySelectorAll('#board [data-square]')]"
            ".map((e) => e.dataset.square)")

    def pieces(self):
        """{square: piece} as the page shows it."""
        return self.d.execute_script(
            "const out = {};"
            "for (const e of document.querySelectorAll('#board [data-square] [data-piece]'))"
            "  out[e.parentElement.dataset.square] = e.dataset.piece;"
            "return out;")

    def moves(self):
        return self.d.execute_script(
            "return [...document.querySelectorAll('#moves > *')].map((e) => e.textContent)")

    def click_square(self, name):
        def click():
            try:
                self.d.find_element(By.CSS_SELECTOR, f'#board [data-square="{name}"]').click()
                return True
            except StaleElementReferenceException:
                return False  # redrawn between finding and clicking: find it again
        self.wait(click, f"a click on {name}")

    def play(self, squares):
        """A move by clicks: its start square, then each landing square in turn."""
        n = len(self.moves())
        for sq in squares:
            self.click_square(sq)
        self.wait(lambda: len(self.moves()) > n, f"the move {squares} in the move list")

    def action(self, name):
        self.d.find_element(By.CSS_SELECTOR, f'[data-action="{name}"]').click()

    def show_form(self):
        """The new-game form, folded away during a game: the New game button brings it back."""
        form = self.d.find_element(By.ID, "new-game")
        if not form.is_displayed():
            self.js("[...document.querySelectorAll('[data-action=\"new\"]')]"
                    ".find((b) => b.getClientRects().length).click()")
            self.wait(form.is_displayed, "the form")
        return form

    def new_game(self, variant, opponent, color="white", skill="10", movetime="0.1", fen=None,
                 clock=None):
        form = self.show_form()
        Select(form.find_element(By.NAME, "variant")).select_by_value(variant)
        Select(form.find_element(By.NAME, "opponent")).select_by_value(opponent)
        # A local game has no clock unless asked; a room keeps the form's unless asked.
        clock = clock or ("none" if opponent != "online" else None)
        # Only the fields that apply to this opponent are shown (and set); the clock first, as
        # the engine's time per move is shown without one only.
        fields = (("color", color), ("clock", clock), ("skill", skill), ("movetime", movetime))
        for name, value in fields:
            field = form.find_element(By.NAME, name)
            if value is not None and field.is_displayed():
                Select(field).select_by_value(value)
        before = self.d.execute_script("return location.pathname + location.hash")
        if fen:
            if not self.d.find_element(By.CSS_SELECTOR, "details.import").get_attribute("open"):
                self.d.find_element(By.CSS_SELECTOR, "details.import summary").click()
            box = self.d.find_element(By.ID, "import-text")
            box.clear()
            box.send_keys(fen)
            self.action("import")
        else:
            self.action("start")
        self.wait(lambda: self.d.execute_script("return location.pathname + location.hash") != before,
                  "a new game")

    def my_turn(self, against_engine=True):
        expected = r"^Your move" if against_engine else r"^(White|Black) to move"
        return self.wait(lambda: re.search(expected, self.status()), "the person's turn")

    def hint(self):
        text = self.d.find_element(By.ID, "analysis").text
        m = re.search(r"Hint: (\S+)", text)
        return m.group(1) if m else None


def test_engine_game_with_multi_capture(p, shots):
    # White c3 must take d4 and f6 (c3:e5:g7); then White finishes the game by following the
    # engine's hints, clicked square by square, while the engine plays Black.
    p.new_game("russian", "engine", "white", skill="10", movetime="0.1", fen="W:Wc3:Bd4,f6,a7")
    p.my_turn()
    assert p.pieces() == {"c3": "w", "d4": "b", "f6": "b", "a7": "b"}, p.pieces()
    p.click_square("c3")
    targets = p.d.execute_script(
        "return [...document.querySelectorAll('#board .target')].map((e) => e.dataset.square)")
    assert targets == ["e5"], targets
    p.click_square("e5")
    p.click_square("g7")
    p.wait(lambda: len(p.moves()) >= 2, "the engine's reply")
    moves = p.moves()
    assert moves[0] == "c3:e5:g7", moves
    assert moves[1] == "a7-b6", moves
    assert "d4" not in p.pieces() and "f6" not in p.pieces()
    # The last move's path is drawn.
    assert p.d.find_elements(By.CSS_SELECTOR, "#board .last-line")
    for _ in range(40):
        if "Game over" in p.status():
            break
        p.my_turn()
        p.action("hint")
        p.wait(p.hint, "a hint")
        squares = re.split(r"[-:x]", p.hint())
        p.play(squares)
    status = p.wait(lambda: "Game over" in p.status() and p.status(), "the end of the game")
    assert "White wins" in status and "2-0" in status, status


def test_hot_seat_undo_flip_history(p, shots):
    p.new_game("turkish", "human")
    p.my_turn(against_engine=False)
    assert len(p.squares()) == 64
    assert p.pieces()["d3"] == "w" and p.pieces()["e6"] == "b"
    p.play(["d3", "d4"])
    assert "Black to move" in p.status(), p.status()
    p.play(["e6", "e5"])
    p.play(["d4", "d5"])
    # Keyboard entry too.
    box = p.d.find_element(By.ID, "move-input")
    box.send_keys("e5xc5", Keys.ENTER)
    p.wait(lambda: len(p.moves()) == 4, "the typed capture")
    assert p.moves() == ["d3-d4", "e6-e5", "d4-d5", "e5xc5"], p.moves()
    assert p.pieces().get("c5") == "b" and "d5" not in p.pieces() and "e5" not in p.pieces()
    p.action("undo")
    p.wait(lambda: len(p.moves()) == 3, "undo")
    assert p.pieces().get("d5") == "w" and p.pieces().get("e5") == "b"
    # Look back at the first move, then return.
    p.d.find_element(By.CSS_SELECTOR, "#moves > *:first-child").click()
    p.wait(lambda: "Looking at move 1" in p.status(), "the earlier position")
    assert p.pieces().get("d4") == "w" and p.pieces().get("e6") == "b"
    p.d.find_element(By.CSS_SELECTOR, "#moves > *:last-child").click()
    p.wait(lambda: "Looking" not in p.status(), "the current position")
    first = p.squares()[0]
    p.action("flip")
    p.wait(lambda: p.squares()[0] != first, "the flipped board")
    assert p.squares()[0] == "h1"
    p.action("flip")
    if shots:
        p.d.save_screenshot(os.path.join(shots, "turkish.png"))


def test_hint_eval_and_pdn_download(p, download_dir, shots):
    p.new_game("russian", "engine", "black", movetime="0.1")
    p.wait(lambda: len(p.moves()) == 1, "the engine's first move as White")
    # Seen from Black: h1 (light, not playable) top left, so g1 is the first playable square.
    assert p.squares()[0] == "g1", "Black's view"
    p.my_turn()
    p.action("hint")
    p.wait(p.hint, "a hint")
    assert p.d.find_elements(By.CSS_SELECTOR, "#board .hint-line")
    if not p.d.find_element(By.ID, "eval-toggle").is_selected():
        p.d.find_element(By.ID, "eval-toggle").click()
    p.wait(lambda: "depth" in p.d.find_element(By.ID, "analysis").text, "the evaluation")
    assert p.d.find_element(By.ID, "evalbar").is_displayed()
    if shots:
        p.d.save_screenshot(os.path.join(shots, "russian.png"))
    squares = re.split(r"[-:x]", p.hint())
    p.play(squares)
    p.wait(lambda: len(p.moves()) == 3, "the engine's reply")
    p.my_turn()
    p.action("undo")
    p.wait(lambda: len(p.moves()) == 1, "undo back to the person's turn")
    p.action("pdn")
    text = browser_review.download(p, download_dir, ".pdn", "the PDN download")
    assert '[GameType "25"]' in text and '[White "damka"]' in text, text
    assert "1. " + p.moves()[0] in text, text


def test_drag_and_pdn_import(p):
    # A PDN record of a Turkish game goes on where it stopped; a piece is moved by dragging.
    pdn = '[GameType "30"]\n1. d3-d4 e6-e5 2. d4-d5 *'
    p.show_form()
    p.d.find_element(By.CSS_SELECTOR, "details.import summary").click()
    box = p.d.find_element(By.ID, "import-text")
    box.clear()
    box.send_keys(pdn)
    Select(p.d.find_element(By.NAME, "opponent")).select_by_value("human")
    before = p.d.execute_script("return location.hash")
    p.action("import")
    p.wait(lambda: p.moves() == ["d3-d4", "e6-e5", "d4-d5"], "the imported game")
    assert p.d.execute_script("return location.hash") != before
    p.my_turn(against_engine=False)
    # By viewport coordinates: the board redraws when the drag starts, so elements found
    # before it would be stale.
    (sx, sy), (tx, ty) = p.d.execute_script(
        "return ['e5', 'c5'].map((n) => {"
        "  const r = document.querySelector(`#board [data-square=${n}]`)"
        "    .getBoundingClientRect();"
        "  return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]; })")
    chain = ActionChains(p.d)
    pointer = chain.w3c_actions.pointer_action
    pointer.move_to_location(sx, sy)
    pointer.pointer_down()
    pointer.move_to_location(sx - 15, sy)
    pointer.move_to_location((sx + tx) // 2, sy)
    pointer.move_to_location(tx, ty)
    pointer.pointer_up()
    chain.perform()
    p.wait(lambda: len(p.moves()) == 4, "the dragged capture")
    assert p.moves()[3] == "e5xc5", p.moves()
    assert p.pieces().get("c5") == "b" and "d5" not in p.pieces()


def mount_test_board(p, on_move, on_choose, setup, legal):
    """The board component alone in #test-board: `setup` places pieces on `board` (64 cells,
    a1 first), `legal` is its moves; the picked move lands in window.testPicked."""
    p.d.execute_async_script(f"""
      const done = arguments[arguments.length - 1];
      import('/assets/board.js').then(({{ DraughtsBoard }}) => {{
        const host = document.createElement('div');
        host.id = 'test-board';
        host.className = 'board';
        document.body.appendChild(host);
        window.testPicked = null;
        const b = new DraughtsBoard(host, {{ onMove: {on_move}, onChoose: {on_choose} }});
        const board = '.'.repeat(64).split('');
        {setup}
        b.set({{ board: board.join(''), legal: {legal} }});
        done();
      }});
    """)


def test_ambiguous_capture_is_asked(p):
    # The board component alone, given two captures with the same start and end: clicking
    # the end square asks which one.
    mount_test_board(
        p,
        "(m) => { window.testPicked = m.text; }",
        "(moves, pick) => { window.testChoices = moves.map((m) => m.text); pick(moves[1]); }",
        "board[4] = 'W';",
        """[
          { text: 'e1:c3:e5', from: 'e1', path: ['c3', 'e5'], captured: ['d2', 'd4'] },
          { text: 'e1:g3:e5', from: 'e1', path: ['g3', 'e5'], captured: ['f2', 'f4'] },
        ]""")
    p.d.find_element(By.CSS_SELECTOR, '#test-board [data-square="e1"]').click()
    p.d.find_element(By.CSS_SELECTOR, '#test-board [data-square="e5"]').click()
    picked = p.wait(lambda: p.d.execute_script("return window.testPicked"), "the chosen move")
    assert picked == "e1:g3:e5", picked
    assert p.d.execute_script("return window.testChoices") == ["e1:c3:e5", "e1:g3:e5"]
    p.d.execute_script("document.getElementById('test-board').remove()")


def test_king_paths_between_captures(p):
    # A king taking two pieces on one line may pause on either square between them: entering
    # the second path square by square plays the move, by the path entered.
    mount_test_board(
        p,
        "(m) => { window.testPicked = [m.text, ...m.path]; }",
        "() => { window.testPicked = ['asked']; }",
        "board[0] = 'W'; board[18] = 'b'; board[45] = 'b';",
        """[
          { text: 'a1:d4:g7', from: 'a1', path: ['d4', 'g7'], paths: [['d4', 'g7'], ['e5', 'g7']],
            captured: ['c3', 'f6'] },
          { text: 'a1:d4:h8', from: 'a1', path: ['d4', 'h8'], paths: [['d4', 'h8'], ['e5', 'h8']],
            captured: ['c3', 'f6'] },
        ]""")
    for sq in ("a1", "e5", "g7"):
        p.d.find_element(By.CSS_SELECTOR, f'#test-board [data-square="{sq}"]').click()
    picked = p.wait(lambda: p.d.execute_script("return window.testPicked"), "the king's move")
    assert picked == ["a1:d4:g7", "e5", "g7"], picked
    p.d.execute_script("document.getElementById('test-board').remove()")


class Server:
    """damka-web on a free port with its database in a temporary folder; restarts on the
    same port and database."""

    def __init__(self, binary, folder, extra=(), name="rooms"):
        self.binary = binary
        self.extra = extra
        self.db = os.path.join(folder, name + ".sqlite3")
        self.proc, self.url = start_server(binary, self.db, extra=extra)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def start(self):
        port = int(self.url.rstrip("/").rsplit(":", 1)[1])
        self.proc, _ = start_server(self.binary, self.db, port, self.extra)


def run(tests, driver):
    """Runs each (name, test) on a fresh page; returns how many failed."""
    failed = 0
    for name, test in tests:
        start = time.time()
        try:
            test()
            # The positions the page rebuilt from the moves ended on the server's board.
            mismatches = driver.execute_script("return window.damkaReplayMismatches || 0")
            assert mismatches == 0, f"{mismatches} replays differ from the server's board"
            print(f"ok   {name} ({time.time() - start:.1f} s)")
        except Exception:
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc()
            logs = driver.get_log("browser") if hasattr(driver, "get_log") else []
            for entry in logs[-10:]:
                print("  browser:", entry.get("message"))
    return failed


def analysis_review(p, download_dir, variants=("russian", "turkish")):
    """The analysis board and the review (tools/wasm/browser_review.py's checks) with the
    server's engine: this page has no engine in the browser."""
    browser_review.run_server(p, download_dir, variants)


# The tests that read back what the server's store keeps: games and rooms after a reload or a
# restart of the server, a room's rematch and abort, a review kept with its game.
STORED = {
    "local game: restart, reload, read-only for others",
    "online room: two players, a spectator, reload, restart",
    "play: online abort, rematch, declined draw, resign confirmed",
    "analysis and review on the server's engine",
    "online: no first move, the game is aborted",
}


def main():
    import browser_page as pg
    from browser_online import test_online_abort, test_online_room
    import browser_play as play

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", default="target/ci/damka-web")
    ap.add_argument("--screenshots", help="save the boards' screenshots in this folder")
    ap.add_argument("--stored", action="store_true",
                    help="only the tests of what the server's store keeps (see above)")
    args = ap.parse_args()
    download_dir = tempfile.mkdtemp(prefix="damka-web-dl-")
    server = Server(args.server, download_dir)
    driver = None
    phone = None
    failed = 0
    # A second server whose online games are aborted 2 s after both seats are taken.
    quick = Server(args.server, download_dir, ("--first-move-timeout", "2"), "quick")
    try:
        driver = start_browser(download_dir)
        phone = start_browser(download_dir, phone=True, dark=True)
        p = Page(driver, server.url)
        q = Page(phone, server.url)

        def fresh(test, page=p):
            def go():
                page.url = server.url
                page.open()
                test()
            return go

        shots = args.screenshots
        tests = [
            ("engine game with a multi-capture", fresh(lambda: test_engine_game_with_multi_capture(p, shots))),
            ("hot seat, undo, flip, history", fresh(lambda: test_hot_seat_undo_flip_history(p, shots))),
            ("hint, evaluation, PDN download", fresh(lambda: test_hint_eval_and_pdn_download(p, download_dir, shots))),
            ("drag and PDN import", fresh(lambda: test_drag_and_pdn_import(p))),
            ("ambiguous capture asked", fresh(lambda: test_ambiguous_capture_is_asked(p))),
            ("king paths between captures", fresh(lambda: test_king_paths_between_captures(p))),
            ("start form, last game", fresh(lambda: pg.test_start_form(p))),
            ("refused moves say why", fresh(lambda: pg.test_refusal_reasons(p))),
            ("game over banner, rematch, sounds, animation", fresh(lambda: pg.test_game_over_banner_and_rematch(p, shots))),
            ("mute, theme, keyboard, title", fresh(lambda: pg.test_feel(p))),
            ("desktop dark screenshot", fresh(lambda: pg.desktop_dark_screenshot(p, shots))),
            ("local game with clocks, reload", fresh(lambda: pg.test_local_clocks(p))),
            ("phone: a game by touch, the board on screen", fresh(lambda: pg.test_phone_game(q, shots), q)),
            ("local game: restart, reload, read-only for others",
             fresh(lambda: pg.test_local_game_lasts_and_is_its_owners(p, lambda: start_browser(download_dir), server.stop, server.start))),
            ("online room: two players, a spectator, reload, restart",
             fresh(lambda: test_online_room(p, lambda phone=False: start_browser(download_dir, phone), server.stop, server.start, shots))),
        ]
        def sized(width, height, touch_screen):
            if touch_screen:
                return start_browser(download_dir, phone=(width, height))
            return start_browser(download_dir, size=(width, height))

        tests += [
            ("play: the board in view after Start, moves and Rematch at 360, 390 and 1280 px",
             lambda: play.test_board_in_view(sized, server.url)),
            ("play: keys after a board click, keyboard mode", fresh(lambda: play.test_keys_after_a_board_click(p))),
            ("play: one status message", fresh(lambda: play.test_one_status_message(p))),
            ("play: premoves played, dropped, cancelled", fresh(lambda: play.test_premoves(p))),
            ("play: offline banner, clocks stopped", fresh(lambda: play.test_offline_clocks_stop(p, server.stop, server.start))),
            ("play: online abort, rematch, declined draw, resign confirmed",
             fresh(lambda: play.test_online_abort_rematch_resign_decline(p, sized))),
            ("analysis and review on the server's engine", fresh(lambda: analysis_review(p, download_dir))),
            ("phone: analysis and review", fresh(lambda: analysis_review(q, download_dir, ("russian",)), q)),
        ]
        only = os.environ.get("WEB_TEST_ONLY")
        tests.append(("online: no first move, the game is aborted",
                      lambda: test_online_abort(Page(driver, quick.url), lambda: start_browser(download_dir))))
        unknown = STORED - {t[0] for t in tests}
        if unknown:
            raise SystemExit(f"STORED names no test: {sorted(unknown)}")
        if only:
            tests = [t for t in tests if only in t[0]]
        if args.stored:
            tests = [t for t in tests if t[0] in STORED]
        failed = run(tests, driver)
    finally:
        quick.stop()
        if driver is not None:
            driver.quit()
        if phone is not None:
            phone.quit()
        server.stop()
    if failed:
        print(f"{failed} browser test(s) failed")
        return 1
    print("browser tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
