#!/usr/bin/env bash
# Measures the strength levels (`skill` 1-10) of one game: each level against the one below,
# GAMES games a pairing (openings played twice, colours swapped), every engine capped at CAP
# nodes a move besides its level's own cap (so the figures do not depend on the machine's
# speed or load), book off, one fixed seed per level. Prints the tool's result line of each
# pairing and then a table: each level's Elo against level 10 (the sum of the steps above it,
# errors added in quadrature) and its step over the level below.
#
#   cargo build --release -p damka -p damka-match
#   tools/match/levels.sh russian 100    # 30-50 minutes each on two cores, most of it
#   tools/match/levels.sh turkish 100    # the pairing of level 10 and level 9
#
# DAMKA and DAMKA_MATCH name other binaries; PDN=DIR keeps every game in DIR/VARIANT-Lk.pdn;
# ONLY="2 7" plays only the pairings of those levels against the ones below (after a change to
# those levels: the other pairings play the same games as before) and prints no table.
set -euo pipefail
cd "$(dirname "$0")/../.."
variant=${1:?usage: levels.sh russian|turkish [GAMES] [CAP]}
games=${2:-100}
cap=${3:-1000000}
damka=${DAMKA:-target/release/damka}
tool=${DAMKA_MATCH:-target/release/damka-match}
case $variant in
  russian) openings=src/data/openings/russian-ballots.txt ;;
  turkish) openings=src/data/openings/turkish.txt ;;
  *) echo "levels.sh: unknown game $variant (russian or turkish)" >&2; exit 2 ;;
esac
for f in "$damka" "$tool"; do
  [ -x "$f" ] || { echo "levels.sh: $f not built (cargo build --release -p damka -p damka-match)" >&2; exit 2; }
done

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for hi in ${ONLY:-2 3 4 5 6 7 8 9 10}; do
  lo=$((hi - 1))
  pdn=()
  [ -n "${PDN:-}" ] && pdn=(--pdn "$PDN/$variant-L$hi.pdn")
  line=$("$tool" --variant "$variant" --engine "L$hi=$damka" --engine "L$lo=$damka" \
    --param "L$hi:skill=$hi" --param "L$lo:skill=$lo" \
    --param "L$hi:book=false" --param "L$lo:book=false" \
    --param "L$hi:seed=$hi" --param "L$lo:seed=$lo" \
    --openings "$openings" --shuffle "$hi" --games "$games" --nodes "$cap" \
    --concurrency 2 "${pdn[@]}" | tail -n 1)
  echo "L$hi against L$lo: $line"
  echo "$hi $line" >> "$results"
done

[ -z "${ONLY:-}" ] || exit 0
echo
echo "| level | Elo against level 10 | step over the level below |"
echo "| ---: | ---: | ---: |"
# Each line: LEVEL elo=E error=R games=G score=S, the step of LEVEL over the level below.
awk '
  function field(name,   i, kv) {
    for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == name) return kv[2] }
    return ""
  }
  { elo[$1] = field("elo"); err[$1] = field("error") }
  END {
    sum = 0; var = 0; bounded = 1
    for (l = 10; l >= 1; l--) {
      total = bounded ? sprintf("%+.0f +/- %.0f", -sum, sqrt(var)) : "out of range"
      if (l == 10) total = "0"
      step = "-"
      if (l in elo) {
        e = elo[l]; r = err[l]
        step = (e ~ /inf/ ? e : sprintf("%+.0f", e)) " +/- " (r ~ /inf/ ? r : sprintf("%.0f", r))
      }
      print "| " l " | " total " | " step " |"
      if (l in elo) {
        if (elo[l] ~ /inf/ || err[l] ~ /inf/) bounded = 0
        else { sum += elo[l]; var += err[l] * err[l] }
      }
    }
  }' "$results"
