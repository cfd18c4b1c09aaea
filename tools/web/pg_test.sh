#!/usr/bin/env bash
# Runs a command (by default the API, online-play, local-game and analysis tests) against a throwaway
# PostgreSQL: initdb in a temporary folder, the server on a free loopback port, its URL in
# DAMKA_WEB_TEST_PG (each test makes a database of its own there), stopped and removed after.
# Debian's postgresql is installed when missing. Called by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."

find_bin() {
  if [ -n "${DAMKA_PG_BIN:-}" ]; then echo "$DAMKA_PG_BIN"; return; fi
  if command -v initdb >/dev/null 2>&1; then dirname "$(readlink -f "$(command -v initdb)")"; return; fi
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}
bin=$(find_bin)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  bin=$(find_bin)
fi
[ -x "$bin/initdb" ] || { echo "pg_test.sh: no PostgreSQL (initdb) after installing it"; exit 1; }
export DAMKA_PG_BIN=$bin

dir=$(mktemp -d /tmp/damka-pg-XXXXXX)
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown postgres: "$dir"
  as_pg=(runuser -u postgres --)
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
stop() {
  "${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
"${as_pg[@]}" "$bin/initdb" -D "$dir/data" -U damka --auth=trust -E UTF8 --no-sync >/dev/null
"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w start \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" >/dev/null
export DAMKA_WEB_TEST_PG="postgres://damka@127.0.0.1:$port/postgres"
echo "PostgreSQL ($("$bin/postgres" --version)) on port $port for: ${*:-the API tests}"
if [ $# -eq 0 ]; then
  set -- cargo test --profile ci -p damka-web --test integration -- api:: online:: local_games:: analysis::
fi
"$@"
