"""How large a base a context length needs, by the criterion of Men et al. (2024).

Men et al. (2024, Base of RoPE Bounds Context Length, arXiv:2405.14591) ask that the mean score of a vector
with itself, ``E[<R(r) q, q>] = 2 sum_i cos(r theta_i)`` for ``q ~ N(0, I_d)``, stay non-negative at every
distance the model is meant to handle:

    sum_{i=0}^{d/2-1} cos(r b^(-2i/d)) >= 0   for every whole r with 0 <= r <= L.

Passing is not monotone in the base. The smallest base that passes lies on a narrow island of passing bases;
above it, failing and passing ranges alternate up to a base several times larger, and only from there on does
every base pass (:func:`grid_passes` tells which bases of a grid pass). So :func:`smallest_passing_base`
scans a fine grid of bases upwards rather than bisecting, and :func:`all_pass_from` scans the same grid
downwards from a base above which :func:`lower_bound` proves that every base passes.
"""

from __future__ import annotations

import math

import numpy as np

from rope_viz._validation import check_base, check_dim, check_whole_number
from rope_viz.frequencies import inv_freq as _inv_freq

__all__ = ["all_pass_from", "bound_holds", "grid_passes", "lower_bound", "smallest_passing_base"]

#: Longest context length accepted (the scan's cost grows with it).
MAX_LENGTH = 1 << 20
#: Bases are scanned up to here.
MAX_BASE = 1e15
#: Most grid bases :func:`grid_passes` tries in one call.
MAX_GRID_POINTS = 100_000
#: Distances evaluated at once in float64.
_CHUNK = 1 << 15
#: Distances ``r = a + c`` are split into a multiple ``a`` of _BLOCK and a remainder ``c < _BLOCK``.
_BLOCK = 256
#: :func:`lower_bound` must clear 0 by this much, far more than the rounding error of bound_holds's sums.
_PROOF_MARGIN = 1e-6
_TWO_PI = 2.0 * math.pi


def _sum_of_cosines(inv_freq: np.ndarray, start: int, stop: int) -> np.ndarray:
    """Return ``sum_i cos(r theta_i)`` for whole ``r`` in ``start .. stop - 1``, in float64.

    The angles are reduced to [-pi, pi] before their cosines are taken.
    """
    angles = np.multiply.outer(np.arange(start, stop, dtype=np.float64), inv_freq)
    angles -= _TWO_PI * np.round(angles / _TWO_PI)
    return np.cos(angles).sum(axis=1)


def _holds(inv_freq: np.ndarray, length: int) -> bool:
    """Return whether ``sum_i cos(r theta_i) >= 0`` for every whole ``r`` in ``0 .. length``, in float64."""
    return all(
        _sum_of_cosines(inv_freq, start, min(start + _CHUNK, length + 1)).min() >= 0.0
        for start in range(0, length + 1, _CHUNK)
    )


def _turns(inv_freq: np.ndarray, start: int, count: int, step: int) -> tuple[np.ndarray, np.ndarray]:
    """Return ``cos`` and ``sin`` of ``(start + j step) theta_i`` for ``j < count``, rounded to float32.

    The rows are powers of ``exp(i step theta)``, started from ``exp(i start theta)``: a running product in
    complex128, whose rounding moves the angles by less than ``1e-9`` for the lengths accepted here, far less
    than the float32 rounding that follows.
    """
    angles = np.multiply.outer(np.array([start, step], dtype=np.float64), inv_freq)
    angles -= _TWO_PI * np.round(angles / _TWO_PI)
    powers = np.empty((count, inv_freq.size), dtype=np.complex128)
    powers[0] = np.exp(1j * angles[0])
    powers[1:] = np.exp(1j * angles[1])
    np.cumprod(powers, axis=0, out=powers)
    return powers.real.astype(np.float32), powers.imag.astype(np.float32)


def _lowest_sum(inv_freq: np.ndarray, start: int, stop: int) -> tuple[float, int]:
    """Return the lowest ``sum_i cos(r theta_i)`` over whole ``r`` in ``start .. stop - 1``, and its ``r``.

    With ``r = a + c``, ``a - start`` a multiple of ``_BLOCK`` and ``0 <= c < _BLOCK``,
    ``cos(r theta) = cos(a theta) cos(c theta) - sin(a theta) sin(c theta)``: the sums at every ``r`` are two
    matrix products of tables of ``cos`` and ``sin`` (:func:`_turns`), computed in float32. Each of the
    ``n = d/2`` products in a sum is off by at most ``3u`` (``u = 2^-24``), each float32 sum of ``n`` terms of
    size <= 1 adds at most ``(n - 1) n u`` and the difference ``2 n u``, so the result is within
    ``2 n^2 u + 6 n u <= 8 n^2 u`` of the exact sum (:func:`_tolerance`).
    """
    cos_a, sin_a = _turns(inv_freq, start, -(-(stop - start) // _BLOCK), _BLOCK)
    cos_c, sin_c = _turns(inv_freq, 0, _BLOCK, 1)
    sums = (cos_a @ cos_c.T - sin_a @ sin_c.T).ravel()[: stop - start]  # at r = start + j * _BLOCK + c
    where = int(np.argmin(sums))
    return float(sums[where]), start + where


def _tolerance(pairs: int) -> float:
    """Bound on the error of :func:`_lowest_sum` for ``n = pairs`` pairs: ``8 n^2 2^-24``."""
    return 8.0 * pairs * pairs * 2.0**-24


def _passes(inv_freq: np.ndarray, length: int, near: int | None = None) -> tuple[bool, int | None]:
    """Return whether ``_holds(inv_freq, length)``, and a distance where the sum is lowest if it fails.

    ``_lowest_sum`` settles it when its answer is farther than ``_tolerance`` from 0, otherwise ``_holds``
    does. The 2,048 distances around ``near`` (where a slightly different base failed) are tried first, so
    that most failing bases cost little.
    """
    tolerance = _tolerance(inv_freq.size)
    if near is not None:
        lowest, at = _lowest_sum(inv_freq, max(0, near - 1024), min(length + 1, near + 1024))
        if lowest < -tolerance:
            return False, at
    lowest, at = _lowest_sum(inv_freq, 0, length + 1)
    if abs(lowest) > tolerance:
        return lowest > 0, None if lowest > 0 else at
    holds = _holds(inv_freq, length)
    return holds, None if holds else at


def bound_holds(length: int, dim: int, base: float) -> bool:
    """Return whether ``sum_{i<d/2} cos(r b^(-2i/d)) >= 0`` for every whole ``r`` from 0 to ``length``.

    Men et al.'s criterion (see the module docstring); the sum is half of
    :func:`rope_viz.expected_self_score`. Evaluated in float64, with the angles reduced to [-pi, pi].

    Parameters
    ----------
    length : int
        Context length ``L``, from 1 to :data:`MAX_LENGTH`.
    dim : int
        Head dimension ``d``; even, >= 2.
    base : float
        Frequency base ``b``; finite, > 1.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        If ``length`` is not a whole number in range, ``dim`` is odd or < 2, or ``base`` is not a finite
        number > 1.

    Examples
    --------
    >>> bound_holds(1024, 128, 10_000.0), bound_holds(4096, 128, 10_000.0)
    (True, False)

    """
    length = check_whole_number(length, "length", 1, MAX_LENGTH)
    return _holds(_inv_freq(check_dim(dim), check_base(base)), length)


def lower_bound(length: int, dim: int, base: float) -> float:
    """Return a lower bound on ``sum_{i<d/2} cos(r theta_i)`` over every whole ``r`` from 0 to ``length``.

    Each pair contributes at least its own lowest value over those distances:

        sum_i cos(r theta_i) >= min_{0 <= r' <= L} cos r' + sum_{i=1}^{d/2-1} h(L theta_i),
        h(x) = cos x for x <= pi,  h(x) = -1 for x > pi,

    since ``theta_0 = 1`` for every base and, for ``i >= 1``, ``r theta_i`` runs over ``[0, L theta_i]``, on
    which cos falls to ``cos(L theta_i)``, or to -1 once the range passes pi. Each ``theta_i`` with ``i >= 1``
    falls as the base grows and ``h`` never rises, so the bound never falls as the base grows: once it is
    >= 0, that base and every larger one pass :func:`bound_holds`. It ignores that the pairs reach their
    lowest values at different distances, so it reaches 0 only at a base far above those that pass.

    Parameters
    ----------
    length : int
        Context length ``L``, from 1 to :data:`MAX_LENGTH`.
    dim : int
        Head dimension ``d``; even, >= 2.
    base : float
        Frequency base ``b``; finite, > 1.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``length`` is not a whole number in range, ``dim`` is odd or < 2, or ``base`` is not a finite
        number > 1.

    Examples
    --------
    >>> bool(lower_bound(1024, 128, 1e5) < 0 < lower_bound(1024, 128, 1e6))
    True

    """
    length = check_whole_number(length, "length", 1, MAX_LENGTH)
    return _lower_bound(length, _inv_freq(check_dim(dim), check_base(base)))


def _lower_bound(length: int, inv_freq: np.ndarray) -> float:
    """:func:`lower_bound` for checked arguments."""
    angles = length * inv_freq[1:]
    slower = np.where(angles <= math.pi, np.cos(np.minimum(angles, math.pi)), -1.0)
    return float(np.cos(np.arange(length + 1.0)).min()) + float(slower.sum())


def _scan_arguments(length: int, dim: int, per_decade: int, start: float) -> tuple[int, int, int, int]:
    """Check the arguments of a scan; return ``length``, ``dim`` and the first and last grid indices."""
    length = check_whole_number(length, "length", 1, MAX_LENGTH)
    dim = check_dim(dim)
    if dim < 4:
        raise ValueError(f"dim must be at least 4 (with d = 2 no base passes), got {dim}")
    per_decade = check_whole_number(per_decade, "per_decade", 1, 100_000)
    start = check_base(start, "start")
    first = math.ceil(round(math.log10(start) * per_decade, 9))
    last = math.floor(math.log10(MAX_BASE) * per_decade)
    return length, dim, first, last


def smallest_passing_base(length: int, dim: int, *, per_decade: int = 1000, start: float = 1e3) -> float:
    """Return the smallest base on the grid ``10^(k / per_decade)``, from ``start`` on, that passes the bound.

    The bound is Men et al.'s ``sum_{i<d/2} cos(r b^(-2i/d)) >= 0`` for every whole ``0 <= r <= length`` (see
    :func:`bound_holds`). Bases are tried upwards from the first grid point at or above ``start``. A base that
    fails for some length fails for every longer one, so the result for a shorter length is a valid ``start``
    for a longer one. Ranges of passing bases narrower than a grid step can be missed: at 1,000 per decade a
    step is 0.23 %. Larger grid bases need not pass (see :func:`all_pass_from`).

    Each base's lowest sum is first computed in float32 (beginning near the distance where the base before it
    failed); a result farther from 0 than its rounding error settles it, and any other is settled in float64
    as :func:`bound_holds` does.

    Parameters
    ----------
    length : int
        Context length ``L``, from 1 to :data:`MAX_LENGTH`.
    dim : int
        Head dimension ``d``; even, >= 4 (with ``d = 2`` the sum is ``cos r``, which no base keeps >= 0).
    per_decade : int, default 1000
        Grid points per factor of ten, from 1 to 100,000.
    start : float, default 1e3
        Smallest base tried; finite, > 1.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If an argument is out of range, or no grid base up to :data:`MAX_BASE` passes.

    Examples
    --------
    >>> f"{smallest_passing_base(1024, 128):,.0f}"
    '4,295'

    """
    length, dim, first, last = _scan_arguments(length, dim, per_decade, start)
    near = None
    for k in range(first, last + 1):
        base = 10.0 ** (k / per_decade)
        passes, near = _passes(_inv_freq(dim, base), length, near)
        if passes:
            return base
    raise ValueError(f"no base up to {MAX_BASE:.0e} passes for length {length:,} and dim {dim}")


def all_pass_from(length: int, dim: int, *, per_decade: int = 1000, start: float = 1e3) -> float:
    """Return the grid base ``10^(k / per_decade)`` from which every larger grid base passes the bound.

    The bound is Men et al.'s ``sum_{i<d/2} cos(r b^(-2i/d)) >= 0`` for every whole ``0 <= r <= length`` (see
    :func:`bound_holds`). The result ``B`` passes, and so does every grid base above it; the grid base below
    it fails, unless ``B`` is the first grid point at or above ``start``. Every base, on the grid or not,
    passes from the first grid base at which :func:`lower_bound` is >= 0 on, as that bound never falls as the
    base grows; from there the grid is scanned downwards until a base fails. Between two grid points there
    can be ranges of failing bases narrower than a step (0.23 % at 1,000 per decade), so a finer grid can
    give a larger result.

    Each base is settled as in :func:`smallest_passing_base`.

    Parameters
    ----------
    length : int
        Context length ``L``, from 1 to :data:`MAX_LENGTH`.
    dim : int
        Head dimension ``d``; even, >= 4.
    per_decade : int, default 1000
        Grid points per factor of ten, from 1 to 100,000.
    start : float, default 1e3
        Smallest base considered; finite, > 1.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If an argument is out of range, or :func:`lower_bound` stays below 0 up to :data:`MAX_BASE` (with
        ``d = 4``, for instance, it never clears 0 for lengths of a few hundred tokens and more).

    Examples
    --------
    >>> f"{all_pass_from(1024, 128):,.0f}"
    '6,026'

    """
    length, dim, first, last = _scan_arguments(length, dim, per_decade, start)

    def proven(k: int) -> bool:
        return _lower_bound(length, _inv_freq(dim, 10.0 ** (k / per_decade))) >= _PROOF_MARGIN

    if first > last or not proven(last):
        raise ValueError(f"no base up to {MAX_BASE:.0e} is proven to pass for length {length:,}, dim {dim}")
    low, high = first - 1, last  # proven(high) holds, proven(low) does not or low is below the grid's start
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if proven(middle) else (middle, high)
    k = high
    while k > first and _passes(_inv_freq(dim, 10.0 ** ((k - 1) / per_decade)), length)[0]:
        k -= 1
    return 10.0 ** (k / per_decade)


def grid_passes(
    length: int, dim: int, low: float, high: float, *, per_decade: int = 1000
) -> tuple[np.ndarray, np.ndarray]:
    """Return the bases of the grid ``10^(k / per_decade)`` from ``low`` to ``high``, and whether each passes.

    A base passes when ``sum_{i<d/2} cos(r b^(-2i/d)) >= 0`` for every whole ``0 <= r <= length``, as
    :func:`bound_holds` decides; each base is settled as in :func:`smallest_passing_base`.

    Parameters
    ----------
    length : int
        Context length ``L``, from 1 to :data:`MAX_LENGTH`.
    dim : int
        Head dimension ``d``; even, >= 2.
    low, high : float
        Smallest and largest base of the range, both finite and > 1, ``low <= high``; grid points within
        ``1e-9`` decades of either end count as inside.
    per_decade : int, default 1000
        Grid points per factor of ten, from 1 to 100,000.

    Returns
    -------
    bases : numpy.ndarray
        The grid bases, increasing, float64.
    passes : numpy.ndarray
        Bool, same shape: whether each base passes.

    Raises
    ------
    ValueError
        If an argument is out of range, or the range holds more than :data:`MAX_GRID_POINTS` grid bases.

    Examples
    --------
    >>> bases, passes = grid_passes(1024, 128, 4200, 4400)
    >>> [f"{base:,.0f}" for base in bases[passes]]
    ['4,295', '4,305', '4,315', '4,325']

    """
    length = check_whole_number(length, "length", 1, MAX_LENGTH)
    dim = check_dim(dim)
    per_decade = check_whole_number(per_decade, "per_decade", 1, 100_000)
    low, high = check_base(low, "low"), check_base(high, "high")
    if high < low:
        raise ValueError(f"high must be >= low, got low={low!r}, high={high!r}")
    first = math.ceil(round(math.log10(low) * per_decade, 9))
    last = math.floor(round(math.log10(high) * per_decade, 9))
    if last - first + 1 > MAX_GRID_POINTS:
        raise ValueError(f"the range holds {last - first + 1:,} grid bases, more than {MAX_GRID_POINTS:,}")
    bases = np.array([10.0 ** (k / per_decade) for k in range(first, last + 1)])  # as the scans compute them
    passes = np.zeros(bases.size, dtype=bool)
    near = None
    for j, base in enumerate(bases):
        passes[j], near = _passes(_inv_freq(dim, float(base)), length, near)
    return bases, passes
