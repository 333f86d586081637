"""The clocks demo's wavelength panel: one log range for every base and head size, so that the line of
wavelengths visibly pivots about pair 0 when the base changes, with every point and the position line on
it."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import rope_viz as rv
from rope_viz.demos.clocks import LIVE_DIMS, MultiSpeedClocks, wavelength_axis_range
from rope_viz.figures.static import build_payload


def panel_fraction(values: np.ndarray, axis_range: list[float]) -> np.ndarray:
    """Height of each value on the log axis, as a fraction of the panel (0 at the bottom, 1 at the top)."""
    low, high = axis_range
    return (np.log10(values) - low) / (high - low)


def test_the_range_spans_the_extremes_of_the_controls():
    demo = MultiSpeedClocks()
    controls = {control.name: control for control in demo.controls}
    low, high = wavelength_axis_range(demo.controls)
    # from position 1 (below lambda_0 = 2 pi) up to the longest wavelength of the largest base and head size
    longest = (
        2 * math.pi * controls["base"].maximum ** ((controls["dim"].maximum - 2) / controls["dim"].maximum)
    )
    assert longest > controls["position"].maximum
    assert low == pytest.approx(math.log10(1) - 0.15, abs=1e-3)
    assert high == pytest.approx(math.log10(longest) + 0.15, abs=1e-3)
    assert demo.base_figure()["layout"]["yaxis2"]["range"] == [low, high]


def test_no_state_moves_the_wavelength_axis_and_every_point_stays_on_it():
    demo = MultiSpeedClocks()
    axis_range = demo.base_figure()["layout"]["yaxis2"]["range"]
    controls = {control.name: control for control in demo.controls}
    bases = sorted({*controls["base"].site_values, controls["base"].minimum, controls["base"].maximum})
    dims = sorted({*controls["dim"].site_values, *LIVE_DIMS})
    positions = [value for value in controls["position"].site_values if value >= 1] + [1, 32_768]
    for base, dim in itertools.product(bases, dims):
        view = demo.view(position=positions[-1], base=base, dim=dim)
        assert not any(path.startswith("yaxis2.") for path in view.layout)
        heights = panel_fraction(np.array(view.traces[3]["y"]), axis_range)
        assert heights.min() > 0 and heights.max() < 1, (base, dim)
    for position in positions:
        line = demo.view(position=position, base=10_000, dim=64).traces[4]["y"]
        assert 0 < panel_fraction(np.array(line, dtype=float), axis_range)[0] < 1, position
    assert demo.view(position=0, base=10_000, dim=64).traces[4]["y"] == [None, None]


def test_raising_the_base_pivots_the_line_about_pair_zero():
    """The chapter's answer: at m = 100 the line of wavelengths pivots about pair 0 and steepens, and the
    dashed position line stays where it was."""
    demo = MultiSpeedClocks()
    axis_range = demo.base_figure()["layout"]["yaxis2"]["range"]
    before = demo.view(position=100, base=10_000, dim=64)
    after = demo.view(position=100, base=1_000_000, dim=64)
    low_line = panel_fraction(np.array(before.traces[3]["y"]), axis_range)
    high_line = panel_fraction(np.array(after.traces[3]["y"]), axis_range)
    assert high_line[0] == pytest.approx(low_line[0], abs=1e-6)
    rise = high_line - low_line
    assert np.all(np.diff(rise) > 0)  # the further from pair 0, the higher the point climbs
    assert rise[-1] > 0.25  # a quarter of the panel and more: plainly visible
    # the longest wavelength, as the chapter quotes it
    assert after.traces[3]["y"][-1] == pytest.approx(rv.wavelengths(64, 1_000_000)[-1], rel=1e-4)
    assert before.traces[4]["y"] == after.traces[4]["y"] == [100, 100]


def test_the_site_states_leave_the_wavelength_axis_alone():
    payload = build_payload(MultiSpeedClocks())
    assert payload["figure"]["layout"]["yaxis2"]["range"] == wavelength_axis_range(MultiSpeedClocks.controls)
    assert not any(path.startswith("yaxis2.") for state in payload["states"] for path in state["l"])
