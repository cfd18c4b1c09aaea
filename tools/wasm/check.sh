#!/usr/bin/env bash
# Tests of the WebAssembly build, called by .ci/run: builds it from source (tools/wasm/build.sh),
# then in Node (check.js) compares it with the native binary (perft on tests/data/*.epd, the
# bench node count, error lines) and drives damka-worker.js through whole games, a `stop`
# during `go analyze` and bad input; then headless Chromium (browser_check.py) serves
# target/wasm/ as static files, no damka-web running, and plays a local game in each variant;
# then, offline after one visit (browser_offline.py: the service worker's cache, the server
# stopped, DevTools offline), whole games in both variants and a hot-seat game, the manifest
# and sw.js, a new version and a cache that cannot be filled; then damka-web --wasm serves the
# same files and its page plays against the engine in the browser, online and offline.
# A few minutes once built.
set -euo pipefail
cd "$(dirname "$0")/../.."

bash tools/wasm/build.sh
PROFILE=${WASM_TEST_PROFILE:-ci}
cargo build --quiet --profile "$PROFILE" -p damka -p damka-web
node tools/wasm/check.js target/wasm "target/$PROFILE/damka"

. tools/web/browser_env.sh
"$VENV/bin/python" tools/wasm/browser_check.py target/wasm --server "target/$PROFILE/damka-web"
