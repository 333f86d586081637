"""Memory-bound kernels behind :func:`rope_viz.rotate`: blocked element-wise and complex forms of RoPE.

:func:`rope_viz.rotate` is memory-bound on real sizes (e.g. 32 heads x 4096 positions x 128), so it

* computes the angles in float64 (a float32 angle at position 10**5 is off by ~4e-3 rad), but cos and sin only
  once per ``(position, pair)``, never per batch entry: for float32 input in float32 after reducing the angle
  to ``[-pi, pi]`` in float64, for float64 input on a grid of positions by angle addition
  (:func:`fill_cos_sin_split`);
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

#: Elements of ``x`` per block of :func:`rope_viz.rotate` (128 Ki: 512 KiB of float32, 1 MiB of float64).
#: Small enough that a block of ``x``, its output, the scratch copy and the cos/sin tables stay in the L2/L3
#: cache; large enough that numpy's fixed cost per call (a few microseconds for each of the ~6 calls per
#: block) stays small next to the work per block. Chosen by timing 32 Ki to 512 Ki (benchmarks/README.md).
BLOCK_ELEMENTS = 1 << 17

#: Scratch buffers larger than this are allocated per call instead of being kept for reuse (only reached for
#: vectors wider than a whole block).
_MAX_CACHED_BYTES = 1 << 23

_TWO_PI = 2.0 * math.pi

_workspace = threading.local()


def scratch(name: str, shape: tuple[int, ...], dtype: type[np.generic]) -> np.ndarray:
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


def fill_cos_sin(
    positions: np.ndarray, frequencies: np.ndarray, cos_out: np.ndarray, sin_out: np.ndarray
) -> None:
    """Write ``cos`` and ``sin`` of ``positions[:, None] * frequencies`` into ``cos_out`` and ``sin_out``.

    The outputs are ``(rows, d/2)`` arrays (possibly strided views) of float32 or float64; the angles are
    formed in float64 either way.
    """
    if cos_out.dtype != np.float32 and fill_cos_sin_split(positions, frequencies, cos_out, sin_out):
        return
    shape = (positions.shape[0], frequencies.shape[0])
    theta = scratch("theta", shape, np.float64)
    np.multiply.outer(positions, frequencies, out=theta)
    if cos_out.dtype == np.float32:
        # Reduce to [-pi, pi] in float64 (error ~1e-16 rad per turn), so that float32 holds the argument to
        # ~2e-7 rad; numpy's vectorised float32 cos/sin is then ~20x faster than float64.
        turns = scratch("turns", shape, np.float64)
        np.multiply(theta, 1.0 / _TWO_PI, out=turns)
        np.rint(turns, out=turns)
        np.multiply(turns, _TWO_PI, out=turns)
        np.subtract(theta, turns, out=theta)
        reduced = scratch("reduced", shape, np.float32)
        np.copyto(reduced, theta, casting="same_kind")
        np.cos(reduced, out=cos_out)
        np.sin(reduced, out=sin_out)
    else:
        np.cos(theta, out=cos_out)
        np.sin(theta, out=sin_out)


#: Coarse step of the position split in :func:`fill_cos_sin_split`; a power of two, so the split is exact.
_SPLIT = 64.0


def fill_cos_sin_split(
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
    a = scratch("split_a", shape, np.float64)
    b = scratch("split_b", shape, np.float64)
    c = scratch("split_c", shape, np.float64)
    d = scratch("split_d", shape, np.float64)
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


def as_3d(x: np.ndarray) -> np.ndarray:
    """``x`` as a C-contiguous ``(batch, seq, dim)`` array: ``(dim,)`` becomes ``(1, 1, dim)``."""
    x = np.ascontiguousarray(x)  # no copy for the usual contiguous input; the blocks below rely on it
    if x.ndim == 1:
        return x.reshape(1, 1, x.shape[0])
    batch = math.prod(x.shape[:-2])  # explicit: reshape(-1, ...) is ambiguous for an empty x
    return x.reshape(batch, x.shape[-2], x.shape[-1])


def blocks(batch: int, seq: int, dim: int) -> Iterator[tuple[slice, slice]]:
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


def block_capacity(x3: np.ndarray) -> int:
    """Most elements any block of :func:`blocks` holds for ``x3``, to size per-call scratch buffers."""
    return min(x3.size, max(BLOCK_ELEMENTS, x3.shape[-1]))


def check_block_finite(block: np.ndarray, name: str, scratch: np.ndarray) -> None:
    # Exact, and on a block in cache no slower than np.sum (which could also overflow for huge finite values).
    # A BLAS dot would be faster on one thread, but a multi-threaded BLAS wakes its threads for every block.
    finite = scratch[: block.size].reshape(block.shape)  # scratch: a flat boolean buffer
    if not np.isfinite(block, out=finite).all():
        raise ValueError(f"{name} must hold finite numbers; got a NaN or an infinity")


#: ``fill(s, cos_out, sin_out)`` writes cos and sin for the positions ``s`` into two ``(rows, d/2)`` arrays.
_Fill = Callable[[slice, np.ndarray, np.ndarray], None]


def elementwise_kernel(x3: np.ndarray, fill: _Fill, convention: str, check: str | None) -> np.ndarray:
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

    capacity = block_capacity(x3)
    swapped = scratch("swapped", (capacity,), dtype)  # one buffer per call: fewer steps per block
    finite = scratch("finite", (capacity,), np.bool_)
    current = cos_table = sin_table = None
    for b, s in blocks(batch, seq, dim):
        rows = s.stop - s.start
        entries = b.stop - b.start
        if current != (s.start, s.stop):  # new positions: build the block's tables, reused for every b
            current = (s.start, s.stop)
            cos_table = scratch("cos_table", (rows, *pair_shape), dtype)
            sin_table = scratch("sin_table", (rows, *pair_shape), dtype)
            fill(s, member(cos_table, 0), member(sin_table, 1))
            np.copyto(member(cos_table, 1), member(cos_table, 0))
            np.negative(member(sin_table, 1), out=member(sin_table, 0))
        x4 = x3[b, s].reshape(entries, rows, *pair_shape)  # splitting the last axis: always a view
        y4 = out3[b, s].reshape(entries, rows, *pair_shape)
        t4 = swapped[: x4.size].reshape(x4.shape)
        if check is not None:
            check_block_finite(x4, check, finite)
        np.copyto(t4, swap(x4))  # (x_b, x_a) for every pair
        np.multiply(t4, sin_table, out=t4)  # (-x_b sin, x_a sin)
        np.multiply(x4, cos_table, out=y4)  # (x_a cos, x_b cos)
        np.add(y4, t4, out=y4)
    return out3


def complex_kernel(x3: np.ndarray, fill: _Fill, check: str | None) -> np.ndarray:
    """Complex form on a contiguous ``(batch, seq, dim)`` array in the interleaved layout.

    ``z_i = x[2i] + 1j x[2i+1]`` is multiplied by ``cos + 1j sin``: one complex multiply per pair, reading
    ``x`` once and writing the output once. If ``check`` is a name, each block is checked for NaN and
    infinity.
    """
    batch, seq, dim = x3.shape
    complex_dtype = complex_dtype_of(x3.dtype)
    out3 = np.empty_like(x3)
    z = x3.view(complex_dtype)  # (batch, seq, d/2), no copy
    w = out3.view(complex_dtype)
    finite = scratch("finite", (block_capacity(x3),), np.bool_)
    current = phase = None
    for b, s in blocks(batch, seq, dim):
        if current != (s.start, s.stop):
            current = (s.start, s.stop)
            phase = scratch("phase", (s.stop - s.start, dim // 2), complex_dtype)
            fill(s, phase.real, phase.imag)
        if check is not None:
            check_block_finite(x3[b, s], check, finite)
        np.multiply(z[b, s], phase, out=w[b, s])
    return out3


def complex_dtype_of(dtype: np.dtype) -> type[np.complexfloating]:
    return np.complex64 if dtype == np.float32 else np.complex128


def as_float(x: object) -> np.ndarray:
    x = np.asarray(x)
    return x if x.dtype in (np.float32, np.float64) else x.astype(np.float64)


def copy_fill(cos: np.ndarray, sin: np.ndarray) -> _Fill:
    """Return a fill that copies rows of given ``cos`` and ``sin`` arrays of shape ``(seq, d/2)``."""

    def fill(s: slice, cos_out: np.ndarray, sin_out: np.ndarray) -> None:
        np.copyto(cos_out, cos[s], casting="same_kind")
        np.copyto(sin_out, sin[s], casting="same_kind")

    return fill
