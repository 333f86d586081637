"""The live widget: its states are the site's states, its sliders reach every live value, and it answers the
browser's messages as the figure script expects (the browser side itself is driven in tests/live)."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rope_viz.demos
from rope_viz.demos.base import Control, Demo
from rope_viz.figures.live_states import LiveStates
from rope_viz.figures.static import build_payload
from rope_viz.site.sphinx_ext import PLOTLY_BUNDLE
from rope_viz.widgets import LiveFigure, figure_library, live_values, live_widget
from rope_viz.widgets.library import library_module
from rope_viz.widgets.live import LOG_STEPS_PER_DECADE, MAX_STATES_AHEAD, live_texts

DEMOS = rope_viz.demos.all_demos()


@pytest.fixture(params=DEMOS, ids=lambda cls: cls.__name__)
def demo(request) -> Demo:
    return request.param()


class Sent:
    """Record what a widget sends to the browser instead of sending it."""

    def __init__(self, widget: LiveFigure, monkeypatch: pytest.MonkeyPatch) -> None:
        self.messages: list[dict] = []
        monkeypatch.setattr(widget, "send", lambda content, buffers=None: self.messages.append(content))

    def states(self) -> list[dict]:
        return [message for message in self.messages if message["type"] == "state"]


def _resolve(value, arrays):
    if isinstance(value, dict) and set(value) == {"$ref"}:
        return arrays[value["$ref"]]
    return value


def _effective_range(layout: dict, state_layout: dict, axis: str):
    return state_layout.get(f"{axis}.range", layout.get(axis, {}).get("range"))


def test_live_states_show_the_site_states(demo):
    """At every site state (a spread sample), the live state plots the same data on the same axis ranges."""
    payload = build_payload(demo)
    live = LiveStates(demo)
    grids = [control.site_values for control in demo.controls]
    combinations = list(itertools.product(*grids))
    step = max(1, len(combinations) // 25)
    axes = [name for name in payload["figure"]["layout"] if name.startswith(("xaxis", "yaxis"))]
    for index in range(0, len(combinations), step):
        values = dict(zip((control.name for control in demo.controls), combinations[index], strict=True))
        site = payload["states"][index]
        state = live.encode(demo.view(**values))
        json.dumps(state, allow_nan=False)
        assert state["r"] == site["r"]
        for site_trace, live_trace in zip(site["t"], state["t"], strict=True):
            for path, value in site_trace.items():
                assert live_trace[path] == _resolve(value, payload["arrays"]), path
        for axis in axes:
            site_range = _effective_range(payload["figure"]["layout"], site["l"], axis)
            if site_range is not None:
                live_range = _effective_range(live.figure["layout"], state["l"], axis)
                np.testing.assert_allclose(_resolve(live_range, payload["arrays"]), site_range, err_msg=axis)


def _labels(figure: dict, state: dict, arrays: dict) -> dict:
    """The tick labels a state shows: of each axis, and of each trace's colour bar (state, else figure)."""
    layout = figure["layout"]
    axes = {
        axis: _resolve(state["l"].get(f"{axis}.ticktext", layout[axis].get("ticktext")), arrays)
        for axis in layout
        if axis.startswith(("xaxis", "yaxis"))
    }
    bars = {
        k: _resolve(update.get("colorbar.ticktext", trace.get("colorbar", {}).get("ticktext")), arrays)
        for k, (trace, update) in enumerate(zip(figure["data"], state["t"], strict=True))
    }
    return {"axes": axes, "colour bars": bars}


def test_live_states_label_axes_and_colour_bars_as_the_site_does(demo):
    """At every site state (a spread sample), the live figure writes the same tick labels on its axes and
    colour bars: a view's chosen ticks and a colour bar's own words (chapter 8's "no RoPE") included."""
    payload = build_payload(demo)
    live = LiveStates(demo)
    combinations = list(itertools.product(*(control.site_values for control in demo.controls)))
    step = max(1, len(combinations) // 25)
    for index in range(0, len(combinations), step):
        values = dict(zip((control.name for control in demo.controls), combinations[index], strict=True))
        site = _labels(payload["figure"], payload["states"][index], payload["arrays"])
        shown = _labels(live.figure, live.encode(demo.view(**values)), {})
        # An axis whose range never moves keeps Plotly's own ticks on the site; the live figure, which cannot
        # know that, writes them out: compare the axes both label.
        for axis, labels in site["axes"].items():
            if labels is not None and shown["axes"][axis] is not None:
                assert shown["axes"][axis] == labels, (axis, values)
        assert shown["colour bars"] == site["colour bars"], values


def test_live_initial_figure_has_explicit_ticks_wherever_a_state_sets_a_range(demo):
    live = LiveStates(demo)
    state = live.encode(demo.view(**demo.defaults()))
    for path in state["l"]:
        if path.endswith(".range") and path.split(".")[0][1:5] == "axis":
            axis = live.figure["layout"][path.split(".")[0]]
            assert axis["tickmode"] == "array" and axis["autorange"] is False
            assert f"{path.split('.')[0]}.ticktext" in state["l"]


def test_live_values_include_the_site_values_in_order(demo):
    for control in demo.controls:
        values = live_values(control)
        assert list(values) == sorted(set(values))
        assert set(control.site_values) <= set(values)
        assert values[0] >= control.minimum and values[-1] <= control.maximum
        if control.integer:
            assert all(float(value).is_integer() for value in values)
        texts = [control.format(value) for value in values]
        assert len(texts) == len(values)


@given(
    low=st.floats(1.0, 1e3),
    decades=st.floats(0.5, 5.0),
    integer=st.booleans(),
)
@settings(max_examples=60, deadline=None)
def test_log_sliders_step_evenly_in_log_space(low, decades, integer):
    if integer:
        low = float(round(low))
    high = low * 10**decades
    control = Control("b", "base b", (low,), low, low, high, log=True, integer=integer)
    values = np.asarray(live_values(control))
    assert values[0] == pytest.approx(low) and values[-1] <= high * (1 + 1e-12)
    ratios = values[1:] / values[:-1]
    assert np.all(ratios > 1)
    if not integer:
        # LOG_STEPS_PER_DECADE equal steps per decade: every step multiplies by the same ratio
        steps = round(decades * LOG_STEPS_PER_DECADE)
        assert ratios.max() == pytest.approx(10 ** (decades / steps), rel=1e-6)


def test_widget_answers_the_browser_with_the_state_at_the_slider_indices(demo, monkeypatch):
    widget = live_widget(demo)
    sent = Sent(widget, monkeypatch)
    rng = np.random.default_rng(1)
    indices = [int(rng.integers(len(grid))) for grid in widget.grids]
    widget._on_message(widget, {"type": "state", "key": "k", "indices": indices, "current": True}, [])
    (message,) = sent.states()
    values = {
        control.name: grid[i] for control, grid, i in zip(demo.controls, widget.grids, indices, strict=True)
    }
    assert message["key"] == ",".join(map(str, indices))
    assert message["state"] == LiveStates(demo).encode(demo.view(**values))
    assert widget.values() == values
    # A state asked for ahead of time (the browser warming up) does not move the sliders.
    other = [0] * len(indices)
    widget._on_message(widget, {"type": "state", "key": "k", "indices": other, "current": False}, [])
    assert widget.values() == values
    # The browser went back to a state it holds: no answer, but the kernel knows where the sliders are.
    widget._on_message(widget, {"type": "position", "indices": other}, [])
    assert len(sent.states()) == 2
    assert list(widget.values().values()) == [grid[0] for grid in widget.grids]


def test_widget_rejects_malformed_indices(monkeypatch):
    widget = live_widget(DEMOS[0]())
    Sent(widget, monkeypatch)
    with pytest.raises(ValueError, match="slider indices"):
        widget._on_message(widget, {"type": "state", "indices": [0]}, [])
    with pytest.raises(ValueError, match="outside"):
        widget._on_message(widget, {"type": "state", "indices": [10**9] * len(widget.grids)}, [])


def test_set_values_moves_the_sliders_to_the_nearest_live_value(demo, monkeypatch):
    widget = live_widget(demo)
    sent = Sent(widget, monkeypatch)
    rng = np.random.default_rng(0)
    wanted = {}
    for control in demo.controls:
        if control.choices is not None:
            wanted[control.name] = float(rng.choice(control.choices))
        elif control.log:
            wanted[control.name] = float(
                10 ** rng.uniform(math.log10(control.minimum), math.log10(control.maximum))
            )
        else:
            wanted[control.name] = float(rng.uniform(control.minimum, control.maximum))
    widget.set_values(**wanted)
    for control, grid in zip(demo.controls, widget.grids, strict=True):
        shown = widget.values()[control.name]
        nearest = min(grid, key=lambda value: abs(value - wanted[control.name]))
        assert shown == nearest
    state_message, indices_message = sent.messages
    assert state_message["pushed"] is True
    assert state_message["state"] == LiveStates(demo).encode(demo.view(**widget.values()))
    assert indices_message == {"type": "indices", "indices": widget._indices}
    with pytest.raises(ValueError, match="no control"):
        widget.set_values(nonsense=1.0)


def test_one_library_per_kernel_carries_plotly_and_the_figure_scripts():
    first, second = live_widget(DEMOS[0]()), live_widget(DEMOS[1]())
    assert first.library is second.library is figure_library()
    module = library_module()
    assert PLOTLY_BUNDLE.read_text(encoding="utf-8").splitlines()[1] in module
    assert "window.RopeVizFigures" in module and "window.RopeVizDirect" in module
    assert module.rstrip().endswith("export default { initialize() {} };")
    # A figure carries its own state, not plotly.js: well under the 1 MB a figure may cost.
    for cls in DEMOS:
        widget = live_widget(cls())
        size = len(json.dumps(widget.get_state(), default=str))
        assert size < 200_000, f"{cls.__name__}: {size:,} bytes"


def test_widget_answers_a_question_about_the_states_along_a_slider(demo, monkeypatch):
    widget = live_widget(demo)
    sent = Sent(widget, monkeypatch)
    k = max(range(len(widget.grids)), key=lambda j: len(widget.grids[j]))
    base = list(widget._indices)
    before = widget.values()
    question = {"type": "states", "indices": base, "slider": k, "from": base[k] - 3, "to": base[k] + 40}
    widget._on_message(widget, question, [])
    (message,) = sent.messages
    assert message["type"] == "states"
    entries = message["entries"]
    assert 1 <= len(entries) <= MAX_STATES_AHEAD
    assert widget.ahead == MAX_STATES_AHEAD  # the browser asks for no more than the kernel answers
    reach = [int(key.split(",")[k]) for key, _ in entries]
    # nearest to the thumb first, within the asked range and the grid
    assert [abs(index - base[k]) for index in reach] == sorted(abs(index - base[k]) for index in reach)
    assert all(max(0, base[k] - 3) <= index <= min(len(widget.grids[k]) - 1, base[k] + 40) for index in reach)
    for key, state in entries[:3]:
        indices = [int(part) for part in key.split(",")]
        values = {c.name: g[i] for c, g, i in zip(demo.controls, widget.grids, indices, strict=True)}
        assert state == LiveStates(demo).encode(demo.view(**values))
    assert widget.values() == before  # asked ahead: the sliders have not moved
    with pytest.raises(ValueError, match="whole numbers"):
        widget._on_message(widget, {**question, "slider": "x"}, [])


def test_every_step_of_a_live_slider_reads_differently(demo):
    widget = live_widget(demo)
    for control, grid, shown in zip(demo.controls, widget.grids, widget.controls, strict=True):
        texts = shown["texts"]
        assert texts == live_texts(control, grid)
        assert len(set(texts)) == len(texts), f"{control.name}: two steps show the same text"
        # The site's values read as on the site whenever three digits tell the steps apart.
        if len({control.format(value) for value in grid}) == len(grid):
            assert texts == [control.format(value) for value in grid]


def test_live_texts_add_digits_only_where_neighbouring_steps_would_read_alike():
    control = Control("gap", "logit gap", (0.5, 5.0, 16.0), 5.0, 0.5, 16.0)
    grid = live_values(control)
    assert len({control.format(value) for value in grid}) < len(grid)  # 10.7 and 10.74, say
    texts = live_texts(control, grid)
    assert len(set(texts)) == len(texts)
    assert texts == [control.format(value, 4) for value in grid]
