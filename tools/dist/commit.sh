#!/usr/bin/env bash
# Prints the commit the programs name in --version (build.rs reads it from DAMKA_COMMIT): git's
# HEAD, 12 digits, with "-modified" when tracked files have uncommitted changes; "unknown"
# outside a git checkout. Shared by tools/dist/build.sh and .ci/run, whose builds must all see
# the same value (a build that saw another would compile the engine again).
set -euo pipefail
cd "$(dirname "$0")/../.."
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  commit="$commit-modified"
fi
echo "$commit"
