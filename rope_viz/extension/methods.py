"""The static extension methods side by side, and the score against distance under one of them.

:func:`compare_methods` evaluates every static method of :mod:`rope_viz.scaling` for one head, one ``s`` and
one ``L``, with YaRN both as its reference code computes it and with the ramp of its paper
(:mod:`rope_viz.extension.paper_formulas`). :func:`scaled_relative_scores` and :func:`window_averaged_scores`
give the score against distance under a method's frequencies and attention factor, exactly or averaged over a
window of distances.
"""

from __future__ import annotations

import numpy as np

from rope_viz._validation import check_finite, check_frequencies
from rope_viz.extension.paper_formulas import yarn_paper_frequencies
from rope_viz.rotation import to_interleaved
from rope_viz.scaling import from_config
from rope_viz.scaling.parameters import RopeParameters, check_number
from rope_viz.scores import relative_scores


def scaled_relative_scores(
    q: object,
    k: object,
    offsets: object,
    *,
    inv_freq: object,
    attention_factor: float = 1.0,
    convention: str = "interleaved",
) -> np.ndarray:
    """Score against offset ``r = m - n`` under a method's frequencies and attention factor.

    Implements ``score(r) = a**2 * Re[sum_i q_i conj(k_i) exp(1j r theta_i')]``: the method multiplies cos and
    sin, and so both the rotated query and the rotated key, by its attention factor ``a`` (YaRN's
    ``sqrt(1/t) = 0.1 ln s + 1``, Peng et al. 2023, arXiv:2309.00071, sec. 3.4), which multiplies their dot
    product by ``a**2``. The sum is :func:`rope_viz.relative_scores` with ``theta_i'`` = ``inv_freq``.

    Parameters
    ----------
    q, k : array_like
        Shape ``(d,)`` each; finite.
    offsets : array_like
        Offsets ``m - n``, any shape; finite.
    inv_freq : array_like
        Shape ``(d/2,)``: the method's frequencies.
    attention_factor : float, default 1.0
        Multiplier of cos and sin; > 0.
    convention : {"interleaved", "half"}
        Pairing convention of ``q`` and ``k``.

    Returns
    -------
    numpy.ndarray
        Same shape as ``offsets``.

    Examples
    --------
    >>> print(scaled_relative_scores([1.0, 0.0], [1.0, 0.0], [0.0], inv_freq=[1.0], attention_factor=1.5))
    [2.25]

    """
    factor = check_number(attention_factor, "attention_factor", minimum=0.0, inclusive=False)
    return factor**2 * relative_scores(q, k, offsets, inv_freq=inv_freq, convention=convention)


def window_averaged_scores(
    q: object,
    k: object,
    offsets: object,
    *,
    half_width: object,
    inv_freq: object,
    attention_factor: float = 1.0,
    convention: str = "interleaved",
) -> np.ndarray:
    """Score averaged over the offsets within ``half_width`` of each offset: the trend without the wiggles.

    Implements the mean of :func:`scaled_relative_scores` over ``[r - w, r + w]``,

        (1 / 2w) * integral score(u) du
            = a**2 * Re[sum_i q_i conj(k_i) exp(1j r theta_i) sin(w theta_i) / (w theta_i)],

    since the mean of ``exp(1j u theta)`` over that interval is ``exp(1j r theta) sin(w theta) / (w theta)``.
    Pairs that turn many times within the window average out; pairs far slower than ``1 / w`` are kept. With
    ``w = 0`` it is the score itself.

    Parameters
    ----------
    q, k : array_like
        Shape ``(d,)`` each; finite.
    offsets : array_like
        Offsets ``r``, shape ``(n,)``.
    half_width : array_like
        ``w >= 0`` in tokens: a scalar, or one per offset (shape ``(n,)``).
    inv_freq : array_like
        Shape ``(d/2,)``: the frequencies ``theta_i'``.
    attention_factor : float, default 1.0
        Factor ``a`` on cos and sin; > 0.
    convention : {"interleaved", "half"}
        Pairing convention of ``q`` and ``k``.

    Returns
    -------
    numpy.ndarray
        Shape ``(n,)``.

    """
    if convention not in ("interleaved", "half"):
        raise ValueError(f"convention must be 'interleaved' or 'half', got {convention!r}")
    q = check_finite(q, "q")
    k = check_finite(k, "k")
    if q.ndim != 1 or q.shape != k.shape or q.size % 2:
        raise ValueError(f"q and k must be vectors of the same even size, got shapes {q.shape} and {k.shape}")
    if convention == "half":
        q, k = to_interleaved(q), to_interleaved(k)
    frequencies = check_frequencies(inv_freq)
    if frequencies.size != q.size // 2:
        raise ValueError(f"inv_freq must have d/2 = {q.size // 2} entries, got {frequencies.size}")
    offsets = check_finite(offsets, "offsets").reshape(-1)
    widths = np.broadcast_to(check_finite(half_width, "half_width"), offsets.shape)
    if np.any(widths < 0):
        raise ValueError("half_width must be >= 0")
    factor = check_number(attention_factor, "attention_factor", minimum=0.0, inclusive=False)
    h = (q[0::2] + 1j * q[1::2]) * np.conj(k[0::2] + 1j * k[1::2])  # (d/2,)
    angles = np.multiply.outer(offsets, frequencies)  # (n, d/2)
    damping = np.sinc(np.multiply.outer(widths, frequencies) / np.pi)  # (n, d/2): sin(w θ) / (w θ)
    # Re[h exp(1j r θ)] = Re(h) cos(r θ) - Im(h) sin(r θ), summed over pairs. einsum keeps these small sums in
    # one thread: a BLAS product of this size spends longer waking its threads than multiplying.
    real = np.einsum("ij,j->i", np.cos(angles) * damping, h.real)
    imaginary = np.einsum("ij,j->i", np.sin(angles) * damping, h.imag)
    return factor**2 * (real - imaginary)


#: The methods :func:`compare_methods` evaluates, in display order.
COMPARED_METHODS = ("linear", "ntk", "yarn", "yarn_paper", "llama3")


def compare_methods(
    dim: int,
    base: float,
    factor: float,
    trained_length: int,
    *,
    low_freq_factor: float = 1.0,
    high_freq_factor: float = 4.0,
) -> dict[str, tuple[np.ndarray, float]]:
    """Frequencies and attention factor of every static extension method, for one head, one ``s``, one ``L``.

    Evaluates, with :mod:`rope_viz.scaling`: position interpolation (``"linear"``), the NTK-aware base change
    (``"ntk"``), YaRN as its reference code computes it, which transformers and vLLM copy (``"yarn"``,
    default ``beta_fast = 32``, ``beta_slow = 1``), YaRN with the ramp of the paper's eq. (18)
    (``"yarn_paper"``, :func:`yarn_paper_frequencies`) and Llama 3.1's rule (``"llama3"``). Each returns
    ``theta_i'`` and the factor ``a`` on cos and sin.

    Parameters
    ----------
    dim : int
        Rotary dimension ``d``; even, >= 4.
    base : float
        Base ``b``.
    factor : float
        Scale factor ``s`` >= 1.
    trained_length : int
        Training length ``L`` (``original_max_position_embeddings``).
    low_freq_factor, high_freq_factor : float
        Llama 3's band edges ``L / low_freq_factor`` and ``L / high_freq_factor`` (Llama 3.1: 1 and 4).

    Returns
    -------
    dict
        ``method -> (inv_freq, attention_factor)`` for the keys of :data:`COMPARED_METHODS`; each ``inv_freq``
        has shape ``(dim // 2,)``.

    """
    common = {"head_dim": dim, "rope_theta": base, "factor": factor}
    with_length = {**common, "original_max_position_embeddings": trained_length}
    settings = {
        "linear": RopeParameters(rope_type="linear", **common),
        "ntk": RopeParameters(rope_type="ntk", **common),
        "yarn": RopeParameters(rope_type="yarn", **with_length),
        "llama3": RopeParameters(
            rope_type="llama3",
            low_freq_factor=low_freq_factor,
            high_freq_factor=high_freq_factor,
            **with_length,
        ),
    }
    results = {name: from_config(parameters) for name, parameters in settings.items()}
    compared = {name: (result.inv_freq, result.attention_factor) for name, result in results.items()}
    compared["yarn_paper"] = yarn_paper_frequencies(settings["yarn"])
    return {name: compared[name] for name in COMPARED_METHODS}


__all__ = [
    "COMPARED_METHODS",
    "compare_methods",
    "scaled_relative_scores",
    "window_averaged_scores",
]
