#!/usr/bin/env bash
# The README.txt of a release archive (tools/dist/build.sh): what each file is, and first steps.
# Usage: readme.sh windows|linux VERSION COMMIT
set -euo pipefail
system=$1 version=$2 commit=$3
if [ "$system" = windows ]; then
  x=.exe run= lib=damka_cb.dll sep='\' os=Windows
else
  x= run=./ lib=libdamka_cb.so sep=/ os=Linux
fi
cat <<TXT
damka $version (commit $commit) for $os, x86-64
A Russian and Turkish draughts engine. Free software: GPL-3.0-or-later (see COPYING).

WHAT IS IN THIS FOLDER

TXT
# One file a row: the name in a column of 19, then its lines.
row() {
  local name=$1
  shift
  printf '  %-17s%s\n' "$name" "$1"
  shift
  for line in "$@"; do printf '  %-17s%s\n' "" "$line"; done
}
row "damka$x" "The engine. With no arguments it speaks the Hub protocol on" \
  "stdin/stdout (for GUIs, pydraughts and lidraughts-bot)." \
  "\"damka$x play\" plays a game in the terminal, \"damka$x analyse\"" \
  "analyses a position or a PDN file, \"damka$x dxp\" plays over DXP," \
  "\"damka$x bench\" measures speed, \"damka$x --help\" lists the rest."
row "damka-web$x" "The board page: play in the browser against the engine, with a" \
  "friend on one device, or online in rooms."
row "damka-match$x" "Engine-against-engine matches with a score and an Elo estimate."
row "$lib" "damka as an engine library for Russian draughts: the CheckerBoard" \
  "API and the Kallisto engine interface."
row damka_cb.htm "The library's help page (CheckerBoard shows it)."
row "web$sep" "The board page with the engine running inside the browser: it plays" \
  "with no server at all once loaded, and can be installed as an app."
row "openings$sep" "Balanced start positions for damka-match (Russian, Turkish)."
row COPYING "The licence."
cat <<TXT

Nothing needs installing: every program runs from this folder. Files kept between runs
(damka-web's games, endgame databases built with "damka$x egtb build") go to the user's
data folder: $( [ "$system" = windows ] && echo '%APPDATA%\damka' || echo '$XDG_DATA_HOME/damka, else ~/.local/share/damka' ).
$( [ "$system" = linux ] && echo 'The programs need glibc 2.17 or newer (any x86-64 Linux from 2012 on).' || echo 'The programs need 64-bit Windows 10 or later.' )

FIRST STEPS

In the browser
  Run damka-web$x and open http://127.0.0.1:8080 (its first line says where it serves
  and where it keeps the games). "damka-web$x --wasm web" lets the browser run the
  engine itself. To use the page without any server, serve the web folder with any
  static web server, for example: python3 -m http.server -d web 8000
  (opening web${sep}index.html as a file does not work: browsers refuse to start the
  engine from a file). After one visit the page also works offline.
TXT
if [ "$system" = windows ]; then
  cat <<'TXT'

CheckerBoard (Russian draughts)
  Copy damka_cb.dll and damka_cb.htm into CheckerBoard's "engines" folder, then choose
  Engine > Select... and pick damka_cb.dll. CheckerBoard switches to Russian draughts.
  Engine > Engine options sets the hash size, the book and the endgame database folder.

A GUI with the Kallisto engine interface (Russian draughts)
  Copy damka_cb.dll into the GUI's engine folder and select it there.
TXT
else
  cat <<'TXT'

A GUI with the CheckerBoard API or the Kallisto engine interface
  Load libdamka_cb.so the way the program loads engine libraries (dlopen): the same
  calls as damka_cb.dll on Windows (getmove, enginecommand, islegal; EI_* functions).
TXT
fi
cat <<TXT

pydraughts (Python)
  pip install pydraughts, then:
    from draughts import Board
    from draughts.engine import HubEngine, Limit
    engine = HubEngine([r"PATH${sep}damka$x"])   # the full path of damka$x
    engine.configure({"variant": "russian"})
    engine.init()
    result = engine.play(Board("russian"), Limit(movetime=1), ponder=False)
    print(result.move.hub_move)
    engine.quit()
  pydraughts 0.5 and older number Russian squares from b8 rather than a1: start it as
  HubEngine([r"PATH${sep}damka$x", "hub", "--numbering=top"]).

lidraughts-bot
  In lidraughts-bot's config.yml, under engine:
    dir: "PATH${sep}to${sep}this${sep}folder"
    name: "damka$x"
    engine_argument: "hub"
    protocol: "hub"
  For Russian games with lidraughts-bot's pinned pydraughts 0.5.7 also add:
    engine_options:
      numbering: "top"
  lidraughts-bot's default hub_options (book-ply, tt-size, bb-size) are understood.

Matches
  damka-match$x --variant russian --engine a=${run}damka$x --engine b=PATH${sep}other-engine$x
      --openings openings${sep}russian.txt --games 100 --tc 2+0.05

More: damka$x --help, and the documentation in the source repository (README.md, docs/).
TXT
