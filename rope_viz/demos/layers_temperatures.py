"""Every attention temperature on one axis: the factor on the logits ``q . k`` against the query's position.

:func:`rope_viz.attention_temperatures.logit_multipliers` gives six methods with one real model's settings
each. YaRN, LongRoPE and DeepSeek-V3 scale cos and sin (and DeepSeek its softmax too) by a function of the
scale factor ``s``, the same at every position; Llama 4's NoPE layers, Mistral's ``llama_4_scaling_beta`` and
Qwen's log-n scale the queries by a function of the position. The switch gives the first three the ``s``
that a config sized to reach each position would have, ``s = max(1, (m + 1)/L)`` (``m`` the query's
position, 0-based), which puts all six on the
same footing: a factor that grows with the length of the context.
"""

from __future__ import annotations

import numpy as np

from rope_viz.attention_temperatures import LOGIT_MULTIPLIER_LABELS, logit_multipliers
from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.extension_style import (
    FONT_SIZE,
    LLAMA3,
    LONGROPE,
    NTK,
    PI,
    YARN,
    reference_line,
    significant,
)

#: A colour and a dash per method of :func:`logit_multipliers`: the constants solid, the query factors dashed.
METHOD_STYLE = {
    "yarn": (YARN, "solid"),
    "longrope": (LONGROPE, "solid"),
    "deepseek": (NTK, "solid"),
    "llama4": (LLAMA3, "dash"),
    "llama_4_scaling": (PI, "dash"),
    "qwen_logn": ("#8E6BD6", "dot"),
}
#: Short names for the readout.
SHORT_NAMES = {
    "yarn": "YaRN (Qwen2.5)",
    "longrope": "LongRoPE (Phi-3.5)",
    "deepseek": "DeepSeek-V3",
    "llama4": "Llama 4 NoPE layers",
    "llama_4_scaling": "Ministral 3",
    "qwen_logn": "Qwen-7B log-n",
}
MODES = ("as configured", "sized to m")
#: Positions of the site's slider: powers of two from 1,024 to 8,388,608 tokens, the Llama 4 steps among them.
SITE_POSITIONS = (1024.0, 4096.0, 8192.0, 16384.0, 32768.0, 131072.0, 524288.0, 2097152.0, 8388608.0)
#: Drawn positions: 1 to 10⁷ on a log scale, with both sides of the first steps of the two Llama 4 rules.
POSITIONS = np.unique(
    np.concatenate(
        [
            np.geomspace(1.0, 1e7, 481),
            [k * 8192.0 - offset for k in range(1, 5) for offset in (1.0, 2.0)],
            [k * 16384.0 - offset for k in range(1, 5) for offset in (0.0, 1.0)],
        ]
    )
)
POSITION_RANGE = [0.0, 7.0]
#: From this position on, the label of the line at ``m`` sits to its left: to its right it would run past
#: the plot's edge on a narrow screen.
LABEL_ON_THE_LEFT_FROM = 500_000.0


def logit_factor_table(sized_to_position: bool) -> dict[str, np.ndarray]:
    """Return every method's factor at :data:`POSITIONS` (:func:`logit_multipliers`): the curves."""
    return logit_multipliers(POSITIONS, sized_to_position=sized_to_position)


class TemperatureFamily(Demo):
    """The factor six methods put on the attention logits, against the query's position."""

    narrowest_plot_width = 560

    title = "Attention temperatures: the factor on the logits against the query's position"
    controls = (
        Control(
            "sized", "YaRN, LongRoPE, DeepSeek", (0, 1), 0, 0, 1, integer=True, choices=(0, 1), labels=MODES
        ),
        Control(
            "position",
            "query position m",
            SITE_POSITIONS,
            131072.0,
            1.0,
            1e7,
            unit="tokens",
            log=True,
            integer=True,
        ),
    )
    scenes = (
        Scene(
            "as configured",
            "As configured, the YaRN, LongRoPE and DeepSeek-V3 factors are flat, since each model runs with "
            "one scale at every position.",
            {},
        ),
        Scene(
            "a short input",
            "At position 1,024 the three factors that follow the position are still 1, while the flat ones "
            "already sharpen the logits.",
            {"position": 1024.0},
        ),
        Scene(
            "sized to m",
            "With the scale sized to each position, the first three factors grow with m instead of staying "
            "flat.",
            {"sized": 1},
        ),
        Scene(
            "far out",
            "At the right edge, with the scale sized to the position, DeepSeek-V3's factor is the largest "
            "of the six.",
            {"sized": 1, "position": 8388608.0},
        ),
    )

    def base_figure(self) -> dict:
        """One curve per method, a labelled vertical line at ``m`` and a marker on each curve there."""
        data = []
        for key, (color, dash) in METHOD_STYLE.items():
            name = LOGIT_MULTIPLIER_LABELS[key]
            data.append(
                {
                    "type": "scatter",
                    "mode": "lines",
                    "name": name,
                    "x": significant(POSITIONS, 7),
                    "line": {"color": color, "width": 2.5, "dash": dash},
                    "hovertemplate": "m = %{x:,.0f}<br>logits × %{y:.4f}<extra>" + name + "</extra>",
                }
            )
        data.append(reference_line("m", "dot", axes=("x", "y")))
        data.append(
            {
                "type": "scatter",
                "mode": "text",
                "name": "m, labelled on the left",
                "textposition": "top left",
                "cliponaxis": False,
                "hoverinfo": "skip",
                "showlegend": False,
            }
        )
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": "at m",
                "showlegend": False,
                "marker": {"color": [color for color, _ in METHOD_STYLE.values()], "size": 10},
                "hovertemplate": "m = %{x:,.0f}<br>logits × %{y:.4f}<extra></extra>",
            }
        )
        layout = {
            "height": 620,
            "margin": {"l": 80, "r": 20, "t": 30, "b": 60},
            "font": {"size": FONT_SIZE},
            "legend": {"x": 0.01, "y": 0.99, "yanchor": "top", "bgcolor": "rgba(0,0,0,0)"},
            "xaxis": {
                "type": "log",
                "range": POSITION_RANGE,
                "title": {"text": "query position m (tokens, log scale)"},
                "exponentformat": "power",
                "dtick": 1,
            },
            "yaxis": {"title": {"text": "factor on the logits q·k (×)"}, "zeroline": False},
        }
        return {"data": data, "layout": layout}

    def view(self, *, sized: float, position: float) -> View:
        """Show the six curves, as configured (``sized = 0``) or sized to each position (``1``), at ``m``."""
        sized_to_position = bool(round(sized))
        table = logit_factor_table(sized_to_position)
        at = {
            key: float(values[0])
            for key, values in logit_multipliers([position], sized_to_position=sized_to_position).items()
        }
        top = max(float(values.max()) for values in table.values())
        high = float(np.ceil(top * 10) / 10) + 0.1
        parts = ", ".join(f"{SHORT_NAMES[key]} {value:.3f}" for key, value in at.items())
        mode = "s = max(1, (m + 1)/L) for the first three" if sized_to_position else "each as its model runs"
        readout = f"At m = {position:,.0f} ({mode}), logits × {parts}."
        label = f"m = {position:,.0f}"
        on_the_left = position >= LABEL_ON_THE_LEFT_FROM
        return View(
            traces=[
                *({"y": significant(table[key], 5)} for key in METHOD_STYLE),
                {"x": [position, position], "y": [0.95, high], "text": ["", "" if on_the_left else label]},
                {"x": [position], "y": [high], "text": [label if on_the_left else ""]},
                {"x": [position] * len(at), "y": significant(list(at.values()), 5)},
            ],
            layout={"yaxis.range": [0.95, high]},
            readout=readout,
        )
