"""Angles past the training length: the arc a rotation pair sweeps in training, and what a longer one adds.

A model trained on sequences of ``L`` tokens has seen pair ``i`` at the angles ``m * theta_i`` for positions
(and query-key offsets) ``m`` in ``[0, L)``: an arc of ``L * theta_i`` radians. A fast pair covers the whole
circle many times over; a slow pair (wavelength ``2 pi / theta_i > L``) covers only part of it, so at a target
length ``L' > L`` it reaches angles it never met in training. :func:`context_arcs`, :func:`turns`,
:func:`first_partial_pair` and :func:`unseen_angles` set the trained arc against the arc a longer context
asks for; :func:`neighbour_angles` gives the angle between neighbouring tokens, which position interpolation
shrinks (Chen et al. 2023, arXiv:2306.15595).
"""

from __future__ import annotations

import math

import numpy as np

from rope_viz._validation import check_frequencies
from rope_viz.scaling.parameters import check_number

TWO_PI = 2.0 * math.pi

#: Relative tolerance below which an angle beyond the trained arc counts as rounding, not as a new angle.
UNSEEN_RTOL = 1e-9


def _length(value: object, name: str) -> float:
    return check_number(value, name, minimum=0.0, inclusive=False)


def context_arcs(length: float, inv_freq: object) -> np.ndarray:
    """Angle each pair sweeps over a context of ``length`` tokens: ``A_i = length * theta_i`` radians.

    Positions, and offsets between a query and a key, run over ``[0, length)``; pair ``i`` turns by
    ``m * theta_i`` at position ``m`` (RoFormer, Su et al. 2021, arXiv:2104.09864, sec. 3.2.2), so the angles
    it meets fill ``[0, A_i)``. The pairing convention does not matter.

    Parameters
    ----------
    length : float
        Context length in tokens; > 0.
    inv_freq : array_like
        Shape ``(d/2,)``, positive, radians per token (plain or scaled).

    Returns
    -------
    numpy.ndarray
        Shape ``(d/2,)``, radians.

    Examples
    --------
    >>> context_arcs(4096, [1.0, 1e-4])
    array([4.096e+03, 4.096e-01])

    """
    return _length(length, "length") * check_frequencies(inv_freq)


def turns(length: float, inv_freq: object) -> np.ndarray:
    """Count the turns each pair makes over ``length`` tokens: ``rho_i = length theta_i / (2 pi)``.

    That is ``length / lambda_i``, with ``lambda_i = 2 pi / theta_i`` the pair's wavelength.

    The YaRN paper calls this ratio ``r`` and bounds its blend with it (Peng et al. 2023, arXiv:2309.00071,
    sec. 3.2, eq. (17)); the course writes ``rho``, keeping ``r`` for the distance ``m - n``.

    Parameters
    ----------
    length : float
        Context length in tokens; > 0.
    inv_freq : array_like
        Shape ``(d/2,)``, positive, radians per token.

    Returns
    -------
    numpy.ndarray
        Shape ``(d/2,)``; below 1 for a pair that never completes a turn within ``length``.

    Examples
    --------
    >>> print(turns(4096, [1.0, 1e-3]).round(3))
    [651.899   0.652]

    """
    return context_arcs(length, inv_freq) / TWO_PI


def first_partial_pair(length: float, inv_freq: object) -> int:
    """Index of the first pair that turns less than once over ``length`` tokens (``length * theta_i < 2 pi``).

    For the schedule ``theta_i = b ** (-2i/d)`` every pair from this index on sees only part of the circle
    over ``length`` tokens, and the index is the smallest ``i >= 0`` with ``i > (d/2) log_b(length / (2 pi))``
    (or ``d/2`` if there is none).

    Parameters
    ----------
    length : float
        Context length in tokens; > 0.
    inv_freq : array_like
        Shape ``(d/2,)``, positive, radians per token.

    Returns
    -------
    int
        In ``[0, d/2]``; ``d/2`` when every pair completes a turn.

    Examples
    --------
    Over 4,096 tokens a pair of 1e-3 radians per token turns 4.096 radians, less than a full turn:

    >>> first_partial_pair(4096, [1.0, 1e-1, 1e-2, 1e-3, 1e-4])
    3

    """
    partial = np.flatnonzero(turns(length, inv_freq) < 1.0)
    return int(partial[0]) if partial.size else int(np.size(inv_freq))


def unseen_angles(
    trained_length: float, target_length: float, trained_inv_freq: object, inv_freq: object | None = None
) -> np.ndarray:
    """How far past its trained arc each pair turns at the target length, counting only angles never seen.

    Implements ``U_i = max(0, min(L' theta_i', 2 pi) - min(L theta_i, 2 pi))``: in training (length ``L``,
    frequencies ``theta_i``) pair ``i`` met the angles ``[0, L theta_i)``, the whole circle once
    ``L theta_i >= 2 pi``; at the target length ``L'`` with frequencies ``theta_i'`` it meets
    ``[0, L' theta_i')``.
    ``U_i`` is the part of the circle met only at the target length. It is 0 for every pair that completed a
    turn in training, and for every pair when ``L' theta_i' <= L theta_i`` (position interpolation with
    ``s >= L'/L``, Chen et al. 2023, arXiv:2306.15595). Differences below :data:`UNSEEN_RTOL` relative to the
    trained arc count as 0.

    Parameters
    ----------
    trained_length : float
        Training length ``L`` in tokens; > 0.
    target_length : float
        Target length ``L'`` in tokens; > 0.
    trained_inv_freq : array_like
        Shape ``(d/2,)``: the frequencies the model was trained with.
    inv_freq : array_like, optional
        Shape ``(d/2,)``: the frequencies used at the target length (a method's ``inv_freq``); default: the
        trained ones (plain extrapolation).

    Returns
    -------
    numpy.ndarray
        Shape ``(d/2,)``, radians in ``[0, 2 pi)``.

    Examples
    --------
    A pair that turns a quarter of a circle in 1,000 tokens meets another quarter at 2,000 tokens:

    >>> print(np.degrees(unseen_angles(1000, 2000, [np.pi / 2000])))
    [90.]

    """
    trained = check_frequencies(trained_inv_freq, name="trained_inv_freq")
    used = trained if inv_freq is None else check_frequencies(inv_freq)
    if used.shape != trained.shape:
        raise ValueError(
            f"inv_freq and trained_inv_freq must have the same shape, got {used.shape} and {trained.shape}"
        )
    seen = np.minimum(context_arcs(trained_length, trained), TWO_PI)
    reached = np.minimum(context_arcs(target_length, used), TWO_PI)
    beyond = reached - seen
    return np.where(beyond > UNSEEN_RTOL * np.maximum(seen, 1e-300), beyond, 0.0)


def neighbour_angles(inv_freq: object, factor: float = 1.0) -> np.ndarray:
    """Angle between neighbouring tokens on each pair after position interpolation: ``theta_i / s``.

    Position interpolation reads position ``m`` as ``m / s`` (Chen et al. 2023, arXiv:2306.15595, eq. 4), so
    tokens ``m`` and ``m + 1`` differ by ``theta_i / s`` on pair ``i`` instead of ``theta_i``. For any other
    method the angle between neighbours is simply its ``inv_freq`` (``factor=1``).

    Parameters
    ----------
    inv_freq : array_like
        Shape ``(d/2,)``, positive, radians per token.
    factor : float, default 1.0
        Interpolation factor ``s``; >= 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(d/2,)``, radians.

    Examples
    --------
    >>> print(np.degrees(neighbour_angles([1.0], 8.0)).round(3))
    [7.162]

    """
    return check_frequencies(inv_freq) / check_number(factor, "factor", minimum=1.0)


__all__ = [
    "TWO_PI",
    "UNSEEN_RTOL",
    "context_arcs",
    "first_partial_pair",
    "neighbour_angles",
    "turns",
    "unseen_angles",
]
