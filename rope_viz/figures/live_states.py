"""Slider states made one at a time, for the live front end: the site's drawing, fed by the kernel.

The site knows every state of a figure in advance (:mod:`rope_viz.figures.static`) and decides from all of
them which axes move, which traces are sometimes empty and which colour bars rescale. A live figure meets its
states one at a time, at slider values the site never precomputes, so :class:`LiveStates` applies the same
preparations to every state that could need them:

* a scatter trace with no points gets one missing point, so that Plotly keeps its SVG group;
* an autoranged axis (scatter and heatmap traces only, no ``scaleanchor`` or ``matches``) gets the range of
  its data in this state: padded by 5 % of the span on each side, or up to a heatmap's outer cell edges, as
  Plotly does;
* every axis with a range in a state gets explicit ticks in Plotly's label style
  (:mod:`rope_viz.figures.direct_drawing`);
* a heatmap colour bar gets explicit ticks over its ``zmin``/``zmax``;
* an annotation that Plotly centres by default says so, once, in the initial figure;
* a trace drawn with text whose labels are all empty gets one blank label.

The page's script can then draw every state straight in the SVG (``rope-viz-direct.js``), and Plotly, when it
redraws, shows the very same axes. States are plain JSON (arrays inline, no shared table).
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from rope_viz.demos.base import Demo, View
from rope_viz.figures.direct_drawing import (
    a_blank_label,
    axis_name,
    axis_ticks,
    data_range,
    is_empty,
    left_to_autorange,
    linear_ticks,
    one_missing_point,
    with_centred_annotations,
)
from rope_viz.figures.rounding import plain as _plain

_AXIS_NAME = re.compile(r"[xy]axis\d*")


class LiveStates:
    """Turn the views of a demo into states the figure script draws, one state at a time.

    Parameters
    ----------
    demo : Demo
        The demo; its default view is the initial state.

    Attributes
    ----------
    figure : dict
        The initial figure, JSON-ready, with the default state's ranges and ticks written into its layout.

    """

    def __init__(self, demo: Demo) -> None:
        self.demo = demo
        figure = _plain(demo.initial_figure())
        self._traces = copy.deepcopy(figure["data"])
        self._specs = copy.deepcopy(figure["layout"])
        default = demo.view(**demo.defaults())
        with_centred_annotations(figure["layout"], [default])
        self._ranged_axes = self._autoranged_axes(default)
        state = self.encode(default)
        self.figure = self._initial_figure(figure, state)

    def _autoranged_axes(self, default: View) -> list[tuple[str, str, list[int], bool, bool]]:
        """Axes left to autorange whose range a state must give: (name, letter, traces, cells, reversed)."""
        axes = []
        for letter in ("x", "y"):
            names = {axis_name(trace.get(f"{letter}axis", letter)) for trace in self._traces}
            for name in sorted(names):
                spec = self._specs.get(name, {})
                on_axis = [
                    k
                    for k, trace in enumerate(self._traces)
                    if axis_name(trace.get(f"{letter}axis", letter)) == name
                ]
                types = {self._traces[k].get("type", "scatter") for k in on_axis}
                if not left_to_autorange(spec, types) or f"{name}.range" in default.layout:
                    continue
                axes.append((name, letter, on_axis, "heatmap" in types, spec.get("autorange") == "reversed"))
        return axes

    def view_state(self, view: View) -> View:
        """Return ``view`` with the preparations of the module docstring applied."""
        if len(view.traces) != len(self._traces):
            raise ValueError(f"a view must update {len(self._traces)} traces, got {len(view.traces)}")
        traces = [
            one_missing_point(update)
            if trace.get("type", "scatter") == "scatter" and is_empty(update, trace)
            else a_blank_label(dict(update), trace)
            for update, trace in zip(view.traces, self._traces, strict=True)
        ]
        layout = dict(view.layout)
        padded = View(traces=traces, layout=layout, readout=view.readout)
        for name, letter, on_axis, cells, reversed_ in self._ranged_axes:
            spec = self._specs.get(name, {})
            axis_range = data_range(self._traces, padded, on_axis, letter, spec, cells)
            if axis_range is not None:
                layout[f"{name}.range"] = axis_range[::-1] if reversed_ else axis_range
        for path in [path for path in layout if path.endswith(".range")]:
            axis = path[: -len(".range")]
            if _AXIS_NAME.fullmatch(axis) and layout[path] is not None:
                spec = self._specs.get(axis, {})
                if f"{axis}.ticktext" in view.layout:
                    continue  # the view labels its ticks itself (chapter 1's words), as on the site
                chosen = f"{axis}.tickvals" in view.layout  # the view's own ticks, as on the site
                if chosen:
                    spec = {**spec, "tickvals": _plain(view.layout[f"{axis}.tickvals"])}
                tickvals, ticktext = axis_ticks(spec, _plain(layout[path]), chosen)
                layout[f"{axis}.tickvals"], layout[f"{axis}.ticktext"] = tickvals, ticktext
        for k, trace in enumerate(self._traces):
            if trace.get("type") != "heatmap" or trace.get("coloraxis") or trace.get("showscale") is False:
                continue
            # Only a colour range the view moves; a fixed one keeps the figure's own bar, as on the site.
            if "zmin" not in traces[k] and "zmax" not in traces[k]:
                continue
            low, high = (traces[k].get(key, trace.get(key)) for key in ("zmin", "zmax"))
            if low is None or high is None or not float(high) > float(low):
                continue
            values, texts = linear_ticks(float(low), float(high))
            traces[k]["colorbar.tickvals"], traces[k]["colorbar.ticktext"] = values, texts
        return padded

    def encode(self, view: View) -> dict[str, Any]:
        """Return the state of ``view`` as the figure script reads it: ``{"t": ..., "l": ..., "r": ...}``.

        ``"t"`` holds the trace updates, ``"l"`` the layout updates and ``"r"`` the readout's text.
        """
        state = self.view_state(view)
        return {
            "t": [{path: _plain(value) for path, value in update.items()} for update in state.traces],
            "l": {path: _plain(value) for path, value in state.layout.items()},
            "r": state.readout,
        }

    def _initial_figure(self, figure: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
        """Write the default state's ranges, ticks and padded traces into the initial figure; return it."""
        from rope_viz.demos.base import _set_path

        for trace, update in zip(figure["data"], state["t"], strict=True):
            for path, value in update.items():
                _set_path(trace, path, value)
            if "colorbar.tickvals" in update:
                trace.setdefault("colorbar", {})["tickmode"] = "array"
        for path, value in state["l"].items():
            _set_path(figure["layout"], path, value)
            axis = path.split(".", 1)[0]
            if path.endswith(".range") and _AXIS_NAME.fullmatch(axis):
                figure["layout"][axis]["autorange"] = False
            if path.endswith(".tickvals") and _AXIS_NAME.fullmatch(axis):
                figure["layout"][axis]["tickmode"] = "array"
        json.dumps(figure, allow_nan=False)  # a state must be plain JSON for the widget to send it
        return figure
