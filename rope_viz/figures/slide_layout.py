"""A figure of stacked panels laid out side by side, for a slide wider than tall.

A chapter's figure is as tall as it needs: its panels are stacked, one under the other, each as wide as the
page. A lecture slide is wider than tall, and its text is larger, so stacked panels would each get a thin
strip of it. :func:`side_by_side` turns such a figure's rows into columns (of three rows, the first keeps the
width over the other two), as ``Plotly.relayout`` changes that the lecture deck and the presenter view
(``RopeVizPresent.layOutAt`` in ``rope-viz-present.js``) apply to the figure (and only there).

Positions in Plotly's paper coordinates (fractions of the plot area) move with their panel: a panel's title
(an annotation just above it) stays above it, a legend hanging under a panel stays that far under it, and a
legend under the whole figure stays under it. A legend inside a panel, placed where the page's wide panel had
room for it, would lie over the data of a narrower column: it moves under its column, at the figure's foot.
Text in the axes' own coordinates (and shapes) follows its axes without a change. A title as wide as the
page's figure is broken onto lines as wide as a column, and the margin it is in grows by the lines it gains.
"""

from __future__ import annotations

import itertools
import textwrap
from dataclasses import dataclass
from typing import Any

from rope_viz.demos.base import _get_path

#: The space between two columns, as a share of the plot's width: room for the next panel's tick labels
#: and axis title (about 90 px of a slide's plot laid out 790 px wide).
COLUMN_GAP = 0.12
#: A panel (a row of the figure) spans at least this share of the figure's width: figures whose panels
#: already stand side by side in some row are left as they are.
FULL_WIDTH = 0.8
#: How many characters of a title fit on one line of a column (a column of a slide's plot is about 320 px
#: wide); a longer title is broken between words.
CHARACTERS_PER_COLUMN = 36
#: The height of a line of a title, in px, with room to spare (Plotly sets an axis title of 18 px in lines
#: 1.3 times as high): what a title broken onto more lines adds to the margin it is in.
LINE_HEIGHT = 28
#: The height of a legend's entry per px of its font: Plotly sets a line of text 1.3 times as high as its font
#: and adds 3 px to each entry. What a legend moved under its column adds to the margin under the plot is its
#: entries' height and ``LEGEND_PADDING``.
LEGEND_LINE = 1.3
LEGEND_ENTRY_EXTRA = 3
#: Plotly's own space around a legend's entries, in px, and 1 px to spare. Measured in chromium on the deck's
#: slides (14 px font): a legend of 3 entries is 74 px high, of 4 entries 95 px, so 21 px an entry (1.3 × 14
#: + 3 = 21.2) and 11 px around them.
LEGEND_PADDING = 12
#: Plotly's own font size, height and margins, where a figure sets none.
PLOTLY_FONT_SIZE = 12
PLOTLY_HEIGHT = 450
PLOTLY_MARGINS = {"t": 100, "b": 80}
#: Trace types whose colour bar stands beside the plot in paper coordinates of its own (not moved here).
_WITH_COLOUR_BARS = frozenset({"heatmap", "contour", "surface"})


@dataclass(frozen=True)
class _Row:
    """One panel of a stacked figure: its axes' suffix ("", "2", ...) and its y domain."""

    suffix: str
    bottom: float
    top: float


@dataclass(frozen=True)
class _Box:
    """Where a panel goes on the slide, in paper coordinates: its x span and its y span."""

    left: float
    right: float
    bottom: float
    top: float

    @property
    def column(self) -> bool:
        """Whether the panel is a column, narrower than the figure (not the wide panel over two columns)."""
        return self.right - self.left < FULL_WIDTH


def _domain(axis: dict[str, Any]) -> tuple[float, float]:
    low, high = axis.get("domain", (0.0, 1.0))
    return float(low), float(high)


def _rows(layout: dict[str, Any]) -> list[_Row] | None:
    """Return the figure's panels, top to bottom.

    None if it is not two or three stacked rows as wide as itself (a slide's plot has room for two columns,
    not three).
    """
    rows = []
    for name, axis in layout.items():
        if not name.startswith("xaxis") or not isinstance(axis, dict):
            continue
        suffix = name[len("xaxis") :]
        left, right = _domain(axis)
        if right - left < FULL_WIDTH:
            return None
        bottom, top = _domain(layout.get(f"yaxis{suffix}", {}))
        rows.append(_Row(suffix, bottom, top))
    rows.sort(key=lambda row: -row.top)
    if len(rows) not in (2, 3) or any(lower.top > upper.bottom for upper, lower in itertools.pairwise(rows)):
        return None
    return rows


def column_span(index: int, columns: int) -> tuple[float, float]:
    """Return the paper x span of column ``index`` of ``columns``.

    The columns share the width less ``COLUMN_GAP`` between each two: column k spans
    ``[k (w + g), k (w + g) + w]`` with ``w = (1 − (n − 1) g) / n``.

    Examples
    --------
    >>> column_span(0, 2), column_span(1, 2)
    ((0.0, 0.44), (0.56, 1.0))

    """
    width = (1 - (columns - 1) * COLUMN_GAP) / columns
    left = index * (width + COLUMN_GAP)
    return round(left, 6), round(left + width, 6)


def _boxes(rows: list[_Row], gap: float) -> list[_Box]:
    """Return where each row goes: two rows side by side, or of three the first over the other two.

    Two rows become two columns (:func:`column_span`) of one height, from the bottom row's bottom to the top
    row's top. Of three, the first keeps the whole width over the upper part, and the second and third stand
    side by side under it, ``gap`` (paper) below it; the two parts are equally high.
    """
    top, bottom = rows[0].top, rows[-1].bottom
    if len(rows) == 2:
        return [_Box(*column_span(index, 2), bottom, top) for index in range(2)]
    height = (top - bottom - gap) / 2
    middle = bottom + height
    return [
        _Box(0.0, 1.0, round(middle + gap, 6), top),
        *(_Box(*column_span(index, 2), bottom, round(middle, 6)) for index in range(2)),
    ]


def _place(y: float, rows: list[_Row], boxes: list[_Box]) -> tuple[int | None, str, float]:
    """Where paper height ``y`` lies: its row (None: under the whole figure), how, and its new paper height.

    Within a row (``"in"``), ``y`` keeps its share of the row's height in the row's box; above a row
    (``"above"``) or under it (``"under"``), its distance from the row's edge, now the box's. A height between
    two rows belongs to the nearer edge: under the upper row, or above the lower one (a title).
    """
    if y < rows[-1].bottom:
        return None, "under", y
    for index, row in enumerate(rows):
        if y >= row.bottom:
            box = boxes[index]
            if y <= row.top:
                return (
                    index,
                    "in",
                    box.bottom + (y - row.bottom) / (row.top - row.bottom) * (box.top - box.bottom),
                )
            above = rows[index - 1] if index else None
            if above is not None and above.bottom - y < y - row.top:
                return index - 1, "under", boxes[index - 1].bottom - (above.bottom - y)
            return index, "above", box.top + (y - row.top)
    raise AssertionError("unreachable: y < bottom returned above")


def _title_lines(text: str, box: _Box) -> list[str] | None:
    """Return the lines of a plain title broken to the width of ``box`` (None: it fits, or has markup)."""
    share = (box.right - box.left) / (column_span(0, 2)[1] - column_span(0, 2)[0])
    return _broken(text, round(CHARACTERS_PER_COLUMN * share))


def side_by_side(figure: dict[str, Any]) -> dict[str, Any] | None:
    """Return the ``Plotly.relayout`` changes that lay a figure's stacked panels out side by side.

    Row k of two (from the top) becomes column k (from the left), spanning :func:`column_span`; the rows
    share one height, from the bottom row's bottom to the top row's top. Of three rows, the first keeps the
    figure's width over the upper half and the other two stand side by side under it (:func:`_boxes`). A
    position in paper coordinates keeps its place relative to its panel (:func:`_place`), and its x its share
    of the panel's width (``x′ = left_k + x (right_k − left_k)``); one under the whole figure stays where it
    is. The titles of panels side by side (annotations above them) line up at the highest title's distance
    above its panel, and what else is above a panel moves up with its title. A legend inside a column hangs
    from the figure's foot under the column.

    Parameters
    ----------
    figure : dict
        A Plotly figure as a plain dict (``data`` and ``layout``).

    Returns
    -------
    dict or None
        The changes, keyed by attribute path (``"xaxis2.domain"``, ``"annotations[1].x"``, ``"legend.y"``;
        an axis held to another's scale by shrinking its domain, ``constrain: "domain"``, widens its range
        instead, so that it keeps its column), and ``None`` for a figure that is not two or three stacked
        panels as wide as itself, or that has a colour bar (placed in paper coordinates of its own).

    """
    layout = figure["layout"]
    if any(trace.get("type") in _WITH_COLOUR_BARS for trace in figure["data"]):
        return None
    rows = _rows(layout)
    if rows is None:
        return None
    margin = {side: layout.get("margin", {}).get(side, PLOTLY_MARGINS[side]) for side in PLOTLY_MARGINS}
    page_plot_height = layout.get("height", PLOTLY_HEIGHT) - margin["t"] - margin["b"]
    items = [
        (f"annotations[{number}]", annotation, annotation.get("xref") == "paper")
        for number, annotation in enumerate(layout.get("annotations", []))
        if annotation.get("yref") == "paper" and "y" in annotation
    ]
    items += [
        (name, legend, True)
        for name, legend in layout.items()
        if name.startswith("legend") and isinstance(legend, dict) and "y" in legend
    ]
    # Of three rows, the gap between the wide panel and the columns under it is the widest gap between two
    # rows (it holds the same: tick labels, an axis title, a panel's title), and grows by the lines the
    # columns' titles gain.
    gap = max((upper.bottom - lower.top for upper, lower in itertools.pairwise(rows)), default=0.0)
    if len(rows) == 3:
        first = _boxes(rows, gap)
        gained = 0
        for _, item, x_paper in items:
            index, where, _ = _place(float(item["y"]), rows, first)
            if where == "above" and x_paper and index and "text" in item:
                gained = max(gained, len(_title_lines(item["text"], first[index]) or [""]) - 1)
        gap += gained * LINE_HEIGHT / page_plot_height
    boxes = _boxes(rows, gap)
    changes: dict[str, Any] = {}
    for row, box in zip(rows, boxes, strict=True):
        x_left, x_right = _domain(layout[f"xaxis{row.suffix}"])
        width = box.right - box.left
        changes[f"xaxis{row.suffix}.domain"] = [round(box.left + x * width, 6) for x in (x_left, x_right)]
        changes[f"yaxis{row.suffix}.domain"] = [box.bottom, box.top]
        # Each axis on its own panel's edge (an axis anchored "free" or to another panel's stays at the left).
        changes[f"xaxis{row.suffix}.anchor"] = f"y{row.suffix}"
        changes[f"yaxis{row.suffix}.anchor"] = f"x{row.suffix}"
    # An axis held to another's scale keeps its new domain and widens its range to the column's shape
    # (Plotly would otherwise shrink the domain it was given, and keep it shrunk through later layouts).
    for name, axis in layout.items():
        if name[:5] in ("xaxis", "yaxis") and isinstance(axis, dict) and axis.get("constrain") == "domain":
            changes[f"{name}.constrain"] = "range"

    placed = [(path, item, x_paper, *_place(float(item["y"]), rows, boxes)) for path, item, x_paper in items]
    # A legend inside a column goes under it, one entry a line, at the foot of the figure.
    foot = 0
    for path, _, _, index, where, _ in placed:
        if path.startswith("legend") and where == "in" and index is not None and boxes[index].column:
            changes.update(
                {
                    f"{path}.x": changes[f"xaxis{rows[index].suffix}.domain"][0],
                    f"{path}.xanchor": "left",
                    f"{path}.y": 0,
                    f"{path}.yref": "container",
                    f"{path}.yanchor": "bottom",
                    f"{path}.orientation": "v",
                }
            )
            foot = max(foot, _legend_height(figure, path) + LEGEND_PADDING)
    placed = [
        entry for entry in placed if not (entry[0].startswith("legend") and f"{entry[0]}.yref" in changes)
    ]
    # Each panel's title: the lowest annotation above it; the titles of panels side by side (of one top)
    # line up with the highest of them.
    titles: dict[int, float] = {}
    for path, _, _, index, where, y in placed:
        if where == "above" and path.startswith("annotations") and index is not None:
            titles[index] = min(titles.get(index, y), y)
    highest: dict[float, float] = {}
    for index, y in titles.items():
        highest[boxes[index].top] = max(highest.get(boxes[index].top, y), y)
    for path, item, x_paper, index, where, y in placed:
        if index is None:
            continue
        box = boxes[index]
        if where == "above":
            y += highest.get(box.top, y) - titles.get(index, highest.get(box.top, y))
        changes[f"{path}.y"] = round(y, 6)
        if x_paper and "x" in item:
            changes[f"{path}.x"] = round(box.left + float(item["x"]) * (box.right - box.left), 6)
    # Titles as wide as the page's figure are broken onto lines as wide as a column; the margins above and
    # under the plot grow by the lines they gain (of three rows, the columns' titles went into the gap).
    added = {"t": 0, "b": 0}
    for path, item, x_paper, index, where, _ in placed:
        if where == "above" and x_paper and path.startswith("annotations") and index is not None:
            lines = _title_lines(item.get("text", ""), boxes[index])
            if lines:
                changes[f"{path}.text"] = "<br>".join(lines)
                if boxes[index].top == rows[0].top:
                    added["t"] = max(added["t"], len(lines) - 1)
    for row, box in zip(rows, boxes, strict=True):
        title = layout[f"xaxis{row.suffix}"].get("title", {})
        lines = _title_lines(title.get("text", "") if isinstance(title, dict) else "", box)
        if lines:
            changes[f"xaxis{row.suffix}.title.text"] = "<br>".join(lines)
            added["b"] = max(added["b"], len(lines) - 1)
    added_px = {"t": added["t"] * LINE_HEIGHT, "b": added["b"] * LINE_HEIGHT + foot}
    for side, extra in added_px.items():
        if extra:
            changes[f"margin.{side}"] = margin[side] + extra
    # What lies under the whole figure (a legend) moves down by the lines the axis titles above it gained.
    if added["b"] and "height" in layout:
        plot_height = layout["height"] - sum(margin[side] + added_px[side] for side in margin)
        for path, _, _, index, _, y in placed:
            if index is None:
                changes[f"{path}.y"] = round(y - added["b"] * LINE_HEIGHT / plot_height, 6)
    return changes


def _legend_height(figure: dict[str, Any], name: str) -> int:
    """Return the height in px of legend ``name`` (``"legend"``, ``"legend2"``) laid out one entry a line.

    Each trace shown in it is an entry of ``LEGEND_LINE`` × its font size a line of its name, plus
    ``LEGEND_ENTRY_EXTRA``.

    Examples
    --------
    >>> _legend_height({"data": [{"name": "a"}, {"name": "b<br>c", "legend": "legend"}],
    ...                 "layout": {"font": {"size": 14}}}, "legend")
    61

    """
    layout = figure["layout"]
    size = _get_path(layout, f"{name}.font.size") or _get_path(layout, "font.size") or PLOTLY_FONT_SIZE
    height = 0.0
    for trace in figure["data"]:
        if trace.get("legend", "legend") != name or trace.get("showlegend") is False:
            continue
        if trace.get("visible", True) is False:
            continue
        lines = 1 + str(trace.get("name", "")).count("<br>")
        height += lines * LEGEND_LINE * size + LEGEND_ENTRY_EXTRA
    return round(height)


def _broken(text: str, characters: int) -> list[str] | None:
    """Return the lines of a plain title longer than ``characters``, broken between words.

    As few lines as hold it, as even as can be; None to leave the title as it is (short, or with markup).

    Examples
    --------
    >>> _broken("original wavelength λᵢ (tokens, log scale)", 36)
    ['original wavelength λᵢ', '(tokens, log scale)']

    """
    if len(text) <= characters or "<" in text:
        return None

    def wrap(width: int) -> list[str]:
        return textwrap.wrap(text, width=width, break_long_words=False, break_on_hyphens=False)

    count = len(wrap(characters))
    width = -(-len(text) // count)  # the fewest characters per line that could hold it in `count` lines
    while len(lines := wrap(width)) > count:
        width += 1
    return lines


def own_values(layout: dict[str, Any], paths: list[str]) -> dict[str, Any]:
    """Return the layout's own value at each attribute path (``"annotations[1].y"``), None where it has none.

    What puts a figure laid out side by side back as it was: Plotly's default for a value it did not have,
    and for the rest the value the figure was drawn with (Plotly rewrites some, such as the domain of an axis
    held to another's scale, once it has drawn them).

    Examples
    --------
    >>> own_values({"xaxis": {"domain": [0, 1]}, "annotations": [{"y": 0.5}]},
    ...            ["xaxis.domain", "xaxis.anchor", "annotations[0].y"])
    {'xaxis.domain': [0, 1], 'xaxis.anchor': None, 'annotations[0].y': 0.5}

    """
    return {path: _get_path(layout, path) for path in paths}


def side_by_side_payload(figure: dict[str, Any]) -> dict[str, Any] | None:
    """Return what a front end needs to put a figure's two stacked panels side by side and back.

    ``{"changes": side_by_side(figure), "own": own_values(...)}`` for the paths changed, or None for a figure
    that :func:`side_by_side` leaves as it is. The site's payload and the live figure both carry it; the
    presenter view and the lecture deck apply it (``RopeVizPresent.layOutAt``).
    """
    changes = side_by_side(figure)
    if changes is None:
        return None
    return {"changes": changes, "own": own_values(figure["layout"], list(changes))}
