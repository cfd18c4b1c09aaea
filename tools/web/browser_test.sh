#!/usr/bin/env bash
# Browser tests of the damka-web page: a real headless Chromium (Debian's chromium and
# chromium-driver, installed here when missing) driven by Selenium from a venv. Called by
# .ci/run; runs on a fresh machine too. About half a minute once built.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi

VENV=${WEB_TEST_VENV:-target/web-test-venv}
SELENIUM=4.50.0
. tools/venv.sh
ensure_venv "$VENV" "import selenium, sys; sys.exit(selenium.__version__ != '$SELENIUM')" "selenium==$SELENIUM"

# The profile .ci/run tests with (built already by then); WEB_TEST_PROFILE=release tests the
# fully optimised binary instead.
PROFILE=${WEB_TEST_PROFILE:-ci}
cargo build --profile "$PROFILE" -p damka-web
"$VENV/bin/python" tools/web/browser_test.py --server "target/$PROFILE/damka-web" "$@"
