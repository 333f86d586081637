"""Time keyboard steps on the page and in the presenter view, for two versions of the figure scripts.

Run from the repository root after ``./dev.sh build``::

    git show HEAD~1:rope_viz/site/static/rope-viz-direct.js > /tmp/direct-before.js
    .venv/bin/python benchmarks/bench_step_script.py --before /tmp/direct-before.js --heatmaps

``--before`` is one ``rope-viz-direct.js``, or a folder holding the ``rope-viz-*.js`` of another build (its
``_build/html/_static/rope_viz``), every one of which is then served in place of this build's.

A keyboard step's work in the page's main thread, before chromium renders the frame, is the figure's ``input``
handler: it writes the step's values and readout and draws the step directly (rope-viz-direct.js). It is timed
between a capturing ``input`` listener on the window (which runs before the slider's own listener) and a
bubbling one (which runs after it). For every figure of every chapter (only those with a heatmap trace with
``--heatmaps``), the first slider is focused and pressed ``--presses`` times, 150 ms apart, on the page at
1280×800 and in the presenter view at 1920×1080; the first press of each figure is left out. The site is
served
twice in one process, with the built scripts ("after") and with those given by ``--before``, in alternating
rounds, so that both see the same machine load.

Each step is also timed as the browser reports it: the Event Timing API's duration of its keydown, from the
key to the next frame presented (entries of 16 ms or more; a step without one took less). Steps 600 ms apart
(``--interval 600``) follow the protocol of issue 13 and of ``bench_site.py``.

``--unscaled`` adds a third view, the presenter view with its plot left at the page's size instead of scaled
up (a diagnostic, not a view a reader sees): what a step costs there beyond the page is then split between
the plot's scale and the rest of the view.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from percentiles import percentile  # run as a script: benchmarks/ is on the path
from playwright.sync_api import sync_playwright

from rope_viz.site import local

ROOT = Path(__file__).resolve().parents[1]
DIRECT_JS = Path("_static") / "rope_viz" / "rope-viz-direct.js"

TIMER_SCRIPT = """
() => {
  window.ropeVizHandler = [];
  window.ropeVizKeys = [];
  let started = 0;
  window.addEventListener('input', () => { started = performance.now(); }, true);
  window.addEventListener('input', () => { window.ropeVizHandler.push(performance.now() - started); }, false);
  new PerformanceObserver(list => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'keydown' && entry.interactionId) window.ropeVizKeys.push(entry.duration);
    }
  }).observe({type: 'event', durationThreshold: 16, buffered: false});
}
"""

#: Event Timing reports no entry under this duration (ms): a step without one took less.
EVENT_TIMING_THRESHOLD = 16

HEATMAP_FIGURES = """
() => [...document.querySelectorAll('figure.rope-viz-demo')]
  .map((figure, index) => [figure.querySelector('.rope-viz-plot')._fullData, index])
  .filter(([traces]) => traces.some(trace => trace.type === 'heatmap'))
  .map(([, index]) => index)
"""

VIEWS = {"page": {"width": 1280, "height": 800}, "presenter": {"width": 1920, "height": 1080}}

#: With ``--unscaled``, a third view: the presenter view with its plot left at the size it has on the page
#: (everything else as in the presenter view), to tell what the plot's scale costs a step.
UNSCALED = "presenter, plot unscaled"
UNSCALED_STYLE = ".rope-viz-presenting > .rope-viz-plot { transform: none !important; }"


def step_times(page, index: int, view: str, presses: int, interval: int) -> tuple[list[float], list[float]]:
    """Handler times and Event Timing durations (0 for a step under the threshold) of ``presses`` arrow-key
    steps of figure ``index``'s first slider, ``interval`` ms apart, the first left out."""
    figure = page.locator("figure.rope-viz-demo").nth(index)
    left = int(figure.get_attribute("data-left") or 0)
    presenter = view != "page"
    if presenter:
        figure.get_by_role("button", name="Present", exact=True).click()
        page.wait_for_function(
            "f => f.dataset.presented === 'true'", arg=figure.element_handle(), timeout=15_000
        )
        page.mouse.move(VIEWS["presenter"]["width"] - 2, VIEWS["presenter"]["height"] - 2)
    slider = figure.locator("input[type=range]").first
    slider.scroll_into_view_if_needed()
    slider.focus()
    page.wait_for_timeout(max(400, interval))
    first = True
    times: list[float] = []
    durations: list[float] = []
    for _ in range(presses):
        page.evaluate("() => { window.ropeVizHandler = []; window.ropeVizKeys = []; }")
        value, maximum = int(slider.input_value()), int(slider.get_attribute("max"))
        page.keyboard.press("ArrowRight" if value < maximum else "ArrowLeft")
        page.wait_for_timeout(interval)
        handler, keys = page.evaluate("() => [window.ropeVizHandler, window.ropeVizKeys]")
        if not first:
            times.extend(handler)
            durations.append(max(keys, default=0.0))
        first = False
    if presenter:
        page.keyboard.press("Escape")
        page.wait_for_function(
            "([f, n]) => Number(f.dataset.left || 0) > n", arg=[figure.element_handle(), left], timeout=15_000
        )
        page.wait_for_timeout(400)
    return times, durations


WARM = "n => document.querySelectorAll('figure.rope-viz-demo[data-warm=true]').length === n"


def serve(text: str):
    """A route handler that answers with the script ``text``."""
    return lambda route: route.fulfill(status=200, content_type="text/javascript", body=text)


def open_chapter(browser, url: str, chapter: str, viewport: dict, scripts: dict[str, str], style: str = ""):
    """A new page on ``chapter``, its scripts named in ``scripts`` (file name: text) served from there, its
    figures warm, ``style`` added to its CSS."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    for name, text in scripts.items():
        page.route(f"**/_static/rope_viz/{name}*", serve(text))
    page.goto(f"{url}/{chapter}")
    count = page.locator("figure.rope-viz-demo").count()
    page.wait_for_function(WARM, arg=count, timeout=60_000)
    page.evaluate(TIMER_SCRIPT)
    if style:
        page.add_style_tag(content=style)
    return context, page, count


def before_scripts(path: Path) -> dict[str, str]:
    """The scripts to serve for "before": one rope-viz-direct.js, or every rope-viz-*.js in a folder."""
    if path.is_dir():
        scripts = {file.name: file.read_text(encoding="utf-8") for file in sorted(path.glob("rope-viz-*.js"))}
        if DIRECT_JS.name not in scripts:
            raise SystemExit(f"{path} holds no {DIRECT_JS.name}")
        return scripts
    return {DIRECT_JS.name: path.read_text(encoding="utf-8")}


def measure(
    html: Path,
    before: dict[str, str],
    heatmaps_only: bool,
    presses: int,
    rounds: int,
    interval: int,
    unscaled: bool = False,
) -> dict:
    """Handler times and Event Timing durations, by ("handler" or "event", version, view, chapter, figure)."""
    views = dict(VIEWS)
    if unscaled:
        views[UNSCALED] = VIEWS["presenter"]
    after = {name: (html / DIRECT_JS.parent / name).read_text(encoding="utf-8") for name in before}
    versions = {"after": after, "before": before}
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
                    for item in views.items()
                    for chapter in chapters
                ):
                    style = UNSCALED_STYLE if view == UNSCALED else ""
                    context, page, count = open_chapter(
                        browser, url, chapter, viewport, versions[version], style
                    )
                    indices = page.evaluate(HEATMAP_FIGURES) if heatmaps_only else list(range(count))
                    for index in indices:
                        key = (version, view, Path(chapter).stem, index)
                        times, durations = step_times(page, index, view, presses, interval)
                        results.setdefault(("handler", *key), []).extend(times)
                        results.setdefault(("event", *key), []).extend(durations)
                    context.close()
            browser.close()
    finally:
        server.shutdown()
    return results


def pooled(results: dict, kind: str, version: str, view: str) -> list[float]:
    """Every figure's times of one kind, version and view."""
    return [time for key, values in results.items() if key[:3] == (kind, version, view) for time in values]


def shown(duration: float) -> str:
    """An Event Timing duration, or "< 16" for a step that had no entry."""
    return f"{duration:.0f}" if duration >= EVENT_TIMING_THRESHOLD else f"< {EVENT_TIMING_THRESHOLD}"


def table(results: dict) -> str:
    """Markdown: per figure and view the median handler time and Event Timing duration before and after, and
    over all figures p50 / p95 and the share of steps of 24 ms or more."""
    lines = [
        "| figure | view | handler p50 (ms): before | after | Event Timing p50 (ms): before | after |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    keys = sorted({key[2:] for key in results}, key=lambda key: (key[1], key[2], key[0]))
    for view, chapter, index in keys:
        cells = [
            f"{statistics.median(results[('handler', version, view, chapter, index)]):.1f}"
            for version in ("before", "after")
        ] + [
            shown(statistics.median(results[("event", version, view, chapter, index)]))
            for version in ("before", "after")
        ]
        lines.append(f"| {chapter}, figure {index} | {view} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "| view | version | steps | handler p50 / p95 (ms) | Event Timing p50 / p95 (ms) | steps >= 24 ms |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for view in dict.fromkeys(key[2] for key in results):
        for version in ("before", "after"):
            handler = pooled(results, "handler", version, view)
            event = pooled(results, "event", version, view)
            slow = sum(duration >= 24 for duration in event) / len(event)
            lines.append(
                f"| {view} | {version} | {len(event)} | {percentile(handler, 0.5):.1f} / "
                f"{percentile(handler, 0.95):.1f} | {shown(percentile(event, 0.5))} / "
                f"{shown(percentile(event, 0.95))} | {slow:.0%} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--before",
        type=Path,
        required=True,
        help="another rope-viz-direct.js to compare, or a folder with another build's rope-viz-*.js",
    )
    parser.add_argument("--heatmaps", action="store_true", help="only the figures with a heatmap trace")
    parser.add_argument("--presses", type=int, default=7, help="key presses per figure and view")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds of both versions")
    parser.add_argument("--interval", type=int, default=150, help="ms between key presses (600: issue 13)")
    parser.add_argument("--html", type=Path, default=ROOT / "_build" / "html", help="the built site")
    parser.add_argument(
        "--unscaled",
        action="store_true",
        help=f"also time a third view, '{UNSCALED}': the presenter view, its plot at the page's size",
    )
    arguments = parser.parse_args()
    before = before_scripts(arguments.before)
    results = measure(
        arguments.html,
        before,
        arguments.heatmaps,
        arguments.presses,
        arguments.rounds,
        arguments.interval,
        arguments.unscaled,
    )
    print(table(results))


if __name__ == "__main__":
    main()
