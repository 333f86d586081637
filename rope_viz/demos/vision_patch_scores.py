"""One image patch against all the others: the expected score map of 2-D RoPE and of M-RoPE.

A query cell at row ``r``, column ``c`` of a 16 x 16 grid, and a key at every cell. The map is the expected
score of a random vector with itself, ``E[score] = 2 sum_i cos(phi_i(r, c) - phi_i(r', c'))`` for
``q ~ N(0, I_d)``, divided by its value ``d`` at the query itself: the part of the score that position alone
sets, whatever the content (:func:`rope_viz.axial.expected_axial_patch_self_scores`,
:func:`rope_viz.mrope.expected_mrope_patch_self_scores`). Four schemes:

* 2-D axial RoPE as in Qwen2-VL's vision encoder (``d = 80``, base 10,000): half the pairs turn with the
  row, half with the column (Heo et al. 2024, arXiv:2403.13298, RoPE-Axial);
* RoPE-Mixed with every direction turned by 45 degrees (:func:`mixed_frequencies`): the same speeds and base,
  along the diagonals (RoPE-Mixed learns these directions; Heo et al.'s code starts them at a random angle
  per head, at base 10);
* M-RoPE of Qwen2.5-VL's language model (chunks ``(16, 24, 24)``, ``d = 128``, base 10⁶) and of Qwen3-VL's
  (interleaved ``(24, 20, 20)``, base 5 10⁶): within one image the time pairs do not turn.

A cell of the grid is not the same thing under the two kinds of scheme (:data:`CELLS`): under the two 2-D
RoPE schemes it is one patch of the vision encoder (14 pixels a side in Qwen2-VL and Qwen2.5-VL), under the
two M-RoPE schemes one token of the language model, 2 x 2 patches merged into one. The lower panel draws the
map along the query's row and along its column against the offset of the key, over the curve of every offset
(a thick solid one for the column offset, a thin dotted one for the row offset): the points always lie on
the same curves, wherever the query sits, because the score depends on the 2-D offset alone.
"""

from __future__ import annotations

import numpy as np

from rope_viz.axial import axial_frequencies, axial_inv_freq, expected_axial_patch_self_scores
from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.vision_style import (
    AXIS_COLORS,
    FONT_SIZE,
    LANGUAGE_HEAD_DIM,
    PATCH_PIXELS,
    QWEN3_VL_BASE,
    QWEN25_VL_BASE,
    SPATIAL_MERGE,
    VISION_BASE,
    VISION_HEAD_DIM,
    panel_title,
    significant,
)
from rope_viz.mrope import QWEN2_VL_SECTION, QWEN3_VL_SECTION, expected_mrope_patch_self_scores

GRID = (16, 16)
QUERY_STEPS = tuple(range(0, 16, 2))
#: The neighbour whose score the readout follows: one row down, one column to the right.
NEIGHBOUR = (1, 1)
SCHEMES = (
    "2-D axial RoPE (Qwen2-VL's vision encoder)",
    "RoPE-Mixed, every direction turned 45°",
    "M-RoPE, chunks (Qwen2.5-VL)",
    "M-RoPE, interleaved (Qwen3-VL)",
)
SCHEME_LABELS = ("2-D axial (ViT)", "RoPE-Mixed 45°", "M-RoPE chunks", "M-RoPE interleaved")
_PATCH = f"one patch of the vision encoder ({PATCH_PIXELS} pixels a side in Qwen2-VL), d = {VISION_HEAD_DIM}"
_MERGED = f"{SPATIAL_MERGE} × {SPATIAL_MERGE} patches merged"
_TOKEN = f"one token of the language model ({_MERGED}), d = {LANGUAGE_HEAD_DIM}"
#: What one cell of the grid is under each scheme: the 2-D RoPE schemes act on the vision encoder's patches,
#: M-RoPE on the language model's tokens, each ``SPATIAL_MERGE`` x ``SPATIAL_MERGE`` patches merged into one.
CELLS = (_PATCH, _PATCH, _TOKEN, _TOKEN)
MIXED_ANGLE = np.pi / 4
#: The colour range and the lower panel's range of E[score] / d, the same for every scheme.
SCORE_RANGE = (0.5, 1.0)

#: Viridis, as explicit stops (plotly.js knows fewer colour-scale names than plotly.py).
VIRIDIS = [
    [0.0, "#440154"],
    [0.125, "#472d7b"],
    [0.25, "#3b528b"],
    [0.375, "#2c728e"],
    [0.5, "#21918c"],
    [0.625, "#28ae80"],
    [0.75, "#5ec962"],
    [0.875, "#addc30"],
    [1.0, "#fde725"],
]


def mixed_frequencies(dim: int, base: float = 10_000.0, angle: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Row and column frequencies of RoPE-Mixed with the axial speeds turned by ``angle``.

    The first ``d/4`` pairs turn along the direction ``(cos angle, sin angle)`` of the (column, row) plane,
    the last ``d/4`` along the perpendicular direction, each at the axial speeds ``w_j = base ** (-4 j / d)``
    of :func:`rope_viz.axial.axial_inv_freq`:

        omega^col_j = w_j cos(angle),          omega^row_j = w_j sin(angle),
        omega^col_{j + d/4} = -w_j sin(angle),  omega^row_{j + d/4} = w_j cos(angle).

    This is the form in which Heo et al. 2024 (arXiv:2403.13298) start RoPE-Mixed (``init_random_2d_freqs``
    in github.com/naver-ai/rope-vit, with a random angle for each head of each layer; training then learns all
    the frequencies). Their code draws the speeds at base 10 (``rope_theta=10.0`` for RoPE-Mixed, 100 for
    RoPE-Axial); the figure keeps the base of the axial scheme it is set against, 10,000 for Qwen2-VL's
    encoder. At ``angle = 0`` the first half turns with the columns and the second with the rows: RoPE-Axial
    with its halves in Heo et al.'s order, the reverse of :func:`rope_viz.axial.axial_frequencies`.

    Parameters
    ----------
    dim : int
        Head dimension ``d``; a multiple of 4.
    base : float, default 10000.0
        Frequency base; finite, > 1.
    angle : float, default 0.0
        Direction of the first half of the pairs, radians from the column axis; finite.

    Returns
    -------
    row_frequencies, column_frequencies : numpy.ndarray
        Shape ``(dim // 2,)`` each, float64, radians per row and per column; ``frequencies=`` of
        :func:`rope_viz.axial.rotate_axial`.

    Raises
    ------
    ValueError
        If ``dim`` is not a positive multiple of 4, ``base`` is not a finite number > 1, or ``angle`` is not
        one finite number.

    Examples
    --------
    >>> row, column = mixed_frequencies(8, base=100.0, angle=np.pi / 2)
    >>> print(np.round(row, 6) + 0.0, np.round(column, 6) + 0.0)
    [1.  0.1 0.  0. ] [ 0.   0.  -1.  -0.1]

    """
    speeds = axial_inv_freq(dim, base)  # (d/4,)
    angle_array = np.asarray(angle, dtype=float)
    if angle_array.ndim != 0 or not np.isfinite(angle_array):
        raise ValueError(f"angle must be one finite number, got {angle!r}")
    cos, sin = np.cos(float(angle_array)), np.sin(float(angle_array))
    row = np.concatenate([speeds * sin, speeds * cos])
    column = np.concatenate([speeds * cos, -speeds * sin])
    return row, column


def scheme_scores(scheme: int, grid: tuple[int, int], query_patch: tuple[int, int]) -> np.ndarray:
    """Return ``E[score] / d`` of scheme ``scheme`` (an index of :data:`SCHEMES`) over ``grid``.

    Shape ``(rows, cols)``; 1 at ``query_patch``.

    Examples
    --------
    >>> scheme_scores(0, (1, 3), (0, 1)).round(3)
    array([[0.98, 1.  , 0.98]])

    """
    if scheme == 0:
        frequencies = axial_frequencies(VISION_HEAD_DIM, VISION_BASE)
        dim = VISION_HEAD_DIM
    elif scheme == 1:
        frequencies = mixed_frequencies(VISION_HEAD_DIM, VISION_BASE, MIXED_ANGLE)
        dim = VISION_HEAD_DIM
    elif scheme in (2, 3):
        section, interleaved, base = (
            (QWEN2_VL_SECTION, False, QWEN25_VL_BASE)
            if scheme == 2
            else (QWEN3_VL_SECTION, True, QWEN3_VL_BASE)
        )
        scores = expected_mrope_patch_self_scores(
            grid, query_patch, section, interleaved=interleaved, base=base
        )
        return scores / LANGUAGE_HEAD_DIM
    else:
        raise ValueError(f"scheme must be 0, 1, 2 or 3, got {scheme!r}")
    return expected_axial_patch_self_scores(grid, query_patch, dim, frequencies=frequencies) / dim


def offset_profiles(scheme: int, reach: int) -> tuple[np.ndarray, np.ndarray]:
    """Return ``E[score] / d`` of the keys up to ``reach`` patches from the query in its row and its column.

    Returns ``(along_row, along_column)``, each of shape ``(2 reach + 1,)``: entry ``k`` is the key at offset
    ``k - reach`` (key minus query).

    Examples
    --------
    >>> along_row, along_column = offset_profiles(0, 1)
    >>> along_row.round(3), bool(np.allclose(along_row, along_column))
    (array([0.98, 1.  , 0.98]), True)

    """
    along_row = scheme_scores(scheme, (1, 2 * reach + 1), (0, reach))[0]
    along_column = scheme_scores(scheme, (2 * reach + 1, 1), (reach, 0))[:, 0]
    return along_row, along_column


class PatchScoreMap(Demo):
    """The expected score of one query cell against every key cell of a 16 x 16 grid, four schemes.

    A cell is a patch of the vision encoder under the 2-D RoPE schemes and a language-model token under M-RoPE
    (:data:`CELLS`).
    """

    narrowest_plot_width = 600
    title = "One patch against every other: the score map moves with the query"
    controls = (
        Control(
            "scheme",
            "scheme",
            (0, 1, 2, 3),
            0,
            0,
            3,
            integer=True,
            choices=(0, 1, 2, 3),
            labels=SCHEME_LABELS,
        ),
        Control("row", "query row r", QUERY_STEPS, 4, 0, GRID[0] - 1, integer=True),
        Control("col", "query column c", QUERY_STEPS, 6, 0, GRID[1] - 1, integer=True),
    )
    scenes = (
        Scene(
            "axial",
            "Under 2-D axial RoPE the score is highest at the query patch and falls off with the row and "
            "column offsets.",
            {},
        ),
        Scene(
            "move the query",
            "Moving the query moves the pattern without changing its shape: its diagonal neighbour scores "
            "the same.",
            {"row": 12, "col": 2},
        ),
        Scene(
            "rope-mixed",
            "RoPE-Mixed turns every direction by 45°, so its diagonal neighbour scores differently from the "
            "axial one.",
            {"scheme": 1},
        ),
        Scene(
            "m-rope chunks",
            "Under M-RoPE's chunks every token scores almost as high as the query itself: the height and "
            "width pairs are too slow.",
            {"scheme": 2},
        ),
        Scene(
            "m-rope interleaved",
            "Interleaved, M-RoPE gives height and width fast pairs, and the score falls off across the grid "
            "again.",
            {"scheme": 3},
        ),
    )

    def __init__(self) -> None:
        reach = max(GRID) - 1
        self.offsets = np.arange(-reach, reach + 1)
        self.profiles = [offset_profiles(scheme, reach) for scheme in range(len(SCHEMES))]

    def base_figure(self) -> dict:
        """Draw the map (row 0 on top, as in an image) above, its row and column through the query below."""
        rows, cols = GRID
        heatmap = {
            "type": "heatmap",
            "name": "E[score] / d",
            "x": list(range(cols)),
            "y": list(range(rows)),
            "colorscale": VIRIDIS,
            "zmin": SCORE_RANGE[0],
            "zmax": SCORE_RANGE[1],
            "colorbar": {"title": {"text": "E[score] / d"}, "y": 0.74, "len": 0.5, "thickness": 14},
            "hovertemplate": "key row %{y}, column %{x}<br>E[score] / d = %{z:.4f}<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }

        def patch(name: str, color: str, symbol: str) -> dict:
            return {
                "type": "scatter",
                "mode": "markers",
                "name": name,
                "marker": {
                    "symbol": symbol,
                    "size": 18,
                    "color": color,
                    "line": {"width": 3, "color": color},
                },
                "hovertemplate": "row %{y}, column %{x}<extra>" + name + "</extra>",
                "showlegend": False,
                "xaxis": "x",
                "yaxis": "y",
            }

        def reference(name: str, line: dict) -> dict:
            return {
                "type": "scatter",
                "mode": "lines",
                "name": name,
                "line": line,
                "hovertemplate": "offset %{x}<br>E[score] / d = %{y:.4f}<extra>" + name + "</extra>",
                "xaxis": "x2",
                "yaxis": "y2",
                "legend": "legend2",
            }

        def inside(name: str, marker: dict) -> dict:
            return {
                "type": "scatter",
                "mode": "markers",
                "name": name,
                "marker": marker,
                "hovertemplate": "offset %{x}<br>E[score] / d = %{y:.4f}<extra>" + name + "</extra>",
                "xaxis": "x2",
                "yaxis": "y2",
                "legend": "legend2",
            }

        height_color, width_color = AXIS_COLORS[1], AXIS_COLORS[2]
        reach = max(GRID) - 1
        layout = {
            "height": 980,
            "margin": {"l": 80, "r": 30, "t": 40, "b": 60},
            "font": {"size": FONT_SIZE},
            "legend2": {
                "orientation": "h",
                "x": 0.5,
                "xanchor": "center",
                "y": 0.005,
                "yanchor": "bottom",
                "bgcolor": "rgba(0,0,0,0)",
            },
            "xaxis": {
                "domain": [0.0, 0.86],
                "anchor": "y",
                "range": [-0.5, cols - 0.5],
                "title": {"text": "key column c′"},
                "zeroline": False,
                "constrain": "domain",
            },
            "yaxis": {
                "domain": [0.46, 0.97],
                "anchor": "x",
                "range": [rows - 0.5, -0.5],
                "title": {"text": "key row r′"},
                "zeroline": False,
                "scaleanchor": "x",
                "constrain": "domain",
            },
            "xaxis2": {
                "domain": [0.0, 1.0],
                "anchor": "y2",
                "range": [-reach - 0.5, reach + 0.5],
                "title": {"text": "key offset (cells): c′ − c in the query's row, r′ − r in its column"},
                "zeroline": False,
            },
            "yaxis2": {
                "domain": [0.0, 0.32],
                "anchor": "x2",
                "range": [SCORE_RANGE[0] - 0.02, SCORE_RANGE[1] + 0.02],
                "title": {"text": "E[score] / d"},
            },
            "annotations": [
                panel_title("expected score of the query patch (□) against every key patch", 0.98),
                panel_title(
                    "along the query's row and column: on the same curves wherever the query is", 0.335
                ),
            ],
        }
        # Where the two curves coincide (a scheme that treats rows and columns alike), the wide row curve
        # shows around the dotted column curve, and the open circles around the diamonds.
        data = [
            heatmap,
            patch("query patch (r, c)", "#1a1a1a", "square-open"),
            patch("key one row down, one column right", "#d62728", "circle-open"),
            reference("every column offset", {"color": width_color, "width": 5}),
            reference("every row offset", {"color": height_color, "width": 2, "dash": "dot"}),
            inside(
                "keys in the query's row",
                {"color": width_color, "size": 12, "symbol": "circle-open", "line": {"width": 2.5}},
            ),
            inside("keys in the query's column", {"color": height_color, "size": 7, "symbol": "diamond"}),
        ]
        return {"data": data, "layout": layout}

    def view(self, *, scheme: float, row: float, col: float) -> View:
        """Show the map of ``scheme`` for the query at ``(row, col)``."""
        scheme, row, col = round(scheme), round(row), round(col)
        rows, cols = GRID
        scores = scheme_scores(scheme, GRID, (row, col))  # (rows, cols)
        along_row, along_column = self.profiles[scheme]
        down, right = NEIGHBOUR
        neighbour = (row + down, col + right)
        inside_grid = neighbour[0] < rows and neighbour[1] < cols
        far = (0 if row >= rows / 2 else rows - 1, 0 if col >= cols / 2 else cols - 1)
        offsets = self.offsets.tolist()
        reach = max(GRID) - 1  # entry reach + k of a profile is offset k
        parts = [f"{SCHEMES[scheme]}, query at (r, c) = ({row}, {col}); a cell is {CELLS[scheme]}"]
        if inside_grid:
            parts.append(
                f"E[score] / d one row down and one column right: {scores[neighbour]:.5f}, the same at every "
                "query"
            )
        parts.append(
            f"One row down: {along_column[reach + down]:.5f}; one column right: "
            f"{along_row[reach + right]:.5f}; lowest in the grid {scores.min():.5f}; at the far corner "
            f"({far[0]}, {far[1]}): {scores[far]:.5f}"
        )
        return View(
            traces=[
                {"z": np.round(scores, 4).tolist()},
                {"x": [col], "y": [row]},
                {"x": [neighbour[1]], "y": [neighbour[0]]} if inside_grid else {"x": [None], "y": [None]},
                {"x": offsets, "y": significant(along_row, 5)},
                {"x": offsets, "y": significant(along_column, 5)},
                {"x": (np.arange(cols) - col).tolist(), "y": significant(scores[row, :], 5)},
                {"x": (np.arange(rows) - row).tolist(), "y": significant(scores[:, col], 5)},
            ],
            readout=". ".join(parts) + ".",
        )
