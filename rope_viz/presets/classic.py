"""Presets of models released up to 2024, one RoPE setting per model.

Llama 2 and 3.1, Code Llama, Mistral 7B, Qwen2.5, Gemma 2, DeepSeek-V3 and Phi-3.5. Each config dict keeps the
layout of the model's own ``config.json``.
"""

from __future__ import annotations

from rope_viz.presets.record import Preset

_PHI_3_5_LONG_FACTOR = [
    1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115,
    1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863,
    4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137,
    17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523,
    32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156,
    50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457,
    62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457,
    63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688,
    64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336,
    64.51000213623047, 64.52999877929688, 64.83999633789062,
]  # fmt: skip

_PHI_3_5_SHORT_FACTOR = [
    1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842, 1.0499999523162842,
    1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979, 1.0999999046325684,
    1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662, 1.2899998426437378,
    1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788,
    1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745, 2.0199997425079346,
    2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
    2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
    2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0799996852874756,
    2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533, 2.729999542236328,
    2.749999523162842, 2.8399994373321533,
]  # fmt: skip

_QWEN_2_5_7B_INSTRUCT = {
    "model_type": "qwen2",
    "hidden_size": 3584,
    "num_attention_heads": 28,
    "max_position_embeddings": 32768,
    "rope_theta": 1000000.0,
}

CLASSIC_PRESETS = [
    # meta-llama/Llama-2-7b-hf config.json (written by transformers 4.31): no rope_theta key at all, so the
    # default base 10000 applies; rope_scaling is null.
    Preset(
        name="llama-2-7b",
        hf_repo="meta-llama/Llama-2-7b-hf",
        paper="Touvron et al. 2023, Llama 2: Open Foundation and Fine-Tuned Chat Models, arXiv:2307.09288",
        config={
            "model_type": "llama",
            "hidden_size": 4096,
            "num_attention_heads": 32,
            "max_position_embeddings": 4096,
            "rope_scaling": None,
        },
        notes="Plain RoPE, base 10000 (the config omits rope_theta), 4096-token context, head size 128.",
    ),
    # codellama/CodeLlama-7b-hf config.json.
    Preset(
        name="code-llama-7b",
        hf_repo="codellama/CodeLlama-7b-hf",
        paper="Roziere et al. 2023, Code Llama: Open Foundation Models for Code, arXiv:2308.12950",
        config={
            "model_type": "llama",
            "hidden_size": 4096,
            "num_attention_heads": 32,
            "max_position_embeddings": 16384,
            "rope_scaling": None,
            "rope_theta": 1000000,
        },
        notes="Llama 2 fine-tuned for long code with the base raised from 10000 to 1e6.",
    ),
    # meta-llama/Llama-3.1-8B config.json.
    Preset(
        name="llama-3.1-8b",
        hf_repo="meta-llama/Llama-3.1-8B",
        paper="Grattafiori et al. 2024, The Llama 3 Herd of Models, arXiv:2407.21783",
        config={
            "model_type": "llama",
            "hidden_size": 4096,
            "num_attention_heads": 32,
            "max_position_embeddings": 131072,
            "rope_scaling": {
                "factor": 8.0,
                "low_freq_factor": 1.0,
                "high_freq_factor": 4.0,
                "original_max_position_embeddings": 8192,
                "rope_type": "llama3",
            },
            "rope_theta": 500000.0,
        },
        notes="llama3 scaling from 8192 to 131072 tokens: pairs with wavelength < 2048 tokens untouched, "
        "> 8192 divided by 8, blended between.",
    ),
    # mistralai/Mistral-7B-v0.1 config.json. Its max_position_embeddings (32768) is not a length the model was
    # trained on: the paper's Table 1 gives context_len 8192 and window_size 4096. Version 0.2 already raised
    # rope_theta to 1e6, dropped the sliding window and declared a 32k context (model card of
    # mistralai/Mistral-7B-Instruct-v0.2, whose config.json has rope_theta 1000000.0 and sliding_window
    # null); v0.3 kept those and changed the vocabulary.
    Preset(
        name="mistral-7b-v0.1",
        hf_repo="mistralai/Mistral-7B-v0.1",
        paper="Jiang et al. 2023, Mistral 7B, arXiv:2310.06825",
        config={
            "model_type": "mistral",
            "hidden_size": 4096,
            "num_attention_heads": 32,
            "max_position_embeddings": 32768,
            "rope_theta": 10000.0,
            "sliding_window": 4096,
        },
        notes="Plain RoPE, base 10000, trained on 8192-token sequences (paper, Table 1); attention sees at "
        "most 4096 tokens back (sliding window). max_position_embeddings = 32768 is only the largest "
        "position the config allows, not a trained length.",
    ),
    # Qwen/Qwen2.5-7B-Instruct config.json.
    Preset(
        name="qwen2.5-7b-instruct",
        hf_repo="Qwen/Qwen2.5-7B-Instruct",
        paper="Qwen Team 2024, Qwen2.5 Technical Report, arXiv:2412.15115",
        config=dict(_QWEN_2_5_7B_INSTRUCT),
        notes="Plain RoPE with base 1e6 over 32768 tokens.",
    ),
    # Same config.json plus the rope_scaling block the Qwen2.5-7B-Instruct model card ("Processing Long
    # Texts") tells users to add for inputs beyond 32768 tokens.
    Preset(
        name="qwen2.5-7b-instruct-yarn",
        hf_repo="Qwen/Qwen2.5-7B-Instruct",
        paper="Qwen2.5-7B-Instruct model card, section Processing Long Texts "
        "(https://huggingface.co/Qwen/Qwen2.5-7B-Instruct); YaRN: arXiv:2309.00071",
        config={
            **_QWEN_2_5_7B_INSTRUCT,
            "rope_scaling": {"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"},
        },
        notes="YaRN, factor 4 over L = 32768: aimed at L * s = 131072 tokens, although the block keeps "
        "max_position_embeddings at 32768; attention factor 0.1 ln 4 + 1 = 1.1386.",
    ),
    # google/gemma-2-9b config.json.
    Preset(
        name="gemma-2-9b",
        hf_repo="google/gemma-2-9b",
        paper="Gemma Team 2024, Gemma 2: Improving Open Language Models at a Practical Size, "
        "arXiv:2408.00118",
        config={
            "model_type": "gemma2",
            "hidden_size": 3584,
            "num_attention_heads": 16,
            "head_dim": 256,
            "max_position_embeddings": 8192,
            "rope_theta": 10000.0,
        },
        notes="head_dim 256 is larger than hidden_size / num_attention_heads = 224; head_dim wins: "
        "128 pairs.",
    ),
    # deepseek-ai/DeepSeek-V3 config.json.
    Preset(
        name="deepseek-v3",
        hf_repo="deepseek-ai/DeepSeek-V3",
        paper="DeepSeek-AI 2024, DeepSeek-V3 Technical Report, arXiv:2412.19437",
        config={
            "model_type": "deepseek_v3",
            "hidden_size": 7168,
            "num_attention_heads": 128,
            "qk_nope_head_dim": 128,
            "qk_rope_head_dim": 64,
            "max_position_embeddings": 163840,
            "rope_scaling": {
                "beta_fast": 32,
                "beta_slow": 1,
                "factor": 40,
                "mscale": 1.0,
                "mscale_all_dim": 1.0,
                "original_max_position_embeddings": 4096,
                "type": "yarn",
            },
            "rope_theta": 10000,
        },
        notes="Multi-head latent attention rotates only a 64-wide slice of each head (qk_rope_head_dim). "
        "YaRN factor 40 from 4096 tokens; mscale == mscale_all_dim makes the rotary attention factor 1, and "
        "DeepSeek's attention multiplies its softmax scale by (0.1 ln 40 + 1)^2 instead.",
    ),
    # microsoft/Phi-3.5-mini-instruct config.json.
    Preset(
        name="phi-3.5-mini-instruct",
        hf_repo="microsoft/Phi-3.5-mini-instruct",
        paper="Abdin et al. 2024, Phi-3 Technical Report, arXiv:2404.14219; LongRoPE: arXiv:2402.13753",
        config={
            "model_type": "phi3",
            "hidden_size": 3072,
            "num_attention_heads": 32,
            "max_position_embeddings": 131072,
            "original_max_position_embeddings": 4096,
            "rope_scaling": {
                "long_factor": _PHI_3_5_LONG_FACTOR,
                "short_factor": _PHI_3_5_SHORT_FACTOR,
                "type": "longrope",
            },
            "rope_theta": 10000.0,
        },
        notes="LongRoPE with 48 per-pair factors for sequences up to 4096 tokens (short_factor, up to 2.84) "
        "and beyond (long_factor, up to 64.84, about twice the derived s = 32); attention factor "
        "sqrt(1 + ln 32 / ln 4096) = 1.1902 in both cases, so no length runs plain RoPE.",
    ),
]
