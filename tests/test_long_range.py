"""rope_viz.long_range against independent evaluations: RoFormer's Abel-summation bound written out one pair
at a time, the bound holding for random q and k, and the score statistics against Monte-Carlo sampling."""

from __future__ import annotations

import cmath
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz import long_range as lr
from tests.conftest import PROPERTY, as_complex, bases, conventions, dims, hand_frequencies, vectors

distances = st.floats(min_value=-5000.0, max_value=5000.0)


def hand_partial_sums(r: float, thetas: list[float]) -> list[complex]:
    """S_1 .. S_{d/2}, S_j = sum_{i<j} e^{i r theta_i}, accumulated one pair at a time."""
    total, sums = 0j, []
    for t in thetas:
        total += cmath.exp(1j * r * t)
        sums.append(total)
    return sums


@PROPERTY
@given(data=st.data(), dim=dims, convention=conventions)
def test_pair_products_are_q_times_conjugate_k(data, dim, convention):
    q, k = data.draw(vectors(dim)), data.draw(vectors(dim))
    expected = as_complex(q, convention) * np.conj(as_complex(k, convention))
    np.testing.assert_allclose(lr.pair_products(q, k, convention), expected, atol=1e-12)


@PROPERTY
@given(dim=dims, base=bases, r=distances)
def test_relative_bound_is_the_mean_length_of_the_partial_sums(dim, base, r):
    thetas = hand_frequencies(dim, base)
    expected = sum(abs(s) for s in hand_partial_sums(r, thetas)) / (dim // 2)
    assert lr.relative_bound([r], thetas)[0] == pytest.approx(expected, rel=1e-9, abs=1e-9)
    assert rv.decay_bound([r], dim, base)[0] == pytest.approx(expected, rel=1e-9, abs=1e-9)


@PROPERTY
@given(dim=dims, base=bases)
def test_relative_bound_starts_at_half_of_d_over_2_plus_1(dim, base):
    assert lr.relative_bound([0.0], rv.inv_freq(dim, base))[0] == pytest.approx((dim // 2 + 1) / 2)


@PROPERTY
@given(data=st.data(), dim=dims, base=bases, r=distances, convention=conventions)
def test_abel_summation_rewrites_the_complex_score_exactly(data, dim, base, r, convention):
    q, k = data.draw(vectors(dim)), data.draw(vectors(dim))
    h = [*lr.pair_products(q, k, convention), 0j]  # h_{d/2} = 0
    sums = [0j, *hand_partial_sums(r, hand_frequencies(dim, base))]  # S_0 = 0
    direct = sum(h[i] * (sums[i + 1] - sums[i]) for i in range(dim // 2))
    abel = -sum(sums[i + 1] * (h[i + 1] - h[i]) for i in range(dim // 2))
    scale = 1 + sum(abs(value) for value in h) * dim
    assert abs(direct - abel) <= 1e-9 * scale
    assert direct.real == pytest.approx(
        rv.relative_scores(q, k, [r], base=base, convention=convention)[0], abs=1e-8 * scale
    )


@PROPERTY
@given(data=st.data(), dim=dims, base=bases, convention=conventions)
def test_the_bound_holds_for_every_query_and_key(data, dim, base, convention):
    q, k = data.draw(vectors(dim)), data.draw(vectors(dim))
    r = np.linspace(-3000.0, 3000.0, 41)
    score = np.abs(rv.relative_scores(q, k, r, base=base, convention=convention))
    modulus = lr.complex_score_magnitude(q, k, r, base=base, convention=convention)
    bound = lr.abel_bound(q, k, r, base=base, convention=convention)
    tolerance = 1e-9 * (1 + bound)
    assert np.all(score <= modulus + tolerance)
    assert np.all(modulus <= bound + tolerance)


@PROPERTY
@given(data=st.data(), dim=dims, convention=conventions)
def test_abel_factor_is_the_largest_step_between_neighbouring_pair_products(data, dim, convention):
    q, k = data.draw(vectors(dim)), data.draw(vectors(dim))
    h = [*(as_complex(q, convention) * np.conj(as_complex(k, convention))), 0j]
    expected = max(abs(h[i + 1] - h[i]) for i in range(dim // 2))
    assert lr.abel_factor(q, k, convention) == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_abel_bound_is_factor_times_d_over_2_times_relative_bound():
    rng = np.random.default_rng(3)
    q, k = rng.standard_normal(64), rng.standard_normal(64)
    r = np.arange(0.0, 300.0)
    expected = lr.abel_factor(q, k) * 32 * rv.decay_bound(r, 64)
    np.testing.assert_allclose(lr.abel_bound(q, k, r), expected, rtol=1e-12)


@PROPERTY
@given(dim=dims, base=bases, r=distances)
def test_phase_coherence_is_the_length_of_the_mean_phase(dim, base, r):
    thetas = hand_frequencies(dim, base)
    mean = sum(cmath.exp(1j * r * t) for t in thetas) / len(thetas)
    assert lr.phase_coherence([r], thetas)[0] == pytest.approx(abs(mean), abs=1e-12)
    # the expected self-score per dimension is the real part of the mean phase, never above its length
    assert rv.expected_self_score([r], dim, base)[0] / dim <= lr.phase_coherence([r], thetas)[0] + 1e-12


def test_phase_coherence_is_one_at_distance_zero_and_falls_far_away():
    thetas = rv.inv_freq(128, 10_000.0)
    assert lr.phase_coherence([0.0], thetas)[0] == pytest.approx(1.0)
    assert lr.phase_coherence([1000.0], thetas)[0] < 0.5


@PROPERTY
@given(dim=dims, base=bases, r=distances, rho=st.floats(min_value=-1.0, max_value=1.0))
def test_score_statistics_follow_the_pair_by_pair_formulas(dim, base, r, rho):
    thetas = hand_frequencies(dim, base)
    mean = sum(2 * rho * math.cos(r * t) for t in thetas)
    variance = sum(4 * rho**2 * math.cos(r * t) ** 2 + 2 * (1 - rho**2) for t in thetas)
    got_mean, got_std = lr.score_statistics([r], dim, base, correlation=rho)
    assert got_mean[0] == pytest.approx(mean, abs=1e-9 * dim)
    assert got_std[0] == pytest.approx(math.sqrt(variance), rel=1e-9, abs=1e-12)


def test_score_statistics_for_k_equal_q_give_the_expected_self_score():
    r = np.arange(0.0, 500.0, 7.0)
    mean, _ = lr.score_statistics(r, 64, 10_000.0, correlation=1.0)
    np.testing.assert_allclose(mean, rv.expected_self_score(r, 64, 10_000.0), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("rho", [0.0, 0.5, 1.0])
def test_score_statistics_agree_with_monte_carlo(rho):
    r = np.array([0.0, 3.0, 20.0, 150.0, 4000.0])
    samples = 40_000
    scores = lr.monte_carlo_scores(r, 16, 10_000.0, correlation=rho, samples=samples, seed=11)
    mean, std = lr.score_statistics(r, 16, 10_000.0, correlation=rho)
    standard_error = std / math.sqrt(samples)
    assert np.all(np.abs(scores.mean(axis=0) - mean) < 5 * standard_error)
    np.testing.assert_allclose(scores.std(axis=0), std, rtol=0.03)


def test_monte_carlo_scores_are_real_rope_scores_of_the_drawn_vectors():
    r = np.array([0.0, 1.0, 17.0, 900.0])
    scores = lr.monte_carlo_scores(r, 8, 500.0, correlation=0.3, samples=3, seed=5)
    rng = np.random.default_rng(5)  # the same draws, in the documented order
    q = rng.standard_normal((3, 8))
    k = 0.3 * q + math.sqrt(1 - 0.09) * rng.standard_normal((3, 8))
    for row in range(3):
        for column, distance in enumerate(r):
            expected = rv.score(q[row], k[row], distance, 0.0, base=500.0)
            assert scores[row, column] == pytest.approx(expected, abs=1e-9)


@PROPERTY
@given(values=st.lists(st.integers(-5, 5), min_size=0, max_size=30))
def test_local_maxima_match_a_plain_loop(values):
    expected = [i for i in range(1, len(values) - 1) if values[i - 1] < values[i] >= values[i + 1]]
    assert lr.local_maxima(np.array(values, dtype=float)).tolist() == expected


def test_roformer_bound_is_not_monotone():
    r = np.arange(257.0)
    bound = rv.decay_bound(r, 128, 10_000.0)
    tops = lr.local_maxima(bound)
    assert tops.size > 0
    assert np.all(bound[tops] > bound[tops - 1])
    assert bound[-1] < bound[0] / 4  # but it does decay overall


def test_first_below():
    assert lr.first_below([0, 1, 2, 3], [4.0, 3.0, 1.0, 2.0], 2.0) == 2.0
    assert lr.first_below([0, 1], [4.0, 3.0], 1.0) is None


def test_invalid_arguments_are_refused():
    with pytest.raises(ValueError, match="correlation"):
        lr.score_statistics([0.0], 8, correlation=1.5)
    with pytest.raises(ValueError, match="inv_freq"):
        lr.relative_bound([0.0], [1.0, -0.1])
    with pytest.raises(ValueError, match="same size"):
        lr.abel_factor([1.0, 0.0], [1.0, 0.0, 0.0, 0.0])


# The walk of the partial sums ------------------------------------------------------------------------------


@PROPERTY
@given(dim=dims, base=bases, r=distances)
def test_the_walk_starts_at_zero_and_ends_at_the_full_sum(dim, base, r):
    thetas = hand_frequencies(dim, base)
    walk = lr.partial_sum_walk(r, thetas)
    assert walk.shape == (dim // 2 + 1,)
    assert walk[0] == 0
    full = sum(cmath.exp(1j * r * t) for t in thetas)  # computed pair by pair, without the library
    assert abs(walk[-1] - full) <= 1e-9 * dim
    np.testing.assert_allclose(walk[1:], hand_partial_sums(r, thetas), atol=1e-9 * dim)
    assert abs(walk[-1]) / (dim // 2) == pytest.approx(lr.phase_coherence([r], thetas)[0], abs=1e-9)


@PROPERTY
@given(dim=dims, base=bases, r=distances)
def test_every_step_of_the_walk_is_the_unit_arrow_of_its_pair(dim, base, r):
    thetas = hand_frequencies(dim, base)
    steps = np.diff(lr.partial_sum_walk(r, thetas))  # step i goes from S_i to S_{i+1}
    np.testing.assert_allclose(np.abs(steps), 1.0, atol=1e-9)
    for step, t in zip(steps, thetas, strict=True):
        assert abs(step - cmath.exp(1j * r * t)) <= 1e-9 * dim


@PROPERTY
@given(dim=dims, base=bases, r=distances)
def test_the_stops_of_the_walk_are_no_farther_than_their_number_and_average_to_the_bound(dim, base, r):
    thetas = hand_frequencies(dim, base)
    lengths = np.abs(lr.partial_sum_walk(r, thetas))
    # |S_j| <= j: j unit steps reach at most j from the origin (the triangle inequality), equality at r = 0
    assert np.all(lengths <= np.arange(dim // 2 + 1) + 1e-9)
    assert lengths[1:].mean() == pytest.approx(lr.relative_bound([r], thetas)[0], rel=1e-9, abs=1e-9)
    assert lengths[1:].mean() <= (dim // 2 + 1) / 2 + 1e-9  # B(r) <= B(0)


@PROPERTY
@given(data=st.data(), dim=dims, base=bases, r=distances, convention=conventions)
def test_the_walk_gives_the_content_free_factor_of_the_bound(data, dim, base, r, convention):
    q, k = data.draw(vectors(dim)), data.draw(vectors(dim))
    lengths = np.abs(lr.partial_sum_walk(r, rv.inv_freq(dim, base)))
    bound = lr.abel_factor(q, k, convention) * lengths[1:].sum()
    assert bound == pytest.approx(
        lr.abel_bound(q, k, [r], base=base, convention=convention)[0], rel=1e-9, abs=1e-9
    )
    assert (
        lr.complex_score_magnitude(q, k, [r], base=base, convention=convention)[0]
        <= bound * (1 + 1e-9) + 1e-9
    )


def test_the_walk_at_distance_zero_runs_straight_along_the_real_axis():
    walk = lr.partial_sum_walk(0.0, rv.inv_freq(128, 10_000.0))
    np.testing.assert_array_equal(walk, np.arange(65.0))


def test_walks_of_several_distances_stack_along_the_leading_axes():
    thetas = rv.inv_freq(16, 500.0)
    r = np.array([[0.0, 3.0], [40.0, -7.5]])
    walks = lr.partial_sum_walk(r, thetas)
    assert walks.shape == (2, 2, 9)
    for index in np.ndindex(r.shape):
        np.testing.assert_array_equal(walks[index], lr.partial_sum_walk(r[index], thetas))
