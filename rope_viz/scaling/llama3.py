"""Llama 3.1's frequency scaling (``rope_type="llama3"``)."""

from __future__ import annotations

import numpy as np

from rope_viz.frequencies import inv_freq as _plain_inv_freq
from rope_viz.scaling.parameters import RopeParameters


def llama3_wavelength_bands(parameters: RopeParameters) -> tuple[float, float]:
    """Wavelength edges, in tokens: ``(L / high_freq_factor, L / low_freq_factor)``.

    Pairs with a shorter wavelength than the first keep their frequency; pairs with a longer one than the
    second are divided by ``factor``; those between are blended.

    Examples
    --------
    >>> parameters = RopeParameters(rope_type="llama3", rope_theta=500000.0, head_dim=128, factor=8.0,
    ...                             low_freq_factor=1.0, high_freq_factor=4.0,
    ...                             original_max_position_embeddings=8192)
    >>> llama3_wavelength_bands(parameters)
    (2048.0, 8192.0)

    """
    length = parameters.original_max_position_embeddings
    return length / parameters.high_freq_factor, length / parameters.low_freq_factor


def llama3_frequencies(parameters: RopeParameters, seq_len: int | None = None) -> tuple[np.ndarray, float]:
    """Llama 3.1 scaling: keep fast pairs, divide slow pairs by ``s``, blend between by rotation count.

    With ``lambda_i = 2 pi / theta_i``, ``L = original_max_position_embeddings``, ``alpha = low_freq_factor``,
    ``beta = high_freq_factor`` and ``rho_i = L / lambda_i`` (turns over ``L``):

    * ``lambda_i < L / beta``: ``theta_i' = theta_i``;
    * ``lambda_i > L / alpha``: ``theta_i' = theta_i / s``;
    * otherwise ``theta_i' = (1 - g_i) theta_i / s + g_i theta_i``, with
      ``g_i = (rho_i - alpha) / (beta - alpha)``.

    Parameters
    ----------
    parameters : RopeParameters
        Uses ``rope_theta``, ``dim``, ``factor`` (``s``), ``low_freq_factor``, ``high_freq_factor`` and
        ``original_max_position_embeddings``.
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
    Source: Meta's Llama 3.1 reference code (``apply_scaling``, meta-llama/llama-models), whose constants
    8, 1, 4 and 8192 transformers quotes in ``_compute_llama3_parameters`` (5.23, in the comments on
    ``factor``, ``low_freq_factor``, ``high_freq_factor`` and ``old_context_len``); the Llama 3 paper
    (Grattafiori et al. 2024, "The Llama 3 Herd of Models", arXiv:2407.21783) does not spell out the formula.
    The blend ``g`` is the ramp of the YaRN paper, eq. (18) (linear in the turns ``rho``, arXiv:2309.00071
    section 3.2), with ``alpha = 1, beta = 4``, but without YaRN's attention factor. YaRN's reference code
    (jquesnelle/yarn), which transformers and vLLM copy, blends linearly in the pair index instead; this rule
    is linear in ``rho``. Both band edges belong to the blend, where it meets the other two branches
    continuously (``g = 0`` at ``L / alpha``, ``g = 1`` at ``L / beta``). Llama 4 sets ``alpha = beta = 1``:
    no blend, every pair slower than ``L`` per turn divided by ``s``, the others kept (a pair exactly at the
    edge, where transformers would divide 0 by 0, is divided by ``s``).

    """
    plain = _plain_inv_freq(parameters.dim, parameters.rope_theta)
    wavelengths = 2.0 * np.pi / plain
    short_edge, long_edge = llama3_wavelength_bands(parameters)
    low, high = parameters.low_freq_factor, parameters.high_freq_factor
    if high == low:  # no blend band (Llama 4): only a pair exactly at the edge would be in it
        blended = plain / parameters.factor
    else:
        blend = (parameters.original_max_position_embeddings / wavelengths - low) / (high - low)
        blended = (1.0 - blend) * plain / parameters.factor + blend * plain
    inv_freq = np.where(wavelengths > long_edge, plain / parameters.factor, blended)
    inv_freq = np.where(wavelengths < short_edge, plain, inv_freq)
    return inv_freq, 1.0
