"""The pure functions of chapter 8's demos: per-layer maps, two partial rotaries, temperatures, MLA's split.

Each is checked against an independent evaluation of its formula (written out here with numpy) or against
the layer schedule of a preset as its config states it; the figures themselves are checked by
``tests/test_demos.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz.attention_temperatures import logit_multipliers
from rope_viz.demos.layers_map import (
    COLORSCALE,
    MODEL_ORDER,
    NOPE_COLOR,
    NOPE_VALUE,
    ROWS,
    UNROTATED_COLOR,
    UNROTATED_VALUE,
    LayerMap,
    describe_rope,
    first_slow_pair,
    head_rows,
    layer_groups,
    layer_reach,
    map_cells,
    model_map,
    slot_wavelengths,
)
from rope_viz.demos.layers_mla import ROPE_DIMS, MLAScoreSplit, cut_weights, score_parts
from rope_viz.demos.layers_partial import FRACTIONS, HEAD_SIZES, PartialRotary, partial_rotary_wavelengths
from rope_viz.demos.layers_temperatures import (
    LABEL_ON_THE_LEFT_FROM,
    POSITIONS,
    SITE_POSITIONS,
    TemperatureFamily,
)
from rope_viz.scaling import from_config

bases = st.floats(min_value=100.0, max_value=1e8)


# slot_wavelengths ---------------------------------------------------------------------------------------


@settings(deadline=None)
@given(half=st.integers(1, 128), base=bases)
def test_slot_wavelengths_of_plain_rope_are_two_pi_over_the_frequencies(half, base):
    head_dim = 2 * half
    scaling = from_config({"head_dim": head_dim, "rope_theta": base})
    i = np.arange(half)
    np.testing.assert_allclose(slot_wavelengths(scaling), 2 * np.pi * base ** (2 * i / head_dim), rtol=1e-12)


@settings(deadline=None)
@given(fraction=st.sampled_from(FRACTIONS), head_dim=st.sampled_from(HEAD_SIZES), base=bases)
def test_slot_wavelengths_count_the_channels_past_a_neox_rotary_as_unrotated_pairs(fraction, head_dim, base):
    scaling = from_config({"head_dim": head_dim, "partial_rotary_factor": fraction, "rope_theta": base})
    waves = slot_wavelengths(scaling)
    rotary = int(head_dim * fraction)
    assert waves.shape == (head_dim // 2,)
    assert np.all(np.isfinite(waves[: rotary // 2])) and np.all(np.isinf(waves[rotary // 2 :]))


# head_rows ---------------------------------------------------------------------------------------------


@settings(deadline=None)
@given(values=st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=300), rows=st.integers(1, 200))
def test_head_rows_shows_the_pair_in_the_middle_of_each_slice(values, rows):
    shown = head_rows(values, rows)
    pairs = len(values)
    assert shown.shape == (rows,)
    for row in range(rows):
        # the pair whose slice [j/P, (j+1)/P) holds the middle (r + 1/2)/rows of the row's slice
        middle = (row + 0.5) / rows
        expected = next(j for j in range(pairs) if j / pairs <= middle < (j + 1) / pairs)
        assert shown[row] == values[expected]


@settings(deadline=None)
@given(
    values=st.lists(st.floats(0, 1e6), min_size=1, max_size=100).map(sorted),
    rows=st.integers(1, 200),
)
def test_head_rows_keeps_the_order_of_the_pairs(values, rows):
    assert np.all(np.diff(head_rows(values, rows)) >= 0)


def test_head_rows_repeats_a_small_head_and_thins_a_large_one():
    np.testing.assert_array_equal(head_rows(np.arange(32.0), 64), np.repeat(np.arange(32.0), 2))
    np.testing.assert_array_equal(head_rows(np.arange(256.0), 64), np.arange(2.0, 256.0, 4.0))
    np.testing.assert_array_equal(head_rows(np.arange(64.0), 64), np.arange(64.0))


@pytest.mark.parametrize(
    ("values", "rows"), [([], 4), ([[1.0, 2.0]], 4), ([1.0], 0), ([1.0], 2.5), ([1.0], True)]
)
def test_head_rows_rejects_bad_arguments(values, rows):
    with pytest.raises(ValueError, match=r"values|rows"):
        head_rows(values, rows)


# first_slow_pair and layer_reach -------------------------------------------------------------------------


@settings(deadline=None)
@given(
    waves=st.lists(st.one_of(st.floats(1.0, 1e9), st.just(math.inf)), min_size=1, max_size=80),
    length=st.floats(1.0, 1e9),
)
def test_first_slow_pair_is_the_first_finite_wavelength_above_the_length(waves, length):
    expected = next((k for k, wave in enumerate(waves) if math.isfinite(wave) and wave > length), None)
    assert first_slow_pair(np.array(waves), length) == expected


@pytest.mark.parametrize(
    ("name", "kind", "reach"),
    [
        ("gemma-3-27b", "sliding_attention", 1024),
        ("gemma-3-27b", "full_attention", 131072),
        ("gpt-oss-20b", "sliding_attention", 128),
        ("llama-4-scout", "chunked_attention", 8192),
        ("llama-4-scout", "full_attention", 10485760),
        ("qwen3-8b", "full_attention", 40960),
    ],
)
def test_layer_reach_is_the_window_the_chunk_or_the_declared_context(name, kind, reach):
    assert layer_reach(rv.presets.get(name).config, kind) == reach


def test_layer_reach_refuses_a_config_without_the_length_it_needs():
    with pytest.raises(ValueError, match="sliding_window"):
        layer_reach({"max_position_embeddings": 4096}, "sliding_attention")


# model_map, layer_groups ---------------------------------------------------------------------------------


def test_the_map_of_llama_4_has_grey_nope_columns_every_fourth_layer():
    shown = model_map("llama-4-scout")
    nope = [k for k in range(shown["layers"]) if (k + 1) % 4 == 0]
    assert shown["layers"] == 48 and shown["nope"] == len(nope) == 12
    # one column per layer, no more
    assert shown["colour"].shape == shown["grey"].shape == (ROWS, 48) and shown["marks"].shape == (48,)
    for column in range(shown["layers"]):
        colour, grey = shown["colour"][:, column], shown["grey"][:, column]
        if column in nope:
            assert np.all(np.isnan(colour)) and np.all(grey == 1.0)
        else:
            assert np.all(np.isfinite(colour)) and np.all(np.isnan(grey))


def test_the_map_of_gemma_4_greys_three_quarters_of_each_global_head():
    shown = model_map("gemma-4-31b")
    layers = rv.presets.load_layers("gemma-4-31b")
    for column, layer in enumerate(layers):
        unrotated = np.count_nonzero(shown["grey"][:, column] == 0.0)
        if layer.rope_type == "proportional":
            # 64 of 256 pairs rotate: 16 of the 64 rows are coloured, 48 grey
            assert unrotated == ROWS * 3 // 4
        else:
            assert unrotated == 0
        rows = head_rows(slot_wavelengths(layer))
        finite = np.isfinite(rows)
        np.testing.assert_allclose(shown["colour"][finite, column], np.log10(rows[finite]))


def test_the_heatmap_puts_the_greys_below_the_wavelengths_on_one_colour_scale():
    shown = model_map("llama-4-scout")
    cells = map_cells(shown)
    assert np.all(cells[:, 3] == NOPE_VALUE)  # layer 3: no RoPE
    np.testing.assert_array_equal(cells[:, 0], shown["colour"][:, 0])
    assert not np.any(np.isnan(cells))  # every cell of every layer is coloured or grey
    phi = map_cells(model_map("phi-2"))
    # Phi-2 rotates 16 of its 40 pairs: rows whose middle pair is 16 or beyond are grey
    unrotated = np.floor((np.arange(ROWS) + 0.5) * 40 / ROWS) >= 16
    assert np.all(phi[unrotated, 0] == UNROTATED_VALUE) and np.all(phi[~unrotated, 0] >= 0)
    # the greys sit in bands of their own below the wavelengths, whose colours start at log10 λ = 0
    stops = dict((position, color) for position, color in COLORSCALE)
    assert stops[0.0] == NOPE_COLOR and UNROTATED_COLOR in stops.values()


def test_the_reach_marks_sit_at_the_first_pair_slower_than_each_layers_reach():
    config = rv.presets.get("gpt-oss-20b").config
    shown = model_map("gpt-oss-20b")
    for column, (layer, kind) in enumerate(
        zip(rv.presets.load_layers("gpt-oss-20b"), config["layer_types"], strict=True)
    ):
        reach = config["sliding_window"] if kind == "sliding_attention" else config["max_position_embeddings"]
        waves = 2 * np.pi / layer.inv_freq
        slow = np.flatnonzero(waves > reach)
        expected = slow[0] / waves.size if slow.size else np.nan
        np.testing.assert_equal(shown["marks"][column], expected)


def test_layer_groups_count_every_layer_once():
    for name in MODEL_ORDER:
        config = rv.presets.get(name).config
        layers = rv.presets.load_layers(name)
        groups = layer_groups(config, layers)
        assert sum(count for _, count, _ in groups) == len(layers)
        assert sum(count for _, count, rope in groups if rope == "no RoPE") == sum(
            layer is None for layer in layers
        )


def test_describe_rope_names_the_method_the_base_and_the_rotating_pairs():
    gemma3_global = rv.presets.load_layers("gemma-3-27b")[5]
    assert describe_rope(gemma3_global) == "linear × 8, b = 1,000,000, head 128: 64 of 64 pairs rotate"
    phi = rv.presets.load("phi-2")
    assert describe_rope(phi) == "default, b = 10,000, head 80: 16 of 40 pairs rotate"


def test_the_readout_of_the_map_counts_the_nope_layers():
    readout = LayerMap().view(model=MODEL_ORDER.index("llama-4-scout")).readout
    assert "48 layers, 12 without RoPE" in readout and "8,192" in readout


@pytest.mark.parametrize("name", MODEL_ORDER)
def test_the_map_gives_every_layer_of_the_model_one_column_across_the_whole_plot(name):
    view = LayerMap().view(model=MODEL_ORDER.index(name))
    layers = len(rv.presets.load_layers(name))
    heatmap, marks = view.traces
    assert heatmap["x"] == list(range(layers))
    assert len(heatmap["z"]) == ROWS and all(len(row) == layers for row in heatmap["z"])
    # each layer's reach mark spans its whole column, from one cell edge to the next, at the layer's mark
    expected = model_map(name)["marks"]
    segments = [
        (marks["x"][k : k + 2], marks["y"][k : k + 2], marks["customdata"][k : k + 2])
        for k in range(0, len(marks["x"]), 3)
    ]
    assert all(marks["x"][k] is None for k in range(2, len(marks["x"]), 3))
    assert [layer for _, _, (layer, _) in segments] == [k for k in range(layers) if np.isfinite(expected[k])]
    for (start, end), (low, high), (layer, same) in segments:
        assert (start, end) == (layer - 0.5, layer + 0.5) and same == layer
        assert low == high == pytest.approx(expected[layer], abs=1e-4)
    # cells are one unit wide and centred on the layers: the range ends half a cell beyond the first and last
    assert view.layout["xaxis.range"] == [-0.5, layers - 0.5]
    # a tick every 10 layers, or every 5 for a shallow model, from layer 0 to the last one
    step = 10 if layers > 30 else 5
    ticks = view.layout["xaxis.tickvals"]
    assert ticks[0] == 0 and np.all(np.diff(ticks) == step)
    assert ticks[-1] <= layers - 1 < ticks[-1] + step


def test_models_of_similar_depth_show_the_same_ticks_on_the_layers_they_share():
    # Gemma 3 27B (62 layers) and Gemma 4 31B (60): the same labels up to layer 59, not a step of 20 and 10
    gemma3, gemma4 = (
        LayerMap().view(model=MODEL_ORDER.index(name)) for name in ("gemma-3-27b", "gemma-4-31b")
    )
    shared = 60
    assert [t for t in gemma3.layout["xaxis.tickvals"] if t < shared] == gemma4.layout["xaxis.tickvals"]
    assert len(gemma4.layout["xaxis.tickvals"]) >= 5  # at least five labels across the map


# partial_rotary_wavelengths ------------------------------------------------------------------------------


@settings(deadline=None)
@given(fraction=st.sampled_from(FRACTIONS), head_dim=st.sampled_from(HEAD_SIZES), base=bases)
def test_both_readings_of_partial_rotary_follow_their_formulas(fraction, head_dim, base):
    waves = partial_rotary_wavelengths(head_dim, fraction, base)
    rotary = int(head_dim * fraction)  # GPT-NeoX: the first rotary channels, pairs over rotary alone
    rotated = int(fraction * head_dim // 2)  # proportional: transformers' rope_angles
    assert rotary // 2 == rotated  # the head sizes are chosen so that both rotate as many pairs
    i = np.arange(rotated)
    np.testing.assert_allclose(waves["neox"][:rotated], 2 * np.pi * base ** (2 * i / rotary), rtol=1e-12)
    np.testing.assert_allclose(
        waves["proportional"][:rotated], 2 * np.pi * base ** (2 * i / head_dim), rtol=1e-12
    )
    assert np.all(np.isinf(waves["neox"][rotated:])) and np.all(np.isinf(waves["proportional"][rotated:]))
    # proportional RoPE is plain RoPE with the slow pairs cut off
    np.testing.assert_allclose(waves["proportional"][:rotated], waves["plain"][:rotated], rtol=1e-12)


@settings(deadline=None)
@given(head_dim=st.sampled_from(HEAD_SIZES), base=bases)
def test_at_full_rotation_both_readings_are_plain_rope(head_dim, base):
    waves = partial_rotary_wavelengths(head_dim, 1.0, base)
    np.testing.assert_allclose(waves["neox"], waves["plain"], rtol=1e-12)
    np.testing.assert_allclose(waves["proportional"], waves["plain"], rtol=1e-12)


def test_the_unrotated_band_starts_after_the_rotated_pairs():
    view = PartialRotary().view(fraction=0.25, head_dim=512, base=1e6, length=8192)
    assert view.layout["shapes[0].x0"] == 63.5 and view.layout["shapes[0].x1"] == 255.5
    assert "64 of 256 pairs rotate" in view.readout
    full = PartialRotary().view(fraction=1.0, head_dim=80, base=1e4, length=2048)
    assert full.layout["shapes[0].x0"] == full.layout["shapes[0].x1"]  # no band: every pair rotates
    assert full.layout["annotations[0].text"] == "every pair rotates"


# the temperature family ----------------------------------------------------------------------------------


@pytest.mark.parametrize("sized", [0, 1])
def test_the_curves_and_the_markers_are_logit_multipliers(sized):
    demo = TemperatureFamily()
    view = demo.view(sized=sized, position=131072.0)
    table = logit_multipliers(POSITIONS, sized_to_position=bool(sized))
    for update, values in zip(view.traces[:6], table.values(), strict=True):
        np.testing.assert_allclose(update["y"], values, rtol=1e-4)
    at = logit_multipliers([131072.0], sized_to_position=bool(sized))
    np.testing.assert_allclose(view.traces[-1]["y"], [value[0] for value in at.values()], rtol=1e-4)


@pytest.mark.parametrize("position", SITE_POSITIONS)
def test_the_line_at_m_is_labelled_on_one_side_only(position):
    """The label sits right of the line, or left of it from LABEL_ON_THE_LEFT_FROM on (right of the line
    there it would run past a narrow plot's edge); always at the top of the axis, above the legend."""
    demo = TemperatureFamily()
    view = demo.view(sized=0, position=position)
    line, left = view.traces[6], view.traces[7]
    top = view.layout["yaxis.range"][1]
    assert line["x"] == [position, position] and left["x"] == [position]
    assert line["y"][1] == left["y"][0] == top
    label = f"m = {position:,.0f}"
    on_the_left = position >= LABEL_ON_THE_LEFT_FROM
    assert line["text"] == ["", "" if on_the_left else label]
    assert left["text"] == [label if on_the_left else ""]
    assert demo.base_figure()["data"][7]["textposition"] == "top left"
    assert demo.base_figure()["data"][6]["textposition"] == "top right"


def test_longrope_sized_to_the_position_is_log_n_scaling_with_its_own_length():
    """1 + ln s / ln L with s = (m + 1) / L is ln(m + 1) / ln L: Qwen's log-n rule with n = L."""
    table = logit_multipliers(POSITIONS, sized_to_position=True)
    length = 4096
    beyond = POSITIONS + 1 >= length
    np.testing.assert_allclose(
        table["longrope"][beyond], np.log(POSITIONS[beyond] + 1) / np.log(length), rtol=1e-12
    )


# the MLA score split -------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", [0, 1, 2])
def test_the_content_part_is_the_same_at_every_distance_and_for_every_width(key):
    contents = []
    for rope_dim in ROPE_DIMS:
        parts = score_parts(rope_dim, key)
        assert np.ptp(parts["content"]) < 1e-12
        np.testing.assert_allclose(parts["total"], parts["content"] + parts["rotated"], atol=1e-12)
        contents.append(parts["content"][0])
    np.testing.assert_allclose(contents, contents[0], atol=1e-12)


def test_the_rotated_part_is_an_independent_rope_dot_product_of_the_two_slices():
    """q_R . k_R with each slice rotated as DeepSeek does: interleaved pairs, then the half layout."""
    weights = cut_weights(16)
    hidden = np.random.default_rng(1).standard_normal((4, weights.hidden_size))
    query_slice = weights.query_rope[0] @ hidden[0]
    key_slice = weights.key_rope @ hidden[2]
    parts = score_parts(16, 1)
    for r in (0, 1, 17, 200):
        rotated_query = rv.rotate(query_slice, 256.0, convention="interleaved")
        rotated_key = rv.rotate(key_slice, 256.0 - r, convention="interleaved")
        assert math.isclose(parts["rotated"][r], rotated_query @ rotated_key, abs_tol=1e-10)


def test_cut_weights_and_score_parts_reject_what_they_do_not_draw():
    with pytest.raises(ValueError, match="rope_dim"):
        cut_weights(12)
    with pytest.raises(ValueError, match="key"):
        score_parts(8, 3)


def test_the_split_readout_names_the_width_and_the_flat_content_part():
    readout = MLAScoreSplit().view(rope_dim=64, key=0).readout
    assert "qk_rope_head_dim 64 beside 32 content dimensions" in readout and "at every distance" in readout
