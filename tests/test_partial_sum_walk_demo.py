"""The walk demo draws RoFormer's partial sums: stops that match the library and an independent sum, and the
mean distance of the stops, the relative bound B(r)."""

from __future__ import annotations

import cmath

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz.demos.clocks import HAND_COLORSCALE, colors_on_scale
from rope_viz.demos.partial_sum_walk import DIM, PartialSumWalk
from tests.conftest import hand_frequencies

SETTINGS = [(0, 10_000), (16, 10_000), (100, 100), (256, 1_000_000), (37, 2_345.6)]


@pytest.mark.parametrize(("distance", "base"), SETTINGS)
def test_the_walk_ends_at_the_full_sum_of_the_arrows(distance, base):
    view = PartialSumWalk().view(distance=distance, base=base)
    xs, ys = np.array(view.traces[0]["x"]), np.array(view.traces[0]["y"])
    assert xs.size == DIM // 2 + 1 and xs[0] == 0 and ys[0] == 0
    full = sum(cmath.exp(1j * distance * t) for t in hand_frequencies(DIM, base))
    assert xs[-1] == pytest.approx(full.real, abs=1e-3) and ys[-1] == pytest.approx(full.imag, abs=1e-3)
    arrow = view.traces[1]
    assert arrow["x"][0] == arrow["y"][0] == 0
    assert arrow["x"][1] == pytest.approx(full.real, abs=1e-3)
    assert arrow["y"][1] == pytest.approx(full.imag, abs=1e-3)
    np.testing.assert_allclose(np.hypot(np.diff(xs), np.diff(ys)), 1.0, atol=1e-3)  # unit steps


@pytest.mark.parametrize(("distance", "base"), SETTINGS)
def test_the_bars_are_the_distances_of_the_stops_and_their_mean_is_the_bound(distance, base):
    view = PartialSumWalk().view(distance=distance, base=base)
    bars = np.array(view.traces[3]["y"])
    xs, ys = np.array(view.traces[0]["x"]), np.array(view.traces[0]["y"])
    np.testing.assert_allclose(bars, np.hypot(xs, ys)[1:], rtol=1e-3, atol=1e-3)
    assert np.all(bars <= np.arange(1, DIM // 2 + 1) + 1e-3)  # |S_j| <= j
    bound = rv.decay_bound([float(distance)], DIM, base)[0]
    assert view.traces[5]["y"] == pytest.approx([bound, bound], rel=1e-3)
    assert bars.mean() == pytest.approx(bound, rel=1e-3)


@pytest.mark.parametrize(("distance", "base"), SETTINGS)
def test_the_plane_is_square_and_holds_the_whole_walk(distance, base):
    view = PartialSumWalk().view(distance=distance, base=base)
    (x0, x1), (y0, y1) = view.layout["xaxis.range"], view.layout["yaxis.range"]
    assert x1 - x0 == pytest.approx(y1 - y0, abs=2e-3)
    xs, ys = np.array(view.traces[0]["x"]), np.array(view.traces[0]["y"])
    assert x0 < xs.min() and xs.max() < x1 and y0 < ys.min() and ys.max() < y1


def test_at_distance_zero_the_walk_is_straight_and_every_stop_as_far_as_it_can_be():
    view = PartialSumWalk().view(distance=0, base=10_000)
    np.testing.assert_allclose(view.traces[0]["x"], np.arange(DIM // 2 + 1))
    np.testing.assert_allclose(view.traces[3]["y"], np.arange(1, DIM // 2 + 1))
    assert view.traces[5]["y"][0] == pytest.approx((DIM // 2 + 1) / 2)


def test_a_larger_base_keeps_more_steps_aligned_and_the_walk_longer():
    demo = PartialSumWalk()
    small, large = demo.view(distance=100, base=10_000), demo.view(distance=100, base=1_000_000)
    assert large.traces[5]["y"][0] > small.traces[5]["y"][0]
    end = [np.hypot(view.traces[1]["x"][1], view.traces[1]["y"][1]) for view in (small, large)]
    assert end[1] > end[0]


def _channels(color: str) -> list[float]:
    return [float(part) for part in color[color.index("(") + 1 : -1].split(",")]


@given(st.lists(st.floats(min_value=-20, max_value=90, allow_nan=False), min_size=1, max_size=20))
def test_bar_colours_follow_the_hand_colour_scale_as_plotly_samples_it(values):
    plotly_colors = pytest.importorskip("plotly.colors")
    ours = colors_on_scale(np.array(values), HAND_COLORSCALE, 0, 64)
    sampled = plotly_colors.sample_colorscale(HAND_COLORSCALE, [min(max(v / 64, 0.0), 1.0) for v in values])
    for mine, theirs in zip(ours, sampled, strict=True):
        assert np.allclose(_channels(mine), _channels(theirs), atol=1.0), (mine, theirs)


def test_the_colour_scale_ends_and_middle_are_its_stops_and_the_bars_use_it():
    assert colors_on_scale(np.array([0, 32, 64, 100]), HAND_COLORSCALE, 0, 64) == [
        "rgb(43, 131, 186)",  # #2b83ba
        "rgb(90, 174, 97)",  # #5aae61
        "rgb(215, 48, 31)",  # #d7301f
        "rgb(215, 48, 31)",
    ]
    bars = next(trace for trace in PartialSumWalk().base_figure()["data"] if trace["type"] == "bar")
    assert bars["marker"]["color"] == colors_on_scale(
        np.arange(1, DIM // 2 + 1), HAND_COLORSCALE, 0, DIM // 2
    )
