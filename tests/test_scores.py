"""Tests of rope_viz.scores: relative-position property, the worked example of the source, the decay bound."""

from __future__ import annotations

import cmath
import math
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rope_viz as rv
from tests.conftest import (
    CONVENTIONS,
    PROPERTY,
    as_complex,
    bases,
    conventions,
    dims,
    hand_frequencies,
    hand_rotate,
    positions,
    vectors,
)


@st.composite
def query_key(draw):
    dim = draw(dims)
    return draw(vectors(dim)), draw(vectors(dim))


def scale(q: np.ndarray, k: np.ndarray) -> float:
    """Size of a score, for tolerances: |score| <= |q| |k|."""
    return float(np.linalg.norm(q) * np.linalg.norm(k)) + 1.0


# --- the worked computation of the source text ------------------------------------------------------------


@pytest.fixture(scope="module")
def source_vectors() -> tuple[list[float], list[float]]:
    """q and k of the source: Python's random.seed(1), then random.gauss(0, 1) eight times for each."""
    generator = random.Random(1)  # same stream as random.seed(1) without touching the global generator
    q = [generator.gauss(0, 1) for _ in range(8)]
    k = [generator.gauss(0, 1) for _ in range(8)]
    return q, k


@pytest.mark.parametrize(
    ("m", "n", "printed"),
    [(10, 4, "2.019727"), (110, 104, "2.019727"), (5010, 5004, "2.019727"), (10, 3, "1.799205")],
)
def test_scores_printed_in_the_source(source_vectors, m, n, printed):
    q, k = source_vectors
    assert f"{rv.score(q, k, m, n, base=10000.0, convention='interleaved'):.6f}" == printed
    assert f"{rv.relative_scores(q, k, [m - n])[0]:.6f}" == printed


def test_unrotated_dot_product_printed_in_the_source(source_vectors):
    q, k = source_vectors
    assert f"{sum(a * b for a, b in zip(q, k, strict=True)):.6f}" == "1.943698"
    assert f"{rv.score(q, k, 0, 0):.6f}" == "1.943698"
    assert f"{rv.score(q, k, 5004, 5004):.6f}" == "1.943698"


def test_source_scores_also_hold_for_the_half_layout_of_the_same_vectors(source_vectors):
    q, k = (np.array(v) for v in source_vectors)
    got = rv.score(rv.to_half(q), rv.to_half(k), 10, 4, convention="half")
    assert f"{got:.6f}" == "2.019727"


# --- the score depends only on m - n ---------------------------------------------------------------------


@PROPERTY
@given(query_key(), positions, positions, positions, bases, conventions)
def test_score_is_invariant_to_a_common_shift(qk, m, n, shift, base, convention):
    q, k = qk
    options = {"base": base, "convention": convention}
    shifted = rv.score(q, k, m + shift, n + shift, **options)
    assert shifted == pytest.approx(rv.score(q, k, m, n, **options), abs=1e-9 * scale(q, k))


@PROPERTY
@given(query_key(), positions, positions, bases, conventions)
def test_score_matches_rotating_pair_by_pair(qk, m, n, base, convention):
    q, k = qk
    frequencies = hand_frequencies(q.size, base)
    expected = float(hand_rotate(q, m, convention, frequencies) @ hand_rotate(k, n, convention, frequencies))
    got = rv.score(q, k, m, n, base=base, convention=convention)
    assert got == pytest.approx(expected, abs=1e-9 * scale(q, k))


@PROPERTY
@given(query_key(), st.lists(positions, min_size=1, max_size=5), positions, bases, conventions)
def test_relative_scores_equal_scores_at_any_key_position(qk, offsets, n, base, convention):
    q, k = qk
    options = {"base": base, "convention": convention}
    got = rv.relative_scores(q, k, offsets, **options)
    expected = [rv.score(q, k, n + r, n, **options) for r in offsets]
    np.testing.assert_allclose(got, expected, atol=1e-9 * scale(q, k))


@PROPERTY
@given(query_key(), positions, conventions)
def test_relative_scores_in_complex_form(qk, r, convention):
    # s(r) = Re sum_i q_i conj(k_i) exp(1j r theta_i), with numpy complex arithmetic
    q, k = qk
    theta = np.array(hand_frequencies(q.size, 10000.0))
    expected = np.real(
        np.sum(as_complex(q, convention) * np.conj(as_complex(k, convention)) * np.exp(1j * r * theta))
    )
    got = rv.relative_scores(q, k, r, convention=convention)
    assert got.shape == ()
    assert float(got) == pytest.approx(expected, abs=1e-9 * scale(q, k))


def test_relative_scores_keep_the_shape_of_offsets():
    q, k = np.arange(4.0), np.ones(4)
    offsets = np.arange(6.0).reshape(2, 3)
    got = rv.relative_scores(q, k, offsets)
    assert got.shape == (2, 3)
    assert got[1, 2] == pytest.approx(rv.score(q, k, 5.0, 0.0))


@PROPERTY
@given(
    query_key(),
    st.floats(min_value=-1000, max_value=1000),
    st.floats(min_value=0.25, max_value=50),
    st.integers(min_value=2, max_value=6),
    conventions,
)
def test_score_matrix_is_toeplitz_and_holds_scores(qk, start, step, size, convention):
    q, k = qk
    grid = start + step * np.arange(size)
    matrix = rv.score_matrix(q, k, grid, grid, convention=convention)
    assert matrix.shape == (size, size)
    tolerance = 1e-9 * scale(q, k)
    np.testing.assert_allclose(matrix[1:, 1:], matrix[:-1, :-1], atol=tolerance)  # constant diagonals
    for a, b in [(0, 0), (size - 1, 0), (0, size - 1)]:
        expected = rv.score(q, k, grid[a], grid[b], convention=convention)
        assert matrix[a, b] == pytest.approx(expected, abs=tolerance)


def test_score_matrix_with_different_position_lists():
    q, k = np.array([1.0, 2.0, -1.0, 0.5]), np.array([0.3, -1.0, 2.0, 1.0])
    matrix = rv.score_matrix(q, k, [0.0, 2.5, 7.0], [1.0, 3.0])
    assert matrix.shape == (3, 2)
    assert matrix[2, 1] == pytest.approx(rv.score(q, k, 7.0, 3.0))


# --- RoFormer's long-range decay bound ---------------------------------------------------------------------


def hand_decay_bound(r: float, dim: int, base: float) -> float:
    """(1 / (d/2)) sum_{j=1}^{d/2} |S_j|, S_j = sum_{k=0}^{j-1} exp(1j r theta_k), with plain loops."""
    theta = hand_frequencies(dim, base)
    total, partial = 0.0, 0j
    for theta_k in theta:
        partial += cmath.exp(1j * r * theta_k)
        total += abs(partial)
    return total / (dim // 2)


@pytest.mark.parametrize("dim", range(2, 258, 2))
def test_decay_bound_at_distance_zero(dim):
    assert rv.decay_bound(0.0, dim) == pytest.approx((dim / 2 + 1) / 2, rel=1e-14)


@PROPERTY
@given(positions, dims, bases)
def test_decay_bound_matches_a_loop_over_partial_sums(r, dim, base):
    assert float(rv.decay_bound(r, dim, base)) == pytest.approx(hand_decay_bound(r, dim, base), rel=1e-9)


@PROPERTY
@given(query_key(), positions, bases, conventions)
def test_decay_bound_bounds_the_score(qk, r, base, convention):
    # Abel summation (RoFormer sec. 3.4.3): |sum_i h_i e^{i r theta_i}| <= max_i |h_{i+1} - h_i| sum_j |S_j|
    # with h_i = q_i conj(k_i) and h_{d/2} = 0; the score at distance r is the real part of the left side.
    q, k = qk
    dim = q.size
    h = np.append(as_complex(q, convention) * np.conj(as_complex(k, convention)), 0.0)
    largest_step = np.max(np.abs(np.diff(h)))
    sum_of_partial_sums = (dim // 2) * float(rv.decay_bound(r, dim, base))
    score = rv.score(q, k, r, 0.0, base=base, convention=convention)
    assert abs(score) <= largest_step * sum_of_partial_sums * (1 + 1e-9) + 1e-9


def test_decay_bound_is_not_monotone():
    distances = np.arange(0.0, 2000.0)
    bound = rv.decay_bound(distances, 128)
    rises = np.flatnonzero(np.diff(bound) > 1e-3)
    assert rises.size > 0
    r = distances[rises[0]]
    assert hand_decay_bound(r + 1, 128, 10000.0) > hand_decay_bound(r, 128, 10000.0)
    # and yet it decays overall, as RoFormer's Figure 2 shows
    assert bound[-100:].max() < 0.4 * bound[0]


def test_decay_bound_is_symmetric_and_keeps_shape():
    distances = np.array([[1.0, 5.5], [40.0, 300.0]])
    np.testing.assert_allclose(rv.decay_bound(-distances, 64), rv.decay_bound(distances, 64), rtol=1e-12)
    assert rv.decay_bound(distances, 64).shape == (2, 2)


# --- expected score of a random vector with itself ----------------------------------------------------------


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_expected_self_score_against_monte_carlo(convention):
    dim, base, samples = 16, 100.0, 40_000
    q = np.random.default_rng(7).standard_normal((samples, 1, dim))  # (samples, seq=1, dim)
    distances = [0.0, 1.0, 3.0, 10.0, 100.0, 2500.0]
    expected = rv.expected_self_score(distances, dim, base)
    for r, mean in zip(distances, expected, strict=True):
        values = np.sum(rv.rotate(q, [r], base=base, convention=convention) * q, axis=(-1, -2))
        standard_error = values.std(ddof=1) / math.sqrt(samples)
        assert abs(values.mean() - mean) < 5 * standard_error


def test_expected_score_of_independent_vectors_is_zero():
    rng = np.random.default_rng(8)
    q, k = rng.standard_normal((2, 40_000, 1, 16))
    values = np.sum(rv.rotate(q, [3.0]) * k, axis=(-1, -2))
    assert abs(values.mean()) < 5 * values.std(ddof=1) / math.sqrt(values.size)


@PROPERTY
@given(st.lists(positions, min_size=1, max_size=5), dims, bases)
def test_expected_self_score_closed_form(distances, dim, base):
    theta = hand_frequencies(dim, base)
    expected = [2 * sum(math.cos(r * t) for t in theta) for r in distances]
    np.testing.assert_allclose(rv.expected_self_score(distances, dim, base), expected, atol=1e-9)
    assert float(rv.expected_self_score(0.0, dim, base)) == pytest.approx(dim)
