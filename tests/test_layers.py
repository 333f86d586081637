"""Per-layer RoPE (rope_viz.scaling.layers_from_config), partial rotary and proportional RoPE.

Checked against transformers' own config classes and rotary code (fixture
tests/reference/hf_layer_reference.json), and against properties: a partial rotary leaves the passed-through
channels alone and keeps norms; scores still depend only on the offset.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz.scaling import (
    attention_layer_types,
    from_config,
    layers_from_config,
    rope_layer_mask,
    rope_layer_types,
)

FIXTURE = json.loads((Path(__file__).resolve().parent / "reference" / "hf_layer_reference.json").read_text())


def test_fixture_comes_from_transformers_5():
    assert FIXTURE["transformers_version"].split(".")[0] == "5"
    assert {case["id"] for case in FIXTURE["apply"]} >= {
        "apply/phi-partial0.4",
        "apply/gemma4-global-proportional",
    }


@pytest.mark.parametrize("case", FIXTURE["layers"], ids=[case["id"] for case in FIXTURE["layers"]])
def test_layer_types_and_nope_layers_match_transformers(case):
    assert attention_layer_types(case["config"]) == case["layer_types"]
    assert rope_layer_mask(case["config"]) == case["uses_rope"]
    layers = layers_from_config(case["config"])
    assert [layer is not None for layer in layers] == case["uses_rope"]


@pytest.mark.parametrize("case", FIXTURE["apply"], ids=[case["id"] for case in FIXTURE["apply"]])
def test_rotation_matches_transformers_rotary_code(case):
    """rv.rotate with the config's inv_freq (partial or with zeros) equals the model's own forward pass.

    transformers forms its frequencies and angles in float32, so each position's tolerance is twice the
    float32 rounding of its largest angle (a wrong pairing would be off by order 1); channels that do not
    rotate must come back exactly.
    """
    scaling = from_config(case["config"], layer_type=case["layer_type"])
    np.testing.assert_allclose(scaling.inv_freq, case["inv_freq"], rtol=1e-6, atol=0)
    rotated = rv.rotate(case["query"], case["positions"], inv_freq=scaling.inv_freq, convention="half")
    expected = np.array(case["rotated"])
    largest_angle = np.array(case["positions"], dtype=float) * scaling.inv_freq.max()
    tolerance = 2.0 * largest_angle * np.finfo(np.float32).eps + 1e-6
    assert (np.abs(rotated - expected).max(axis=1) <= tolerance).all()
    still = np.concatenate([scaling.inv_freq == 0, scaling.inv_freq == 0])
    still = np.concatenate([still, np.ones(len(case["query"][0]) - still.size, dtype=bool)])
    np.testing.assert_array_equal(rotated[:, still], expected[:, still])
    np.testing.assert_array_equal(rotated[:, still], np.array(case["query"])[:, still])


def test_gemma3_layers_local_and_global_bases_and_scaling_on_global_only():
    config = {
        "model_type": "gemma3_text",
        "head_dim": 128,
        "num_hidden_layers": 12,
        "rope_theta": 1e6,
        "rope_local_base_freq": 1e4,
        "rope_scaling": {"rope_type": "linear", "factor": 8.0},
    }
    layers = layers_from_config(config)
    global_layers = [index for index, layer in enumerate(layers) if layer.rope_type == "linear"]
    assert global_layers == [5, 11]
    np.testing.assert_allclose(layers[5].inv_freq, rv.inv_freq(128, 1e6) / 8.0, rtol=1e-13)
    np.testing.assert_allclose(layers[0].inv_freq, rv.inv_freq(128, 1e4), rtol=1e-13)
    assert layers[0] is layers[1]  # one object per layer type
    assert rope_layer_types(config) == ("full_attention", "sliding_attention")


def test_gemma4_global_layers_use_proportional_rope_on_their_own_head_size():
    case = next(case for case in FIXTURE["apply"] if case["id"] == "apply/gemma4-global-proportional")
    layers = layers_from_config(case["config"])
    full = layers[5]
    assert full.rope_type == "proportional"
    assert (full.head_dim, full.dim, full.rotary_dim) == (128, 128, 32)
    assert full.pair_counts() == {"untouched": 16, "blended": 0, "interpolated": 0, "unrotated": 48}
    assert np.isinf(full.wavelengths[16:]).all()
    assert layers[0].head_dim == 64 and layers[0].rotary_dim == 64


def test_single_rope_block_is_shared_and_nope_layers_are_none():
    config = {"head_dim": 64, "num_hidden_layers": 6, "no_rope_layers": [1, 0, 1, 1, 0, 1], "rope_theta": 5e5}
    layers = layers_from_config(config)
    assert [layer is None for layer in layers] == [False, True, False, False, True, False]
    assert layers[0] is layers[2]
    np.testing.assert_allclose(layers[0].inv_freq, rv.inv_freq(64, 5e5), rtol=1e-13)


def test_nested_block_with_a_null_layer_type_gives_none():
    config = {
        "head_dim": 64,
        "num_hidden_layers": 4,
        "layer_types": ["sliding_attention", "full_attention"] * 2,
        "rope_parameters": {
            "sliding_attention": {"rope_type": "default", "rope_theta": 1e4},
            "full_attention": None,
        },
    }
    assert [layer is None for layer in layers_from_config(config)] == [False, True, False, True]


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"head_dim": 64}, r"num_hidden_layers is required"),
        (
            {"head_dim": 64, "num_hidden_layers": 3, "layer_types": ["full_attention"]},
            r"layer_types must name every layer",
        ),
        (
            {
                "head_dim": 64,
                "num_hidden_layers": 3,
                "layer_types": ["full_attention"] * 3,
                "sliding_window_pattern": 2,
            },
            r"layer_types and sliding_window_pattern=2 disagree",
        ),
        (
            {"head_dim": 64, "num_hidden_layers": 3, "no_rope_layers": [1, 0]},
            r"no_rope_layers must have an entry",
        ),
        (
            {"head_dim": 64, "num_hidden_layers": 2, "no_rope_layers": [1, 2]},
            r"no_rope_layers must be a list of 0",
        ),
        (
            {
                "head_dim": 64,
                "num_hidden_layers": 4,
                "no_rope_layers": [1, 1, 1, 1],
                "no_rope_layer_interval": 2,
            },
            r"no_rope_layers and no_rope_layer_interval=2 disagree",
        ),
        (
            {
                "head_dim": 64,
                "num_hidden_layers": 2,
                "rope_parameters": {
                    "full_attention": {"rope_type": "default"},
                    "sliding_attention": {"rope_type": "default"},
                },
            },
            r"needs layer_types or sliding_window_pattern",
        ),
        (
            {
                "head_dim": 64,
                "num_hidden_layers": 2,
                "layer_types": ["chunked_attention", "full_attention"],
                "rope_parameters": {"full_attention": {"rope_type": "default"}},
            },
            r"layer_types names \['chunked_attention'\]",
        ),
        ({"head_dim": 64, "num_hidden_layers": 0}, r"num_hidden_layers must be a positive integer"),
        ([1, 2], r"config must be a dict"),
    ],
)
def test_contradictory_or_missing_keys_raise_naming_them(config, message):
    with pytest.raises(ValueError, match=message):
        layers_from_config(config)


def test_gemma3_layout_needs_a_layer_type():
    config = {"model_type": "gemma3_text", "head_dim": 64, "rope_theta": 1e6, "rope_local_base_freq": 1e4}
    with pytest.raises(
        ValueError, match=r"layer_type must be one of \['full_attention', 'sliding_attention'\]"
    ):
        from_config(config)
    assert from_config(config, layer_type="sliding_attention").parameters.rope_theta == 1e4


# --- partial rotary: both meanings ----------------------------------------------------------------------


def test_neox_partial_rotary_versus_proportional_for_the_same_head():
    """p = 0.25 of a 128-wide head: NeoX spreads 16 frequencies over 32 channels; proportional keeps the
    16 fastest of plain RoPE's 64 and sets the other 48 to 0."""
    neox = from_config({"head_dim": 128, "partial_rotary_factor": 0.25})
    proportional = from_config(
        {"head_dim": 128, "rope_parameters": {"rope_type": "proportional", "partial_rotary_factor": 0.25}}
    )
    assert (neox.dim, neox.rotary_dim, neox.inv_freq.shape) == (32, 32, (16,))
    assert (proportional.dim, proportional.rotary_dim, proportional.inv_freq.shape) == (128, 32, (64,))
    np.testing.assert_allclose(neox.inv_freq, rv.inv_freq(32), rtol=1e-13)
    np.testing.assert_allclose(proportional.inv_freq[:16], rv.inv_freq(128)[:16], rtol=1e-13)
    assert not proportional.inv_freq[16:].any()
    # the slowest rotating pair: 10000 ** (30/32) against 10000 ** (30/128)
    assert neox.wavelengths[-1] / proportional.wavelengths[15] == pytest.approx(10000 ** (30 / 32 - 30 / 128))


@settings(deadline=None, max_examples=60)
@given(
    pairs=st.integers(1, 8),
    extra=st.integers(0, 8),
    convention=st.sampled_from(["interleaved", "half"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_partial_inv_freq_rotates_the_first_channels_and_passes_the_rest(pairs, extra, convention, seed):
    rng = np.random.default_rng(seed)
    dim = 2 * (pairs + extra)
    x = rng.normal(size=(5, dim))
    positions = rng.uniform(-50, 50, size=5)
    frequencies = rng.uniform(0.01, 2.0, size=pairs)
    y = rv.rotate(x, positions, inv_freq=frequencies, convention=convention)
    np.testing.assert_array_equal(y[:, 2 * pairs :], x[:, 2 * pairs :])
    head = rv.rotate(x[:, : 2 * pairs], positions, inv_freq=frequencies, convention=convention)
    np.testing.assert_allclose(y[:, : 2 * pairs], head, rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(y, axis=1), np.linalg.norm(x, axis=1), rtol=1e-12)
    # the matrix form agrees, with ones on the passed-through diagonal
    matrix = rv.rotation_matrix(positions[0], dim, inv_freq=frequencies, convention=convention)
    np.testing.assert_allclose(matrix @ x[0], y[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(matrix.T @ matrix, np.eye(dim), rtol=0, atol=1e-12)


@settings(deadline=None, max_examples=40)
@given(shift=st.integers(-500, 500), seed=st.integers(0, 2**32 - 1))
def test_zero_frequency_pairs_pass_through_and_scores_stay_relative(shift, seed):
    rng = np.random.default_rng(seed)
    frequencies = from_config(
        {"head_dim": 16, "rope_parameters": {"rope_type": "proportional", "partial_rotary_factor": 0.5}}
    ).inv_freq
    q, k = rng.normal(size=16), rng.normal(size=16)
    m, n = 37.0, 5.0
    score = rv.rotate(q, m, inv_freq=frequencies, convention="half") @ rv.rotate(
        k, n, inv_freq=frequencies, convention="half"
    )
    shifted = rv.rotate(q, m + shift, inv_freq=frequencies, convention="half") @ rv.rotate(
        k, n + shift, inv_freq=frequencies, convention="half"
    )
    assert shifted == pytest.approx(score, abs=1e-9)
    rotated = rv.rotate(q, m, inv_freq=frequencies, convention="half")
    unrotated = [4, 5, 6, 7, 12, 13, 14, 15]  # pairs (i, i + 8) for i = 4..7
    np.testing.assert_array_equal(rotated[unrotated], q[unrotated])
