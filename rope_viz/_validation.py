"""Argument checks shared by the math modules.

Every check raises ``ValueError`` with a message that names the argument and the range it accepts, so that a
bad call fails loudly instead of returning NaN or an array of the wrong shape.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

CONVENTIONS = ("interleaved", "half")

# dtype kinds accepted as real numbers: bool, signed and unsigned integers, floating point. Complex ("c") is
# refused rather than silently losing its imaginary part, and strings ("U", "S") rather than being parsed.
_REAL_KINDS = "biuf"


def check_dim(dim: object, name: str = "dim") -> int:
    """Return ``dim`` as an int after checking it is an even integer >= 2 (8.0 passes)."""
    if isinstance(dim, bool) or not isinstance(dim, numbers.Integral):
        if isinstance(dim, numbers.Real) and not isinstance(dim, bool) and float(dim).is_integer():
            dim = int(dim)
        else:
            raise ValueError(f"{name} must be an even integer >= 2, got {dim!r}")
    dim = int(dim)
    if dim < 2 or dim % 2:
        raise ValueError(f"{name} must be an even integer >= 2, got {dim}")
    return dim


def check_whole_number(value: object, name: str, lower: int, upper: int) -> int:
    """Return ``value`` as an int after checking it is a whole number (not a bool) in ``lower .. upper``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not lower <= value <= upper:
        raise ValueError(f"{name} must be a whole number from {lower:,} to {upper:,}, got {value!r}")
    return int(value)


def check_base(base: object, name: str = "base") -> float:
    """Return ``base`` as a float after checking it is a finite real number > 1 (0-d arrays pass)."""
    if isinstance(base, np.ndarray) and base.ndim == 0:
        base = base[()]  # a 0-d array (e.g. from a config read with numpy) is a scalar
    if isinstance(base, bool | np.bool_) or not isinstance(base, numbers.Real):
        raise ValueError(f"{name} must be a finite number > 1, got {base!r}")
    value = float(base)
    if not math.isfinite(value) or value <= 1.0:
        raise ValueError(f"{name} must be a finite number > 1, got {base!r}")
    return value


def check_convention(convention: object) -> str:
    """Return ``convention`` after checking it names a known pairing convention."""
    # The isinstance test comes first: `array in tuple` would compare element-wise and fail with an unrelated
    # "truth value is ambiguous" message.
    if not isinstance(convention, str) or convention not in CONVENTIONS:
        raise ValueError(f"convention must be one of {CONVENTIONS}, got {convention!r}")
    return convention


def _as_real(values: object, name: str) -> np.ndarray:
    """``values`` as an array of a real dtype kind, or ValueError naming ``name``."""
    try:
        array = np.asarray(values)
    except (TypeError, ValueError) as error:  # ragged nested sequences
        raise ValueError(f"{name} must be an array of real numbers, got {values!r}") from error
    if array.dtype.kind == "O":  # e.g. a list mixing Python ints and Fractions: convert if every item can
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{name} must be an array of real numbers, got {values!r}") from error
    if array.dtype.kind not in _REAL_KINDS:
        raise ValueError(f"{name} must be an array of real numbers, got dtype {array.dtype}")
    return array


def check_finite(values: object, name: str) -> np.ndarray:
    """Return ``values`` as a float64 array after checking every entry is a finite real number."""
    array = _as_real(values, name).astype(np.float64, copy=False)
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite real numbers; got a NaN or an infinity")
    return array


def check_real_array(values: object, name: str, *, finite: bool = True) -> np.ndarray:
    """Return ``values`` as a floating-point array (float32 kept, everything else float64).

    With ``finite=True`` every entry must be finite. :func:`rope_viz.rotate` passes ``finite=False`` and
    checks block by block while the data is in cache, which saves a full pass over a large input.
    """
    array = _as_real(values, name)
    if array.dtype != np.float32:  # float16, ints, bools and non-native byte orders become native float64
        array = array.astype(np.float64, copy=False)  # no copy (of a possibly large x) when already float64
    if finite and not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must hold finite numbers; got a NaN or an infinity")
    return array


def check_projection(weight: object, name: str, width: int) -> np.ndarray:
    """Return a projection matrix as float64 after checking it is finite and of shape ``(out, width)``.

    The shape is the one PyTorch's ``nn.Linear`` gives its weight, so that ``q = W x`` for a token ``x`` of
    size ``width``.
    """
    weight = check_finite(weight, name)
    if weight.ndim != 2 or weight.shape[1] != width:
        raise ValueError(
            f"{name} must have shape (out, {width}) to project tokens of width {width}, "
            f"got shape {weight.shape}"
        )
    return weight


def check_vector_pair(q: object, k: object) -> tuple[np.ndarray, np.ndarray]:
    """Return ``q`` and ``k`` as float64 vectors, checked finite and of one even size ``(dim,)``."""
    q = check_real_array(q, "q").astype(np.float64, copy=False)
    k = check_real_array(k, "k").astype(np.float64, copy=False)
    if q.ndim != 1 or k.ndim != 1 or q.shape != k.shape:
        raise ValueError(
            f"q and k must be vectors of the same size (dim,), got shapes {q.shape} and {k.shape}"
        )
    check_dim(q.shape[0], "the size of q and k (dim)")
    return q, k


def check_positions(
    positions: object,
    name: str = "positions",
    *,
    ndim: int | None = None,
    length: int | None = None,
    context: str = "",
) -> np.ndarray:
    """Return token positions as a float64 array after checking they are finite and of the shape asked for.

    * ``ndim=None``: a scalar or a 1-D array, returned flat with shape ``(seq,)`` (a scalar is one position);
    * ``ndim=0``: one scalar, returned as a 0-d array;
    * ``ndim=1``: shape ``(seq,)``, and ``seq == length`` when ``length`` is given.

    ``context`` (e.g. ``"to match x of shape (2, 3, 4)"``) goes into the message for a wrong shape. Positions
    may be fractional or negative.
    """
    array = check_finite(positions, name)
    where = f" {context}" if context else ""
    if ndim is None:
        if array.ndim > 1:
            raise ValueError(
                f"{name} must be a scalar or a 1-D array of positions{where}, got shape {array.shape}"
            )
        return array.reshape(-1)
    if ndim == 0:
        if array.ndim != 0:
            raise ValueError(f"{name} must be one scalar{where}, got shape {array.shape}")
        return array
    if ndim == 1:
        if array.ndim != 1 or (length is not None and array.shape[0] != length):
            expected = "(seq,)" if length is None else f"(seq,) = ({length},)"
            raise ValueError(f"{name} must have shape {expected}{where}, got shape {array.shape}")
        return array
    raise ValueError(f"ndim must be None, 0 or 1, got {ndim!r}")


def check_frequencies(
    inv_freq: object, dim: int | None = None, *, partial: bool = False, name: str = "inv_freq"
) -> np.ndarray:
    """Return rotation frequencies ``theta_i`` (radians per token) as a float64 1-D array after checking them.

    Without ``dim``: a non-empty 1-D array of finite frequencies > 0, as the functions that take ``inv_freq``
    on its own need. With ``dim``: the frequencies of a ``dim``-wide vector, ``dim // 2`` of them, or with
    ``partial=True`` between 1 and ``dim // 2`` (a partial rotary: the first ``2 r`` channels rotate); finite
    and >= 0, as a pair of frequency 0 does not rotate (proportional RoPE).
    """
    if partial and dim is None:
        raise ValueError("partial=True needs dim (the size of the vectors the frequencies rotate)")
    frequencies = check_finite(inv_freq, name)
    if dim is None:
        if frequencies.ndim != 1 or frequencies.size == 0 or np.any(frequencies <= 0):
            raise ValueError(
                f"{name} must be a 1-D array of positive frequencies (radians per token), "
                f"got shape {frequencies.shape}"
            )
        return frequencies
    pairs = dim // 2
    if partial:
        if frequencies.ndim != 1 or not 1 <= frequencies.shape[0] <= pairs:
            raise ValueError(
                f"{name} must have shape (r,) with 1 <= r <= dim // 2 = {pairs} for vectors of size "
                f"{dim} (the first 2 r channels rotate), got shape {frequencies.shape}"
            )
    elif frequencies.shape != (pairs,):
        raise ValueError(
            f"{name} must have shape (dim // 2,) = ({pairs},) for vectors of size {dim}, "
            f"got shape {frequencies.shape}"
        )
    if np.any(frequencies < 0):
        raise ValueError(f"{name} must be >= 0 (radians per token; 0 for a pair that does not rotate)")
    return frequencies
