"""Browser tests of online play (README, "Online play"): three headless Chromium sessions, each
with its own profile (so its own localStorage), play and watch one room by the testability
contract: #room-link, #clock-white, #clock-black, #proposals, the lobby's data-room elements.
Called by browser_test.py, which starts the server and hands over `restart` to restart it.
"""

import os
import re

from selenium.webdriver.common.by import By

from browser_test import Page

CLOCK = re.compile(r"^\d+:\d\d(\.\d)?$")


def seconds(clock):
    m, s = clock.split(":")
    return int(m) * 60 + float(s)


class Room(Page):
    """A page in a room."""

    def enter(self, url):
        self.d.get(url)
        self.wait(lambda: self.text("seat").startswith("You "), "a seat in the room")

    def listed(self, list_id):
        """{move: count} of a proposals list."""
        return self.d.execute_script(
            "const out = {};"
            f"for (const e of document.querySelectorAll('#{list_id} > li'))"
            "  out[e.dataset.move] = Number(e.dataset.count);"
            "return out;")

    def matched(self):
        return self.d.execute_script(
            "const e = document.querySelector('#last-proposals > li[data-matched=\"true\"]');"
            "return e ? e.dataset.move : null;")

    def wait_moves(self, n):
        self.wait(lambda: len(self.moves()) == n, f"{n} moves in the list")


def on_screen(page):
    """Black plays on a phone: its board and both clocks stay wholly on screen."""
    from browser_page import inside_screen
    outside, sideways = inside_screen(page, ["#board", "#clock-white", "#clock-black"])
    assert not outside and not sideways, (outside, sideways, page.js("return scrollY"))


def test_online_room(first, new_browser, stop, start, shots):
    """`first` is the first page (White); `new_browser(phone)` gives another session (on a
    phone screen); `stop()` and `start()` stop the server and start it again on the same port
    and database."""
    a = Room(first.d, first.url)
    a.new_game("russian", "online", "white")
    link = a.wait(lambda: "/room/" in a.text("room-link") and a.text("room-link"), "the room link")
    assert a.d.current_url == link, (a.d.current_url, link)
    assert "Waiting for an opponent" in a.status(), a.status()
    # The copy button puts the link on the clipboard.
    a.d.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    a.action("copy-link")
    a.wait(lambda: a.text_of('[data-action="copy-link"]') == "Copied", "the link copied")
    assert a.js("return navigator.clipboard.readText()") == link
    b = Room(new_browser(True), link)
    c = Room(new_browser(), link)
    try:
        b.enter(link)
        assert b.text("seat").startswith("You play black"), b.text("seat")
        c.enter(link)
        assert c.text("seat").startswith("You are watching"), c.text("seat")
        a.wait(lambda: a.status().startswith("Your move"), "White's turn")
        for page in (a, b, c):
            page.wait(lambda p=page: CLOCK.match(p.text("clock-white")), "White's clock")
            assert CLOCK.match(page.text("clock-black")), page.text("clock-black")
        # The spectator proposes by clicks; the players do not see it before they move.
        c.click_square("c3")
        c.click_square("d4")
        c.wait(lambda: c.listed("proposals") == {"c3-d4": 1}, "the proposal listed with its count")
        assert a.listed("proposals") == {} and b.listed("proposals") == {}
        if shots:
            c.d.save_screenshot(os.path.join(shots, "online.png"))
        a.play(["c3", "d4"])
        for page in (b, c):
            page.wait_moves(1)
            page.wait(lambda p=page: p.matched() == "c3-d4", "the matched proposal")
        assert a.matched() == "c3-d4"
        if shots:
            b.d.save_screenshot(os.path.join(shots, "online-player.png"))
        on_screen(b)
        b.play(["f6", "g5"])
        on_screen(b)
        a.wait_moves(2)
        # A reload comes back to the same seat (the token is in this browser's storage).
        b.d.refresh()
        b.wait(lambda: b.text("seat").startswith("You play black"), "Black's seat after a reload")
        b.wait_moves(2)
        a.play(["g3", "h4"])
        b.wait(lambda: b.status().startswith("Your move"), "Black's turn after the reload")
        on_screen(b)
        before = b.text("clock-black")
        # The server restarts mid-game: every page comes back, the clocks go on. Black moves
        # while the server is down: the move is shown pending, then sent on reconnection.
        stop()
        for page in (a, b, c):
            page.wait(lambda p=page: "connected" != p.text("connection"), "the connection lost")
        b.click_square("g5")
        b.click_square("f4")
        b.wait(lambda: b.js("return document.querySelector('#board [data-square=f4][data-pending]') !== null"),
               "the pending move on the board")
        assert "pending" in b.status() and "g5-f4" in b.status(), b.status()
        assert b.pieces().get("f4") == "b" and "g5" not in b.pieces(), b.pieces()
        start()
        for page in (a, b, c):
            page.wait(lambda p=page: "connected" == p.text("connection"), "the connection back")
        c.wait_moves(4)
        b.wait(lambda: not b.js("return document.querySelector('#board [data-pending]') !== null")
               and "pending" not in b.status(), "the pending move played")
        after = b.text("clock-black")
        # Black's clock went on from where it stopped, plus the move's increment (3 s).
        assert CLOCK.match(after) and seconds(after) <= seconds(before) + 3, (before, after)
        a.wait(lambda: a.status().startswith("Your move"), "White's turn after the restart")
        assert a.moves() == ["c3-d4", "f6-g5", "g3-h4", "g5-f4"], a.moves()
        # The lobby lists the live game; Black resigns and everyone sees the result.
        c.d.get(c.url.split("/room/")[0] + "/lobby")
        c.wait(lambda: c.d.find_elements(By.CSS_SELECTOR, f'#live-rooms [data-room="{link.rsplit("/", 1)[1]}"]'),
               "the game in the lobby")
        b.action("resign")
        b.wait(lambda: b.d.find_element(By.CSS_SELECTOR, '[data-action="resign-confirm"]').is_displayed(),
               "the question")
        assert "resigned" not in a.status(), "one tap does not resign"
        b.action("resign-confirm")
        for page in (a, b):
            page.wait(lambda p=page: "White wins (Black resigned), 2-0" in p.status(), "the resignation")
        c.wait(lambda: c.d.find_elements(By.CSS_SELECTOR, "#finished-rooms [data-room]"), "the finished game")
    finally:
        b.d.quit()
        c.d.quit()


def test_online_abort(first, new_browser):
    """On a server started with --first-move-timeout 2: White never moves, both players see
    the game aborted (no result) and the lobby lists it so."""
    first.open()
    a = Room(first.d, first.url)
    a.new_game("russian", "online", "white")
    link = a.wait(lambda: "/room/" in a.text("room-link") and a.text("room-link"), "the room link")
    b = Room(new_browser(), link)
    try:
        b.enter(link)
        for page in (a, b):
            page.wait(lambda p=page: p.text("result-text").startswith("Game aborted: White made no first move"),
                      "the abort in the banner")
            # No result, and no "*" for one.
            assert "*" not in page.text("result-text"), page.text("result-text")
        b.d.get(first.url.rstrip("/") + "/lobby")
        room_id = link.rsplit("/", 1)[1]
        entry = b.wait(lambda: b.d.find_elements(By.CSS_SELECTOR, f'#finished-rooms [data-room="{room_id}"]'),
                       "the aborted game in the lobby")
        assert "aborted" in entry[0].text, entry[0].text
    finally:
        b.d.quit()
