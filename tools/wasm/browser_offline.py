"""The page as an installable web app that plays offline (docs/wasm.md, "Offline"), checked in
headless Chromium by tools/wasm/browser_check.py: the manifest and the service worker served
with their types, the manifest's fields and icons; the service worker active and its cache
filled after one visit; then with the server stopped and the browser offline (DevTools), a
reload opens the page from the cache, which plays whole games against the engine in both
variants and starts a hot-seat game; the static page offers no online rooms, lobby or clocks;
a new version served replaces the cache; a cache that cannot be filled (a .wasm missing)
leaves the page working from the network. Every wait is on a condition."""

import json
import os
import re
import shutil
import struct
import tempfile
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

MANIFEST = "assets/manifest.webmanifest"
ENGINE = ["damka-worker.js", "damka-simd-jspi.wasm", "damka-simd.wasm", "damka.wasm"]


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.headers.get("Content-Type", ""), r.read()


def png_size(data):
    """(width, height) of a PNG, from its IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "a PNG file"
    return struct.unpack(">II", data[16:24])


def sw_build(url):
    """The BUILD line of the served sw.js: {version, files}."""
    kind, body = get(url + "sw.js")
    assert kind.split(";")[0] == "text/javascript", f"sw.js served as {kind!r}"
    m = re.search(r"^const BUILD = (\{.*\});", body.decode(), re.M)
    assert m, "sw.js has its BUILD line"
    return json.loads(m.group(1))


def served(url, engine):
    """The manifest and service worker: types, fields, icons; the service worker's list is
    every file served (`engine`: with the in-browser engine's) and each of them is there."""
    kind, body = get(url + MANIFEST)
    assert kind.split(";")[0] == "application/manifest+json", f"manifest served as {kind!r}"
    m = json.loads(body)
    for field in ("name", "short_name", "start_url", "display", "theme_color", "icons"):
        assert m.get(field), f"the manifest has {field}"
    assert m["display"] == "standalone", m["display"]
    sizes = set()
    for icon in m["icons"]:
        kind, data = get(urllib.parse.urljoin(url + MANIFEST, icon["src"]))
        assert kind == "image/png" == icon["type"], (icon, kind)
        w, h = png_size(data)
        assert icon["sizes"] == f"{w}x{h}", (icon, w, h)
        sizes.add(w)
    assert {192, 512} <= sizes, sizes
    build = sw_build(url)
    assert re.fullmatch(r"[0-9a-f]{16}", build["version"]), build["version"]
    files = build["files"]
    assert "./" in files and "assets/app.js" in files and MANIFEST in files, files
    assert all(not f.startswith("api/") for f in files), files
    assert all(f in files for f in ENGINE) == engine and any(f in files for f in ENGINE) == engine
    for f in files:
        get(urllib.parse.urljoin(url, f))  # raises on a 404
    print(f"ok   {url}: manifest ({m['short_name']}, icons {sorted(sizes)}) and sw.js "
          f"(version {build['version']}, {len(files)} files) served with their types")
    return build


CACHE_STATE = """
const done = arguments[arguments.length - 1];
(async () => {
  const reg = await navigator.serviceWorker.getRegistration();
  const names = (await caches.keys()).filter((n) => n.startsWith('damka-'));
  const urls = [];
  for (const n of names) for (const r of await (await caches.open(n)).keys()) urls.push(r.url);
  return {
    active: reg && reg.active ? reg.active.state : null,
    installing: Boolean(reg && (reg.installing || reg.waiting)),
    controlled: Boolean(navigator.serviceWorker.controller),
    names, urls,
  };
})().then(done, (e) => done({error: String(e)}));
"""


def cache_state(p):
    p.d.set_script_timeout(30)
    return p.d.execute_async_script(CACHE_STATE)


def wait_cached(p, build):
    """Waits until the page is controlled by the service worker of `build`, its cache holding
    every file and no other version's cache left."""
    want = "damka-" + build["version"]

    def ready():
        s = cache_state(p)
        return (s["active"] == "activated" and s["controlled"] and s["names"] == [want]
                and len(s["urls"]) == len(build["files"])) and s
    s = p.wait(ready, f"the service worker's cache {want}")
    assert not any("/api/" in u for u in s["urls"]), s["urls"]
    return s


def go_offline(p, stop):
    """Stops the server (`stop()`) and takes the browser off the network, then reloads."""
    stop()
    p.d.execute_cdp_cmd("Network.enable", {})
    p.d.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    p.d.get(p.url)


def back_online(p):
    p.d.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


PLAY_FIRST = """
const first = document.querySelector('#board .movable');
if (!first) return false;
first.click();
for (let i = 0; i < 20; i++) {
  const t = document.querySelector('#board .target');
  if (!t) break;
  t.click();
}
const chooser = document.querySelector('#choose');
if (chooser.open) chooser.querySelector('#choices button').click();
return true;
"""


def whole_game(p, variant):
    """A game against the engine to its end: the person plays the first legal move each
    turn (by clicks on the board), the engine answers in this browser."""
    p.new_game(variant, "engine", "white", skill="10", movetime="0.1")
    assert p.js("return location.hash").startswith("#local-"), "a game of this browser"
    for _ in range(300):
        p.wait(lambda: re.match(r"^(Your move|Game over)", p.status()), "the person's turn")
        if p.status().startswith("Game over"):
            break
        n = len(p.moves())
        assert p.js(PLAY_FIRST), "a piece that can move"
        p.wait(lambda: len(p.moves()) > n, "the move played")
    status = p.status()
    assert status.startswith("Game over") and re.search(r"2-0|0-2|1-1", status), status
    print(f"ok   offline, {variant}: a whole game against the engine, {len(p.moves())} plies: {status}")


def hot_seat_starts(p):
    p.new_game("turkish", "human")
    p.wait(lambda: re.match(r"^White to move", p.status()), "White's turn")
    n = len(p.moves())
    assert p.js(PLAY_FIRST)
    p.wait(lambda: len(p.moves()) == n + 1 and p.status().startswith("Black to move"), "Black's turn")
    print("ok   offline: a hot-seat game starts and takes a move")


def serverless_controls(p, expected):
    """Without a server: said once, and nothing offered that needs one (online rooms, the
    lobby, clocks, playing on the server)."""
    # Before a game the status line says it too; the page may open on this browser's last game.
    p.wait(lambda: p.text("connection") == expected and (p.js("return location.hash") or p.status().startswith(
        ("This page has no server", "Offline"))), "the page saying it has no server")
    assert "Connecting" not in p.status() and "not reachable" not in p.status(), p.status()
    shown = p.js("""
      const form = document.querySelector('#new-game');
      const visible = (el) => Boolean(el) && el.offsetParent !== null;
      return {
        online: [...form.elements.opponent.options].some((o) => o.value === 'online' && !o.disabled && !o.hidden),
        lobby: [...document.querySelectorAll('a[href="/lobby"]')].some(visible),
        clock: visible(form.elements.clock),
        place: visible(form.elements.place),
        room: visible(document.querySelector('#online')),
        clocks: visible(document.querySelector('#clocks')),
      };""")
    assert not any(shown.values()), shown
    # The engine's and hot seat's fields are there.
    p.show_form()  # folded away if the page opened on a game
    Select(p.d.find_element(By.NAME, "opponent")).select_by_value("engine")
    assert p.d.find_element(By.NAME, "skill").is_displayed()
    print(f"ok   no server ({expected!r}): no online rooms, lobby, clocks or server engine offered")


def offline_play(p, stop, variants):
    """After one visit: the service worker's cache filled, then offline, a reload, whole games
    in `variants` and a hot-seat game, all from the cache."""
    p.d.get(p.url)
    build = sw_build(p.url)
    wait_cached(p, build)
    go_offline(p, stop)
    try:
        serverless_controls(p, "offline: engine in this browser")
        for variant in variants:
            whole_game(p, variant)
        hot_seat_starts(p)
    finally:
        back_online(p)


def new_version(p, folder):
    """A new build served (sw.js with another version): it takes over after one visit and the
    cache of the version before is deleted."""
    path = os.path.join(folder, "sw.js")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    old = re.search(r'"version":"([0-9a-f]+)"', text).group(1)
    new = old[::-1] if old[::-1] != old else "0" * 16
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(f'"version":"{old}"', f'"version":"{new}"'))
    p.d.get(p.url)
    s = wait_cached(p, {"version": new, "files": sw_build(p.url)["files"]})
    print(f"ok   a new version served takes over: cache {s['names'][0]}, damka-{old} deleted")
    return new


INSTALL = """
const done = arguments[arguments.length - 1];
(async () => {
  const reg = await navigator.serviceWorker.register('/sw.js');
  let w = reg.installing || reg.waiting;
  if (!w) {
    // The page's own check may be over already: one more (it resolves once the new worker
    // is installing).
    await reg.update().catch(() => {});
    w = reg.installing || reg.waiting;
  }
  if (!w) return reg.active ? 'no new worker' : 'none';
  while (w.state !== 'activated' && w.state !== 'redundant') {
    await new Promise((r) => w.addEventListener('statechange', r, {once: true}));
  }
  return w.state;
})().then(done, (e) => done('error: ' + e));
"""


def install_result(p):
    """How the installation of the served sw.js ends: 'activated' or 'redundant'."""
    p.d.set_script_timeout(60)
    return p.d.execute_async_script(INSTALL)


def playable(p):
    """A move against the engine in this browser."""
    p.new_game("russian", "engine", "white", movetime="0.1")
    p.wait(lambda: p.status().startswith("Your move"), "the person's turn")
    n = len(p.moves())
    assert p.js(PLAY_FIRST)
    p.wait(lambda: len(p.moves()) >= n + 2, "the engine's answer")


def failed_update(p, folder, version):
    """A new version whose cache cannot be filled (a .wasm missing): it is not installed, and
    the version before stays in charge with its whole cache."""
    os.remove(os.path.join(folder, "damka-simd.wasm"))
    path = os.path.join(folder, "sw.js")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(f'"version":"{version}"', '"version":"' + "f" * 16 + '"'))
    p.d.get(p.url)
    state = install_result(p)
    assert state == "redundant", f"the new service worker with a file missing: {state}"
    s = cache_state(p)
    assert s["names"] == ["damka-" + version] and s["controlled"], s
    playable(p)
    print(f"ok   a new version that cannot fill its cache is dropped: damka-{version} stays")


def broken_cache(p, served_url):
    """A .wasm missing from the folder, on a site visited for the first time: the service
    worker cannot fill its cache, is not installed, leaves no cache behind, and the page plays
    from the network."""
    p.d.get(served_url)
    state = install_result(p)
    assert state in ("redundant", "none"), f"the service worker with a file missing: {state}"
    s = cache_state(p)
    assert s["names"] == [] and not s["controlled"], s
    # The online page still plays against the engine in this browser.
    p.d.get(served_url)
    p.wait(lambda: p.status().startswith("This page has no server"), "the page ready")
    playable(p)
    print("ok   a cache that cannot be filled (damka-simd.wasm missing): no service worker, "
          "no cache, the page plays from the network")


def copy_folder(folder):
    dest = os.path.join(tempfile.mkdtemp(prefix="damka-wasm-copy-"), "wasm")
    shutil.copytree(folder, dest)
    return dest
