"""Time one live slider step of every demo in the kernel: ``view()`` plus the state's preparation.

Run from the repository root::

    .venv/bin/python benchmarks/bench_widgets.py [--steps 200]

Each step sets one slider of a :class:`rope_viz.widgets.LiveFigure` to a random value inside its live range
(not only the site's precomputed steps) and records the kernel's time for the state there (the demo's
``view`` plus its preparation for the figure script), as the kernel spends it for every slider move in the
browser. The
websocket and the browser's drawing are not included: measure them in a real JupyterLab with
``bench_live.py``. Baselines, in the same process: encoding the default state to JSON, as the message carrying
it is encoded; and the same steps with the earlier per-value rounding (``float(f"{x:.5g}")`` for each number,
and a recursive conversion of every list item to plain Python), to show what the vectorised rounding of
:mod:`rope_viz.figures.rounding` saves.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
from percentiles import percentile  # run as a script: benchmarks/ is on the path

import rope_viz.figures.direct_drawing
import rope_viz.figures.live_states
import rope_viz.figures.rounding
import rope_viz.figures.static
from rope_viz.demos import Control, all_demos
from rope_viz.widgets import live_widget


def earlier_significant(values: object, digits: int = 5) -> list[float]:
    """The earlier rounding: one string format per value."""
    return [float(f"{value:.{digits}g}") for value in np.asarray(values, dtype=float).ravel()]


def earlier_plain(value: Any) -> Any:
    """The earlier conversion to JSON-ready values: every list item goes through the whole test again."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {key: earlier_plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [earlier_plain(item) for item in value]
    return value


@contextlib.contextmanager
def earlier_rounding() -> Iterator[None]:
    """Swap the earlier rounding and conversion into every module that uses them."""
    current = rope_viz.figures.rounding.significant
    swapped = []
    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", "")
        if name.startswith("rope_viz.") and getattr(module, "significant", None) is current:
            swapped.append((module, "significant", current))
            module.significant = earlier_significant
    for module, attribute in (
        (rope_viz.figures.static, "_plain"),
        (rope_viz.figures.live_states, "_plain"),
        (rope_viz.figures.direct_drawing, "plain"),
    ):
        swapped.append((module, attribute, getattr(module, attribute)))
        setattr(module, attribute, earlier_plain)
    try:
        yield
    finally:
        for module, attribute, value in swapped:
            setattr(module, attribute, value)


def random_value(control: Control, rng: np.random.Generator) -> float:
    """A value anywhere in the control's live range (log-uniform on a log scale)."""
    if control.choices is not None:
        return float(rng.choice(control.choices))
    if control.log:
        value = float(10 ** rng.uniform(np.log10(control.minimum), np.log10(control.maximum)))
    else:
        value = float(rng.uniform(control.minimum, control.maximum))
    return float(round(value)) if control.integer else value


def main() -> None:
    """Print a Markdown table: p50 and p95 of one live step per demo, in ms and as a ratio to the baseline."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(
        "| demo | p50 (ms) | p95 (ms) | p95 / default state to JSON "
        "| earlier rounding p50 / p95 (ms) | earlier p50 / now p50 |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for cls in all_demos():
        widget = live_widget(cls())
        widget.send = lambda content, buffers=None: None  # no browser here: time the kernel's own work
        empty = []
        for _ in range(50):
            start = time.perf_counter()
            json.dumps(widget.state)
            empty.append(time.perf_counter() - start)
        moves = []
        for _ in range(args.steps):
            control = widget.demo.controls[rng.integers(len(widget.demo.controls))]
            moves.append({control.name: random_value(control, rng)})
        # Now and earlier alternate, step by step, so that both see the same machine load.
        steps, earlier = [], []
        for move in moves:
            widget.set_values(**move)
            steps.append(widget.last_update_seconds)
            with earlier_rounding():
                widget.set_values(**move)
                earlier.append(widget.last_update_seconds)
        p50, p95 = percentile(steps, 0.5) * 1e3, percentile(steps, 0.95) * 1e3
        e50, e95 = percentile(earlier, 0.5) * 1e3, percentile(earlier, 0.95) * 1e3
        baseline = statistics.median(empty) * 1e3
        print(
            f"| {cls.__name__} | {p50:.1f} | {p95:.1f} | {p95 / baseline:.0f} × {baseline:.2f} ms "
            f"| {e50:.1f} / {e95:.1f} | {e50 / p50:.1f} |"
        )


if __name__ == "__main__":
    main()
