#!/usr/bin/env bash
# Checks that `cargo install --path .` and `cargo install --path tools/web` give programs that
# work away from the source tree: installed into a temporary root, they are run from another
# temporary folder (nothing of the repository beside them, HOME and XDG_DATA_HOME empty):
#   - damka finds its compiled-in networks (learned evaluation) and book: `damka analyse`;
#   - damka-web serves its page and the page's scripts (embedded assets, not files read from
#     the source tree).
# Called by .ci/run. Installs with the `ci` profile into target/ (the build .ci/run made
# already) so it costs little; INSTALL_PROFILE=release checks the release build instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
profile=${INSTALL_PROFILE:-ci}
work=$(mktemp -d)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

for member in . tools/web; do
  cargo install --quiet --locked --profile "$profile" --target-dir "$repo/target" \
    --root "$work/root" --path "$member"
done

mkdir -p "$work/elsewhere" "$work/home"
cd "$work/elsewhere"
export HOME="$work/home" XDG_DATA_HOME="$work/home/data"
fail() { echo "install_check: $*" >&2; exit 1; }

# The engine: a learned evaluation needs the compiled-in net; --eval learned refuses to run
# without one.
out=$("$work/root/bin/damka" analyse --variant russian --depth 6 --eval learned) ||
  fail "damka analyse failed: $out"
grep -q '^bestmove ' <<<"$out" || fail "damka analyse gave no bestmove: $out"
out=$("$work/root/bin/damka" analyse --variant turkish --depth 6 --eval learned) ||
  fail "damka analyse (turkish) failed: $out"
grep -q '^bestmove ' <<<"$out" || fail "damka analyse (turkish) gave no bestmove: $out"

# The web server, from a folder with none of its files: the first line names the port.
: >"$work/web.log"
"$work/root/bin/damka-web" --port 0 --db :memory: >"$work/web.log" 2>&1 &
server=$!
url=
for _ in $(seq 1 100); do
  url=$(grep -o 'http://[^ ]*/' "$work/web.log" | head -n 1 || true)
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || fail "damka-web exited: $(cat "$work/web.log")"
  sleep 0.1
done
[ -n "$url" ] || fail "damka-web did not say where it serves: $(cat "$work/web.log")"
fetch() {
  python3 - "$1" <<'EOF'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=10) as r:
    sys.stdout.write(r.read().decode("utf-8", "replace"))
EOF
}
page=$(fetch "$url") || fail "GET / failed"
grep -qi '<html' <<<"$page" || fail "GET / is not the page: ${page:0:200}"
# Every script and style sheet the page names is served too.
assets=$(grep -o '\(src\|href\)="[^"]*\.\(js\|css\)"' <<<"$page" | sed 's/.*="\(.*\)"/\1/')
[ -n "$assets" ] || fail "the page names no script or style sheet"
for asset in $assets; do
  body=$(fetch "${url%/}/${asset#/}") || fail "GET $asset failed"
  [ -n "$body" ] || fail "GET $asset is empty"
  # The modules a script imports (from "/assets/board.js" or "./board.js") are served too.
  for module in $(grep -o "from [\"'][^\"']*\.js[\"']" <<<"$body" | sed "s/^from .\(.*\).$/\1/"); do
    case $module in
      /*) path=$module ;;
      *) path="$(dirname "$asset")/${module#./}" ;;
    esac
    [ -n "$(fetch "${url%/}$path")" ] || fail "GET $path (imported by $asset) is empty"
    assets="$assets $path"
  done
done
echo "install_check: ok (damka analyses with its compiled-in nets; damka-web serves / and $(wc -w <<<"$assets") assets from $work/elsewhere)"
