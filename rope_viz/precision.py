"""How far from ``m theta_i`` an angle lands when positions or angles are held in a short float format.

A binary floating-point number with ``nu`` significant bits (the leading one included) is
``± 1.f × 2^e`` with ``nu - 1`` stored fraction bits. Between ``2^e`` and ``2^(e+1)`` its numbers are
``2^(e - nu + 1)`` apart, so rounding to nearest moves a value ``v`` by at most ``2^(e - nu) <= 2^-nu |v|``,
and every whole number up to ``2^nu`` is held exactly, while ``2^nu + 1`` is not:

=========  ==================  ====================================  =======================
format     significant bits nu largest run of exact integers (2^nu)  largest finite value
=========  ==================  ====================================  =======================
float16    11                  2,048                                 65,504
bfloat16   8                   256                                   about 3.4e38
float32    24                  16,777,216                            about 3.4e38
float64    53                  2^53                                  about 1.8e308
=========  ==================  ====================================  =======================

(IEEE 754-2008 binary16, binary32 and binary64; bfloat16 is the top half of a binary32.) numpy has no
bfloat16, so :func:`round_to_bfloat16` emulates it: it rounds a float32 to 8 significant bits, to nearest with
ties to even, as a cast from float32 to bfloat16 does (``torch.Tensor.to(torch.bfloat16)``).

Two places where RoPE code can hold a number in a short format, each followed by :func:`angle_errors`:

* ``held="positions"``: the positions are stored in the format (``torch.arange(seq, dtype=torch.bfloat16)``),
  and the angle is then formed exactly: the error is ``|m' - m| theta_i`` with ``m'`` the rounded position.
* ``held="angles"``: the angle is formed as transformers forms it (``LlamaRotaryEmbedding.forward``,
  transformers 5.x: ``position_ids.float() * inv_freq`` with ``inv_freq`` in float32), a float32 product of
  the float32 position and the float32 frequency, and then stored in the format.

The reference is the float64 angle ``m theta_i``, whose own error (``2^-53`` of it) is far below all of these.
"""

from __future__ import annotations

import functools

import numpy as np

from rope_viz._validation import check_finite, check_frequencies, check_positions, check_whole_number

FORMATS = ("float16", "bfloat16", "float32", "float64")
"""The formats this module rounds to, shortest significand first after float16."""

SIGNIFICANT_BITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}
"""Significant bits ``nu`` of each format, the implicit leading bit included."""

LARGEST_FINITE = {
    "float16": float(np.finfo(np.float16).max),
    "bfloat16": float(np.float32(2.0**127 * (2 - 2.0**-7))),
    "float32": float(np.finfo(np.float32).max),
    "float64": float(np.finfo(np.float64).max),
}
"""The largest finite number of each format; a value that rounds beyond it becomes infinity."""

HELD = ("positions", "angles")
"""Where a short format enters: the positions themselves, or the angles formed from them."""


def _check_format(number_format: object) -> str:
    if number_format not in FORMATS:
        raise ValueError(f"number_format must be one of {FORMATS}, got {number_format!r}")
    return str(number_format)


def significant_bits(number_format: str) -> int:
    """Return the significant bits ``nu`` of a format: 11, 8, 24 or 53 (IEEE 754 binary16/32/64, bfloat16).

    Examples
    --------
    >>> significant_bits("bfloat16")
    8

    """
    return SIGNIFICANT_BITS[_check_format(number_format)]


def largest_exact_integer(number_format: str) -> int:
    """Return ``2^nu``: every whole number from 0 to it is held exactly, and ``2^nu + 1`` is not.

    256 for bfloat16, 2,048 for float16, 16,777,216 for float32 (``nu`` from :func:`significant_bits`).

    Examples
    --------
    >>> largest_exact_integer("bfloat16"), largest_exact_integer("float16")
    (256, 2048)

    """
    return 2 ** significant_bits(number_format)


def spacing(value: float, number_format: str) -> float:
    """Return the gap between neighbouring numbers of the format at ``value``: ``2^(e + 1 - nu)``.

    ``e = floor(log2 |value|)``, so the gap is the same from one power of two up to the next and doubles
    there: whole numbers from ``2^nu`` on are held in steps of 2, from ``2^(nu + 1)`` on in steps of 4. This
    holds for the normal numbers of the format (float16's end at 65,504; below 2^-14 its gaps stop shrinking).

    Parameters
    ----------
    value : float
        A finite non-zero number.
    number_format : {"float16", "bfloat16", "float32", "float64"}
        The format.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On an unknown format, or a value that is zero or not finite.

    Examples
    --------
    >>> spacing(4096, "float16"), spacing(300, "bfloat16")
    (4.0, 2.0)

    """
    bits = significant_bits(number_format)
    (value,) = check_finite([value], "value")
    if value == 0:
        raise ValueError("value must be non-zero, got 0")
    exponent = np.frexp(abs(value))[1] - 1  # |value| = m 2^e with 1 <= m < 2
    return float(2.0 ** (exponent + 1 - bits))


def round_to_bfloat16(values: object) -> np.ndarray:
    """Round to bfloat16 (8 significant bits, to nearest, ties to even), returned as float32.

    The values are first converted to float32 (a float64 input is rounded twice, as code that computes in
    float32 and casts to bfloat16 rounds it). bfloat16 is the upper 16 bits of the float32 pattern, so adding
    ``0x7FFF`` plus the lowest kept bit and clearing the low 16 bits rounds to nearest with ties to even. A
    value beyond the largest bfloat16 becomes infinity. Finite input only.

    Parameters
    ----------
    values : array_like
        Finite real numbers.

    Returns
    -------
    numpy.ndarray
        float32, the shape of ``values``; every entry a bfloat16 number.

    Raises
    ------
    ValueError
        On a NaN or an infinity, or on input that is not real numbers.

    Examples
    --------
    >>> round_to_bfloat16([256.0, 257.0, 258.0, 259.0]).tolist()
    [256.0, 256.0, 258.0, 260.0]

    """
    array = np.asarray(check_finite(values, "values"), dtype=np.float32)
    bits = array.view(np.uint32)
    rounding = np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))
    with np.errstate(over="ignore"):
        rounded = (bits + rounding) & np.uint32(0xFFFF0000)  # a carry into the exponent is correct rounding
    return rounded.view(np.float32)


def round_to_format(values: object, number_format: str) -> np.ndarray:
    """Return ``values`` rounded to the nearest number of ``number_format`` (ties to even), as float64.

    float16 and float32 are numpy's own casts; bfloat16 is :func:`round_to_bfloat16`; float64 leaves the
    values as they are. Values beyond the format's largest finite number (65,504 for float16) become infinity.

    Parameters
    ----------
    values : array_like
        Finite real numbers.
    number_format : {"float16", "bfloat16", "float32", "float64"}
        The format to round to.

    Returns
    -------
    numpy.ndarray
        float64, the shape of ``values``.

    Raises
    ------
    ValueError
        On an unknown format, or a NaN or infinity in ``values``.

    Examples
    --------
    >>> round_to_format([2049, 4097, 70000], "float16").tolist()
    [2048.0, 4096.0, inf]

    """
    number_format = _check_format(number_format)
    array = np.asarray(check_finite(values, "values"), dtype=np.float64)
    if number_format == "bfloat16":
        return round_to_bfloat16(array).astype(np.float64)
    with np.errstate(over="ignore"):
        return array.astype(number_format).astype(np.float64)


def _check_held(held: object) -> str:
    if held not in HELD:
        raise ValueError(f"held must be one of {HELD}, got {held!r}")
    return str(held)


def held_angles(
    positions: object, inv_freq: object, number_format: str, *, held: str = "positions"
) -> np.ndarray:
    """Return the angles ``m theta_i`` as code with one short format computes them, shape ``(seq, pairs)``.

    * ``held="positions"``: ``round(m) * theta_i`` in float64, ``round`` to ``number_format``;
    * ``held="angles"``: ``round(float32(float32(m) * float32(theta_i)))``, the float32 product that
      transformers forms (``LlamaRotaryEmbedding.forward``, transformers 5.x), then rounded to
      ``number_format`` (float32: kept as it is; float64: the exact angle).

    Parameters
    ----------
    positions : array_like
        Shape ``(seq,)`` (or a scalar): token positions ``m``, finite.
    inv_freq : array_like
        Shape ``(pairs,)``: frequencies ``theta_i`` in radians per token, > 0.
    number_format : {"float16", "bfloat16", "float32", "float64"}
        The short format.
    held : {"positions", "angles"}
        What is held in it.

    Returns
    -------
    numpy.ndarray
        float64, shape ``(seq, pairs)``; infinity where the number overflows the format.

    Raises
    ------
    ValueError
        On an unknown format or ``held``, non-finite positions, or frequencies that are not positive.

    Examples
    --------
    >>> held_angles([2049, 2050], [1.0, 0.5], "float16").tolist()
    [[2048.0, 1024.0], [2050.0, 1025.0]]

    """
    number_format = _check_format(number_format)
    held = _check_held(held)
    positions = check_positions(positions)
    theta = check_frequencies(inv_freq)
    if held == "positions":
        return np.multiply.outer(round_to_format(positions, number_format), theta)
    if number_format == "float64":
        return np.multiply.outer(positions, theta)
    product = np.multiply.outer(positions.astype(np.float32), theta.astype(np.float32))  # float32 arithmetic
    return round_to_format(product, number_format)


def angle_errors(
    positions: object, inv_freq: object, number_format: str, *, held: str = "positions"
) -> np.ndarray:
    """Return ``|angle - m theta_i|``, radians, for the angles of :func:`held_angles`, shape ``(seq, pairs)``.

    Bounds (``nu`` = :func:`significant_bits`): with ``held="positions"`` the error is 0 for every whole
    ``|m| <= 2^nu`` and at most ``2^-nu |m| theta_i``; with ``held="angles"`` it is at most
    ``(2^-nu + 2^-23) |m| theta_i`` (the format's rounding plus that of the float32 product and frequency),
    and at most ``2^-23 |m| theta_i`` in float32. float16 holds numbers below ``2^-14`` on a fixed grid of
    step ``2^-24`` (its subnormal range), so an angle that small may be off by up to ``2^-25`` more. Where the
    format overflows, the error is infinity.

    Parameters
    ----------
    positions, inv_freq, number_format, held
        As in :func:`held_angles`.

    Returns
    -------
    numpy.ndarray
        float64, shape ``(seq, pairs)``, >= 0.

    Raises
    ------
    ValueError
        As :func:`held_angles`.

    Examples
    --------
    bfloat16 holds 257 as 256, one radian off on pair 0:

    >>> angle_errors([256, 257], [1.0], "bfloat16").ravel().tolist()
    [0.0, 1.0]

    """
    angles = held_angles(positions, inv_freq, number_format, held=held)
    exact = np.multiply.outer(check_positions(positions), check_frequencies(inv_freq))
    with np.errstate(invalid="ignore"):
        return np.abs(angles - exact)


def _bins(max_position: int, bins_per_decade: int) -> tuple[np.ndarray, np.ndarray]:
    """First and last position of every bin of ``1 .. max_position``, ``bins_per_decade`` bins per decade."""
    count = int(np.ceil(np.log10(max_position) * bins_per_decade))
    edges = np.floor(10 ** (np.arange(1, count + 1) / bins_per_decade)).astype(np.int64)
    starts = np.unique(np.concatenate([[1], edges[edges < max_position]]))  # first position of each bin
    ends = np.append(starts[1:] - 1, max_position)
    return starts, ends


@functools.lru_cache(maxsize=16)
def _worst_position_offsets(max_position: int, number_format: str, bins_per_decade: int) -> np.ndarray:
    """Largest ``|round(m) - m|`` over the whole positions of every bin (read-only, cached)."""
    starts, _ = _bins(max_position, bins_per_decade)
    positions = np.arange(1, max_position + 1, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        offsets = np.abs(round_to_format(positions, number_format) - positions)
    worst = np.maximum.reduceat(offsets, starts - 1)
    worst.flags.writeable = False
    return worst


def worst_errors_by_position(
    max_position: int,
    theta: float,
    number_format: str,
    *,
    held: str = "positions",
    bins_per_decade: int = 20,
    samples_per_bin: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Return the largest angle error of one pair over whole positions, in bins spaced evenly in ``log m``.

    The positions ``m = 1 .. max_position`` are cut into bins whose ends are ``bins_per_decade`` per decade
    (the last bin runs to ``max_position``), and each bin gives the largest :func:`angle_errors` of its
    positions for a pair of frequency ``theta``. A short format's error jumps between 0 and its bound from one
    position to the next, so the largest error per bin is the curve that a plot can show.

    With ``held="positions"`` the error is ``theta`` times ``|m' - m|``, so every position is evaluated once
    per format (and cached) and the result is exact. With ``held="angles"`` every position is evaluated when
    ``samples_per_bin`` is None; otherwise a bin of more positions than that is represented by its last
    position and ``samples_per_bin - 1`` others drawn with a fixed-seed generator, which gives a largest error
    at most the exact one (and close to it: the errors of neighbouring positions are spread evenly over
    their range).

    Parameters
    ----------
    max_position : int
        Last position, from 1 to 10**7.
    theta : float
        The pair's frequency, radians per token, > 0.
    number_format, held
        As in :func:`held_angles`.
    bins_per_decade : int, default 20
        Bins per factor of ten in ``m``, from 1 to 1000.
    samples_per_bin : int, optional
        For ``held="angles"``: at most this many positions per bin (>= 2); all of them when None.

    Returns
    -------
    bin_ends : numpy.ndarray
        int64, the last position of every bin, increasing, the last one ``max_position``.
    errors : numpy.ndarray
        float64, the largest error of each bin (infinity where a position overflows the format).

    Raises
    ------
    ValueError
        On a ``max_position``, ``bins_per_decade`` or ``samples_per_bin`` that is not a whole number in range,
        and as :func:`held_angles`.

    Examples
    --------
    >>> ends, errors = worst_errors_by_position(1000, 1.0, "bfloat16", bins_per_decade=1)
    >>> ends.tolist(), errors.tolist()
    ([9, 99, 1000], [0.0, 0.0, 2.0])

    """
    max_position = check_whole_number(max_position, "max_position", 1, 10**7)
    bins_per_decade = check_whole_number(bins_per_decade, "bins_per_decade", 1, 1000)
    if samples_per_bin is not None:
        check_whole_number(samples_per_bin, "samples_per_bin", 2, 10**7)
    number_format = _check_format(number_format)
    held = _check_held(held)
    (theta,) = check_frequencies([theta], name="theta")
    starts, ends = _bins(max_position, bins_per_decade)
    if held == "positions":
        return ends, _worst_position_offsets(max_position, number_format, bins_per_decade) * theta
    if samples_per_bin is None:
        positions, firsts = np.arange(1, max_position + 1), starts - 1
    else:
        rng = np.random.default_rng(0)
        chosen, firsts, count = [], [], 0
        for start, end in zip(starts, ends, strict=True):
            if end - start + 1 <= samples_per_bin:
                block = np.arange(start, end + 1)
            else:
                block = np.append(rng.integers(start, end, samples_per_bin - 1), end)
            chosen.append(block)
            firsts.append(count)
            count += block.size
        positions, firsts = np.concatenate(chosen), np.array(firsts)
    errors = angle_errors(positions, [theta], number_format, held="angles")[:, 0]
    return ends, np.maximum.reduceat(errors, firsts)


def first_overflow(
    max_position: int, theta: float, number_format: str, *, held: str = "positions"
) -> int | None:
    """Return the first whole position whose angle overflows the format, or None up to ``max_position``.

    The smallest ``m`` in ``0 .. max_position`` at which :func:`held_angles` gives infinity for a pair of
    frequency ``theta``: ``round(m) = inf`` (``held="positions"``) or
    ``round(float32(m) * float32(theta)) = inf`` (``held="angles"``). Both grow with ``m``, so a search by
    halving finds it. In float16, whose largest number is 65,504, a position overflows from 65,520 on: round
    to nearest sends 65,520 up to 2^16.

    Parameters
    ----------
    max_position : int
        Last position searched, from 0 to 10**9.
    theta : float
        The pair's frequency, radians per token, > 0.
    number_format, held
        As in :func:`held_angles`.

    Returns
    -------
    int or None
        The first overflowing position; None if every position up to ``max_position`` is finite.

    Raises
    ------
    ValueError
        On a ``max_position`` that is not a whole number in range, and as :func:`held_angles`.

    Examples
    --------
    >>> first_overflow(10**6, 1.0, "float16")
    65520
    >>> first_overflow(10**6, 1.0, "bfloat16") is None
    True

    """
    max_position = check_whole_number(max_position, "max_position", 0, 10**9)

    def overflows(position: int) -> bool:
        return not np.isfinite(held_angles([position], [theta], number_format, held=held)[0, 0])

    low, high = 0, max_position
    if not overflows(high):
        return None
    while low < high:  # the first overflowing position lies in low .. high
        middle = (low + high) // 2
        if overflows(middle):
            high = middle
        else:
            low = middle + 1
    return low


__all__ = [
    "FORMATS",
    "HELD",
    "LARGEST_FINITE",
    "SIGNIFICANT_BITS",
    "angle_errors",
    "first_overflow",
    "held_angles",
    "largest_exact_integer",
    "round_to_bfloat16",
    "round_to_format",
    "significant_bits",
    "spacing",
    "worst_errors_by_position",
]
