"""Browser checks of the analysis board, the game review and the board editor
(docs/review.md, docs/web.md) on the static page with the engine in the browser, at desktop
and phone sizes: a hot-seat game with a planted blunder in each variant is analysed (three
lines that change with the viewed move, one played out as a side line and left again),
reviewed (the blunder marked `??` at its ply, the evaluation graph with one point per ply,
a point clicked goes to its position), exported as PDN with `[%eval]` for every move, kept
over a reload; a review started twice or cancelled midway says so and loses nothing; the
board editor refuses an illegal position and its link opens a legal one. Called by
browser_check.py with its page; every wait is on a condition.
"""

import os
import re
import time

from selenium.webdriver.common.by import By

# A game per variant and the ply of its planted blunder: Russian 2. e3-f4?? gives two men
# (g5:e3:c5), Turkish 2. d4-d5?? a man (d6xd4).
GAMES = {
    "russian": ([["c3", "d4"], ["f6", "g5"], ["e3", "f4"], ["g5", "e3", "c5"]], 3),
    "turkish": ([["d3", "d4"], ["a6", "a5"], ["d4", "d5"], ["d6", "d4"]], 3),
}


def lines(p):
    return p.js("return [...document.querySelectorAll('#analysis [data-line]')]"
                ".map((e) => ({line: e.dataset.line, score: e.dataset.score, moves: e.dataset.moves}))")


def marks(p):
    return p.js("const out = {};"
                "for (const e of document.querySelectorAll('#moves [data-ply]'))"
                "  if (e.dataset.mark) out[e.dataset.ply] = e.dataset.mark;"
                "return out;")


def graph(p):
    return p.js("return [...document.querySelectorAll('#eval-graph [data-ply]')]"
                ".map((e) => [Number(e.dataset.ply), e.dataset.eval])")


def click(p, css):
    p.wait(lambda: p.js("const e = document.querySelector(arguments[0]);"
                        "if (!e || e.disabled) return false; e.click(); return true;", css), f"a click on {css}")


def viewed_ply(p):
    return p.js("const c = document.querySelector('#moves .current');"
                "return c ? Number(c.dataset.ply) : null;")


def analysis(p, plies):
    click(p, '#analysis-tools [data-action="analyse"]')
    p.wait(lambda: len(lines(p)) == 3 and all(l["moves"] for l in lines(p)), "three analysis lines")
    for line in lines(p):
        float(line["score"])
    at_end = lines(p)[0]["moves"].split()[0]
    click(p, '#moves [data-ply="1"]')
    p.wait(lambda: len(lines(p)) == 3 and all(l["moves"] for l in lines(p))
           and lines(p)[0]["moves"].split()[0] != at_end, "the lines of the viewed move")
    # A line played out on the board, then the game's board again.
    before = p.pieces()
    click(p, '#analysis [data-line="1"]')
    p.wait(lambda: p.js("return !document.querySelector('#side-line').hidden"), "the side line")
    p.wait(lambda: p.pieces() != before, "the side line's position on the board")
    click(p, '[data-action="side-line-back"]')
    p.wait(lambda: p.pieces() == before, "the game's position again")
    assert viewed_ply(p) == 1
    # With Evaluation on, the bar follows the viewed position's best line, not the live one.
    p.js("const t = document.querySelector('#eval-toggle'); if (!t.checked) t.click();")
    p.wait(lambda: p.js(
        "const b = document.querySelector('#evalbar'), f = document.querySelector('#evalfill');"
        "const l = document.querySelector('#analysis [data-line=\"1\"]');"
        "if (!b || b.hidden || b.classList.contains('stale') || !l) return false;"
        "const want = 100 / (1 + Math.exp(-Number(l.dataset.score) * 100 / 150));"
        "return Math.abs(parseFloat(f.style.height) - want) < 0.2;"), "the evaluation bar of the viewed move")
    p.js("document.querySelector('#eval-toggle').click();")
    p.wait(lambda: len(lines(p)) == 3 and all(l["moves"] for l in lines(p)), "the lines again")
    click(p, f'#moves [data-ply="{plies}"]')


def analyse_at_the_end(p):
    """The game-over banner's Analyse: the last position says the game is over, the one before
    shows its line."""
    p.new_game("russian", "human", fen="W:Wc3:Bd4,f6")
    p.play(["c3", "e5", "g7"])
    p.wait(lambda: p.js("return !document.querySelector('#result').hidden"), "the game-over banner")
    click(p, '#result [data-action="analyse"]')
    p.wait(lambda: "over" in p.text("analysis-lines"), "the game is over, said in the analysis")
    p.js("document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true}))")
    p.wait(lambda: len(lines(p)) == 1 and lines(p)[0]["moves"].startswith("c3:e5:g7"),
           f"the one line of the position before: {lines(p)}")


def download(p, folder, suffix, what):
    """The text of the file ending in `suffix` that the browser downloads into `folder`.
    Chromium names the file before it has written it (the bytes go to a `.crdownload` file
    first), so the file counts only once no download is in progress and it holds something."""
    found = {}

    def done():
        names = os.listdir(folder)
        if any(n.endswith(".crdownload") for n in names):
            return False
        for n in names:
            path = os.path.join(folder, n)
            if n.endswith(suffix) and os.path.getsize(path) > 0:
                found["path"] = path
                return True
        return False

    p.wait(done, what)
    with open(found["path"], encoding="utf-8") as fh:
        return fh.read()


def review(p, plies, blunder, download_dir):
    click(p, '[data-action="review"]')
    p.wait(lambda: p.js("return Boolean(document.querySelector('#review-progress'))"), "the review's progress")
    p.wait(lambda: not p.js("return Boolean(document.querySelector('#review-progress'))"), "the review's end")
    p.wait(lambda: marks(p).get(str(blunder)) == "??", f"?? at ply {blunder}: {marks(p)}")
    points = graph(p)
    assert [ply for ply, _ in points] == list(range(1, plies + 1)), points
    assert all(re.fullmatch(r"-?\d+\.\d\d", ev) for _, ev in points), points
    p.js("document.querySelector('#eval-graph [data-ply=\"2\"]').dispatchEvent(new MouseEvent('click'))")
    p.wait(lambda: viewed_ply(p) == 2, "the position of the point clicked")
    summary = p.text("review-summary")
    assert "White: 0 inaccuracies (?!), 0 mistakes (?), 1 blunders (??)" in summary, summary
    # Both the review's button and the page's PDN button export the reviewed game.
    for button in ('[data-action="review-pdn"]', '.play [data-action="pdn"]'):
        for f in os.listdir(download_dir):
            if f.endswith("-review.pdn"):
                os.remove(os.path.join(download_dir, f))
        click(p, button)
        text = download(p, download_dir, "-review.pdn", "the PDN downloaded")
        assert text.count("[%eval ") == plies, text
        assert "??" in text, text


def review_twice_and_cancelled(p, blunder, earlier=True):
    click(p, '[data-action="review"]')
    p.wait(lambda: p.js("return Boolean(document.querySelector('#review-progress'))"), "a second review")
    click(p, '[data-action="review"]')
    p.wait(lambda: "already running" in p.text("review-message"), "the review twice refused")
    click(p, '[data-action="review-cancel"]')
    p.wait(lambda: "cancelled" in p.text("review-message"), "the review cancelled")
    assert not p.js("return Boolean(document.querySelector('#review-progress'))")
    if earlier:
        assert marks(p).get(str(blunder)) == "??", "the earlier review is kept"
    else:
        assert marks(p) == {}, marks(p)


def kept_over_reload(p, blunder):
    game = p.js("return location.hash")
    p.d.get(p.url + game)
    p.wait(lambda: marks(p).get(str(blunder)) == "??", "the review after a reload")


def editor(p):
    click(p, '[data-action="board-editor"]')
    click(p, '[data-editor="clear"]')
    click(p, '#editor-pieces [data-piece="w"]')
    click(p, '#editor-board [data-square="b8"]')
    click(p, '#editor-pieces [data-piece="b"]')
    click(p, '#editor-board [data-square="d6"]')
    click(p, '[data-editor="check"]')
    p.wait(lambda: "Not a legal position" in p.text("editor-message"), "an illegal position refused")
    assert not p.js("return !document.querySelector('#editor-link').hidden")
    click(p, '#editor-pieces [data-piece="w"]')
    click(p, '#editor-board [data-square="b8"]')  # the same piece again: the square empties
    click(p, '#editor-board [data-square="c3"]')
    click(p, '[data-editor="check"]')
    p.wait(lambda: p.js("return !document.querySelector('#editor-link').hidden"), "the link of a legal position")
    fen = p.js("return document.querySelector('#editor-fen').value")
    assert fen == "W:Wc3:Bd6", fen
    link = p.js("return document.querySelector('#editor-link').href")
    p.d.get(link)
    p.wait(lambda: p.pieces() == {"c3": "w", "d6": "b"} or sorted(p.pieces()) == ["c3", "d6"],
           f"the editor's position opened by its link: {p.pieces()}")


def kept_on_the_server(p, blunder):
    """A server game's review, gone from this browser's storage, comes back from the server
    at once when Review is pressed."""
    p.js("for (const k of Object.keys(localStorage)) if (k.startsWith('damka-review:')) localStorage.removeItem(k);")
    game = p.js("return location.hash")
    p.d.get(p.url + f"?again={time.time()}" + game)  # a new query: a page load
    p.wait(lambda: len(p.moves()) > blunder, "the game again")
    assert marks(p) == {}, marks(p)
    click(p, '[data-action="review"]')
    p.wait(lambda: marks(p).get(str(blunder)) == "??", "the review kept by the server")


def played_and_analysed(p, variant):
    """A new game of `variant` between people with the moves of `GAMES` played, then the
    analysis checks; the moves and the ply of the blunder."""
    moves, blunder = GAMES[variant]
    p.new_game(variant, "human")
    for m in moves:
        p.play(m)
    analysis(p, len(moves))
    return moves, blunder


def run_server(p, download_dir, variants=("russian", "turkish")):
    """The checks on damka-web's page without the engine in the browser: the server's engine
    analyses and reviews, and keeps the review with its game."""
    for variant in variants:
        moves, blunder = played_and_analysed(p, variant)
        # Before the first review ends: the server answers the game's kept review at once.
        review_twice_and_cancelled(p, blunder, earlier=False)
        review(p, len(moves), blunder, download_dir)
        kept_on_the_server(p, blunder)
        analyse_at_the_end(p)
        print(f"ok   {variant} on the server's engine: lines, side line, review ?? at ply {blunder}, "
              "graph, PDN with [%eval], twice and cancel refused, kept with the game")


def run(p, download_dir, variants=("russian", "turkish")):
    """The whole check on page `p` (the static page, opened)."""
    for variant in variants:
        moves, blunder = played_and_analysed(p, variant)
        review(p, len(moves), blunder, download_dir)
        review_twice_and_cancelled(p, blunder)
        kept_over_reload(p, blunder)
        analyse_at_the_end(p)
        print(f"ok   {variant}: analysis lines follow the viewed move, a side line played and left, review marks ?? at ply {blunder}, graph, PDN with [%eval], kept, twice and cancel refused, Analyse at the end")
    editor(p)
    print("ok   board editor: an illegal position refused, a legal one opened by its link")


def speed(p, hub_moves, variant="russian"):
    """The review of a game given by its Hub moves, timed; the longest gap between frames
    and the longest task of the page's thread while it runs. Returns (seconds, longest frame
    gap in ms, longest task in ms: 0 when none reached the 50 ms the browser reports)."""
    game_id = "local-speed" + str(int(time.time()))
    p.js("const games = JSON.parse(localStorage.getItem('damka-local-games') || '{}');"
         "games[arguments[0]] = {id: arguments[0], variant: arguments[1], opponent: 'human', color: 'white',"
         " skill: 10, movetime: 1, fen: '', moves: arguments[2], version: 0, used: Date.now()};"
         "localStorage.setItem('damka-local-games', JSON.stringify(games));", game_id, variant, hub_moves)
    # A new query: a page load, not only a new hash.
    p.d.get(p.url + "?speed#" + game_id)
    p.wait(lambda: len(p.moves()) == len(hub_moves), "the game to review")
    p.js("window.damkaFrames = {max: 0, last: performance.now(), on: true, long: [], t0: performance.now()};"
         "const tick = (t) => { const f = window.damkaFrames; if (!f.on) return;"
         "  if (t - f.last > 50) f.long.push([Math.round(f.last - f.t0), Math.round(t - f.last)]);"
         "  f.max = Math.max(f.max, t - f.last); f.last = t; requestAnimationFrame(tick); };"
         "requestAnimationFrame(tick);"
         "window.damkaTasks = [];"
         "new PerformanceObserver((l) => { for (const e of l.getEntries())"
         "  window.damkaTasks.push(Math.round(e.duration)); }).observe({type: 'longtask'});")
    start = time.time()
    click(p, '[data-action="review"]')
    p.wait(lambda: p.js("return Boolean(document.querySelector('#review-progress'))"), "the review's progress")
    while p.js("return Boolean(document.querySelector('#review-progress'))"):
        time.sleep(0.05)
    took = time.time() - start
    gap = p.js("window.damkaFrames.on = false; return window.damkaFrames.max;")
    task = max(p.js("return window.damkaTasks"), default=0)
    if os.environ.get("DAMKA_FRAMES"):
        print("frames over 50 ms [at ms, length ms]:", p.js("return window.damkaFrames.long"))
    assert graph(p), "the review's graph"
    return took, gap, task
