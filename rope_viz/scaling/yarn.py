"""YaRN, from Peng et al. 2023, "YaRN: Efficient Context Window Extension of Large Language Models".

Paper: arXiv:2309.00071. YaRN leaves the fast pairs alone, interpolates the slow ones by ``s``
("NTK-by-parts", paper section 3.2) and multiplies cos and sin by ``0.1 ln s + 1`` (section 3.4), so that
attention logits grow by its square.

This module computes YaRN as the authors' reference code does (github.com/jquesnelle/yarn,
``_yarn_find_correction_range`` and ``_yarn_linear_ramp_mask`` in ``scaled_rope/modeling_llama_yarn.py``),
which is the code the released YaRN models were fine-tuned with. Hugging Face transformers
(``_compute_yarn_parameters``) and vLLM (``yarn_find_correction_range``, ``yarn_linear_ramp_mask``) copy it
step for step. Its blend runs linearly over the pair index, while the paper's equation (18) runs linearly over
the number of turns; :func:`rope_viz.extension.yarn_paper_frequencies` evaluates the paper's version.
"""

from __future__ import annotations

import math

import numpy as np

from rope_viz.frequencies import inv_freq as _plain_inv_freq
from rope_viz.scaling.parameters import RopeParameters

# transformers widens an empty ramp by this much (5.23, linear_ramp_factor in _compute_yarn_parameters)
_SINGULAR_RAMP_WIDTH = 0.001


def yarn_get_mscale(factor: float, mscale: float = 1.0) -> float:
    """YaRN's attention-scale curve: ``0.1 * mscale * ln(s) + 1`` for ``s > 1``, else 1.

    Parameters
    ----------
    factor : float
        Extension factor ``s``.
    mscale : float, default 1.0
        Coefficient of ``ln s`` (DeepSeek's ``mscale`` / ``mscale_all_dim``).

    Returns
    -------
    float

    Examples
    --------
    >>> round(yarn_get_mscale(4.0), 6)
    1.138629

    """
    if factor <= 1.0:
        return 1.0
    return 0.1 * mscale * math.log(factor) + 1.0


def yarn_attention_factor(parameters: RopeParameters) -> float:
    """Return the multiplier YaRN applies to cos and sin.

    ``attention_factor`` if given; else ``get_mscale(s, mscale) / get_mscale(s, mscale_all_dim)`` when both
    ``mscale`` and ``mscale_all_dim`` are non-zero; else ``get_mscale(s) = 0.1 ln s + 1`` (paper eq. (22) for
    ``sqrt(1/t)``, section 3.4). This is transformers' rule (5.23, ``_compute_yarn_parameters`` when
    ``attention_factor`` is None): one of ``mscale`` or ``mscale_all_dim`` alone is ignored, and equal values
    give exactly 1.
    """
    if parameters.attention_factor is not None:
        return parameters.attention_factor
    factor = parameters.scaling_factor
    if parameters.mscale and parameters.mscale_all_dim:
        return yarn_get_mscale(factor, parameters.mscale) / yarn_get_mscale(factor, parameters.mscale_all_dim)
    return yarn_get_mscale(factor)


def yarn_pair_index(rotations: float, parameters: RopeParameters) -> float:
    """Return the fractional pair index ``i`` that turns ``rotations`` times over ``L``.

    ``L`` is ``original_max_position_embeddings``. Solves ``L / lambda_i = rho`` with
    ``lambda_i = 2 pi b ** (2 i / d)``: ``i = d ln(L / (2 pi rho)) / (2 ln b)`` (the reference code's
    ``_yarn_find_correction_dim``; its result counts pairs, not dimensions, although the code calls it a dim).
    """
    length = parameters.original_max_position_embeddings
    return (
        parameters.dim
        * math.log(length / (rotations * 2.0 * math.pi))
        / (2.0 * math.log(parameters.rope_theta))
    )


def yarn_correction_range(parameters: RopeParameters) -> tuple[float, float]:
    """Pair indices where YaRN's blend starts and ends: ``(low, high)``.

    Pairs ``i <= low`` keep their frequency, pairs ``i >= high`` are divided by ``s``, and the blend is
    linear in ``i`` in between. ``low`` is the pair that turns ``beta_fast`` times over ``L``, ``high`` the
    one that turns ``beta_slow`` times; with ``truncate`` they are rounded outward (floor, ceil). Both are
    clamped to ``[0, dim - 1]``, as in the reference code's ``_yarn_find_correction_range`` and in
    transformers (5.23, ``find_correction_range`` in ``_compute_yarn_parameters``): the upper clamp is
    ``dim - 1``, not ``dim // 2 - 1``.

    Examples
    --------
    >>> parameters = RopeParameters(rope_type="yarn", head_dim=128, factor=4.0,
    ...                             original_max_position_embeddings=4096)
    >>> yarn_correction_range(parameters)
    (20, 46)

    """
    low = yarn_pair_index(parameters.resolved_beta_fast, parameters)
    high = yarn_pair_index(parameters.resolved_beta_slow, parameters)
    if parameters.truncate:
        low, high = math.floor(low), math.ceil(high)
    return max(low, 0), min(high, parameters.dim - 1)


def yarn_ramp(parameters: RopeParameters) -> np.ndarray:
    """Weight of the interpolated frequency per pair: 0 up to ``low``, 1 from ``high``, linear between.

    The reference code's ``_yarn_linear_ramp_mask`` over the pair indices ``0 .. dim/2 - 1``, with the edges
    of :func:`yarn_correction_range`; equal edges are moved apart by 0.001 as there.
    """
    low, high = yarn_correction_range(parameters)
    if low == high:
        high = high + _SINGULAR_RAMP_WIDTH
    pair_index = np.arange(parameters.dim // 2, dtype=np.float64)
    return np.clip((pair_index - low) / (high - low), 0.0, 1.0)


def yarn_frequencies(parameters: RopeParameters, seq_len: int | None = None) -> tuple[np.ndarray, float]:
    """YaRN: NTK-by-parts interpolation plus an attention temperature.

    Implements ``theta_i' = (1 - gamma_i) theta_i / s + gamma_i theta_i`` (paper eq. (20) for
    ``h(theta_d)``, section 3.2) with ``gamma_i = 1 - ramp_i`` from :func:`yarn_ramp`, the ramp of the
    authors' reference code, and returns :func:`yarn_attention_factor` as the factor on cos and sin.

    Parameters
    ----------
    parameters : RopeParameters
        Uses ``rope_theta``, ``dim``, ``factor`` (``None``: ``max_position_embeddings /
        original_max_position_embeddings``), ``original_max_position_embeddings`` (``L``), ``beta_fast``
        (default 32), ``beta_slow`` (default 1), ``truncate``, ``attention_factor``, ``mscale``,
        ``mscale_all_dim``.
    seq_len : int, optional
        Unused.

    Returns
    -------
    inv_freq : numpy.ndarray
        Shape ``(dim // 2,)``.
    attention_factor : float
        Multiplier of cos and sin; 1 at ``s = 1``.

    Notes
    -----
    Where the code that YaRN models run differs from the paper's equations. The first two points hold for
    the authors' reference code (jquesnelle/yarn) and for transformers (5.23, ``_compute_yarn_parameters``
    in modeling_rope_utils.py; the helpers named below are defined inside it) and vLLM alike, which copy it:

    * the paper's ramp, eq. (18), ``gamma(rho) = (rho - alpha) / (beta - alpha)`` (``alpha = beta_slow``,
      ``beta = beta_fast``), is linear in the number of turns ``rho = L / lambda`` (the paper writes ``r``);
      the code converts ``beta_fast`` and ``beta_slow`` to pair indices (transformers'
      ``find_correction_dim``) and ramps linearly in the pair index (``linear_ramp_factor``). As ``i`` is
      linear in ``ln rho``, the code's ``gamma`` is ``ln(rho / beta_slow) / ln(beta_fast / beta_slow)``; the
      edges are further rounded outward to whole indices (transformers' ``truncate``, the default, read in
      ``_compute_yarn_parameters``; the reference code always rounds). The released YaRN models were
      fine-tuned with this ramp;
    * the upper edge is clamped to ``dim - 1`` rather than the last pair ``dim // 2 - 1``
      (``find_correction_range``);

    and in transformers:

    * ``beta_fast`` and ``beta_slow`` fall back to 32 and 1 with ``or``
      (``rope_parameters_dict.get("beta_fast") or 32``), so a 0 also becomes the default; this module
      rejects 0 instead;
    * the attention factor combines DeepSeek's ``mscale`` and ``mscale_all_dim`` as a ratio of ``get_mscale``
      values (when ``attention_factor`` is None), which is 1 when they are equal, as in DeepSeek-V3.
      DeepSeek-V3's attention module then multiplies its softmax scale by
      ``get_mscale(s, mscale_all_dim) ** 2`` itself;
    * ``factor = None`` is replaced by ``max_position_embeddings / original_max_position_embeddings``
      (the ``factor is None`` branch); a missing ``original_max_position_embeddings`` falls back to
      ``max_position_embeddings`` during config standardisation
      (``RotaryEmbeddingConfigMixin.standardize_rope_params``);
    * transformers 4.51 to 4.55 replaced an explicit ``factor`` by ``max_position_embeddings /
      original_max_position_embeddings`` whenever the block named the latter (huggingface/transformers issue
      #38224; fixed in 4.56), so a block that keeps both lengths equal, as Qwen2.5's model card does, ran
      plain RoPE there. This module follows transformers 5.x and uses the given ``factor``.

    At ``s = 1`` the two frequency sets coincide and ``get_mscale`` returns 1, so YaRN reduces to plain RoPE
    with ``attention_factor = 1`` (unless ``attention_factor`` is given explicitly).

    """
    plain = _plain_inv_freq(parameters.dim, parameters.rope_theta)
    interpolated = plain / parameters.scaling_factor
    ramp = yarn_ramp(parameters)
    inv_freq = interpolated * ramp + plain * (1.0 - ramp)
    return inv_freq, yarn_attention_factor(parameters)
