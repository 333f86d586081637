"""A figure's stacked panels side by side for a slide (``rope_viz.figures.slide_layout``): rows become
columns, and what is placed in paper coordinates keeps its place relative to its panel. The deck as it shows
these figures in the browser is tested in ``tests/site/test_lecture.py`` (panels side by side, no text over
other text).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rope_viz import lecture
from rope_viz.demos.base import _set_path
from rope_viz.figures.rounding import plain
from rope_viz.figures.slide_layout import (
    CHARACTERS_PER_COLUMN,
    COLUMN_GAP,
    LEGEND_ENTRY_EXTRA,
    LEGEND_LINE,
    LEGEND_PADDING,
    LINE_HEIGHT,
    _broken,
    column_span,
    own_values,
    side_by_side,
    side_by_side_payload,
)
from rope_viz.figures.static import build_payload
from rope_viz.widgets.live import LiveFigure

TOP = (0.55, 0.95)
BOTTOM = (0.0, 0.4)


def _stacked(**layout: object) -> dict:
    """Two panels as wide as the figure, the first above the second, with a title above each."""
    return {
        "data": [
            {"type": "scatter", "x": [0, 1], "y": [0, 1]},
            {"type": "scatter", "xaxis": "x2", "yaxis": "y2"},
        ],
        "layout": {
            "height": 900,
            "margin": {"t": 50, "b": 60},
            "xaxis": {"domain": [0.0, 1.0], "title": {"text": "pair index i"}},
            "yaxis": {"domain": list(TOP)},
            "xaxis2": {"domain": [0.0, 1.0], "anchor": "y2", "title": {"text": "distance"}},
            "yaxis2": {"domain": list(BOTTOM), "anchor": "x2"},
            "annotations": [
                {"xref": "paper", "yref": "paper", "x": 0.5, "y": TOP[1] + 0.02, "text": "upper"},
                {"xref": "paper", "yref": "paper", "x": 0.5, "y": BOTTOM[1] + 0.01, "text": "lower"},
                {"xref": "x2", "yref": "y2", "x": 3.0, "y": 1.0, "text": "in data units"},
            ],
            **layout,
        },
    }


def test_the_rows_become_columns_of_one_height_each_axis_on_its_own_panel():
    changes = side_by_side(_stacked())
    left, right = column_span(0, 2), column_span(1, 2)
    assert changes["xaxis.domain"] == list(left) and changes["xaxis2.domain"] == list(right)
    assert changes["yaxis.domain"] == changes["yaxis2.domain"] == [BOTTOM[0], TOP[1]]
    assert right[0] - left[1] == pytest.approx(COLUMN_GAP) and left[0] == 0 and right[1] == 1
    assert changes["yaxis2.anchor"] == "x2" and changes["xaxis.anchor"] == "y"
    # An annotation in the axes' own units follows its axes unchanged.
    assert not any(key.startswith("annotations[2]") for key in changes)


def test_a_part_of_a_panel_narrower_than_the_figure_keeps_its_share_of_the_column():
    figure = _stacked()
    figure["layout"]["xaxis"]["domain"] = [0.1, 0.9]
    left, right = column_span(0, 2)
    width = right - left
    assert side_by_side(figure)["xaxis.domain"] == pytest.approx([left + 0.1 * width, left + 0.9 * width])


def test_the_titles_line_up_above_their_columns_at_the_highest_distance():
    changes = side_by_side(_stacked())
    assert changes["annotations[0].y"] == changes["annotations[1].y"] == pytest.approx(TOP[1] + 0.02)
    assert changes["annotations[0].x"] == pytest.approx(sum(column_span(0, 2)) / 2)
    assert changes["annotations[1].x"] == pytest.approx(sum(column_span(1, 2)) / 2)


@given(row=st.sampled_from([TOP, BOTTOM]), share=st.floats(0, 1), x=st.floats(0, 1))
def test_a_legend_inside_a_panel_moves_under_its_column_at_the_foot_of_the_figure(row, share, x):
    """Where the page's wide panel had room for a legend, a column may not: it hangs from the figure's foot,
    one entry a line, under its own column, and the margin under the plot grows by its height."""
    y = row[0] + share * (row[1] - row[0])
    changes = side_by_side(_stacked(legend={"x": x, "y": y, "xanchor": "right", "orientation": "h"}))
    column = column_span(0 if row == TOP else 1, 2)
    assert changes["legend.x"] == pytest.approx(column[0]) and changes["legend.xanchor"] == "left"
    assert (changes["legend.y"], changes["legend.yref"], changes["legend.yanchor"]) == (
        0,
        "container",
        "bottom",
    )
    assert changes["legend.orientation"] == "v"
    # Two traces in the legend at Plotly's 12 px font: 2 × (1.3 × 12 + 3) px and the padding.
    assert changes["margin.b"] == 60 + round(2 * (LEGEND_LINE * 12 + LEGEND_ENTRY_EXTRA)) + LEGEND_PADDING


def test_legends_under_both_columns_grow_the_margin_by_the_taller_and_count_only_their_own_entries():
    figure = _stacked(legend={"x": 0.9, "y": 0.9}, legend2={"x": 0.9, "y": 0.1}, font={"size": 10})
    figure["data"] = [
        {"type": "scatter", "name": "a"},
        {"type": "scatter", "name": "b<br>on two lines"},
        {"type": "scatter", "name": "hidden", "showlegend": False},
        {"type": "scatter", "name": "c", "legend": "legend2", "xaxis": "x2", "yaxis": "y2"},
    ]
    changes = side_by_side(figure)
    assert changes["legend2.x"] == pytest.approx(column_span(1, 2)[0])
    assert changes["legend.x"] == pytest.approx(column_span(0, 2)[0])
    upper = round(3 * LEGEND_LINE * 10 + 2 * LEGEND_ENTRY_EXTRA)  # a, and b's two lines
    assert changes["margin.b"] == 60 + upper + LEGEND_PADDING


def test_a_legend_hanging_under_the_upper_panel_hangs_as_far_under_its_column():
    hanging = TOP[0] - 0.03  # nearer the upper panel's bottom than the lower panel's top
    changes = side_by_side(_stacked(legend={"x": 0.0, "y": hanging, "yanchor": "top"}))
    assert changes["legend.y"] == pytest.approx(BOTTOM[0] - 0.03)
    assert changes["legend.x"] == pytest.approx(column_span(0, 2)[0])


def test_a_legend_under_the_whole_figure_stays_or_moves_down_by_the_lines_its_titles_gain():
    assert "legend.y" not in side_by_side(_stacked(legend={"x": 0.0, "y": -0.08}))
    figure = _stacked(legend={"x": 0.0, "y": -0.08})
    figure["layout"]["xaxis2"]["title"]["text"] = "j, number of arrows summed (fast pairs first)"
    changes = side_by_side(figure)
    assert changes["xaxis2.title.text"].count("<br>") == 1
    assert changes["margin.b"] == 60 + LINE_HEIGHT
    plot_height = 900 - 50 - (60 + LINE_HEIGHT)
    assert changes["legend.y"] == pytest.approx(-0.08 - LINE_HEIGHT / plot_height, abs=1e-6)


def _three_rows(**layout: object) -> dict:
    """Three panels as wide as the figure, each with a title above it (the middle one's long)."""
    figure = _stacked(**layout)
    figure["layout"]["yaxis"]["domain"] = [0.7, 0.95]
    figure["layout"]["yaxis2"]["domain"] = [0.35, 0.6]
    figure["layout"].update(
        xaxis3={"domain": [0.0, 1.0], "anchor": "y3"}, yaxis3={"domain": [0.0, 0.22], "anchor": "x3"}
    )
    figure["data"].append({"type": "scatter", "xaxis": "x3", "yaxis": "y3"})
    annotations = figure["layout"]["annotations"]
    annotations[0]["y"], annotations[1]["y"] = 0.97, 0.61
    annotations[1]["text"] = "slow-down per pair: a ramp in pair index (reference code) or in turns ρ (paper)"
    annotations.append({"xref": "paper", "yref": "paper", "x": 0.5, "y": 0.24, "text": "temperature"})
    return figure


def test_of_three_rows_the_first_spans_the_upper_half_and_the_others_stand_side_by_side_under_it():
    changes = side_by_side(_three_rows())
    plot_height = 900 - 50 - 60
    gap = 0.13 + 2 * LINE_HEIGHT / plot_height  # the widest gap, and two more lines of the middle title
    assert changes["xaxis.domain"] == [0.0, 1.0]
    assert changes["xaxis2.domain"] == list(column_span(0, 2))
    assert changes["xaxis3.domain"] == list(column_span(1, 2))
    (wide_bottom, wide_top), (bottom, top) = changes["yaxis.domain"], changes["yaxis2.domain"]
    assert changes["yaxis3.domain"] == [bottom, top] and (bottom, wide_top) == (0.0, 0.95)
    assert wide_bottom - top == pytest.approx(gap, abs=1e-5)
    assert wide_top - wide_bottom == pytest.approx(top - bottom, abs=1e-5)
    # The wide panel's title stays whole above it; the columns' titles line up, the long one broken.
    assert changes["annotations[0].y"] == pytest.approx(0.97) and "annotations[0].text" not in changes
    assert changes["annotations[1].y"] == changes["annotations[3].y"] == pytest.approx(top + 0.02, abs=1e-5)
    assert changes["annotations[1].text"].count("<br>") == 2
    assert "margin.t" not in changes


def test_of_three_rows_a_legend_in_the_wide_panel_keeps_its_place_and_one_in_a_column_hangs_at_the_foot():
    changes = side_by_side(_three_rows(legend={"x": 0.2, "y": 0.9}, legend2={"x": 0.5, "y": 0.1}))
    wide_bottom, wide_top = changes["yaxis.domain"]
    assert (changes["legend.y"] - wide_bottom) / (wide_top - wide_bottom) == pytest.approx(0.8, abs=1e-5)
    assert changes["legend.x"] == pytest.approx(0.2) and "legend.yref" not in changes
    assert (
        changes["legend2.x"] == pytest.approx(column_span(1, 2)[0]) and changes["legend2.yref"] == "container"
    )


def test_an_axis_held_to_another_by_its_domain_widens_its_range_instead():
    figure = _stacked()
    figure["layout"]["yaxis"].update(scaleanchor="x", constrain="domain")
    assert side_by_side(figure)["yaxis.constrain"] == "range"


@pytest.mark.parametrize(
    "change",
    [
        lambda figure: figure["data"].append({"type": "heatmap", "z": [[1]]}),
        lambda figure: figure["layout"]["xaxis"].update(domain=[0.0, 0.45]),
        lambda figure: figure["layout"].update(
            xaxis3={"domain": [0, 1]},
            yaxis3={"domain": [0.47, 0.5]},
            xaxis4={"domain": [0, 1]},
            yaxis4={"domain": [0.42, 0.45]},
        ),
        lambda figure: figure["layout"]["yaxis2"].update(domain=[0.0, 0.6]),
        lambda figure: [figure["layout"].pop(key) for key in ("xaxis2", "yaxis2")],
    ],
    ids=["a colour bar", "panels already side by side", "four rows", "overlapping rows", "one panel"],
)
def test_other_figures_are_left_as_they_are(change):
    figure = _stacked()
    change(figure)
    assert side_by_side(figure) is None


words = st.lists(st.text(alphabet="abcdefghijλθ()·", min_size=1, max_size=12), min_size=1, max_size=14)


@given(words)
def test_a_long_title_is_broken_between_words_into_as_few_even_lines_as_hold_it(title_words):
    text = " ".join(title_words)
    lines = _broken(text, CHARACTERS_PER_COLUMN)
    if len(text) <= CHARACTERS_PER_COLUMN:
        assert lines is None
        return
    assert " ".join(lines) == text
    assert all(len(line) <= CHARACTERS_PER_COLUMN for line in lines)
    # As few lines as a greedy fill at the column's width takes.
    fewest = 1
    line = ""
    for word in title_words:
        if line and len(line) + 1 + len(word) > CHARACTERS_PER_COLUMN:
            fewest += 1
            line = word
        else:
            line = f"{line} {word}" if line else word
    assert len(lines) == fewest


def test_a_title_with_markup_is_left_whole():
    assert _broken("<b>no position</b> " * 5, CHARACTERS_PER_COLUMN) is None


def _deck_figures():
    seen = {}
    for slide in lecture.SLIDES:
        seen.setdefault(slide.demo, slide)
    return list(seen)


@pytest.mark.parametrize("demo", _deck_figures(), ids=lambda demo: demo.__name__)
def test_every_change_for_a_deck_figure_names_what_the_figure_has(demo):
    figure = plain(demo().initial_figure())
    changes = side_by_side(figure)
    if changes is None:
        return
    layout = figure["layout"]
    for path, value in changes.items():
        top = re.match(r"(\w+?)(?:\[(\d+)\])?\.", path)
        name, index = top.group(1), top.group(2)
        assert name in layout or name == "margin", path
        if index is not None:
            assert int(index) < len(layout[name]), path
        if path.endswith((".x", ".y")):
            assert -0.5 < value < 1.5, (path, value)
        if path.endswith(".text"):
            assert all(len(line) <= CHARACTERS_PER_COLUMN for line in value.split("<br>")), (path, value)


def test_the_payload_gives_the_front_end_the_changes_and_the_figures_own_values():
    """The site's payload carries the changes and what puts the figure back: for each changed path, the
    value the figure was drawn with (None where Plotly's default applied)."""
    figure = _stacked(legend={"x": 0.0, "y": 0.6})
    changes = side_by_side(figure)
    own = own_values(figure["layout"], list(changes))
    assert own["xaxis.domain"] == [0.0, 1.0] and own["annotations[1].y"] == BOTTOM[1] + 0.01
    assert own["legend.y"] == 0.6 and own["xaxis.anchor"] is None and own["xaxis2.anchor"] == "y2"
    for demo in _deck_figures():
        payload = build_payload(demo())
        live = LiveFigure(demo())
        expected = side_by_side(payload["figure"])
        if expected is None:
            assert "sideBySide" not in payload and live.side_by_side is None, demo
        else:
            wide = {"changes": expected, "own": own_values(payload["figure"]["layout"], list(expected))}
            assert payload["sideBySide"] == wide, demo
            assert live.side_by_side == side_by_side_payload(live.figure) is not None, demo


paths = st.lists(
    st.one_of(st.sampled_from(["a", "b", "legend", "y"]), st.integers(0, 3)), min_size=1, max_size=5
).filter(lambda keys: isinstance(keys[0], str))


@given(paths, st.floats(allow_nan=False))
def test_a_value_set_at_a_path_is_read_back_there_and_nothing_else_is_set(keys, value):
    """``own_values`` reads a path as the demos' ``_set_path`` writes it: the value set, None elsewhere."""
    path = "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in keys).lstrip(".")
    layout: dict = {}
    try:
        _set_path(layout, path, value)
    except IndexError:  # _set_path makes no list entries; a path into one needs it there already
        return
    assert own_values(layout, [path, path + ".other"]) == {path: value, path + ".other": None}
