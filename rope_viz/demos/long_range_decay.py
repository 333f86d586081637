"""Long-range decay: RoFormer's bound on the score, and what real scores of random queries and keys do.

:class:`DecayBound` reproduces the relative upper bound of RoFormer (Su et al. 2021, sec. 3.4.3, Figure 2)
with its local rises marked, and checks the bound against the actual score of one random query and key.
:class:`ScoreVsDistance` shows the mean and spread of the score against distance for random queries and keys,
aligned (``k = q``) or independent, on a log distance axis, and what the base does to it and to the
wavelengths.
"""

from __future__ import annotations

import math

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.figures.rounding import significant
from rope_viz.frequencies import inv_freq, wavelengths
from rope_viz.long_range import (
    abel_bound,
    complex_score_magnitude,
    first_below,
    local_maxima,
    relative_bound,
    score_statistics,
)
from rope_viz.scores import relative_scores

BASES = (100, 1000, 10_000, 100_000, 500_000, 1_000_000)
SITE_DIMS = (32, 64, 128, 256)
LIVE_DIMS = tuple(range(16, 257, 16))
SHORT_RANGE = np.arange(257, dtype=float)  # distances 0 .. 256 (the paper does not state its figure's range)
#: Log-spaced whole distances from 1 to 100,000 tokens.
LONG_RANGE = np.unique(np.round(np.logspace(0, 5, 220)))
#: The farthest whole distance at which the readout looks for the mean of ``k = q`` to halve.
HALVING_LIMIT = int(LONG_RANGE[-1])
REFERENCE_BASE = 10_000.0

BOUND_COLOR = "#1f77b4"
SCORE_COLOR = "#d62728"
RISE_COLOR = "#ff7f0e"
ALIGNED_COLOR = "#2ca02c"
INDEPENDENT_COLOR = "#7f7f7f"
SAMPLE_COLOR = "#9467bd"


def halving_distance(dim: int, base: float, limit: int = HALVING_LIMIT, block: int = 4096) -> int | None:
    """Return the first whole distance at which the mean score of ``k = q`` is below ``d/2``, or ``None``.

    Evaluates the mean ``2 sum_i cos(r theta_i)`` (:func:`rope_viz.long_range.score_statistics` with
    correlation 1) at every whole distance ``r = 0 .. limit``, ``block`` distances at a time, and stops at
    the first block that crosses. The log-spaced grid of the figure would step over the narrow dips that
    can cross ``d/2`` first: at ``d = 128`` and base 500,000 the first is at ``r = 166``, while the grid
    first falls below at 250.
    """
    for start in range(0, limit + 1, block):
        r = np.arange(start, min(start + block, limit + 1), dtype=float)
        mean, _ = score_statistics(r, dim, base, correlation=1.0)
        below = first_below(r, mean, dim / 2)
        if below is not None:
            return int(below)
    return None


def random_query_key(dim: int, seed: int = 2021) -> tuple[np.ndarray, np.ndarray]:
    """Return a fixed pair of standard normal vectors ``q``, ``k`` of size ``dim`` (the same every call)."""
    rng = np.random.default_rng([seed, dim])
    return rng.standard_normal(dim), rng.standard_normal(dim)


class DecayBound(Demo):
    """RoFormer's relative bound (Figure 2) with its rises, and the bound against a real score."""

    narrowest_plot_width = 560
    title = "RoFormer's long-range bound, its rises, and a real score beneath it"
    controls = (
        Control("base", "base b", BASES, 10_000, 100, 1_000_000, log=True),
        Control("dim", "head size d", SITE_DIMS, 128, 16, 256, integer=True, choices=LIVE_DIMS),
    )
    scenes = (
        Scene(
            "roformer's bound",
            "The bound falls from its value at distance 0 but rises again and again, so it never decays "
            "smoothly.",
            {},
        ),
        Scene(
            "a small base",
            "A base of 100 lowers the bound at every distance: the walk curls up sooner.",
            {"base": 100},
        ),
        Scene(
            "a large base",
            "A base of 1,000,000 raises the bound at every distance, and the rises remain.",
            {"base": 1_000_000},
        ),
        Scene("a smaller head", "A smaller head starts the bound lower, at (d/2 + 1)/2.", {"dim": 32}),
    )

    def base_figure(self) -> dict:
        """Relative bound (linear) on top; bound, complex modulus and |score| (log scale) below."""
        bound = {
            "type": "scatter",
            "mode": "lines",
            "name": "relative bound B(r)",
            "line": {"color": BOUND_COLOR, "width": 2.5},
            "hovertemplate": "r = %{x}<br>B(r) = %{y:.3f}<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
        rises = {
            "type": "scatter",
            "mode": "markers",
            "name": "top of a rise (local maximum of B)",
            "marker": {"symbol": "triangle-up", "size": 10, "color": RISE_COLOR},
            "hovertemplate": "local maximum at r = %{x}<br>B = %{y:.3f}<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
        abel = {
            "type": "scatter",
            "mode": "lines",
            "name": "Abel bound max|hᵢ₊₁ − hᵢ| · Σⱼ|Sⱼ(r)|",
            # dashed: the legend lists it beside the relative bound of the panel above, in the same colour
            "line": {"color": BOUND_COLOR, "width": 2.5, "dash": "dash"},
            "hovertemplate": "r = %{x}<br>bound %{y:.1f}<extra></extra>",
            "xaxis": "x2",
            "yaxis": "y2",
        }
        modulus = {
            "type": "scatter",
            "mode": "lines",
            "name": "|Σᵢ hᵢ e^(i r θᵢ)| for one random q, k",
            "line": {"color": "#9467bd", "width": 1.8, "dash": "dot"},
            "hovertemplate": "r = %{x}<br>%{y:.2f}<extra></extra>",
            "xaxis": "x2",
            "yaxis": "y2",
        }
        score = {
            "type": "scatter",
            "mode": "lines",
            "name": "|score(r)| for the same q, k",
            "line": {"color": SCORE_COLOR, "width": 1.5},
            "hovertemplate": "r = %{x}<br>|score| %{y:.3f}<extra></extra>",
            "xaxis": "x2",
            "yaxis": "y2",
        }
        layout = {
            "height": 980,
            "margin": {"l": 80, "r": 25, "t": 50, "b": 60},
            "font": {"size": 15},
            "showlegend": True,
            "legend": {"orientation": "h", "x": 0.0, "y": -0.09},
            "xaxis": {
                "domain": [0.0, 1.0],
                "title": {"text": "relative distance r = m − n (tokens)"},
                "anchor": "y",
            },
            "yaxis": {
                "domain": [0.58, 0.99],
                "title": {"text": "relative bound B(r)"},
                "rangemode": "tozero",
                "anchor": "x",
            },
            "xaxis2": {
                "domain": [0.0, 1.0],
                "title": {"text": "relative distance r = m − n (tokens)"},
                "anchor": "y2",
            },
            "yaxis2": {
                "domain": [0.0, 0.42],
                "type": "log",
                "title": {"text": "size of the score (q·k units)"},
                "exponentformat": "power",
                "dtick": 1,
                "anchor": "x2",
            },
            "annotations": [
                _panel_title("B(r) = (1/(d/2)) Σⱼ |Sⱼ(r)|, RoFormer's Figure 2 (content-free)", 1.035),
                _panel_title(
                    "the bound for one random q, k, and what the score really is (log scale)", 0.465
                ),
            ],
        }
        return {"data": [bound, rises, abel, modulus, score], "layout": layout}

    def view(self, *, base: float, dim: float) -> View:
        """Curves for frequencies ``base ** (-2i/d)`` over distances 0 .. 256."""
        dim = int(dim)
        r = SHORT_RANGE
        frequencies = inv_freq(dim, base)
        bound = relative_bound(r, frequencies)  # (257,)
        tops = local_maxima(bound)
        q, k = random_query_key(dim)
        absolute = abel_bound(q, k, r, base=base)
        modulus = complex_score_magnitude(q, k, r, base=base)
        score = np.abs(relative_scores(q, k, r, base=base))
        # Rounded down, so that "at least" holds.
        slack = math.floor(float((absolute / modulus).min()))
        first = f"the first one peaks at r = {int(r[tops[0]])}" if tops.size else "none"
        readout = (
            f"d = {dim}, b = {base:,.0f}: B(0) = (d/2 + 1)/2 = {bound[0]:.1f}, B(256) = {bound[-1]:.2f}; "
            f"B rises again {tops.size} times within 256 tokens ({first}), so it is not monotone. "
            f"For the random q, k the bound is at least {slack:,} times |Σ hᵢ e^(i r θᵢ)|, "
            "itself ≥ |score|."
        )
        # |score| touches 0 where the score changes sign: those points have no place on a log axis.
        score_plot = [value if value > 1e-3 else None for value in significant(score, 4)]
        return View(
            traces=[
                {"x": r.tolist(), "y": significant(bound)},
                {"x": r[tops].tolist(), "y": significant(bound[tops])},
                {"x": r.tolist(), "y": significant(absolute, 4)},
                {"x": r.tolist(), "y": significant(modulus, 4)},
                {"x": r.tolist(), "y": score_plot},
            ],
            # Explicit ranges: the site moves scatter traces without re-running autorange.
            layout={
                "xaxis.range": [0, 256],
                "xaxis2.range": [0, 256],
                "yaxis.range": [0, 1.05 * (dim // 2 + 1) / 2],
                "yaxis2.range": [-2.0, float(np.log10(absolute.max())) + 0.3],
            },
            readout=readout,
        )


class ScoreVsDistance(Demo):
    """Mean and spread of the score against distance for aligned and independent random q, k."""

    narrowest_plot_width = 560
    title = "The score against distance for random queries and keys, and what the base changes"
    controls = (
        Control("base", "base b", BASES, 10_000, 100, 1_000_000, log=True),
        Control("dim", "head size d", SITE_DIMS, 128, 16, 256, integer=True, choices=LIVE_DIMS),
    )
    scenes = (
        Scene(
            "base 10,000",
            "For k = q the mean score decays with distance, while independent vectors keep mean 0 and the "
            "same spread at every distance.",
            {},
        ),
        Scene(
            "llama 3's base",
            "Raising the base to 500,000 stretches the decay: the mean for k = q halves several times "
            "farther away.",
            {"base": 500_000},
        ),
        Scene(
            "a small base",
            "At base 100 the mean for k = q halves within a few tokens, and even the slowest pair turns "
            "within a thousand.",
            {"base": 100},
        ),
    )

    def base_figure(self) -> dict:
        """Score statistics on a log distance axis on top; the pairs' wavelengths below."""

        def line(name: str, color: str, dash: str = "solid", width: float = 2.5, axis: str = "") -> dict:
            return {
                "type": "scatter",
                "mode": "lines",
                "name": name,
                "line": {"color": color, "dash": dash, "width": width},
                "xaxis": "x" + axis,
                "yaxis": "y" + axis,
            }

        def band(name: str, color: str) -> dict:
            return {
                "type": "scatter",
                "mode": "lines",
                "name": name,
                "fill": "toself",
                "fillcolor": color,
                "line": {"width": 0},
                "hoverinfo": "skip",
                "xaxis": "x",
                "yaxis": "y",
            }

        traces = [
            band("q, k independent: mean ± 1 std", "rgba(127,127,127,0.25)"),
            band("k = q: mean ± 1 std", "rgba(44,160,44,0.25)"),
            line("k = q: one random q", SAMPLE_COLOR, width=1.2),
            line("k = q: mean 2 Σᵢ cos(r θᵢ)", ALIGNED_COLOR),
            line("k = q: mean at b = 10,000", "#555555", dash="dash", width=2),
            line("wavelength λᵢ at this base", "#1f77b4", width=2.5, axis="2"),
            line("wavelength λᵢ at b = 10,000", "#555555", dash="dash", width=2, axis="2"),
        ]
        traces[2]["hovertemplate"] = "r = %{x:,}<br>score %{y:.2f}<extra></extra>"
        traces[3]["hovertemplate"] = "r = %{x:,}<br>mean %{y:.2f}<extra></extra>"
        traces[4]["hovertemplate"] = "r = %{x:,}<br>mean at b = 10⁴: %{y:.2f}<extra></extra>"
        traces[5]["mode"] = traces[6]["mode"] = "lines+markers"
        traces[5]["marker"] = {"size": 5}
        traces[6]["marker"] = {"size": 4}
        for trace in traces[5:]:
            trace["hovertemplate"] = "pair %{x}<br>λ = %{y:,.0f} tokens<extra></extra>"
        layout = {
            "height": 980,
            "margin": {"l": 80, "r": 25, "t": 50, "b": 60},
            "font": {"size": 15},
            "showlegend": True,
            "legend": {"orientation": "h", "x": 0.0, "y": -0.09},
            "xaxis": {
                "domain": [0.0, 1.0],
                "type": "log",
                "title": {"text": "relative distance r (tokens, log scale)"},
                "exponentformat": "power",
                "dtick": 1,
                "range": [0, 5],
                "anchor": "y",
            },
            "yaxis": {"domain": [0.52, 0.99], "title": {"text": "score q·k"}, "anchor": "x"},
            "xaxis2": {"domain": [0.0, 1.0], "title": {"text": "pair index i"}, "anchor": "y2"},
            "yaxis2": {
                "domain": [0.0, 0.31],
                "type": "log",
                "title": {"text": "wavelength λᵢ (tokens)"},
                "exponentformat": "power",
                "dtick": 2,
                "anchor": "x2",
            },
            "annotations": [
                _panel_title(
                    "score of random q, k ~ N(0, I) at distance r: aligned (k = q) or independent", 1.035
                ),
                _panel_title("tokens per full turn of each pair: a larger base slows the slow pairs", 0.355),
            ],
        }
        return {"data": traces, "layout": layout}

    def view(self, *, base: float, dim: float) -> View:
        """Statistics over distances 1 .. 100,000 and the wavelengths, for ``(base, dim)``."""
        dim = int(dim)
        r = LONG_RANGE
        aligned_mean, aligned_std = score_statistics(r, dim, base, correlation=1.0)
        independent_mean, independent_std = score_statistics(r, dim, base, correlation=0.0)
        reference_mean, _ = score_statistics(r, dim, REFERENCE_BASE, correlation=1.0)
        q, _ = random_query_key(dim)
        sample = relative_scores(q, q, r, base=base)
        pairs = np.arange(dim // 2)
        # at every whole distance, not on the log grid of the plot, which steps over narrow dips
        half_at = halving_distance(dim, base)
        reference_half_at = halving_distance(dim, REFERENCE_BASE)
        lam = wavelengths(dim, base)
        reference = wavelengths(dim, REFERENCE_BASE)
        shown = np.concatenate(
            [aligned_mean - aligned_std, aligned_mean + aligned_std, sample, -independent_std]
        )
        low, high = float(shown.min()), float(shown.max())
        # at the reference base itself the comparison would repeat the same numbers
        at_reference = base == REFERENCE_BASE
        reference_label = f"b = {REFERENCE_BASE:,.0f}"
        reference_half = "" if at_reference else f" ({reference_label}: {_halving(reference_half_at)})"
        reference_slowest = "" if at_reference else f" ({reference_label}: {reference[-1]:,.0f})"
        readout = (
            f"d = {dim}, b = {base:,.0f}: for k = q the mean score starts at d = {dim} and first falls below "
            f"half of it {_halving(half_at)}{reference_half}; "
            f"for independent q, k it is 0 with standard deviation √d = {independent_std[0]:.1f} at every "
            "distance. Slowest pair: "
            f"λ = {lam[-1]:,.0f} tokens{reference_slowest}."
        )
        return View(
            traces=[
                _band_update(r, independent_mean - independent_std, independent_mean + independent_std),
                _band_update(r, aligned_mean - aligned_std, aligned_mean + aligned_std),
                {"x": r.tolist(), "y": significant(sample, 4)},
                {"x": r.tolist(), "y": significant(aligned_mean, 4)},
                {"x": r.tolist(), "y": significant(reference_mean, 4)},
                {"x": pairs.tolist(), "y": significant(lam)},
                {"x": pairs.tolist(), "y": significant(reference)},
            ],
            # Explicit ranges: the site moves scatter traces without re-running autorange.
            layout={
                "yaxis.range": [1.05 * low, 1.05 * high],
                "xaxis2.range": [-1, dim // 2],
                "yaxis2.range": [
                    float(np.log10(lam[0])) - 0.2,
                    float(np.log10(max(lam[-1], reference[-1]))) + 0.3,
                ],
            },
            readout=readout,
        )


def _halving(value: int | None) -> str:
    return f"beyond r = {HALVING_LIMIT:,} tokens, if at all" if value is None else f"at r = {value:,} tokens"


def _band_update(x: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> dict:
    """Return a filled band as one closed outline: along the upper edge, then back along the lower one."""
    return {
        "x": np.concatenate([x, x[::-1]]).tolist(),
        "y": significant(np.concatenate([upper, lower[::-1]]), 4),
    }


def _panel_title(text: str, y: float) -> dict:
    return {"text": text, "x": 0.5, "y": y, "xref": "paper", "yref": "paper", "showarrow": False}
