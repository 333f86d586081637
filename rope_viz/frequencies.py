"""Rotation frequencies and wavelengths of RoPE.

Pair ``i`` of a ``d``-dimensional query or key turns by ``m * theta_i`` radians at position ``m``, with

    theta_i = base ** (-2 i / d),    i = 0, 1, ..., d/2 - 1

(Su et al. 2021, RoFormer: Enhanced Transformer with Rotary Position Embedding, arXiv:2104.09864, sec. 3.2.2,
where ``base = 10000``; Hugging Face calls ``base`` ``rope_theta`` and the array ``inv_freq``).
"""

from __future__ import annotations

import numpy as np

from rope_viz._validation import check_base, check_dim, check_finite, check_frequencies


def inv_freq(dim: int, base: float = 10000.0) -> np.ndarray:
    """Angular frequency of each rotation pair, in radians per token.

    Implements ``theta_i = base ** (-2 i / dim)`` for ``i = 0 .. dim/2 - 1`` (RoFormer, Su et al. 2021,
    arXiv:2104.09864, sec. 3.2.2). The pairing convention does not matter here: pair ``i`` has frequency
    ``theta_i`` in both layouts.

    Parameters
    ----------
    dim : int
        Rotated head dimension ``d``; even, >= 2.
    base : float, default 10000.0
        Frequency base ``b`` (Hugging Face ``rope_theta``); finite, > 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(dim // 2,)``, float64, strictly decreasing from ``theta_0 = 1``.

    Raises
    ------
    ValueError
        If ``dim`` is odd or < 2, or ``base`` is not a finite number > 1.

    Examples
    --------
    >>> inv_freq(8, base=10000.0)
    array([1.   , 0.1  , 0.01 , 0.001])

    """
    dim = check_dim(dim)
    base = check_base(base)
    exponents = np.arange(0, dim, 2, dtype=np.float64) / dim  # (d/2,)  2i/d
    return base**-exponents


def wavelengths(dim: int, base: float = 10000.0) -> np.ndarray:
    """Return the number of tokens after which each pair completes a full turn.

    Implements ``lambda_i = 2 pi / theta_i = 2 pi * base ** (2 i / dim)`` (the wavelengths of RoFormer's
    frequencies, Su et al. 2021, arXiv:2104.09864, sec. 3.2.2).

    Parameters
    ----------
    dim : int
        Rotated head dimension ``d``; even, >= 2.
    base : float, default 10000.0
        Frequency base (Hugging Face ``rope_theta``); finite, > 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(dim // 2,)``, float64, in tokens, increasing from ``2 pi``.

    Raises
    ------
    ValueError
        If ``dim`` is odd or < 2, or ``base`` is not a finite number > 1.

    Examples
    --------
    With ``d = 64`` the fastest pair turns every 6.3 tokens and the slowest every 47,117:

    >>> lam = wavelengths(64)
    >>> print(f"{lam[0]:.1f} {lam[16]:.0f} {lam[31]:,.0f}")
    6.3 628 47,117

    """
    return 2.0 * np.pi / inv_freq(dim, base)


def angles(positions: object, inv_freq: object) -> np.ndarray:
    """Rotation angle of every pair at every position: ``angles[..., i] = positions[...] * theta_i``.

    Implements ``phi_{m,i} = m * theta_i``, the angle by which :func:`rope_viz.rotate` turns pair ``i`` of a
    vector at position ``m`` (RoFormer, Su et al. 2021, arXiv:2104.09864, sec. 3.2.2). Computed in float64:
    at ``m = 10**5`` a float32 angle would already be off by ~4e-3 rad.

    Parameters
    ----------
    positions : array_like
        Shape ``(seq,)``, any other shape, or a scalar; finite, may be fractional.
    inv_freq : array_like
        Shape ``(d/2,)``: finite, positive frequencies, e.g. from :func:`inv_freq`.

    Returns
    -------
    numpy.ndarray
        Shape ``positions.shape + (d/2,)`` (so ``(seq, d/2)``, or ``(d/2,)`` for a scalar), float64, radians.

    Raises
    ------
    ValueError
        If a position is not finite, or ``inv_freq`` is not a 1-D array of finite positive numbers.

    Examples
    --------
    >>> angles([0, 1, 2], inv_freq(4))
    array([[0.  , 0.  ],
           [1.  , 0.01],
           [2.  , 0.02]])

    """
    positions = check_finite(positions, "positions")
    return np.multiply.outer(positions, check_frequencies(inv_freq))


def cos_sin_table(positions: object, inv_freq: object) -> tuple[np.ndarray, np.ndarray]:
    """Cosine and sine of every pair's angle at every position: the table of RoPE and of sinusoidal PE.

    Implements ``C[..., i] = cos(m * theta_i)`` and ``S[..., i] = sin(m * theta_i)`` for the angles of
    :func:`angles`. Both position schemes read row ``m`` of this table (RoFormer, Su et al. 2021,
    arXiv:2104.09864, sec. 3.2.2 and 3.4.2; Vaswani et al. 2017, sec. 3.5):

    * a sinusoidal embedding *adds* it to the token vector at the input,
      ``p_m[2i] = S[m, i]`` and ``p_m[2i + 1] = C[m, i]``;
    * RoPE *rotates* pair ``(a, b)`` of a query or key by it,
      ``y_a = x_a C[m, i] - x_b S[m, i]`` and ``y_b = x_a S[m, i] + x_b C[m, i]``,
      with ``(a, b) = (2i, 2i+1)`` (interleaved) or ``(i, i + d/2)`` (half); the table does not depend on the
      pairing convention.

    Parameters
    ----------
    positions : array_like
        Shape ``(seq,)``, any other shape, or a scalar; finite, may be fractional.
    inv_freq : array_like
        Shape ``(d/2,)``: finite, positive frequencies, e.g. from :func:`inv_freq`.

    Returns
    -------
    cos, sin : numpy.ndarray
        Each of shape ``positions.shape + (d/2,)`` (so ``(seq, d/2)``), float64, in ``[-1, 1]``.

    Raises
    ------
    ValueError
        As :func:`angles`.

    Examples
    --------
    >>> cos, sin = cos_sin_table([0.0, np.pi / 2], [1.0, 0.01])
    >>> print(np.round(cos, 4) + 0.0)
    [[1.     1.    ]
     [0.     0.9999]]
    >>> print(np.round(sin, 4) + 0.0)
    [[0.     0.    ]
     [1.     0.0157]]

    """
    phi = angles(positions, inv_freq)  # (..., d/2)
    return np.cos(phi), np.sin(phi)
