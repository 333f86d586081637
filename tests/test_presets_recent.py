"""Consistency of the 2024-2026 presets' data: names, sources, head sizes and per-layer schedules.

These tests read the config dicts only. Loading them (``from_config``) is tested with the registered presets.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter

import pytest

from rope_viz.presets.classic import CLASSIC_PRESETS
from rope_viz.presets.recent import RECENT_PRESETS

BY_NAME = {preset.name: preset for preset in RECENT_PRESETS}
NAMES = sorted(BY_NAME)
KNOWN_LAYER_TYPES = {"sliding_attention", "full_attention", "chunked_attention"}
REQUIRED = {
    "gemma-3-27b",
    "gemma-4-31b",
    "gpt-oss-20b",
    "qwen3-8b",
    "qwen3-8b-yarn",
    "llama-4-scout",
    "llama-3.2-1b",
    "qwen2.5-vl-7b",
    "qwen3-vl-8b",
    "phi-2",
    "glm-4-9b",
}


def text_config(name: str) -> dict:
    """The language model's keys: ``text_config`` for multimodal files, else the whole dict."""
    config = BY_NAME[name].config
    return config.get("text_config", config)


def head_size(name: str, *, key: str = "head_dim") -> int:
    """``head_dim`` (or ``key``) when given, else ``hidden_size / num_attention_heads``, which must divide."""
    config = text_config(name)
    if config.get(key) is not None:
        return config[key]
    hidden_size, heads = config["hidden_size"], config["num_attention_heads"]
    assert hidden_size % heads == 0, f"{name}: {hidden_size} is not a multiple of {heads} heads"
    return hidden_size // heads


def rope_block(name: str) -> dict:
    config = text_config(name)
    return config.get("rope_parameters") or config.get("rope_scaling") or {}


def test_the_required_models_are_there_with_unique_names():
    assert set(BY_NAME) >= REQUIRED
    assert len(BY_NAME) == len(RECENT_PRESETS)
    assert not set(BY_NAME) & {preset.name for preset in CLASSIC_PRESETS}


@pytest.mark.parametrize("name", NAMES)
def test_name_source_and_notes(name):
    preset = BY_NAME[name]
    assert re.fullmatch(r"[a-z0-9.]+(-[a-z0-9.]+)*", name)
    assert re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", preset.hf_repo)
    assert re.search(r"arXiv:\d{4}\.\d{4,5}", preset.paper) or "model card" in preset.paper
    # every preset says what could or could not be confirmed
    assert re.search(r"[Cc]onfirmed", preset.notes)


@pytest.mark.parametrize("name", NAMES)
def test_config_is_plain_json_like_a_config_file(name):
    config = BY_NAME[name].config
    assert json.loads(json.dumps(config)) == config


@pytest.mark.parametrize("name", NAMES)
def test_multimodal_files_keep_only_their_type_beside_text_config(name):
    config = BY_NAME[name].config
    if "text_config" in config:
        # no language-model key at the top level: a reader has to look inside text_config
        assert set(config) == {"model_type", "text_config"}
        assert text_config(name)["model_type"].startswith(config["model_type"])


@pytest.mark.parametrize("name", NAMES)
def test_head_size_is_even_and_every_layer_list_has_one_entry_per_layer(name):
    config = text_config(name)
    assert head_size(name) % 2 == 0
    layers = config["num_hidden_layers"]
    for key in ("layer_types", "no_rope_layers"):
        if key in config:
            assert len(config[key]) == layers, key
    assert set(config.get("layer_types", [])) <= KNOWN_LAYER_TYPES
    assert set(config.get("no_rope_layers", [])) <= {0, 1}


@pytest.mark.parametrize(
    ("name", "factor_location", "rotated_dims"),
    [("phi-2", "top", 32), ("glm-4-9b", "top", 64), ("gemma-4-31b", "full_attention", 128)],
)
def test_partial_rotary_factor_rotates_a_whole_number_of_pairs(name, factor_location, rotated_dims):
    config = text_config(name)
    if factor_location == "top":
        factor, size = config["partial_rotary_factor"], head_size(name)
    else:
        factor, size = rope_block(name)[factor_location]["partial_rotary_factor"], config["global_head_dim"]
    assert factor * size == rotated_dims
    assert rotated_dims % 2 == 0 and rotated_dims < size


def test_gemma_3_schedule_has_ten_global_layers_with_scaling_only_there():
    config = text_config("gemma-3-27b")
    pattern, layers = config["sliding_window_pattern"], config["num_hidden_layers"]
    # transformers' rule: layer i is global when (i + 1) is a multiple of the pattern
    global_layers = [i for i in range(layers) if (i + 1) % pattern == 0]
    assert global_layers == list(range(5, 62, 6)) and len(global_layers) == 10
    assert layers - global_layers[-1] - 1 == 2  # two sliding layers after the last global one
    assert config["rope_scaling"] == {"factor": 8.0, "rope_type": "linear"}
    assert config["rope_local_base_freq"] < config["rope_theta"]
    # the factor is larger than the 32k -> 128k extension it was trained for (report, section 2)
    assert config["max_position_embeddings"] / 32768 < config["rope_scaling"]["factor"]


def test_gemma_4_layers_alternate_five_to_one_and_end_global():
    config = text_config("gemma-4-31b")
    layer_types = config["layer_types"]
    assert layer_types[-1] == "full_attention"
    assert [i for i, kind in enumerate(layer_types) if kind == "full_attention"] == list(range(5, 60, 6))
    assert set(rope_block("gemma-4-31b")) == set(layer_types)
    assert config["global_head_dim"] == 2 * config["head_dim"]
    full = rope_block("gemma-4-31b")["full_attention"]
    # transformers' rope_angles = int(partial_rotary_factor * head_dim // 2) over the global head
    assert int(full["partial_rotary_factor"] * config["global_head_dim"] // 2) == 64
    assert config["global_head_dim"] // 2 - 64 == 192


def test_gpt_oss_alternates_sliding_and_full_with_yarn_everywhere():
    config = text_config("gpt-oss-20b")
    assert config["layer_types"][::2] == ["sliding_attention"] * 12
    assert config["layer_types"][1::2] == ["full_attention"] * 12
    block = config["rope_scaling"]
    assert block["truncate"] is False
    assert block["original_max_position_embeddings"] * block["factor"] == config["max_position_embeddings"]
    # the head size cannot be derived from hidden_size
    assert config["hidden_size"] // config["num_attention_heads"] != config["head_dim"]


def test_qwen3_yarn_variant_only_adds_the_model_card_block():
    plain, yarn = BY_NAME["qwen3-8b"].config, BY_NAME["qwen3-8b-yarn"].config
    assert plain["rope_scaling"] is None
    assert {key: value for key, value in yarn.items() if key != "rope_scaling"} == {
        key: value for key, value in plain.items() if key != "rope_scaling"
    }
    block = yarn["rope_scaling"]
    assert block["original_max_position_embeddings"] * block["factor"] == 131072
    assert block["original_max_position_embeddings"] < plain["max_position_embeddings"]
    assert BY_NAME["qwen3-8b"].hf_repo == BY_NAME["qwen3-8b-yarn"].hf_repo


def test_llama_4_scout_nope_every_fourth_layer():
    config = text_config("llama-4-scout")
    no_rope_layers = config["no_rope_layers"]
    # the list equals transformers' default for no_rope_layer_interval = 4
    assert no_rope_layers == [int((i + 1) % 4 != 0) for i in range(config["num_hidden_layers"])]
    assert [i for i, uses_rope in enumerate(no_rope_layers) if not uses_rope] == list(range(3, 48, 4))
    assert Counter(no_rope_layers) == {1: 36, 0: 12}
    block = config["rope_scaling"]
    assert block["low_freq_factor"] == block["high_freq_factor"] == 1.0
    assert config["attn_temperature_tuning"] is True
    # the query scale on NoPE layers, 1 + attn_scale ln(1 + floor((n + 1) / floor_scale)), is 1 in the
    # first chunk and grows by attn_scale ln 2 at n + 1 = floor_scale
    scale = lambda n: 1 + config["attn_scale"] * math.log1p(math.floor((n + 1) / config["floor_scale"]))  # noqa: E731
    assert scale(config["floor_scale"] - 2) == 1.0
    assert scale(config["floor_scale"] - 1) == pytest.approx(1 + 0.1 * math.log(2))


def test_llama_3_2_1b_factor_reaches_beyond_its_declared_length():
    config = text_config("llama-3.2-1b")
    block = config["rope_scaling"]
    assert (
        block["original_max_position_embeddings"] * block["factor"] == 2 * config["max_position_embeddings"]
    )
    assert block["low_freq_factor"] < block["high_freq_factor"]
    assert config["hidden_size"] // config["num_attention_heads"] == config["head_dim"] == 64


@pytest.mark.parametrize(
    ("name", "sections"), [("qwen2.5-vl-7b", [16, 24, 24]), ("qwen3-vl-8b", [24, 20, 20])]
)
def test_mrope_sections_cover_every_pair(name, sections):
    block = rope_block(name)
    assert block["mrope_section"] == sections
    assert sum(sections) == head_size(name) // 2 == 64


def test_qwen3_vl_interleaving_gives_the_temporal_axis_the_leftover_pairs():
    temporal, height, width = rope_block("qwen3-vl-8b")["mrope_section"]
    assert rope_block("qwen3-vl-8b")["mrope_interleaved"] is True
    # transformers: height at pairs 1, 4, ..., width at 2, 5, ..., up to 3 * section; the rest temporal
    height_pairs = set(range(1, 3 * height, 3))
    width_pairs = set(range(2, 3 * width, 3))
    temporal_pairs = set(range(64)) - height_pairs - width_pairs
    assert (len(temporal_pairs), len(height_pairs), len(width_pairs)) == (temporal, height, width)
    assert {60, 61, 62, 63} <= temporal_pairs


def test_qwen2_5_vl_keeps_the_old_type_key_and_flat_layout():
    block = rope_block("qwen2.5-vl-7b")
    assert block.get("type") == "mrope" and "rope_type" not in block
    assert "text_config" not in BY_NAME["qwen2.5-vl-7b"].config
