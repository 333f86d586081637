"""Shift the sentence: the logits of one toy attention head under six position schemes.

The sentence "the dog bit the man" sits at positions ``t .. t + 4``. Each panel shows the 5 x 5 logits
``q_a . k_b / sqrt(d) + B[a, b]`` of the same head (same words, same weights) under one scheme. Moving ``t``
moves the whole sentence: the relative schemes (T5 bias, ALiBi, RoPE) keep every number, the absolute ones
(learned, sinusoidal) do not, and the learned table runs out of rows at its length ``L``. Swapping "dog" and
"man" shows that without any position signal the same numbers only move to other cells. Each panel's title
gives the largest change of a logit from the same word pair in "the dog bit the man" at ``t = 0``; with the
swap on, each cell is compared with the cell where its two words stood before the swap.

:class:`ContentPicksTheDistance` places one key at every distance ``0 .. 40`` from a query. Its content is the
query turned by ``r0`` positions. Under RoPE the score ``<R_r q, R_r0 q>`` is highest where the two rotations
cancel, at ``r = r0``; under ALiBi the logit is the same content logit ``q . k`` minus ``eta r``, highest at
distance 0 whatever the content.
"""

from __future__ import annotations

import numpy as np

from rope_viz.attention import ToyHead, permute_square, reordering
from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.position_schemes import LearnedAbsolute, PositionScheme, alibi_bias, alibi_slopes, all_schemes
from rope_viz.rotation import rotate
from rope_viz.scores import relative_scores

SENTENCE = ("the", "dog", "bit", "the", "man")
SWAPPED = ("the", "man", "bit", "the", "dog")
DIM = 8
LEARNED_LENGTH = 32
SHIFTS = (0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 27, 28, 32, 50, 100, 250, 1000)

# Blue (negative) through grey to red (positive): ends and middle stay visible on light and dark pages.
DIVERGING = [[0.0, "#08519c"], [0.3, "#4f9bd9"], [0.5, "#b8b8b8"], [0.7, "#f08a5d"], [1.0, "#a50f15"]]

# Panel grid: 2 rows x 3 columns, wider than tall as a slide is; domains in paper coordinates. The panels
# share their words, so only the left column writes them beside its rows.
_COLUMNS = ([0.0, 0.3], [0.35, 0.65], [0.7, 1.0])
_ROWS = ([0.6, 0.93], [0.09, 0.42])
#: Colour-axis limit (logit units): a display choice; the few larger logits take the end colours, and every
#: cell prints its exact value.
COLOR_LIMIT = 4.0


def panel_domains(index: int) -> tuple[list[float], list[float]]:
    """``(x domain, y domain)`` of panel ``index`` (row-major over 2 rows x 3 columns)."""
    return list(_COLUMNS[index % 3]), list(_ROWS[index // 3])


def sentence_logits(
    scheme: PositionScheme, words: tuple[str, ...], shift: float, head: ToyHead
) -> np.ndarray | None:
    """Return the logits of ``words`` at positions ``shift, shift + 1, ...``; None where undefined."""
    positions = shift + np.arange(len(words), dtype=np.float64)
    if isinstance(scheme, LearnedAbsolute) and positions.max() >= scheme.max_positions:
        return None
    return head.logits(words, positions, scheme)


class ShiftTheSentence(Demo):
    """Logits of "the dog bit the man" under six position schemes, as the sentence moves along."""

    narrowest_plot_width = 560
    title = "Shift the sentence: which position schemes keep the attention logits?"
    controls = (
        Control("shift", "shift t", SHIFTS, 0, 0, 1000, unit="tokens", integer=True),
        Control(
            "swap", "swap dog ↔ man", (0, 1), 0, 0, 1, integer=True, choices=(0, 1), labels=("no", "yes")
        ),
    )
    scenes = (
        Scene(
            "the sentence",
            "Each panel holds the logits of the same five words at positions 0 to 4, under one position "
            "scheme each.",
            {},
        ),
        Scene(
            "shift by 20",
            "T5, ALiBi and RoPE keep every logit, while the learned and sinusoidal panels change.",
            {"shift": 20},
        ),
        Scene(
            "past the table",
            "The learned panel goes blank: its last word now sits at position 32, and the table has no "
            "vector for it.",
            {"shift": 28},
        ),
        Scene(
            "far along",
            "A thousand tokens along, T5, ALiBi and RoPE still report no change in any logit.",
            {"shift": 1000},
        ),
        Scene(
            "swap the words",
            "With dog and man swapped, the panel without position shows the same numbers as before, moved "
            "to other cells; its title alone reports no change.",
            {"swap": 1},
        ),
    )

    def __init__(self) -> None:
        self.head = ToyHead(dim=DIM, seed=0)
        self.schemes = all_schemes(dim=DIM, max_positions=LEARNED_LENGTH)

    def base_figure(self) -> dict:
        """Six heatmaps sharing one colour axis, each with its own panel title."""
        data, layout = (
            [],
            {
                "height": 720,
                "margin": {"l": 80, "r": 20, "t": 30, "b": 40},
                "font": {"size": 14},
                "coloraxis": {
                    "colorscale": DIVERGING,
                    "cmin": -COLOR_LIMIT,
                    "cmax": COLOR_LIMIT,
                    "colorbar": {
                        "orientation": "h",
                        "x": 0.5,
                        "xanchor": "center",
                        "y": -0.005,
                        "yanchor": "top",
                        "len": 0.9,
                        "thickness": 14,
                        "title": {"text": "logit q·k/√d + bias (no unit)", "side": "top"},
                    },
                },
                "annotations": [],
            },
        )
        for index, scheme in enumerate(self.schemes):
            suffix = "" if index == 0 else str(index + 1)
            data.append(
                {
                    "type": "heatmap",
                    "name": scheme.name,
                    "coloraxis": "coloraxis",
                    "xaxis": f"x{suffix}",
                    "yaxis": f"y{suffix}",
                    "texttemplate": "%{z:.2f}",
                    "textfont": {"size": 12},
                    "xgap": 1,
                    "ygap": 1,
                    "hovertemplate": "query %{y} · key %{x}<br>logit %{z:.3f}<extra>"
                    + scheme.name
                    + "</extra>",
                }
            )
            x_domain, y_domain = panel_domains(index)
            left = index % 3 == 0
            layout[f"xaxis{suffix}"] = {
                "domain": x_domain,
                "anchor": f"y{suffix}",
                "title": {"text": "key word · position n", "font": {"size": 12}, "standoff": 4},
                "tickfont": {"size": 11},
                "tickmode": "array",
                "tickvals": list(range(len(SENTENCE))),
                "side": "bottom",
            }
            layout[f"yaxis{suffix}"] = {
                "domain": y_domain,
                "anchor": f"x{suffix}",
                "title": {"text": "query word · position m", "font": {"size": 12}, "standoff": 2},
                "showticklabels": left,
                "tickfont": {"size": 11},
                "tickmode": "array",
                "tickvals": list(range(len(SENTENCE))),
                "autorange": "reversed",
            }
            layout["annotations"].append(
                {
                    "text": scheme.name,
                    "x": float(np.mean(x_domain)),
                    "y": y_domain[1] + 0.008,
                    "xref": "paper",
                    "yref": "paper",
                    "xanchor": "center",
                    "yanchor": "bottom",
                    "showarrow": False,
                    "font": {"size": 14},
                }
            )
        return {"data": data, "layout": layout}

    def view(self, *, shift: float, swap: float) -> View:
        """Logits of the (possibly swapped) sentence at ``shift``, and each panel's largest change.

        The change of a cell is measured from the same word pair in :data:`SENTENCE` at ``t = 0``: with the
        swap on, the cell of query "dog" and key "man" is compared with that of "dog" and "man" in the
        unswapped sentence, wherever the swap moved it.
        """
        shift = round(shift)
        swapped = bool(round(swap))
        words = SWAPPED if swapped else SENTENCE
        order = reordering(SENTENCE, words)  # words[a] == SENTENCE[order[a]]; the two "the" stay in place
        positions = shift + np.arange(len(words))
        x_ticks = [f"{word}<br>{position:,}" for word, position in zip(words, positions, strict=True)]
        y_ticks = [f"{word} {position:,}" for word, position in zip(words, positions, strict=True)]
        traces, layout, changes = [], {}, []
        for index, scheme in enumerate(self.schemes):
            suffix = "" if index == 0 else str(index + 1)
            logits = sentence_logits(scheme, words, shift, self.head)
            if logits is None:
                z = [[None] * len(words) for _ in words]
                title = f"<b>{scheme.name}</b><br>past its table (L = {scheme.max_positions})"
                changes.append(f"{scheme.name} undefined")
            else:
                z = np.round(logits, 3).tolist()
                start = permute_square(sentence_logits(scheme, SENTENCE, 0, self.head), order)
                change = float(np.abs(logits - start).max())
                title = f"<b>{scheme.name}</b><br>largest change: {change:.2f}"
                changes.append(f"{scheme.name} {change:.2f}")
            traces.append({"z": z, "x": list(range(len(words))), "y": list(range(len(words)))})
            layout[f"xaxis{suffix}.ticktext"] = x_ticks
            layout[f"yaxis{suffix}.ticktext"] = y_ticks
            layout[f"annotations[{index}].text"] = title
        sentence = " ".join(words)
        since = f"from the same word pair in “{' '.join(SENTENCE)}” at t = 0" if swapped else "since t = 0"
        readout = (
            f"“{sentence}” at positions {positions[0]:,}–{positions[-1]:,}. "
            f"Largest change of a logit {since}: " + "; ".join(changes) + "."
        )
        return View(traces=traces, layout=layout, readout=readout)


#: The query of :class:`ContentPicksTheDistance`: 64 standard normal numbers (seed 0), as in the chapter.
CONTENT_DIM = 64
CONTENT_SEED = 0
DISTANCES = tuple(range(41))
TURNS = (0, 5, 10, 15, 20, 25, 30, 35, 40)
#: ALiBi's slopes for an 8-head model, 1/2 ... 1/256 (Press et al., 2022).
ALIBI_HEADS = 8
ROPE_COLOR = "#1f77b4"
ALIBI_COLOR = "#e8710a"


def content_query() -> np.ndarray:
    """Return the query of :class:`ContentPicksTheDistance`, shape ``(CONTENT_DIM,)``."""
    return np.random.default_rng(CONTENT_SEED).standard_normal(CONTENT_DIM)


def one_key_at_every_distance(q: np.ndarray, r0: int, slope: float) -> tuple[np.ndarray, np.ndarray]:
    """Logits of the key ``k = R_r0 q`` at the distances ``r = m - n`` of :data:`DISTANCES`.

    Returns ``(rope, alibi)``: RoPE's logit ``<R_r q, k> / sqrt(d)`` and ALiBi's
    ``q . k / sqrt(d) - slope * r`` (ALiBi adds its bias to the scaled logit; Press et al. 2022), shape
    ``(len(DISTANCES),)`` each (base 10,000, interleaved pairs).
    """
    k = rotate(q, r0)  # the key's content: the query turned by r0 positions
    r = np.asarray(DISTANCES, dtype=np.float64)
    scale = 1.0 / np.sqrt(q.size)
    rope = scale * relative_scores(q, k, r)  # (distances,)
    alibi = scale * float(q @ k) + alibi_bias(r, [0.0], slope)[:, 0]  # (distances,)
    return rope, alibi


class ContentPicksTheDistance(Demo):
    """One key at every distance from the query: RoPE's score peaks where its content says, ALiBi's at 0."""

    narrowest_plot_width = 440
    title = (
        "One key at every distance: under RoPE its content picks the distance; under ALiBi, the nearest wins"
    )
    slopes = tuple(sorted(float(slope) for slope in alibi_slopes(ALIBI_HEADS)))  # 1/256 ... 1/2
    controls = (
        Control("r0", "key content: the query turned by r₀", TURNS, 10, 0, 40, unit="tokens", integer=True),
        Control(
            "slope",
            "ALiBi slope η",
            slopes,
            slopes[-1],
            slopes[0],
            slopes[-1],
            choices=slopes,
            labels=tuple(f"1/{round(1 / slope)}" for slope in slopes),
        ),
    )
    scenes = (
        Scene(
            "key turned by 10",
            "RoPE's logit peaks at distance 10, where the key's turn cancels the query's, while ALiBi's "
            "is highest at distance 0.",
            {},
        ),
        Scene(
            "key turned by 25",
            "RoPE's peak follows the content to distance 25 and is exactly as high as before, the query's "
            "squared length over √d.",
            {"r0": 25},
        ),
        Scene(
            "the flattest slope",
            "Even with ALiBi's flattest slope its highest logit stays at distance 0: a smaller slope only "
            "flattens the line.",
            {"r0": 25, "slope": 0.00390625},
        ),
    )

    def __init__(self) -> None:
        self.q = content_query()
        curves = [np.concatenate(one_key_at_every_distance(self.q, r0, self.slopes[-1])) for r0 in DISTANCES]
        low, high = float(np.min(curves)), float(self.q @ self.q) / np.sqrt(self.q.size)
        pad = 0.06 * (high - low)
        self.range = [round(low - pad, 1), round(high + pad, 1)]

    def base_figure(self) -> dict:
        """Two curves against the distance, each with a marker on its highest point."""
        x = list(DISTANCES)
        data = [
            {
                "type": "scatter",
                "mode": "lines",
                "name": "RoPE: logit ⟨R(r)q, k⟩/√d",
                "x": x,
                "line": {"color": ROPE_COLOR, "width": 3},
                "hovertemplate": "distance %{x}<br>RoPE logit %{y:.2f}<extra></extra>",
            },
            {
                "type": "scatter",
                "mode": "lines",
                "name": "ALiBi: content logit q·k/√d − η·distance",
                "x": x,
                "line": {"color": ALIBI_COLOR, "width": 3, "dash": "dash"},
                "hovertemplate": "distance %{x}<br>ALiBi logit %{y:.2f}<extra></extra>",
            },
            {
                "type": "scatter",
                "mode": "markers",
                "name": "highest under RoPE",
                "marker": {"color": ROPE_COLOR, "size": 14, "symbol": "circle"},
                "hovertemplate": "RoPE's best: distance %{x}, logit %{y:.2f}<extra></extra>",
            },
            {
                "type": "scatter",
                "mode": "markers",
                "name": "highest under ALiBi",
                "marker": {"color": ALIBI_COLOR, "size": 14, "symbol": "diamond"},
                "hovertemplate": "ALiBi's best: distance %{x}, logit %{y:.2f}<extra></extra>",
            },
        ]
        layout = {
            "height": 560,
            "margin": {"l": 70, "r": 30, "t": 30, "b": 60},
            "font": {"size": 15},
            "legend": {"orientation": "h", "x": 0.0, "y": 1.02, "yanchor": "bottom", "font": {"size": 13}},
            "xaxis": {
                "range": [-1.0, DISTANCES[-1] + 1.0],
                "dtick": 5,
                "title": {"text": "distance m − n between query and key (tokens)"},
            },
            "yaxis": {"range": self.range, "title": {"text": "logit of the key (no unit)"}},
        }
        return {"data": data, "layout": layout}

    def view(self, *, r0: float, slope: float) -> View:
        """Both curves for the key turned by ``r0``, and ALiBi's line for ``slope``."""
        r0 = round(r0)
        rope, alibi = one_key_at_every_distance(self.q, r0, slope)
        best = int(np.argmax(rope))
        readout = (
            f"Key content: the query turned by r₀ = {r0} positions. RoPE: highest logit {rope[best]:.2f} at "
            f"distance {DISTANCES[best]} (|q|²/√d = {self.q @ self.q / np.sqrt(self.q.size):.2f}). ALiBi, "
            f"η = 1/{round(1 / slope)}: "
            f"highest logit {alibi[0]:.2f} at distance 0; at distance {r0}, {alibi[r0]:.2f}."
        )
        return View(
            traces=[
                {"y": rope.round(3).tolist()},
                {"y": alibi.round(3).tolist()},
                {"x": [DISTANCES[best]], "y": [round(float(rope[best]), 3)]},
                {"x": [0], "y": [round(float(alibi[0]), 3)]},
            ],
            readout=readout,
        )
