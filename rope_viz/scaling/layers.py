"""RoPE layer by layer: which decoder layers rotate, and with which settings (:func:`layers_from_config`).

Models since 2024 do not give every layer the same RoPE:

* Gemma 2, 3 and 4 alternate sliding-window ("local") and full ("global") attention layers; Gemma 3 gives the
  two kinds different bases (``rope_local_base_freq`` 10,000 and ``rope_theta`` 1,000,000) and scales only
  the global ones; Gemma 4's global layers use proportional RoPE on a larger head (``global_head_dim``);
* gpt-oss alternates sliding and full layers with one RoPE for both;
* Llama 4 and SmolLM3 leave every fourth layer without RoPE at all (NoPE layers; ``no_rope_layers`` holds 1
  for a layer that rotates).

A config says this with ``layer_types`` (one name per layer), the older ``sliding_window_pattern`` (every
``k``-th layer is global), ``rope_parameters`` nested by layer type (transformers 5.x), Gemma 3's
``rope_local_base_freq``, and ``no_rope_layers`` / ``no_rope_layer_interval``. The rules below follow
transformers 5.23's config classes (``Gemma3TextConfig``, ``Gemma4TextConfig``, ``Llama4TextConfig``,
``SmolLM3Config``); where they silently pick one of two contradictory values, this module raises.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping

from rope_viz.scaling.config import _text_config, rope_layer_types
from rope_viz.scaling.parameters import check_positive_int
from rope_viz.scaling.registry import from_config
from rope_viz.scaling.result import RopeScaling

SLIDING = "sliding_attention"
FULL = "full_attention"

#: Model types whose config class fills in ``sliding_window_pattern = 6`` when a config gives no layer types.
DEFAULT_SLIDING_WINDOW_PATTERN = {
    "gemma3": 6,
    "gemma3_text": 6,
    "gemma4": 6,
    "gemma4_text": 6,
}
#: Model types whose config class fills in ``no_rope_layer_interval = 4`` when a config gives no NoPE layers.
DEFAULT_NO_ROPE_LAYER_INTERVAL = {"llama4": 4, "llama4_text": 4, "smollm3": 4}


def _layer_count(config: Mapping) -> int:
    if config.get("num_hidden_layers") is None:
        raise ValueError("num_hidden_layers is required to list the layers (a positive integer)")
    return check_positive_int(config["num_hidden_layers"], "num_hidden_layers")


def _pattern_types(pattern: int, layers: int) -> list[str]:
    """Every ``pattern``-th layer global, the others sliding (transformers' Gemma 3 rule)."""
    return [SLIDING if (index + 1) % pattern else FULL for index in range(layers)]


def attention_layer_types(config: Mapping) -> list[str] | None:
    """Return the attention type of each decoder layer, or ``None`` when the config does not say.

    ``layer_types`` if given; else from ``sliding_window_pattern = k``: layer ``i`` (from 0) is
    ``"full_attention"`` when ``(i + 1) % k == 0`` and ``"sliding_attention"`` otherwise; else what the model
    type's config class fills in: the pattern 6 for Gemma 3 and 4; for Llama 4, ``"chunked_attention"`` in
    the layers that rotate and ``"full_attention"`` in its NoPE layers; for SmolLM3, full attention except a
    sliding window in NoPE layers when ``use_sliding_window`` is set.

    Raises
    ------
    ValueError
        If ``layer_types`` does not have ``num_hidden_layers`` names, or disagrees with
        ``sliding_window_pattern``, or a count is not a positive integer.

    Examples
    --------
    >>> attention_layer_types({"num_hidden_layers": 6, "sliding_window_pattern": 3})
    ['sliding_attention', 'sliding_attention', 'full_attention', 'sliding_attention', 'sliding_attention', \
'full_attention']

    """
    config = _text_config(_check_mapping(config))
    layers = _layer_count(config)
    pattern = config.get("sliding_window_pattern")
    from_pattern = (
        None
        if pattern is None
        else _pattern_types(check_positive_int(pattern, "sliding_window_pattern"), layers)
    )
    names = config.get("layer_types")
    if names is not None:
        if not isinstance(names, list | tuple) or not all(isinstance(name, str) for name in names):
            raise ValueError(f"layer_types must be a list of layer type names, got {names!r}")
        if len(names) != layers:
            raise ValueError(
                f"layer_types must name every layer: it has {len(names)} entries, num_hidden_layers is "
                f"{layers}"
            )
        if from_pattern is not None and list(names) != from_pattern:
            raise ValueError(
                f"layer_types and sliding_window_pattern={pattern} disagree about which layers are sliding; "
                "give one of them"
            )
        return list(names)
    if from_pattern is not None:
        return from_pattern
    model_type = config.get("model_type")
    if model_type in ("llama4", "llama4_text"):
        # Llama4TextConfig: chunked attention where the layer rotates, full attention in its NoPE layers
        return ["chunked_attention" if uses_rope else FULL for uses_rope in rope_layer_mask(config)]
    if model_type == "smollm3":
        # SmolLM3Config: a sliding window only in NoPE layers, and only when use_sliding_window is set
        windowed = bool(config.get("use_sliding_window")) and config.get("sliding_window") is not None
        return [SLIDING if windowed and not uses_rope else FULL for uses_rope in rope_layer_mask(config)]
    default = DEFAULT_SLIDING_WINDOW_PATTERN.get(model_type)
    return None if default is None else _pattern_types(default, layers)


def rope_layer_mask(config: Mapping) -> list[bool]:
    """Return, for each decoder layer, whether it uses RoPE (``False`` for a NoPE layer).

    ``no_rope_layers`` if given and not empty (1 or ``True`` for a layer that rotates, as in transformers'
    Llama 4 and SmolLM3 configs; only its first ``num_hidden_layers`` entries count); else
    ``no_rope_layer_interval = k``: layer ``i`` (from 0) has no RoPE when ``(i + 1) % k == 0``; else the
    default interval of the model type (4 for Llama 4 and SmolLM3); else every layer rotates.

    Raises
    ------
    ValueError
        If ``no_rope_layers`` is not a list of 0/1 with at least ``num_hidden_layers`` entries, or
        disagrees with an explicit ``no_rope_layer_interval``.

    Examples
    --------
    >>> rope_layer_mask({"model_type": "llama4_text", "num_hidden_layers": 8})
    [True, True, True, False, True, True, True, False]

    """
    config = _text_config(_check_mapping(config))
    layers = _layer_count(config)
    interval = config.get("no_rope_layer_interval")
    if interval is not None:
        interval = check_positive_int(interval, "no_rope_layer_interval")
    flags = config.get("no_rope_layers")
    if flags:
        if not isinstance(flags, list | tuple) or not all(
            isinstance(flag, numbers.Integral) and flag in (0, 1) for flag in flags
        ):
            raise ValueError(
                f"no_rope_layers must be a list of 0 and 1 (1 = the layer uses RoPE), got {flags!r}"
            )
        if len(flags) < layers:
            raise ValueError(
                f"no_rope_layers must have an entry for each of the {layers} layers (num_hidden_layers), "
                f"got {len(flags)}"
            )
        mask = [bool(flag) for flag in flags[:layers]]
        if interval is not None and mask != _interval_mask(interval, layers):
            raise ValueError(
                f"no_rope_layers and no_rope_layer_interval={interval} disagree about which layers have no "
                "RoPE; give one of them"
            )
        return mask
    if interval is None:
        interval = DEFAULT_NO_ROPE_LAYER_INTERVAL.get(config.get("model_type"))
    return [True] * layers if interval is None else _interval_mask(interval, layers)


def _interval_mask(interval: int, layers: int) -> list[bool]:
    return [(index + 1) % interval != 0 for index in range(layers)]


def _check_mapping(config: object) -> Mapping:
    if not isinstance(config, Mapping):
        raise ValueError(f"config must be a dict (a Hugging Face config.json), got {type(config).__name__}")
    return config


def layers_from_config(config: Mapping, *, seq_len: int | None = None) -> list[RopeScaling | None]:
    """RoPE of every decoder layer: a :class:`RopeScaling` where a layer rotates, ``None`` where it does not.

    Layer ``i`` gets ``None`` if :func:`rope_layer_mask` says it has no RoPE (or its layer type's settings are
    null), else ``from_config(config, seq_len=seq_len, layer_type=t_i)`` when the config's RoPE settings are
    split by layer type (``t_i`` from :func:`attention_layer_types`), else the one ``from_config(config,
    seq_len=seq_len)`` shared by every layer. Layers of one type share one object.

    Parameters
    ----------
    config : dict
        A ``config.json`` as a dict (multimodal ones may nest the language model under ``text_config``).
    seq_len : int, optional
        Passed to :func:`~rope_viz.scaling.from_config` (``dynamic`` and ``longrope``).

    Returns
    -------
    list of RopeScaling or None
        ``num_hidden_layers`` entries.

    Raises
    ------
    ValueError
        If ``num_hidden_layers`` is missing; if the RoPE settings are split by layer type but the layer types
        are unknown or name a type without settings; on any contradiction :func:`attention_layer_types` or
        :func:`rope_layer_mask` finds; and as :func:`~rope_viz.scaling.from_config`.

    Examples
    --------
    >>> gemma3 = {"model_type": "gemma3_text", "head_dim": 256, "num_hidden_layers": 6,
    ...           "rope_theta": 1e6, "rope_local_base_freq": 1e4,
    ...           "rope_scaling": {"rope_type": "linear", "factor": 8.0}}
    >>> [(layer.rope_type, layer.parameters.rope_theta) for layer in layers_from_config(gemma3)][-2:]
    [('default', 10000.0), ('linear', 1000000.0)]

    """
    config = _check_mapping(config)
    mask = rope_layer_mask(config)
    names = attention_layer_types(config)  # checks layer_types even where one RoPE serves every layer
    split_types = rope_layer_types(config)
    if not split_types:
        shared = from_config(config, seq_len=seq_len)
        return [shared if uses_rope else None for uses_rope in mask]
    if names is None:
        raise ValueError(
            f"the RoPE settings are split by layer type {list(split_types)}, so the config needs layer_types "
            "or sliding_window_pattern to say which layer is which"
        )
    unknown = sorted(set(names) - set(split_types))
    if unknown:
        raise ValueError(
            f"layer_types names {unknown}, which the RoPE settings (rope_parameters) do not cover; they "
            f"cover {list(split_types)}"
        )
    block = _text_config(config)
    nested = block.get("rope_parameters") or {}
    by_type: dict[str, RopeScaling | None] = {}
    for name in sorted(set(names)):
        has_settings = not (name in nested and nested[name] is None)
        by_type[name] = from_config(config, seq_len=seq_len, layer_type=name) if has_settings else None
    return [by_type[name] if uses_rope else None for name, uses_rope in zip(names, mask, strict=True)]
