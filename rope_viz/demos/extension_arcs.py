"""Trained arcs: which pairs meet angles beyond the training length, and how far beyond.

Over a context of ``L`` tokens pair ``i`` turns ``L / lambda_i`` times. Fast pairs turn many times and have
seen every angle; slow pairs (``lambda_i > L``) have seen only the arc ``[0, L theta_i)``. At a target length
``L'`` the slow pairs turn further, onto angles the model never met in training.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.extension_style import (
    FONT_SIZE,
    TARGET,
    TRAINED,
    UNSEEN,
    band_shape,
    masked,
    pair_range,
    panel_title,
    significant,
)
from rope_viz.extension import first_partial_pair, turns, unseen_angles
from rope_viz.frequencies import inv_freq

DIM = 128
TRAINED_LENGTHS = (512, 1024, 2048, 4096, 8192, 16384, 32768)
TARGET_LENGTHS = (1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072)
BASES = (10_000, 100_000, 500_000, 1_000_000)


class TrainedArcs(Demo):
    """Turns per pair over the training and the target length, and the angles met only at the target."""

    narrowest_plot_width = 440
    title = "Trained arcs: which pairs meet new angles past the training length"
    controls = (
        Control("trained_length", "training length L", TRAINED_LENGTHS, 4096, 256, 131072, unit="tokens",
                log=True, integer=True),
        Control("target_length", "target length L′", TARGET_LENGTHS, 16384, 256, 1_048_576, unit="tokens",
                log=True, integer=True),
        Control("base", "base b", BASES, 10_000, 1_000, 10_000_000, log=True),
    )  # fmt: skip
    scenes = (
        Scene(
            "four times longer",
            "The shaded slow pairs turn less than once within L, and at four times that length they meet "
            "angles never seen in training.",
            {},
        ),
        Scene(
            "llama 3's base",
            "A base of 500,000 slows every pair but pair 0, so more pairs turn less than once within L.",
            {"base": 500_000},
        ),
        Scene(
            "a longer target",
            "A longer target sends the slowest pairs further past their trained arcs, while the faster "
            "shaded pairs already sweep the whole dial.",
            {"target_length": 65_536},
        ),
        Scene(
            "train longer",
            "With the training length equal to the target, no pair meets an angle it has not seen.",
            {"trained_length": 16_384},
        ),
    )

    def base_figure(self) -> dict:
        """Draw turns per pair (log scale) above, unseen angle per pair below, the partial pairs shaded."""
        trained = {
            "type": "scatter",
            "mode": "lines+markers",
            "name": "over the training length: L/λᵢ",
            "line": {"color": TRAINED, "width": 2},
            "marker": {"color": TRAINED, "size": 5},
            "hovertemplate": "pair %{x}<br>%{y:.3g} turns within L<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
        target = {
            "type": "scatter",
            "mode": "lines+markers",
            "name": "over the target length: L′/λᵢ",
            "line": {"color": TARGET, "width": 2},
            "marker": {"color": TARGET, "size": 5, "symbol": "diamond"},
            "hovertemplate": "pair %{x}<br>%{y:.3g} turns within L′<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
        one_turn = {
            "type": "scatter",
            "mode": "lines",
            "name": "one full turn",
            "line": {"color": "rgba(128,128,128,0.9)", "width": 1.5, "dash": "dash"},
            "hoverinfo": "skip",
            "xaxis": "x",
            "yaxis": "y",
        }
        unseen = {
            "type": "bar",
            "name": "angle met only past L",
            "marker": {"color": UNSEEN},
            "hovertemplate": "pair %{x}<br>%{y:.0f}° never seen in training<extra></extra>",
            "showlegend": False,
            "xaxis": "x2",
            "yaxis": "y2",
        }
        layout = {
            "height": 760,
            "margin": {"l": 80, "r": 20, "t": 40, "b": 60},
            "font": {"size": FONT_SIZE},
            "showlegend": True,
            "legend": {
                "x": 0.99,
                "xanchor": "right",
                "y": 0.95,
                "yanchor": "top",
                "bgcolor": "rgba(0,0,0,0)",
            },
            "bargap": 0.15,
            "xaxis": {"domain": [0, 1], "anchor": "y", "title": {"text": "pair index i"}, "zeroline": False},
            "yaxis": {
                "domain": [0.56, 0.95],
                "type": "log",
                "title": {"text": "full turns (log scale)"},
                "exponentformat": "power",
                "dtick": 1,
            },
            "xaxis2": {
                "domain": [0, 1],
                "anchor": "y2",
                "title": {"text": "pair index i"},
                "zeroline": False,
            },
            "yaxis2": {
                "domain": [0.0, 0.35],
                "range": [0, 360],
                "dtick": 90,
                "title": {"text": "new angle (degrees)"},
            },
            "shapes": [band_shape("x", "y", UNSEEN), band_shape("x2", "y2", UNSEEN)],
            "annotations": [
                panel_title("turns of each pair (shaded: less than one turn within L)", 0.965),
                panel_title("angle a pair meets past L that it never met in training", 0.37),
            ],
        }
        return {"data": [trained, target, one_turn, unseen], "layout": layout}

    def view(self, *, trained_length: float, target_length: float, base: float) -> View:
        """Show turns at ``L`` and ``L'`` and the unseen angle of every pair, for ``d = 128`` and ``base``."""
        theta = inv_freq(DIM, base)  # (d/2,)
        pairs = DIM // 2
        pair_index = np.arange(pairs)
        trained = turns(trained_length, theta)
        target = turns(target_length, theta)
        unseen = np.degrees(unseen_angles(trained_length, target_length, theta))
        partial = first_partial_pair(trained_length, theta)
        reaching = np.flatnonzero(unseen > 0)

        shade = [partial - 0.5, pairs - 0.5] if partial < pairs else [pairs - 0.5, pairs - 0.5]
        lows = min(trained.min(), target.min())
        highs = max(trained.max(), target.max())
        y_range = [np.log10(lows) - 0.3, np.log10(highs) + 0.3]

        length_text = (
            f"L = {trained_length:,.0f}, L′ = {target_length:,.0f} tokens, b = {base:,.0f}, d = {DIM}"
        )
        if partial == pairs:
            readout = f"{length_text}: every pair turns at least once within L, so no angle is new at L′."
        else:
            readout = (
                f"{length_text}: pairs 0–{partial - 1} turn at least once within L and have met every "
                f"angle; pairs {partial}–{pairs - 1} turn less than once."
            )
            if reaching.size:
                worst = int(reaching[np.argmax(unseen[reaching])])
                which = "" if reaching.size == pairs - partial else f" (pairs {pair_range(reaching)})"
                readout += (
                    f" At L′, {reaching.size} of them{which} meet angles never seen in training, up to "
                    f"{unseen[worst]:.0f}° past their trained arc (pair {worst})."
                )
            else:
                readout += " L′ ≤ L, so none of them meets a new angle."
        return View(
            traces=[
                {"x": pair_index.tolist(), "y": significant(trained)},
                {"x": pair_index.tolist(), "y": significant(target)},
                {"x": [-0.5, pairs - 0.5], "y": [1, 1]},
                {"x": pair_index.tolist(), "y": masked(unseen, unseen > 0, 4)},
            ],
            layout={
                "xaxis.range": [-0.5, pairs - 0.5],
                "xaxis2.range": [-0.5, pairs - 0.5],
                "yaxis.range": [float(round(value, 3)) for value in y_range],
                "shapes[0].x0": shade[0],
                "shapes[0].x1": shade[1],
                "shapes[1].x0": shade[0],
                "shapes[1].x1": shade[1],
            },
            readout=readout,
        )
