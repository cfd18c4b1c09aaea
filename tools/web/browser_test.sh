#!/usr/bin/env bash
# Browser tests of the damka-web page: a real headless Chromium (Debian's chromium and
# chromium-driver, installed here when missing) driven by Selenium from a venv. Called by
# .ci/run; runs on a fresh machine too. About a minute and a half once built.
set -euo pipefail
cd "$(dirname "$0")/../.."

. tools/web/browser_env.sh

# The profile .ci/run tests with (built already by then); WEB_TEST_PROFILE=release tests the
# fully optimised binary instead.
PROFILE=${WEB_TEST_PROFILE:-ci}
cargo build --profile "$PROFILE" -p damka-web
"$VENV/bin/python" tools/web/browser_test.py --server "target/$PROFILE/damka-web" "$@"
