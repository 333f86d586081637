"""Named scenes of the demos: every demo declares a few valid, distinct states, and the captions say what
the states show.

The claim tests read each scene's values from the demo (by the scene's name), so a scene moved to another
state is checked again against its caption.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import rope_viz.demos
from rope_viz.demos.base import MAX_CAPTION_LENGTH, Control, Demo, Scene, View, check_scenes

DEMOS = rope_viz.demos.all_demos()
#: Demos whose walk-through does not start from the default state, and why.
STARTS_ELSEWHERE = {
    "PartialSumWalk": "the chapter steps the distance up from 0",
}


@pytest.fixture(params=DEMOS, ids=lambda cls: cls.__name__)
def demo(request) -> Demo:
    return request.param()


def at(demo_class: type[Demo], name: str) -> dict[str, float]:
    """Every control's value in the scene ``name`` of ``demo_class``."""
    demo = demo_class()
    [scene] = [scene for scene in demo.scenes if scene.name == name]
    return demo.scene_values(scene)


def view_at(demo_class: type[Demo], name: str) -> View:
    return demo_class().view(**at(demo_class, name))


# --- every demo --------------------------------------------------------------------------------------------


def test_every_demo_has_two_to_five_valid_scenes(demo):
    assert 2 <= len(demo.scenes) <= 5
    check_scenes(demo)
    check_scenes(type(demo))  # a class is checked the same way


def test_scenes_of_one_demo_are_distinct_states(demo):
    states = [tuple(demo.scene_indices(scene)) for scene in demo.scenes]
    assert len(set(states)) == len(states)
    assert len({scene.name for scene in demo.scenes}) == len(demo.scenes)


def test_first_scene_is_the_default_state_unless_the_walk_starts_elsewhere(demo):
    first = demo.scene_values(demo.scenes[0])
    if type(demo).__name__ in STARTS_ELSEWHERE:
        assert first != demo.defaults()
        assert any(demo.scene_values(scene) == demo.defaults() for scene in demo.scenes)
    else:
        assert first == demo.defaults()


def test_every_scene_is_a_state_the_site_precomputed_and_has_a_view(demo):
    traces = len(demo.base_figure()["data"])
    for scene in demo.scenes:
        values = demo.scene_values(scene)
        for control in demo.controls:
            assert values[control.name] in control.site_values
        view = demo.view(**values)
        assert len(view.traces) == traces
        assert view.readout


def test_scene_names_are_short_and_captions_one_sentence(demo):
    for scene in demo.scenes:
        assert 1 <= len(scene.name.split()) <= 4
        assert scene.name == scene.name.lower()
        assert len(scene.caption) <= MAX_CAPTION_LENGTH
        assert scene.caption.endswith(".") and scene.caption.count(". ") == 0


# --- the API on a small demo -------------------------------------------------------------------------------


class _Toy(Demo):
    title = "toy"
    controls = (
        Control("m", "position m", (0, 1, 2, 4, 8), 2, 0, 8, integer=True),
        Control("b", "base b", (100.0, 10_000.0), 10_000.0, 10, 10**6, log=True),
    )

    def base_figure(self) -> dict:
        return {"data": [{"type": "scatter"}], "layout": {}}

    def view(self, *, m: float, b: float) -> View:
        return View(traces=[{"x": [m], "y": [b]}])


def _with(*scenes: Scene) -> _Toy:
    toy = _Toy()
    toy.scenes = scenes
    return toy


def test_scene_indices_of_a_scene_that_names_nothing_are_the_defaults():
    toy = _Toy()
    assert toy.scene_indices(Scene("start", "The start.", {})) == [2, 1]
    assert toy.scene_values(Scene("start", "The start.")) == toy.defaults()


def test_scene_indices_point_at_the_named_site_values():
    toy = _Toy()
    assert toy.scene_indices(Scene("far", "Far.", {"m": 8})) == [4, 1]
    assert toy.scene_indices(Scene("low base", "Low base.", {"b": 100, "m": 0})) == [0, 0]
    # a value written as another number type, or with float rounding, still finds its step
    assert toy.scene_indices(Scene("one", "One.", {"m": 1.0, "b": 1e4 * (1 + 1e-12)})) == [1, 1]


def test_a_scene_is_frozen_and_keeps_a_read_only_copy_of_its_values():
    values = {"m": 4}
    scene = Scene("four", "Four.", values)
    values["m"] = 8
    assert scene.values["m"] == 4
    with pytest.raises(TypeError):
        scene.values["m"] = 1  # type: ignore[index]
    with pytest.raises(AttributeError):
        scene.name = "other"  # type: ignore[misc]
    assert hash(scene) == hash(Scene("four", "Four.", {"m": 4}))
    assert scene == Scene("four", "Four.", {"m": 4})


def test_a_demo_without_scenes_passes():
    check_scenes(_Toy())
    assert _Toy.scenes == ()


@pytest.mark.parametrize(
    ("scenes", "message"),
    [
        ((Scene("odd", "A control that does not exist.", {"n": 1}),), r"_Toy, scene 'odd'.*'n'"),
        ((Scene("between", "A value between two steps.", {"m": 3}),), r"_Toy, scene 'between'.*'m'.*nearest"),
        ((Scene("off the end", "A value past the last step.", {"m": 100}),), r"'m'.*nearest is 8"),
        ((Scene("a", "First.", {"m": 0}), Scene("a", "Second.", {"m": 1})), r"scene 'a'.*name"),
        ((Scene("empty", "", {"m": 1}),), r"scene 'empty'.*empty"),
        ((Scene("blank", "   ", {"m": 1}),), r"scene 'blank'.*empty"),
        ((Scene("long", "Word " * 40 + "end.", {"m": 1}),), r"scene 'long'.*more than 160"),
        ((Scene("no stop", "A caption without its full stop", {"m": 1}),), r"scene 'no stop'.*full stop"),
        ((Scene("ellipsis", "A caption that trails off..", {"m": 1}),), r"full stop"),
        ((Scene("two", "One sentence. Then another.", {"m": 1}),), r"scene 'two'.*one sentence"),
        ((Scene("ask", "Is this a caption? It is not.", {"m": 1}),), r"one sentence"),
        ((Scene("lines", "One sentence\nover two lines.", {"m": 1}),), r"one line"),
        ((Scene("Capital", "A name in capitals.", {"m": 1}),), r"lower case"),
        ((Scene("far too many words here", "A long name.", {"m": 1}),), r"1 to 4 words"),
        ((Scene("", "No name.", {"m": 1}),), r"1 to 4 words"),
        ((Scene("two  spaces", "A name with two spaces.", {"m": 1}),), r"1 to 4 words"),
        ((Scene("start", "The start.", {}), Scene("again", "The same.", {"m": 2})), r"'again'.*same state"),
    ],
)
def test_check_scenes_rejects_bad_scenes(scenes, message):
    with pytest.raises(ValueError, match=message):
        check_scenes(_with(*scenes))


def test_check_scenes_accepts_a_good_walk_through():
    check_scenes(
        _with(
            Scene("start", "The start, at the default position.", {}),
            Scene("far", "Far along, with Llama 3.1's numbers: 3.5 times e.g. more.", {"m": 8}),
            Scene("low base", "A smaller base; everything turns faster.", {"b": 100.0}),
        )
    )


def test_check_scenes_rejects_objects_that_are_not_scenes():
    toy = _Toy()
    toy.scenes = ({"name": "start"},)  # type: ignore[assignment]
    with pytest.raises(ValueError, match="Scene"):
        check_scenes(toy)


# --- the captions, checked against the numbers -------------------------------------------------------------


def test_shift_the_sentence_scenes():
    from rope_viz.demos.why_position import ShiftTheSentence

    names = [scheme.name for scheme in ShiftTheSentence().schemes]
    start = view_at(ShiftTheSentence, "the sentence")
    for scene in ("shift by 20", "far along"):
        shifted = view_at(ShiftTheSentence, scene)
        for k, name in enumerate(names):
            same = np.allclose(np.asarray(shifted.traces[k]["z"], float), start.traces[k]["z"], atol=2e-3)
            if name in ("T5 relative bias", "ALiBi", "RoPE"):
                assert same, (scene, name)
            elif name in ("learned absolute", "sinusoidal absolute") and scene == "shift by 20":
                assert not same, name
    learned = names.index("learned absolute")
    blank = view_at(ShiftTheSentence, "past the table").traces[learned]["z"]
    assert all(cell is None for row in blank for cell in row)
    assert (
        at(ShiftTheSentence, "past the table")["shift"] + 4
        == ShiftTheSentence().schemes[learned].max_positions
    )
    one_earlier = ShiftTheSentence().view(shift=27, swap=0).traces[learned]["z"]
    assert all(cell is not None for row in one_earlier for cell in row)
    # without position the swapped sentence has the same logits, in other cells
    plain = names.index("no position")
    before = np.asarray(start.traces[plain]["z"], float)
    after = np.asarray(view_at(ShiftTheSentence, "swap the words").traces[plain]["z"], float)
    np.testing.assert_allclose(np.sort(after.ravel()), np.sort(before.ravel()))
    assert not np.allclose(after, before)
    # ... and its title alone reports no change
    titles = [view_at(ShiftTheSentence, "swap the words").layout[f"annotations[{k}].text"] for k in range(6)]
    assert [title.endswith("largest change: 0.00") for title in titles] == [k == plain for k in range(6)]


def test_content_picks_the_distance_scenes():
    from rope_viz.demos.why_position import DISTANCES, ContentPicksTheDistance, one_key_at_every_distance

    q = ContentPicksTheDistance().q
    for scene in ("key turned by 10", "key turned by 25", "the flattest slope"):
        values = at(ContentPicksTheDistance, scene)
        rope, alibi = one_key_at_every_distance(q, round(values["r0"]), values["slope"])
        assert DISTANCES[int(np.argmax(rope))] == values["r0"]
        assert math.isclose(rope.max(), q @ q / math.sqrt(q.size), rel_tol=1e-12)
        assert int(np.argmax(alibi)) == 0
    assert at(ContentPicksTheDistance, "the flattest slope")["slope"] == min(ContentPicksTheDistance.slopes)


def test_rotation_2d_scenes():
    from rope_viz.demos.rotation_2d import Rotation2D

    def bar(scene: str) -> float:
        return view_at(Rotation2D, scene).traces[6]["y"][0]

    assert at(Rotation2D, "the start")["m"] == 5 and at(Rotation2D, "the start")["n"] == 2
    assert math.isclose(bar("move both on"), bar("the start"), abs_tol=1e-9)
    assert abs(bar("swap the positions") - bar("the start")) > 0.1

    def sign_changes(scene: str) -> int:
        first_row = np.asarray(view_at(Rotation2D, scene).traces[7]["z"])[0]  # m = 0, n = 0 .. 12
        return int(np.count_nonzero(np.diff(np.sign(first_row))))

    assert at(Rotation2D, "a faster pair")["theta"] > at(Rotation2D, "the start")["theta"]
    assert sign_changes("a faster pair") > sign_changes("the start")


def test_sign_convention_scenes():
    from rope_viz.demos.rotation_2d import SignConvention

    def curve(scene: str) -> np.ndarray:
        return np.asarray(view_at(SignConvention, scene).traces[3]["y"])

    def grid(scene: str) -> np.ndarray:
        return np.asarray(view_at(SignConvention, scene).traces[0]["z"])

    assert np.ptp(curve("both forward")) < 1e-3
    assert np.ptp(curve("both backward")) < 1e-3
    assert np.ptp(curve("mixed signs")) > 0.1
    standard, mixed = grid("both forward"), grid("mixed signs")
    for offset in range(-3, 4):
        assert np.ptp(np.diagonal(standard, offset)) < 2e-3
        assert np.ptp(np.diagonal(np.fliplr(mixed), offset)) < 2e-3  # anti-diagonals: m + n fixed
    assert np.ptp(np.diagonal(mixed, 1)) > 0.1
    np.testing.assert_allclose(grid("both backward"), standard.T, atol=2e-3)


def test_multi_speed_clocks_scenes():
    from rope_viz.demos.clocks import MultiSpeedClocks
    from rope_viz.frequencies import angles, inv_freq, wavelengths

    def turned(scene: str) -> np.ndarray:
        values = at(MultiSpeedClocks, scene)
        return angles(values["position"], inv_freq(int(values["dim"]), values["base"]))  # (d/2,) radians

    first = turned("the first tokens")
    assert 0.9 < first[0] / (2 * np.pi) < 1.0  # nearly once round
    assert np.degrees(first[-4:]).max() < 1.0
    hundred = turned("move to 100")
    assert hundred[0] / (2 * np.pi) > 10
    assert np.degrees(hundred[-4:]).max() < 2.0
    raised = turned("raise the base")
    assert raised[0] == hundred[0]
    slowdown = hundred[1:] / raised[1:]
    assert np.all(slowdown > 1) and np.all(np.diff(slowdown) > 0)
    longest = {
        scene: wavelengths(int(at(MultiSpeedClocks, scene)["dim"]), 10_000)[-1]
        for scene in ("move to 100", "a larger head")
    }
    assert at(MultiSpeedClocks, "a larger head")["dim"] > at(MultiSpeedClocks, "move to 100")["dim"]
    assert 1 < longest["a larger head"] / longest["move to 100"] < 1.25


def test_angle_table_scenes():
    from rope_viz.demos.angle_table import AngleTable, table

    cos = table(at(AngleTable, "the cos table")["base"], 0)  # (128, d/2)
    assert cos[:, :4].min(axis=0).max() < -0.9  # the left columns reach blue
    assert cos[:, -12:].min() > 0.9  # the right columns stay red (0.9 is near the red end of the scale)
    row_zero = view_at(AngleTable, "row zero")
    np.testing.assert_array_equal(row_zero.traces[2]["y"], 1.0)
    np.testing.assert_array_equal(row_zero.traces[3]["y"], 0.0)
    sin = table(at(AngleTable, "the sin table")["base"], 1)
    assert np.abs(sin[:, -8:]).max() < 0.15
    raised = table(at(AngleTable, "raise the base")["base"], 0)

    def cycling(values: np.ndarray) -> int:  # columns that come back to red after passing blue
        return int(np.count_nonzero(values.min(axis=0) < -0.99))

    assert cycling(raised) < cycling(cos)
    np.testing.assert_array_equal(raised[:, 0], cos[:, 0])


def test_shift_invariance_scenes():
    from rope_viz.demos.shift_invariance import HIGHLIGHT, WINDOW, ShiftInvariance, scheme_scores
    from rope_viz.shift_invariance import diagonal_spread

    demo = ShiftInvariance()

    def grid(scene: str) -> np.ndarray:
        values = at(ShiftInvariance, scene)
        positions = np.arange(WINDOW, dtype=float) + values["shift"]
        return scheme_scores(round(values["scheme"]), demo.q, demo.k, positions, positions)

    assert diagonal_spread(grid("rope at shift 0")).max() < 1e-9
    np.testing.assert_allclose(grid("rope shifted far"), grid("rope at shift 0"), atol=1e-9)
    assert diagonal_spread(grid("added pe")).max() > 1.0
    m0, n0 = HIGHLIGHT
    assert abs(grid("added pe shifted")[m0, n0] - grid("added pe")[m0, n0]) > 1.0
    product_at_zero = scheme_scores(2, demo.q, demo.k, np.array([m0]), np.array([n0]))[0, 0]
    assert abs(grid("sin/cos product")[m0, n0] - product_at_zero) > 0.1


def test_sinusoidal_terms_scenes():
    from rope_viz.demos.shift_invariance import SinusoidalTerms

    demo = SinusoidalTerms()
    start = demo.values(round(at(SinusoidalTerms, "no shift")["shift"]))
    assert math.isclose(start[:4].sum(), start[4], rel_tol=1e-12)
    moved = demo.values(round(at(SinusoidalTerms, "shift by 100")["shift"]))
    np.testing.assert_allclose(moved[[0, 3]], start[[0, 3]], atol=1e-9)
    assert np.all(np.abs(moved[[1, 2]] - start[[1, 2]]) > 0.1)
    far = demo.values(round(at(SinusoidalTerms, "far along")["shift"]))
    assert abs(far[4] - start[4]) > abs(start[0])


def test_partial_sum_walk_scenes():
    from rope_viz.demos.partial_sum_walk import DIM
    from rope_viz.demos.partial_sum_walk import PartialSumWalk as Walk
    from rope_viz.frequencies import inv_freq
    from rope_viz.long_range import partial_sum_walk, relative_bound

    def walk(scene: str) -> tuple[np.ndarray, np.ndarray, float]:
        values = at(Walk, scene)
        theta = inv_freq(DIM, values["base"])
        stops = partial_sum_walk(values["distance"], theta)
        return stops, values["distance"] * theta, float(relative_bound([values["distance"]], theta)[0])

    straight, _, bound_0 = walk("a straight walk")
    np.testing.assert_allclose(straight, np.arange(DIM // 2 + 1))  # real, and bar j is j
    _, turned, _ = walk("sixteen tokens apart")
    assert turned[:4].min() > 1.0 and turned[-16:].max() < 0.1
    knot, turned, bound_256 = walk("a knot at 256")
    assert np.abs(knot[1:33]).max() < 0.25 * 32  # the fast half stays near the origin
    assert np.all(np.abs(np.angle(np.diff(knot)[-16:])) < 0.3)  # the last steps point almost the same way
    assert bound_256 < walk("sixteen tokens apart")[2] < bound_0
    small, turned, _ = walk("a small base")
    assert turned.min() > 1.0
    assert np.abs(small).max() < np.abs(knot).max()
    large, turned_large, _ = walk("a large base")
    assert abs(large[-1]) > abs(knot[-1])
    assert np.count_nonzero(turned_large < 1) > np.count_nonzero(walk("a knot at 256")[1] < 1)


def test_decay_bound_scenes():
    from rope_viz.demos.long_range_decay import SHORT_RANGE, DecayBound
    from rope_viz.frequencies import inv_freq
    from rope_viz.long_range import local_maxima, relative_bound

    def bound(scene: str) -> np.ndarray:
        values = at(DecayBound, scene)
        return relative_bound(SHORT_RANGE, inv_freq(int(values["dim"]), values["base"]))

    reference = bound("roformer's bound")
    assert local_maxima(reference).size > 10 and reference[-1] < reference[0] / 2
    assert np.all(bound("a small base")[1:] < reference[1:])
    large = bound("a large base")
    assert np.all(large[1:] > reference[1:]) and local_maxima(large).size > 10
    dim = at(DecayBound, "a smaller head")["dim"]
    assert bound("a smaller head")[0] == (dim / 2 + 1) / 2 < reference[0]


def test_score_vs_distance_scenes():
    from rope_viz.demos.long_range_decay import LONG_RANGE, ScoreVsDistance, halving_distance
    from rope_viz.frequencies import wavelengths
    from rope_viz.long_range import score_statistics

    def halved_at(scene: str) -> float:
        """The first whole distance at which the mean score of k = q falls below d/2 (the readout's)."""
        values = at(ScoreVsDistance, scene)
        return halving_distance(int(values["dim"]), values["base"])

    values = at(ScoreVsDistance, "base 10,000")
    mean, std = score_statistics(LONG_RANGE, 128, values["base"], correlation=0.0)
    np.testing.assert_allclose(mean, 0.0, atol=1e-12)
    np.testing.assert_allclose(std, std[0])
    aligned, _ = score_statistics(LONG_RANGE, 128, values["base"], correlation=1.0)
    assert aligned[0] > 0.9 * 128 and np.abs(aligned[LONG_RANGE > 10_000]).max() < 0.2 * 128
    assert halved_at("llama 3's base") > 3 * halved_at("base 10,000")  # 166 and 46 tokens
    assert halved_at("a small base") < 10
    assert wavelengths(128, at(ScoreVsDistance, "a small base")["base"])[-1] < 1000


def test_trained_arcs_scenes():
    from rope_viz.demos.extension_arcs import DIM, TrainedArcs
    from rope_viz.extension import first_partial_pair, unseen_angles
    from rope_viz.frequencies import inv_freq

    def arcs(scene: str) -> tuple[int, np.ndarray]:
        values = at(TrainedArcs, scene)
        theta = inv_freq(DIM, values["base"])
        unseen = unseen_angles(values["trained_length"], values["target_length"], theta)
        return first_partial_pair(values["trained_length"], theta), unseen

    first, unseen = arcs("four times longer")
    values = at(TrainedArcs, "four times longer")
    assert values["target_length"] == 4 * values["trained_length"]
    assert first < DIM // 2 and np.all(unseen[first:] > 0) and np.all(unseen[:first] == 0)
    assert arcs("llama 3's base")[0] < first
    further_first, further = arcs("a longer target")
    assert further_first == first
    longer = at(TrainedArcs, "a longer target")
    theta = inv_freq(DIM, longer["base"])
    went_further = further > unseen + 1e-9
    assert np.all(further >= unseen - 1e-9) and went_further[-4:].all()  # the slowest pairs
    sweep = longer["target_length"] * theta[first:][~went_further[first:]]
    assert sweep.size > 0 and np.all(sweep >= 2 * np.pi)  # the other shaded pairs cover the whole dial
    values = at(TrainedArcs, "train longer")
    assert values["trained_length"] == values["target_length"]
    assert np.all(arcs("train longer")[1] == 0)


def test_interpolation_resolution_scenes():
    from rope_viz.demos.extension_resolution import BASE, DIM, TOKENS, InterpolationResolution
    from rope_viz.frequencies import inv_freq
    from rope_viz.scaling import ntk_base

    def steps(scene: str) -> tuple[float, float, float]:
        values = at(InterpolationResolution, scene)
        pair, factor = round(values["pair"]), values["factor"]
        plain = inv_freq(DIM, BASE)[pair]
        return plain, inv_freq(DIM, ntk_base(BASE, factor, DIM))[pair], plain / factor

    plain, ntk, pi = steps("the fastest pair")
    assert (TOKENS - 1) * pi < plain and ntk == plain
    assert len(set(steps("no stretch"))) == 1
    plain, ntk, pi = steps("the slowest pair")
    assert at(InterpolationResolution, "the slowest pair")["pair"] == DIM // 2 - 1
    assert math.isclose(ntk, pi, rel_tol=1e-9)
    plain, _, pi = steps("stretch by 32")
    assert np.degrees((TOKENS - 1) * pi) < 15


def test_dynamic_ntk_scenes():
    from rope_viz.demos.extension_dynamic import TRAINED_LENGTH, DynamicNtk

    def slowdowns(scene: str) -> tuple[np.ndarray, np.ndarray]:
        view = view_at(DynamicNtk, scene)
        return np.asarray(view.traces[4]["y"]), np.asarray(view.traces[5]["y"])

    assert at(DynamicNtk, "twice the length")["seq_len"] == 2 * TRAINED_LENGTH
    code, paper = slowdowns("twice the length")
    assert code[-1] > paper[-1] > 1 and code[0] == paper[0] == 1
    code, paper = slowdowns("within training")
    np.testing.assert_array_equal(code, 1.0)
    np.testing.assert_array_equal(paper, 1.0)
    far_code, far_paper = slowdowns("eight times the length")
    near_code, near_paper = slowdowns("twice the length")
    assert far_paper[-1] > near_paper[-1] and far_code[-1] - far_paper[-1] > near_code[-1] - near_paper[-1]
    code, paper = slowdowns("factor 1")
    np.testing.assert_allclose(code, paper)
    view = view_at(DynamicNtk, "factor 1")
    assert view.traces[0]["y"] == view.traces[1]["y"]


def _yarn_counts(scene: str) -> tuple[dict[str, int], float]:
    from rope_viz.demos.extension_style import CLASS_STYLE
    from rope_viz.demos.extension_yarn import BASE, DIM, YarnBands, yarn_parameters
    from rope_viz.frequencies import inv_freq
    from rope_viz.scaling import classify_pairs, yarn_frequencies

    values = at(YarnBands, scene)
    frequencies, attention = yarn_frequencies(yarn_parameters(**values))
    classes = classify_pairs(inv_freq(DIM, BASE) / frequencies, values["factor"])
    return {name: int(np.count_nonzero(classes == name)) for name in CLASS_STYLE}, attention


def test_yarn_bands_scenes():
    counts, attention = _yarn_counts("three bands")
    assert min(counts.values()) > 0
    wider, _ = _yarn_counts("raise beta_fast")
    assert wider["blended"] > counts["blended"] and wider["untouched"] < counts["untouched"]
    assert wider["interpolated"] == counts["interpolated"]
    slower, _ = _yarn_counts("raise beta_slow")
    assert slower["interpolated"] > counts["interpolated"] and slower["blended"] < counts["blended"]
    stretched, larger = _yarn_counts("stretch by 64")
    assert stretched == counts and larger > attention > 1


def test_yarn_temperature_scenes():
    from rope_viz.demos.extension_temperature import TRAINED_KEYS, YarnTemperature
    from rope_viz.temperature import best_key_weight, yarn_logit_factor

    def weights(scene: str) -> tuple[float, float, float]:
        values = at(YarnTemperature, scene)
        factor, gap = values["factor"], values["gap"]
        trained, plain = best_key_weight([TRAINED_KEYS, factor * TRAINED_KEYS], gap)
        yarn = float(best_key_weight(factor * TRAINED_KEYS, gap, yarn_logit_factor(factor)))
        return float(trained), float(plain), yarn

    assert at(YarnTemperature, "a gap of 5")["factor"] == 16
    trained, plain, yarn = weights("a gap of 5")
    assert plain < trained / 5 and yarn > trained
    trained, plain, yarn = weights("a small gap")
    assert plain < yarn < trained
    trained, plain, yarn = weights("a large gap")
    assert yarn > 0.99 and yarn > trained
    trained, plain, yarn = weights("no extension")
    assert trained == plain == yarn
    assert yarn_logit_factor(at(YarnTemperature, "no extension")["factor"]) == 1


def test_llama3_blend_scenes():
    from rope_viz.demos.extension_llama3 import BASE, DIM, Llama3Blend, llama3_parameters
    from rope_viz.frequencies import inv_freq
    from rope_viz.scaling import classify_pairs, llama3_frequencies, llama3_wavelength_bands

    def bands(scene: str) -> tuple[dict[str, int], tuple[float, float], float]:
        values = at(Llama3Blend, scene)
        parameters = llama3_parameters(**values)
        slowdown = inv_freq(DIM, BASE) / llama3_frequencies(parameters)[0]
        classes = classify_pairs(slowdown, values["factor"])
        counts = {
            name: int(np.count_nonzero(classes == name)) for name in ("untouched", "blended", "interpolated")
        }
        return counts, llama3_wavelength_bands(parameters), float(slowdown.max())

    counts, (short, long), most = bands("llama 3.1")
    assert counts["untouched"] > counts["blended"] > 0 and counts["interpolated"] > counts["blended"]
    larger, edges, larger_most = bands("a larger factor")
    assert larger == counts and edges == (short, long) and larger_most > most
    lower, (short_2, long_2), _ = bands("raise low_freq_factor")
    assert long_2 == long / 2 and short_2 == short and lower["interpolated"] > counts["interpolated"]
    higher, (short_3, long_3), _ = bands("raise high_freq_factor")
    assert short_3 == short / 2 and long_3 == long
    assert higher["untouched"] < counts["untouched"] and higher["blended"] > counts["blended"]


def test_method_comparison_scenes():
    from rope_viz.demos.extension_compare import DIM, MethodComparison
    from rope_viz.extension import compare_methods, unseen_angles
    from rope_viz.frequencies import inv_freq

    def methods(scene: str) -> tuple[dict, np.ndarray, dict]:
        values = at(MethodComparison, scene)
        theta = inv_freq(DIM, values["base"])
        return compare_methods(DIM, values["base"], values["factor"], round(values["length"])), theta, values

    for scene in ("four times longer", "sixteen times longer"):
        found, theta, values = methods(scene)
        for name, (frequencies, _) in found.items():
            slowdown = theta / frequencies
            assert math.isclose(slowdown[-1], values["factor"], rel_tol=1e-9), name
            if name == "linear":
                np.testing.assert_allclose(slowdown, values["factor"])
            else:
                assert slowdown[0] == 1.0, name

    def unseen(scene: str) -> tuple[int, int]:
        found, theta, values = methods(scene)
        length = values["length"]
        target = values["factor"] * length
        plain = int(np.count_nonzero(unseen_angles(length, target, theta) > 0))
        ntk = int(np.count_nonzero(unseen_angles(length, target, theta, found["ntk"][0]) > 0))
        return plain, ntk

    from rope_viz.extension import first_partial_pair

    slow = {
        scene: first_partial_pair(4096, methods(scene)[1])
        for scene in ("sixteen times longer", "llama 3's base")
    }
    assert slow["llama 3's base"] < slow["sixteen times longer"]
    plain_llama, ntk_llama = unseen("llama 3's base")
    assert plain_llama > unseen("sixteen times longer")[0] and ntk_llama >= plain_llama - 1
    assert unseen("a longer training")[0] < unseen("four times longer")[0] / 2


def test_preset_bands_scenes():
    from rope_viz.demos.extension_presets import PRESET_ORDER, PresetBands, preset_scaling
    from rope_viz.extension import scaling_summary

    def shown(scene: str) -> tuple[object, dict[str, int]]:
        scaling = preset_scaling(PRESET_ORDER[round(at(PresetBands, scene)["preset"])])
        return scaling, scaling_summary(scaling)["counts"]

    llama, llama_counts = shown("llama 3.1")
    qwen, qwen_counts = shown("qwen2.5 with yarn")
    assert llama.rope_type == "llama3" and qwen.rope_type == "yarn"
    assert llama_counts["untouched"] > llama_counts["blended"] > 0
    assert llama_counts["interpolated"] > llama_counts["blended"]
    assert qwen_counts["blended"] > llama_counts["blended"] and qwen.factor < llama.factor
    llama_2, counts = shown("llama 2")
    assert llama_2.rope_type == "default" and counts["untouched"] == llama_2.head_dim // 2
    np.testing.assert_array_equal(llama_2.scale_per_pair, 1.0)
    phi, counts = shown("phi-3.5 mini")
    assert phi.rope_type == "longrope" and phi.seq_len > phi.parameters.original_max_position_embeddings
    assert counts["untouched"] == 0


def test_layer_map_scenes():
    from rope_viz.demos.layers_map import MODEL_ORDER, LayerMap, model_map
    from rope_viz.presets import get
    from rope_viz.scaling import attention_layer_types

    def shown(scene: str) -> tuple[dict, list[str]]:
        name = MODEL_ORDER[round(at(LayerMap, scene)["model"])]
        found = model_map(name)
        types = attention_layer_types(get(name).config) or ["full_attention"] * found["layers"]
        return found, types

    gemma3, types = shown("gemma 3")
    sliding, full = types.index("sliding_attention"), types.index("full_attention")
    assert abs(gemma3["marks"][sliding] - gemma3["marks"][full]) < 0.1
    assert np.nanmax(gemma3["colour"][:, full]) > np.nanmax(gemma3["colour"][:, sliding]) + 1
    gemma4, types = shown("gemma 4")
    full = types.index("full_attention")
    assert np.count_nonzero(np.isfinite(gemma4["colour"][:, full])) == 64 // 4  # the lowest quarter of rows
    assert np.all(np.isnan(gemma4["colour"][16:, full])) and np.all(gemma4["grey"][16:, full] == 0)
    oss, types = shown("gpt-oss")
    sliding, full = types.index("sliding_attention"), types.index("full_attention")
    np.testing.assert_array_equal(oss["colour"][:, sliding], oss["colour"][:, full])
    assert oss["marks"][sliding] != oss["marks"][full]
    scout, _ = shown("llama 4 scout")
    nope = [k for k in range(scout["layers"]) if np.all(scout["grey"][:, k] == 1)]
    assert nope == list(range(3, scout["layers"], 4))


def test_partial_rotary_scenes():
    from rope_viz.demos.layers_partial import PartialRotary, partial_rotary_wavelengths

    def waves(scene: str) -> tuple[dict, float]:
        values = at(PartialRotary, scene)
        found = partial_rotary_wavelengths(int(values["head_dim"]), values["fraction"], values["base"])
        return found, values["length"]

    quarter, length = waves("a quarter rotated")
    neox = quarter["neox"][np.isfinite(quarter["neox"])]
    proportional = quarter["proportional"][np.isfinite(quarter["proportional"])]
    assert neox.max() > 1e6 and np.count_nonzero(neox > length) > 0
    assert np.count_nonzero(proportional > length) == 0
    for scene in ("a quarter rotated", "half rotated", "the whole head"):
        found, _ = waves(scene)
        rotating = np.isfinite(found["proportional"])
        np.testing.assert_array_equal(found["proportional"][rotating], found["plain"][rotating])
    assert np.count_nonzero(np.isfinite(waves("half rotated")[0]["proportional"])) > proportional.size
    whole, _ = waves("the whole head")
    np.testing.assert_array_equal(whole["neox"], whole["plain"])
    np.testing.assert_array_equal(whole["proportional"], whole["plain"])
    phi, length = waves("phi-2's head")
    from rope_viz.presets import get, load

    phi_2 = load("phi-2")
    assert at(PartialRotary, "phi-2's head")["head_dim"] == phi_2.head_dim
    assert length == get("phi-2").config["max_position_embeddings"]
    np.testing.assert_allclose(
        phi["neox"][np.isfinite(phi["neox"])], phi_2.wavelengths[np.isfinite(phi_2.wavelengths)]
    )
    assert np.count_nonzero(phi["neox"][np.isfinite(phi["neox"])] > length) > 0


def test_temperature_family_scenes():
    from rope_viz.attention_temperatures import logit_multipliers
    from rope_viz.demos.layers_temperatures import TemperatureFamily, logit_factor_table

    configured = logit_factor_table(False)
    for key in ("yarn", "longrope", "deepseek"):
        assert np.ptp(configured[key]) == 0 and configured[key][0] > 1
    short = at(TemperatureFamily, "a short input")
    early = logit_multipliers([short["position"]], sized_to_position=False)
    for key in ("llama4", "llama_4_scaling", "qwen_logn"):
        assert early[key][0] == 1, key
    for key in ("yarn", "longrope", "deepseek"):
        assert early[key][0] > 1, key
    sized = logit_factor_table(bool(at(TemperatureFamily, "sized to m")["sized"]))
    for key in ("yarn", "longrope", "deepseek"):
        assert np.all(np.diff(sized[key]) >= 0) and sized[key][-1] > 2 * sized[key][0] - 1, key
    far = at(TemperatureFamily, "far out")
    values = logit_multipliers([far["position"]], sized_to_position=bool(far["sized"]))
    assert max(values, key=lambda key: values[key][0]) == "deepseek"


def test_mla_score_split_scenes():
    from rope_viz.demos.layers_mla import MLAScoreSplit, score_parts

    def parts(scene: str) -> dict:
        values = at(MLAScoreSplit, scene)
        return score_parts(int(values["rope_dim"]), round(values["key"]))

    wide, narrow, other = parts("a wide slice"), parts("a narrow slice"), parts("another key")
    for found in (wide, narrow, other):
        assert np.ptp(found["content"]) < 1e-9
        np.testing.assert_allclose(found["total"] - found["content"], found["rotated"], atol=1e-9)
    assert narrow["content"][0] == pytest.approx(wide["content"][0], abs=1e-9)
    assert np.ptp(narrow["total"]) < np.ptp(wide["total"]) / 2
    assert abs(other["content"][0] - wide["content"][0]) > 1 and np.ptp(other["total"]) > 1


def test_pair_axes_scenes():
    from rope_viz.demos.vision_pair_axes import PairAxes
    from rope_viz.demos.vision_style import IMAGE_TOKENS, LANGUAGE_HEAD_DIM, LAYOUTS
    from rope_viz.frequencies import inv_freq
    from rope_viz.mrope import pair_axes

    def fastest_width(scene: str) -> tuple[int, float, np.ndarray]:
        values = at(PairAxes, scene)
        _, section, interleaved, _ = LAYOUTS[round(values["layout"])]
        axes = pair_axes(section, interleaved=interleaved)
        width = np.flatnonzero(axes == 2)
        turns = IMAGE_TOKENS * inv_freq(LANGUAGE_HEAD_DIM, values["base"]) / (2 * np.pi)
        return int(width[0]), float(turns[width[0]]), axes

    pair, turns, axes = fastest_width("chunks")
    assert turns < 0.01 and pair > 32
    assert np.all(axes[:16] == 0) and np.all(axes[16:] != 0)  # the fastest 16 pairs follow time, only they
    pair, turns, axes = fastest_width("interleaved")
    assert turns > 2 and {0, 1, 2} <= set(axes[:3].tolist())
    small_pair, small_turns, _ = fastest_width("a smaller base")
    chunk_pair, chunk_turns, _ = fastest_width("chunks")
    assert small_pair == chunk_pair and chunk_turns < small_turns < 1


def test_mixed_sequence_ids_scenes():
    from rope_viz.demos.vision_position_ids import RESUME_RULES, MixedSequenceIds, mixed_sequence
    from rope_viz.mrope import position_ids

    def ids(scene: str) -> tuple[np.ndarray, list]:
        values = at(MixedSequenceIds, scene)
        segments = mixed_sequence(round(values["rows"]), round(values["cols"]), round(values["frames"]))
        return position_ids(segments, resume=RESUME_RULES[round(values["resume"])]), segments

    found, segments = ids("the image")
    start, image = segments[0].tokens, segments[1]
    end = start + image.rows * image.cols  # index of the first text token after the image
    assert found[0, end] == found[:, start:end].max() + 1 < end
    found, segments = ids("a longer video")
    video_start = end + segments[2].tokens
    video = slice(video_start, video_start + segments[3].frames * 4)
    assert found[0, video].max() > found[1:, video].max()
    assert found[0, -2] == found[:, : video.stop].max() + 1
    code, _ = ids("transformers' rule")
    assert code[0, -2] == found[0, video_start] + max(segments[3].rows, segments[3].cols)
    assert code[0, -2] <= found[0, video].max()  # an id the video already holds


def test_patch_score_map_scenes():
    from rope_viz.demos.vision_patch_scores import GRID, NEIGHBOUR, PatchScoreMap, scheme_scores

    def scores(scene: str) -> tuple[np.ndarray, tuple[int, int]]:
        values = at(PatchScoreMap, scene)
        query = (round(values["row"]), round(values["col"]))
        return scheme_scores(round(values["scheme"]), GRID, query), query

    def neighbour(found: np.ndarray, query: tuple[int, int]) -> float:
        return float(found[query[0] + NEIGHBOUR[0], query[1] + NEIGHBOUR[1]])

    axial, query = scores("axial")
    assert np.unravel_index(np.argmax(axial), axial.shape) == query and axial.min() < 0.8
    moved, moved_query = scores("move the query")
    assert moved_query != query
    assert neighbour(moved, moved_query) == pytest.approx(neighbour(axial, query), abs=1e-12)
    mixed, _ = scores("rope-mixed")
    assert abs(neighbour(mixed, query) - neighbour(axial, query)) > 1e-3
    chunks, _ = scores("m-rope chunks")
    assert chunks.min() > 0.99
    interleaved, _ = scores("m-rope interleaved")
    assert interleaved.min() < 0.9 < chunks.min()


def test_weight_permutation_scenes():
    from rope_viz.demos.code_permutation import (
        HEAD_DIM,
        WEIGHT_Q,
        WeightPermutation,
        loaded,
        reference_scores,
        scores_by_offset,
    )

    def curves(scene: str) -> tuple[np.ndarray, np.ndarray, int]:
        values = at(WeightPermutation, scene)
        setup = round(values["setup"])
        return (
            scores_by_offset(*loaded(setup), values["base"], "half"),
            reference_scores(values["base"]),
            setup,
        )

    converted, trained, _ = curves("the conversion")
    np.testing.assert_allclose(converted, trained, atol=1e-9)
    neither, trained, _ = curves("neither permuted")
    assert neither[0] == pytest.approx(trained[0], abs=1e-9) and np.abs(neither - trained)[1:].max() > 1
    only_q, trained, _ = curves("only w_q permuted")
    assert abs(only_q[0] - trained[0]) > 1
    one_head, trained, setup = curves("the wrong head count")
    assert abs(one_head[0] - trained[0]) > 1
    head_0 = loaded(setup)[0][:HEAD_DIM]  # the rows head 0 runs with
    from_head_1 = [any(np.array_equal(row, other) for other in WEIGHT_Q[HEAD_DIM:]) for row in head_0]
    assert any(from_head_1) and not all(from_head_1)


def test_angle_precision_scenes():
    from rope_viz.demos.code_precision import DIM, HELD_NAMES, MAX_POSITION, SHOWN_FORMATS, AnglePrecision
    from rope_viz.frequencies import inv_freq
    from rope_viz.precision import angle_errors, worst_errors_by_position

    def setting(scene: str) -> tuple[float, str, str]:
        values = at(AnglePrecision, scene)
        theta = float(inv_freq(DIM, values["base"])[round(values["pair"])])
        return theta, SHOWN_FORMATS[round(values["format"])], HELD_NAMES[round(values["held"])]

    theta, number_format, held = setting("bfloat16 positions")
    errors = angle_errors(np.arange(1, 10_001), [theta], number_format, held=held)[:, 0]
    assert errors[:256].max() == 0
    first = int(np.flatnonzero(errors > 0)[0])
    assert first + 1 > 256 and errors[first] == pytest.approx(theta, rel=1e-6)
    theta, number_format, held = setting("float32 positions")
    _, worst = worst_errors_by_position(MAX_POSITION, theta, number_format, held=held, samples_per_bin=400)
    assert np.all(worst == 0)
    theta, number_format, held = setting("float32 angles")
    _, worst = worst_errors_by_position(MAX_POSITION, theta, number_format, held=held, samples_per_bin=400)
    assert 0 < worst.max() < theta / 10
    theta, number_format, held = setting("float16 positions")
    _, worst = worst_errors_by_position(MAX_POSITION, theta, number_format, held=held, samples_per_bin=400)
    assert np.isinf(worst).any() and np.isfinite(worst[0])


@pytest.mark.parametrize("demo_class", rope_viz.demos.all_demos(), ids=lambda cls: cls.__name__)
def test_the_site_payload_and_the_live_widget_carry_every_scene_at_its_values(demo_class):
    """The site's figure and the live widget name the same scenes, and each of their slider indices points
    at the scene's value: in the site's steps and in the live widget's finer steps."""
    from rope_viz.figures.static import build_payload
    from rope_viz.widgets.live import live_widget

    demo = demo_class()
    payload = build_payload(demo)
    widget = live_widget(demo)
    assert [scene["name"] for scene in payload["scenes"]] == [scene.name for scene in demo.scenes]
    assert [scene["name"] for scene in widget.scenes] == [scene.name for scene in demo.scenes]
    for scene, site, live in zip(demo.scenes, payload["scenes"], widget.scenes, strict=True):
        values = list(demo.scene_values(scene).values())
        assert site["caption"] == live["caption"] == scene.caption
        steps = zip(demo.controls, site["indices"], strict=True)
        site_values = [control.site_values[k] for control, k in steps]
        live_values = [grid[k] for grid, k in zip(widget.grids, live["indices"], strict=True)]
        assert site_values == values
        assert live_values == pytest.approx(values)
