"""Fixtures for the site tests: one cold build of the whole book per test session, served on 127.0.0.1, and
pages of it opened in chromium with every request off 127.0.0.1 blocked and every console error collected."""

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

    def relative_pages(self) -> list[str]:
        """Return every HTML page of the site relative to its root, such as ``notebooks/01_x.html``."""
        return [str(page.relative_to(self.html)) for page in self.pages()]


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


#: Console messages that are not errors of this site (none known today; add with a reason if ever needed).
IGNORED_CONSOLE_ERRORS: tuple[str, ...] = ()


def _is_a_problem(kind: str, text: str) -> bool:
    """A console error or warning, or a warning of plotly.js (which it logs with ``console.trace``)."""
    flagged = kind in ("error", "warning") or text.startswith("WARN:")
    return flagged and not any(ignored in text for ignored in IGNORED_CONSOLE_ERRORS)


@pytest.fixture
def open_page(browser, site_url):
    """Open a page with every request off 127.0.0.1 blocked and recorded, and console errors collected
    (warnings too, and plotly.js's).

    ``open_page(relative, color_scheme="light", height=900, width=1280, phone=False)`` returns the page, the
    list of its console errors and page errors so far (it grows while the page is used) and the list of
    blocked requests. With ``phone``, the browser is a phone's: touch, two device pixels per CSS pixel, and
    the page's viewport meta tag honoured.
    """
    contexts = []

    def _open(
        relative: str, color_scheme: str = "light", height: int = 900, width: int = 1280, phone: bool = False
    ):
        device = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2} if phone else {}
        context = browser.new_context(
            viewport={"width": width, "height": height}, color_scheme=color_scheme, **device
        )
        contexts.append(context)
        page = context.new_page()
        problems: list[str] = []
        blocked: list[str] = []

        def route(route_request):
            url = route_request.request.url
            if url == site_url or url.startswith((site_url + "/", "data:", "blob:")):
                route_request.continue_()
            else:
                blocked.append(url)
                route_request.abort()

        page.route("**/*", route)
        page.on(
            "console",
            lambda message: (
                problems.append(f"console.{message.type}: {message.text}")
                if _is_a_problem(message.type, message.text)
                else None
            ),
        )
        page.on("pageerror", lambda error: problems.append(f"pageerror: {error}"))
        page.goto(f"{site_url}/{relative}", wait_until="load")
        page.evaluate("() => document.fonts.ready.then(() => true)")
        return page, problems, blocked

    yield _open
    for context in contexts:
        context.close()


def wait_for_math(page) -> None:
    """Wait until MathJax has typeset the page (at once on a page without math)."""
    page.wait_for_function(
        "() => !document.querySelector('.math') || (window.MathJax && MathJax.startup && "
        "MathJax.startup.promise && document.querySelector('mjx-container'))",
        timeout=15_000,
    )
    page.evaluate("() => window.MathJax && MathJax.startup ? MathJax.startup.promise : null")


#: Have Plotly draw the state on screen of every figure (a step drawn directly stays a preview until the
#: reader reaches into the plot, see rope-viz-figures.js).
COMMIT_EVERY_FIGURE = """
() => {
  for (const figure of document.querySelectorAll('figure.rope-viz-demo')) {
    if (figure.dataset.committed !== figure.dataset.state) {
      figure.dispatchEvent(new CustomEvent('rope-viz:commit'));
    }
  }
}
"""


def settle_figures(page) -> None:
    """Wait until Plotly has drawn the state on screen of every figure of the page."""
    page.evaluate(COMMIT_EVERY_FIGURE)
    page.wait_for_function(
        "() => [...document.querySelectorAll('figure.rope-viz-demo')]"
        ".every(figure => figure.dataset.committed === figure.dataset.state)",
        timeout=10_000,
    )


def wait_for_figures(page, settled: bool = False) -> int:
    """Wait until every figure is drawn (and, if ``settled``, has done its idle-time preparation)."""
    count = page.locator("figure.rope-viz-demo").count()
    selector = "figure.rope-viz-demo[data-ready=true]"
    if settled:
        selector += "[data-reserved=true][data-warm=true]"
    if count:
        page.wait_for_function(
            "([selector, n]) => document.querySelectorAll(selector).length === n",
            arg=[selector, count],
            timeout=15_000,
        )
    return count
