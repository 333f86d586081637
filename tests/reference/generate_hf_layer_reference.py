"""Regenerate ``hf_layer_reference.json``: per-layer RoPE and rotated vectors, as transformers 5.x gives them.

Two kinds of case, each computed by transformers' own code:

* ``"layers"``: a config dict, and for each decoder layer the attention layer type transformers' config class
  assigns (``config.layer_types``) and whether the layer uses RoPE (``config.no_rope_layers`` where the model
  has NoPE layers, else every layer);
* ``"apply"``: a query rotated by a model's own rotary code: ``PhiRotaryEmbedding`` plus Phi's split of the
  head into a rotated and a passed-through part (partial rotary, ``partial_rotary_factor`` < 1), and
  ``Gemma4TextRotaryEmbedding`` with ``apply_rotary_pos_emb`` on a global layer (proportional RoPE).

Run it from the repository root with a Python that has torch and transformers 5.x installed:

    /path/to/venv-with-transformers/bin/python tests/reference/generate_hf_layer_reference.py
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

FIXTURE = Path(__file__).resolve().with_name("hf_layer_reference.json")

LAYER_CONFIGS = {
    "gemma3-pattern-default": {
        "model_type": "gemma3_text",
        "hidden_size": 2560,
        "num_attention_heads": 8,
        "head_dim": 256,
        "num_hidden_layers": 14,
        "rope_theta": 1000000.0,
        "rope_local_base_freq": 10000.0,
    },
    "gemma3-pattern-4": {
        "model_type": "gemma3_text",
        "hidden_size": 2560,
        "num_attention_heads": 8,
        "head_dim": 256,
        "num_hidden_layers": 9,
        "sliding_window_pattern": 4,
    },
    "llama4-interval-default": {
        "model_type": "llama4_text",
        "hidden_size": 1024,
        "num_attention_heads": 8,
        "head_dim": 128,
        "num_hidden_layers": 10,
        "rope_theta": 500000.0,
        "no_rope_layers": [],
    },
    "llama4-interval-3": {
        "model_type": "llama4_text",
        "hidden_size": 1024,
        "num_attention_heads": 8,
        "head_dim": 128,
        "num_hidden_layers": 7,
        "no_rope_layer_interval": 3,
    },
    "smollm3-list": {
        "model_type": "smollm3",
        "hidden_size": 1024,
        "num_attention_heads": 8,
        "num_hidden_layers": 6,
        "rope_theta": 2000000.0,
        "no_rope_layers": [1, 1, 0, 1, 1, 0],
    },
    "gpt-oss-alternating": {
        "model_type": "gpt_oss",
        "hidden_size": 2880,
        "num_attention_heads": 64,
        "head_dim": 64,
        "num_hidden_layers": 4,
        "layer_types": ["sliding_attention", "full_attention"] * 2,
    },
}


def _hf_config(config: dict):
    from transformers import AutoConfig

    keys = copy.deepcopy(config)
    return AutoConfig.for_model(keys.pop("model_type"), **keys)


def layer_case(name: str, config: dict) -> dict:
    hf_config = _hf_config(config)
    layers = hf_config.num_hidden_layers
    flags = getattr(hf_config, "no_rope_layers", None)
    uses_rope = [bool(flag) for flag in flags[:layers]] if flags else [True] * layers
    layer_types = list(hf_config.layer_types) if getattr(hf_config, "layer_types", None) else None
    return {"id": name, "config": config, "layer_types": layer_types, "uses_rope": uses_rope}


def _query(rng: random.Random, seq: int, head_dim: int) -> list[list[float]]:
    return [[round(rng.uniform(-1.0, 1.0), 6) for _ in range(head_dim)] for _ in range(seq)]


def phi_apply_case(partial_rotary_factor: float, rng: random.Random) -> dict:
    """Phi's attention: rotate ``q[..., :rotary_ndims]`` with rotate_half, pass the rest through."""
    import torch
    from transformers.models.phi.modeling_phi import PhiRotaryEmbedding, apply_rotary_pos_emb

    config = {
        "model_type": "phi",
        "hidden_size": 2560,
        "num_attention_heads": 32,
        "rope_theta": 10000.0,
        "partial_rotary_factor": partial_rotary_factor,
    }
    hf_config = _hf_config(config)
    head_dim = hf_config.hidden_size // hf_config.num_attention_heads
    rotary_ndims = int(head_dim * partial_rotary_factor)
    positions = [0, 1, 7, 100, 2047]
    query = torch.tensor(_query(rng, len(positions), head_dim), dtype=torch.float64)[None, None]
    rotary = PhiRotaryEmbedding(hf_config).to(torch.float64)
    cos, sin = rotary(query, torch.tensor([positions]))
    rotated, _ = apply_rotary_pos_emb(query[..., :rotary_ndims], query[..., :rotary_ndims], cos, sin)
    output = torch.cat((rotated, query[..., rotary_ndims:]), dim=-1)
    return {
        "id": f"apply/phi-partial{partial_rotary_factor:g}",
        "config": config,
        "layer_type": None,
        "inv_freq": rotary.inv_freq.tolist(),
        "positions": positions,
        "query": query[0, 0].tolist(),
        "rotated": output[0, 0].tolist(),
    }


def gemma4_apply_case(rng: random.Random) -> dict:
    """Gemma 4's global layer: proportional RoPE over its ``global_head_dim``."""
    import torch
    from transformers.models.gemma4.modeling_gemma4 import Gemma4TextRotaryEmbedding, apply_rotary_pos_emb

    config = {
        "model_type": "gemma4_text",
        "hidden_size": 1024,
        "num_attention_heads": 8,
        "head_dim": 64,
        "global_head_dim": 128,
        "num_hidden_layers": 6,
        "rope_parameters": {
            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
            "full_attention": {
                "rope_type": "proportional",
                "partial_rotary_factor": 0.25,
                "rope_theta": 1000000.0,
            },
        },
    }
    hf_config = _hf_config(config)
    positions = [0, 3, 50, 4096, 100000]
    query = torch.tensor(_query(rng, len(positions), 128), dtype=torch.float64)[None, None]
    rotary = Gemma4TextRotaryEmbedding(hf_config).to(torch.float64)
    cos, sin = rotary(query, torch.tensor([positions]), layer_type="full_attention")
    output = apply_rotary_pos_emb(query, cos, sin)
    return {
        "id": "apply/gemma4-global-proportional",
        "config": config,
        "layer_type": "full_attention",
        "inv_freq": rotary.full_attention_inv_freq.tolist(),
        "positions": positions,
        "query": query[0, 0].tolist(),
        "rotated": output[0, 0].tolist(),
    }


def main() -> None:
    import torch
    import transformers

    transformers.logging.set_verbosity_error()
    rng = random.Random(20261201)
    layers = [layer_case(name, config) for name, config in LAYER_CONFIGS.items()]
    apply = [phi_apply_case(factor, rng) for factor in (0.4, 0.5)] + [gemma4_apply_case(rng)]
    document = {
        "description": "per-layer RoPE and rotated queries from Hugging Face transformers' own code",
        "generator": "tests/reference/generate_hf_layer_reference.py",
        "transformers_version": transformers.__version__,
        "torch_version": torch.__version__,
        "layers": layers,
        "apply": apply,
    }
    FIXTURE.write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {len(layers)} layer cases and {len(apply)} rotation cases to {FIXTURE}")


if __name__ == "__main__":
    main()
