"""Is a score a function of the offset ``m - n`` alone? Score grids for three schemes, and a Toeplitz test.

A score grid ``G[a, b] = score(m_a, n_b)`` over one evenly spaced list of positions is *Toeplitz* (constant
along every diagonal) exactly when the score depends on the positions only through ``m - n``. RoPE's grids are
(:func:`rope_viz.score_matrix`; Su et al. 2021, arXiv:2104.09864, sec. 3.2); the grids of added sinusoidal
embeddings (:func:`additive_score_matrix`, Vaswani et al. 2017) and of the element-wise sin/cos product
(:func:`rope_viz.mistakes.sincos_product_score_matrix`) are not. :func:`diagonal_spread` measures by how much.
"""

from __future__ import annotations

import random

import numpy as np

from rope_viz._validation import check_dim, check_finite, check_positions, check_real_array
from rope_viz.position_schemes import sinusoidal_embeddings


def gaussian_vectors_from_python_random(seed: int = 1, dim: int = 8, count: int = 2) -> list[np.ndarray]:
    """Draw ``count`` vectors of ``dim`` standard normal numbers with Python's :mod:`random`, seeded.

    Implements ``[[random.gauss(0, 1) for _ in range(dim)] for _ in range(count)]`` after
    ``random.seed(seed)``, on a private generator (the global one is left alone). With the defaults this
    gives the ``q`` and ``k`` of a widely shared worked example of RoPE (``d = 8``), so the course can
    reproduce its printed scores.

    Parameters
    ----------
    seed : int, default 1
        Seed of :class:`random.Random`.
    dim : int, default 8
        Entries per vector, >= 1.
    count : int, default 2
        Number of vectors, >= 1.

    Returns
    -------
    list of numpy.ndarray
        ``count`` arrays of shape ``(dim,)``, float64, drawn one after another.

    Examples
    --------
    >>> q, k = gaussian_vectors_from_python_random()
    >>> print(f"{q @ k:.6f}")
    1.943698

    """
    if int(dim) < 1 or int(count) < 1:
        raise ValueError(f"dim and count must be >= 1, got dim={dim}, count={count}")
    generator = random.Random(seed)
    return [np.array([generator.gauss(0.0, 1.0) for _ in range(int(dim))]) for _ in range(int(count))]


def additive_score_matrix(
    q: object, k: object, query_positions: object, key_positions: object, base: float = 10000.0
) -> np.ndarray:
    """Scores ``G[a, b] = <q + PE(m_a), k + PE(n_b)>`` when sinusoidal embeddings are added to fixed content.

    Implements the score of a query and a key whose content is the same at every position and to which the
    sinusoidal embedding ``PE(m)`` of Vaswani et al. 2017 (sec. 3.5) is added (projection matrices taken as
    the identity). Expanding,

        score(m, n) = <q, k> + <q, PE(n)> + <PE(m), k> + sum_i cos((m - n) theta_i),

    only the first and last terms depend on ``m - n`` alone: the two cross terms carry the absolute positions.

    Parameters
    ----------
    q, k : array_like
        Shape ``(dim,)`` each; finite, ``dim`` even.
    query_positions, key_positions : array_like
        1-D (or scalar) positions; finite.
    base : float, default 10000.0
        Frequency base of the embeddings; finite, > 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(query_positions), len(key_positions))``, float64.

    Examples
    --------
    With zero content the score is ``sum_i cos((m - n) theta_i)``, here ``cos(1)`` for one pair:

    >>> print(additive_score_matrix([0.0, 0.0], [0.0, 0.0], [1.0], [0.0]).round(6))
    [[0.540302]]

    """
    q = check_real_array(q, "q").astype(np.float64, copy=False)
    k = check_real_array(k, "k").astype(np.float64, copy=False)
    if q.ndim != 1 or q.shape != k.shape:
        raise ValueError(
            f"q and k must be vectors of the same size (dim,), got shapes {q.shape} and {k.shape}"
        )
    dim = check_dim(q.shape[0], "the size of q and k (dim)")
    queries = q + sinusoidal_embeddings(check_positions(query_positions, "query_positions"), dim, base)
    keys = k + sinusoidal_embeddings(check_positions(key_positions, "key_positions"), dim, base)
    return queries @ keys.T


def offsets(query_positions: object, key_positions: object) -> np.ndarray:
    """Return the offset ``m_a - n_b`` of every cell of a score grid.

    Implements ``O[a, b] = m_a - n_b``.

    Parameters
    ----------
    query_positions, key_positions : array_like
        1-D (or scalar) positions; finite.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(query_positions), len(key_positions))``, float64.

    Examples
    --------
    >>> offsets([0, 1], [0, 1])
    array([[ 0., -1.],
           [ 1.,  0.]])

    """
    m = check_positions(query_positions, "query_positions")
    n = check_positions(key_positions, "key_positions")
    return np.subtract.outer(m, n)


def diagonal_spread(scores: object) -> np.ndarray:
    """For every diagonal of a square score grid, the range ``max - min`` of the scores along it.

    Implements ``D[t] = max_j S[j + t, j] - min_j S[j + t, j]`` for offsets ``t = -(N-1) .. N-1`` (diagonal
    ``t`` holds the cells with row minus column equal to ``t``; with the same evenly spaced positions for rows
    and columns, that is one value of ``m - n``). All zeros (up to rounding) exactly when the grid is
    Toeplitz, i.e. when the score depends only on ``m - n``.

    Parameters
    ----------
    scores : array_like
        Shape ``(N, N)``; finite.

    Returns
    -------
    numpy.ndarray
        Shape ``(2N - 1,)``, float64; entry ``t + N - 1`` belongs to offset ``t`` (the 1-cell corners give 0).

    Examples
    --------
    >>> diagonal_spread([[1.0, 2.0], [3.0, 1.5]])
    array([0. , 0.5, 0. ])

    """
    grid = check_finite(scores, "scores")
    if grid.ndim != 2 or grid.shape[0] != grid.shape[1]:
        raise ValueError(f"scores must be a square matrix, got shape {grid.shape}")
    size = grid.shape[0]
    spreads = np.empty(2 * size - 1)
    for t in range(-(size - 1), size):
        diagonal = np.diagonal(grid, offset=-t)  # cells (j + t, j)
        spreads[t + size - 1] = diagonal.max() - diagonal.min()
    return spreads


__all__ = ["additive_score_matrix", "diagonal_spread", "gaussian_vectors_from_python_random", "offsets"]
