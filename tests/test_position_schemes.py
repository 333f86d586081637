"""Position schemes: each formula against an independent evaluation written from its paper, and the properties
the chapter "Why attention needs position" relies on (which schemes are shift-invariant, which run out)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz.attention import ToyHead
from rope_viz.demos.why_position import (
    SENTENCE,
    SHIFTS,
    SWAPPED,
    ContentPicksTheDistance,
    ShiftTheSentence,
    sentence_logits,
)
from rope_viz.position_schemes import (
    ALiBi,
    LearnedAbsolute,
    PositionScheme,
    Rotary,
    SinusoidalAbsolute,
    T5RelativeBias,
    alibi_bias,
    alibi_slopes,
    all_schemes,
    learned_absolute_embeddings,
    learned_absolute_table,
    sinusoidal_embeddings,
    t5_bias,
    t5_relative_bucket,
)
from tests.conftest import PROPERTY

# --- independent references, one number at a time ----------------------------------------------------------


def reference_bucket(r: int, bidirectional: bool, num_buckets: int, max_distance: int) -> int:
    """T5's bucket of ``r = key - query``, as described in Raffel et al. (2020) and their code."""
    bucket = 0
    if bidirectional:
        num_buckets //= 2
        if r > 0:
            bucket += num_buckets
        distance = abs(r)
    else:
        distance = -min(r, 0)
    exact = num_buckets // 2
    if distance < exact:
        return bucket + distance
    log_bucket = exact + int(
        math.log(distance / exact) / math.log(max_distance / exact) * (num_buckets - exact)
    )
    return bucket + min(log_bucket, num_buckets - 1)


def reference_slopes(heads: int) -> list[float]:
    """ALiBi slopes by the rule of Press et al.'s code, written recursively as they state it."""

    def power_of_two(n: int) -> list[float]:
        start = 2.0 ** (-8.0 / n)
        return [start ** (h + 1) for h in range(n)]

    if math.log2(heads).is_integer():
        return power_of_two(heads)
    closest = 2 ** math.floor(math.log2(heads))
    return power_of_two(closest) + reference_slopes(2 * closest)[0::2][: heads - closest]


# --- sinusoidal --------------------------------------------------------------------------------------------


@PROPERTY
@given(
    m=st.integers(0, 5000),
    dim=st.integers(1, 16).map(lambda h: 2 * h),
    base=st.sampled_from([100.0, 10_000.0]),
)
def test_sinusoidal_embeddings_match_vaswani_formula(m, dim, base):
    embedding = sinusoidal_embeddings([m], dim, base)[0]
    for i in range(dim // 2):
        angle = m / base ** (2 * i / dim)
        assert embedding[2 * i] == pytest.approx(math.sin(angle), abs=1e-9)
        assert embedding[2 * i + 1] == pytest.approx(math.cos(angle), abs=1e-9)


@PROPERTY
@given(m=st.integers(0, 2000), n=st.integers(0, 2000), t=st.integers(-500, 500))
def test_sinusoidal_dot_product_alone_depends_on_offset(m, n, t):
    # p_m . p_n = sum_i cos((m - n) theta_i): shift-invariant on its own ...
    p = sinusoidal_embeddings([m, n, m + t, n + t], 16)
    assert p[0] @ p[1] == pytest.approx(p[2] @ p[3], abs=1e-9)
    assert p[0] @ p[1] == pytest.approx(sum(math.cos((m - n) * th) for th in rv.inv_freq(16)), abs=1e-9)


def test_sinusoidal_logits_are_not_shift_invariant():
    # ... but not after the projections W_q, W_k and the content cross terms.
    head = ToyHead()
    before = head.logits(SENTENCE, np.arange(5.0), SinusoidalAbsolute())
    after = head.logits(SENTENCE, np.arange(5.0) + 10, SinusoidalAbsolute())
    assert np.abs(after - before).max() > 0.1


# --- learned absolute --------------------------------------------------------------------------------------


def test_learned_table_is_seeded_and_looked_up_row_by_row():
    table = learned_absolute_table(16, 4, seed=3)
    assert table.shape == (16, 4)
    np.testing.assert_array_equal(table, learned_absolute_table(16, 4, seed=3))
    assert not np.array_equal(table, learned_absolute_table(16, 4, seed=4))
    np.testing.assert_array_equal(learned_absolute_embeddings([5, 0, 15], table), table[[5, 0, 15]])


@pytest.mark.parametrize("positions", [[16], [3, 20], [-1], [2.5]])
def test_learned_table_has_no_row_outside_its_length(positions):
    with pytest.raises(ValueError):
        learned_absolute_embeddings(positions, learned_absolute_table(16, 4))


def test_learned_table_rejects_bad_arguments():
    for args in [(0, 4), (4, 0), (2.5, 4)]:
        with pytest.raises(ValueError):
            learned_absolute_table(*args)
    with pytest.raises(ValueError):
        learned_absolute_table(4, 4, std=0.0)


# --- T5 relative bias --------------------------------------------------------------------------------------


@PROPERTY
@given(
    r=st.integers(-3000, 3000),
    bidirectional=st.booleans(),
    num_buckets=st.sampled_from([8, 16, 32, 64]),
    max_distance=st.sampled_from([64, 128, 1000]),
)
def test_t5_bucket_matches_reference(r, bidirectional, num_buckets, max_distance):
    got = int(
        t5_relative_bucket(r, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    )
    assert got == reference_bucket(r, bidirectional, num_buckets, max_distance)


def test_t5_bucket_structure_with_the_papers_settings():
    r = np.arange(-300, 301)
    buckets = t5_relative_bucket(r)
    assert buckets.min() == 0 and buckets.max() == 31
    # keys before the query (r < 0) use buckets 0..15, keys after it 16..31
    assert np.all(buckets[r <= 0] < 16) and np.all(buckets[r > 0] >= 16)
    # exact for |r| < 8, then non-decreasing in |r|, and one shared bucket from 128 on
    np.testing.assert_array_equal(t5_relative_bucket(-np.arange(8)), np.arange(8))
    assert np.all(np.diff(t5_relative_bucket(-np.arange(300))) >= 0)
    assert set(t5_relative_bucket(-np.arange(128, 5000)).tolist()) == {15}
    assert set(t5_relative_bucket(np.arange(128, 5000)).tolist()) == {31}
    # a causal decoder gives every key after the query bucket 0
    assert set(t5_relative_bucket(np.arange(0, 50), bidirectional=False).tolist()) == {0}


def test_t5_bucket_rejects_fractions_and_bad_settings():
    with pytest.raises(ValueError):
        t5_relative_bucket(0.5)
    with pytest.raises(ValueError):
        t5_relative_bucket(1, num_buckets=7)
    with pytest.raises(ValueError):
        t5_relative_bucket(1, num_buckets=32, max_distance=4)


@PROPERTY
@given(start=st.integers(0, 500), t=st.integers(-200, 200))
def test_t5_bias_is_a_table_lookup_that_ignores_shifts(start, t):
    weights = np.random.default_rng(0).standard_normal(32)
    m = np.array([start, start + 3, start + 40])
    n = np.array([start + 1, start + 200, start])
    bias = t5_bias(m, n, weights)
    for a in range(3):
        for b in range(3):
            assert bias[a, b] == weights[reference_bucket(int(n[b] - m[a]), True, 32, 128)]
    np.testing.assert_array_equal(t5_bias(m + t, n + t, weights), bias)


# --- ALiBi -------------------------------------------------------------------------------------------------


def test_alibi_slopes_for_eight_heads_are_powers_of_one_half():
    np.testing.assert_allclose(alibi_slopes(8), [2.0**-h for h in range(1, 9)], rtol=0, atol=0)


@pytest.mark.parametrize("heads", range(1, 65))
def test_alibi_slopes_match_the_reference_rule(heads):
    np.testing.assert_allclose(alibi_slopes(heads), reference_slopes(heads), rtol=1e-12)
    slopes = alibi_slopes(heads)
    assert slopes.shape == (heads,) and np.all((slopes > 0) & (slopes < 1))
    assert len(set(slopes.tolist())) == heads  # every head gets its own slope


def test_alibi_slopes_reject_bad_head_counts():
    for heads in [0, -2, 2.5, True]:
        with pytest.raises(ValueError):
            alibi_slopes(heads)


@PROPERTY
@given(
    m=st.lists(st.integers(0, 1000), min_size=1, max_size=6),
    n=st.lists(st.integers(0, 1000), min_size=1, max_size=6),
    t=st.integers(-100, 100),
    slope=st.floats(0, 2),
)
def test_alibi_bias_is_a_linear_distance_penalty(m, n, t, slope):
    bias = alibi_bias(m, n, slope)
    for a, m_a in enumerate(m):
        for b, n_b in enumerate(n):
            assert bias[a, b] == pytest.approx(-slope * abs(m_a - n_b))
    np.testing.assert_allclose(alibi_bias(np.add(m, t), np.add(n, t), slope), bias)
    assert np.all(bias <= 0)


def test_alibi_bias_rejects_a_negative_slope():
    with pytest.raises(ValueError):
        alibi_bias([0], [1], -0.5)


# --- the schemes as objects --------------------------------------------------------------------------------


def test_all_schemes_in_course_order():
    names = [scheme.name for scheme in all_schemes()]
    assert names == [
        "no position",
        "learned absolute",
        "sinusoidal absolute",
        "T5 relative bias",
        "ALiBi",
        "RoPE",
    ]
    assert all_schemes()[4].slope == 0.5


def test_parameter_counts():
    sizes = {"max_positions": 512, "dim": 768, "heads": 12}
    counts = {scheme.name: scheme.parameter_count(**sizes) for scheme in all_schemes()}
    assert counts == {
        "no position": 0,
        "learned absolute": 512 * 768,
        "sinusoidal absolute": 0,
        "T5 relative bias": 32 * 12,
        "ALiBi": 0,
        "RoPE": 0,
    }


def test_each_scheme_uses_exactly_its_own_hook():
    positions = np.arange(4.0)
    q = np.random.default_rng(1).standard_normal((4, 8))
    hooks = {}
    for scheme in all_schemes():
        rotated_q, _ = scheme.rotate_qk(q, q, positions, positions)
        hooks[scheme.name] = (
            scheme.input_embeddings(positions, 8) is not None,
            not np.array_equal(rotated_q, q),
            scheme.logit_bias(positions, positions) is not None,
        )
    assert hooks == {
        "no position": (False, False, False),
        "learned absolute": (True, False, False),
        "sinusoidal absolute": (True, False, False),
        "T5 relative bias": (False, False, True),
        "ALiBi": (False, False, True),
        "RoPE": (False, True, False),
    }


def test_rotary_hook_is_rope():
    rng = np.random.default_rng(2)
    q, k = rng.standard_normal((2, 3, 8))
    m, n = np.array([0.0, 5.0, 9.0]), np.array([1.0, 2.0, 3.0])
    rq, rk = Rotary(base=500.0).rotate_qk(q, k, m, n)
    for a in range(3):
        np.testing.assert_allclose(rq[a], rv.rotation_matrix(m[a], 8, base=500.0) @ q[a], atol=1e-12)
        np.testing.assert_allclose(rk[a], rv.rotation_matrix(n[a], 8, base=500.0) @ k[a], atol=1e-12)


def test_learned_scheme_checks_the_width():
    with pytest.raises(ValueError):
        LearnedAbsolute(dim=8).input_embeddings(np.arange(3.0), 4)


def test_scheme_classes_are_plain_values():
    assert PositionScheme().operation == "none"
    assert ALiBi(slope=0.25) == ALiBi(slope=0.25)
    assert T5RelativeBias(seed=5).bucket_bias.shape == (32,)


# --- the chapter's demo ------------------------------------------------------------------------------------


def test_shift_demo_separates_relative_from_absolute_schemes():
    head = ToyHead()
    for scheme in all_schemes():
        for words in (SENTENCE, SWAPPED):
            start = sentence_logits(scheme, words, 0, head)
            changes = []
            for shift in SHIFTS:
                shifted = sentence_logits(scheme, words, shift, head)
                if shifted is None:
                    assert isinstance(scheme, LearnedAbsolute) and shift + 4 >= scheme.max_positions
                    continue
                changes.append(np.abs(shifted - start).max())
            if scheme.name in ("no position", "T5 relative bias", "ALiBi", "RoPE"):
                assert max(changes) < 1e-9, scheme.name
            else:
                assert max(changes) > 0.1, scheme.name


def test_shift_demo_readout_and_titles_report_the_changes():
    demo = ShiftTheSentence()
    view = demo.view(shift=28, swap=0)
    assert "“the dog bit the man” at positions 28–32. Largest change of a logit since t = 0: " in view.readout
    assert "learned absolute undefined" in view.readout
    assert view.layout["annotations[1].text"].endswith("past its table (L = 32)")
    assert all(value is None for row in view.traces[1]["z"] for value in row)
    # the RoPE panel (index 5) prints a change of 0.00, the sinusoidal one (index 2) does not
    assert view.layout["annotations[5].text"].endswith(": 0.00")
    assert not view.layout["annotations[2].text"].endswith(": 0.00")


def _title_change(view, index: int) -> float | None:
    """The change a panel's title prints, or None for a panel past its table."""
    title = view.layout[f"annotations[{index}].text"]
    return float(title.rsplit(": ", 1)[1]) if "largest change: " in title else None


def test_shift_demo_with_the_swap_compares_each_word_pair_with_the_unswapped_sentence():
    demo = ShiftTheSentence()
    order = [0, 4, 2, 3, 1]  # "the man bit the dog" from "the dog bit the man"; the two "the" stay
    for shift in SHIFTS:
        view = demo.view(shift=shift, swap=1)
        assert view.readout.startswith(
            f"“the man bit the dog” at positions {shift:,}–{shift + 4:,}. Largest change of a logit from the "
            "same word pair in “the dog bit the man” at t = 0: "
        )
        for index, scheme in enumerate(demo.schemes):
            logits = sentence_logits(scheme, SWAPPED, shift, demo.head)
            if logits is None:
                assert _title_change(view, index) is None and f"{scheme.name} undefined" in view.readout
                continue
            start = sentence_logits(scheme, SENTENCE, 0, demo.head)[np.ix_(order, order)]
            change = np.abs(logits - start).max()
            assert _title_change(view, index) == pytest.approx(change, abs=0.006), (shift, scheme.name)
            assert f"{scheme.name} {change:.2f}" in view.readout
            # the numbers only move without position; every position scheme changes some word pair's logit
            assert (change < 1e-9) == (scheme.name == "no position"), (shift, scheme.name)
            if scheme.name in ("T5 relative bias", "ALiBi", "RoPE"):  # the swap's change, at every shift
                assert _title_change(view, index) == _title_change(demo.view(shift=0, swap=1), index)


def test_shift_demo_without_position_only_moves_numbers_between_cells():
    demo = ShiftTheSentence()
    original = np.array(demo.view(shift=0, swap=0).traces[0]["z"])
    swapped = np.array(demo.view(shift=0, swap=1).traces[0]["z"])
    order = [0, 4, 2, 3, 1]  # "the man bit the dog" from "the dog bit the man"
    np.testing.assert_allclose(swapped, original[np.ix_(order, order)])
    rope = [np.array(demo.view(shift=0, swap=s).traces[5]["z"]) for s in (0, 1)]
    assert not np.allclose(rope[1], rope[0][np.ix_(order, order)], atol=1e-3)


def test_content_demo_peaks_at_r0_under_rope_and_at_distance_zero_under_alibi():
    demo = ContentPicksTheDistance()
    q = demo.q
    for r0 in (0, 7, 25, 40):
        k = rv.rotation_matrix(r0, q.size) @ q  # the query turned by r0 positions
        for slope in demo.slopes:
            view = demo.view(r0=r0, slope=slope)
            rope, alibi = np.array(view.traces[0]["y"]), np.array(view.traces[1]["y"])
            # logits, as the chapter defines them: the dot product over sqrt(d), ALiBi's bias added after
            root = math.sqrt(q.size)
            by_hand = [(rv.rotation_matrix(r, q.size) @ q) @ k / root for r in range(41)]
            np.testing.assert_allclose(rope, by_hand, atol=1e-3)
            np.testing.assert_allclose(alibi, q @ k / root - slope * np.arange(41), atol=1e-3)
            assert view.traces[2]["x"] == [r0]
            assert view.traces[2]["y"][0] == pytest.approx(q @ q / root, abs=1e-3)
            assert view.traces[3]["x"] == [0] and int(np.argmax(alibi)) == 0
            # at distance 0 nothing is rotated and nothing subtracted: both curves start at q . k
            assert rope[0] == pytest.approx(alibi[0], abs=1e-3)
