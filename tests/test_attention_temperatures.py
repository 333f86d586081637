"""rope_viz.attention_temperatures against transformers' own numbers, independent formulas and bad input.

The fixture (``tests/reference/temperature_reference.json``, written by ``generate_temperature_reference.py``
with transformers 5.x) holds what transformers computes for YaRN, LongRoPE, DeepSeek-V3, Llama 4 and
``get_llama_4_attn_scale``; Qwen's log-n, which transformers does not implement, is checked against the table
Qwen-7B's code builds.
"""

from __future__ import annotations

import inspect
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rope_viz import attention_temperatures as at
from rope_viz.presets import PRESETS
from rope_viz.scaling import RopeParameters, from_config, longrope_attention_factor, yarn_attention_factor
from rope_viz.temperature import yarn_logit_factor

FIXTURE = json.loads(
    (Path(__file__).resolve().parent / "reference" / "temperature_reference.json").read_text()
)
RTOL = 1e-6
PROPERTY = settings(deadline=None, max_examples=60)

factors = st.floats(min_value=1e-3, max_value=1e4)
positions = st.integers(min_value=0, max_value=10**8)
lengths = st.integers(min_value=2, max_value=2**20)


def default(function, name):
    return inspect.signature(function).parameters[name].default


# --- 1. transformers' numbers -------------------------------------------------------------------------------


def test_fixture_comes_from_transformers_5_and_covers_every_method():
    assert FIXTURE["transformers_version"].split(".")[0] == "5"
    assert FIXTURE["generator"] == "tests/reference/generate_temperature_reference.py"
    for key in ("yarn", "longrope", "deepseek", "llama4", "llama_4_scaling"):
        assert len(FIXTURE[key]) >= 2, key
    assert {case["module"] for case in FIXTURE["llama_4_scaling"]} == {"ministral3", "mistral4"}


@pytest.mark.parametrize(
    ("mscale", "mscale_all_dim"),
    sorted({(case["mscale"], case["mscale_all_dim"]) for case in FIXTURE["yarn"]}, key=str),
)
def test_yarn_cos_sin_factor_matches_transformers(mscale, mscale_all_dim):
    cases = [c for c in FIXTURE["yarn"] if (c["mscale"], c["mscale_all_dim"]) == (mscale, mscale_all_dim)]
    factor = np.array([case["factor"] for case in cases])  # all factors at once: the function is vectorised
    got = at.yarn_cos_sin_factor(factor, mscale=mscale, mscale_all_dim=mscale_all_dim)
    np.testing.assert_allclose(got, [case["cos_sin_factor"] for case in cases], rtol=RTOL, atol=0)


def test_yarn_cos_sin_factor_agrees_with_the_scaling_package():
    for case in FIXTURE["yarn"]:
        parameters = RopeParameters(
            rope_type="yarn",
            head_dim=128,
            factor=case["factor"],
            original_max_position_embeddings=4096,
            mscale=case["mscale"],
            mscale_all_dim=case["mscale_all_dim"],
        )
        got = at.yarn_cos_sin_factor(
            case["factor"], mscale=case["mscale"], mscale_all_dim=case["mscale_all_dim"]
        )
        assert float(got) == pytest.approx(yarn_attention_factor(parameters), rel=1e-14)


@pytest.mark.parametrize(
    "case",
    FIXTURE["longrope"],
    ids=lambda case: f"s{case['factor']}-L{case['original_max_position_embeddings']}",
)
def test_longrope_cos_sin_factor_matches_transformers(case):
    original = case["original_max_position_embeddings"]
    factor = case["factor"] if case["factor"] is not None else case["max_position_embeddings"] / original
    got = at.longrope_cos_sin_factor(factor, original)
    assert float(got) == pytest.approx(case["cos_sin_factor"], rel=RTOL)
    parameters = RopeParameters(
        rope_type="longrope",
        head_dim=4,
        factor=case["factor"],
        max_position_embeddings=case["max_position_embeddings"],
        original_max_position_embeddings=original,
        short_factor=[1.0, 1.0],
        long_factor=[1.0, 1.0],
    )
    assert float(got) == pytest.approx(longrope_attention_factor(parameters), rel=1e-14)


@pytest.mark.parametrize(
    "case",
    FIXTURE["deepseek"],
    ids=lambda case: f"s{case['factor']}-{case['mscale']}-{case['mscale_all_dim']}",
)
def test_deepseek_factors_match_transformers(case):
    keys = {"mscale": case["mscale"], "mscale_all_dim": case["mscale_all_dim"]}
    cos_sin = at.yarn_cos_sin_factor(case["factor"], **keys)
    softmax = at.deepseek_softmax_scale(
        case["factor"], case["qk_head_dim"], mscale_all_dim=case["mscale_all_dim"]
    )
    assert float(cos_sin) == pytest.approx(case["cos_sin_factor"], rel=RTOL)
    assert float(softmax) == pytest.approx(case["softmax_scale"], rel=RTOL)
    # relative to plain 1/sqrt(d): content carries the softmax correction, the rotated part also cos/sin^2
    content, rotated = at.deepseek_logit_multipliers(case["factor"], **keys)
    plain = case["qk_head_dim"] ** -0.5
    assert float(content) == pytest.approx(case["softmax_scale"] / plain, rel=RTOL)
    assert float(rotated) == pytest.approx(
        case["softmax_scale"] * case["cos_sin_factor"] ** 2 / plain, rel=RTOL
    )


def test_deepseek_v3_preset_has_no_cos_sin_factor_and_a_softmax_correction():
    scaling = from_config(PRESETS["deepseek-v3"].config)
    assert scaling.attention_factor == 1.0
    content, rotated = at.deepseek_logit_multipliers(
        **{k: at.DEEPSEEK_V3_YARN[k] for k in ("factor", "mscale", "mscale_all_dim")}
    )
    assert float(content) == float(rotated) == pytest.approx((0.1 * math.log(40) + 1) ** 2, rel=1e-14)


@pytest.mark.parametrize("case", FIXTURE["llama4"], ids=lambda case: f"floor{case['floor_scale']}")
def test_llama4_query_factor_matches_transformers(case):
    got = at.llama4_query_factor(
        case["positions"], floor_scale=case["floor_scale"], attn_scale=case["attn_scale"]
    )
    np.testing.assert_allclose(got, case["factor"], rtol=RTOL, atol=0)


@pytest.mark.parametrize(
    "case",
    FIXTURE["llama_4_scaling"],
    ids=lambda case: f"{case['module']}-{case['original_max_position_embeddings']}",
)
def test_llama_4_scaling_query_factor_matches_transformers(case):
    got = at.llama_4_scaling_query_factor(
        case["positions"],
        beta=case["llama_4_scaling_beta"],
        original_max_position_embeddings=case["original_max_position_embeddings"],
    )
    np.testing.assert_allclose(got, case["factor"], rtol=RTOL, atol=0)


def test_defaults_are_transformers_configuration_defaults():
    llama4 = FIXTURE["config_defaults"]["llama4_text"]
    assert (
        default(at.llama4_query_factor, "floor_scale")
        == llama4["floor_scale"]
        == at.LLAMA4_SCOUT["floor_scale"]
    )
    assert (
        default(at.llama4_query_factor, "attn_scale") == llama4["attn_scale"] == at.LLAMA4_SCOUT["attn_scale"]
    )
    assert llama4["attn_temperature_tuning"] is True
    # NoPE layers: every fourth, i = 3, 7, 11, ... as the docstring says
    assert llama4["nope_layers"] == [i for i in range(llama4["num_hidden_layers"]) if i % 4 == 3]
    ministral = FIXTURE["config_defaults"]["ministral3"]
    assert default(at.llama_4_scaling_query_factor, "beta") == ministral["llama_4_scaling_beta"]
    assert at.MINISTRAL3 == {
        "beta": ministral["llama_4_scaling_beta"],
        "original_max_position_embeddings": ministral["original_max_position_embeddings"],
    }
    assert default(at.llama_4_scaling_query_factor, "original_max_position_embeddings") == 16384
    assert FIXTURE["config_defaults"]["mistral4"]["original_max_position_embeddings"] == 8192
    # Ministral 3's YaRN block has mscale == mscale_all_dim: no factor on cos and sin at all
    assert (
        float(
            at.yarn_cos_sin_factor(
                ministral["factor"], mscale=ministral["mscale"], mscale_all_dim=ministral["mscale_all_dim"]
            )
        )
        == 1.0
    )


# --- 2. independent formulas and properties -----------------------------------------------------------------


def test_qwen_logn_is_qwen_7b_table():
    n = 2048
    logn_list = [(math.log(i, n) if i > n else 1) for i in range(1, 32768)]  # modeling_qwen.py, verbatim
    got = at.qwen_logn_query_factor(np.arange(32767), training_length=n)  # query at p uses entry i = p + 1
    np.testing.assert_allclose(got, logn_list, rtol=1e-14, atol=0)


@PROPERTY
@given(factor=factors)
def test_yarn_logit_factor_is_the_square_of_the_cos_sin_factor(factor):
    cos_sin = float(at.yarn_cos_sin_factor(factor))
    assert cos_sin**2 == pytest.approx(yarn_logit_factor(factor), rel=1e-14)
    assert cos_sin >= 1.0
    assert float(at.yarn_cos_sin_factor(factor, mscale=0.707, mscale_all_dim=0.707)) == 1.0


@PROPERTY
@given(factor=st.floats(min_value=1.0, max_value=1e4), length=lengths)
def test_longrope_on_the_logits_is_log_n_at_the_extended_length(factor, length):
    on_logits = float(at.longrope_cos_sin_factor(factor, length)) ** 2
    assert on_logits == pytest.approx(math.log(factor * length) / math.log(length), rel=1e-12)
    # the same as Qwen's log-n factor of a query that sees s L keys
    qwen = float(at.qwen_logn_query_factor(factor * length - 1, training_length=length))
    assert on_logits == pytest.approx(qwen, rel=1e-12)


@PROPERTY
@given(
    position=positions, floor_scale=st.integers(min_value=1, max_value=10**5), attn_scale=st.floats(0.0, 1.0)
)
def test_llama4_is_a_step_function_of_the_token_count(position, floor_scale, attn_scale):
    got = float(at.llama4_query_factor(position, floor_scale=floor_scale, attn_scale=attn_scale))
    steps = (position + 1) // floor_scale  # whole steps of floor_scale tokens, with integers
    assert got == pytest.approx(1.0 + attn_scale * math.log(steps + 1), rel=1e-12)
    first = steps * floor_scale - 1  # first position of this step (or 0)
    assert float(
        at.llama4_query_factor(max(first, 0), floor_scale=floor_scale, attn_scale=attn_scale)
    ) == pytest.approx(got, rel=1e-12)


@PROPERTY
@given(position=st.integers(min_value=1, max_value=10**8), length=lengths, beta=st.floats(0.0, 1.0))
def test_llama_4_scaling_is_llama4_one_token_later(position, length, beta):
    mistral = at.llama_4_scaling_query_factor(position, beta=beta, original_max_position_embeddings=length)
    llama = at.llama4_query_factor(position - 1, floor_scale=length, attn_scale=beta)
    assert float(mistral) == pytest.approx(float(llama), rel=1e-12)


def test_query_factors_are_one_up_to_their_length_and_grow_after():
    p = np.arange(0, 300_000, 7)
    for values, start in (
        (at.llama4_query_factor(p), 8191),
        (at.llama_4_scaling_query_factor(p), 16384),
        (at.qwen_logn_query_factor(p), 2048),
    ):
        assert np.all(values[p < start] == 1.0)
        assert np.all(values[p > start] > 1.0)
        assert np.all(np.diff(values) >= 0)


def test_logit_multipliers_use_the_documented_settings():
    p = np.array([0, 4095, 4096, 32767, 131071, 10**6])
    table = at.logit_multipliers(p)
    assert list(table) == list(at.LOGIT_MULTIPLIER_LABELS)
    assert all(values.shape == p.shape for values in table.values())
    np.testing.assert_allclose(table["yarn"], (0.1 * math.log(4) + 1) ** 2, rtol=1e-14)
    np.testing.assert_allclose(table["longrope"], 1 + math.log(32) / math.log(4096), rtol=1e-14)
    np.testing.assert_allclose(table["deepseek"], (0.1 * math.log(40) + 1) ** 2, rtol=1e-14)
    np.testing.assert_allclose(table["llama4"], at.llama4_query_factor(p, floor_scale=8192, attn_scale=0.1))
    np.testing.assert_allclose(table["llama_4_scaling"], at.llama_4_scaling_query_factor(p))
    np.testing.assert_allclose(table["qwen_logn"], at.qwen_logn_query_factor(p, training_length=2048))


def test_logit_multipliers_sized_to_position():
    p = np.arange(0, 1_000_000, 997)
    sized = at.logit_multipliers(p, sized_to_position=True)
    # LongRoPE sized to reach p is log-n scaling with n = L
    np.testing.assert_allclose(
        sized["longrope"], at.qwen_logn_query_factor(p, training_length=4096), rtol=1e-12
    )
    for name, length in (("yarn", 32768), ("longrope", 4096), ("deepseek", 4096)):
        assert np.all(sized[name][p + 1 <= length] == 1.0)
        assert np.all(np.diff(sized[name]) >= 0) and sized[name][-1] > 1.2
    s = (p[-1] + 1) / 32768
    assert sized["yarn"][-1] == pytest.approx(float(at.yarn_cos_sin_factor(s)) ** 2, rel=1e-14)


# --- 3. bad input -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: at.yarn_cos_sin_factor(0.0), "factor"),
        (lambda: at.yarn_cos_sin_factor([2.0, np.nan]), "factor"),
        (lambda: at.yarn_cos_sin_factor(2.0, mscale=-1.0, mscale_all_dim=1.0), "mscale"),
        (lambda: at.longrope_cos_sin_factor(2.0, 1), "original_max_position_embeddings"),
        (lambda: at.longrope_cos_sin_factor(-2.0, 4096), "factor"),
        (lambda: at.deepseek_softmax_scale(40.0, 0), "qk_head_dim"),
        (lambda: at.deepseek_softmax_scale(40.0, 192, mscale_all_dim=-0.5), "mscale_all_dim"),
        (lambda: at.llama4_query_factor([-1]), "positions"),
        (lambda: at.llama4_query_factor([1], floor_scale=0), "floor_scale"),
        (lambda: at.llama4_query_factor([1], attn_scale=-0.1), "attn_scale"),
        (lambda: at.llama_4_scaling_query_factor([1], beta=-0.1), "beta"),
        (
            lambda: at.llama_4_scaling_query_factor([1], original_max_position_embeddings=0),
            "original_max_position_embeddings",
        ),
        (lambda: at.qwen_logn_query_factor([1], training_length=1), "training_length"),
        (lambda: at.qwen_logn_query_factor([np.inf]), "positions"),
        (lambda: at.logit_multipliers([-5]), "positions"),
    ],
)
def test_bad_arguments_raise_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()
