"""rope_viz.permutation: the row order that lets transformers' rotate_half run Meta's interleaved weights.

The references here are written from the two source codes independently of the module: Meta's rotation views
the pairs ``(2i, 2i+1)`` of a head as complex numbers; transformers' ``apply_rotary_pos_emb`` computes
``x cos + rotate_half(x) sin`` with the cos and sin tables repeated twice; the permutation is the conversion
script's index formula, written as a loop over heads, pairs and members.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz.permutation import (
    attention_scores,
    half_to_interleaved_rows,
    interleaved_to_half_rows,
    row_order,
)

property_test = settings(deadline=None, max_examples=40)
shapes = st.tuples(
    st.integers(min_value=1, max_value=4),  # heads
    st.integers(min_value=1, max_value=8).map(lambda pairs: 2 * pairs),  # head size d
    st.integers(min_value=1, max_value=5),  # in_features
)
BASE = 10000.0
FIXTURE = Path(__file__).parent / "reference" / "permutation_reference.json"


def loop_permutation(weight: np.ndarray, n_heads: int) -> np.ndarray:
    """``out[h d + c d/2 + i] = w[h d + 2i + c]``, one row at a time."""
    head_dim = weight.shape[0] // n_heads
    out = np.empty_like(weight)
    for h in range(n_heads):
        for i in range(head_dim // 2):
            for c in (0, 1):
                out[h * head_dim + c * head_dim // 2 + i] = weight[h * head_dim + 2 * i + c]
    return out


def meta_rotate(x: np.ndarray, positions: np.ndarray, base: float = BASE) -> np.ndarray:
    """Meta's LLaMA rotation: pairs (2i, 2i+1) as complex numbers times exp(i m theta_i); x is (seq, d)."""
    d = x.shape[-1]
    theta = 1.0 / base ** (np.arange(0, d, 2) / d)
    z = x[..., 0::2] + 1j * x[..., 1::2]
    z = z * np.exp(1j * np.outer(positions, theta))
    return np.stack([z.real, z.imag], axis=-1).reshape(x.shape)


def hf_rotate(x: np.ndarray, positions: np.ndarray, base: float = BASE) -> np.ndarray:
    """transformers' apply_rotary_pos_emb: x * cos + rotate_half(x) * sin, tables concatenated twice."""
    d = x.shape[-1]
    theta = 1.0 / base ** (np.arange(0, d, 2) / d)
    freqs = np.outer(positions, theta)
    emb = np.concatenate([freqs, freqs], axis=-1)
    rotated_half = np.concatenate([-x[..., d // 2 :], x[..., : d // 2]], axis=-1)
    return x * np.cos(emb) + rotated_half * np.sin(emb)


def head_scores(w_q, w_k, x, positions, n_heads, rotate_fn, n_kv_heads=None):
    """Scores of every head, with the rotation of one implementation, written without rope_viz."""
    n_kv_heads = n_kv_heads or n_heads
    d = w_q.shape[0] // n_heads
    q, k = x @ w_q.T, x @ w_k.T
    out = []
    for h in range(n_heads):
        g = h // (n_heads // n_kv_heads)
        q_h = rotate_fn(q[:, h * d : (h + 1) * d], positions)
        k_h = rotate_fn(k[:, g * d : (g + 1) * d], positions)
        out.append(q_h @ k_h.T)
    return np.stack(out)


def model(seed: int = 0, n_heads: int = 4, head_dim: int = 16, d_model: int = 24, seq: int = 12):
    rng = np.random.default_rng(seed)
    w_q = rng.standard_normal((n_heads * head_dim, d_model))
    w_k = rng.standard_normal((n_heads * head_dim, d_model))
    x = rng.standard_normal((seq, d_model))
    positions = np.arange(seq) * 37  # far enough apart that every pair turns a visible angle
    return w_q, w_k, x, positions


# --- the permutation itself -------------------------------------------------------------------------------


@property_test
@given(shape=shapes, seed=st.integers(0, 2**32 - 1))
def test_permutation_is_the_conversion_scripts_index_formula(shape, seed):
    n_heads, head_dim, in_features = shape
    weight = np.random.default_rng(seed).standard_normal((n_heads * head_dim, in_features))
    np.testing.assert_array_equal(
        interleaved_to_half_rows(weight, n_heads), loop_permutation(weight, n_heads)
    )
    bias = weight[:, 0]
    np.testing.assert_array_equal(interleaved_to_half_rows(bias, n_heads), loop_permutation(bias, n_heads))


@property_test
@given(shape=shapes)
def test_row_order_is_a_bijection_and_indexes_the_permuted_rows(shape):
    n_heads, head_dim, in_features = shape
    rows = n_heads * head_dim
    order = row_order(rows, n_heads)
    assert order.dtype.kind == "i"
    np.testing.assert_array_equal(np.sort(order), np.arange(rows))  # every row once
    weight = np.arange(rows * in_features, dtype=np.float64).reshape(rows, in_features)
    np.testing.assert_array_equal(weight[order], interleaved_to_half_rows(weight, n_heads))
    # rows never leave their head
    np.testing.assert_array_equal(order // head_dim, np.arange(rows) // head_dim)


@property_test
@given(shape=shapes, seed=st.integers(0, 2**32 - 1))
def test_the_two_permutations_undo_each_other(shape, seed):
    n_heads, head_dim, in_features = shape
    weight = np.random.default_rng(seed).standard_normal((n_heads * head_dim, in_features))
    there = interleaved_to_half_rows(weight, n_heads)
    np.testing.assert_array_equal(half_to_interleaved_rows(there, n_heads), weight)
    np.testing.assert_array_equal(
        interleaved_to_half_rows(half_to_interleaved_rows(weight, n_heads), n_heads), weight
    )


@property_test
@given(shape=shapes, seed=st.integers(0, 2**32 - 1))
def test_permuting_the_rows_is_to_half_on_the_output_of_every_head(shape, seed):
    n_heads, head_dim, in_features = shape
    rng = np.random.default_rng(seed)
    weight = rng.standard_normal((n_heads * head_dim, in_features))
    x = rng.standard_normal(in_features)
    out, permuted_out = weight @ x, interleaved_to_half_rows(weight, n_heads) @ x
    for h in range(n_heads):
        head = slice(h * head_dim, (h + 1) * head_dim)
        np.testing.assert_allclose(permuted_out[head], rv.to_half(out[head]), rtol=0, atol=1e-12)


def test_a_single_head_of_four_channels():
    # channels (0, 1) and (2, 3) are pairs; rotate_half wants (0, 2) and (1, 3)
    np.testing.assert_array_equal(row_order(4, 1), [0, 2, 1, 3])
    np.testing.assert_array_equal(row_order(8, 1), [0, 2, 4, 6, 1, 3, 5, 7])
    np.testing.assert_array_equal(row_order(8, 2), [0, 2, 1, 3, 4, 6, 5, 7])


# --- scores ----------------------------------------------------------------------------------------------


def test_the_references_are_rope_in_their_conventions():
    x = np.random.default_rng(5).standard_normal((6, 8))
    positions = np.arange(6) * 11.0
    np.testing.assert_allclose(meta_rotate(x, positions), rv.rotate(x, positions), atol=1e-12)
    np.testing.assert_allclose(
        hf_rotate(x, positions), rv.rotate(x, positions, convention="half"), atol=1e-12
    )


def test_rotate_half_on_permuted_weights_gives_metas_scores():
    w_q, w_k, x, positions = model()
    meta = head_scores(w_q, w_k, x, positions, 4, meta_rotate)
    hf = head_scores(
        interleaved_to_half_rows(w_q, 4), interleaved_to_half_rows(w_k, 4), x, positions, 4, hf_rotate
    )
    np.testing.assert_allclose(hf, meta, rtol=1e-12, atol=1e-12 * np.abs(meta).max())
    library = attention_scores(
        interleaved_to_half_rows(w_q, 4),
        interleaved_to_half_rows(w_k, 4),
        x,
        positions,
        n_heads=4,
        convention="half",
    )
    np.testing.assert_allclose(library, meta, rtol=1e-12, atol=1e-12 * np.abs(meta).max())
    np.testing.assert_allclose(
        attention_scores(w_q, w_k, x, positions, n_heads=4), meta, rtol=1e-12, atol=1e-9
    )


@property_test
@given(shape=shapes, seed=st.integers(0, 2**32 - 1), base=st.floats(min_value=2.0, max_value=1e6))
def test_permuted_both_equals_interleaved_scores_for_any_model(shape, seed, base):
    n_heads, head_dim, d_model = shape
    rng = np.random.default_rng(seed)
    w_q, w_k = rng.standard_normal((2, n_heads * head_dim, d_model))
    x = rng.standard_normal((5, d_model))
    positions = rng.integers(0, 5000, 5)
    meta = attention_scores(w_q, w_k, x, positions, n_heads=n_heads, base=base)
    hf = attention_scores(
        interleaved_to_half_rows(w_q, n_heads),
        interleaved_to_half_rows(w_k, n_heads),
        x,
        positions,
        n_heads=n_heads,
        base=base,
        convention="half",
    )
    np.testing.assert_allclose(hf, meta, rtol=0, atol=1e-10 * (1 + np.abs(meta).max()))


def test_one_side_permuted_scrambles_even_the_scores_without_rotation():
    w_q, w_k, x, positions = model()
    meta = attention_scores(w_q, w_k, x, positions, n_heads=4)
    only_q = attention_scores(
        interleaved_to_half_rows(w_q, 4), w_k, x, positions, n_heads=4, convention="half"
    )
    only_k = attention_scores(
        w_q, interleaved_to_half_rows(w_k, 4), x, positions, n_heads=4, convention="half"
    )
    unrotated = np.stack(
        [(x @ w_q.T)[:, h * 16 : (h + 1) * 16] @ (x @ w_k.T)[:, h * 16 : (h + 1) * 16].T for h in range(4)]
    )
    # at m = n the rotation cancels: the trained score is q . k, and one-sided permutation changes it
    diagonal = np.arange(len(positions))
    np.testing.assert_allclose(meta[:, diagonal, diagonal], unrotated[:, diagonal, diagonal], atol=1e-9)
    for broken in (only_q, only_k):
        assert not np.allclose(broken[:, diagonal, diagonal], unrotated[:, diagonal, diagonal], atol=1e-3)
        assert np.abs(broken - meta).max() > 0.1 * np.abs(meta).max()


def test_neither_permuted_keeps_the_scores_at_equal_positions_and_changes_the_others():
    w_q, w_k, x, positions = model()
    meta = attention_scores(w_q, w_k, x, positions, n_heads=4)
    neither = attention_scores(w_q, w_k, x, positions, n_heads=4, convention="half")
    np.testing.assert_allclose(
        np.diagonal(neither, axis1=1, axis2=2), np.diagonal(meta, axis1=1, axis2=2), atol=1e-9
    )
    off = ~np.eye(len(positions), dtype=bool)
    assert np.abs(neither - meta)[:, off].max() > 0.1 * np.abs(meta).max()


@pytest.mark.parametrize("which", ["only_q", "only_k", "neither"])
def test_every_mismatch_is_still_a_relative_score(which):
    """The broken setups rotate q and k with the same pairs, so the score still depends on m - n only."""
    w_q, w_k, x, _ = model(seq=2)
    permuted = {"only_q": (True, False), "only_k": (False, True), "neither": (False, False)}[which]
    weights = [interleaved_to_half_rows(w, 4) if p else w for w, p in zip((w_q, w_k), permuted, strict=True)]

    def score(m, n):
        return attention_scores(*weights, x, [m, n], n_heads=4, convention="half")[:, 0, 1]

    np.testing.assert_allclose(score(9, 4), score(509, 504), rtol=1e-9, atol=1e-9)


def test_grouped_query_keys_are_permuted_with_their_own_head_count():
    rng = np.random.default_rng(2)
    n_heads, n_kv_heads, head_dim, d_model = 4, 2, 8, 12
    w_q = rng.standard_normal((n_heads * head_dim, d_model))
    w_k = rng.standard_normal((n_kv_heads * head_dim, d_model))
    x = rng.standard_normal((6, d_model))
    positions = np.arange(6) * 29
    meta = head_scores(w_q, w_k, x, positions, n_heads, meta_rotate, n_kv_heads)
    np.testing.assert_allclose(
        attention_scores(w_q, w_k, x, positions, n_heads=n_heads, n_kv_heads=n_kv_heads), meta, atol=1e-9
    )
    q_half = interleaved_to_half_rows(w_q, n_heads)
    k_half = interleaved_to_half_rows(w_k, n_kv_heads)
    heads = {"n_heads": n_heads, "n_kv_heads": n_kv_heads, "convention": "half"}
    right = attention_scores(q_half, k_half, x, positions, **heads)
    np.testing.assert_allclose(right, meta, atol=1e-9)
    # the rows of W_k cut as one big head: pairs taken across the two key heads
    wrong = attention_scores(q_half, interleaved_to_half_rows(w_k, 1), x, positions, **heads)
    assert np.abs(wrong - meta).max() > 0.1 * np.abs(meta).max()


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: row_order(8, 3), "split into n_heads"),
        (lambda: row_order(6, 1.5), "n_heads must be a positive integer"),
        (lambda: row_order(1, 1), "out_features"),
        (lambda: interleaved_to_half_rows(np.ones((6, 2)), 2), "heads of even size"),
        (lambda: interleaved_to_half_rows(np.ones((2, 2, 2)), 1), "weight must have shape"),
        (lambda: interleaved_to_half_rows([[np.nan, 1.0], [1.0, 1.0]], 1), "finite"),
        (lambda: half_to_interleaved_rows(np.ones((4, 2)), 0), "positive integer"),
        (
            lambda: attention_scores(np.ones((8, 3)), np.ones((8, 3)), np.ones((2, 4)), [0, 1], n_heads=2),
            "d_model",
        ),
        (
            lambda: attention_scores(np.ones((8, 3)), np.ones((8, 3)), np.ones((2, 3)), [0], n_heads=2),
            "positions",
        ),
        (
            lambda: attention_scores(np.ones((8, 3)), np.ones((6, 3)), np.ones((2, 3)), [0, 1], n_heads=2),
            "weight_k must have",
        ),
        (
            lambda: attention_scores(
                np.ones((8, 3)), np.ones((8, 3)), np.ones((2, 3)), [0, 1], n_heads=2, convention="neox"
            ),
            "convention",
        ),
    ],
)
def test_bad_arguments_raise_value_errors_naming_them(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- transformers -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hf():
    """One grouped-query layer under Meta's rotation and transformers' rotate_half (from tests/reference)."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    arrays = {k: np.array(v) for k, v in data.items() if isinstance(v, list)}
    return {**data, **arrays}


def test_the_permutation_is_the_one_of_transformers_conversion_script(hf):
    np.testing.assert_array_equal(interleaved_to_half_rows(hf["weight_q"], hf["n_heads"]), hf["permuted_q"])
    np.testing.assert_array_equal(
        interleaved_to_half_rows(hf["weight_k"], hf["n_kv_heads"]), hf["permuted_k"]
    )
    np.testing.assert_array_equal(
        half_to_interleaved_rows(hf["permuted_k"], hf["n_kv_heads"]), hf["weight_k"]
    )


def test_scores_match_metas_rotation_and_transformers_rotate_half(hf):
    heads = {"n_heads": hf["n_heads"], "n_kv_heads": hf["n_kv_heads"], "base": hf["base"]}
    meta = attention_scores(hf["weight_q"], hf["weight_k"], hf["tokens"], hf["positions"], **heads)
    np.testing.assert_allclose(meta, hf["meta_scores"], rtol=1e-12, atol=1e-10)
    converted = attention_scores(
        hf["permuted_q"], hf["permuted_k"], hf["tokens"], hf["positions"], **heads, convention="half"
    )
    # transformers forms its angles in float32: about 1e-7 of each angle, 300 radians at most here
    scale = np.abs(hf["hf_scores"]).max()
    np.testing.assert_allclose(converted, hf["hf_scores"], rtol=0, atol=1e-5 * scale)
    assert (
        np.abs(converted - hf["hf_scores"]).max() > 0
    )  # the fixture is transformers' float32 path, not ours
    np.testing.assert_allclose(converted, meta, rtol=0, atol=1e-10 * scale)
