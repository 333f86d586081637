"""Llama 3.1's frequency scaling: a smooth blend between its high- and low-frequency edges.

Pairs with a wavelength shorter than ``L / high_freq_factor`` keep their frequency, pairs longer than
``L / low_freq_factor`` are slowed by ``s``, and in between the frequency is blended linearly in the number of
turns ``L / lambda``. The configuration of Llama 3.1 is ``s = 8``, ``low_freq_factor = 1``,
``high_freq_factor = 4``, ``L = 8192`` with base 500,000.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.extension_style import (
    CLASS_STYLE,
    FONT_SIZE,
    LLAMA3,
    PLAIN,
    band_shape,
    masked,
    panel_title,
    reference_line,
    significant,
    wavelength_trace,
)
from rope_viz.frequencies import inv_freq, wavelengths
from rope_viz.scaling import RopeParameters, classify_pairs, llama3_frequencies, llama3_wavelength_bands

DIM = 128
BASE = 500_000.0
FACTORS = (2, 4, 8, 16, 32)
LOW_FACTORS = (1, 2)
HIGH_FACTORS = (4, 8)
LENGTHS = (4096, 8192, 16384)
#: The upper panel's share of the figure's height (paper coordinates, bottom and top).
UPPER_PANEL = (0.56, 0.96)
CURVE_POINTS = 161


def llama3_parameters(factor: float, low: float, high: float, length: float) -> RopeParameters:
    """Llama 3 scaling settings for ``d = 128``, ``b = 500,000``."""
    return RopeParameters(
        rope_type="llama3",
        head_dim=DIM,
        rope_theta=BASE,
        factor=factor,
        low_freq_factor=low,
        high_freq_factor=high,
        original_max_position_embeddings=round(length),
    )


def llama3_curve(parameters: RopeParameters, longest: float, points: int = CURVE_POINTS) -> tuple:
    """Wavelengths from 2π to ``longest`` and their slow-down under ``parameters``' Llama 3 rule.

    The rule depends on a pair's frequency only through its wavelength, so a dense curve is the library's
    :func:`~rope_viz.scaling.llama3_frequencies` for a head of ``2 * points`` dimensions whose base spreads
    its wavelengths over the same range.
    """
    dim = 2 * points
    base = (longest / (2.0 * np.pi)) ** (dim / (dim - 2))
    dense = RopeParameters(
        rope_type="llama3",
        head_dim=dim,
        rope_theta=base,
        factor=parameters.factor,
        low_freq_factor=parameters.low_freq_factor,
        high_freq_factor=parameters.high_freq_factor,
        original_max_position_embeddings=parameters.original_max_position_embeddings,
    )
    scaled, _ = llama3_frequencies(dense)
    return wavelengths(dim, base), inv_freq(dim, base) / scaled


class Llama3Blend(Demo):
    """Slow-down against wavelength with Llama 3's two edges, and the wavelengths before and after."""

    narrowest_plot_width = 480
    title = "Llama 3.1 scaling: a smooth blend between two wavelength edges"
    controls = (
        Control("factor", "scale factor s", FACTORS, 8, 1, 64, log=True),
        Control("low", "low_freq_factor", LOW_FACTORS, 1, 0.5, 3),
        Control("high", "high_freq_factor", HIGH_FACTORS, 4, 3.5, 16),
        Control("length", "original length L", LENGTHS, 8192, 1024, 65536, unit="tokens", log=True,
                integer=True),
    )  # fmt: skip
    scenes = (
        Scene(
            "llama 3.1",
            "Short wavelengths are kept, long ones slowed by the factor, and a few pairs in between are "
            "blended.",
            {},
        ),
        Scene(
            "a larger factor",
            "A larger factor slows the long-wavelength pairs more but moves neither edge.",
            {"factor": 32},
        ),
        Scene(
            "raise low_freq_factor",
            "Raising low_freq_factor halves the long edge, so more pairs are slowed by the full factor.",
            {"low": 2},
        ),
        Scene(
            "raise high_freq_factor",
            "Raising high_freq_factor halves the short edge, so fewer pairs are kept and the blend widens.",
            {"high": 8},
        ),
    )

    def base_figure(self) -> dict:
        """Slow-down against the original wavelength (log) above; wavelengths per pair below."""
        classes = []
        for name, (color, symbol) in CLASS_STYLE.items():
            classes.append(
                {
                    "type": "scatter",
                    "mode": "markers",
                    "name": name,
                    "marker": {"color": color, "symbol": symbol, "size": 9},
                    "customdata": [],
                    "hovertemplate": "pair %{customdata}<br>λ = %{x:,.0f} tokens<br>slowed %{y:.3g}×<extra>"
                    + name
                    + "</extra>",
                    "xaxis": "x",
                    "yaxis": "y",
                }
            )
        rule = {
            "type": "scatter",
            "mode": "lines",
            "name": "the rule, for any wavelength",
            "line": {"color": LLAMA3, "width": 2},
            "hoverinfo": "skip",
            "xaxis": "x",
            "yaxis": "y",
        }

        layout = {
            "height": 860,
            "margin": {"l": 80, "r": 20, "t": 40, "b": 60},
            "font": {"size": FONT_SIZE},
            # Bottom right of the upper panel, under the slowed pairs (at s): the untouched ones (at 1) run
            # along the left, up to half the panel's height at s = 2.
            "legend": {
                "x": 0.99,
                "xanchor": "right",
                "y": UPPER_PANEL[0] + 0.01,
                "yanchor": "bottom",
                "bgcolor": "rgba(0,0,0,0)",
            },
            # Bottom right, where the wavelengths are short: the lengths' labels sit top left.
            "legend2": {
                "x": 0.99,
                "xanchor": "right",
                "y": 0.01,
                "yanchor": "bottom",
                "bgcolor": "rgba(0,0,0,0)",
            },
            "xaxis": {
                "domain": [0, 1],
                "anchor": "y",
                "type": "log",
                "title": {"text": "original wavelength λᵢ (tokens, log scale)"},
                "exponentformat": "power",
                "dtick": 1,
            },
            "yaxis": {
                "domain": list(UPPER_PANEL),
                "title": {"text": "slow-down θᵢ/θᵢ′ (×)"},
                "rangemode": "tozero",
            },
            "xaxis2": {
                "domain": [0, 1],
                "anchor": "y2",
                "title": {"text": "pair index i"},
                "zeroline": False,
            },
            "yaxis2": {
                "domain": [0.0, 0.39],
                "type": "log",
                "title": {"text": "wavelength (tokens)"},
                "exponentformat": "power",
                "dtick": 1,
            },
            "shapes": [band_shape("x", "y", CLASS_STYLE["blended"][0])],
            "annotations": [
                panel_title("slow-down against wavelength; the shaded band is blended", 0.97),
                panel_title("wavelength of each pair before and after scaling (log scale)", 0.405),
            ],
        }
        data = [
            *classes,
            rule,
            wavelength_trace("before: 2π/θᵢ", PLAIN, "dash"),
            wavelength_trace("after: 2π/θᵢ′", LLAMA3, "solid"),
            # L's label under its line, s·L's over its own: at s = 2 the lines are a third of a decade apart.
            reference_line("L", "dash", label="bottom right"),
            reference_line("s·L", "dot"),
        ]
        return {"data": data, "layout": layout}

    def view(self, *, factor: float, low: float, high: float, length: float) -> View:
        """Classes, blend curve and wavelengths for Llama 3 scaling with the given settings."""
        if high <= low:
            high = low + 0.5
        parameters = llama3_parameters(factor, low, high, length)
        theta = inv_freq(DIM, BASE)
        before = wavelengths(DIM, BASE)
        scaled, _ = llama3_frequencies(parameters)
        after = 2.0 * np.pi / scaled
        slowdown = theta / scaled
        classes = classify_pairs(slowdown, factor)
        short_edge, long_edge = llama3_wavelength_bands(parameters)
        curve_x, curve_y = llama3_curve(parameters, before[-1])
        pairs = DIM // 2
        pair_index = np.arange(pairs)
        counts = {name: int(np.count_nonzero(classes == name)) for name in CLASS_STYLE}
        trained = parameters.original_max_position_embeddings
        readout = (
            f"s = {factor:.3g}, low_freq_factor = {low:g}, high_freq_factor = {high:g}, L = {trained:,}: "
            f"wavelengths under {short_edge:,.0f} tokens are kept ({counts['untouched']} pairs), over "
            f"{long_edge:,.0f} tokens slowed {factor:.3g}× ({counts['interpolated']} pairs), "
            f"{counts['blended']} pairs blended between. No attention factor."
        )
        return View(
            traces=[
                *[
                    {
                        "x": significant(before),
                        "y": masked(slowdown, classes == name),
                        "customdata": pair_index.tolist(),
                    }
                    for name in CLASS_STYLE
                ],
                {"x": significant(curve_x), "y": significant(curve_y)},
                {"x": pair_index.tolist(), "y": significant(before)},
                {"x": pair_index.tolist(), "y": significant(after)},
                {"x": [-0.5, pairs - 0.5], "y": [trained, trained], "text": [f"L = {trained:,}", ""]},
                {
                    "x": [-0.5, pairs - 0.5],
                    "y": [trained * factor, trained * factor],
                    "text": [f"s·L = {trained * factor:,.0f}", ""],
                },
            ],
            layout={
                "yaxis.range": [0, factor * 1.08],
                "xaxis2.range": [-1, pairs],
                "shapes[0].x0": short_edge,
                "shapes[0].x1": long_edge,
            },
            readout=readout,
        )
