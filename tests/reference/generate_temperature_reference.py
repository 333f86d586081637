"""Regenerate ``temperature_reference.json``: attention temperatures and MLA, from transformers 5.x.

The fixture pins :mod:`rope_viz.attention_temperatures` and :mod:`rope_viz.mla` to transformers' own code, so
the tests can check them without torch. Every number is computed by calling transformers, never by re-typing
one of its formulas here:

* ``yarn``: ``attention_factor`` of ``_compute_yarn_parameters`` (the factor on cos and sin) for a grid of
  ``factor``, ``mscale`` and ``mscale_all_dim``;
* ``longrope``: ``attention_factor`` of ``_compute_longrope_parameters`` for a grid of ``factor`` (or none, so
  that ``max_position_embeddings / original_max_position_embeddings`` is used) and ``L``;
* ``deepseek``: ``DeepseekV3RotaryEmbedding(config).attention_scaling`` (on cos and sin) and
  ``DeepseekV3Attention(config, 0).scaling`` (the softmax scale);
* ``llama4``: the factor that ``Llama4TextAttention.forward`` of a NoPE layer multiplies its queries by,
  read off the query that reaches the attention function (an all-ones query before the scaling, a stand-in
  cache that reports ``p`` tokens already seen);
* ``llama_4_scaling``: ``get_llama_4_attn_scale`` of ``modeling_ministral3`` and of ``modeling_mistral4``,
  with the ``llama_4_scaling_beta`` and ``original_max_position_embeddings`` of their configs' defaults;
* ``mla``: the query and key vectors and the softmax scale that ``DeepseekV3Attention.forward`` hands to the
  attention function, for small random weights stored in the fixture, with ``rope_interleave`` on and off. The
  latent's RMSNorm (``kv_a_layernorm``) is replaced by the identity, as :mod:`rope_viz.mla` leaves it out.

Run it from the repository root with a Python that has torch and transformers 5.x installed:

    /path/to/venv-with-transformers/bin/python tests/reference/generate_temperature_reference.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

FIXTURE = Path(__file__).resolve().with_name("temperature_reference.json")

# Positions (0-based token indices) on both sides of the steps of floor((p + 1) / 8192), floor(p / 16384) and
# the like, and far beyond; all below 2**24, where float32 holds every integer.
POSITIONS = [
    0, 1, 999, 1000, 2047, 2048, 4095, 4096, 8190, 8191, 8192, 9999, 10000, 16382, 16383, 16384, 16385,
    32767, 32768, 65535, 131071, 131072, 262143, 1048575, 4194303,
]  # fmt: skip
YARN_FACTORS = [1.0, 1.5, 2.0, 4.0, 8.0, 16.0, 32.0, 40.0, 64.0]
YARN_MSCALES = [(None, None), (1.0, 1.0), (0.707, 0.707), (1.0, 0.5), (0.8, None), (None, 0.8), (0.0, 1.0)]
LONGROPE_CASES = [  # (factor or None, original_max_position_embeddings, max_position_embeddings)
    (None, 4096, 131072),
    (None, 4096, 4096),
    (None, 2048, 32768),
    *[(factor, 4096, 131072) for factor in (1.0, 1.5, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)],
    (32.0, 2048, 131072),
    (32.0, 8192, 131072),
]
DEEPSEEK_CASES = [  # (factor, mscale, mscale_all_dim, qk_nope_head_dim, qk_rope_head_dim)
    (40.0, 1.0, 1.0, 128, 64),  # DeepSeek-V3's config.json
    (40.0, 0.707, 0.707, 128, 64),  # DeepSeek-V2's config.json
    (40.0, 1.0, 0.5, 128, 64),
    (16.0, 0.8, 1.0, 16, 8),
    (4.0, 1.0, None, 128, 64),  # no mscale_all_dim: no softmax correction
    (1.0, 1.0, 1.0, 128, 64),
]
LLAMA4_SETTINGS = [
    (8192, 0.1),
    (1000, 0.2),
]  # (floor_scale, attn_scale); the first is Llama4TextConfig's default
LLAMA_4_SCALING_VARIANTS = [(0.2, 10000)]  # (llama_4_scaling_beta, original_max_position_embeddings)
LLAMA4_NUM_LAYERS = 48  # Llama 4 Scout's num_hidden_layers, for the default NoPE layer pattern


def _yarn_cases() -> list[dict]:
    from transformers import AutoConfig
    from transformers.modeling_rope_utils import _compute_yarn_parameters

    cases = []
    for factor in YARN_FACTORS:
        for mscale, mscale_all_dim in YARN_MSCALES:
            block = {"rope_type": "yarn", "rope_theta": 10000.0, "factor": factor}
            block["original_max_position_embeddings"] = 4096
            if mscale is not None:
                block["mscale"] = mscale
            if mscale_all_dim is not None:
                block["mscale_all_dim"] = mscale_all_dim
            config = AutoConfig.for_model(
                "llama",
                hidden_size=64,
                num_attention_heads=2,
                max_position_embeddings=int(4096 * factor),
                rope_parameters=block,
            )
            _, attention_factor = _compute_yarn_parameters(config)
            cases.append(
                {
                    "factor": factor,
                    "mscale": mscale,
                    "mscale_all_dim": mscale_all_dim,
                    "cos_sin_factor": float(attention_factor),
                }
            )
    return cases


def _longrope_cases() -> list[dict]:
    from transformers import AutoConfig
    from transformers.modeling_rope_utils import _compute_longrope_parameters

    cases = []
    for factor, original, longest in LONGROPE_CASES:
        block = {
            "rope_type": "longrope",
            "rope_theta": 10000.0,
            "short_factor": [1.0] * 16,
            "long_factor": [1.0] * 16,
            "original_max_position_embeddings": original,
        }
        if factor is not None:
            block["factor"] = factor
        config = AutoConfig.for_model(
            "llama",
            hidden_size=64,
            num_attention_heads=2,
            max_position_embeddings=longest,
            rope_parameters=block,
        )
        _, attention_factor = _compute_longrope_parameters(config)
        cases.append(
            {
                "factor": factor,
                "original_max_position_embeddings": original,
                "max_position_embeddings": longest,
                "cos_sin_factor": float(attention_factor),
            }
        )
    return cases


def _deepseek_config(**keys):
    from transformers import DeepseekV3Config

    settings = {
        "hidden_size": 16,
        "num_attention_heads": 1,
        "num_key_value_heads": 1,
        "q_lora_rank": None,
        "kv_lora_rank": 8,
        "v_head_dim": 4,
        "num_hidden_layers": 1,
        "max_position_embeddings": 163840,
    }
    settings.update(keys)
    return DeepseekV3Config(**settings)


def _deepseek_cases() -> list[dict]:
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import (
        DeepseekV3Attention,
        DeepseekV3RotaryEmbedding,
    )

    cases = []
    for factor, mscale, mscale_all_dim, nope, rope in DEEPSEEK_CASES:
        block = {
            "rope_type": "yarn",
            "rope_theta": 10000.0,
            "factor": factor,
            "original_max_position_embeddings": 4096,
            "beta_fast": 32,
            "beta_slow": 1,
        }
        if mscale is not None:
            block["mscale"] = mscale
        if mscale_all_dim is not None:
            block["mscale_all_dim"] = mscale_all_dim
        config = _deepseek_config(qk_nope_head_dim=nope, qk_rope_head_dim=rope, rope_parameters=block)
        cases.append(
            {
                "factor": factor,
                "mscale": mscale,
                "mscale_all_dim": mscale_all_dim,
                "qk_head_dim": nope + rope,
                "cos_sin_factor": float(DeepseekV3RotaryEmbedding(config).attention_scaling),
                "softmax_scale": float(DeepseekV3Attention(config, 0).scaling),
            }
        )
    return cases


class _CaptureQueryKey:
    """An attention function that records the query, key and scale it is handed, and returns zeros."""

    def __init__(self) -> None:
        self.seen: dict = {}

    def __call__(self, module, query, key, value, attention_mask, scaling=None, **kwargs):
        import torch

        self.seen = {"query": query.detach().clone(), "key": key.detach().clone(), "scaling": scaling}
        batch, heads, seq, _ = query.shape
        return torch.zeros(batch, seq, heads, value.shape[-1], dtype=query.dtype), None


class _SeenTokens:
    """A stand-in cache: reports ``seen`` tokens already cached and caches nothing."""

    def __init__(self, seen: int) -> None:
        self.seen = seen

    def get_seq_length(self, layer_idx: int = 0) -> int:
        return self.seen

    def update(self, key_states, value_states, layer_idx, *args, **kwargs):
        return key_states, value_states


def _llama4_cases() -> tuple[list[dict], dict]:
    import torch
    from transformers import AttentionInterface, Llama4TextConfig
    from transformers.models.llama4.modeling_llama4 import Llama4TextAttention

    capture = _CaptureQueryKey()
    AttentionInterface.register("rope_viz_capture", capture)
    cases = []
    for floor_scale, attn_scale in LLAMA4_SETTINGS:
        config = Llama4TextConfig(
            hidden_size=8,
            num_attention_heads=2,
            num_key_value_heads=2,
            head_dim=4,
            num_hidden_layers=4,
            intermediate_size=16,
            intermediate_size_mlp=16,
            floor_scale=floor_scale,
            attn_scale=attn_scale,
            attn_temperature_tuning=True,
        )
        config._attn_implementation = "rope_viz_capture"
        nope_layer = config.no_rope_layers.index(0)
        attention = Llama4TextAttention(config, nope_layer)
        with torch.no_grad():
            attention.q_proj.weight.copy_(torch.eye(8))
        factors = []
        for position in POSITIONS:
            hidden = torch.ones(1, 1, 8)
            with torch.no_grad():
                attention(hidden, None, None, past_key_values=_SeenTokens(position))
            query = capture.seen["query"]
            if not torch.all(query == query.flatten()[0]):
                raise RuntimeError("the query factor is expected to be the same for every coordinate")
            factors.append(float(query.flatten()[0]))
        cases.append(
            {"floor_scale": floor_scale, "attn_scale": attn_scale, "positions": POSITIONS, "factor": factors}
        )
    defaults = Llama4TextConfig(num_hidden_layers=LLAMA4_NUM_LAYERS)
    config_defaults = {
        "floor_scale": defaults.floor_scale,
        "attn_scale": defaults.attn_scale,
        "attn_temperature_tuning": defaults.attn_temperature_tuning,
        "num_hidden_layers": LLAMA4_NUM_LAYERS,
        "nope_layers": [index for index, uses_rope in enumerate(defaults.no_rope_layers) if not uses_rope],
    }
    return cases, config_defaults


def _llama_4_scaling_cases() -> tuple[list[dict], dict]:
    import torch
    from transformers import Ministral3Config, Mistral4Config
    from transformers.models.ministral3.modeling_ministral3 import get_llama_4_attn_scale as ministral3_scale
    from transformers.models.mistral4.modeling_mistral4 import get_llama_4_attn_scale as mistral4_scale

    position_ids = torch.tensor([POSITIONS])  # (batch, seq), int64 like real position ids
    defaults = {}
    settings = []
    for name, config_class, function in (
        ("ministral3", Ministral3Config, ministral3_scale),
        ("mistral4", Mistral4Config, mistral4_scale),
    ):
        rope = config_class().rope_parameters
        defaults[name] = {
            key: rope[key]
            for key in ("llama_4_scaling_beta", "original_max_position_embeddings", "factor", "rope_theta")
        }
        defaults[name]["mscale"], defaults[name]["mscale_all_dim"] = (
            rope.get("mscale"),
            rope.get("mscale_all_dim"),
        )
        settings.append(
            (name, function, rope["llama_4_scaling_beta"], rope["original_max_position_embeddings"])
        )
    settings += [("ministral3", ministral3_scale, *variant) for variant in LLAMA_4_SCALING_VARIANTS]
    cases = []
    for name, function, beta, original in settings:
        factors = function(position_ids, beta, original).flatten().tolist()
        cases.append(
            {
                "module": name,
                "llama_4_scaling_beta": beta,
                "original_max_position_embeddings": original,
                "positions": POSITIONS,
                "factor": [float(value) for value in factors],
            }
        )
    return cases, defaults


def _mla_cases() -> list[dict]:
    import torch
    from transformers import AttentionInterface
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import (
        DeepseekV3Attention,
        DeepseekV3RotaryEmbedding,
    )

    hidden_size, heads, latent, nope, rope, value_dim = 16, 2, 6, 4, 4, 2
    rng = np.random.default_rng(20240507)
    weights = {
        "query_content": rng.standard_normal((heads, nope, hidden_size)) / np.sqrt(hidden_size),
        "query_rope": rng.standard_normal((heads, rope, hidden_size)) / np.sqrt(hidden_size),
        "latent_down": rng.standard_normal((latent, hidden_size)) / np.sqrt(hidden_size),
        "key_up": rng.standard_normal((heads, nope, latent)) / np.sqrt(latent),
        "key_rope": rng.standard_normal((rope, hidden_size)) / np.sqrt(hidden_size),
    }
    value_up = rng.standard_normal((heads, value_dim, latent)) / np.sqrt(latent)
    hidden_states = rng.standard_normal((3, hidden_size))
    positions = [2, 5, 9]

    capture = _CaptureQueryKey()
    AttentionInterface.register("rope_viz_capture", capture)
    cases = []
    for rope_interleave in (True, False):
        config = _deepseek_config(
            hidden_size=hidden_size,
            num_attention_heads=heads,
            num_key_value_heads=heads,
            kv_lora_rank=latent,
            qk_nope_head_dim=nope,
            qk_rope_head_dim=rope,
            v_head_dim=value_dim,
            max_position_embeddings=64,
            rope_interleave=rope_interleave,
            rope_parameters={"rope_type": "default", "rope_theta": 10000.0},
        )
        config._attn_implementation = "rope_viz_capture"
        attention = DeepseekV3Attention(config, 0).double()
        attention.kv_a_layernorm = torch.nn.Identity()
        query_rows = np.concatenate([weights["query_content"], weights["query_rope"]], axis=1)
        key_value_rows = np.concatenate([weights["key_up"], value_up], axis=1)
        with torch.no_grad():
            attention.q_proj.weight.copy_(torch.from_numpy(query_rows.reshape(-1, hidden_size)))
            attention.kv_a_proj_with_mqa.weight.copy_(
                torch.from_numpy(np.concatenate([weights["latent_down"], weights["key_rope"]]))
            )
            attention.kv_b_proj.weight.copy_(torch.from_numpy(key_value_rows.reshape(-1, latent)))
            hidden = torch.from_numpy(hidden_states)[None]  # (1, seq, hidden)
            rotary = DeepseekV3RotaryEmbedding(config)
            cos, sin = rotary(hidden, torch.tensor([positions]))
            attention(hidden, (cos, sin), None)
        cases.append(
            {
                "rope_interleave": rope_interleave,
                "rope_theta": 10000.0,
                "positions": positions,
                "hidden_states": hidden_states.tolist(),
                "weights": {name: array.tolist() for name, array in weights.items()},
                "query": capture.seen["query"][0].tolist(),  # (heads, seq, nope + rope)
                "key": capture.seen["key"][0].tolist(),  # (heads, seq, nope + rope)
                "softmax_scale": float(capture.seen["scaling"]),
            }
        )
    return cases


def _dump(document: dict) -> str:
    """JSON with one case per line: readable diffs without a line per number."""
    lines = ["{"]
    for number, (key, value) in enumerate(document.items()):
        comma = "," if number < len(document) - 1 else ""
        if isinstance(value, list):
            cases = [f"  {json.dumps(case, separators=(',', ':'))}" for case in value]
            lines += [f" {json.dumps(key)}: [", ",\n".join(cases), f" ]{comma}"]
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}{comma}")
    return "\n".join([*lines, "}", ""])


def main() -> None:
    import torch
    import transformers

    transformers.logging.set_verbosity_error()
    llama4, llama4_defaults = _llama4_cases()
    llama_4_scaling, llama_4_scaling_defaults = _llama_4_scaling_cases()
    document = {
        "description": "attention temperatures and DeepSeek-V3's MLA query and key, from transformers",
        "generator": "tests/reference/generate_temperature_reference.py",
        "transformers_version": transformers.__version__,
        "torch_version": torch.__version__,
        "config_defaults": {"llama4_text": llama4_defaults, **llama_4_scaling_defaults},
        "yarn": _yarn_cases(),
        "longrope": _longrope_cases(),
        "deepseek": _deepseek_cases(),
        "llama4": llama4,
        "llama_4_scaling": llama_4_scaling,
        "mla": _mla_cases(),
    }
    FIXTURE.write_text(_dump(document))
    print(f"wrote {FIXTURE}")


if __name__ == "__main__":
    main()
