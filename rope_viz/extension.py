"""Reading past the training length: what each rotation pair meets, and what the extension methods change.

A model trained on sequences of ``L`` tokens has seen pair ``i`` at the angles ``m * theta_i`` for positions
(and query-key offsets) ``m`` in ``[0, L)``: an arc of ``L * theta_i`` radians. A fast pair covers the whole
circle many times over; a slow pair (wavelength ``2 pi / theta_i > L``) covers only part of it, so at a target
length ``L' > L`` it reaches angles it never met in training. The context-extension methods of
:mod:`rope_viz.scaling` replace ``theta_i`` by slower frequencies ``theta_i'`` (and may multiply cos and sin
by an attention factor); this module measures the consequences pair by pair:

* :func:`context_arcs`, :func:`turns`, :func:`first_partial_pair` and :func:`unseen_angles`: the trained arc
  against the arc a longer context asks for;
* :func:`neighbour_angles`: the angle between neighbouring tokens, which position interpolation shrinks;
* :func:`scaled_relative_scores` and :func:`window_averaged_scores`: score against distance under a method's
  frequencies and attention factor, exactly or averaged over a window of distances;
* :func:`compare_methods`: every static method for one head, one ``s`` and one ``L``;
* :func:`yarn_paper_ramp`, :func:`yarn_paper_frequencies` and :func:`dynamic_paper_scale`: two rules as the
  YaRN paper writes them, where the code that models run (the authors' own, which Hugging Face transformers
  and vLLM copy) computes something else;
* :func:`config_from_text` and :func:`scaling_summary`: read a pasted ``config.json`` and summarise what its
  RoPE block does to each pair.

Sources: Chen et al. 2023, "Extending Context Window of Large Language Models via Positional Interpolation",
arXiv:2306.15595; Peng et al. 2023, "YaRN: Efficient Context Window Extension of Large Language Models",
arXiv:2309.00071.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping

import numpy as np

from rope_viz._validation import check_finite
from rope_viz.rotation import to_interleaved
from rope_viz.scaling import RopeScaling, from_config, yarn_get_mscale
from rope_viz.scaling.parameters import RopeParameters, check_number, check_positive_int
from rope_viz.scores import relative_scores

TWO_PI = 2.0 * math.pi

#: Relative tolerance below which an angle beyond the trained arc counts as rounding, not as a new angle.
UNSEEN_RTOL = 1e-9


def _frequencies(inv_freq: object, name: str = "inv_freq") -> np.ndarray:
    frequencies = check_finite(inv_freq, name)
    if frequencies.ndim != 1 or frequencies.size == 0 or np.any(frequencies <= 0):
        raise ValueError(f"{name} must be a 1-D array of positive frequencies (radians per token)")
    return frequencies


def _length(value: object, name: str) -> float:
    return check_number(value, name, minimum=0.0, inclusive=False)


def context_arcs(length: float, inv_freq: object) -> np.ndarray:
    """Angle each pair sweeps over a context of ``length`` tokens: ``A_i = length * theta_i`` radians.

    Positions, and offsets between a query and a key, run over ``[0, length)``; pair ``i`` turns by
    ``m * theta_i`` at position ``m`` (RoFormer, Su et al. 2021, arXiv:2104.09864, sec. 3.2.2), so the angles
    it meets fill ``[0, A_i)``. The pairing convention does not matter.

    Parameters
    ----------
    length : float
        Context length in tokens; > 0.
    inv_freq : array_like
        Shape ``(d/2,)``, positive, radians per token (plain or scaled).

    Returns
    -------
    numpy.ndarray
        Shape ``(d/2,)``, radians.

    Examples
    --------
    >>> context_arcs(4096, [1.0, 1e-4])
    array([4.096e+03, 4.096e-01])

    """
    return _length(length, "length") * _frequencies(inv_freq)


def turns(length: float, inv_freq: object) -> np.ndarray:
    """Count the turns each pair makes over ``length`` tokens: ``rho_i = length theta_i / (2 pi)``.

    That is ``length / lambda_i``, with ``lambda_i = 2 pi / theta_i`` the pair's wavelength.

    The YaRN paper calls this ratio ``r`` and bounds its blend with it (Peng et al. 2023, arXiv:2309.00071,
    sec. 3.2, eq. (17)); the course writes ``rho``, keeping ``r`` for the distance ``m - n``.

    Parameters
    ----------
    length : float
        Context length in tokens; > 0.
    inv_freq : array_like
        Shape ``(d/2,)``, positive, radians per token.

    Returns
    -------
    numpy.ndarray
        Shape ``(d/2,)``; below 1 for a pair that never completes a turn within ``length``.

    Examples
    --------
    >>> print(turns(4096, [1.0, 1e-3]).round(3))
    [651.899   0.652]

    """
    return context_arcs(length, inv_freq) / TWO_PI


def first_partial_pair(length: float, inv_freq: object) -> int:
    """Index of the first pair that turns less than once over ``length`` tokens (``length * theta_i < 2 pi``).

    For the schedule ``theta_i = b ** (-2i/d)`` every pair from this index on sees only part of the circle
    over ``length`` tokens, and the index is the smallest ``i >= 0`` with ``i > (d/2) log_b(length / (2 pi))``
    (or ``d/2`` if there is none).

    Parameters
    ----------
    length : float
        Context length in tokens; > 0.
    inv_freq : array_like
        Shape ``(d/2,)``, positive, radians per token.

    Returns
    -------
    int
        In ``[0, d/2]``; ``d/2`` when every pair completes a turn.

    Examples
    --------
    Over 4,096 tokens a pair of 1e-3 radians per token turns 4.096 radians, less than a full turn:

    >>> first_partial_pair(4096, [1.0, 1e-1, 1e-2, 1e-3, 1e-4])
    3

    """
    partial = np.flatnonzero(turns(length, inv_freq) < 1.0)
    return int(partial[0]) if partial.size else int(np.size(inv_freq))


def unseen_angles(
    trained_length: float, target_length: float, trained_inv_freq: object, inv_freq: object | None = None
) -> np.ndarray:
    """How far past its trained arc each pair turns at the target length, counting only angles never seen.

    Implements ``U_i = max(0, min(L' theta_i', 2 pi) - min(L theta_i, 2 pi))``: in training (length ``L``,
    frequencies ``theta_i``) pair ``i`` met the angles ``[0, L theta_i)``, the whole circle once
    ``L theta_i >= 2 pi``; at the target length ``L'`` with frequencies ``theta_i'`` it meets
    ``[0, L' theta_i')``.
    ``U_i`` is the part of the circle met only at the target length. It is 0 for every pair that completed a
    turn in training, and for every pair when ``L' theta_i' <= L theta_i`` (position interpolation with
    ``s >= L'/L``, Chen et al. 2023, arXiv:2306.15595). Differences below :data:`UNSEEN_RTOL` relative to the
    trained arc count as 0.

    Parameters
    ----------
    trained_length : float
        Training length ``L`` in tokens; > 0.
    target_length : float
        Target length ``L'`` in tokens; > 0.
    trained_inv_freq : array_like
        Shape ``(d/2,)``: the frequencies the model was trained with.
    inv_freq : array_like, optional
        Shape ``(d/2,)``: the frequencies used at the target length (a method's ``inv_freq``); default: the
        trained ones (plain extrapolation).

    Returns
    -------
    numpy.ndarray
        Shape ``(d/2,)``, radians in ``[0, 2 pi)``.

    Examples
    --------
    A pair that turns a quarter of a circle in 1,000 tokens meets another quarter at 2,000 tokens:

    >>> print(np.degrees(unseen_angles(1000, 2000, [np.pi / 2000])))
    [90.]

    """
    trained = _frequencies(trained_inv_freq, "trained_inv_freq")
    used = trained if inv_freq is None else _frequencies(inv_freq)
    if used.shape != trained.shape:
        raise ValueError(
            f"inv_freq and trained_inv_freq must have the same shape, got {used.shape} and {trained.shape}"
        )
    seen = np.minimum(context_arcs(trained_length, trained), TWO_PI)
    reached = np.minimum(context_arcs(target_length, used), TWO_PI)
    beyond = reached - seen
    return np.where(beyond > UNSEEN_RTOL * np.maximum(seen, 1e-300), beyond, 0.0)


def neighbour_angles(inv_freq: object, factor: float = 1.0) -> np.ndarray:
    """Angle between neighbouring tokens on each pair after position interpolation: ``theta_i / s``.

    Position interpolation reads position ``m`` as ``m / s`` (Chen et al. 2023, arXiv:2306.15595, eq. 4), so
    tokens ``m`` and ``m + 1`` differ by ``theta_i / s`` on pair ``i`` instead of ``theta_i``. For any other
    method the angle between neighbours is simply its ``inv_freq`` (``factor=1``).

    Parameters
    ----------
    inv_freq : array_like
        Shape ``(d/2,)``, positive, radians per token.
    factor : float, default 1.0
        Interpolation factor ``s``; >= 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(d/2,)``, radians.

    Examples
    --------
    >>> print(np.degrees(neighbour_angles([1.0], 8.0)).round(3))
    [7.162]

    """
    return _frequencies(inv_freq) / check_number(factor, "factor", minimum=1.0)


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
    frequencies = _frequencies(inv_freq)
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


def yarn_paper_ramp(parameters: RopeParameters) -> np.ndarray:
    """Weight of the interpolated frequency per pair, with the ramp of the YaRN paper (linear in turns).

    Implements ``1 - gamma(rho_i)`` with ``rho_i = L / lambda_i`` the turns pair ``i`` makes over
    ``L = original_max_position_embeddings`` and (Peng et al. 2023, arXiv:2309.00071, sec. 3.2, eq. (18),
    where ``rho`` is written ``r``, with ``alpha = beta_slow`` and ``beta = beta_fast``)::

        gamma(rho) = 0                                   if rho < alpha
                   = 1                                   if rho > beta
                   = (rho - alpha) / (beta - alpha)      otherwise.

    The authors' reference code (jquesnelle/yarn), with which the released YaRN models were fine-tuned and
    which transformers and vLLM copy, ramps linearly in the pair index instead, with edges rounded outward
    (:func:`rope_viz.scaling.yarn_ramp`). ``beta_fast == beta_slow`` gives a step at ``rho = beta_slow``.

    Parameters
    ----------
    parameters : RopeParameters
        Uses ``rope_theta``, ``dim``, ``original_max_position_embeddings``, ``beta_fast`` (default 32) and
        ``beta_slow`` (default 1).

    Returns
    -------
    numpy.ndarray
        Shape ``(dim // 2,)``, in ``[0, 1]``: 0 keeps the pair's frequency, 1 divides it by ``s``.

    """
    length = _original_length(parameters)
    alpha, beta = parameters.resolved_beta_slow, parameters.resolved_beta_fast
    theta = parameters.rope_theta ** -(np.arange(0, parameters.dim, 2, dtype=np.float64) / parameters.dim)
    rho = turns(length, theta)  # (d/2,)
    if beta == alpha:
        gamma = (rho > alpha).astype(np.float64)
    else:
        gamma = np.clip((rho - alpha) / (beta - alpha), 0.0, 1.0)
    return 1.0 - gamma


def yarn_paper_frequencies(
    parameters: RopeParameters, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """YaRN as the paper writes it: NTK-by-parts with a ramp linear in turns, and ``0.1 ln s + 1``.

    Implements ``theta_i' = (1 - gamma_i) theta_i / s + gamma_i theta_i`` (Peng et al. 2023,
    arXiv:2309.00071, sec. 3.2, eq. (20)) with ``gamma_i`` from :func:`yarn_paper_ramp` (eq. (18)), and the
    factor on cos and sin ``sqrt(1/t) = 0.1 ln s + 1`` (sec. 3.4, eq. (22)), ignoring DeepSeek's ``mscale``
    keys and ``attention_factor``. The YaRN models its authors released were trained with the reference
    code's ramp instead, :func:`rope_viz.scaling.yarn_frequencies`.
    Same signature as the methods of :data:`rope_viz.scaling.METHODS`.

    Parameters
    ----------
    parameters : RopeParameters
        As :func:`yarn_paper_ramp`, plus ``factor`` (``s``; ``None``: ``max_position_embeddings /
        original_max_position_embeddings``).
    seq_len : int, optional
        Unused.

    Returns
    -------
    inv_freq : numpy.ndarray
        Shape ``(dim // 2,)``.
    attention_factor : float

    """
    factor = parameters.scaling_factor
    theta = parameters.rope_theta ** -(np.arange(0, parameters.dim, 2, dtype=np.float64) / parameters.dim)
    weight = yarn_paper_ramp(parameters)
    return weight * theta / factor + (1.0 - weight) * theta, yarn_get_mscale(factor)


def _original_length(parameters: RopeParameters) -> int:
    length = parameters.original_max_position_embeddings or parameters.max_position_embeddings
    if length is None:
        raise ValueError("original_max_position_embeddings (the training length L) is required")
    return length


def dynamic_paper_scale(seq_len: int, trained_length: int) -> float:
    """Scale of dynamic NTK scaling in the YaRN paper: ``s = max(1, l / L)``.

    ``l`` is the current sequence length and ``L`` the training length (Peng et al. 2023, arXiv:2309.00071,
    sec. 3.3). The dynamic-scaling code that came first, in the YaRN authors' repository (jquesnelle/yarn,
    ``scaled_rope/LlamaDynamicScaledRotaryEmbedding.py``, its ``ntk`` argument) and in transformers
    (:func:`rope_viz.scaling.dynamic_scale`), uses ``factor * l / L - (factor - 1)``, which equals this only
    for ``factor = 1``.

    Parameters
    ----------
    seq_len : int
        Current sequence length ``l``; positive.
    trained_length : int
        Training length ``L``; positive.

    Returns
    -------
    float

    Examples
    --------
    >>> dynamic_paper_scale(8192, 4096), dynamic_paper_scale(1000, 4096)
    (2.0, 1.0)

    """
    seq_len = check_positive_int(seq_len, "seq_len")
    trained_length = check_positive_int(trained_length, "trained_length")
    return max(1.0, seq_len / trained_length)


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


# --- a pasted config ----------------------------------------------------------------------------------------

_MODEL_KEYS = (
    "hidden_size",
    "head_dim",
    "qk_rope_head_dim",
    "num_attention_heads",
    "rope_scaling",
    "rope_parameters",
    "text_config",
)


def config_from_text(text: str, *, head_dim: int = 128) -> dict:
    """Read a pasted ``config.json``, or only its RoPE block, into a config dict for ``from_config``.

    Accepts a whole JSON object, a fragment such as ``"rope_scaling": {...}`` (braces are added), or a bare
    RoPE block (``{"rope_type": "yarn", "factor": 4.0, ...}``, recognised by having none of the model keys
    ``hidden_size``, ``head_dim``, ``rope_scaling``, ...), which is given the head size ``head_dim``.

    Parameters
    ----------
    text : str
        JSON text.
    head_dim : int, default 128
        Head size used for a bare RoPE block.

    Returns
    -------
    dict

    Raises
    ------
    ValueError
        If the text is not JSON for an object.

    Examples
    --------
    >>> config_from_text('{"rope_type": "linear", "factor": 2.0}', head_dim=64)
    {'head_dim': 64, 'rope_scaling': {'rope_type': 'linear', 'factor': 2.0}}

    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("paste the JSON of a config.json or of its rope_scaling / rope_parameters block")
    stripped = text.strip().rstrip(",")
    try:
        value = json.loads(stripped)
    except json.JSONDecodeError as first_error:
        try:
            value = json.loads("{" + stripped + "}")
        except json.JSONDecodeError:
            raise ValueError(f"not valid JSON: {first_error}") from None
    if not isinstance(value, Mapping):
        raise ValueError(f"the JSON must be an object ({{...}}), got {type(value).__name__}")
    value = dict(value)
    if len(value) == 1 and next(iter(value)) in ("rope_scaling", "rope_parameters"):
        value = dict(value[next(iter(value))] or {})
    if not any(key in value for key in _MODEL_KEYS):
        return {"head_dim": check_positive_int(head_dim, "head_dim"), "rope_scaling": value}
    return value


def scaling_summary(scaling: RopeScaling) -> dict:
    """Collect the key numbers of one RoPE configuration, for tables and readouts.

    Parameters
    ----------
    scaling : RopeScaling
        From :func:`rope_viz.scaling.from_config` or :func:`rope_viz.presets.load`.

    Returns
    -------
    dict
        ``rope_type``, ``dim``, ``rotary_dim`` (channels that rotate), ``pairs`` (``d/2``), ``base``,
        ``factor`` (``s``), ``attention_factor`` (``a``), ``logit_factor`` (``a**2``), ``counts`` (pairs per
        class), ``bands`` (for each class present, its first and last pair index), ``shortest_wavelength``
        and ``longest_wavelength`` (tokens, after scaling, over the pairs that rotate),
        ``longest_plain_wavelength`` (before scaling), ``max_scale`` (largest slow-down of a rotating pair),
        ``original_length`` (``L``, ``original_max_position_embeddings``, or ``None``),
        ``max_position_embeddings`` (or ``None``) and ``extended_length`` (``L * s``, or ``None`` without
        an ``L``): the length over which a pair slowed ``s`` times sweeps the arc it swept over ``L`` in
        training. It need not be ``max_position_embeddings``: Qwen2.5's YaRN block keeps that at ``L``, and
        Llama 3.1 declares twice ``L * s``.

    """
    classes = scaling.pair_classes
    bands = {}
    for name in ("untouched", "blended", "interpolated", "unrotated"):
        members = np.flatnonzero(classes == name)
        if members.size:
            bands[name] = (int(members[0]), int(members[-1]))
    rotating = scaling.inv_freq > 0  # proportional RoPE's slow pairs have frequency 0 and no wavelength
    wavelengths = scaling.wavelengths[rotating]
    original = scaling.parameters.original_max_position_embeddings
    return {
        "rope_type": scaling.rope_type,
        "dim": scaling.dim,
        "rotary_dim": scaling.rotary_dim,
        "pairs": scaling.dim // 2,
        "base": scaling.parameters.rope_theta,
        "factor": scaling.factor,
        "attention_factor": scaling.attention_factor,
        "logit_factor": scaling.attention_factor**2,
        "counts": scaling.pair_counts(),
        "bands": bands,
        "shortest_wavelength": float(wavelengths.min()),
        "longest_wavelength": float(wavelengths.max()),
        "longest_plain_wavelength": float((TWO_PI / scaling.default_inv_freq).max()),
        "max_scale": float(scaling.scale_per_pair[rotating].max()),
        "original_length": original,
        "max_position_embeddings": scaling.parameters.max_position_embeddings,
        "extended_length": None if original is None else float(original * scaling.factor),
    }


def scaling_from_text(text: str, *, head_dim: int = 128, seq_len: int | None = None) -> RopeScaling:
    """:func:`config_from_text` followed by :func:`rope_viz.scaling.from_config`.

    Raises
    ------
    ValueError
        If the text is not JSON for an object, or the config is invalid (the message says why).

    """
    return from_config(config_from_text(text, head_dim=head_dim), seq_len=seq_len)


__all__ = [
    "COMPARED_METHODS",
    "TWO_PI",
    "UNSEEN_RTOL",
    "compare_methods",
    "config_from_text",
    "context_arcs",
    "dynamic_paper_scale",
    "first_partial_pair",
    "neighbour_angles",
    "scaled_relative_scores",
    "scaling_from_text",
    "scaling_summary",
    "turns",
    "unseen_angles",
    "window_averaged_scores",
    "yarn_paper_frequencies",
    "yarn_paper_ramp",
]
