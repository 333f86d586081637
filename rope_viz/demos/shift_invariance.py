"""Shift invariance: the score grid of one query and one key placed at every pair of positions in a window.

Three schemes, one fixed content ``q``, ``k`` (the ``d = 8`` vectors of the worked example reproduced in the
chapter): RoPE rotates them by their positions; added sinusoidal embeddings add ``PE(m)`` to them; the
element-wise sin/cos product (a broken "RoPE" found in tutorials) multiplies them by ``[sin, cos]``. Moving
the window by a shift ``t`` leaves RoPE's grid unchanged and changes the other two. The lower panel plots
every cell of the grid against its offset ``m - n``: one value per offset (a curve) exactly when the score
depends on the offset alone.

:class:`SinusoidalTerms` splits the added-embedding score of the highlighted pair ``(10 + t, 4 + t)`` into its
four terms ``q . k + q . PE(n) + PE(m) . k + PE(m) . PE(n)``: the first and the last stay as ``t`` moves, the
two cross terms, which pair the content with one absolute position, do not.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.mistakes import sincos_product_score_matrix
from rope_viz.position_schemes import sinusoidal_embeddings
from rope_viz.scores import score_matrix
from rope_viz.shift_invariance import (
    additive_score_matrix,
    diagonal_spread,
    gaussian_vectors_from_python_random,
    offsets,
)

#: The schemes, in the order of the selector.
SCHEMES = ("RoPE (rotation)", "added sinusoidal PE", "element-wise sin/cos product")
SHORT_NAMES = ("RoPE", "added PE", "sin/cos product")
WINDOW = 24  # positions per side of the grid
HIGHLIGHT = (10, 4)  # (m, n) of the highlighted cell at shift 0, offset 6, as in the worked example
SHIFTS = (0, 1, 2, 3, 5, 10, 20, 50, 100, 200, 1000, 5000)
BASE = 10_000.0

# Blue (negative) - light grey - red (positive): readable on the light and the dark page.
DIVERGING = [
    [0.0, "#2166ac"],
    [0.25, "#67a9cf"],
    [0.5, "#e8e8e8"],
    [0.75, "#ef8a62"],
    [1.0, "#b2182b"],
]
HIGHLIGHT_COLOR = "#1a9e3f"


def scheme_scores(scheme: int, q: np.ndarray, k: np.ndarray, m: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Score grid ``G[a, b] = score(m_a, n_b)`` of ``q`` and ``k``: scheme ``0`` (RoPE), ``1`` or ``2``."""
    if scheme == 0:
        return score_matrix(q, k, m, n, base=BASE)
    if scheme == 1:
        return additive_score_matrix(q, k, m, n, base=BASE)
    if scheme == 2:
        return sincos_product_score_matrix(q, k, m, n, base=BASE)
    raise ValueError(f"scheme must be 0, 1 or 2, got {scheme}")


class ShiftInvariance(Demo):
    """Score grids of RoPE, added sinusoidal PE and the sin/cos product, under a shift of both positions."""

    narrowest_plot_width = 560
    title = "Shift both positions: which score grid stays the same?"
    controls = (
        Control("scheme", "scheme", (0, 1, 2), 0, 0, 2, integer=True, choices=(0, 1, 2), labels=SHORT_NAMES),
        Control("shift", "shift t of both positions", SHIFTS, 0, 0, 5000, unit="tokens", integer=True),
    )
    scenes = (
        Scene(
            "rope at shift 0",
            "Under RoPE every diagonal of the grid holds one colour, so the lower panel shows a single "
            "score per offset.",
            {},
        ),
        Scene(
            "rope shifted far",
            "Shifted by 5,000 tokens, RoPE's grid and its highlighted score are exactly those of shift 0.",
            {"shift": 5000},
        ),
        Scene(
            "added pe",
            "With sinusoidal vectors added to q and k, the cells of one offset scatter into a cloud.",
            {"scheme": 1},
        ),
        Scene(
            "added pe shifted",
            "Shifting the added-PE pair moves its highlighted score far from its value at shift 0.",
            {"scheme": 1, "shift": 5000},
        ),
        Scene(
            "sin/cos product",
            "The element-wise sin/cos product is not relative either: its highlighted score moves with the "
            "shift too.",
            {"scheme": 2, "shift": 5000},
        ),
    )

    def __init__(self) -> None:
        self.q, self.k = gaussian_vectors_from_python_random(seed=1, dim=8)
        window = np.arange(WINDOW, dtype=float)
        self.offsets = offsets(window, window)  # (N, N), the same at every shift
        # One colour range per scheme, wide enough for every precomputed shift, so colours compare across
        # shifts.
        self.ranges = [
            float(
                max(
                    np.abs(scheme_scores(scheme, self.q, self.k, window + s, window + s)).max()
                    for s in SHIFTS
                )
            )
            for scheme in range(3)
        ]

    def base_figure(self) -> dict:
        """Heatmap of the grid on top, every cell against its offset below."""
        heatmap = {
            "type": "heatmap",
            "name": "score",
            "colorscale": DIVERGING,
            "colorbar": {"title": {"text": "score"}, "y": 0.745, "len": 0.49, "thickness": 14},
            "hovertemplate": "query m = %{y}<br>key n = %{x}<br>score %{z:.4f}<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
        cell = {
            "type": "scatter",
            "mode": "markers",
            "name": "highlighted cell (offset m − n = 6)",
            "marker": {"symbol": "square-open", "size": 17, "color": HIGHLIGHT_COLOR, "line": {"width": 3}},
            "hovertemplate": "m = %{y}, n = %{x}<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
        cloud = {
            "type": "scatter",
            "mode": "markers",
            "name": "every cell of the grid",
            # opaque slate: 4:1 against the light page and the dark one (at 70 % it was under 3:1 on the dark)
            "marker": {"size": 5, "color": "#6b7fa3"},
            "hovertemplate": "offset %{x}<br>score %{y:.4f}<extra></extra>",
            "xaxis": "x2",
            "yaxis": "y2",
        }
        current = {
            "type": "scatter",
            "mode": "markers",
            "name": "highlighted cell now",
            "marker": {"size": 13, "color": HIGHLIGHT_COLOR, "symbol": "diamond"},
            "hovertemplate": "offset %{x}<br>score %{y:.6f}<extra></extra>",
            "xaxis": "x2",
            "yaxis": "y2",
            # Whole at the panel's top or bottom edge, where the highest score sits, on a short plot too (a
            # lecture slide).
            "cliponaxis": False,
        }
        at_zero = {
            "type": "scatter",
            "mode": "markers",
            "name": "the same cell at shift 0",
            "marker": {"size": 15, "color": "rgba(0,0,0,0)", "line": {"color": "#d62728", "width": 2.5}},
            "hovertemplate": "offset %{x}<br>score at shift 0: %{y:.6f}<extra></extra>",
            "xaxis": "x2",
            "yaxis": "y2",
            "cliponaxis": False,  # as the highlighted cell now
        }
        layout = {
            "height": 1000,
            "margin": {"l": 80, "r": 30, "t": 50, "b": 60},
            "font": {"size": 15},
            "showlegend": True,
            "legend": {"orientation": "h", "x": 0.0, "y": -0.08},
            "xaxis": {"domain": [0.0, 0.9], "title": {"text": "key position n (tokens)"}, "anchor": "y"},
            "yaxis": {
                "domain": [0.5, 0.99],
                "title": {"text": "query position m (tokens)"},
                "autorange": "reversed",
                "anchor": "x",
            },
            "xaxis2": {
                "domain": [0.0, 1.0],
                "title": {"text": "offset m − n (tokens)"},
                "anchor": "y2",
                "range": [-WINDOW, WINDOW],
                "zeroline": False,
            },
            "yaxis2": {"domain": [0.0, 0.34], "title": {"text": "score(m, n)"}, "anchor": "x2"},
            "annotations": [
                _panel_title("score of every (query position m, key position n) in the window", 1.035),
                _panel_title("the same scores against their offset: one value per offset?", 0.385),
            ],
        }
        return {"data": [heatmap, cell, cloud, current, at_zero], "layout": layout}

    def view(self, *, scheme: float, shift: float) -> View:
        """Show the window ``shift .. shift + 23`` on both axes, for ``scheme``."""
        scheme = round(scheme)
        s = round(shift)
        positions = np.arange(WINDOW, dtype=float) + s
        grid = scheme_scores(scheme, self.q, self.k, positions, positions)  # (N, N)
        m0, n0 = HIGHLIGHT
        now = float(grid[m0, n0])
        before = float(scheme_scores(scheme, self.q, self.k, np.array([m0]), np.array([n0]))[0, 0])
        spread = float(diagonal_spread(grid).max())
        limit = self.ranges[scheme]
        rounded = np.round(grid, 4)
        if scheme == 0:
            verdict = "the grid is Toeplitz: the score depends on m − n only"
        else:
            verdict = "the diagonals are not constant: the score depends on where the pair sits"
        readout = (
            f"{SCHEMES[scheme]}, shift {s:,}: score(m = {m0 + s:,}, n = {n0 + s:,}) = {now:.6f}; "
            f"at shift 0, score({m0}, {n0}) = {before:.6f}. Largest spread along one diagonal of the window: "
            f"{spread:.6f}, so {verdict}."
        )
        return View(
            traces=[
                {
                    "x": positions.tolist(),
                    "y": positions.tolist(),
                    "z": rounded.tolist(),
                    "zmin": -limit,
                    "zmax": limit,
                },
                {"x": [n0 + s], "y": [m0 + s]},
                {"x": self.offsets.ravel().tolist(), "y": rounded.ravel().tolist()},
                {"x": [m0 - n0], "y": [round(now, 6)]},
                {"x": [m0 - n0], "y": [round(before, 6)]},
            ],
            layout={"yaxis2.range": [-1.08 * limit, 1.08 * limit]},
            readout=readout,
        )


#: The four terms of the added-embedding score, in the order of the bars, and their sum.
TERMS = ("q·k", "q·pₙ", "pₘ·k", "pₘ·pₙ", "score")
TERM_LABELS = (
    "q·k<br>content<br>only",
    "q·pₙ<br>content ×<br>key position",
    "pₘ·k<br>query position<br>× content",
    "pₘ·pₙ<br>positions<br>only",
    "score<br>(the sum)",
)
TERM_COLORS = ("#7f7f7f", "#e8710a", "#e8710a", "#1f77b4", HIGHLIGHT_COLOR)


def sinusoidal_terms(q: np.ndarray, k: np.ndarray, m: float, n: float) -> np.ndarray:
    """Return the terms ``(q . k, q . p_n, p_m . k, p_m . p_n)`` of ``(q + p_m) . (k + p_n)``, shape ``(4,)``.

    ``p_m`` is the sinusoidal vector of position ``m`` (Vaswani et al., 2017), base 10,000.
    """
    p_m, p_n = sinusoidal_embeddings(np.array([m, n], dtype=np.float64), q.size, BASE)
    return np.array([q @ k, q @ p_n, p_m @ k, p_m @ p_n])


class SinusoidalTerms(Demo):
    """The four terms of the added-sinusoidal score of one pair at offset 6, as both positions shift."""

    narrowest_plot_width = 480
    title = "Added sinusoidal embeddings: which terms of the score move when both positions shift?"
    controls = (
        Control("shift", "shift t of both positions", SHIFTS, 0, 0, 5000, unit="tokens", integer=True),
    )
    scenes = (
        Scene(
            "no shift",
            "The added-PE score of the pair (10, 4) splits into a content term, two cross terms and a "
            "position term.",
            {},
        ),
        Scene(
            "shift by 100",
            "The content term and the position term stay on their marks, while the two cross terms move.",
            {"shift": 100},
        ),
        Scene(
            "far along",
            "Far along, the cross terms have moved the score by more than the whole content term.",
            {"shift": 5000},
        ),
    )

    def __init__(self) -> None:
        self.q, self.k = gaussian_vectors_from_python_random(seed=1, dim=8)
        m0, n0 = HIGHLIGHT
        self.start = self.values(0)
        # A fixed value axis for every shift of the live range, so that bars compare across shifts.
        shifts = np.arange(0, 5001, dtype=np.float64)
        p_m = sinusoidal_embeddings(m0 + shifts, self.q.size, BASE)  # (shifts, d)
        p_n = sinusoidal_embeddings(n0 + shifts, self.q.size, BASE)
        cross = np.concatenate([p_n @ self.q, p_m @ self.k])
        totals = additive_score_matrix(self.q, self.k, m0 + shifts, n0 + shifts, base=BASE).diagonal()
        extremes = np.concatenate([cross, totals, self.start])
        pad = 0.08 * float(np.ptp(extremes))
        self.range = [round(float(extremes.min()) - pad, 2), round(float(extremes.max()) + pad, 2)]

    def values(self, shift: float) -> np.ndarray:
        """Return the four terms and their sum for the pair ``(10 + shift, 4 + shift)``, shape ``(5,)``."""
        m0, n0 = HIGHLIGHT
        terms = sinusoidal_terms(self.q, self.k, m0 + shift, n0 + shift)
        return np.append(terms, terms.sum())

    def base_figure(self) -> dict:
        """One bar per term, and a mark at each bar's value at shift 0."""
        x = list(range(len(TERMS)))
        data = [
            {
                "type": "bar",
                "name": "at this shift",
                "showlegend": False,
                "x": x,
                "width": 0.6,
                "marker": {"color": list(TERM_COLORS)},
                "hovertemplate": "%{y:.4f}<extra></extra>",
            },
            {
                "type": "scatter",
                "mode": "markers",
                "name": "each term at shift 0",
                "x": x,
                "y": self.start.round(4).tolist(),
                "marker": {"symbol": "line-ew-open", "size": 46, "color": "#d62728", "line": {"width": 3}},
                "hovertemplate": "at shift 0: %{y:.4f}<extra></extra>",
            },
        ]
        layout = {
            "height": 560,
            "margin": {"l": 70, "r": 30, "t": 30, "b": 110},
            "font": {"size": 15},
            "showlegend": True,
            "legend": {"orientation": "h", "x": 0.0, "y": 1.02, "yanchor": "bottom"},
            "xaxis": {
                "tickmode": "array",
                "tickvals": x,
                "ticktext": list(TERM_LABELS),
                "tickangle": 0,
                "tickfont": {"size": 13},
                "range": [-0.5, len(TERMS) - 0.5],
                "title": {"text": "term of (q + pₘ)·(k + pₙ), pair (10 + t, 4 + t)"},
            },
            "yaxis": {"range": self.range, "zeroline": True, "title": {"text": "value (no unit)"}},
        }
        return {"data": data, "layout": layout}

    def view(self, *, shift: float) -> View:
        """Show the terms of the pair ``(10 + shift, 4 + shift)`` as bars."""
        s = round(shift)
        now = self.values(s)
        m0, n0 = HIGHLIGHT
        parts = ", ".join(f"{name} = {value:+.4f}" for name, value in zip(TERMS[:4], now[:4], strict=True))
        readout = (
            f"(m, n) = ({m0 + s:,}, {n0 + s:,}), offset {m0 - n0}: {parts}; score {now[4]:.4f} "
            f"(at shift 0: {self.start[4]:.4f})."
        )
        return View(traces=[{"y": now.round(4).tolist()}, {}], readout=readout)


def _panel_title(text: str, y: float) -> dict:
    return {"text": text, "x": 0.5, "y": y, "xref": "paper", "yref": "paper", "showarrow": False}
