"""The live front end of a demo in Jupyter, Binder and Colab: the site's figure, its states from the kernel.

A :class:`LiveFigure` is a small anywidget. In the browser it builds the same sliders, plot and readout as a
figure of the course site and draws with the same scripts (plotly.js and the direct SVG drawing, carried once
per kernel by :func:`rope_viz.widgets.library.figure_library`). The only difference is where a state
comes from: the site looks it up in a table precomputed at build time; a live figure asks the kernel, which
calls the demo's :meth:`~rope_viz.demos.base.Demo.view` at the slider values and sends back the state,
prepared as the site prepares its states (:class:`rope_viz.figures.live_states.LiveStates`).

The live sliders reach every value of a control's live range, not only the site's steps: each slider steps
through :func:`live_values` (the site's values included).

Messages from the browser: ``{"type": "state", "key", "indices", "current"}`` asks for the state at those
slider indices (``current``: the sliders are there now), ``{"type": "position", "indices"}`` says the sliders
moved to a state the browser already holds, and ``{"type": "states", "indices", "slider", "from", "to"}``
asks, during a drag, for the states along one slider ahead of the pointer (answered with ``{"type":
"states", "entries": [[key, state], ...]}``, at most :data:`MAX_STATES_AHEAD` of them, computed within
:data:`STATES_AHEAD_SECONDS`). Messages to the browser: ``{"type": "state", "key", "state"}``
(with ``"pushed": true`` when the kernel moved the sliders itself) and ``{"type": "indices", "indices"}``. A
view the kernel shows without sliders (:meth:`LiveFigure.show_view`) changes the widget's ``state`` instead.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import anywidget
import numpy as np
import traitlets
from ipywidgets import widget_serialization

from rope_viz.demos.base import NARROWEST_PLOT_WIDTH, Control, Demo, View
from rope_viz.figures.live_states import LiveStates
from rope_viz.figures.slide_layout import side_by_side_payload
from rope_viz.widgets.library import FigureLibrary, figure_library

#: Steps of a live slider on a linear scale (plus the site's values): an arrow key moves it by 0.5 %.
LINEAR_STEPS = 200
#: Steps per factor of ten of a live slider on a log scale.
LOG_STEPS_PER_DECADE = 100
#: An integer control whose range holds at most this many whole numbers steps through every one of them.
MAX_INTEGER_STEPS = 500
#: States the kernel computes for one question about the states along a slider (``"states"``) ...
MAX_STATES_AHEAD = 16
#: ... and for at most this long, so that a question about the state under the pointer never waits long.
STATES_AHEAD_SECONDS = 0.025


def live_texts(control: Control, values: tuple[float, ...]) -> list[str]:
    """Return the text a live slider shows at each of ``values``: as on the site, with more digits if needed.

    A live slider has many more steps than the site's, so three significant digits can give two neighbouring
    steps the same text (10.7 and 10.74), and a key press would then change the figure but not the value
    shown. The texts get one more significant digit at a time, up to six, until every step reads differently.
    """
    texts = [control.format(value) for value in values]
    for digits in range(4, 7):
        if len(set(texts)) == len(texts):
            break
        texts = [control.format(value, digits) for value in values]
    return texts


def live_values(control: Control) -> tuple[float, ...]:
    r"""Return the values a live slider steps through, in increasing order.

    ``choices`` when the control has them; otherwise :data:`LINEAR_STEPS` equal steps from ``minimum`` to
    ``maximum``, or :data:`LOG_STEPS_PER_DECADE` steps per decade, :math:`v_j = v_{\min}
    (v_{\max}/v_{\min})^{j/J}`, on a log scale; whole numbers for an integer control (every one of them when
    there are at most :data:`MAX_INTEGER_STEPS`). The site's values are always among them, so a live slider
    can show every state the site shows.
    """
    if control.choices is not None:
        return tuple(float(value) for value in control.choices)
    low, high = float(control.minimum), float(control.maximum)
    if control.integer and not control.log and high - low <= MAX_INTEGER_STEPS:
        grid = np.arange(math.ceil(low), math.floor(high) + 1, dtype=float)
    elif control.log:
        decades = math.log10(high / low)
        steps = max(1, round(decades * LOG_STEPS_PER_DECADE))
        grid = low * (high / low) ** (np.arange(steps + 1) / steps)
    else:
        grid = np.linspace(low, high, LINEAR_STEPS + 1)
    if control.integer:
        grid = np.clip(np.round(grid), math.ceil(low), math.floor(high))
    site = np.asarray(control.site_values, dtype=float)
    # A grid point closer to a site value than a thousandth of a step would show the same text twice.
    spacing = np.diff(np.unique(grid)).min() if grid.size > 1 else 1.0
    near_site = np.abs(grid[:, None] - site[None, :]).min(axis=1) < spacing / 1000
    values = np.unique(np.concatenate([grid[~near_site], site]))
    return tuple(float(value) for value in values)


class LiveFigure(anywidget.AnyWidget):
    """Sliders, a figure and a readout, live in Jupyter: the site's figure with its states from the kernel.

    Parameters
    ----------
    demo : Demo
        The demo to drive.
    sliders : bool
        Show the demo's sliders. Without them the figure moves only through :meth:`show_view`.

    Attributes
    ----------
    demo : Demo
    grids : list of tuple of float
        The values each slider steps through (:func:`live_values`).
    last_update_seconds : float
        Kernel time of the latest state (the demo's view plus its preparation), in seconds.

    """

    _esm = Path(__file__).parent / "static" / "rope-viz-live.js"
    library = traitlets.Instance(FigureLibrary).tag(sync=True, **widget_serialization)
    title = traitlets.Unicode().tag(sync=True)
    figure = traitlets.Dict().tag(sync=True)
    controls = traitlets.List().tag(sync=True)
    #: The demo's scenes: name, caption and the index of each slider's value in its live steps.
    scenes = traitlets.List().tag(sync=True)
    #: For a figure of two stacked panels, what puts them side by side in the presenter view
    #: (:func:`rope_viz.figures.slide_layout.side_by_side_payload`); None for any other.
    side_by_side = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    #: The width the plot is laid out at in a narrower panel
    #: (:meth:`rope_viz.demos.base.Demo.narrow_layout_width`).
    narrowest_plot_width = traitlets.Int(NARROWEST_PLOT_WIDTH).tag(sync=True)
    state = traitlets.Dict().tag(sync=True)
    readout = traitlets.Unicode().tag(sync=True)
    #: How many states the browser asks for at once along a slider: what the kernel answers with.
    ahead = traitlets.Int(MAX_STATES_AHEAD).tag(sync=True)

    def __init__(self, demo: Demo, sliders: bool = True) -> None:
        self.demo = demo
        self.grids = [live_values(control) for control in demo.controls]
        self._states = LiveStates(demo)
        self._indices = [
            grid.index(float(control.default))
            for control, grid in zip(demo.controls, self.grids, strict=True)
        ]
        self._last_view = demo.view(**self.values())
        self.last_update_seconds = 0.0
        initial = self._states.encode(self._last_view)
        controls = [
            {
                "name": control.name,
                "label": control.label,
                "texts": live_texts(control, grid),
                "default": index,
            }
            for control, grid, index in zip(demo.controls, self.grids, self._indices, strict=True)
        ]
        super().__init__(
            library=figure_library(),
            title=demo.title,
            figure=self._states.figure,
            controls=controls if sliders else [],
            scenes=self._scenes() if sliders else [],
            side_by_side=side_by_side_payload(self._states.figure),
            narrowest_plot_width=demo.narrow_layout_width(),
            state=initial,
            readout=self._last_view.readout,
        )
        self._sliders = sliders
        self.on_msg(self._on_message)

    def _scenes(self) -> list[dict[str, Any]]:
        """Return the demo's scenes for the front end, each value located in its slider's live steps."""
        return [
            {
                "name": scene.name,
                "caption": scene.caption,
                "indices": [
                    grid.index(float(value))
                    for grid, value in zip(self.grids, self.demo.scene_values(scene).values(), strict=True)
                ],
            }
            for scene in self.demo.scenes
        ]

    @property
    def last_view(self) -> View:
        """The view the figure shows now."""
        if self._last_view is None:
            self._last_view = self.demo.view(**self.values())
        return self._last_view

    def values(self) -> dict[str, float]:
        """Return the current value of every slider, by control name."""
        return {
            control.name: grid[index]
            for control, grid, index in zip(self.demo.controls, self.grids, self._indices, strict=True)
        }

    def set_values(self, **values: float) -> None:
        """Move sliders to the live values nearest to ``values`` and show the state there."""
        indices = list(self._indices)
        names = [control.name for control in self.demo.controls]
        for name, value in values.items():
            if name not in names:
                raise ValueError(f"{type(self.demo).__name__} has no control {name!r}; its controls: {names}")
            grid = np.asarray(self.grids[names.index(name)])
            indices[names.index(name)] = int(np.argmin(np.abs(grid - float(value))))
        key, state = self._state_at(indices, current=True)
        self.send({"type": "state", "key": key, "state": state, "pushed": True})
        if self._sliders:
            self.send({"type": "indices", "indices": indices})

    def show_view(self, view: View) -> None:
        """Show any view of the demo (computed by the caller, e.g. from a pasted config).

        The view becomes the widget's ``state``, so that a figure displayed later, or the notebook saved with
        its widgets, shows it too.
        """
        started = time.perf_counter()
        state = self._states.encode(view)
        self._last_view = view
        self.last_update_seconds = time.perf_counter() - started
        self.readout = view.readout
        self.state = state

    def _state_at(self, indices: list[int], current: bool) -> tuple[str, dict[str, Any]]:
        """Compute the prepared state at slider ``indices``; remember them when the sliders are there."""
        started = time.perf_counter()
        values = {
            control.name: grid[index]
            for control, grid, index in zip(self.demo.controls, self.grids, indices, strict=True)
        }
        view = self.demo.view(**values)
        state = self._states.encode(view)
        if current:
            self._indices = list(indices)
            self._last_view = view
            self.last_update_seconds = time.perf_counter() - started
        return ",".join(str(index) for index in indices), state

    def _states_along(self, content: dict[str, Any]) -> list[list[Any]]:
        """Return the states at ``indices`` with slider ``slider`` at ``from`` .. ``to``, nearest first."""
        base = self._valid_indices(content.get("indices"))
        slider, low, high = (content.get(name) for name in ("slider", "from", "to"))
        if not all(isinstance(value, int) for value in (slider, low, high)) or not 0 <= slider < len(base):
            raise ValueError(f"a question about states along a slider needs whole numbers, got {content!r}")
        low, high = max(0, low), min(len(self.grids[slider]) - 1, high, low + MAX_STATES_AHEAD - 1)
        started = time.perf_counter()
        entries = []
        for index in sorted(range(low, high + 1), key=lambda index: abs(index - base[slider])):
            indices = [*base[:slider], index, *base[slider + 1 :]]
            entries.append(list(self._state_at(indices, current=False)))
            if time.perf_counter() - started > STATES_AHEAD_SECONDS:
                break
        return entries

    def _valid_indices(self, indices: Any) -> list[int]:
        if not isinstance(indices, list) or len(indices) != len(self.grids):
            raise ValueError(f"expected {len(self.grids)} slider indices, got {indices!r}")
        checked = []
        for index, grid in zip(indices, self.grids, strict=True):
            if not isinstance(index, int) or not 0 <= index < len(grid):
                raise ValueError(f"slider index {index!r} is outside 0..{len(grid) - 1}")
            checked.append(index)
        return checked

    def _on_message(self, _widget: Any, content: dict[str, Any], _buffers: list[bytes]) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "state":
            indices = self._valid_indices(content.get("indices"))
            key, state = self._state_at(indices, current=bool(content.get("current", True)))
            self.send({"type": "state", "key": key, "state": state})
        elif kind == "states":
            self.send({"type": "states", "entries": self._states_along(content)})
        elif kind == "position":
            indices = self._valid_indices(content.get("indices"))
            if indices != self._indices:
                self._indices, self._last_view = indices, None  # the view is computed when asked for


def live_widget(demo: Demo) -> LiveFigure:
    """Return the live front end of ``demo`` (see the module docstring)."""
    return LiveFigure(demo)
