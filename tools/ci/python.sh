#!/usr/bin/env bash
# Real-client checks: pydraughts 0.6.7 (unmodified) plays damka against itself over the Hub
# protocol, and against `damka dxp` over DXP; pydraughts 0.5.7 (what lidraughts-bot pins,
# numbering squares from the top) and 0.6.7 each play whole games the way lidraughts-bot
# drives its engine. Called by .ci/run after the Rust tests; runs on a fresh machine too.
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV=${HUB_CHECK_VENV:-target/hub-check-venv}
VENV_057=${HUB_CHECK_VENV_057:-target/hub-check-venv-057}
. tools/ci/venv.sh
# Each venv from PyPI, remade when its pydraughts is not the pinned version.
ensure_venv "$VENV" 'import draughts; assert draughts.__version__ == "0.6.7"' pydraughts==0.6.7
ensure_venv "$VENV_057" 'import draughts; assert draughts.__version__ == "0.5.7"' pydraughts==0.5.7

# The profile .ci/run tests with (optimised, built already by then); HUB_CHECK_PROFILE=release
# checks the fully optimised binary instead.
PROFILE=${HUB_CHECK_PROFILE:-ci}
cargo build --profile "$PROFILE" --bin damka
ENGINE=${DAMKA:-target/$PROFILE/damka}
status=0
"$VENV/bin/python" tools/ci/hub_check.py --engine "$ENGINE" "$@" || status=1
# The README's pydraughts snippet, exactly as printed, with damka on the PATH (it must find it
# there: pydraughts runs its command by full path).
snippet=$(sed -n '/^From Python with pydraughts/,/^```$/p' README.md | sed -n '/^```python$/,/^```$/p' | sed '1d;$d')
[ -n "$snippet" ] || { echo "ci_python: no pydraughts snippet in README.md"; status=1; }
engine_dir=$(cd "$(dirname "$ENGINE")" && pwd)
python_abs="$(pwd)/$VENV/bin/python"
if out=$(cd "$(mktemp -d)" && PATH="$engine_dir:$PATH" timeout 60 "$python_abs" -c "$snippet" 2>&1) &&
  grep -qE '^[0-9]+[-x][0-9x]+$' <<<"$out"; then
  echo "README's pydraughts snippet: ok (it printed $out)"
else
  echo "README's pydraughts snippet failed: $out"
  status=1
fi
# lidraughts-bot's way, 4 whole Russian games with each pydraughts (about 35 s each).
"$VENV_057/bin/python" tools/ci/lidraughts_check.py --engine "$ENGINE" || status=1
"$VENV/bin/python" tools/ci/lidraughts_check.py --engine "$ENGINE" || status=1
# DXP: pydraughts' DXPEngine plays a whole game against `damka dxp` in each game (about 40 s).
"$VENV/bin/python" tools/ci/dxp_check.py --engine "$ENGINE" || status=1
# The bench tool of docs/performance.md runs, and the node counts repeat (not a timing).
python3 tools/research/eval_ratio.py --binary "$ENGINE" --rounds 2 || status=1
exit $status
