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
