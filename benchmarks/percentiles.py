"""The one percentile the benchmarks report: nearest rank."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile: the smallest value with at least ``fraction`` of the sample at or below it.

    For a sample sorted as :math:`v_1 \\le \\dots \\le v_n`, the value :math:`v_k` with
    :math:`k = \\max(1, \\lceil f n \\rceil)`.

    Parameters
    ----------
    values : sequence of float
        The sample, in any order; not empty.
    fraction : float
        Between 0 and 1, e.g. 0.95 for the 95th percentile.

    Returns
    -------
    float
        A value of the sample.

    Raises
    ------
    ValueError
        For an empty sample or a fraction outside [0, 1].
    """
    if not values:
        raise ValueError("percentile of an empty sample")
    if not 0 <= fraction <= 1:
        raise ValueError(f"fraction must be between 0 and 1, got {fraction}")
    ordered = sorted(values)
    # Rounded first, so that a product such as 0.95 × 20 that floating point leaves a hair above 19 is 19.
    return ordered[max(1, math.ceil(round(fraction * len(ordered), 9))) - 1]
