"""Time one live slider step of every demo in the kernel: ``view()`` plus the in-place figure update.

Run from the repository root::

    .venv/bin/python benchmarks/bench_widgets.py [--steps 200]

Each step sets one slider of a :class:`rope_viz.widgets.LiveDemo` to a random value inside its live range (not
only the site's precomputed steps) and records the time from the value change to the end of the update
message (compute plus ``plotly_update``). The browser's own redraw is not included: measure it on the site
with ``bench_site.py``. Baseline, in the same process: a ``plotly_update`` that changes one layout value.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from rope_viz.demos import Control, all_demos
from rope_viz.widgets import live_widget


def random_value(control: Control, rng: np.random.Generator) -> float:
    """A value anywhere in the control's live range (log-uniform on a log scale)."""
    if control.choices is not None:
        return float(rng.choice(control.choices))
    if control.log:
        value = float(10 ** rng.uniform(np.log10(control.minimum), np.log10(control.maximum)))
    else:
        value = float(rng.uniform(control.minimum, control.maximum))
    return float(round(value)) if control.integer else value


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def main() -> None:
    """Print a Markdown table: p50 and p95 of one live step per demo, in ms and as a ratio to the baseline."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print("| demo | p50 (ms) | p95 (ms) | p95 / one-value update |")
    print("| --- | ---: | ---: | ---: |")
    for cls in all_demos():
        widget = live_widget(cls())
        empty = []
        for k in range(50):
            start = time.perf_counter()
            widget.figure.plotly_update(relayout_data={"meta": k})  # one small real update message
            empty.append(time.perf_counter() - start)
        steps = []
        for _ in range(args.steps):
            control = widget.demo.controls[rng.integers(len(widget.demo.controls))]
            widget.set_values(**{control.name: random_value(control, rng)})
            steps.append(widget.last_update_seconds)
        p50, p95 = percentile(steps, 0.5) * 1e3, percentile(steps, 0.95) * 1e3
        baseline = statistics.median(empty) * 1e3
        print(f"| {cls.__name__} | {p50:.1f} | {p95:.1f} | {p95 / baseline:.0f} × {baseline:.2f} ms |")


if __name__ == "__main__":
    main()
