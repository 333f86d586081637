"""rope_viz.precision: rounding to short float formats, and the angle errors it causes.

The reference rounding here is written from the definition (``nu`` significant bits, to nearest, ties to even,
through ``math.frexp``); it is first checked against numpy's own float16 and float32 casts, then used to check
the bfloat16 emulation. float32 products are checked against the exact product rounded by ``struct``.
"""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rope_viz import precision
from rope_viz.precision import (
    angle_errors,
    first_overflow,
    held_angles,
    largest_exact_integer,
    round_to_bfloat16,
    round_to_format,
    significant_bits,
    spacing,
    worst_errors_by_position,
)

property_test = settings(deadline=None, max_examples=200)
SHORT = ("float16", "bfloat16", "float32")


def round_significant(value: float, bits: int) -> float:
    """Round to ``bits`` significant bits, to nearest with ties to even (normal numbers, no overflow)."""
    if value == 0:
        return 0.0
    mantissa, exponent = math.frexp(value)  # value = mantissa 2**exponent, 0.5 <= |mantissa| < 1
    return round(mantissa * 2**bits) / 2**bits * 2.0**exponent  # Python's round: ties to even


def float32_product(a: float, b: float) -> float:
    """The float32 product of two float32 numbers: exact in float64 (24 + 24 bits), then rounded once."""
    a32, b32 = (struct.unpack("f", struct.pack("f", v))[0] for v in (a, b))
    return struct.unpack("f", struct.pack("f", a32 * b32))[0]


# --- formats ---------------------------------------------------------------------------------------------


def test_significant_bits_and_exact_integer_limits():
    assert [significant_bits(f) for f in precision.FORMATS] == [11, 8, 24, 53]
    assert largest_exact_integer("bfloat16") == 256
    assert largest_exact_integer("float16") == 2048
    assert largest_exact_integer("float32") == 2**24


@pytest.mark.parametrize("number_format", SHORT)
def test_every_integer_up_to_the_limit_is_exact_and_the_next_one_is_not(number_format):
    limit = largest_exact_integer(number_format)
    if number_format == "float32":
        block = np.arange(limit - 100_000, limit + 1)  # the end of the exact run
    else:
        block = np.arange(0, limit + 1)
    np.testing.assert_array_equal(round_to_format(block, number_format), block)
    assert round_to_format([limit + 1], number_format)[0] != limit + 1
    # past the limit the spacing is 2: the odd numbers fall between two representable ones
    odd = np.arange(limit + 1, limit + 200, 2)
    assert not np.any(round_to_format(odd, number_format) == odd)


@settings(deadline=None, max_examples=300)
@given(value=st.floats(min_value=2.0**-14, max_value=60000.0))
def test_the_reference_rounding_agrees_with_numpy_float16(value):
    assert float(np.float16(value)) == round_significant(value, 11)
    assert round_to_format([value], "float16")[0] == round_significant(value, 11)


@settings(deadline=None, max_examples=300)
@given(value=st.floats(min_value=2.0**-100, max_value=2.0**100))
def test_the_reference_rounding_agrees_with_numpy_float32(value):
    assert float(np.float32(value)) == round_significant(value, 24)


@property_test
@given(value=st.floats(min_value=-(2.0**120), max_value=2.0**120, width=32, allow_subnormal=False))
def test_bfloat16_keeps_eight_significant_bits_rounded_to_nearest_even(value):
    (rounded,) = round_to_bfloat16([value])
    assert rounded.dtype == np.float32
    assert float(rounded) == round_significant(value, 8)


def test_bfloat16_ties_go_to_the_even_neighbour_and_overflow_becomes_infinity():
    # 257 lies halfway between 256 and 258: ties to the one whose last kept bit is 0
    assert round_to_bfloat16([256, 257, 258, 259, 260, 261]).tolist() == [256, 256, 258, 260, 260, 260]
    largest = precision.LARGEST_FINITE["bfloat16"]
    assert round_to_bfloat16([largest])[0] == largest
    assert np.isinf(round_to_bfloat16([np.finfo(np.float32).max])[0])
    assert round_to_format([65504.0, 65519.0], "float16").tolist() == [65504.0, 65504.0]
    assert np.isinf(round_to_format([65520.0], "float16")[0])


def test_float64_is_left_as_it_is():
    values = np.array([1 / 3, 2.0**53 + 2, 1e300])
    np.testing.assert_array_equal(round_to_format(values, "float64"), values)


NUMPY_TYPES = {"float16": np.float16, "float32": np.float32, "float64": np.float64}


@property_test
@given(
    value=st.floats(min_value=2.0**-14, max_value=60000.0), number_format=st.sampled_from(tuple(NUMPY_TYPES))
)
def test_spacing_is_numpys_gap_to_the_next_number_of_the_format(value, number_format):
    # np.spacing of a value of the format: the distance to the next larger number of that format.
    held = NUMPY_TYPES[number_format](value)
    assert spacing(float(held), number_format) == float(np.spacing(held))


@property_test
@given(value=st.floats(min_value=2.0**-100, max_value=2.0**100))
def test_bfloat16_spacing_is_the_gap_that_its_rounding_keeps(value):
    held = float(round_to_bfloat16([value])[0])
    gap = spacing(held, "bfloat16")
    # the neighbours a gap away are numbers of the format; half a gap further is rounded to one of them
    assert float(round_to_bfloat16([held + gap])[0]) == held + gap
    assert float(round_to_bfloat16([held + gap / 4])[0]) == held


def test_whole_numbers_snap_to_steps_of_two_then_four_past_the_exact_limit():
    for number_format in SHORT:
        limit = largest_exact_integer(number_format)
        assert spacing(limit - 1, number_format) == 1.0
        assert spacing(limit, number_format) == 2.0
        assert spacing(2 * limit, number_format) == 4.0
    with pytest.raises(ValueError, match="non-zero"):
        spacing(0.0, "float16")


# --- angles ----------------------------------------------------------------------------------------------

positions_strategy = st.lists(st.integers(min_value=-(2**23), max_value=2**23), min_size=1, max_size=20)
theta_strategy = st.floats(min_value=1e-7, max_value=1.0)


@property_test
@given(positions=positions_strategy, theta=theta_strategy, number_format=st.sampled_from(SHORT))
def test_position_errors_are_zero_below_the_limit_and_bounded_above_it(positions, theta, number_format):
    m = np.array(positions, dtype=np.float64)
    errors = angle_errors(m, [theta], number_format)[:, 0]
    bits = significant_bits(number_format)
    exact = np.abs(m) <= 2**bits
    assert np.all(errors[exact] == 0)
    finite = np.isfinite(errors)
    assert np.all(errors[finite] <= 2.0**-bits * np.abs(m[finite]) * theta * (1 + 1e-12))
    # the rounded position is a whole number of the format's spacing away: errors are multiples of theta
    np.testing.assert_allclose(errors[finite] / theta, np.round(errors[finite] / theta), atol=1e-6)
    assert np.all(~finite == (np.abs(m) > precision.LARGEST_FINITE[number_format]))


@property_test
@given(positions=positions_strategy, theta=theta_strategy, number_format=st.sampled_from(SHORT))
def test_angle_errors_stay_within_the_formats_rounding_of_the_float32_product(
    positions, theta, number_format
):
    m = np.abs(np.array(positions, dtype=np.float64))
    errors = angle_errors(m, [theta], number_format, held="angles")[:, 0]
    bits = significant_bits(number_format)
    bound = (2.0**-bits + 2.0**-23) * m * theta * (1 + 1e-6)
    if number_format == "float16":
        bound += 2.0**-25  # below 2^-14 float16 steps by 2^-24 (subnormal numbers)
    finite = np.isfinite(errors)
    assert np.all(errors[finite] <= bound[finite])
    if number_format != "float16":
        assert finite.all()


@settings(deadline=None, max_examples=100)
@given(position=st.integers(min_value=0, max_value=2**24), theta=theta_strategy)
def test_float32_angles_are_the_float32_product_transformers_forms(position, theta):
    (angle,) = held_angles([position], [theta], "float32", held="angles")[0]
    assert angle == float32_product(float(position), theta)
    (rounded,) = held_angles([position], [theta], "bfloat16", held="angles")[0]
    assert rounded == round_significant(float32_product(float(position), theta), 8) or rounded == 0


def test_float64_has_no_error_and_the_worst_cases_are_where_the_docstring_says():
    m = np.arange(0, 5000)
    assert not angle_errors(m, [1.0, 0.1], "float64").any()
    assert not angle_errors(m, [1.0, 0.1], "float64", held="angles").any()
    # float16 positions: 2049 is held as 2048 (ties to even), 4097 as 4096, 4098 as 4096 or 4100
    assert angle_errors([2049, 4097, 4098], [1.0], "float16").ravel().tolist() == [1.0, 1.0, 2.0]


def test_worst_errors_by_position_is_the_largest_error_of_every_bin():
    for number_format, held, theta in [("bfloat16", "positions", 1.0), ("float16", "angles", 0.37)]:
        ends, worst = worst_errors_by_position(30_000, theta, number_format, held=held, bins_per_decade=7)
        errors = angle_errors(np.arange(1, 30_001), [theta], number_format, held=held)[:, 0]
        starts = np.concatenate([[1], ends[:-1] + 1])
        assert ends[-1] == 30_000 and np.all(np.diff(ends) > 0)
        brute = [errors[start - 1 : end].max() for start, end in zip(starts, ends, strict=True)]
        np.testing.assert_array_equal(worst, brute)


@pytest.mark.parametrize("number_format", SHORT)
def test_sampled_bins_stay_below_and_close_to_the_exact_largest_error(number_format):
    ends, exact = worst_errors_by_position(200_000, 0.3, number_format, held="angles")
    same_ends, sampled = worst_errors_by_position(
        200_000, 0.3, number_format, held="angles", samples_per_bin=300
    )
    np.testing.assert_array_equal(ends, same_ends)
    finite = np.isfinite(exact)
    assert np.all(sampled[finite] <= exact[finite])
    assert np.all(sampled[finite] >= 0.9 * exact[finite])
    assert np.array_equal(np.isinf(sampled), np.isinf(exact))
    # position errors are always exact: theta times the rounding of each whole position
    _, positions_exact = worst_errors_by_position(200_000, 0.3, number_format, samples_per_bin=2)
    brute = angle_errors(np.arange(1, 200_001), [0.3], number_format)[:, 0]
    starts = np.concatenate([[1], ends[:-1] + 1])
    expected = [brute[start - 1 : end].max() for start, end in zip(starts, ends, strict=True)]
    np.testing.assert_allclose(positions_exact, expected, rtol=1e-12)


def test_worst_position_error_doubles_with_every_octave_past_the_limit():
    ends, worst = worst_errors_by_position(2**14, 1.0, "bfloat16", bins_per_decade=200)
    # in [2^e, 2^(e+1)) bfloat16 numbers are 2^(e-7) apart, so a whole position is off by up to 2^(e-8)
    for e in range(9, 14):
        inside = (ends >= 2**e + 2 ** (e - 7)) & (ends < 2 ** (e + 1))
        assert worst[inside].max() == 2.0 ** (e - 8)
    assert worst[ends <= 256].max() == 0


def test_float16_overflows_past_65504_as_an_infinite_error():
    ends, worst = worst_errors_by_position(100_000, 1.0, "float16", bins_per_decade=20)
    assert np.isinf(worst[ends > 70_000]).all()
    assert np.isfinite(worst[ends < 65_000]).all()


def test_the_first_overflowing_float16_position_is_where_numpy_rounds_to_infinity():
    # numpy's own float16 cast, independent of rope_viz's rounding: 65,519 rounds down to 65,504, 65,520 up.
    with np.errstate(over="ignore"):
        assert np.isfinite(np.float16(65_519)) and np.isinf(np.float16(65_520))
    assert first_overflow(10**6, 0.5, "float16") == 65_520
    assert first_overflow(65_519, 0.5, "float16") is None
    for number_format in ("bfloat16", "float32", "float64"):
        assert first_overflow(10**9, 1.0, number_format) is None


@property_test
@given(theta=st.floats(min_value=0.07, max_value=1.0), held=st.sampled_from(("positions", "angles")))
def test_the_first_overflow_overflows_and_the_position_before_it_does_not(theta, held):
    first = first_overflow(10**6, theta, "float16", held=held)
    assert first is not None
    angles = held_angles([first - 1, first], [theta], "float16", held=held)[:, 0]
    assert np.isfinite(angles[0]) and np.isinf(angles[1])
    if held == "angles":  # the float32 product m theta passes 65,504 there
        assert float(np.float32(first) * np.float32(theta)) >= 65_504


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: significant_bits("float8"), "number_format"),
        (lambda: round_to_format([1.0], "half"), "number_format"),
        (lambda: round_to_bfloat16([np.nan]), "finite"),
        (lambda: held_angles([1.0], [1.0], "float16", held="cos"), "held"),
        (lambda: held_angles([1.0], [0.0], "float16"), "inv_freq"),
        (lambda: angle_errors([[1.0]], [1.0], "float16"), "positions"),
        (lambda: worst_errors_by_position(0, 1.0, "float16"), "max_position"),
        (lambda: worst_errors_by_position(10, 1.0, "float16", bins_per_decade=0), "bins_per_decade"),
        (lambda: worst_errors_by_position(10, 1.0, "float16", samples_per_bin=1), "samples_per_bin"),
        (lambda: worst_errors_by_position(10, -1.0, "float16"), "theta"),
        (lambda: first_overflow(-1, 1.0, "float16"), "max_position"),
        (lambda: first_overflow(10, 1.0, "float16", held="sin"), "held"),
    ],
)
def test_bad_arguments_raise_value_errors_naming_them(call, match):
    with pytest.raises(ValueError, match=match):
        call()
