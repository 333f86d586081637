"""Explicit ticks and ranges that the site writes for axes whose range follows the sliders."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import rope_viz.demos
from rope_viz.demos.base import View
from rope_viz.figures.direct_drawing import (
    MINUS,
    axis_ticks,
    format_number,
    linear_ticks,
    log_ticks,
    nice_step,
    power_of_ten_label,
    with_explicit_ticks,
)
from rope_viz.figures.static import build_payload

spans = st.floats(min_value=1e-6, max_value=1e9, allow_nan=False, allow_infinity=False)
lows = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@given(spans)
def test_nice_step_is_one_two_two_and_a_half_or_five_times_a_power_of_ten(span):
    step = nice_step(span)
    mantissa = step / 10 ** math.floor(math.log10(step) + 1e-12)
    assert any(math.isclose(mantissa, m, rel_tol=1e-9) for m in (1.0, 2.0, 2.5, 5.0))
    # at most six steps, and not more than a factor 2.5 coarser than needed
    assert span / step <= 6 * (1 + 1e-9)
    assert span / step > 6 / 2.5 * (1 - 1e-9)


@given(lows, spans)
def test_linear_ticks_are_evenly_spaced_inside_the_range_and_labelled_by_value(low, span):
    # Ticks a millionth of a step apart need a step well above the rounding of numbers as large as ``low``.
    assume(span >= 1e-8 * abs(low))
    high = low + span
    values, texts = linear_ticks(low, high)
    step = nice_step(span)
    assert 2 <= len(values) <= 7
    assert all(low - 1e-9 * span <= v <= high + 1e-9 * span for v in values)
    assert np.allclose(np.diff(values), step, rtol=1e-6)
    for value, text in zip(values, texts, strict=True):
        number = text.replace(MINUS, "-")
        scale = {"k": 1e3, "M": 1e6, "G": 1e9}.get(number[-1], 1.0)
        number = number.rstrip("kMG")
        assert math.isclose(float(number) * scale, value, rel_tol=1e-9, abs_tol=step * 1e-6)


def test_labels_use_a_true_minus_and_no_negative_zero():
    assert format_number(-0.5, 0.5) == f"{MINUS}0.5"
    assert format_number(-1e-17, 0.2) == "0.0"
    assert format_number(0.30000000000000004, 0.1) == "0.3"
    assert format_number(-20_000.0, 5_000.0) == f"{MINUS}20k"


@given(st.floats(min_value=-6, max_value=6), st.floats(min_value=0.05, max_value=8))
def test_log_ticks_are_the_powers_of_ten_inside_the_range(low, span):
    values, texts = log_ticks(low, low + span)
    exponents = [round(math.log10(v)) for v in values]
    assert exponents == list(range(math.ceil(low - 1e-9), math.floor(low + span + 1e-9) + 1))
    assert texts == [power_of_ten_label(k) for k in exponents]


def test_power_labels_follow_plotly():
    assert [power_of_ten_label(k) for k in (-2, 0, 1, 2)] == [
        f"10<sup>{MINUS}2</sup>",
        "1",
        "10",
        "10<sup>2</sup>",
    ]


def test_log_axis_with_given_tick_values_keeps_those_inside_the_range():
    values, texts = axis_ticks({"type": "log", "tickvals": [1, 1.5, 2, 4, 8]}, [-0.05, math.log10(3)])
    assert values == [1, 1.5, 2]
    assert texts == ["1", "1.5", "2"]


def test_a_view_that_sets_its_own_tick_values_has_those_inside_its_range():
    layout = {"yaxis": {"type": "log", "tickvals": [1, 2, 4, 8], "range": [0, math.log10(8)]}}
    views = [
        View(traces=[], layout={"yaxis.range": [0, math.log10(8)]}),
        View(traces=[], layout={"yaxis.range": [0, math.log10(64)], "yaxis.tickvals": [1, 4, 16, 64, 256]}),
    ]
    first, second = with_explicit_ticks(layout, views)
    assert first.layout["yaxis.tickvals"] == [1, 2, 4, 8]
    assert second.layout["yaxis.tickvals"] == [1, 4, 16, 64]
    assert second.layout["yaxis.ticktext"] == ["1", "4", "16", "64"]


def test_a_linear_axis_keeps_the_tick_values_its_views_choose_and_the_first_figure_those_of_its_view():
    # the base figure shows the first view (Demo.initial_figure applies its layout)
    layout = {"xaxis": {"range": [-0.5, 61.5], "tickvals": [0, 10, 20, 30, 40, 50, 60]}}
    views = [
        View(traces=[], layout={"xaxis.range": [-0.5, 61.5], "xaxis.tickvals": [0, 10, 20, 30, 40, 50, 60]}),
        View(traces=[], layout={"xaxis.range": [-0.5, 15.5], "xaxis.tickvals": [0, 5, 10, 15, 20]}),
    ]
    first, second = with_explicit_ticks(layout, views)
    assert first.layout["xaxis.tickvals"] == [0, 10, 20, 30, 40, 50, 60]
    assert second.layout["xaxis.tickvals"] == [0, 5, 10, 15]  # 20 lies past the range
    assert second.layout["xaxis.ticktext"] == ["0", "5", "10", "15"]
    assert layout["xaxis"]["tickvals"] == first.layout["xaxis.tickvals"]
    assert layout["xaxis"]["ticktext"] == first.layout["xaxis.ticktext"]


def test_tick_values_of_a_base_figure_on_a_moving_linear_axis_give_way_to_nice_multiples():
    # one tick per data point, as a figure of a few positions has: too many once the range moves far
    layout = {"xaxis": {"range": [0, 23], "tickvals": list(range(24))}}
    views = [
        View(traces=[], layout={"xaxis.range": [0, 23]}),
        View(traces=[], layout={"xaxis.range": [5000, 5023]}),
    ]
    first, second = with_explicit_ticks(layout, views)
    assert first.layout["xaxis.tickvals"] == [0.0, 5.0, 10.0, 15.0, 20.0]
    assert second.layout["xaxis.tickvals"] == [5000.0, 5005.0, 5010.0, 5015.0, 5020.0]


def test_unsupported_axis_types_and_spans_are_refused():
    with pytest.raises(ValueError, match="category"):
        axis_ticks({"type": "category"}, [0, 1])
    with pytest.raises(ValueError, match="positive"):
        nice_step(0.0)


@pytest.fixture(params=rope_viz.demos.all_demos(), ids=lambda cls: cls.__name__)
def payload(request) -> dict:
    return build_payload(request.param())


def _resolved(value, arrays):
    return arrays[value["$ref"]] if isinstance(value, dict) and "$ref" in value else value


def test_every_axis_whose_range_moves_has_explicit_ticks_in_every_state(payload):
    states, arrays, layout = payload["states"], payload["arrays"], payload["figure"]["layout"]
    for path in {path for state in states for path in state["l"] if path.endswith(".range")}:
        axis = path[: -len(".range")]
        if len({json.dumps(_resolved(state["l"].get(path), arrays)) for state in states}) == 1:
            continue
        assert layout[axis]["tickmode"] == "array"
        for state in states:
            low, high = sorted(_resolved(state["l"][path], arrays))
            values = _resolved(state["l"][f"{axis}.tickvals"], arrays)
            texts = _resolved(state["l"][f"{axis}.ticktext"], arrays)
            assert len(values) == len(texts) >= 1, f"{axis}: a state without ticks"
            positions = np.log10(values) if layout[axis].get("type") == "log" else np.asarray(values)
            assert np.all((positions >= low - 1e-9) & (positions <= high + 1e-9)), (
                f"{axis}: tick off the axis"
            )


def test_no_axis_that_carries_moving_data_is_left_to_autorange(payload):
    """Plotly would move an autoranged axis with its data; the site pins every such axis to a range."""
    figure, states, arrays = payload["figure"], payload["states"], payload["arrays"]
    for k, trace in enumerate(figure["data"]):
        for letter in ("x", "y"):
            axis = f"{letter}axis{trace.get(f'{letter}axis', letter)[1:]}"
            moving = len({json.dumps(_resolved(state["t"][k].get(letter), arrays)) for state in states}) > 1
            if not moving or trace.get("type", "scatter") not in ("scatter", "heatmap"):
                continue
            spec = figure["layout"].get(axis, {})
            assert "range" in spec or spec.get("scaleanchor"), f"trace {k} moves on autoranged {axis}"
