"""Time a chapter's first interactive figure after a cold load, with the site's plotly.js and with another.

Run from the repository root after ``./dev.sh build``::

    git show 206e34e:rope_viz/site/static/plotly-cartesian.min.js > /tmp/plotly-before.js
    .venv/bin/python benchmarks/bench_first_figure.py --before /tmp/plotly-before.js

For every chapter, ``--loads`` times per version, in alternating order: a new browser context (nothing
cached) opens the chapter, and the time from navigation start to the first figure drawn with its sliders wired
is read from the figure script (``data-ready-at``, as ``bench_site.py`` reads it). One more load per chapter
and version runs under chromium's tracing, for the time the browser spent evaluating the plotly.js script (its
``EvaluateScript`` event). Both versions are served from the same built site in one process, the bundle
answered from memory for either, so that the two differ in the script alone. Baseline: the other bundle, in
the same run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from rope_viz.site import local

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = Path("_static") / "rope_viz" / "plotly.min.js"
FIRST_READY = (
    "() => Math.min(...[...document.querySelectorAll('figure.rope-viz-demo[data-ready=true]')]"
    ".map(figure => Number(figure.dataset.readyAt)))"
)


def load(browser, url: str, chapter: str, bundle: bytes, trace: Path | None = None) -> float:
    """Open ``chapter`` in a fresh context with ``bundle`` as plotly.js; return when its first figure was
    ready (ms after navigation start)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.route(
        "**/_static/rope_viz/plotly.min.js*",
        lambda route: route.fulfill(status=200, content_type="text/javascript", body=bundle),
    )
    if trace is not None:
        browser.start_tracing(page=page, path=str(trace), categories=["devtools.timeline"])
    page.goto(f"{url}/{chapter}", wait_until="domcontentloaded")
    page.wait_for_selector("figure.rope-viz-demo[data-ready=true]", state="attached", timeout=60_000)
    ready = page.evaluate(FIRST_READY)
    if trace is not None:
        page.wait_for_timeout(500)
        browser.stop_tracing()
    context.close()
    return ready


def evaluation_ms(trace: Path) -> float:
    """Duration of the longest evaluation of the plotly.js script in a chromium trace."""
    data = json.loads(trace.read_text(encoding="utf-8"))
    events = data["traceEvents"] if isinstance(data, dict) else data
    durations = [
        event["dur"] / 1000
        for event in events
        if event.get("name") == "EvaluateScript"
        and "/rope_viz/plotly.min.js" in event.get("args", {}).get("data", {}).get("url", "")
    ]
    return max(durations)


def measure(html: Path, before: bytes, loads: int) -> dict:
    """First-figure times and plotly.js evaluation times, by version."""
    versions = {"before": before, "after": (html / BUNDLE).read_bytes()}
    chapters = [str(path.relative_to(html)) for path in local.pages(html) if path.parent.name == "notebooks"]
    results = {version: {"first_figure_ms": [], "evaluation_ms": []} for version in versions}
    server, url = local.serve(html)
    try:
        with sync_playwright() as playwright, tempfile.TemporaryDirectory() as folder:
            browser = playwright.chromium.launch(
                executable_path=local.CHROMIUM, args=list(local.CHROMIUM_ARGS)
            )
            for round_index in range(loads + 1):
                order = ["before", "after"] if round_index % 2 == 0 else ["after", "before"]
                for chapter in chapters:
                    for version in order:
                        if round_index == loads:  # the traced round
                            trace = Path(folder) / "trace.json"
                            load(browser, url, chapter, versions[version], trace)
                            results[version]["evaluation_ms"].append(evaluation_ms(trace))
                        else:
                            ready = load(browser, url, chapter, versions[version])
                            results[version]["first_figure_ms"].append(ready)
            browser.close()
    finally:
        server.shutdown()
    return results


def table(results: dict, before_size: int, after_size: int) -> str:
    """Markdown: medians and worst cases of both versions, and their ratio."""
    rows = [
        "| measurement | before | after | after / before |",
        "| --- | ---: | ---: | ---: |",
        f"| plotly.js bundle (bytes) | {before_size:,} | {after_size:,} | {after_size / before_size:.2f} |",
    ]
    for key, label in (
        ("first_figure_ms", "first interactive figure"),
        ("evaluation_ms", "plotly.js evaluation"),
    ):
        before, after = results["before"][key], results["after"][key]
        median_before, median_after = statistics.median(before), statistics.median(after)
        rows.append(
            f"| {label}, median of {len(after)} loads (ms) | {median_before:,.0f} | {median_after:,.0f} | "
            f"{median_after / median_before:.2f} |"
        )
        worst_before, worst_after = max(before), max(after)
        ratio = worst_after / worst_before
        rows.append(f"| {label}, worst (ms) | {worst_before:,.0f} | {worst_after:,.0f} | {ratio:.2f} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="another plotly.js bundle to compare")
    parser.add_argument("--loads", type=int, default=3, help="untraced loads per chapter and version")
    parser.add_argument("--html", type=Path, default=ROOT / "_build" / "html", help="the built site")
    arguments = parser.parse_args()
    before = arguments.before.read_bytes()
    results = measure(arguments.html, before, arguments.loads)
    print(table(results, len(before), len((arguments.html / BUNDLE).read_bytes())))


if __name__ == "__main__":
    main()
