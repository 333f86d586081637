"""Tests of rope_viz.frequencies: theta_i = base ** (-2i/d), wavelengths and angles."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rope_viz as rv
from tests.conftest import PROPERTY, bases, dims, hand_frequencies, positions


@PROPERTY
@given(dims, bases)
def test_inv_freq_matches_the_definition(dim, base):
    theta = rv.inv_freq(dim, base)
    assert theta.shape == (dim // 2,)
    assert theta.dtype == np.float64
    np.testing.assert_allclose(theta, hand_frequencies(dim, base), rtol=1e-14)
    assert theta[0] == 1.0
    assert np.all(np.diff(theta) < 0)


@PROPERTY
@given(dims, bases)
def test_inv_freq_matches_the_reciprocal_form_of_reference_code(dim, base):
    # Hugging Face and Meta's code write 1 / base ** (arange(0, d, 2) / d)
    reciprocal = 1.0 / base ** (np.arange(0, dim, 2, dtype=np.float64) / dim)
    np.testing.assert_allclose(rv.inv_freq(dim, base), reciprocal, rtol=1e-14)


def test_inv_freq_of_the_original_design():
    # d = 8, b = 10000: 10000 ** (-i/4) for i = 0..3
    np.testing.assert_allclose(rv.inv_freq(8), [1.0, 0.1, 0.01, 0.001], rtol=1e-15)
    np.testing.assert_allclose(rv.inv_freq(2, base=500.0), [1.0])


@PROPERTY
@given(dims, bases)
def test_wavelengths_are_two_pi_over_theta(dim, base):
    wavelengths = rv.wavelengths(dim, base)
    expected = [2 * math.pi / theta for theta in hand_frequencies(dim, base)]
    np.testing.assert_allclose(wavelengths, expected, rtol=1e-14)
    # a pair at position m + wavelength is back where it was at m
    theta = rv.inv_freq(dim, base)
    np.testing.assert_allclose(np.cos(wavelengths * theta), 1.0, atol=1e-12)


@pytest.mark.parametrize(
    ("pair", "printed"),
    [(0, "6.3"), (16, "628"), (24, "6,283"), (31, "47,117")],
)
def test_wavelengths_printed_in_the_source_for_d64(pair, printed):
    # the source rounds pair 0 to one decimal and the others to whole tokens with thousands separators
    wavelength = rv.wavelengths(64, 10000.0)[pair]
    formatted = f"{wavelength:.1f}" if pair == 0 else f"{wavelength:,.0f}"
    assert formatted == printed


@PROPERTY
@given(st.lists(positions, min_size=0, max_size=6), dims, bases)
def test_angles_are_position_times_frequency(pos, dim, base):
    theta = hand_frequencies(dim, base)
    got = rv.angles(pos, rv.inv_freq(dim, base))
    assert got.shape == (len(pos), dim // 2)
    for m, row in zip(pos, got, strict=True):
        np.testing.assert_allclose(row, [m * t for t in theta], rtol=1e-14, atol=1e-300)


def test_angles_of_a_scalar_and_of_a_grid():
    theta = rv.inv_freq(6)
    assert rv.angles(2.5, theta).shape == (3,)
    np.testing.assert_allclose(rv.angles(2.5, theta), 2.5 * theta)
    grid = np.arange(6.0).reshape(2, 3)
    assert rv.angles(grid, theta).shape == (2, 3, 3)
    np.testing.assert_allclose(rv.angles(grid, theta)[1, 2], 5.0 * theta)


def test_angles_stay_float64_for_float32_positions():
    # 100003 is exact in float32 too, but 100003 * 0.1 must be formed in float64
    got = rv.angles(np.array([100003.0], np.float32), rv.inv_freq(4))
    assert got.dtype == np.float64
    assert got[0, 1] == 100003.0 * rv.inv_freq(4)[1]  # float64 product; in float32 it would be 1000.02997
