"""The live front end of a demo: ipywidgets sliders driving a Plotly ``FigureWidget`` in Jupyter or Colab.

Every slider move calls the demo's :meth:`~rope_viz.demos.base.Demo.view` and applies the resulting
:class:`~rope_viz.demos.base.View` in place with one ``plotly_update`` message: the figure is never
re-created, so it does not flicker.
"""

from __future__ import annotations

import math
import time
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from rope_viz.demos.base import Control, Demo, View

_SLIDER_LAYOUT = {"width": "95%"}
_SLIDER_STYLE = {"description_width": "9em"}


def _slider(control: Control) -> widgets.Widget:
    """Return a continuous slider for ``control``: log scale, integer, a fixed set of choices, or float."""
    common = {
        "description": control.label,
        "continuous_update": True,
        "layout": widgets.Layout(**_SLIDER_LAYOUT),
        "style": _SLIDER_STYLE,
    }
    if control.choices is not None:
        options = [(control.format(value), value) for value in control.choices]
        return widgets.SelectionSlider(options=options, value=control.default, **common)
    if control.log:
        return widgets.FloatLogSlider(
            value=control.default,
            base=10,
            min=math.log10(control.minimum),
            max=math.log10(control.maximum),
            step=0.01,
            readout_format=".3g",
            **common,
        )
    if control.integer:
        return widgets.IntSlider(
            value=int(control.default), min=int(control.minimum), max=int(control.maximum), step=1, **common
        )
    span = control.maximum - control.minimum
    return widgets.FloatSlider(
        value=control.default, min=control.minimum, max=control.maximum, step=span / 1000, **common
    )


def plotly_update_arguments(view: View, trace_count: int) -> tuple[dict[str, list[Any]], dict[str, Any]]:
    """Turn a view into ``(restyle_data, relayout_data)`` for ``plotly_update`` over all traces.

    A trace that does not change a property gets ``Undefined`` for it, which Plotly leaves alone.
    """
    from plotly.basedatatypes import Undefined

    restyle: dict[str, list[Any]] = {}
    for index, update in enumerate(view.traces):
        for path, value in update.items():
            restyle.setdefault(path, [Undefined] * trace_count)[index] = value
    return restyle, dict(view.layout)


class LiveDemo(widgets.VBox):
    """Sliders, a figure and a readout, all live: the Jupyter front end of a :class:`Demo`.

    Parameters
    ----------
    demo : Demo
        The demo to drive.

    Attributes
    ----------
    figure : plotly.graph_objects.FigureWidget
    sliders : dict of str to ipywidgets.Widget
    readout : ipywidgets.HTML
    last_update_seconds : float
        Wall time of the latest slider step in the kernel (compute plus sending the update).

    """

    def __init__(self, demo: Demo) -> None:
        self.demo = demo
        self.figure = go.FigureWidget(demo.initial_figure())
        self.sliders = {control.name: _slider(control) for control in demo.controls}
        self.readout = widgets.HTML(self._readout_html(demo.view(**demo.defaults())))
        self.last_update_seconds = 0.0
        for slider in self.sliders.values():
            slider.observe(self._on_change, names="value")
        super().__init__([*self.sliders.values(), self.figure, self.readout])

    @staticmethod
    def _readout_html(view: View) -> str:
        import html

        return f'<p style="font-size: 1.05rem">{html.escape(view.readout)}</p>'

    def values(self) -> dict[str, float]:
        """Return the current value of every slider, by control name; whole-number controls are rounded.

        A log-scale slider moves continuously, so an integer control on a log scale snaps here.
        """
        integer = {
            control.name for control in self.demo.controls if control.integer and control.choices is None
        }
        return {
            name: round(slider.value) if name in integer else slider.value
            for name, slider in self.sliders.items()
        }

    def set_values(self, **values: float) -> None:
        """Move sliders programmatically (one redraw per slider)."""
        for name, value in values.items():
            self.sliders[name].value = value

    def _on_change(self, _change: dict[str, Any]) -> None:
        start = time.perf_counter()
        view = self.demo.view(**self.values())
        restyle, relayout = plotly_update_arguments(view, len(self.figure.data))
        self.figure.plotly_update(restyle_data=restyle, relayout_data=relayout)
        self.readout.value = self._readout_html(view)
        self.last_update_seconds = time.perf_counter() - start


def live_widget(demo: Demo) -> LiveDemo:
    """Return the live ipywidgets front end of ``demo`` (see the module docstring)."""
    return LiveDemo(demo)
