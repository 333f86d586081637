"""Drawing helpers for clock faces on ordinary x/y axes.

The site serves a bundle of plotly.js with only the trace types the course draws (a quarter of the full
bundle's size, so pages become interactive sooner), which has no polar subplots; a clock is therefore drawn on
a pair of hidden, equally scaled axes.
Angles are measured counter-clockwise from the positive x axis, in degrees, as in the rest of the course.
"""

from __future__ import annotations

import numpy as np

#: Angles at which the dial is labelled, in degrees.
DIAL_LABELS = (0, 45, 90, 135, 180, 225, 270, 315)


def xy(radius: object, angle_degrees: object, decimals: int = 3) -> tuple[list[float], list[float]]:
    """Return the points ``(r cos a, r sin a)`` for radii ``r`` and angles ``a`` in degrees, rounded."""
    radius = np.asarray(radius, dtype=float)
    angle = np.radians(np.asarray(angle_degrees, dtype=float))
    x = np.round(radius * np.cos(angle), decimals) + 0.0  # + 0.0 turns -0.0 into 0.0
    y = np.round(radius * np.sin(angle), decimals) + 0.0
    return x.tolist(), y.tolist()


def dial_traces(
    rings: tuple[float, ...] = (1.0,), *, axes: tuple[str, str] = ("x", "y"), label_radius: float = 1.2
) -> list[dict]:
    """Return the constant parts of a clock face: circles of the given radii and degree labels.

    The labels sit at ``label_radius`` times the outer radius: further out leaves room for the labels of
    points on the ring. They are not clipped to the axes.
    """
    angle = np.linspace(0.0, 360.0, 181)
    circles_x: list[float | None] = []
    circles_y: list[float | None] = []
    for ring in rings:
        x, y = xy(np.full(angle.shape, ring), angle)
        circles_x += [*x, None]
        circles_y += [*y, None]
    label_x, label_y = xy(np.full(len(DIAL_LABELS), max(rings) * label_radius), DIAL_LABELS)
    common = {"xaxis": axes[0], "yaxis": axes[1], "hoverinfo": "skip", "showlegend": False}
    return [
        {
            "type": "scatter",
            "mode": "lines",
            "name": "dial",
            "x": circles_x,
            "y": circles_y,
            "line": {"color": "rgba(128,128,128,0.55)", "width": 1},
            **common,
        },
        {
            "type": "scatter",
            "mode": "text",
            "name": "degrees",
            "x": label_x,
            "y": label_y,
            "text": [f"{angle}°" for angle in DIAL_LABELS],
            # The theme's text colour (no colour of its own): grey was 3.9:1 on white, under the 4.5:1 that
            # text needs.
            "textfont": {"size": 13},
            # Whole even where the dial gets less height than on the page (the presenter view): a label's
            # size is in px, the dial's room for it in data units.
            "cliponaxis": False,
            **common,
        },
    ]


def dial_axes(
    domain_x: list[float], domain_y: list[float], *, extent: float = 1.25, x_name: str = "x"
) -> dict:
    """Return layout entries for a pair of hidden, equally scaled axes that hold one clock face.

    ``x_name`` is the x axis's short name (``"x"``, ``"x2"``, ...); the y axis gets the matching number.
    """
    suffix = x_name[1:]
    hidden = {
        "visible": False,
        "range": [-extent, extent],
        "fixedrange": True,
        "showgrid": False,
        "zeroline": False,
    }
    # Equal scales by narrowing a domain, never by widening a range: Plotly writes a widened range back into
    # the layout and widens it again at the next resize, so each turn of a phone shrank the dial.
    return {
        f"xaxis{suffix}": {**hidden, "domain": domain_x, "constrain": "domain"},
        f"yaxis{suffix}": {
            **hidden,
            "domain": domain_y,
            "scaleanchor": x_name,
            "scaleratio": 1,
            "constrain": "domain",
        },
    }


def spaced_labels(angle_degrees: object, gap_degrees: float) -> list[str]:
    """Return each point's number as its label, or ``""`` where it would crowd a label already kept.

    The points lie on one ring at the given angles. The first point's label is kept, then the last's, then
    the others in order, each only if its angle is at least ``gap_degrees`` from every kept label's (measured
    around the circle: 350° is 20° from 10°). Labels of points closer than that would overlap.
    """
    if not gap_degrees > 0:
        raise ValueError(f"gap_degrees must be positive, got {gap_degrees!r}")
    angles = np.asarray(angle_degrees, dtype=float).ravel()
    count = len(angles)
    kept: list[int] = []
    for k in dict.fromkeys([0, count - 1, *range(1, count - 1)]) if count else []:
        around = np.abs(np.mod(angles[k] - angles[kept] + 180.0, 360.0) - 180.0)
        if np.all(around >= gap_degrees):
            kept.append(k)
    return [str(k) if k in kept else "" for k in range(count)]
