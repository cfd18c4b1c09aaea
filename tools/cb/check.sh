#!/usr/bin/env bash
# Checks damka-cb (the CheckerBoard / Kallisto engine library) for real, as CI runs it:
#   1. the crate's Rust tests;
#   2. tools/cb/tests/cb_test.c built with gcc against libdamka_cb.so;
#   3. the same program built with MinGW against damka_cb.dll, run under Wine with no display;
#   4. `damka bench` under Wine gives the node count of the Linux build.
# Installs what it lacks (as root: apt packages gcc-mingw-w64-x86-64, wine64/wine; the rustup
# target x86_64-pc-windows-gnu). CB_GAMES sets the games per interface (default 2).
# CB_WINE=0 leaves out 3 and 4 (.ci/run sets it: tools/dist/check.sh runs them on the DLL and
# damka.exe of the Windows release archive, so CI builds for Windows once).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
games=${CB_GAMES:-2}
wine_too=${CB_WINE:-1}
profile=ci                 # optimised, no fat LTO: the node counts do not depend on it
win=x86_64-pc-windows-gnu

# ---- what the checks need
find_wine() {
  for w in wine64 /usr/lib/wine/wine64 wine; do
    if command -v "$w" >/dev/null 2>&1; then echo "$w"; return 0; fi
  done
  return 1
}
missing=()
command -v gcc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing+=(gcc-mingw-w64-x86-64)
find_wine >/dev/null || missing+=(wine64 wine)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "check.sh: missing ${missing[*]}; install them (apt-get install ${missing[*]}) or run as root" >&2
    exit 2
  fi
  echo "== installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
rustup target list --installed | grep -qx "$win" || rustup target add "$win"
wine=$(find_wine)

# ---- builds
echo "== build (profile $profile): Linux library and damka, Windows DLL and damka.exe"
cargo build --profile "$profile" -p damka-cb -p damka --bin damka --lib
out="$repo/target/cbtest"
mkdir -p "$out"
gcc -O2 -Wall -Wextra -Werror -o "$out/cb_test" tools/cb/tests/cb_test.c -ldl -lpthread
if [ "$wine_too" = 1 ]; then
  cargo build --profile "$profile" --target "$win" -p damka-cb -p damka --bin damka --lib
  x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -Werror -static -o "$out/cb_test.exe" tools/cb/tests/cb_test.c
  x86_64-w64-mingw32-gcc -O2 -shared -o "$out/bcryptprimitives.dll" tools/cb/tests/bcryptprimitives_shim.c -ladvapi32
fi

status=0
summary=()

echo "== Rust tests"
if cargo test --profile "$profile" -p damka-cb; then summary+=("rust tests: ok"); else summary+=("rust tests: FAILED"); status=1; fi

echo "== C test against libdamka_cb.so"
set +e
(cd "$repo/target/$profile" && "$out/cb_test" ./libdamka_cb.so "$games") | tee "$out/linux.log"
rc=${PIPESTATUS[0]}
set -e
summary+=("C test, Linux: $(tail -n 1 "$out/linux.log")")
[ "$rc" = 0 ] || status=1

if [ "$wine_too" != 1 ]; then
  echo "== summary (Wine checks left to tools/dist/check.sh)"
  printf '%s\n' "${summary[@]}"
  exit $status
fi

# ---- Wine: its own prefix in a temporary folder, no display, quiet
tmp=$(mktemp -d)
export WINEPREFIX="$tmp/prefix" WINEDEBUG=-all WINEARCH=win64
unset DISPLAY WAYLAND_DISPLAY
# Ends the wineserver of this prefix only (it would exit by itself a few seconds later).
cleanup() {
  local ws
  for ws in wineserver /usr/lib/wine/wineserver64 /usr/lib/wine/wineserver; do
    if command -v "$ws" >/dev/null 2>&1; then WINEPREFIX="$tmp/prefix" "$ws" -k >/dev/null 2>&1 || true; break; fi
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
run="$tmp/run"
mkdir -p "$run"
cp "target/$win/$profile/damka_cb.dll" "target/$win/$profile/damka.exe" "$out/cb_test.exe" \
  "$out/bcryptprimitives.dll" "$run/"
echo "== C test against damka_cb.dll under $wine"
set +e
(cd "$run" && "$wine" cb_test.exe damka_cb.dll "$games" 2>/dev/null | tr -d '\r') | tee "$out/wine.log"
rc=${PIPESTATUS[0]}
set -e
summary+=("C test, Wine: $(tail -n 1 "$out/wine.log")")
[ "$rc" = 0 ] || status=1

echo "== bench: Linux against Wine"
native=$("target/$profile/damka" bench 2>/dev/null | tail -n 1 | tr -d '\r')
emulated=$(cd "$run" && "$wine" damka.exe bench 2>/dev/null | tail -n 1 | tr -d '\r')
n1=$(echo "$native" | sed -n 's/^bench nodes=\([0-9]*\).*/\1/p')
n2=$(echo "$emulated" | sed -n 's/^bench nodes=\([0-9]*\).*/\1/p')
echo "Linux: $native"
echo "Wine:  $emulated"
if [ -n "$n1" ] && [ "$n1" = "$n2" ]; then
  summary+=("bench nodes: Linux $n1 = Wine $n2")
else
  summary+=("bench nodes: Linux ${n1:-?} != Wine ${n2:-?} FAILED")
  status=1
fi

echo "== summary"
printf '%s\n' "${summary[@]}"
exit $status
