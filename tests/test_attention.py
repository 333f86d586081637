"""Single-head self-attention: checked against loops written from the definition, and the symmetry facts the
course states (permutation equivariance without positions, broken by a causal mask or by any position scheme;
shift invariance of the relative schemes)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from rope_viz.attention import (
    ToyHead,
    attention_logits,
    causal_mask,
    inverse_permutation,
    permutation_matrix,
    permute_square,
    reordering,
    self_attention,
    shift_change,
    softmax,
    word_vector,
)
from rope_viz.position_schemes import ALiBi, Rotary, SinusoidalAbsolute, T5RelativeBias, all_schemes
from tests.conftest import PROPERTY, hand_frequencies, hand_rotate

SEQ, DIM = 5, 8
entries = st.floats(-3.0, 3.0)
token_matrices = hnp.arrays(np.float64, (SEQ, DIM), elements=entries)
permutations = st.permutations(list(range(SEQ)))


def weights(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal((3, DIM, DIM)) / math.sqrt(DIM))


def loop_attention(x, w_q, w_k, w_v, bias=None, causal=False):
    """Self-attention one number at a time, from the definition in Vaswani et al. (2017)."""
    seq, d = len(x), len(w_q)
    q = [[sum(w_q[c][j] * x[a][j] for j in range(len(x[a]))) for c in range(d)] for a in range(seq)]
    k = [[sum(w_k[c][j] * x[a][j] for j in range(len(x[a]))) for c in range(d)] for a in range(seq)]
    v = [[sum(w_v[c][j] * x[a][j] for j in range(len(x[a]))) for c in range(len(w_v))] for a in range(seq)]
    out, all_weights = [], []
    for a in range(seq):
        keys = [b for b in range(seq) if not causal or b <= a]
        logits = {
            b: sum(q[a][c] * k[b][c] for c in range(d)) / math.sqrt(d) + (bias[a][b] if bias else 0.0)
            for b in keys
        }
        peak = max(logits.values())
        total = sum(math.exp(value - peak) for value in logits.values())
        row = [math.exp(logits[b] - peak) / total if b in logits else 0.0 for b in range(seq)]
        all_weights.append(row)
        out.append([sum(row[b] * v[b][c] for b in range(seq)) for c in range(len(v[0]))])
    return np.array(out), np.array(all_weights)


# --- softmax and the layer ---------------------------------------------------------------------------------


@PROPERTY
@given(z=hnp.arrays(np.float64, (3, 6), elements=st.floats(-50, 50)), c=st.floats(-100, 100))
def test_softmax_is_normalised_exponentials(z, c):
    p = softmax(z)
    for row, p_row in zip(z, p, strict=True):
        expected = [math.exp(value - max(row)) for value in row]
        np.testing.assert_allclose(p_row, np.array(expected) / sum(expected), rtol=1e-12)
    np.testing.assert_allclose(softmax(z + c), p, rtol=1e-9, atol=1e-300)


def test_softmax_gives_masked_entries_zero_weight_and_rejects_bad_rows():
    np.testing.assert_allclose(softmax([[0.0, -np.inf, 0.0]]), [[0.5, 0.0, 0.5]])
    with pytest.raises(ValueError):
        softmax([[-np.inf, -np.inf]])
    with pytest.raises(ValueError):
        softmax([np.nan, 0.0])


def test_causal_mask():
    mask = causal_mask(3)
    assert np.array_equal(mask == 0, np.tril(np.ones((3, 3), bool)))
    assert np.all(np.isneginf(mask[np.triu_indices(3, 1)]))


@PROPERTY
@given(x=token_matrices, causal=st.booleans())
def test_self_attention_matches_loops(x, causal):
    w_q, w_k, w_v = weights()
    out, attention = self_attention(x, w_q, w_k, w_v, causal=causal)
    ref_out, ref_attention = loop_attention(
        x.tolist(), w_q.tolist(), w_k.tolist(), w_v.tolist(), causal=causal
    )
    np.testing.assert_allclose(attention, ref_attention, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(out, ref_out, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(attention.sum(axis=1), 1.0)


def test_bias_schemes_add_their_bias_to_the_logits():
    x = np.random.default_rng(3).standard_normal((SEQ, DIM))
    w_q, w_k, w_v = weights(1)
    positions = np.array([3.0, 4.0, 5.0, 9.0, 10.0])
    for scheme in (ALiBi(slope=0.25), T5RelativeBias()):
        bias = scheme.logit_bias(positions, positions)
        out, attention = self_attention(x, w_q, w_k, w_v, positions=positions, scheme=scheme)
        ref_out, ref_attention = loop_attention(
            x.tolist(), w_q.tolist(), w_k.tolist(), w_v.tolist(), bias.tolist()
        )
        np.testing.assert_allclose(attention, ref_attention, rtol=1e-9)
        np.testing.assert_allclose(out, ref_out, rtol=1e-9, atol=1e-12)


def test_rope_logits_match_rotating_each_query_and_key_by_hand():
    x = np.random.default_rng(4).standard_normal((SEQ, DIM))
    w_q, w_k, _ = weights(2)
    positions = np.array([0.0, 2.0, 7.0, 8.0, 30.0])
    logits = attention_logits(x, w_q, w_k, positions=positions, scheme=Rotary())
    theta = hand_frequencies(DIM, 10_000.0)
    q = [hand_rotate(w_q @ x[a], positions[a], "interleaved", theta) for a in range(SEQ)]
    k = [hand_rotate(w_k @ x[b], positions[b], "interleaved", theta) for b in range(SEQ)]
    expected = [[float(q[a] @ k[b]) / math.sqrt(DIM) for b in range(SEQ)] for a in range(SEQ)]
    np.testing.assert_allclose(logits, expected, rtol=1e-9, atol=1e-12)


def test_input_schemes_add_their_vectors_before_the_projections():
    x = np.random.default_rng(5).standard_normal((SEQ, DIM))
    w_q, w_k, w_v = weights(3)
    positions = np.arange(SEQ, dtype=float) + 4
    scheme = SinusoidalAbsolute()
    shifted_x = x + scheme.input_embeddings(positions, DIM)
    out, _ = self_attention(x, w_q, w_k, w_v, positions=positions, scheme=scheme)
    ref_out, _ = loop_attention(shifted_x.tolist(), w_q.tolist(), w_k.tolist(), w_v.tolist())
    np.testing.assert_allclose(out, ref_out, rtol=1e-9, atol=1e-12)


def test_projections_have_pytorchs_out_by_in_shape():
    rng = np.random.default_rng(6)
    x = rng.standard_normal((SEQ, 6))
    w_q, w_k, w_v = rng.standard_normal((4, 6)), rng.standard_normal((4, 6)), rng.standard_normal((3, 6))
    out, attention = self_attention(x, w_q, w_k, w_v, scheme=Rotary())
    assert out.shape == (SEQ, 3)
    theta = hand_frequencies(4, 10_000.0)
    q = [hand_rotate(w_q @ x[a], a, "interleaved", theta) for a in range(SEQ)]
    k = [hand_rotate(w_k @ x[b], b, "interleaved", theta) for b in range(SEQ)]
    logits = np.array([[float(q[a] @ k[b]) / math.sqrt(len(q[a])) for b in range(SEQ)] for a in range(SEQ)])
    expected = np.exp(logits - logits.max(axis=1, keepdims=True))
    expected /= expected.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(attention, expected, rtol=1e-9)
    np.testing.assert_allclose(out, expected @ (x @ w_v.T), rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError, match=r"w_q must have shape \(out, 6\)"):
        attention_logits(x, w_q.T, w_k)
    with pytest.raises(ValueError, match=r"w_v must have shape \(out, 6\)"):
        self_attention(x, w_q, w_k, w_v.T)


def test_attention_rejects_bad_shapes():
    w_q, w_k, _ = weights()
    with pytest.raises(ValueError):
        attention_logits(np.zeros(DIM), w_q, w_k)
    with pytest.raises(ValueError):
        attention_logits(np.zeros((SEQ, DIM)), w_q, w_k, positions=np.arange(SEQ + 1))


# --- symmetry ----------------------------------------------------------------------------------------------


@PROPERTY
@given(x=token_matrices, perm=permutations)
def test_without_positions_attention_is_permutation_equivariant(x, perm):
    w_q, w_k, w_v = weights()
    out, attention = self_attention(x, w_q, w_k, w_v)
    out_p, attention_p = self_attention(x[perm], w_q, w_k, w_v)
    np.testing.assert_allclose(out_p, out[perm], rtol=1e-9, atol=1e-12)  # f(Px) = P f(x)
    np.testing.assert_allclose(attention_p, permute_square(attention, perm), rtol=1e-9, atol=1e-12)
    # invariant only after pooling over the tokens
    np.testing.assert_allclose(out_p.mean(axis=0), out.mean(axis=0), rtol=1e-9, atol=1e-12)


def test_a_causal_mask_breaks_equivariance():
    x = np.random.default_rng(6).standard_normal((SEQ, DIM))
    w_q, w_k, w_v = weights()
    perm = [4, 3, 2, 1, 0]
    out, _ = self_attention(x, w_q, w_k, w_v, causal=True)
    out_p, _ = self_attention(x[perm], w_q, w_k, w_v, causal=True)
    assert not np.allclose(out_p, out[perm], atol=1e-3)


def test_every_position_scheme_breaks_equivariance():
    head = ToyHead()
    x = head.embed("the dog bit the man".split())
    w_q, w_k, w_v = head.weights
    perm = [0, 4, 2, 3, 1]
    for scheme in all_schemes()[1:]:
        out, _ = self_attention(x, w_q, w_k, w_v, scheme=scheme)
        out_p, _ = self_attention(x[perm], w_q, w_k, w_v, scheme=scheme)
        assert not np.allclose(out_p, out[perm], atol=1e-3), scheme.name


@PROPERTY
@given(x=token_matrices, t=st.integers(-1000, 1000))
def test_relative_schemes_are_shift_invariant(x, t):
    w_q, w_k, _ = weights()
    for scheme in (Rotary(), ALiBi(slope=0.5), T5RelativeBias()):
        scale = 1.0 + np.abs(attention_logits(x, w_q, w_k, scheme=scheme)).max()
        assert shift_change(x, w_q, w_k, scheme, t) <= 1e-9 * scale


def test_absolute_schemes_are_not_shift_invariant():
    x = np.random.default_rng(7).standard_normal((SEQ, DIM))
    w_q, w_k, _ = weights()
    learned = all_schemes()[1]
    assert shift_change(x, w_q, w_k, SinusoidalAbsolute(), 10) > 0.05
    assert shift_change(x, w_q, w_k, learned, 10) > 0.05


# --- permutation helpers and the toy head ------------------------------------------------------------------


@PROPERTY
@given(perm=st.permutations(list(range(7))), x=hnp.arrays(np.float64, (7, 2), elements=entries))
def test_permutation_helpers(perm, x):
    p = permutation_matrix(perm)
    np.testing.assert_array_equal(p @ x, x[perm])
    np.testing.assert_array_equal(p @ p.T, np.eye(7))
    np.testing.assert_array_equal(x[perm][inverse_permutation(perm)], x)
    s = x @ x.T
    np.testing.assert_allclose(permute_square(s, perm), p @ s @ p.T)


def test_permutation_helpers_reject_non_permutations():
    for bad in ([0, 0, 1], [1, 2, 3], [0.0, 1.0]):
        with pytest.raises(ValueError):
            permutation_matrix(bad)
    with pytest.raises(ValueError):
        permute_square(np.zeros((2, 2)), [0, 1, 2])
    with pytest.raises(ValueError):
        reordering(["a", "b"], ["a", "c"])


def test_reordering_matches_repeated_words_in_order():
    source = "the dog bit the man".split()
    target = "the man bit the dog".split()
    perm = reordering(source, target)
    assert [source[i] for i in perm] == target
    assert perm.tolist() == [0, 4, 2, 3, 1]


def test_word_vectors_depend_only_on_the_word():
    np.testing.assert_array_equal(word_vector("dog", 8), ToyHead().embed(["man", "dog"])[1])
    assert not np.allclose(word_vector("dog", 8), word_vector("man", 8))
    assert not np.allclose(word_vector("dog", 8, seed=1), word_vector("dog", 8))


def test_dog_bit_man_has_the_same_scores_in_both_orders_without_positions():
    head = ToyHead()
    first, second = "the dog bit the man".split(), "the man bit the dog".split()
    s1, s2 = head.logits(first), head.logits(second)
    np.testing.assert_allclose(s2, permute_square(s1, reordering(first, second)), atol=1e-12)
    np.testing.assert_allclose(np.sort(s1, axis=None), np.sort(s2, axis=None), atol=1e-12)
    assert not np.allclose(s1, s2)  # the matrices differ: the same numbers sit in other cells
    # with RoPE the multiset changes
    r1, r2 = head.logits(first, scheme=Rotary()), head.logits(second, scheme=Rotary())
    assert not np.allclose(np.sort(r1, axis=None), np.sort(r2, axis=None), atol=1e-6)
