"""Rotate queries and keys by their positions: the matrix, element-wise and complex forms of RoPE.

Pair ``i`` of a vector at position ``m`` is turned counter-clockwise by ``m * theta_i``:

    [y_a]   [cos(m theta_i)  -sin(m theta_i)] [x_a]
    [y_b] = [sin(m theta_i)   cos(m theta_i)] [x_b]

(Su et al. 2021, RoFormer: Enhanced Transformer with Rotary Position Embedding, arXiv:2104.09864, sec. 3.2.2
for the block-diagonal matrix and sec. 3.4.2 for the element-wise form). Which coordinates form pair ``i`` is
the *pairing convention*:

* ``"interleaved"``: ``(a, b) = (2i, 2i + 1)``: GPT-J, Meta's original LLaMA code, and the complex view
  ``x[2i] + 1j * x[2i + 1]``;
* ``"half"``: ``(a, b) = (i, i + d/2)``: GPT-NeoX and Hugging Face ``rotate_half``.

The two give the same scores once the weights are permuted; :func:`to_half` and :func:`to_interleaved` move a
vector between the layouts.

The fast kernels behind :func:`rotate` live in :mod:`rope_viz._rotation_kernels`.
"""

from __future__ import annotations

import numpy as np

from rope_viz._rotation_kernels import (
    as_3d,
    as_float,
    complex_kernel,
    copy_fill,
    elementwise_kernel,
    fill_cos_sin,
)
from rope_viz._validation import (
    check_base,
    check_convention,
    check_dim,
    check_frequencies,
    check_positions,
    check_real_array,
)
from rope_viz.frequencies import inv_freq as _inv_freq


def resolve_inv_freq(dim: int, base: float, inv_freq: object | None, *, partial: bool = False) -> np.ndarray:
    """Return the frequencies to use for a ``dim``-wide vector: ``inv_freq`` if given, else from ``base``.

    A given ``inv_freq`` (for example from :func:`rope_viz.scaling.from_config`) must have ``dim // 2``
    finite entries, or with ``partial=True`` between 1 and ``dim // 2`` of them (a partial rotary); ``base``
    is then ignored. An entry may be 0: that pair does not rotate (proportional RoPE).
    """
    if inv_freq is None:
        return _inv_freq(dim, check_base(base))
    return check_frequencies(inv_freq, dim, partial=partial)


def _check_vectors(x: object, name: str = "x", *, finite: bool = True) -> np.ndarray:
    array = check_real_array(x, name, finite=finite)
    if array.ndim == 0:
        raise ValueError(f"{name} must have at least one axis (..., dim), got a scalar")
    dim = array.shape[-1]
    if dim < 2 or dim % 2:
        raise ValueError(f"the last axis of {name} (dim) must be even and >= 2, got {dim}")
    return array


def _check_positions(positions: object, x: np.ndarray) -> np.ndarray:
    """Positions as float64: a scalar for ``x`` of shape ``(dim,)``, else shape ``(seq,)`` matching ``x``."""
    if x.ndim == 1:
        return check_positions(positions, ndim=0, context=f"for x of shape (dim,) = {x.shape}")
    context = f"to match x of shape {x.shape} (..., seq, dim)"
    return check_positions(positions, ndim=1, length=x.shape[-2], context=context)


def rotate_elementwise(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, convention: str) -> np.ndarray:
    """Element-wise cos/sin form: ``y_a = x_a cos - x_b sin``, ``y_b = x_a sin + x_b cos`` for every pair.

    RoFormer (Su et al. 2021, arXiv:2104.09864) sec. 3.4.2, for either ``convention``. ``x`` has shape
    ``(..., seq, dim)`` or ``(dim,)``; ``cos`` and ``sin`` have shape ``(seq, d/2)`` or ``(d/2,)`` and
    broadcast against the pairs of ``x``. The result has the shape of ``x`` and its dtype if float32, else
    float64. This is the low-level kernel behind :func:`rotate` for the "half" convention; it does no argument
    checking.
    """
    x = as_float(x)
    x3 = as_3d(x)
    shape = (x3.shape[1], x3.shape[2] // 2)
    fill = copy_fill(np.broadcast_to(cos, shape), np.broadcast_to(sin, shape))
    return elementwise_kernel(x3, fill, convention, check=None).reshape(x.shape)


def rotate_complex(x: np.ndarray, phase: np.ndarray) -> np.ndarray:
    """Complex form (interleaved pairs only): ``z_i = x[2i] + 1j x[2i+1]`` becomes ``z_i exp(1j m theta_i)``.

    RoFormer (Su et al. 2021, arXiv:2104.09864) sec. 3.2.1. ``phase`` holds ``exp(1j * angles)`` with shape
    ``(seq, d/2)`` (or ``(d/2,)``). Float32 and float64 inputs are viewed as complex without a copy; the
    result has the shape of ``x`` and its dtype if float32, else float64. No argument checking.
    """
    x = as_float(x)
    x3 = as_3d(x)
    phase = np.broadcast_to(np.asarray(phase), (x3.shape[1], x3.shape[2] // 2))
    return complex_kernel(x3, copy_fill(phase.real, phase.imag), check=None).reshape(x.shape)


def rotate(
    x: object,
    positions: object,
    *,
    base: float = 10000.0,
    inv_freq: object | None = None,
    convention: str = "interleaved",
) -> np.ndarray:
    """Rotate every pair of ``x`` by its position times its frequency (RoFormer sec. 3.4.2).

    Implements ``y = R(m) x`` with ``R(m)`` block-diagonal, block ``i`` the 2-D rotation by ``m * theta_i``,
    ``theta_i = base ** (-2i/dim)`` (Su et al. 2021, arXiv:2104.09864, sec. 3.2.2 and 3.4.2)::

        y_a = x_a cos(m theta_i) - x_b sin(m theta_i)
        y_b = x_a sin(m theta_i) + x_b cos(m theta_i)

    where ``(a, b)`` is pair ``i`` under ``convention`` (see the module docstring). For "interleaved" this is
    the complex product ``(x_a + 1j x_b) * exp(1j m theta_i)``, which is how it is computed.

    Parameters
    ----------
    x : array_like
        Shape ``(..., seq, dim)`` with ``positions`` of shape ``(seq,)``, or ``(dim,)`` with one scalar
        position. ``dim`` even. Leading axes are batch axes (e.g. heads). Finite.
    positions : array_like
        Token positions ``m``; finite, may be fractional (position interpolation uses ``m / s``).
    base : float, default 10000.0
        Frequency base (Hugging Face ``rope_theta``); finite, > 1; ignored when ``inv_freq`` is given.
    inv_freq : array_like, optional
        Frequencies (>= 0) used instead of ``base ** (-2i/dim)``, e.g. a scaled set. Shape
        ``(dim // 2,)``, or ``(r,)`` with ``r < dim // 2`` for a partial rotary of the GPT-NeoX, Phi or GLM
        kind: the first ``2 r`` channels rotate, paired by ``convention`` among themselves (``(i, i + r)``
        for "half"), and the other ``dim - 2 r`` channels pass through unchanged. A frequency of 0 leaves
        its pair unrotated, which is how proportional RoPE (Gemma 4) switches off its slow pairs.
    convention : {"interleaved", "half"}
        Pairing convention.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``; float32 for float32 input (angles still computed in float64), float64 for
        anything else. The norm of every vector is unchanged.

    Notes
    -----
    A partial rotary as transformers applies it (``apply_rotary_pos_emb`` of Phi, GPT-NeoX and GLM) splits
    the head into ``x[..., :rotary_dim]``, rotated with ``rotate_half``, and ``x[..., rotary_dim:]``, passed
    through; that is ``convention="half"`` with ``inv_freq`` of length ``rotary_dim // 2``. GPT-J's rotates
    the first ``rotary_dim`` channels in interleaved pairs: ``convention="interleaved"``.

    Raises
    ------
    ValueError
        On an odd ``dim``, ``base <= 1`` or non-finite, a NaN or infinity in ``x`` or ``positions``, a
        positions shape that does not match the sequence axis, a wrong ``inv_freq`` shape, or an unknown
        ``convention``.

    Examples
    --------
    Pair 0 turns by one radian per token, so at position ``pi / 2`` the vector ``(1, 0)`` becomes ``(0, 1)``:

    >>> y = rotate([1.0, 0.0], np.pi / 2)
    >>> print(np.round(y, 6) + 0.0)
    [0. 1.]

    """
    convention = check_convention(convention)
    x = _check_vectors(x, finite=False)  # finiteness is checked block by block, while each block is in cache
    positions = _check_positions(positions, x).reshape(-1)  # (seq,); one entry for x of shape (dim,)
    frequencies = resolve_inv_freq(x.shape[-1], base, inv_freq, partial=True)
    rotary_dim = 2 * frequencies.shape[0]
    if rotary_dim < x.shape[-1]:
        passed = x[..., rotary_dim:]
        if not np.all(np.isfinite(passed)):
            raise ValueError("x must hold finite numbers; got a NaN or an infinity")
        out = np.array(x, dtype=np.float32 if x.dtype == np.float32 else np.float64)
        rotated = rotate(
            np.ascontiguousarray(x[..., :rotary_dim]),
            positions if x.ndim > 1 else positions[0],
            inv_freq=frequencies,
            convention=convention,
        )
        out[..., :rotary_dim] = rotated
        return out

    def fill(s: slice, cos_out: np.ndarray, sin_out: np.ndarray) -> None:
        fill_cos_sin(positions[s], frequencies, cos_out, sin_out)

    x3 = as_3d(x)
    if convention == "interleaved":
        out3 = complex_kernel(x3, fill, check="x")
    else:
        out3 = elementwise_kernel(x3, fill, convention, check="x")
    return out3.reshape(x.shape)


def rotation_matrix(
    position: float,
    dim: int,
    *,
    base: float = 10000.0,
    inv_freq: object | None = None,
    convention: str = "interleaved",
) -> np.ndarray:
    """Return the ``(dim, dim)`` orthogonal ``R(m)`` with ``rotate(x, m) == R(m) @ x`` (RoFormer sec. 3.2.2).

    For ``"interleaved"`` it is block-diagonal with 2x2 blocks ``[[cos, -sin], [sin, cos]]`` of angle
    ``m * theta_i`` at ``(2i, 2i+1)`` (Su et al. 2021, arXiv:2104.09864, sec. 3.2.2); for ``"half"`` the same
    entries sit at rows/columns ``(i, i + dim/2)``. With a partial ``inv_freq`` of ``r < dim/2`` entries,
    the pairs are those of the first ``2 r`` channels (``(i, i + r)`` for "half"); the rest of the diagonal
    is 1.

    Parameters
    ----------
    position : float
        Position ``m``; finite, may be fractional.
    dim : int
        Vector size; even, >= 2.
    base, inv_freq, convention
        As in :func:`rotate`.

    Returns
    -------
    numpy.ndarray
        Shape ``(dim, dim)``, float64, with ``R(m).T @ R(n) == R(n - m)`` and ``R(0) == I``.

    Raises
    ------
    ValueError
        As :func:`rotate`, and if ``position`` is not one finite scalar.

    Examples
    --------
    >>> print(np.round(rotation_matrix(np.pi / 2, 2), 6) + 0.0)
    [[ 0. -1.]
     [ 1.  0.]]

    """
    convention = check_convention(convention)
    dim = check_dim(dim)
    position = check_positions(position, "position", ndim=0)
    frequencies = resolve_inv_freq(dim, base, inv_freq, partial=True)
    theta = float(position) * frequencies
    cos, sin = np.cos(theta), np.sin(theta)
    half = frequencies.shape[0]  # pairs that rotate; a partial rotary leaves the other channels alone
    pairs = np.arange(half)
    if convention == "interleaved":
        a, b = 2 * pairs, 2 * pairs + 1
    else:
        a, b = pairs, pairs + half
    matrix = np.eye(dim)
    matrix[a, a] = cos
    matrix[a, b] = -sin
    matrix[b, a] = sin
    matrix[b, b] = cos
    return matrix


def to_half(x: object) -> np.ndarray:
    """Reorder the last axis from interleaved pairs ``(2i, 2i+1)`` to half pairs ``(i, i + d/2)``.

    ``to_half(x)[..., i] = x[..., 2i]`` and ``to_half(x)[..., i + d/2] = x[..., 2i + 1]``, so that
    ``to_interleaved(rotate(to_half(x), m, convention="half")) == rotate(x, m, convention="interleaved")``.

    Parameters
    ----------
    x : array_like
        Shape ``(..., dim)``, ``dim`` even; finite.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``; float32 kept, anything else float64.

    Examples
    --------
    >>> to_half([0, 1, 2, 3, 4, 5])
    array([0., 2., 4., 1., 3., 5.])

    """
    x = _check_vectors(x)
    half = x.shape[-1] // 2
    # (..., d/2, 2) -> (..., 2, d/2): member 0 of every pair first, then member 1; one copy.
    pairs = x.reshape(*x.shape[:-1], half, 2)
    return np.ascontiguousarray(np.swapaxes(pairs, -1, -2)).reshape(x.shape)


def to_interleaved(x: object) -> np.ndarray:
    """Inverse of :func:`to_half`: reorder half pairs ``(i, i + d/2)`` into interleaved pairs ``(2i, 2i+1)``.

    ``to_interleaved(x)[..., 2i] = x[..., i]`` and ``to_interleaved(x)[..., 2i + 1] = x[..., i + d/2]``.

    Parameters
    ----------
    x : array_like
        Shape ``(..., dim)``, ``dim`` even; finite.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``; float32 kept, anything else float64.

    Examples
    --------
    >>> to_interleaved([0, 2, 4, 1, 3, 5])
    array([0., 1., 2., 3., 4., 5.])

    """
    x = _check_vectors(x)
    half = x.shape[-1] // 2
    members = x.reshape(*x.shape[:-1], 2, half)
    return np.ascontiguousarray(np.swapaxes(members, -1, -2)).reshape(x.shape)
