"""The context-extension demos show what the math says: each plotted array checked against rope_viz.scaling
and rope_viz.extension (tests/test_demos.py checks the generic contract of every demo)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import rope_viz as rv
from rope_viz import extension
from rope_viz.demos.extension_arcs import TrainedArcs
from rope_viz.demos.extension_compare import LLAMA3_EDGES, STYLE, UNIT_PAIRS, MethodComparison
from rope_viz.demos.extension_dynamic import DynamicNtk
from rope_viz.demos.extension_llama3 import Llama3Blend, llama3_curve, llama3_parameters
from rope_viz.demos.extension_presets import (
    PRESET_LABELS,
    PRESET_ORDER,
    PresetBands,
    length_lines,
    preset_scaling,
)
from rope_viz.demos.extension_resolution import LABEL_GAP_DEGREES, InterpolationResolution
from rope_viz.demos.extension_style import pair_range
from rope_viz.demos.extension_temperature import KEYS, TRAINED_KEYS, YarnTemperature
from rope_viz.demos.extension_yarn import YarnBands, yarn_parameters
from rope_viz.figures.static import build_payload
from rope_viz.presets.classic import CLASSIC_PRESETS
from rope_viz.scaling import dynamic_scale, yarn_correction_range
from rope_viz.temperature import attention_entropy, best_key_weight, restoring_factor


def _y(update: dict) -> np.ndarray:
    return np.array([np.nan if value is None else value for value in update["y"]], dtype=float)


def test_arcs_bars_are_the_unseen_angles_and_the_band_starts_at_the_first_partial_pair():
    view = TrainedArcs().view(trained_length=4096, target_length=16384, base=10_000)
    theta = rv.inv_freq(128, 10_000.0)
    unseen = np.degrees(extension.unseen_angles(4096, 16384, theta))
    np.testing.assert_allclose(np.nan_to_num(_y(view.traces[3])), unseen, rtol=1e-3)
    assert view.layout["shapes[0].x0"] == extension.first_partial_pair(4096, theta) - 0.5 == 45.5
    assert "18 of them" in view.readout


def test_arcs_when_the_target_is_shorter_nothing_is_new():
    view = TrainedArcs().view(trained_length=8192, target_length=4096, base=10_000)
    assert np.all(np.isnan(_y(view.traces[3])))
    assert "none of them" in view.readout


def test_resolution_rings_are_the_first_tokens_angles():
    view = InterpolationResolution().view(factor=8, pair=0)
    rings = view.traces[3:6]  # after the dial, its labels and the ring names
    plain, ntk, pi = (np.array(update["customdata"])[:, 1] for update in rings)
    for update, radius in zip(rings, (1.0, 0.74, 0.48), strict=True):
        angle = np.radians(np.array(update["customdata"])[:, 1])
        np.testing.assert_allclose(update["x"], radius * np.cos(angle), atol=2e-3)
        np.testing.assert_allclose(update["y"], radius * np.sin(angle), atol=2e-3)
    tokens = np.arange(8)
    np.testing.assert_allclose(plain, np.degrees(np.mod(tokens * 1.0, 2 * np.pi)), atol=0.05)
    np.testing.assert_allclose(ntk, plain, atol=0.05)  # the NTK-aware change leaves pair 0 alone
    np.testing.assert_allclose(pi, np.degrees(tokens / 8.0), atol=0.05)


@pytest.mark.parametrize("pair", [0, 16, 24, 63])
def test_resolution_labels_name_the_tokens_without_crowding(pair):
    """Token 0 is always labelled; labels kept are at least LABEL_GAP_DEGREES apart on the outer ring."""
    view = InterpolationResolution().view(factor=8, pair=pair)
    plain = view.traces[3]
    angles = np.array(plain["customdata"])[:, 1]
    kept = [k for k, label in enumerate(plain["text"]) if label]
    assert kept[0] == 0 and all(plain["text"][k] == str(k) for k in kept)
    for a, b in itertools.combinations(kept, 2):
        assert abs((angles[a] - angles[b] + 180) % 360 - 180) >= LABEL_GAP_DEGREES - 0.1
    if pair == 0:  # a radian a token: every token has room
        assert kept == list(range(8))


def test_dynamic_markers_follow_both_rules():
    demo = DynamicNtk()
    for factor in (1, 2, 4):
        view = demo.view(seq_len=12288, factor=factor)
        code, paper = view.traces[2]["y"][0], view.traces[3]["y"][0]
        parameters = rv.scaling.RopeParameters(
            rope_type="dynamic", head_dim=128, factor=factor, max_position_embeddings=4096
        )
        assert code == pytest.approx(dynamic_scale(parameters, 12288), rel=1e-4)
        assert paper == pytest.approx(3.0)
    assert "agree" in demo.view(seq_len=12288, factor=1).readout


def test_yarn_band_is_the_correction_range_and_the_temperature_is_squared():
    view = YarnBands().view(factor=16, length=4096, beta_fast=32, beta_slow=1)
    low, high = yarn_correction_range(yarn_parameters(16, 4096, 32, 1))
    assert view.layout["shapes[0].x0"] == low - 0.5
    assert view.layout["shapes[0].x1"] == high + 0.5
    a, a_squared = view.traces[-1]["y"]
    assert a == pytest.approx(0.1 * np.log(16) + 1, rel=1e-4)
    assert a_squared == pytest.approx(a**2, rel=1e-4)


def test_temperature_curves_are_the_softmax_model_with_and_without_yarns_factor():
    view = YarnTemperature().view(factor=16, gap=5)
    c = (0.1 * np.log(16) + 1) ** 2
    plain, yarn, at_l = view.traces[0], view.traces[1], view.traces[2]
    np.testing.assert_allclose(plain["x"], KEYS)
    np.testing.assert_allclose(plain["y"], best_key_weight(KEYS, 5.0), rtol=1e-3)
    np.testing.assert_allclose(yarn["y"], best_key_weight(KEYS, 5.0, c), rtol=1e-3)
    assert np.all(np.array(yarn["y"]) > np.array(plain["y"]))  # the factor sharpens at every length
    assert at_l["y"][0] == pytest.approx(float(best_key_weight(TRAINED_KEYS, 5.0)), rel=1e-3)
    entropy_plain, entropy_yarn = view.traces[7]["y"], view.traces[8]["y"]
    np.testing.assert_allclose(entropy_plain, attention_entropy(KEYS, 5.0), rtol=1e-3)
    assert np.all(np.diff(entropy_plain) > 0)  # more keys, more entropy
    assert np.all(np.array(entropy_yarn) <= np.array(entropy_plain))
    markers = view.traces[5]
    assert markers["x"] == [16 * TRAINED_KEYS] * 2
    restore = float(restoring_factor(16 * TRAINED_KEYS, TRAINED_KEYS, 5.0))
    assert f"× {c:.3f}" in view.readout and f"× {restore:.3f}" in view.readout
    # without an extension the factor is 1 and nothing changes
    flat = YarnTemperature().view(factor=1, gap=5)
    assert flat.traces[0]["y"] == flat.traces[1]["y"]


def test_llama3_dense_curve_passes_through_the_pairs():
    parameters = llama3_parameters(8, 1, 4, 8192)
    wavelengths = rv.wavelengths(128, 500_000.0)
    curve_x, curve_y = llama3_curve(parameters, wavelengths[-1])
    from_pairs = rv.inv_freq(128, 500_000.0) / rv.scaling.from_config(parameters).inv_freq
    interpolated = np.interp(np.log(wavelengths), np.log(curve_x), curve_y)
    # piecewise-linear interpolation of a dense curve: close to the pairs' own slow-down
    np.testing.assert_allclose(interpolated, from_pairs, rtol=0.02)
    assert from_pairs[0] == 1.0 and from_pairs[-1] == 8.0
    view = Llama3Blend().view(factor=8, low=1, high=4, length=8192)
    assert view.layout["shapes[0].x0"] == 2048 and view.layout["shapes[0].x1"] == 8192


def test_comparison_plain_curve_is_the_window_averaged_score():
    view = MethodComparison().view(factor=4, length=4096, base=10_000)
    plain = view.traces[5]
    r = np.array(plain["x"])
    expected = extension.window_averaged_scores(
        UNIT_PAIRS, UNIT_PAIRS, r, half_width=0.1 * r, inv_freq=rv.inv_freq(128, 10_000.0)
    )
    np.testing.assert_allclose(plain["y"], expected, rtol=1e-3, atol=1e-3)
    assert r.max() == 4 * 4096
    assert "NTK-aware 17, PI 0, YaRN 0, Llama 3 0" in view.readout


def test_comparison_names_the_yarn_curves_by_their_source():
    view = MethodComparison().view(factor=16, length=4096, base=10_000)
    theta = rv.inv_freq(128, 10_000.0)
    parameters = rv.scaling.RopeParameters(
        rope_type="yarn", head_dim=128, factor=16.0, original_max_position_embeddings=4096
    )
    names = list(STYLE)
    code = _y(view.traces[names.index("yarn")])
    paper = _y(view.traces[names.index("yarn_paper")])
    np.testing.assert_allclose(code, theta / rv.scaling.yarn_frequencies(parameters)[0], rtol=1e-3)
    np.testing.assert_allclose(paper, theta / extension.yarn_paper_frequencies(parameters)[0], rtol=1e-3)
    assert "reference code" in STYLE["yarn"][0] and "eq. (18)" in STYLE["yarn_paper"][0]


def test_comparison_labels_the_llama3_curve_with_the_edges_it_draws():
    """The legend's "low 1, high 4" are the band edges of the drawn curve, in turns within L."""
    view = MethodComparison().view(factor=8, length=4096, base=10_000)
    turns = 4096 * rv.inv_freq(128, 10_000.0) / (2 * np.pi)
    slowdown = _y(view.traces[list(STYLE).index("llama3")])
    low, high = LLAMA3_EDGES["low_freq_factor"], LLAMA3_EDGES["high_freq_factor"]
    np.testing.assert_allclose(slowdown[turns > high], 1.0)
    np.testing.assert_allclose(slowdown[turns < low], 8.0, rtol=1e-3)
    between = (turns < high) & (turns > low)
    assert between.any() and np.all((slowdown[between] > 1.0) & (slowdown[between] < 8.0))
    assert STYLE["llama3"][0] == f"Llama 3 (low {low:g}, high {high:g})"


def test_preset_length_lines_name_coinciding_lengths_once():
    qwen = dict((label, length) for length, label in length_lines(preset_scaling("qwen2.5-7b-instruct-yarn")))
    assert qwen == {"L = max_position_embeddings = 32,768": 32768, "s·L = 131,072": 131072}
    llama = [label for _, label in length_lines(preset_scaling("llama-3.1-8b"))]
    assert llama == ["L = 8,192", "s·L = 65,536", "max_position_embeddings = 131,072"]
    plain = length_lines(preset_scaling("mistral-7b-v0.1"))
    assert plain == [(32768.0, "max_position_embeddings = 32,768")]
    view = PresetBands().view(preset=PRESET_ORDER.index("qwen2.5-7b-instruct-yarn"))
    assert "L = 32,768 → s·L = 131,072; max_position_embeddings 32,768" in view.readout
    assert [line["y"][:1] for line in view.traces[-3:]] == [[], [32768.0], [131072.0]]


@pytest.mark.parametrize("index", range(len(PRESET_ORDER)))
def test_preset_length_lines_fill_the_last_traces_upwards_so_the_highest_label_sits_above(index):
    """The last length trace is labelled above its line, the others below theirs: a model's lines take the
    last traces, shortest first, so that its highest line's label points away from the line under it."""
    figure = PresetBands().initial_figure()
    positions = [trace.get("textposition") for trace in figure["data"][-3:]]
    assert positions == ["bottom right", "bottom right", "top right"]
    lines = [line["y"][:1] for line in PresetBands().view(preset=index).traces[-3:]]
    filled = [k for k, line in enumerate(lines) if line]
    assert filled == list(range(3 - len(filled), 3))
    heights = [lines[k][0] for k in filled]
    assert heights == sorted(heights) and len(set(heights)) == len(heights)


@pytest.mark.parametrize("index", range(len(PRESET_ORDER)))
def test_preset_view_shows_the_classes_of_from_config(index):
    view = PresetBands().view(preset=index)
    scaling = preset_scaling(PRESET_ORDER[index])
    for update, kind in zip(view.traces[:3], ("untouched", "blended", "interpolated"), strict=True):
        shown = ~np.isnan(_y(update))
        np.testing.assert_array_equal(shown, scaling.pair_classes == kind)
    assert view.readout.startswith(PRESET_ORDER[index])


def test_preset_slider_shows_model_names():
    demo = PresetBands()
    control = demo.controls[0]
    assert control.labels is not None
    texts = build_payload(demo)["controls"][0]["texts"]
    assert texts == [PRESET_LABELS[name] for name in PRESET_ORDER]
    assert max(len(text) for text in texts) <= 15  # fits the value column of the site's controls
    # chapter 7 compares the extension methods of models up to 2024; chapter 8 reads later ones by layer
    assert set(PRESET_ORDER) == {preset.name for preset in CLASSIC_PRESETS}


def test_pair_range_text():
    assert pair_range([46, 47, 48]) == "46–48"
    assert pair_range([7]) == "7"
    assert pair_range([]) == "none"
    assert pair_range([1, 3]) == "1, 3"


def test_chapter_6_quotes_the_yarn_figures_slowdown_legend_as_drawn():
    import json
    import re
    from pathlib import Path

    notebook = Path(__file__).resolve().parents[1] / "notebooks" / "06_beyond_training_length.ipynb"
    lead = "The middle panel below draws both curves"
    markdown = ["".join(cell["source"]) for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]]
    text = next(source for source in markdown if lead in source)
    quoted = re.findall(r'"([^"]+)"', text.split(lead, 1)[1])[:2]
    data = YarnBands().base_figure()["data"]
    legend = {trace["name"] for trace in data if trace.get("legend") == "legend2"}
    assert len(quoted) == 2 and set(quoted) <= legend
