"""Presets of models released from 2024 to 2026, with the keys a per-layer reading of RoPE needs.

Gemma 3 and 4, gpt-oss, Qwen3 (plain and with the opt-in YaRN block), Llama 4 Scout, Llama 3.2, Qwen2.5-VL,
Qwen3-VL, Phi-2 and GLM-4. Each config dict keeps the layout of the model's own ``config.json``:
transformers 4.x ``rope_theta`` plus ``rope_scaling``, or 5.x ``rope_parameters`` nested by layer type;
multimodal models keep their ``text_config`` nesting. Besides the RoPE block, every dict keeps the keys that
say which layers rotate how: ``num_hidden_layers``, ``layer_types``, ``sliding_window``,
``sliding_window_pattern``, ``rope_local_base_freq``, ``no_rope_layers``, ``attention_chunk_size``, the
attention temperature keys of Llama 4, ``partial_rotary_factor``, ``head_dim`` / ``global_head_dim`` and the
M-RoPE keys ``mrope_section`` / ``mrope_interleaved``.

The comment above each preset names where each value was read: not the Hub files themselves but copies of
them quoted in public repositories (tests, conversion scripts, model cards, issue threads), checked against
transformers' configuration classes. Each preset's ``notes`` says how sure that is and what could not be
confirmed.
"""

from __future__ import annotations

from rope_viz.presets.record import Preset

# Layer schedules, written the way transformers derives them (and the files list them).
_GEMMA_4_31B_LAYER_TYPES = (["sliding_attention"] * 5 + ["full_attention"]) * 10  # 60 layers
_GPT_OSS_20B_LAYER_TYPES = ["sliding_attention", "full_attention"] * 12  # 24 layers
_LLAMA_4_SCOUT_NO_ROPE_LAYERS = [1, 1, 1, 0] * 12  # 1 = the layer rotates (RoPE), 0 = NoPE; 48 layers

_QWEN_3_8B = {
    "model_type": "qwen3",
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "head_dim": 128,
    "num_hidden_layers": 36,
    "max_position_embeddings": 40960,
    "rope_scaling": None,
    "rope_theta": 1000000,
    "sliding_window": None,
    "use_sliding_window": False,
}

RECENT_PRESETS = [
    # google/gemma-3-27b-it config.json (transformers 4.50.0.dev0), text_config: head_dim, hidden_size,
    # model_type, num_attention_heads, num_hidden_layers, rope_scaling and sliding_window, as quoted in
    # NVIDIA TensorRT-LLM's Gemma 3 tests (GEMMA3_27B_CONFIG, layer count cut to 6 there) and in a second
    # repository's copy "equivalent to the text part of Gemma3 27B" (62 layers). That file has no rope_theta,
    # rope_local_base_freq, sliding_window_pattern or max_position_embeddings: the values given here for those
    # four are Gemma3TextConfig's defaults (transformers 4.50, and the same in 5.23's default_theta and
    # _sliding_window_pattern), which is what loading the file yields. They are written out so that the dict
    # states the whole schedule; rope_viz's Gemma 3 reading fills in the same two bases when they are absent.
    Preset(
        name="gemma-3-27b",
        hf_repo="google/gemma-3-27b-it",
        paper="Gemma Team 2025, Gemma 3 Technical Report, arXiv:2503.19786",
        config={
            "model_type": "gemma3",
            "text_config": {
                "model_type": "gemma3_text",
                "hidden_size": 5376,
                "num_attention_heads": 32,
                "head_dim": 128,
                "num_hidden_layers": 62,
                "max_position_embeddings": 131072,
                "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
                "rope_theta": 1000000.0,
                "rope_local_base_freq": 10000.0,
                "sliding_window": 1024,
                "sliding_window_pattern": 6,
            },
        },
        notes="Two RoPEs in one model. Every 6th layer (5 of each 6 slide over a 1024-token window) is "
        "global: base 1e6 with linear scaling by 8 (positions divided by 8), which the report (section 2) "
        "applies when taking the 32k pre-training context to 128k, although 32768 * 8 = 262144. The "
        "sliding layers use base 10000 (rope_local_base_freq) and no scaling; transformers 5.x "
        "splits this into rope_parameters['full_attention'] and ['sliding_attention']. 62 layers = 10 full "
        "blocks of 5 + 1 and 2 sliding layers, so 10 global layers. The 1B model has no rope_scaling "
        "(32k context). Confirmed in two copies of the file: head sizes, layer count, window, the linear "
        "block. Not in the file, taken from the transformers class: rope_theta, rope_local_base_freq, "
        "sliding_window_pattern, max_position_embeddings.",
    ),
    # google/gemma-4-31B-it config.json (transformers 5.5.0.dev0), text_config, as quoted in a C++ test
    # fixture transcribing nvidia/Gemma-4-31B-IT-NVFP4 (same text_config; layer_types generated there as
    # five sliding then one full, repeated), and the same values printed from the loaded config of
    # gemma-4-31B-it in a second repository (transformers 5.7.0), whose layer_types list is written out in
    # full. transformers 5.23 Gemma4TextConfig's default rope_parameters are the same two blocks.
    Preset(
        name="gemma-4-31b",
        hf_repo="google/gemma-4-31B-it",
        paper="Gemma 4 model card (https://huggingface.co/google/gemma-4-31B-it); p-RoPE: Barbero et al. "
        "2024, Round and Round We Go! What makes Rotary Positional Encodings useful?, arXiv:2410.06205",
        config={
            "model_type": "gemma4",
            "text_config": {
                "model_type": "gemma4_text",
                "hidden_size": 5376,
                "num_attention_heads": 32,
                "head_dim": 256,
                "global_head_dim": 512,
                "num_hidden_layers": 60,
                "layer_types": list(_GEMMA_4_31B_LAYER_TYPES),
                "max_position_embeddings": 262144,
                "rope_parameters": {
                    "full_attention": {
                        "partial_rotary_factor": 0.25,
                        "rope_theta": 1000000.0,
                        "rope_type": "proportional",
                    },
                    "sliding_attention": {"rope_theta": 10000.0, "rope_type": "default"},
                },
                "sliding_window": 1024,
            },
        },
        notes="Sliding layers (50 of 60, window 1024): plain RoPE, base 10000, head_dim 256, all 128 pairs "
        "rotate. Full layers (every 6th, 10 of 60, the last among them): head_dim 512 (global_head_dim, "
        "which transformers applies through per_layer_config), base 1e6 and 'proportional' RoPE: only "
        "int(0.25 * 512 / 2) = 64 of the 256 pairs rotate, with frequencies rope_theta^(-2i/512) (the "
        "exponent keeps the full head size); the other 192 pairs get frequency 0. Reading the full "
        "layers with head_dim 256 would be wrong. Confirmed in two copies of the file. Not confirmed: "
        "whether other sizes differ beyond what the 26B-A4B copy shows (same RoPE blocks, 30 layers).",
    ),
    # openai/gpt-oss-20b config.json (transformers 4.55.0.dev0), as copied in full into a circuit-tracer
    # test (gpt_oss_config, with 24 layer_types); the RoPE block is the same in openai/gpt-oss-120b's
    # config.json quoted in a second repository's test (read from the Hub on 2026-10-02).
    Preset(
        name="gpt-oss-20b",
        hf_repo="openai/gpt-oss-20b",
        paper="OpenAI 2025, gpt-oss-120b & gpt-oss-20b Model Card, arXiv:2508.10925; YaRN: arXiv:2309.00071",
        config={
            "model_type": "gpt_oss",
            "hidden_size": 2880,
            "num_attention_heads": 64,
            "head_dim": 64,
            "num_hidden_layers": 24,
            "layer_types": list(_GPT_OSS_20B_LAYER_TYPES),
            "max_position_embeddings": 131072,
            "rope_scaling": {
                "beta_fast": 32.0,
                "beta_slow": 1.0,
                "factor": 32.0,
                "original_max_position_embeddings": 4096,
                "rope_type": "yarn",
                "truncate": False,
            },
            "rope_theta": 150000,
            "sliding_window": 128,
        },
        notes="YaRN by 32 from 4096 to 131072 tokens on every layer, sliding (128-token window) and full "
        "alike, which alternate starting with a sliding one. truncate: false keeps YaRN's correction range "
        "unrounded (transformers floors and ceils it otherwise). head_dim is 64 although hidden_size / "
        "num_attention_heads = 2880 / 64 = 45: the head size must be read from head_dim. Confirmed in two "
        "copies.",
    ),
    # Qwen/Qwen3-8B config.json (transformers 4.51.0), as copied in full into a FLUX.2 text-encoder module
    # (Qwen3Config(**{...})). The Qwen3 model cards say max_position_embeddings is 40960 (32768 for outputs
    # plus 8192 for prompts) and that the model natively handles 32768 tokens.
    Preset(
        name="qwen3-8b",
        hf_repo="Qwen/Qwen3-8B",
        paper="Qwen Team 2025, Qwen3 Technical Report, arXiv:2505.09388",
        config=dict(_QWEN_3_8B),
        notes="Plain RoPE, base 1e6, head_dim 128. Trained on 32768-token sequences; "
        "max_position_embeddings = 40960 is a budget for prompt plus output, not a trained length. "
        "Confirmed in one full copy of the file and by the model card's numbers.",
    ),
    # Same config.json plus the rope_scaling block the Qwen3 model cards ("Processing Long Texts") tell users
    # to add for inputs beyond 32768 tokens, quoted verbatim in a copy of the Qwen3 card; the Qwen3-8B card
    # has the same section (quoted in a blog post on static YaRN and in Qwen's vLLM and SGLang docs).
    Preset(
        name="qwen3-8b-yarn",
        hf_repo="Qwen/Qwen3-8B",
        paper="Qwen3-8B model card, section Processing Long Texts (https://huggingface.co/Qwen/Qwen3-8B); "
        "YaRN: arXiv:2309.00071",
        config={
            **_QWEN_3_8B,
            "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768},
        },
        notes="Not the shipped file: the block the model card tells users to add for long inputs. YaRN by 4 "
        "over L = 32768, aimed at 131072 tokens; attention factor 0.1 ln 4 + 1 = 1.1386. The card warns the "
        "scaling is static (applied at every length) and advises against it when inputs stay under 32768 "
        "tokens. max_position_embeddings stays 40960 unless the user raises it too. Confirmed: the block as "
        "quoted verbatim from a Qwen3 card and in Qwen's vLLM and SGLang instructions.",
    ),
    # meta-llama/Llama-4-Scout-17B-16E-Instruct config.json, text_config. rope_theta, rope_scaling, head_dim,
    # attention_chunk_size and max_position_embeddings: AI-Hypercomputer tpu-inference's Llama 4 code (which
    # cites this file for its rope_scaling), a Rust test of a Llama 4 port and a vLLM test fixture built from
    # the Instruct values, all agreeing. no_rope_layers: the list in the base model's file as printed in
    # April 2025 (and in a fine-tune's file quoted in vLLM issue 20581). attn_temperature_tuning, floor_scale,
    # attn_scale: as below, see notes.
    Preset(
        name="llama-4-scout",
        hf_repo="meta-llama/Llama-4-Scout-17B-16E-Instruct",
        paper="Llama 4 Scout model card (https://huggingface.co/meta-llama/Llama-4-Scout-17B-16E-Instruct); "
        "NoPE layers: Kazemnejad et al. 2023, arXiv:2305.19466; attention temperature scaling: Nakanishi "
        "2025, arXiv:2501.19399",
        config={
            "model_type": "llama4",
            "text_config": {
                "model_type": "llama4_text",
                "hidden_size": 5120,
                "num_attention_heads": 40,
                "head_dim": 128,
                "num_hidden_layers": 48,
                "max_position_embeddings": 10485760,
                "no_rope_layers": list(_LLAMA_4_SCOUT_NO_ROPE_LAYERS),
                "attention_chunk_size": 8192,
                "attn_temperature_tuning": True,
                "floor_scale": 8192,
                "attn_scale": 0.1,
                "rope_scaling": {
                    "factor": 16.0,
                    "high_freq_factor": 1.0,
                    "low_freq_factor": 1.0,
                    "original_max_position_embeddings": 8192,
                    "rope_type": "llama3",
                },
                "rope_theta": 500000.0,
            },
        },
        notes="iRoPE: three of every four layers rotate (llama3 scaling, base 500000, factor 16 from 8192) "
        "and attend within 8192-token chunks; every fourth layer (3, 7, ..., 47) has no RoPE and full "
        "attention, its queries scaled by 1 + 0.1 ln(1 + floor((n + 1) / 8192)). no_rope_layers is "
        "inverted from its name: 1 marks a RoPE layer. With low_freq_factor = high_freq_factor = 1 the "
        "llama3 blend band is empty: pairs with wavelength below 8192 tokens keep their frequency, the "
        "rest are divided by 16. The base model's file (factor 8, high_freq_factor 4, 262144 positions "
        "in its April 2025 print) differs. Not confirmed: the Instruct file's spelling of the temperature "
        "keys. The files written with transformers 4.51 hold attn_temperature_tuning: 4, which "
        "transformers 5.23 rejects (it wants a bool), and later copies omit the three keys and "
        "no_rope_layers altogether (transformers' defaults, no_rope_layer_interval 4, give the same "
        "schedule); True, 8192 and 0.1 here are the values in effect either way.",
    ),
    # meta-llama/Llama-3.2-1B config.json, as copied in full into axlearn's Llama 3 test (config_dict_1b)
    # and into a second repository's model table (llama_3_2_1b, with head_dim 64).
    Preset(
        name="llama-3.2-1b",
        hf_repo="meta-llama/Llama-3.2-1B",
        paper="Llama 3.2 model card (https://huggingface.co/meta-llama/Llama-3.2-1B); Grattafiori et al. "
        "2024, The Llama 3 Herd of Models, arXiv:2407.21783",
        config={
            "model_type": "llama",
            "hidden_size": 2048,
            "num_attention_heads": 32,
            "head_dim": 64,
            "num_hidden_layers": 16,
            "max_position_embeddings": 131072,
            "rope_scaling": {
                "factor": 32.0,
                "high_freq_factor": 4.0,
                "low_freq_factor": 1.0,
                "original_max_position_embeddings": 8192,
                "rope_type": "llama3",
            },
            "rope_theta": 500000.0,
        },
        notes="llama3 scaling like Llama 3.1 but by 32 instead of 8, on a smaller head (64, so 32 pairs): "
        "pairs with wavelength under 2048 tokens untouched, over 8192 divided by 32, blended between. "
        "Confirmed in two copies.",
    ),
    # Qwen/Qwen2.5-VL-7B-Instruct config.json (transformers 4.41.2 in its header), as copied from a local
    # checkpoint directory into a pruning tool's README. A Qwen2.5-VL-3B derivative's file (jina embeddings
    # v4) has the same mrope_section; transformers' Qwen2_5_VL configuration rewrites "mrope" to "default".
    Preset(
        name="qwen2.5-vl-7b",
        hf_repo="Qwen/Qwen2.5-VL-7B-Instruct",
        paper="Bai et al. 2025, Qwen2.5-VL Technical Report, arXiv:2502.13923",
        config={
            "model_type": "qwen2_5_vl",
            "hidden_size": 3584,
            "num_attention_heads": 28,
            "num_hidden_layers": 28,
            "max_position_embeddings": 128000,
            "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
            "rope_theta": 1000000.0,
            "sliding_window": 32768,
            "use_sliding_window": False,
        },
        notes="M-RoPE: the 64 pairs of each 128-wide head (3584 / 28) split into 16 temporal, 24 height and "
        "24 width pairs, in that order (contiguous sections); each section rotates by its own position "
        "index, which for text tokens is the same number three times, so text sees plain RoPE with base "
        "1e6. The frequencies themselves are the default ones. This 2025 file keeps the flat 4.x layout "
        "(no text_config) and the old key 'type'. Confirmed in one full copy and by a derivative's file.",
    ),
    # Qwen/Qwen3-VL-8B-Instruct config.json, text_config, as used in a Rust test that mirrors revision
    # 0c351dd0 of that repository and in a second repository's official-config fixture; the 4B model's file
    # (copied in full, transformers 4.57.0.dev0) has the same RoPE keys.
    Preset(
        name="qwen3-vl-8b",
        hf_repo="Qwen/Qwen3-VL-8B-Instruct",
        paper="Bai et al. 2025, Qwen3-VL Technical Report, arXiv:2511.21631",
        config={
            "model_type": "qwen3_vl",
            "text_config": {
                "model_type": "qwen3_vl_text",
                "hidden_size": 4096,
                "num_attention_heads": 32,
                "head_dim": 128,
                "num_hidden_layers": 36,
                "max_position_embeddings": 262144,
                "rope_scaling": {
                    "mrope_interleaved": True,
                    "mrope_section": [24, 20, 20],
                    "rope_type": "default",
                },
                "rope_theta": 5000000,
            },
        },
        notes="Interleaved M-RoPE: 24 temporal, 20 height and 20 width pairs of the 64, dealt out in turn "
        "(pair 3k temporal, 3k + 1 height, 3k + 2 width, for k < 20) instead of in three blocks, so each "
        "axis gets fast and slow frequencies; the last four pairs (60 to 63) are temporal too "
        "(transformers 5.23, Qwen3VLTextRotaryEmbedding.recomposition_frequencies). Base 5e6 over a "
        "native 262144-token context. Text tokens see plain RoPE. Confirmed in two copies.",
    ),
    # microsoft/phi-2 config.json (transformers 4.37.0), as copied in full into onnx-diagnostic's Phi-2 test
    # model (with a link to the file) and into a second repository's model table.
    Preset(
        name="phi-2",
        hf_repo="microsoft/phi-2",
        paper="Phi-2 model card (https://huggingface.co/microsoft/phi-2); Li et al. 2023, Textbooks Are All "
        "You Need II: phi-1.5 technical report, arXiv:2309.05463",
        config={
            "model_type": "phi",
            "hidden_size": 2560,
            "num_attention_heads": 32,
            "num_hidden_layers": 32,
            "max_position_embeddings": 2048,
            "partial_rotary_factor": 0.4,
            "rope_scaling": None,
            "rope_theta": 10000.0,
        },
        notes="Partial RoPE: of each 80-wide head (2560 / 32) only the first 32 dimensions (16 pairs) "
        "rotate, with frequencies 10000^(-2i/32); the other 48 carry no position. Released December 2023. "
        "Confirmed in two copies.",
    ),
    # THUDM/glm-4-9b-chat-hf config.json (model_type "glm", transformers 4.46): hidden_size, heads, head_dim,
    # layers, max_position_embeddings and rope_theta as quoted in a C++ and a Rust test of GLM-4 ports.
    # partial_rotary_factor 0.5: THUDM's own CogView4 text encoder config (a GLM-4-9B of the same shape) and
    # transformers' GlmConfig default; see notes.
    Preset(
        name="glm-4-9b",
        hf_repo="THUDM/glm-4-9b-chat-hf",
        paper="Team GLM 2024, ChatGLM: A Family of Large Language Models from GLM-130B to GLM-4 All Tools, "
        "arXiv:2406.12793",
        config={
            "model_type": "glm",
            "hidden_size": 4096,
            "num_attention_heads": 32,
            "head_dim": 128,
            "num_hidden_layers": 40,
            "max_position_embeddings": 131072,
            "partial_rotary_factor": 0.5,
            "rope_theta": 10000.0,
        },
        notes="Half the head rotates: 64 of 128 dimensions (32 pairs), frequencies 10000^(-2i/64). GLM "
        "pairs adjacent dimensions (2i, 2i+1), the interleaved convention, unlike the Llama-style half "
        "split. Not confirmed: whether the file writes partial_rotary_factor; one port's test says it "
        "omits it, and transformers' GlmConfig fills in 0.5 then, so the frequencies are the same. "
        "GLM-4-9B-0414 (model_type glm4) uses the same 0.5.",
    ),
]
