"""Attention temperatures: the factors that context-extension methods put on the attention logits.

A query at position ``p`` shares its softmax with ``p + 1`` keys, so the longer the context, the flatter the
attention (:mod:`rope_viz.temperature` works out why). Several methods answer by sharpening the logits with a
factor that grows like a logarithm of the length. They differ in *where* the factor is applied, which decides
what it does to a logit ``q . k``:

=================================== ========================= ===========================================
method                              applied to                logits multiplied by
=================================== ========================= ===========================================
YaRN, LongRoPE                      cos and sin (q and k)     the square of the factor
DeepSeek-V2/V3 (YaRN + mscale)      cos and sin, and the      ``get_mscale(s, mscale)^2`` (rotated part),
                                    softmax scale             ``get_mscale(s, mscale_all_dim)^2`` (content)
Llama 4 (NoPE layers only)          queries                   the factor, growing with the position
``llama_4_scaling_beta`` (Mistral)  queries                   the factor, growing with the position
Qwen-7B log-n                       queries                   the factor, growing with the position
=================================== ========================= ===========================================

A factor on cos and sin reaches only the rotated dimensions; it multiplies the whole logit when the whole
head is rotated. YaRN, LongRoPE and DeepSeek's factors are functions of the scale factor ``s`` (HF
``factor``), the same at every position; the three query factors are functions of the position.
:func:`logit_multipliers` puts all of them on one position axis, with settings from real model configs.
"""

from __future__ import annotations

import numpy as np

from rope_viz._validation import check_finite
from rope_viz.scaling.parameters import check_number


def _factors(factor: object) -> np.ndarray:
    factor = check_finite(factor, "factor")
    if np.any(factor <= 0):
        raise ValueError("factor must be > 0 (the context-extension factor s)")
    return factor


def _positions(positions: object) -> np.ndarray:
    positions = check_finite(positions, "positions")
    if np.any(positions < 0):
        raise ValueError("positions must be >= 0 (0-based token positions)")
    return positions


def _coefficient(value: object, name: str) -> float:
    """``mscale``-like coefficients: ``None`` and 0 both mean absent, as in transformers' truthiness tests."""
    return 0.0 if value is None else check_number(value, name, minimum=0.0)


def _get_mscale(factor: np.ndarray, mscale: float = 1.0) -> np.ndarray:
    """YaRN's curve ``0.1 mscale ln(s) + 1`` for ``s > 1``, else 1 (transformers' ``get_mscale``)."""
    return np.where(factor > 1.0, 0.1 * mscale * np.log(np.maximum(factor, 1.0)) + 1.0, 1.0)


def _softmax_correction(factor: np.ndarray, mscale_all_dim: object) -> np.ndarray:
    """``get_mscale(s, mscale_all_dim) ** 2``, or 1 without ``mscale_all_dim`` (``yarn_apply_mscale``)."""
    mscale_all_dim = _coefficient(mscale_all_dim, "mscale_all_dim")
    return _get_mscale(factor, mscale_all_dim) ** 2 if mscale_all_dim else np.ones_like(factor)


def yarn_cos_sin_factor(
    factor: object, *, mscale: float | None = None, mscale_all_dim: float | None = None
) -> np.ndarray:
    """YaRN's factor on cos and sin: ``0.1 ln s + 1``, or DeepSeek's ratio of two such curves.

    Implements ``sqrt(1/t) = 0.1 ln s + 1`` for ``s > 1`` (1 otherwise; Peng et al. 2023, "YaRN",
    arXiv:2309.00071, section 3.4, the equation for ``sqrt(1/t)``). When both ``mscale`` and
    ``mscale_all_dim`` are non-zero, transformers uses ``get_mscale(s, mscale) / get_mscale(s,
    mscale_all_dim)`` instead, with ``get_mscale(s, c) = 0.1 c ln s + 1`` (``_compute_yarn_parameters``,
    transformers 5.23); one of them alone is ignored, and equal values give exactly 1 (DeepSeek-V2 and V3).

    *Where:* the rotary embedding multiplies cos and sin by it (``attention_scaling``), so the rotated query
    and the rotated key each carry it once and their dot product, the logit, carries its square.

    Parameters
    ----------
    factor : array_like
        Scale factor ``s`` (HF ``factor``), any shape, each > 0.
    mscale, mscale_all_dim : float, optional
        DeepSeek's coefficients, >= 0; ``None`` and 0 count as absent.

    Returns
    -------
    numpy.ndarray
        Same shape as ``factor``; multiply by itself for the factor on the logits.

    Examples
    --------
    >>> yarn_cos_sin_factor([1.0, 4.0]).round(6)
    array([1.      , 1.138629])
    >>> float(yarn_cos_sin_factor(40.0, mscale=1.0, mscale_all_dim=1.0))
    1.0

    """
    factor = _factors(factor)
    mscale, mscale_all_dim = _coefficient(mscale, "mscale"), _coefficient(mscale_all_dim, "mscale_all_dim")
    if mscale and mscale_all_dim:
        return np.asarray(_get_mscale(factor, mscale) / _get_mscale(factor, mscale_all_dim))
    return _get_mscale(factor)


def longrope_cos_sin_factor(factor: object, original_max_position_embeddings: int) -> np.ndarray:
    """LongRoPE's factor on cos and sin: ``sqrt(1 + ln s / ln L)`` for ``s > 1``, else 1.

    The rule of Phi-3's modeling code and of transformers (``_compute_longrope_parameters``, 5.23), where
    ``L = original_max_position_embeddings`` and ``s`` is ``factor`` or, without one,
    ``max_position_embeddings / L`` (LongRoPE: Ding et al. 2024, arXiv:2402.13753).

    *Where:* cos and sin, as in YaRN, so the logits carry the square ``1 + ln s / ln L = ln(s L) / ln L``:
    Qwen's log-n factor (:func:`qwen_logn_query_factor`) at the extended length ``s L``.

    Parameters
    ----------
    factor : array_like
        Scale factor ``s``, any shape, each > 0.
    original_max_position_embeddings : int
        Training length ``L``, > 1.

    Returns
    -------
    numpy.ndarray
        Same shape as ``factor``.

    Examples
    --------
    >>> round(float(longrope_cos_sin_factor(32.0, 4096)), 6)
    1.190238

    """
    factor = _factors(factor)
    length = check_number(original_max_position_embeddings, "original_max_position_embeddings", minimum=1.0)
    if length == 1.0:
        raise ValueError("original_max_position_embeddings must be > 1 (ln L divides)")
    growth = np.log(np.maximum(factor, 1.0)) / np.log(length)  # ln s / ln L, 0 for s <= 1
    return np.asarray(np.sqrt(1.0 + growth))


def deepseek_softmax_scale(
    factor: object, qk_head_dim: int, *, mscale_all_dim: float | None = 1.0
) -> np.ndarray:
    """DeepSeek's softmax scale: ``qk_head_dim ** -0.5 * get_mscale(s, mscale_all_dim) ** 2``.

    As transformers' ``DeepseekV3Attention`` sets ``scaling`` (``yarn_apply_mscale``, 5.23) for a YaRN config:
    the correction applies when ``mscale_all_dim`` is non-zero; ``get_mscale(s, c) = 0.1 c ln s + 1`` for
    ``s > 1``, else 1. ``qk_head_dim = qk_nope_head_dim + qk_rope_head_dim`` (DeepSeek-V2, arXiv:2405.04434,
    and DeepSeek-V3, arXiv:2412.19437).

    *Where:* it multiplies every logit ``q . k`` of the head, content and rotated parts alike, before the
    softmax; together with :func:`yarn_cos_sin_factor` on cos and sin see :func:`deepseek_logit_multipliers`.

    Parameters
    ----------
    factor : array_like
        Scale factor ``s``, any shape, each > 0.
    qk_head_dim : int
        Size of a query or key, >= 1 (DeepSeek-V3: 128 + 64 = 192).
    mscale_all_dim : float, optional
        >= 0; ``None`` or 0 leaves the scale at ``qk_head_dim ** -0.5``.

    Returns
    -------
    numpy.ndarray
        Same shape as ``factor``.

    Notes
    -----
    DeepSeek's own inference code (``MLA.__init__`` in ``inference/model.py`` of deepseek-ai/DeepSeek-V3)
    computes ``softmax_scale *= (0.1 * mscale * ln(rope_factor) + 1) ** 2`` with its ``mscale`` argument,
    and only when the run's ``max_seq_len`` exceeds ``original_seq_len``; it does not scale cos and sin, and
    it applies YaRN's frequencies under the same condition. With DeepSeek-V3's ``mscale = mscale_all_dim = 1``
    the logits agree with transformers' once ``max_seq_len > 4096``; for a shorter run that code uses plain
    RoPE and no correction, while transformers always uses both. DeepSeek's Hub code for transformers
    (``modeling_deepseek.py``) scales cos and sin and the softmax as transformers does.

    Examples
    --------
    >>> round(float(deepseek_softmax_scale(40.0, 192)), 6)
    0.135234

    """
    factor = _factors(factor)
    qk_head_dim = check_number(qk_head_dim, "qk_head_dim", minimum=1.0)
    return qk_head_dim**-0.5 * _softmax_correction(factor, mscale_all_dim)


def deepseek_logit_multipliers(
    factor: object, *, mscale: float | None = 1.0, mscale_all_dim: float | None = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """DeepSeek's factors on the two parts of a logit, relative to plain ``qk_head_dim ** -0.5`` scaling.

    The content part ``q_nope . k_nope`` carries only the softmax correction
    ``get_mscale(s, mscale_all_dim)^2`` (:func:`deepseek_softmax_scale`); the rotated part ``q_rope . k_rope``
    carries it times the square of the cos/sin factor (:func:`yarn_cos_sin_factor`), which is
    ``get_mscale(s, mscale)^2`` when both coefficients are non-zero. DeepSeek-V3 (``factor = 40``,
    ``mscale = mscale_all_dim = 1``): both parts ``(0.1 ln 40 + 1)^2 = 1.874``.

    Parameters
    ----------
    factor : array_like
        Scale factor ``s``, any shape, each > 0.
    mscale, mscale_all_dim : float, optional
        >= 0; ``None`` and 0 count as absent.

    Returns
    -------
    content, rotated : numpy.ndarray
        Each of the shape of ``factor``.

    Examples
    --------
    >>> content, rotated = deepseek_logit_multipliers(40.0)
    >>> print(content.round(4), rotated.round(4))
    1.8739 1.8739

    """
    content = _softmax_correction(_factors(factor), mscale_all_dim)
    cos_sin = yarn_cos_sin_factor(factor, mscale=mscale, mscale_all_dim=mscale_all_dim)
    return content, content * cos_sin**2


def llama4_query_factor(
    positions: object, *, floor_scale: float = 8192.0, attn_scale: float = 0.1
) -> np.ndarray:
    """Llama 4's attention temperature tuning: ``1 + attn_scale * ln(floor((p + 1) / floor_scale) + 1)``.

    As in Meta's ``Attention.forward`` (``models/llama4/model.py`` of meta-llama/llama-models, whose comment
    cites Scalable-Softmax, Nakanishi 2025, arXiv:2501.19399) and transformers'
    ``Llama4TextAttention.forward`` (5.23, written with ``log1p``). Meta's announcement of Llama 4 calls it
    inference-time temperature scaling of attention.

    *Where:* the queries of the NoPE layers only (``no_rope_layers[i] == 0``; by default every fourth layer,
    ``i = 3, 7, 11, ...``), when ``attn_temperature_tuning`` is set; the logits of those layers are multiplied
    by the factor itself. ``p`` is the query's index in the cache (transformers: ``arange(seq_len) +
    past_seen_tokens``, not ``position_ids``), so it is a step function: 1 for ``p + 1 < floor_scale``, then
    up by ``attn_scale * ln((k + 1) / k)`` when ``p + 1`` reaches ``k floor_scale``.

    Parameters
    ----------
    positions : array_like
        0-based cache positions ``p``, any shape, each >= 0.
    floor_scale : float, default 8192
        Tokens per step, > 0 (transformers' ``Llama4TextConfig`` default).
    attn_scale : float, default 0.1
        Coefficient of the logarithm, >= 0 (the same default).

    Returns
    -------
    numpy.ndarray
        Same shape as ``positions``.

    Examples
    --------
    >>> llama4_query_factor([0, 8190, 8191, 131071]).round(4)
    array([1.    , 1.    , 1.0693, 1.2833])

    """
    positions = _positions(positions)
    floor_scale = check_number(floor_scale, "floor_scale", minimum=0.0, inclusive=False)
    attn_scale = check_number(attn_scale, "attn_scale", minimum=0.0)
    return 1.0 + attn_scale * np.log(np.floor((positions + 1.0) / floor_scale) + 1.0)


def llama_4_scaling_query_factor(
    positions: object, *, beta: float = 0.1, original_max_position_embeddings: int = 16384
) -> np.ndarray:
    """Mistral's ``llama_4_scaling_beta``: ``1 + beta * ln(1 + floor(p / L))``.

    transformers' ``get_llama_4_attn_scale`` (``modeling_ministral3`` and ``modeling_mistral4``, 5.23),
    called with ``rope_parameters["llama_4_scaling_beta"]`` and
    ``rope_parameters["original_max_position_embeddings"]``, the ``L`` of the model's YaRN block (Ministral 3:
    16384; Mistral Small 4: 8192).

    *Where:* the queries, after RoPE, in every layer (``Ministral3Attention``; ``Mistral4Attention`` scales
    its whole MLA query, content and rotated parts); the logits are multiplied by the factor itself. ``p`` is
    the ``position_ids`` entry. Compared with :func:`llama4_query_factor`: ``p / L`` instead of
    ``(p + 1) / floor_scale`` (the first step comes at ``p = L``, one token later), every layer instead of
    NoPE layers only, and ``L`` taken from the YaRN block.

    Parameters
    ----------
    positions : array_like
        0-based positions ``p`` (``position_ids``), any shape, each >= 0.
    beta : float, default 0.1
        ``llama_4_scaling_beta``, >= 0 (transformers' ``Ministral3Config`` default).
    original_max_position_embeddings : int, default 16384
        ``L``, > 0 (the same default).

    Returns
    -------
    numpy.ndarray
        Same shape as ``positions``.

    Examples
    --------
    >>> llama_4_scaling_query_factor([16383, 16384, 262143]).round(4)
    array([1.    , 1.0693, 1.2773])

    """
    positions = _positions(positions)
    beta = check_number(beta, "beta", minimum=0.0)
    length = check_number(
        original_max_position_embeddings, "original_max_position_embeddings", minimum=0.0, inclusive=False
    )
    return 1.0 + beta * np.log(1.0 + np.floor(positions / length))


def qwen_logn_query_factor(positions: object, *, training_length: int = 2048) -> np.ndarray:
    """Qwen's log-n scaling: ``log_n(p + 1) = ln(p + 1) / ln(n)`` once ``p + 1 > n``, else 1.

    Qwen-7B's ``modeling_qwen.py`` (``use_logn_attn``; the Hub repository Qwen/Qwen-7B, run with
    ``trust_remote_code``) builds ``logn_list = [log(i, n) if i > n else 1 for i in range(1, 32768)]`` with
    ``n = config.seq_length`` and multiplies the query at cache position ``p`` by entry ``i = p + 1``, the
    number of keys it attends to. The Qwen technical report (Bai et al. 2023, arXiv:2309.16609) calls it
    LogN-Scaling; the idea of scaling logits by ``log n`` goes back to Chiang and Cholak 2022
    (arXiv:2202.12172) and to Su Jianlin's entropy-invariance argument (kexue.fm, 2021). transformers does not
    implement it.

    *Where:* the queries, after RoPE, at inference only (``not self.training``); the logits are multiplied by
    the factor itself. Beyond ``n`` keys the factor keeps the softmax's entropy roughly where it was at ``n``.

    Parameters
    ----------
    positions : array_like
        0-based cache positions ``p``, any shape, each >= 0.
    training_length : int, default 2048
        ``n`` (Qwen's ``seq_length``), > 1.

    Returns
    -------
    numpy.ndarray
        Same shape as ``positions``; >= 1. Qwen's table ends at ``p = 32766``; the formula goes on here.

    Examples
    --------
    >>> qwen_logn_query_factor([2047, 2048, 32767]).round(4)
    array([1.    , 1.0001, 1.3636])

    """
    positions = _positions(positions)
    length = check_number(training_length, "training_length", minimum=1.0)
    if length == 1.0:
        raise ValueError("training_length must be > 1 (ln n divides)")
    keys = positions + 1.0
    return np.where(keys > length, np.log(keys) / np.log(length), 1.0)


# Default settings of logit_multipliers, one real model each.
# Qwen/Qwen2.5-7B-Instruct model card, "Processing Long Texts" (rope_viz.presets "qwen2.5-7b-instruct-yarn").
QWEN_YARN = {"factor": 4.0, "original_max_position_embeddings": 32768}
# microsoft/Phi-3.5-mini-instruct config.json: max_position_embeddings / original = 131072 / 4096.
PHI_LONGROPE = {"factor": 131072 / 4096, "original_max_position_embeddings": 4096}
# deepseek-ai/DeepSeek-V3 config.json, rope_scaling (rope_viz.presets "deepseek-v3").
DEEPSEEK_V3_YARN = {
    "factor": 40.0,
    "mscale": 1.0,
    "mscale_all_dim": 1.0,
    "original_max_position_embeddings": 4096,
}
# transformers 5.23 Llama4TextConfig defaults (configuration_llama4.py).
LLAMA4_SCOUT = {"floor_scale": 8192.0, "attn_scale": 0.1}
# transformers 5.23 Ministral3Config default rope_parameters (configuration_ministral3.py).
MINISTRAL3 = {"beta": 0.1, "original_max_position_embeddings": 16384}
# Qwen/Qwen-7B config.json at its first release: seq_length 2048.
QWEN_7B = {"training_length": 2048}

LOGIT_MULTIPLIER_LABELS = {
    "yarn": "YaRN, Qwen2.5 (s = 4, L = 32768)",
    "longrope": "LongRoPE, Phi-3.5-mini (s = 32, L = 4096)",
    "deepseek": "DeepSeek-V3 (s = 40, mscale = mscale_all_dim = 1)",
    "llama4": "Llama 4 Scout, NoPE layers (floor_scale 8192, attn_scale 0.1)",
    "llama_4_scaling": "Ministral 3 (llama_4_scaling_beta 0.1, L = 16384)",
    "qwen_logn": "Qwen-7B log-n (first release, n = 2048)",
}
"""A legend entry for every key of :func:`logit_multipliers`."""


def logit_multipliers(positions: object, *, sized_to_position: bool = False) -> dict[str, np.ndarray]:
    """Every method's factor on the logits of a query at each position, with one real model's settings each.

    The factor multiplies ``q . k`` (after the plain ``1/sqrt(d)``): the square of a cos/sin factor, the
    softmax correction times it for DeepSeek (whose content and rotated parts agree for V3), the query factor
    itself for the query-side methods. Settings (keys as in :data:`LOGIT_MULTIPLIER_LABELS`):

    * ``"yarn"``: ``s = 4``, ``L = 32768``, the YaRN block of Qwen2.5-7B-Instruct's model card;
    * ``"longrope"``: ``s = 131072 / 4096 = 32``, ``L = 4096``, Phi-3.5-mini-instruct's config.json;
    * ``"deepseek"``: ``s = 40``, ``mscale = mscale_all_dim = 1``, ``L = 4096``, DeepSeek-V3's config.json;
    * ``"llama4"``: ``floor_scale = 8192``, ``attn_scale = 0.1``, transformers' ``Llama4TextConfig`` defaults;
    * ``"llama_4_scaling"``: ``beta = 0.1``, ``L = 16384``, transformers' ``Ministral3Config`` defaults;
    * ``"qwen_logn"``: ``n = 2048``, the ``seq_length`` of Qwen-7B's first release.

    The first three come from the Hub configs (kept in :mod:`rope_viz.presets` for Qwen2.5 and DeepSeek-V3)
    and are not in transformers' source, which ships no such defaults; the fourth and fifth are confirmed
    against transformers' configuration defaults by the tests, not against the Hub files of Llama 4 Scout and
    Ministral 3; Qwen-7B's 2048 is its first release's ``seq_length`` (later revisions of the repository
    are not checked here), also outside transformers. Llama 3.1 is absent: its ``llama3`` rule sets no
    attention factor.

    Parameters
    ----------
    positions : array_like
        0-based query positions ``p``, any shape, each >= 0.
    sized_to_position : bool, default False
        ``False``: YaRN, LongRoPE and DeepSeek use their configured ``s`` at every position (a constant, as
        the models run). ``True``: each uses ``s = max(1, (p + 1) / L)``, the factor of a config sized to
        reach position ``p`` (LongRoPE then coincides with log-n scaling with ``n = L``).

    Returns
    -------
    dict of str to numpy.ndarray
        Each array of the shape of ``positions``.

    Examples
    --------
    >>> table = logit_multipliers([0, 131071])
    >>> {name: values.round(3).tolist() for name, values in table.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'yarn': [1.296, 1.296], 'longrope': [1.417, 1.417], 'deepseek': [1.874, 1.874],
     'llama4': [1.0, 1.283], 'llama_4_scaling': [1.0, 1.208], 'qwen_logn': [1.0, 1.545]}

    """
    positions = _positions(positions)

    def scale(settings: dict) -> np.ndarray:
        if sized_to_position:
            return np.maximum((positions + 1.0) / settings["original_max_position_embeddings"], 1.0)
        return np.full(positions.shape, settings["factor"])

    deepseek_content, _ = deepseek_logit_multipliers(
        scale(DEEPSEEK_V3_YARN),
        mscale=DEEPSEEK_V3_YARN["mscale"],
        mscale_all_dim=DEEPSEEK_V3_YARN["mscale_all_dim"],
    )
    return {
        "yarn": yarn_cos_sin_factor(scale(QWEN_YARN)) ** 2,
        "longrope": longrope_cos_sin_factor(
            scale(PHI_LONGROPE), PHI_LONGROPE["original_max_position_embeddings"]
        )
        ** 2,
        "deepseek": deepseek_content,
        "llama4": llama4_query_factor(positions, **LLAMA4_SCOUT),
        "llama_4_scaling": llama_4_scaling_query_factor(positions, **MINISTRAL3),
        "qwen_logn": qwen_logn_query_factor(positions, **QWEN_7B),
    }
