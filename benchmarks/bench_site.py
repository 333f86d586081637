"""Measure the course site: build times, page weight, slider latency and time to the first interactive figure.

Run from the repository root (after ``./dev.sh build`` has installed everything)::

    .venv/bin/python benchmarks/bench_site.py            # all measurements, Markdown table on stdout
    .venv/bin/python benchmarks/bench_site.py --sweeps 10 --json benchmarks/results/site.json

What is measured, each in this one process:

* **cold build**: ``jupyter-book build`` into an empty output folder (every notebook executed);
  **warm build**: the same command again with nothing changed (Sphinx's environment and outputs reused).
* **bytes per page**: the HTML plus every JS and CSS file the page loads, as received by Debian's chromium.
* **slider step latency**: the mouse drags every slider of every figure from end to end (trusted input, as a
  reader's pointer gives it); for every ``input`` event, the time from the event to the first frame produced
  after the figure drew that step (``requestAnimationFrame``, then a message task: chromium defers timers
  during a drag). p50 and p95 over all steps, and for each of the two drawing paths (directly in the SVG, or
  a Plotly redraw).
  Baseline: the same frame wait with no slider work, started at varied moments, on the same pages.
* **first interactive figure**: time from navigation start until the first figure on a chapter page is drawn
  and its sliders wired (``data-ready-at`` recorded by the figure script), over several loads.
* **steps as the browser reports them** (``--presses``): the Event Timing API (a ``PerformanceObserver`` on
  ``event`` entries, ``durationThreshold: 16``), whose ``duration`` runs from the input's timestamp to the
  next paint, rounded to 8 ms. Keyboard: every slider of every chapter focused and stepped with trusted
  ArrowRight (ArrowLeft at the top) presses, 600 ms apart; mouse: trusted clicks on the slider's track, 600 ms
  apart, one step each (the entry of an interaction is its longest: pointerdown, pointerup or click); and the
  presenter view of every figure at 1920×1080, its first slider pressed the same way (the Escape that
  leaves it is reported apart). A press with no entry took under 16 ms. Baseline, in the same run and pages:
  a bare ``<input type=range>`` added at the end of each chapter, pressed and clicked the same way.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from percentiles import percentile  # run as a script: benchmarks/ is on the path

from rope_viz.site import local

ROOT = Path(__file__).resolve().parents[1]

#: Record, for every ``input`` event of a figure's sliders, when it happened, when the figure had drawn it and
#: when the first frame after that was produced (``requestAnimationFrame``, then a message task). A step
#: superseded by a newer one before it was drawn counts until the drawing that replaced it.
RECORD_SCRIPT = """
figureIndex => {
  // A message task runs right after the frame; timers would not do: chromium defers them during a drag.
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()();
  const afterFrame = callback => { waiting.push(callback); channel.port2.postMessage(null); };
  const figure = document.querySelectorAll('figure.rope-viz-demo')[figureIndex];
  const steps = [];
  // Capture phase: recorded before the figure's own listener draws the step.
  figure.addEventListener('input', event => {
    steps.push({start: event.timeStamp, trusted: event.isTrusted, drawn: null, painted: null, path: null});
  }, true);
  figure.addEventListener('rope-viz:rendered', event => {
    const drawn = steps.filter(step => step.path === null);
    const now = performance.now();
    drawn.forEach(step => { step.path = event.detail.path; step.drawn = now; });
    requestAnimationFrame(() => afterFrame(() => {
      const now = performance.now();
      drawn.forEach(step => { step.painted = now; });
    }));
  });
  window.ropeVizSteps = steps;
}
"""

#: The same frame wait with no slider work: requestAnimationFrame, then a message task, from varied moments.
BASELINE_SCRIPT = """
async count => {
  const times = [];
  for (let k = 0; k < count; k++) {
    await new Promise(resolve => setTimeout(resolve, 3 + (k % 7) * 2));
    const start = performance.now();
    await new Promise(resolve => requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = resolve;
      channel.port2.postMessage(null);
    }));
    times.push(performance.now() - start);
  }
  return times;
}
"""


#: Collect Event Timing entries of key presses and clicks, by interaction, with the control they hit.
EVENT_TIMING_SCRIPT = """
() => {
  window.ropeVizEvents = [];
  // Plotly redraws of the state on screen (a commit) while the sliders are pressed and clicked.
  window.ropeVizCommits = 0;
  document.addEventListener('rope-viz:committed', () => { window.ropeVizCommits += 1; }, true);
  new PerformanceObserver(list => {
    for (const entry of list.getEntries()) {
      if (!entry.interactionId) continue;
      const control = entry.target && entry.target.closest ? entry.target.closest('input[type=range]') : null;
      window.ropeVizEvents.push({name: entry.name, duration: entry.duration, interaction: entry.interactionId,
        bare: Boolean(control && control.id === 'rope-viz-bare-range')});
    }
  }).observe({type: 'event', durationThreshold: 16, buffered: false});
  const bare = document.createElement('input');
  Object.assign(bare, {type: 'range', min: 0, max: 40, value: 0, id: 'rope-viz-bare-range'});
  bare.setAttribute('aria-label', 'bare range control for the benchmark');
  bare.style.width = '400px';
  document.body.appendChild(bare);
}
"""

#: Put the bare range control right under a figure, so that it is stepped in the same part of the page.
PLACE_BARE_SCRIPT = """
figureIndex => {
  document.querySelectorAll('figure.rope-viz-demo')[figureIndex].after(
    document.getElementById('rope-viz-bare-range'));
}
"""

#: Presses 600 ms apart, as the Event Timing measurement of the issue tracker describes them.
PRESS_INTERVAL_MS = 600


def press_steps(page, slider, presses: int) -> None:
    """Step a focused slider with trusted arrow-key presses, 600 ms apart (back down at its top).

    The first press also comes 600 ms after the slider is scrolled into view and focused: pressed at once, its
    frame painted the scroll and the focus ring too (on the bare control as on the figures' sliders)."""
    slider.scroll_into_view_if_needed()
    slider.focus()
    page.wait_for_timeout(PRESS_INTERVAL_MS)
    for _ in range(presses):
        value, maximum = int(slider.input_value()), int(slider.get_attribute("max"))
        page.keyboard.press("ArrowRight" if value < maximum else "ArrowLeft")
        page.wait_for_timeout(PRESS_INTERVAL_MS)


def click_steps(page, slider, clicks: int) -> None:
    """Click a slider's track at ``clicks`` places in turn (trusted mouse input), 600 ms apart (the first
    600 ms after the slider is scrolled into view)."""
    slider.scroll_into_view_if_needed()
    page.wait_for_timeout(PRESS_INTERVAL_MS)
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    for k in range(clicks):
        fraction = (k + 1) / (clicks + 1) if k % 2 == 0 else 1 - (k + 1) / (clicks + 1)
        page.mouse.click(box["x"] + 8 + fraction * (box["width"] - 16), y)
        page.wait_for_timeout(PRESS_INTERVAL_MS)


def interaction_durations(events: list[dict], kind: str, bare: bool) -> list[float]:
    """The longest entry of each keyboard (``kind="key"``) or mouse interaction, bare control or not."""
    names = {
        "key": {"keydown", "keyup", "keypress"},
        "mouse": {"pointerdown", "pointerup", "click", "mousedown"},
    }
    longest: dict[int, float] = {}
    for event in events:
        if event["name"] in names[kind] and event["bare"] == bare:
            longest[event["interaction"]] = max(longest.get(event["interaction"], 0.0), event["duration"])
    return list(longest.values())


def drag_slider(page, slider, sweeps: int) -> None:
    """Drag a slider's thumb with the mouse from end to end and back, ``sweeps`` times (trusted input)."""
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    left, right = box["x"] + 2, box["x"] + box["width"] - 2
    page.mouse.move(left, y)
    page.mouse.down()
    for sweep in range(sweeps):
        page.mouse.move(right if sweep % 2 == 0 else left, y, steps=40)
    page.mouse.up()
    page.wait_for_timeout(400)  # the slider rests before the next one moves


def build(output: Path) -> float:
    """Seconds for one ``jupyter-book build`` of the whole book into ``output`` (warnings are errors)."""
    start = time.perf_counter()
    result = local.build(ROOT, output)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"build failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return elapsed


def measure_pages(html: Path, url: str, sweeps: int, loads: int, presses: int = 0) -> dict:
    """Page weight, slider latency and first-figure time for every page, in Debian's chromium."""
    from playwright.sync_api import sync_playwright

    pages = [str(path.relative_to(html)) for path in local.pages(html)]
    results: dict = {
        "pages": {},
        "latency_ms": [],
        "work_ms": [],
        "paths": [],
        "baseline_ms": [],
        "first_figure_ms": [],
        "event_timing": {
            "key": [],
            "mouse": [],
            "bare key": [],
            "bare mouse": [],
            "present key": [],
            "present leave": [],
        },
        "presses": {
            "key": 0,
            "mouse": 0,
            "bare key": 0,
            "bare mouse": 0,
            "present key": 0,
            "present leave": 0,
        },
    }
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
            # Steps are timed on the chapters; the lecture deck shows the same figures one slide at a time.
            if not relative.startswith("notebooks/"):
                context.close()
                continue
            for figure_index in range(figures if sweeps else 0):
                page.evaluate(RECORD_SCRIPT, figure_index)
                sliders = page.locator("figure.rope-viz-demo").nth(figure_index).locator("input[type=range]")
                for slider_index in range(sliders.count()):
                    drag_slider(page, sliders.nth(slider_index), sweeps)
                steps = page.evaluate("() => window.ropeVizSteps")
                painted = [step for step in steps if step["painted"] is not None and step["trusted"]]
                results["latency_ms"] += [step["painted"] - step["start"] for step in painted]
                results["work_ms"] += [step["drawn"] - step["start"] for step in painted]
                results["paths"] += [step["path"] for step in painted]
            if figures:
                results["baseline_ms"] += page.evaluate(BASELINE_SCRIPT, 30)
            if figures and presses:
                measure_event_timing(page, presses, results)
                measure_presenter_keys(browser, url, relative, presses, results)
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


def measure_event_timing(page, presses: int, results: dict) -> None:
    """Key presses and clicks on every slider of the page and on a bare range control, by Event Timing."""
    page.evaluate(EVENT_TIMING_SCRIPT)
    page.wait_for_timeout(300)
    sliders = page.locator("figure.rope-viz-demo input[type=range]")
    bare = page.locator("#rope-viz-bare-range")
    for index in range(sliders.count()):
        page.evaluate(
            PLACE_BARE_SCRIPT,
            page.evaluate(
                "i => [...document.querySelectorAll('figure.rope-viz-demo')].indexOf("
                "document.querySelectorAll('figure.rope-viz-demo input[type=range]')[i].closest('figure'))",
                index,
            ),
        )
        press_steps(page, sliders.nth(index), presses)
        results["presses"]["key"] += presses
        click_steps(page, sliders.nth(index), presses)
        results["presses"]["mouse"] += presses
        # The bare control, as often as the figures' sliders, interleaved with them (same machine load).
        press_steps(page, bare, presses)
        results["presses"]["bare key"] += presses
        click_steps(page, bare, presses)
        results["presses"]["bare mouse"] += presses
    page.wait_for_timeout(300)
    results["commits"] = results.get("commits", 0) + page.evaluate("() => window.ropeVizCommits")
    events = page.evaluate("() => window.ropeVizEvents")
    for kind in ("key", "mouse"):
        results["event_timing"][kind] += interaction_durations(events, kind, bare=False)
        results["event_timing"][f"bare {kind}"] += interaction_durations(events, kind, bare=True)


def measure_presenter_keys(browser, url: str, relative: str, presses: int, results: dict) -> None:
    """Key presses in the presenter view of every figure of a chapter at 1920×1080, by Event Timing: each
    figure presented with a click on its Present button, its first slider (which has the focus) stepped
    ``presses`` times 600 ms apart, then Escape. The steps and the Escape that leaves (the plot laid out again
    at the page's size) are counted apart: the entries of each figure are taken before its Escape."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{url}/{relative}", wait_until="load")
    count = page.locator("figure.rope-viz-demo").count()
    page.wait_for_function(
        "n => document.querySelectorAll('figure.rope-viz-demo[data-warm=true]').length === n",
        arg=count,
        timeout=60_000,
    )
    page.evaluate(EVENT_TIMING_SCRIPT)
    for index in range(count):
        figure = page.locator("figure.rope-viz-demo").nth(index)
        left = int(figure.get_attribute("data-left") or 0)
        figure.get_by_role("button", name="Present", exact=True).click()
        page.wait_for_function(
            "f => f.dataset.presented === 'true'", arg=figure.element_handle(), timeout=15_000
        )
        page.mouse.move(1918, 1078)  # over the controls, away from the plot
        page.wait_for_timeout(PRESS_INTERVAL_MS)
        slider = figure.locator("input[type=range]").first
        for _ in range(presses):
            value, maximum = int(slider.input_value()), int(slider.get_attribute("max"))
            page.keyboard.press("ArrowRight" if value < maximum else "ArrowLeft")
            page.wait_for_timeout(PRESS_INTERVAL_MS)
        results["presses"]["present key"] += presses
        events = page.evaluate("() => window.ropeVizEvents.splice(0)")
        results["event_timing"]["present key"] += interaction_durations(events, "key", bare=False)
        page.keyboard.press("Escape")
        page.wait_for_function(
            "([f, n]) => Number(f.dataset.left || 0) > n", arg=[figure.element_handle(), left], timeout=15_000
        )
        page.wait_for_timeout(PRESS_INTERVAL_MS)
        events = page.evaluate("() => window.ropeVizEvents.splice(0)")
        results["event_timing"]["present leave"] += interaction_durations(events, "key", bare=False)
        results["presses"]["present leave"] += 1
    context.close()


def event_timing_lines(measured: dict) -> list[str]:
    """Report rows: p50 and p95 of each kind of step, a press without an entry counted as under 16 ms."""

    def spread(kind: str) -> tuple[str, str, str]:
        reported = measured["event_timing"][kind]
        count = measured["presses"][kind]
        # Presses with no entry (under 16 ms) sort first; the entries are at least 16 ms.
        values = [0.0] * max(0, count - len(reported)) + sorted(reported)
        shown = [
            f"{value:.0f} ms" if value else "< 16 ms"
            for value in (percentile(values, 0.5), percentile(values, 0.95))
        ]
        slow = sum(1 for value in values if value >= 24) / max(1, len(values))
        return shown[0], shown[1], f"{slow:.0%}"

    commits = measured.get("commits", 0)
    lines = [f"| Plotly redraws while the sliders were pressed and clicked, 600 ms apart | {commits} | |"]
    for kind, label in (("key", "keyboard step"), ("mouse", "mouse click step")):
        p50, p95, slow = spread(kind)
        bare50, bare95, bare_slow = spread(f"bare {kind}")
        lines.append(
            f"| {label} (Event Timing, {measured['presses'][kind]} presses): p50 / p95, share >= 24 ms | "
            f"{p50} / {p95}, {slow} | bare range control: {bare50} / {bare95}, {bare_slow} |"
        )
    if measured["presses"]["present key"]:
        p50, p95, slow = spread("present key")
        bare50, bare95, bare_slow = spread("bare key")
        lines.append(
            f"| keyboard step in the presenter view, 1920×1080 (Event Timing, "
            f"{measured['presses']['present key']} presses): p50 / p95, share >= 24 ms | "
            f"{p50} / {p95}, {slow} | bare range control (page): {bare50} / {bare95}, {bare_slow} |"
        )
        p50, p95, _ = spread("present leave")
        lines.append(
            f"| Escape leaving the presenter view (Event Timing, {measured['presses']['present leave']} "
            f"figures): p50 / p95 | {p50} / {p95} | not a step: the plot is laid out anew |"
        )
    return lines


def main() -> None:
    """Run every measurement and print a Markdown report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sweeps", type=int, default=6, help="end-to-end mouse drags per slider")
    parser.add_argument("--loads", type=int, default=5, help="page loads per chapter, first-figure time")
    parser.add_argument(
        "--presses", type=int, default=3, help="key presses and clicks per slider for Event Timing (0: none)"
    )
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument(
        "--html", type=Path, help="measure this built site (_build/html) instead of building the book twice"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        cold = warm = None
        html = args.html
        if html is None:
            output = Path(folder)
            cold = build(output)
            warm = build(output)
            html = output / "_build" / "html"
        server, url = local.serve(html)
        try:
            measured = measure_pages(html, url, args.sweeps, args.loads, args.presses)
        finally:
            server.shutdown()

    latency, baseline = measured["latency_ms"], measured["baseline_ms"]
    first = measured["first_figure_ms"]
    page_bytes = {name: info["bytes"] for name, info in measured["pages"].items()}
    with_figures = [info["bytes"] for info in measured["pages"].values() if info["figures"]]
    without = [info["bytes"] for info in measured["pages"].values() if not info["figures"]]
    frame = statistics.median(baseline) if baseline else float("nan")
    by_path = {"direct": [], "full": []}
    for step, path in zip(latency, measured["paths"], strict=True):
        by_path[path].append(step)
    lines = [
        "| measurement | value | ratio to baseline |",
        "| --- | ---: | ---: |",
        *(
            [
                f"| cold build (all notebooks executed) | {cold:.1f} s | goal < 180 s: {cold / 180:.2f} |",
                f"| warm build (nothing changed) | {warm:.1f} s | {warm / cold:.2f} of the cold build |",
            ]
            if cold is not None
            else []
        ),
        *(
            [
                f"| slider step, input to repaint, p50 | {percentile(latency, 0.5):.1f} ms | "
                f"{percentile(latency, 0.5) / frame:.2f} × empty frame wait ({frame:.1f} ms) |",
                f"| slider step, input to repaint, p95 | {percentile(latency, 0.95):.1f} ms | "
                f"goal < 16.7 ms: {percentile(latency, 0.95) / 16.7:.2f} of it |",
                f"| slider steps measured | {len(latency)} | |",
                *[
                    f"| {name} ({len(subset)} steps, {len(subset) / len(latency):.0%}): p50 / p95 | "
                    f"{percentile(subset, 0.5):.1f} / {percentile(subset, 0.95):.1f} ms | |"
                    for name, subset in (
                        ("drawn directly in the SVG", by_path["direct"]),
                        ("redrawn by Plotly", by_path["full"]),
                    )
                    if subset
                ],
            ]
            if latency
            else []
        ),
        *(
            [
                f"| first interactive figure after navigation, median | {statistics.median(first):.0f} ms | "
                f"goal < 1000 ms: {statistics.median(first) / 1000:.2f} of it |",
                f"| first interactive figure, worst of {len(first)} loads | {max(first):.0f} ms | |",
            ]
            if first
            else []
        ),
        f"| page weight with figures, median (HTML, JS, CSS) | {statistics.median(with_figures) / 1e6:.2f} MB"
        " | |",
        f"| page weight without figures, median | {statistics.median(without) / 1e6:.2f} MB | |",
        *(event_timing_lines(measured) if args.presses else []),
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
