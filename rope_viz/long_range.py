"""How RoPE scores behave with distance: RoFormer's Abel-summation bound, phase alignment, score statistics.

With ``h_i = q_i conj(k_i)`` (pair ``i`` of ``q`` and ``k`` as complex numbers, as in :mod:`rope_viz.scores`)
the score at relative distance ``r = m - n`` is ``score(r) = Re[sum_i h_i exp(1j r theta_i)]``. RoFormer
(Su et al. 2021, arXiv:2104.09864, sec. 3.4.3) rewrites the sum by Abel summation with the partial sums
``S_j(r) = sum_{i<j} exp(1j r theta_i)`` and bounds it by ``max_i |h_{i+1} - h_i| * sum_{j=1}^{d/2}
|S_j(r)|``. This module adds, beyond :func:`rope_viz.decay_bound` and :func:`rope_viz.expected_self_score`:

* the bound for any frequencies and for a given ``q`` and ``k`` (:func:`relative_bound`, :func:`abel_bound`);
* how well the pairs' rotations stay in step (:func:`phase_coherence`), the reason for the decay;
* the mean and spread of the score of Gaussian random ``q`` and ``k`` with a chosen correlation
  (:func:`score_statistics`), and a Monte-Carlo check of them (:func:`monte_carlo_scores`);
* small helpers to find where a curve rises again (:func:`local_maxima`) or first falls below a level.
"""

from __future__ import annotations

import numpy as np

from rope_viz._validation import (
    check_base,
    check_dim,
    check_finite,
    check_frequencies,
    check_vector_pair,
)
from rope_viz.frequencies import inv_freq as _inv_freq
from rope_viz.phases import pair_products, partial_sums, phases, relative_bound
from rope_viz.rotation import resolve_inv_freq

__all__ = [
    "abel_bound",
    "abel_factor",
    "complex_score_magnitude",
    "first_below",
    "local_maxima",
    "monte_carlo_scores",
    "pair_products",
    "partial_sum_walk",
    "partial_sums",
    "phase_coherence",
    "relative_bound",
    "score_statistics",
]


def abel_factor(q: object, k: object, convention: str = "interleaved") -> float:
    """Return the content factor of RoFormer's bound, ``max_i |h_{i+1} - h_i|`` with ``h_{d/2} = 0``.

    Implements the first factor of ``|sum_i h_i exp(1j r theta_i)| <= (max_i |h_{i+1} - h_i|) sum_j |S_j(r)|``
    (Su et al. 2021, arXiv:2104.09864, sec. 3.4.3). Because ``h_{d/2} = 0``, the last difference is
    ``|h_{d/2-1}|``.

    Parameters
    ----------
    q, k : array_like
        Shape ``(dim,)`` each; finite.
    convention : {"interleaved", "half"}
        Pairing convention.

    Returns
    -------
    float

    Examples
    --------
    >>> abel_factor([1.0, 0.0, 3.0, 0.0], [1.0, 0.0, 1.0, 0.0])
    3.0

    """
    h = np.append(pair_products(q, k, convention), 0.0)  # (d/2 + 1,) with h_{d/2} = 0
    return float(np.abs(np.diff(h)).max())


def abel_bound(
    q: object,
    k: object,
    distances: object,
    *,
    base: float = 10000.0,
    inv_freq: object | None = None,
    convention: str = "interleaved",
) -> np.ndarray:
    """Compute RoFormer's bound on ``|score|`` for given q, k: ``max_i |h_{i+1} - h_i| sum_j |S_j(r)|``.

    Implements the right-hand side of (Su et al. 2021, arXiv:2104.09864, sec. 3.4.3)

        |score(r)| <= |sum_i h_i exp(1j r theta_i)| <= (max_i |h_{i+1} - h_i|) * sum_{j=1}^{d/2} |S_j(r)|,

    which equals ``abel_factor(q, k) * (d/2) * relative_bound(r)``.

    Parameters
    ----------
    q, k : array_like
        Shape ``(dim,)`` each; finite.
    distances : array_like
        Relative distances ``r = m - n``, any shape; finite.
    base, inv_freq, convention
        As in :func:`rope_viz.rotate`.

    Returns
    -------
    numpy.ndarray
        Same shape as ``distances``, float64.

    """
    q, k = check_vector_pair(q, k)
    frequencies = resolve_inv_freq(q.shape[0], base, inv_freq)
    sums = np.abs(partial_sums(distances, frequencies)).sum(axis=-1)
    return abel_factor(q, k, convention) * sums


def complex_score_magnitude(
    q: object,
    k: object,
    distances: object,
    *,
    base: float = 10000.0,
    inv_freq: object | None = None,
    convention: str = "interleaved",
) -> np.ndarray:
    """Return the middle term of RoFormer's chain of inequalities, ``|sum_i h_i exp(1j r theta_i)|``.

    Implements the modulus of the complex score of Su et al. 2021 (arXiv:2104.09864, sec. 3.4.3); the real
    score is its real part, so ``|score(r)| <= complex_score_magnitude(r) <= abel_bound(r)``.

    Parameters
    ----------
    q, k : array_like
        Shape ``(dim,)`` each; finite.
    distances : array_like
        Relative distances, any shape; finite.
    base, inv_freq, convention
        As in :func:`rope_viz.rotate`.

    Returns
    -------
    numpy.ndarray
        Same shape as ``distances``, float64.

    """
    q, k = check_vector_pair(q, k)
    frequencies = resolve_inv_freq(q.shape[0], base, inv_freq)
    return np.abs(np.einsum("...j,j->...", phases(distances, frequencies), pair_products(q, k, convention)))


def phase_coherence(distances: object, inv_freq: object) -> np.ndarray:
    """Measure how well the pairs' rotations stay in step: ``|mean_i exp(1j r theta_i)|``.

    Implements ``C(r) = |S_{d/2}(r)| / (d/2)``: 1 at ``r = 0``, where every pair has turned by 0, and small
    once the pairs point in scattered directions, so that their contributions to a score cancel. This is the
    mechanism behind RoPE's long-range decay (Su et al. 2021, arXiv:2104.09864, sec. 3.4.3).

    Parameters
    ----------
    distances : array_like
        Relative distances, any shape; finite.
    inv_freq : array_like
        Shape ``(d/2,)``: positive frequencies.

    Returns
    -------
    numpy.ndarray
        Same shape as ``distances``, float64, in ``[0, 1]``.

    Examples
    --------
    Two pairs half a turn apart cancel:

    >>> print(phase_coherence([0.0, np.pi], [1.0, 2.0]).round(6) + 0.0)
    [1. 0.]

    """
    return np.abs(phases(distances, check_frequencies(inv_freq)).mean(axis=-1))


def score_statistics(
    distances: object, dim: int, base: float = 10000.0, correlation: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard deviation of the score at distance ``r`` for correlated Gaussian ``q`` and ``k``.

    With ``q ~ N(0, I_d)`` and ``k = c q + sqrt(1 - c^2) xi``, ``xi ~ N(0, I_d)`` independent, and
    ``theta_i = base ** (-2i/d)`` (RoFormer, Su et al. 2021, arXiv:2104.09864), pair ``i`` contributes
    ``c |q_i|^2 cos(r theta_i) + sqrt(1 - c^2) Re[q_i conj(xi_i) exp(1j r theta_i)]``, so

        E[score(r)]   = 2 c sum_i cos(r theta_i)
        Var[score(r)] = sum_i (4 c^2 cos^2(r theta_i) + 2 (1 - c^2))

    (``|q_i|^2`` is chi-squared with 2 degrees of freedom: mean 2, variance 4). For ``c = 1`` (``k = q``)
    the mean is :func:`rope_viz.expected_self_score`; for ``c = 0`` the mean is 0 and the variance ``d`` at
    every distance.

    Parameters
    ----------
    distances : array_like
        Relative distances ``r``, any shape; finite.
    dim : int
        Head dimension ``d``; even, >= 2.
    base : float, default 10000.0
        Frequency base; finite, > 1.
    correlation : float, default 0.0
        ``c`` in ``[-1, 1]``.

    Returns
    -------
    mean, std : numpy.ndarray
        Each of the shape of ``distances``, float64.

    Examples
    --------
    >>> mean, std = score_statistics([0.0, 100.0], 64, correlation=0.0)
    >>> print(mean, std)
    [0. 0.] [8. 8.]

    """
    dim = check_dim(dim)
    base = check_base(base)
    c = float(check_finite(correlation, "correlation"))
    if not -1.0 <= c <= 1.0:
        raise ValueError(f"correlation must lie in [-1, 1], got {c}")
    cos = np.cos(np.multiply.outer(check_finite(distances, "distances"), _inv_freq(dim, base)))  # (..., d/2)
    mean = 2.0 * c * cos.sum(axis=-1)
    variance = (4.0 * c**2 * cos**2 + 2.0 * (1.0 - c**2)).sum(axis=-1)
    return mean, np.sqrt(variance)


def monte_carlo_scores(
    distances: object,
    dim: int,
    base: float = 10000.0,
    *,
    correlation: float = 0.0,
    samples: int = 1000,
    seed: int = 0,
) -> np.ndarray:
    """Score ``samples`` random Gaussian pairs ``(q, k)`` at each distance, to check :func:`score_statistics`.

    Draws ``q, xi ~ N(0, I_d)``, sets ``k = c q + sqrt(1 - c^2) xi`` and evaluates
    ``score(r) = Re[sum_i h_i exp(1j r theta_i)]`` with ``h_i = q_i conj(k_i)`` (interleaved pairs; the
    statistics do not depend on the convention) and ``theta_i = base ** (-2i/d)`` (RoFormer, Su et al. 2021,
    arXiv:2104.09864, sec. 3.4.3).

    Parameters
    ----------
    distances : array_like
        1-D relative distances; finite.
    dim : int
        Head dimension; even, >= 2.
    base : float, default 10000.0
        Frequency base; finite, > 1.
    correlation : float, default 0.0
        ``c`` in ``[-1, 1]``.
    samples : int, default 1000
        Number of random pairs, >= 1.
    seed : int, default 0
        Seed of :func:`numpy.random.default_rng`.

    Returns
    -------
    numpy.ndarray
        Shape ``(samples, len(distances))``, float64.

    """
    dim = check_dim(dim)
    base = check_base(base)
    distances = check_finite(distances, "distances")
    if distances.ndim != 1:
        raise ValueError(f"distances must be 1-D, got shape {distances.shape}")
    c = float(check_finite(correlation, "correlation"))
    if not -1.0 <= c <= 1.0:
        raise ValueError(f"correlation must lie in [-1, 1], got {c}")
    if int(samples) < 1:
        raise ValueError(f"samples must be >= 1, got {samples}")
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((int(samples), dim))
    k = c * q + np.sqrt(1.0 - c**2) * rng.standard_normal((int(samples), dim))
    h = (q[:, 0::2] + 1j * q[:, 1::2]) * np.conj(k[:, 0::2] + 1j * k[:, 1::2])  # (samples, d/2)
    phases = np.exp(1j * np.multiply.outer(distances, _inv_freq(dim, base)))  # (R, d/2)
    return (h @ phases.T).real


def local_maxima(values: object) -> np.ndarray:
    """Return the indices where a sampled curve stops rising: ``values[i - 1] < values[i] >= values[i + 1]``.

    Implements the discrete local-maximum test on interior samples (the end points are never reported). On a
    decaying curve such as :func:`relative_bound`, each local maximum marks the top of a rise, where the curve
    is *not* monotone.

    Parameters
    ----------
    values : array_like
        1-D samples; finite.

    Returns
    -------
    numpy.ndarray
        Indices, int64, increasing.

    Examples
    --------
    >>> local_maxima([3.0, 2.0, 2.5, 1.0, 1.5, 1.5, 0.0])
    array([2, 4])

    """
    y = check_finite(values, "values")
    if y.ndim != 1:
        raise ValueError(f"values must be 1-D, got shape {y.shape}")
    if y.size < 3:
        return np.zeros(0, dtype=np.int64)
    inner = (y[1:-1] > y[:-2]) & (y[1:-1] >= y[2:])
    return np.flatnonzero(inner).astype(np.int64) + 1


def first_below(distances: object, values: object, level: float) -> float | None:
    """Return the first distance at which a sampled curve is below ``level``, or ``None`` if it never is.

    Implements ``min{ r_j : values_j < level }`` over the samples in the given order (no interpolation).

    Parameters
    ----------
    distances, values : array_like
        1-D, same length; finite.
    level : float
        Threshold.

    Returns
    -------
    float or None

    Examples
    --------
    >>> first_below([0, 1, 2, 3], [4.0, 3.0, 1.0, 2.0], 2.0)
    2.0

    """
    r = check_finite(distances, "distances")
    y = check_finite(values, "values")
    if r.ndim != 1 or r.shape != y.shape:
        raise ValueError(f"distances and values must be 1-D of the same length, got {r.shape} and {y.shape}")
    below = np.flatnonzero(y < level)
    return float(r[below[0]]) if below.size else None


def partial_sum_walk(distances: object, inv_freq: object) -> np.ndarray:
    """Return the stops of the walk of RoFormer's partial sums, ``S_0(r) = 0, S_1(r), ..., S_{d/2}(r)``.

    Implements ``S_j(r) = sum_{i=0}^{j-1} exp(1j r theta_i)`` for ``j = 0 .. d/2`` (Su et al. 2021,
    arXiv:2104.09864, sec. 3.4.3), starting at ``S_0 = 0``: the walk takes the pairs' unit arrows one after
    the other, step ``i`` going from ``S_i`` to ``S_{i+1} = S_i + exp(1j r theta_i)``. Its last stop is the
    full sum, whose length is ``(d/2) C(r)`` (:func:`phase_coherence`); the mean distance of the stops
    ``S_1 .. S_{d/2}`` from the origin is ``B(r)`` (:func:`relative_bound`), and ``|S_j(r)| <= j``.

    Parameters
    ----------
    distances : array_like
        Relative distances ``r = m - n``, any shape (a scalar gives one walk); finite.
    inv_freq : array_like
        Shape ``(d/2,)``: positive frequencies ``theta_i`` in radians per token.

    Returns
    -------
    numpy.ndarray
        Shape ``distances.shape + (d/2 + 1,)``, complex128; entry ``[..., j]`` is ``S_j``.

    Examples
    --------
    At ``r = 0`` every arrow is 1 and the walk runs straight along the real axis:

    >>> print(partial_sum_walk(0.0, [1.0, 0.1, 0.01]).real)
    [0. 1. 2. 3.]

    """
    sums = partial_sums(distances, inv_freq)  # (..., d/2)
    start = np.zeros((*sums.shape[:-1], 1), dtype=sums.dtype)
    return np.concatenate([start, sums], axis=-1)
