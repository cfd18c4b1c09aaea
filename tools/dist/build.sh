#!/usr/bin/env bash
# Release archives, for players who do not build from source:
#   dist/damka-<version>-x86_64-windows.zip    damka.exe, damka-web.exe, damka-match.exe,
#                                              damka_cb.dll + damka_cb.htm (CheckerBoard,
#                                              Kallisto), web/ (the page with the engine in
#                                              the browser), openings/, README.txt, COPYING
#   dist/damka-<version>-x86_64-linux.tar.gz   the same for Linux (libdamka_cb.so), linked
#                                              against glibc 2.17, so it runs on any x86-64
#                                              Linux with glibc 2.17 or newer (2012 on)
#   dist/SHA256SUMS                            `sha256sum -c SHA256SUMS` checks a download
#
# Usage: bash tools/dist/build.sh [--profile release|ci] [--out DIR] [--tools-only|--compile-only]
#   --profile       the Cargo profile (default release, fat LTO: what is published; CI uses
#                   ci, the same code and node counts, built in a third of the time)
#   --out           where the archives go (default dist/)
#   --tools-only    install what the build needs (below), then stop
#   --compile-only  also compile the programs for both systems, then stop: .ci/run does this
#                   in the background while its checks run, and the full run after it finds
#                   the programs compiled (with the same --profile)
#
# Needs: Debian's gcc-mingw-w64-x86-64 (the Windows linker; installed here when missing and
# root), the rustup targets x86_64-pc-windows-gnu and x86_64-unknown-linux-gnu (added here),
# and zig with cargo-zigbuild for the old-glibc Linux link (installed here from PyPI into
# target/dist-tools). tools/dist/check.sh unpacks the archives and runs every program.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

profile=release
out=dist
only=
while [ $# -gt 0 ]; do
  case $1 in
    --profile) profile=${2:?--profile needs a value}; shift 2 ;;
    --out) out=${2:?--out needs a value}; shift 2 ;;
    --tools-only) only=tools; shift ;;
    --compile-only) only=compile; shift ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "dist.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case $profile in release|ci) ;; *) echo "dist.sh: --profile is release or ci" >&2; exit 2 ;; esac
mkdir -p "$out"
out=$(cd "$out" && pwd)

version=$(sed -n '/^\[package\]/,/^\[/s/^version *= *"\(.*\)"/\1/p' Cargo.toml | head -n 1)
[ -n "$version" ] || { echo "dist.sh: no version in Cargo.toml" >&2; exit 2; }
# The commit the programs name in --version (build.rs reads DAMKA_COMMIT); a tree with
# uncommitted changes says so.
commit=$(bash tools/dist/commit.sh)
export DAMKA_COMMIT=$commit

# ---- tools
win=x86_64-pc-windows-gnu
linux=x86_64-unknown-linux-gnu
glibc=2.17
if ! command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || { echo "dist.sh: needs the MinGW linker: apt-get install gcc-mingw-w64-x86-64" >&2; exit 2; }
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc-mingw-w64-x86-64 >/dev/null
fi
for t in "$win" "$linux"; do
  rustup target list --installed | grep -qx "$t" || rustup target add "$t"
done
. tools/ci/venv.sh
tools_venv=target/dist-tools
ensure_venv "$tools_venv" 'import ziglang' 'ziglang==0.17.1'
[ -x "$tools_venv/bin/cargo-zigbuild" ] ||
  "$tools_venv/bin/python" -m pip install --quiet --disable-pip-version-check 'cargo-zigbuild==0.24.1'
# cargo-zigbuild finds zig through `python3 -m ziglang` of the first python3 on PATH.
export PATH="$repo/$tools_venv/bin:$PATH"
[ "$only" != tools ] || exit 0

# ---- build: a target folder of its own, since the flags differ from everyday builds
build=target/dist-build
# Source paths in panic messages name the crate, not this machine's folders.
export RUSTFLAGS="--remap-path-prefix=$repo=damka --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=cargo"
packages=(-p damka -p damka-web -p damka-match -p damka-cb)
echo "== damka $version (commit $commit), profile $profile: Linux x86-64 (glibc $glibc)"
cargo zigbuild --quiet --locked --profile "$profile" --target "$linux.$glibc" --target-dir "$build" "${packages[@]}"
echo "== Windows x86-64"
cargo build --quiet --locked --profile "$profile" --target "$win" --target-dir "$build" "${packages[@]}"
unset RUSTFLAGS
[ "$only" != compile ] || exit 0
echo "== the page with the engine in the browser (tools/wasm/build.sh)"
bash tools/wasm/build.sh >/dev/null

# ---- stage
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# $1 system (windows|linux), $2 executable suffix, $3 engine library, $4 build folder
stage() {
  local name="damka-$version-x86_64-$1" suffix=$2 lib=$3 from=$4
  local d="$stage/$name"
  mkdir -p "$d/openings"
  for p in damka damka-web damka-match; do cp "$from/$p$suffix" "$d/"; done
  cp "$from/$lib" tools/cb/damka_cb.htm COPYING "$d/"
  cp src/data/openings/*.txt "$d/openings/"
  cp -r target/wasm "$d/web"
  bash tools/dist/readme.sh "$1" "$version" "$commit" >"$d/README.txt"
  if [ "$1" = windows ]; then
    # Notepad and other Windows readers expect CRLF line ends.
    sed -i 's/$/\r/' "$d/README.txt"
  fi
  echo "$name"
}
wname=$(stage windows .exe damka_cb.dll "$build/$win/$profile")
lname=$(stage linux "" libdamka_cb.so "$build/$linux/$profile")

# ---- what the archives must not hold: a library that is not part of the system, a newer
# glibc than promised, this machine's paths.
fail() { echo "dist.sh: $*" >&2; exit 1; }
for f in "$stage/$wname"/*.exe "$stage/$wname"/*.dll; do
  while read -r dll; do
    case ${dll,,} in
      kernel32.dll|ntdll.dll|msvcrt.dll|ws2_32.dll|userenv.dll|advapi32.dll|secur32.dll|\
      bcrypt.dll|bcryptprimitives.dll|api-ms-win-*.dll) ;;
      *) fail "$(basename "$f") imports $dll, which Windows does not ship" ;;
    esac
  done < <(x86_64-w64-mingw32-objdump -p "$f" | sed -n 's/^\s*DLL Name: //p')
done
for f in "$stage/$lname"/damka "$stage/$lname"/damka-web "$stage/$lname"/damka-match "$stage/$lname"/libdamka_cb.so; do
  newest=$(objdump -T "$f" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
  [ "$(printf '%s\n%s\n' "$newest" "$glibc" | sort -V | tail -n 1)" = "$glibc" ] ||
    fail "$(basename "$f") needs glibc $newest, newer than $glibc"
done
leaks=$(grep -rlaF -e "$repo" -e "${CARGO_HOME:-$HOME/.cargo}" "$stage" || true)
[ -z "$leaks" ] || fail "build paths inside: $leaks"

# ---- archives and their sums
rm -f "$out/$wname.zip" "$out/$lname.tar.gz" "$out/SHA256SUMS"
(cd "$stage" && python3 -m zipfile -c "$out/$wname.zip" "$wname")
tar -C "$stage" --owner=0 --group=0 -czf "$out/$lname.tar.gz" "$lname"
(cd "$out" && sha256sum "$wname.zip" "$lname.tar.gz" >SHA256SUMS)
ls -l "$out/$wname.zip" "$out/$lname.tar.gz" "$out/SHA256SUMS"
