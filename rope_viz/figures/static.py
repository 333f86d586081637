"""The site's front end of a demo: every slider state precomputed at build time, no kernel needed.

:func:`site_figure` evaluates :meth:`~rope_viz.demos.base.Demo.view` at every combination of the controls'
``site_values`` and writes one self-contained HTML fragment: range inputs, an empty plot ``<div>``, a readout,
and a JSON payload. The page's script (``rope-viz-figures.js``, served once per page by
:mod:`rope_viz.site.sphinx_ext` together with the site's own copy of plotly.js) draws the base figure and, on
every slider move, looks up the precomputed state and draws it: straight in the SVG when it can
(``rope-viz-direct.js``), otherwise with ``Plotly.update``. Axes whose range follows the sliders get explicit
ranges and ticks in every state, so that both ways draw the same axes: :mod:`rope_viz.figures.direct_drawing`
prepares the states for the direct drawing.

Arrays repeated across states (a curve that depends on two sliders but not on the third) are stored once in a
table and referenced as ``{"$ref": k}``, which keeps pages small.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import json
from typing import Any

import numpy as np

from rope_viz.demos.base import Demo, View
from rope_viz.figures.direct_drawing import prepare_states
from rope_viz.figures.rounding import plain as _plain
from rope_viz.figures.slide_layout import side_by_side_payload

#: Arrays with at least this many entries are stored once and referenced.
_MIN_SHARED_LENGTH = 6
#: Refuse to write a figure whose payload would make the page heavy.
MAX_PAYLOAD_BYTES = 3_000_000


class _ArrayTable:
    """Store each distinct array once; hand out ``{"$ref": index}`` for repeats."""

    def __init__(self) -> None:
        self.arrays: list[list[Any]] = []
        self._index: dict[str, int] = {}

    def share(self, value: Any) -> Any:
        if isinstance(value, np.ndarray):
            value = value.tolist()
        if not isinstance(value, list) or len(value) < _MIN_SHARED_LENGTH:
            return value
        key = json.dumps(value, separators=(",", ":"), allow_nan=False)
        if key not in self._index:
            self._index[key] = len(self.arrays)
            self.arrays.append(value)
        return {"$ref": self._index[key]}


def _encode_view(view: View, trace_count: int, table: _ArrayTable) -> dict[str, Any]:
    if len(view.traces) != trace_count:
        raise ValueError(f"a view must update {trace_count} traces, got {len(view.traces)}")
    traces = [{path: table.share(_plain(value)) for path, value in update.items()} for update in view.traces]
    layout = {path: table.share(_plain(value)) for path, value in view.layout.items()}
    return {"t": traces, "l": layout, "r": view.readout}


def build_payload(demo: Demo) -> dict[str, Any]:
    """Every state of the demo's site sliders, in row-major order over ``demo.controls``.

    Returns
    -------
    dict
        ``figure`` (initial Plotly figure), ``controls`` (label, value texts, default index), ``scenes``
        (name, caption and slider indices of each of the demo's scenes), ``strides``
        (state index = sum of slider index times stride), ``states`` and the shared ``arrays`` table; for a
        figure of two stacked panels, ``sideBySide``: the ``changes`` that lay them out side by side, for the
        presenter view and the lecture deck (:func:`rope_viz.figures.slide_layout.side_by_side`), and the
        figure's ``own`` values there, which put it back; ``narrowest``: the width the plot is laid out at in
        a narrower figure (:meth:`rope_viz.demos.base.Demo.narrow_layout_width`).

    """
    figure = _plain(demo.initial_figure())
    trace_count = len(figure["data"])
    table = _ArrayTable()
    grids = [control.site_values for control in demo.controls]
    views = []
    for combination in itertools.product(*grids):
        values = dict(zip((control.name for control in demo.controls), combination, strict=True))
        views.append(demo.view(**values))
    default = list(itertools.product(*grids)).index(tuple(control.default for control in demo.controls))
    views = prepare_states(figure, views, default)
    states = [_encode_view(view, trace_count, table) for view in views]
    strides = [int(np.prod([len(grid) for grid in grids[k + 1 :]], dtype=int)) for k in range(len(grids))]
    controls = [
        {
            "name": control.name,
            "label": control.label,
            "texts": [control.format(value) for value in control.site_values],
            "values": list(control.site_values),
            "default": control.site_values.index(control.default),
        }
        for control in demo.controls
    ]
    scenes = [
        {"name": scene.name, "caption": scene.caption, "indices": demo.scene_indices(scene)}
        for scene in demo.scenes
    ]
    wide = side_by_side_payload(figure)
    return {
        "title": demo.title,
        "figure": figure,
        **({"sideBySide": wide} if wide else {}),
        "narrowest": demo.narrow_layout_width(),
        "controls": controls,
        "scenes": scenes,
        "strides": strides,
        "states": states,
        "arrays": table.arrays,
    }


def _script_json(payload: dict[str, Any]) -> str:
    text = json.dumps(payload, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    # Inside <script>, "</" would end the element early.
    return text.replace("</", "<\\/")


class SiteFigure:
    """A demo rendered for the static site; displays as HTML in a notebook output.

    Parameters
    ----------
    demo : Demo
        The demo to precompute.

    """

    def __init__(self, demo: Demo) -> None:
        self.demo = demo
        self.payload = build_payload(demo)
        self.payload_json = _script_json(self.payload)
        if len(self.payload_json.encode()) > MAX_PAYLOAD_BYTES:
            raise ValueError(
                f"{type(demo).__name__}: {len(self.payload_json.encode()):,} bytes of precomputed states "
                f"exceed MAX_PAYLOAD_BYTES = {MAX_PAYLOAD_BYTES:,}; use fewer site_values"
            )
        digest = hashlib.sha1(self.payload_json.encode()).hexdigest()[:10]
        self.element_id = f"rope-viz-{digest}"

    def to_html(self) -> str:
        """Return the HTML fragment: controls, plot container, readout and payload (no plotly.js inside)."""
        ident = self.element_id
        controls_html = []
        for k, control in enumerate(self.payload["controls"]):
            input_id = f"{ident}-{control['name']}"
            default = control["default"]
            text = html.escape(control["texts"][default])
            controls_html.append(
                '<div class="rope-viz-control">'
                f'<label for="{input_id}">{html.escape(control["label"])}</label>'
                f'<input type="range" id="{input_id}" data-control="{k}" min="0" '
                f'max="{len(control["texts"]) - 1}" step="1" value="{default}" '
                f'aria-valuetext="{text}">'
                # The slider's aria-valuetext says the same: screen readers read it once, not twice.
                f'<output for="{input_id}" aria-hidden="true">{text}</output>'
                "</div>"
            )
        readout = html.escape(self.payload["states"][self._default_index()]["r"])
        title = html.escape(self.payload["title"])
        # The figure is named by its title and described by its readout (the plot's own text is hidden from
        # screen readers by rope-viz-figures.js; its tool buttons stay reachable).
        return (
            f'<figure class="rope-viz-demo" id="{ident}" aria-label="{title}" '
            f'aria-describedby="{ident}-readout">'
            f'<div class="rope-viz-controls">{"".join(controls_html)}</div>'
            '<div class="rope-viz-plot"></div>'
            '<noscript><p class="rope-viz-noscript">This interactive figure needs JavaScript.</p></noscript>'
            f'<p class="rope-viz-readout" id="{ident}-readout" aria-live="polite">{readout}</p>'
            f'<script type="application/json" class="rope-viz-payload">{self.payload_json}</script>'
            "</figure>"
        )

    def _default_index(self) -> int:
        return sum(
            control["default"] * stride
            for control, stride in zip(self.payload["controls"], self.payload["strides"], strict=True)
        )

    def _repr_html_(self) -> str:
        return self.to_html()

    def __repr__(self) -> str:
        states = len(self.payload["states"])
        return f"<SiteFigure {type(self.demo).__name__}: {states} precomputed states>"


def site_figure(demo: Demo) -> SiteFigure:
    """Precompute ``demo`` for the static site (see the module docstring)."""
    return SiteFigure(demo)
