"""One small demo per feature of the site's direct drawing (``rope-viz-direct.js``), for fixture pages.

Each demo shows one thing the direct drawing moves in the SVG that Plotly drew (a line with gaps, line
colours, a filled area, markers and their colours, a cloud of markers painted on a canvas, point labels,
labels drawn over the axes' edges that leave the ranges and come back, bars, heatmap cells and their numbers,
heatmap columns as many as the x range holds, a colour bar whose range moves: setting the figure's margin, in
a fixed margin, under a wide title; a linear or a log axis whose range moves, a zero line that comes and goes,
an autoranged axis, axis titles beside tick labels that get wider and narrower, shapes, annotations, a trace
that is empty in some states) with a slider or two of a few steps.
``tests/site/test_drawing_features.py`` writes each on a page of its own and compares, at every step of every
slider, the direct drawing with Plotly's drawing of the same state, pixel by pixel; the steps
:data:`DRAWN_BY_PLOTLY` names must be left to Plotly instead. The values are made up: these figures test the
drawing, not the math.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from rope_viz.demos.base import Control, Demo, View

COLORSCALE = [[0.0, "#2166ac"], [0.5, "#f7f7f7"], [1.0, "#b2182b"]]
LAYOUT = {
    "height": 360,
    "margin": {"l": 60, "r": 30, "t": 30, "b": 50},
    "showlegend": False,
}


def _steps(name: str, count: int, label: str = "") -> Control:
    return Control(name, label or name, tuple(range(count)), 0, 0, count - 1, integer=True)


def _axes(x_range=(0, 10), y_range=(-2, 2), **extra) -> dict:
    return {
        **LAYOUT,
        "xaxis": {"title": {"text": "x"}, "range": list(x_range)},
        "yaxis": {"title": {"text": "y"}, "range": list(y_range)},
        **extra,
    }


class LinesWithGaps(Demo):
    """A line broken by missing points, moving with the slider."""

    title = "Lines with gaps"
    controls = (_steps("phase", 5),)

    def base_figure(self) -> dict:
        return {"data": [{"type": "scatter", "mode": "lines", "line": {"width": 2}}], "layout": _axes()}

    def view(self, phase: float) -> View:
        xs = [k / 4 for k in range(41)]
        ys = [None if k % 13 == 12 else round(math.sin(x + phase / 2), 4) for k, x in enumerate(xs)]
        return View(traces=[{"x": xs, "y": ys}], readout=f"phase {phase}")


class FilledArea(Demo):
    """A closed polygon filled to itself, growing with the slider."""

    title = "Filled area"
    controls = (_steps("size", 4),)

    def base_figure(self) -> dict:
        trace = {"type": "scatter", "mode": "lines", "fill": "toself", "line": {"width": 1}}
        return {"data": [trace], "layout": _axes(x_range=(-5, 5), y_range=(-5, 5))}

    def view(self, size: float) -> View:
        radius = 1 + size
        angles = [2 * math.pi * k / 7 for k in range(8)]
        xs = [round(radius * math.cos(a), 4) for a in angles]
        ys = [round(radius * math.sin(a), 4) for a in angles]
        return View(traces=[{"x": xs, "y": ys}], readout=f"radius {radius}")


class ColouredMarkers(Demo):
    """A few circle markers whose places and colours (on a colour scale) follow the slider."""

    title = "Coloured markers"
    controls = (_steps("turn", 5),)

    def base_figure(self) -> dict:
        marker = {"size": 12, "colorscale": COLORSCALE, "cmin": -1, "cmax": 1, "symbol": "circle"}
        trace = {"type": "scatter", "mode": "markers", "marker": marker}
        return {"data": [trace], "layout": _axes()}

    def view(self, turn: float) -> View:
        xs = [1 + k for k in range(9)]
        ys = [round(math.cos(0.7 * k + turn / 2), 4) for k in range(9)]
        return View(traces=[{"x": xs, "y": ys, "marker.color": ys}], readout=f"turn {turn}")


#: The fewest markers of a trace that the direct drawing paints on a canvas (``CANVAS_MARKERS``).
CANVAS_MARKERS = int(
    re.search(
        r"var CANVAS_MARKERS = (\d+);",
        (Path(__file__).resolve().parents[2] / "rope_viz/site/static/rope-viz-direct.js").read_text("utf-8"),
    ).group(1)
)


class MarkerCloud(Demo):
    """Enough markers (twice ``CANVAS_MARKERS``) for the direct drawing to paint them on a canvas."""

    title = "Marker cloud"
    controls = (_steps("spread", 4),)

    def base_figure(self) -> dict:
        trace = {"type": "scatter", "mode": "markers", "marker": {"size": 6, "color": "#1f77b4"}}
        return {"data": [trace], "layout": _axes(x_range=(-1, 11))}

    def view(self, spread: float) -> View:
        count = 2 * CANVAS_MARKERS
        xs = [round(10 * k / count, 4) for k in range(count)]
        ys = [round((1 + spread) / 3 * math.sin(1.7 * k), 4) for k in range(count)]
        return View(traces=[{"x": xs, "y": ys}], readout=f"spread {spread}")


class PointLabels(Demo):
    """Markers with text labels whose words change."""

    title = "Point labels"
    controls = (_steps("shift", 4),)

    def base_figure(self) -> dict:
        trace = {"type": "scatter", "mode": "markers+text", "textposition": "top center"}
        return {"data": [trace], "layout": _axes()}

    def view(self, shift: float) -> View:
        xs = [2, 4, 6, 8]
        ys = [round(0.5 * math.sin(k + shift), 4) for k in range(4)]
        texts = [f"p{k} +{int(shift)}" for k in range(4)]
        return View(traces=[{"x": xs, "y": ys, "text": texts}], readout=f"shift {shift}")


class LabelsOverTheEdges(Demo):
    """Markers and labels drawn over the axes' edges (``cliponaxis: False``), whose points move out of the
    axes' ranges and back: Plotly hides a point outside the ranges, and shows it again when it comes back."""

    title = "Labels over the edges"
    controls = (_steps("move", 5),)

    def base_figure(self) -> dict:
        edge = {"type": "scatter", "mode": "markers+text", "textposition": "top right", "cliponaxis": False}
        clipped = {"type": "scatter", "mode": "lines+text", "textposition": "top right"}
        return {"data": [edge, clipped], "layout": _axes()}

    def view(self, move: float) -> View:
        # Move 0 puts the points far outside both ranges, 1 just outside, 2 to 4 inside (4 on the edges).
        x_by_move = [1e6, 10.5, 9.0, 5.0, 10.0]
        y_by_move = [-50.0, 2.2, 1.5, 0.0, 2.0]
        x, y = x_by_move[int(move)], y_by_move[int(move)]
        edge = {"x": [1, x], "y": [1, y], "text": ["", f"max {int(move)}"]}
        clipped = {"x": [0, x], "y": [-1, -y], "text": ["", f"line {int(move)}"]}
        return View(traces=[edge, clipped], readout=f"move {move}")


class Bars(Demo):
    """Vertical bars whose heights change, signs included."""

    title = "Bars"
    controls = (_steps("tilt", 5),)

    def base_figure(self) -> dict:
        trace = {"type": "bar", "marker": {"color": "#2ca02c"}}
        return {"data": [trace], "layout": _axes(x_range=(-0.5, 7.5), y_range=(-3, 3))}

    def view(self, tilt: float) -> View:
        ys = [round((k - 3.5) * (tilt - 2) / 3, 4) for k in range(8)]
        return View(traces=[{"x": list(range(8)), "y": ys}], readout=f"tilt {tilt}")


class HeatmapCells(Demo):
    """A heatmap whose cell values change, with a fixed-point number in every cell."""

    title = "Heatmap cells"
    controls = (_steps("phase", 4),)

    def base_figure(self) -> dict:
        trace = {
            "type": "heatmap",
            "x": list(range(6)),
            "y": list(range(4)),
            "colorscale": COLORSCALE,
            "zmin": -1,
            "zmax": 1,
            "texttemplate": "%{z:.2f}",
            "xgap": 1,
            "ygap": 1,
        }
        layout = {**LAYOUT, "xaxis": {"title": {"text": "column"}}, "yaxis": {"title": {"text": "row"}}}
        return {"data": [trace], "layout": layout}

    def view(self, phase: float) -> View:
        z = [[round(math.cos(0.6 * col + 0.9 * row + phase), 3) for col in range(6)] for row in range(4)]
        return View(traces=[{"z": z}], readout=f"phase {phase}")


class HeatmapColumnsWithTheRange(Demo):
    """A heatmap of one column per item, as many items as the slider says, across the whole x axis.

    The x range follows the number of columns (chapter 8's layer map: a column per layer of each model), so
    the image keeps its place while its cells and the axis's ticks change.
    """

    title = "Heatmap columns with the range"
    controls = (_steps("columns", 4),)
    COLUMNS = (12, 5, 30, 1)

    def base_figure(self) -> dict:
        trace = {"type": "heatmap", "y": list(range(5)), "colorscale": COLORSCALE, "zmin": -1, "zmax": 1}
        layout = {**LAYOUT, "xaxis": {"title": {"text": "column"}}, "yaxis": {"title": {"text": "row"}}}
        return {"data": [trace], "layout": layout}

    def view(self, columns: float) -> View:
        count = self.COLUMNS[round(columns)]
        z = [[round(math.sin(0.7 * col - 1.1 * row), 3) for col in range(count)] for row in range(5)]
        return View(
            traces=[{"x": list(range(count)), "z": z}],
            layout={"xaxis.range": [-0.5, count - 0.5]},
            readout=f"{count} columns",
        )


#: The colour ranges (plus and minus each bound) of the colour-bar demos. The widest tick label is "−10" at 10
#: and at 12 (the same labels, at other places), as wide at 20 and 40 ("−20", "−40": digits are equally wide)
#: and wider at 100 ("−100").
COLOUR_BOUNDS = (10, 12, 20, 40, 100)


class ColourBarRange(Demo):
    """A heatmap whose colour range (and so its colour bar's ticks) follows the slider.

    The colour bar sits to the right of the plot, in a margin too narrow for it: Plotly widens the margin by
    the bar's width, which follows its widest tick label. The direct drawing, moving only what is drawn,
    leaves a step that changes that width to Plotly (:data:`DRAWN_BY_PLOTLY`).
    """

    title = "Colour bar range"
    controls = (_steps("scale", len(COLOUR_BOUNDS)),)
    #: The colour bar's title (none: its labels alone set its width).
    bar_title = ""
    #: The figure's right margin, in pixels.
    right_margin = LAYOUT["margin"]["r"]

    def base_figure(self) -> dict:
        colorbar = {"x": 1.02, "xanchor": "left", "thickness": 14}
        if self.bar_title:
            colorbar["title"] = {"text": self.bar_title}
        trace = {
            "type": "heatmap",
            "x": list(range(8)),
            "y": list(range(5)),
            "colorscale": COLORSCALE,
            "colorbar": colorbar,
        }
        layout = {
            **LAYOUT,
            "margin": {**LAYOUT["margin"], "r": self.right_margin},
            "xaxis": {"title": {"text": "column"}},
            "yaxis": {"title": {"text": "row"}},
        }
        return {"data": [trace], "layout": layout}

    def view(self, scale: float) -> View:
        bound = COLOUR_BOUNDS[int(scale)]
        z = [[round(bound * math.sin(column - row), 4) for column in range(8)] for row in range(5)]
        return View(traces=[{"z": z, "zmin": -bound, "zmax": bound}], readout=f"bound {bound}")


class ColourBarInFixedMargin(ColourBarRange):
    """The same colour bar in a right margin wide enough for all its labels: every step is drawn directly."""

    title = "Colour bar in a fixed margin"
    right_margin = 110


class ColourBarUnderTitle(ColourBarRange):
    """The same colour bar under a title wider than its labels, which sets the bar's width.

    The bar sets the figure's margin, but its width does not follow its labels: every step is drawn directly.
    """

    title = "Colour bar under a wide title"
    bar_title = "value, no unit"


class MovingLinearAxis(Demo):
    """An x axis whose range (and ticks, gridlines, tick labels) moves with the slider."""

    title = "Moving linear axis"
    controls = (_steps("window", 5),)

    def base_figure(self) -> dict:
        trace = {"type": "scatter", "mode": "lines+markers", "marker": {"size": 5}}
        return {"data": [trace], "layout": _axes()}

    def view(self, window: float) -> View:
        end = 10 * 2**window
        xs = [end * k / 20 for k in range(21)]
        ys = [round(math.sin(k / 3), 4) for k in range(21)]
        return View(traces=[{"x": xs, "y": ys}], layout={"xaxis.range": [0, end]}, readout=f"end {end}")


class ZeroLine(Demo):
    """A y axis whose range holds 0 at some steps only, from a first step where Plotly draws no zero line."""

    title = "A zero line that comes and goes"
    controls = (_steps("centre", 4),)

    def base_figure(self) -> dict:
        trace = {"type": "scatter", "mode": "lines", "x": [0, 10], "y": [0.5, 1.5]}
        return {"data": [trace], "layout": _axes(y_range=(0.5, 3.5))}

    def view(self, centre: float) -> View:
        middle = 2 - centre
        layout = {"yaxis.range": [middle - 1.5, middle + 1.5]}
        return View(traces=[{}], layout=layout, readout=f"centre {middle}")


class LogAxis(Demo):
    """A log y axis whose range grows by powers of ten (labels written as 10 to a power)."""

    title = "Log axis"
    controls = (_steps("decades", 4),)

    def base_figure(self) -> dict:
        trace = {"type": "scatter", "mode": "lines"}
        layout = _axes()
        layout["yaxis"] = {"title": {"text": "y"}, "type": "log", "range": [0, 2]}
        return {"data": [trace], "layout": layout}

    def view(self, decades: float) -> View:
        top = 2 + 2 * decades
        xs = list(range(11))
        ys = [10 ** (top * k / 10) for k in range(11)]
        return View(traces=[{"x": xs, "y": ys}], layout={"yaxis.range": [0, top]}, readout=f"10^{top}")


class AutorangedAxis(Demo):
    """An axis left to Plotly's autorange whose data move (the site fixes its range in every state)."""

    title = "Autoranged axis"
    controls = (_steps("height", 4),)

    def base_figure(self) -> dict:
        trace = {"type": "scatter", "mode": "lines"}
        layout = {**LAYOUT, "xaxis": {"title": {"text": "x"}}, "yaxis": {"title": {"text": "y"}}}
        return {"data": [trace], "layout": layout}

    def view(self, height: float) -> View:
        xs = list(range(12))
        ys = [round((1 + height) * math.sin(k / 2), 4) for k in range(12)]
        return View(traces=[{"x": xs, "y": ys}], readout=f"height {height}")


class TitlesBesideTickLabels(Demo):
    """Two y axes whose tick labels get wider and narrower: Plotly keeps the left axis's title, which has a
    standoff, that far from the labels' outer edge, and pushes the right axis's title, which has none, clear
    of the labels it would overlap."""

    title = "Axis titles beside tick labels"
    controls = (_steps("scale", 5),)

    def base_figure(self) -> dict:
        left = {"type": "scatter", "mode": "lines"}
        right = {"type": "scatter", "mode": "lines", "yaxis": "y2"}
        layout = {
            **LAYOUT,
            "margin": {"l": 90, "r": 90, "t": 30, "b": 50},
            "xaxis": {"title": {"text": "x"}, "range": [0, 10]},
            "yaxis": {"title": {"text": "left, standoff", "standoff": 3}, "range": [-1, 1]},
            # Large labels: the wide ones overlap the right title's own place, the narrow ones do not.
            "yaxis2": {
                "title": {"text": "right, without a standoff"},
                "tickfont": {"size": 20},
                "overlaying": "y",
                "side": "right",
                "range": [-1, 1],
            },
        }
        return {"data": [left, right], "layout": layout}

    def view(self, scale: float) -> View:
        # Labels from "−1" to "−100k" wide and back, by uneven steps.
        top = [1, 1000, 10, 100_000, 0.5][int(scale)]
        xs = list(range(11))
        ys = [round(top * math.sin(k / 2), 6) for k in range(11)]
        layout = {"yaxis.range": [-top, top], "yaxis2.range": [-2 * top, 2 * top]}
        return View(
            traces=[{"x": xs, "y": ys}, {"x": xs, "y": [-y for y in ys]}], layout=layout, readout=f"top {top}"
        )


class ShapesAndAnnotations(Demo):
    """A rectangle and a line shape that move, an annotation whose text and place follow two sliders, and a
    title on the paper whose text follows one; both annotations are centred by Plotly's default anchor."""

    title = "Shapes and annotations"
    controls = (_steps("left", 4), _steps("level", 3))

    def base_figure(self) -> dict:
        layout = _axes()
        layout["shapes"] = [
            {"type": "rect", "x0": 1, "x1": 3, "y0": -1, "y1": 1, "fillcolor": "rgba(255,127,14,0.3)"},
            {"type": "line", "x0": 0, "x1": 10, "y0": 0, "y1": 0, "line": {"color": "#d62728", "width": 2}},
        ]
        layout["annotations"] = [
            {"x": 2, "y": 1.5, "text": "box", "showarrow": False},
            {"x": 0.5, "y": 0.98, "xref": "paper", "yref": "paper", "text": "level", "showarrow": False},
        ]
        diagonal = {"type": "scatter", "mode": "lines", "x": [0, 10], "y": [-1.8, 1.8]}
        return {"data": [diagonal], "layout": layout}

    def view(self, left: float, level: float) -> View:
        y = level - 1
        layout = {
            "shapes[0].x0": 1 + 2 * left,
            "shapes[0].x1": 3 + 2 * left,
            "shapes[1].y0": y,
            "shapes[1].y1": y,
            "annotations[0].x": 2 + 2 * left,
            "annotations[0].text": f"box at {1 + 2 * left:g}",
            "annotations[1].text": f"the line at level {y:g}",
        }
        return View(traces=[{}], layout=layout, readout=f"left {left}, level {level}")


class SometimesEmpty(Demo):
    """A trace with no points in some states beside one that always has points, with a legend."""

    title = "A trace that is sometimes empty"
    controls = (_steps("count", 5),)

    def base_figure(self) -> dict:
        layout = {**_axes(), "showlegend": True}
        data = [
            {"type": "scatter", "mode": "lines", "name": "always"},
            {"type": "scatter", "mode": "markers", "name": "sometimes", "marker": {"size": 9}},
        ]
        return {"data": data, "layout": layout}

    def view(self, count: float) -> View:
        n = int(count) * 2
        always = {"x": [0, 10], "y": [-1, 1]}
        sometimes = {"x": [1 + k for k in range(n)], "y": [round(math.cos(k), 4) for k in range(n)]}
        return View(traces=[always, sometimes], readout=f"{n} points")


class LineColours(Demo):
    """Two lines whose colours change with the slider (one of them with an rgba colour), with a legend, beside
    a line with markers whose colour is left alone."""

    title = "Line colours"
    controls = (_steps("colour", 4), _steps("shift", 3))

    COLOURS = ("#1f77b4", "#d62728", "rgba(44, 160, 44, 0.5)", "rgb(148, 103, 189)")

    def base_figure(self) -> dict:
        layout = {**_axes(), "showlegend": True}
        data = [
            {"type": "scatter", "mode": "lines", "name": "recoloured", "line": {"width": 3}},
            {"type": "scatter", "mode": "lines", "name": "dashed", "line": {"width": 2, "dash": "dash"}},
            {"type": "scatter", "mode": "lines+markers", "name": "fixed", "line": {"color": "#7f7f7f"}},
        ]
        return {"data": data, "layout": layout}

    def view(self, colour: float, shift: float) -> View:
        xs = [k / 2 for k in range(21)]
        first = self.COLOURS[int(colour)]
        second = self.COLOURS[(int(colour) + 1) % len(self.COLOURS)]
        traces = [
            {"x": xs, "y": [round(math.sin(x + shift), 4) for x in xs], "line.color": first},
            {"x": xs, "y": [round(math.cos(x - shift), 4) for x in xs], "line.color": second},
            {"x": xs[::4], "y": [round(0.5 * math.sin(x), 4) for x in xs[::4]]},
        ]
        return View(traces=traces, readout=f"colours {first} and {second}, shift {shift}")


#: Every feature demo, in the order the test visits them.
FEATURES: tuple[type[Demo], ...] = (
    LinesWithGaps,
    LineColours,
    FilledArea,
    ColouredMarkers,
    MarkerCloud,
    PointLabels,
    LabelsOverTheEdges,
    Bars,
    HeatmapCells,
    HeatmapColumnsWithTheRange,
    ColourBarRange,
    ColourBarInFixedMargin,
    ColourBarUnderTitle,
    MovingLinearAxis,
    ZeroLine,
    LogAxis,
    AutorangedAxis,
    TitlesBesideTickLabels,
    ShapesAndAnnotations,
    SometimesEmpty,
)

#: The steps, as (slider index, value), that Plotly draws instead of the direct drawing in the test's walk
#: (each value of each slider in turn, then back to the start; Plotly draws every state once it is shown), for
#: the demos that have any. Colour bar range: 12, 20 and 40 keep the width of the widest label ("−10"), 100
#: widens it ("−100") and the step back to 10 narrows it again, moving the margin both times.
DRAWN_BY_PLOTLY: dict[type[Demo], frozenset[tuple[int, int]]] = {
    ColourBarRange: frozenset({(0, 4), (0, 0)}),
}

#: The demos whose steps the direct drawing paints on a canvas layer (heatmap cells, a colour bar's heatmap,
#: a cloud of markers): the test checks that some step of each shows one.
PAINTED_ON_CANVAS: frozenset[type[Demo]] = frozenset(
    {
        MarkerCloud,
        HeatmapCells,
        HeatmapColumnsWithTheRange,
        ColourBarRange,
        ColourBarInFixedMargin,
        ColourBarUnderTitle,
    }
)
