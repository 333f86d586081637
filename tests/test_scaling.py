"""Tests of rope_viz.scaling: against transformers' numbers, the papers' formulas, and bad input."""

from __future__ import annotations

import importlib.util
import inspect
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz.extension import yarn_paper_frequencies
from rope_viz.scaling import (
    KNOWN_ROPE_TYPES,
    METHODS,
    RopeParameters,
    classify_pairs,
    from_config,
    parse_config,
)

REFERENCE_DIR = Path(__file__).resolve().parent / "reference"
FIXTURE = json.loads((REFERENCE_DIR / "hf_rope_reference.json").read_text())
CASES = FIXTURE["cases"]
RTOL = 1e-6


def make(rope_type: str = "default", **keys) -> RopeParameters:
    keys.setdefault("head_dim", 128)
    return RopeParameters(rope_type=rope_type, **keys)


def plain(dim: int = 128, rope_theta: float = 10000.0) -> np.ndarray:
    return rv.inv_freq(dim, rope_theta)


def hand_inv_freq(dim: int, base: float) -> np.ndarray:
    """theta_i = base ** (-2 i / d), one pair at a time with math.pow."""
    return np.array([math.pow(base, -2.0 * i / dim) for i in range(dim // 2)])


# --- 1. transformers' numbers, from the fixture -------------------------------------------------------------


def test_fixture_comes_from_transformers_5():
    assert FIXTURE["transformers_version"].split(".")[0] == "5"
    assert FIXTURE["generator"] == "tests/reference/generate_hf_reference.py"


def test_fixture_covers_every_method_form_and_preset():
    types = {parse_config(case["config"], layer_type=case["layer_type"]).rope_type for case in CASES}
    assert types == set(KNOWN_ROPE_TYPES) - {"ntk"}
    forms = {
        case["id"].split("/")[2]
        for case in CASES
        if not case["id"].startswith(("preset", "layout", "layer-type"))
    }
    assert forms == {"v4", "v4type", "v5"}
    presets = {case["id"].split("/")[1] for case in CASES if case["id"].startswith("preset/")}
    assert presets == set(rv.presets.PRESETS)
    assert {case["seq_len"] for case in CASES if "dynamic" in case["id"]} >= {None, 4096, 8192, 16384, 24577}
    split = {(case["id"].split("/")[1], case["layer_type"]) for case in CASES if case["layer_type"]}
    assert split >= {
        (label, kind) for label in ("gemma3", "nested-v5") for kind in ("full_attention", "sliding_attention")
    }


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_matches_transformers_fixture(case):
    scaling = from_config(case["config"], seq_len=case["seq_len"], layer_type=case["layer_type"])
    np.testing.assert_allclose(scaling.inv_freq, case["inv_freq"], rtol=RTOL, atol=0)
    assert scaling.attention_factor == pytest.approx(case["attention_factor"], rel=RTOL)


def _load_generator():
    spec = importlib.util.spec_from_file_location(
        "generate_hf_reference", REFERENCE_DIR / "generate_hf_reference.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_matches_live_transformers():
    pytest.importorskip(
        "torch", reason="the live comparison needs torch; CI checks the committed fixture instead"
    )
    transformers = pytest.importorskip(
        "transformers",
        reason="the live comparison needs transformers; CI checks the committed fixture instead",
    )
    if transformers.__version__.split(".")[0] != "5":
        pytest.skip(f"the live comparison targets transformers 5.x, found {transformers.__version__}")
    transformers.logging.set_verbosity_error()
    generator = _load_generator()
    for case in generator.build_cases():
        inv_freq, attention_factor = generator.hf_rope(
            case["config"], case["seq_len"], case["via"], case["layer_type"]
        )
        scaling = from_config(case["config"], seq_len=case["seq_len"], layer_type=case["layer_type"])
        np.testing.assert_allclose(scaling.inv_freq, inv_freq, rtol=RTOL, atol=0, err_msg=case["id"])
        assert scaling.attention_factor == pytest.approx(attention_factor, rel=RTOL), case["id"]


# --- 2. the same formulas, evaluated independently ----------------------------------------------------------


def test_default_is_roformer_frequencies():
    inv_freq, attention_factor = METHODS["default"](make(rope_theta=500000.0), None)
    np.testing.assert_allclose(inv_freq, hand_inv_freq(128, 500000.0), rtol=1e-13)
    assert attention_factor == 1.0


def test_linear_divides_every_frequency_by_the_factor():
    inv_freq, attention_factor = METHODS["linear"](make("linear", factor=4.0), None)
    np.testing.assert_allclose(inv_freq, hand_inv_freq(128, 10000.0) / 4.0, rtol=1e-13)
    assert attention_factor == 1.0


def test_ntk_base_for_s4_d128_by_hand():
    # b' = b * s ** (d / (d - 2)) = 10000 * 4 ** (128 / 126) = 40000 * 4 ** (1 / 63)
    expected_base = 40000.0 * math.exp(math.log(4.0) / 63.0)
    assert rv.scaling.ntk_base(10000.0, 4.0, 128) == pytest.approx(expected_base, rel=1e-13)
    assert expected_base == pytest.approx(40889.94, abs=0.01)
    inv_freq, _ = METHODS["ntk"](make("ntk", factor=4.0), None)
    np.testing.assert_allclose(inv_freq, hand_inv_freq(128, expected_base), rtol=1e-12)
    scale = plain() / inv_freq
    assert scale[0] == pytest.approx(1.0) and scale[-1] == pytest.approx(4.0)  # fastest kept, slowest / s


def test_dynamic_ntk_by_hand():
    parameters = make("dynamic", factor=2.0, max_position_embeddings=4096)
    # seq_len = 2 L: scale = 2 * 2 - (2 - 1) = 3, base = 10000 * 3 ** (128 / 126)
    inv_freq, _ = METHODS["dynamic"](parameters, 8192)
    np.testing.assert_allclose(inv_freq, hand_inv_freq(128, 10000.0 * 3.0 ** (128 / 126)), rtol=1e-12)
    for short in (None, 1, 4096):
        np.testing.assert_array_equal(METHODS["dynamic"](parameters, short)[0], plain())


def test_dynamic_at_factor_one_is_the_papers_dynamic_scaling_not_plain_rope():
    # YaRN paper sec. 3.3: s = max(1, l / L); transformers' rule equals it at factor 1.
    parameters = make("dynamic", factor=1.0, max_position_embeddings=4096)
    inv_freq, _ = METHODS["dynamic"](parameters, 3 * 4096)
    np.testing.assert_allclose(inv_freq, hand_inv_freq(128, 10000.0 * 3.0 ** (128 / 126)), rtol=1e-12)
    assert not np.allclose(inv_freq, plain())


def test_llama3_band_edges_from_wavelengths():
    parameters = make(
        "llama3",
        rope_theta=500000.0,
        factor=8.0,
        low_freq_factor=1.0,
        high_freq_factor=4.0,
        original_max_position_embeddings=8192,
    )
    inv_freq, attention_factor = METHODS["llama3"](parameters, None)
    base = hand_inv_freq(128, 500000.0)
    wavelengths = 2 * math.pi / base
    short, long = wavelengths < 8192 / 4.0, wavelengths > 8192 / 1.0
    np.testing.assert_allclose(inv_freq[short], base[short], rtol=1e-12)
    np.testing.assert_allclose(inv_freq[long], base[long] / 8.0, rtol=1e-12)
    middle = ~short & ~long
    rotations = 8192 / wavelengths[middle]
    weight = (rotations - 1.0) / (4.0 - 1.0)  # YaRN paper's ramp, linear in r = L / lambda
    np.testing.assert_allclose(
        inv_freq[middle], (1 - weight) * base[middle] / 8 + weight * base[middle], rtol=1e-12
    )
    assert (short.sum(), middle.sum(), long.sum()) == (29, 6, 29)
    assert attention_factor == 1.0


def _yarn(**keys) -> RopeParameters:
    keys = {"factor": 16.0, "original_max_position_embeddings": 4096, **keys}
    return make("yarn", **keys)


def test_yarn_attention_factor_is_the_papers_temperature():
    for factor in (2.0, 4.0, 16.0, 40.0):
        _, attention_factor = METHODS["yarn"](_yarn(factor=factor), None)
        assert attention_factor == pytest.approx(0.1 * math.log(factor) + 1.0, rel=1e-14)
    assert METHODS["yarn"](_yarn(factor=4.0), None)[1] == pytest.approx(1.1386294361119891)


def test_yarn_three_bands_by_rotation_count():
    # Without truncation: pairs turning >= beta_fast times over L are kept, <= beta_slow times divided by s.
    parameters = _yarn(truncate=False)
    inv_freq, _ = METHODS["yarn"](parameters, None)
    base = hand_inv_freq(128, 10000.0)
    rotations = 4096 * base / (2 * math.pi)
    fast, slow = rotations >= 32, rotations <= 1
    np.testing.assert_allclose(inv_freq[fast], base[fast], rtol=1e-12)
    np.testing.assert_allclose(inv_freq[slow], base[slow] / 16.0, rtol=1e-12)
    middle = ~fast & ~slow
    # transformers blends linearly in the pair index, i.e. in ln r:
    # gamma = ln(r / beta_slow) / ln(beta_fast / beta_slow)
    gamma_code = np.log(rotations[middle] / 1.0) / np.log(32.0 / 1.0)
    expected = (1 - gamma_code) * base[middle] / 16.0 + gamma_code * base[middle]
    np.testing.assert_allclose(inv_freq[middle], expected, rtol=1e-12)
    # ...which is not the paper's ramp, linear in r (section 3.2)
    gamma_paper = (rotations[middle] - 1.0) / (32.0 - 1.0)
    paper = (1 - gamma_paper) * base[middle] / 16.0 + gamma_paper * base[middle]
    assert np.all(inv_freq[middle] > paper)


def reference_code_yarn_inv_freq(dim: int, base: float, factor: float, length: int, fast: float, slow: float):
    """YaRN's frequencies as the authors' reference code (github.com/jquesnelle/yarn) computes them.

    1. the fractional index of the pair that turns ``n`` times over ``L``: ``d ln(L / (2 pi n)) / (2 ln b)``;
    2. the edges for ``beta_fast`` (rounded down) and ``beta_slow`` (rounded up), clamped to ``[0, dim - 1]``;
    3. a mask linear over the pair indices ``0 .. dim/2 - 1`` between the edges, clipped to [0, 1] (equal
       edges moved 0.001 apart): the weight of the interpolated frequency ``theta / s``.
    """

    def index(turns: float) -> float:
        return dim * math.log(length / (turns * 2 * math.pi)) / (2 * math.log(base))

    low = max(math.floor(index(fast)), 0)
    high = min(math.ceil(index(slow)), dim - 1)
    if low == high:
        high += 0.001
    weights = [min(max((i - low) / (high - low), 0.0), 1.0) for i in range(dim // 2)]
    theta = hand_inv_freq(dim, base)
    return np.array([w * t / factor + (1 - w) * t for w, t in zip(weights, theta, strict=True)])


@settings(deadline=None, max_examples=80)
@given(
    dim=st.sampled_from([16, 32, 64, 96, 128, 256]),
    base=st.floats(min_value=500.0, max_value=1e7),
    factor=st.floats(min_value=1.0, max_value=64.0),
    length=st.integers(min_value=256, max_value=262_144),
    fast=st.floats(min_value=1.0, max_value=128.0),
    slow=st.floats(min_value=0.25, max_value=4.0),
)
def test_yarn_is_the_reference_codes_ramp_over_pair_indices(dim, base, factor, length, fast, slow):
    # The ramp every released YaRN model was fine-tuned with, and that transformers and vLLM copy: linear over
    # the pair index, not over the turns as in the paper's eq. (18).
    fast = max(fast, slow)
    keys = {"head_dim": dim, "rope_theta": base, "factor": factor, "original_max_position_embeddings": length}
    inv_freq, _ = METHODS["yarn"](_yarn(beta_fast=fast, beta_slow=slow, **keys), None)
    expected = reference_code_yarn_inv_freq(dim, base, factor, length, fast, slow)
    np.testing.assert_allclose(inv_freq, expected, rtol=1e-12)


def test_yarn_reference_ramp_differs_from_the_papers_equation():
    # Same edges, different blend: for Llama 2's head stretched 16 times the paper's eq. (18) slows a mid-band
    # pair about three times as much as the code does.
    code = reference_code_yarn_inv_freq(128, 10000.0, 16.0, 4096, 32.0, 1.0)
    paper, _ = yarn_paper_frequencies(_yarn())
    theta = hand_inv_freq(128, 10000.0)
    ratio = (theta / paper) / (theta / code)
    np.testing.assert_allclose(ratio[:21], 1.0, rtol=1e-12)  # both keep the fast pairs
    np.testing.assert_allclose(ratio[46:], 1.0, rtol=1e-12)  # and slow the slow ones s times
    assert 2.5 < ratio.max() < 3.5 and int(np.argmax(ratio)) in range(30, 46)


def test_yarn_truncation_rounds_band_edges_outward():
    exact = rv.scaling.yarn_correction_range(_yarn(truncate=False))
    rounded = rv.scaling.yarn_correction_range(_yarn())
    # pair index turning r times: i = d ln(L / (2 pi r)) / (2 ln b)
    low = 128 * math.log(4096 / (2 * math.pi * 32)) / (2 * math.log(10000.0))
    high = 128 * math.log(4096 / (2 * math.pi * 1)) / (2 * math.log(10000.0))
    assert exact == pytest.approx((low, high))
    assert rounded == (math.floor(low), math.ceil(high)) == (20, 46)
    ramp = rv.scaling.yarn_ramp(_yarn())
    assert np.all(ramp[:21] == 0) and np.all(ramp[46:] == 1) and np.all((ramp[21:46] > 0) & (ramp[21:46] < 1))


def test_yarn_mscale_rules():
    get_mscale = rv.scaling.yarn_get_mscale
    both = METHODS["yarn"](_yarn(factor=40.0, mscale=1.0, mscale_all_dim=1.0), None)[1]
    assert both == 1.0  # equal values cancel (DeepSeek-V3)
    ratio = METHODS["yarn"](_yarn(factor=40.0, mscale=1.0, mscale_all_dim=0.5), None)[1]
    assert ratio == pytest.approx((0.1 * math.log(40) + 1) / (0.05 * math.log(40) + 1))
    alone = METHODS["yarn"](_yarn(factor=40.0, mscale=0.8), None)[1]
    assert alone == pytest.approx(0.1 * math.log(40) + 1)  # mscale without mscale_all_dim is ignored
    assert get_mscale(1.0, 5.0) == 1.0 and get_mscale(0.5) == 1.0
    explicit = METHODS["yarn"](_yarn(attention_factor=0.9), None)[1]
    assert explicit == 0.9


def test_yarn_factor_null_is_length_ratio():
    parameters = _yarn(factor=None, max_position_embeddings=32768)
    assert parameters.scaling_factor == 8.0
    np.testing.assert_allclose(
        METHODS["yarn"](parameters, None)[0], METHODS["yarn"](_yarn(factor=8.0), None)[0]
    )


def test_longrope_divides_by_the_chosen_list():
    short = [1.0 + 0.01 * i for i in range(64)]
    long = [2.0 + 0.5 * i for i in range(64)]
    parameters = make(
        "longrope",
        short_factor=short,
        long_factor=long,
        original_max_position_embeddings=4096,
        max_position_embeddings=131072,
    )
    base = hand_inv_freq(128, 10000.0)
    for seq_len, chosen in ((None, short), (1, short), (4096, short), (4097, long), (131072, long)):
        inv_freq, attention_factor = METHODS["longrope"](parameters, seq_len)
        np.testing.assert_allclose(inv_freq, base / np.array(chosen), rtol=1e-12)
        # ln 32 / ln 4096 = 5 / 12 exactly, for both lists
        assert attention_factor == pytest.approx(math.sqrt(17 / 12), rel=1e-14)


def test_classification_counts_match_scales():
    scaling = from_config({"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 2.0}})
    assert scaling.pair_counts() == {"untouched": 0, "blended": 0, "interpolated": 32}
    ntk = from_config({"head_dim": 64, "rope_scaling": {"rope_type": "ntk", "factor": 2.0}})
    assert ntk.pair_counts() == {"untouched": 1, "blended": 30, "interpolated": 1}
    np.testing.assert_allclose(ntk.wavelengths, 2 * np.pi / ntk.inv_freq)
    assert classify_pairs([1.0, 1.5, 2.0, 3.0], 2.0).tolist() == [
        "untouched",
        "blended",
        "interpolated",
        "interpolated",
    ]
    near = classify_pairs([1.0 + 1e-12, 1.0 + 1e-6, 2.0 - 1e-6, 2.0 - 1e-12], 2.0)
    assert near.tolist() == ["untouched", "blended", "blended", "interpolated"]


# --- 3. config layouts --------------------------------------------------------------------------------------


def test_the_three_layouts_agree():
    method = {"factor": 4.0, "original_max_position_embeddings": 2048, "beta_fast": 16}
    head = {"hidden_size": 2048, "num_attention_heads": 16, "max_position_embeddings": 8192}
    layouts = [
        {**head, "rope_theta": 5e5, "rope_scaling": {"rope_type": "yarn", **method}},
        {**head, "rope_theta": 5e5, "rope_scaling": {"type": "yarn", **method}},
        {**head, "rope_parameters": {"rope_type": "yarn", "rope_theta": 5e5, **method}},
        {"text_config": {**head, "rope_parameters": {"rope_type": "yarn", "rope_theta": 5e5, **method}}},
    ]
    results = [from_config(config) for config in layouts]
    for result in results[1:]:
        np.testing.assert_array_equal(result.inv_freq, results[0].inv_freq)
        assert result.parameters == results[0].parameters


def test_nested_layer_types_and_aliases():
    config = {
        "head_dim": 64,
        "rope_parameters": {
            "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
            "sliding_attention": {"rope_type": "default", "rope_theta": 1e4},
        },
    }
    full = from_config(config, layer_type="full_attention")
    np.testing.assert_allclose(full.inv_freq, plain(64, 1e6) / 8)
    np.testing.assert_allclose(from_config(config, layer_type="sliding_attention").inv_freq, plain(64, 1e4))
    mrope = {
        "head_dim": 64,
        "rope_scaling": {"type": "mrope", "rope_type": "default", "mrope_section": [8, 12, 12]},
    }
    assert from_config(mrope).rope_type == "default"


def test_precedence_follows_transformers():
    # head_dim wins over hidden_size / heads; qk_rope_head_dim (DeepSeek) wins over both.
    assert parse_config({"hidden_size": 3584, "num_attention_heads": 16, "head_dim": 256}).dim == 256
    assert parse_config({"hidden_size": 512, "num_attention_heads": 8, "head_dim": None}).dim == 64
    assert parse_config({"head_dim": 192, "qk_rope_head_dim": 64}).dim == 64
    # no rope_theta anywhere: transformers' default 10000
    assert parse_config({"head_dim": 64}).rope_theta == 10000.0
    # equal values may be repeated
    same = {"head_dim": 64, "rope_theta": 5e5, "rope_parameters": {"rope_type": "default", "rope_theta": 5e5}}
    assert parse_config(same).rope_theta == 5e5
    # yarn without original length: max_position_embeddings, as in transformers' standardisation
    yarn = {
        "head_dim": 64,
        "max_position_embeddings": 4096,
        "rope_scaling": {"rope_type": "yarn", "factor": 2.0},
    }
    assert parse_config(yarn).original_max_position_embeddings == 4096
    # an explicit null truncate means False in transformers
    yarn["rope_scaling"]["truncate"] = None
    assert parse_config(yarn).truncate is False


def test_results_are_frozen():
    scaling = from_config({"head_dim": 8})
    with pytest.raises(ValueError, match="read-only"):
        scaling.inv_freq[0] = 3.0
    with pytest.raises(AttributeError):
        scaling.attention_factor = 2.0  # type: ignore[misc]
    config = {"head_dim": 8, "rope_scaling": {"rope_type": "linear", "factor": 2.0}}
    snapshot = json.dumps(config)
    from_config(config)
    assert json.dumps(config) == snapshot


def test_registry_has_every_known_method_with_one_signature():
    assert tuple(METHODS) == KNOWN_ROPE_TYPES
    signatures = {tuple(inspect.signature(method).parameters) for method in METHODS.values()}
    assert signatures == {("parameters", "seq_len")}
    assert rv.scaling.from_config is from_config


# --- 4. properties ------------------------------------------------------------------------------------------

dims = st.integers(2, 128).map(lambda half: 2 * half)
bases = st.floats(1.5, 1e7)
factors = st.floats(1.0, 64.0)
lengths = st.integers(16, 1 << 17)


def _at_factor(rope_type: str, dim: int, base: float, factor: float, length: int) -> RopeParameters:
    keys = {"head_dim": dim, "rope_theta": base, "max_position_embeddings": length}
    if rope_type in ("linear", "ntk", "dynamic", "yarn", "llama3"):
        keys["factor"] = factor
    if rope_type in ("yarn", "llama3", "longrope"):
        keys["original_max_position_embeddings"] = length
    if rope_type == "llama3":
        keys.update(low_freq_factor=1.0, high_freq_factor=4.0)
    if rope_type == "longrope":
        keys.update(short_factor=[factor] * (dim // 2), long_factor=[factor] * (dim // 2), factor=factor)
    return RopeParameters(rope_type=rope_type, **keys)


@settings(max_examples=60, deadline=None)
@given(dim=dims, base=bases, length=lengths, seq_len=st.none() | st.integers(1, 1 << 18))
def test_factor_one_is_plain_rope(dim, base, length, seq_len):
    for rope_type in KNOWN_ROPE_TYPES:
        if rope_type in ("ntk", "dynamic") and dim < 4:
            continue
        use_seq_len = None if rope_type == "dynamic" and seq_len and seq_len > length else seq_len
        inv_freq, attention_factor = METHODS[rope_type](
            _at_factor(rope_type, dim, base, 1.0, length), use_seq_len
        )
        np.testing.assert_allclose(inv_freq, rv.inv_freq(dim, base), rtol=1e-12, err_msg=rope_type)
        assert attention_factor == 1.0, rope_type


@settings(max_examples=60, deadline=None)
@given(dim=dims.filter(lambda d: d >= 4), base=bases, factor=factors, length=lengths)
def test_scaling_never_speeds_a_pair_up(dim, base, factor, length):
    original = rv.inv_freq(dim, base)
    for rope_type in ("linear", "ntk", "dynamic", "yarn", "llama3", "longrope"):
        parameters = _at_factor(rope_type, dim, base, factor, length)
        inv_freq, attention_factor = METHODS[rope_type](parameters, 4 * length)
        assert np.all(np.isfinite(inv_freq)) and inv_freq.shape == (dim // 2,)
        assert np.all(inv_freq <= original * (1 + 1e-12)), rope_type
        assert attention_factor >= 1.0
        if rope_type != "longrope":
            scale = original / inv_freq
            assert np.all(np.diff(scale) >= -1e-9 * scale[1:]), rope_type  # slower pairs are scaled more
            assert np.all(np.diff(inv_freq) < 0), rope_type


@settings(max_examples=60, deadline=None)
@given(dim=dims.filter(lambda d: d >= 4), base=bases, factor=factors, length=lengths)
def test_the_ntk_aware_change_slows_pair_i_by_factor_to_the_2i_over_d_minus_2(dim, base, factor, length):
    # theta_i' = (b s^(d/(d-2)))^(-2i/d) = theta_i s^(-2i/(d-2)): only the slowest pair, i = d/2 - 1, is
    # slowed the whole factor (what chapter 7 says of `factor` for this method).
    inv_freq, _ = METHODS["ntk"](_at_factor("ntk", dim, base, factor, length), None)
    pair = np.arange(dim // 2)
    slowdown = hand_inv_freq(dim, base) / inv_freq
    np.testing.assert_allclose(slowdown, factor ** (2 * pair / (dim - 2)), rtol=1e-9)
    assert slowdown[-1] == pytest.approx(factor, rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    dim=dims.filter(lambda d: d >= 4), base=bases, factor=factors, extra=st.floats(0.0, 16.0), length=lengths
)
def test_a_larger_factor_slows_pairs_more(dim, base, factor, extra, length):
    for rope_type in ("linear", "ntk", "yarn", "llama3"):
        smaller = METHODS[rope_type](_at_factor(rope_type, dim, base, factor, length), None)[0]
        larger = METHODS[rope_type](_at_factor(rope_type, dim, base, factor + extra, length), None)[0]
        assert np.all(larger <= smaller * (1 + 1e-12)), rope_type


@settings(max_examples=60, deadline=None)
@given(
    dim=dims.filter(lambda d: d >= 4),
    factor=factors,
    length=lengths,
    seq_len=st.integers(1, 1 << 20),
    more=st.integers(0, 1 << 20),
)
def test_dynamic_slows_down_as_the_sequence_grows(dim, factor, length, seq_len, more):
    parameters = _at_factor("dynamic", dim, 10000.0, factor, length)
    shorter = METHODS["dynamic"](parameters, seq_len)[0]
    longer = METHODS["dynamic"](parameters, seq_len + more)[0]
    assert np.all(longer <= shorter * (1 + 1e-12))


@settings(max_examples=40, deadline=None)
@given(dim=dims.filter(lambda d: d >= 4), base=bases, factor=factors, length=lengths)
def test_pair_classes_partition_the_pairs(dim, base, factor, length):
    for rope_type in KNOWN_ROPE_TYPES:
        scaling = from_config(_at_factor(rope_type, dim, base, factor, length), seq_len=2 * length)
        counts = scaling.pair_counts()
        assert sum(counts.values()) == dim // 2
        if rope_type in ("linear", "longrope") and factor > 1.0 + 1e-6:
            assert counts["interpolated"] == dim // 2


# --- 5. bad input -------------------------------------------------------------------------------------------

HEAD = {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 8192}
LLAMA3 = {
    "rope_type": "llama3",
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 2048,
}
LONGROPE = {
    "rope_type": "longrope",
    "short_factor": [1.0] * 64,
    "long_factor": [4.0] * 64,
    "original_max_position_embeddings": 2048,
}


def _without(block: dict, key: str) -> dict:
    return {name: value for name, value in block.items() if name != key}


BAD_CONFIGS = {
    "unknown rope_type": (
        {**HEAD, "rope_scaling": {"rope_type": "foo"}},
        r"rope_type must be one of .*'yarn'",
    ),
    "unknown legacy type": (
        {**HEAD, "rope_scaling": {"type": "su"}},
        r"rope_type must be one of .*'longrope'",
    ),
    "rope_type vs type": (
        {**HEAD, "rope_scaling": {"rope_type": "linear", "type": "dynamic", "factor": 2.0}},
        r"rope_type and its older spelling type disagree",
    ),
    "rope_theta twice": (
        {**HEAD, "rope_theta": 5e5, "rope_parameters": {"rope_type": "default", "rope_theta": 1e4}},
        r"rope_theta is given both",
    ),
    "partial factor twice": (
        {
            **HEAD,
            "partial_rotary_factor": 0.5,
            "rope_parameters": {"rope_type": "default", "partial_rotary_factor": 0.25},
        },
        r"partial_rotary_factor is given both",
    ),
    "original length twice": (
        {**HEAD, "original_max_position_embeddings": 4096, "rope_scaling": LLAMA3},
        r"original_max_position_embeddings is given both",
    ),
    "two blocks": (
        {
            **HEAD,
            "rope_scaling": {"rope_type": "linear", "factor": 2.0},
            "rope_parameters": {"rope_type": "linear", "factor": 3.0},
        },
        r"rope_scaling and rope_parameters",
    ),
    "block not a dict": ({**HEAD, "rope_scaling": "yarn"}, r"rope_scaling must be a dict"),
    "linear without factor": ({**HEAD, "rope_scaling": {"rope_type": "linear"}}, r"factor is required"),
    "ntk without factor": ({**HEAD, "rope_scaling": {"rope_type": "ntk"}}, r"factor is required"),
    "dynamic without factor": ({**HEAD, "rope_scaling": {"rope_type": "dynamic"}}, r"factor is required"),
    "yarn without factor": ({**HEAD, "rope_scaling": {"rope_type": "yarn"}}, r"factor is required"),
    "llama3 without factor": ({**HEAD, "rope_scaling": _without(LLAMA3, "factor")}, r"factor is required"),
    "llama3 without original length": (
        {**HEAD, "rope_scaling": _without(LLAMA3, "original_max_position_embeddings")},
        r"original_max_position_embeddings is required",
    ),
    "llama3 without low_freq_factor": (
        {**HEAD, "rope_scaling": _without(LLAMA3, "low_freq_factor")},
        r"low_freq_factor is required",
    ),
    "llama3 low > high": (
        {**HEAD, "rope_scaling": {**LLAMA3, "low_freq_factor": 5.0}},
        r"low_freq_factor must be <= high_freq_factor",
    ),
    "linear factor < 1": (
        {**HEAD, "rope_scaling": {"rope_type": "linear", "factor": 0.5}},
        r"factor must be a finite number >= 1",
    ),
    "ntk factor < 1": (
        {**HEAD, "rope_scaling": {"rope_type": "ntk", "factor": 0.99}},
        r"factor must be .* >= 1",
    ),
    "yarn factor < 1": (
        {**HEAD, "rope_scaling": {"rope_type": "yarn", "factor": 0.5}},
        r"factor must be .* >= 1",
    ),
    "llama3 factor < 1": ({**HEAD, "rope_scaling": {**LLAMA3, "factor": 0.9}}, r"factor must be .* >= 1"),
    "factor nan": (
        {**HEAD, "rope_scaling": {"rope_type": "linear", "factor": float("nan")}},
        r"factor must be",
    ),
    "factor inf": (
        {**HEAD, "rope_scaling": {"rope_type": "linear", "factor": float("inf")}},
        r"factor must be",
    ),
    "factor string": ({**HEAD, "rope_scaling": {"rope_type": "linear", "factor": "2"}}, r"factor must be"),
    "factor bool": ({**HEAD, "rope_scaling": {"rope_type": "linear", "factor": True}}, r"factor must be"),
    "yarn derived factor < 1": (
        {
            **HEAD,
            "rope_scaling": {"rope_type": "yarn", "factor": None, "original_max_position_embeddings": 16384},
        },
        r"factor for rope_type 'yarn'",
    ),
    "yarn beta_fast < beta_slow": (
        {**HEAD, "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "beta_fast": 1, "beta_slow": 32}},
        r"beta_fast must be >= beta_slow",
    ),
    "yarn beta_fast zero": (
        {**HEAD, "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "beta_fast": 0}},
        r"beta_fast must be a finite number > 0",
    ),
    "yarn negative attention_factor": (
        {**HEAD, "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "attention_factor": -1.0}},
        r"attention_factor must be a finite number > 0",
    ),
    "yarn negative mscale": (
        {**HEAD, "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "mscale": -1.0}},
        r"mscale must be a finite number >= 0",
    ),
    "yarn truncate not bool": (
        {**HEAD, "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "truncate": "yes"}},
        r"truncate must be True or False",
    ),
    "longrope short list too short": (
        {**HEAD, "rope_scaling": {**LONGROPE, "short_factor": [1.0] * 63}},
        r"short_factor must be a list of length rotary dim // 2 = 64",
    ),
    "longrope long list too long": (
        {**HEAD, "rope_scaling": {**LONGROPE, "long_factor": [1.0] * 128}},
        r"long_factor must be a list of length rotary dim // 2 = 64",
    ),
    "longrope zero entry": (
        {**HEAD, "rope_scaling": {**LONGROPE, "long_factor": [1.0] * 3 + [0.0] + [1.0] * 60}},
        r"long_factor\[3\] must be a finite number > 0",
    ),
    "longrope list not a list": (
        {**HEAD, "rope_scaling": {**LONGROPE, "short_factor": 1.0}},
        r"short_factor must be a list",
    ),
    "longrope without long list": (
        {**HEAD, "rope_scaling": _without(LONGROPE, "long_factor")},
        r"long_factor is required",
    ),
    "longrope factor < 1": ({**HEAD, "rope_scaling": {**LONGROPE, "factor": 0.5}}, r"factor must be .* >= 1"),
    "rope_theta 1": ({**HEAD, "rope_theta": 1.0}, r"rope_theta must be a finite number > 1"),
    "rope_theta negative": ({**HEAD, "rope_theta": -5.0}, r"rope_theta must be a finite number > 1"),
    "rope_theta nan": ({**HEAD, "rope_theta": float("nan")}, r"rope_theta must be a finite number > 1"),
    "no head size": ({"max_position_embeddings": 8192}, r"head_dim, or hidden_size and num_attention_heads"),
    "head size not whole": (
        {"hidden_size": 4100, "num_attention_heads": 32},
        r"hidden_size \(4100\) must be a multiple of num_attention_heads \(32\)",
    ),
    "heads zero": (
        {"hidden_size": 4096, "num_attention_heads": 0},
        r"num_attention_heads must be a positive integer",
    ),
    "head_dim zero": ({"head_dim": 0}, r"head_dim must be a positive integer"),
    "head_dim fractional": ({"head_dim": 64.5}, r"head_dim must be a positive integer"),
    "partial factor zero": ({**HEAD, "partial_rotary_factor": 0.0}, r"partial_rotary_factor must be"),
    "partial factor above one": (
        {**HEAD, "partial_rotary_factor": 1.5},
        r"partial_rotary_factor must be in \(0, 1\]",
    ),
    "odd rotary dim": (
        {"head_dim": 96, "partial_rotary_factor": 0.33},
        r"int\(head_dim \* partial_rotary_factor\) must be an even integer >= 2",
    ),
    "odd head": ({"head_dim": 7}, r"int\(head_dim \* partial_rotary_factor\) must be an even integer"),
    "dynamic without max length": (
        {"head_dim": 64, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}},
        r"max_position_embeddings is required",
    ),
    "ntk on two dims": (
        {"head_dim": 2, "rope_scaling": {"rope_type": "ntk", "factor": 2.0}},
        r"rotary dim >= 4",
    ),
    "max length zero": (
        {**HEAD, "max_position_embeddings": 0},
        r"max_position_embeddings must be a positive integer",
    ),
    "nested without layer_type": (
        {"head_dim": 64, "rope_parameters": {"full_attention": {"rope_type": "default"}}},
        r"layer_type must be one of \['full_attention'\]",
    ),
}


@pytest.mark.parametrize("config, message", list(BAD_CONFIGS.values()), ids=list(BAD_CONFIGS))
def test_bad_config_raises_naming_the_argument(config, message):
    with pytest.raises(ValueError, match=message):
        from_config(config)


@pytest.mark.parametrize("config", [None, [("head_dim", 64)], "config.json", 3])
def test_config_must_be_a_dict(config):
    with pytest.raises(ValueError, match=r"config must be a dict"):
        from_config(config)


@pytest.mark.parametrize("seq_len", [0, -1, 2.5, True, "100", float("nan")])
def test_seq_len_must_be_positive(seq_len):
    with pytest.raises(ValueError, match=r"seq_len must be a positive integer"):
        from_config({"head_dim": 64}, seq_len=seq_len)


def test_layer_type_only_for_nested_configs():
    with pytest.raises(ValueError, match=r"layer_type='full_attention' was given"):
        from_config({"head_dim": 64}, layer_type="full_attention")
    with pytest.raises(ValueError, match=r"layer_type applies only to a config dict"):
        from_config(make(), layer_type="full_attention")


def test_direct_parameters_are_checked_too():
    with pytest.raises(ValueError, match=r"rope_type must be one of"):
        RopeParameters(rope_type="su", head_dim=64)
    with pytest.raises(ValueError, match=r"rope_theta must be a finite number > 1"):
        RopeParameters(head_dim=64, rope_theta=0.5)
    with pytest.raises(ValueError, match=r"factor must be a finite number >= 1"):
        classify_pairs([1.0, 2.0], 0.5)


def test_unknown_keys_in_the_rope_block_are_reported_as_a_warning():
    config = {"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 2.0, "facter": 4.0}}
    with pytest.warns(
        UserWarning, match=r"rope_scaling has keys that rope_type 'linear' does not use.*\['facter'\]"
    ):
        scaling = from_config(config)
    np.testing.assert_allclose(scaling.inv_freq, plain(64) / 2.0, rtol=1e-13)  # the unknown key is ignored
    # keys a rope_type does not use are unknown for it, even where another rope_type uses them
    with pytest.warns(UserWarning, match=r"\['beta_fast'\]"):
        from_config({"head_dim": 64, "rope_parameters": {"rope_type": "default", "beta_fast": 32.0}})


def test_model_specific_keys_are_not_reported(recwarn):
    from_config({"head_dim": 128, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}})
    from_config({"head_dim": 128, "rope_parameters": {"rope_type": "default", "mrope_interleaved": True}})
    assert not [warning for warning in recwarn if issubclass(warning.category, UserWarning)]
