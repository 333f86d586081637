"""How large a base a context length needs, by the criterion of Men et al. (2024).

Men et al. (2024, Base of RoPE Bounds Context Length, arXiv:2405.14591) ask that the mean score of a vector
with itself, ``E[<R(r) q, q>] = 2 sum_i cos(r theta_i)`` for ``q ~ N(0, I_d)``, stay non-negative at every
distance the model is meant to handle:

    sum_{i=0}^{d/2-1} cos(r b^(-2i/d)) >= 0   for every whole r with 0 <= r <= L.

Passing is not monotone in the base: just above the smallest base that passes, the sum's lowest value hovers
near zero, and narrow ranges of larger bases fail again. So the smallest passing base is found by scanning a
fine grid of bases upwards, not by bisection.
"""

from __future__ import annotations

import math

import numpy as np

from rope_viz._validation import check_base, check_dim, check_whole_number
from rope_viz.frequencies import inv_freq as _inv_freq

__all__ = ["bound_holds", "smallest_passing_base"]

#: Longest context length accepted (the scan's cost grows with it).
MAX_LENGTH = 1 << 20
#: Bases are scanned up to here.
MAX_BASE = 1e15
#: Distances evaluated at once in float64.
_CHUNK = 1 << 15
#: A float32 sum below -_MARGIN fails for certain (its rounding error is under 1e-4); others are checked in
#: float64.
_MARGIN = 1e-3
_TWO_PI = 2.0 * math.pi


def _sum_of_cosines(inv_freq: np.ndarray, start: int, stop: int, dtype: type) -> np.ndarray:
    """Return ``sum_i cos(r theta_i)`` for whole ``r`` in ``start .. stop - 1``.

    The angles are reduced to [-pi, pi] in float64 and their cosines taken in ``dtype``.
    """
    angles = np.multiply.outer(np.arange(start, stop, dtype=np.float64), inv_freq)
    angles -= _TWO_PI * np.round(angles / _TWO_PI)
    return np.cos(angles.astype(dtype)).sum(axis=1, dtype=np.float64)


def _first_clear_failure(inv_freq: np.ndarray, length: int, near: int | None) -> int | None:
    """Return a distance ``r <= length`` whose float32 sum is below ``-_MARGIN``, or None.

    The distances near ``near`` (where a slightly smaller base failed) are tried first, then the rest in
    chunks that double from 2,048, so that a base failing at a short distance costs little.
    """
    if near is not None:
        low, high = max(0, near - 1024), min(length + 1, near + 1024)
        sums = _sum_of_cosines(inv_freq, low, high, np.float32)
        if sums.min() < -_MARGIN:
            return low + int(np.argmin(sums))
    start, size = 0, 2048
    while start <= length:
        stop = min(start + size, length + 1)
        sums = _sum_of_cosines(inv_freq, start, stop, np.float32)
        if sums.min() < -_MARGIN:
            return start + int(np.argmin(sums))
        start, size = stop, 2 * size
    return None


def _holds(inv_freq: np.ndarray, length: int) -> bool:
    """Return whether ``sum_i cos(r theta_i) >= 0`` for every whole ``r`` in ``0 .. length``, in float64."""
    return all(
        _sum_of_cosines(inv_freq, start, min(start + _CHUNK, length + 1), np.float64).min() >= 0.0
        for start in range(0, length + 1, _CHUNK)
    )


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


def smallest_passing_base(length: int, dim: int, *, per_decade: int = 1000, start: float = 1e3) -> float:
    """Return the smallest base on the grid ``10^(k / per_decade)``, from ``start`` on, that passes the bound.

    The bound is Men et al.'s ``sum_{i<d/2} cos(r b^(-2i/d)) >= 0`` for every whole ``0 <= r <= length`` (see
    :func:`bound_holds`). Bases are tried upwards from the first grid point at or above ``start``. A base that
    fails for some length fails for every longer one, so the result for a shorter length is a valid ``start``
    for a longer one. Ranges of passing bases narrower than a grid step can be missed: at 1,000 per decade a
    step is 0.23 %.

    Each base is first tried in float32 (cosines of angles reduced in float64), beginning near the distance
    where the base before it failed; a clear failure there (a sum below -0.001) settles it, and a base that
    seems to pass is confirmed in float64.

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
    length = check_whole_number(length, "length", 1, MAX_LENGTH)
    dim = check_dim(dim)
    if dim < 4:
        raise ValueError(f"dim must be at least 4 (with d = 2 no base passes), got {dim}")
    per_decade = check_whole_number(per_decade, "per_decade", 1, 100_000)
    start = check_base(start, "start")
    first = math.ceil(round(math.log10(start) * per_decade, 9))
    last = math.floor(math.log10(MAX_BASE) * per_decade)
    near = None
    for k in range(first, last + 1):
        base = 10.0 ** (k / per_decade)
        inv_freq = _inv_freq(dim, base)
        near = _first_clear_failure(inv_freq, length, near)
        if near is None and _holds(inv_freq, length):
            return base
    raise ValueError(f"no base up to {MAX_BASE:.0e} passes for length {length:,} and dim {dim}")
