#!/usr/bin/env bash
# Builds damka for the browser from source into target/wasm/: damka-worker.js, the engines it
# chooses between at load time (damka-simd-jspi.wasm where the browser has SIMD and JSPI,
# damka-simd.wasm with SIMD only, damka.wasm with neither), and the web page's static files (index.html and assets/), so that serving
# target/wasm/ with any static web server is the whole page, local play included:
#   python3 -m http.server -d target/wasm
# and sw.js, the service worker that keeps all of it in the browser for offline play, its
# version a hash of the files. `--page` only copies the page's files and writes sw.js again
# (after an edit of tools/web/assets/, with the .wasm files built before).
# Needs the wasm32-unknown-unknown standard library (added here with rustup when missing) and
# binaryen's wasm-opt (Debian package binaryen, installed here when missing).
set -euo pipefail
script=$(realpath "$0")
cd "$(dirname "$0")/../.."

if ! rustc --print target-libdir --target wasm32-unknown-unknown >/dev/null 2>&1 ||
  [ ! -d "$(rustc --print target-libdir --target wasm32-unknown-unknown)" ]; then
  rustup target add wasm32-unknown-unknown
fi
if ! command -v wasm-opt >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq binaryen >/dev/null
fi

out=target/wasm
mkdir -p "$out/assets"
page_only=
[ "${1:-}" = --page ] && page_only=1

# Functions Asyncify would instrument only because they make indirect calls (dyn callbacks,
# the endgame databases' trait object), none of which pauses: capture resolution, move
# generation, evaluation, move ordering, the table. Left alone they stay as fast as without
# Asyncify; the search (alphabeta's `search`), iterative deepening and the job that runs them
# are instrumented, as they must be. The stop test of check.sh fails if one of these could
# pause after all.
uninstrumented='*qsearch*,*generate_captures*,*real_threat*,*should_stop*,*evaluate_at*,*ordering*,*update_pv*,*has_path*,*EvalStack*,*TransTable*'

# One build per instruction set; each in a target folder of its own, as the flags differ.
build() {
  local name=$1 flags=$2
  # Source paths in panic messages name the crate, not this machine's folders (the files ship
  # in the release archives).
  RUSTFLAGS="$flags --remap-path-prefix=$(pwd)=damka --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=cargo" cargo build --quiet -p damka-wasm --target wasm32-unknown-unknown \
    --profile wasm --target-dir "target/wasm-$name"
  local wasm="target/wasm-$name/wasm32-unknown-unknown/wasm/damka_wasm.wasm"
  # What wasm-opt made from this very build is still good (a second call, as from
  # tools/dist/build.sh after tools/wasm/check.sh, skips the slow passes).
  if [ "$out/$3" -nt "$wasm" ] && [ "$out/$3" -nt "$script" ] &&
    { [ -z "${4:-}" ] || { [ "$out/$4" -nt "$wasm" ] && [ "$out/$4" -nt "$script" ]; }; }; then
    return
  fi
  # Asyncify lets the worker pause a search in damka_yield and resume it later.
  wasm-opt -O3 --asyncify \
    --pass-arg=asyncify-imports@env.damka_yield \
    "--pass-arg=asyncify-removelist@$uninstrumented" \
    --strip-debug --strip-producers \
    "$wasm" -o "$out/$3"
  # Browsers with JSPI suspend the stack themselves: the same code without Asyncify.
  if [ -n "${4:-}" ]; then
    wasm-opt -O3 --strip-debug --strip-producers \
      "$wasm" -o "$out/$4"
  fi
}
if [ -z "$page_only" ]; then
  build simd "-C target-feature=+simd128" damka-simd.wasm damka-simd-jspi.wasm
  build plain "" damka.wasm
fi

cp tools/wasm/damka-worker.js "$out/"
cp tools/web/assets/* "$out/assets/"
# The page asks for /assets/...; at the top of the folder it is index.html.
cp tools/web/assets/index.html "$out/index.html"
# The service worker works from the top of the folder (its scope is the folder it is in).
rm "$out/assets/sw.js"

# What the service worker keeps (as damka-web's list, tools/web/src/transport/assets.rs): the page, its
# files but the lobby's (it needs the server) and index.html (the page is ./), the engine. Its version is a hash of their
# names and contents, so any change makes a new sw.js and the browser installs it.
files=(./)
for f in "$out"/assets/*; do
  case "${f##*/}" in lobby.* | index.html) ;; *) files+=("assets/${f##*/}") ;; esac
done
for f in damka-worker.js damka-simd-jspi.wasm damka-simd.wasm damka.wasm; do
  [ -f "$out/$f" ] && files+=("$f")
done
version=$(for f in "${files[@]}"; do
  [ "$f" = ./ ] && f=index.html
  printf '%s ' "$f"
  sha256sum <"$out/$f"
done | sha256sum | cut -c1-16)
list=$(printf '"%s",' "${files[@]}")
build_line="const BUILD = {\"version\":\"$version\",\"files\":[${list%,}]};"
line='const BUILD = { version: "", files: [] };'
grep -qF "$line" tools/web/assets/sw.js || { echo "sw.js has no BUILD line to fill" >&2; exit 1; }
while IFS= read -r l; do
  if [ "${l%% //*}" = "$line" ]; then printf '%s\n' "$build_line"; else printf '%s\n' "$l"; fi
done <tools/web/assets/sw.js >"$out/sw.js"
echo "sw.js: version $version, ${#files[@]} files"
ls -l "$out"/*.wasm
