"""Broken RoPE implementations that circulate in tutorials, kept so the course can show exactly how they fail.

**Every function in this module is wrong on purpose.** None of them is used by the rest of the package; each
docstring says what the code does, what it should do instead and which property breaks. The correct versions
are :func:`rope_viz.rotate`, :func:`rope_viz.score` and :func:`rope_viz.inv_freq`.

* :func:`sincos_table` and :func:`sincos_product`: multiply a vector element by element with the concatenation
  ``[sin(m theta), cos(m theta)]``. This is *not* a rotation: lengths change, a coordinate is wiped out
  wherever its sine or cosine is zero (the whole first half at ``m = 0``), the two members of a pair are
  never mixed, and the score of a query and a key depends on ``m + n`` as well as on ``m - n``.
* :func:`score_sign_flipped_on_key`: the query is turned by ``+m theta`` and the key by ``-n theta``. The
  score then depends on ``m + n`` instead of ``m - n``. (Flipping the sign for *both* keeps the score
  relative: the score at ``(m, n)`` becomes the usual score at ``(n, m)``, a function of the offset alone,
  mirrored. Weights trained with the usual sign then read every past key as a future one.)
* :func:`inv_freq_wrong_exponent`: the frequency schedule with a lost minus sign or a lost factor 2.
"""

from __future__ import annotations

import numpy as np

from rope_viz._validation import check_base, check_dim, check_finite, check_positions, check_real_array
from rope_viz.rotation import rotate

#: The slips :func:`inv_freq_wrong_exponent` knows, with the formula each one computes.
WRONG_EXPONENTS = {
    "lost_minus": "theta_i = base ** (+2i/d)",
    "lost_two": "theta_i = base ** (-i/d)",
}


def _vector(x: object, name: str) -> np.ndarray:
    array = check_real_array(x, name).astype(np.float64, copy=False)
    if array.ndim != 1:
        raise ValueError(f"{name} must be a vector of shape (dim,), got shape {array.shape}")
    check_dim(array.shape[0], f"the size of {name}")
    return array


def sincos_table(positions: object, dim: int, base: float = 10000.0) -> np.ndarray:
    """WRONG ON PURPOSE: the "embeddings" of the element-wise product, ``[sin(m theta), cos(m theta)]``.

    Implements, for ``i = 0 .. d/2 - 1`` and ``theta_i = base ** (-2i/d)``::

        E[m, i]       = sin(m theta_i)
        E[m, i + d/2] = cos(m theta_i)

    the sines of all pairs followed by their cosines. The table itself is harmless (it holds the cos and sin a
    rotation needs); the mistake is what :func:`sincos_product` does with it.

    Parameters
    ----------
    positions : array_like
        Positions ``m``, shape ``(seq,)`` or a scalar; finite.
    dim : int
        Vector size ``d``; even, >= 2.
    base : float, default 10000.0
        Frequency base; finite, > 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(seq, dim)``, float64.

    Examples
    --------
    At ``m = 0`` every sine is 0 and every cosine is 1:

    >>> sincos_table([0], 4)
    array([[0., 0., 1., 1.]])

    """
    dim = check_dim(dim)
    base = check_base(base)
    positions = check_positions(positions)
    theta = base ** -(np.arange(0, dim, 2, dtype=np.float64) / dim)  # (d/2,)
    angle = np.multiply.outer(positions, theta)  # (seq, d/2)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=-1)


def sincos_product(x: object, table: object) -> np.ndarray:
    """WRONG ON PURPOSE: multiply every vector element-wise with its row of the sin/cos table.

    Implements ``y[b, n, j] = x[b, n, j] * E[n, j]`` (``einsum("bnd,nd->bnd")``), with ``E`` from
    :func:`sincos_table`. Each output coordinate is one input coordinate times a number in ``[-1, 1]``, so:

    * lengths change (``|y| <= |x|``, with equality only by accident);
    * at ``m = 0`` the sine half of ``x`` becomes 0, and wherever a sine or cosine is near 0 its coordinate is
      (nearly) lost: the map cannot be undone there;
    * the two members of a pair are never mixed, so nothing is rotated;
    * ``<q * E[m], k * E[n]>`` depends on ``m + n`` as well as on ``m - n`` (see
      :func:`sincos_product_score`).

    A rotation by ``m theta_i`` would instead compute ``x_a cos - x_b sin`` and ``x_a sin + x_b cos`` for
    every pair ``(a, b)`` (:func:`rope_viz.rotate`). Like the einsum, the rows of ``table`` are paired with
    the *second* axis of ``x``, and the shapes are matched as the einsum matches them: the second and third
    axes of ``x`` must each have the length of the table's axis, or one of the two must have length 1, which
    is then repeated to the other's length (broadcast). So a table precomputed for 512 positions does not fit
    an input of 10 positions, but it does fit an input whose second axis has length 1: that single vector
    comes back 512 times, each copy multiplied by a different row. Fed inputs laid out sequence first,
    ``(seq, batch, dim)``, as ``torch.nn.MultiheadAttention`` takes them by default (``batch_first=False``),
    the second axis is the batch: every position of a sequence then gets the same row, the one of its index
    in the batch, and a batch of one sequence is copied once for each row of the table.

    Parameters
    ----------
    x : array_like
        Shape ``(batch, seq, dim)``; finite.
    table : array_like
        Shape ``(seq, dim)``, e.g. ``sincos_table(np.arange(seq), dim)``, or one that broadcasts with
        ``x.shape[1:]``.

    Returns
    -------
    numpy.ndarray
        Shape ``(batch, seq, dim)``, with ``seq`` and ``dim`` the broadcast lengths, float64.

    Raises
    ------
    ValueError
        If ``x`` is not 3-D, ``table`` is not 2-D, or their shapes do not broadcast as above.

    Examples
    --------
    >>> sincos_product(np.ones((1, 1, 4)), sincos_table([0], 4))
    array([[[0., 0., 1., 1.]]])

    One vector and a table of three rows: the vector is copied, one copy per row.

    >>> sincos_product(np.ones((1, 1, 2)), sincos_table([0, 1, 2], 2)).round(3)
    array([[[ 0.   ,  1.   ],
            [ 0.841,  0.54 ],
            [ 0.909, -0.416]]])

    """
    x = check_real_array(x, "x").astype(np.float64, copy=False)
    table = check_real_array(table, "table").astype(np.float64, copy=False)
    if x.ndim != 3:
        raise ValueError(f"x must have shape (batch, seq, dim), got shape {x.shape}")
    if table.ndim != 2 or any(
        a != b and 1 not in (a, b) for a, b in zip(x.shape[1:], table.shape, strict=True)
    ):
        raise ValueError(
            f"table must have shape (seq, dim) = {x.shape[1:]} to match x of shape {x.shape}, or an axis of "
            f"length 1 where x has another (einsum broadcasts it), got shape {table.shape}"
        )
    return np.einsum("bnd,nd->bnd", x, table)


def sincos_product_at(x: object, position: float, base: float = 10000.0) -> np.ndarray:
    """WRONG ON PURPOSE: :func:`sincos_product` for one vector at one position, ``y = x * E[m]``.

    Parameters
    ----------
    x : array_like
        Shape ``(dim,)``; finite, ``dim`` even.
    position : float
        Position ``m``; finite.
    base : float, default 10000.0
        Frequency base; finite, > 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(dim,)``, float64.

    Examples
    --------
    >>> sincos_product_at([3.0, 4.0], 0.0)
    array([0., 4.])

    """
    x = _vector(x, "x")
    table = sincos_table([position], x.shape[0], base)  # (1, d)
    return sincos_product(x[None, None, :], table)[0, 0]


def sincos_product_matrix(position: float, dim: int, base: float = 10000.0) -> np.ndarray:
    """WRONG ON PURPOSE: the matrix of the element-wise product at position ``m``, ``diag(E[m])``.

    Implements ``M(m) = diag(sin(m theta_0), ..., sin(m theta_{d/2-1}), cos(m theta_0), ...)``, so that
    ``sincos_product_at(x, m) == M(m) @ x``. A rotation matrix has off-diagonal ``-sin`` and ``sin`` entries
    that mix the two members of each pair; this one is diagonal, and it is singular wherever an entry is 0.

    Parameters
    ----------
    position : float
        Position ``m``; finite.
    dim : int
        Vector size; even, >= 2.
    base : float, default 10000.0
        Frequency base; finite, > 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(dim, dim)``, float64, diagonal.

    """
    return np.diag(sincos_table([position], dim, base)[0])


def sincos_product_score_matrix(
    q: object, k: object, query_positions: object, key_positions: object, base: float = 10000.0
) -> np.ndarray:
    """WRONG ON PURPOSE: scores ``S[a, b] = <q * E[m_a], k * E[n_b]>`` under the element-wise product.

    Implements ``S(m, n) = sum_i q_i k_i sin(m theta_i) sin(n theta_i)
    + sum_i q_{i+d/2} k_{i+d/2} cos(m theta_i) cos(n theta_i)``, which by the product-to-sum identities is

        S(m, n) = 1/2 sum_i (a_i + b_i) cos((m - n) theta_i) + 1/2 sum_i (b_i - a_i) cos((m + n) theta_i)

    with ``a_i = q_i k_i`` and ``b_i = q_{i+d/2} k_{i+d/2}``: unless ``a_i = b_i`` for every pair it depends
    on ``m + n``, so the diagonals of ``S`` are not constant.

    Parameters
    ----------
    q, k : array_like
        Shape ``(dim,)`` each; finite.
    query_positions, key_positions : array_like
        1-D (or scalar) positions; finite.
    base : float, default 10000.0
        Frequency base; finite, > 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(query_positions), len(key_positions))``, float64.

    """
    q, k = _vector(q, "q"), _vector(k, "k")
    if q.shape != k.shape:
        raise ValueError(f"q and k must have the same shape, got {q.shape} and {k.shape}")
    dim = q.shape[0]
    query_table = sincos_table(query_positions, dim, base)  # (M, d)
    key_table = sincos_table(key_positions, dim, base)  # (N, d)
    return (query_table * q) @ (key_table * k).T


def sincos_product_score(q: object, k: object, m: float, n: float, base: float = 10000.0) -> float:
    """WRONG ON PURPOSE: the score ``<q * E[m], k * E[n]>`` of one query and one key (see above).

    Implements one entry of :func:`sincos_product_score_matrix`.

    Examples
    --------
    The same offset, two different scores:

    >>> q = k = [1.0, 0.0]
    >>> print(f"{sincos_product_score(q, k, 1, 0):.4f} {sincos_product_score(q, k, 2, 1):.4f}")
    0.0000 0.7651

    """
    return float(sincos_product_score_matrix(q, k, [m], [n], base)[0, 0])


def score_sign_flipped_on_key(
    q: object,
    k: object,
    m: float,
    n: float,
    *,
    base: float = 10000.0,
    convention: str = "interleaved",
) -> float:
    """WRONG ON PURPOSE: the query is rotated by ``+m theta`` but the key by ``-n theta``.

    Implements ``s(m, n) = <R(m) q, R(-n) k> = q^T R(-m) R(-n) k = q^T R(-(m + n)) k``: the angles add instead
    of cancelling, so the score depends on ``m + n``, not on ``m - n``. The usual cause is two hand-written
    rotations (for example one from a formula with the opposite sign convention) applied to ``q`` and ``k``.
    Flipping the sign for both ``q`` and ``k`` keeps the score relative but mirrors the offset:
    ``<R(-m) q, R(-n) k>`` equals :func:`rope_viz.score` ``(q, k, n, m)``, so weights trained with the usual
    sign would read every past key as a future one.

    Parameters
    ----------
    q, k : array_like
        Shape ``(dim,)`` each; finite.
    m, n : float
        Positions of the query and the key; finite.
    base : float, default 10000.0
        Frequency base; finite, > 1.
    convention : {"interleaved", "half"}
        Pairing convention, as in :func:`rope_viz.rotate`.

    Returns
    -------
    float

    Examples
    --------
    >>> q = k = [1.0, 0.0]
    >>> print(f"{score_sign_flipped_on_key(q, k, 1, 0):.4f} {score_sign_flipped_on_key(q, k, 2, 1):.4f}")
    0.5403 -0.9900

    """
    q, k = _vector(q, "q"), _vector(k, "k")
    if q.shape != k.shape:
        raise ValueError(f"q and k must have the same shape, got {q.shape} and {k.shape}")
    m = float(check_finite(m, "m"))
    n = float(check_finite(n, "n"))
    options = {"base": base, "convention": convention}
    return float(rotate(q, m, **options) @ rotate(k, -n, **options))


def inv_freq_wrong_exponent(dim: int, base: float = 10000.0, mistake: str = "lost_minus") -> np.ndarray:
    """WRONG ON PURPOSE: the frequency schedule with a slip in its exponent.

    The correct schedule is ``theta_i = base ** (-2i/d)`` (:func:`rope_viz.inv_freq`). This returns

    * ``"lost_minus"``: ``theta_i = base ** (+2i/d)``, frequencies that *grow* with ``i`` up to almost
      ``base`` radians per token, far beyond the ``pi`` radians per token above which neighbouring tokens
      alias;
    * ``"lost_two"``: ``theta_i = base ** (-i/d)``, a schedule that stops about halfway, at
      ``base ** (-(d-2)/(2d))``, close to ``base ** (-1/2)``, so the slowest pair turns about ``sqrt(base)``
      times too fast.

    Parameters
    ----------
    dim : int
        Vector size; even, >= 2.
    base : float, default 10000.0
        Frequency base; finite, > 1.
    mistake : {"lost_minus", "lost_two"}
        Which slip.

    Returns
    -------
    numpy.ndarray
        Shape ``(dim // 2,)``, float64, radians per token.

    Examples
    --------
    >>> inv_freq_wrong_exponent(4, 100.0, "lost_minus")
    array([ 1., 10.])
    >>> inv_freq_wrong_exponent(4, 100.0, "lost_two")
    array([1.        , 0.31622777])

    """
    dim = check_dim(dim)
    base = check_base(base)
    i = np.arange(dim // 2, dtype=np.float64)
    if mistake == "lost_minus":
        return base ** (2.0 * i / dim)
    if mistake == "lost_two":
        return base ** (-i / dim)
    raise ValueError(f"mistake must be one of {tuple(WRONG_EXPONENTS)}, got {mistake!r}")


__all__ = [
    "WRONG_EXPONENTS",
    "inv_freq_wrong_exponent",
    "score_sign_flipped_on_key",
    "sincos_product",
    "sincos_product_at",
    "sincos_product_matrix",
    "sincos_product_score",
    "sincos_product_score_matrix",
    "sincos_table",
]
