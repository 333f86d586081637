"""Tests of rope_viz.presets: every preset loads, and matches published facts about its model."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

import rope_viz as rv
from rope_viz.presets import PRESETS, load

NAMES = sorted(PRESETS)
#: Every preset, once per layer type for those whose layer types have RoPE settings of their own.
PRESET_LAYERS = [(name, layer_type) for name in NAMES for layer_type in PRESETS[name].layer_types or [None]]


def rotations_over(length: float, dim: int, rope_theta: float) -> np.ndarray:
    """r_i = L / lambda_i, with lambda_i = 2 pi rope_theta ** (2 i / dim), pair by pair."""
    return np.array([length / (2 * math.pi * rope_theta ** (2 * i / dim)) for i in range(dim // 2)])


def test_there_are_at_least_five_models():
    assert len({preset.hf_repo for preset in PRESETS.values()}) >= 5
    assert {"llama-2-7b", "llama-3.1-8b", "mistral-7b-v0.1", "qwen2.5-7b-instruct", "gemma-2-9b"} <= set(
        PRESETS
    )


@pytest.mark.parametrize(("name", "layer_type"), PRESET_LAYERS)
def test_every_preset_loads(name, layer_type):
    preset = PRESETS[name]
    scaling = load(name, layer_type=layer_type)
    assert scaling.inv_freq.shape == (scaling.dim // 2,)
    assert np.all(np.isfinite(scaling.inv_freq)) and np.all(scaling.inv_freq >= 0)
    assert np.count_nonzero(scaling.inv_freq) == scaling.rotary_dim // 2
    assert scaling.attention_factor >= 1.0
    copied = rv.scaling.from_config(preset.config_dict(), layer_type=layer_type)
    assert copied.parameters == scaling.parameters
    assert preset.name == name
    assert preset.source_url == f"https://huggingface.co/{preset.hf_repo}/blob/main/config.json"
    assert "arXiv:" in preset.paper or "model card" in preset.paper
    assert preset.notes


def _layer_count(name: str) -> int | None:
    config = PRESETS[name].config
    return config.get("text_config", config).get("num_hidden_layers")


#: Presets whose config gives the number of layers (the 2024-2026 ones), so they can be read layer by layer.
LAYERED = [name for name in NAMES if _layer_count(name) is not None]


def test_recent_presets_give_their_layers():
    assert {"gemma-3-27b", "gemma-4-31b", "gpt-oss-20b", "llama-4-scout"} <= set(LAYERED)


@pytest.mark.parametrize("name", LAYERED)
def test_every_preset_loads_layer_by_layer(name):
    config = PRESETS[name].config
    layers = rv.presets.load_layers(name)
    assert len(layers) == config.get("text_config", config)["num_hidden_layers"]
    kinds = PRESETS[name].layer_types
    rotating = [layer for layer in layers if layer is not None]
    assert rotating, "every preset has some layers with RoPE"
    if not kinds:  # one RoPE for every layer that rotates
        assert all(layer is rotating[0] for layer in rotating)
        assert rotating[0].parameters == load(name).parameters


@pytest.mark.parametrize(("name", "layer_type"), PRESET_LAYERS)
def test_loading_does_not_modify_the_preset(name, layer_type):
    before = copy.deepcopy(PRESETS[name].config)
    load(name, seq_len=1 << 20, layer_type=layer_type)
    if name in LAYERED:
        rv.presets.load_layers(name, seq_len=1 << 20)
    assert PRESETS[name].config == before


def test_unknown_name_lists_the_presets():
    with pytest.raises(ValueError, match=r"name must be one of \[.*'llama-3.1-8b'.*\], got 'llama-4'"):
        load("llama-4")


def test_llama_2_7b():
    scaling = load("llama-2-7b")
    assert "rope_theta" not in PRESETS["llama-2-7b"].config  # the published config.json omits it
    assert (scaling.rope_type, scaling.dim, scaling.parameters.rope_theta) == ("default", 128, 10000.0)
    assert scaling.parameters.max_position_embeddings == 4096
    np.testing.assert_allclose(scaling.inv_freq, [10000.0 ** (-2 * i / 128) for i in range(64)], rtol=1e-13)


def test_code_llama_raised_the_base():
    code_llama, llama_2 = load("code-llama-7b"), load("llama-2-7b")
    assert code_llama.parameters.rope_theta == 1e6
    assert code_llama.parameters.max_position_embeddings == 16384
    # the slowest pair's wavelength grows from 2 pi 1e4^(126/128) to 2 pi 1e6^(126/128) tokens
    assert code_llama.wavelengths[-1] == pytest.approx(2 * math.pi * 1e6 ** (126 / 128))
    assert code_llama.wavelengths[-1] / llama_2.wavelengths[-1] == pytest.approx(100 ** (126 / 128))


def test_llama_3_1_8b_bands():
    scaling = load("llama-3.1-8b")
    parameters = scaling.parameters
    assert (parameters.rope_theta, parameters.factor) == (500000.0, 8.0)
    assert (parameters.low_freq_factor, parameters.high_freq_factor) == (1.0, 4.0)
    assert (parameters.original_max_position_embeddings, parameters.max_position_embeddings) == (8192, 131072)
    # wavelengths below 8192 / 4 tokens untouched, above 8192 / 1 divided by 8, blended between
    wavelengths = 8192 / rotations_over(8192, 128, 500000.0)
    untouched = int(np.sum(wavelengths < 2048))
    interpolated = int(np.sum(wavelengths > 8192))
    expected = {
        "untouched": untouched,
        "blended": 64 - untouched - interpolated,
        "interpolated": interpolated,
    }
    assert scaling.pair_counts() == expected == {"untouched": 29, "blended": 6, "interpolated": 29}
    assert scaling.attention_factor == 1.0
    assert scaling.scale_per_pair[-1] == pytest.approx(8.0)


def test_mistral_7b_v0_1():
    preset = PRESETS["mistral-7b-v0.1"]
    scaling = load("mistral-7b-v0.1")
    assert (scaling.rope_type, scaling.dim, scaling.parameters.rope_theta) == ("default", 128, 10000.0)
    # declared, not trained: the paper's Table 1 gives context_len 8192 and window_size 4096
    assert scaling.parameters.max_position_embeddings == 32768
    assert scaling.parameters.original_max_position_embeddings is None
    assert preset.config["sliding_window"] == 4096
    assert "not a trained length" in preset.notes


def test_qwen2_5_7b_instruct_and_its_yarn_variant():
    plain_scaling = load("qwen2.5-7b-instruct")
    assert (plain_scaling.dim, plain_scaling.parameters.rope_theta) == (3584 // 28, 1e6)
    assert plain_scaling.parameters.max_position_embeddings == 32768
    yarn = load("qwen2.5-7b-instruct-yarn")
    assert (yarn.rope_type, yarn.parameters.factor, yarn.parameters.original_max_position_embeddings) == (
        "yarn",
        4.0,
        32768,
    )
    assert yarn.attention_factor == pytest.approx(0.1 * math.log(4) + 1)  # 1.1386
    # pair index turning r times over L: i(r) = d ln(L / (2 pi r)) / (2 ln b); edges rounded outward
    index = [128 * math.log(32768 / (2 * math.pi * r)) / (2 * math.log(1e6)) for r in (32, 1)]
    low, high = math.floor(index[0]), math.ceil(index[1])
    expected = {"untouched": low + 1, "blended": high - low - 1, "interpolated": 64 - high}
    assert yarn.pair_counts() == expected == {"untouched": 24, "blended": 16, "interpolated": 24}
    np.testing.assert_array_equal(yarn.inv_freq[: low + 1], plain_scaling.inv_freq[: low + 1])


def test_gemma_2_9b_head_dim_beats_hidden_size():
    preset = PRESETS["gemma-2-9b"]
    scaling = load("gemma-2-9b")
    assert preset.config["hidden_size"] // preset.config["num_attention_heads"] == 224
    assert scaling.dim == 256 and scaling.inv_freq.shape == (128,)
    assert scaling.parameters.rope_theta == 10000.0


def test_deepseek_v3_yarn_with_mscale():
    scaling = load("deepseek-v3")
    parameters = scaling.parameters
    assert scaling.dim == 64  # qk_rope_head_dim, not 7168 / 128 = 56
    assert (parameters.factor, parameters.original_max_position_embeddings) == (40.0, 4096)
    assert (parameters.mscale, parameters.mscale_all_dim) == (1.0, 1.0)
    assert scaling.attention_factor == 1.0  # equal mscale and mscale_all_dim cancel
    # DeepSeek's attention applies (0.1 * mscale_all_dim * ln 40 + 1)^2 to its softmax scale instead
    assert rv.scaling.yarn_get_mscale(40, parameters.mscale_all_dim) ** 2 == pytest.approx(
        (0.1 * math.log(40) + 1) ** 2
    )
    assert 163840 / 4096 == parameters.factor
    assert scaling.pair_counts()["interpolated"] > 0 and scaling.pair_counts()["untouched"] > 0


def test_phi_3_5_mini_longrope_lists():
    preset = PRESETS["phi-3.5-mini-instruct"]
    block = preset.config["rope_scaling"]
    assert len(block["short_factor"]) == len(block["long_factor"]) == 3072 // 32 // 2
    short, long = load("phi-3.5-mini-instruct"), load("phi-3.5-mini-instruct", seq_len=4097)
    assert short.parameters.scaling_factor == 131072 / 4096 == 32
    # sqrt(1 + ln 32 / ln 4096) = sqrt(1 + 5/12)
    assert short.attention_factor == long.attention_factor == pytest.approx(math.sqrt(17 / 12))
    base = np.array([10000.0 ** (-2 * i / 96) for i in range(48)])
    np.testing.assert_allclose(short.inv_freq, base / np.array(block["short_factor"]), rtol=1e-13)
    np.testing.assert_allclose(long.inv_freq, base / np.array(block["long_factor"]), rtol=1e-13)
    np.testing.assert_array_equal(load("phi-3.5-mini-instruct", seq_len=4096).inv_freq, short.inv_freq)


def test_phi_3_5_mini_never_runs_plain_rope():
    # short_factor (up to L = 4096 tokens) already slows all pairs but the first, by up to about 2.8 times,
    # and the attention factor, set by the two lengths alone, is the same for both lists.
    preset = PRESETS["phi-3.5-mini-instruct"]
    short = load("phi-3.5-mini-instruct", seq_len=preset.config["original_max_position_embeddings"])
    long = load("phi-3.5-mini-instruct", seq_len=preset.config["max_position_embeddings"])
    assert np.count_nonzero(short.scale_per_pair == 1.0) == 1 and short.scale_per_pair[0] == 1.0
    assert 2.8 < short.scale_per_pair.max() < 2.9
    assert short.attention_factor == long.attention_factor > 1.0
    # long_factor slows every pair, the slowest about twice the factor s = 131072 / 4096 = 32
    assert long.factor == 32 and np.all(long.scale_per_pair > 1.0)
    assert 2.0 < long.scale_per_pair.max() / long.factor < 2.1
    # so "interpolated" (slowed at least s times) here includes pairs slowed far more than s
    assert np.all(long.scale_per_pair[long.pair_classes == "interpolated"] > long.factor)
