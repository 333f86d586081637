"""Fixtures for the site tests: one cold build of the whole book per test session, served on 127.0.0.1."""

from __future__ import annotations

import functools
import http.server
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@dataclass
class BuiltSite:
    """The result of building the book: its HTML folder and the build's output."""

    html: Path
    returncode: int
    log: str

    def pages(self) -> list[Path]:
        """Every HTML page of the site: not the redirect stub at the root, nor theme templates in _static."""
        return sorted(
            path
            for path in self.html.rglob("*.html")
            if path.relative_to(self.html).parts[0] not in {"_static", "_sources", "index.html"}
        )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """Build the book from scratch (no cache) with warnings as errors, as CI and the README do."""
    output = tmp_path_factory.mktemp("site")
    command = [
        str(Path(sys.executable).parent / "jupyter-book"),
        "build",
        str(ROOT),
        "--path-output",
        str(output),
        "--builder",
        "html",
        "-W",
        "-n",
        "--keep-going",
    ]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=900)
    log = result.stdout + result.stderr
    shutil.rmtree(ARTIFACTS, ignore_errors=True)  # screenshots of pages that no longer exist must not linger
    ARTIFACTS.mkdir()
    (ARTIFACTS / "build.log").write_text(log, encoding="utf-8")
    html = output / "_build" / "html"
    return BuiltSite(html=html, returncode=result.returncode, log=log)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def site_url(built_site: BuiltSite) -> Iterator[str]:
    """Serve the built site on 127.0.0.1 at a free port for the whole session."""
    if built_site.returncode != 0:
        pytest.fail("the site did not build; see test-artifacts/build.log")
    handler = functools.partial(_QuietHandler, directory=str(built_site.html))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's chromium driven by Playwright. Missing chromium is a failure, never a skip."""
    if shutil.which("chromium") is None and not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is not installed; run ./dev.sh test, which installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()
