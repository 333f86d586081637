"""Bad input raises ValueError naming the argument, never NaN or a silently wrong shape."""

from __future__ import annotations

import math

import numpy as np
import pytest

import rope_viz as rv
from rope_viz import attention, rotation
from rope_viz._validation import (
    check_base,
    check_convention,
    check_dim,
    check_finite,
    check_real_array,
    check_whole_number,
)

Q = np.array([1.0, 2.0, 3.0, 4.0])
K = np.array([0.5, -1.0, 2.0, 0.0])
X = np.ones((2, 3, 4))
POS = np.arange(3.0)

BAD_DIMS = [3, 1, 0, -2, 2.5, "8", None, True]
BAD_BASES = [1.0, 0.5, 0.0, -10.0, math.nan, math.inf, -math.inf, "10000", None, True, [10000.0]]
BAD_CONVENTIONS = ["Half", "neox", "", None, 1, ["half"], np.array(["half", "interleaved"])]
BAD_FINITE = [math.nan, math.inf, -math.inf]


def cases(function_name: str, call, values, match: str):
    return [pytest.param(call, value, match, id=f"{function_name}-{value!r}") for value in values]


DIM_CASES = [
    *cases("inv_freq", lambda v: rv.inv_freq(v), BAD_DIMS, r"\bdim\b"),
    *cases("wavelengths", lambda v: rv.wavelengths(v), BAD_DIMS, r"\bdim\b"),
    *cases("rotation_matrix", lambda v: rv.rotation_matrix(1.0, v), BAD_DIMS, r"\bdim\b"),
    *cases("decay_bound", lambda v: rv.decay_bound(1.0, v), BAD_DIMS, r"\bdim\b"),
    *cases("expected_self_score", lambda v: rv.expected_self_score(1.0, v), BAD_DIMS, r"\bdim\b"),
]

BASE_CASES = [
    *cases("inv_freq", lambda v: rv.inv_freq(8, v), BAD_BASES, r"\bbase\b"),
    *cases("wavelengths", lambda v: rv.wavelengths(8, v), BAD_BASES, r"\bbase\b"),
    *cases("rotate", lambda v: rv.rotate(X, POS, base=v), BAD_BASES, r"\bbase\b"),
    *cases("rotation_matrix", lambda v: rv.rotation_matrix(1.0, 4, base=v), BAD_BASES, r"\bbase\b"),
    *cases("score", lambda v: rv.score(Q, K, 1, 0, base=v), BAD_BASES, r"\bbase\b"),
    *cases("relative_scores", lambda v: rv.relative_scores(Q, K, [1.0], base=v), BAD_BASES, r"\bbase\b"),
    *cases("score_matrix", lambda v: rv.score_matrix(Q, K, [0.0], [1.0], base=v), BAD_BASES, r"\bbase\b"),
    *cases("decay_bound", lambda v: rv.decay_bound(1.0, 8, v), BAD_BASES, r"\bbase\b"),
    *cases("expected_self_score", lambda v: rv.expected_self_score(1.0, 8, v), BAD_BASES, r"\bbase\b"),
]

CONVENTION_CASES = [
    *cases("rotate", lambda v: rv.rotate(X, POS, convention=v), BAD_CONVENTIONS, "convention"),
    *cases(
        "rotation_matrix", lambda v: rv.rotation_matrix(1.0, 4, convention=v), BAD_CONVENTIONS, "convention"
    ),
    *cases("score", lambda v: rv.score(Q, K, 1, 0, convention=v), BAD_CONVENTIONS, "convention"),
    *cases(
        "relative_scores",
        lambda v: rv.relative_scores(Q, K, [1.0], convention=v),
        BAD_CONVENTIONS,
        "convention",
    ),
    *cases(
        "score_matrix", lambda v: rv.score_matrix(Q, K, [0], [1], convention=v), BAD_CONVENTIONS, "convention"
    ),
]

POSITION_CASES = [
    *cases("rotate", lambda v: rv.rotate(X, [0.0, v, 2.0]), BAD_FINITE, r"\bpositions\b"),
    *cases("rotate-vector", lambda v: rv.rotate(Q, v), BAD_FINITE, r"\bpositions\b"),
    *cases("rotation_matrix", lambda v: rv.rotation_matrix(v, 4), BAD_FINITE, r"\bposition\b"),
    *cases("score-m", lambda v: rv.score(Q, K, v, 0.0), BAD_FINITE, r"^m must"),
    *cases("score-n", lambda v: rv.score(Q, K, 0.0, v), BAD_FINITE, r"^n must"),
    *cases("relative_scores", lambda v: rv.relative_scores(Q, K, [1.0, v]), BAD_FINITE, r"\boffsets\b"),
    *cases("score_matrix-q", lambda v: rv.score_matrix(Q, K, [v], [1.0]), BAD_FINITE, r"\bquery_positions\b"),
    *cases("score_matrix-k", lambda v: rv.score_matrix(Q, K, [0.0], [v]), BAD_FINITE, r"\bkey_positions\b"),
    *cases("decay_bound", lambda v: rv.decay_bound([1.0, v], 8), BAD_FINITE, r"\bdistances\b"),
    *cases("expected_self_score", lambda v: rv.expected_self_score([v], 8), BAD_FINITE, r"\bdistances\b"),
    *cases("angles", lambda v: rv.angles([v], rv.inv_freq(4)), BAD_FINITE, r"\bpositions\b"),
]


@pytest.mark.parametrize(
    ("call", "value", "match"), DIM_CASES + BASE_CASES + CONVENTION_CASES + POSITION_CASES
)
def test_bad_scalar_arguments(call, value, match):
    with pytest.raises(ValueError, match=match):
        call(value)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        # positions whose length does not match the sequence axis, or of the wrong rank
        pytest.param(
            lambda: rv.rotate(X, np.arange(2.0)), r"positions must have shape \(seq,\) = \(3,\)", id="short"
        ),
        pytest.param(lambda: rv.rotate(X, np.arange(4.0)), r"\bpositions\b", id="long"),
        pytest.param(lambda: rv.rotate(X, 1.0), r"\bpositions\b", id="scalar-for-batch"),
        pytest.param(lambda: rv.rotate(X, np.zeros((3, 1))), r"\bpositions\b", id="column"),
        pytest.param(lambda: rv.rotate(X, np.zeros((2, 3))), r"\bpositions\b", id="per-batch"),
        pytest.param(lambda: rv.rotate(Q, [1.0]), r"positions must be one scalar", id="list-for-vector"),
        pytest.param(lambda: rv.rotate(X, ["a", "b", "c"]), r"\bpositions\b", id="strings"),
        pytest.param(lambda: rv.rotate(X, [1j, 0, 0]), r"\bpositions\b", id="complex"),
        pytest.param(lambda: rv.rotation_matrix([1.0, 2.0], 4), r"\bposition\b", id="matrix-two-positions"),
        pytest.param(lambda: rv.score(Q, K, [1.0, 2.0], 0.0), r"^m must be one", id="score-m-array"),
        pytest.param(
            lambda: rv.score_matrix(Q, K, np.zeros((2, 2)), [1.0]), r"\bquery_positions\b", id="2d-grid"
        ),
        # x of the wrong shape or with bad values
        pytest.param(lambda: rv.rotate(np.ones((3, 5)), POS), r"\bdim\b", id="odd-dim"),
        pytest.param(lambda: rv.rotate(np.ones((3, 0)), POS), r"\bdim\b", id="zero-dim"),
        pytest.param(lambda: rv.rotate(1.0, 0.0), r"\bx\b", id="scalar-x"),
        pytest.param(lambda: rv.rotate(np.full(4, np.nan), 0.0), r"\bx\b", id="nan-x"),
        pytest.param(lambda: rv.rotate(np.full((2, 3, 4), np.inf), POS), r"\bx\b", id="inf-x"),
        pytest.param(lambda: rv.rotate(np.ones(4, complex), 0.0), r"\bx\b", id="complex-x"),
        pytest.param(lambda: rv.rotate(np.array(["a", "b"]), 0.0), r"\bx\b", id="string-x"),
        pytest.param(lambda: rv.rotate([[1.0, 2.0], [3.0]], [0.0, 1.0]), r"\bx\b", id="ragged-x"),
        pytest.param(lambda: rv.to_half(np.ones(5)), r"\bdim\b", id="to_half-odd"),
        pytest.param(lambda: rv.to_interleaved(np.ones((2, 3))), r"\bdim\b", id="to_interleaved-odd"),
        pytest.param(lambda: rv.to_half([np.nan, 1.0]), r"\bx\b", id="to_half-nan"),
        # inv_freq of the wrong shape or with bad values
        pytest.param(lambda: rv.rotate(X, POS, inv_freq=[]), r"inv_freq must have shape \(r,\)", id="no-fr"),
        pytest.param(lambda: rv.rotate(X, POS, inv_freq=np.ones((2, 1))), r"\binv_freq\b", id="2d-freq"),
        pytest.param(lambda: rv.rotate(X, POS, inv_freq=[1.0, -0.1]), r"\binv_freq\b", id="negative-freq"),
        pytest.param(lambda: rv.rotate(X, POS, inv_freq=[1.0, np.nan]), r"\binv_freq\b", id="nan-freq"),
        pytest.param(lambda: rv.rotation_matrix(0.0, 4, inv_freq=[1.0] * 3), r"\binv_freq\b", id="matrix-fr"),
        pytest.param(
            lambda: rv.score(Q, K, 0, 1, inv_freq=[1.0, 2.0, 3.0]), r"\binv_freq\b", id="score-freq"
        ),
        pytest.param(
            lambda: rv.relative_scores(Q, K, [0], inv_freq=[1.0]), r"\binv_freq\b", id="relative-freq"
        ),
        pytest.param(lambda: rv.angles([1.0], [1.0, -1.0]), r"\binv_freq\b", id="angles-negative"),
        pytest.param(lambda: rv.angles([1.0], np.ones((2, 2))), r"\binv_freq\b", id="angles-2d"),
        # q and k
        pytest.param(lambda: rv.score(Q, K[:2], 0, 1), r"q and k", id="mismatch"),
        pytest.param(lambda: rv.score(Q[None], K[None], 0, 1), r"q and k", id="2d"),
        pytest.param(lambda: rv.score(Q[:3], K[:3], 0, 1), r"\bdim\b", id="odd"),
        pytest.param(lambda: rv.score([np.nan, 0.0], [1.0, 0.0], 0, 1), r"^q must", id="nan-q"),
        pytest.param(lambda: rv.score(Q, np.full(4, np.inf), 0, 1), r"^k must", id="inf-k"),
        pytest.param(lambda: rv.relative_scores(Q, K[:2], [0.0]), r"q and k", id="relative-mismatch"),
        pytest.param(lambda: rv.score_matrix(Q, K[:2], [0.0], [0.0]), r"q and k", id="matrix-mismatch"),
        # projections: (out, in) as nn.Linear stores them, in = the tokens' width
        pytest.param(
            lambda: attention.attention_logits(np.ones((2, 4)), np.ones((4, 3)), np.eye(4)),
            r"w_q must have shape \(out, 4\) .* got shape \(4, 3\)",
            id="projection-in-out",
        ),
        pytest.param(
            lambda: attention.self_attention(np.ones((2, 4)), np.eye(4), np.eye(4), np.ones(4)),
            r"w_v must have shape \(out, 4\)",
            id="projection-1d",
        ),
        pytest.param(
            lambda: attention.attention_logits(np.ones((2, 4)), np.eye(4), np.full((4, 4), np.nan)),
            r"^w_k must",
            id="projection-nan",
        ),
    ],
)
def test_bad_arrays(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("convention", ["interleaved", "half"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_single_nan_anywhere_in_a_large_x_is_caught(convention, dtype):
    # rotate checks x block by block; put the NaN in the last block, and an infinity in a middle one
    x = np.ones((3, 2000, 64), dtype)
    pos = np.arange(2000.0)
    for index, value in [((2, 1999, 63), np.nan), ((1, 1000, 0), np.inf), ((0, 0, 0), -np.inf)]:
        bad = x.copy()
        bad[index] = value
        with pytest.raises(ValueError, match=r"\bx\b"):
            rv.rotate(bad, pos, convention=convention)


@pytest.mark.parametrize("convention", ["interleaved", "half"])
def test_huge_finite_x_is_accepted(convention):
    # the block sum overflows to inf for these values; the exact element-wise test must then accept them
    x = np.full((2, 3, 4), 1e38, np.float32)
    y = rv.rotate(x, POS, convention=convention)
    assert np.all(np.isfinite(y))
    np.testing.assert_allclose(np.linalg.norm(y.astype(float), axis=-1), 2e38, rtol=1e-6)


def test_nothing_returns_nan_for_boundary_but_valid_input():
    # the smallest valid dim and a base just above 1, a zero vector, position 0
    assert np.all(np.isfinite(rv.inv_freq(2, 1.0000001)))
    assert rv.score(np.zeros(2), np.zeros(2), 0, 0) == 0.0
    assert np.all(np.isfinite(rv.decay_bound(np.arange(3.0), 2, 1.0000001)))
    assert rv.rotate(np.zeros((1, 2)), [0.0]).tolist() == [[0.0, 0.0]]


def test_the_checks_return_clean_values():
    assert check_dim(8) == 8
    assert check_dim(np.int64(8)) == 8
    assert check_dim(8.0) == 8  # an integral float is accepted
    assert check_base(np.float32(500.0)) == 500.0
    assert check_base(np.array(10000.0)) == 10000.0  # a 0-d array is a scalar
    assert check_convention("half") == "half"
    assert check_finite([1, 2], "v").dtype == np.float64
    assert check_real_array(np.ones(2, np.float32), "v").dtype == np.float32
    assert check_real_array(np.ones(2, np.float16), "v").dtype == np.float64
    big_endian = np.ones(2, ">f8")
    assert check_real_array(big_endian, "v").dtype == np.dtype("=f8")
    float64 = np.ones(3)
    assert check_real_array(float64, "v") is float64  # no copy of an already valid (possibly large) x


def test_a_whole_number_check_takes_integers_in_range_only():
    assert check_whole_number(np.int64(7), "n", 0, 10) == 7
    assert type(check_whole_number(np.int64(7), "n", 0, 10)) is int
    for bad in (True, 7.0, -1, 11, "7", None):
        with pytest.raises(ValueError, match=r"n must be a whole number from 0 to 10, got "):
            check_whole_number(bad, "n", 0, 10)
    with pytest.raises(ValueError, match=r"from 1 to 10,000,000, got 0"):
        check_whole_number(0, "max_position", 1, 10**7)


def test_messages_state_the_accepted_range():
    with pytest.raises(ValueError, match=r"dim must be an even integer >= 2, got 7"):
        rv.inv_freq(7)
    with pytest.raises(ValueError, match=r"base must be a finite number > 1, got 1\.0"):
        rv.inv_freq(8, 1.0)
    with pytest.raises(ValueError, match=r"convention must be one of \('interleaved', 'half'\), got 'neox'"):
        rv.rotate(X, POS, convention="neox")
    with pytest.raises(ValueError, match=r"inv_freq must have shape \(r,\) with 1 <= r <= dim // 2 = 2"):
        rv.rotate(X, POS, inv_freq=[1.0, 2.0, 3.0])


def test_low_level_kernels_do_no_checking():
    # the low-level kernels do no checking at all: a NaN passes through as NaN
    y = rotation.rotate_elementwise(np.array([[np.nan, 1.0]]), np.ones((1, 1)), np.zeros((1, 1)), "half")
    assert np.isnan(y[0, 0])
