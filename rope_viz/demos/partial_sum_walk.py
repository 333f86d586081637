"""The partial sums of RoFormer's bound as a walk in the complex plane.

At distance ``r`` pair ``i`` contributes the unit arrow ``exp(1j r theta_i)``. Taking the arrows one after the
other, fast pairs first, is a walk whose stops are the partial sums ``S_j(r) = sum_{i<j} exp(1j r theta_i)``
(:func:`rope_viz.long_range.partial_sum_walk`). RoFormer's bound (Su et al. 2021, sec. 3.4.3) adds up the
distances ``|S_j(r)|`` of the stops from the origin; their mean is the relative bound ``B(r)``. The upper
panel draws the walk, the lower one the distance of every stop, with its mean.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.clocks import HAND_COLORSCALE, colors_on_scale
from rope_viz.figures.rounding import significant
from rope_viz.frequencies import inv_freq
from rope_viz.long_range import partial_sum_walk, relative_bound

DIM = 128  # the head size of chapter 5
PAIRS = DIM // 2
DISTANCES = (0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 100, 128, 160, 200, 256)
BASES = (100, 1_000, 10_000, 100_000, 500_000, 1_000_000)

SUM_COLOR = "#d62728"
BOUND_COLOR = "#1f77b4"
REFERENCE_COLOR = "rgba(128,128,128,0.9)"


def plane_range(points: np.ndarray) -> tuple[list[float], list[float]]:
    """Return equal-span x and y ranges holding the complex ``points`` and the origin, with a margin."""
    xs = np.append(points.real, 0.0)
    ys = np.append(points.imag, 0.0)
    half = 0.55 * max(np.ptp(xs), np.ptp(ys)) + 1.0
    cx, cy = (xs.max() + xs.min()) / 2.0, (ys.max() + ys.min()) / 2.0
    return (
        [round(float(cx - half), 3), round(float(cx + half), 3)],
        [round(float(cy - half), 3), round(float(cy + half), 3)],
    )


class PartialSumWalk(Demo):
    """The walk of the unit arrows ``e^(i r θᵢ)``, stop by stop, and the distances the bound adds up."""

    narrowest_plot_width = 560
    title = "The partial sums Sⱼ(r) as a walk of unit arrows, and the distances RoFormer's bound adds up"
    controls = (
        Control("distance", "distance r", DISTANCES, 16, 0, 256, unit="tokens", integer=True),
        Control("base", "base b", BASES, 10_000, 100, 1_000_000, log=True),
    )
    scenes = (
        Scene(
            "a straight walk",
            "At distance 0 every arrow is 1, so the walk runs straight along the real axis and every bar is "
            "as tall as it can be.",
            {"distance": 0},
        ),
        Scene(
            "sixteen tokens apart",
            "The fast blue steps already point different ways, while the red steps of the slow pairs still "
            "point almost the same way.",
            {},
        ),
        Scene(
            "a knot at 256",
            "At 256 tokens the fast pairs curl into a knot near the origin, the slow tail walks off almost "
            "straight, and the mean falls.",
            {"distance": 256},
        ),
        Scene(
            "a small base",
            "At base 100 every step has turned by more than a radian, so the whole walk curls up close to "
            "the origin.",
            {"distance": 256, "base": 100},
        ),
        Scene(
            "a large base",
            "At base 1,000,000 a longer straight tail remains, and the walk ends farther from the origin "
            "than at base 10,000.",
            {"distance": 256, "base": 1_000_000},
        ),
    )

    def base_figure(self) -> dict:
        """Draw the walk in the complex plane above and the distance |Sⱼ(r)| of each stop below."""
        steps = np.arange(1, PAIRS + 1)
        walk = {
            "type": "scatter",
            "mode": "lines+markers",
            "name": "walk S₀ = 0, S₁, …, S₆₄: step i is the arrow e^(i·r·θᵢ)",
            "line": {"color": "rgba(128,128,128,0.8)", "width": 1.5},
            "marker": {
                "color": np.arange(PAIRS + 1).tolist(),
                "colorscale": HAND_COLORSCALE,
                "cmin": 0,
                "cmax": PAIRS,
                "size": 7,
                "line": {"width": 0},
            },
            "hovertemplate": "stop S_%{customdata[0]}<br>%{x:.2f} + %{y:.2f} i<br>"
            "distance from 0: %{customdata[1]:.2f}<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
        full_sum = {
            "type": "scatter",
            "mode": "lines",
            "name": "full sum S₆₄(r) = Σᵢ e^(i·r·θᵢ), of length 64·C(r)",
            "line": {"color": SUM_COLOR, "width": 2.5, "dash": "dash"},
            "hoverinfo": "skip",
            "xaxis": "x",
            "yaxis": "y",
        }
        origin = {
            "type": "scatter",
            "mode": "markers",
            "name": "origin",
            "x": [0],
            "y": [0],
            "marker": {"color": "rgba(128,128,128,1)", "size": 11, "symbol": "x"},
            "hoverinfo": "skip",
            "showlegend": False,
            "xaxis": "x",
            "yaxis": "y",
        }
        distances = {
            "type": "bar",
            "name": "|Sⱼ(r)|, distance of stop j from 0",
            "x": steps.tolist(),
            "marker": {"color": colors_on_scale(steps, HAND_COLORSCALE, 0, PAIRS)},
            "hovertemplate": "j = %{x}<br>|Sⱼ(r)| = %{y:.2f}<extra></extra>",
            "xaxis": "x2",
            "yaxis": "y2",
        }
        at_zero = {
            "type": "scatter",
            "mode": "lines",
            "name": "|Sⱼ(0)| = j, the most a stop can be",
            "x": [0.5, PAIRS + 0.5],
            "y": [0.5, PAIRS + 0.5],
            "line": {"color": REFERENCE_COLOR, "width": 1.5, "dash": "dot"},
            "hoverinfo": "skip",
            "xaxis": "x2",
            "yaxis": "y2",
        }
        mean = {
            "type": "scatter",
            "mode": "lines",
            "name": "their mean, the relative bound B(r)",
            "x": [0.5, PAIRS + 0.5],
            "line": {"color": BOUND_COLOR, "width": 3},
            "hovertemplate": "B(r) = %{y:.2f}<extra></extra>",
            "xaxis": "x2",
            "yaxis": "y2",
        }
        layout = {
            "height": 1000,
            "margin": {"l": 80, "r": 30, "t": 50, "b": 60},
            "font": {"size": 15},
            "showlegend": True,
            "legend": {"orientation": "h", "x": 0.0, "y": -0.08},
            "xaxis": {
                "domain": [0.0, 1.0],
                "title": {"text": "real part (unit arrows)"},
                "constrain": "domain",
                "zeroline": True,
                "anchor": "y",
            },
            "yaxis": {
                "domain": [0.5, 0.99],
                "title": {"text": "imaginary part<br>(unit arrows)"},
                "scaleanchor": "x",
                "scaleratio": 1,
                "constrain": "domain",
                "zeroline": True,
                "anchor": "x",
            },
            "xaxis2": {
                "domain": [0.0, 1.0],
                "title": {"text": "j, number of arrows summed (fast pairs first)"},
                "range": [0.5, PAIRS + 0.5],
                "anchor": "y2",
            },
            "yaxis2": {
                "domain": [0.0, 0.34],
                "title": {"text": "|Sⱼ(r)| (unit arrows)"},
                "range": [0, PAIRS + 2],
                "anchor": "x2",
            },
            "annotations": [
                _panel_title("the walk of the partial sums Sⱼ(r), d = 128: one unit step per pair", 1.035),
                _panel_title("distance of every stop from 0: the bound adds these up", 0.385),
            ],
        }
        return {"data": [walk, full_sum, origin, distances, at_zero, mean], "layout": layout}

    def view(self, *, distance: float, base: float) -> View:
        """Show the walk at distance ``distance`` for the frequencies ``base ** (-2i/128)``."""
        r = round(distance)
        theta = inv_freq(DIM, base)  # (d/2,)
        stops = partial_sum_walk(float(r), theta)  # (d/2 + 1,) complex, S_0 = 0 first
        lengths = np.abs(stops)  # (d/2 + 1,)
        bound = float(relative_bound([float(r)], theta)[0])
        end = float(lengths[-1])
        aligned = int(np.count_nonzero(r * theta < 1.0))
        x_range, y_range = plane_range(stops)
        hover = np.column_stack([np.arange(PAIRS + 1), np.round(lengths, 3)])
        readout = (
            f"r = {r} tokens, b = {base:,.0f}: the walk ends |S₆₄(r)| = {end:.2f} from the origin "
            f"(C(r) = {end / PAIRS:.3f}); its {PAIRS} stops lie on average B(r) = {bound:.2f} from it "
            f"(at r = 0: {(PAIRS + 1) / 2}). Pairs with r·θᵢ < 1 rad, the last {aligned} steps, still point "
            "within 1 rad of the positive real axis."
        )
        return View(
            traces=[
                {
                    "x": significant(stops.real, 5),
                    "y": significant(stops.imag, 5),
                    "customdata": hover.tolist(),
                },
                {"x": [0.0, round(float(stops[-1].real), 4)], "y": [0.0, round(float(stops[-1].imag), 4)]},
                {},
                {"y": significant(lengths[1:], 5)},
                {},
                {"y": [round(bound, 4), round(bound, 4)]},
            ],
            layout={"xaxis.range": x_range, "yaxis.range": y_range},
            readout=readout,
        )


def _panel_title(text: str, y: float) -> dict:
    return {"text": text, "x": 0.5, "y": y, "xref": "paper", "yref": "paper", "showarrow": False}
