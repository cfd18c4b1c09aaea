"""Browser tests of the page as players expect it (docs/web.md, "Playing on it"): the board
wholly on screen after Start, after every move and after a rematch at 360x740 and 390x844
(touch) and 1280x900; the keys after a click on the board, and the board's keyboard mode;
one status message worded for the viewer; the clocks frozen and the offline banner while the
server is down; online abort, rematch, resign with its confirmation and a declined draw, seen
by both players and a watcher. Called by browser_test.py; every wait is on a condition.
"""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from browser_online import Room
from browser_page import centre, inside_screen, shown, touch

SIZES = ((360, 740, True), (390, 844, True), (1280, 900, False))


def in_view(p, what):
    outside, sideways = inside_screen(p, ["#board"])
    assert not outside and not sideways, (what, outside, sideways, p.js("return [scrollY, innerWidth, innerHeight]"))


def tap(p, square, touch_screen):
    if touch_screen:
        x, y = centre(p, square)
        touch(p, [(x, y)])
    else:
        p.click_square(square)


def tap_move(p, squares, touch_screen):
    n = len(p.moves())
    for sq in squares:
        tap(p, sq, touch_screen)
    p.wait(lambda: len(p.moves()) > n, f"the move {squares}")


def bottom(p):
    p.js("window.scrollTo(0, document.scrollingElement.scrollHeight)")


def test_board_in_view(new_browser, url):
    """On each size: Start reachable on the first load, the board wholly on screen after Start
    (the page scrolled to the bottom before), after every move and after a rematch; a move in
    a finished game refused with the reason."""
    for width, height, touch_screen in SIZES:
        d = new_browser(width, height, touch_screen)
        try:
            p = Room(d, url)
            p.open()
            p.js("localStorage.clear()")
            p.open()
            start = p.d.find_element(By.CSS_SELECTOR, '[data-action="start"]')
            top = p.js("return arguments[0].getBoundingClientRect().bottom", start)
            assert top <= height, (width, height, "Start below the fold", top)
            bottom(p)
            p.new_game("russian", "human")
            p.my_turn(against_engine=False)
            in_view(p, f"{width}x{height} after Start")
            assert not shown(p, "#new-game"), "the form folds away during play"
            for squares in (["c3", "d4"], ["f6", "g5"], ["g3", "h4"], ["g5", "f4"]):
                tap_move(p, squares, touch_screen)
                in_view(p, f"{width}x{height} after {squares}")
            # A game that ends at once, then its rematch, the page scrolled down first.
            p.new_game("russian", "engine", "white", movetime="0.1", fen="W:Wc3:Bd4")
            p.my_turn()
            tap_move(p, ["c3", "e5"], touch_screen)
            p.wait(lambda: shown(p, "#result"), "the banner")
            assert p.text("result-text").startswith("White wins: Black has no pieces left"), p.text("result-text")
            # A move (or a premove) in a finished game: refused with the reason.
            tap(p, "e5", touch_screen)
            p.wait(lambda: p.status() == "the game is over", "the refusal after the end")
            bottom(p)
            before = p.js("return location.hash")
            p.action("rematch")
            p.wait(lambda: p.js("return location.hash") != before and len(p.moves()) >= 1, "the rematch, the engine as White")
            in_view(p, f"{width}x{height} after Rematch")
        finally:
            d.quit()


def test_keys_after_a_board_click(p):
    """The page's keys work after a click on the board; the arrow keys move the board's
    cursor only in keyboard mode."""
    p.new_game("russian", "human")
    p.play(["c3", "d4"])
    p.play(["f6", "g5"])
    first = p.squares()[0]
    keys = ActionChains(p.d)
    keys.send_keys("f").perform()
    p.wait(lambda: p.squares()[0] != first, "flipped by f after a click on the board")
    assert p.js("return document.activeElement.id") == "board", "the board has the focus"
    keys.send_keys("\ue012").perform()  # ArrowLeft
    p.wait(lambda: p.status().startswith("Looking at move 1 of 2"), "back one move by the arrow key")
    keys.send_keys("\ue011").perform()  # Home
    p.wait(lambda: p.status().startswith("Looking at move 0 of 2"), "the start by Home")
    assert "to move" not in p.status(), "one message: " + p.status()
    keys.send_keys("\ue010").perform()  # End
    p.wait(lambda: p.status() == "White to move", "back to the game, one message")
    keys.send_keys("u").perform()
    p.wait(lambda: p.moves() == ["c3-d4"], "undone by u")
    # Keyboard mode: Enter on the board; then the arrow keys move its cursor, not the game.
    keys.send_keys("\ue007").perform()  # Enter
    p.wait(lambda: p.js("return document.querySelector('#board').hasAttribute('data-keyboard')"), "keyboard mode")
    keys.send_keys("\ue012").perform()
    p.wait(lambda: p.d.find_elements(By.CSS_SELECTOR, "#board .sq.cursor"), "the cursor")
    assert not p.status().startswith("Looking at"), p.status()
    p.click_square("f6")
    assert not p.js("return document.querySelector('#board').hasAttribute('data-keyboard')"), "a click ends it"


def test_one_status_message(p):
    """Against the engine: a refusal alone, then the turn alone once the engine moved, an
    earlier position alone, and the end alone."""
    p.new_game("russian", "engine", "white", movetime="0.1")
    p.my_turn()
    p.click_square("f6")
    p.wait(lambda: p.status().startswith("not your turn"), "the refusal")
    assert "Your move" not in p.status(), p.status()
    p.play(["c3", "d4"])
    p.wait(lambda: len(p.moves()) == 2, "the engine's answer")
    p.wait(lambda: p.status() == "Your move (white)", "the turn alone: " + p.status())
    p.d.find_elements(By.CSS_SELECTOR, "#moves li")[0].click()
    p.wait(lambda: p.status().startswith("Looking at move 1 of 2"), "an earlier position")
    assert "Your move" not in p.status() and "thinking" not in p.status(), p.status()


def test_offline_clocks_stop(p, stop, start):
    """A hot-seat game with a clock on the server: while the server is down the banner says
    so and the page's clocks stand still; when it is back the page reconnects at once."""
    p.new_game("russian", "human", clock="60+0")
    p.play(["c3", "d4"])
    p.wait(lambda: p.d.find_element(By.ID, "clock-black").get_attribute("class").find("running") >= 0, "Black's clock")
    stop()
    p.wait(lambda: p.js("return document.querySelector('#connection[data-state=\"offline\"]') !== null"), "the banner")
    assert p.d.find_element(By.ID, "connection").is_displayed()
    first = p.text("clock-black")
    p.js("return new Promise((r) => setTimeout(r, 1500))")
    assert p.text("clock-black") == first, (first, p.text("clock-black"))
    assert "running" not in p.d.find_element(By.ID, "clock-black").get_attribute("class")
    assert p.status().startswith("Not connected"), p.status()
    start()
    p.wait(lambda: p.text("connection") == "connected", "the connection back")
    p.wait(lambda: p.text("clock-black") != first, "the clock running again")


def test_online_abort_rematch_resign_decline(first, new_browser):
    """White on a desktop, Black on a 390x844 phone, a watcher on a 360x740 phone: Black
    aborts before the first move, White offers a rematch, Black accepts: both move to the
    new room with the colours swapped (the watcher follows); a premove by White while Black
    thinks; a draw declined is told to the offerer and the watcher; a resignation needs its
    confirmation."""
    a = Room(first.d, first.url)
    a.open()
    a.new_game("russian", "online", "white", clock="300+3")
    link = a.wait(lambda: "/room/" in a.text("room-link") and a.text("room-link"), "the room link")
    b = Room(new_browser(390, 844, True), link)
    c = Room(new_browser(360, 740, True), link)
    try:
        b.enter(link)
        c.enter(link + "?watch")
        a.wait(lambda: a.status().startswith("Your move"), "White's turn")
        b.wait(lambda: shown(b, '[data-action="abort"]'), "Abort for Black")
        tap_abort = b.d.find_element(By.CSS_SELECTOR, '[data-action="abort"]')
        assert inside_screen(b, ['[data-action="abort"]'])[0] == [], "Abort on screen"
        tap_abort.click()
        for page in (a, b, c):
            page.wait(lambda p=page: p.text("result-text") == "Game aborted by Black", "the abort")
        assert not shown(c, '[data-action="rematch"]'), "no rematch for a watcher"
        # The offer is made from the room's view after the abort (not from the result banner
        # alone, which a loaded machine can show before the view arrives).
        a.wait(lambda: a.text_of('[data-action="rematch"]') == "Offer a rematch", "White's Offer a rematch")
        a.action("rematch")
        a.wait(lambda: a.text_of('[data-action="rematch"]') == "Rematch offered", "White's offer made")
        b.wait(lambda: "offers a rematch" in b.status() and b.text_of('[data-action="rematch"]') == "Accept rematch",
               "the offer to Black (White's status: " + a.status() + ")")
        c.wait(lambda: "White offers a rematch" in c.status(), "the offer seen by the watcher")
        old = b.d.current_url
        b.action("rematch")
        for page in (a, b, c):
            page.wait(lambda p=page: p.d.current_url.split("?")[0] != old and p.text("seat").startswith("You "),
                      "the new room")
        assert a.text("seat").startswith("You play black"), a.text("seat")
        assert b.text("seat").startswith("You play white"), b.text("seat")
        assert c.text("seat").startswith("You are watching"), c.text("seat")
        b.wait(lambda: b.status().startswith("Your move"), "White's turn in the rematch")
        in_view(b, "Black's phone after the rematch")
        tap_move(b, ["c3", "d4"], True)
        a.wait(lambda: a.status().startswith("Your move"), "Black's turn")
        assert not shown(a, '[data-action="abort"]'), "no abort after the first move"
        # White queues a premove while Black thinks; it is played on White's turn.
        tap(b, "g3", True)
        tap(b, "h4", True)
        b.wait(lambda: b.status().startswith("premove g3-h4 queued"), "White's premove")
        a.action("draw")
        b.wait(lambda: shown(b, '[data-action="decline"]'), "the draw offer beside the board")
        assert inside_screen(b, ['[data-action="decline"]'])[0] == [], "Decline on screen"
        b.action("decline")
        a.wait(lambda: a.status().startswith("Your draw offer was declined"), "the offerer told")
        c.wait(lambda: "declined the draw" in c.status(), "the watcher told")
        a.play(["f6", "g5"])
        for page in (a, b, c):
            page.wait(lambda p=page: p.moves() == ["c3-d4", "f6-g5", "g3-h4"], "the premove played at once")
        a.action("resign")
        a.wait(lambda: shown(a, '[data-action="resign-confirm"]'), "the question")
        assert not b.text("result-text"), "one tap does not resign"
        a.action("resign-confirm")
        for page in (a, b, c):
            page.wait(lambda p=page: "White wins (Black resigned), 2-0" in p.status(), "the resignation")
    finally:
        b.d.quit()
        c.d.quit()


def test_premoves(p):
    """Against the engine thinking 2 s a move: a premove queued while it thinks is shown and
    played at once after its move; one that is not legal then is dropped with a note; a
    click cancels a queued one."""
    p.new_game("russian", "engine", "black", movetime="2")
    p.wait(lambda: "thinking" in p.status(), "the engine thinking")
    p.click_square("f6")
    p.click_square("g5")
    p.wait(lambda: p.status().startswith("premove f6-g5 queued"), "the premove queued")
    assert p.d.find_elements(By.CSS_SELECTOR, '#board [data-square="g5"][data-premove]'), "shown"
    p.wait(lambda: len(p.moves()) >= 2, "the engine's move and the premove")
    assert p.moves()[1] == "f6-g5", p.moves()
    p.wait(lambda: "thinking" in p.status(), "the engine thinking again")
    p.click_square("h6")
    p.click_square("e3")
    p.wait(lambda: p.status().startswith("premove h6-e3 queued"), "a premove that cannot be legal")
    p.wait(lambda: p.status() == "premove h6-e3 dropped: not a legal move now", "dropped with a note")
    assert len(p.moves()) == 3, p.moves()
    p.play(["g5", "h4"] if "h4" not in p.pieces() else ["b6", "a5"])
    p.wait(lambda: "thinking" in p.status(), "the engine thinking a third time")
    p.click_square("d6")
    p.click_square("c5")
    p.wait(lambda: "queued" in p.status(), "queued")
    p.click_square("a1")
    p.wait(lambda: p.status() == "premove cancelled", "cancelled by a click")
    assert not p.d.find_elements(By.CSS_SELECTOR, "#board [data-premove]")
    p.wait(lambda: len(p.moves()) == 5, "the engine's move")
    p.my_turn()
