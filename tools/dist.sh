#!/usr/bin/env bash
# Release archives into target/dist/:
#   damka-<version>-windows-x86_64.zip   damka.exe (Hub, DXP, command line), damka-match.exe,
#                                        damka_cb.dll (CheckerBoard / Kallisto), damka_cb.htm,
#                                        README.txt, COPYING, gui.md
#   damka-<version>-linux-x86_64.tar.gz  the same for Linux (libdamka_cb.so)
# Windows is cross-compiled: rustup target add x86_64-pc-windows-gnu, and Debian's
# gcc-mingw-w64-x86-64 as linker (.cargo/config.toml names it).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
win=x86_64-pc-windows-gnu
version=$(sed -n '/^\[package\]/,/^\[/s/^version *= *"\(.*\)"/\1/p' Cargo.toml | head -n 1)
[ -n "$version" ] || { echo "dist.sh: no version in Cargo.toml" >&2; exit 2; }
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || {
  echo "dist.sh: needs the MinGW linker: apt-get install gcc-mingw-w64-x86-64" >&2; exit 2; }
rustup target list --installed | grep -qx "$win" || rustup target add "$win"

echo "== build damka $version for Linux and Windows (release)"
cargo build --release -p damka -p damka-match -p damka-cb
cargo build --release --target "$win" -p damka -p damka-match -p damka-cb

dist="$repo/target/dist"
rm -rf "$dist/stage"
mkdir -p "$dist/stage"

readme() { # $1: system name, $2: executable suffix, $3: engine library file
  cat <<TXT
damka $version ($1, x86_64): a Russian and Turkish draughts engine

damka$2          the engine. With no arguments (or "damka$2 hub") it speaks the Hub
                   protocol on stdin/stdout: add it as a Hub engine to a GUI, pydraughts or
                   lidraughts-bot. "damka$2 play" plays in the terminal, "damka$2 dxp"
                   over DXP, "damka$2 bench" measures speed, "damka$2 --help" lists the rest.
damka-match$2    engine-against-engine matches between Hub engines.
$3      damka as an engine library for Russian draughts: the CheckerBoard API
                   (getmove, enginecommand, islegal; game type 25) and the Kallisto EI_*
                   interface. For CheckerBoard, copy it and damka_cb.htm into CheckerBoard's
                   "engines" folder and choose Engine > Select.
gui.md             installing in CheckerBoard, Kallisto GUIs and lidraughts-bot, and every
                   engine command.

Licence: GPL-3.0-or-later (COPYING).
TXT
}

stage() { # $1: folder name, $2: suffix, $3: library, $4: build folder, $5: system
  local d="$dist/stage/$1"
  mkdir -p "$d"
  cp "$4/damka$2" "$4/damka-match$2" "$4/$3" "$d/"
  cp tools/cb/damka_cb.htm COPYING "$d/"
  cp docs/gui.md "$d/gui.md"
  readme "$5" "$2" "$3" > "$d/README.txt"
}

wname="damka-$version-windows-x86_64"
lname="damka-$version-linux-x86_64"
stage "$wname" .exe damka_cb.dll "target/$win/release" Windows
stage "$lname" "" libdamka_cb.so target/release Linux
# Windows readers expect CRLF line ends in a README.
sed -i 's/$/\r/' "$dist/stage/$wname/README.txt"

rm -f "$dist/$wname.zip" "$dist/$lname.tar.gz"
(cd "$dist/stage" && python3 -m zipfile -c "$dist/$wname.zip" "$wname")
tar -C "$dist/stage" -czf "$dist/$lname.tar.gz" "$lname"
rm -rf "$dist/stage"
ls -l "$dist/$wname.zip" "$dist/$lname.tar.gz"
