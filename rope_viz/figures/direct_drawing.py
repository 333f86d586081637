"""What the site's direct drawing needs of a figure's states, and nothing else does.

The page's script draws most slider steps straight into the SVG that Plotly drew (``rope-viz-direct.js``). It
moves axes, colour bars and traces that Plotly has already laid out, and cannot autorange an axis, pick tick
positions or create a trace's SVG group. The functions here prepare every state so that it never has to, and
so that Plotly, whenever it redraws, shows the very same thing:

* :func:`with_a_point_in_every_state`: a scatter trace empty in some states gets one missing point there,
  so that Plotly keeps its SVG group;
* :func:`with_fixed_autoranges`: an autoranged axis whose data change gets the range Plotly would pick;
* :func:`with_explicit_ticks`: an axis whose range changes gets explicit ticks (``tickmode: "array"``) in
  every state, in Plotly's label style (a true minus sign, powers of ten as ``10<sup>k</sup>``;
  :func:`axis_ticks`);
* :func:`with_explicit_colorbar_ticks`: the same for a heatmap colour bar whose ``zmin``/``zmax`` change;
* :func:`with_centred_annotations`: an annotation without an arrow that Plotly centres on its position by
  default (``xanchor: "auto"``) says so (``xanchor: "center"``), so that its words can change directly;
* :func:`a_blank_label`: a trace drawn with text whose labels are all empty in a state gets one blank label
  there, so that Plotly draws a ``<text>`` the script can copy when a label appears.

:func:`prepare_states` applies all six, as the site's payload needs
(:func:`rope_viz.figures.static.build_payload`); the live front end (:mod:`rope_viz.figures.live_states`)
applies the same steps one state at a time.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from rope_viz.demos.base import View
from rope_viz.figures.rounding import plain

# ---- tick values and labels --------------------------------------------------------------------------------

#: About this many ticks on a linear axis.
TARGET_TICKS = 6
#: Step multipliers of a "nice" linear step, times a power of ten.
NICE_STEPS = (1.0, 2.0, 2.5, 5.0, 10.0)
MINUS = "\u2212"


def nice_step(span: float, target: int = TARGET_TICKS) -> float:
    """Return the smallest step ``m * 10**k`` (``m`` in :data:`NICE_STEPS`) giving at most ``target`` steps.

    Examples
    --------
    >>> nice_step(34.1), nice_step(1.0), nice_step(183.1)
    (10.0, 0.2, 50.0)

    """
    if not span > 0 or not math.isfinite(span):
        raise ValueError(f"an axis span must be positive and finite, got {span!r}")
    raw = span / target
    power = 10.0 ** math.floor(math.log10(raw))
    return next(multiple * power for multiple in NICE_STEPS if multiple * power >= raw * (1 - 1e-9))


def format_number(value: float, step: float) -> str:
    """Format a tick value with the decimals ``step`` needs, a true minus sign and SI suffixes (k, M, G).

    Examples
    --------
    >>> format_number(-2.5, 2.5), format_number(0.30000000000000004, 0.1), format_number(20000.0, 5000.0)
    ('−2.5', '0.3', '20k')
    >>> format_number(2.5e6, 5e5), format_number(4e9, 2e9)
    ('2.5M', '4G')

    """
    if abs(value) < step * 1e-9:
        value = 0.0
    for unit, suffix, smallest in ((1e9, "G", 1e9), (1e6, "M", 1e6), (1e3, "k", 1e4)):
        if abs(value) >= smallest and step >= unit / 1_000:
            return format_number(value / unit, step / unit) + suffix
    decimals = 0
    while decimals < 12 and abs(step * 10**decimals - round(step * 10**decimals)) > 1e-9 * 10**decimals:
        decimals += 1
    text = f"{value:.{decimals}f}"
    return text.replace("-", MINUS)


def power_of_ten_label(exponent: int) -> str:
    """Return Plotly's label for ``10**exponent`` on a log axis with ``exponentformat="power"``.

    Examples
    --------
    >>> [power_of_ten_label(k) for k in (-1, 0, 1, 3)]
    ['10<sup>−1</sup>', '1', '10', '10<sup>3</sup>']

    """
    if exponent == 0:
        return "1"
    if exponent == 1:
        return "10"
    return f"10<sup>{str(exponent).replace('-', MINUS)}</sup>"


def linear_ticks(low: float, high: float) -> tuple[list[float], list[str]]:
    """Ticks at multiples of :func:`nice_step` within ``[low, high]``.

    Examples
    --------
    >>> linear_ticks(-8.9, 95.7)
    ([0.0, 20.0, 40.0, 60.0, 80.0], ['0', '20', '40', '60', '80'])

    """
    step = nice_step(high - low)
    first = math.ceil(low / step - 1e-9)
    last = math.floor(high / step + 1e-9)
    # k * step rounds: keep a tick whose rounded value falls a hair outside the range out of it
    tolerance = 1e-9 * (high - low)
    values = [k * step for k in range(first, last + 1) if low - tolerance <= k * step <= high + tolerance]
    return [float(value) for value in values], [format_number(value, step) for value in values]


def log_ticks(
    low: float, high: float, tickvals: Sequence[float] | None = None, decades: int = 1
) -> tuple[list[float], list[str]]:
    """Ticks of a log axis whose range is ``[low, high]`` in powers of ten.

    With ``tickvals``, those within the range (labelled as numbers); otherwise the powers of ten within it
    whose exponent is a multiple of ``decades`` (Plotly's ``dtick`` of a log axis).

    Examples
    --------
    >>> log_ticks(-0.05, 0.70, [1, 2, 4, 8, 16])
    ([1, 2, 4], ['1', '2', '4'])
    >>> log_ticks(0.6, 3.2)[1]
    ['10', '10<sup>2</sup>', '10<sup>3</sup>']
    >>> log_ticks(0.6, 5.2, decades=2)[1]
    ['10<sup>2</sup>', '10<sup>4</sup>']

    """
    if tickvals is not None:
        return given_ticks(tickvals, low, high, math.log10)
    first = math.ceil((low - 1e-9) / decades) * decades
    exponents = range(first, math.floor(high + 1e-9) + 1, decades)
    return [10.0**k for k in exponents], [power_of_ten_label(k) for k in exponents]


def given_ticks(
    tickvals: Sequence[float], low: float, high: float, position: Callable[[float], float] = float
) -> tuple[list[float], list[str]]:
    """Return the given tick values whose ``position`` lies within ``[low, high]``, labelled as numbers.

    ``position`` is the value itself on a linear axis and its ``log10`` on a log axis (whose range Plotly
    gives in powers of ten).

    Examples
    --------
    >>> given_ticks([0, 5, 10, 15, 20], -0.5, 15.5)
    ([0, 5, 10, 15], ['0', '5', '10', '15'])
    >>> given_ticks([1, 1.5, 2, 4], -0.05, 0.35, math.log10)
    ([1, 1.5, 2], ['1', '1.5', '2'])

    """
    inside = [value for value in tickvals if low - 1e-9 <= position(value) <= high + 1e-9]
    return inside, [format_number(value, _decimal_unit(value)) for value in inside]


def _decimal_unit(value: float) -> float:
    """Return the last decimal place that ``value`` uses (1 for whole numbers, 0.1 for 1.5, ...)."""
    unit = 1.0
    while abs(value / unit - round(value / unit)) > 1e-9 and unit > 1e-9:
        unit /= 10
    return unit


def axis_ticks(
    axis: dict[str, Any], axis_range: Sequence[float], chosen: bool = False
) -> tuple[list[float], list[str]]:
    """Tick values and labels for a Plotly axis spec (``type``, ``tickvals``) shown over ``axis_range``.

    A log axis keeps its ``tickvals`` within the range; a linear axis keeps them only if they are ``chosen``
    by the views (a base figure's ``tickvals`` on a linear axis, one per data point, would crowd a moving
    axis), and otherwise gets the multiples of :func:`nice_step`.
    """
    low, high = sorted(float(value) for value in axis_range)
    if axis.get("type") == "log":
        dtick = axis.get("dtick", 1)  # a whole number of decades; Plotly's "D1", "L..." forms are not
        whole = isinstance(dtick, int | float) and float(dtick).is_integer() and dtick >= 1
        return log_ticks(low, high, axis.get("tickvals"), int(dtick) if whole else 1)
    if axis.get("type") not in (None, "linear", "-"):
        raise ValueError(f"explicit ticks for a {axis.get('type')!r} axis are not supported")
    if chosen and axis.get("tickvals") is not None:
        return given_ticks(axis["tickvals"], low, high)
    return linear_ticks(low, high)


# ---- preparing the states --------------------------------------------------------------------------------

#: Plotly pads an autoranged axis by about this share of the data's span on each side.
_AUTORANGE_PADDING = 0.05


def with_fixed_autoranges(figure: dict[str, Any], views: list[View], default: int) -> list[View]:
    """Give an autoranged axis whose data change between states an explicit range in every state.

    Plotly would move such an axis with the data; with the range written out, the page's script can move it
    directly (see :func:`with_explicit_ticks`). Axes carrying scatter traces only get the data's extent,
    padded by :data:`_AUTORANGE_PADDING` of its span on each side (in powers of ten on a log axis); axes
    carrying a heatmap get the outer edges of its cells (and any scatter point beyond them), as Plotly does.
    ``figure`` (the initial one, showing state ``default``) gets the range of that state.
    """
    layout = figure["layout"]
    traces = figure["data"]
    out = views
    for letter in ("x", "y"):
        for name in sorted({axis_name(trace.get(f"{letter}axis", letter)) for trace in traces}):
            spec = layout.get(name, {})
            on_axis = [
                k for k, trace in enumerate(traces) if axis_name(trace.get(f"{letter}axis", letter)) == name
            ]
            types = {traces[k].get("type", "scatter") for k in on_axis}
            if not left_to_autorange(spec, types) or any(f"{name}.range" in view.layout for view in views):
                continue
            ranges = [data_range(traces, view, on_axis, letter, spec, "heatmap" in types) for view in views]
            if any(r is None for r in ranges):
                continue
            if len({json.dumps(r) for r in ranges}) == 1:
                # The data move within a fixed extent: fix the range once; moving them then needs no redraw.
                moving = any(
                    len({json.dumps(plain(view.traces[k].get(letter))) for view in views}) > 1
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


def with_a_point_in_every_state(figure: dict[str, Any], views: list[View], default: int) -> list[View]:
    """Give a scatter trace that is empty in some states (but not all) one missing point in those states.

    Plotly draws no SVG group for an empty trace; with a single ``null`` point it keeps the trace's group
    (and draws nothing in it), so the page's script can draw the trace's points directly when they come back.
    ``figure`` gets the same change if the initial state (``default``) is one of the empty ones.
    """
    out = views
    for k, trace in enumerate(figure["data"]):
        if trace.get("type", "scatter") != "scatter":
            continue
        empty = [is_empty(view.traces[k], trace) for view in views]
        if not any(empty) or all(empty):
            continue
        out = [
            View(
                traces=[
                    one_missing_point(update) if j == k and is_empty else update
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
                **one_missing_point({key: trace[key] for key in ("x", "y", "text") if key in trace}),
            }
    return out


def is_empty(update: dict[str, Any], trace: dict[str, Any]) -> bool:
    """Whether a trace shows no point in a state: its ``x`` there (or in the base trace) has length 0."""
    xs = update.get("x", trace.get("x"))
    return xs is not None and len(xs) == 0


def a_blank_label(update: dict[str, Any], trace: dict[str, Any]) -> dict[str, Any]:
    """``update`` with a blank first label if the trace is drawn with text and every label in it is empty.

    Plotly draws no ``<text>`` for an empty label, and the page's script writes a label that appears only
    into a ``<text>`` copied from one Plotly drew for the same trace. A trace whose labels are all empty in
    the state Plotly draws would leave nothing to copy; with one blank label (``" "``, which shows nothing)
    Plotly draws one. A trace without points, or with a label that is not empty, is left as it is.
    """
    if "text" not in str(update.get("mode", trace.get("mode", ""))):
        return update
    labels = update.get("text", trace.get("text"))
    xs = update.get("x", trace.get("x"))
    if not isinstance(labels, list | tuple) or not labels or any(label not in ("", None) for label in labels):
        return update
    if xs is None or all(x is None for x in xs):
        return update
    return {**update, "text": [" ", *labels[1:]]}


def one_missing_point(update: dict[str, Any]) -> dict[str, Any]:
    """``update`` with every empty per-point list replaced by one ``None``."""
    return {
        path: [None] if isinstance(value, list | tuple | np.ndarray) and len(value) == 0 else value
        for path, value in update.items()
    }


def data_range(
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


def axis_name(reference: str) -> str:
    """``"x2"`` to ``"xaxis2"``."""
    return f"{reference[0]}axis{reference[1:]}"


def _finite(value: Any, log: bool) -> bool:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return False
    return bool(np.isfinite(number)) and (number > 0 or not log)


def with_explicit_colorbar_ticks(figure: dict[str, Any], views: list[View]) -> list[View]:
    """Give the colour bar of a heatmap whose ``zmin``/``zmax`` change between states explicit ticks.

    As for axes (:func:`with_explicit_ticks`): the page's script can then move the colour bar's labels.
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


def with_explicit_ticks(layout: dict[str, Any], views: list[View]) -> list[View]:
    """Give every axis whose range changes between states explicit ticks in each state (:func:`axis_ticks`).

    A view that sets an axis' ``tickvals`` (fewer labels for a wider range, one step for similar ranges) has
    those within its range. ``layout`` (the initial figure's, showing the default view) is updated in place to
    the ticks of its own range.
    """
    changing = sorted(
        path[: -len(".range")]
        for path in {path for view in views for path in view.layout}
        if path.endswith(".range")
        and re.fullmatch(r"[xy]axis\d*", path[: -len(".range")])
        and len({json.dumps(plain(view.layout.get(path))) for view in views}) > 1
    )
    if not changing:
        return views
    chosen = {axis for axis in changing if any(f"{axis}.tickvals" in view.layout for view in views)}
    out = []
    for view in views:
        extra: dict[str, Any] = {}
        for axis in changing:
            spec = layout.get(axis, {})
            if f"{axis}.tickvals" in view.layout:
                spec = {**spec, "tickvals": view.layout[f"{axis}.tickvals"]}
            axis_range = view.layout.get(f"{axis}.range", spec.get("range"))
            tickvals, ticktext = axis_ticks(spec, axis_range, axis in chosen)
            extra[f"{axis}.tickvals"] = tickvals
            extra[f"{axis}.ticktext"] = ticktext
        out.append(View(traces=view.traces, layout={**view.layout, **extra}, readout=view.readout))
    for axis in changing:
        spec = layout.setdefault(axis, {})
        tickvals, ticktext = axis_ticks(spec, plain(spec["range"]), axis in chosen)
        spec.update({"tickmode": "array", "tickvals": tickvals, "ticktext": ticktext})
    return out


def with_centred_annotations(layout: dict[str, Any], views: Sequence[View]) -> None:
    """Write ``xanchor: "center"`` on every annotation without an arrow that Plotly centres by default.

    Plotly centres an annotation whose ``xanchor`` is ``"auto"`` (the default) on its ``x`` when that is on
    a data axis, and when it is a fraction of the paper or of an axis' domain between 1/3 and 2/3 (left of
    that it anchors the left side, right of it the right side). The direct drawing writes new words only
    into an annotation whose ``xanchor`` is ``"center"``, where words of another width stay centred on the
    same point: saying so changes nothing Plotly draws. A paper annotation whose ``x`` a view sets (in
    ``views``) is left as it is, since its anchor would follow ``x``. ``layout`` is updated in place.
    """
    placed = {
        int(match[1])
        for view in views
        for path in view.layout
        if (match := re.fullmatch(r"annotations\[(\d+)\]\.x", path))
    }
    for index, annotation in enumerate(layout.get("annotations", [])):
        if annotation.get("showarrow", True) or annotation.get("xanchor", "auto") != "auto":
            continue
        on_data = re.fullmatch(r"x\d*", annotation.get("xref", "x")) is not None
        if on_data or (index not in placed and 1 / 3 <= float(annotation.get("x", 0.5)) <= 2 / 3):
            annotation["xanchor"] = "center"


def prepare_states(figure: dict[str, Any], views: list[View], default: int) -> list[View]:
    """Return ``views`` prepared for the direct drawing, updating ``figure`` (showing state ``default``).

    The six preparations of this module, in the order they depend on each other: a point in every state,
    fixed autoranges, then explicit ticks on the axes whose ranges now move, then colour-bar ticks; and
    centred annotations and blank labels, which depend on nothing else (a blank label goes only where the
    trace has points already).
    """
    with_centred_annotations(figure["layout"], views)
    figure["data"] = [{**trace, **a_blank_label(trace, trace)} for trace in figure["data"]]
    views = [
        View(
            traces=[
                a_blank_label(update, trace)
                for update, trace in zip(view.traces, figure["data"], strict=True)
            ],
            layout=view.layout,
            readout=view.readout,
        )
        for view in views
    ]
    views = with_a_point_in_every_state(figure, views, default)
    views = with_fixed_autoranges(figure, views, default)
    views = with_explicit_ticks(figure["layout"], views)
    return with_explicit_colorbar_ticks(figure, views)
