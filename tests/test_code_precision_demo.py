"""The angle-precision figure of chapter 10: the line where whole numbers stop being exact, and its label; the
dashed line of one rounding, and how the error curves keep to it."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rope_viz.demos.base import superscript
from rope_viz.demos.code_precision import (
    BASES,
    DIM,
    HELD_NAMES,
    MAX_POSITION,
    PAIRS,
    SAMPLES_PER_BIN,
    SHOWN_FORMATS,
    X_RANGE,
    AnglePrecision,
)
from rope_viz.frequencies import inv_freq
from rope_viz.precision import significant_bits, worst_errors_by_position

DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


@given(st.integers(min_value=-(10**6), max_value=10**6))
def test_superscript_digits_read_back_as_the_number(number):
    written = superscript(number)
    assert re.fullmatch("⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+", written)
    assert int(written.translate(DIGITS)) == number


@pytest.mark.parametrize("format_index", range(len(SHOWN_FORMATS)))
def test_exact_line_is_labelled_with_its_own_power_of_two(format_index):
    """The dotted line sits at 2^ν and says so in plain text ("2¹¹ = 2,048"), or is absent off the axis."""
    demo = AnglePrecision()
    view = demo.view(format=format_index, held=0, base=10_000, pair=0)
    exact = view.traces[3]
    nu = significant_bits(SHOWN_FORMATS[format_index])
    if 2**nu > 10 ** X_RANGE[1]:
        assert exact["x"] == [] and exact["text"] == []
        return
    label = exact["text"][1]
    match = re.fullmatch(r"2([⁰¹²³⁴⁵⁶⁷⁸⁹]+) = ([\d,]+)", label)
    assert match, label
    exponent = int(match.group(1).translate(DIGITS))
    value = int(match.group(2).replace(",", ""))
    assert exponent == nu
    assert value == 2**exponent == exact["x"][0] == exact["x"][1]
    assert "^" not in label and "<" not in label


@pytest.mark.parametrize("format_index", range(len(SHOWN_FORMATS)))
@pytest.mark.parametrize("held", range(len(HELD_NAMES)))
def test_dashed_line_is_one_roundings_largest_error_and_the_curves_keep_to_it_as_chapter_10_says(
    format_index, held
):
    """The dashed line is ``2^−ν·m·θᵢ``. Positions held in the format stay under it; angles held in float32
    (``θᵢ`` and the product rounded) stay under twice it, and are exact for pair 0; angles held in bfloat16
    or float16 stay about under it, but for float16's numbers below ``2^−14``, on a grid of step ``2^−24``."""
    number_format = SHOWN_FORMATS[format_index]
    nu = significant_bits(number_format)
    floor = 2.0**-25 if number_format == "float16" else 0.0  # half the step of float16's subnormal grid
    assert floor == 0 or floor == np.finfo(np.float16).smallest_subnormal / 2
    demo = AnglePrecision()
    assert "bound" not in demo.base_figure()["data"][1]["name"]
    for base in BASES:
        for pair in PAIRS:
            view = demo.view(format=format_index, held=held, base=base, pair=pair)
            theta = float(inv_freq(DIM, base)[pair])
            ends, worst = worst_errors_by_position(
                MAX_POSITION, theta, number_format, held=HELD_NAMES[held], samples_per_bin=SAMPLES_PER_BIN
            )
            line = 2.0**-nu * ends * theta
            np.testing.assert_allclose(view.traces[1]["y"], line, rtol=1e-3)
            finite = np.isfinite(worst)
            worst, line, ends = worst[finite], line[finite], ends[finite]
            if HELD_NAMES[held] == "positions":
                assert np.all(worst <= line)
            elif number_format == "float32":
                assert np.all(worst <= 2 * line)
                assert pair != 0 or np.all(worst == 0)
            else:
                assert np.all(worst <= np.maximum(line, floor) * (1 + 2.0**-20) + 2.0**-23 * ends * theta)


def test_the_chapter_examples_of_the_dashed_line():
    """float32 angles of the figure's scene cross the line in places and keep close to it elsewhere; the
    tiny float16 angles of the slowest pair at the largest base err by many times the line."""
    demo = AnglePrecision()
    values = demo.scene_values(next(scene for scene in demo.scenes if scene.name == "float32 angles"))
    theta = float(inv_freq(DIM, values["base"])[round(values["pair"])])
    ends, worst = worst_errors_by_position(
        MAX_POSITION, theta, "float32", held="angles", samples_per_bin=SAMPLES_PER_BIN
    )
    ratio = worst / (2.0**-24 * ends * theta)
    assert 1 < ratio.max() < 1.2 and np.median(ratio) > 0.6
    theta = float(inv_freq(DIM, max(BASES))[DIM // 2 - 1])
    assert theta < np.finfo(np.float16).smallest_normal
    ends, worst = worst_errors_by_position(
        MAX_POSITION, theta, "float16", held="angles", samples_per_bin=SAMPLES_PER_BIN
    )
    assert worst[0] > 10 * 2.0**-11 * ends[0] * theta
