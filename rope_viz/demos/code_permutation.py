"""Meta's weights under Hugging Face's ``rotate_half``: the score against the offset, for each way of loading.

A small attention layer of two heads (:data:`HEADS`) of ``d = 32`` with weights in Meta's interleaved order,
and one token read as a query at position ``r`` and as a key at position 0. The grey dashed curve is the score
of head 0 as Meta's code computes it (interleaved pairs); the coloured curve is what ``rotate_half`` computes
from the weights as loaded: both ``W_q`` and ``W_k`` permuted by the conversion script's ``permute``
(:func:`rope_viz.permutation.interleaved_to_half_rows`), only one of them, neither, or both with the wrong
number of heads. The lower panel is their difference. Every setup rotates query and key with the same pairs,
so each score still depends on ``r`` alone; only the correct permutation gives the trained one.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.extension_style import FONT_SIZE, PLAIN, panel_title
from rope_viz.figures.rounding import significant
from rope_viz.permutation import attention_scores, interleaved_to_half_rows

HEADS = 2
HEAD_DIM = 32
MODEL_DIM = 48
OFFSETS = np.arange(0, 161)  # r = m - n, the query at r and the key at 0
BASES = (100, 1_000, 10_000, 500_000)

SETUPS = (
    "W_q and W_k permuted (the conversion)",
    "only W_q permuted",
    "only W_k permuted",
    "neither permuted",
    "both permuted as one head",
)
#: For each setup: the head counts ``permute`` is called with for W_q and W_k (None: not permuted).
PERMUTED_WITH = (
    (HEADS, HEADS),
    (HEADS, None),
    (None, HEADS),
    (None, None),
    (1, 1),
)
OFFSET_TITLE = "offset r = m − n (tokens)"
COLORS = ("#009E73", "#D55E00", "#CC79A7", "#2F8FD8", "#E69F00")


def _weights() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``W_q``, ``W_k`` (PyTorch layout, Meta's order) and the token; ``W_k`` close to ``W_q``.

    A key projection close to the query one makes a token attend strongly to itself and less to copies of
    itself further away, so the trained curve has the shape of a real head's score: high at ``r = 0``.
    """
    rng = np.random.default_rng(20230731)  # the date of transformers issue #25199
    weight_q = rng.standard_normal((HEADS * HEAD_DIM, MODEL_DIM)) / np.sqrt(MODEL_DIM)
    weight_k = weight_q + 0.35 * rng.standard_normal((HEADS * HEAD_DIM, MODEL_DIM)) / np.sqrt(MODEL_DIM)
    token = rng.standard_normal(MODEL_DIM)
    return weight_q, weight_k, token


WEIGHT_Q, WEIGHT_K, TOKEN = _weights()


def loaded(setup: int) -> tuple[np.ndarray, np.ndarray]:
    """Return the weights ``rotate_half`` runs with in ``setup`` (an index of :data:`SETUPS`)."""
    if setup not in range(len(SETUPS)):
        raise ValueError(f"setup must be an index of SETUPS (0 to {len(SETUPS) - 1}), got {setup!r}")
    q_heads, k_heads = PERMUTED_WITH[setup]
    weight_q = WEIGHT_Q if q_heads is None else interleaved_to_half_rows(WEIGHT_Q, q_heads)
    weight_k = WEIGHT_K if k_heads is None else interleaved_to_half_rows(WEIGHT_K, k_heads)
    return weight_q, weight_k


def scores_by_offset(weight_q: np.ndarray, weight_k: np.ndarray, base: float, convention: str) -> np.ndarray:
    """Head 0's score of the token as query at ``r`` and as key at 0, for every ``r`` of :data:`OFFSETS`."""
    tokens = np.broadcast_to(TOKEN, (OFFSETS.size, MODEL_DIM))
    scores = attention_scores(
        weight_q, weight_k, tokens, OFFSETS, n_heads=HEADS, base=base, convention=convention
    )
    return scores[0, :, 0]  # (offsets,): query at r, key at position 0


def reference_scores(base: float) -> np.ndarray:
    """Return the trained scores: Meta's weights with Meta's interleaved rotation."""
    return scores_by_offset(WEIGHT_Q, WEIGHT_K, base, "interleaved")


class WeightPermutation(Demo):
    """Score against offset: Meta's interleaved RoPE, and ``rotate_half`` on the weights as loaded."""

    narrowest_plot_width = 440
    title = "Meta's weights under rotate_half: which rows of W_q and W_k are permuted"
    controls = (
        Control(
            "setup",
            "weights loaded",
            tuple(range(len(SETUPS))),
            0,
            0,
            len(SETUPS) - 1,
            integer=True,
            choices=tuple(range(len(SETUPS))),
            labels=SETUPS,
        ),
        Control("base", "base b", BASES, 10_000, 100, 1_000_000, log=True),
    )
    scenes = (
        Scene(
            "the conversion",
            "With both matrices permuted, rotate_half computes exactly the trained score, and the "
            "difference is zero.",
            {},
        ),
        Scene(
            "neither permuted",
            "Without any permutation the score at offset 0 is still right, but it leaves the trained curve "
            "as soon as query and key are apart.",
            {"setup": 3},
        ),
        Scene(
            "only w_q permuted",
            "With only W_q permuted the score is wrong already at offset 0, before any rotation.",
            {"setup": 1},
        ),
        Scene(
            "the wrong head count",
            "Permuting as if the layer had one head mixes rows of its two heads, and the score is off even "
            "at offset 0.",
            {"setup": 4},
        ),
    )

    def base_figure(self) -> dict:
        """Upper panel: the two score curves; lower panel: their difference."""

        def curve(name: str, color: str, dash: str, axes: tuple[str, str], hover: str) -> dict:
            return {
                "type": "scatter",
                "mode": "lines",
                "name": name,
                "line": {"color": color, "width": 2.5 if dash == "solid" else 2, "dash": dash},
                "hovertemplate": "r = %{x}<br>" + hover + "<extra>" + name + "</extra>",
                "xaxis": axes[0],
                "yaxis": axes[1],
            }

        offsets_range = [float(OFFSETS[0]), float(OFFSETS[-1])]
        layout = {
            "height": 720,
            "margin": {"l": 80, "r": 20, "t": 40, "b": 60},
            "font": {"size": FONT_SIZE},
            "legend": {"orientation": "h", "x": 0.5, "y": 0.955, "xanchor": "center", "yanchor": "top"},
            "xaxis": {"anchor": "y", "range": offsets_range, "title": {"text": OFFSET_TITLE}},
            "yaxis": {"domain": [0.48, 0.9], "title": {"text": "score of head 0"}, "zeroline": True},
            "xaxis2": {"anchor": "y2", "range": offsets_range, "title": {"text": OFFSET_TITLE}},
            "yaxis2": {"domain": [0.0, 0.27], "title": {"text": "loaded − trained"}, "zeroline": True},
            "annotations": [
                panel_title("score of a token with itself, r tokens apart", 0.965),
                panel_title("difference from the trained score", 0.28),
            ],
        }  # fmt: skip
        data = [
            curve("trained: Meta's interleaved RoPE", PLAIN, "dash", ("x", "y"), "score %{y:.3f}"),
            curve("rotate_half on the loaded weights", COLORS[0], "solid", ("x", "y"), "score %{y:.3f}"),
            curve("difference", COLORS[0], "solid", ("x2", "y2"), "difference %{y:.3f}"),
        ]
        data[2]["showlegend"] = False
        return {"data": data, "layout": layout}

    def view(self, *, setup: float, base: float) -> View:
        """Return the trained curve, the loaded one for ``setup`` and their difference, at base ``base``."""
        setup = round(setup)
        trained = reference_scores(base)
        weight_q, weight_k = loaded(setup)
        scores = scores_by_offset(weight_q, weight_k, base, "half")
        difference = np.round(scores - trained, 9)  # float64 rounding (1e-14 here) shows as 0
        largest = float(np.abs(difference).max())
        share = largest / float(np.abs(trained).max())
        readout = (
            f"{SETUPS[setup]}, b = {base:,.0f}: score at r = 0 {scores[0]:.3f} (trained {trained[0]:.3f}); "
            f"largest difference over r = 0 to {OFFSETS[-1]} is {largest:.3g}, {100 * share:.3g} % of the "
            "largest trained score."
        )
        offsets = OFFSETS.tolist()
        color = COLORS[setup]
        return View(
            traces=[
                {"x": offsets, "y": significant(trained, 4)},
                {"x": offsets, "y": significant(scores, 4), "line.color": color},
                {"x": offsets, "y": significant(difference, 4), "line.color": color},
            ],
            readout=readout,
        )
