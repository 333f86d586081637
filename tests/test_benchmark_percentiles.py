"""The benchmarks' one percentile (``benchmarks/percentiles.py``) against the nearest rank's definition."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "percentiles.py"
_SPEC = importlib.util.spec_from_file_location("percentiles", _PATH)
percentiles = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(percentiles)

samples = st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=60)
fractions = st.sampled_from([0.0, 0.05, 0.25, 0.5, 0.9, 0.95, 0.99, 1.0]) | st.floats(0, 1)


@given(samples, fractions)
def test_the_percentile_is_the_smallest_value_with_that_share_at_or_below_it(values, fraction):
    value = percentiles.percentile(values, fraction)
    assert value in values
    rank = max(1, math.ceil(round(fraction * len(values), 9)))
    assert sum(v <= value for v in values) >= rank
    assert sum(v < value for v in values) < rank


def test_known_percentiles_of_one_to_twenty():
    values = list(range(20, 0, -1))
    assert percentiles.percentile(values, 0.5) == 10
    assert percentiles.percentile(values, 0.95) == 19
    assert percentiles.percentile(values, 1.0) == 20
    assert percentiles.percentile(values, 0.0) == 1


@pytest.mark.parametrize(("values", "fraction"), [([], 0.5), ([1.0], -0.1), ([1.0], 1.5)])
def test_an_empty_sample_or_a_fraction_outside_zero_to_one_is_refused(values, fraction):
    with pytest.raises(ValueError, match=r"empty|between 0 and 1"):
        percentiles.percentile(values, fraction)
