"""rope_viz.mla against transformers' DeepSeek-V3 attention, an independent evaluation, and absorption.

The fixture's ``mla`` cases hold the query and key vectors that ``DeepseekV3Attention.forward`` (transformers
5.x, latent RMSNorm replaced by the identity) hands to the attention function for small random weights, with
``rope_interleave`` on and off.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rope_viz import rotate, rotation_matrix
from rope_viz.attention_temperatures import deepseek_softmax_scale
from rope_viz.mla import (
    MLAWeights,
    absorption_error_without_rope,
    decoupled_absorption,
    deepseek_rotate,
    mla_query_key,
    mla_score,
    random_mla_weights,
    rope_absorption_matrix,
    rope_blocks_absorption,
)
from tests.conftest import hand_frequencies

FIXTURE = json.loads(
    (Path(__file__).resolve().parent / "reference" / "temperature_reference.json").read_text()
)
PROPERTY = settings(deadline=None, max_examples=40)

seeds = st.integers(min_value=0, max_value=2**31)
even = st.integers(min_value=1, max_value=6).map(lambda half: 2 * half)
small_positions = st.integers(min_value=-2000, max_value=2000)


def hidden_states(weights: MLAWeights, count: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed + 1).standard_normal((count, weights.hidden_size))


def hand_interleaved_to_half(x: np.ndarray, position: float, base: float) -> np.ndarray:
    """transformers' apply_rotary_pos_emb_interleave for one vector, written out pair by pair."""
    evens, odds = [], []
    for i, theta in enumerate(hand_frequencies(len(x), base)):
        c, s = math.cos(position * theta), math.sin(position * theta)
        a, b = float(x[2 * i]), float(x[2 * i + 1])
        evens.append(a * c - b * s)
        odds.append(b * c + a * s)
    return np.array(evens + odds)


# --- 1. transformers' DeepSeek-V3 attention ----------------------------------------------------------------


@pytest.mark.parametrize(
    "case", FIXTURE["mla"], ids=lambda case: f"rope_interleave={case['rope_interleave']}"
)
def test_query_and_key_match_transformers_deepseek_v3(case):
    weights = MLAWeights(**case["weights"])
    hidden, positions = np.array(case["hidden_states"]), case["positions"]
    query_ref, key_ref = np.array(case["query"]), np.array(case["key"])  # (heads, seq, nope + rope)
    for head in range(weights.heads):
        for i, j in [(0, 0), (2, 0), (1, 2), (2, 2)]:
            query, key = mla_query_key(
                weights, hidden[i], hidden[j], positions[i], positions[j], head=head,
                base=case["rope_theta"], rope_interleave=case["rope_interleave"],
            )  # fmt: skip
            # float32 cos and sin in transformers: about 4e-8 apart
            np.testing.assert_allclose(query, query_ref[head, i], rtol=1e-6, atol=1e-7)
            np.testing.assert_allclose(key, key_ref[head, j], rtol=1e-6, atol=1e-7)
            assert query @ key == pytest.approx(query_ref[head, i] @ key_ref[head, j], abs=1e-6)
    nope_plus_rope = weights.nope_dim + weights.rope_dim
    assert float(deepseek_softmax_scale(1.0, nope_plus_rope)) == pytest.approx(
        case["softmax_scale"], rel=1e-12
    )


def test_the_two_rope_layouts_differ_in_the_rotated_slice_only():
    interleaved, half = (np.array(case["query"]) for case in FIXTURE["mla"])
    nope = len(FIXTURE["mla"][0]["weights"]["query_content"][0])
    np.testing.assert_array_equal(interleaved[..., :nope], half[..., :nope])
    assert np.max(np.abs(interleaved[..., nope:] - half[..., nope:])) > 0.1


@PROPERTY
@given(dim=even, position=small_positions, seed=seeds)
def test_deepseek_rotate_is_transformers_interleave_rotation(dim, position, seed):
    x = np.random.default_rng(seed).standard_normal(dim)
    np.testing.assert_allclose(
        deepseek_rotate(x, position), hand_interleaved_to_half(x, position, 10000.0), rtol=1e-9, atol=1e-9
    )
    np.testing.assert_allclose(
        deepseek_rotate(x, position, rope_interleave=False),
        rotate(x, position, convention="half"),
        atol=1e-12,
    )


@PROPERTY
@given(dim=even, m=small_positions, n=small_positions, seed=seeds)
def test_the_interleave_permutation_leaves_scores_unchanged(dim, m, n, seed):
    q, k = np.random.default_rng(seed).standard_normal((2, dim))
    permuted = deepseek_rotate(q, m) @ deepseek_rotate(k, n)
    plain = rotate(q, m, convention="interleaved") @ rotate(k, n, convention="interleaved")
    assert permuted == pytest.approx(plain, abs=1e-9)


# --- 2. the score and its two parts ------------------------------------------------------------------------


@PROPERTY
@given(seed=seeds, m=small_positions, n=small_positions, head=st.integers(0, 2))
def test_score_is_content_plus_rotated_computed_independently(seed, m, n, head):
    weights = random_mla_weights(heads=3, seed=seed)
    h_query, h_key = hidden_states(weights, 2, seed)
    parts = mla_score(weights, h_query, h_key, m, n, head=head)
    content = (weights.query_content[head] @ h_query) @ (weights.key_up[head] @ (weights.latent_down @ h_key))
    rotated = hand_interleaved_to_half(
        weights.query_rope[head] @ h_query, m, 10000.0
    ) @ hand_interleaved_to_half(weights.key_rope @ h_key, n, 10000.0)
    assert parts.content == pytest.approx(content, abs=1e-12)
    assert parts.rotated == pytest.approx(rotated, abs=1e-9)
    assert abs(parts.total - (parts.content + parts.rotated)) < 1e-12


def test_the_rotated_key_slice_is_shared_by_every_head_and_the_content_part_ignores_position():
    weights = random_mla_weights(heads=4, seed=3)
    h_query, h_key = hidden_states(weights, 2, 3)
    keys = [mla_query_key(weights, h_query, h_key, 5.0, 2.0, head=head)[1] for head in range(4)]
    nope = weights.nope_dim
    for key in keys[1:]:
        np.testing.assert_array_equal(key[nope:], keys[0][nope:])
    assert np.max(np.abs(keys[1][:nope] - keys[0][:nope])) > 1e-3  # the content keys are per head
    far = mla_score(weights, h_query, h_key, 5000.0, 2.0)
    near = mla_score(weights, h_query, h_key, 5.0, 2.0)
    assert far.content == near.content and abs(far.rotated - near.rotated) > 1e-3


# --- 3. absorption ----------------------------------------------------------------------------------------


@PROPERTY
@given(seed=seeds, latent=st.integers(1, 12), nope=st.integers(1, 9), keys=st.integers(1, 8))
def test_without_rope_the_key_projection_is_absorbed_into_the_query(seed, latent, nope, keys):
    weights = random_mla_weights(latent_dim=latent, nope_dim=nope, seed=seed)
    hidden = hidden_states(weights, keys + 1, seed)
    assert absorption_error_without_rope(weights, hidden[0], hidden[1:]) < 1e-10


@pytest.mark.parametrize("seed", range(5))
def test_with_rope_on_the_content_the_absorbed_matrix_depends_on_the_offset(seed):
    weights = random_mla_weights(seed=seed)
    h_query, h_key = hidden_states(weights, 2, seed)
    result = rope_blocks_absorption(weights, h_query, h_key, query_position=20, key_positions=(3, 11))
    assert result.own_matrix_error < 1e-12  # each offset's matrix gives its score
    assert result.matrix_change > 0.05  # but the two matrices differ
    assert result.borrowed_matrix_error > 1e-4  # and one offset's matrix gives the other score wrong
    # the borrowed error is exactly how much the score moved: M^T q_C is fixed by the score's dependence on c
    query = rotate(weights.query_content[0] @ h_query, 20)
    moved = [query @ rotate(weights.key_up[0] @ (weights.latent_down @ h_key), n) for n in (3, 11)]
    assert result.borrowed_matrix_error == pytest.approx(abs(moved[1] - moved[0]), abs=1e-12)


@PROPERTY
@given(seed=seeds, offset=small_positions, shift=small_positions)
def test_the_matrix_to_absorb_is_a_rotation_of_the_key_projection_by_the_offset(seed, offset, shift):
    weights = random_mla_weights(seed=seed)
    matrix = rope_absorption_matrix(weights, offset)
    np.testing.assert_allclose(
        matrix, rotation_matrix(offset, weights.nope_dim) @ weights.key_up[0], atol=1e-12
    )
    r_m, r_n = rotation_matrix(shift, weights.nope_dim), rotation_matrix(shift + offset, weights.nope_dim)
    np.testing.assert_allclose(r_m.T @ r_n @ weights.key_up[0], matrix, atol=1e-9)  # offset only
    np.testing.assert_allclose(rope_absorption_matrix(weights, 0), weights.key_up[0], atol=0)


@PROPERTY
@given(
    seed=seeds,
    m=small_positions,
    keys=st.lists(small_positions, min_size=1, max_size=6),
    shift=st.integers(-(10**4), 10**4),
    rope_interleave=st.booleans(),
)
def test_decoupled_rope_keeps_absorption_and_shift_invariance(seed, m, keys, shift, rope_interleave):
    weights = random_mla_weights(seed=seed)
    hidden = hidden_states(weights, len(keys) + 1, seed)
    result = decoupled_absorption(
        weights, hidden[0], hidden[1:], query_position=m, key_positions=keys, shift=shift,
        rope_interleave=rope_interleave,
    )  # fmt: skip
    assert result.absorption_error < 1e-10
    assert result.split_error < 1e-12
    assert result.shift_error < 1e-9


# --- 4. bad input -------------------------------------------------------------------------------------------


def test_weights_with_inconsistent_shapes_raise_naming_the_field():
    good = random_mla_weights()
    fields = {
        name: getattr(good, name)
        for name in ("query_content", "query_rope", "latent_down", "key_up", "key_rope")
    }
    with pytest.raises(ValueError, match="key_up"):
        MLAWeights(**{**fields, "key_up": fields["key_up"][:, :, :-1]})
    with pytest.raises(ValueError, match="query_rope"):
        MLAWeights(**{**fields, "query_rope": fields["query_rope"][:1]})
    with pytest.raises(ValueError, match="key_rope"):
        random_mla_weights(rope_dim=3)
    with pytest.raises(ValueError, match="latent_down"):
        MLAWeights(**{**fields, "latent_down": np.full_like(fields["latent_down"], np.nan)})


def test_bad_calls_raise_naming_the_argument():
    weights = random_mla_weights()
    h = hidden_states(weights, 3, 0)
    with pytest.raises(ValueError, match="head"):
        mla_score(weights, h[0], h[1], 1.0, 0.0, head=2)
    with pytest.raises(ValueError, match="hidden_key"):
        mla_score(weights, h[0], h[1, :-1], 1.0, 0.0)
    with pytest.raises(ValueError, match="qk_nope_head_dim"):
        rope_absorption_matrix(random_mla_weights(nope_dim=3), 1.0)
    with pytest.raises(ValueError, match="key_positions"):
        decoupled_absorption(weights, h[0], h[1:], query_position=0, key_positions=[1.0], shift=1)
