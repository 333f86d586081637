"""Tests of rope_viz.base_bound: Men et al.'s sum_i cos(r theta_i) >= 0, the smallest base passing it, and
the base from which every base of the grid passes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz.base_bound import all_pass_from, bound_holds, grid_passes, lower_bound, smallest_passing_base
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


def textbook_min(length: int, dim: int, base: float) -> float:
    """The lowest sum over whole 0 <= r <= length, written directly in float64."""
    theta = base ** (-np.arange(0, dim, 2) / dim)
    return float(np.cos(np.outer(np.arange(length + 1, dtype=np.float64), theta)).sum(axis=1).min())


def textbook_lower_bound(length: int, dim: int, base: float) -> float:
    """Each pair's own lowest cos over the distances, one pair at a time (pair 0 turns 1 radian a token)."""
    total = min(math.cos(r) for r in range(length + 1))
    for i in range(1, dim // 2):
        angle = length * base ** (-2 * i / dim)
        total += math.cos(angle) if angle <= math.pi else -1.0
    return total


@PROPERTY
@given(
    length=st.integers(1, 2000),
    half=st.integers(2, 32),
    base=st.floats(1.5, 1e9),
)
def test_the_lower_bound_is_below_every_sum_and_written_out(length, half, base):
    dim = 2 * half
    bound = lower_bound(length, dim, base)
    assert bound == pytest.approx(textbook_lower_bound(length, dim, base), abs=1e-9)
    assert bound <= textbook_min(length, dim, base) + 1e-9


@PROPERTY
@given(
    length=st.integers(1, 2000),
    half=st.integers(2, 32),
    base=st.floats(1.5, 1e9),
    ratio=st.floats(1.0, 1e3),
)
def test_the_lower_bound_never_falls_as_the_base_grows(length, half, base, ratio):
    dim = 2 * half
    assert lower_bound(length, dim, base) <= lower_bound(length, dim, base * ratio) + 1e-12
    if lower_bound(length, dim, base) >= 1e-6:  # then every larger base passes
        assert textbook_holds(length, dim, base * ratio)


@settings(PROPERTY, max_examples=25)
@given(
    length=st.integers(16, 1200),
    dim=st.sampled_from([8, 16, 32, 64]),
    per_decade=st.sampled_from([20, 50, 120]),
)
def test_every_grid_base_from_all_pass_from_up_passes(length, dim, per_decade):
    """The result passes, the grid base below it fails, and so does no grid base above it up to the first one
    at which the lower bound is >= 0 (beyond it every base passes, by the test above)."""
    every = all_pass_from(length, dim, per_decade=per_decade, start=10.0)
    k = round(math.log10(every) * per_decade)
    assert every == 10.0 ** (k / per_decade)
    below = 10.0 ** ((k - 1) / per_decade)
    assert textbook_holds(length, dim, every)
    if below >= 10.0:
        assert not textbook_holds(length, dim, below)
    while lower_bound(length, dim, 10.0 ** (k / per_decade)) < 1e-6:
        assert textbook_holds(length, dim, 10.0 ** (k / per_decade))
        k += 1
    assert every >= smallest_passing_base(length, dim, per_decade=per_decade, start=10.0)


@settings(PROPERTY, max_examples=25)
@given(
    length=st.integers(16, 1200),
    dim=st.sampled_from([8, 16, 32, 64]),
    per_decade=st.sampled_from([20, 50, 120]),
)
def test_grid_passes_agrees_with_the_sum_and_with_both_scans(length, dim, per_decade):
    smallest = smallest_passing_base(length, dim, per_decade=per_decade, start=10.0)
    every = all_pass_from(length, dim, per_decade=per_decade, start=10.0)
    bases, passes = grid_passes(length, dim, 10.0, every, per_decade=per_decade)
    assert [textbook_holds(length, dim, base) for base in bases] == passes.tolist()
    assert bases[0] == 10.0 and bases[-1] == every
    assert bases[np.argmax(passes)] == smallest  # the first that passes
    if not passes.all():
        assert bases[np.flatnonzero(~passes)[-1] + 1] == every  # the last failure is just below


def test_the_smallest_passing_base_is_a_narrow_island():
    """d = 128, L = 32,768: just above the smallest passing base most grid bases fail again, Qwen3's 10^6
    among them, up to a base several times larger."""
    smallest = smallest_passing_base(32_768, 128, per_decade=1000, start=5e5)
    every = all_pass_from(32_768, 128, per_decade=1000, start=smallest)
    bases, passes = grid_passes(32_768, 128, smallest, every)
    assert bases[0] == smallest and bases[-1] == every
    assert passes[0] and passes[-1] and not passes[-2]
    assert np.count_nonzero(~passes) > passes.size / 2
    assert not bound_holds(32_768, 128, 1e6) and smallest < 1e6 < every  # Qwen3's base, by a hair
    assert textbook_min(32_768, 128, 1e6) > -1


#: The context lengths of chapter 8's table (d = 128), and Exercise 4's (L = 2,048, d = 64, two grids).
CHAPTER_LENGTHS = (1024, 4096, 8192, 32_768, 131_072)
EXERCISE_GRIDS = (40, 1000)


def test_every_base_the_chapter_prints_passes():
    """Chapter 8 prints each base rounded up to a whole number (``math.ceil``), and each must pass itself:
    a value rounded to three digits, as 28,600 for 28,641.8, can fall off the narrow island it stands for."""
    printed = {}
    start = 1e3
    for length in CHAPTER_LENGTHS:
        start = smallest_passing_base(length, 128, start=start)
        every = all_pass_from(length, 128, start=start)
        printed[length] = (math.ceil(start), math.ceil(every))
        assert bound_holds(length, 128, math.ceil(start)) and bound_holds(length, 128, math.ceil(every))
    assert printed == {
        1024: (4296, 6026),
        4096: (28642, 58885),
        8192: (83946, 394458),
        32_768: (630958, 3198896),
        131_072: (8472275, 42364297),
    }
    for per_decade in EXERCISE_GRIDS:
        smallest = smallest_passing_base(2048, 64, per_decade=per_decade)
        every = all_pass_from(2048, 64, per_decade=per_decade)
        assert bound_holds(2048, 64, math.ceil(smallest)) and bound_holds(2048, 64, math.ceil(every))
    # Gemma 3's local base (10,000, window 1,024) passes, and Llama 2's (10,000 at 4,096 tokens) fails
    assert bound_holds(1024, 128, 10_000.0) and not bound_holds(4096, 128, 10_000.0)
    # the three-digit values the chapter printed before fail
    assert not any(bound_holds(n, 128, b) for n, b in ((4096, 28600), (32_768, 631000), (131_072, 8.47e6)))
    assert not bound_holds(2048, 64, 29600)


@pytest.mark.parametrize("scan", [smallest_passing_base, all_pass_from])
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
def test_bad_arguments_are_refused(scan, arguments, message):
    with pytest.raises(ValueError, match=message):
        scan(**arguments)


def test_all_pass_from_refuses_a_head_the_lower_bound_cannot_settle():
    """With d = 4 the bound is cos r's lowest value plus at most 1, never >= 0 over a few hundred tokens."""
    with pytest.raises(ValueError, match="proven"):
        all_pass_from(1024, 4)


def test_grid_passes_refuses_bad_ranges():
    for low, high in ((1e4, 1e3), (1.0, 1e3), (1e3, float("inf"))):
        with pytest.raises(ValueError):
            grid_passes(1024, 128, low, high)
    with pytest.raises(ValueError, match="grid bases"):
        grid_passes(1024, 128, 10.0, 1e12, per_decade=100_000)


def test_bound_holds_refuses_bad_arguments():
    for arguments in ((0, 128, 1e4), (1024, 3, 1e4), (1024, 128, 0.5), (1024, 128, float("inf"))):
        with pytest.raises(ValueError):
            bound_holds(*arguments)
