"""Read a Hugging Face ``config.json`` (as a dict) into :class:`~rope_viz.scaling.parameters.RopeParameters`.

Two layouts exist:

* transformers 4.x: top-level ``rope_theta`` and an optional ``rope_scaling`` block holding ``rope_type``
  (older files: ``type``) and the method's keys;
* transformers 5.x: one ``rope_parameters`` block holding ``rope_type``, ``rope_theta`` and the method's keys
  (possibly one block per attention layer type, e.g. ``{"full_attention": {...}, "sliding_attention":
  {...}}``).

The rules follow transformers 5.x's standardisation (``RotaryEmbeddingConfigMixin`` in modeling_rope_utils.py)
except where it silently picks one of two contradictory values; there this module raises ``ValueError``.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Mapping

from rope_viz.scaling.parameters import DEFAULT_ROPE_THETA, KNOWN_ROPE_TYPES, RopeParameters

# Other names for a known rope_type: Qwen2-VL and Qwen2.5-VL configs say "mrope", which transformers' configs
# for those models rewrite to "default" (M-RoPE changes which positions are used, not the frequencies).
ROPE_TYPE_ALIASES = {"mrope": "default"}

_NEEDS_ORIGINAL_LENGTH = ("llama3", "yarn", "longrope")
_FLOAT_KEYS = (
    "factor",
    "attention_factor",
    "beta_fast",
    "beta_slow",
    "mscale",
    "mscale_all_dim",
    "low_freq_factor",
    "high_freq_factor",
)


# The keys transformers 5.23 accepts in a RoPE block, per rope_type (RotaryEmbeddingConfigMixin's
# _validate_<rope_type>_rope_parameters: required plus optional keys); any other key gets a warning there.
_COMMON_KEYS = {"rope_type", "type", "rope_theta", "partial_rotary_factor"}
_ACCEPTED_KEYS = {
    "default": _COMMON_KEYS,
    "linear": _COMMON_KEYS | {"factor"},
    "ntk": _COMMON_KEYS | {"factor"},
    "dynamic": _COMMON_KEYS | {"factor"},
    "yarn": _COMMON_KEYS
    | {
        "factor",
        "original_max_position_embeddings",
        "attention_factor",
        "beta_fast",
        "beta_slow",
        "mscale",
        "mscale_all_dim",
        "truncate",
    },
    "llama3": _COMMON_KEYS
    | {"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"},
    "longrope": _COMMON_KEYS
    | {"short_factor", "long_factor", "original_max_position_embeddings", "attention_factor", "factor"},
    "proportional": _COMMON_KEYS | {"factor"},
}
# Keys some model classes keep in the block and tell transformers not to warn about
# (``ignore_keys_at_rope_validation`` of the Qwen-VL, GLM-4V and Ministral 3 configs, among others).
_MODEL_SPECIFIC_KEYS = {
    "mrope_section",
    "mrope_interleaved",
    "llama_4_scaling_beta",
    "max_position_embeddings",
}


def _warn_unknown_keys(block: Mapping, rope_type: str, block_name: str) -> None:
    unknown = sorted(set(block) - _ACCEPTED_KEYS[rope_type] - _MODEL_SPECIFIC_KEYS)
    if unknown:
        warnings.warn(
            f"{block_name} has keys that rope_type {rope_type!r} does not use, ignored: {unknown} "
            "(transformers warns about them too; check their spelling)",
            UserWarning,
            stacklevel=4,
        )


def _present(mapping: Mapping, key: str) -> bool:
    return mapping.get(key) is not None


def _rope_block(config: Mapping) -> dict:
    """Return the block of RoPE keys: ``rope_scaling`` (4.x) or ``rope_parameters`` (5.x), or ``{}``."""
    blocks = {}
    for key in ("rope_scaling", "rope_parameters"):
        block = config.get(key)
        if block is None:
            continue
        if not isinstance(block, Mapping):
            raise ValueError(f"{key} must be a dict of RoPE settings or null, got {block!r}")
        if block:
            blocks[key] = dict(block)
    if len(blocks) == 2 and blocks["rope_scaling"] != blocks["rope_parameters"]:
        # transformers keeps rope_scaling and drops rope_parameters (5.23,
        # RotaryEmbeddingConfigMixin.convert_rope_params_to_dict: rope_scaling or self.rope_parameters).
        raise ValueError(
            "rope_scaling and rope_parameters are both given and differ; give the RoPE settings in one "
            "of them"
        )
    return next(iter(blocks.values()), {})


def _select_layer_type(block: dict, layer_type: str | None) -> tuple[dict, bool]:
    """Pick the block of one layer type when ``block`` is nested by layer type (5.x, e.g. Gemma 3)."""
    nested = _select_nested(block)
    if not nested:
        if layer_type is not None:
            raise ValueError(
                f"layer_type={layer_type!r} was given, but the config's RoPE settings are not split by "
                "layer type"
            )
        return block, False
    layer_types = sorted(block)
    if layer_type not in block:
        raise ValueError(f"layer_type must be one of {layer_types} for this config, got {layer_type!r}")
    if block[layer_type] is None:
        raise ValueError(f"layer_type {layer_type!r} has no RoPE (its settings are null)")
    return dict(block[layer_type]), True


def _rope_type(block: Mapping) -> str:
    names = {key: block[key] for key in ("rope_type", "type") if _present(block, key)}
    canonical = {key: ROPE_TYPE_ALIASES.get(name, name) for key, name in names.items()}
    if len(set(canonical.values())) > 1:
        # transformers keeps rope_type and ignores type (5.23,
        # RotaryEmbeddingConfigMixin.standardize_rope_params).
        raise ValueError(
            f"rope_type and its older spelling type disagree: rope_type={names['rope_type']!r}, "
            f"type={names['type']!r}"
        )
    rope_type = next(iter(canonical.values()), "default")
    if rope_type not in KNOWN_ROPE_TYPES:
        raise ValueError(f"rope_type must be one of {KNOWN_ROPE_TYPES}, got {rope_type!r}")
    return rope_type


def _one_value(block: Mapping, config: Mapping, key: str, *, block_name: str) -> object:
    """``key`` from the RoPE block or the top level; both may hold it only if they agree."""
    inside, outside = block.get(key), config.get(key)
    if inside is not None and outside is not None and inside != outside:
        raise ValueError(
            f"{key} is given both at the top level ({outside!r}) and in {block_name} ({inside!r}); "
            "they must agree"
        )
    return inside if inside is not None else outside


def _head_dim(config: Mapping, layer_type: str | None = None) -> object:
    """Head size: ``qk_rope_head_dim`` (DeepSeek MLA), else ``head_dim``, else hidden_size / heads.

    Gemma 4's full-attention layers have a head size of their own, ``global_head_dim`` (transformers 5.23's
    ``Gemma4TextConfig`` puts it in ``per_layer_config`` as those layers' ``head_dim``).
    """
    if layer_type == "full_attention" and _present(config, "global_head_dim"):
        return config["global_head_dim"]
    for key in ("qk_rope_head_dim", "head_dim"):
        if _present(config, key):
            return config[key]
    hidden_size, heads = config.get("hidden_size"), config.get("num_attention_heads")
    if hidden_size is None or heads is None:
        raise ValueError(
            "the head size is unknown: give head_dim, or hidden_size and num_attention_heads "
            "(positive integers)"
        )
    for name, value in (("hidden_size", hidden_size), ("num_attention_heads", heads)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if hidden_size % heads:
        raise ValueError(
            f"hidden_size ({hidden_size}) must be a multiple of num_attention_heads ({heads}) when head_dim "
            "is not given"
        )
    return int(hidden_size) // int(heads)


def _text_config(config: Mapping) -> Mapping:
    """Return ``text_config`` if the language model's settings are nested there (multimodal configs)."""
    own_keys = (
        "head_dim",
        "hidden_size",
        "qk_rope_head_dim",
        "rope_theta",
        "rope_scaling",
        "rope_parameters",
    )
    text_config = config.get("text_config")
    if isinstance(text_config, Mapping) and not any(_present(config, key) for key in own_keys):
        return text_config
    return config


GEMMA3_MODEL_TYPES = ("gemma3", "gemma3_text")
"""Model types whose 4.x-style config means two RoPE settings, one per attention layer type."""
GEMMA3_DEFAULT_THETA = {"full_attention": 1_000_000.0, "sliding_attention": 10_000.0}
"""Gemma 3's bases when its config omits them (transformers' ``Gemma3TextConfig.default_theta``)."""


def _is_gemma3_layout(config: Mapping) -> bool:
    """Whether ``config`` keeps Gemma 3's 4.x layout: one global block plus ``rope_local_base_freq``."""
    if _present(config, "rope_parameters") and _select_nested(config["rope_parameters"]):
        return False
    return _present(config, "rope_local_base_freq") or config.get("model_type") in GEMMA3_MODEL_TYPES


def _select_nested(block: object) -> bool:
    return (
        isinstance(block, Mapping)
        and bool(block)
        and all(value is None or isinstance(value, Mapping) for value in block.values())
    )


def split_by_layer_type(config: Mapping) -> Mapping:
    """Rewrite Gemma 3's 4.x layout into the 5.x one, ``rope_parameters`` nested by layer type.

    Gemma 3's ``config.json`` gives the global layers' base as ``rope_theta`` and the local (sliding-window)
    layers' as ``rope_local_base_freq``; its ``rope_scaling`` applies to the global layers only. transformers
    5.23's ``Gemma3TextConfig.convert_rope_params_to_dict`` builds ``{"full_attention": {rope_scaling...,
    "rope_theta": rope_theta}, "sliding_attention": {"rope_type": "default", "rope_theta":
    rope_local_base_freq}}``, with the bases 1e6 and 1e4 when absent. Other configs are returned unchanged.
    """
    if not _is_gemma3_layout(config):
        return config
    block = _rope_block(config)
    if _select_nested(block):
        return config
    full = dict(block) if block else {"rope_type": "default"}
    full_theta = _one_value(full, config, "rope_theta", block_name="rope_scaling")
    full["rope_theta"] = GEMMA3_DEFAULT_THETA["full_attention"] if full_theta is None else full_theta
    local_theta = config.get("rope_local_base_freq")
    sliding = {
        "rope_type": "default",
        "rope_theta": GEMMA3_DEFAULT_THETA["sliding_attention"] if local_theta is None else local_theta,
    }
    rewritten = {
        key: value
        for key, value in config.items()
        if key not in ("rope_theta", "rope_scaling", "rope_parameters", "rope_local_base_freq")
    }
    rewritten["rope_parameters"] = {"full_attention": full, "sliding_attention": sliding}
    return rewritten


def rope_layer_types(config: object) -> tuple[str, ...]:
    """Return the attention layer types that have RoPE settings of their own, sorted (``()`` if none do).

    Examples
    --------
    >>> rope_layer_types({"model_type": "gemma3_text", "head_dim": 256, "rope_local_base_freq": 10000.0})
    ('full_attention', 'sliding_attention')
    >>> rope_layer_types({"head_dim": 128, "rope_theta": 500000.0})
    ()

    """
    if not isinstance(config, Mapping):
        raise ValueError(f"config must be a dict (a Hugging Face config.json), got {type(config).__name__}")
    block = _rope_block(split_by_layer_type(_text_config(config)))
    return tuple(sorted(block)) if _select_nested(block) else ()


def parse_config(config: object, *, layer_type: str | None = None) -> RopeParameters:
    """Read the RoPE settings of a Hugging Face config dict, in the 4.x or the 5.x layout.

    Parameters
    ----------
    config : dict
        A model's ``config.json`` as a dict (a multimodal one may nest it under ``text_config``).
    layer_type : str, optional
        Which layer type's settings to read when ``rope_parameters`` is split by layer type.

    Returns
    -------
    RopeParameters

    Raises
    ------
    ValueError
        If a value is missing, out of range, or given twice with different values.

    Notes
    -----
    Precedence follows transformers 5.x's standardisation:

    * ``rope_type`` falls back to the older key ``type``, then to ``"default"``;
    * ``rope_theta`` and ``partial_rotary_factor`` may sit at the top level or in the block; ``rope_theta``
      defaults to 10000.0 (transformers' ``default_theta``; a few model classes override it);
    * the head size is ``head_dim`` if given and not null, else ``hidden_size // num_attention_heads``;
      DeepSeek's ``qk_rope_head_dim`` comes first, as transformers' DeepSeek-V3 config sets ``head_dim``
      to it; Gemma 4's ``global_head_dim`` is the head size of ``layer_type="full_attention"``;
    * Gemma 3's 4.x layout (``rope_theta``, ``rope_scaling`` and ``rope_local_base_freq``) is read as two
      settings, one per layer type (:func:`split_by_layer_type`), so it needs ``layer_type``;
    * for ``yarn``, ``longrope`` and ``llama3``, a top-level ``original_max_position_embeddings`` (Phi-3 keeps
      it there) is used, else the block's, else ``max_position_embeddings`` (transformers 5.23,
      ``RotaryEmbeddingConfigMixin.standardize_rope_params``). For ``llama3`` this module raises instead of
      falling back: a Llama 3.1 config read that way would use its extended length as the pre-training
      one (transformers 5.23 only logs a warning, from ``_validate_llama3_rope_parameters``).

    A key of the RoPE block that its ``rope_type`` does not use (a misspelt ``"facter"``, say) is ignored
    with a ``UserWarning`` naming it, as transformers logs a warning for it.

    Where transformers silently keeps one of two different values (``rope_type`` vs ``type``, ``rope_theta``
    or ``partial_rotary_factor`` or ``original_max_position_embeddings`` at the top level vs in the block,
    ``rope_scaling`` vs ``rope_parameters``), this function raises.

    Examples
    --------
    >>> parameters = parse_config({"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 500000.0})
    >>> parameters.rope_type, parameters.dim, parameters.rope_theta
    ('default', 128, 500000.0)

    """
    if not isinstance(config, Mapping):
        raise ValueError(f"config must be a dict (a Hugging Face config.json), got {type(config).__name__}")
    config = split_by_layer_type(_text_config(config))
    block, nested = _select_layer_type(_rope_block(config), layer_type)
    block_name = "rope_parameters" if _present(config, "rope_parameters") else "rope_scaling"
    rope_type = _rope_type(block)
    _warn_unknown_keys(block, rope_type, block_name)

    rope_theta = _one_value(block, config, "rope_theta", block_name=block_name)
    partial_rotary_factor = _one_value(block, config, "partial_rotary_factor", block_name=block_name)
    original = block.get("original_max_position_embeddings")
    if rope_type in _NEEDS_ORIGINAL_LENGTH and not nested:
        original = _one_value(block, config, "original_max_position_embeddings", block_name=block_name)
    if original is None and rope_type in ("yarn", "longrope"):
        original = config.get("max_position_embeddings")

    if rope_type == "yarn" and "factor" not in block:
        # transformers raises KeyError for a missing key; an explicit null factor is derived instead.
        raise ValueError("factor is required for rope_type 'yarn' (a finite number >= 1, or null)")
    # transformers (5.23, _compute_yarn_parameters) reads truncate with config.rope_parameters.get("truncate",
    # True), from the outer dict: an explicit null therefore means False, and a block nested by layer type
    # always truncates.
    truncate = True if nested else block.get("truncate", True)
    truncate = False if truncate is None else truncate
    for name in ("short_factor", "long_factor"):
        if block.get(name) is not None and not isinstance(block[name], list | tuple):
            raise ValueError(f"{name} must be a list of numbers, got {block[name]!r}")

    return RopeParameters(
        rope_type=rope_type,
        rope_theta=DEFAULT_ROPE_THETA if rope_theta is None else rope_theta,
        head_dim=_head_dim(config, layer_type),
        partial_rotary_factor=1.0 if partial_rotary_factor is None else partial_rotary_factor,
        max_position_embeddings=config.get("max_position_embeddings"),
        original_max_position_embeddings=original,
        truncate=truncate,
        short_factor=block.get("short_factor"),
        long_factor=block.get("long_factor"),
        **{name: block.get(name) for name in _FLOAT_KEYS},
    )
