"""2-D RoPE for the patches of an image: axial (a row half and a column half of the pairs) and mixed.

A patch in row ``r`` and column ``c`` turns pair ``i`` of its query or key by

    phi_i(r, c) = r * omega_i^row + c * omega_i^col

(Heo et al. 2024, "Rotary Position Embedding for Vision Transformer", arXiv:2403.13298, RoPE-Axial and
RoPE-Mixed). *RoPE-Axial* gives half the pairs to the rows and half to the columns, each half with the 1-D
frequencies of a ``d/2``-wide vector; here, in the order of Qwen2-VL's vision encoder (below), the first
``d/4`` pairs follow the rows and the last ``d/4`` the columns:

    omega^row = (w_0, ..., w_{d/4-1}, 0, ..., 0),   omega^col = (0, ..., 0, w_0, ..., w_{d/4-1}),
    w_j = base ** (-4 j / d).

*RoPE-Mixed* learns both frequencies of every pair, so a pair may turn along a diagonal; pass them as
``frequencies=(row_frequencies, column_frequencies)``. Either way the score of two patches,

    <R(r, c) q, R(r', c') k> = Re[ sum_i h_i exp(1j ((r - r') omega_i^row + (c - c') omega_i^col)) ],

with ``h_i = q_i conj(k_i)``, depends only on their 2-D offset, and the rotation keeps norms.

The row half comes first here, as in Qwen2-VL's vision encoder (transformers 5.23,
``Qwen2VLVisionRotaryEmbedding.recomposition_frequencies`` concatenates the height angles and then the width
angles, base ``rope_theta = 10000``, ``rotate_half``). Heo et al.'s code (``compute_axial_cis`` in
github.com/naver-ai/rope-vit) puts the column (x) half first, pairs coordinates as complex numbers and uses
base 100 (and base 10 for the speeds its RoPE-Mixed starts from, ``init_random_2d_freqs``); swapping the
halves of the pairs of ``q`` and ``k`` maps one order onto the other.
"""

from __future__ import annotations

import numpy as np

from rope_viz._validation import check_base, check_dim, check_finite, check_vector_pair
from rope_viz.frequencies import inv_freq as _inv_freq
from rope_viz.mrope import _check_grid, _check_x, rotate_by_angles


def _check_axial_dim(dim: object) -> int:
    dim = check_dim(dim)
    if dim % 4:
        raise ValueError(f"dim must be a multiple of 4 for axial RoPE (a row and a column half), got {dim}")
    return dim


def axial_inv_freq(dim: int, base: float = 10000.0) -> np.ndarray:
    """Frequencies of one half of the pairs of axial RoPE: ``w_j = base ** (-4 j / dim)``, ``j < dim/4``.

    The 1-D RoPE frequencies of a vector of ``dim / 2`` (RoFormer, Su et al. 2021, arXiv:2104.09864,
    sec. 3.2.2, with ``d / 2`` in place of ``d``), as RoPE-Axial uses for the rows and again for the columns
    (Heo et al. 2024, arXiv:2403.13298; transformers 5.23's
    ``Qwen2VLVisionRotaryEmbedding.compute_axial_rope_parameters``).

    Parameters
    ----------
    dim : int
        Head dimension ``d``; a multiple of 4.
    base : float, default 10000.0
        Frequency base; finite, > 1 (Heo et al. use 100).

    Returns
    -------
    numpy.ndarray
        Shape ``(dim // 4,)``, float64, decreasing from 1.

    Raises
    ------
    ValueError
        If ``dim`` is not a positive multiple of 4 or ``base`` is not a finite number > 1.

    Examples
    --------
    >>> axial_inv_freq(8, base=100.0)
    array([1. , 0.1])

    """
    dim = _check_axial_dim(dim)
    return _inv_freq(dim // 2, check_base(base))


def axial_frequencies(dim: int, base: float = 10000.0) -> tuple[np.ndarray, np.ndarray]:
    """Row and column frequency of every pair under RoPE-Axial: ``(omega^row, omega^col)``.

    Implements ``omega^row_i = w_i`` and ``omega^col_i = 0`` for ``i < d/4``, ``omega^row_i = 0`` and
    ``omega^col_i = w_{i - d/4}`` after, with ``w`` from :func:`axial_inv_freq` (RoPE-Axial, Heo et al.
    2024, arXiv:2403.13298). The row half comes first as in transformers 5.23's
    ``Qwen2VLVisionRotaryEmbedding``; Heo et al.'s code puts the column half first. The order of the pairs
    does not change a score, which sums over all of them.

    Parameters
    ----------
    dim : int
        Head dimension ``d``; a multiple of 4.
    base : float, default 10000.0
        Frequency base; finite, > 1.

    Returns
    -------
    row_frequencies, column_frequencies : numpy.ndarray
        Shape ``(dim // 2,)`` each, float64, radians per row and per column.

    Raises
    ------
    ValueError
        As :func:`axial_inv_freq`.

    Examples
    --------
    >>> row, column = axial_frequencies(8, base=100.0)
    >>> print(row, column)
    [1.  0.1 0.  0. ] [0.  0.  1.  0.1]

    """
    half = axial_inv_freq(dim, base)
    zeros = np.zeros_like(half)
    return np.concatenate([half, zeros]), np.concatenate([zeros, half])


def _resolve_frequencies(dim: int, base: float, frequencies: object | None) -> tuple[np.ndarray, np.ndarray]:
    if frequencies is None:
        return axial_frequencies(dim, base)
    try:
        row, column = frequencies
    except (TypeError, ValueError) as error:
        raise ValueError("frequencies must be a pair (row_frequencies, column_frequencies)") from error
    row = check_finite(row, "row_frequencies")
    column = check_finite(column, "column_frequencies")
    if row.shape != (dim // 2,) or column.shape != (dim // 2,):
        raise ValueError(
            f"frequencies must be two arrays of shape (dim // 2,) = ({dim // 2},), "
            f"got shapes {row.shape} and {column.shape}"
        )
    return row, column


def grid_positions(grid: object) -> tuple[np.ndarray, np.ndarray]:
    """Row and column of every patch of a ``(rows, cols)`` grid, row by row: two arrays of ``rows * cols``.

    Examples
    --------
    >>> grid_positions((2, 3))
    (array([0, 0, 0, 1, 1, 1]), array([0, 1, 2, 0, 1, 2]))

    """
    rows, cols, _, _ = _check_grid(grid, (0, 0))
    row, column = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    return row.ravel(), column.ravel()


def rotate_axial(
    x: object,
    rows: object,
    cols: object,
    *,
    base: float = 10000.0,
    frequencies: object | None = None,
    convention: str = "half",
) -> np.ndarray:
    """Rotate the queries or keys of image patches by their row and column (2-D RoPE).

    Pair ``i`` of the patch in row ``r_m``, column ``c_m`` turns by ``phi_i = r_m omega^row_i +
    c_m omega^col_i`` (Heo et al. 2024, arXiv:2403.13298: RoPE-Axial, or RoPE-Mixed with learned
    frequencies), element-wise ``y_a = x_a cos(phi) - x_b sin(phi)``, ``y_b = x_a sin(phi) + x_b cos(phi)``
    for pair ``(a, b)`` of ``convention``. With the default axial frequencies and "half" this is
    transformers 5.23's ``apply_rotary_pos_emb_vision`` with the angles of ``Qwen2VLVisionRotaryEmbedding``.

    Parameters
    ----------
    x : array_like
        Shape ``(..., seq, dim)``; leading axes are batch axes (e.g. heads). Finite; ``dim`` a multiple of 4
        for the axial frequencies, even for given ones.
    rows, cols : array_like
        Shape ``(seq,)``: row and column of every patch (e.g. from :func:`grid_positions`); finite.
    base : float, default 10000.0
        Frequency base of :func:`axial_frequencies`; ignored when ``frequencies`` is given.
    frequencies : (array_like, array_like), optional
        ``(row_frequencies, column_frequencies)``, each of shape ``(dim // 2,)``, e.g. RoPE-Mixed's learned
        ones; any finite values.
    convention : {"half", "interleaved"}, default "half"
        Pairing convention.

    Returns
    -------
    numpy.ndarray
        Shape of ``x``; float32 for float32 input, else float64. Norms are unchanged.

    Raises
    ------
    ValueError
        On a bad ``x``, ``rows`` or ``cols`` not of shape ``(seq,)``, bad frequencies or an unknown
        ``convention``.

    Examples
    --------
    A patch one row down turns the first pair (row frequency 1) by one radian:

    >>> y = rotate_axial(np.array([[1.0, 0.0, 0.0, 0.0]]), [1], [0])
    >>> print(np.round(y, 4) + 0.0)
    [[0.5403 0.     0.8415 0.    ]]

    """
    x = _check_x(x)
    if x.ndim < 2:
        raise ValueError(f"x must have shape (..., seq, dim), got shape {x.shape}")
    dim, seq = x.shape[-1], x.shape[-2]
    if frequencies is None:
        _check_axial_dim(dim)
    row_frequencies, column_frequencies = _resolve_frequencies(dim, base, frequencies)
    row = check_finite(rows, "rows")
    column = check_finite(cols, "cols")
    if row.shape != (seq,) or column.shape != (seq,):
        raise ValueError(
            f"rows and cols must have shape (seq,) = ({seq},) to match x of shape {x.shape}, "
            f"got shapes {row.shape} and {column.shape}"
        )
    angles = np.multiply.outer(row, row_frequencies) + np.multiply.outer(column, column_frequencies)
    return rotate_by_angles(x, angles, convention=convention)


def axial_patch_scores(
    q: object,
    k: object,
    grid: object,
    query_patch: object,
    *,
    base: float = 10000.0,
    frequencies: object | None = None,
    convention: str = "half",
) -> np.ndarray:
    """Score map of one query patch against every key patch of a grid under 2-D RoPE.

    Implements ``S[r', c'] = <R(r, c) q, R(r', c') k> = Re[ sum_i h_i exp(1j ((r - r') omega^row_i +
    (c - c') omega^col_i)) ]`` with ``h_i = q_i conj(k_i)`` (Heo et al. 2024, arXiv:2403.13298;
    RoFormer, Su et al. 2021, arXiv:2104.09864, sec. 3.4.3 for the complex form): a function of the offset
    ``(r - r', c - c')`` alone. The logit before ``1 / sqrt(d)``.

    Parameters
    ----------
    q, k : array_like
        Shape ``(dim,)`` each; finite.
    grid : (int, int)
        ``(rows, cols)`` of patches.
    query_patch : (int, int)
        ``(r, c)`` of the query, inside the grid.
    base, frequencies, convention
        As in :func:`rotate_axial`.

    Returns
    -------
    numpy.ndarray
        Shape ``(rows, cols)``, float64.

    Raises
    ------
    ValueError
        As :func:`rotate_axial`, and on a grid or query patch outside it.

    """
    rows, cols, row, col = _check_grid(grid, query_patch)
    q, k = check_vector_pair(q, k)
    options = {"base": base, "frequencies": frequencies, "convention": convention}
    patch_rows, patch_cols = grid_positions(grid)
    keys = rotate_axial(np.broadcast_to(k, (rows * cols, k.size)), patch_rows, patch_cols, **options)
    query = rotate_axial(q[None, :], [row], [col], **options)[0]
    return (keys @ query).reshape(rows, cols)


def expected_axial_patch_self_scores(
    grid: object,
    query_patch: object,
    dim: int,
    *,
    base: float = 10000.0,
    frequencies: object | None = None,
) -> np.ndarray:
    """Return the expected score map of a vector with itself across a grid, ``q ~ N(0, I_d)``, 2-D RoPE.

    Implements ``E[S[r', c']] = 2 sum_i cos((r - r') omega^row_i + (c - c') omega^col_i)``, the 2-D
    counterpart of :func:`rope_viz.expected_self_score`; for RoPE-Axial it separates into
    ``2 sum_j cos((r - r') w_j) + 2 sum_j cos((c - c') w_j)``, a row term plus a column term (Heo et al.
    2024, arXiv:2403.13298). Equals ``d`` at the query patch; does not depend on the pairing
    convention.

    Parameters
    ----------
    grid, query_patch
        As in :func:`axial_patch_scores`.
    dim : int
        Head dimension ``d``; a multiple of 4 for the axial frequencies, even for given ones.
    base, frequencies
        As in :func:`rotate_axial`.

    Returns
    -------
    numpy.ndarray
        Shape ``(rows, cols)``, float64.

    Raises
    ------
    ValueError
        As :func:`axial_patch_scores`.

    Examples
    --------
    >>> print(expected_axial_patch_self_scores((1, 2), (0, 0), 4, frequencies=([1.0, 0.0], [0.0, np.pi])))
    [[4. 0.]]

    """
    rows, cols, row, col = _check_grid(grid, query_patch)
    dim = _check_axial_dim(dim) if frequencies is None else check_dim(dim)
    row_frequencies, column_frequencies = _resolve_frequencies(dim, base, frequencies)
    row_offset, column_offset = np.meshgrid(row - np.arange(rows), col - np.arange(cols), indexing="ij")
    angle = np.multiply.outer(row_offset, row_frequencies)  # (rows, cols, d/2)
    angle += np.multiply.outer(column_offset, column_frequencies)
    return 2.0 * np.cos(angle).sum(axis=-1)


__all__ = [
    "axial_frequencies",
    "axial_inv_freq",
    "axial_patch_scores",
    "expected_axial_patch_self_scores",
    "grid_positions",
    "rotate_axial",
]
