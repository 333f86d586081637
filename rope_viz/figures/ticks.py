"""Tick values and labels for an axis whose range changes from one slider state to the next.

On the site, an axis whose range moves with a slider gets explicit ticks in every state (``tickmode:
"array"``), so that the page's script can move the axis itself without asking Plotly to redraw it, and
Plotly, when it does redraw, draws the very same ticks. The labels follow Plotly's own style: a true minus
sign, powers of ten as ``10<sup>k</sup>``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

#: About this many ticks on a linear axis.
TARGET_TICKS = 6
#: Step multipliers of a "nice" linear step, times a power of ten.
NICE_STEPS = (1.0, 2.0, 2.5, 5.0, 10.0)
MINUS = "\u2212"


def nice_step(span: float, target: int = TARGET_TICKS) -> float:
    """Return the smallest step ``m * 10**k`` (``m`` in :data:`NICE_STEPS`) giving at most ``target`` steps.

    Examples
    --------
    >>> nice_step(34.1), nice_step(1.0), nice_step(183.1)
    (10.0, 0.2, 50.0)

    """
    if not span > 0 or not math.isfinite(span):
        raise ValueError(f"an axis span must be positive and finite, got {span!r}")
    raw = span / target
    power = 10.0 ** math.floor(math.log10(raw))
    return next(multiple * power for multiple in NICE_STEPS if multiple * power >= raw * (1 - 1e-9))


def format_number(value: float, step: float) -> str:
    """Format a tick value with the decimals ``step`` needs, a true minus sign and SI suffixes (k, M, G).

    Examples
    --------
    >>> format_number(-2.5, 2.5), format_number(0.30000000000000004, 0.1), format_number(20000.0, 5000.0)
    ('−2.5', '0.3', '20k')
    >>> format_number(2.5e6, 5e5), format_number(4e9, 2e9)
    ('2.5M', '4G')

    """
    if abs(value) < step * 1e-9:
        value = 0.0
    for unit, suffix, smallest in ((1e9, "G", 1e9), (1e6, "M", 1e6), (1e3, "k", 1e4)):
        if abs(value) >= smallest and step >= unit / 1_000:
            return format_number(value / unit, step / unit) + suffix
    decimals = 0
    while decimals < 12 and abs(step * 10**decimals - round(step * 10**decimals)) > 1e-9 * 10**decimals:
        decimals += 1
    text = f"{value:.{decimals}f}"
    return text.replace("-", MINUS)


def power_of_ten_label(exponent: int) -> str:
    """Return Plotly's label for ``10**exponent`` on a log axis with ``exponentformat="power"``.

    Examples
    --------
    >>> [power_of_ten_label(k) for k in (-1, 0, 1, 3)]
    ['10<sup>−1</sup>', '1', '10', '10<sup>3</sup>']

    """
    if exponent == 0:
        return "1"
    if exponent == 1:
        return "10"
    return f"10<sup>{str(exponent).replace('-', MINUS)}</sup>"


def linear_ticks(low: float, high: float) -> tuple[list[float], list[str]]:
    """Ticks at multiples of :func:`nice_step` within ``[low, high]``.

    Examples
    --------
    >>> linear_ticks(-8.9, 95.7)
    ([0.0, 20.0, 40.0, 60.0, 80.0], ['0', '20', '40', '60', '80'])

    """
    step = nice_step(high - low)
    first = math.ceil(low / step - 1e-9)
    last = math.floor(high / step + 1e-9)
    # k * step rounds: keep a tick whose rounded value falls a hair outside the range out of it
    tolerance = 1e-9 * (high - low)
    values = [k * step for k in range(first, last + 1) if low - tolerance <= k * step <= high + tolerance]
    return [float(value) for value in values], [format_number(value, step) for value in values]


def log_ticks(
    low: float, high: float, tickvals: Sequence[float] | None = None
) -> tuple[list[float], list[str]]:
    """Ticks of a log axis whose range is ``[low, high]`` in powers of ten.

    With ``tickvals``, those within the range (labelled as numbers); otherwise every power of ten within it.

    Examples
    --------
    >>> log_ticks(-0.05, 0.70, [1, 2, 4, 8, 16])
    ([1, 2, 4], ['1', '2', '4'])
    >>> log_ticks(0.6, 3.2)[1]
    ['10', '10<sup>2</sup>', '10<sup>3</sup>']

    """
    if tickvals is not None:
        inside = [value for value in tickvals if low - 1e-9 <= math.log10(value) <= high + 1e-9]
        return inside, [format_number(value, _decimal_unit(value)) for value in inside]
    exponents = range(math.ceil(low - 1e-9), math.floor(high + 1e-9) + 1)
    return [10.0**k for k in exponents], [power_of_ten_label(k) for k in exponents]


def _decimal_unit(value: float) -> float:
    """Return the last decimal place that ``value`` uses (1 for whole numbers, 0.1 for 1.5, ...)."""
    unit = 1.0
    while abs(value / unit - round(value / unit)) > 1e-9 and unit > 1e-9:
        unit /= 10
    return unit


def axis_ticks(axis: dict[str, Any], axis_range: Sequence[float]) -> tuple[list[float], list[str]]:
    """Tick values and labels for a Plotly axis spec (``type``, ``tickvals``) shown over ``axis_range``."""
    low, high = sorted(float(value) for value in axis_range)
    if axis.get("type") == "log":
        return log_ticks(low, high, axis.get("tickvals"))
    if axis.get("type") not in (None, "linear", "-"):
        raise ValueError(f"explicit ticks for a {axis.get('type')!r} axis are not supported")
    return linear_ticks(low, high)
