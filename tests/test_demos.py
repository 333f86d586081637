"""Every demo in rope_viz.demos, checked the same way: valid Plotly figure, consistent views, every control
changes what is plotted, the site payload stays small, and the live widget follows its sliders, including at
values between the site's precomputed steps."""

from __future__ import annotations

import itertools
import json

import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rope_viz.demos
from rope_viz.demos.base import (
    NARROWEST_PLOT_WIDTH,
    PHONE_PLOT_WIDTH,
    SMALLEST_PLOT_WIDTH,
    TALLEST_PHONE_PLOT,
    Control,
    Demo,
    View,
    _set_path,
)
from rope_viz.demos.clock_face import spaced_labels
from rope_viz.demos.rotation_2d import SignConvention
from rope_viz.figures.direct_drawing import (
    a_blank_label,
    with_a_point_in_every_state,
    with_centred_annotations,
)
from rope_viz.figures.static import (
    MAX_PAYLOAD_BYTES,
    build_payload,
    site_figure,
)
from rope_viz.site.sphinx_ext import PLOTLY_BUNDLE_TRACE_TYPES
from rope_viz.widgets.live import live_widget

DEMOS = rope_viz.demos.all_demos()


def test_the_demos_are_found():
    assert "MultiSpeedClocks" in [cls.__name__ for cls in DEMOS]


@pytest.fixture(params=DEMOS, ids=lambda cls: cls.__name__)
def demo(request) -> Demo:
    return request.param()


def _apply(figure: dict, view: View) -> dict:
    figure = json.loads(json.dumps(figure, default=lambda value: np.asarray(value).tolist()))
    for trace, update in zip(figure["data"], view.traces, strict=True):
        for path, value in update.items():
            _set_path(trace, path, value if not isinstance(value, np.ndarray) else value.tolist())
    for path, value in view.layout.items():
        _set_path(figure["layout"], path, value)
    return figure


def _plotted(view: View) -> str:
    return json.dumps(view.traces, sort_keys=True, default=lambda value: np.asarray(value).tolist())


def test_demo_declares_a_title_and_controls(demo):
    assert demo.title
    assert demo.controls
    assert len({control.name for control in demo.controls}) == len(demo.controls)


def test_initial_figure_is_a_valid_plotly_figure_with_labelled_axes(demo):
    figure = go.Figure(demo.initial_figure())  # plotly.py validates every attribute name and value
    layout = figure.layout
    for axis_name in [name for name in layout.to_plotly_json() if name.startswith(("xaxis", "yaxis"))]:
        axis = layout[axis_name]
        if axis.visible is not False:
            assert axis.title.text, f"{axis_name} has no title"


def test_equal_scales_narrow_a_domain_not_widen_a_range(demo):
    """An axis held to another's scale, and that other axis, are constrained by their domains: Plotly writes a
    range it widened to keep the scales equal back into the layout and widens it again at every resize, so
    each turn of a phone shrank the clock faces of chapters 2, 3 and 6 (by half after four turns)."""
    layout = demo.initial_figure()["layout"]
    for name, axis in layout.items():
        anchor = axis.get("scaleanchor") if isinstance(axis, dict) else None
        if anchor:
            other = f"{anchor[0]}axis{anchor[1:]}"
            assert axis.get("constrain") == "domain", f"{name} keeps its scale by widening its range"
            assert layout[other].get("constrain") == "domain", f"{other} keeps {name}'s scale by its range"


def test_demo_narrows_its_plot_only_as_far_as_allowed(demo):
    """The width a demo's plot is laid out at on a phone is a whole number of px from 440 to 640, the site's
    payload carries it, and a plot laid out narrower than 640 px is shown no taller than 600 px there."""
    width = demo.narrow_layout_width()
    assert SMALLEST_PLOT_WIDTH <= width <= NARROWEST_PLOT_WIDTH
    assert build_payload(demo)["narrowest"] == width
    if width < NARROWEST_PLOT_WIDTH:
        shown = demo.base_figure()["layout"]["height"] * PHONE_PLOT_WIDTH / width
        assert shown <= TALLEST_PHONE_PLOT, f"shown {shown:.0f} px tall on a phone"


def test_a_plot_width_outside_the_bounds_is_refused():
    class TooNarrow(SignConvention):
        narrowest_plot_width = 300

    class NotWhole(SignConvention):
        narrowest_plot_width = 500.5

    for demo in (TooNarrow(), NotWhole()):
        with pytest.raises(ValueError, match=r"narrowest_plot_width must be a whole number from 440 to 640"):
            demo.narrow_layout_width()


def test_demo_uses_only_trace_types_of_the_served_plotly_bundle(demo):
    used = {trace.get("type", "scatter") for trace in demo.base_figure()["data"]}
    assert used <= PLOTLY_BUNDLE_TRACE_TYPES, (
        f"not in the site's plotly.js bundle: {used - PLOTLY_BUNDLE_TRACE_TYPES}"
    )
    assert not any(key.startswith("polar") for key in demo.base_figure()["layout"])


def test_demo_leaves_the_hover_labels_font_size_to_plotly(demo):
    """The phone's rule in ``rope-viz-figures.css`` gives a scaled plot's hover labels Plotly's default size
    back (13 px): a figure with a size of its own would get that one instead."""
    base = demo.base_figure()
    sizes = [
        (where, part.get("hoverlabel", {}).get("font", {}).get("size"))
        for where, part in [("layout", base["layout"]), *(("trace", trace) for trace in base["data"])]
    ]
    assert [size for _, size in sizes if size is not None] == [], sizes


def test_demo_leaves_the_colour_of_its_words_to_the_theme(demo):
    """Words drawn in the plot (point labels, annotations) take the theme's text colour, which the figure
    script sets for light and dark: no grey or trace colour reaches 4.5:1 against both the white and the dark
    page (the browser audit measures every word, ``tests/site/plot_text.py``)."""
    base = demo.base_figure()
    coloured = [
        (f"trace {index}", trace["textfont"]["color"])
        for index, trace in enumerate(base["data"])
        if (trace.get("textfont") or {}).get("color") is not None
    ] + [
        (f"annotation {annotation.get('text', '')!r}", annotation["font"]["color"])
        for annotation in base["layout"].get("annotations") or []
        if (annotation.get("font") or {}).get("color") is not None
    ]
    assert coloured == [], coloured


def test_every_site_state_is_a_valid_figure(demo):
    base = demo.base_figure()
    grids = [control.site_values for control in demo.controls]
    combinations = list(itertools.product(*grids))
    # all states for small grids; a spread sample for large ones
    step = max(1, len(combinations) // 60)
    for combination in combinations[::step]:
        values = dict(zip([control.name for control in demo.controls], combination, strict=True))
        view = demo.view(**values)
        assert len(view.traces) == len(base["data"])
        go.Figure(_apply(base, view))


def test_every_control_changes_the_plot(demo):
    defaults = demo.defaults()
    reference = _plotted(demo.view(**defaults))
    for control in demo.controls:
        changed = False
        for value in control.site_values:
            if value == control.default:
                continue
            if _plotted(demo.view(**{**defaults, control.name: value})) != reference:
                changed = True
                break
        assert changed, f"moving {control.name} never changes the plotted data"


def test_site_payload_is_complete_and_small(demo):
    payload = build_payload(demo)
    expected_states = int(np.prod([len(control.site_values) for control in demo.controls]))
    assert len(payload["states"]) == expected_states
    assert payload["strides"][-1] == 1
    figure = site_figure(demo)
    assert len(figure.payload_json.encode()) <= MAX_PAYLOAD_BYTES
    html = figure.to_html()
    assert html.count('type="range"') == len(demo.controls)
    assert "<script src" not in html, "the site figure must not load scripts itself"


def _resolved(value, arrays: list):
    if isinstance(value, dict) and "$ref" in value:
        return arrays[value["$ref"]]
    return value


def test_site_scatter_traces_are_empty_in_every_state_or_in_none(demo):
    """Plotly draws no SVG group for an empty trace, and the page's direct drawing has then nothing to draw
    into: a scatter trace that is empty in some states must carry a missing point there instead."""
    payload = build_payload(demo)
    for k, trace in enumerate(payload["figure"]["data"]):
        if trace.get("type", "scatter") != "scatter":
            continue
        lengths = {
            len(_resolved(state["t"][k].get("x", trace.get("x", [None])), payload["arrays"]) or [])
            for state in payload["states"]
        }
        assert 0 not in lengths or lengths == {0}, f"trace {k} ({trace.get('name')}): lengths {lengths}"


def test_empty_states_of_a_trace_get_one_missing_point():
    figure = {"data": [{"type": "scatter", "x": [], "y": []}, {"type": "scatter", "x": [], "y": []}]}
    views = [
        View(traces=[{"x": [], "y": [], "text": []}, {}]),
        View(traces=[{"x": [1.0, 2.0], "y": [3.0, 4.0], "text": ["a", "b"]}, {}]),
    ]
    out = with_a_point_in_every_state(figure, views, default=0)
    assert out[0].traces[0] == {"x": [None], "y": [None], "text": [None]}
    assert out[1].traces[0] == views[1].traces[0]
    assert figure["data"][0]["x"] == [None] and figure["data"][0]["y"] == [None]
    # Empty in every state: left alone.
    assert figure["data"][1] == {"type": "scatter", "x": [], "y": []}
    assert [view.traces[1] for view in out] == [{}, {}]


def test_a_trace_whose_labels_are_all_empty_gets_one_blank_label():
    trace = {"type": "scatter", "mode": "lines+text", "x": [1.0, 2.0], "y": [0.0, 1.0]}
    assert a_blank_label({"text": ["", ""]}, trace) == {"text": [" ", ""]}
    assert a_blank_label({"text": ["", None, ""]}, trace) == {"text": [" ", None, ""]}
    # A label already there, no text mode, no points, or one label for every point: left as it is.
    assert a_blank_label({"text": ["", "m = 4"]}, trace) == {"text": ["", "m = 4"]}
    assert a_blank_label({"text": ["", ""]}, {**trace, "mode": "lines"}) == {"text": ["", ""]}
    assert a_blank_label({"text": [None], "x": [None]}, trace) == {"text": [None], "x": [None]}
    assert a_blank_label({"text": []}, trace) == {"text": []}
    assert a_blank_label({"text": ""}, trace) == {"text": ""}
    # The labels may come from the trace itself, and the mode from the update.
    assert a_blank_label({}, {**trace, "text": ["", ""]}) == {"text": [" ", ""]}
    assert a_blank_label({"mode": "text", "text": [""]}, {**trace, "mode": "lines"}) == {
        "mode": "text",
        "text": [" "],
    }


def test_site_text_traces_have_a_label_in_every_drawn_state(demo):
    """Plotly draws no <text> for an empty label, and the direct drawing copies one it drew for the same
    trace: a trace drawn with text and with points must have a label, blank or not, in every state."""
    payload = build_payload(demo)
    arrays = payload["arrays"]
    for k, trace in enumerate(payload["figure"]["data"]):
        if "text" not in str(trace.get("mode", "")):
            continue
        for state in [{"t": [{}] * len(payload["figure"]["data"])}, *payload["states"]]:
            update = state["t"][k]
            labels = _resolved(update.get("text", trace.get("text")), arrays)
            xs = _resolved(update.get("x", trace.get("x")), arrays)
            if isinstance(labels, list) and labels and xs and any(x is not None for x in xs):
                assert any(label not in ("", None) for label in labels), f"trace {k} ({trace.get('name')})"


@given(
    st.lists(st.floats(min_value=-720.0, max_value=720.0, allow_nan=False), max_size=12),
    st.floats(min_value=0.5, max_value=90.0),
)
def test_spaced_labels_keep_the_first_and_never_crowd(angles, gap):
    labels = spaced_labels(angles, gap)
    kept = [k for k, label in enumerate(labels) if label]
    assert all(labels[k] == str(k) for k in kept)
    assert (kept[:1] == [0]) if angles else labels == []

    def around(a: float, b: float) -> float:
        return abs((a - b + 180.0) % 360.0 - 180.0)

    for a, b in itertools.combinations(kept, 2):
        assert around(angles[a], angles[b]) >= gap - 1e-9
    # Every label left out would have crowded one kept.
    for k in set(range(len(angles))) - set(kept):
        assert any(around(angles[k], angles[j]) < gap + 1e-9 for j in kept)


def test_spaced_labels_refuse_a_gap_that_is_not_positive():
    for gap in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="gap_degrees"):
            spaced_labels([0.0, 90.0], gap)


def test_site_annotations_whose_words_change_are_centred(demo):
    """The direct drawing writes new words only into a centred annotation without an arrow (words of another
    width stay centred on the same point); any other annotation whose words change is redrawn by Plotly."""
    payload = build_payload(demo)
    states, arrays = payload["states"], payload["arrays"]
    for k, annotation in enumerate(payload["figure"]["layout"].get("annotations", [])):
        texts = {json.dumps(_resolved(state["l"].get(f"annotations[{k}].text"), arrays)) for state in states}
        if len(texts) > 1:
            assert annotation.get("showarrow") is False, f"annotation {k} has an arrow"
            assert annotation.get("xanchor") == "center", f"annotation {k}: {annotation.get('xanchor')!r}"


def test_annotations_plotly_centres_by_default_are_marked_centred():
    def annotation(**spec):
        return {"text": "a", "showarrow": False, **spec}

    layout = {
        "annotations": [
            annotation(x=3.0),  # on the x axis: Plotly centres it
            annotation(x=0.5, xref="paper"),  # a third to two thirds of the paper: centred
            annotation(x=0.2, xref="paper"),  # left of that: anchored on its left side
            annotation(x=0.9, xref="x domain"),  # right of that: anchored on its right side
            annotation(x=0.5, xref="paper", xanchor="left"),  # its own anchor
            annotation(x=0.5, xref="paper"),  # moved by the views: its anchor would follow
            {"text": "b", "x": 1.0},  # with Plotly's default arrow
        ]
    }
    with_centred_annotations(layout, [View(traces=[], layout={"annotations[5].x": 0.9})])
    anchors = [spec.get("xanchor") for spec in layout["annotations"]]
    assert anchors == ["center", "center", None, None, "left", None, None]


def _between(control: Control, rng: np.random.Generator) -> float:
    """A value inside the live range that the site does not precompute."""
    if control.choices is not None:
        return float(rng.choice(control.choices))
    if control.log:
        value = float(10 ** rng.uniform(np.log10(control.minimum), np.log10(control.maximum)))
    else:
        value = float(rng.uniform(control.minimum, control.maximum))
    return float(round(value)) if control.integer else value


def test_live_widget_follows_its_sliders_between_the_site_steps(demo, monkeypatch):
    widget = live_widget(demo)
    sent = []
    monkeypatch.setattr(widget, "send", lambda content, buffers=None: sent.append(content))
    rng = np.random.default_rng(0)
    for _ in range(3):
        values = {control.name: _between(control, rng) for control in demo.controls}
        widget.set_values(**values)
        expected = _apply(demo.base_figure(), demo.view(**widget.values()))
        state = next(message["state"] for message in reversed(sent) if message["type"] == "state")
        for index, trace in enumerate(expected["data"]):
            for key in ("x", "y", "z"):
                if key in trace and key in state["t"][index]:
                    if len(trace[key]) == 0:  # an empty trace keeps its SVG group with one missing point
                        assert state["t"][index][key] == [None]
                        continue
                    np.testing.assert_allclose(
                        np.asarray(state["t"][index][key], dtype=float),
                        np.asarray(trace[key], dtype=float),
                        err_msg=f"trace {index} {key}",
                    )


def test_control_rejects_inconsistent_definitions():
    with pytest.raises(ValueError, match="default"):
        Control("m", "m", (1, 2), 3, 0, 10)
    with pytest.raises(ValueError, match="minimum"):
        Control("m", "m", (1, 20), 1, 0, 10)
    with pytest.raises(ValueError, match="log"):
        Control("b", "b", (1, 2), 1, 0, 10, log=True)


def test_control_formats_values_for_readers():
    assert Control("m", "position", (4096,), 4096, 0, 10**5, unit="tokens").format(4096) == "4,096 tokens"
    assert Control("b", "base", (10_000.0,), 10_000.0, 10, 10**6, log=True).format(10_000.0) == "10⁴"


def test_live_integer_controls_on_a_log_scale_snap_to_whole_numbers(monkeypatch):
    from rope_viz.demos.extension_arcs import TrainedArcs

    widget = live_widget(TrainedArcs())
    monkeypatch.setattr(widget, "send", lambda content, buffers=None: None)
    widget.set_values(trained_length=5000.7)
    assert float(widget.values()["trained_length"]).is_integer()
    assert abs(widget.values()["trained_length"] - 5000.7) < 60  # the nearest of 100 steps per decade
    assert isinstance(widget.values()["base"], float)


def _legend_look(trace: dict, layout: dict) -> str:
    """What a trace's legend entry shows: its kind, line (colour, dash, width) and marker (symbol, colour)."""
    mode = trace.get("mode", "lines+markers" if trace.get("type", "scatter") == "scatter" else "")
    line = trace.get("line", {})
    marker = trace.get("marker", {})
    colorway = layout.get("colorway")
    return json.dumps(
        [
            trace.get("type", "scatter"),
            mode,
            trace.get("fill", "none"),
            trace.get("fillcolor") if trace.get("fill", "none") != "none" else None,
            line.get("color") if "lines" in mode or trace.get("fill") else None,
            line.get("dash", "solid") if "lines" in mode else None,
            marker.get("symbol", "circle") if "markers" in mode else None,
            marker.get("color") if "markers" in mode or trace.get("type") == "bar" else None,
            colorway,
        ],
        default=lambda value: np.asarray(value).tolist(),
    )


def test_every_legend_entry_looks_different_from_the_others(demo):
    """Two entries of one legend drawn alike (same kind, colour, dash and marker) could not be told apart."""
    figure = demo.initial_figure()
    layout = figure.get("layout", {})
    if layout.get("showlegend") is False:
        return
    entries: dict[str, str] = {}
    for trace in figure["data"]:
        if trace.get("showlegend") is False or not trace.get("name") or trace.get("visible") is False:
            continue
        if trace.get("type", "scatter") not in ("scatter", "bar"):
            continue
        look = _legend_look(trace, layout)
        legend = trace.get("legend", "legend")
        other = entries.setdefault(legend + look, trace["name"])
        assert other == trace["name"], f"{trace['name']!r} is drawn in its legend as {other!r} is"
