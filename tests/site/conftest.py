"""Fixtures for the site tests: one cold build of the whole book per test session, served on 127.0.0.1."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rope_viz.site import local

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


@dataclass
class BuiltSite:
    """The result of building the book: its HTML folder and the build's output."""

    html: Path
    returncode: int
    log: str

    def pages(self) -> list[Path]:
        """Return every HTML page of the site."""
        return local.pages(self.html)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """Build the book from scratch (no cache) with warnings as errors, as CI and the README do."""
    output = tmp_path_factory.mktemp("site")
    result = local.build(ROOT, output)
    log = result.stdout + result.stderr
    # Screenshots of pages that no longer exist must not linger; other suites' artifacts (live/) stay.
    shutil.rmtree(ARTIFACTS / "screenshots", ignore_errors=True)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "build.log").write_text(log, encoding="utf-8")
    return BuiltSite(html=output / "_build" / "html", returncode=result.returncode, log=log)


@pytest.fixture(scope="session")
def site_url(built_site: BuiltSite) -> Iterator[str]:
    """Serve the built site on 127.0.0.1 at a free port for the whole session."""
    if built_site.returncode != 0:
        pytest.fail("the site did not build; see test-artifacts/build.log")
    server, url = local.serve(built_site.html)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()
