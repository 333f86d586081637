"""Time the figure script's work on a keyboard step, on the page and in the presenter view, for two versions.

Run from the repository root after ``./dev.sh build``::

    git show HEAD~1:rope_viz/site/static/rope-viz-direct.js > /tmp/direct-before.js
    .venv/bin/python benchmarks/bench_step_script.py --before /tmp/direct-before.js --heatmaps

A keyboard step's work in the page's main thread, before chromium renders the frame, is the figure's ``input``
handler: it writes the step's values and readout and draws the step directly (rope-viz-direct.js). It is timed
between a capturing ``input`` listener on the window (which runs before the slider's own listener) and a
bubbling one (which runs after it). For every figure of every chapter (only those with a heatmap trace with
``--heatmaps``), the first slider is focused and pressed ``--presses`` times, 150 ms apart, on the page at
1280×800 and in the presenter view at 1920×1080; the first press of each figure is left out. The site is
served
twice in one process, with the built ``rope-viz-direct.js`` ("after") and with the file given by ``--before``,
in alternating rounds, so that both see the same machine load.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from playwright.sync_api import sync_playwright

from rope_viz.site import local

ROOT = Path(__file__).resolve().parents[1]
DIRECT_JS = Path("_static") / "rope_viz" / "rope-viz-direct.js"

TIMER_SCRIPT = """
() => {
  window.ropeVizHandler = [];
  let started = 0;
  window.addEventListener('input', () => { started = performance.now(); }, true);
  window.addEventListener('input', () => { window.ropeVizHandler.push(performance.now() - started); }, false);
}
"""

HEATMAP_FIGURES = """
() => [...document.querySelectorAll('figure.rope-viz-demo')]
  .map((figure, index) => [figure.querySelector('.rope-viz-plot')._fullData, index])
  .filter(([traces]) => traces.some(trace => trace.type === 'heatmap'))
  .map(([, index]) => index)
"""

VIEWS = {"page": {"width": 1280, "height": 800}, "presenter": {"width": 1920, "height": 1080}}


def step_times(page, index: int, view: str, presses: int) -> list[float]:
    """Handler times of ``presses`` arrow-key steps of figure ``index``'s first slider, the first left out."""
    figure = page.locator("figure.rope-viz-demo").nth(index)
    left = int(figure.get_attribute("data-left") or 0)
    if view == "presenter":
        figure.get_by_role("button", name="Present", exact=True).click()
        page.wait_for_function(
            "f => f.dataset.presented === 'true'", arg=figure.element_handle(), timeout=15_000
        )
        page.mouse.move(VIEWS[view]["width"] - 2, VIEWS[view]["height"] - 2)
    slider = figure.locator("input[type=range]").first
    slider.scroll_into_view_if_needed()
    slider.focus()
    page.wait_for_timeout(400)
    page.evaluate("() => { window.ropeVizHandler = []; }")
    for _ in range(presses):
        value, maximum = int(slider.input_value()), int(slider.get_attribute("max"))
        page.keyboard.press("ArrowRight" if value < maximum else "ArrowLeft")
        page.wait_for_timeout(150)
    times = page.evaluate("() => window.ropeVizHandler")[1:]
    if view == "presenter":
        page.keyboard.press("Escape")
        page.wait_for_function(
            "([f, n]) => Number(f.dataset.left || 0) > n", arg=[figure.element_handle(), left], timeout=15_000
        )
    return times


WARM = "n => document.querySelectorAll('figure.rope-viz-demo[data-warm=true]').length === n"


def open_chapter(browser, url: str, chapter: str, viewport: dict, direct_js: str):
    """A new page on ``chapter``, served with ``direct_js`` as rope-viz-direct.js, its figures warm."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.route(
        "**/rope-viz-direct.js*",
        lambda route: route.fulfill(status=200, content_type="text/javascript", body=direct_js),
    )
    page.goto(f"{url}/{chapter}")
    count = page.locator("figure.rope-viz-demo").count()
    page.wait_for_function(WARM, arg=count, timeout=60_000)
    page.evaluate(TIMER_SCRIPT)
    return context, page, count


def measure(html: Path, before: str, heatmaps_only: bool, presses: int, rounds: int) -> dict:
    """Handler times by (version, view, chapter, figure)."""
    versions = {"after": (html / DIRECT_JS).read_text(encoding="utf-8"), "before": before}
    chapters = [str(path.relative_to(html)) for path in local.pages(html) if path.parent.name == "notebooks"]
    results: dict = {}
    server, url = local.serve(html)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=local.CHROMIUM, args=list(local.CHROMIUM_ARGS)
            )
            for round_index in range(rounds):
                order = ["before", "after"] if round_index % 2 == 0 else ["after", "before"]
                for version, (view, viewport), chapter in (
                    (version, item, chapter)
                    for version in order
                    for item in VIEWS.items()
                    for chapter in chapters
                ):
                    context, page, count = open_chapter(browser, url, chapter, viewport, versions[version])
                    indices = page.evaluate(HEATMAP_FIGURES) if heatmaps_only else list(range(count))
                    for index in indices:
                        key = (version, view, Path(chapter).stem, index)
                        results.setdefault(key, []).extend(step_times(page, index, view, presses))
                    context.close()
            browser.close()
    finally:
        server.shutdown()
    return results


def table(results: dict) -> str:
    """Markdown: per figure and view the median handler time before and after, and over all figures."""
    lines = [
        "| figure | view | before: p50 (ms) | after: p50 (ms) | after / before |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    keys = sorted({key[1:] for key in results}, key=lambda key: (key[1], key[2], key[0]))
    for view, chapter, index in keys:
        before = statistics.median(results[("before", view, chapter, index)])
        after = statistics.median(results[("after", view, chapter, index)])
        lines.append(
            f"| {chapter}, figure {index} | {view} | {before:.1f} | {after:.1f} | {after / before:.2f} |"
        )
    for view in VIEWS:
        spread = []
        for version in ("before", "after"):
            times = sorted(t for key, values in results.items() if key[:2] == (version, view) for t in values)
            spread.append(f"{statistics.median(times):.1f} / {times[int(0.95 * (len(times) - 1))]:.1f}")
        count = sum(len(values) for key, values in results.items() if key[:2] == ("after", view))
        lines.append(
            f"| all ({count} steps each) | {view} | {spread[0]} (p50 / p95) | {spread[1]} (p50 / p95) | |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="another rope-viz-direct.js to compare")
    parser.add_argument("--heatmaps", action="store_true", help="only the figures with a heatmap trace")
    parser.add_argument("--presses", type=int, default=7, help="key presses per figure and view")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds of both versions")
    parser.add_argument("--html", type=Path, default=ROOT / "_build" / "html", help="the built site")
    arguments = parser.parse_args()
    before = arguments.before.read_text(encoding="utf-8")
    print(table(measure(arguments.html, before, arguments.heatmaps, arguments.presses, arguments.rounds)))


if __name__ == "__main__":
    main()
