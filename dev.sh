#!/usr/bin/env bash
# Set up, build, serve and test the rope-viz course on a fresh Debian/Ubuntu machine with Python 3.11+.
#
#   ./dev.sh serve [PORT]      build the site and serve it at http://127.0.0.1:PORT/ (default 8000)
#   ./dev.sh test [ARGS...]    install what the tests need (Python packages, Debian's chromium) and run them all
#   ./dev.sh build             build the site into _build/html (warnings are errors)
#   ./dev.sh lint              ruff check and format check
#
# Everything Python goes into .venv/ beside this script; the first run installs it, later runs reuse it.
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
  if ! command -v chromium >/dev/null 2>&1; then
    as_root apt-get update -q
    as_root apt-get install -y -q chromium fonts-dejavu-core
  fi
}

build() {
  "$VENV/bin/jupyter-book" build . --builder html -W -n --keep-going
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
    setup_browser
    exec "$PY" -m pytest "$@"
    ;;
  lint)
    setup_python
    "$VENV/bin/ruff" check .
    "$VENV/bin/ruff" format --check .
    ;;
  *)
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
