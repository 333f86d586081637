"""Proportional RoPE (``rope_type: "proportional"``): the fastest pairs of a head rotate, the slowest do not.

Gemma 4's global (full-attention) layers use it. Its ``partial_rotary_factor`` means something else than in
GPT-NeoX, Phi or GLM, where the first ``p d`` channels rotate with a frequency schedule spread over those
channels alone. Here the schedule is spread over the whole head, as in plain RoPE, and the slowest pairs are
switched off. The idea is Barbero et al.'s p-RoPE ("Round and Round We Go! What makes Rotary Positional
Encodings useful?", arXiv:2410.06205, sec. 6): the slowest pairs turn so little over a context that they act
as a semantic channel, and removing their rotation keeps that channel robust at long range.
"""

from __future__ import annotations

import numpy as np

from rope_viz.frequencies import inv_freq as _plain_inv_freq
from rope_viz.scaling.parameters import RopeParameters


def proportional_frequencies(
    parameters: RopeParameters, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """Proportional RoPE: plain RoPE over the full head, its slow pairs set to 0, all divided by ``s``.

    Implements, for ``i = 0 .. d/2 - 1`` with ``d = head_dim`` and ``r = int(p d) // 2`` rotated pairs,

    ``theta_i = b ** (-2 i / d) / s`` for ``i < r`` and ``theta_i = 0`` for ``i >= r``,

    with ``b = rope_theta``, ``p = partial_rotary_factor`` and ``s = factor`` (1 when absent). A pair of
    frequency 0 has cos 1 and sin 0 at every position, so its two channels pass through unrotated.

    Parameters
    ----------
    parameters : RopeParameters
        Uses ``rope_theta``, ``head_dim``, ``partial_rotary_factor`` and ``factor``.
    seq_len : int, optional
        Unused.

    Returns
    -------
    inv_freq : numpy.ndarray
        Shape ``(head_dim // 2,)``: ``r`` positive frequencies, then ``d/2 - r`` zeros.
    attention_factor : float
        Always 1.0.

    Notes
    -----
    Follows transformers 5.23's ``_compute_proportional_rope_parameters``: the exponent divides by the full
    ``head_dim`` (not by ``2 r``), and ``r = int(partial_rotary_factor * head_dim // 2)``. Gemma 4's config
    gives its global layers their own head size (``global_head_dim``), which
    :func:`rope_viz.scaling.from_config` reads for ``layer_type="full_attention"``. With
    ``partial_rotary_factor`` 1 (transformers' default, with a warning) the method is ``linear``.

    Examples
    --------
    >>> parameters = RopeParameters(rope_type="proportional", head_dim=8, partial_rotary_factor=0.5)
    >>> proportional_frequencies(parameters)[0]
    array([1. , 0.1, 0. , 0. ])

    """
    head_dim = parameters.head_dim
    rotated_pairs = parameters.rotary_dim // 2
    frequencies = _plain_inv_freq(head_dim, parameters.rope_theta)
    frequencies[rotated_pairs:] = 0.0
    factor = 1.0 if parameters.factor is None else parameters.factor
    return frequencies / factor, 1.0
