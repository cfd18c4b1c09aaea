#!/usr/bin/env bash
# Checks the release archives of tools/dist/build.sh as a user meets them (called by .ci/run):
#   - SHA256SUMS accepts the archives and catches a damaged or cut-off download;
#   - each archive unpacks into an empty temporary folder, and its programs run from there
#     with an empty HOME and data folder and nothing of the build machine on the PATH:
#     `--version` names the version and the commit; `damka bench` gives the node count of
#     the build being tested (BENCH_REF, else the Linux archive's); the engine library plays
#     whole games through the CheckerBoard API (tools/cb/tests/cb_test.c); damka-web answers
#     HTTP and keeps its games in the user's data folder, not in the folder it starts in, and
#     serves the in-browser page of web/ with --wasm; damka-match plays a short match;
#   - the Windows programs do the same under Wine (its own prefix in a temporary folder).
# Usage: bash tools/dist/check.sh [DIST_DIR]   (default dist/)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
dist=$(cd "${1:-dist}" && pwd)
version=$(sed -n '/^\[package\]/,/^\[/s/^version *= *"\(.*\)"/\1/p' Cargo.toml | head -n 1)
wzip="$dist/damka-$version-x86_64-windows.zip"
ltar="$dist/damka-$version-x86_64-linux.tar.gz"
# The commit the programs must name: the checkout's (DIST_COMMIT for archives made earlier).
commit=${DIST_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}
games=${CB_GAMES:-2}   # games per interface of the CheckerBoard API test

work=$(mktemp -d)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  if [ -n "${WINEPREFIX:-}" ]; then
    for ws in wineserver /usr/lib/wine/wineserver64 /usr/lib/wine/wineserver; do
      if command -v "$ws" >/dev/null 2>&1; then "$ws" -k >/dev/null 2>&1 || true; break; fi
    done
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "dist_check: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }

# ---- the sums
(cd "$dist" && sha256sum -c --quiet SHA256SUMS) || fail "SHA256SUMS does not match the archives"
ok "SHA256SUMS matches both archives"
mkdir "$work/bad"
cp "$dist/SHA256SUMS" "$work/bad/"
head -c "$(($(stat -c %s "$ltar") / 2))" "$ltar" >"$work/bad/$(basename "$ltar")"
cp "$wzip" "$work/bad/"
printf '\x00' | dd of="$work/bad/$(basename "$wzip")" bs=1 seek=1000 conv=notrunc status=none
for f in "$ltar" "$wzip"; do
  if (cd "$work/bad" && sha256sum -c --quiet <(grep -F "$(basename "$f")" SHA256SUMS)) >/dev/null 2>&1; then
    fail "SHA256SUMS accepted a damaged $(basename "$f")"
  fi
done
ok "SHA256SUMS refuses a cut-off tarball and a zip with one byte changed"

# ---- where a user runs things: an empty home, a folder that is not the archive's
mkdir -p "$work/home/data" "$work/cwd"
export HOME="$work/home" XDG_DATA_HOME="$work/home/data"
PATH=/usr/bin:/bin

# Waits for a damka-web started with its log in $1 to say where it serves; prints the URL.
wait_url() {
  local log=$1 url=
  for _ in $(seq 1 300); do
    url=$(tr -d '\r' <"$log" | grep -o 'http://[^ ]*/' | head -n 1 || true)
    [ -n "$url" ] && { echo "$url"; return 0; }
    kill -0 "$server" 2>/dev/null || fail "damka-web exited: $(cat "$log")"
    sleep 0.2
  done
  fail "damka-web did not say where it serves: $(cat "$log")"
}
fetch() { # URL -> body on stdout, fails on an HTTP error
  python3 - "$1" <<'EOF'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=20) as r:
    sys.stdout.write(r.read().decode("utf-8", "replace"))
EOF
}
# $1: a command that starts damka-web (words), $2: label. Checks the page and its scripts.
check_web() {
  local label=$1
  shift
  : >"$work/web.log"
  (cd "$work/cwd" && exec "$@" --port 0 >"$work/web.log" 2>&1) &
  server=$!
  local url
  url=$(wait_url "$work/web.log")
  fetch "$url" | grep -q '<html' || fail "$label: GET / is no page"
  fetch "${url}assets/app.js" >/dev/null || fail "$label: GET /assets/app.js failed"
  # Under Wine this ends the loader; the Windows process itself ends with the prefix's
  # wineserver at clean-up.
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  server=
  [ -z "$(ls -A "$work/cwd")" ] || fail "$label left files in the folder it started in: $(ls -A "$work/cwd")"
  head -n 1 "$work/web.log" | tr -d '\r'
}

# ---- Linux
mkdir "$work/linux"
tar -C "$work/linux" -xzf "$ltar"
L="$work/linux/damka-$version-x86_64-linux"
for f in damka damka-web damka-match libdamka_cb.so damka_cb.htm README.txt COPYING web/index.html web/damka-worker.js web/sw.js web/assets/manifest.webmanifest openings/russian.txt; do
  [ -e "$L/$f" ] || fail "the Linux archive has no $f"
done
for p in damka damka-web damka-match; do
  v=$("$L/$p" --version)
  grep -qF "$version (commit $commit)" <<<"$v" || fail "$p --version says '$v', not $version (commit $commit)"
done
ok "Linux: --version names $version and commit $commit"
lbench=$(cd "$work/cwd" && "$L/damka" bench 2>/dev/null | tail -n 1 | sed -n 's/^bench nodes=\([0-9]*\).*/\1/p')
ref=${BENCH_REF:-$lbench}
[ -n "$lbench" ] && [ "$lbench" = "$ref" ] || fail "Linux damka bench gave nodes=${lbench:-?}, expected $ref"
ok "Linux: damka bench nodes=$lbench"
gcc -O2 -Wall -Wextra -Werror -o "$work/cb_test" tools/cb/tests/cb_test.c -ldl -lpthread
(cd "$work/cwd" && "$work/cb_test" "$L/libdamka_cb.so" "$games") >"$work/cb.log" 2>&1 || fail "Linux: the CheckerBoard API test failed: $(tail -n 5 "$work/cb.log")"
ok "Linux: libdamka_cb.so: $(tail -n 1 "$work/cb.log")"
line=$(check_web "Linux damka-web" "$L/damka-web")
grep -qF "games kept in $XDG_DATA_HOME/damka/damka-web.sqlite3" <<<"$line" || fail "Linux damka-web: first line '$line' names no database in the data folder"
[ -f "$XDG_DATA_HOME/damka/damka-web.sqlite3" ] || fail "Linux damka-web made no database in $XDG_DATA_HOME/damka"
ok "Linux: damka-web answers HTTP; $line"
check_web "Linux damka-web --wasm" "$L/damka-web" --wasm "$L/web" --db :memory: >/dev/null
ok "Linux: damka-web --wasm web serves the in-browser page"
(cd "$work/cwd" && "$L/damka-match" --variant russian --engine "a=$L/damka" --engine "b=$L/damka" \
  --openings "$L/openings/russian.txt" --games 2 --depth 3) >"$work/match.log" 2>&1 ||
  fail "Linux damka-match failed: $(tail -n 5 "$work/match.log")"
ok "Linux: damka-match: $(grep -i 'score\|elo' "$work/match.log" | tail -n 1)"

# ---- Windows, under Wine
find_wine() {
  for w in wine64 /usr/lib/wine/wine64 wine; do
    if command -v "$w" >/dev/null 2>&1; then command -v "$w"; return 0; fi
  done
  return 1
}
wine=$(PATH=/usr/bin:/bin:/usr/lib/wine find_wine) || fail "no Wine (apt-get install wine64)"
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEARCH=win64
unset DISPLAY WAYLAND_DISPLAY
mkdir "$work/windows"
python3 -m zipfile -e "$wzip" "$work/windows"
W="$work/windows/damka-$version-x86_64-windows"
for f in damka.exe damka-web.exe damka-match.exe damka_cb.dll damka_cb.htm README.txt COPYING web/index.html web/damka-worker.js web/sw.js web/assets/manifest.webmanifest openings/russian.txt; do
  [ -e "$W/$f" ] || fail "the Windows archive has no $f"
done
grep -q $'\r$' "$W/README.txt" || fail "the Windows README.txt has no CRLF line ends"
# Wine 8 lacks ProcessPrng, which Rust's standard library takes from bcryptprimitives.dll on
# Windows 10 and later; a stand-in beside the programs, for the test only (never shipped).
x86_64-w64-mingw32-gcc -O2 -shared -o "$W/bcryptprimitives.dll" tools/cb/tests/bcryptprimitives_shim.c -ladvapi32
x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -Werror -static -o "$W/cb_test.exe" tools/cb/tests/cb_test.c
win() { (cd "$W" && "$wine" "$@" 2>/dev/null | tr -d '\r'); }
for p in damka damka-web damka-match; do
  v=$(win "$p.exe" --version)
  grep -qF "$version (commit $commit)" <<<"$v" || fail "$p.exe --version says '$v'"
done
ok "Windows: --version names $version and commit $commit"
wbench=$(win damka.exe bench | tail -n 1 | sed -n 's/^bench nodes=\([0-9]*\).*/\1/p')
[ -n "$wbench" ] && [ "$wbench" = "$ref" ] || fail "damka.exe bench gave nodes=${wbench:-?}, expected $ref"
ok "Windows: damka.exe bench nodes=$wbench (the Linux count)"
win cb_test.exe damka_cb.dll "$games" >"$work/wcb.log" || fail "damka_cb.dll: the CheckerBoard API test failed: $(tail -n 5 "$work/wcb.log")"
ok "Windows: damka_cb.dll: $(tail -n 1 "$work/wcb.log")"
line=$(check_web "damka-web.exe" "$wine" "$W/damka-web.exe")
grep -q 'games kept in .*AppData.Roaming.damka.damka-web.sqlite3' <<<"$line" || fail "damka-web.exe: first line '$line' names no database in %APPDATA%"
ls "$WINEPREFIX"/drive_c/users/*/AppData/Roaming/damka/damka-web.sqlite3 >/dev/null 2>&1 ||
  fail "damka-web.exe made no database in %APPDATA%\\damka"
ok "Windows: damka-web.exe answers HTTP; $line"
win damka-match.exe --variant russian --engine a=damka.exe --engine b=damka.exe \
  --openings 'openings\russian.txt' --games 2 --depth 3 >"$work/wmatch.log" ||
  fail "damka-match.exe failed: $(tail -n 5 "$work/wmatch.log")"
ok "Windows: damka-match.exe: $(grep -i 'score\|elo' "$work/wmatch.log" | tail -n 1)"
echo "dist_check: both archives pass"
