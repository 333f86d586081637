"""Multi-speed clocks: the d/2 rotation pairs of a query at position m, drawn as the hands of one clock.

Pair ``i`` turns by ``m * theta_i`` with ``theta_i = base ** (-2i/d)``: the first pairs spin like a second
hand, the last ones barely move, like an hour hand. The lower panel shows each pair's wavelength (tokens per
full turn) against the current position, on one fixed log scale for every base and head size, so that raising
the base visibly steepens the line of wavelengths about pair 0.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.clock_face import dial_axes, dial_traces, xy
from rope_viz.figures.rounding import significant
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
BASES = (100, 1_000, 10_000, 100_000, 500_000, 1_000_000)
SITE_DIMS = (16, 32, 64, 128, 256)
LIVE_DIMS = tuple(range(16, 257, 16))

# Blue (fast) to red (slow); every stop stays visible on the light and the dark theme.
HAND_COLORSCALE = [[0.0, "#2b83ba"], [0.5, "#5aae61"], [1.0, "#d7301f"]]


def colors_on_scale(values: np.ndarray, colorscale: list, low: float, high: float) -> list[str]:
    """Return the colour of each value on ``colorscale`` over ``[low, high]``, as Plotly maps it.

    With ``t = (v - low) / (high - low)`` clipped to ``[0, 1]`` and the stops ``(t_k, c_k)`` around it, each
    channel is ``c_k + (t - t_k) / (t_{k+1} - t_k) * (c_{k+1} - c_k)``, rounded half up: linear in sRGB, as
    Plotly interpolates a colour scale. For a bar trace, whose numeric ``marker.color`` plotly.js 4.1 maps but
    also warns about, bar by bar, in the console.
    """
    stops = np.array([stop for stop, _ in colorscale], dtype=float)
    rgb = np.array([[int(color[k : k + 2], 16) for k in (1, 3, 5)] for _, color in colorscale], dtype=float)
    t = np.clip((np.asarray(values, dtype=float) - low) / (high - low), 0.0, 1.0)
    channels = [np.floor(np.interp(t, stops, rgb[:, k]) + 0.5).astype(int) for k in range(3)]
    return [f"rgb({r}, {g}, {b})" for r, g, b in zip(*channels, strict=True)]


def hand_angles_degrees(position: float, dim: int, base: float) -> np.ndarray:
    """Return each pair's hand angle on the clock face, ``(m * theta_i) mod 2 pi``, in degrees; ``(d/2,)``."""
    return np.degrees(np.mod(angles(position, inv_freq(dim, base)), 2.0 * np.pi))


def wavelength_axis_range(controls: tuple[Control, ...], margin: float = 0.15) -> list[float]:
    """Return the range of the wavelength panel, in decades: one range for every state of the controls.

    The range is ``[log10(low) - margin, log10(high) + margin]``. ``low`` is the smaller of
    ``lambda_0 = 2 pi`` (the same at every base and head size) and the smallest positive position the
    ``position`` control reaches (1 on a whole-number slider), so that the dashed position line shows from
    ``m = 1`` on. ``high`` is the larger of the largest position and the longest wavelength,
    ``2 pi b^((d - 2)/d)``, over the extremes of the ``base`` and ``dim`` controls (it grows with both). On
    this one range the line of wavelengths pivots about pair 0 when the base or the head size changes,
    instead of filling the panel anew.

    Parameters
    ----------
    controls : tuple of Control
        The demo's controls, among them ``"position"``, ``"base"`` and ``"dim"``.
    margin : float, default 0.15
        Padding on each side, in decades.

    Returns
    -------
    list of float
        ``[low, high]`` of the log axis (Plotly's range of a log axis is in decades), rounded to 3 decimals.

    """
    by_name = {control.name: control for control in controls}
    position, base, dim = by_name["position"], by_name["base"], by_name["dim"]
    if position.integer:
        smallest_position = 1.0
    else:
        smallest_position = min(value for value in (*position.site_values, position.maximum) if value > 0)
    longest = max(
        wavelengths(int(d), b)[-1] for d in (dim.minimum, dim.maximum) for b in (base.minimum, base.maximum)
    )
    low = np.log10(min(2.0 * np.pi, smallest_position))
    high = np.log10(max(longest, position.maximum))
    return [round(float(low) - margin, 3), round(float(high) + margin, 3)]


def hand_lengths(dim: int) -> np.ndarray:
    """Return each hand's drawing length: 1 for pair 0 down to 0.25 for the slowest, so none hides another."""
    pairs = dim // 2
    return 1.0 - 0.75 * np.arange(pairs) / max(pairs - 1, 1)


class MultiSpeedClocks(Demo):
    """The hands of a query's d/2 clocks at position m, and every pair's wavelength."""

    narrowest_plot_width = 520
    title = "Multi-speed clocks: the d/2 rotation pairs of one query"
    controls = (
        Control("position", "position m", POSITIONS, 6, 0, 32768, unit="tokens", integer=True),
        Control("base", "base b", BASES, 10_000, 100, 1_000_000, log=True),
        Control("dim", "head size d", SITE_DIMS, 64, 16, 256, integer=True, choices=LIVE_DIMS),
    )
    scenes = (
        Scene(
            "the first tokens",
            "At position 6 the fastest hand has nearly gone round once, while the slowest hands have hardly "
            "left 0°.",
            {},
        ),
        Scene(
            "move to 100",
            "At position 100 the blue hands have gone round many times, while the red hands are still close "
            "to 0°.",
            {"position": 100},
        ),
        Scene(
            "raise the base",
            "Raising the base leaves pair 0 where it was and slows every other hand, the slowest pairs most.",
            {"position": 100, "base": 1_000_000},
        ),
        Scene(
            "a larger head",
            "A larger head adds hands between almost the same two ends: the longest wavelength grows only a "
            "little.",
            {"position": 100, "dim": 128},
        ),
    )

    def base_figure(self) -> dict:
        """Return the clock face above and the wavelength of every pair (log scale) below."""
        hands = {
            "type": "scatter",
            "mode": "lines+markers",
            "name": "hand of pair i, at angle m·θᵢ",
            "line": {"width": 1.5, "color": "rgba(128,128,128,0.8)"},
            "marker": {"colorscale": HAND_COLORSCALE, "cmin": 0, "line": {"width": 0}},
            "hovertemplate": "pair %{customdata[0]}<br>θ = %{customdata[1]:.4g} rad/token<br>"
            "wavelength %{customdata[2]:,.1f} tokens<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
        wavelength_curve = {
            "type": "scatter",
            "mode": "lines+markers",
            "name": "wavelength λᵢ = 2π/θᵢ",
            "marker": {"colorscale": HAND_COLORSCALE, "cmin": 0, "size": 7},
            "line": {"color": "rgba(128,128,128,0.6)"},
            "hovertemplate": "pair %{x}<br>wavelength %{y:,.1f} tokens<extra></extra>",
            "xaxis": "x2",
            "yaxis": "y2",
        }
        position_line = {
            "type": "scatter",
            "mode": "lines",
            "name": "current position m",
            "line": {"color": "#d62728", "width": 2, "dash": "dash"},
            "hovertemplate": "position m = %{y:,} tokens<extra></extra>",
            "xaxis": "x2",
            "yaxis": "y2",
        }
        layout = {
            "height": 880,
            "margin": {"l": 70, "r": 20, "t": 50, "b": 70},
            "font": {"size": 15},
            "showlegend": True,
            "legend": {"orientation": "h", "x": 0.0, "y": -0.1},
            **dial_axes([0.0, 1.0], [0.46, 0.95]),
            "xaxis2": {
                "domain": [0.0, 1.0],
                "anchor": "y2",
                "title": {"text": "pair index i"},
                "zeroline": False,
            },
            "yaxis2": {
                "anchor": "x2",
                "domain": [0.0, 0.34],
                "type": "log",
                # One range for every base and head size: the line of wavelengths moves, not the axis.
                "range": wavelength_axis_range(self.controls),
                "title": {"text": "wavelength λᵢ (tokens)"},
                "exponentformat": "power",
                "dtick": 1,
            },
            "annotations": [
                _panel_title("clock hands at position m: pair i has turned by m·θᵢ", 1.04),
                _panel_title("tokens per full turn of each pair (log scale)", 0.385),
            ],
        }
        return {"data": [*dial_traces(), hands, wavelength_curve, position_line], "layout": layout}

    def view(self, *, position: float, base: float, dim: int) -> View:
        """Return the hands at ``position`` for the frequencies of ``(dim, base)``, and the wavelengths."""
        dim = int(dim)
        pairs = dim // 2
        pair_index = np.arange(pairs)
        theta = inv_freq(dim, base)  # (d/2,)
        tokens_per_turn = wavelengths(dim, base)  # (d/2,)
        tip_x, tip_y = xy(hand_lengths(dim), hand_angles_degrees(position, dim, base))

        # Each hand is drawn from the centre out and back: (0, 0), tip_0, (0, 0), tip_1, ...
        hand_x = [coordinate for tip in tip_x for coordinate in (0, tip)]
        hand_y = [coordinate for tip in tip_y for coordinate in (0, tip)]
        hover = np.column_stack([pair_index, significant(theta, 4), np.round(tokens_per_turn, 1)])

        line_y = [position, position] if position >= 1 else [None, None]
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
                {},
                {},
                {
                    "x": hand_x,
                    "y": hand_y,
                    "marker.size": np.tile([0, 11], pairs).tolist(),
                    "marker.color": np.repeat(pair_index, 2).tolist(),
                    "marker.cmax": pairs - 1,
                    "customdata": np.repeat(hover, 2, axis=0).tolist(),
                },
                {
                    "x": pair_index.tolist(),
                    "y": significant(tokens_per_turn, 5),
                    "marker.color": pair_index.tolist(),
                    "marker.cmax": pairs - 1,
                },
                {"x": [0, pairs - 1], "y": line_y},
            ],
            layout={"xaxis2.range": [-0.5, pairs - 0.5]},
            readout=readout,
        )


def _panel_title(text: str, y: float) -> dict:
    return {"text": text, "x": 0.5, "y": y, "xref": "paper", "yref": "paper", "showarrow": False}
