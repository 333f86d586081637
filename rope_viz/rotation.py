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

Implementation notes
--------------------
:func:`rotate` is memory-bound on real sizes (e.g. 32 heads x 4096 positions x 128), so it

* computes the angles in float64 (a float32 angle at position 10**5 is off by ~4e-3 rad), but cos and sin only
  once per ``(position, pair)``, never per batch entry: for float32 input in float32 after reducing the angle
  to ``[-pi, pi]`` in float64, for float64 input on a grid of positions by angle addition
  (:func:`_fill_cos_sin_split`);
* allocates one output array and walks ``x`` in blocks of about :data:`BLOCK_ELEMENTS` elements, so that the
  temporaries of the element-wise form stay in the CPU cache instead of making extra trips to memory;
* keeps those block-sized temporaries in per-thread buffers reused from call to call: fresh memory costs a
  page fault per 4 KiB page on first touch, which for a few MiB of temporaries is milliseconds per call;
* checks ``x`` for NaN and infinity block by block, while the block is in cache.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator

import numpy as np

from rope_viz._validation import check_base, check_convention, check_dim, check_finite, check_real_array
from rope_viz.frequencies import inv_freq as _inv_freq

#: Elements of ``x`` processed per block by :func:`rotate` (128 Ki: 512 KiB of float32, 1 MiB of float64).
#: Small enough that a block of ``x``, its output, the scratch copy and the cos/sin tables stay in the L2/L3
#: cache; large enough that numpy's fixed cost per call (a few microseconds for each of the ~6 calls per
#: block) stays small next to the work per block. Chosen by timing 32 Ki to 512 Ki (benchmarks/README.md).
BLOCK_ELEMENTS = 1 << 17

#: Scratch buffers larger than this are allocated per call instead of being kept for reuse (only reached for
#: vectors wider than a whole block).
_MAX_CACHED_BYTES = 1 << 23

_TWO_PI = 2.0 * math.pi

_workspace = threading.local()


def _scratch(name: str, shape: tuple[int, ...], dtype: type[np.generic]) -> np.ndarray:
    """Return an uninitialised array of ``shape``, backed by a buffer of this thread that later calls reuse.

    Buffers are per thread and per ``(name, dtype)``, so concurrent calls never share one, and a function must
    not hold two live arrays under the same name. Never return one of these arrays to a caller.
    """
    size = math.prod(shape)
    dtype = np.dtype(dtype)
    if size * dtype.itemsize > _MAX_CACHED_BYTES:
        return np.empty(shape, dtype)
    buffers = getattr(_workspace, "buffers", None)
    if buffers is None:
        buffers = _workspace.buffers = {}
    buffer = buffers.get((name, dtype))
    if buffer is None or buffer.size < size:
        buffer = buffers[(name, dtype)] = np.empty(size, dtype)
    return buffer[:size].reshape(shape)


def resolve_inv_freq(dim: int, base: float, inv_freq: object | None) -> np.ndarray:
    """Return the frequencies to use for a ``dim``-wide vector: ``inv_freq`` if given, else from ``base``.

    A given ``inv_freq`` (for example from :func:`rope_viz.scaling.from_config`) must have ``dim // 2``
    finite positive entries; ``base`` is then ignored.
    """
    if inv_freq is None:
        return _inv_freq(dim, check_base(base))
    frequencies = check_finite(inv_freq, "inv_freq")
    if frequencies.shape != (dim // 2,):
        raise ValueError(
            f"inv_freq must have shape (dim // 2,) = ({dim // 2},) for vectors of size {dim}, "
            f"got shape {frequencies.shape}"
        )
    if np.any(frequencies <= 0):
        raise ValueError("inv_freq must be positive (radians per token)")
    return frequencies


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
    positions = check_finite(positions, "positions")
    if x.ndim == 1:
        if positions.ndim != 0:
            raise ValueError(
                f"positions must be one scalar for x of shape (dim,) = {x.shape}, got shape {positions.shape}"
            )
        return positions
    seq = x.shape[-2]
    if positions.shape != (seq,):
        raise ValueError(
            f"positions must have shape (seq,) = ({seq},) to match x of shape {x.shape} "
            f"(..., seq, dim), got shape {positions.shape}"
        )
    return positions


def _fill_cos_sin(
    positions: np.ndarray, frequencies: np.ndarray, cos_out: np.ndarray, sin_out: np.ndarray
) -> None:
    """Write ``cos`` and ``sin`` of ``positions[:, None] * frequencies`` into ``cos_out`` and ``sin_out``.

    The outputs are ``(rows, d/2)`` arrays (possibly strided views) of float32 or float64; the angles are
    formed in float64 either way.
    """
    if cos_out.dtype != np.float32 and _fill_cos_sin_split(positions, frequencies, cos_out, sin_out):
        return
    shape = (positions.shape[0], frequencies.shape[0])
    theta = _scratch("theta", shape, np.float64)
    np.multiply.outer(positions, frequencies, out=theta)
    if cos_out.dtype == np.float32:
        # Reduce to [-pi, pi] in float64 (error ~1e-16 rad per turn), so that float32 holds the argument to
        # ~2e-7 rad; numpy's vectorised float32 cos/sin is then ~20x faster than float64.
        turns = _scratch("turns", shape, np.float64)
        np.multiply(theta, 1.0 / _TWO_PI, out=turns)
        np.rint(turns, out=turns)
        np.multiply(turns, _TWO_PI, out=turns)
        np.subtract(theta, turns, out=theta)
        reduced = _scratch("reduced", shape, np.float32)
        np.copyto(reduced, theta, casting="same_kind")
        np.cos(reduced, out=cos_out)
        np.sin(reduced, out=sin_out)
    else:
        np.cos(theta, out=cos_out)
        np.sin(theta, out=sin_out)


#: Coarse step of the position split in :func:`_fill_cos_sin_split`; a power of two, so the split is exact.
_SPLIT = 64.0


def _fill_cos_sin_split(
    positions: np.ndarray, frequencies: np.ndarray, cos_out: np.ndarray, sin_out: np.ndarray
) -> bool:
    """Float64 cos/sin by angle addition when positions repeat a few coarse and fine parts; False if not used.

    float64 ``cos`` and ``sin`` cost ~13 ns per element (not vectorised), a third of the whole of
    :func:`rotate` for float64 input. Splitting ``m = m_hi + m_lo`` with ``m_hi = 64 * trunc(m / 64)``
    (exact: both parts are representable) and using

        cos(m t) = cos(m_hi t) cos(m_lo t) - sin(m_hi t) sin(m_lo t)
        sin(m t) = sin(m_hi t) cos(m_lo t) + cos(m_hi t) sin(m_lo t)

    needs the functions only at the distinct ``m_hi`` and ``m_lo``: for ``arange(4096)`` 64 + 64 rows instead
    of 4096. The result is as accurate as the direct route: both are off by about an ulp of the angle
    ``m t``, which float64 cannot hold more precisely, plus a few ulps of the result.
    """
    rows = positions.shape[0]
    if rows < 4 * _SPLIT:
        return False
    coarse = np.trunc(positions * (1.0 / _SPLIT)) * _SPLIT
    fine = positions - coarse
    coarse_values, coarse_index = np.unique(coarse, return_inverse=True)
    fine_values, fine_index = np.unique(fine, return_inverse=True)
    if coarse_values.shape[0] + fine_values.shape[0] > rows // 4:  # e.g. irregular fractional positions
        return False
    half = frequencies.shape[0]
    tables = []
    for values in (coarse_values, fine_values):
        angle = np.multiply.outer(values, frequencies)  # (distinct values, d/2), small
        tables.append((np.cos(angle), np.sin(angle)))
    (cos_hi, sin_hi), (cos_lo, sin_lo) = tables
    shape = (rows, half)
    a = _scratch("split_a", shape, np.float64)
    b = _scratch("split_b", shape, np.float64)
    c = _scratch("split_c", shape, np.float64)
    d = _scratch("split_d", shape, np.float64)
    np.take(cos_hi, coarse_index, axis=0, out=a)
    np.take(sin_hi, coarse_index, axis=0, out=b)
    np.take(cos_lo, fine_index, axis=0, out=c)
    np.take(sin_lo, fine_index, axis=0, out=d)
    np.multiply(a, c, out=cos_out)  # cos_hi cos_lo
    np.multiply(b, c, out=sin_out)  # sin_hi cos_lo
    np.multiply(b, d, out=b)  # sin_hi sin_lo
    np.multiply(a, d, out=a)  # cos_hi sin_lo
    np.subtract(cos_out, b, out=cos_out)
    np.add(sin_out, a, out=sin_out)
    return True


def _as_3d(x: np.ndarray) -> np.ndarray:
    """``x`` as a C-contiguous ``(batch, seq, dim)`` array: ``(dim,)`` becomes ``(1, 1, dim)``."""
    x = np.ascontiguousarray(x)  # no copy for the usual contiguous input; the blocks below rely on it
    if x.ndim == 1:
        return x.reshape(1, 1, x.shape[0])
    batch = math.prod(x.shape[:-2])  # explicit: reshape(-1, ...) is ambiguous for an empty x
    return x.reshape(batch, x.shape[-2], x.shape[-1])


def _blocks(batch: int, seq: int, dim: int) -> Iterator[tuple[slice, slice]]:
    """Blocks ``(batch slice, seq slice)`` of about :data:`BLOCK_ELEMENTS` elements covering ``(batch, seq)``.

    Long sequences are cut along ``seq`` with the batch loop innermost, so that the cos/sin tables of a block
    are computed once and reused from cache for every batch entry; short sequences are grouped several batch
    entries at a time. Every block ``x3[b, s]`` of a C-contiguous ``x3`` is itself contiguous.
    """
    target = max(1, BLOCK_ELEMENTS)
    if seq * dim >= target:
        rows = max(1, target // dim)
        for start in range(0, seq, rows):
            rows_slice = slice(start, min(seq, start + rows))
            for b in range(batch):
                yield slice(b, b + 1), rows_slice
    elif seq > 0:
        entries = max(1, target // (seq * dim))
        for start in range(0, batch, entries):
            yield slice(start, min(batch, start + entries)), slice(0, seq)


def _block_capacity(x3: np.ndarray) -> int:
    """Most elements any block of :func:`_blocks` holds for ``x3``, to size per-call scratch buffers."""
    return min(x3.size, max(BLOCK_ELEMENTS, x3.shape[-1]))


def _check_block_finite(block: np.ndarray, name: str, scratch: np.ndarray) -> None:
    # Exact, and on a block in cache no slower than np.sum (which could also overflow for huge finite values).
    # A BLAS dot would be faster on one thread, but a multi-threaded BLAS wakes its threads for every block.
    finite = scratch[: block.size].reshape(block.shape)  # scratch: a flat boolean buffer
    if not np.isfinite(block, out=finite).all():
        raise ValueError(f"{name} must hold finite numbers; got a NaN or an infinity")


#: ``fill(s, cos_out, sin_out)`` writes cos and sin for the positions ``s`` into two ``(rows, d/2)`` arrays.
_Fill = Callable[[slice, np.ndarray, np.ndarray], None]


def _elementwise_kernel(x3: np.ndarray, fill: _Fill, convention: str, check: str | None) -> np.ndarray:
    """Element-wise form on a contiguous ``(batch, seq, dim)`` array, either convention.

    Each block is viewed as ``(..., rows, 2, d/2)`` ("half") or ``(..., rows, d/2, 2)`` ("interleaved"), the
    pair axis being the one of length 2, and computed as

        y = x * [cos, cos] + swap(x) * [-sin, sin]

    where ``swap`` exchanges the two members of every pair. That is four passes over the block (one strided
    copy, two multiplies, one add), three of them over contiguous memory: the textbook six multiplies and adds
    on ``x[..., :d/2]`` and ``x[..., d/2:]`` run numpy inner loops of only ``d/2`` elements, several times
    slower per element. If ``check`` is a name, each block of ``x`` is checked for NaN and infinity.
    """
    batch, seq, dim = x3.shape
    half = dim // 2
    dtype = x3.dtype
    out3 = np.empty_like(x3)
    if convention == "half":
        pair_shape = (2, half)

        def member(array: np.ndarray, j: int) -> np.ndarray:
            return array[..., j, :]

        def swap(array: np.ndarray) -> np.ndarray:
            return array[..., ::-1, :]
    else:
        pair_shape = (half, 2)

        def member(array: np.ndarray, j: int) -> np.ndarray:
            return array[..., j]

        def swap(array: np.ndarray) -> np.ndarray:
            return array[..., ::-1]

    capacity = _block_capacity(x3)
    swapped = _scratch("swapped", (capacity,), dtype)  # one buffer per call: fewer steps per block
    finite = _scratch("finite", (capacity,), np.bool_)
    current = cos_table = sin_table = None
    for b, s in _blocks(batch, seq, dim):
        rows = s.stop - s.start
        entries = b.stop - b.start
        if current != (s.start, s.stop):  # new positions: build the block's tables, reused for every b
            current = (s.start, s.stop)
            cos_table = _scratch("cos_table", (rows, *pair_shape), dtype)
            sin_table = _scratch("sin_table", (rows, *pair_shape), dtype)
            fill(s, member(cos_table, 0), member(sin_table, 1))
            np.copyto(member(cos_table, 1), member(cos_table, 0))
            np.negative(member(sin_table, 1), out=member(sin_table, 0))
        x4 = x3[b, s].reshape(entries, rows, *pair_shape)  # splitting the last axis: always a view
        y4 = out3[b, s].reshape(entries, rows, *pair_shape)
        t4 = swapped[: x4.size].reshape(x4.shape)
        if check is not None:
            _check_block_finite(x4, check, finite)
        np.copyto(t4, swap(x4))  # (x_b, x_a) for every pair
        np.multiply(t4, sin_table, out=t4)  # (-x_b sin, x_a sin)
        np.multiply(x4, cos_table, out=y4)  # (x_a cos, x_b cos)
        np.add(y4, t4, out=y4)
    return out3


def _complex_kernel(x3: np.ndarray, fill: _Fill, check: str | None) -> np.ndarray:
    """Complex form on a contiguous ``(batch, seq, dim)`` array in the interleaved layout.

    ``z_i = x[2i] + 1j x[2i+1]`` is multiplied by ``cos + 1j sin``: one complex multiply per pair, reading
    ``x`` once and writing the output once. If ``check`` is a name, each block is checked for NaN and
    infinity.
    """
    batch, seq, dim = x3.shape
    complex_dtype = _complex_dtype(x3.dtype)
    out3 = np.empty_like(x3)
    z = x3.view(complex_dtype)  # (batch, seq, d/2), no copy
    w = out3.view(complex_dtype)
    finite = _scratch("finite", (_block_capacity(x3),), np.bool_)
    current = phase = None
    for b, s in _blocks(batch, seq, dim):
        if current != (s.start, s.stop):
            current = (s.start, s.stop)
            phase = _scratch("phase", (s.stop - s.start, dim // 2), complex_dtype)
            fill(s, phase.real, phase.imag)
        if check is not None:
            _check_block_finite(x3[b, s], check, finite)
        np.multiply(z[b, s], phase, out=w[b, s])
    return out3


def _complex_dtype(dtype: np.dtype) -> type[np.complexfloating]:
    return np.complex64 if dtype == np.float32 else np.complex128


def _as_float(x: object) -> np.ndarray:
    x = np.asarray(x)
    return x if x.dtype in (np.float32, np.float64) else x.astype(np.float64)


def _copy_fill(cos: np.ndarray, sin: np.ndarray) -> _Fill:
    """Return a fill that copies rows of given ``cos`` and ``sin`` arrays of shape ``(seq, d/2)``."""

    def fill(s: slice, cos_out: np.ndarray, sin_out: np.ndarray) -> None:
        np.copyto(cos_out, cos[s], casting="same_kind")
        np.copyto(sin_out, sin[s], casting="same_kind")

    return fill


def rotate_elementwise(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, convention: str) -> np.ndarray:
    """Element-wise cos/sin form: ``y_a = x_a cos - x_b sin``, ``y_b = x_a sin + x_b cos`` for every pair.

    RoFormer (Su et al. 2021, arXiv:2104.09864) sec. 3.4.2, for either ``convention``. ``x`` has shape
    ``(..., seq, dim)`` or ``(dim,)``; ``cos`` and ``sin`` have shape ``(seq, d/2)`` or ``(d/2,)`` and
    broadcast against the pairs of ``x``. The result has the shape of ``x`` and its dtype if float32, else
    float64. This is the low-level kernel behind :func:`rotate` for the "half" convention; it does no argument
    checking.
    """
    x = _as_float(x)
    x3 = _as_3d(x)
    shape = (x3.shape[1], x3.shape[2] // 2)
    fill = _copy_fill(np.broadcast_to(cos, shape), np.broadcast_to(sin, shape))
    return _elementwise_kernel(x3, fill, convention, check=None).reshape(x.shape)


def rotate_complex(x: np.ndarray, phase: np.ndarray) -> np.ndarray:
    """Complex form (interleaved pairs only): ``z_i = x[2i] + 1j x[2i+1]`` becomes ``z_i exp(1j m theta_i)``.

    RoFormer (Su et al. 2021, arXiv:2104.09864) sec. 3.2.1. ``phase`` holds ``exp(1j * angles)`` with shape
    ``(seq, d/2)`` (or ``(d/2,)``). Float32 and float64 inputs are viewed as complex without a copy; the
    result has the shape of ``x`` and its dtype if float32, else float64. No argument checking.
    """
    x = _as_float(x)
    x3 = _as_3d(x)
    phase = np.broadcast_to(np.asarray(phase), (x3.shape[1], x3.shape[2] // 2))
    return _complex_kernel(x3, _copy_fill(phase.real, phase.imag), check=None).reshape(x.shape)


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
        Shape ``(dim // 2,)``: positive frequencies used instead of ``base ** (-2i/dim)``, e.g. a scaled set.
    convention : {"interleaved", "half"}
        Pairing convention.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``; float32 for float32 input (angles still computed in float64), float64 for
        anything else. The norm of every vector is unchanged.

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
    frequencies = resolve_inv_freq(x.shape[-1], base, inv_freq)

    def fill(s: slice, cos_out: np.ndarray, sin_out: np.ndarray) -> None:
        _fill_cos_sin(positions[s], frequencies, cos_out, sin_out)

    x3 = _as_3d(x)
    if convention == "interleaved":
        out3 = _complex_kernel(x3, fill, check="x")
    else:
        out3 = _elementwise_kernel(x3, fill, convention, check="x")
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
    entries sit at rows/columns ``(i, i + dim/2)``.

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
    position = check_finite(position, "position")
    if position.ndim != 0:
        raise ValueError(f"position must be one scalar, got shape {position.shape}")
    frequencies = resolve_inv_freq(dim, base, inv_freq)
    theta = float(position) * frequencies
    cos, sin = np.cos(theta), np.sin(theta)
    half = dim // 2
    pairs = np.arange(half)
    if convention == "interleaved":
        a, b = 2 * pairs, 2 * pairs + 1
    else:
        a, b = pairs, pairs + half
    matrix = np.zeros((dim, dim))
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
