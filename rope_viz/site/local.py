"""Build the course site, serve it on 127.0.0.1 and list its pages (for the browser tests and benchmarks)."""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
from pathlib import Path

#: Debian's chromium, as the tests and benchmarks drive it (never a browser downloaded by a test tool).
CHROMIUM = "/usr/bin/chromium"

#: Headless, and without the background connections that a machine with no internet refuses.
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def build(root: Path, output: Path, *, timeout: float = 900) -> subprocess.CompletedProcess:
    """Build the book in ``root`` into ``output/_build/html`` with warnings as errors; return the process."""
    command = [
        str(Path(sys.executable).parent / "jupyter-book"),
        "build",
        str(root),
        "--path-output",
        str(output),
        "--builder",
        "html",
        "-W",
        "-n",
        "--keep-going",
    ]
    return subprocess.run(command, capture_output=True, text=True, cwd=root, timeout=timeout)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def serve(directory: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve ``directory`` on 127.0.0.1 at a free port, in a background thread; return the server and its URL.

    Call ``server.shutdown()`` when done.
    """
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def pages(html: Path) -> list[Path]:
    """Every HTML page of a built site: not the redirect stub at the root, nor theme templates in _static."""
    return sorted(
        path
        for path in Path(html).rglob("*.html")
        if path.relative_to(html).parts[0] not in {"_static", "_sources", "index.html"}
    )
