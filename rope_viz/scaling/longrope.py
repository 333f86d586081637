"""LongRoPE (``rope_type="longrope"``), as used by Phi-3 and Phi-3.5.

Paper: Ding et al. 2024, "LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens", arXiv:2402.13753.
"""

from __future__ import annotations

import math

import numpy as np

from rope_viz.frequencies import inv_freq as _plain_inv_freq
from rope_viz.scaling.parameters import RopeParameters, check_seq_len


def longrope_attention_factor(parameters: RopeParameters) -> float:
    """Multiplier of cos and sin: ``attention_factor`` if given, else ``sqrt(1 + ln s / ln L)`` for ``s > 1``.

    ``s`` is ``factor``, or ``max_position_embeddings / original_max_position_embeddings`` without one, and
    ``L = original_max_position_embeddings`` (transformers 5.23, ``_compute_longrope_parameters``).

    Examples
    --------
    >>> parameters = RopeParameters(rope_type="longrope", head_dim=4, max_position_embeddings=131072,
    ...                             original_max_position_embeddings=4096, short_factor=[1.0, 1.0],
    ...                             long_factor=[1.0, 32.0])
    >>> round(longrope_attention_factor(parameters), 6)
    1.190238

    """
    if parameters.attention_factor is not None:
        return parameters.attention_factor
    factor = parameters.scaling_factor
    if factor <= 1.0:
        return 1.0
    return math.sqrt(1.0 + math.log(factor) / math.log(parameters.original_max_position_embeddings))


def uses_long_factor(parameters: RopeParameters, seq_len: int | None) -> bool:
    """Whether ``long_factor`` applies: only when ``seq_len`` is given and exceeds the original length."""
    seq_len = check_seq_len(seq_len)
    return seq_len is not None and seq_len > parameters.original_max_position_embeddings


def longrope_frequencies(parameters: RopeParameters, seq_len: int | None = None) -> tuple[np.ndarray, float]:
    """LongRoPE: divide each pair by its own searched factor.

    Implements ``theta_i' = theta_i / lambda_i``, where ``lambda`` is ``long_factor`` when
    ``seq_len > original_max_position_embeddings`` and ``short_factor`` otherwise.

    Parameters
    ----------
    parameters : RopeParameters
        Uses ``rope_theta``, ``dim``, ``short_factor`` and ``long_factor`` (``dim // 2`` numbers each),
        ``original_max_position_embeddings``, and ``factor`` / ``attention_factor`` /
        ``max_position_embeddings`` for the attention factor.
    seq_len : int, optional
        Current sequence length. ``None`` (transformers' value at model construction) selects
        ``short_factor``.

    Returns
    -------
    inv_freq : numpy.ndarray
        Shape ``(dim // 2,)``.
    attention_factor : float
        :func:`longrope_attention_factor`; the same for both lists.

    Notes
    -----
    The paper finds the per-pair factors (its lambda) by evolutionary search; a config ships the result.
    Neither list has to keep any pair at its frequency, nor to stop at ``s``: Phi-3.5-mini's ``short_factor``
    slows most pairs (up to about 2.8 times) at every length up to ``L``, and its ``long_factor`` slows its
    slowest pairs about ``2 s`` times. With the attention factor on top, such a model never computes plain
    RoPE. The classes of :func:`rope_viz.scaling.classify_pairs` (untouched, blended, interpolated) then only
    sort the searched divisors by size, against 1 and ``s``; no ramp joins them as in YaRN or Llama 3.1.
    In transformers:

    * the list is chosen per call from ``seq_len`` (``_compute_longrope_parameters``, 5.23); in a model,
      ``longrope_frequency_update`` (inside ``dynamic_rope_update``) switches to ``long_factor`` once the
      largest position id + 1 exceeds ``original_max_position_embeddings``;
    * the attention factor depends on ``factor``, not on ``seq_len``, so it multiplies cos and sin even while
      ``short_factor`` is in use (the ``attention_factor is None`` branch of
      ``_compute_longrope_parameters``);
    * a top-level ``original_max_position_embeddings`` (Phi-3's layout) wins over the block's
      (``RotaryEmbeddingConfigMixin.standardize_rope_params``).

    """
    plain = _plain_inv_freq(parameters.dim, parameters.rope_theta)
    chosen = parameters.long_factor if uses_long_factor(parameters, seq_len) else parameters.short_factor
    return plain / np.asarray(chosen, dtype=np.float64), longrope_attention_factor(parameters)
