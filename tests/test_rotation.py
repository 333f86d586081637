"""Tests of rope_viz.rotation against independent per-pair, complex and matrix computations."""

from __future__ import annotations

import contextlib
import math
import sys
import threading
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import rope_viz as rv
from rope_viz import _rotation_kernels as kernels
from rope_viz import rotation
from tests.conftest import (
    CONVENTIONS,
    PROPERTY,
    arrays,
    as_complex,
    bases,
    conventions,
    dims,
    hand_frequencies,
    hand_rotate,
    pair_indices,
    positions,
    vectors,
)

# Angles m * theta are rounded to ~ulp(1e4) ~ 2e-12 rad in either computation; entries are at most 10.
ATOL = 1e-9


@contextlib.contextmanager
def block_elements(value: int) -> Iterator[None]:
    """Run with a different block size, to drive the blocked kernels through many (partial) blocks."""
    saved = kernels.BLOCK_ELEMENTS
    kernels.BLOCK_ELEMENTS = value
    try:
        yield
    finally:
        kernels.BLOCK_ELEMENTS = saved


@st.composite
def rotation_cases(draw, max_seq: int = 5):
    dim = draw(dims)
    seq = draw(st.integers(min_value=1, max_value=max_seq))
    x = draw(arrays((seq, dim)))
    pos = np.array(draw(st.lists(positions, min_size=seq, max_size=seq)))
    return x, pos, draw(bases), draw(conventions)


# --- the three forms agree ----------------------------------------------------------------------------------


@PROPERTY
@given(rotation_cases())
def test_rotate_matches_a_per_pair_loop(case):
    x, pos, base, convention = case
    frequencies = hand_frequencies(x.shape[-1], base)
    expected = np.stack([hand_rotate(row, p, convention, frequencies) for row, p in zip(x, pos, strict=True)])
    np.testing.assert_allclose(rv.rotate(x, pos, base=base, convention=convention), expected, atol=ATOL)


@PROPERTY
@given(rotation_cases())
def test_rotate_matches_complex_multiplication(case):
    x, pos, base, convention = case
    dim = x.shape[-1]
    theta = base ** (-np.arange(dim // 2) * 2.0 / dim)
    z = as_complex(x, convention) * np.exp(1j * pos[:, None] * theta)  # (seq, d/2)
    expected = np.empty_like(x)
    a, b = np.array(pair_indices(dim, convention)).T
    expected[:, a], expected[:, b] = z.real, z.imag
    np.testing.assert_allclose(rv.rotate(x, pos, base=base, convention=convention), expected, atol=ATOL)


@PROPERTY
@given(rotation_cases(max_seq=3))
def test_rotation_matrix_form_agrees_with_rotate_and_the_loop(case):
    x, pos, base, convention = case
    frequencies = hand_frequencies(x.shape[-1], base)
    for row, p in zip(x, pos, strict=True):
        matrix = rv.rotation_matrix(p, x.shape[-1], base=base, convention=convention)
        by_matrix = matrix @ row
        np.testing.assert_allclose(by_matrix, hand_rotate(row, p, convention, frequencies), atol=ATOL)
        np.testing.assert_allclose(by_matrix, rv.rotate(row, p, base=base, convention=convention), atol=ATOL)


def test_rotation_matrix_by_hand_for_d4():
    m = 0.7
    c0, s0 = math.cos(m), math.sin(m)
    c1, s1 = math.cos(m / 100), math.sin(m / 100)  # theta_1 = 10000 ** (-2/4) = 0.01
    interleaved = np.array([[c0, -s0, 0, 0], [s0, c0, 0, 0], [0, 0, c1, -s1], [0, 0, s1, c1]])
    half = np.array([[c0, 0, -s0, 0], [0, c1, 0, -s1], [s0, 0, c0, 0], [0, s1, 0, c1]])
    np.testing.assert_allclose(rv.rotation_matrix(m, 4), interleaved, atol=1e-15)
    np.testing.assert_allclose(rv.rotation_matrix(m, 4, convention="half"), half, atol=1e-15)


@PROPERTY
@given(rotation_cases())
def test_low_level_kernels_agree_with_the_loop(case):
    x, pos, base, convention = case
    frequencies = hand_frequencies(x.shape[-1], base)
    expected = np.stack([hand_rotate(row, p, convention, frequencies) for row, p in zip(x, pos, strict=True)])
    angle = np.outer(pos, frequencies)
    got = rotation.rotate_elementwise(x, np.cos(angle), np.sin(angle), convention)
    np.testing.assert_allclose(got, expected, atol=ATOL)
    if convention == "interleaved":
        np.testing.assert_allclose(rotation.rotate_complex(x, np.exp(1j * angle)), expected, atol=ATOL)


# --- properties of R(m) -------------------------------------------------------------------------------------


@PROPERTY
@given(dims, positions, positions, bases, conventions)
def test_rotation_matrix_group_properties(dim, m, n, base, convention):
    options = {"base": base, "convention": convention}
    r_m = rv.rotation_matrix(m, dim, **options)
    r_n = rv.rotation_matrix(n, dim, **options)
    np.testing.assert_allclose(r_m.T @ r_n, rv.rotation_matrix(n - m, dim, **options), atol=1e-9)
    np.testing.assert_allclose(r_m.T @ r_m, np.eye(dim), atol=1e-12)  # orthogonal
    assert np.linalg.det(r_m) == pytest.approx(1.0)  # a rotation, not a reflection
    np.testing.assert_array_equal(rv.rotation_matrix(0.0, dim, **options), np.eye(dim))


@PROPERTY
@given(
    dims.flatmap(lambda d: st.tuples(hnp.array_shapes(min_dims=0, max_dims=2, max_side=3), st.just(d))),
    st.integers(min_value=1, max_value=4),
    bases,
    conventions,
    st.data(),
)
def test_norms_are_preserved_and_batch_axes_broadcast(batch_and_dim, seq, base, convention, data):
    batch, dim = batch_and_dim
    x = data.draw(arrays((*batch, seq, dim)))
    pos = np.array(data.draw(st.lists(positions, min_size=seq, max_size=seq)))
    y = rv.rotate(x, pos, base=base, convention=convention)
    assert y.shape == x.shape
    np.testing.assert_allclose(np.linalg.norm(y, axis=-1), np.linalg.norm(x, axis=-1), atol=1e-9)
    for index in np.ndindex(*batch):  # every batch entry rotated on its own gives the same
        np.testing.assert_allclose(y[index], rv.rotate(x[index], pos, base=base, convention=convention))


def test_rotation_of_position_zero_is_identity_and_inputs_are_untouched():
    x = np.random.default_rng(0).standard_normal((2, 3, 8))
    before = x.copy()
    for convention in CONVENTIONS:
        np.testing.assert_array_equal(rv.rotate(x, np.zeros(3), convention=convention), x)
    np.testing.assert_array_equal(x, before)


# --- the two conventions ------------------------------------------------------------------------------------


@PROPERTY
@given(rotation_cases())
def test_conventions_agree_through_the_permutation(case):
    x, pos, base, _ = case
    via_half = rv.to_interleaved(rv.rotate(rv.to_half(x), pos, base=base, convention="half"))
    np.testing.assert_allclose(via_half, rv.rotate(x, pos, base=base, convention="interleaved"), atol=1e-12)


@PROPERTY
@given(dims.flatmap(lambda d: arrays((3, d))))
def test_to_half_and_to_interleaved_are_inverse_permutations(x):
    dim = x.shape[-1]
    half = rv.to_half(x)
    for i in range(dim // 2):  # the definition, one pair at a time
        np.testing.assert_array_equal(half[:, i], x[:, 2 * i])
        np.testing.assert_array_equal(half[:, i + dim // 2], x[:, 2 * i + 1])
    np.testing.assert_array_equal(rv.to_interleaved(half), x)
    np.testing.assert_array_equal(rv.to_half(rv.to_interleaved(x)), x)


def test_rotation_matrices_of_the_two_conventions_are_permutation_similar():
    dim, m = 10, 3.3
    permutation = np.eye(dim)[[*range(0, dim, 2), *range(1, dim, 2)]]  # rows: to_half as a matrix
    np.testing.assert_array_equal(permutation @ np.arange(dim), rv.to_half(np.arange(dim)))
    half = rv.rotation_matrix(m, dim, convention="half")
    np.testing.assert_allclose(permutation.T @ half @ permutation, rv.rotation_matrix(m, dim), atol=1e-15)


# --- dtypes, layouts, sizes ---------------------------------------------------------------------------------


@PROPERTY
@given(
    dims,
    st.integers(min_value=1, max_value=4),
    conventions,
    st.lists(st.floats(min_value=-2e5, max_value=2e5), min_size=4, max_size=4),
    st.data(),
)
def test_float32_stays_float32_and_is_close_to_float64(dim, seq, convention, pos, data):
    x32 = data.draw(arrays((2, seq, dim), np.float32))
    pos = np.array(pos[:seq])
    y32 = rv.rotate(x32, pos, convention=convention)
    assert y32.dtype == np.float32
    y64 = rv.rotate(x32.astype(np.float64), pos, convention=convention)
    # float32 rounding of x * cos and of cos itself: a few 1e-7 relative to the pair's size (<= 10 * sqrt 2)
    np.testing.assert_allclose(y32, y64, atol=2e-5, rtol=0)


def test_float32_at_large_positions_uses_float64_angles():
    # at m = 1e6 a float32 angle would be off by up to 0.03 rad; the result must still be float32-accurate
    x = np.ones((1, 2), np.float32)
    m = np.array([1e6 + 0.25])
    y = rv.rotate(x, m)
    expected = [math.cos(m[0]) - math.sin(m[0]), math.sin(m[0]) + math.cos(m[0])]
    np.testing.assert_allclose(y[0], expected, atol=1e-6)


def test_integer_and_list_inputs_become_float64():
    y = rv.rotate([[1, 0], [0, 1]], [0, 0])
    assert y.dtype == np.float64
    np.testing.assert_array_equal(y, np.eye(2))


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_non_contiguous_and_unaligned_inputs(convention):
    rng = np.random.default_rng(1)
    base = rng.standard_normal((8, 5, 3))
    x = base.transpose(2, 1, 0)  # (3, 5, 8), not contiguous
    pos = np.arange(5) * 1.5
    np.testing.assert_allclose(
        rv.rotate(x, pos, convention=convention),
        rv.rotate(np.ascontiguousarray(x), pos, convention=convention),
    )
    buffer = np.arange(11.0)
    unaligned = buffer[1:9]  # contiguous, 8-byte but not 16-byte aligned: the complex view must still work
    expected = hand_rotate(unaligned, 3.0, convention, hand_frequencies(8, 10000.0))
    np.testing.assert_allclose(rv.rotate(unaligned, 3.0, convention=convention), expected, atol=1e-12)


@pytest.mark.parametrize("shape", [(0, 8), (3, 0, 8), (0, 2, 4)])
@pytest.mark.parametrize("convention", CONVENTIONS)
def test_empty_inputs_keep_their_shape(shape, convention):
    y = rv.rotate(np.zeros(shape), np.zeros(shape[-2]), convention=convention)
    assert y.shape == shape


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("convention", CONVENTIONS)
@pytest.mark.parametrize("block", [1, 13, 125, 512])
def test_every_block_layout_gives_the_same_result(block, convention, dtype):
    # a tiny block size drives both blocking schemes (cut along seq; several batch entries per block) through
    # many full and partial blocks, including blocks narrower than one vector
    rng = np.random.default_rng(2)
    frequencies = hand_frequencies(12, 10000.0)
    for shape in [(3, 7, 12), (5, 1, 12), (2, 40, 12)]:
        x = rng.standard_normal(shape).astype(dtype)
        pos = rng.uniform(-50, 300, shape[-2])
        expected = np.empty(shape)
        for index in np.ndindex(*shape[:-1]):
            expected[index] = hand_rotate(x[index], pos[index[-1]], convention, frequencies)
        with block_elements(block):
            y = rv.rotate(x, pos, convention=convention)
        np.testing.assert_allclose(y, expected, atol=1e-5 if dtype == np.float32 else 1e-12)


@pytest.mark.parametrize(
    ("pos", "by_angle_addition"),
    [
        (np.arange(4096.0), True),  # integer grid: 64 coarse and 64 fine parts
        (np.arange(-3000.0, 3000.0, 1.5), True),  # negative, fractional grid
        (np.arange(4096.0) / 3.0, True),  # position interpolation by 3
        (np.random.default_rng(3).uniform(-1e5, 1e5, 600), False),  # irregular: direct cos/sin
        (np.arange(100.0), False),  # too short to be worth it
    ],
)
def test_float64_cos_sin_is_as_accurate_as_the_angle(pos, by_angle_addition):
    frequencies = np.array(hand_frequencies(64, 10000.0))
    shape = (pos.size, 32)
    split_cos, split_sin = np.empty(shape), np.empty(shape)
    assert kernels.fill_cos_sin_split(pos, frequencies, split_cos, split_sin) is by_angle_addition
    cos_out, sin_out = np.empty(shape), np.empty(shape)
    kernels.fill_cos_sin(pos, frequencies, cos_out, sin_out)
    angle = np.outer(pos, frequencies)
    # The float64 angle m * theta is itself rounded (by up to half an ulp of the angle); angle addition may
    # land on another of those roundings, so allow two ulps of the angle plus a few ulps of the result.
    tolerance = 2 * np.spacing(np.abs(angle)) + 1e-15
    assert np.all(np.abs(cos_out - np.cos(angle)) <= tolerance)
    assert np.all(np.abs(sin_out - np.sin(angle)) <= tolerance)
    if not by_angle_addition:
        np.testing.assert_array_equal(cos_out, np.cos(angle))


def test_large_batch_matches_the_loop_on_a_sample():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((4, 2048, 64))
    pos = np.arange(2048.0)
    frequencies = hand_frequencies(64, 10000.0)
    for convention in CONVENTIONS:
        y = rv.rotate(x, pos, convention=convention)
        for head, m in [(0, 0), (1, 1), (2, 777), (3, 2047)]:
            expected = hand_rotate(x[head, m], float(m), convention, frequencies)
            np.testing.assert_allclose(y[head, m], expected, atol=1e-12)


def test_concurrent_calls_from_threads_do_not_share_scratch_buffers():
    rng = np.random.default_rng(5)
    jobs = [
        (rng.standard_normal((2, 300, 32)).astype(dtype), rng.uniform(0, 1e4, 300), convention)
        for dtype in (np.float32, np.float64)
        for convention in CONVENTIONS
    ] * 3
    results: list[np.ndarray | None] = [None] * len(jobs)

    def work(i: int) -> None:
        x, pos, convention = jobs[i]
        for _ in range(5):
            results[i] = rv.rotate(x, pos, convention=convention)

    interval = sys.getswitchinterval()
    # many small blocks and a thread switch every microsecond: the threads interleave inside the kernels
    with block_elements(256):
        expected = [rv.rotate(x, pos, convention=convention) for x, pos, convention in jobs]
        threads = [threading.Thread(target=work, args=(i,)) for i in range(len(jobs))]
        sys.setswitchinterval(1e-6)
        try:
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            sys.setswitchinterval(interval)
    for got, want in zip(results, expected, strict=True):
        np.testing.assert_array_equal(got, want)


@PROPERTY
@given(dims.flatmap(vectors), positions, conventions)
def test_scalar_position_for_a_single_vector(x, m, convention):
    batched = rv.rotate(x[None, :], [m], convention=convention)[0]
    np.testing.assert_array_equal(rv.rotate(x, m, convention=convention), batched)


def test_inv_freq_overrides_base():
    x = np.random.default_rng(6).standard_normal((3, 6))
    pos = np.array([0.0, 1.0, 2.5])
    custom = np.array([0.5, 0.25, 0.125])
    expected = np.stack([hand_rotate(row, p, "half", list(custom)) for row, p in zip(x, pos, strict=True)])
    got = rv.rotate(x, pos, base=2.0, inv_freq=custom, convention="half")
    np.testing.assert_allclose(got, expected, atol=1e-14)
    np.testing.assert_allclose(
        rv.rotation_matrix(2.5, 6, inv_freq=custom, convention="half") @ x[2], expected[2], atol=1e-14
    )
