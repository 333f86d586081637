"""rope_viz.checker.check against the implementations of rope_viz.broken_rope, whose mistakes are known.

The broken implementations are checked on their own first (each computes what its docstring says, against
references written from the formulas), then the check must name exactly their mistakes, with the evidence.
"""

from __future__ import annotations

import math
import re
import time

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz import broken_rope
from rope_viz.broken_rope import IMPLEMENTATIONS
from rope_viz.checker import FINDING_NAMES, CheckReport, check
from rope_viz.checker.messages import SPEED_TOLERANCE
from rope_viz.precision import round_to_bfloat16
from tests.conftest import CONVENTIONS, hand_frequencies, hand_rotate

property_test = settings(deadline=None, max_examples=40)
property_dims = st.integers(min_value=1, max_value=64).map(lambda half: 2 * half)  # even, 2..128
property_bases = st.floats(min_value=1.01, max_value=1e6)

RNG = np.random.default_rng(0)
X = RNG.standard_normal((40, 8))
POSITIONS = RNG.integers(0, 5000, 40)


def flat(text: str) -> str:
    return " ".join(text.split())


def hand_rotate_all(x: np.ndarray, positions, convention: str, frequencies: list[float]) -> np.ndarray:
    return np.stack(
        [hand_rotate(v, float(m), convention, frequencies) for v, m in zip(x, positions, strict=True)]
    )


def report_of(name: str) -> CheckReport:
    case = IMPLEMENTATIONS[name]
    return check(case.function, convention=case.convention)


def message(name: str, finding: str) -> str:
    (text,) = [f.message for f in report_of(name).findings if f.name == finding]
    return text


# --- the implementations themselves ----------------------------------------------------------------------


def test_registry_holds_at_least_three_correct_and_eight_broken_functions_each_with_a_docstring():
    functions = {case.function for case in IMPLEMENTATIONS.values()}
    correct = {f for f in functions if f.__doc__.startswith("Correct")}
    broken = functions - correct
    assert len(correct) >= 3 and len(broken) >= 8
    assert {broken_rope.rope_interleaved, broken_rope.rope_rotate_half, broken_rope.rope_complex} == correct
    for function in broken:
        assert function.__doc__.split(":")[0] in {"WRONG", "UNUSUAL", "IMPRECISE"}, function.__name__
    for case in IMPLEMENTATIONS.values():
        assert case.findings <= set(FINDING_NAMES)
        informational = not case.findings or (case.findings == {"angle_sign"} and case.convention is None)
        assert case.passed == (case.matches is not None and informational)


@pytest.mark.parametrize(
    ("function", "convention"),
    [
        (broken_rope.rope_interleaved, "interleaved"),
        (broken_rope.rope_rotate_half, "half"),
        (broken_rope.rope_complex, "interleaved"),
    ],
)
def test_correct_implementations_equal_the_rotation_written_pair_by_pair(function, convention):
    expected = hand_rotate_all(X, POSITIONS, convention, hand_frequencies(8, 10000.0))
    np.testing.assert_allclose(function(X, POSITIONS), expected, atol=1e-9)


@pytest.mark.parametrize(
    ("function", "frequencies"),
    [
        (broken_rope.lost_minus_sign, [10000.0 ** (2 * i / 8) for i in range(4)]),
        (broken_rope.lost_factor_two, [10000.0 ** (-i / 8) for i in range(4)]),
        (broken_rope.wrong_base, hand_frequencies(8, 500000.0)),
        (broken_rope.half_the_pairs, [*hand_frequencies(8, 10000.0)[:2], 0.0, 0.0]),
    ],
)
def test_wrong_frequencies_are_a_rotation_with_the_frequencies_their_docstrings_give(function, frequencies):
    np.testing.assert_allclose(
        function(X, POSITIONS), hand_rotate_all(X, POSITIONS, "interleaved", frequencies), atol=1e-6
    )


def test_position_mistakes_rotate_by_the_positions_their_docstrings_give():
    thetas = hand_frequencies(8, 10000.0)

    def rotated_at(positions):
        return hand_rotate_all(X, positions, "interleaved", thetas)

    np.testing.assert_allclose(broken_rope.negated_angle(X, POSITIONS), rotated_at(-POSITIONS), atol=1e-9)
    np.testing.assert_allclose(
        broken_rope.squared_positions(X, POSITIONS), rotated_at(POSITIONS**2), atol=1e-6
    )
    clamped = [min(int(m), 1023) for m in POSITIONS]
    np.testing.assert_allclose(broken_rope.clamped_cache(X, POSITIONS), rotated_at(clamped), atol=1e-9)
    assert float(np.float16(2049)) == 2048 and float(np.float16(4097)) == 4096  # as its docstring says
    as_float16 = [float(np.float16(m)) for m in POSITIONS]
    np.testing.assert_allclose(broken_rope.float16_positions(X, POSITIONS), rotated_at(as_float16), atol=1e-9)


def hand_bfloat16(value: float) -> float:
    """Round to 8 significant bits, ties to even, from the binary exponent."""
    if value == 0:
        return 0.0
    mantissa, exponent = math.frexp(value)  # value = mantissa * 2**exponent, 0.5 <= |mantissa| < 1
    return round(mantissa * 2**8) / 2**8 * 2.0**exponent  # Python's round: ties to even


@settings(deadline=None, max_examples=200)
@given(value=st.floats(min_value=-(2.0**100), max_value=2.0**100, width=32, allow_subnormal=False))
def test_bfloat16_rounding_keeps_eight_significant_bits_to_nearest(value):
    (rounded,) = round_to_bfloat16(np.array([value], dtype=np.float32))
    assert float(rounded) == hand_bfloat16(value)


def test_one_sided_sin_sign_and_reflection_are_the_matrices_their_docstrings_give():
    x = np.eye(2)
    positions = np.array([3, 3])
    c, s = math.cos(3.0), math.sin(3.0)
    # Columns are the images of e_a and e_b (dim 2: pair 0 only, theta_0 = 1).
    np.testing.assert_allclose(
        broken_rope.sin_sign_on_one_member(x, positions).T, [[c, -s], [-s, c]], atol=1e-12
    )
    np.testing.assert_allclose(broken_rope.reflected_pairs(x, positions).T, [[c, s], [s, -c]], atol=1e-12)
    assert np.linalg.det([[c, s], [s, -c]]) == pytest.approx(-1.0)


def test_shape_and_error_cases_fail_as_described():
    assert broken_rope.pairs_left_stacked(X, POSITIONS).shape == (40, 4, 2)
    with pytest.raises(ValueError, match="not enough values to unpack"):
        broken_rope.expects_batch_axis(X, POSITIONS)


def test_half_the_pairs_is_proportional_rope_with_half_the_pairs_turning():
    """As its docstring says: p-RoPE with p = 0.5, the schedule over the whole head and the slow half off."""
    config = {"rope_type": "proportional", "partial_rotary_factor": 0.5, "rope_theta": broken_rope.BASE}
    proportional = rv.scaling.from_config({"head_dim": 64, "rope_parameters": config}).inv_freq
    x = RNG.standard_normal((40, 64))
    np.testing.assert_allclose(
        broken_rope.half_the_pairs(x, POSITIONS),
        hand_rotate_all(x, POSITIONS, "interleaved", proportional),
        atol=1e-6,
    )


def angle_errors_of(function, dim: int, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The angle each pair is turned by, read back from the images of ``(1, 0)``, less ``m theta_i``."""
    x = np.tile([1.0, 0.0], dim // 2)[None].repeat(positions.size, axis=0)
    turned = function(x, positions)
    exact = np.multiply.outer(positions.astype(np.float64), hand_frequencies(dim, broken_rope.BASE))
    error = np.angle(np.exp(1j * (np.arctan2(turned[:, 1::2], turned[:, 0::2]) - exact)))
    return exact, np.abs(error)


def test_bfloat16_and_float32_angles_are_off_by_what_their_docstrings_say():
    exact, error = angle_errors_of(broken_rope.bfloat16_angles, 64, np.arange(0, 4097))
    below, above = (exact >= 0.5) & (exact < 1), (exact >= 1) & (exact < 2)
    assert error[below].max() == pytest.approx(2.0**-9, rel=0.02)  # 0.002 rad just below one radian
    assert error[above].max() == pytest.approx(2.0**-8, rel=0.02)  # about 0.004 rad just above it
    for dim, stated in ((64, "3.0e-4"), (128, "4.9e-4")):  # over positions up to 8192
        _, error = angle_errors_of(broken_rope.float32_angles, dim, np.arange(0, 8193))
        assert f"{error.max():.1e}".replace("e-0", "e-") == stated
        assert stated in " ".join(broken_rope.float32_angles.__doc__.split())


# --- the verdicts ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(IMPLEMENTATIONS))
def test_check_names_exactly_the_mistakes_of_each_implementation(name):
    case = IMPLEMENTATIONS[name]
    report = check(case.function, convention=case.convention)
    assert set(report.names) == case.findings, str(report)
    assert report.passed == case.passed
    assert report.convention == case.matches
    assert list(report.names) == sorted(report.names, key=FINDING_NAMES.index)
    assert len(set(report.names)) == len(report.names)


@pytest.mark.parametrize("name", list(IMPLEMENTATIONS))
def test_check_is_deterministic_cheap_and_hands_fn_copies(name):
    case = IMPLEMENTATIONS[name]
    calls = []

    def spy(x, positions):
        calls.append(x.shape[0])
        result = case.function(x, positions)
        if isinstance(x, np.ndarray):
            x[...] = np.nan  # scribbling on the input must not matter
        return result

    start = time.perf_counter()
    report = check(spy, convention=case.convention)
    assert time.perf_counter() - start < 1.0
    assert len(calls) <= 4 and max(calls) <= 400
    again = check(case.function, convention=case.convention)
    assert [(f.name, f.message) for f in report.findings] == [(f.name, f.message) for f in again.findings]


def test_every_message_says_what_is_wrong_and_the_fix():
    for name in IMPLEMENTATIONS:
        for finding in report_of(name).findings:
            assert len(finding.message) > 60, (name, finding)
            if finding.name not in {"error", "shape"}:
                assert "Fix:" in finding.message, (name, finding)


def test_messages_carry_the_evidence():
    error = message("expects_batch_axis", "error")
    assert "ValueError" in error and "not enough values to unpack (expected 3, got 2)" in error
    assert "(96, 32, 2)" in message("pairs_left_stacked", "shape")

    low, high = map(
        float, re.search(r"ranges from ([\d.]+) to ([\d.]+)", message("sincos_product", "norm")).groups()
    )
    assert 0 < low <= high < 1  # each coordinate times a sine or a cosine: lengths only shrink

    scores = message("squared_positions", "not_relative")
    m, n, shifted_m, shifted_n = map(
        int, re.search(r"\((\d+), (\d+)\) but \S+ at \((\d+), (\d+)\)", scores).groups()
    )
    assert m - n == shifted_m - shifted_n and m != shifted_m
    assert "acts as 1023" in message("clamped_cache", "not_relative")

    # The speeds of the slowest pair (31 of 32), from the formulas, to the 4 digits the messages print.
    lost_minus = message("lost_minus_sign", "frequencies")
    assert f"{10000.0 ** (62 / 64):.4g} rad per token" in lost_minus and "minus sign" in lost_minus
    lost_two = message("lost_factor_two", "frequencies")
    assert f"{10000.0 ** (-31 / 64):.4g} rad per token" in lost_two and "sqrt(base)" in lost_two
    other_base = message("wrong_base", "frequencies")
    assert f"{500000.0 ** (-62 / 64):.4g} rad per token" in other_base and "b = 500000" in other_base
    assert "pairs 16-31 do not turn" in message("half_the_pairs", "frequencies")

    assert "'half'" in message("half_pairs_when_interleaved_asked", "other_convention")
    assert "-m theta_i" in message("negated_angle", "angle_sign")
    reflection = message("reflected_pairs", "angle_sign")
    assert "reflected" in reflection and "determinant -1" in reflection and "negated angles" in reflection

    float16 = message("float16_positions", "precision")
    assert "position 2049 acts as 2048" in float16 and "11 significant bits, as float16" in float16
    assert "8 significant bits, as bfloat16" in message("bfloat16_angles", "precision")
    assert "float32" in message("float32_angles", "precision")


def test_a_shift_of_the_positions_and_a_scale_are_named():
    shifted = check(lambda x, positions: rv.rotate(x, np.asarray(positions) + 1))
    assert shifted.names == ("frequencies",) and "as if positions started at 1" in shifted.findings[0].message
    scaled = check(lambda x, positions: rv.rotate(x, np.asarray(positions) / 4))
    assert scaled.names == ("frequencies",) and "0.25 times as fast" in scaled.findings[0].message


def test_a_function_that_accepts_only_whole_positions_gets_its_speeds_modulo_two_pi():
    # clamped_cache indexes a table; a fast-turning table indexed the same way:
    def table_lost_minus_sign(x, positions):
        angle = np.multiply.outer(np.arange(9000), 10000.0 ** (np.arange(0, 64, 2) / 64))
        index = np.asarray(positions)
        return broken_rope._turn_interleaved(x, np.cos(angle)[index], np.sin(angle)[index])

    report = check(table_lost_minus_sign)
    assert report.names == ("frequencies",)
    assert "modulo 2 pi" in report.findings[0].message


def test_str_report_lists_every_finding_with_its_name_and_message():
    for name in IMPLEMENTATIONS:
        report = report_of(name)
        text = str(report)
        assert text.splitlines()[0].endswith("PASSED" if report.passed else "FAILED")
        assert all(len(line) <= 100 for line in text.splitlines())
        for finding in report.findings:
            assert flat(f"{finding.name}: {finding.message}") in flat(text)
        if not report.findings:
            assert "no findings" in text


# --- rope_viz.rotate itself --------------------------------------------------------------------------------


@property_test
@given(dim=property_dims, base=property_bases, convention=st.sampled_from(CONVENTIONS))
def test_rotate_passes_in_its_own_convention_and_with_none_asked(dim, base, convention):
    def fn(x, positions):
        return rv.rotate(x, positions, base=base, convention=convention)

    asked = check(fn, dim=dim, base=base, convention=convention)
    assert asked.passed and asked.findings == [] and asked.convention == convention
    either = check(fn, dim=dim, base=base)
    assert either.passed and either.findings == []
    assert either.convention == (convention if dim > 2 else "interleaved")  # dim 2: one pair, both layouts
    other = next(c for c in CONVENTIONS if c != convention)
    wrong = check(fn, dim=dim, base=base, convention=other)
    if dim > 2:
        assert not wrong.passed and wrong.names == ("other_convention",) and wrong.convention == convention
    else:
        assert wrong.passed


@property_test
@given(dim=property_dims, base=property_bases, convention=st.sampled_from(CONVENTIONS))
def test_negated_angles_are_reported_and_fail_only_when_a_convention_is_asked(dim, base, convention):
    def fn(x, positions):
        return rv.rotate(x, -np.asarray(positions), base=base, convention=convention)

    either = check(fn, dim=dim, base=base)
    assert either.passed and either.names == ("angle_sign",)
    asked = check(fn, dim=dim, base=base, convention=convention)
    assert not asked.passed and asked.names == ("angle_sign",) and asked.convention == convention


@property_test
@given(
    half=st.integers(min_value=2, max_value=64),
    base=st.floats(min_value=2.0, max_value=1e6),
    factor=st.sampled_from([0.01, 0.2, 5.0, 100.0]),
)
def test_another_base_is_found_and_named(half, base, factor):
    dim, used = 2 * half, max(1.5, base * factor)
    # base ** (-i/d), a lost factor 2, is the schedule of base sqrt(base): the finding names that slip for any
    # base that close to sqrt(base) (the checker's own tolerance on speeds)
    assume(not math.isclose(used, math.sqrt(base), rel_tol=SPEED_TOLERANCE))

    def fn(x, positions):
        return rv.rotate(x, positions, base=used)

    report = check(fn, dim=dim, base=base)
    assert report.names == ("frequencies",) and not report.passed and report.convention is None
    fitted = float(re.search(r"b = (\S+): the formula is right", report.findings[0].message).group(1))
    assert fitted == pytest.approx(used, rel=1e-5)


@property_test
@given(half=st.integers(min_value=2, max_value=64), base=st.floats(min_value=2.0, max_value=1e6))
def test_float16_positions_are_found_at_any_size_and_base(half, base):
    def fn(x, positions):
        return rv.rotate(x, np.asarray(positions).astype(np.float16), base=base)

    report = check(fn, dim=2 * half, base=base)
    assert report.names == ("precision",)
    assert "position 2049 acts as 2048" in report.findings[0].message


# --- arguments ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "name"),
    [
        ({"fn": None}, "fn"),
        ({"fn": 3}, "fn"),
        ({"fn": "rotate"}, "fn"),
        *[({"dim": value}, "dim") for value in (3, 1, 0, -2, 2.5, True, "64", None)],
        *[({"base": value}, "base") for value in (1.0, 0.5, -1.0, math.nan, math.inf, "10000", True, None)],
        *[({"convention": value}, "convention") for value in ("Half", "neox", "", 1, ["half"])],
    ],
)
def test_bad_arguments_raise_value_error_naming_them(arguments, name):
    options = {"fn": rv.rotate, **arguments}
    fn = options.pop("fn")
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        check(fn, **options)
