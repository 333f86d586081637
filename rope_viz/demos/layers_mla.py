"""DeepSeek's decoupled RoPE: the score of one query and one key, split into its content and rotated parts.

In multi-head latent attention (DeepSeek-V2, arXiv:2405.04434, sec. 2.1.3) the score of a query at ``m`` and a
key at ``n`` is ``q_C . k_C + q_R . k_R`` (:func:`rope_viz.mla.mla_score`): the content part is never rotated,
so it is the same at every distance, and only the rotated slice of ``qk_rope_head_dim`` dimensions carries
position. The figure moves one key token along the distances ``r = m - n`` from 0 to :data:`MAX_DISTANCE`,
for small random weights (:func:`rope_viz.mla.random_mla_weights`) whose rotated slices are cut to the chosen
width, so that the content part is the same for every width.
"""

from __future__ import annotations

import functools

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.extension_style import FONT_SIZE, LONGROPE, NTK, PLAIN, significant
from rope_viz.mla import MLAWeights, mla_score, random_mla_weights

ROPE_DIMS = (8, 16, 32, 64)
KEYS = ("token A", "token B", "token C")
MAX_DISTANCE = 256
DISTANCES = np.arange(MAX_DISTANCE + 1)
QUERY_POSITION = float(MAX_DISTANCE)
NOPE_DIM = 32
HIDDEN_SIZE = 64
LATENT_DIM = 32
#: The score axis, fixed: wide enough for every width and key token.
SCORE_RANGE = (-21.0, 15.0)


def cut_weights(rope_dim: int, *, seed: int = 0) -> MLAWeights:
    """One head of random MLA weights with rotated slices of ``rope_dim`` dimensions (at most 64).

    The weights are drawn once with 64 rotated dimensions and the rotated query and key projections cut to
    their first ``rope_dim`` rows, so that the content projections do not depend on ``rope_dim``.
    """
    if rope_dim not in ROPE_DIMS:
        raise ValueError(f"rope_dim must be one of {ROPE_DIMS}, got {rope_dim!r}")
    full = random_mla_weights(
        hidden_size=HIDDEN_SIZE,
        latent_dim=LATENT_DIM,
        heads=1,
        nope_dim=NOPE_DIM,
        rope_dim=max(ROPE_DIMS),
        seed=seed,
    )
    return MLAWeights(
        query_content=full.query_content,
        query_rope=full.query_rope[:, :rope_dim],
        latent_down=full.latent_down,
        key_up=full.key_up,
        key_rope=full.key_rope[:rope_dim],
    )


def score_parts(rope_dim: int, key: int) -> dict[str, np.ndarray]:
    """Return the content, rotated and total score at every distance of :data:`DISTANCES`.

    The query is row 0 of a fixed random draw of hidden states, at position :data:`QUERY_POSITION`; the key
    is row ``key + 1`` (token A, B or C of :data:`KEYS`), at position ``QUERY_POSITION - r``. The arrays are
    read-only: each of the figure's twelve settings is computed once (about 25 ms, a score per distance).
    """
    if key not in range(len(KEYS)):
        raise ValueError(f"key must be 0, 1 or 2, got {key!r}")
    if rope_dim not in ROPE_DIMS:
        raise ValueError(f"rope_dim must be one of {ROPE_DIMS}, got {rope_dim!r}")
    return dict(_score_parts(int(rope_dim), int(key)))


@functools.cache
def _score_parts(rope_dim: int, key: int) -> dict[str, np.ndarray]:
    weights = cut_weights(rope_dim)
    hidden = np.random.default_rng(1).standard_normal((len(KEYS) + 1, HIDDEN_SIZE))
    parts = [
        mla_score(weights, hidden[0], hidden[key + 1], QUERY_POSITION, QUERY_POSITION - float(r))
        for r in DISTANCES
    ]
    arrays = {
        "content": np.array([part.content for part in parts]),
        "rotated": np.array([part.rotated for part in parts]),
        "total": np.array([part.total for part in parts]),
    }
    for values in arrays.values():
        values.setflags(write=False)
    return arrays


class MLAScoreSplit(Demo):
    """Content part, rotated part and total of an MLA score against the distance between query and key."""

    narrowest_plot_width = 440
    title = "DeepSeek's decoupled RoPE: only the rotated slice of the score sees the distance"
    controls = (
        Control(
            "rope_dim",
            "qk_rope_head_dim",
            ROPE_DIMS,
            64,
            8,
            64,
            integer=True,
            choices=ROPE_DIMS,
        ),
        Control("key", "key", (0, 1, 2), 0, 0, 2, integer=True, choices=(0, 1, 2), labels=KEYS),
    )
    scenes = (
        Scene(
            "a wide slice",
            "The content part stays flat at every distance, and all the swing of the score comes from the "
            "rotated slice.",
            {},
        ),
        Scene(
            "a narrow slice",
            "Narrowing the rotated slice to 8 dimensions leaves the content part as it was and shrinks the "
            "swing of the score.",
            {"rope_dim": 8},
        ),
        Scene(
            "another key",
            "Token B has another content part, flat again, and a swing of its own from the rotated slice.",
            {"key": 1},
        ),
    )

    def base_figure(self) -> dict:
        """Three curves against the distance: content (flat), rotated, and their sum."""

        def curve(name: str, color: str, width: float, dash: str) -> dict:
            return {
                "type": "scatter",
                "mode": "lines",
                "name": name,
                "x": DISTANCES.tolist(),
                "line": {"color": color, "width": width, "dash": dash},
                "hovertemplate": "r = %{x}<br>%{y:.3f}<extra>" + name + "</extra>",
            }

        data = [
            curve("content part q_C·k_C (never rotated)", NTK, 3, "dash"),
            curve("rotated part q_R·k_R", LONGROPE, 1.5, "solid"),
            curve("score: their sum", PLAIN, 2, "solid"),
        ]
        layout = {
            "height": 520,
            "margin": {"l": 80, "r": 20, "t": 30, "b": 60},
            "font": {"size": FONT_SIZE},
            "legend": {
                "orientation": "h",
                "x": 0.0,
                "y": 1.02,
                "yanchor": "bottom",
                "bgcolor": "rgba(0,0,0,0)",
            },
            "xaxis": {
                "title": {"text": "distance r = m − n (tokens)"},
                "range": [0, MAX_DISTANCE],
                "zeroline": False,
            },
            "yaxis": {"title": {"text": "score q·k (before the softmax scale)"}, "range": list(SCORE_RANGE)},
        }
        return {"data": data, "layout": layout}

    def view(self, *, rope_dim: float, key: float) -> View:
        """Show the three curves for a rotated slice of ``rope_dim`` dimensions and key token ``key``."""
        rope_dim, key = round(rope_dim), round(key)
        parts = score_parts(rope_dim, key)
        rotated, content = parts["rotated"], float(parts["content"][0])
        readout = (
            f"qk_rope_head_dim {rope_dim} beside {NOPE_DIM} content dimensions, key {KEYS[key]}: content "
            f"part {content:.3f} at every distance; rotated part from {rotated.min():.3f} to "
            f"{rotated.max():.3f}, so the score swings by {np.ptp(parts['total']):.3f} over distances 0 to "
            f"{MAX_DISTANCE}."
        )
        return View(
            traces=[{"y": significant(parts[name], 5)} for name in ("content", "rotated", "total")],
            readout=readout,
        )
