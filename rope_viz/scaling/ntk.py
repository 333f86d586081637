"""NTK-aware base change, static (``ntk``) and dynamic (``dynamic``).

Instead of slowing every pair by the same factor, raise the base ``b`` so that the slowest pair is slowed by
``s`` while the fastest is untouched: ``b' = b * s ** (d / (d - 2))``.
"""

from __future__ import annotations

import numpy as np

from rope_viz.frequencies import inv_freq as _plain_inv_freq
from rope_viz.scaling.parameters import RopeParameters, check_seq_len


def ntk_base(rope_theta: float, factor: float, dim: int) -> float:
    """Return the base after an NTK-aware change by ``factor``: ``b' = b * s ** (d / (d - 2))``.

    Parameters
    ----------
    rope_theta : float
        Original base ``b``.
    factor : float
        Extension factor ``s``.
    dim : int
        Rotary dim ``d`` (>= 4).

    Returns
    -------
    float

    Examples
    --------
    >>> round(ntk_base(10000.0, 4.0, 128), 1)
    40889.9

    """
    return rope_theta * factor ** (dim / (dim - 2))


def ntk_frequencies(parameters: RopeParameters, seq_len: int | None = None) -> tuple[np.ndarray, float]:
    """Compute static NTK-aware scaled RoPE frequencies.

    Implements ``theta_i' = (b') ** (-2 i / d)`` with ``b' = b * s ** (d / (d - 2))``: pair ``i`` is slowed by
    ``s ** (2 i / (d - 2))``, from 1 for the fastest pair (``i = 0``) to exactly ``s`` for the slowest
    (``i = d/2 - 1``).

    Parameters
    ----------
    parameters : RopeParameters
        Uses ``rope_theta``, ``dim`` (>= 4) and ``factor`` (``s >= 1``).
    seq_len : int, optional
        Unused.

    Returns
    -------
    inv_freq : numpy.ndarray
        Shape ``(dim // 2,)``.
    attention_factor : float
        Always 1.0.

    Notes
    -----
    Proposed by bloc97 in the 2023 r/LocalLLaMA post "NTK-Aware Scaled RoPE allows LLaMA models to have
    extended (8k+) context size without any fine-tuning and minimal perplexity degradation", and written up as
    "NTK-aware interpolation" in section 3.1 of the YaRN paper (Peng et al. 2023, arXiv:2309.00071).

    The pairs just faster than the slowest are slowed by less than ``s``, so at ``L' = s L`` they still turn
    past their trained arc (``tests/test_extension.py``). Section 3.1 of the YaRN paper notes that for this
    reason the factor does not give an extension by ``s``, and that in practice it must be set above
    ``L' / L``.

    transformers has no static NTK ``rope_type``, from the pull request that added RoPE scaling to it
    (huggingface/transformers#24653, 2023) up to release 5.23 (the one ``tests/reference`` was generated
    with): its NTK variant is the dynamic one (:func:`dynamic_frequencies`). A pull request adding ``"ntk"``
    (huggingface/transformers#32424) was closed without being merged.

    """
    base = ntk_base(parameters.rope_theta, parameters.factor, parameters.dim)
    return _plain_inv_freq(parameters.dim, base), 1.0


def dynamic_scale(parameters: RopeParameters, seq_len: int | None = None) -> float:
    """Return the factor dynamic NTK applies at ``seq_len``: ``s * max(l, L) / L - (s - 1)``.

    ``L`` is ``max_position_embeddings``; ``seq_len=None`` counts as ``L``, so the result is 1 up to ``L`` and
    grows linearly (slope ``s / L``) beyond it.
    """
    seq_len = check_seq_len(seq_len)
    trained_length = parameters.max_position_embeddings
    length = trained_length if seq_len is None else max(seq_len, trained_length)
    factor = parameters.factor
    return factor * length / trained_length - (factor - 1.0)


def dynamic_frequencies(parameters: RopeParameters, seq_len: int | None = None) -> tuple[np.ndarray, float]:
    """Dynamic NTK scaling: an NTK base change that grows with the current sequence length.

    Implements ``b' = b * (s * l / L - (s - 1)) ** (d / (d - 2))`` with ``l = max(seq_len, L)``, ``L`` =
    ``max_position_embeddings`` and ``s = factor``, then ``theta_i' = (b') ** (-2 i / d)``.

    Parameters
    ----------
    parameters : RopeParameters
        Uses ``rope_theta``, ``dim`` (>= 4), ``factor`` and ``max_position_embeddings``.
    seq_len : int, optional
        Current sequence length ``l``. ``None`` (transformers' value at model construction) and any
        ``l <= L`` give plain RoPE.

    Returns
    -------
    inv_freq : numpy.ndarray
        Shape ``(dim // 2,)``.
    attention_factor : float
        Always 1.0.

    Notes
    -----
    The scale ``s * l / L - (s - 1)`` is the one of the original dynamic-scaling code, which transformers
    credits to the Reddit users bloc97 and emozilla (r/LocalLLaMA, June 2023) in the docstring of
    ``_compute_dynamic_ntk_parameters`` (transformers 5.23, where it rescales ``base``). The YaRN
    authors' repository has the same formula (jquesnelle/yarn,
    ``scaled_rope/LlamaDynamicScaledRotaryEmbedding.py``). The YaRN paper (arXiv:2309.00071; section 3.3 of
    its first version, 3.4 of the ICLR 2024 one) later restates dynamic scaling as ``s = max(1, l / L)``,
    which is this rule at ``factor = 1``. In transformers:

    * ``factor = 1`` is *not* plain RoPE beyond ``L``: it is the paper's dynamic scaling. ``factor`` sets the
      slope ``factor / L``;
    * ``l`` is clamped to at least ``max_position_embeddings``, not ``original_max_position_embeddings``
      (the ``seq_len`` default and clamp in ``_compute_dynamic_ntk_parameters``);
    * in a model, the rotary module recomputes only when a sequence is longer than any seen so far and resets
      to plain RoPE when one is shorter than ``L`` (``dynamic_frequency_update``, inside
      ``dynamic_rope_update``). Its
      frequencies for a given length can therefore depend on earlier calls; this function is the stateless
      rule;
    * keys enter the key-value cache already rotated, with the frequencies of their own step
      (huggingface/transformers#25104), where the YaRN paper asks for caching them before rotation. In the
      discussion of huggingface/transformers#24653, its participants reported no significant difference
      between the two.

    """
    scale = dynamic_scale(parameters, seq_len)
    base = ntk_base(parameters.rope_theta, scale, parameters.dim)
    return _plain_inv_freq(parameters.dim, base), 1.0
