"""Regenerate ``permutation_reference.json``: Meta's interleaved RoPE and transformers' rotate_half, compared.

A small grouped-query layer (4 query heads, 2 key heads of 8 channels, model width 16) with random weights in
Meta's order, six tokens at scattered positions. The fixture holds

* ``permuted_q`` and ``permuted_k``: the weights after the ``permute`` of transformers' Llama conversion
  script (``convert_llama_weights_to_hf.py``), ``w.view(n_heads, dim1 // n_heads // 2, 2, dim2)
  .transpose(1, 2).reshape(dim1, dim2)``, with ``num_key_value_heads`` for ``W_k``, run here in torch;
* ``meta_scores``: every head's scores with Meta's rotation (``apply_rotary_emb`` of the LLaMA reference code:
  the pairs ``(2i, 2i+1)`` viewed as complex numbers and multiplied by ``torch.polar(1, m theta_i)``), in
  float64;
* ``hf_scores``: the scores of the converted weights with transformers' own ``LlamaRotaryEmbedding`` (angles
  in float32, as transformers forms them), ``apply_rotary_pos_emb`` and ``repeat_kv`` from
  ``transformers.models.llama.modeling_llama``, with float64 queries and keys.

Run it from the repository root with a Python that has torch and transformers 5.x installed (rope_viz needs
neither):

    /path/to/venv-with-transformers/bin/python tests/reference/generate_permutation_reference.py
"""

from __future__ import annotations

import json
from pathlib import Path

import torch
import transformers
from transformers import LlamaConfig
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb, repeat_kv

FIXTURE = Path(__file__).resolve().with_name("permutation_reference.json")
N_HEADS, N_KV_HEADS, HEAD_DIM, MODEL_DIM = 4, 2, 8, 16
BASE = 10000.0
POSITIONS = [0, 1, 5, 37, 38, 300]


def permute(w: torch.Tensor, n_heads: int, dim1: int, dim2: int) -> torch.Tensor:
    """The conversion script's ``permute``, as it is written there."""
    return w.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2).reshape(dim1, dim2)


def meta_rotate(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    """Meta's ``apply_rotary_emb`` for one tensor ``(heads, seq, d)``, in float64."""
    theta = 1.0 / (BASE ** (torch.arange(0, HEAD_DIM, 2, dtype=torch.float64) / HEAD_DIM))
    freqs_cis = torch.polar(
        torch.ones(len(positions), HEAD_DIM // 2, dtype=torch.float64), torch.outer(positions, theta)
    )
    x_complex = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(x_complex * freqs_cis).flatten(-2)


def main() -> None:
    generator = torch.Generator().manual_seed(25199)
    weight_q = torch.randn(N_HEADS * HEAD_DIM, MODEL_DIM, generator=generator, dtype=torch.float64)
    weight_k = torch.randn(N_KV_HEADS * HEAD_DIM, MODEL_DIM, generator=generator, dtype=torch.float64)
    tokens = torch.randn(len(POSITIONS), MODEL_DIM, generator=generator, dtype=torch.float64)
    positions = torch.tensor(POSITIONS, dtype=torch.float64)
    seq = len(POSITIONS)

    # Meta: interleaved pairs on the original weights
    q = (tokens @ weight_q.T).view(seq, N_HEADS, HEAD_DIM).transpose(0, 1)
    k = (tokens @ weight_k.T).view(seq, N_KV_HEADS, HEAD_DIM).transpose(0, 1)
    q_meta, k_meta = meta_rotate(q, positions), meta_rotate(k, positions)
    k_meta = k_meta.repeat_interleave(N_HEADS // N_KV_HEADS, dim=0)
    meta_scores = q_meta @ k_meta.transpose(-1, -2)

    # transformers: converted weights, rotate_half
    permuted_q = permute(weight_q, N_HEADS, N_HEADS * HEAD_DIM, MODEL_DIM)
    permuted_k = permute(weight_k, N_KV_HEADS, N_KV_HEADS * HEAD_DIM, MODEL_DIM)
    config = LlamaConfig(
        hidden_size=MODEL_DIM,
        num_attention_heads=N_HEADS,
        num_key_value_heads=N_KV_HEADS,
        head_dim=HEAD_DIM,
        rope_theta=BASE,
        max_position_embeddings=1024,
    )
    rotary = LlamaRotaryEmbedding(config)
    q_hf = (tokens @ permuted_q.T).view(1, seq, N_HEADS, HEAD_DIM).transpose(1, 2)
    k_hf = (tokens @ permuted_k.T).view(1, seq, N_KV_HEADS, HEAD_DIM).transpose(1, 2)
    cos, sin = rotary(q_hf, torch.tensor([POSITIONS]))
    q_hf, k_hf = apply_rotary_pos_emb(q_hf, k_hf, cos, sin)
    k_hf = repeat_kv(k_hf, N_HEADS // N_KV_HEADS)
    hf_scores = (q_hf @ k_hf.transpose(-1, -2))[0]

    fixture = {
        "source": f"transformers {transformers.__version__}, torch {torch.__version__}",
        "n_heads": N_HEADS,
        "n_kv_heads": N_KV_HEADS,
        "head_dim": HEAD_DIM,
        "base": BASE,
        "positions": POSITIONS,
        "weight_q": weight_q.tolist(),
        "weight_k": weight_k.tolist(),
        "tokens": tokens.tolist(),
        "permuted_q": permuted_q.tolist(),
        "permuted_k": permuted_k.tolist(),
        "meta_scores": meta_scores.tolist(),
        "hf_scores": hf_scores.tolist(),
    }
    FIXTURE.write_text(json.dumps(fixture, indent=1) + "\n", encoding="utf-8")
    gap = (hf_scores - meta_scores).abs().max().item()
    print(f"wrote {FIXTURE.name}; largest |hf - meta| = {gap:.2e} (float32 angles in transformers)")


if __name__ == "__main__":
    main()
