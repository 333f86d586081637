"""Plain RoPE and position interpolation: ``default`` and ``linear``.

Each method here is a pure function ``(parameters, seq_len) -> (inv_freq, attention_factor)``, as are all the
entries of :data:`rope_viz.scaling.METHODS`.
"""

from __future__ import annotations

import numpy as np

from rope_viz.frequencies import inv_freq as _plain_inv_freq
from rope_viz.scaling.parameters import RopeParameters


def default_frequencies(parameters: RopeParameters, seq_len: int | None = None) -> tuple[np.ndarray, float]:
    """Plain RoPE: no context extension.

    Implements ``theta_i = b ** (-2 i / d)`` for ``i = 0 .. d/2 - 1`` (Su et al. 2021, RoFormer, eq. 15), with
    ``b = rope_theta`` and ``d`` the rotary dim.

    Parameters
    ----------
    parameters : RopeParameters
        Uses ``rope_theta`` and the rotary ``dim``.
    seq_len : int, optional
        Unused.

    Returns
    -------
    inv_freq : numpy.ndarray
        Shape ``(dim // 2,)``, radians per token.
    attention_factor : float
        Always 1.0.

    Notes
    -----
    transformers has no ``"default"`` entry in ``ROPE_INIT_FUNCTIONS``: each model's rotary-embedding class
    brings its own ``compute_default_rope_parameters``. Those of Llama, Mistral, Qwen2, Gemma 2 and
    DeepSeek-V3 ignore ``partial_rotary_factor`` (they rotate the whole head), while those of Phi, Phi-3,
    GPT-NeoX and StableLM honour it, as this function does.

    """
    return _plain_inv_freq(parameters.dim, parameters.rope_theta), 1.0


def linear_frequencies(parameters: RopeParameters, seq_len: int | None = None) -> tuple[np.ndarray, float]:
    """Position interpolation: squeeze ``s`` times more positions into the trained range.

    Implements ``theta_i' = theta_i / s``, which equals reading position ``m`` as ``m / s`` (Chen et al.
    2023, "Extending Context Window of Large Language Models via Positional Interpolation", arXiv:2306.15595;
    the same idea appeared as kaiokendev's SuperHOT scaling, whom transformers credits).

    Parameters
    ----------
    parameters : RopeParameters
        Uses ``rope_theta``, ``dim`` and ``factor`` (``s >= 1``).
    seq_len : int, optional
        Unused.

    Returns
    -------
    inv_freq : numpy.ndarray
        Shape ``(dim // 2,)``: every pair slowed by the same factor ``s``.
    attention_factor : float
        Always 1.0.

    Notes
    -----
    The paper interpolates positions; transformers divides ``inv_freq`` instead (``inv_freq /= factor`` in
    ``_compute_linear_scaling_rope_parameters``, 5.23). The angles ``m * theta_i / s`` are the same.

    Examples
    --------
    >>> parameters = RopeParameters(rope_type="linear", head_dim=8, factor=2.0)
    >>> linear_frequencies(parameters)[0]
    array([0.5   , 0.05  , 0.005 , 0.0005])

    """
    return _plain_inv_freq(parameters.dim, parameters.rope_theta) / parameters.factor, 1.0
