# Sourced by the CI scripts: python_with VENV PACKAGE sets $python to a Python that
# imports PACKAGE, installed from PyPI into the virtual environment VENV (a stock
# Debian Python refuses `pip install` into the system, PEP 668); straight into
# this Python when venv is missing.
python_with() {
  local venv="$1" package="$2" module="${3:-$2}"
  python="$venv/bin/python"
  if ! "$python" -c "import $module" 2>/dev/null; then
    if python3 -m venv "$venv" 2>/dev/null; then
      "$python" -m pip install --quiet "$package"
    else
      python="python3"
      python3 -m pip install --quiet "$package" || python3 -m pip install --quiet --break-system-packages "$package"
    fi
  fi
}
