"""YaRN's attention temperature: with more keys in the softmax, the same logit gap buys less weight.

One query and ``N`` keys, the best key's logit a fixed gap above the ``N - 1`` others
(:mod:`rope_viz.temperature`). Upper panel: the best key's weight against ``N``, without a factor on the
logits and with YaRN's ``(0.1 ln s + 1)^2``; lower panel: the entropy of the attention weights. The training
length is Llama 2's, ``L = 4,096``, so a query at the end of a training sequence shares its softmax with ``L``
keys, and one at the end of an extended sequence with ``s L``.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.extension_style import FONT_SIZE, PLAIN, YARN, panel_title, reference_line, significant
from rope_viz.temperature import attention_entropy, best_key_weight, restoring_factor, yarn_logit_factor

TRAINED_KEYS = 4096
FACTORS = (1, 2, 4, 8, 16, 32, 64)
GAPS = (2, 3, 4, 5, 6, 8, 10, 12)
#: Numbers of keys drawn, from 16 to 128 L, evenly on a log scale, with L itself among them.
KEYS = np.union1d(np.geomspace(16, 128 * TRAINED_KEYS, 91).round(), [TRAINED_KEYS])
KEY_RANGE = [float(np.log10(KEYS[0])) - 0.05, float(np.log10(KEYS[-1]))]
#: The weight axis (log scale) and the entropy axis, fixed for every setting.
WEIGHT_RANGE = [-6.0, 0.15]
ENTROPY_RANGE = [0.0, 13.8]
CLEAR = "rgba(0,0,0,0)"


def percent(weight: float) -> str:
    """Return a weight as a percentage with three significant digits: ``"42.1 %"``, ``"0.00141 %"``."""
    return f"{100 * weight:.3g} %"


class YarnTemperature(Demo):
    """The best key's weight and the attention's entropy against the number of keys, with and without YaRN."""

    narrowest_plot_width = 560
    title = "YaRN's temperature: more keys in the softmax, less weight for the same logit gap"
    controls = (
        Control("factor", "scale factor s", FACTORS, 16, 1, 128, log=True),
        Control("gap", "logit gap of the best key", GAPS, 5, 0.5, 16),
    )
    scenes = (
        Scene(
            "a gap of 5",
            "Among sixteen times as many keys the best key keeps only a small part of its weight, and "
            "YaRN's factor more than restores it.",
            {},
        ),
        Scene(
            "a small gap",
            "At a gap of 2 YaRN's factor gives back only part of the weight the best key lost.",
            {"gap": 2},
        ),
        Scene(
            "a large gap",
            "At a gap of 12 YaRN's factor gives the best key almost all the attention, more than it had "
            "among L keys.",
            {"gap": 12},
        ),
        Scene(
            "no extension",
            "With s = 1 there are no extra keys and YaRN's factor is 1, so nothing changes.",
            {"factor": 1},
        ),
    )

    def base_figure(self) -> dict:
        """Weight on the best key (log scale) above, entropy of the attention below, both against ``N``."""

        def curve(name: str, group: str, color: str, axes: tuple[str, str], hover: str, legend: bool) -> dict:
            return {
                "type": "scatter",
                "mode": "lines",
                "name": name,
                "legendgroup": group,
                "showlegend": legend,
                "line": {"color": color, "width": 3},
                "hovertemplate": "N = %{x:,.0f} keys<br>" + hover + "<extra>" + name + "</extra>",
                "xaxis": axes[0],
                "yaxis": axes[1],
            }

        def markers(axes: tuple[str, str], hover: str) -> dict:
            return {
                "type": "scatter",
                "mode": "markers",
                "name": "at N = s·L",
                "marker": {"color": [PLAIN, YARN], "size": 12, "symbol": ["circle", "diamond"]},
                "hovertemplate": "N = s·L = %{x:,.0f} keys<br>" + hover + "<extra></extra>",
                "showlegend": False,
                "xaxis": axes[0],
                "yaxis": axes[1],
            }

        plain, yarn = "without a factor", "with YaRN's (0.1·ln s + 1)² on the logits"
        upper, lower = ("x", "y"), ("x2", "y2")
        weight, entropy = "weight %{y:.3g}", "entropy %{y:.3g} nats"
        uniform = curve("all keys equal: ln N", "uniform", PLAIN, lower, entropy, True)
        uniform["line"] = {"color": PLAIN, "width": 1.5, "dash": "dot"}
        uniform["legend"] = "legend2"
        layout = {
            "height": 900,
            "margin": {"l": 80, "r": 20, "t": 40, "b": 60},
            "font": {"size": FONT_SIZE},
            "legend": {"x": 0.01, "y": 0.6, "yanchor": "bottom", "bgcolor": CLEAR},
            "legend2": {"x": 0.01, "y": 0.37, "yanchor": "top", "bgcolor": CLEAR},
            "xaxis": {
                "domain": [0, 1],
                "anchor": "y",
                "type": "log",
                "range": KEY_RANGE,
                "title": {"text": "number of keys N in the softmax (log scale)"},
                "exponentformat": "power",
                "dtick": 1,
            },
            "yaxis": {
                "domain": [0.58, 0.96],
                "type": "log",
                "range": WEIGHT_RANGE,
                "title": {"text": "weight on the best key"},
                "exponentformat": "power",
                "dtick": 1,
            },
            "xaxis2": {
                "domain": [0, 1],
                "anchor": "y2",
                "type": "log",
                "range": KEY_RANGE,
                "title": {"text": "number of keys N in the softmax (log scale)"},
                "exponentformat": "power",
                "dtick": 1,
            },
            "yaxis2": {"domain": [0.0, 0.38], "range": ENTROPY_RANGE, "title": {"text": "entropy (nats)"}},
            "annotations": [
                panel_title("softmax weight of the key whose logit stands the gap above all others", 0.97),
                panel_title("entropy of the attention weights", 0.395),
            ],
        }
        data = [
            curve(plain, "plain", PLAIN, upper, weight, True),
            curve(yarn, "yarn", YARN, upper, weight, True),
            reference_line("weight at N = L", "dash", axes=upper),
            reference_line("N = L", "dash", axes=upper),
            reference_line("N = s·L", "dot", axes=upper),
            markers(upper, weight),
            uniform,
            curve(plain, "plain", PLAIN, lower, entropy, False),
            curve(yarn, "yarn", YARN, lower, entropy, False),
            reference_line("N = L", "dash", axes=lower),
            reference_line("N = s·L", "dot", axes=lower),
            markers(lower, entropy),
        ]
        return {"data": data, "layout": layout}

    def view(self, *, factor: float, gap: float) -> View:
        """Both panels for YaRN at ``s = factor`` and a best key ``gap`` above the rest."""
        sharpening = yarn_logit_factor(factor)
        extended = factor * TRAINED_KEYS
        at = np.array([TRAINED_KEYS, extended])
        w_trained, w_plain = best_key_weight(at, gap)
        w_yarn = float(best_key_weight(extended, gap, sharpening))
        h_trained, h_plain = attention_entropy(at, gap)
        h_yarn = float(attention_entropy(extended, gap, sharpening))
        restore = float(restoring_factor(extended, TRAINED_KEYS, gap))
        readout = (
            f"s = {factor:.3g}, gap {gap:.3g}: the best key gets {percent(w_trained)} of the attention among "
            f"L = {TRAINED_KEYS:,} keys; among s·L = {extended:,.0f}, {percent(w_plain)} without a factor, "
            f"{percent(w_yarn)} with YaRN's logits × {sharpening:.3f} (× {restore:.3f} would keep "
            f"{percent(w_trained)}). Entropy {h_trained:.2f} → {h_plain:.2f} nats ({h_yarn:.2f} with YaRN's)."
        )
        keys = KEYS.tolist()
        # the vertical lines stop inside each panel, so that their labels stay in view
        top, bottom = 1.0, ENTROPY_RANGE[1] - 0.6
        bottom_weight = 10 ** (WEIGHT_RANGE[0] + 0.05)
        return View(
            traces=[
                {"x": keys, "y": significant(best_key_weight(KEYS, gap), 4)},
                {"x": keys, "y": significant(best_key_weight(KEYS, gap, sharpening), 4)},
                {
                    "x": [keys[0], keys[-1]],
                    "y": significant([w_trained, w_trained], 4),
                    "text": [f"weight at N = L: {percent(w_trained)}", ""],
                },
                {"x": [TRAINED_KEYS, TRAINED_KEYS], "y": [bottom_weight, top], "text": ["", "L"]},
                {"x": [extended, extended], "y": [bottom_weight, top], "text": ["s·L", ""]},
                {"x": [extended, extended], "y": significant([w_plain, w_yarn], 4)},
                {"x": keys, "y": significant(np.log(KEYS), 4)},
                {"x": keys, "y": significant(attention_entropy(KEYS, gap), 4)},
                {"x": keys, "y": significant(attention_entropy(KEYS, gap, sharpening), 4)},
                {"x": [TRAINED_KEYS, TRAINED_KEYS], "y": [0.05, bottom], "text": ["", "L"]},
                {"x": [extended, extended], "y": [0.05, bottom], "text": ["s·L", ""]},
                {"x": [extended, extended], "y": significant([h_plain, h_yarn], 4)},
            ],
            readout=readout,
        )
