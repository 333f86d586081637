"""Tests of rope_viz.mrope against transformers' Qwen-VL code (fixture), plain RoPE and per-pair formulas."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz import mrope
from rope_viz.mrope import Image, Text, Video
from tests.conftest import PROPERTY, as_complex, bases, conventions, pair_indices, vectors

FIXTURE = json.loads((Path(__file__).resolve().parent / "reference" / "mrope_reference.json").read_text())
# transformers computes in float32 (cos/sin and the product); positions stay below 30 here.
HF_ATOL = 5e-6
ATOL = 1e-9


def as_segment(entry: dict) -> Text | Image | Video:
    if "text" in entry:
        return Text(entry["text"])
    if "image" in entry:
        return Image(*entry["image"])
    return Video(*entry["video"], seconds_per_grid=entry.get("seconds_per_grid", 1.0))


def hand_position_ids(segments: list, tokens_per_second: float | None) -> np.ndarray:
    """The Qwen2-VL paper's rule, token by token: each segment starts one past the largest id before it."""
    columns: list[tuple[int, int, int]] = []
    for segment in segments:
        start = 1 + max((max(column) for column in columns), default=-1)
        if isinstance(segment, Text):
            columns += [(start + k, start + k, start + k) for k in range(segment.tokens)]
            continue
        frames = segment.frames if isinstance(segment, Video) else 1
        for j in range(frames):
            if isinstance(segment, Video) and tokens_per_second is not None:
                step = float(np.float32(segment.seconds_per_grid) * np.float32(tokens_per_second))
                time = start + math.floor(float(np.float32(j) * np.float32(step)))
            else:
                time = start + j
            columns += [
                (time, start + r, start + c) for r in range(segment.rows) for c in range(segment.cols)
            ]
    return np.array(columns, dtype=np.int64).T.reshape(3, -1)


sections = st.tuples(*[st.integers(min_value=0, max_value=12)] * 3).filter(lambda s: sum(s) > 0)


@st.composite
def fitting_sections(draw, interleaved: bool | None = None):
    """A section that fits its layout; returns (section, interleaved)."""
    layout = draw(st.booleans()) if interleaved is None else interleaved
    section = draw(sections)
    pairs = sum(section)
    if layout and (3 * section[1] > pairs + 1 or 3 * section[2] > pairs):
        section = (
            section[0] + 2 * max(section[1], section[2]),
            section[1],
            section[2],
        )  # widen the time part
    return section, layout


# --- 1. pair axes: transformers' assignment -----------------------------------------------------------------


def test_fixture_comes_from_transformers_5():
    assert FIXTURE["transformers_version"].split(".")[0] == "5"
    assert FIXTURE["generator"] == "tests/reference/generate_mrope_reference.py"
    models = {case["model"] for case in FIXTURE["pair_axes"]}
    assert models == {"qwen2_vl", "qwen2_5_vl", "qwen3_vl"}
    released = {(case["model"], tuple(case["mrope_section"])) for case in FIXTURE["pair_axes"]}
    assert ("qwen2_vl", mrope.QWEN2_VL_SECTION) in released
    assert ("qwen3_vl", mrope.QWEN3_VL_SECTION) in released


@pytest.mark.parametrize("case", FIXTURE["pair_axes"], ids=lambda case: case["id"])
def test_pair_axes_equal_transformers(case):
    axes = mrope.pair_axes(case["mrope_section"], interleaved=case["interleaved"])
    assert axes.dtype == np.int64
    assert axes.tolist() == case["pair_axes"]


def test_released_layouts_by_hand():
    chunked = mrope.pair_axes(mrope.QWEN2_VL_SECTION)
    assert chunked.tolist() == [0] * 16 + [1] * 24 + [2] * 24
    interleaved = mrope.pair_axes(mrope.QWEN3_VL_SECTION, interleaved=True)
    assert interleaved[:60].tolist() == [0, 1, 2] * 20
    assert interleaved[60:].tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize("case", FIXTURE["misfit"], ids=lambda case: case["id"])
def test_a_section_transformers_cannot_honour_is_refused(case):
    counts = np.bincount(case["pair_axes"], minlength=3).tolist()
    assert counts != case["mrope_section"]  # transformers silently gives other counts
    with pytest.raises(ValueError, match="mrope_section"):
        mrope.pair_axes(case["mrope_section"], interleaved=True)
    assert mrope.pair_axes(case["mrope_section"]).size == sum(case["mrope_section"])  # chunks always fit


@PROPERTY
@given(sections, st.booleans())
def test_pair_axes_give_each_axis_its_count_or_refuse(section, interleaved):
    # transformers' interleaved procedure, written with slices: time everywhere, then overwrite h and w
    pairs = sum(section)
    emulated = np.zeros(pairs, dtype=int)
    emulated[1 : 3 * section[1] : 3] = 1
    emulated[2 : 3 * section[2] : 3] = 2
    honoured = np.bincount(emulated, minlength=3).tolist() == list(section)
    if interleaved and not honoured:
        with pytest.raises(ValueError, match="mrope_section"):
            mrope.pair_axes(section, interleaved=True)
        return
    axes = mrope.pair_axes(section, interleaved=interleaved)
    assert np.bincount(axes, minlength=3).tolist() == list(section)
    if interleaved:
        np.testing.assert_array_equal(axes, emulated)
    else:
        assert np.all(np.diff(axes) >= 0)  # chunks: time, then height, then width


def test_interleaving_gives_every_spatial_axis_fast_pairs():
    chunked = mrope.pair_axes(mrope.QWEN2_VL_SECTION)
    interleaved = mrope.pair_axes(mrope.QWEN3_VL_SECTION, interleaved=True)
    # theta_i falls with i: the fastest height pair is pair 16 in the chunks, pair 1 when interleaved
    assert np.flatnonzero(chunked == 1)[0] == 16
    assert np.flatnonzero(interleaved == 1)[0] == 1
    assert np.flatnonzero(interleaved == 2)[-1] == 59


@pytest.mark.parametrize(
    "section",
    [[], [4, 4], [1, 2, 3, 4], [-1, 2, 2], [0, 0, 0], [1.5, 2, 2], [True, 1, 1], "abc", 3, None],
)
def test_bad_sections_name_mrope_section(section):
    with pytest.raises(ValueError, match="mrope_section"):
        mrope.pair_axes(section)


def test_a_section_that_does_not_fit_the_head_is_refused():
    with pytest.raises(ValueError, match="mrope_section"):
        mrope.rotate_mrope(np.ones((2, 8)), np.zeros((3, 2)), [2, 2, 2])


# --- 2. position ids: get_rope_index ------------------------------------------------------------------------


@pytest.mark.parametrize("case", FIXTURE["position_ids"], ids=lambda case: case["id"])
def test_position_ids_equal_get_rope_index(case):
    assert case["spatial_merge_size"] == 2
    segments = [as_segment(entry) for entry in case["segments"]]
    ids = mrope.position_ids(segments, tokens_per_second=case["tokens_per_second"], resume="spatial")
    assert ids.dtype == np.int64
    np.testing.assert_array_equal(ids, case["position_ids"])


def segment_sizes(segments: list) -> list[int]:
    return [s.tokens if isinstance(s, Text) else getattr(s, "frames", 1) * s.rows * s.cols for s in segments]


@pytest.mark.parametrize("case", FIXTURE["position_ids"], ids=lambda case: case["id"])
def test_the_papers_resume_rule_differs_only_after_videos_that_outrun_their_grid(case):
    segments = [as_segment(entry) for entry in case["segments"]]
    tokens_per_second = case["tokens_per_second"]
    paper = mrope.position_ids(segments, tokens_per_second=tokens_per_second)
    np.testing.assert_array_equal(paper, hand_position_ids(segments, tokens_per_second))
    hf = np.array(case["position_ids"])
    ends = np.cumsum(segment_sizes(segments))
    # videos whose temporal ids pass their spatial ones (the last token of a video has the largest of each)
    outrunning = [
        index
        for index, segment in enumerate(segments)
        if isinstance(segment, Video) and paper[0, ends[index] - 1] > paper[1:, ends[index] - 1].max()
    ]
    if not outrunning:
        np.testing.assert_array_equal(paper, hf)
        return
    first = int(np.flatnonzero(np.any(paper != hf, axis=0))[0])
    assert first == ends[outrunning[0]]  # they part right after the first such video
    assert paper[:, first].min() > paper[:, :first].max()  # the paper's rule never reuses an id
    assert hf[:, first].min() <= hf[:, :first].max()  # transformers 5.23 reuses one


@PROPERTY
@given(
    st.integers(1, 8),
    st.integers(1, 4),
    st.integers(1, 4),
    st.sampled_from([None, 1.0, 2.0, 3.0]),
    st.sampled_from([0.25, 0.5, 1.0, 1.5, 2.0]),
)
def test_the_two_resume_rules_agree_after_a_video_only_while_its_time_stays_within_its_grid(
    frames, rows, cols, tokens_per_second, seconds
):
    segments = [Text(2), Video(frames, rows, cols, seconds_per_grid=seconds), Text(1)]
    paper = mrope.position_ids(segments, tokens_per_second=tokens_per_second, resume="maximum")[0, -1]
    hf = mrope.position_ids(segments, tokens_per_second=tokens_per_second, resume="spatial")[0, -1]
    # the last frame's time offset, counted by hand: (F - 1) steps of one id (Qwen2-VL) or of
    # tokens_per_second * seconds (Qwen2.5-VL, a float32 product as in transformers)
    step = 1.0 if tokens_per_second is None else float(np.float32(seconds) * np.float32(tokens_per_second))
    last_offset = math.floor(float(np.float32(frames - 1) * np.float32(step)))
    assert hf == 2 + max(rows, cols)
    assert paper == 2 + max(last_offset, max(rows, cols) - 1) + 1
    assert (paper == hf) == (last_offset < max(rows, cols))
    if tokens_per_second is None:
        assert (paper == hf) == (frames <= max(rows, cols))  # "no more frames than its larger side"


def test_absolute_time_parts_the_rules_where_the_frame_index_does_not():
    # Qwen2.5-VL: 2 time ids per second; two one-second frames of 2 x 2 already outrun the grid
    segments = [Text(2), Video(2, 2, 2, seconds_per_grid=1.0), Text(1)]
    assert mrope.position_ids(segments, resume="maximum")[0, -1] == 4
    assert mrope.position_ids(segments, resume="spatial")[0, -1] == 4
    assert mrope.position_ids(segments, tokens_per_second=2, resume="maximum")[0, -1] == 5
    assert mrope.position_ids(segments, tokens_per_second=2, resume="spatial")[0, -1] == 4


def test_float32_time_step_as_transformers():
    # 15 * (2 * 2.1) is 63, but 62.99999 as a float32 product: grid 15 lands at 62, as in transformers 5.23
    ids = mrope.position_ids([Video(16, 1, 1, seconds_per_grid=2.1)], tokens_per_second=2)
    assert ids[0, 15] == 62
    assert math.floor(15 * 2 * 2.1) == 63


segment_strategy = st.one_of(
    st.builds(Text, st.integers(1, 5)),
    st.builds(Image, st.integers(1, 4), st.integers(1, 4)),
    st.builds(
        Video,
        st.integers(1, 4),
        st.integers(1, 3),
        st.integers(1, 3),
        st.sampled_from([0.5, 1.0, 1.5, 2.0]),
    ),
)


@PROPERTY
@given(st.lists(segment_strategy, min_size=1, max_size=5), st.sampled_from([None, 1.0, 2.0, 25.0]))
def test_position_ids_follow_the_papers_rule_token_by_token(segments, tokens_per_second):
    ids = mrope.position_ids(segments, tokens_per_second=tokens_per_second)
    np.testing.assert_array_equal(ids, hand_position_ids(segments, tokens_per_second))


@PROPERTY
@given(st.lists(st.integers(1, 6), min_size=1, max_size=4))
def test_text_only_ids_are_one_position_on_three_axes(lengths):
    ids = mrope.position_ids([Text(n) for n in lengths])
    expected = np.arange(sum(lengths))
    for row in ids:
        np.testing.assert_array_equal(row, expected)


def test_image_block_by_hand():
    np.testing.assert_array_equal(
        mrope.image_position_ids((2, 3), start=4),
        [[4, 4, 4, 4, 4, 4], [4, 4, 4, 5, 5, 5], [4, 5, 6, 4, 5, 6]],
    )


@pytest.mark.parametrize(
    ("segments", "keywords", "message"),
    [
        ([Text(0)], {}, "Text.tokens"),
        ([Image(0, 2)], {}, "rows"),
        ([Image(2, 1.5)], {}, "cols"),
        ([Video(0, 1, 1)], {}, "Video.frames"),
        ([Video(1, 1, 1, seconds_per_grid=-1.0)], {"tokens_per_second": 2}, "seconds_per_grid"),
        ([Video(1, 1, 1)], {"tokens_per_second": -2}, "tokens_per_second"),
        ([Video(1, 1, 1)], {"tokens_per_second": float("nan")}, "tokens_per_second"),
        ([(2, 3)], {}, "segments"),
        ([Text(2)], {"resume": "next"}, "resume"),
    ],
)
def test_bad_segments_name_the_argument(segments, keywords, message):
    with pytest.raises(ValueError, match=message):
        mrope.position_ids(segments, **keywords)


# --- 3. the rotation ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", FIXTURE["rotation"], ids=lambda case: case["id"])
def test_rotate_mrope_equals_transformers(case):
    q = np.array(case["q"], dtype=np.float32)
    options = {"interleaved": case["interleaved"], "base": case["rope_theta"]}
    rotated = mrope.rotate_mrope(q, case["position_ids"], case["mrope_section"], **options)
    assert rotated.dtype == np.float32
    np.testing.assert_allclose(rotated, case["rotated"], atol=HF_ATOL)
    in_float64 = mrope.rotate_mrope(
        q.astype(np.float64), case["position_ids"], case["mrope_section"], **options
    )
    np.testing.assert_allclose(in_float64, case["rotated"], atol=HF_ATOL)


def test_the_rotation_fixture_exercises_distinct_axes():
    # a fixture whose three rows were equal could not tell M-RoPE from plain RoPE
    for case in FIXTURE["rotation"]:
        ids = np.array(case["position_ids"])
        assert not np.array_equal(ids[0], ids[1]) and not np.array_equal(ids[1], ids[2])
        plain = rv.rotate(np.array(case["q"]), ids[0], base=case["rope_theta"], convention="half")
        assert np.abs(plain - np.array(case["rotated"])).max() > 100 * HF_ATOL


@PROPERTY
@given(
    fitting_sections(),
    st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=5),
    bases,
    conventions,
    st.data(),
)
def test_text_only_mrope_is_plain_rope(section_layout, positions, base, convention, data):
    section, interleaved = section_layout
    dim = 2 * sum(section)
    x = np.stack([data.draw(vectors(dim)) for _ in positions])
    ids = np.tile(positions, (3, 1))
    rotated = mrope.rotate_mrope(x, ids, section, interleaved=interleaved, base=base, convention=convention)
    np.testing.assert_allclose(rotated, rv.rotate(x, positions, base=base, convention=convention), atol=ATOL)


@PROPERTY
@given(fitting_sections(), st.integers(1, 4), bases, conventions, st.data())
def test_rotate_mrope_matches_a_per_pair_loop(section_layout, seq, base, convention, data):
    section, interleaved = section_layout
    dim = 2 * sum(section)
    x = np.stack([data.draw(vectors(dim)) for _ in range(seq)])
    ids = np.array(
        data.draw(
            st.lists(st.lists(st.integers(-50, 50), min_size=seq, max_size=seq), min_size=3, max_size=3)
        )
    )
    axes = mrope.pair_axes(section, interleaved=interleaved)
    expected = np.empty_like(x)
    for m in range(seq):
        for i, (a, b) in enumerate(pair_indices(dim, convention)):
            angle = ids[axes[i], m] * math.pow(base, -2.0 * i / dim)
            c, s = math.cos(angle), math.sin(angle)
            expected[m, a] = x[m, a] * c - x[m, b] * s
            expected[m, b] = x[m, a] * s + x[m, b] * c
    got = mrope.rotate_mrope(x, ids, section, interleaved=interleaved, base=base, convention=convention)
    np.testing.assert_allclose(got, expected, atol=ATOL)
    np.testing.assert_allclose(
        np.linalg.norm(got, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-12, atol=ATOL
    )


def test_mrope_angles_by_hand():
    inv_freq = [1.0, 0.5, 0.25, 0.125]
    angles = mrope.mrope_angles([[1, 10], [2, 20], [3, 30]], [2, 1, 1], inv_freq=inv_freq)
    np.testing.assert_allclose(angles, [[1.0, 0.5, 0.5, 0.375], [10.0, 5.0, 5.0, 3.75]])
    interleaved = mrope.mrope_angles([[1], [2], [3]], [2, 1, 1], interleaved=True, inv_freq=inv_freq)
    np.testing.assert_allclose(interleaved, [[1.0, 1.0, 0.75, 0.125]])


def test_rotate_by_angles_with_position_angles_is_rotate():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(2, 3, 8))
    positions = np.array([0.0, 1.5, -4.0])
    angles = rv.angles(positions, rv.inv_freq(8, 500.0))
    for convention in ("half", "interleaved"):
        expected = rv.rotate(x, positions, base=500.0, convention=convention)
        np.testing.assert_allclose(
            mrope.rotate_by_angles(x, angles, convention=convention), expected, atol=ATOL
        )


@pytest.mark.parametrize(
    ("x", "ids", "message"),
    [
        (np.ones((2, 8)), np.zeros((2, 2)), "position_ids"),
        (np.ones((2, 8)), np.zeros((3, 3)), "position_ids"),
        (np.ones((2, 8)), np.full((3, 2), np.nan), "position_ids"),
        (np.ones(8), np.zeros((3, 1)), "x"),
        (np.full((2, 8), np.inf), np.zeros((3, 2)), "x"),
    ],
)
def test_bad_rotation_arguments_name_the_argument(x, ids, message):
    with pytest.raises(ValueError, match=message):
        mrope.rotate_mrope(x, ids, [2, 1, 1])


# --- 4. scores of image patches -----------------------------------------------------------------------------


@st.composite
def patch_cases(draw):
    section, interleaved = draw(fitting_sections())
    dim = 2 * sum(section)
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    query = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
    q, k = draw(vectors(dim)), draw(vectors(dim))
    return section, interleaved, (rows, cols), query, q, k, draw(bases), draw(conventions)


@PROPERTY
@given(patch_cases())
def test_patch_scores_match_the_complex_formula(case):
    section, interleaved, grid, query, q, k, base, convention = case
    options = {"interleaved": interleaved, "base": base, "convention": convention}
    scores = mrope.mrope_patch_scores(q, k, grid, query, section, **options)
    dim = q.size
    h = as_complex(q, convention) * np.conj(as_complex(k, convention))
    axes = mrope.pair_axes(section, interleaved=interleaved)
    theta = np.array([math.pow(base, -2.0 * i / dim) for i in range(dim // 2)])
    for r in range(grid[0]):
        for c in range(grid[1]):
            delta = np.array([0, query[0] - r, query[1] - c])[axes]
            expected = np.real(np.sum(h * np.exp(1j * theta * delta)))
            assert scores[r, c] == pytest.approx(expected, abs=1e-8 * (1 + np.abs(h).sum()))


@PROPERTY
@given(patch_cases(), st.integers(-2, 2), st.integers(-2, 2), st.integers(-100, 100))
def test_patch_scores_depend_only_on_the_2d_offset(case, down, right, start):
    section, interleaved, grid, query, q, k, base, convention = case
    rows, cols = grid
    options = {"interleaved": interleaved, "base": base, "convention": convention}
    scores = mrope.mrope_patch_scores(q, k, grid, query, section, **options)
    shifted_query = (query[0] + down, query[1] + right)
    if not (0 <= shifted_query[0] < rows and 0 <= shifted_query[1] < cols):
        return
    shifted = mrope.mrope_patch_scores(q, k, grid, shifted_query, section, start=start, **options)
    for r in range(rows):
        for c in range(cols):
            if 0 <= r + down < rows and 0 <= c + right < cols:
                assert shifted[r + down, c + right] == pytest.approx(
                    scores[r, c], abs=1e-8 * (1 + q @ q + k @ k)
                )


@PROPERTY
@given(patch_cases())
def test_expected_self_scores_are_the_trace(case):
    section, interleaved, grid, query, _, _, base, _ = case
    dim = 2 * sum(section)
    expected = mrope.expected_mrope_patch_self_scores(
        grid, query, section, interleaved=interleaved, base=base
    )
    # E[<R q, R' q>] for q ~ N(0, I) is trace(R^T R') = sum over the basis vectors of their scores
    trace = sum(
        mrope.mrope_patch_scores(e, e, grid, query, section, interleaved=interleaved, base=base)
        for e in np.eye(dim)
    )
    np.testing.assert_allclose(expected, trace, atol=1e-9 * dim)
    assert expected[query] == pytest.approx(dim)


def test_expected_self_scores_show_the_chunked_layout_leaves_space_the_slow_pairs():
    # one patch to the right
    chunked = mrope.expected_mrope_patch_self_scores((1, 2), (0, 0), mrope.QWEN2_VL_SECTION, base=1e6)
    # time (pairs 0-15) and height (16-39) do not turn; width (40-63) turns by its slow frequencies only
    assert chunked[0, 1] == pytest.approx(2 * 40 + 2 * np.cos(rv.inv_freq(128, 1e6)[40:]).sum())
    interleaved = mrope.expected_mrope_patch_self_scores(
        (1, 2), (0, 0), mrope.QWEN3_VL_SECTION, interleaved=True, base=1e6
    )
    assert interleaved[0, 1] < chunked[0, 1]  # the width axis has fast pairs to decorrelate with


@pytest.mark.parametrize(
    ("grid", "query", "message"),
    [
        ((0, 2), (0, 0), "grid rows"),
        ((2, 2), (2, 0), "query_patch row"),
        ((2, 2), (0, -1), "query_patch col"),
        ([2], (0, 0), "grid"),
        ((2, 2), (0,), "query_patch"),
    ],
)
def test_bad_grids_name_the_argument(grid, query, message):
    with pytest.raises(ValueError, match=message):
        mrope.mrope_patch_scores(np.ones(8), np.ones(8), grid, query, [2, 1, 1])
