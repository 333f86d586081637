"""How far the angle ``m θᵢ`` lands from its float64 value when positions or angles are held in few bits.

For one pair of a ``d = 128`` head, the largest error of the angle over every whole position in bins of the
position (log scale), with the positions or the angles held in float16, bfloat16 or float32
(:func:`rope_viz.precision.worst_errors_by_position`). The dashed line is ``2^−ν·m·θᵢ``, the largest error of
one rounding to ``ν`` significant bits. Positions held in the format are rounded once, and their error stays
under it. Angles held in the format can cross it: in float32, ``θᵢ`` and then the product are rounded, which
together reach up to twice the line; float16 holds numbers below ``2^−14`` on a grid of fixed step ``2^−24``,
so the tiny angles of slow pairs at a large base err by far more than ``2^−11`` of themselves at the first
positions; and where ``θᵢ`` is a power of two, as ``θ₀ = 1`` is, the float32 angles are exact. The dotted
horizontal line is ``θᵢ``, the turn between neighbouring tokens, which an error must stay well below for the
pair to tell neighbours apart; the dotted vertical line is ``2^ν``, up to which every whole number is exact
(labelled with its value, ``2¹¹ = 2,048`` for float16); the orange one is the format's largest number:
float16's, 65,504, is on the axis, while those of bfloat16 and float32 (about 3.4·10³⁸) lie far beyond it, off
the figure.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View, superscript
from rope_viz.demos.extension_style import FONT_SIZE, PLAIN, reference_line
from rope_viz.figures.rounding import significant
from rope_viz.frequencies import inv_freq
from rope_viz.precision import (
    LARGEST_FINITE,
    first_overflow,
    largest_exact_integer,
    significant_bits,
    worst_errors_by_position,
)

DIM = 128
MAX_POSITION = 1_000_000
SAMPLES_PER_BIN = 400
SHOWN_FORMATS = ("float16", "bfloat16", "float32")
HELD_LABELS = ("positions held in the format", "angles held in the format")
HELD_NAMES = ("positions", "angles")
PAIRS = (0, 8, 16, 32, 48, 63)
BASES = (10_000, 100_000, 500_000, 1_000_000)
FORMAT_COLORS = ("#D55E00", "#2F8FD8", "#009E73")
OVERFLOW_COLOR = "#E69F00"
#: Log10 ranges of both axes, fixed for every setting.
X_RANGE = [0.0, 6.0]
Y_RANGE = [-12.5, 3.2]


def _choice(name: str, values: tuple[str, ...]) -> Control:
    indices = tuple(range(len(values)))
    last = len(values) - 1
    return Control(name, name, indices, 1, 0, last, integer=True, choices=indices, labels=values)


def _plottable(values: np.ndarray) -> list[float | None]:
    """Round for the page; zeros (no error) and infinities (overflow) have no place on a log axis."""
    rounded = significant(values, 4)
    return [value if 0 < value < float("inf") else None for value in rounded]


class AnglePrecision(Demo):
    """The largest angle error against the position, for a format, what is held in it, the base and a pair."""

    narrowest_plot_width = 480
    title = "The angle m·θᵢ in float16, bfloat16 and float32: its error against the position"
    controls = (
        _choice("format", SHOWN_FORMATS),
        Control("held", "held in it", (0, 1), 0, 0, 1, integer=True, choices=(0, 1), labels=HELD_LABELS),
        Control("base", "base b", BASES, 500_000, 10_000, 1_000_000, log=True),
        Control("pair", "pair i (of d = 128)", PAIRS, 16, 0, DIM // 2 - 1, integer=True),
    )
    scenes = (
        Scene(
            "bfloat16 positions",
            "With positions in bfloat16 the angle is exact up to position "
            f"{largest_exact_integer('bfloat16')} and then at once a whole token's turn off.",
            {},
        ),
        Scene(
            "float32 positions",
            "In float32 every position up to a million is exact, so the error curve disappears.",
            {"format": 2},
        ),
        Scene(
            "float32 angles",
            "Holding the angles rather than the positions in float32 brings the error back, far below the "
            "turn between neighbours.",
            {"format": 2, "held": 1},
        ),
        Scene(
            "float16 positions",
            "Float16 cannot hold a position past its largest number, so from there on the angle is infinite.",
            {"format": 0},
        ),
    )

    def base_figure(self) -> dict:
        """One log-log panel: the error, one rounding's largest error, the step between tokens, two limits."""
        axis = {"type": "log", "exponentformat": "power", "dtick": 1}
        layout = {
            "height": 560,
            "margin": {"l": 80, "r": 20, "t": 30, "b": 60},
            "font": {"size": FONT_SIZE},
            "legend": {"x": 0.01, "y": 0.99, "yanchor": "top", "bgcolor": "rgba(0,0,0,0)"},
            "xaxis": {**axis, "range": X_RANGE, "title": {"text": "position m (tokens, log scale)"}},
            "yaxis": {
                **axis,
                "range": Y_RANGE,
                "title": {"text": "largest angle error (radians, log scale)"},
            },
        }
        error = {
            "type": "scatter",
            "mode": "lines",
            "name": "largest error of m·θᵢ over the positions of each bin",
            "line": {"color": FORMAT_COLORS[1], "width": 3, "shape": "linear"},
            "hovertemplate": "m ≤ %{x:,.0f}<br>error %{y:.3g} rad<extra></extra>",
        }
        one_rounding = {
            "type": "scatter",
            "mode": "lines",
            "name": "2<sup>−ν</sup>·m·θᵢ: largest error of one rounding to ν bits",
            "line": {"color": PLAIN, "width": 2, "dash": "dash"},
            "hovertemplate": "m = %{x:,.0f}<br>one rounding to ν bits: %{y:.3g} rad<extra></extra>",
        }
        step = reference_line("θᵢ", "dot", axes=("x", "y"))
        exact = reference_line("whole numbers exact up to 2^ν", "dot", axes=("x", "y"))
        overflow = reference_line("largest number of the format", "dot", axes=("x", "y"))
        overflow["line"] = {"color": OVERFLOW_COLOR, "width": 1.5, "dash": "dot"}
        return {"data": [error, one_rounding, step, exact, overflow], "layout": layout}

    def view(self, *, format: float, held: float, base: float, pair: float) -> View:
        """Return the error curve of ``pair`` at ``base`` with ``held`` in ``format``, with its references."""
        number_format = SHOWN_FORMATS[round(format)]
        held_name = HELD_NAMES[round(held)]
        pair = round(pair)
        theta = float(inv_freq(DIM, base)[pair])
        ends, worst = worst_errors_by_position(
            MAX_POSITION, theta, number_format, held=held_name, samples_per_bin=SAMPLES_PER_BIN
        )
        bits = significant_bits(number_format)
        limit = largest_exact_integer(number_format)
        x = ends.astype(float)
        one_rounding = 2.0**-bits * x * theta
        y_low, y_high = 10 ** (Y_RANGE[0] + 0.1), 10 ** (Y_RANGE[1] - 0.25)
        x_low, x_high = 10 ** X_RANGE[0], 10 ** X_RANGE[1]
        finite = np.isfinite(worst)
        last = float(worst[finite][-1]) if finite.any() else float("nan")
        last_position = int(ends[finite][-1]) if finite.any() else 0
        starts = np.concatenate([[1], ends[:-1] + 1])
        crossing = starts[finite & (worst >= 0.5 * theta)]
        if crossing.size:
            blur = f"errors reach half a token's turn (θᵢ/2) in the bin from m = {int(crossing[0]):,}"
        else:
            blur = "errors stay below half a token's turn (θᵢ/2) up to 10⁶"
        overflow_text = ""
        if not finite.all():
            first = first_overflow(MAX_POSITION, theta, number_format, held=held_name)
            overflow_text = f"; from m = {first:,} on, {number_format} overflows (inf)"
        off = f"off by up to {last:.3g} rad" if last > 0 else "exact"
        readout = (
            f"{number_format} (ν = {bits} bits, whole numbers exact up to {limit:,}), {held_name}, "
            f"pair {pair} (θᵢ = {theta:.3g} rad/token): at m = {last_position:,} the angle is {off}; "
            f"{blur}{overflow_text}."
        )
        # At its true place in every format (far beyond the axis but for float16): the trace keeps its line
        # and label, and a step to float16 only moves them, which rope-viz-direct.js draws directly.
        overflow_x = LARGEST_FINITE[number_format]
        return View(
            traces=[
                {"x": significant(x, 6), "y": _plottable(worst), "line.color": FORMAT_COLORS[round(format)]},
                {"x": significant(x, 6), "y": _plottable(one_rounding)},
                {"x": [x_low, x_high], "y": significant([theta, theta], 4), "text": ["", "θᵢ"]},
                {
                    "x": [limit, limit] if limit <= x_high else [],
                    "y": [y_low, y_high] if limit <= x_high else [],
                    "text": ["", f"2{superscript(bits)} = {limit:,}"] if limit <= x_high else [],
                },
                {
                    "x": significant([overflow_x, overflow_x], 6),
                    "y": [y_low, y_high],
                    "text": ["", f"{number_format} max"],
                },
            ],
            readout=readout,
        )
