"""Every static context-extension method on the same axes: slow-down per pair, and score against distance.

For one head (``d = 128``), one base, one scale factor ``s`` and one training length ``L``: how many times
slower each pair turns under position interpolation, the NTK-aware base change, YaRN (as its authors'
reference code computes it, which transformers and vLLM copy, and with the ramp of the paper's eq. (18)) and
Llama 3.1's rule; and the score of a fixed query and key against their distance, attention factor included.
"""

from __future__ import annotations

from inspect import signature

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.extension_style import FONT_SIZE, LLAMA3, NTK, PI, PLAIN, YARN, panel_title, significant
from rope_viz.extension import compare_methods, unseen_angles, window_averaged_scores
from rope_viz.frequencies import inv_freq

DIM = 128
FACTORS = (2, 4, 8, 16, 32)
LENGTHS = (2048, 4096, 8192, 32768)
BASES = (10_000, 500_000)
DISTANCE_POINTS = 220
#: Each plotted score is the mean over distances within this fraction of the distance (the fast pairs'
#: wiggles average out; the trend set by the slow pairs stays).
WINDOW = 0.1

#: Llama 3's band edges as :func:`compare_methods` draws them (its defaults, Llama 3.1's values), in turns
#: within L: a pair that turns more than ``high_freq_factor`` times keeps its frequency, one that turns fewer
#: than ``low_freq_factor`` times is slowed the full s.
LLAMA3_EDGES = {
    name: signature(compare_methods).parameters[name].default
    for name in ("low_freq_factor", "high_freq_factor")
}

#: method key -> (label, colour, dash)
STYLE = {
    "linear": ("PI", PI, "solid"),
    "ntk": ("NTK-aware", NTK, "solid"),
    "yarn": ("YaRN reference code = transformers, vLLM", YARN, "solid"),
    "yarn_paper": ("YaRN paper, eq. (18)", YARN, "dot"),
    "llama3": (
        f"Llama 3 (low {LLAMA3_EDGES['low_freq_factor']:g}, high {LLAMA3_EDGES['high_freq_factor']:g})",
        LLAMA3,
        "solid",
    ),
}
#: The same query and key at every setting: unit vectors in every pair, so each pair contributes cos(r θᵢ′).
UNIT_PAIRS = np.tile([1.0, 0.0], DIM // 2)


def distances(length: float, factor: float, points: int = DISTANCE_POINTS) -> np.ndarray:
    """Whole-token distances from 1 to ``s L``, spaced evenly on a log scale (``(n,)``)."""
    return np.unique(np.round(np.geomspace(1.0, factor * length, points)))


class MethodComparison(Demo):
    """Slow-down per pair for every method, and the score of a fixed q and k against distance."""

    narrowest_plot_width = 600
    title = "Context-extension methods on the same axes"
    controls = (
        Control("factor", "scale factor s", FACTORS, 4, 1, 64, log=True),
        Control("length", "training length L", LENGTHS, 4096, 512, 131072, unit="tokens", log=True,
                integer=True),
        Control("base", "base b", BASES, 10_000, 1_000, 10_000_000, log=True),
    )  # fmt: skip
    scenes = (
        Scene(
            "four times longer",
            "At s = 4 every method slows the slowest pair four times, but only PI also slows pair 0.",
            {},
        ),
        Scene(
            "sixteen times longer",
            "At s = 16 PI slows every pair sixteen times, while the other methods still leave pair 0 at its "
            "trained speed.",
            {"factor": 16},
        ),
        Scene(
            "llama 3's base",
            "At base 500,000 more pairs turn less than once within L, and the NTK-aware change leaves "
            "almost all of them meeting new angles.",
            {"factor": 16, "base": 500_000},
        ),
        Scene(
            "a longer training",
            "Trained on 32,768 tokens, far fewer pairs meet new angles at sL, even without any change.",
            {"length": 32_768},
        ),
    )

    def base_figure(self) -> dict:
        """Slow-down per pair (log) above; score against distance (log distance) below."""
        data = []
        for name, (label, color, dash) in STYLE.items():
            data.append(
                {
                    "type": "scatter",
                    "mode": "lines",
                    "name": label,
                    "legendgroup": name,
                    "line": {"color": color, "width": 3, "dash": dash},
                    "hovertemplate": "pair %{x}<br>slowed %{y:.3g}×<extra>" + label + "</extra>",
                    "xaxis": "x",
                    "yaxis": "y",
                }
            )
        scores = {
            "plain": ("plain RoPE", PLAIN, "solid"),
            **{k: v for k, v in STYLE.items() if k != "yarn_paper"},
        }
        for name, (label, color, dash) in scores.items():
            data.append(
                {
                    "type": "scatter",
                    "mode": "lines",
                    "name": label,
                    "legendgroup": name,
                    "showlegend": name == "plain",
                    "line": {"color": color, "width": 2, "dash": dash},
                    "hovertemplate": "distance %{x:,} tokens<br>score %{y:.3g}<extra>" + label + "</extra>",
                    "xaxis": "x2",
                    "yaxis": "y2",
                }
            )
        data.append(
            {
                "type": "scatter",
                "mode": "lines",
                "name": "L and s·L",
                "line": {"color": "rgba(128,128,128,0.9)", "width": 1.5, "dash": "dash"},
                "hoverinfo": "skip",
                "showlegend": False,
                "xaxis": "x2",
                "yaxis": "y2",
            }
        )
        layout = {
            "height": 900,
            "margin": {"l": 80, "r": 20, "t": 40, "b": 60},
            "font": {"size": FONT_SIZE},
            "legend": {"orientation": "h", "x": 0.0, "y": 0.5, "yanchor": "top"},
            "xaxis": {"domain": [0, 1], "anchor": "y", "title": {"text": "pair index i"}, "zeroline": False},
            "yaxis": {
                "domain": [0.62, 0.96],
                "type": "log",
                "title": {"text": "slow-down θᵢ/θᵢ′ (×)"},
                "tickvals": [1, 2, 4, 8, 16, 32, 64],
            },
            "xaxis2": {
                "domain": [0, 1],
                "anchor": "y2",
                "type": "log",
                "title": {"text": "distance m − n (tokens, log scale)"},
                "exponentformat": "power",
                "dtick": 1,
            },
            "yaxis2": {"domain": [0.0, 0.36], "title": {"text": "mean score (q = k)"}},
            "annotations": [
                panel_title("how many times slower each pair turns", 0.97),
                panel_title("score of one q and k against distance (mean over ±10 %), a² included", 0.375),
                _line_label("L"),
                _line_label("s·L"),
            ],
        }
        return {"data": data, "layout": layout}

    def view(self, *, factor: float, length: float, base: float) -> View:
        """Every method at ``s = factor``, ``L = length`` and base ``base``, for ``d = 128``."""
        length = round(length)
        theta = inv_freq(DIM, base)
        methods = compare_methods(DIM, base, factor, length)
        pair_index = np.arange(DIM // 2).tolist()
        r = distances(length, factor)
        slowdowns = [{"x": pair_index, "y": significant(theta / methods[name][0])} for name in STYLE]
        score_updates = []
        for frequencies, attention in [(theta, 1.0)] + [
            methods[name] for name in STYLE if name != "yarn_paper"
        ]:
            values = window_averaged_scores(
                UNIT_PAIRS,
                UNIT_PAIRS,
                r,
                half_width=WINDOW * r,
                inv_freq=frequencies,
                attention_factor=attention,
            )
            score_updates.append({"x": r.tolist(), "y": significant(values, 4)})
        target = factor * length
        unseen = {
            name: int(np.count_nonzero(unseen_angles(length, target, theta, methods[name][0]) > 0))
            for name in STYLE
        }
        plain_unseen = int(np.count_nonzero(unseen_angles(length, target, theta) > 0))
        yarn_attention = methods["yarn"][1]
        readout = (
            f"s = {factor:.3g}, L = {length:,}, b = {base:,.0f}: at s·L = {target:,.0f} tokens, "
            f"plain RoPE sends "
            f"{plain_unseen} pairs onto angles never seen in training; NTK-aware {unseen['ntk']}, PI "
            f"{unseen['linear']}, YaRN {unseen['yarn']}, Llama 3 {unseen['llama3']}. "
            f"YaRN multiplies the logits by {yarn_attention**2:.3f}; the others by 1."
        )
        top = max(factor, 2.0)
        lowest = min(min(update["y"]) for update in score_updates)
        highest = max(max(update["y"]) for update in score_updates)
        margin = 0.06 * (highest - lowest)
        y_range = [float(f"{lowest - margin:.4g}"), float(f"{highest + 3 * margin:.4g}")]
        return View(
            traces=[
                *slowdowns,
                *score_updates,
                {
                    "x": [length, length, None, target, target],
                    "y": [y_range[0], highest + margin, None, y_range[0], highest + margin],
                },
            ],
            layout={
                # annotations on a log axis take the logarithm of the position
                "annotations[2].x": float(np.log10(length)),
                "annotations[3].x": float(np.log10(target)),
                "xaxis.range": [-1, DIM // 2],
                "yaxis.range": [-0.05, float(np.log10(top)) + 0.1],
                "xaxis2.range": [0, float(np.log10(target)) + 0.05],
                "yaxis2.range": y_range,
            },
            readout=readout,
        )


def _line_label(text: str) -> dict:
    """Label a vertical line at the top of the lower panel; the view sets ``x`` (log10 of tokens)."""
    return {
        "text": text,
        "xref": "x2",
        "yref": "y2 domain",
        "x": 0,
        "y": 1.0,
        "xanchor": "right",
        "yanchor": "top",
        "showarrow": False,
        "font": {"size": FONT_SIZE - 1},
    }
