"""Tests of rope_viz.extension: trained arcs, unseen angles, scores under a method, the papers' rules, pasted
configs. Each property is checked against a computation written here from the definition."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz import extension
from rope_viz.scaling import RopeParameters, from_config, yarn_correction_range, yarn_ramp
from tests.conftest import PROPERTY, bases, conventions, hand_frequencies, hand_rotate, vectors

lengths = st.integers(min_value=16, max_value=200_000)
factors = st.floats(min_value=1.0, max_value=64.0)
head_dims = st.integers(min_value=2, max_value=128).map(lambda half: 2 * half)  # even, 4..256


def hand_unseen(trained_length: float, target_length: float, trained: list[float], used: list[float]) -> list:
    """The part of the circle reached at the target length and not in training, by sampling the circle."""
    grid = np.linspace(0.0, 2 * math.pi, 720_001)[:-1]  # angles, 1/2000 of a degree apart
    step = grid[1] - grid[0]
    out = []
    for theta, theta_new in zip(trained, used, strict=True):
        seen = grid < trained_length * theta  # the arc [0, L θ) (the whole circle once L θ >= 2π)
        reached = grid < target_length * theta_new
        out.append(np.count_nonzero(reached & ~seen) * step)
    return out


# --- arcs and turns -----------------------------------------------------------------------------------------


@PROPERTY
@given(dim=head_dims, base=bases, length=lengths)
def test_arcs_and_turns_follow_the_definition(dim, base, length):
    theta = hand_frequencies(dim, base)
    arcs = extension.context_arcs(length, rv.inv_freq(dim, base))
    full_turns = extension.turns(length, rv.inv_freq(dim, base))
    for i, frequency in enumerate(theta):
        assert arcs[i] == pytest.approx(length * frequency, rel=1e-12)
        assert full_turns[i] == pytest.approx(length / (2 * math.pi / frequency), rel=1e-12)


@PROPERTY
@given(dim=head_dims, base=bases, length=lengths)
def test_first_partial_pair_is_the_closed_form(dim, base, length):
    bound = (dim / 2) * math.log(length / (2 * math.pi)) / math.log(base)
    assume(abs(bound - round(bound)) > 1e-9)  # stay away from a pair that turns exactly once
    expected = min(max(math.floor(bound) + 1, 0), dim // 2)
    assert extension.first_partial_pair(length, rv.inv_freq(dim, base)) == expected


def test_first_partial_pair_of_llama_2():
    # d = 128, b = 10,000, L = 4,096: pair 45 turns 1.004 times, pair 46 only 0.869 times.
    theta = rv.inv_freq(128, 10_000.0)
    assert extension.first_partial_pair(4096, theta) == 46
    assert extension.turns(4096, theta)[45] > 1 > extension.turns(4096, theta)[46]


# --- unseen angles ------------------------------------------------------------------------------------------


@PROPERTY
@given(
    dim=st.sampled_from([8, 16, 32]),
    base=st.floats(min_value=100.0, max_value=1e6),
    trained_length=st.integers(min_value=64, max_value=50_000),
    ratio=st.floats(min_value=0.25, max_value=40.0),
    slow_down=st.floats(min_value=1.0, max_value=8.0),
)
def test_unseen_angles_match_a_sampled_circle(dim, base, trained_length, ratio, slow_down):
    target_length = trained_length * ratio
    theta = hand_frequencies(dim, base)
    used = [frequency / slow_down ** (i / len(theta)) for i, frequency in enumerate(theta)]
    expected = hand_unseen(trained_length, target_length, theta, used)
    got = extension.unseen_angles(trained_length, target_length, rv.inv_freq(dim, base), used)
    np.testing.assert_allclose(got, expected, atol=2 * (2 * math.pi / 720_000))


@PROPERTY
@given(dim=head_dims, base=bases, trained_length=lengths, target_ratio=factors)
def test_pairs_that_completed_a_turn_never_meet_new_angles(dim, base, trained_length, target_ratio):
    theta = rv.inv_freq(dim, base)
    unseen = extension.unseen_angles(trained_length, trained_length * target_ratio, theta)
    full = extension.turns(trained_length, theta) >= 1
    assert np.all(unseen[full] == 0)
    assert np.all((unseen >= 0) & (unseen < 2 * math.pi))


@PROPERTY
@given(dim=head_dims, base=bases, trained_length=lengths, s=factors)
def test_position_interpolation_keeps_every_angle_in_range(dim, base, trained_length, s):
    theta = rv.inv_freq(dim, base)
    pi = from_config(
        {"head_dim": dim, "rope_theta": base, "rope_scaling": {"rope_type": "linear", "factor": s}}
    )
    assert np.all(extension.unseen_angles(trained_length, s * trained_length, theta, pi.inv_freq) == 0)


@PROPERTY
@given(
    dim=st.sampled_from([64, 96, 128, 256]),
    base=st.floats(min_value=1000.0, max_value=1e6),
    trained_length=st.integers(min_value=1024, max_value=65_536),
    s=factors,
    beta_fast=st.floats(min_value=4.0, max_value=64.0),
    beta_slow=st.floats(min_value=1.0, max_value=3.0),
)
def test_yarn_keeps_every_angle_in_range_when_beta_slow_is_at_least_one(
    dim, base, trained_length, s, beta_fast, beta_slow
):
    theta = rv.inv_freq(dim, base)
    parameters = RopeParameters(
        rope_type="yarn",
        head_dim=dim,
        rope_theta=base,
        factor=s,
        original_max_position_embeddings=trained_length,
        beta_fast=beta_fast,
        beta_slow=beta_slow,
    )
    _low, high = yarn_correction_range(parameters)
    assume(
        high <= dim // 2 - 1
    )  # transformers clamps at dim - 1; past d/2 - 1 the last pairs are not fully slowed
    yarn = from_config(parameters)
    assert np.all(extension.unseen_angles(trained_length, s * trained_length, theta, yarn.inv_freq) == 0)


@PROPERTY
@given(
    base=st.floats(min_value=1000.0, max_value=1e6),
    trained_length=st.integers(min_value=1024, max_value=65_536),
    s=factors,
    low=st.floats(min_value=1.0, max_value=2.0),
    gap=st.floats(min_value=0.5, max_value=8.0),
)
def test_llama3_keeps_every_angle_in_range_when_low_freq_factor_is_at_least_one(
    base, trained_length, s, low, gap
):
    theta = rv.inv_freq(128, base)
    llama3 = from_config(
        RopeParameters(
            rope_type="llama3",
            head_dim=128,
            rope_theta=base,
            factor=s,
            low_freq_factor=low,
            high_freq_factor=low + gap,
            original_max_position_embeddings=trained_length,
        )
    )
    assert np.all(extension.unseen_angles(trained_length, s * trained_length, theta, llama3.inv_freq) == 0)


def test_ntk_aware_scaling_still_sends_middle_pairs_past_their_arc():
    # The slowest pair is slowed by exactly s and stays in range; the pairs just faster are slowed by less.
    theta = rv.inv_freq(128, 10_000.0)
    ntk = from_config({"head_dim": 128, "rope_scaling": {"rope_type": "ntk", "factor": 4.0}})
    unseen = extension.unseen_angles(4096, 16384, theta, ntk.inv_freq)
    assert unseen[-1] == 0
    partial = extension.first_partial_pair(4096, theta)
    assert np.count_nonzero(unseen) > 0
    assert np.all(np.flatnonzero(unseen) >= partial)


def test_unseen_angles_reject_mismatched_shapes():
    with pytest.raises(ValueError, match="same shape"):
        extension.unseen_angles(10, 20, [1.0, 0.1], [1.0])
    with pytest.raises(ValueError, match="length"):
        extension.unseen_angles(0, 20, [1.0])


# --- resolution and scores ----------------------------------------------------------------------------------


@PROPERTY
@given(dim=head_dims, base=bases, s=factors)
def test_neighbour_angles_are_the_interpolated_angle_steps(dim, base, s):
    theta = rv.inv_freq(dim, base)
    steps = extension.neighbour_angles(theta, s)
    # token m + 1 and token m, read at positions (m + 1)/s and m/s
    np.testing.assert_allclose(steps, rv.angles(8.0 / s, theta) - rv.angles(7.0 / s, theta), rtol=1e-9)


@PROPERTY
@given(
    data=st.data(),
    dim=st.sampled_from([2, 4, 8, 16]),
    m=st.integers(min_value=0, max_value=5000),
    n=st.integers(min_value=0, max_value=5000),
    attention=st.floats(min_value=0.5, max_value=2.0),
    convention=conventions,
)
def test_scores_scale_by_the_square_of_the_factor_on_cos_and_sin(data, dim, m, n, attention, convention):
    q, k = data.draw(vectors(dim)), data.draw(vectors(dim))
    frequencies = [0.9 * value for value in hand_frequencies(dim, 500.0)]
    # multiply cos and sin by a: both rotated vectors grow by a
    rotated_q = attention * hand_rotate(q, m, convention, frequencies)
    rotated_k = attention * hand_rotate(k, n, convention, frequencies)
    expected = float(rotated_q @ rotated_k)
    got = extension.scaled_relative_scores(
        q, k, [m - n], inv_freq=frequencies, attention_factor=attention, convention=convention
    )[0]
    assert got == pytest.approx(expected, rel=1e-8, abs=1e-8 * (1 + np.abs(q).sum() * np.abs(k).sum()))


@PROPERTY
@given(data=st.data(), dim=st.sampled_from([2, 4, 8]), convention=conventions, center=st.floats(0, 3000),
       width=st.floats(0.5, 40.0))  # fmt: skip
def test_window_average_is_the_mean_of_the_scores(data, dim, convention, center, width):
    q, k = data.draw(vectors(dim)), data.draw(vectors(dim))
    frequencies = hand_frequencies(dim, 50.0)
    samples = np.linspace(center - width, center + width, 40_001)
    scores = extension.scaled_relative_scores(
        q, k, samples, inv_freq=frequencies, attention_factor=1.2, convention=convention
    )
    mean = float(np.sum((scores[1:] + scores[:-1]) / 2) / (samples.size - 1))  # trapezoid rule
    got = extension.window_averaged_scores(
        q, k, [center], half_width=width, inv_freq=frequencies, attention_factor=1.2, convention=convention
    )[0]
    assert got == pytest.approx(mean, abs=1e-5 * (1 + np.abs(q).sum() * np.abs(k).sum()))


def test_window_average_of_zero_width_is_the_score():
    rng = np.random.default_rng(3)
    q, k = rng.normal(size=16), rng.normal(size=16)
    offsets = np.array([0.0, 3.0, 250.0, 9000.0])
    theta = rv.inv_freq(16, 10_000.0)
    np.testing.assert_allclose(
        extension.window_averaged_scores(q, k, offsets, half_width=0.0, inv_freq=theta, convention="half"),
        extension.scaled_relative_scores(q, k, offsets, inv_freq=theta, convention="half"),
        atol=1e-12,
    )
    with pytest.raises(ValueError, match="half_width"):
        extension.window_averaged_scores(q, k, offsets, half_width=-1.0, inv_freq=theta)


# --- the papers' rules --------------------------------------------------------------------------------------


def yarn(**keys) -> RopeParameters:
    keys.setdefault("head_dim", 128)
    keys.setdefault("original_max_position_embeddings", 4096)
    return RopeParameters(rope_type="yarn", **keys)


@PROPERTY
@given(
    dim=st.sampled_from([32, 64, 128]),
    base=st.floats(min_value=1000.0, max_value=1e6),
    length=st.integers(min_value=512, max_value=131_072),
    beta_fast=st.floats(min_value=2.5, max_value=64.0),
    beta_slow=st.floats(min_value=0.25, max_value=2.0),
)
def test_paper_ramp_is_linear_in_rotations(dim, base, length, beta_fast, beta_slow):
    parameters = yarn(head_dim=dim, rope_theta=base, factor=4.0, original_max_position_embeddings=length,
                      beta_fast=beta_fast, beta_slow=beta_slow)  # fmt: skip
    weights = extension.yarn_paper_ramp(parameters)
    for i, theta in enumerate(hand_frequencies(dim, base)):
        r = length * theta / (2 * math.pi)
        gamma = min(max((r - beta_slow) / (beta_fast - beta_slow), 0.0), 1.0)
        assert weights[i] == pytest.approx(1.0 - gamma, abs=1e-12)


@PROPERTY
@given(
    base=st.floats(min_value=1000.0, max_value=1e6),
    length=st.integers(min_value=512, max_value=131_072),
    s=factors,
    low=st.floats(min_value=0.5, max_value=4.0),
    gap=st.floats(min_value=0.5, max_value=32.0),
)
def test_llama3_is_the_yarn_paper_ramp_without_temperature(base, length, s, low, gap):
    keys = {"head_dim": 128, "rope_theta": base, "factor": s, "original_max_position_embeddings": length}
    llama3 = from_config(
        RopeParameters(rope_type="llama3", low_freq_factor=low, high_freq_factor=low + gap, **keys)
    )
    paper, attention = extension.yarn_paper_frequencies(yarn(beta_slow=low, beta_fast=low + gap, **keys))
    np.testing.assert_allclose(paper, llama3.inv_freq, rtol=1e-12)
    assert attention == pytest.approx(0.1 * math.log(s) + 1.0)
    assert llama3.attention_factor == 1.0


@PROPERTY
@given(
    base=st.floats(min_value=1000.0, max_value=1e6),
    length=st.integers(min_value=512, max_value=32_768),
    beta_fast=st.floats(min_value=4.0, max_value=64.0),
    beta_slow=st.floats(min_value=0.5, max_value=2.0),
)
def test_transformers_ramp_is_linear_in_log_rotations(base, length, beta_fast, beta_slow):
    parameters = yarn(rope_theta=base, factor=8.0, original_max_position_embeddings=length,
                      beta_fast=beta_fast, beta_slow=beta_slow, truncate=False)  # fmt: skip
    low, high = yarn_correction_range(parameters)
    assume(0 <= low and high <= parameters.dim // 2 - 1)
    rotations = extension.turns(length, rv.inv_freq(128, base))
    gamma = np.clip(np.log(rotations / beta_slow) / math.log(beta_fast / beta_slow), 0.0, 1.0)
    np.testing.assert_allclose(1.0 - yarn_ramp(parameters), gamma, atol=1e-9)


def test_paper_and_code_ramps_differ_inside_the_band():
    parameters = yarn(factor=16.0)
    code = yarn_ramp(parameters)
    paper = extension.yarn_paper_ramp(parameters)
    low, high = yarn_correction_range(parameters)
    assert np.array_equal(code[: low + 1], paper[: low + 1])  # both keep the fast pairs
    # Past the first blended pair (where the code's edge, rounded down, starts its ramp early), the code
    # interpolates less than the paper: its ramp is linear in log r, the paper's in r.
    assert np.all(code[low + 2 : high] < paper[low + 2 : high])
    assert code[low + 1] > paper[low + 1]
    assert paper[-1] == code[-1] == 1.0


def test_yarn_paper_reduces_to_plain_rope_at_factor_one():
    inv_freq, attention = extension.yarn_paper_frequencies(yarn(factor=1.0))
    np.testing.assert_allclose(inv_freq, rv.inv_freq(128, 10_000.0), rtol=1e-15)
    assert attention == 1.0


@given(seq_len=st.integers(min_value=1, max_value=10**6), length=st.integers(min_value=1, max_value=10**5))
@PROPERTY
def test_dynamic_paper_scale_matches_transformers_only_at_factor_one(seq_len, length):
    assert extension.dynamic_paper_scale(seq_len, length) == pytest.approx(max(1.0, seq_len / length))
    one = RopeParameters(rope_type="dynamic", head_dim=128, factor=1.0, max_position_embeddings=length)
    assert rv.scaling.dynamic_scale(one, seq_len) == pytest.approx(
        extension.dynamic_paper_scale(seq_len, length)
    )
    if seq_len > length:
        two = RopeParameters(rope_type="dynamic", head_dim=128, factor=2.0, max_position_embeddings=length)
        assert rv.scaling.dynamic_scale(two, seq_len) > extension.dynamic_paper_scale(seq_len, length)


# --- all methods together -----------------------------------------------------------------------------------


@PROPERTY
@given(base=st.floats(min_value=1000.0, max_value=1e6), s=factors, length=st.integers(512, 65_536))
def test_compare_methods_agrees_with_each_method(base, s, length):
    methods = extension.compare_methods(128, base, s, length)
    assert tuple(methods) == extension.COMPARED_METHODS
    theta = rv.inv_freq(128, base)
    np.testing.assert_allclose(methods["linear"][0], theta / s, rtol=1e-12)
    np.testing.assert_allclose(methods["ntk"][0], rv.inv_freq(128, base * s ** (128 / 126)), rtol=1e-12)
    for name in ("ntk", "yarn", "yarn_paper", "llama3"):
        assert methods[name][0][0] == pytest.approx(theta[0])  # the fastest pair is never touched
    assert methods["yarn"][1] == pytest.approx(0.1 * math.log(s) + 1.0)
    assert methods["linear"][1] == methods["ntk"][1] == methods["llama3"][1] == 1.0


# --- a pasted config ----------------------------------------------------------------------------------------


#: Presets whose RoPE is one setting for every layer; the others need a layer type.
SINGLE_ROPE_PRESETS = sorted(name for name, preset in rv.presets.PRESETS.items() if not preset.layer_types)
PRESET_LAYERS = [
    (name, layer_type)
    for name, preset in sorted(rv.presets.PRESETS.items())
    for layer_type in preset.layer_types or [None]
]


@pytest.mark.parametrize("name", SINGLE_ROPE_PRESETS)
def test_a_pasted_preset_gives_the_same_frequencies(name):
    text = json.dumps(rv.presets.get(name).config, indent=2)
    pasted = extension.scaling_from_text(text)
    np.testing.assert_array_equal(pasted.inv_freq, rv.presets.load(name).inv_freq)


def test_pasted_fragments_and_bare_blocks():
    block = '{"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, ' \
            '"original_max_position_embeddings": 8192, "rope_theta": 500000.0}'  # fmt: skip
    bare = extension.scaling_from_text(block)
    llama = rv.presets.load("llama-3.1-8b")
    np.testing.assert_allclose(bare.inv_freq, llama.inv_freq, rtol=1e-15)
    fragment = '"rope_scaling": {"rope_type": "linear", "factor": 2.0},'
    assert extension.config_from_text(fragment, head_dim=64) == {
        "head_dim": 64,
        "rope_scaling": {"rope_type": "linear", "factor": 2.0},
    }
    wrapped = extension.config_from_text('{"rope_scaling": {"type": "linear", "factor": 2.0}}', head_dim=8)
    assert wrapped == {"head_dim": 8, "rope_scaling": {"type": "linear", "factor": 2.0}}


@pytest.mark.parametrize(("text", "message"), [("", "paste"), ("[1, 2]", "object"), ("{'a': 1}", "JSON")])
def test_pasted_text_errors_say_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        extension.config_from_text(text)


def test_invalid_pasted_config_raises_value_error():
    with pytest.raises(ValueError, match="factor"):
        extension.scaling_from_text('{"rope_type": "linear"}')


@pytest.mark.parametrize(("name", "layer_type"), PRESET_LAYERS)
def test_scaling_summary_is_consistent(name, layer_type):
    scaling = rv.presets.load(name, layer_type=layer_type)
    summary = extension.scaling_summary(scaling)
    assert sum(summary["counts"].values()) == summary["pairs"] == scaling.dim // 2
    assert summary["logit_factor"] == pytest.approx(scaling.attention_factor**2)
    for kind, (first, last) in summary["bands"].items():
        assert scaling.pair_classes[first] == scaling.pair_classes[last] == kind
    rotating = scaling.inv_freq > 0
    assert summary["rotary_dim"] == 2 * np.count_nonzero(rotating)
    assert summary["longest_wavelength"] == pytest.approx(scaling.wavelengths[rotating].max())
    assert summary["max_scale"] == pytest.approx(
        (rv.inv_freq(scaling.dim, summary["base"])[rotating] / scaling.inv_freq[rotating]).max()
    )


@pytest.mark.parametrize(("name", "layer_type"), PRESET_LAYERS)
def test_summary_lengths_are_the_configs_and_their_product(name, layer_type):
    config = rv.presets.get(name).config
    config = config.get("text_config", config)
    summary = extension.scaling_summary(rv.presets.load(name, layer_type=layer_type))
    block = config.get("rope_scaling") or config.get("rope_parameters") or {}
    block = block.get(layer_type, block) if layer_type else block
    original = config.get("original_max_position_embeddings", block.get("original_max_position_embeddings"))
    assert summary["original_length"] == original
    assert summary["max_position_embeddings"] == config["max_position_embeddings"]
    if original is None:
        assert summary["extended_length"] is None
    else:  # L s, with s the block's factor or, without one, the ratio of the two lengths
        factor = block.get("factor", config["max_position_embeddings"] / original)
        assert summary["extended_length"] == pytest.approx(original * factor)


def test_extended_length_need_not_be_max_position_embeddings():
    qwen = extension.scaling_summary(rv.presets.load("qwen2.5-7b-instruct-yarn"))
    assert qwen["max_position_embeddings"] == qwen["original_length"] == 32768
    assert qwen["extended_length"] == 4 * 32768
    llama = extension.scaling_summary(rv.presets.load("llama-3.1-8b"))
    assert llama["extended_length"] == 8 * 8192 == llama["max_position_embeddings"] / 2


def test_summary_of_llama_3_1():
    summary = extension.scaling_summary(rv.presets.load("llama-3.1-8b"))
    assert summary["counts"] == {"untouched": 29, "blended": 6, "interpolated": 29}
    assert summary["bands"] == {"untouched": (0, 28), "blended": (29, 34), "interpolated": (35, 63)}
