"""Resolution between neighbouring tokens: position interpolation against the NTK-aware base change.

Position interpolation (PI) divides every frequency by ``s``, so neighbouring tokens end up ``theta_i / s``
apart on every pair, the fast ones included. The NTK-aware base change ``b' = b s^(d/(d-2))`` slows pair ``i``
by ``s^(2i/(d-2))`` only: the fastest pair keeps its full step, the slowest is slowed by exactly ``s``.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.clock_face import dial_axes, dial_traces, spaced_labels, xy
from rope_viz.demos.extension_style import FONT_SIZE, NTK, PI, PLAIN, panel_title, significant
from rope_viz.extension import neighbour_angles
from rope_viz.frequencies import inv_freq
from rope_viz.scaling import ntk_base

DIM = 128
BASE = 10_000.0
TOKENS = 8
FACTORS = (1, 2, 4, 8, 16, 32)
PAIRS = (0, 2, 4, 8, 16, 24, 32, 48, 63)
RINGS = {"plain": 1.0, "ntk": 0.74, "pi": 0.48}
#: Tokens on the outer ring closer than this (degrees) share one label: 10° of the ring is about 19 px where
#: the plot is narrowest (520 px), more than a label's height.
LABEL_GAP_DEGREES = 10.0


class InterpolationResolution(Demo):
    """The first tokens on one pair's clock under plain RoPE, NTK-aware scaling and PI; every pair's step."""

    narrowest_plot_width = 520

    title = "Neighbouring tokens under position interpolation and the NTK-aware base change"
    controls = (
        Control("factor", "scale factor s", FACTORS, 8, 1, 64, log=True),
        Control("pair", "pair i", PAIRS, 0, 0, DIM // 2 - 1, integer=True),
    )
    scenes = (
        Scene(
            "the fastest pair",
            "Under PI the first eight tokens of pair 0 fit in less than one trained step, while the "
            "NTK-aware ring keeps plain RoPE's.",
            {},
        ),
        Scene("no stretch", "With s = 1 the three rings coincide: nothing is interpolated.", {"factor": 1}),
        Scene(
            "the slowest pair",
            "For the slowest pair the NTK-aware base change slows the step by the full factor, just as PI "
            "does.",
            {"pair": 63},
        ),
        Scene(
            "stretch by 32",
            "At s = 32 PI packs the eight tokens of pair 0 into a narrow wedge of its dial.",
            {"factor": 32},
        ),
    )

    def base_figure(self) -> dict:
        """Return the clock of one pair above and the angle between neighbours per pair (log scale) below."""

        def ring(name: str, color: str, symbol: str, text: bool) -> dict:
            return {
                "type": "scatter",
                "mode": "markers+text" if text else "markers",
                "name": name,
                "marker": {"color": color, "size": 11, "symbol": symbol, "line": {"width": 0}},
                "textposition": "middle right",
                "textfont": {"size": FONT_SIZE - 1},
                "hovertemplate": "token %{customdata[0]}<br>%{customdata[1]:.1f}°<extra>" + name + "</extra>",
                "xaxis": "x",
                "yaxis": "y",
                "showlegend": False,
            }

        def steps(name: str, color: str, dash: str) -> dict:
            return {
                "type": "scatter",
                "mode": "lines",
                "name": name,
                "line": {"color": color, "width": 3, "dash": dash},
                "hovertemplate": "pair %{x}<br>%{y:.3g}° per token<extra>" + name + "</extra>",
                "xaxis": "x2",
                "yaxis": "y2",
            }

        selected = {
            "type": "scatter",
            "mode": "markers",
            "name": "selected pair",
            "marker": {"color": [PLAIN, NTK, PI], "size": 12, "symbol": ["circle", "diamond", "square"]},
            "hovertemplate": "pair %{x}: %{y:.3g}° per token<extra></extra>",
            "showlegend": False,
            "xaxis": "x2",
            "yaxis": "y2",
        }
        ring_names = {
            "type": "scatter",
            "mode": "text",
            "name": "ring names",
            "x": [0.0, 0.0, 0.0],
            "y": [RINGS["pi"] - 0.07, RINGS["ntk"] - 0.07, RINGS["plain"] - 0.07],
            "text": ["PI", "NTK", "plain"],
            "textfont": {"size": FONT_SIZE - 2},  # the theme's text colour (grey was 3.9:1 on white)
            "hoverinfo": "skip",
            "showlegend": False,
            "xaxis": "x",
            "yaxis": "y",
        }
        layout = {
            "height": 900,
            "margin": {"l": 80, "r": 30, "t": 40, "b": 60},
            "font": {"size": FONT_SIZE},
            "showlegend": True,
            "legend": {"orientation": "h", "x": 0.0, "y": 0.375, "yanchor": "bottom"},
            **dial_axes([0.1, 0.9], [0.43, 0.95], extent=1.5),
            "xaxis2": {
                "domain": [0, 1],
                "anchor": "y2",
                "title": {"text": "pair index i"},
                "zeroline": False,
            },
            "yaxis2": {
                "anchor": "x2",
                "domain": [0.0, 0.33],
                "type": "log",
                "title": {"text": "angle between<br>neighbours (°/token)"},
                "exponentformat": "power",
                "dtick": 1,
            },
            "annotations": [
                panel_title("tokens 0–7 on the clock of pair i (outer ring: plain RoPE)", 0.975),
                panel_title("angle between neighbouring tokens on every pair (log scale)", 0.345),
            ],
        }
        data = [
            *dial_traces((RINGS["pi"], RINGS["ntk"], RINGS["plain"]), label_radius=1.38),
            ring_names,
            ring("plain RoPE", PLAIN, "circle", True),
            ring("NTK-aware", NTK, "diamond", False),
            ring("PI", PI, "square", False),
            steps("plain RoPE: θᵢ", PLAIN, "solid"),
            steps("NTK-aware: θᵢ·s^(−2i/(d−2))", NTK, "dash"),
            steps("PI: θᵢ/s", PI, "dot"),
            selected,
        ]
        return {"data": data, "layout": layout}

    def view(self, *, factor: float, pair: float) -> View:
        """Tokens ``0 .. 7`` of pair ``pair`` on three rings, and the per-pair steps, at scale ``factor``."""
        pair = round(pair)
        theta = inv_freq(DIM, BASE)  # (d/2,)
        ntk_theta = inv_freq(DIM, ntk_base(BASE, factor, DIM))
        pi_theta = neighbour_angles(theta, factor)
        tokens = np.arange(TOKENS)
        rings = []
        for key, frequencies in (("plain", theta), ("ntk", ntk_theta), ("pi", pi_theta)):
            angle = np.degrees(np.mod(tokens * frequencies[pair], 2 * np.pi))
            x, y = xy(np.full(TOKENS, RINGS[key]), angle)
            update = {
                "x": x,
                "y": y,
                "customdata": np.column_stack([tokens, np.round(angle, 1)]).tolist(),
            }
            if key == "plain":
                update["text"] = spaced_labels(angle, LABEL_GAP_DEGREES)
            rings.append(update)
        degrees = {
            key: np.degrees(value) for key, value in (("plain", theta), ("ntk", ntk_theta), ("pi", pi_theta))
        }
        pair_index = np.arange(DIM // 2)
        span_pi = degrees["pi"][pair] * (TOKENS - 1)
        readout = (
            f"Pair {pair}, s = {factor:.3g}: neighbouring tokens are {degrees['plain'][pair]:.3g}° apart "
            f"in plain RoPE, {degrees['ntk'][pair]:.3g}° with the NTK-aware base change and "
            f"{degrees['pi'][pair]:.3g}° "
            f"with PI. Under PI, tokens 0–{TOKENS - 1} span {span_pi:.3g}°"
        )
        if span_pi < degrees["plain"][pair]:
            readout += ", less than one step between two neighbours of the trained model."
        else:
            readout += "."
        return View(
            traces=[
                {},
                {},
                {},
                *rings,
                {"x": pair_index.tolist(), "y": significant(degrees["plain"])},
                {"x": pair_index.tolist(), "y": significant(degrees["ntk"])},
                {"x": pair_index.tolist(), "y": significant(degrees["pi"])},
                {
                    "x": [pair, pair, pair],
                    "y": significant([degrees["plain"][pair], degrees["ntk"][pair], degrees["pi"][pair]]),
                },
            ],
            layout={"xaxis2.range": [-1, DIM // 2]},
            readout=readout,
        )
