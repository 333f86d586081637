"""YaRN's three bands and its attention temperature.

Pairs that turn more than ``beta_fast`` times over the training length ``L`` keep their frequency, pairs that
turn fewer than ``beta_slow`` times are slowed by ``s``, and a ramp blends the pairs between. Cos and sin are
multiplied by ``0.1 ln s + 1``, so the attention logits grow by its square.
"""

from __future__ import annotations

import math

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.extension_style import (
    CLASS_STYLE,
    FONT_SIZE,
    PLAIN,
    YARN,
    band_shape,
    class_traces,
    masked,
    panel_title,
    reference_line,
    significant,
    slowdown_trace,
)
from rope_viz.extension import turns, yarn_paper_frequencies
from rope_viz.frequencies import inv_freq
from rope_viz.scaling import RopeParameters, classify_pairs, yarn_correction_range, yarn_frequencies

DIM = 128
BASE = 10_000.0
FACTORS = (1, 2, 4, 8, 16, 32, 64)
LENGTHS = (2048, 4096, 8192, 32768)
BETA_FAST = (16, 32, 64)
BETA_SLOW = (0.5, 1, 2)
TEMPERATURE_FACTORS = np.geomspace(1, 128, 57)
#: Share of the turns' span left empty above the data, for the row of the panel's legend.
HEADROOM = 0.5


def yarn_parameters(factor: float, length: float, beta_fast: float, beta_slow: float) -> RopeParameters:
    """YaRN settings for ``d = 128``, ``b = 10,000`` (Llama 2's head)."""
    return RopeParameters(
        rope_type="yarn",
        head_dim=DIM,
        rope_theta=BASE,
        factor=factor,
        original_max_position_embeddings=round(length),
        beta_fast=beta_fast,
        beta_slow=beta_slow,
    )


class YarnBands(Demo):
    """Turns per pair with YaRN's band edges, the slow-down per pair (code and paper), and the temperature."""

    narrowest_plot_width = 600
    title = "YaRN: untouched, blended and interpolated pairs, and the attention temperature"
    controls = (
        Control("factor", "scale factor s", FACTORS, 8, 1, 128, log=True),
        Control("length", "training length L", LENGTHS, 4096, 512, 131072, unit="tokens", log=True,
                integer=True),
        Control("beta_fast", "beta_fast", BETA_FAST, 32, 2, 128, log=True),
        Control("beta_slow", "beta_slow", BETA_SLOW, 1, 0.25, 2),
    )  # fmt: skip
    scenes = (
        Scene(
            "three bands",
            "The fast pairs are untouched, the slowest are slowed by s, and a blended band lies between "
            "them.",
            {},
        ),
        Scene(
            "raise beta_fast",
            "Raising beta_fast widens the blend towards pair 0, while the interpolated pairs stay the same.",
            {"beta_fast": 64},
        ),
        Scene(
            "raise beta_slow",
            "Raising beta_slow moves the other edge: more pairs are slowed by the full factor, and the "
            "blend narrows.",
            {"beta_slow": 2},
        ),
        Scene(
            "stretch by 64",
            "A larger factor moves neither edge but slows the slow pairs more and raises the factor on the "
            "logits.",
            {"factor": 64},
        ),
    )

    def base_figure(self) -> dict:
        """Three stacked panels: turns per pair, slow-down per pair, temperature against ``s``."""
        classes = class_traces("pair %{x}<br>%{y:.3g} turns within L")

        def temperature(name: str, color: str, dash: str) -> dict:
            return {
                "type": "scatter",
                "mode": "lines",
                "name": name,
                "line": {"color": color, "width": 3, "dash": dash},
                "hovertemplate": "s = %{x:.3g}<br>×%{y:.4g}<extra>" + name + "</extra>",
                "xaxis": "x3",
                "yaxis": "y3",
                "legend": "legend3",
            }

        current = {
            "type": "scatter",
            "mode": "markers",
            "name": "current s",
            "marker": {"color": [YARN, YARN], "size": 12, "symbol": ["circle", "diamond"]},
            "hovertemplate": "s = %{x:.3g}: ×%{y:.4g}<extra></extra>",
            "showlegend": False,
            "xaxis": "x3",
            "yaxis": "y3",
        }
        layout = {
            "height": 1080,
            "margin": {"l": 80, "r": 20, "t": 40, "b": 60},
            "font": {"size": FONT_SIZE},
            # Where no data, no β line and no label reach, so that a short panel (a projector's screen)
            # keeps them clear: the turns' at the top left, in headroom that the panel's range leaves above
            # every point and line (HEADROOM); the slow-downs' in the top left of their panel, over the
            # pairs left of the ramp (at 1); the temperature rises from the bottom left of its panel.
            "legend": {
                "orientation": "h",
                "x": 0.01,
                "xanchor": "left",
                "y": 0.96,
                "yanchor": "top",
                "bgcolor": "rgba(0,0,0,0)",
            },
            "legend2": {
                "x": 0.01,
                "xanchor": "left",
                "y": 0.63,
                "yanchor": "top",
                "bgcolor": "rgba(0,0,0,0)",
            },
            "legend3": {"x": 0.01, "y": 0.255, "yanchor": "top", "bgcolor": "rgba(0,0,0,0)"},
            "xaxis": {"domain": [0, 1], "anchor": "y", "title": {"text": "pair index i"}, "zeroline": False},
            "yaxis": {
                "domain": [0.73, 0.96],
                "type": "log",
                "title": {"text": "turns within L"},
                "exponentformat": "power",
                "dtick": 2,
            },
            "xaxis2": {
                "domain": [0, 1],
                "anchor": "y2",
                "title": {"text": "pair index i"},
                "zeroline": False,
            },
            "yaxis2": {
                "domain": [0.37, 0.63],
                "type": "log",
                "title": {"text": "slow-down θᵢ/θᵢ′ (×)"},
            },
            "xaxis3": {
                "domain": [0, 1],
                "anchor": "y3",
                "type": "log",
                "title": {"text": "scale factor s (log scale)"},
                "range": [-0.03, 2.14],
            },
            "yaxis3": {"domain": [0.0, 0.26], "title": {"text": "multiplier (×)"}},
            "shapes": [band_shape("x", "y", CLASS_STYLE["blended"][0]), band_shape("x2", "y2", YARN)],
            "annotations": [
                panel_title("turns of each pair within L; the β lines bound the blend", 0.97),
                panel_title(
                    "slow-down per pair: a ramp in pair index (reference code) or in turns ρ (paper)", 0.64
                ),
                panel_title("attention temperature: on cos and sin, and on the logits", 0.27),
            ],
        }
        data = [
            *classes,
            # Labelled where no pair lies: β_fast above its right end (the pairs right of the blend's start
            # lie under it), β_slow under its left end (the pairs left of it lie over β_fast).
            {**reference_line("beta_fast", "dash", axes=("x", "y")), "textposition": "top left"},
            {**reference_line("beta_slow", "dot", axes=("x", "y")), "textposition": "bottom right"},
            slowdown_trace("reference code", YARN, "lines+markers", "solid"),
            slowdown_trace("paper, eq. (18)", PLAIN, "lines", "dash"),
            temperature("on cos and sin: a = 0.1·ln s + 1", YARN, "dash"),
            temperature("on the logits: a²", YARN, "solid"),
            current,
        ]
        return {"data": data, "layout": layout}

    def view(self, *, factor: float, length: float, beta_fast: float, beta_slow: float) -> View:
        """Bands, slow-downs and temperature for YaRN at ``factor``, ``L = length`` and the two betas."""
        if beta_fast < beta_slow:
            beta_fast = beta_slow
        parameters = yarn_parameters(factor, length, beta_fast, beta_slow)
        theta = inv_freq(DIM, BASE)
        pairs = DIM // 2
        pair_index = np.arange(pairs)
        rotations = turns(parameters.original_max_position_embeddings, theta)
        code_freq, attention = yarn_frequencies(parameters)
        paper_freq, _ = yarn_paper_frequencies(parameters)
        code_slowdown = theta / code_freq
        paper_slowdown = theta / paper_freq
        classes = classify_pairs(code_slowdown, factor)
        low, high = yarn_correction_range(parameters)
        band = [low, min(high, pairs - 1)]

        temperature = 0.1 * np.log(TEMPERATURE_FACTORS) + 1.0
        counts = {name: int(np.count_nonzero(classes == name)) for name in CLASS_STYLE}
        readout = (
            f"s = {factor:.3g}, L = {parameters.original_max_position_embeddings:,}, "
            f"beta_fast = {beta_fast:g}, "
            f"beta_slow = {beta_slow:g}: the reference code's ramp (transformers' and vLLM's) runs from pair "
            f"index {low} to {high}; "
            f"{counts['untouched']} pairs untouched, {counts['blended']} blended, {counts['interpolated']} "
            f"slowed by s. Cos and sin × {attention:.4f}, so logits × {attention**2:.4f}."
        )
        y_low = float(np.log10(rotations.min())) - 0.3
        y_high = float(np.log10(max(rotations.max(), beta_fast))) + 0.3
        return View(
            traces=[
                *[
                    {"x": pair_index.tolist(), "y": masked(rotations, classes == name)}
                    for name in CLASS_STYLE
                ],
                {
                    "x": [-0.5, pairs - 0.5],
                    "y": [beta_fast, beta_fast],
                    "text": ["", f"β_fast = {beta_fast:g}"],
                },
                {
                    "x": [-0.5, pairs - 0.5],
                    "y": [beta_slow, beta_slow],
                    "text": [f"β_slow = {beta_slow:g}", ""],
                },
                {"x": pair_index.tolist(), "y": significant(code_slowdown)},
                {"x": pair_index.tolist(), "y": significant(paper_slowdown)},
                {"x": significant(TEMPERATURE_FACTORS, 4), "y": significant(temperature)},
                {"x": significant(TEMPERATURE_FACTORS, 4), "y": significant(temperature**2)},
                {"x": [factor, factor], "y": significant([attention, attention**2])},
            ],
            layout={
                "xaxis.range": [-1, pairs],
                "xaxis2.range": [-1, pairs],
                "yaxis.range": [y_low, y_high + HEADROOM * (y_high - y_low)],
                "yaxis2.range": [-0.05, float(np.log10(max(factor, 2.0))) + 0.08],
                # Powers of two up to s, every one while s ≤ 8, so that at most four are labelled.
                "yaxis2.tickvals": [
                    2.0**k for k in range(0, 7, max(1, math.ceil(math.log2(max(factor, 2)) / 3)))
                ],
                "shapes[0].x0": band[0] - 0.5,
                "shapes[0].x1": band[1] + 0.5,
                "shapes[1].x0": band[0] - 0.5,
                "shapes[1].x1": band[1] + 0.5,
            },
            readout=readout,
        )
