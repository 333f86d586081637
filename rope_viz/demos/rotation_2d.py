"""RoPE in two dimensions: a query and a key turned by their positions, and the dot product that results.

:class:`Rotation2D` draws ``R(m θ) q`` and ``R(n θ) k`` in the plane with the trail of positions each has
passed through, their dot product as a bar, and the map of that dot product over all ``(m, n)``: every
diagonal ``m - n = const`` has one colour, which is the relative-position property.

:class:`SignConvention` shows what happens when the query and the key are turned in opposite senses: each
consistent choice (both ``+`` or both ``-``) gives scores that depend on ``m - n`` only; mixing them makes the
score depend on ``m + n``.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.rotation import rotate
from rope_viz.scores import score, score_matrix

#: The query and key of the 2-D demos (content vectors; any fixed pair would do).
Q = np.array([1.0, 0.45])
K = np.array([0.15, 0.9])

POSITIONS = tuple(range(13))
THETAS = (0.1, 0.25, 0.5, 1.0)
#: The shift quoted in the readout of :class:`Rotation2D`: the score at ``(m + t, n + t)``.
SHOWN_SHIFT = 100

Q_COLOR = "#1f77b4"
K_COLOR = "#e8710a"
Q_TRAIL = "#6fa8dc"
K_TRAIL = "#f2a15f"
# Blue (negative) through grey to red (positive): visible on light and dark pages.
DIVERGING = [[0.0, "#08519c"], [0.3, "#4f9bd9"], [0.5, "#b8b8b8"], [0.7, "#f08a5d"], [1.0, "#a50f15"]]


def rotated(vector: np.ndarray, position: float, theta: float) -> np.ndarray:
    """Return ``R(position * theta) vector`` for a 2-D vector, with :func:`rope_viz.rotate` (one pair)."""
    return rotate(vector, position, inv_freq=[theta])


def trail(vector: np.ndarray, last: int, theta: float) -> np.ndarray:
    """Return ``R(j θ) vector`` for ``j = 0 .. last``, shape ``(last + 1, 2)``: one row per position."""
    steps = np.arange(last + 1, dtype=np.float64)
    return rotate(np.broadcast_to(vector, (steps.size, 2)), steps, inv_freq=[theta])


def arc(from_angle: float, to_angle: float, radius: float, points: int = 16) -> np.ndarray:
    """Points of the shorter arc from ``from_angle`` to ``to_angle`` (radians), shape ``(points, 2)``."""
    sweep = (to_angle - from_angle + np.pi) % (2 * np.pi) - np.pi  # in [-pi, pi)
    t = from_angle + np.linspace(0.0, sweep, points)
    return radius * np.column_stack([np.cos(t), np.sin(t)])


def _arrow(start: np.ndarray | list[float], tip: np.ndarray) -> dict:
    return {"x": [float(start[0]), round(float(tip[0]), 3)], "y": [float(start[1]), round(float(tip[1]), 3)]}


def _axis_title(text: str) -> dict:
    return {"text": text, "standoff": 6}


class Rotation2D(Demo):
    """A 2-D query at position m and key at position n, turned by mθ and nθ, and their dot product."""

    narrowest_plot_width = 600
    title = "RoPE in two dimensions: turn q by mθ and k by nθ, then take the dot product"
    controls = (
        Control("m", "query position m", POSITIONS, 5, 0, 12, unit="tokens", integer=True),
        Control("n", "key position n", POSITIONS, 2, 0, 12, unit="tokens", integer=True),
        Control("theta", "frequency θ", THETAS, 0.25, 0.01, 3.14, unit="rad/token"),
    )
    scenes = (
        Scene(
            "the start",
            "The query has turned by 5θ and the key by 2θ, and the bar is the dot product of the two arrows.",
            {},
        ),
        Scene(
            "move both on",
            "Both arrows turn one step further, so the angle between them and the bar stay as they were.",
            {"m": 6, "n": 3},
        ),
        Scene(
            "swap the positions",
            "Exchanging m and n flips the sign of the offset, and the score changes.",
            {"m": 2, "n": 5},
        ),
        Scene(
            "a faster pair",
            "A larger θ makes the diagonal stripes of the map narrower, since the score changes faster with "
            "m − n.",
            {"theta": 1.0},
        ),
    )

    def base_figure(self) -> dict:
        """Build the plane (top left), the dot-product bar (top right) and the score map (bottom)."""
        limit = 1.15 * max(np.linalg.norm(Q), np.linalg.norm(K))
        bound = float(np.linalg.norm(Q) * np.linalg.norm(K))
        plane = {"xaxis": "x", "yaxis": "y"}
        data = [
            {
                "type": "scatter",
                "mode": "markers+text",
                "name": "q at positions 0 … m",
                "textposition": "top center",
                "cliponaxis": False,  # the numbers by the points stay whole on a short plane
                # The numbers take the theme's text colour, each beside its point (in the vector's colour
                # they had 3.1:1 on white, or on the dark page, under the 4.5:1 that text needs).
                "textfont": {"size": 11},
                **plane,
                "marker": {"color": Q_TRAIL, "size": 7},
                "hovertemplate": "R(jθ) q<extra></extra>",
            },
            {
                "type": "scatter",
                "mode": "markers+text",
                "name": "k at positions 0 … n",
                "textposition": "bottom center",
                "cliponaxis": False,  # the numbers by the points stay whole on a short plane
                "textfont": {"size": 11},
                **plane,
                "marker": {"color": K_TRAIL, "size": 7},
                "hovertemplate": "R(jθ) k<extra></extra>",
            },
            {
                "type": "scatter",
                "mode": "lines",
                "name": "q, k before turning",
                **plane,
                "x": [0.0, float(Q[0]), None, 0.0, float(K[0])],
                "y": [0.0, float(Q[1]), None, 0.0, float(K[1])],
                "line": {"color": "rgba(128,128,128,0.8)", "dash": "dot", "width": 2},
                "hoverinfo": "skip",
            },
            {
                "type": "scatter",
                "mode": "lines",
                "name": "angle between them",
                **plane,
                "line": {"color": "#2ca02c", "width": 3},
                "hoverinfo": "skip",
            },
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": "R(mθ) q: query at m",
                **plane,
                "line": {"color": Q_COLOR, "width": 4},
                "marker": {
                    "symbol": ["circle", "arrow"],
                    "size": [1, 16],
                    "angleref": "previous",
                    "color": Q_COLOR,
                },
                "hovertemplate": "R(mθ) q = (%{x:.3f}, %{y:.3f})<extra></extra>",
            },
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": "R(nθ) k: key at n",
                **plane,
                "line": {"color": K_COLOR, "width": 4},
                "marker": {
                    "symbol": ["circle", "arrow"],
                    "size": [1, 16],
                    "angleref": "previous",
                    "color": K_COLOR,
                },
                "hovertemplate": "R(nθ) k = (%{x:.3f}, %{y:.3f})<extra></extra>",
            },
            {
                "type": "bar",
                "name": "dot product",
                "xaxis": "x2",
                "yaxis": "y2",
                "x": [0],
                "marker": {"color": "#2ca02c"},
                "width": [0.6],
                "showlegend": False,
                "hovertemplate": "%{y:.4f}<extra></extra>",
            },
            {
                "type": "heatmap",
                "name": "score map",
                "xaxis": "x3",
                "yaxis": "y3",
                "x": list(POSITIONS),
                "y": list(POSITIONS),
                "colorscale": DIVERGING,
                "zmin": -bound,
                "zmax": bound,
                "xgap": 1,
                "ygap": 1,
                "showlegend": False,
                "colorbar": {
                    "x": 0.88,
                    "xanchor": "left",
                    "y": 0.0,
                    "yanchor": "bottom",
                    "len": 0.36,
                    "thickness": 14,
                    "title": {"text": "score", "side": "right"},
                },
                "hovertemplate": "m = %{y}, n = %{x}<br>score %{z:.3f}<extra></extra>",
            },
            {
                "type": "scatter",
                "mode": "lines",
                "name": "same m − n",
                "xaxis": "x3",
                "yaxis": "y3",
                "line": {"color": "#2ca02c", "width": 3, "dash": "dash"},
                "hoverinfo": "skip",
                "showlegend": False,
            },
            {
                "type": "scatter",
                "mode": "markers",
                "name": "current (m, n)",
                "xaxis": "x3",
                "yaxis": "y3",
                "marker": {"symbol": "square-open", "size": 22, "color": "#2ca02c", "line": {"width": 4}},
                "hoverinfo": "skip",
                "showlegend": False,
            },
        ]
        layout = {
            "height": 1060,
            "margin": {"l": 70, "r": 30, "t": 40, "b": 60},
            "font": {"size": 15},
            "showlegend": True,
            "legend": {"orientation": "h", "x": 0.0, "y": 0.505, "yanchor": "top", "font": {"size": 13}},
            "xaxis": {
                "domain": [0.0, 0.72],
                "range": [-limit, limit],
                # Equal scales by narrowing a domain (see rope_viz.demos.clock_face.dial_axes).
                "constrain": "domain",
                "zeroline": True,
                "title": _axis_title("first coordinate (real part), no unit"),
            },
            "yaxis": {
                "domain": [0.56, 1.0],
                "range": [-limit, limit],
                "scaleanchor": "x",
                "constrain": "domain",
                "zeroline": True,
                # Whole units only: a plot laid out taller (a slide of 4:3) would add "−0.5" under its title.
                "dtick": 1,
                "title": _axis_title("second coordinate<br>(imag. part)"),
            },
            "xaxis2": {
                "domain": [0.84, 1.0],
                "anchor": "y2",
                "title": _axis_title("now"),
                "showticklabels": False,
            },
            "yaxis2": {
                "domain": [0.6, 0.97],
                "anchor": "x2",
                "range": [-bound, bound],
                "zeroline": True,
                "title": _axis_title("dot product (no unit)"),
            },
            "xaxis3": {
                "domain": [0.0, 0.86],
                "anchor": "y3",
                "dtick": 1,
                "range": [-0.5, 12.5],
                "title": _axis_title("key position n (tokens)"),
            },
            "yaxis3": {
                "domain": [0.0, 0.36],
                "anchor": "x3",
                "dtick": 2,
                "range": [-0.5, 12.5],
                "title": _axis_title("query position m (tokens)"),
            },
            "annotations": [
                _title("the plane: both vectors after turning", 0.36, 1.035),
                _title("score ⟨R(mθ)q, R(nθ)k⟩ for every (m, n) at this θ", 0.43, 0.395),
            ],
        }
        return {"data": data, "layout": layout}

    def view(self, *, m: float, n: float, theta: float) -> View:
        """Vectors at ``m`` and ``n``, their angle and dot product, and the score map for ``theta``."""
        m, n = round(m), round(n)
        q_m, k_n = rotated(Q, m, theta), rotated(K, n, theta)
        q_angle, k_angle = np.arctan2(q_m[1], q_m[0]), np.arctan2(k_n[1], k_n[0])
        angle_arc = arc(k_angle, q_angle, 0.35)
        dot = float(q_m @ k_n)
        grid = np.array(POSITIONS, dtype=np.float64)
        scores = score_matrix(Q, K, grid, grid, inv_freq=[theta])  # (m, n)
        offset = m - n
        first = max(0, offset)  # diagonal m' - n' = offset inside the grid
        diagonal_m = np.arange(first, min(12, 12 + offset) + 1)
        q_path, k_path = trail(Q, m, theta), trail(K, n, theta)
        between = np.degrees(abs((q_angle - k_angle + np.pi) % (2 * np.pi) - np.pi))
        shifted = score(Q, K, m + SHOWN_SHIFT, n + SHOWN_SHIFT, inv_freq=[theta])
        readout = (
            f"m = {m}, n = {n}, θ = {theta:g} rad/token: q has turned by mθ = {m * theta:.2f} rad and k by "
            f"nθ = {n * theta:.2f} rad; the angle between them is {between:.1f}° and ⟨R(mθ)q, R(nθ)k⟩ = "
            f"{dot:.4f}. Both moved on by {SHOWN_SHIFT} tokens, to ({m + SHOWN_SHIFT}, {n + SHOWN_SHIFT}): "
            f"{shifted:.4f}. Only m − n = {offset} matters."
        )
        return View(
            traces=[
                {
                    "x": q_path[:, 0].round(3).tolist(),
                    "y": q_path[:, 1].round(3).tolist(),
                    "text": [str(j) for j in range(m + 1)],
                },
                {
                    "x": k_path[:, 0].round(3).tolist(),
                    "y": k_path[:, 1].round(3).tolist(),
                    "text": [str(j) for j in range(n + 1)],
                },
                {},
                {"x": angle_arc[:, 0].round(3).tolist(), "y": angle_arc[:, 1].round(3).tolist()},
                _arrow([0.0, 0.0], q_m),
                _arrow([0.0, 0.0], k_n),
                {"y": [round(dot, 4)]},
                {"z": scores.round(3).tolist()},
                {"x": (diagonal_m - offset).tolist(), "y": diagonal_m.tolist()},
                {"x": [n], "y": [m]},
            ],
            readout=readout,
        )


class SignConvention(Demo):
    """Scores over (m, n) when q turns by ±mθ and k by ±nθ: consistent signs are relative, mixed are not."""

    narrowest_plot_width = 520
    title = "Sign conventions: turn q and k the same way, or the score stops being relative"
    grid = tuple(range(16))
    start = (4, 1)
    shifts = tuple(range(25))
    controls = (
        Control(
            "sign_q", "q turns by", (-1, 1), 1, -1, 1, integer=True, choices=(-1, 1), labels=("−mθ", "+mθ")
        ),
        Control(
            "sign_k", "k turns by", (-1, 1), 1, -1, 1, integer=True, choices=(-1, 1), labels=("−nθ", "+nθ")
        ),
        Control("theta", "frequency θ", (0.25, 0.5, 1.0), 0.5, 0.01, 3.14, unit="rad/token"),
    )
    scenes = (
        Scene(
            "both forward",
            "With q and k turning the same way the map is constant along every diagonal, and the green "
            "curve is flat.",
            {},
        ),
        Scene(
            "mixed signs",
            "Turning k backwards makes the colour constant along the anti-diagonals instead, and the green "
            "curve swings as the pair moves.",
            {"sign_k": -1},
        ),
        Scene(
            "both backward",
            "Turning both backwards gives a flat curve again, on the standard map mirrored across its main "
            "diagonal.",
            {"sign_q": -1, "sign_k": -1},
        ),
    )

    def scores(self, sign_q: int, sign_k: int, theta: float, m: np.ndarray, n: np.ndarray) -> np.ndarray:
        """``⟨R(σ_q m θ) q, R(σ_k n θ) k⟩`` for every pair of ``m`` (rows) and ``n`` (columns)."""
        return score_matrix(
            Q, K, sign_q * np.asarray(m, float), sign_k * np.asarray(n, float), inv_freq=[theta]
        )

    def base_figure(self) -> dict:
        """Score map over (m, n) on top; the score of one pair moved along by t below."""
        bound = float(np.linalg.norm(Q) * np.linalg.norm(K))
        data = [
            {
                "type": "heatmap",
                "name": "score map",
                "x": list(self.grid),
                "y": list(self.grid),
                "colorscale": DIVERGING,
                "zmin": -bound,
                "zmax": bound,
                "xgap": 1,
                "ygap": 1,
                "colorbar": {
                    "x": 0.88,
                    "xanchor": "left",
                    "y": 0.5,
                    "yanchor": "bottom",
                    "len": 0.5,
                    "thickness": 14,
                    "title": {"text": "score", "side": "right"},
                },
                "hovertemplate": "m = %{y}, n = %{x}<br>score %{z:.3f}<extra></extra>",
            },
            {
                "type": "scatter",
                "mode": "markers",
                "name": "the pair (4 + t, 1 + t)",
                "xaxis": "x",
                "yaxis": "y",
                "x": [self.start[1] + t for t in range(12)],
                "y": [self.start[0] + t for t in range(12)],
                "marker": {"symbol": "square-open", "size": 14, "color": "#2ca02c", "line": {"width": 2.5}},
                "hoverinfo": "skip",
                "showlegend": False,
            },
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": "standard: both +",
                "xaxis": "x2",
                "yaxis": "y2",
                "x": list(self.shifts),
                "line": {"color": "rgba(128,128,128,0.9)", "dash": "dash", "width": 2},
                "marker": {"size": 5},
            },
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": "this choice of signs",
                "xaxis": "x2",
                "yaxis": "y2",
                "x": list(self.shifts),
                "line": {"color": "#2ca02c", "width": 3},
                "marker": {"size": 7},
            },
        ]
        layout = {
            "height": 900,
            "margin": {"l": 70, "r": 30, "t": 40, "b": 60},
            "font": {"size": 15},
            "legend": {"orientation": "h", "x": 0.0, "y": 0.36, "yanchor": "bottom"},
            "xaxis": {
                "domain": [0.0, 0.86],
                "dtick": 1,
                "range": [-0.5, 15.5],
                "title": _axis_title("key position n (tokens)"),
            },
            "yaxis": {
                "domain": [0.5, 1.0],
                "dtick": 3,
                "range": [-0.5, 15.5],
                "title": _axis_title("query position m (tokens)"),
            },
            "xaxis2": {
                "domain": [0.0, 1.0],
                "anchor": "y2",
                "title": _axis_title("shift t of both positions (tokens)"),
            },
            "yaxis2": {
                "domain": [0.0, 0.33],
                "anchor": "x2",
                "range": [-1.05 * bound, 1.05 * bound],
                "title": _axis_title("score of (4 + t, 1 + t)"),
            },
            "annotations": [_title("score ⟨R(±mθ)q, R(±nθ)k⟩ for every (m, n)", 0.43, 1.035)],
        }
        return {"data": data, "layout": layout}

    def view(self, *, sign_q: float, sign_k: float, theta: float) -> View:
        """Return the score map and the shifted pair's score for the chosen signs."""
        sign_q, sign_k = (1 if sign_q >= 0 else -1), (1 if sign_k >= 0 else -1)
        grid = np.array(self.grid, dtype=np.float64)
        shifts = np.array(self.shifts, dtype=np.float64)
        m0, n0 = self.start
        chosen = [score(Q, K, sign_q * (m0 + t), sign_k * (n0 + t), inv_freq=[theta]) for t in shifts]
        standard = [score(Q, K, m0 + t, n0 + t, inv_freq=[theta]) for t in shifts]
        spread = max(chosen) - min(chosen)
        if sign_q == sign_k:
            verdict = "consistent: the score depends on m − n only (constant along every diagonal)"
        else:
            verdict = "mixed: the score depends on m + n (constant along anti-diagonals), not on m − n"

        def name(sign: int, symbol: str) -> str:
            return f"{'+' if sign > 0 else '−'}{symbol}θ"

        readout = (
            f"q turns by {name(sign_q, 'm')}, k by {name(sign_k, 'n')}, θ = {theta:g} rad/token: {verdict}. "
            f"Moving the pair {self.start} along by t = 0 … {int(shifts[-1])}, its score spans "
            f"{spread:.3f}, from its lowest to its highest."
        )
        return View(
            traces=[
                {"z": self.scores(sign_q, sign_k, theta, grid, grid).round(3).tolist()},
                {},
                {"y": np.round(standard, 4).tolist()},
                {"y": np.round(chosen, 4).tolist()},
            ],
            readout=readout,
        )


def _title(text: str, x: float, y: float) -> dict:
    return {
        "text": text,
        "x": x,
        "y": y,
        "xref": "paper",
        "yref": "paper",
        "showarrow": False,
        "xanchor": "center",
        "font": {"size": 15},
    }
