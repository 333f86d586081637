"""Dynamic NTK scaling: the NTK-aware base change, recomputed as the sequence grows.

Up to the trained length ``L`` the model runs plain RoPE. Past it, the scale grows with the current sequence
length ``l``: ``max(1, l / L)`` in the YaRN paper, ``factor * l / L - (factor - 1)`` in Hugging Face
transformers, and the base becomes ``b * scale ** (d / (d - 2))``.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.extension_style import DYNAMIC, FONT_SIZE, PLAIN, panel_title, significant, slowdown_trace
from rope_viz.extension import dynamic_paper_scale
from rope_viz.frequencies import inv_freq
from rope_viz.scaling import RopeParameters, dynamic_scale, ntk_base

DIM = 128
BASE = 10_000.0
TRAINED_LENGTH = 4096
SEQ_LENS = (2048, 4096, 6144, 8192, 12288, 16384, 24576, 32768)
FACTORS = (1, 2, 4, 8)
CURVE_POINTS = 121


def _parameters(factor: float) -> RopeParameters:
    return RopeParameters(
        rope_type="dynamic",
        head_dim=DIM,
        rope_theta=BASE,
        factor=factor,
        max_position_embeddings=TRAINED_LENGTH,
    )


class DynamicNtk(Demo):
    """The scale against the sequence length (code and paper rules), and the per-pair slow-down it gives."""

    narrowest_plot_width = 480
    title = "Dynamic NTK scaling: the base grows with the sequence length"
    controls = (
        Control("seq_len", "sequence length l", SEQ_LENS, 8192, 1, 131072, unit="tokens", integer=True),
        Control("factor", "factor (transformers)", FACTORS, 2, 1, 16),
    )
    scenes = (
        Scene(
            "twice the length",
            "At twice the training length, transformers' rule with factor 2 slows the slow pairs more than "
            "the paper's rule does.",
            {},
        ),
        Scene(
            "within training",
            "Up to the training length both rules keep plain RoPE, so short inputs run as in training.",
            {"seq_len": 2048},
        ),
        Scene(
            "eight times the length",
            "At eight times the training length the base has grown much further, and the gap between the "
            "two rules has widened.",
            {"seq_len": 32_768},
        ),
        Scene(
            "factor 1",
            "With factor 1 transformers' rule is the paper's rule, and the two curves coincide.",
            {"factor": 1},
        ),
    )

    def base_figure(self) -> dict:
        """Scale against sequence length above, slow-down per pair (log scale) below."""

        def curve(name: str, color: str, dash: str) -> dict:
            return {
                "type": "scatter",
                "mode": "lines",
                "name": name,
                "line": {"color": color, "width": 3, "dash": dash},
                "hovertemplate": "l = %{x:,} tokens<br>scale %{y:.3g}<extra>" + name + "</extra>",
                "xaxis": "x",
                "yaxis": "y",
            }

        def marker(color: str, symbol: str) -> dict:
            return {
                "type": "scatter",
                "mode": "markers",
                "name": "current l",
                "marker": {"color": color, "size": 13, "symbol": symbol},
                "hovertemplate": "l = %{x:,} tokens<br>scale %{y:.3g}<extra></extra>",
                "showlegend": False,
                "xaxis": "x",
                "yaxis": "y",
            }

        layout = {
            "height": 820,
            "margin": {"l": 80, "r": 20, "t": 40, "b": 60},
            "font": {"size": FONT_SIZE},
            "legend": {"x": 0.01, "y": 0.93, "yanchor": "top", "bgcolor": "rgba(0,0,0,0)"},
            "legend2": {"x": 0.01, "y": 0.36, "yanchor": "top", "bgcolor": "rgba(0,0,0,0)"},
            "xaxis": {
                "domain": [0, 1],
                "anchor": "y",
                "title": {"text": "current sequence length l (tokens)"},
            },
            "yaxis": {"domain": [0.56, 0.95], "title": {"text": "scale (×)"}, "rangemode": "tozero"},
            "xaxis2": {
                "domain": [0, 1],
                "anchor": "y2",
                "title": {"text": "pair index i"},
                "zeroline": False,
            },
            "yaxis2": {
                "domain": [0.0, 0.37],
                "type": "log",
                "title": {"text": "slow-down θᵢ/θᵢ′ (×)"},
                "tickvals": [1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32],
            },
            "annotations": [
                panel_title(
                    f"scale applied at sequence length l (trained length L = {TRAINED_LENGTH:,})", 0.965
                ),
                panel_title("how many times slower each pair turns at the current l", 0.39),
            ],
        }
        data = [
            curve("transformers: factor·l/L − (factor − 1)", DYNAMIC, "solid"),
            curve("YaRN paper: max(1, l/L)", PLAIN, "dash"),
            marker(DYNAMIC, "circle"),
            marker(PLAIN, "diamond"),
            slowdown_trace("transformers rule", DYNAMIC, "lines+markers", "solid"),
            slowdown_trace("paper rule", PLAIN, "lines", "dash"),
        ]
        return {"data": data, "layout": layout}

    def view(self, *, seq_len: float, factor: float) -> View:
        """Both scale curves up to ``max(32768, seq_len)`` and the per-pair slow-down at ``seq_len``."""
        seq_len = max(1, round(seq_len))
        parameters = _parameters(factor)
        x_max = max(SEQ_LENS[-1], seq_len)
        lengths = np.unique(np.linspace(1, x_max, CURVE_POINTS).round().astype(int))
        lengths = np.union1d(lengths, [TRAINED_LENGTH])
        code = [dynamic_scale(parameters, int(length)) for length in lengths]
        paper = [dynamic_paper_scale(int(length), TRAINED_LENGTH) for length in lengths]

        code_scale = dynamic_scale(parameters, seq_len)
        paper_scale = dynamic_paper_scale(seq_len, TRAINED_LENGTH)
        theta = inv_freq(DIM, BASE)
        code_base = ntk_base(BASE, code_scale, DIM)
        paper_base = ntk_base(BASE, paper_scale, DIM)
        code_slowdown = theta / inv_freq(DIM, code_base)
        paper_slowdown = theta / inv_freq(DIM, paper_base)
        pair_index = np.arange(DIM // 2).tolist()
        top = max(code_slowdown.max(), 2.0)

        if seq_len <= TRAINED_LENGTH:
            readout = (
                f"l = {seq_len:,} tokens ≤ L = {TRAINED_LENGTH:,}: both rules keep plain RoPE "
                f"(scale 1, base {BASE:,.0f})."
            )
        else:
            readout = (
                f"l = {seq_len:,} tokens (L = {TRAINED_LENGTH:,}): transformers' rule with factor "
                f"{factor:g} gives scale {code_scale:.3g} and base {code_base:,.0f}; the paper's rule gives "
                f"scale {paper_scale:.3g} "
                f"and base {paper_base:,.0f}. The slowest pair turns {code_slowdown[-1]:.3g}× "
                f"(paper: {paper_slowdown[-1]:.3g}×) slower, pair 0 not at all."
            )
            if factor == 1:
                readout += " With factor 1 the two rules agree."
        return View(
            traces=[
                {"x": lengths.tolist(), "y": significant(code)},
                {"x": lengths.tolist(), "y": significant(paper)},
                {"x": [seq_len], "y": [float(f"{code_scale:.5g}")]},
                {"x": [seq_len], "y": [float(f"{paper_scale:.5g}")]},
                {"x": pair_index, "y": significant(code_slowdown)},
                {"x": pair_index, "y": significant(paper_slowdown)},
            ],
            layout={
                "xaxis.range": [0, x_max * 1.02],
                "yaxis.range": [0, max(code) * 1.05],
                "xaxis2.range": [-1, DIM // 2],
                "yaxis2.range": [-0.05, float(np.log10(top)) + 0.1],
            },
            readout=readout,
        )
