#!/usr/bin/env bash
# Set up, build, serve and test the rope-viz course on a fresh Debian/Ubuntu machine with Python 3.11+.
#
#   ./dev.sh serve [PORT]           build the site and serve it at http://127.0.0.1:PORT/ (default 8000)
#   ./dev.sh test [ARGS...]         install what the tests need (Python packages, Debian's chromium), run them all
#   ./dev.sh test --fast [ARGS...]  the unit, property and doctest tests only: no site build, browser or Jupyter
#   ./dev.sh build                  build the site into _build/html (warnings are errors)
#   ./dev.sh lint                   ruff check and format check, ESLint
#   ./dev.sh plotly                 rebuild the site's plotly.js bundle from plotly-bundle/ (see CONTRIBUTING.md)
#
# Everything Python goes into .venv/ beside this script, the JavaScript tools into node_modules/; the first run
# installs them, later runs reuse them.
# ARGS go to pytest as they are (a path, -k, -x, ...). `./dev.sh plotly` installs its own npm packages into
# plotly-bundle/node_modules/ (plotly.js and esbuild: only a maintainer upgrading plotly.js needs them).
set -euo pipefail
cd "$(dirname "$0")"

VENV=.venv
PY="$VENV/bin/python"

python_for_venv() {
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
        echo "$candidate"
        return
    fi
  done
  echo "dev.sh: Python 3.11 or newer is required" >&2
  exit 1
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

setup_python() {
  if [ ! -x "$PY" ]; then
    if ! "$(python_for_venv)" -m venv "$VENV" 2>/dev/null; then
      as_root apt-get update -q
      as_root apt-get install -y -q python3-venv
      "$(python_for_venv)" -m venv "$VENV"
    fi
  fi
  # Reinstall only when the requirement files changed since the last install.
  local stamp="$VENV/.requirements.sha256"
  local want
  want=$(cat requirements.txt requirements-dev.txt pyproject.toml | sha256sum | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    "$PY" -m pip install --quiet --upgrade pip
    "$PY" -m pip install --quiet -r requirements-dev.txt
    # requirements.txt installs the package as Binder does; make it editable for development.
    "$PY" -m pip install --quiet --no-deps -e .
    echo "$want" >"$stamp"
  fi
}

setup_browser() {
  # poppler-utils: pdftoppm and pdftotext read the chapters printed to PDF (tests/site/test_print.py).
  if ! command -v chromium >/dev/null 2>&1 || ! command -v pdftoppm >/dev/null 2>&1; then
    as_root apt-get update -q
    as_root apt-get install -y -q chromium fonts-dejavu-core poppler-utils
  fi
}

setup_node() {
  # ESLint (and the other JavaScript tools pinned in package-lock.json) go into node_modules/.
  if ! command -v npm >/dev/null 2>&1; then
    as_root apt-get update -q
    as_root apt-get install -y -q nodejs npm
  fi
  local stamp=node_modules/.package-lock.sha256
  local want
  want=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    npm ci --no-audit --no-fund --loglevel=error
    echo "$want" >"$stamp"
  fi
}

build() {
  # One build at a time per checkout: two at once would share _build/.jupyter_cache and _build/html.
  mkdir -p _build
  if command -v flock >/dev/null 2>&1; then
    flock _build/.build.lock "$VENV/bin/jupyter-book" build . --builder html -W -n --keep-going
  else
    "$VENV/bin/jupyter-book" build . --builder html -W -n --keep-going
  fi
}

case "${1:-}" in
  serve)
    port="${2:-8000}"
    setup_python
    build
    echo
    echo "Serving the course at http://127.0.0.1:${port}/  (Ctrl-C to stop)"
    exec "$PY" -m http.server "$port" --bind 127.0.0.1 --directory _build/html
    ;;
  build)
    setup_python
    build
    ;;
  test)
    shift
    setup_python
    setup_node
    if [ "${1:-}" = "--fast" ]; then
      shift
      # Tests marked slow (tests/conftest.py marks them) build the site, execute notebooks or drive a browser
      # or Jupyter; the two folders that hold nothing else are not even collected. One pytest-xdist worker per
      # core: about half the time on two cores (pass -n 0 for one process, e.g. with --pdb).
      exec "$PY" -m pytest -m "not slow" --ignore=tests/site --ignore=tests/live -n auto "$@"
    fi
    setup_browser
    exec "$PY" -m pytest "$@"
    ;;
  plotly)
    setup_node
    (cd plotly-bundle && npm ci --no-audit --no-fund --loglevel=error && node build.mjs)
    ;;
  lint)
    setup_python
    setup_node
    "$VENV/bin/ruff" check .
    "$VENV/bin/ruff" format --check .
    node_modules/.bin/eslint --max-warnings 0 .
    ;;
  *)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
