"""Shift invariance: the worked example's printed scores, the additive-embedding scores against a hand
evaluation, the Toeplitz test, and the chapter's demo (RoPE's grid unchanged by a shift, the others not)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz.demos.base import Control
from rope_viz.demos.shift_invariance import SHIFTS, ShiftInvariance, SinusoidalTerms
from rope_viz.shift_invariance import (
    additive_score_matrix,
    diagonal_spread,
    gaussian_vectors_from_python_random,
    offsets,
)
from tests.conftest import PROPERTY, bases, dims, hand_frequencies, vectors

# The worked example's printed output, quoted digit for digit.
PRINTED = {(10, 4): "2.019727", (110, 104): "2.019727", (5010, 5004): "2.019727", (10, 3): "1.799205"}
PRINTED_UNROTATED = "1.943698"


def test_the_worked_example_is_reproduced_digit_for_digit():
    q, k = gaussian_vectors_from_python_random(seed=1, dim=8)
    for (m, n), printed in PRINTED.items():
        assert f"{rv.score(q, k, m, n, base=10_000.0):.6f}" == printed
    assert f"{q @ k:.6f}" == PRINTED_UNROTATED


def test_python_random_vectors_match_the_global_generator_and_leave_it_alone():
    import random

    random.seed(123)
    state = random.getstate()
    q, k = gaussian_vectors_from_python_random(seed=1, dim=8)
    assert random.getstate() == state
    random.seed(1)
    expected = [random.gauss(0, 1) for _ in range(16)]
    np.testing.assert_array_equal(np.concatenate([q, k]), expected)


def hand_pe(position: float, dim: int, base: float) -> np.ndarray:
    """PE[2i] = sin(m theta_i), PE[2i+1] = cos(m theta_i), one entry at a time (Vaswani et al. 2017)."""
    out = []
    for t in hand_frequencies(dim, base):
        out += [math.sin(position * t), math.cos(position * t)]
    return np.array(out)


small_positions = st.integers(min_value=0, max_value=3000)


@PROPERTY
@given(data=st.data(), dim=dims, base=bases, m=small_positions, n=small_positions)
def test_additive_scores_are_dot_products_of_content_plus_embedding(data, dim, base, m, n):
    q, k = data.draw(vectors(dim)), data.draw(vectors(dim))
    expected = float((q + hand_pe(m, dim, base)) @ (k + hand_pe(n, dim, base)))
    got = additive_score_matrix(q, k, [m], [n], base)[0, 0]
    assert got == pytest.approx(expected, abs=1e-9 * (1 + abs(expected)))


@PROPERTY
@given(dim=dims, base=bases, m=small_positions, n=small_positions)
def test_the_embedding_embedding_term_alone_depends_on_the_offset_only(dim, base, m, n):
    zero = np.zeros(dim)
    expected = sum(math.cos((m - n) * t) for t in hand_frequencies(dim, base))
    assert additive_score_matrix(zero, zero, [m], [n], base)[0, 0] == pytest.approx(expected, abs=1e-9)


@PROPERTY
@given(data=st.data(), dim=dims, base=bases, start=small_positions)
def test_rope_score_grids_are_toeplitz(data, dim, base, start):
    q, k = data.draw(vectors(dim)), data.draw(vectors(dim))
    positions = start + np.arange(12.0)
    grid = rv.score_matrix(q, k, positions, positions, base=base)
    scale = 1 + float(np.abs(q).sum() * np.abs(k).sum())
    assert diagonal_spread(grid).max() <= 1e-9 * scale


def test_added_embeddings_and_the_sincos_product_are_not_toeplitz():
    from rope_viz.mistakes import sincos_product_score_matrix

    q, k = gaussian_vectors_from_python_random()
    positions = np.arange(24.0)
    assert diagonal_spread(additive_score_matrix(q, k, positions, positions)).max() > 0.5
    assert diagonal_spread(sincos_product_score_matrix(q, k, positions, positions)).max() > 0.1


def test_diagonal_spread_reads_each_diagonal():
    grid = np.array([[0.0, 1.0, 2.0], [5.0, 0.5, 1.0], [9.0, 5.0, 0.0]])
    # offsets -2 .. 2: [2], [1, 1], [0, 0.5, 0], [5, 5], [9]
    np.testing.assert_allclose(diagonal_spread(grid), [0.0, 0.0, 0.5, 0.0, 0.0])
    np.testing.assert_array_equal(offsets([3, 4, 5], [3, 4, 5])[2], [2, 1, 0])


def test_named_choice_shows_names():
    control = Control("scheme", "scheme", (0, 1), 0, 0, 1, choices=(0, 1), labels=("a", "b"))
    assert control.format(1) == "b" and control.format(0.0) == "a"


def test_demo_rope_grid_does_not_move_with_the_shift_and_matches_the_worked_example():
    demo = ShiftInvariance()
    reference = demo.view(scheme=0, shift=0)
    for shift in SHIFTS:
        view = demo.view(scheme=0, shift=shift)
        assert view.traces[0]["z"] == reference.traces[0]["z"]
        assert view.traces[0]["x"][0] == shift
        assert view.traces[1] == {"x": [4 + shift], "y": [10 + shift]}
    assert "score(m = 110, n = 104) = 2.019727" in demo.view(scheme=0, shift=100).readout
    assert "score(m = 5,010, n = 5,004) = 2.019727" in demo.view(scheme=0, shift=5000).readout


@pytest.mark.parametrize("scheme", [1, 2])
def test_demo_other_schemes_change_with_the_shift(scheme):
    demo = ShiftInvariance()
    grids = [np.array(demo.view(scheme=scheme, shift=shift).traces[0]["z"]) for shift in (0, 100, 5000)]
    assert np.abs(grids[0] - grids[1]).max() > 0.05 and np.abs(grids[0] - grids[2]).max() > 0.05
    view = demo.view(scheme=scheme, shift=100)
    assert (
        view.traces[3]["y"] != view.traces[4]["y"]
    )  # the highlighted cell moved away from its shift-0 value


def test_demo_cloud_plots_each_cell_at_its_offset():
    demo = ShiftInvariance()
    view = demo.view(scheme=1, shift=20)
    grid = np.array(view.traces[0]["z"])
    m = np.array(view.traces[0]["y"])[:, None]
    n = np.array(view.traces[0]["x"])[None, :]
    np.testing.assert_array_equal(view.traces[2]["x"], (m - n).ravel())
    np.testing.assert_array_equal(view.traces[2]["y"], grid.ravel())


def test_terms_demo_splits_the_added_score_and_only_the_cross_terms_move():
    demo = SinusoidalTerms()
    q, k = demo.q, demo.k
    theta = 10_000.0 ** (-np.arange(0, 8, 2) / 8)

    def p(position):  # sines at the even coordinates, cosines at the odd ones (Vaswani et al., 2017)
        return np.column_stack([np.sin(position * theta), np.cos(position * theta)]).ravel()

    start = np.array(demo.view(shift=0).traces[0]["y"])
    for shift in SHIFTS:
        bars = np.array(demo.view(shift=shift).traces[0]["y"])
        m, n = 10 + shift, 4 + shift
        np.testing.assert_allclose(bars[:4], [q @ k, q @ p(n), p(m) @ k, p(m) @ p(n)], atol=1e-4)
        assert bars[4] == pytest.approx(additive_score_matrix(q, k, [m], [n])[0, 0], abs=1e-4)
        assert bars[0] == pytest.approx(start[0]) and bars[3] == pytest.approx(start[3], abs=1e-4)
        if shift:
            assert np.abs(bars[1:3] - start[1:3]).max() > 0.05
