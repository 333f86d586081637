"""The image and video demos show what the math says: their helpers checked against independent formulas and
rope_viz.mrope / rope_viz.axial, and every plotted array against the library (tests/test_demos.py checks the
generic contract of every demo)."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz import axial, mrope
from rope_viz.demos.vision_pair_axes import (
    BASE_LABELS,
    BASES,
    PAIRS,
    PairAxes,
    axis_runs,
    base_text,
    describe_pairs,
    tokens,
)
from rope_viz.demos.vision_patch_scores import (
    CELLS,
    GRID,
    NEIGHBOUR,
    QUERY_STEPS,
    PatchScoreMap,
    mixed_frequencies,
    offset_profiles,
    scheme_scores,
)
from rope_viz.demos.vision_position_ids import (
    TEXT_TOKENS,
    VIDEO_GRID,
    MixedSequenceIds,
    id_list,
    mixed_sequence,
    segment_label,
    segment_spans,
    shared_ids,
)
from rope_viz.demos.vision_style import (
    IMAGE_PIXELS,
    IMAGE_TOKENS,
    LANGUAGE_HEAD_DIM,
    PATCH_PIXELS,
    SPATIAL_MERGE,
    VISION_HEAD_DIM,
)
from rope_viz.mrope import Image, Text, Video
from tests.conftest import PROPERTY

angles = st.floats(min_value=-2 * math.pi, max_value=2 * math.pi)
head_quarters = st.integers(min_value=1, max_value=16)  # dim = 4 * quarters
small_bases = st.floats(min_value=1.5, max_value=1e5)


# --- RoPE-Mixed's turned frequencies ------------------------------------------------------------------------


@PROPERTY
@given(head_quarters, small_bases, angles, st.integers(-20, 20), st.integers(-20, 20))
def test_mixed_frequencies_turn_each_half_along_its_direction(quarters, base, angle, down, right):
    dim = 4 * quarters
    row, column = mixed_frequencies(dim, base, angle)
    assert row.shape == column.shape == (dim // 2,)
    # pair j of the first half turns by w_j times the offset projected on (cos angle, sin angle), pair
    # j + d/4 by w_j times its projection on the perpendicular direction (-sin angle, cos angle)
    phase = down * row + right * column
    for j in range(quarters):
        w = math.pow(base, -4.0 * j / dim)
        assert phase[j] == pytest.approx(w * (right * math.cos(angle) + down * math.sin(angle)), abs=1e-9)
        assert phase[j + quarters] == pytest.approx(
            w * (-right * math.sin(angle) + down * math.cos(angle)), abs=1e-9
        )
    # every pair keeps its axial speed: only the direction turns
    speeds = np.hypot(row, column)
    np.testing.assert_allclose(speeds, np.tile(axial.axial_inv_freq(dim, base), 2), rtol=1e-12)


def test_mixed_frequencies_at_angle_zero_are_axial_with_the_halves_swapped():
    row, column = mixed_frequencies(16, 100.0, 0.0)
    axial_row, axial_column = axial.axial_frequencies(16, 100.0)
    np.testing.assert_allclose(row, np.roll(axial_row, 4), atol=1e-15)
    np.testing.assert_allclose(column, np.roll(axial_column, 4), atol=1e-15)
    # the expected map does not care which half comes first
    frequencies = (row, column)
    mixed_map = axial.expected_axial_patch_self_scores(
        (5, 6), (2, 3), 16, base=100.0, frequencies=frequencies
    )
    axial_map = axial.expected_axial_patch_self_scores((5, 6), (2, 3), 16, base=100.0)
    np.testing.assert_allclose(mixed_map, axial_map, atol=1e-12)


def test_turned_45_degrees_the_diagonal_neighbour_is_no_longer_a_row_plus_a_column():
    dim, base = 80, 10_000.0
    turned = mixed_frequencies(dim, base, math.pi / 4)
    grid, query = (3, 3), (1, 1)
    mixed_map = axial.expected_axial_patch_self_scores(grid, query, dim, frequencies=turned)
    axial_map = axial.expected_axial_patch_self_scores(grid, query, dim, base=base)
    # axial: a row term plus a column term, so the diagonal neighbour scores (down) + (right) - (self)
    assert axial_map[2, 2] == pytest.approx(axial_map[2, 1] + axial_map[1, 2] - axial_map[1, 1])
    assert mixed_map[2, 2] != pytest.approx(mixed_map[2, 1] + mixed_map[1, 2] - mixed_map[1, 1], abs=1e-3)
    # by hand: along the diagonal, half the pairs turn sqrt(2) w_j per step and the other half not at all
    speeds = axial.axial_inv_freq(dim, base)
    by_hand = 2 * np.cos(math.sqrt(2) * speeds).sum() + 2 * speeds.size
    assert mixed_map[2, 2] == pytest.approx(by_hand)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((6, 100.0, 0.0), "dim"),
        ((8, 1.0, 0.0), "base"),
        ((8, 100.0, float("nan")), "angle"),
        ((8, 100.0, [1, 2]), "angle"),
    ],
)
def test_mixed_frequencies_refuse_bad_arguments(arguments, message):
    with pytest.raises(ValueError, match=message):
        mixed_frequencies(*arguments)


# --- the score map ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", range(4))
def test_scheme_scores_are_one_at_the_query_and_depend_on_the_offset_alone(scheme):
    reach = max(GRID) - 1
    along_row, along_column = offset_profiles(scheme, reach)
    maps = {query: scheme_scores(scheme, GRID, query) for query in [(0, 0), (4, 6), (15, 9), (8, 15)]}
    for (row, col), scores in maps.items():
        assert scores.shape == GRID
        assert scores[row, col] == pytest.approx(1.0)
        assert scores.max() == pytest.approx(1.0)
        # the map through the query is a slice of the same two curves, wherever the query is
        np.testing.assert_allclose(scores[row, :], along_row[reach - col : reach - col + GRID[1]], atol=1e-12)
        np.testing.assert_allclose(
            scores[:, col], along_column[reach - row : reach - row + GRID[0]], atol=1e-12
        )
    # and one fixed offset scores the same for every query that has it inside the grid
    down, right = NEIGHBOUR
    values = [scores[row + down, col + right] for (row, col), scores in maps.items() if row < 15 and col < 15]
    np.testing.assert_allclose(values, values[0], atol=1e-12)
    np.testing.assert_allclose(along_row, along_row[::-1], atol=1e-12)  # E[score] is even in the offset


def test_scheme_scores_are_the_library_maps_divided_by_d():
    query = (3, 11)
    np.testing.assert_allclose(
        scheme_scores(0, GRID, query), axial.expected_axial_patch_self_scores(GRID, query, 80, base=1e4) / 80
    )
    chunks = mrope.expected_mrope_patch_self_scores(GRID, query, (16, 24, 24), base=1e6) / 128
    np.testing.assert_allclose(scheme_scores(2, GRID, query), chunks)
    interleaved = mrope.expected_mrope_patch_self_scores(
        GRID, query, (24, 20, 20), interleaved=True, base=5e6
    )
    np.testing.assert_allclose(scheme_scores(3, GRID, query), interleaved / 128)
    # by hand for the chunks, one column right: time and height pairs do not turn, width pairs 40-63 do
    theta = np.array([1e6 ** (-2 * i / 128) for i in range(64)])
    one_right = (2 * 40 + 2 * np.cos(theta[40:]).sum()) / 128
    assert scheme_scores(2, GRID, query)[3, 12] == pytest.approx(one_right)
    with pytest.raises(ValueError, match="scheme"):
        scheme_scores(4, GRID, query)


def test_the_chunked_layout_hardly_tells_patches_apart():
    lowest = [
        min(scheme_scores(s, GRID, (r, c)).min() for r in QUERY_STEPS for c in QUERY_STEPS) for s in range(4)
    ]
    axial_low, mixed_low, chunks_low, interleaved_low = lowest
    assert chunks_low > 0.99  # the spatial axes of the chunks have only slow pairs
    assert interleaved_low < 0.9 and axial_low < 0.6 and mixed_low < 0.7
    assert all(value > 0.5 for value in lowest)  # inside the figure's colour range


def test_patch_map_view_plots_the_map_and_its_slices():
    demo = PatchScoreMap()
    view = demo.view(scheme=3, row=4, col=6)
    scores = scheme_scores(3, GRID, (4, 6))
    np.testing.assert_allclose(view.traces[0]["z"], scores, atol=5e-5)
    assert view.traces[1] == {"x": [6], "y": [4]}
    assert view.traces[2] == {"x": [7], "y": [5]}
    np.testing.assert_allclose(view.traces[5]["y"], scores[4, :], rtol=1e-4)
    assert view.traces[5]["x"] == list(range(-6, 10))
    np.testing.assert_allclose(view.traces[6]["y"], scores[:, 6], rtol=1e-4)
    assert f"{scores[5, 7]:.5f}" in view.readout
    assert demo.view(scheme=3, row=15, col=15).traces[2] == {"x": [None], "y": [None]}  # neighbour outside


def test_the_patch_map_says_what_a_cell_is_under_each_scheme():
    # the 2-D RoPE schemes score the vision encoder's patches (d = 80), M-RoPE the language model's tokens,
    # each 2 x 2 patches merged (d = 128): "one row down" is not the same step in the image
    query = (4, 6)
    library = [
        axial.expected_axial_patch_self_scores(GRID, query, 80, base=1e4),
        axial.expected_axial_patch_self_scores(
            GRID, query, 80, frequencies=mixed_frequencies(80, 1e4, math.pi / 4)
        ),
        mrope.expected_mrope_patch_self_scores(GRID, query, (16, 24, 24), base=1e6),
        mrope.expected_mrope_patch_self_scores(GRID, query, (24, 20, 20), interleaved=True, base=5e6),
    ]
    demo = PatchScoreMap()
    for scheme, (dim, word) in enumerate([(80, "patch"), (80, "patch"), (128, "token"), (128, "token")]):
        readout = demo.view(scheme=scheme, row=query[0], col=query[1]).readout
        assert f"; a cell is {CELLS[scheme]}." in readout
        assert CELLS[scheme].startswith(f"one {word} of the ") and CELLS[scheme].endswith(f"d = {dim}")
        # the head size the readout names is the one the map is divided by
        np.testing.assert_allclose(scheme_scores(scheme, GRID, query) * dim, library[scheme], atol=1e-9)
    assert (VISION_HEAD_DIM, LANGUAGE_HEAD_DIM) == (80, 128)
    assert f"({PATCH_PIXELS} pixels a side" in CELLS[0]
    assert f"({SPATIAL_MERGE} × {SPATIAL_MERGE} patches merged)" in CELLS[2]


# --- which pairs each axis gets -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("section", "interleaved", "expected"),
    [
        ((16, 24, 24), False, ["0–15", "16–39", "40–63"]),
        ((24, 20, 20), True, ["0, 3, …, 57 and 60–63", "1, 4, …, 58", "2, 5, …, 59"]),
    ],
)
def test_axis_runs_of_the_released_layouts(section, interleaved, expected):
    runs = axis_runs(mrope.pair_axes(section, interleaved=interleaved))
    assert [axis for axis, _ in runs] == [0, 1, 2]
    assert [indices.size for _, indices in runs] == list(section)
    assert sorted(np.concatenate([indices for _, indices in runs]).tolist()) == list(range(64))
    assert [describe_pairs(indices) for _, indices in runs] == expected


@pytest.mark.parametrize(
    ("indices", "text"),
    [([5], "5"), ([], "none"), ([2, 3], "2–3"), ([1, 4, 7], "1, 4, 7"), ([0, 3, 7, 8], "0, 3, 7, 8")],
)
def test_describe_pairs_small_cases(indices, text):
    assert describe_pairs(np.array(indices, dtype=int)) == text


def test_tokens_formats_lengths():
    assert [tokens(value) for value in (2 * math.pi, 198.7, 35_333.4)] == ["6.28", "199", "35,333"]


@pytest.mark.parametrize(
    ("base", "text"), [(10.0, "10¹"), (1e4, "10⁴"), (1e6, "10⁶"), (5e6, "5·10⁶"), (9e12, "9·10¹²")]
)
def test_base_text_writes_a_power_of_ten(base, text):
    assert base_text(base) == text
    mantissa, _, power = text.rpartition("10")
    digits = power.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789"))
    assert float(mantissa.rstrip("·") or 1) * 10 ** int(digits) == base


@pytest.mark.parametrize("base", [2.5e6, 1.0, 5.0, 0.1, -100.0, float("inf"), float("nan")])
def test_base_text_refuses_other_numbers(base):
    with pytest.raises(ValueError, match="base"):
        base_text(base)


def test_the_base_slider_labels_are_its_values():
    assert [label.split()[0] for label in BASE_LABELS] == [base_text(base) for base in BASES]
    assert [base_text(base) for base in BASES] == ["10⁴", "10⁶", "5·10⁶"]


def test_pair_axes_view_draws_each_axis_at_its_wavelengths():
    demo = PairAxes()
    for layout, (section, interleaved) in enumerate([((16, 24, 24), False), ((24, 20, 20), True)]):
        for base in (1e4, 1e6, 5e6):
            view = demo.view(layout=layout, base=base)
            axes = mrope.pair_axes(section, interleaved=interleaved)
            wavelength = 2 * np.pi / rv.inv_freq(128, base)
            for axis in range(3):
                update = view.traces[1 + axis]
                assert update["x"] == np.flatnonzero(axes == axis).tolist()
                np.testing.assert_allclose(update["y"], wavelength[axes == axis], rtol=1e-4)
            assert view.layout == {"shapes[0].y0": layout - 0.5, "shapes[0].y1": layout + 0.5}
    # the readout's turns across the image: the fastest width pair of the chunks at base 10^6
    readout = demo.view(layout=0, base=1e6).readout
    fastest_width = 2 * np.pi / rv.inv_freq(128, 1e6)[40]
    assert f"width pair 40 (λ {fastest_width:,.0f}, {IMAGE_TOKENS / fastest_width:.3g} turns)" in readout
    assert PAIRS == 64


def test_the_example_image_is_32_tokens_wide():
    assert IMAGE_PIXELS / (PATCH_PIXELS * SPATIAL_MERGE) == IMAGE_TOKENS == 32


# --- position ids of the mixed sequence ---------------------------------------------------------------------


@PROPERTY
@given(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))
def test_segment_spans_tile_the_sequence(rows, cols, frames):
    segments = mixed_sequence(rows, cols, frames)
    spans = segment_spans(segments)
    assert [kind for kind, _, _ in spans] == ["text", "image", "text", "video", "text"]
    assert spans[0][1] == 0
    assert all(stop == next_start for (_, _, stop), (_, next_start, _) in itertools.pairwise(spans))
    assert spans[-1][2] == mrope.position_ids(segments).shape[1]
    assert [stop - start for _, start, stop in spans] == [
        TEXT_TOKENS[0],
        rows * cols,
        TEXT_TOKENS[1],
        frames * VIDEO_GRID[0] * VIDEO_GRID[1],
        TEXT_TOKENS[2],
    ]


def test_segment_helpers_by_hand():
    assert segment_spans([Text(2), Video(3, 1, 2)]) == [("text", 0, 2), ("video", 2, 8)]
    assert [segment_label(s) for s in (Text(4), Image(2, 5), Video(3, 2, 2))] == [
        "text",
        "image 2×5",
        "video 3×2×2",
    ]
    with pytest.raises(ValueError, match="segments"):
        segment_spans([(2, 3)])


@PROPERTY
@given(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6), st.sampled_from([0, 1]))
def test_position_ids_view_plots_the_library_ids_and_says_where_text_resumes(rows, cols, frames, resume):
    view = MixedSequenceIds().view(rows=rows, cols=cols, frames=frames, resume=resume)
    rule = ("maximum", "spatial")[resume]
    ids = mrope.position_ids(mixed_sequence(rows, cols, frames), resume=rule)
    for axis in range(3):
        assert view.traces[axis]["y"] == ids[axis].tolist()
        assert view.traces[axis]["x"] == list(range(ids.shape[1]))
    first, middle, _ = TEXT_TOKENS
    after_image = first + max(rows, cols)  # one past the image's largest id, under both rules
    assert f"the text after it starts at {after_image}." in view.readout
    video_start = after_image + middle
    paper, code = video_start + max(frames - 1, max(VIDEO_GRID) - 1) + 1, video_start + max(VIDEO_GRID)
    resumed = int(re.search(r"the text after it starts at (\d+) \(", view.readout).group(1))
    assert resumed == (paper if resume == 0 else code) == ids[0, -TEXT_TOKENS[2]]
    assert ("both rules" in view.readout) == (paper == code) == (frames <= max(VIDEO_GRID))
    # the ids used twice under transformers' rule, counted on their own: the final text takes the ids
    # code, code + 1, ... (one per token) and the video holds the time ids video_start ... video_start +
    # frames - 1 (its spatial ids stop below code); the shared ones are where the two runs overlap
    final = range(code, code + TEXT_TOKENS[2])
    video_times = range(video_start, video_start + frames)
    overlap = [value for value in final if value in video_times]
    if resume == 1 and overlap:
        low, high = max(code, video_start), min(code + TEXT_TOKENS[2] - 1, video_start + frames - 1)
        assert overlap == list(range(low, high + 1))
        held = f"ids {low}–{high} are" if high > low else f"id {low} is"
        assert f"so {held} held by both the video and the final text)." in view.readout
    else:
        assert "held by both" not in view.readout
    assert "t =" not in view.readout and f"at time id {first}:" in view.readout
    shapes = [(view.layout[f"shapes[{k}].x0"], view.layout[f"shapes[{k}].x1"]) for k in range(5)]
    spans = segment_spans(mixed_sequence(rows, cols, frames))
    assert shapes == [(start - 0.5, stop - 0.5) for _, start, stop in spans]


def test_the_final_text_shares_only_the_ids_of_the_videos_frames_it_reaches():
    segments = mixed_sequence(3, 4, 6)
    spans = segment_spans(segments)
    code = mrope.position_ids(segments, resume="spatial")
    paper = mrope.position_ids(segments, resume="maximum")
    # the video starts at 3 + max(3, 4) + 2 = 9 and its time ids run to 14; transformers 5.23 starts the two
    # final tokens at 9 + 2 = 11, so they sit on 11 and 12, not on 11 to 14
    assert code[0, spans[3][1]] == 9 and code[0, spans[3][2] - 1] == 14
    assert shared_ids(code, spans).tolist() == [11, 12] == code[0, -2:].tolist()
    assert shared_ids(paper, spans).size == 0
    readout = MixedSequenceIds().view(rows=3, cols=4, frames=6, resume=1).readout
    assert "so ids 11–12 are held by both" in readout and "11–14" not in readout
    # three frames: the video's last time id is the final text's first, one id shared
    assert "so id 11 is held by both" in MixedSequenceIds().view(rows=3, cols=4, frames=3, resume=1).readout


def test_id_list_names_one_id_a_run_or_a_list():
    assert [id_list(values) for values in ([], [7], [7, 8], [7, 8, 9], [7, 9])] == [
        "no ids",
        "id 7",
        "ids 7–8",
        "ids 7–9",
        "ids 7, 9",
    ]
