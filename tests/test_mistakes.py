"""The broken implementations of rope_viz.mistakes: each does exactly what its docstring says, and each breaks
the property the course says it breaks. References are written from the formulas with :mod:`math`."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz import mistakes
from tests.conftest import PROPERTY, bases, conventions, dims, hand_frequencies, hand_rotate, vectors

small_positions = st.integers(min_value=-2000, max_value=2000)


def hand_table_row(position: float, dim: int, base: float) -> list[float]:
    """[sin(m theta_0), ..., sin(m theta_{d/2-1}), cos(m theta_0), ...] one entry at a time."""
    thetas = hand_frequencies(dim, base)
    return [math.sin(position * t) for t in thetas] + [math.cos(position * t) for t in thetas]


@PROPERTY
@given(dim=dims, base=bases, positions=st.lists(small_positions, min_size=1, max_size=5))
def test_sincos_table_is_sines_then_cosines(dim, base, positions):
    table = mistakes.sincos_table(positions, dim, base)
    expected = np.array([hand_table_row(m, dim, base) for m in positions])
    np.testing.assert_allclose(table, expected, atol=1e-12)


@PROPERTY
@given(data=st.data(), dim=dims, seq=st.integers(1, 4), batch=st.integers(1, 3))
def test_sincos_product_is_the_einsum_bnd_nd(data, dim, seq, batch):
    x = np.stack([np.stack([data.draw(vectors(dim)) for _ in range(seq)]) for _ in range(batch)])
    table = mistakes.sincos_table(np.arange(seq), dim)
    y = mistakes.sincos_product(x, table)
    for b in range(batch):
        for n in range(seq):
            for j in range(dim):
                assert y[b, n, j] == pytest.approx(x[b, n, j] * table[n, j], abs=1e-12)


def test_sincos_product_needs_one_table_row_per_position_like_the_einsum():
    table_for_512 = mistakes.sincos_table(np.arange(512), 8)
    with pytest.raises(ValueError, match="table must have shape"):
        mistakes.sincos_product(np.ones((1, 10, 8)), table_for_512)
    with pytest.raises(ValueError):  # the einsum itself refuses as well
        np.einsum("bnd,nd->bnd", np.ones((1, 10, 8)), table_for_512)


def test_sincos_product_copies_an_axis_of_length_one_like_the_einsum():
    """einsum broadcasts an axis of length 1: one sequence laid out sequence first, (seq, 1, d), meets a table
    of 512 rows and comes back 512 times, copy j multiplied by row j."""
    table_for_512 = mistakes.sincos_table(np.arange(512), 8)
    one_sequence = np.random.default_rng(0).standard_normal((6, 1, 8))
    y = mistakes.sincos_product(one_sequence, table_for_512)
    assert y.shape == (6, 512, 8)
    np.testing.assert_array_equal(y, np.einsum("bnd,nd->bnd", one_sequence, table_for_512))
    for j in (0, 1, 511):
        np.testing.assert_allclose(y[:, j], one_sequence[:, 0] * table_for_512[j], atol=1e-15)
    # a table of one row is broadcast the other way; a table of another width or rank is refused
    np.testing.assert_allclose(
        mistakes.sincos_product(np.ones((2, 5, 8)), table_for_512[:1]), np.tile(table_for_512[:1], (2, 5, 1))
    )
    with pytest.raises(ValueError, match="table must have shape"):
        mistakes.sincos_product(np.ones((2, 5, 8)), np.ones((5, 6)))
    with pytest.raises(ValueError, match="table must have shape"):
        mistakes.sincos_product(np.ones((2, 5, 8)), np.ones(8))


@PROPERTY
@given(data=st.data(), dim=dims, m=small_positions)
def test_sincos_product_never_lengthens_and_usually_shortens(data, dim, m):
    x = data.draw(vectors(dim))
    y = mistakes.sincos_product_at(x, m)
    assert np.linalg.norm(y) <= np.linalg.norm(x) + 1e-12
    # a rotation keeps the length
    np.testing.assert_allclose(np.linalg.norm(rv.rotate(x, m)), np.linalg.norm(x), rtol=1e-9, atol=1e-12)


def test_sincos_product_wipes_out_the_sine_half_at_position_zero():
    x = np.arange(1.0, 9.0)
    y = mistakes.sincos_product_at(x, 0.0)
    np.testing.assert_array_equal(y, [0, 0, 0, 0, 5, 6, 7, 8])
    assert np.linalg.norm(y) < np.linalg.norm(x)
    assert np.linalg.matrix_rank(mistakes.sincos_product_matrix(0.0, 8)) == 4  # not invertible


@PROPERTY
@given(data=st.data(), dim=dims, m=small_positions)
def test_sincos_product_is_a_diagonal_map_that_never_mixes_a_pair(data, dim, m):
    x = data.draw(vectors(dim))
    matrix = mistakes.sincos_product_matrix(m, dim)
    np.testing.assert_allclose(matrix @ x, mistakes.sincos_product_at(x, m), atol=1e-12)
    np.testing.assert_array_equal(matrix, np.diag(np.diag(matrix)))
    rotation = rv.rotation_matrix(m, dim)
    if dim >= 2 and m != 0:
        assert np.abs(rotation - np.diag(np.diag(rotation))).max() > 0  # a rotation does mix


@PROPERTY
@given(data=st.data(), dim=dims, base=bases, m=small_positions, n=small_positions)
def test_sincos_product_score_follows_the_product_to_sum_identity(data, dim, base, m, n):
    q, k = data.draw(vectors(dim)), data.draw(vectors(dim))
    half = dim // 2
    thetas = hand_frequencies(dim, base)
    total = 0.0
    for i, t in enumerate(thetas):
        a, b = q[i] * k[i], q[i + half] * k[i + half]
        total += 0.5 * (a + b) * math.cos((m - n) * t) + 0.5 * (b - a) * math.cos((m + n) * t)
    assert mistakes.sincos_product_score(q, k, m, n, base) == pytest.approx(
        total, abs=1e-9 * (1 + abs(total))
    )


def test_sincos_product_score_depends_on_more_than_the_offset():
    q, k = np.array([1.0, 0.5, 0.2, -0.3]), np.array([0.7, -1.0, 0.4, 0.9])
    scores = [mistakes.sincos_product_score(q, k, 10 + t, 4 + t) for t in range(0, 50)]
    assert max(scores) - min(scores) > 0.1
    rope = [rv.score(q, k, 10 + t, 4 + t) for t in range(0, 50)]
    assert max(rope) - min(rope) < 1e-12


@PROPERTY
@given(data=st.data(), dim=dims, base=bases, convention=conventions, m=small_positions, n=small_positions)
def test_flipping_the_sign_on_the_key_only_makes_the_score_a_function_of_m_plus_n(
    data, dim, base, convention, m, n
):
    q, k = data.draw(vectors(dim)), data.draw(vectors(dim))
    thetas = hand_frequencies(dim, base)
    expected = float(hand_rotate(q, m, convention, thetas) @ hand_rotate(k, -n, convention, thetas))
    got = mistakes.score_sign_flipped_on_key(q, k, m, n, base=base, convention=convention)
    scale = 1 + float(np.abs(q).sum() * np.abs(k).sum())
    assert got == pytest.approx(expected, abs=1e-9 * scale)
    # = <R(m + n) q, k>: moving weight from n to m keeps it
    assert got == pytest.approx(rv.score(q, k, m + n, 0, base=base, convention=convention), abs=1e-9 * scale)


def test_flipped_sign_on_the_key_changes_with_a_shift_while_rope_does_not():
    q, k = np.array([1.0, 0.0, 0.3, 0.2]), np.array([0.5, 0.5, -0.2, 1.0])
    flipped = [mistakes.score_sign_flipped_on_key(q, k, 10 + t, 4 + t) for t in range(20)]
    assert max(flipped) - min(flipped) > 0.5


@PROPERTY
@given(data=st.data(), dim=dims, base=bases, m=small_positions, n=small_positions)
def test_flipping_the_sign_on_both_only_swaps_the_positions(data, dim, base, m, n):
    q, k = data.draw(vectors(dim)), data.draw(vectors(dim))
    thetas = hand_frequencies(dim, base)
    both = float(hand_rotate(q, -m, "interleaved", thetas) @ hand_rotate(k, -n, "interleaved", thetas))
    scale = 1 + float(np.abs(q).sum() * np.abs(k).sum())
    assert both == pytest.approx(rv.score(q, k, n, m, base=base), abs=1e-9 * scale)


@PROPERTY
@given(dim=dims, base=bases)
def test_wrong_exponents_compute_the_slipped_formulas(dim, base):
    lost_minus = mistakes.inv_freq_wrong_exponent(dim, base, "lost_minus")
    lost_two = mistakes.inv_freq_wrong_exponent(dim, base, "lost_two")
    for i in range(dim // 2):
        assert lost_minus[i] == pytest.approx(math.pow(base, 2 * i / dim), rel=1e-12)
        assert lost_two[i] == pytest.approx(math.pow(base, -i / dim), rel=1e-12)
    correct = rv.inv_freq(dim, base)
    assume(dim >= 4)
    assert np.all(np.diff(lost_minus) > 0) and np.all(np.diff(correct) < 0)
    assert lost_two[-1] > correct[-1]  # the slow end is too fast


def test_unknown_mistake_is_refused():
    with pytest.raises(ValueError, match="mistake"):
        mistakes.inv_freq_wrong_exponent(8, 10000.0, "lost_everything")
