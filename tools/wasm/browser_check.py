#!/usr/bin/env python3
"""The page as static files, no damka-web anywhere: Python's http.server serves target/wasm/
(what tools/wasm/build.sh wrote) and headless Chromium plays a local game against the engine
in the browser in each variant, asks for a hint, and plays a hot-seat move; analysis, review
and the board editor (browser_review.py) at desktop and phone sizes; then the offline
checks of browser_offline.py: the page says once that it has no server and offers nothing
that needs one, the manifest and service worker are served right, and with the server stopped
and the browser offline the page, reloaded from the service worker's cache, plays whole games
against the engine in both variants and starts a hot-seat game; a new version served replaces
the cache, one that cannot be filled (a .wasm missing) leaves the page working. Every wait is
on a condition, never a fixed sleep. With `--server`, damka-web given `--wasm` serves the same
folder beside its own page: a game against the engine is played in the browser there too, and
offline after one visit; without `--wasm` its page is installable all the same.

    python3 tools/wasm/browser_check.py target/wasm [--server target/ci/damka-web]
"""

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "web"))
from browser_test import Page, start_browser, start_server  # noqa: E402  (the web tests')
import browser_offline as off  # noqa: E402
import browser_review  # noqa: E402

PLIES = 8  # the person's moves in each game: each answered by the engine


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(folder):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1",
                             "--directory", folder, str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("http.server did not start")


def open_page(p):
    p.d.get(p.url)
    p.wait(lambda: p.text("connection") == "no server: engine in this browser"
           and p.status().startswith("This page has no server"), "the page ready")


def click_some_move(p):
    frm = p.js("const e = document.querySelector('#board .movable'); return e && e.dataset.square")
    assert frm, "a piece that can move"
    p.click_square(frm)
    to = p.js("const e = document.querySelector('#board .target'); return e && e.dataset.square")
    assert to, "a square to move to"
    p.click_square(to)


def engine_game(p, variant):
    p.new_game(variant, "engine", "white", skill="10", movetime="0.1")
    assert p.js("return location.hash").startswith("#local-"), "a game of this browser"
    for i in range(PLIES):
        p.my_turn()
        if "wins" in p.status() or "draw" in p.status().lower():
            break
        click_some_move(p)
        p.wait(lambda: len(p.moves()) >= 2 * i + 2 or "wins" in p.status(), "the engine's answer")
    p.my_turn()
    assert len(p.moves()) >= 2 * PLIES, f"{variant}: {len(p.moves())} moves"
    p.action("hint")
    p.wait(lambda: p.hint() is not None, "a hint from the engine in the browser")
    print(f"ok   {variant}: {len(p.moves())} plies against the engine in the browser, hint {p.hint()}")


STOP_SCRIPT = """
const [query, done] = arguments;
const w = new Worker('damka-worker.js' + query);
let sent = 0;
w.onmessage = (e) => {
  if (e.data.startsWith('info depth=6') && !sent) {
    setTimeout(() => { sent = performance.now(); w.postMessage('stop'); }, 300);
  }
  if (e.data.startsWith('done')) { w.terminate(); done(Math.round(performance.now() - sent)); }
};
for (const l of ['hub', 'init', 'pos start', 'go analyze']) w.postMessage(l);
"""


def stop_in_worker(p):
    """`stop` during `go analyze` in Chromium's worker, for each way of pausing a search."""
    p.d.set_script_timeout(60)
    for query in ("?simd=jspi", "?simd=1"):
        ms = p.d.execute_async_script(STOP_SCRIPT, query)
        assert ms <= 200, f"{query}: done {ms} ms after stop"
        print(f"ok   stop during go analyze in the worker ({query}): done after {ms} ms")


def hot_seat(p):
    p.new_game("turkish", "human")
    p.my_turn(against_engine=False)
    click_some_move(p)
    p.wait(lambda: len(p.moves()) == 1, "the move played")
    p.my_turn(against_engine=False)
    click_some_move(p)
    p.wait(lambda: len(p.moves()) == 2, "the second move played")
    print("ok   hot seat: two moves")


def with_damka_web(driver, binary, folder):
    """damka-web --wasm: its page plays against the engine in the browser by default, and
    offline after one visit; without --wasm, it is installable and says offline that it cannot
    play."""
    db = os.path.join(tempfile.mkdtemp(prefix="damka-wasm-web-"), "db.sqlite3")
    proc, url = start_server(binary, db, extra=("--wasm", folder))
    url = url.rstrip("/") + "/"

    def stop():
        proc.terminate()
        proc.wait(timeout=10)
    try:
        p = Page(driver, url)
        off.served(url, engine=True)
        driver.get(p.url)
        p.wait(lambda: p.text("connection") == "engine in this browser", "local play offered")
        p.new_game("russian", "engine", "white", movetime="0.1")
        assert p.js("return location.hash").startswith("#local-"), "a game of this browser"
        p.my_turn()
        click_some_move(p)
        p.wait(lambda: len(p.moves()) >= 2, "the engine's answer")
        print("ok   damka-web --wasm: a game against the engine in the browser")
        off.offline_play(p, stop, ("russian", "turkish"))
    finally:
        stop()
    proc, url = start_server(binary, db)
    url = url.rstrip("/") + "/"
    try:
        p = Page(driver, url)
        build = off.served(url, engine=False)
        driver.get(url)
        p.wait(lambda: p.text("connection") == "connected", "the page connected")
        off.wait_cached(p, build)
        off.go_offline(p, lambda: (proc.terminate(), proc.wait(timeout=10)))
        p.wait(lambda: "this browser cannot run the engine" in p.status(), "the page saying so")
        off.back_online(p)
        print("ok   damka-web without --wasm: installable, kept offline, and says it cannot play")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def versions(driver, folder):
    """On a copy of the folder: a new version served replaces the cache; one that cannot be
    filled leaves the version before in charge; on a fresh site, no service worker at all and
    the page plays from the network."""
    copy = off.copy_folder(folder)
    server, url = serve(copy)
    try:
        p = Page(driver, url)
        driver.get(url)
        off.wait_cached(p, off.sw_build(url))
        version = off.new_version(p, copy)
        off.failed_update(p, copy, version)
    finally:
        server.kill()
    server, url = serve(copy)  # another port: another site, with no service worker yet
    try:
        off.broken_cache(Page(driver, url), url)
    finally:
        server.kill()


def phone(url):
    """Analysis, review and the board editor on a 390x844 touch screen."""
    downloads = tempfile.mkdtemp(prefix="damka-wasm-phone-")
    driver = start_browser(downloads, phone=True)
    try:
        p = Page(driver, url)
        open_page(p)
        browser_review.run(p, downloads)
    finally:
        driver.quit()


def main():
    args = sys.argv[1:]
    binary = None
    if "--server" in args:
        i = args.index("--server")
        binary = args[i + 1]
        del args[i:i + 2]
    folder = args[0] if args else "target/wasm"
    server, url = serve(folder)
    driver = None
    try:
        downloads = tempfile.mkdtemp(prefix="damka-wasm-dl-")
        driver = start_browser(downloads)
        p = Page(driver, url)
        open_page(p)
        stop_in_worker(p)
        for variant in ("russian", "turkish"):
            engine_game(p, variant)
        hot_seat(p)
        # Analysis, review and the board editor, at desktop size here and at phone size below.
        browser_review.run(p, downloads)
        phone(url)
        # The page opens on its last game: the form again, as the checks below expect.
        p.js("localStorage.clear()")
        open_page(p)
        off.serverless_controls(p, "no server: engine in this browser")
        off.served(url, engine=True)
        off.offline_play(p, server.kill, ("russian", "turkish"))
        versions(driver, folder)
        if binary:
            with_damka_web(driver, binary, os.path.abspath(folder))
        # Expected: the static page's question to a server it does not have (/api/info, 404),
        # the network refused offline, the file removed on purpose, and damka-web without
        # --wasm answering that it has no engine files.
        expected = ("/ws", "favicon", "/api/info", "ERR_INTERNET_DISCONNECTED", "ERR_CONNECTION_REFUSED",
                    "damka-simd.wasm - Failed to load resource: the server responded with a status of 404",
                    "damka-worker.js - Failed to load resource: the server responded with a status of 404")
        errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"
                  and not any(x in e["message"] for x in expected)]
        assert not errors, f"errors in the console: {errors}"
        print("all browser checks of the static page passed")
        return 0
    except Exception:
        traceback.print_exc()
        if driver:
            print("status:", Page(driver, url).status())
            for e in driver.get_log("browser"):
                print("console:", e["message"])
        return 1
    finally:
        if driver:
            driver.quit()
        server.kill()


if __name__ == "__main__":
    sys.exit(main())
