"""Multi-speed clocks: the d/2 rotation pairs of a query at position m, drawn as the hands of one clock.

Pair ``i`` turns by ``m * theta_i`` with ``theta_i = base ** (-2i/d)``: the first pairs spin like a second
hand, the last ones barely move, like an hour hand. The lower panel shows each pair's wavelength (tokens per
full turn) against the current position.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, View
from rope_viz.frequencies import angles, inv_freq, wavelengths

POSITIONS = (
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    10,
    12,
    16,
    24,
    32,
    50,
    64,
    100,
    128,
    256,
    500,
    1000,
    4096,
    10000,
    32768,
)
BASES = (100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000)
SITE_DIMS = (16, 32, 64, 128, 256)
LIVE_DIMS = tuple(range(16, 257, 16))

# Blue (fast) to red (slow); every stop stays visible on the light and the dark theme.
HAND_COLORSCALE = [[0.0, "#2b83ba"], [0.5, "#5aae61"], [1.0, "#d7301f"]]


def hand_angles_degrees(position: float, dim: int, base: float) -> np.ndarray:
    """Return each pair's hand angle on the clock face, ``(m * theta_i) mod 2 pi``, in degrees; ``(d/2,)``."""
    return np.degrees(np.mod(angles(position, inv_freq(dim, base)), 2.0 * np.pi))


def hand_lengths(dim: int) -> np.ndarray:
    """Return each hand's drawing length: 1 for pair 0 down to 0.25 for the slowest, so none hides another."""
    pairs = dim // 2
    return 1.0 - 0.75 * np.arange(pairs) / max(pairs - 1, 1)


class MultiSpeedClocks(Demo):
    """The hands of a query's d/2 clocks at position m, and every pair's wavelength."""

    title = "Multi-speed clocks: the d/2 rotation pairs of one query"
    controls = (
        Control("position", "position m", POSITIONS, 6, 0, 32768, unit="tokens", integer=True),
        Control("base", "base b", BASES, 10_000, 100, 1_000_000, log=True),
        Control("dim", "head size d", SITE_DIMS, 64, 16, 256, integer=True, choices=LIVE_DIMS),
    )

    def base_figure(self) -> dict:
        """Polar clock face on the left, wavelength per pair (log scale) on the right."""
        hands = {
            "type": "scatterpolar",
            "mode": "lines+markers",
            "name": "hands",
            "line": {"width": 1.5, "color": "rgba(120,120,120,0.7)"},
            "marker": {"colorscale": HAND_COLORSCALE, "cmin": 0, "showscale": False},
            "hovertemplate": "pair %{customdata[0]}<br>angle %{theta:.0f}°<br>"
            "wavelength %{customdata[1]:,.1f} tokens<extra></extra>",
            "subplot": "polar",
        }
        wavelength_curve = {
            "type": "scatter",
            "mode": "lines+markers",
            "name": "wavelength λᵢ = 2π/θᵢ",
            "marker": {"colorscale": HAND_COLORSCALE, "cmin": 0, "size": 7},
            "line": {"color": "rgba(120,120,120,0.5)"},
            "hovertemplate": "pair %{x}<br>wavelength %{y:,.1f} tokens<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
        position_line = {
            "type": "scatter",
            "mode": "lines",
            "name": "current position m",
            "line": {"color": "#d62728", "width": 2, "dash": "dash"},
            "hovertemplate": "position m = %{y:,} tokens<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
        layout = {
            "height": 880,
            "margin": {"l": 70, "r": 20, "t": 50, "b": 70},
            "font": {"size": 15},
            "showlegend": True,
            "legend": {"orientation": "h", "x": 0.0, "y": -0.1},
            "polar": {
                "domain": {"x": [0.0, 1.0], "y": [0.46, 0.95]},
                "radialaxis": {"visible": False, "range": [0, 1.05]},
                "angularaxis": {"direction": "counterclockwise", "rotation": 0, "dtick": 45},
            },
            "xaxis": {"domain": [0.0, 1.0], "title": {"text": "pair index i"}, "zeroline": False},
            "yaxis": {
                "domain": [0.0, 0.34],
                "type": "log",
                "title": {"text": "wavelength λᵢ (tokens)"},
                "exponentformat": "power",
            },
            "annotations": [
                _panel_title("clock hands at position m: pair i has turned by m·θᵢ", 1.04),
                _panel_title("tokens per full turn of each pair (log scale)", 0.385),
            ],
        }
        return {"data": [hands, wavelength_curve, position_line], "layout": layout}

    def view(self, *, position: float, base: float, dim: int) -> View:
        """Hands at ``position`` for the frequencies of ``(dim, base)``, and the wavelength panel."""
        dim = int(dim)
        pairs = dim // 2
        pair_index = np.arange(pairs)
        hand_angle = np.round(hand_angles_degrees(position, dim, base)).astype(int)  # (d/2,)
        tokens_per_turn = wavelengths(dim, base)  # (d/2,)
        lengths = hand_lengths(dim)

        # Each hand is drawn from the centre out and back: r = 0, L_i, 0, L_{i+1}, ...
        radius = np.zeros(2 * pairs)
        radius[1::2] = lengths
        theta = np.repeat(hand_angle, 2)
        tip_size = np.tile([0, 11], pairs)
        tip_color = np.repeat(pair_index, 2)
        customdata = np.repeat(np.column_stack([pair_index, np.round(tokens_per_turn, 1)]), 2, axis=0)

        if position >= 1:
            line_y = [position, position]
        else:
            line_y = [None, None]
        turns = position / tokens_per_turn
        completed = int(np.count_nonzero(turns >= 1))
        readout = (
            f"m = {position:,} tokens: pair 0 has turned {turns[0]:,.2f} times "
            f"(λ₀ = {tokens_per_turn[0]:,.2f} tokens); the slowest pair, {pairs - 1}, has turned "
            f"{turns[-1]:.3g} times (λ = {tokens_per_turn[-1]:,.0f} tokens). "
            f"{completed} of {pairs} pairs have completed at least one full turn."
        )
        return View(
            traces=[
                {
                    "r": radius.round(3).tolist(),
                    "theta": theta.tolist(),
                    "marker.size": tip_size.tolist(),
                    "marker.color": tip_color.tolist(),
                    "marker.cmax": pairs - 1,
                    "customdata": customdata.tolist(),
                },
                {
                    "x": pair_index.tolist(),
                    "y": _significant(tokens_per_turn, 5),
                    "marker.color": pair_index.tolist(),
                    "marker.cmax": pairs - 1,
                },
                {"x": [0, pairs - 1], "y": line_y},
            ],
            layout={"xaxis.range": [-0.5, pairs - 0.5]},
            readout=readout,
        )


def _panel_title(text: str, y: float) -> dict:
    return {"text": text, "x": 0.5, "y": y, "xref": "paper", "yref": "paper", "showarrow": False}


def _significant(values: np.ndarray, digits: int) -> list[float]:
    """Round to ``digits`` significant digits (for compact, exact-enough plot data)."""
    return [float(f"{value:.{digits}g}") for value in np.asarray(values, dtype=float)]
