# Shared by tools/web/browser_test.sh and tools/wasm/check.sh: headless Chromium (Debian's
# chromium and chromium-driver, installed when missing) and a venv with Selenium. Source it
# from the repository's top folder; it sets VENV (WEB_TEST_VENV, default target/web-test-venv).
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
VENV=${WEB_TEST_VENV:-target/web-test-venv}
SELENIUM=4.50.0
. tools/ci/venv.sh
ensure_venv "$VENV" "import selenium, sys; sys.exit(selenium.__version__ != '$SELENIUM')" "selenium==$SELENIUM"
