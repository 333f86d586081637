"""Attention scores between rotated queries and keys, and RoFormer's long-range decay bound.

The score of a query ``q`` at position ``m`` and a key ``k`` at position ``n`` is

    s(m, n) = <R(m) q, R(n) k> = q^T R(m)^T R(n) k = q^T R(n - m) k,

so it depends on the positions only through the offset ``m - n`` (Su et al. 2021, RoFormer: Enhanced
Transformer with Rotary Position Embedding, arXiv:2104.09864, sec. 3.2). In the complex view of the pairs,
``q_i = q_a + 1j q_b`` and ``k_i = k_a + 1j k_b`` for pair ``(a, b)`` of the chosen convention,

    s(m, n) = Re[ sum_i q_i conj(k_i) exp(1j (m - n) theta_i) ].
"""

from __future__ import annotations

import numpy as np

from rope_viz._validation import (
    check_base,
    check_convention,
    check_dim,
    check_finite,
    check_positions,
    check_vector_pair,
)
from rope_viz.frequencies import inv_freq as _inv_freq
from rope_viz.phases import pair_products, relative_bound
from rope_viz.rotation import resolve_inv_freq, rotate


def _check_scalar(value: object, name: str) -> float:
    array = check_finite(value, name)
    if array.ndim != 0:
        raise ValueError(f"{name} must be one finite number, got shape {array.shape}")
    return float(array)


def score(
    q: object,
    k: object,
    m: float,
    n: float,
    *,
    base: float = 10000.0,
    inv_freq: object | None = None,
    convention: str = "interleaved",
) -> float:
    """Attention logit (before ``1/sqrt(d)``) of a query ``q`` at position ``m`` and a key ``k`` at ``n``.

    Implements ``s(m, n) = <R(m) q, R(n) k>`` (RoFormer, Su et al. 2021, arXiv:2104.09864, sec. 3.2.2), with
    ``R`` as in :func:`rope_viz.rotate`. Equal to ``q^T R(n - m) k``: only ``m - n`` matters.

    Parameters
    ----------
    q, k : array_like
        Shape ``(dim,)`` each, ``dim`` even; finite.
    m, n : float
        Positions of the query and the key; finite, may be fractional.
    base, inv_freq, convention
        As in :func:`rope_viz.rotate`.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``q`` and ``k`` differ in shape or are not vectors of even size, ``m`` or ``n`` is not one finite
        number, or ``base``, ``inv_freq`` or ``convention`` is invalid.

    Examples
    --------
    Two unit vectors on pair 0 (one radian per token), one token apart:

    >>> print(f"{score([1.0, 0.0], [1.0, 0.0], 1, 0):.6f}")
    0.540302

    """
    q, k = check_vector_pair(q, k)
    m = _check_scalar(m, "m")
    n = _check_scalar(n, "n")
    options = {"base": base, "inv_freq": inv_freq, "convention": convention}
    return float(rotate(q, m, **options) @ rotate(k, n, **options))


def relative_scores(
    q: object,
    k: object,
    offsets: object,
    *,
    base: float = 10000.0,
    inv_freq: object | None = None,
    convention: str = "interleaved",
) -> np.ndarray:
    """Score as a function of the offset ``r = m - n``, for every offset at once.

    Implements ``s(r) = <R(r) q, k> = Re[ sum_i h_i exp(1j r theta_i) ]`` with ``h_i = q_i conj(k_i)`` (the
    complex view of the pairs, RoFormer, Su et al. 2021, arXiv:2104.09864, sec. 3.4.3), which equals
    ``score(q, k, n + r, n)`` for every ``n``.

    Parameters
    ----------
    q, k : array_like
        Shape ``(dim,)`` each; finite.
    offsets : array_like
        Offsets ``m - n``, any shape; finite, may be fractional.
    base, inv_freq, convention
        As in :func:`rope_viz.rotate`.

    Returns
    -------
    numpy.ndarray
        Same shape as ``offsets``, float64.

    Raises
    ------
    ValueError
        As :func:`score`, with ``offsets`` in place of ``m`` and ``n``.

    Examples
    --------
    >>> print(np.round(relative_scores([1.0, 0.0], [1.0, 0.0], [0, np.pi / 2, np.pi]), 6) + 0.0)
    [ 1.  0. -1.]

    """
    convention = check_convention(convention)
    q, k = check_vector_pair(q, k)
    offsets = check_finite(offsets, "offsets")
    frequencies = resolve_inv_freq(q.shape[0], base, inv_freq)
    h = pair_products(q, k, convention)  # (d/2,)
    theta = np.multiply.outer(offsets, frequencies)  # (..., d/2)
    # Re[h e^{i r t}] = Re(h) cos(r t) - Im(h) sin(r t), summed over the pairs (einsum: one thread; a BLAS
    # product of this size spends longer waking its threads than multiplying)
    return np.einsum("...j,j->...", np.cos(theta), h.real) - np.einsum("...j,j->...", np.sin(theta), h.imag)


def score_matrix(
    q: object,
    k: object,
    query_positions: object,
    key_positions: object,
    *,
    base: float = 10000.0,
    inv_freq: object | None = None,
    convention: str = "interleaved",
) -> np.ndarray:
    """Scores ``S[a, b] = <R(m_a) q, R(n_b) k>`` of one query and one key placed at many positions.

    Each entry is :func:`score` ``(q, k, m_a, n_b)``. Because the score depends only on ``m - n`` (RoFormer,
    Su et al. 2021, arXiv:2104.09864, sec. 3.2), every diagonal of ``S`` is constant when both position lists
    are the same evenly spaced grid: ``S`` is then a Toeplitz matrix.

    Parameters
    ----------
    q, k : array_like
        Shape ``(dim,)`` each; finite.
    query_positions, key_positions : array_like
        1-D (or scalar) positions ``m_a`` and ``n_b``; finite, may be fractional.
    base, inv_freq, convention
        As in :func:`rope_viz.rotate`.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(query_positions), len(key_positions))``, float64.

    Raises
    ------
    ValueError
        As :func:`score`, and if a position array has more than one axis.

    """
    q, k = check_vector_pair(q, k)
    query_positions = check_positions(query_positions, "query_positions")
    key_positions = check_positions(key_positions, "key_positions")
    options = {"base": base, "inv_freq": inv_freq, "convention": convention}
    queries = rotate(np.broadcast_to(q, (query_positions.size, q.size)), query_positions, **options)
    keys = rotate(np.broadcast_to(k, (key_positions.size, k.size)), key_positions, **options)
    return queries @ keys.T


def decay_bound(distances: object, dim: int, base: float = 10000.0) -> np.ndarray:
    """RoFormer's relative upper bound on the score at relative distance ``r`` (Su et al. 2021, sec. 3.4.3).

    With ``h_i = q_i conj(k_i)`` (``h_{d/2} = 0``) and the partial sums of the pairs' phases
    ``S_j = sum_{k=0}^{j-1} exp(1j r theta_k)``, Abel summation gives (arXiv:2104.09864, sec. 3.4.3)

        |sum_i h_i exp(1j r theta_i)| <= (max_i |h_{i+1} - h_i|) * sum_{j=1}^{d/2} |S_j|,

    and the score is the real part of the left side. The content-free factor, divided by ``d/2`` and plotted
    in the paper's Figure 2, is the relative bound

        B(r) = (1 / (d/2)) * sum_{j=1}^{d/2} |S_j|,

    which equals ``(d/2 + 1) / 2`` at ``r = 0`` and shrinks, not monotonically, as ``|r|`` grows. It does not
    depend on the pairing convention.

    Parameters
    ----------
    distances : array_like
        Relative distances ``r``, any shape; finite, may be fractional.
    dim : int
        Head dimension ``d``; even, >= 2.
    base : float, default 10000.0
        Frequency base; finite, > 1.

    Returns
    -------
    numpy.ndarray
        Same shape as ``distances``, float64.

    Raises
    ------
    ValueError
        If ``dim`` is odd or < 2, ``base`` is not a finite number > 1, or a distance is not finite.

    Examples
    --------
    >>> print(decay_bound([0.0], 8))
    [2.5]

    """
    dim = check_dim(dim)
    base = check_base(base)
    distances = check_finite(distances, "distances")
    return relative_bound(distances, _inv_freq(dim, base))


def expected_self_score(distances: object, dim: int, base: float = 10000.0) -> np.ndarray:
    """Return the expected score of a vector with itself at relative distance ``r``, for ``q ~ N(0, I_d)``.

    Implements ``E[<R(r) q, q>] = sum_i E[q_a^2 + q_b^2] cos(r theta_i) = 2 sum_{i<d/2} cos(r theta_i)``,
    since pair ``i`` contributes ``(q_a^2 + q_b^2) cos(r theta_i)`` and ``E[q_a^2] = 1``; ``theta_i`` as in
    RoFormer (Su et al. 2021, arXiv:2104.09864, sec. 3.2.2). It equals ``d`` at ``r = 0``. For independent
    ``q`` and ``k`` the expectation is 0 at every distance. Does not depend on the pairing convention.

    Parameters
    ----------
    distances : array_like
        Relative distances ``r``, any shape; finite.
    dim : int
        Head dimension ``d``; even, >= 2.
    base : float, default 10000.0
        Frequency base; finite, > 1.

    Returns
    -------
    numpy.ndarray
        Same shape as ``distances``, float64.

    Raises
    ------
    ValueError
        If ``dim`` is odd or < 2, ``base`` is not a finite number > 1, or a distance is not finite.

    Examples
    --------
    >>> print(expected_self_score([0.0], 8))
    [8.]

    """
    dim = check_dim(dim)
    base = check_base(base)
    distances = check_finite(distances, "distances")
    theta = _inv_freq(dim, base)
    return 2.0 * np.cos(np.multiply.outer(distances, theta)).sum(axis=-1)


__all__ = [
    "decay_bound",
    "expected_self_score",
    "relative_scores",
    "score",
    "score_matrix",
]
