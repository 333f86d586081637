"""Rounding plot data to a few significant digits: compact figure states, exact enough to read.

Every state of a figure travels as JSON, to the site's payload or over a kernel's websocket, and a float
printed with all its 17 digits costs three times the bytes of one rounded to five. The rounding is vectorised
because live figures round thousands of values per slider step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: Powers of ten that are exact in float64 (10**22 is the largest).
_EXACT_POWERS = 22


def significant(values: object, digits: int = 5) -> list[float]:
    r"""Round each value to ``digits`` significant digits and return them as a flat list of floats.

    Each finite, non-zero value :math:`x` with decimal exponent :math:`e = \lfloor \log_{10} |x| \rfloor`
    becomes :math:`\operatorname{round}(x \cdot 10^{k}) / 10^{k}` with :math:`k = \text{digits} - 1 - e`
    (for :math:`k < 0`, :math:`\operatorname{round}(x / 10^{-k}) \cdot 10^{-k}`): the nearest number with
    ``digits`` significant digits, as ``float(f"{x:.{digits}g}")`` gives it up to the last digit of values
    that lie within a rounding error of a tie. Dividing the rounded integer by an exact power of ten is
    correctly rounded, so the result prints in at most ``digits`` digits. Zeros, infinities and NaN are kept.

    Parameters
    ----------
    values : array_like
        Numbers of any shape; they are flattened.
    digits : int
        Significant digits, 1 to 15.

    Returns
    -------
    list of float

    Raises
    ------
    ValueError
        If ``digits`` is not an integer from 1 to 15.

    """
    if isinstance(digits, bool) or not isinstance(digits, int | np.integer) or not 1 <= digits <= 15:
        raise ValueError(f"digits must be an integer from 1 to 15, got {digits!r}")
    x = np.asarray(values, dtype=float).ravel()
    out = x.copy()
    rounded = np.isfinite(x) & (x != 0)
    if not rounded.any():
        return out.tolist()
    v = x[rounded]
    k = digits - 1 - np.floor(np.log10(np.abs(v))).astype(int)
    # A value whose power of ten is not exact in float64 (|k| above 22 - digits) is rounded by printing it.
    exact = np.abs(k) <= _EXACT_POWERS - digits
    result = v.copy()
    up = exact & (k >= 0)
    down = exact & (k < 0)
    scale_up = 10.0 ** k[up]
    result[up] = np.rint(v[up] * scale_up) / scale_up
    scale_down = 10.0 ** (-k[down])
    result[down] = np.rint(v[down] / scale_down) * scale_down
    result[~exact] = [float(f"{value:.{digits}g}") for value in v[~exact]]
    out[rounded] = result
    return out.tolist()


#: Values that are JSON-ready as they are (checked by exact type: numpy's float64 subclasses float).
_PLAIN_TYPES = frozenset({float, int, str, bool, type(None)})


def plain(value: Any) -> Any:
    """Return ``value`` with numpy scalars and arrays, at any depth, turned into JSON-ready Python values."""
    if type(value) in _PLAIN_TYPES:
        return value
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        # Lists of plain numbers are the bulk of every state: one type lookup per item.
        return [item if type(item) in _PLAIN_TYPES else plain(item) for item in value]
    return value
