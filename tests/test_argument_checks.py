"""The positions and frequencies checks have one home, rope_viz._validation, and every math module uses it.

The checks are tested here directly (what each mode accepts, returns and refuses), then through the public
functions that rest on them: a bad argument gets the same message whichever module it is passed to. A scan of
the sources keeps copies from coming back.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import rope_viz as rv
from rope_viz import attention, extension, long_range, mistakes, phases, position_schemes, shift_invariance
from rope_viz._validation import check_frequencies, check_positions

ROOT = Path(__file__).resolve().parents[1]

finite = st.floats(-1e6, 1e6, allow_nan=False)
positive = st.floats(1e-9, 10.0)
position_arrays = hnp.arrays(
    np.float64, hnp.array_shapes(min_dims=0, max_dims=1, min_side=0), elements=finite
)


# --- check_positions --------------------------------------------------------------------------------------


@settings(deadline=None)
@given(position_arrays)
def test_default_mode_returns_the_positions_flat(positions):
    result = check_positions(positions)
    assert result.dtype == np.float64
    assert result.shape == (positions.size,)
    np.testing.assert_array_equal(result, positions.reshape(-1))


@settings(deadline=None)
@given(hnp.arrays(np.int64, st.integers(0, 6), elements=st.integers(-(2**40), 2**40)))
def test_integer_positions_become_the_same_floats(positions):
    result = check_positions(positions, ndim=1, length=positions.size)
    assert result.dtype == np.float64
    assert result.tolist() == [float(value) for value in positions]


@settings(deadline=None)
@given(position_arrays, st.sampled_from([None, 0, 1]))
def test_each_mode_accepts_exactly_its_shapes(positions, ndim):
    accepted = {None: positions.ndim <= 1, 0: positions.ndim == 0, 1: positions.ndim == 1}[ndim]
    if accepted:
        assert check_positions(positions, ndim=ndim).size == positions.size
    else:
        with pytest.raises(ValueError, match=r"^positions must"):
            check_positions(positions, ndim=ndim)


def test_the_messages_say_the_shape_asked_for():
    with pytest.raises(
        ValueError, match=r"^m must be a scalar or a 1-D array of positions, got shape \(1, 2\)$"
    ):
        check_positions([[0.0, 1.0]], "m")
    with pytest.raises(ValueError, match=r"^p must be one scalar for x of shape \(4,\), got shape \(1,\)$"):
        check_positions([0.0], "p", ndim=0, context="for x of shape (4,)")
    with pytest.raises(ValueError, match=r"^positions must have shape \(seq,\), got shape \(\)$"):
        check_positions(3.0, ndim=1)
    with pytest.raises(
        ValueError, match=r"^positions must have shape \(seq,\) = \(3,\) here, got shape \(2,\)$"
    ):
        check_positions([0.0, 1.0], ndim=1, length=3, context="here")
    with pytest.raises(ValueError, match=r"^ndim must be None, 0 or 1, got 2$"):
        check_positions([[0.0]], ndim=2)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, "a", 1j])
@pytest.mark.parametrize("ndim", [None, 0, 1])
def test_positions_must_be_finite_real_numbers(bad, ndim):
    value = bad if ndim == 0 else [0.0, bad]
    with pytest.raises(ValueError, match=r"^query_positions must"):
        check_positions(value, "query_positions", ndim=ndim)


# --- check_frequencies ------------------------------------------------------------------------------------


@settings(deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 8), elements=positive))
def test_positive_frequencies_pass_unchanged(frequencies):
    np.testing.assert_array_equal(check_frequencies(frequencies), frequencies)
    np.testing.assert_array_equal(check_frequencies(frequencies, 2 * frequencies.size), frequencies)


@settings(deadline=None)
@given(st.integers(1, 8), st.data())
def test_with_dim_a_zero_frequency_passes_and_without_dim_it_does_not(pairs, data):
    frequencies = data.draw(hnp.arrays(np.float64, pairs, elements=st.floats(0.0, 10.0)))
    frequencies[data.draw(st.integers(0, pairs - 1))] = 0.0
    np.testing.assert_array_equal(check_frequencies(frequencies, 2 * pairs), frequencies)
    with pytest.raises(ValueError, match=r"^inv_freq must be a 1-D array of positive frequencies"):
        check_frequencies(frequencies)


@settings(deadline=None)
@given(st.integers(1, 8), st.integers(0, 10))
def test_partial_accepts_one_to_all_pairs_and_full_only_all(pairs, given_pairs):
    dim = 2 * pairs
    frequencies = np.ones(given_pairs)
    if 1 <= given_pairs <= pairs:
        assert check_frequencies(frequencies, dim, partial=True).shape == (given_pairs,)
    else:
        with pytest.raises(
            ValueError, match=rf"^inv_freq must have shape \(r,\) with 1 <= r <= dim // 2 = {pairs}"
        ):
            check_frequencies(frequencies, dim, partial=True)
    if given_pairs == pairs:
        assert check_frequencies(frequencies, dim).shape == (pairs,)
    else:
        with pytest.raises(ValueError, match=rf"^inv_freq must have shape \(dim // 2,\) = \({pairs},\)"):
            check_frequencies(frequencies, dim)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: check_frequencies([1.0, -0.5], 4), r"^inv_freq must be >= 0"),
        (lambda: check_frequencies([1.0, np.nan], 4), r"^inv_freq must be finite"),
        (lambda: check_frequencies([], name="trained_inv_freq"), r"^trained_inv_freq must be a 1-D array"),
        (
            lambda: check_frequencies([[1.0]]),
            r"^inv_freq must be a 1-D array of positive .* got shape \(1, 1\)",
        ),
        (lambda: check_frequencies([1.0], partial=True), r"^partial=True needs dim"),
    ],
)
def test_bad_frequencies_are_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- the modules share them -------------------------------------------------------------------------------

Q = np.array([1.0, 2.0, 3.0, 4.0])
K = np.array([0.5, -1.0, 2.0, 0.0])


def message(call) -> str:
    with pytest.raises(ValueError) as error:
        call()
    return str(error.value)


def test_two_dimensional_positions_get_one_message_everywhere():
    grid = np.zeros((2, 2))
    expected = "query_positions must be a scalar or a 1-D array of positions, got shape (2, 2)"
    assert message(lambda: rv.score_matrix(Q, K, grid, [0.0])) == expected
    assert message(lambda: mistakes.sincos_table(grid, 4)) == expected.replace("query_", "")
    assert message(lambda: shift_invariance.additive_score_matrix(Q, K, grid, [0.0])) == expected
    strict = "query_positions must have shape (seq,), got shape (2, 2)"
    assert message(lambda: position_schemes.alibi_bias(grid, [0.0], 0.5)) == strict
    assert message(
        lambda: attention.attention_logits(np.ones((2, 4)), np.eye(4), np.eye(4), positions=[0.0])
    ) == ("positions must have shape (seq,) = (2,), got shape (1,)")


def test_non_positive_frequencies_get_one_message_everywhere():
    expected = "inv_freq must be a 1-D array of positive frequencies (radians per token), got shape (2,)"
    bad = [1.0, -1.0]
    assert message(lambda: rv.angles([1.0], bad)) == expected
    assert message(lambda: phases.partial_sums([1.0], bad)) == expected
    assert message(lambda: long_range.phase_coherence([1.0], bad)) == expected
    assert message(lambda: extension.context_arcs(10.0, bad)) == expected
    assert message(lambda: extension.neighbour_angles(bad)) == expected


def test_rotation_keeps_zero_frequencies_and_a_partial_rotary():
    x = np.arange(8.0)
    # a zero frequency leaves its pair alone; two frequencies for d = 8 rotate the first four channels only
    rotated = rv.rotate(x, 3.0, inv_freq=[1.0, 0.0], convention="interleaved")
    np.testing.assert_array_equal(rotated[2:], x[2:])
    assert not np.allclose(rotated[:2], x[:2])
    with pytest.raises(ValueError, match=r"^inv_freq must have shape \(r,\) with 1 <= r <= dim // 2 = 4"):
        rv.rotate(x, 3.0, inv_freq=np.ones(5))
    with pytest.raises(ValueError, match=r"^inv_freq must have shape \(dim // 2,\) = \(2,\)"):
        rv.relative_scores(Q, K, [0.0], inv_freq=[1.0])


# --- no copies --------------------------------------------------------------------------------------------

#: A module's own positions or frequencies check: a helper of that kind, or one of the shared messages.
COPY = re.compile(
    r"def _?(check_)?(positions_1d|frequencies)\(|"
    r"must be a scalar or a 1-D array of positions|1-D array of positive frequencies|"
    r"for a pair that does not rotate\)"
)
#: Checks kept apart on purpose: scaling/ validates its own RopeParameters, and these modules are their own.
SEPARATE = ("rope_viz/_validation.py", "rope_viz/scaling/", "rope_viz/checker/", "rope_viz/demos/")


@pytest.mark.parametrize(
    "copy",
    [
        "def _positions_1d(values: object, name: str) -> np.ndarray:",
        "def _check_positions_1d(values, name):",
        "def check_frequencies(inv_freq: object) -> np.ndarray:",
        'raise ValueError(f"{name} must be a 1-D array of positive frequencies (radians per token)")',
        'raise ValueError("inv_freq must be >= 0 (radians per token; 0 for a pair that does not rotate)")',
    ],
)
def test_the_scan_recognises_a_copy(copy):
    assert COPY.search(copy)


def test_no_module_keeps_its_own_copy_of_the_checks():
    copies = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}: {match.group()}"
        for path in sorted((ROOT / "rope_viz").rglob("*.py"))
        if not str(path.relative_to(ROOT)).startswith(SEPARATE)
        for text in [path.read_text(encoding="utf-8")]
        for match in COPY.finditer(text)
    ]
    assert not copies, "use check_positions / check_frequencies from rope_viz._validation:\n" + "\n".join(
        copies
    )
