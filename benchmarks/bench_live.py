"""Measure the live notebooks in the real client: many Run Alls per chapter in JupyterLab, driven by chromium.

Run from the repository root, with a venv built as Binder builds it (``tests/live/make_env.py``)::

    .venv/bin/python tests/live/make_env.py .venv-binder --stack binder
    .venv/bin/python benchmarks/bench_live.py                      # 10 Run Alls per chapter, JupyterLab
    .venv/bin/python benchmarks/bench_live.py --runs 3 --chapters 02 05 --frontend notebook7

What is measured, per chapter, with the server on 127.0.0.1 and every request off it blocked:

* **dead widgets**: after each Run All, live figures that did not become interactive, or whose slider moved
  without the figure's SVG changing (one slider per figure, by mouse and by keyboard, after every run);
* **stuck runs**: Run Alls not finished (kernel idle, every code cell with a fresh count) within the timeout;
* **console errors**: console errors and uncaught page errors over all runs (every one, none excused);
* **time to first slider**: from a cell's execution start (the kernel's timestamp) to its figure's
  ``data-ready`` in the browser, every figure of every run;
* **bytes per figure**: bytes received over the kernel websocket in reply to the figure's cell;
* **step latency**: for each input event of a slider (mouse drag steps and arrow keys; after the last run,
  every slider of every figure), from the event to the first frame painted after the figure's SVG changed,
  measured in the browser; p50 and p95 by mouse and by keyboard;
* **saved size**: the notebook's size on disk after the last run, saved with widget state.

A Markdown table goes to stdout; the raw numbers to ``benchmarks/results/live-<frontend>.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rope_viz.site import local  # noqa: E402
from tests.live import jupyter_client  # noqa: E402


def measure_chapter(
    browser: Any, server: jupyter_client.JupyterServer, name: str, runs: int, legacy: bool
) -> dict[str, Any]:
    """Open one chapter, Run All ``runs`` times, check and move its figures; return the measurements."""
    page = jupyter_client.open_notebook(browser, server, name)
    page.allow_legacy = legacy
    result: dict[str, Any] = {
        "runs": [],
        "dead_widgets": 0,
        "stuck_runs": 0,
        "first_slider_s": [],
        "bytes_per_figure": [],
        "gestures": [],
    }
    gestures: list[jupyter_client.Gesture] = []
    try:
        for number in range(runs):
            run = page.run_all()
            page.wait_for_figures(timeout=30, quiet=True)
            figures = page.figures(allow_legacy=legacy)
            ready = page.page.evaluate(
                "s => document.querySelectorAll(s).length", jupyter_client.ready_selector(legacy)
            )
            last = number == runs - 1
            moved = page.move_sliders(
                figures, presses=3 if last else 1, sliders_per_figure=None if last else 1
            )
            gestures += moved
            dead = {g.figure for g in moved if g.value_changed and not (g.figure_changed and g.rendered)}
            dead_count = len(dead) + max(0, len(figures) - ready)
            figure_cells = sorted({figure.cell_index for figure in figures})
            per_figure = [run.bytes_by_cell.get(cell, 0) for cell in figure_cells]
            result["runs"].append(
                {
                    "seconds": run.seconds,
                    "stuck": run.stuck,
                    "errors": run.errors,
                    "figures": len(figures),
                    "ready": ready,
                    "dead": dead_count,
                    "unmoved": [p for g in moved for p in g.problems() if "did not move" in p],
                }
            )
            result["dead_widgets"] += dead_count
            result["stuck_runs"] += int(run.stuck)
            result["first_slider_s"] += run.first_slider_s
            result["bytes_per_figure"] += per_figure
            print(
                f"  {name} run {number + 1}/{runs}: {run.seconds:.1f} s, {len(figures)} figures, "
                f"{dead_count} dead, first slider {[round(s, 2) for s in run.first_slider_s]} s",
                file=sys.stderr,
                flush=True,
            )
        page.command("docmanager:save", timeout=60)
        page.page.wait_for_timeout(500)
        result["saved_bytes"] = (server.root / "notebooks" / name).stat().st_size
        result["latency_ms"] = jupyter_client.latency_summary(gestures)
        result["console_errors"] = [str(entry) for entry in page.log.errors()]
        result["console_warnings"] = sorted({entry.text for entry in page.log.warnings()})
        result["blocked"] = page.log.blocked
        result["kernel_websockets"] = len(page.log.kernel_sockets)
        result["dom"] = figures[0].dom.kind if figures else None
        result["gestures"] = [
            {"method": g.method, "figure": g.figure, "slider": g.slider, "latency_ms": g.latencies()}
            for g in gestures
        ]
    finally:
        page.close()
        server.shutdown_kernels()
    return result


#: The course's goal for a live slider step, input to repaint, p95 over a chapter's steps.
GOAL_P95_MS = 100.0


def _goal(p95: float | None) -> str:
    return "–" if p95 is None else ("yes" if p95 < GOAL_P95_MS else "no")


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}"


def table(results: dict[str, dict[str, Any]]) -> str:
    """The per-chapter Markdown table."""
    lines = [
        "| chapter | runs | dead widgets | stuck runs | console errors | first slider median / max (s) "
        "| MB per figure | mouse step p50 / p95 (ms) | keyboard step p50 / p95 (ms) "
        f"| all steps p95 < {GOAL_P95_MS:.0f} ms | saved (MB) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: | ---: |",
    ]
    for name, r in results.items():
        first = r["first_slider_s"]
        per_figure = r["bytes_per_figure"]
        mouse, keyboard = r["latency_ms"]["mouse"], r["latency_ms"]["keyboard"]
        cells = [
            name,
            str(len(r["runs"])),
            str(r["dead_widgets"]),
            str(r["stuck_runs"]),
            str(len(r["console_errors"])),
            f"{statistics.median(first):.2f} / {max(first):.2f}" if first else "–",
            f"{statistics.median(per_figure) / 1e6:.2f}" if per_figure else "–",
            f"{_ms(mouse['p50'])} / {_ms(mouse['p95'])}",
            f"{_ms(keyboard['p50'])} / {_ms(keyboard['p95'])}",
            _goal(r["latency_ms"]["all"]["p95"]),
            f"{r['saved_bytes'] / 1e6:.2f}",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    """Run the measurements and print the Markdown report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="Run Alls per chapter (default 10)")
    parser.add_argument("--venv", type=Path, default=ROOT / ".venv-binder", help="venv of the server")
    parser.add_argument("--frontend", choices=sorted(jupyter_client.FRONTENDS), default="jupyterlab")
    parser.add_argument("--chapters", nargs="*", help="only notebooks whose name starts with one of these")
    parser.add_argument(
        "--legacy",
        action="store_true",
        help="measure the ipywidgets front end of an earlier commit (with --venv and --notebooks from it)",
    )
    parser.add_argument(
        "--notebooks", type=Path, default=ROOT / "notebooks", help="folder of the chapters to run"
    )
    parser.add_argument(
        "--json", type=Path, help="raw results (default benchmarks/results/live-FRONTEND.json)"
    )
    args = parser.parse_args()
    if not (args.venv / "bin" / "jupyter").exists():
        raise SystemExit(f"{args.venv} has no jupyter: build it with tests/live/make_env.py")
    output = args.json or ROOT / "benchmarks" / "results" / f"live-{args.frontend}.json"

    from playwright.sync_api import sync_playwright

    notebooks = sorted(args.notebooks.glob("*.ipynb"))
    if args.chapters:
        notebooks = [path for path in notebooks if path.name.startswith(tuple(args.chapters))]
    results: dict[str, dict[str, Any]] = {}
    start = time.monotonic()
    settings = {"@jupyter-widgets/jupyterlab-manager/plugin": {"saveState": True}}
    with (
        jupyter_client.running_server(args.venv, args.frontend, args.notebooks, settings=settings) as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=local.CHROMIUM, args=list(local.CHROMIUM_ARGS))
        try:
            for path in notebooks:
                results[path.stem] = measure_chapter(browser, server, path.name, args.runs, args.legacy)
        finally:
            browser.close()
    print(table(results))
    every = [v for r in results.values() for g in r["gestures"] for v in g["latency_ms"]]
    p50, p95 = jupyter_client.percentile(every, 0.5), jupyter_client.percentile(every, 0.95)
    print()
    print(
        f"{args.frontend}, {args.runs} Run Alls per chapter, {len(every)} slider steps: p50 {_ms(p50)} ms, "
        f"p95 {_ms(p95)} ms; {time.monotonic() - start:.0f} s in all"
    )
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(
        json.dumps({"frontend": args.frontend, "runs": args.runs, "chapters": results}, indent=1)
    )


if __name__ == "__main__":
    main()
