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

PYTHON=${PYTHON:-python3}
VENV=${WEB_TEST_VENV:-target/web-test-venv}
SELENIUM=4.50.0
if ! "$VENV/bin/python" -c "import selenium, sys; sys.exit(selenium.__version__ != '$SELENIUM')" 2>/dev/null; then
  rm -rf "$VENV"
  if ! "$PYTHON" -m venv "$VENV" 2>/dev/null; then
    # Debian-like systems ship venv separately.
    if command -v apt-get >/dev/null 2>&1; then
      apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
    fi
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV"
  fi
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "selenium==$SELENIUM"
fi

# The profile .ci/run tests with (built already by then); WEB_TEST_PROFILE=release tests the
# fully optimised binary instead.
PROFILE=${WEB_TEST_PROFILE:-ci}
cargo build --profile "$PROFILE" -p damka-web
"$VENV/bin/python" tools/web/browser_test.py --server "target/$PROFILE/damka-web" "$@"
