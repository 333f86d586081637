"""The site's front end of a demo: every slider state precomputed at build time, no kernel needed.

:func:`site_figure` evaluates :meth:`~rope_viz.demos.base.Demo.view` at every combination of the controls'
``site_values`` and writes one self-contained HTML fragment: range inputs, an empty plot ``<div>``, a readout,
and a JSON payload. The page's script (``rope-viz-figures.js``, served once per page by
:mod:`rope_viz.site.sphinx_ext` together with the site's own copy of plotly.js) draws the base figure and, on
every slider move, looks up the precomputed state and draws it: straight in the SVG when it can
(``rope-viz-direct.js``), otherwise with ``Plotly.update``. Axes whose range follows the sliders get explicit
ranges and ticks in every state (:mod:`rope_viz.figures.ticks`), so that both ways draw the same axes.

Arrays repeated across states (a curve that depends on two sliders but not on the third) are stored once in a
table and referenced as ``{"$ref": k}``, which keeps pages small.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import json
import re
from typing import Any

import numpy as np

from rope_viz.demos.base import Demo, View
from rope_viz.figures.ticks import axis_ticks, linear_ticks

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


#: Values that are JSON-ready as they are (checked by exact type: numpy's float64 subclasses float).
_PLAIN_TYPES = frozenset({float, int, str, bool, type(None)})


def _plain(value: Any) -> Any:
    """Numpy scalars and arrays to JSON-ready Python values."""
    if type(value) in _PLAIN_TYPES:
        return value
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        # Lists of plain numbers are the bulk of every state: one type lookup per item.
        return [item if type(item) in _PLAIN_TYPES else _plain(item) for item in value]
    return value


def _encode_view(view: View, trace_count: int, table: _ArrayTable) -> dict[str, Any]:
    if len(view.traces) != trace_count:
        raise ValueError(f"a view must update {trace_count} traces, got {len(view.traces)}")
    traces = [{path: table.share(_plain(value)) for path, value in update.items()} for update in view.traces]
    layout = {path: table.share(_plain(value)) for path, value in view.layout.items()}
    return {"t": traces, "l": layout, "r": view.readout}


#: Plotly pads an autoranged axis by about this share of the data's span on each side.
_AUTORANGE_PADDING = 0.05


def _with_fixed_autoranges(figure: dict[str, Any], views: list[View], default: int) -> list[View]:
    """Give an autoranged axis whose data change between states an explicit range in every state.

    Plotly would move such an axis with the data; with the range written out, the page's script can move it
    directly (see :func:`_with_explicit_ticks`). Axes carrying scatter traces only get the data's extent,
    padded by :data:`_AUTORANGE_PADDING` of its span on each side (in powers of ten on a log axis); axes
    carrying a heatmap get the outer edges of its cells (and any scatter point beyond them), as Plotly does.
    ``figure`` (the initial one, showing state ``default``) gets the range of that state.
    """
    layout = figure["layout"]
    traces = figure["data"]
    out = views
    for letter in ("x", "y"):
        for name in sorted({_axis_name(trace.get(f"{letter}axis", letter)) for trace in traces}):
            spec = layout.get(name, {})
            on_axis = [
                k for k, trace in enumerate(traces) if _axis_name(trace.get(f"{letter}axis", letter)) == name
            ]
            types = {traces[k].get("type", "scatter") for k in on_axis}
            if not left_to_autorange(spec, types) or any(f"{name}.range" in view.layout for view in views):
                continue
            ranges = [_data_range(traces, view, on_axis, letter, spec, "heatmap" in types) for view in views]
            if any(r is None for r in ranges):
                continue
            if len({json.dumps(r) for r in ranges}) == 1:
                # The data move within a fixed extent: fix the range once; moving them then needs no redraw.
                moving = any(
                    len({json.dumps(_plain(view.traces[k].get(letter))) for view in views}) > 1
                    for k in on_axis
                )
                if moving:
                    range_ = ranges[0][::-1] if spec.get("autorange") == "reversed" else ranges[0]
                    layout.setdefault(name, {}).update({"range": range_, "autorange": False})
                continue
            if spec.get("autorange") == "reversed":
                ranges = [[high, low] for low, high in ranges]
            out = [
                View(traces=view.traces, layout={**view.layout, f"{name}.range": r}, readout=view.readout)
                for view, r in zip(out, ranges, strict=True)
            ]
            layout.setdefault(name, {}).update({"range": ranges[default], "autorange": False})
    return out


def left_to_autorange(spec: dict[str, Any], trace_types: set[str]) -> bool:
    """Whether Plotly autoranges an axis whose range a front end can write out for it.

    That is an axis with no ``range`` of its own, autorange on (or reversed), not tied to another axis
    (``scaleanchor``, ``matches``), and carrying only scatter and heatmap traces.
    """
    return not (
        "range" in spec
        or spec.get("autorange") not in (None, True, "reversed")
        or spec.get("scaleanchor")
        or spec.get("matches")
        or not trace_types <= {"scatter", "heatmap"}
    )


def _with_a_point_in_every_state(figure: dict[str, Any], views: list[View], default: int) -> list[View]:
    """Give a scatter trace that is empty in some states (but not all) one missing point in those states.

    Plotly draws no SVG group for an empty trace; with a single ``null`` point it keeps the trace's group
    (and draws nothing in it), so the page's script can draw the trace's points directly when they come back.
    ``figure`` gets the same change if the initial state (``default``) is one of the empty ones.
    """
    out = views
    for k, trace in enumerate(figure["data"]):
        if trace.get("type", "scatter") != "scatter":
            continue
        empty = [_is_empty(view.traces[k], trace) for view in views]
        if not any(empty) or all(empty):
            continue
        out = [
            View(
                traces=[
                    _one_missing_point(update) if j == k and is_empty else update
                    for j, update in enumerate(view.traces)
                ],
                layout=view.layout,
                readout=view.readout,
            )
            for view, is_empty in zip(out, empty, strict=True)
        ]
        if empty[default]:
            figure["data"][k] = {
                **trace,
                **_one_missing_point({key: trace[key] for key in ("x", "y", "text") if key in trace}),
            }
    return out


def _is_empty(update: dict[str, Any], trace: dict[str, Any]) -> bool:
    """Whether a trace shows no point in a state: its ``x`` there (or in the base trace) has length 0."""
    xs = update.get("x", trace.get("x"))
    return xs is not None and len(xs) == 0


def _one_missing_point(update: dict[str, Any]) -> dict[str, Any]:
    """``update`` with every empty per-point list replaced by one ``None``."""
    return {
        path: [None] if isinstance(value, list | tuple | np.ndarray) and len(value) == 0 else value
        for path, value in update.items()
    }


def _data_range(
    traces: list[dict[str, Any]],
    view: View,
    on_axis: list[int],
    letter: str,
    spec: dict[str, Any],
    cells: bool,
) -> list[float] | None:
    """Return the extent of the traces' data in ``view``: padded, or up to the heatmap cells' edges."""
    log = spec.get("type") == "log"
    low, high = np.inf, -np.inf
    for k in on_axis:
        data = view.traces[k].get(letter, traces[k].get(letter))
        if data is None:
            return None
        values = [float(v) for v in np.ravel(np.asarray(data, dtype=object)) if _finite(v, log)]
        if not values:
            continue
        scaled = np.unique(np.log10(values) if log else values)
        half = 0.0
        if traces[k].get("type") == "heatmap":
            half = float(np.min(np.diff(scaled))) / 2 if scaled.size > 1 else 0.5
        low, high = min(low, float(scaled[0]) - half), max(high, float(scaled[-1]) + half)
    if not np.isfinite(low) or not np.isfinite(high):
        return None
    if cells:
        return [low, high]
    pad = _AUTORANGE_PADDING * (high - low) if high > low else 0.5
    return [low - pad, high + pad]


def _axis_name(reference: str) -> str:
    """``"x2"`` to ``"xaxis2"``."""
    return f"{reference[0]}axis{reference[1:]}"


def _finite(value: Any, log: bool) -> bool:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return False
    return bool(np.isfinite(number)) and (number > 0 or not log)


def _with_explicit_colorbar_ticks(figure: dict[str, Any], views: list[View]) -> list[View]:
    """Give the colour bar of a heatmap whose ``zmin``/``zmax`` change between states explicit ticks.

    As for axes (:func:`_with_explicit_ticks`): the page's script can then move the colour bar's labels.
    """
    out = views
    for k, trace in enumerate(figure["data"]):
        if trace.get("type") != "heatmap" or trace.get("coloraxis") or trace.get("showscale") is False:
            continue
        bounds = [
            (view.traces[k].get("zmin", trace.get("zmin")), view.traces[k].get("zmax", trace.get("zmax")))
            for view in views
        ]
        if None in {value for pair in bounds for value in pair} or len(set(bounds)) == 1:
            continue
        ticks = [linear_ticks(float(low), float(high)) for low, high in bounds]
        out = [
            View(
                traces=[
                    {**update, "colorbar.tickvals": values, "colorbar.ticktext": texts} if j == k else update
                    for j, update in enumerate(view.traces)
                ],
                layout=view.layout,
                readout=view.readout,
            )
            for view, (values, texts) in zip(out, ticks, strict=True)
        ]
        values, texts = linear_ticks(float(trace["zmin"]), float(trace["zmax"]))
        trace.setdefault("colorbar", {}).update({"tickmode": "array", "tickvals": values, "ticktext": texts})
    return out


def _with_explicit_ticks(layout: dict[str, Any], views: list[View]) -> list[View]:
    """Give every axis whose range changes between states explicit ticks in each state (see :mod:`.ticks`).

    ``layout`` (the initial figure's) is updated in place to the ticks of its own range.
    """
    changing = sorted(
        path[: -len(".range")]
        for path in {path for view in views for path in view.layout}
        if path.endswith(".range")
        and re.fullmatch(r"[xy]axis\d*", path[: -len(".range")])
        and len({json.dumps(_plain(view.layout.get(path))) for view in views}) > 1
    )
    if not changing:
        return views
    out = []
    for view in views:
        extra: dict[str, Any] = {}
        for axis in changing:
            spec = layout.get(axis, {})
            axis_range = view.layout.get(f"{axis}.range", spec.get("range"))
            tickvals, ticktext = axis_ticks(spec, axis_range)
            extra[f"{axis}.tickvals"] = tickvals
            extra[f"{axis}.ticktext"] = ticktext
        out.append(View(traces=view.traces, layout={**view.layout, **extra}, readout=view.readout))
    for axis in changing:
        spec = layout.setdefault(axis, {})
        tickvals, ticktext = axis_ticks(spec, _plain(spec["range"]))
        spec.update({"tickmode": "array", "tickvals": tickvals, "ticktext": ticktext})
    return out


def build_payload(demo: Demo) -> dict[str, Any]:
    """Every state of the demo's site sliders, in row-major order over ``demo.controls``.

    Returns
    -------
    dict
        ``figure`` (initial Plotly figure), ``controls`` (label, value texts, default index), ``strides``
        (state index = sum of slider index times stride), ``states`` and the shared ``arrays`` table.

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
    views = _with_a_point_in_every_state(figure, views, default)
    views = _with_fixed_autoranges(figure, views, default)
    views = _with_explicit_ticks(figure["layout"], views)
    views = _with_explicit_colorbar_ticks(figure, views)
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
    return {
        "title": demo.title,
        "figure": figure,
        "controls": controls,
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
            controls_html.append(
                '<div class="rope-viz-control">'
                f'<label for="{input_id}">{html.escape(control["label"])}</label>'
                f'<input type="range" id="{input_id}" data-control="{k}" min="0" '
                f'max="{len(control["texts"]) - 1}" step="1" value="{default}" '
                f'aria-valuetext="{html.escape(control["texts"][default])}">'
                f'<output for="{input_id}">{html.escape(control["texts"][default])}</output>'
                "</div>"
            )
        initial_readout = self.payload["states"][self._default_index()]["r"]
        title = html.escape(self.payload["title"])
        return (
            f'<figure class="rope-viz-demo" id="{ident}" aria-label="{title}">'
            f'<div class="rope-viz-controls">{"".join(controls_html)}</div>'
            f'<div class="rope-viz-plot" role="img" aria-label="{title}"></div>'
            '<noscript><p class="rope-viz-noscript">This interactive figure needs JavaScript.</p></noscript>'
            f'<p class="rope-viz-readout" aria-live="polite">{html.escape(initial_readout)}</p>'
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
