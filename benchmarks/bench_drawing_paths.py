"""Time a slider step drawn three ways on the built site's figures: directly, Plotly.animate, Plotly.update.

Run from the repository root after ``./dev.sh build``::

    .venv/bin/python benchmarks/bench_drawing_paths.py               # every chapter, Markdown table on stdout
    .venv/bin/python benchmarks/bench_drawing_paths.py 03 05 --steps 4 --json benchmarks/results/paths.json

For every figure of every chapter page, each slider is stepped from its first value through ``--steps`` values
(the other sliders at their defaults), and each step is drawn by one of:

* **direct**: ``RopeVizDirect.create(plot, figure).apply(...)``, the site's own path (rope-viz-direct.js);
* **animate**: ``Plotly.animate(plot, {data, traces, layout}, {transition: {duration: 0}, frame: {duration: 0,
  redraw: false}, mode: "immediate"})``, Plotly's own way of moving scatter and bar traces without a redraw;
* **update**: ``Plotly.update(plot, data, layout)``, a full redraw.

Each path runs on a fresh load of the page with the same states (decoded from the page's own payload).
Measured per step: the script time (call to its return, or to its promise for Plotly's calls) and the time to
the next frame after it (``requestAnimationFrame``, then a message task). Baseline, in the same process and
pages: the same frame wait with no drawing at all. A step the direct drawing declines (it then leaves the page
untouched and the site would call Plotly) is counted, not timed.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from percentiles import percentile  # run as a script: benchmarks/ is on the path
from playwright.sync_api import sync_playwright

from rope_viz.site import local

ROOT = Path(__file__).resolve().parents[1]
PATHS = ("none", "direct", "animate", "update")

STEP_SCRIPT = r"""
async ([figureIndex, path, steps]) => {
  const root = document.querySelectorAll('figure.rope-viz-demo')[figureIndex];
  root.scrollIntoView();
  const plot = root.querySelector('.rope-viz-plot');
  const payload = JSON.parse(root.querySelector('script.rope-viz-payload').textContent);
  const source = RopeVizFigures.decodePayload(payload);
  const inputs = [...root.querySelectorAll('input[type=range]')];
  const start = inputs.map(input => Number(input.value));
  const frame = () => new Promise(resolve => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = resolve;
    channel.port2.postMessage(null);
  }));
  const nested = update => {
    const out = {};
    Object.keys(update).forEach(key => RopeVizFigures.setPath(out, key, update[key]));
    return out;
  };
  const direct = path === 'direct' ? RopeVizDirect.create(plot, source.figure) : null;
  if (direct) {
    const state = source.state(start);
    direct.drawn(state.t, state.l);
    await new Promise(resolve => setTimeout(resolve, 300));  // it reads the drawing when idle
  }
  const times = [];
  let declined = 0;
  for (let k = 0; k < inputs.length; k++) {
    for (let j = 1; j <= Math.min(Number(inputs[k].max), steps); j++) {
      const indices = start.slice();
      indices[k] = j;
      const state = source.state(indices);
      await frame();
      const began = performance.now();
      if (path === 'direct') {
        if (!direct.apply(state.t, state.l)) { declined++; continue; }
      } else if (path === 'animate') {
        await Plotly.animate(plot, {data: state.t.map(nested), traces: state.t.map((_, i) => i),
          layout: nested(state.l)}, {transition: {duration: 0}, frame: {duration: 0, redraw: false},
          mode: 'immediate'});
      } else if (path === 'update') {
        const data = {};
        state.t.forEach((update, trace) => Object.keys(update).forEach(key => {
          (data[key] = data[key] || state.t.map(() => undefined))[trace] = update[key];
        }));
        await Plotly.update(plot, data, Object.assign({}, state.l));
      }
      const returned = performance.now();
      await frame();
      times.push([returned - began, performance.now() - began]);
    }
  }
  return {times, declined, types: [...new Set(source.figure.data.map(trace => trace.type || 'scatter'))]};
}
"""


def measure(html: Path, chapters: list[str], steps: int) -> dict:
    server, url = local.serve(html)
    pages = sorted(str(page.relative_to(html)) for page in html.glob("notebooks/*.html"))
    if chapters:
        pages = [page for page in pages if any(Path(page).name.startswith(prefix) for prefix in chapters)]
    results: dict = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            for relative in pages:
                for path in PATHS:
                    context = browser.new_context(viewport={"width": 1280, "height": 900})
                    page = context.new_page()
                    page.goto(f"{url}/{relative}")
                    count = page.locator("figure.rope-viz-demo").count()
                    page.wait_for_function(
                        "n => document.querySelectorAll('figure.rope-viz-demo[data-ready=true]').length == n",
                        arg=count,
                        timeout=30_000,
                    )
                    page.wait_for_timeout(500)
                    for index in range(count):
                        figure = f"{Path(relative).stem[:2]}#{index}"
                        timed = page.evaluate(STEP_SCRIPT, [index, path, steps])
                        results.setdefault(figure, {})[path] = timed
                    context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return results


def table(results: dict) -> str:
    lines = [
        "| figure | traces | steps | direct: script p50 / frame p50 / p95 (ms) | animate | update "
        "| declined |",
        "| --- | --- | ---: | --- | --- | --- | ---: |",
    ]
    pooled: dict[str, list] = {path: [] for path in PATHS}
    for figure, paths in results.items():
        cells = []
        for path in ("direct", "animate", "update"):
            times = paths[path]["times"]
            pooled[path] += times
            frames = [t[1] for t in times]
            scripts = [t[0] for t in times]
            cells.append(
                f"{statistics.median(scripts):.1f} / {statistics.median(frames):.1f}"
                f" / {percentile(frames, 0.95):.1f}"
                if times
                else "-"
            )
        pooled["none"] += paths["none"]["times"]
        steps = len(paths["update"]["times"])
        types = ", ".join(paths["update"]["types"])
        declined = paths["direct"]["declined"]
        lines.append(f"| {figure} | {types} | {steps} | {' | '.join(cells)} | {declined} |")
    baseline = statistics.median(t[1] for t in pooled["none"])
    header = "| path | steps | script p50 (ms) | frame p50 (ms) | frame p95 (ms) | frame p50 / baseline |"
    lines += ["", header]
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for path in PATHS:
        times = pooled[path]
        frames = [t[1] for t in times]
        lines.append(
            f"| {path if path != 'none' else 'no drawing (baseline)'} | {len(times)} | "
            f"{statistics.median(t[0] for t in times):.1f} | {statistics.median(frames):.1f} | "
            f"{percentile(frames, 0.95):.1f} | {statistics.median(frames) / baseline:.2f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", help="chapter number prefixes, e.g. 03 05 (default: all)")
    parser.add_argument("--steps", type=int, default=6, help="steps per slider, from its first value")
    parser.add_argument("--html", type=Path, default=ROOT / "_build" / "html", help="the built site")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    arguments = parser.parse_args()
    results = measure(arguments.html, arguments.chapters, arguments.steps)
    if arguments.json:
        arguments.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    print(table(results))


if __name__ == "__main__":
    main()
