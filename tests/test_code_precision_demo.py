"""The angle-precision figure of chapter 10: the line where whole numbers stop being exact, and its label."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rope_viz.demos.base import superscript
from rope_viz.demos.code_precision import SHOWN_FORMATS, X_RANGE, AnglePrecision
from rope_viz.precision import significant_bits

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
