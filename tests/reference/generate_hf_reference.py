"""Regenerate ``hf_rope_reference.json``: RoPE frequencies computed by Hugging Face transformers 5.x.

The fixture pins rope_viz.scaling to transformers' own numbers, so the tests can check them without torch.
Each case is a config dict (as in a ``config.json``), an optional ``seq_len``, and what transformers returns
for it: ``inv_freq`` and ``attention_factor``. transformers builds a real config object from the dict
(``AutoConfig.for_model``, which runs its RoPE standardisation), then either

* ``"init_function"``: calls ``ROPE_INIT_FUNCTIONS[rope_type](config, seq_len=...)``, or for ``rope_type
  "default"`` (which has no entry there) ``PhiRotaryEmbedding.compute_default_rope_parameters``, the default
  rule that honours ``partial_rotary_factor``; or
* ``"rotary_module"``: instantiates the model's own ``...RotaryEmbedding`` class (presets only) and reads its
  ``inv_freq`` buffer and ``attention_scaling``.

Run it from the repository root with a Python that has torch and transformers 5.x installed (rope_viz itself
needs neither; its presets are imported from this checkout):

    /path/to/venv-with-transformers/bin/python tests/reference/generate_hf_reference.py

The tests import :func:`build_cases` and :func:`hf_rope` from here for a live comparison when torch and
transformers are importable.
"""

from __future__ import annotations

import copy
import importlib
import json
import random
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().with_name("hf_rope_reference.json")

# (hidden_size, num_attention_heads, head_dim or None, partial_rotary_factor, rope_theta)
HEAD_SHAPES = [
    (4096, 32, None, 1.0, 10000.0),
    (2048, 32, None, 1.0, 500000.0),
    (3072, 32, 96, 1.0, 10000.0),
    (2560, 32, 80, 0.5, 10000.0),
    (4096, 32, 128, 0.25, 1000000.0),
]
MAX_POSITION_EMBEDDINGS = 8192


def _shape_keys(shape: tuple) -> tuple[dict, dict]:
    """Top-level keys of a head shape, and the keys that go with the base (rope_theta, partial factor)."""
    hidden_size, heads, head_dim, partial_rotary_factor, rope_theta = shape
    top = {
        "hidden_size": hidden_size,
        "num_attention_heads": heads,
        "max_position_embeddings": MAX_POSITION_EMBEDDINGS,
    }
    if head_dim is not None:
        top["head_dim"] = head_dim
    base = {"rope_theta": rope_theta}
    if partial_rotary_factor != 1.0:
        base["partial_rotary_factor"] = partial_rotary_factor
    return top, base


def rotary_dim(shape: tuple) -> int:
    hidden_size, heads, head_dim, partial_rotary_factor, _ = shape
    return int((head_dim or hidden_size // heads) * partial_rotary_factor)


def config_forms(shape: tuple, method_keys: dict) -> dict[str, dict]:
    """The same settings written three ways: 4.x with ``rope_type``, 4.x with legacy ``type``, and 5.x."""
    top, base = _shape_keys(shape)
    rope_type = method_keys["rope_type"]
    rest = {key: value for key, value in method_keys.items() if key != "rope_type"}
    forms = {
        "v5": {**top, "rope_parameters": {"rope_type": rope_type, **base, **rest}},
        "v4": {**top, **base, "rope_scaling": {"rope_type": rope_type, **rest}},
        "v4type": {**top, **base, "rope_scaling": {"type": rope_type, **rest}},
    }
    if rope_type == "default":
        forms["v4"] = {**top, **base, "rope_scaling": None}
        forms["v4type"] = {**top, **base}
    return forms


def _method_settings(dim: int, rng: random.Random) -> list[tuple[str, dict, list]]:
    """(label, method keys, seq_lens) for every method and a spread of its parameters."""
    length = MAX_POSITION_EMBEDDINGS
    settings = [("default", {"rope_type": "default"}, [None])]
    for factor in (1.0, 2.0, 4.0):
        settings.append((f"linear-s{factor:g}", {"rope_type": "linear", "factor": factor}, [None]))
    for factor in (1.0, 2.0, 4.0):
        seq_lens = [None, length // 2, length, 2 * length, 3 * length + 1]
        settings.append((f"dynamic-s{factor:g}", {"rope_type": "dynamic", "factor": factor}, seq_lens))
    original = length // 4
    for factor in (1.0, 4.0, 16.0):
        keys = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": original}
        settings.append((f"yarn-s{factor:g}", keys, [None]))
    yarn_variants = {
        "truncate-false": {"truncate": False},
        "betas": {"beta_fast": 16, "beta_slow": 2},
        "mscale": {"mscale": 0.707, "mscale_all_dim": 0.707},
        "mscale-ratio": {"mscale": 1.0, "mscale_all_dim": 0.5},
        "mscale-alone": {"mscale": 0.8},
        "attention-factor": {"attention_factor": 1.25},
        "factor-null": {"factor": None},
        "no-original": {},
        "equal-betas": {"beta_fast": 8, "beta_slow": 8, "truncate": False},  # empty ramp, widened by 0.001
        "long-original": {"original_max_position_embeddings": 131072},  # upper edge clamped to dim - 1
        "tiny-original": {"original_max_position_embeddings": 4},  # both edges below pair 0
    }
    for label, extra in yarn_variants.items():
        keys = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": original, **extra}
        if label == "no-original":
            keys.pop("original_max_position_embeddings")
        settings.append((f"yarn-{label}", keys, [None]))
    for factor, low, high, llama_original in (
        (1.0, 1.0, 4.0, 2048),
        (8.0, 1.0, 4.0, 2048),
        (32.0, 2.0, 8.0, 1024),
    ):
        keys = {
            "rope_type": "llama3",
            "factor": factor,
            "low_freq_factor": low,
            "high_freq_factor": high,
            "original_max_position_embeddings": llama_original,
        }
        settings.append((f"llama3-s{factor:g}-{low:g}-{high:g}", keys, [None]))
    pairs = dim // 2
    short_factor = [round(1.0 + rng.random(), 4) for _ in range(pairs)]
    long_factor = sorted(round(1.0 + 15.0 * rng.random(), 4) for _ in range(pairs))
    longrope = {
        "rope_type": "longrope",
        "short_factor": short_factor,
        "long_factor": long_factor,
        "original_max_position_embeddings": original,
    }
    seq_lens = [None, original, original + 1, length]
    settings.append(("longrope-derived-factor", longrope, seq_lens))
    settings.append(("longrope-factor", {**longrope, "factor": 2.5}, [None, length]))
    settings.append(("longrope-attention-factor", {**longrope, "attention_factor": 1.1}, [None, length]))
    no_original = {key: value for key, value in longrope.items() if key != "original_max_position_embeddings"}
    settings.append(("longrope-no-original", {**no_original, "factor": 4.0}, [None, length, length + 1]))
    return settings


def _synthetic_cases() -> list[dict]:
    rng = random.Random(20240601)
    cases = []
    for shape in HEAD_SHAPES:
        dim = rotary_dim(shape)
        for label, keys, seq_lens in _method_settings(dim, rng):
            forms = config_forms(shape, keys)
            # Every setting in the 5.x form; the two 4.x forms for the first shape (they must agree with it).
            chosen = forms if shape == HEAD_SHAPES[0] else {"v5": forms["v5"]}
            for form, config in chosen.items():
                for seq_len in seq_lens:
                    cases.append(
                        {
                            "id": f"{label}/d{dim}-theta{shape[4]:g}/{form}/seq{seq_len}",
                            "config": config,
                            "seq_len": seq_len,
                            "via": "init_function",
                        }
                    )
    return cases


def _proportional_cases() -> list[dict]:
    """Proportional RoPE (Gemma 4's global layers): frequencies over the whole head, slow pairs set to 0."""
    cases = []
    for head_dim, rope_theta in ((128, 10000.0), (256, 1000000.0), (512, 1000000.0), (80, 10000.0)):
        top = {"hidden_size": 2048, "num_attention_heads": 16, "head_dim": head_dim}
        top["max_position_embeddings"] = MAX_POSITION_EMBEDDINGS
        for proportion in (0.25, 0.4, 0.5, 1.0):
            for factor in (None, 1.0, 8.0):
                keys = {"rope_type": "proportional", "rope_theta": rope_theta}
                keys["partial_rotary_factor"] = proportion
                if factor is not None:
                    keys["factor"] = factor
                label = f"proportional-p{proportion:g}-s{factor}/d{head_dim}-theta{rope_theta:g}"
                cases.append({"id": f"{label}/v5/seqNone", "config": {**top, "rope_parameters": keys}})
                if factor == 8.0:
                    block = {key: value for key, value in keys.items() if key != "rope_theta"}
                    config = {**top, "rope_theta": rope_theta, "rope_scaling": block}
                    cases.append({"id": f"{label}/v4/seqNone", "config": config})
    return cases


def _layer_type_cases() -> list[dict]:
    """Configs with one RoPE setting per attention layer type: Gemma 3's 4.x layout and the 5.x nesting."""
    gemma3 = {
        "model_type": "gemma3_text",
        "hidden_size": 2560,
        "num_attention_heads": 8,
        "head_dim": 256,
        "num_hidden_layers": 12,
        "max_position_embeddings": 131072,
        "rope_theta": 1000000.0,
        "rope_local_base_freq": 10000.0,
        "rope_scaling": {"rope_type": "linear", "factor": 8.0},
    }
    nested = {
        "hidden_size": 2048,
        "num_attention_heads": 16,
        "head_dim": 128,
        "num_hidden_layers": 6,
        "layer_types": ["sliding_attention", "full_attention"] * 3,
        "rope_parameters": {
            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
            "full_attention": {"rope_type": "linear", "factor": 4.0, "rope_theta": 1000000.0},
        },
    }
    cases = []
    for label, config, via in (("gemma3", gemma3, "rotary_module"), ("nested-v5", nested, "init_function")):
        for layer_type in ("full_attention", "sliding_attention"):
            case = {"id": f"layer-type/{label}/{layer_type}", "config": config, "via": via}
            cases.append({**case, "layer_type": layer_type})
    return cases


def _layout_cases() -> list[dict]:
    """Config layouts: partial_rotary_factor and original length at the top level, nested text_config."""
    head = {"hidden_size": 2560, "num_attention_heads": 32, "max_position_embeddings": 16384}
    yarn = {"rope_type": "yarn", "factor": 8.0}
    return [
        {
            "id": "layout/partial-rotary-top-level",
            "config": {
                **head,
                "partial_rotary_factor": 0.4,
                "rope_theta": 10000.0,
                "rope_scaling": {"rope_type": "linear", "factor": 2.0},
            },
        },
        {
            "id": "layout/original-length-top-level",
            "config": {
                **head,
                "original_max_position_embeddings": 2048,
                "rope_theta": 10000.0,
                "rope_scaling": yarn,
            },
        },
        {
            "id": "layout/original-length-both-equal",
            "config": {
                **head,
                "original_max_position_embeddings": 2048,
                "rope_theta": 10000.0,
                "rope_scaling": {**yarn, "original_max_position_embeddings": 2048},
            },
        },
        {
            "id": "layout/theta-default",
            "config": {**head, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}},
            "seq_len": 40000,
        },
    ]


def _preset_cases() -> list[dict]:
    sys.path.insert(0, str(REPOSITORY))
    from rope_viz.presets import PRESETS

    cases = []
    for name, preset in PRESETS.items():
        for layer_type in preset.layer_types or [None]:
            suffix = "" if layer_type is None else f"/{layer_type}"
            for via, label in (("rotary_module", ""), ("init_function", "/init")):
                case = {"id": f"preset/{name}{suffix}{label}", "config": preset.config, "via": via}
                case["layer_type"] = layer_type
                cases.append(case)
    for seq_len in (4096, 4097, 131072):
        config = PRESETS["phi-3.5-mini-instruct"].config
        cases.append(
            {"id": f"preset/phi-3.5-mini-instruct/seq{seq_len}", "config": config, "seq_len": seq_len}
        )
    return cases


def build_cases() -> list[dict]:
    """Every case: ``id``, ``config``, ``seq_len``, ``layer_type`` and ``via``."""
    cases = _synthetic_cases() + _proportional_cases() + _layer_type_cases()
    cases += _layout_cases() + _preset_cases()
    for case in cases:
        case.setdefault("seq_len", None)
        case.setdefault("layer_type", None)
        case.setdefault("via", "init_function")
        case["config"] = copy.deepcopy(case["config"])
    return cases


def _layer_config(hf_config, layer_type: str):
    """The config a layer type's rotary embedding reads (Gemma 4 resolves its head size per layer type)."""
    try:
        return hf_config.per_layer_config[layer_type]
    except (AttributeError, KeyError, TypeError, ValueError):
        return hf_config


def _hf_config(config: dict):
    from transformers import AutoConfig

    keys = copy.deepcopy(config)
    model_type = keys.pop("model_type", "llama")
    return model_type, AutoConfig.for_model(model_type, **keys)


def _rotary_module(model_type: str, hf_config):
    package = model_type.removesuffix("_text")
    module = importlib.import_module(f"transformers.models.{package}.modeling_{package}")
    # multimodal models have a vision tower with a rotary embedding of its own
    names = [name for name in dir(module) if name.endswith("RotaryEmbedding") and "Vision" not in name]
    if len(names) != 1:
        raise RuntimeError(f"expected one rotary-embedding class in {module.__name__}, found {names}")
    return getattr(module, names[0])(hf_config)


def _default_for_layer_type(hf_config, layer_type: str) -> tuple:
    """Plain RoPE of one layer type, the rule of Gemma 3's ``compute_default_rope_parameters``."""
    import torch

    settings = hf_config.rope_parameters[layer_type]
    head_dim = getattr(hf_config, "head_dim", None) or hf_config.hidden_size // hf_config.num_attention_heads
    dim = int(head_dim * settings.get("partial_rotary_factor", 1.0))
    exponents = torch.arange(0, dim, 2, dtype=torch.int64).to(dtype=torch.float) / dim
    return 1.0 / (settings["rope_theta"] ** exponents), 1.0


def hf_rope(
    config: dict, seq_len: int | None = None, via: str = "init_function", layer_type: str | None = None
) -> tuple[list[float], float]:
    """``(inv_freq, attention_factor)`` as transformers computes them for ``config`` (a config.json dict).

    ``layer_type`` picks one attention layer type's settings in a config that has one per type.
    """
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.phi.modeling_phi import PhiRotaryEmbedding

    model_type, hf_config = _hf_config(config)
    if getattr(hf_config, "text_config", None) is not None:  # a multimodal model's language model
        hf_config = hf_config.text_config
        model_type = hf_config.model_type
    settings = hf_config.rope_parameters if layer_type is None else hf_config.rope_parameters[layer_type]
    if via == "rotary_module":
        module = _rotary_module(model_type, hf_config)
        prefix = "" if layer_type is None else f"{layer_type}_"
        inv_freq = getattr(module, f"{prefix}inv_freq")
        attention_factor = getattr(module, f"{prefix}attention_scaling")
    elif settings["rope_type"] == "default" and layer_type is not None:
        inv_freq, attention_factor = _default_for_layer_type(_layer_config(hf_config, layer_type), layer_type)
    elif settings["rope_type"] == "default":
        inv_freq, attention_factor = PhiRotaryEmbedding.compute_default_rope_parameters(hf_config)
    else:
        init_function = ROPE_INIT_FUNCTIONS[settings["rope_type"]]
        keywords = {} if layer_type is None else {"layer_type": layer_type}
        inv_freq, attention_factor = init_function(hf_config, None, seq_len=seq_len, **keywords)
    # float32 values; 9 significant digits represent each exactly.
    return [float(f"{value:.9g}") for value in inv_freq.tolist()], float(attention_factor)


def _dump(document: dict) -> str:
    """JSON with one case per line: readable diffs without a line per number."""
    header = {key: value for key, value in document.items() if key != "cases"}
    lines = [json.dumps(header, indent=1)[:-2] + ',\n "cases": [']
    lines += [" " + json.dumps(case, separators=(",", ":")) + "," for case in document["cases"]]
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join([*lines, " ]", "}", ""])


def main() -> None:
    import torch
    import transformers

    transformers.logging.set_verbosity_error()
    cases = build_cases()
    for case in cases:
        case["inv_freq"], case["attention_factor"] = hf_rope(
            case["config"], case["seq_len"], case["via"], case["layer_type"]
        )
    document = {
        "description": "inv_freq and attention_factor from Hugging Face transformers' RoPE code, per config",
        "generator": "tests/reference/generate_hf_reference.py",
        "transformers_version": transformers.__version__,
        "torch_version": torch.__version__,
        "cases": cases,
    }
    FIXTURE.write_text(_dump(document))
    print(f"wrote {len(cases)} cases to {FIXTURE}")


if __name__ == "__main__":
    main()
