"""Tests of rope_viz.axial against Qwen2-VL's vision encoder in transformers and per-pair formulas."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import rope_viz as rv
from rope_viz import axial
from tests.conftest import PROPERTY, as_complex, bases, conventions, pair_indices, vectors

FIXTURE = json.loads((Path(__file__).resolve().parent / "reference" / "mrope_reference.json").read_text())
HF_ATOL = 5e-6  # transformers works in float32
ATOL = 1e-9

axial_dims = st.integers(min_value=1, max_value=16).map(lambda quarter: 4 * quarter)  # 4..64
frequency_values = st.floats(min_value=-2.0, max_value=2.0)


def hand_axial_angle(pair: int, row: float, col: float, dim: int, base: float) -> float:
    """Pair ``i < d/4`` turns by ``row * base**(-4i/d)``, pair ``d/4 + j`` by ``col * base**(-4j/d)``."""
    quarter = dim // 4
    if pair < quarter:
        return row * math.pow(base, -4.0 * pair / dim)
    return col * math.pow(base, -4.0 * (pair - quarter) / dim)


@st.composite
def mixed_frequencies(draw, dim: int):
    row = draw(hnp.arrays(np.float64, (dim // 2,), elements=frequency_values))
    column = draw(hnp.arrays(np.float64, (dim // 2,), elements=frequency_values))
    return row, column


@st.composite
def patch_cases(draw):
    dim = draw(axial_dims)
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    query = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
    frequencies = draw(st.one_of(st.none(), mixed_frequencies(dim)))
    return dim, (rows, cols), query, draw(vectors(dim)), draw(vectors(dim)), draw(bases), frequencies


# --- 1. frequencies -----------------------------------------------------------------------------------------


@PROPERTY
@given(axial_dims, bases)
def test_axial_inv_freq_is_the_1d_set_of_half_the_head(dim, base):
    expected = [math.pow(base, -4.0 * j / dim) for j in range(dim // 4)]
    np.testing.assert_allclose(axial.axial_inv_freq(dim, base), expected, rtol=1e-13)
    np.testing.assert_array_equal(axial.axial_inv_freq(dim, base), rv.inv_freq(dim // 2, base))


def test_axial_frequencies_split_the_pairs_by_hand():
    row, column = axial.axial_frequencies(8, base=100.0)
    np.testing.assert_allclose(row, [1.0, 0.1, 0.0, 0.0])
    np.testing.assert_allclose(column, [0.0, 0.0, 1.0, 0.1])


@pytest.mark.parametrize("dim", [2, 6, 10, 7, 0, 4.5])
def test_axial_dims_must_be_multiples_of_4(dim):
    with pytest.raises(ValueError, match="dim"):
        axial.axial_inv_freq(dim)


# --- 2. the rotation ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", FIXTURE["axial"], ids=lambda case: case["id"])
def test_rotate_axial_equals_qwen2_vl_vision_encoder(case):
    q = np.array(case["q"], dtype=np.float32)
    rotated = axial.rotate_axial(q, case["rows"], case["cols"], base=case["rope_theta"])
    assert rotated.dtype == np.float32
    np.testing.assert_allclose(rotated, case["rotated"], atol=HF_ATOL)
    # the fixture tells rows from columns: swapping them must break the agreement
    swapped = axial.rotate_axial(q, case["cols"], case["rows"], base=case["rope_theta"])
    assert np.abs(swapped - np.array(case["rotated"])).max() > 100 * HF_ATOL


@st.composite
def rotation_cases(draw):
    dim = draw(axial_dims)
    seq = draw(st.integers(1, 4))
    x = np.stack([draw(vectors(dim)) for _ in range(seq)])
    coordinate = st.floats(min_value=-100.0, max_value=100.0)
    rows = np.array(draw(st.lists(coordinate, min_size=seq, max_size=seq)))
    cols = np.array(draw(st.lists(coordinate, min_size=seq, max_size=seq)))
    return x, rows, cols, draw(bases), draw(conventions)


@PROPERTY
@given(rotation_cases())
def test_rotate_axial_matches_a_per_pair_loop(case):
    x, rows, cols, base, convention = case
    dim = x.shape[-1]
    expected = np.empty_like(x)
    for m in range(x.shape[0]):
        for i, (a, b) in enumerate(pair_indices(dim, convention)):
            angle = hand_axial_angle(i, rows[m], cols[m], dim, base)
            c, s = math.cos(angle), math.sin(angle)
            expected[m, a] = x[m, a] * c - x[m, b] * s
            expected[m, b] = x[m, a] * s + x[m, b] * c
    got = axial.rotate_axial(x, rows, cols, base=base, convention=convention)
    np.testing.assert_allclose(got, expected, atol=ATOL)
    np.testing.assert_allclose(
        np.linalg.norm(got, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-12, atol=ATOL
    )


@PROPERTY
@given(rotation_cases(), st.data())
def test_mixed_frequencies_turn_each_pair_by_its_own_direction(case, data):
    x, rows, cols, _, convention = case
    dim = x.shape[-1]
    row_frequencies, column_frequencies = data.draw(mixed_frequencies(dim))
    got = axial.rotate_axial(
        x, rows, cols, frequencies=(row_frequencies, column_frequencies), convention=convention
    )
    z = as_complex(x, convention) * np.exp(
        1j * (np.outer(rows, row_frequencies) + np.outer(cols, column_frequencies))
    )
    np.testing.assert_allclose(as_complex(got, convention), z, atol=ATOL)
    np.testing.assert_allclose(
        np.linalg.norm(got, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-12, atol=ATOL
    )


@PROPERTY
@given(rotation_cases())
def test_a_patch_on_row_zero_is_1d_rope_of_its_column_half(case):
    x, _, cols, base, convention = case
    dim = x.shape[-1]
    got = axial.rotate_axial(x, np.zeros_like(cols), cols, base=base, convention=convention)
    # pairs d/4 .. d/2 - 1 turn by c * w_j; the row pairs do not turn
    pairs = as_complex(x, convention)
    quarter = dim // 4
    column_half = pairs[:, quarter:] * np.exp(1j * np.outer(cols, rv.inv_freq(dim // 2, base)))
    np.testing.assert_allclose(as_complex(got, convention)[:, quarter:], column_half, atol=ATOL)
    np.testing.assert_allclose(as_complex(got, convention)[:, :quarter], pairs[:, :quarter], atol=ATOL)


@pytest.mark.parametrize(
    ("x", "rows", "cols", "keywords", "message"),
    [
        (np.ones((2, 8)), [0], [0, 1], {}, "rows and cols"),
        (np.ones((2, 8)), [0, np.nan], [0, 1], {}, "rows"),
        (np.ones((2, 6)), [0, 1], [0, 1], {}, "multiple of 4"),
        (np.ones(8), [0], [0], {}, "x"),
        (np.ones((2, 8)), [0, 1], [0, 1], {"frequencies": np.ones(4)}, "frequencies"),
        (np.ones((2, 8)), [0, 1], [0, 1], {"frequencies": (np.ones(3), np.ones(4))}, "frequencies"),
        (np.ones((2, 8)), [0, 1], [0, 1], {"convention": "neox"}, "convention"),
        (np.ones((2, 8)), [0, 1], [0, 1], {"base": 1.0}, "base"),
    ],
)
def test_bad_arguments_name_the_argument(x, rows, cols, keywords, message):
    with pytest.raises(ValueError, match=message):
        axial.rotate_axial(x, rows, cols, **keywords)


def test_grid_positions_by_hand():
    rows, cols = axial.grid_positions((2, 3))
    np.testing.assert_array_equal(rows, [0, 0, 0, 1, 1, 1])
    np.testing.assert_array_equal(cols, [0, 1, 2, 0, 1, 2])


# --- 3. scores of patches -----------------------------------------------------------------------------------


def _options(base: float, frequencies: object | None) -> dict:
    return {"base": base, "frequencies": frequencies}


@PROPERTY
@given(patch_cases(), conventions)
def test_patch_scores_match_the_complex_formula(case, convention):
    dim, grid, query, q, k, base, frequencies = case
    scores = axial.axial_patch_scores(q, k, grid, query, convention=convention, **_options(base, frequencies))
    h = as_complex(q, convention) * np.conj(as_complex(k, convention))
    for r in range(grid[0]):
        for c in range(grid[1]):
            if frequencies is None:
                phi = [hand_axial_angle(i, query[0] - r, query[1] - c, dim, base) for i in range(dim // 2)]
            else:
                phi = (query[0] - r) * frequencies[0] + (query[1] - c) * frequencies[1]
            expected = np.real(np.sum(h * np.exp(1j * np.asarray(phi))))
            assert scores[r, c] == pytest.approx(expected, abs=1e-8 * (1 + np.abs(h).sum()))


@PROPERTY
@given(patch_cases(), st.integers(-3, 3), st.integers(-3, 3))
def test_patch_scores_depend_only_on_the_2d_offset(case, down, right):
    _, grid, query, q, k, base, frequencies = case
    rows, cols = grid
    shifted_query = (query[0] + down, query[1] + right)
    if not (0 <= shifted_query[0] < rows and 0 <= shifted_query[1] < cols):
        return
    scores = axial.axial_patch_scores(q, k, grid, query, **_options(base, frequencies))
    shifted = axial.axial_patch_scores(q, k, grid, shifted_query, **_options(base, frequencies))
    tolerance = 1e-8 * (1 + q @ q + k @ k)
    for r in range(rows):
        for c in range(cols):
            if 0 <= r + down < rows and 0 <= c + right < cols:
                assert shifted[r + down, c + right] == pytest.approx(scores[r, c], abs=tolerance)


def test_rows_and_columns_are_told_apart():
    # a translation-invariant score that could not tell a row offset from a column offset would be a bug
    rng = np.random.default_rng(3)
    q, k = rng.normal(size=16), rng.normal(size=16)
    scores = axial.axial_patch_scores(q, k, (3, 3), (1, 1), base=100.0)
    assert abs(scores[0, 1] - scores[1, 0]) > 1e-3


@PROPERTY
@given(patch_cases())
def test_expected_self_scores_are_the_trace(case):
    dim, grid, query, _, _, base, frequencies = case
    expected = axial.expected_axial_patch_self_scores(grid, query, dim, **_options(base, frequencies))
    # E[<R q, R' q>] for q ~ N(0, I) is trace(R^T R') = sum over the basis vectors of their scores
    trace = sum(
        axial.axial_patch_scores(e, e, grid, query, **_options(base, frequencies)) for e in np.eye(dim)
    )
    np.testing.assert_allclose(expected, trace, atol=1e-9 * dim)
    assert expected[query] == pytest.approx(dim)


def test_axial_expected_scores_are_a_row_term_plus_a_column_term():
    dim, base = 32, 100.0
    expected = axial.expected_axial_patch_self_scores((4, 5), (1, 2), dim, base=base)
    w = rv.inv_freq(dim // 2, base)
    for r in range(4):
        for c in range(5):
            by_hand = 2 * np.cos((1 - r) * w).sum() + 2 * np.cos((2 - c) * w).sum()
            assert expected[r, c] == pytest.approx(by_hand)
    # along one axis it is 1-D RoPE's expected score of half the head, plus the constant d/2
    np.testing.assert_allclose(
        expected[1, :], rv.expected_self_score(2 - np.arange(5), dim // 2, base) + dim / 2, atol=1e-12
    )


def test_bad_grid_names_the_argument():
    with pytest.raises(ValueError, match="query_patch"):
        axial.axial_patch_scores(np.ones(8), np.ones(8), (2, 2), (0, 2))
    with pytest.raises(ValueError, match="grid"):
        axial.expected_axial_patch_self_scores((2, 0), (0, 0), 8)
