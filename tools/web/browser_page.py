"""Browser tests of playing on the page (docs/web.md): the start form, refused moves
and their reasons, the game-over banner and rematch, sounds, animation, mute, theme, keyboard
play, the tab title, a whole game on a 390x844 touch screen where the board never leaves
the screen, and the clocks of a local game. Called by browser_test.py with its pages; every
wait is on a condition.
"""

import os

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser_test import Page


def shown(p, selector):
    return p.js("const e = document.querySelector(arguments[0]);"
                "return Boolean(e && e.getClientRects().length && !e.closest('[hidden]'));", selector)


def form_fields_shown(p, opponent):
    Select(p.d.find_element(By.NAME, "opponent")).select_by_value(opponent)
    return {n: p.d.find_element(By.NAME, n).is_displayed()
            for n in ("variant", "color", "clock", "skill", "movetime")}


def test_start_form(p):
    # A browser with no game of its own opens on the form, not on a game.
    p.js("localStorage.clear()")
    p.d.get(p.url)
    p.wait(lambda: p.status().startswith("Choose a game"), "the form's invitation")
    assert p.moves() == [] and p.js("return location.hash") == "", p.js("return location.hash")
    assert not shown(p, "#result")
    assert form_fields_shown(p, "human") == {"variant": True, "color": False, "clock": True,
                                             "skill": False, "movetime": False}
    assert form_fields_shown(p, "engine") == {"variant": True, "color": True, "clock": True,
                                              "skill": True, "movetime": True}
    assert form_fields_shown(p, "online") == {"variant": True, "color": True, "clock": True,
                                              "skill": False, "movetime": False}
    # A game started here is this browser's last game: a visit to / opens it again.
    p.new_game("russian", "human")
    p.play(["c3", "d4"])
    game = p.js("return location.hash")
    p.d.get(p.url)
    p.wait(lambda: p.js("return location.hash") == game and p.moves() == ["c3-d4"], "the last game again")


def test_refusal_reasons(p):
    # White must capture: c3:e5 or g3:e5. Touching a1 says so and marks the capturing pieces.
    p.new_game("russian", "human", fen="W:Wa1,c3,g3:Bd4,f4,h8")
    p.my_turn(against_engine=False)
    p.click_square("a1")
    p.wait(lambda: "a capture is compulsory: c3:e5 or g3:e5" in p.status(), "the reason")
    marked = p.js("return [...document.querySelectorAll('#board [data-must-capture]')]"
                  ".map((e) => e.dataset.square).sort()")
    assert marked == ["c3", "g3"], marked
    p.click_square("h8")
    p.wait(lambda: "not your turn" in p.status(), "another side's piece")
    # A refused typed move says why and stays in its box.
    box = p.d.find_element(By.ID, "move-input")
    box.clear()
    box.send_keys("a1-b2", Keys.ENTER)
    p.wait(lambda: "illegal move" in p.status() and "a capture is compulsory" in p.status(),
           "the typed move's refusal")
    assert box.get_attribute("value") == "a1-b2", box.get_attribute("value")
    # An accepted typed move empties the box.
    box.clear()
    box.send_keys("c3:e5", Keys.ENTER)
    p.wait(lambda: p.moves() == ["c3:e5"], "the typed capture")
    p.wait(lambda: box.get_attribute("value") == "", "the box emptied")
    # A piece with nowhere to go.
    p.new_game("russian", "human", fen="W:Wa1,h2:Bb2,c3,h8")
    p.my_turn(against_engine=False)
    p.click_square("a1")
    p.wait(lambda: "that piece cannot move" in p.status(), "a blocked piece")


def test_game_over_banner_and_rematch(p, shots):
    # One capture of two steps ends the game: it is animated step by step, heard, and the
    # banner says the result in words.
    p.new_game("russian", "engine", "white", movetime="0.1", fen="W:Wc3:Bd4,f6")
    p.my_turn()
    assert not shown(p, "#result")
    p.js("window.damkaSounds.length = 0")
    p.play(["c3", "e5", "g7"])
    p.wait(lambda: shown(p, "#result"), "the banner")
    text = p.text("result-text")
    # Black's last pieces taken: said so, not "no legal move".
    assert text.startswith("White wins: Black has no pieces left"), text
    assert ["c3", "e5", "g7"] in p.js("return window.damkaAnimations")
    sounds = p.js("return window.damkaSounds")
    assert "capture" in sounds and "end" in sounds, sounds
    words = p.js("""return import('/assets/words.js').then((w) => [
        w.resultWords({text: 'draw (threefold repetition)'}),
        w.resultWords({text: "White wins (Black's time ran out)"}),
        w.resultWords({text: 'Black wins (no legal move)'})])""")
    assert words == ["Draw: threefold repetition", "White wins on time",
                     "Black wins: White has no legal move"], words
    if shots:
        p.wait(lambda: p.js("return document.getAnimations().length") == 0, "the animation's end")
        p.d.save_screenshot(os.path.join(shots, "game-over.png"))
    # Rematch: the same settings with the colours swapped, so the engine opens as White.
    before = p.js("return location.hash")
    p.action("rematch")
    p.wait(lambda: p.js("return location.hash") != before and len(p.moves()) == 1, "the rematch")
    assert p.squares()[0] == "g1", "the person plays Black"
    assert not shown(p, "#result")
    p.my_turn()
    # New game takes the person to the form.
    p.js("document.querySelector('[data-action=\"new\"]').click()")
    p.wait(lambda: p.js("return document.activeElement.name") == "variant", "the form focused")


def test_feel(p):
    # Mute and theme are remembered across a reload.
    assert p.text_of('[data-action="mute"]') == "Sound on"
    p.action("mute")
    assert p.text_of('[data-action="mute"]') == "Sound off"
    light = p.js("return getComputedStyle(document.body).backgroundColor")
    p.action("theme")
    assert p.js("return document.documentElement.dataset.theme") == "dark"
    p.wait(lambda: p.js("return getComputedStyle(document.body).backgroundColor") != light, "dark colours")
    p.open()
    assert p.text_of('[data-action="mute"]') == "Sound off"
    assert p.js("return document.documentElement.dataset.theme") == "dark"
    p.action("mute")
    p.action("theme")
    assert p.js("return document.documentElement.dataset.theme") == "light"
    # Keyboard play: the arrows move the cursor, Enter picks the piece, then its square.
    p.new_game("russian", "human")
    p.my_turn(against_engine=False)
    board = p.d.find_element(By.ID, "board")
    board.send_keys(Keys.SHIFT)  # focuses the board; the cursor appears at the first key
    for target in ("c3", "d4"):
        keyboard_to(p, board, target)
        board.send_keys(Keys.ENTER)
    p.wait(lambda: p.moves() == ["c3-d4"], "the move made with the keyboard")
    assert p.js("return document.activeElement.id") == "board"
    ring = p.js("return getComputedStyle(document.querySelector('#board .sq.cursor')).boxShadow")
    assert ring and ring != "none", ring
    # The tab title says "Your move" while the page is hidden and it is the person's move.
    p.js("Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});"
         "document.dispatchEvent(new Event('visibilitychange'))")
    p.wait(lambda: p.d.title.startswith("Your move"), "the title")
    p.js("delete document.hidden; document.dispatchEvent(new Event('visibilitychange'))")
    p.wait(lambda: not p.d.title.startswith("Your move"), "the title back")


def keyboard_to(p, board, square):
    """Arrow keys from the board's cursor to `square` (screen cells are the grid's children)."""
    cells = "[...document.querySelectorAll('#board .board-grid > div')]"
    if p.js(f"return {cells}.findIndex((e) => e.classList.contains('cursor'))") < 0:
        board.send_keys(Keys.ARROW_UP)  # the first arrow key shows the cursor
    at = p.js(f"return {cells}.findIndex((e) => e.classList.contains('cursor'))")
    to = p.js(f"return {cells}.findIndex((e) => e.dataset.square === arguments[0])", square)
    dr, dc = to // 8 - at // 8, to % 8 - at % 8
    keys = [Keys.ARROW_DOWN if dr > 0 else Keys.ARROW_UP] * abs(dr)
    keys += [Keys.ARROW_RIGHT if dc > 0 else Keys.ARROW_LEFT] * abs(dc)
    for k in keys:
        board.send_keys(k)
    p.wait(lambda: p.js(f"const c = {cells}.find((e) => e.classList.contains('cursor'));"
                        "return c && c.dataset.square") == square, f"the cursor on {square}")


def touch(p, points):
    """A finger pressed at the first point, moved through the others, lifted."""
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(p.d, mouse=finger)
    x, y = points[0]
    actions.pointer_action.move_to_location(x, y).pointer_down()
    for x, y in points[1:]:
        actions.pointer_action.move_to_location(x, y)
    actions.pointer_action.pointer_up()
    actions.perform()


def centre(p, square):
    return p.js("const r = document.querySelector(`#board [data-square=${arguments[0]}]`)"
                ".getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]",
                square)


def inside_screen(p, selectors):
    """The selectors whose element is not wholly on screen, and whether the page scrolls
    sideways."""
    return p.js("""
      const out = [];
      for (const s of arguments[0]) {
        const e = document.querySelector(s);
        const r = e.getBoundingClientRect();
        if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) out.push(s);
      }
      return [out, document.scrollingElement.scrollWidth > innerWidth];""", selectors)


def test_phone_game(q, shots):
    """On a 390x844 touch screen: a hot-seat game of 16 moves by taps (and one drag), the board
    wholly on screen after every move and nothing scrolling sideways."""
    q.new_game("russian", "human")
    q.my_turn(against_engine=False)
    assert q.js("return document.documentElement.dataset.theme") == "dark", "the system's dark theme"
    if shots:
        q.d.save_screenshot(os.path.join(shots, "phone-dark.png"))
    # A drag by finger first.
    (sx, sy), (tx, ty) = centre(q, "c3"), centre(q, "d4")
    touch(q, [(sx, sy), (sx + 10, sy - 10), ((sx + tx) // 2, (sy + ty) // 2), (tx, ty)])
    q.wait(lambda: q.moves() == ["c3-d4"], "the move dragged by finger")
    for n in range(2, 17):
        if "Game over" in q.status():
            break
        frm = q.js("const e = document.querySelector('#board .movable'); return e && e.dataset.square")
        x, y = centre(q, frm)
        touch(q, [(x, y)])
        q.wait(lambda: q.js("return document.querySelector('#board .target') !== null"), "a tapped piece's targets")
        while len(q.moves()) < n:
            to = q.js("const e = document.querySelector('#board .target'); return e && e.dataset.square")
            if to:
                x, y = centre(q, to)
                touch(q, [(x, y)])
            q.wait(lambda: len(q.moves()) >= n or q.js("return document.querySelector('#board .target') !== null"),
                   "the move or its next step")
        outside, sideways = inside_screen(q, ["#board", "#status"])
        assert not outside and not sideways, (n, outside, sideways, q.js("return scrollY"))
    assert len(q.moves()) >= 12, q.moves()
    q.action("theme")
    q.wait(lambda: q.js("return document.documentElement.dataset.theme") == "light", "the light theme")
    if shots:
        q.d.save_screenshot(os.path.join(shots, "phone-light.png"))
    q.action("theme")  # back to the system's


def desktop_dark_screenshot(p, shots):
    if not shots:
        return
    p.new_game("russian", "engine", "white", movetime="0.1")
    p.play(["c3", "d4"])
    p.my_turn()
    p.action("theme")
    p.wait(lambda: p.js("return document.documentElement.dataset.theme") == "dark", "the dark theme")
    p.d.save_screenshot(os.path.join(shots, "desktop-dark.png"))
    p.action("theme")


def test_local_game_lasts_and_is_its_owners(p, new_browser, stop, start):
    """A game against the engine goes on after a server restart and a reload; a second
    browser opening its link watches it and cannot move."""
    p.new_game("russian", "engine", "white", skill="3", movetime="0.1")
    p.my_turn()
    p.play(["c3", "d4"])
    p.wait(lambda: len(p.moves()) == 2, "the engine's reply")
    p.my_turn()
    link = p.d.current_url
    stop()
    p.wait(lambda: p.text("connection") != "connected", "the connection lost")
    start()
    p.wait(lambda: p.text("connection") == "connected", "the connection back")
    p.my_turn()
    first = p.moves()
    p.d.refresh()
    p.wait(lambda: p.moves() == first and p.status().startswith("Your move"), "the same game after a reload")
    frm = p.js("return document.querySelector('#board .movable').dataset.square")
    p.click_square(frm)
    to = p.js("return document.querySelector('#board .target').dataset.square")
    p.click_square(to)
    p.wait(lambda: len(p.moves()) == 4, "a move and the engine's reply after the restart")
    other = Page(new_browser(), link)
    try:
        other.d.get(link)
        other.wait(lambda: other.moves() == p.moves() and "Read-only" in other.status(), "the game, read-only")
        assert other.js("return document.querySelectorAll('#board .movable').length") == 0
        other.click_square("a3")
        other.wait(lambda: "belongs to the browser that started it" in other.status(), "the refusal")
        assert other.moves() == p.moves()
    finally:
        other.d.quit()


def clock_ms(p, color):
    """The time a clock shows, milliseconds (`1:00`, `0:09.5`)."""
    minutes, seconds = p.text("clock-" + color).split(":")
    return (int(minutes) * 60 + float(seconds)) * 1000


def test_local_clocks(p):
    """A hot-seat game with a clock: both clocks shown, each running in its side's turn, the
    same after a reload (the server keeps them); a game without a clock shows none."""
    p.new_game("russian", "human", clock="60+0")
    p.wait(lambda: shown(p, "#clock-white") and shown(p, "#clock-black"), "both clocks")
    p.wait(lambda: clock_ms(p, "white") < 59000, "White's clock running")
    assert p.text("clock-black") == "1:00", p.text("clock-black")
    assert not shown(p, '[name="movetime"]'), "with a clock, no time per move"
    p.play(["c3", "d4"])
    p.wait(lambda: clock_ms(p, "black") < 59000, "Black's clock running")
    white = p.text("clock-white")
    assert clock_ms(p, "white") < 59000, white
    p.d.refresh()
    p.wait(lambda: p.moves() == ["c3-d4"] and shown(p, "#clock-white"), "the game again")
    assert p.text("clock-white") == white, (p.text("clock-white"), white)
    p.wait(lambda: clock_ms(p, "black") < 58000, "Black's clock still running after the reload")
    p.play(["f6", "g5"])
    p.wait(lambda: p.js("return document.querySelector('#clock-white.running') !== null"),
           "White's clock running again")
    p.new_game("russian", "human")
    p.wait(lambda: not shown(p, "#clocks"), "no clocks without a clock")
