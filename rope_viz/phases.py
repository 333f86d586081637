"""The complex-pair view of RoPE: pair products and the partial sums of the pairs' phases.

Pair ``i`` of a vector, ``(x_a, x_b)`` under the pairing convention, is the complex number ``x_a + 1j x_b``.
With ``h_i = q_i conj(k_i)`` the score at relative distance ``r = m - n`` is
``s(r) = Re[sum_i h_i exp(1j r theta_i)]`` (RoFormer, Su et al. 2021, arXiv:2104.09864, sec. 3.4.3), and
RoFormer's decay bound is built from the partial sums ``S_j(r) = sum_{i<j} exp(1j r theta_i)``. The score and
bound functions of :mod:`rope_viz.scores` and :mod:`rope_viz.long_range` all rest on this module.
"""

from __future__ import annotations

import numpy as np

from rope_viz._validation import check_convention, check_finite, check_frequencies, check_vector_pair


def phases(distances: object, frequencies: np.ndarray) -> np.ndarray:
    """Return ``exp(1j r theta_i)`` for every distance and pair; shape ``distances.shape + (d/2,)``."""
    distances = check_finite(distances, "distances")
    return np.exp(1j * np.multiply.outer(distances, frequencies))


def pair_products(q: object, k: object, convention: str = "interleaved") -> np.ndarray:
    """Return the complex pair products ``h_i = q_i conj(k_i)`` whose phases RoPE turns by ``r theta_i``.

    Implements ``h_i = (q_a + 1j q_b)(k_a - 1j k_b)`` for pair ``(a, b)`` of ``convention`` (``(2i, 2i+1)``
    interleaved, ``(i, i + d/2)`` half), so that ``score(r) = Re[sum_i h_i exp(1j r theta_i)]`` (RoFormer,
    Su et al. 2021, arXiv:2104.09864, sec. 3.4.3).

    Parameters
    ----------
    q, k : array_like
        Shape ``(dim,)`` each; finite.
    convention : {"interleaved", "half"}
        Pairing convention.

    Returns
    -------
    numpy.ndarray
        Shape ``(dim // 2,)``, complex128.

    Examples
    --------
    >>> pair_products([1.0, 2.0], [3.0, 4.0])
    array([11.+2.j])

    """
    convention = check_convention(convention)
    q, k = check_vector_pair(q, k)
    half = q.shape[0] // 2
    if convention == "interleaved":
        qc, kc = q[0::2] + 1j * q[1::2], k[0::2] + 1j * k[1::2]
    else:
        qc, kc = q[:half] + 1j * q[half:], k[:half] + 1j * k[half:]
    return qc * np.conj(kc)


def partial_sums(distances: object, inv_freq: object) -> np.ndarray:
    """RoFormer's partial sums of the pairs' phases, ``S_j(r) = sum_{i=0}^{j-1} exp(1j r theta_i)``.

    Implements ``S_j`` for ``j = 1 .. d/2`` (Su et al. 2021, arXiv:2104.09864, sec. 3.4.3; ``S_0 = 0`` is left
    out). ``|S_j(0)| = j``: at distance 0 all phases are 1 and add up.

    Parameters
    ----------
    distances : array_like
        Relative distances ``r``, any shape; finite.
    inv_freq : array_like
        Shape ``(d/2,)``: positive frequencies ``theta_i`` in radians per token.

    Returns
    -------
    numpy.ndarray
        Shape ``distances.shape + (d/2,)``, complex128; entry ``[..., j - 1]`` is ``S_j``.

    """
    return np.cumsum(phases(distances, check_frequencies(inv_freq)), axis=-1)


def relative_bound(distances: object, inv_freq: object) -> np.ndarray:
    """Compute RoFormer's content-free bound ``B(r) = (1/(d/2)) sum_{j=1}^{d/2} |S_j(r)|`` for any theta_i.

    Implements the quantity of Su et al. 2021 (arXiv:2104.09864, sec. 3.4.3, Figure 2) with the given
    frequencies; :func:`rope_viz.decay_bound` is the case ``theta_i = base ** (-2i/d)``. ``B(0) =
    (d/2 + 1)/2``.

    Parameters
    ----------
    distances : array_like
        Relative distances ``r``, any shape; finite.
    inv_freq : array_like
        Shape ``(d/2,)``: positive frequencies, e.g. :func:`rope_viz.inv_freq` or a scaled set.

    Returns
    -------
    numpy.ndarray
        Same shape as ``distances``, float64.

    Examples
    --------
    >>> print(relative_bound([0.0], [1.0, 0.1, 0.01, 0.001]))
    [2.5]

    """
    return np.abs(partial_sums(distances, inv_freq)).mean(axis=-1)
