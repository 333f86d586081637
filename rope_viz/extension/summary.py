"""The key numbers of one RoPE configuration, for tables and readouts: sizes, factors, pairs, lengths."""

from __future__ import annotations

import numpy as np

from rope_viz.extension.angles import TWO_PI
from rope_viz.scaling import RopeScaling


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


__all__ = [
    "scaling_summary",
]
