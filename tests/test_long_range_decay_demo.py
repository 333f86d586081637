"""The long-range decay demos plot what the math says: RoFormer's bound, its rises, the chain of inequalities,
and score statistics that agree with the library functions."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

import rope_viz as rv
from rope_viz.demos.long_range_decay import (
    BASES,
    LONG_RANGE,
    SHORT_RANGE,
    SITE_DIMS,
    DecayBound,
    ScoreVsDistance,
    halving_distance,
    random_query_key,
)
from rope_viz.long_range import abel_bound, complex_score_magnitude

SETTINGS = [(10_000, 128), (500_000, 64), (100, 256)]


@pytest.mark.parametrize(("base", "dim"), SETTINGS)
def test_decay_bound_panel_is_roformers_bound_with_its_local_maxima(base, dim):
    view = DecayBound().view(base=base, dim=dim)
    bound = np.array(view.traces[0]["y"])
    np.testing.assert_allclose(bound, rv.decay_bound(SHORT_RANGE, dim, base), rtol=1e-4)
    assert bound[0] == pytest.approx((dim // 2 + 1) / 2)
    tops = np.array(view.traces[1]["x"], dtype=int)
    assert tops.size > 0
    exact = rv.decay_bound(SHORT_RANGE, dim, base)
    assert np.all(exact[tops] > exact[tops - 1]) and np.all(exact[tops] >= exact[tops + 1])


@pytest.mark.parametrize(("base", "dim"), SETTINGS)
def test_decay_bound_lower_panel_keeps_the_chain_of_inequalities(base, dim):
    view = DecayBound().view(base=base, dim=dim)
    bound = np.array(view.traces[2]["y"])
    modulus = np.array(view.traces[3]["y"])
    score = np.array([np.nan if value is None else value for value in view.traces[4]["y"]], dtype=float)
    assert np.all(modulus <= bound)
    shown = ~np.isnan(score)
    assert np.all(score[shown] <= modulus[shown] * (1 + 1e-3))
    assert shown.mean() > 0.9


@pytest.mark.parametrize(("base", "dim"), list(itertools.product(BASES, SITE_DIMS)))
def test_decay_bound_readout_never_overstates_how_far_the_bound_lies_above(base, dim):
    # "the bound is at least N times |Σ hᵢ e^(i r θᵢ)|" must hold at every distance: N is the smallest
    # ratio rounded down (at base 100, d = 128 the ratio is 39.56, so N is 39, not 40).
    readout = DecayBound().view(base=base, dim=dim).readout
    stated = int(re.search(r"the bound is at least ([\d,]+) times", readout).group(1).replace(",", ""))
    q, k = random_query_key(dim)
    ratio = abel_bound(q, k, SHORT_RANGE, base=base) / complex_score_magnitude(q, k, SHORT_RANGE, base=base)
    assert stated <= ratio.min() < stated + 1


@pytest.mark.parametrize(("base", "dim"), SETTINGS)
def test_score_vs_distance_shows_the_mean_inside_its_band(base, dim):
    view = ScoreVsDistance().view(base=base, dim=dim)
    mean = np.array(view.traces[3]["y"])
    np.testing.assert_allclose(
        mean, rv.expected_self_score(LONG_RANGE, dim, base), rtol=1e-3, atol=1e-3 * dim
    )
    band_y = np.array(view.traces[1]["y"])
    upper, lower = band_y[: LONG_RANGE.size], band_y[LONG_RANGE.size :][::-1]
    assert np.all(lower <= mean) and np.all(mean <= upper)
    independent = np.array(view.traces[0]["y"])
    np.testing.assert_allclose(np.abs(independent), np.sqrt(dim), rtol=1e-3)
    np.testing.assert_allclose(view.traces[5]["y"], rv.wavelengths(dim, base), rtol=1e-4)


def test_a_larger_base_slows_the_decay_of_the_aligned_mean():
    demo = ScoreVsDistance()
    small = np.array(demo.view(base=10_000, dim=128).traces[3]["y"])
    large = np.array(demo.view(base=500_000, dim=128).traces[3]["y"])
    far = LONG_RANGE > 100
    assert large[far].mean() > small[far].mean()


def _first_half(dim: int, base: float) -> int:
    """The first whole distance where 2 Σ cos(r θᵢ) < d/2, from every whole distance up to 100,000."""
    mean = rv.expected_self_score(np.arange(100_001), dim, base)
    return int(np.flatnonzero(mean < dim / 2)[0])


@pytest.mark.parametrize(("base", "dim"), [*SETTINGS, (500_000, 128), (1_000_000, 64), (100_000, 256)])
def test_score_vs_distance_readout_halves_at_the_first_whole_distance(base, dim):
    # The log grid of the plot steps over narrow dips: at d = 128, base 500,000 it first falls below d/2
    # at 250, while the mean does at 166 (the table of chapter 5).
    readout = ScoreVsDistance().view(base=base, dim=dim).readout
    found = [int(value.replace(",", "")) for value in re.findall(r"r = ([\d,]+) tokens", readout)]
    expected = [_first_half(dim, base)] + ([] if base == 10_000 else [_first_half(dim, 10_000)])
    assert found == expected
    if (base, dim) == (500_000, 128):
        assert found[0] == 166


def test_halving_distance_scans_every_whole_distance_block_by_block():
    assert (
        halving_distance(128, 500_000, block=7) == halving_distance(128, 500_000) == _first_half(128, 500_000)
    )
    assert halving_distance(128, 500_000, limit=165) is None
