"""The clocks as a table: cos and sin of every pair's angle ``m * theta_i``, one row per position.

Row ``m`` holds the numbers that the clock of position ``m`` shows (:mod:`rope_viz.demos.clocks`). The same
table, with the same ``theta_i = base ** (-2i/d)``, is the sinusoidal position embedding of the original
Transformer (Vaswani et al. 2017): that scheme *adds* row ``m`` to the token vector, ``p_m[2i] = sin(m
theta_i)`` and ``p_m[2i+1] = cos(m theta_i)``, while RoPE *rotates* pair ``i`` of the query and the key by the
angle of row ``m``. The upper panel is the table for positions 0 to 127, the lower one the outlined row.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.clocks import BASES
from rope_viz.frequencies import cos_sin_table, inv_freq

DIM = 64
POSITIONS = np.arange(128)  # rows of the table: positions 0 .. 127
SITE_POSITIONS = (0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 112, 127)
SHOWN = ("cos(m·θᵢ)", "sin(m·θᵢ)")
#: A column of the cos table reads as red while its value stays above this (0.9 is near the red end of the
#: colour scale; a quarter turn, cos 0, is already the grey middle). A pair stays above it in every row of the
#: table when its angle at the last row is below ``arccos(RED_COS)``, about 0.45 rad.
RED_COS = 0.9

# Blue (-1) - light grey (0) - red (+1): readable on the light and the dark page.
DIVERGING = [
    [0.0, "#2166ac"],
    [0.25, "#67a9cf"],
    [0.5, "#e8e8e8"],
    [0.75, "#ef8a62"],
    [1.0, "#b2182b"],
]
ROW_COLOR = "#1a9e3f"
COS_COLOR = "#1f77b4"
SIN_COLOR = "#ff7f0e"


def table(base: float, shown: int) -> np.ndarray:
    """Return ``cos(m theta_i)`` (``shown = 0``) or ``sin(m theta_i)`` (``1``), m = 0..127; ``(128, d/2)``."""
    cos, sin = cos_sin_table(POSITIONS, inv_freq(DIM, base))  # (128, d/2) each
    if shown == 0:
        return cos
    if shown == 1:
        return sin
    raise ValueError(f"shown must be 0 (cos) or 1 (sin), got {shown}")


class AngleTable(Demo):
    """The table of cos or sin of ``m·θᵢ`` over positions and pairs, with one row read out below."""

    narrowest_plot_width = 560
    title = "The clocks as a table: cos and sin of m·θᵢ for every position m and pair i"
    controls = (
        Control("base", "base b", BASES, 10_000, 100, 1_000_000, log=True),
        Control("shown", "table of", (0, 1), 0, 0, 1, integer=True, choices=(0, 1), labels=SHOWN),
        Control("position", "outlined row m", SITE_POSITIONS, 6, 0, 127, unit="tokens", integer=True),
    )
    scenes = (
        Scene(
            "the cos table",
            "The left-hand columns cycle from red through blue and back, while the right-hand columns stay "
            "red from top to bottom.",
            {},
        ),
        Scene(
            "row zero",
            "At position 0 every angle is zero, so the row below reads cos 1 and sin 0 for every pair.",
            {"position": 0},
        ),
        Scene(
            "the sin table",
            "In the sin table the slowest pairs, whose angles stay small, give pale columns close to 0.",
            {"shown": 1},
        ),
        Scene(
            "raise the base",
            "At base 1,000,000 fewer columns go through a full cycle and the red block on the right grows "
            "leftwards, while the columns that were red stay red.",
            {"base": 1_000_000},
        ),
    )

    def base_figure(self) -> dict:
        """Heatmap of the table above (position down, pair across); the outlined row's cos and sin below."""
        pairs = np.arange(DIM // 2)
        heatmap = {
            "type": "heatmap",
            "name": "table",
            "x": pairs.tolist(),
            "y": POSITIONS.tolist(),
            "colorscale": DIVERGING,
            "zmin": -1,
            "zmax": 1,
            "colorbar": {"title": {"text": "value"}, "y": 0.745, "len": 0.49, "thickness": 14},
            "hovertemplate": "position m = %{y}<br>pair i = %{x}<br>value %{z:.3f}<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
        row = {
            "type": "scatter",
            "mode": "lines",
            "name": "row m, in the middle of the box",
            "line": {"color": ROW_COLOR, "width": 2},
            "hoverinfo": "skip",
            "xaxis": "x",
            "yaxis": "y",
        }

        def curve(name: str, color: str, dash: str) -> dict:
            return {
                "type": "scatter",
                "mode": "lines+markers",
                "name": name,
                "x": pairs.tolist(),
                "line": {"color": color, "width": 2, "dash": dash},
                "marker": {"color": color, "size": 7},
                "hovertemplate": "pair %{x}<br>%{y:.3f}<extra></extra>",
                "xaxis": "x2",
                "yaxis": "y2",
            }

        layout = {
            "height": 980,
            "margin": {"l": 80, "r": 30, "t": 50, "b": 60},
            "font": {"size": 15},
            "showlegend": True,
            "legend": {"orientation": "h", "x": 0.0, "y": -0.08},
            "xaxis": {
                "domain": [0.0, 0.9],
                "title": {"text": "pair index i (fast → slow)"},
                "range": [-0.5, DIM // 2 - 0.5],
                "anchor": "y",
            },
            "yaxis": {
                "domain": [0.5, 0.99],
                "title": {"text": "position m (tokens)"},
                "range": [POSITIONS[-1] + 0.5, -0.5],  # position 0 at the top, as in a table
                "anchor": "x",
            },
            "xaxis2": {
                "domain": [0.0, 0.9],
                "title": {"text": "pair index i"},
                "range": [-0.5, DIM // 2 - 0.5],
                "anchor": "y2",
            },
            "yaxis2": {
                "domain": [0.0, 0.34],
                "title": {"text": "value (no unit)"},
                "range": [-1.1, 1.1],
                "anchor": "x2",
            },
            "annotations": [
                _panel_title("cos(m·θᵢ) for positions m = 0 … 127 and pairs i, d = 64", 1.035),
                _panel_title("the outlined row: what the clock of position m shows, pair by pair", 0.385),
            ],
        }
        traces = [
            heatmap,
            row,
            curve("cos(m·θᵢ): added as p_m[2i+1]; multiplies in RoPE", COS_COLOR, "solid"),
            curve("sin(m·θᵢ): added as p_m[2i]; multiplies in RoPE", SIN_COLOR, "dot"),
        ]
        return {"data": traces, "layout": layout}

    def view(self, *, base: float, shown: float, position: float) -> View:
        """Show the table of ``shown`` (0: cos, 1: sin) for ``base``, with row ``position`` outlined."""
        shown = round(shown)
        m = round(position)
        theta = inv_freq(DIM, base)  # (d/2,)
        cos_row, sin_row = cos_sin_table(float(m), theta)  # (d/2,) each
        # A box one row above and below row m: a line on the row itself (3 pixels high) would hide it.
        right = DIM // 2 - 0.5
        outline_x = [-0.5, right, right, -0.5, -0.5]
        outline_y = [m - 1.5, m - 1.5, m + 1.5, m + 1.5, m - 1.5]
        last = int(POSITIONS[-1])
        turned = np.count_nonzero(last * theta >= 2.0 * np.pi)
        # Below a half turn the angle grows with m and cos falls: the last row holds a column's lowest cos.
        still = np.count_nonzero(last * theta < np.arccos(RED_COS))
        if still == 0:
            stay = f"none keeps cos above {RED_COS:g} in every row: no column of the cos table stays red."
        else:
            kept, they = ("1 turns", "it is") if still == 1 else (f"{still} turn", "they are")
            stay = (
                f"{kept} so little that cos stays above {RED_COS:g} in every row: in the cos table {they} "
                "red from top to bottom."
            )
        readout = (
            f"b = {base:,.0f}, d = {DIM}: row m = {m} is the clock of position {m} read as numbers "
            f"(pair 0 at cos = {cos_row[0]:+.3f}, sin = {sin_row[0]:+.3f}). Within positions 0 to {last}, "
            f"{turned} of {DIM // 2} pairs complete a full turn and {stay}"
        )
        return View(
            traces=[
                {"z": np.round(table(base, shown), 3).tolist()},
                {"x": outline_x, "y": outline_y},
                {"y": np.round(cos_row, 4).tolist()},
                {"y": np.round(sin_row, 4).tolist()},
            ],
            layout={
                "annotations[0].text": f"{SHOWN[shown]} for positions m = 0 … {last} and pairs i, d = {DIM}"
            },
            readout=readout,
        )


def _panel_title(text: str, y: float) -> dict:
    return {"text": text, "x": 0.5, "y": y, "xref": "paper", "yref": "paper", "showarrow": False}
