# Shared by tools/ci/python.sh and tools/web/browser_test.sh: a Python venv with a pinned
# package, made when missing or when the check fails. Source it, then:
#   ensure_venv VENV CHECK PACKAGE   # CHECK: Python code that exits 0 when VENV is good
ensure_venv() {
  local venv=$1 check=$2 package=$3 python=${PYTHON:-python3}
  if "$venv/bin/python" -c "$check" 2>/dev/null; then
    return 0
  fi
  rm -rf "$venv"
  if ! "$python" -m venv "$venv" 2>/dev/null; then
    # Debian-like systems ship venv separately.
    if command -v apt-get >/dev/null 2>&1; then
      apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
    fi
    rm -rf "$venv"
    "$python" -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$package"
}
