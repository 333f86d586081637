"""Measure the course site: build times, page weight, slider latency and time to the first interactive figure.

Run from the repository root (after ``./dev.sh build`` has installed everything)::

    .venv/bin/python benchmarks/bench_site.py            # all measurements, Markdown table on stdout
    .venv/bin/python benchmarks/bench_site.py --steps 300 --json benchmarks/results/site.json

What is measured, each in this one process:

* **cold build**: ``jupyter-book build`` into an empty output folder (every notebook executed);
  **warm build**: the same command again with nothing changed (Sphinx's environment and outputs reused).
* **bytes per page**: the HTML plus every JS and CSS file the page loads, as received by Debian's chromium.
* **slider step latency**: from dispatching an ``input`` event on a slider to the first frame painted after
  Plotly finished updating (``requestAnimationFrame`` then a task), p50 and p95 over many steps of every
  slider.
  Baseline: the same frame wait with no slider work, measured on the same page.
* **first interactive figure**: time from navigation start until the first figure on a chapter page is drawn
  and its sliders wired (``data-ready-at`` recorded by the figure script), over several loads.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from rope_viz.site import local

ROOT = Path(__file__).resolve().parents[1]

STEP_SCRIPT = """
async ([figureIndex, sliderIndex, steps]) => {
  const figure = document.querySelectorAll('figure.rope-viz-demo')[figureIndex];
  const input = figure.querySelectorAll('input[type=range]')[sliderIndex];
  const frame = () => new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const max = Number(input.max);
  const times = [];
  const paths = [];
  const baseline = [];
  let direction = 1;
  for (let k = 0; k < steps; k++) {
    const t0 = performance.now();
    await frame();
    baseline.push(performance.now() - t0);
    let target = Number(input.value) + direction;
    if (target > max || target < 0) { direction = -direction; target = Number(input.value) + direction; }
    const rendered = new Promise(
      resolve => figure.addEventListener('rope-viz:rendered', resolve, {once: true}));
    const t1 = performance.now();
    input.value = String(target);
    input.dispatchEvent(new Event('input', {bubbles: true}));
    await rendered;
    await frame();
    times.push(performance.now() - t1);
    paths.push(figure.dataset.path);
  }
  return {times, baseline, paths};
}
"""


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def build(output: Path) -> float:
    """Seconds for one ``jupyter-book build`` of the whole book into ``output`` (warnings are errors)."""
    start = time.perf_counter()
    result = local.build(ROOT, output)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"build failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return elapsed


def measure_pages(html: Path, url: str, steps: int, loads: int) -> dict:
    """Page weight, slider latency and first-figure time for every page, in Debian's chromium."""
    from playwright.sync_api import sync_playwright

    pages = [str(path.relative_to(html)) for path in local.pages(html)]
    results: dict = {"pages": {}, "latency_ms": [], "paths": [], "baseline_ms": [], "first_figure_ms": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=local.CHROMIUM, args=list(local.CHROMIUM_ARGS))
        for relative in pages:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            sizes: dict[str, int] = {}

            def record(response, sizes=sizes):
                kind = response.request.resource_type
                if kind in {"document", "script", "stylesheet"} and response.url.startswith(url):
                    sizes[response.url] = len(response.body())

            page.on("response", record)
            page.goto(f"{url}/{relative}", wait_until="load")
            figures = page.locator("figure.rope-viz-demo").count()
            if figures:
                page.wait_for_function(
                    "n => document.querySelectorAll('figure.rope-viz-demo[data-ready=true]').length === n",
                    arg=figures,
                    timeout=30_000,
                )
            results["pages"][relative] = {
                "bytes": sum(sizes.values()),
                "files": len(sizes),
                "figures": figures,
            }
            for figure_index in range(figures):
                sliders = page.locator("figure.rope-viz-demo").nth(figure_index).locator("input[type=range]")
                for slider_index in range(sliders.count()):
                    measured = page.evaluate(STEP_SCRIPT, [figure_index, slider_index, steps])
                    results["latency_ms"] += measured["times"]
                    results["paths"] += measured["paths"]
                    results["baseline_ms"] += measured["baseline"]
            context.close()
            if figures:
                for _ in range(loads):
                    context = browser.new_context(viewport={"width": 1280, "height": 900})
                    page = context.new_page()
                    page.goto(f"{url}/{relative}", wait_until="domcontentloaded")
                    page.wait_for_selector("figure.rope-viz-demo[data-ready=true]", timeout=30_000)
                    ready_at = page.evaluate(
                        "() => Math.min(...[...document.querySelectorAll("
                        "'figure.rope-viz-demo[data-ready=true]')].map(f => Number(f.dataset.readyAt)))"
                    )
                    results["first_figure_ms"].append(ready_at)
                    context.close()
        browser.close()
    return results


def main() -> None:
    """Run every measurement and print a Markdown report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=120, help="slider steps per slider")
    parser.add_argument("--loads", type=int, default=5, help="page loads per chapter, first-figure time")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder)
        cold = build(output)
        warm = build(output)
        html = output / "_build" / "html"
        server, url = local.serve(html)
        try:
            measured = measure_pages(html, url, args.steps, args.loads)
        finally:
            server.shutdown()

    latency, baseline = measured["latency_ms"], measured["baseline_ms"]
    first = measured["first_figure_ms"]
    page_bytes = {name: info["bytes"] for name, info in measured["pages"].items()}
    with_figures = [info["bytes"] for info in measured["pages"].values() if info["figures"]]
    without = [info["bytes"] for info in measured["pages"].values() if not info["figures"]]
    frame = statistics.median(baseline)
    by_path = {"fast": [], "full": []}
    for step, path in zip(latency, measured["paths"], strict=True):
        by_path[path].append(step)
    lines = [
        "| measurement | value | ratio to baseline |",
        "| --- | ---: | ---: |",
        f"| cold build (all notebooks executed) | {cold:.1f} s | goal < 180 s: {cold / 180:.2f} of it |",
        f"| warm build (nothing changed) | {warm:.1f} s | {warm / cold:.2f} of the cold build |",
        f"| slider step, input to repaint, p50 | {percentile(latency, 0.5):.1f} ms | "
        f"{percentile(latency, 0.5) / frame:.2f} × empty frame ({frame:.1f} ms) |",
        f"| slider step, input to repaint, p95 | {percentile(latency, 0.95):.1f} ms | "
        f"{percentile(latency, 0.95) / frame:.2f} × empty frame |",
        f"| slider steps measured | {len(latency)} | |",
        *[
            f"| {name} redraws ({len(subset)} steps): p50 / p95 | "
            f"{percentile(subset, 0.5):.1f} / {percentile(subset, 0.95):.1f} ms | |"
            for name, subset in (
                ("scatter-only, same layout (Plotly.animate, no full redraw)", by_path["fast"]),
                ("full (Plotly.update)", by_path["full"]),
            )
            if subset
        ],
        f"| first interactive figure after navigation, median | {statistics.median(first):.0f} ms | "
        f"goal < 1000 ms: {statistics.median(first) / 1000:.2f} of it |",
        f"| first interactive figure, worst of {len(first)} loads | {max(first):.0f} ms | |",
        f"| page weight with figures, median (HTML, JS, CSS) | {statistics.median(with_figures) / 1e6:.2f} MB"
        " | |",
        f"| page weight without figures, median | {statistics.median(without) / 1e6:.2f} MB | |",
    ]
    print("\n".join(lines))
    print()
    print("| page | bytes (HTML + JS + CSS) | figures |")
    print("| --- | ---: | ---: |")
    for name, info in measured["pages"].items():
        print(f"| {name} | {info['bytes']:,} | {info['figures']} |")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps({"cold_s": cold, "warm_s": warm, **measured, "page_bytes": page_bytes}, indent=1)
        )


if __name__ == "__main__":
    main()
