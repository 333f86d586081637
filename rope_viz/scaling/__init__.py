"""Context-extension methods for RoPE, matching Hugging Face transformers 5.x numerically.

A model trained with context length ``L`` is stretched to ``s L`` by slowing some or all rotation pairs. Each
method maps a model's settings to new frequencies ``inv_freq`` (shape ``(d/2,)``) and an ``attention_factor``
that multiplies cos and sin:

============ ============================================================ ====================================
rope_type    what it does                                                 source
============ ============================================================ ====================================
default      plain RoPE                                                   RoFormer (arXiv:2104.09864)
linear       every pair slowed by ``s``                                   Chen et al. 2023 (arXiv:2306.15595)
ntk          base raised to ``b s^(d/(d-2))``                             bloc97 2023; YaRN paper sec. 3.1
dynamic      ``ntk`` with ``s`` growing with the sequence length          YaRN paper sec. 3.3
yarn         fast pairs kept, slow pairs slowed by ``s``, blend between,  Peng et al. 2023 (arXiv:2309.00071)
             attention factor ``0.1 ln s + 1``
llama3       like yarn, blend linear in rotations, no attention factor    Meta's Llama 3.1 code
longrope     a searched divisor per pair, short and long lists            Ding et al. 2024 (arXiv:2402.13753)
proportional plain RoPE over the whole head, slowest pairs not rotated,   Barbero et al. 2024
             all divided by ``s`` (Gemma 4's global layers)               (arXiv:2410.06205); Gemma 4
============ ============================================================ ====================================

Use :func:`from_config` on a ``config.json`` dict (or a preset from :mod:`rope_viz.presets`); the result
tells which pairs each method left untouched, blended or interpolated. :func:`layers_from_config` gives the
same for every decoder layer, for models whose layers differ (local and global bases, NoPE layers).
"""

from rope_viz.scaling.config import parse_config, rope_layer_types
from rope_viz.scaling.interpolation import default_frequencies, linear_frequencies
from rope_viz.scaling.layers import attention_layer_types, layers_from_config, rope_layer_mask
from rope_viz.scaling.llama3 import llama3_frequencies, llama3_wavelength_bands
from rope_viz.scaling.longrope import longrope_attention_factor, longrope_frequencies
from rope_viz.scaling.ntk import dynamic_frequencies, dynamic_scale, ntk_base, ntk_frequencies
from rope_viz.scaling.parameters import KNOWN_ROPE_TYPES, RopeParameters
from rope_viz.scaling.proportional import proportional_frequencies
from rope_viz.scaling.registry import METHODS, from_config
from rope_viz.scaling.result import PAIR_CLASSES, RopeScaling, classify_pairs
from rope_viz.scaling.yarn import (
    yarn_attention_factor,
    yarn_correction_range,
    yarn_frequencies,
    yarn_get_mscale,
    yarn_ramp,
)

__all__ = [
    "KNOWN_ROPE_TYPES",
    "METHODS",
    "PAIR_CLASSES",
    "RopeParameters",
    "RopeScaling",
    "attention_layer_types",
    "classify_pairs",
    "default_frequencies",
    "dynamic_frequencies",
    "dynamic_scale",
    "from_config",
    "layers_from_config",
    "linear_frequencies",
    "llama3_frequencies",
    "llama3_wavelength_bands",
    "longrope_attention_factor",
    "longrope_frequencies",
    "ntk_base",
    "ntk_frequencies",
    "parse_config",
    "proportional_frequencies",
    "rope_layer_mask",
    "rope_layer_types",
    "yarn_attention_factor",
    "yarn_correction_range",
    "yarn_frequencies",
    "yarn_get_mscale",
    "yarn_ramp",
]
