"""The rounding of plot data (:mod:`rope_viz.figures.rounding`) against Python's own decimal formatting."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rope_viz.figures.rounding import significant

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300)


@settings(deadline=None, max_examples=400)
@given(value=finite, digits=st.integers(min_value=1, max_value=15))
def test_significant_is_the_nearest_number_with_that_many_digits(value, digits):
    (rounded,) = significant([value], digits)
    printed = float(f"{value:.{digits}g}")
    if rounded != printed:
        # Only a value within a rounding error of the midpoint of two neighbours may go either way.
        midpoint = (rounded + printed) / 2
        assert math.isclose(value, midpoint, rel_tol=1e-12), (value, rounded, printed)
    # It prints in at most `digits` significant digits, so the JSON stays short.
    assert float(f"{rounded:.{digits}g}") == rounded
    assert len(repr(abs(rounded)).split("e")[0].replace(".", "").strip("0")) <= max(digits, 1)


def test_significant_keeps_zeros_and_non_finite_values_and_flattens():
    values = np.array([[0.0, -0.0, np.inf], [-np.inf, np.nan, 123456.0]])
    out = significant(values, 3)
    assert out[:4] == [0.0, -0.0, np.inf, -np.inf]
    assert math.isnan(out[4]) and out[5] == 123000.0
    assert all(type(value) is float for value in out)
    assert significant([0.000123456789], 4) == [0.0001235]
    assert significant([987654321.0], 2) == [990000000.0]


@pytest.mark.parametrize("digits", [0, 16, 2.5, True, "5"])
def test_significant_rejects_a_bad_digit_count(digits):
    with pytest.raises(ValueError, match="digits"):
        significant([1.0], digits)
