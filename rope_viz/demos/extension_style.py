"""Shared look of the context-extension demos: a colour per method and per pair class, panel titles, rounding.

Every colour is a mid-tone that stays legible on the site's light and dark backgrounds (Okabe-Ito hues, safe
for the common colour-vision deficiencies).
"""

from __future__ import annotations

import numpy as np

from rope_viz.figures.rounding import significant

PLAIN = "#8c8c8c"
PI = "#D55E00"
NTK = "#2F8FD8"
DYNAMIC = "#8E6BD6"
YARN = "#009E73"
LLAMA3 = "#CC79A7"
LONGROPE = "#E69F00"

TRAINED = "#2F8FD8"
TARGET = "#E69F00"
UNSEEN = "#D55E00"

#: Pair classes of :func:`rope_viz.scaling.classify_pairs`: colour and marker symbol.
CLASS_STYLE = {
    "untouched": ("#2F8FD8", "circle"),
    "blended": ("#E69F00", "diamond"),
    "interpolated": ("#D55E00", "square"),
}

FONT_SIZE = 14


def panel_title(text: str, y: float) -> dict:
    """Return a centred annotation above a panel, at paper height ``y``."""
    return {
        "text": text,
        "x": 0.5,
        "y": y,
        "xref": "paper",
        "yref": "paper",
        "xanchor": "center",
        "yanchor": "bottom",
        "showarrow": False,
        "font": {"size": FONT_SIZE + 1},
    }


def wavelength_trace(name: str, color: str, dash: str, *, marker_size: int = 5) -> dict:
    """Return a wavelength-per-pair curve on the lower panel (axes ``x2``, ``y2``, legend ``legend2``)."""
    return {
        "type": "scatter",
        "mode": "lines+markers",
        "name": name,
        "line": {"color": color, "width": 2.5, "dash": dash},
        "marker": {"color": color, "size": marker_size},
        "hovertemplate": "pair %{x}<br>λ = %{y:,.0f} tokens<extra>" + name + "</extra>",
        "xaxis": "x2",
        "yaxis": "y2",
        "legend": "legend2",
    }


def slowdown_trace(name: str, color: str, mode: str, dash: str) -> dict:
    """Return a slow-down-per-pair curve ``theta_i / theta_i'`` on the lower panel (``x2``, ``y2``)."""
    return {
        "type": "scatter",
        "mode": mode,
        "name": name,
        "line": {"color": color, "width": 2.5, "dash": dash},
        "marker": {"color": color, "size": 6},
        "hovertemplate": "pair %{x}<br>slowed %{y:.3g}×<extra>" + name + "</extra>",
        "xaxis": "x2",
        "yaxis": "y2",
        "legend": "legend2",
    }


def class_traces(hovertemplate: str, *, marker_size: int = 8) -> list[dict]:
    """Return one marker trace per pair class of :data:`CLASS_STYLE` on the upper panel (``x``, ``y``).

    ``hovertemplate`` is Plotly's, without the ``<extra>`` part, which names the class.
    """
    return [
        {
            "type": "scatter",
            "mode": "markers",
            "name": name,
            "marker": {"color": color, "symbol": symbol, "size": marker_size},
            "hovertemplate": hovertemplate + "<extra>" + name + "</extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
        for name, (color, symbol) in CLASS_STYLE.items()
    ]


def reference_line(
    name: str, dash: str, *, axes: tuple[str, str] = ("x2", "y2"), label: str = "top right"
) -> dict:
    """Return a labelled grey reference line (a length, a band edge); the view sets its points and label.

    ``label`` is where the label sits beside its point (Plotly's ``textposition``): "bottom right" keeps it
    clear of a line just above.
    """
    return {
        "type": "scatter",
        "mode": "lines+text",
        "name": name,
        "line": {"color": PLAIN, "width": 1.5, "dash": dash},
        "textposition": label,
        "cliponaxis": False,
        "hoverinfo": "skip",
        "showlegend": False,
        "xaxis": axes[0],
        "yaxis": axes[1],
    }


def band_shape(xref: str, yref: str, color: str) -> dict:
    """Return a translucent vertical band spanning a panel's height; the view sets ``x0`` and ``x1``."""
    return {
        "type": "rect",
        "xref": xref,
        "yref": f"{yref} domain",
        "x0": 0,
        "x1": 0,
        "y0": 0,
        "y1": 1,
        "fillcolor": color,
        "opacity": 0.14,
        "line": {"width": 0},
        "layer": "below",
    }


def masked(values: object, keep: object, digits: int = 5) -> list[float | None]:
    """``values`` rounded, with ``None`` (a gap in the plot) where ``keep`` is false."""
    rounded = significant(values, digits)
    return [value if flag else None for value, flag in zip(rounded, np.asarray(keep).ravel(), strict=True)]


def pair_range(indices: object) -> str:
    """``"46–63"`` for a run of pair indices, ``"7"`` for one, ``"none"`` for none."""
    indices = np.asarray(indices, dtype=int).ravel()
    if indices.size == 0:
        return "none"
    if indices.size == 1:
        return str(indices[0])
    if np.all(np.diff(indices) == 1):
        return f"{indices[0]}–{indices[-1]}"
    return ", ".join(str(index) for index in indices)
