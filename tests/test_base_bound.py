"""Tests of rope_viz.base_bound: Men et al.'s sum_i cos(r theta_i) >= 0, and the smallest base passing it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz.base_bound import bound_holds, smallest_passing_base
from tests.conftest import PROPERTY


def textbook_holds(length: int, dim: int, base: float) -> bool:
    """The criterion written directly: theta_i = b^(-2i/d), cos(r theta_i) in float64, angles unreduced."""
    theta = base ** (-np.arange(0, dim, 2) / dim)
    r = np.arange(length + 1, dtype=np.float64)
    return bool(np.cos(np.outer(r, theta)).sum(axis=1).min() >= 0.0)


def textbook_smallest(length: int, dim: int, per_decade: int, start: float) -> float:
    """The first grid base ``10^(k / per_decade)`` at or above ``start`` that passes, by trying every one."""
    k = math.ceil(round(math.log10(start) * per_decade, 9))
    while not textbook_holds(length, dim, 10.0 ** (k / per_decade)):
        k += 1
    return 10.0 ** (k / per_decade)


@PROPERTY
@given(
    length=st.integers(1, 3000),
    half=st.integers(1, 32),
    base=st.floats(1.5, 1e7),
)
def test_bound_holds_agrees_with_the_sum_written_out(length, half, base):
    dim = 2 * half
    assert bound_holds(length, dim, base) == textbook_holds(length, dim, base)
    # and with the library's expected score, which is twice the sum
    r = np.arange(length + 1, dtype=float)
    assert bound_holds(length, dim, base) == bool(rv.expected_self_score(r, dim, base).min() >= 0)


@settings(PROPERTY, max_examples=25)
@given(
    length=st.integers(16, 1500),
    dim=st.sampled_from([8, 16, 32, 64]),
    per_decade=st.sampled_from([20, 50, 120]),
)
def test_the_smallest_passing_base_is_the_first_grid_base_that_passes(length, dim, per_decade):
    found = smallest_passing_base(length, dim, per_decade=per_decade, start=10.0)
    assert found == pytest.approx(textbook_smallest(length, dim, per_decade, 10.0), rel=1e-12)
    assert textbook_holds(length, dim, found)
    below = found / 10.0 ** (1 / per_decade)
    if below >= 10.0:
        assert not textbook_holds(length, dim, below)


@settings(PROPERTY, max_examples=20)
@given(
    short=st.integers(16, 800),
    extra=st.integers(1, 800),
    dim=st.sampled_from([16, 32, 64]),
)
def test_a_longer_context_needs_at_least_the_base_of_a_shorter_one(short, extra, dim):
    shorter = smallest_passing_base(short, dim, per_decade=100, start=10.0)
    longer = smallest_passing_base(short + extra, dim, per_decade=100, start=10.0)
    assert longer >= shorter
    # so the shorter length's answer is a valid place to start the longer length's scan
    assert smallest_passing_base(short + extra, dim, per_decade=100, start=shorter) == longer


def test_passing_is_not_monotone_in_the_base():
    """Just above the smallest passing base some bases fail again: the reason the scan is not a bisection."""
    smallest = smallest_passing_base(32_768, 128, per_decade=1000, start=5e5)
    assert bound_holds(32_768, 128, smallest)
    assert not bound_holds(32_768, 128, 1e6) and 1e6 > smallest  # Qwen3's base, by a hair


def test_values_of_the_chapter():
    """d = 128, 1,000 bases per decade: the first base that passes for 1,024 and 4,096 tokens; the local base
    of Gemma 3's sliding layers (10,000, window 1,024) passes, and Llama 2's (10,000 at 4,096) fails."""
    assert round(smallest_passing_base(1024, 128)) == 4295
    assert round(smallest_passing_base(4096, 128, start=4295)) == 28642
    assert bound_holds(1024, 128, 10_000.0) and not bound_holds(4096, 128, 10_000.0)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"length": 0, "dim": 128}, "length"),
        ({"length": True, "dim": 128}, "length"),
        ({"length": 1024.5, "dim": 128}, "length"),
        ({"length": 1024, "dim": 2}, "at least 4"),
        ({"length": 1024, "dim": 7}, "dim"),
        ({"length": 1024, "dim": 128, "per_decade": 0}, "per_decade"),
        ({"length": 1024, "dim": 128, "start": 1.0}, "start"),
        ({"length": 1024, "dim": 128, "start": float("nan")}, "start"),
    ],
)
def test_bad_arguments_are_refused(arguments, message):
    with pytest.raises(ValueError, match=message):
        smallest_passing_base(**arguments)


def test_bound_holds_refuses_bad_arguments():
    for arguments in ((0, 128, 1e4), (1024, 3, 1e4), (1024, 128, 0.5), (1024, 128, float("inf"))):
        with pytest.raises(ValueError):
            bound_holds(*arguments)
