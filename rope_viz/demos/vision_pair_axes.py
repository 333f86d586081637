"""M-RoPE's pairs: which position axis (time, height, width) turns each pair, and how fast.

Upper panel: the 64 pairs of a 128-wide head in the two released layouts (:func:`rope_viz.mrope.pair_axes`),
Qwen2-VL's and Qwen2.5-VL's consecutive chunks ``(16, 24, 24)`` and Qwen3-VL's interleaving of ``(24, 20,
20)``, one row each, coloured by axis; the layout the lower panel shows is framed. Lower panel: the wavelength
``lambda_i = 2 pi / theta_i`` of every pair (log scale), coloured by its axis, against the width of an
example image in language-model tokens: a pair whose wavelength is far longer than the image hardly turns
between two of its patches.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View, superscript
from rope_viz.demos.extension_style import pair_range, reference_line
from rope_viz.demos.vision_style import (
    AXIS_COLORS,
    AXIS_NAMES,
    FONT_SIZE,
    IMAGE_PIXELS,
    IMAGE_TOKENS,
    LANGUAGE_HEAD_DIM,
    LAYOUTS,
    QWEN3_VL_BASE,
    QWEN25_VL_BASE,
    panel_title,
    significant,
)
from rope_viz.frequencies import inv_freq
from rope_viz.mrope import pair_axes

BASES = (10_000.0, QWEN25_VL_BASE, QWEN3_VL_BASE)


def base_text(base: float) -> str:
    """Write a base of the form ``a * 10**k`` (``a`` a whole number below 10) as ``"10⁶"`` or ``"5·10⁶"``.

    Raises ValueError for any other number. The figure's slider labels and the chapter's prose both use it,
    so the two cannot drift apart.

    Examples
    --------
    >>> base_text(10_000.0), base_text(1e6), base_text(5e6)
    ('10⁴', '10⁶', '5·10⁶')

    """
    message = f"base must be a whole number 1 to 9 times a power of ten >= 10, got {base!r}"
    if not (np.isfinite(base) and base >= 10):
        raise ValueError(message)
    exponent = int(np.floor(np.log10(base)))
    mantissa = base / 10.0**exponent
    if round(mantissa) != mantissa or not 1 <= mantissa < 10:
        raise ValueError(message)
    power = "10" + superscript(exponent)
    return power if mantissa == 1 else f"{int(mantissa)}·{power}"


BASE_LABELS = tuple(
    f"{base_text(base)} ({model})"
    for base, model in zip(BASES, ("RoFormer", "Qwen2.5-VL", "Qwen3-VL"), strict=True)
)
PAIRS = LANGUAGE_HEAD_DIM // 2
#: The wavelength axis, log10 of tokens: from pair 0 (2 pi) to the slowest pair at the largest base.
WAVELENGTH_RANGE = [0.5, 7.7]
AXES_SHORT = ("time", "height", "width")


def axis_runs(axes: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Return, for each axis 0, 1, 2, the pair indices it turns: ``[(axis, indices), ...]``.

    Examples
    --------
    >>> [(axis, indices.tolist()) for axis, indices in axis_runs(np.array([0, 1, 2, 0]))]
    [(0, [0, 3]), (1, [1]), (2, [2])]

    """
    axes = np.asarray(axes)
    return [(axis, np.flatnonzero(axes == axis)) for axis in range(3)]


def describe_pairs(indices: np.ndarray) -> str:
    """``"16–39"`` for a run of pairs, ``"1, 4, …, 58"`` for every third pair, with a final run after it.

    Examples
    --------
    >>> describe_pairs(np.arange(16, 40)), describe_pairs(np.arange(1, 60, 3))
    ('16–39', '1, 4, …, 58')
    >>> describe_pairs(np.array([0, 3, 6, 9, 12, 13, 14]))
    '0, 3, …, 9 and 12–14'
    >>> describe_pairs(np.array([0, 3, 7]))
    '0, 3, 7'

    """
    indices = np.asarray(indices, dtype=int)
    if indices.size < 2 or np.all(np.diff(indices) == 1):
        return pair_range(indices)
    start = indices.size - 1  # where the final run of consecutive pairs begins
    while start > 0 and indices[start] - indices[start - 1] == 1:
        start -= 1
    head, tail = indices[: start + 1], indices[start + 1 :]
    if tail.size > 1:
        head, tail = indices[:start], indices[start:]
    steps = np.diff(head)
    if head.size > 3 and np.all(steps == steps[0]):
        text = f"{head[0]}, {head[1]}, …, {head[-1]}"
        return text if tail.size == 0 else f"{text} and {pair_range(tail)}"
    return ", ".join(str(index) for index in indices)


def tokens(value: float) -> str:
    """Format a length in tokens for a readout: ``"6.28"``, ``"199"``, ``"35,330"``."""
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


class PairAxes(Demo):
    """The axis and the wavelength of every pair under M-RoPE, for the chunked and the interleaved layout."""

    narrowest_plot_width = 480
    title = "M-RoPE: which pairs turn with time, height and width"
    controls = (
        Control(
            "layout",
            "layout",
            (0, 1),
            0,
            0,
            1,
            integer=True,
            choices=(0, 1),
            labels=tuple(name for name, *_ in LAYOUTS),
        ),
        Control(
            "base",
            "base b",
            BASES,
            QWEN25_VL_BASE,
            10_000.0,
            QWEN3_VL_BASE,
            choices=BASES,
            labels=BASE_LABELS,
        ),
    )
    scenes = (
        Scene(
            "chunks",
            "In Qwen2.5-VL's chunks all the fast pairs follow time, and the fastest width pair hardly turns "
            "across an image.",
            {},
        ),
        Scene(
            "interleaved",
            "Interleaved, every axis gets fast pairs: Qwen3-VL's fastest width pair turns several times "
            "across the image.",
            {"layout": 1, "base": QWEN3_VL_BASE},
        ),
        Scene(
            "a smaller base",
            f"A base of {base_text(BASES[0])} speeds every pair up, but the chunks still leave the width "
            "only the slowest pairs.",
            {"base": BASES[0]},
        ),
    )

    def base_figure(self) -> dict:
        """Layouts as rows of coloured cells above; the wavelength of each pair, by axis, below."""
        rows = np.stack(
            [pair_axes(section, interleaved=interleaved) for _, section, interleaved, _ in LAYOUTS]
        )
        stops = []
        for axis, color in enumerate(AXIS_COLORS):
            stops += [[axis / 3, color], [(axis + 1) / 3, color]]
        layouts = {
            "type": "heatmap",
            "name": "axis of each pair",
            "x": list(range(PAIRS)),
            "y": list(range(len(LAYOUTS))),
            "z": rows.tolist(),
            "text": [[AXIS_NAMES[axis] for axis in row] for row in rows],
            "zmin": -0.5,
            "zmax": 2.5,
            "colorscale": stops,
            "showscale": False,
            "xgap": 1,
            "ygap": 6,
            "hovertemplate": "pair %{x}: %{text}<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }

        def wavelengths(axis: int) -> dict:
            return {
                "type": "scatter",
                "mode": "markers",
                "name": AXIS_NAMES[axis],
                "marker": {"color": AXIS_COLORS[axis], "size": 8},
                "hovertemplate": "pair %{x}<br>λ = %{y:,.4g} tokens<extra>" + AXIS_NAMES[axis] + "</extra>",
                "xaxis": "x2",
                "yaxis": "y2",
            }

        image = reference_line("image width", "dash")
        image["textposition"] = "top left"
        layout = {
            "height": 760,
            "margin": {"l": 110, "r": 20, "t": 40, "b": 60},
            "font": {"size": FONT_SIZE},
            "legend": {"x": 0.01, "y": 0.62, "yanchor": "top", "bgcolor": "rgba(0,0,0,0)"},
            "xaxis": {
                "domain": [0, 1],
                "anchor": "y",
                "range": [-0.5, PAIRS - 0.5],
                "title": {"text": "pair index i"},
                "zeroline": False,
            },
            "yaxis": {
                "domain": [0.8, 0.95],
                "range": [len(LAYOUTS) - 0.5, -0.5],
                "tickmode": "array",
                "tickvals": list(range(len(LAYOUTS))),
                "ticktext": ["Qwen2.5-VL", "Qwen3-VL"],
                "title": {"text": "layout", "standoff": 12},
                "automargin": True,
                "zeroline": False,
            },
            "xaxis2": {
                "domain": [0, 1],
                "anchor": "y2",
                "range": [-0.5, PAIRS - 0.5],
                "title": {"text": "pair index i"},
                "zeroline": False,
            },
            "yaxis2": {
                "domain": [0.0, 0.62],
                "type": "log",
                "range": WAVELENGTH_RANGE,
                "title": {"text": "wavelength λᵢ (tokens, log scale)"},
                "exponentformat": "power",
                "dtick": 1,
            },
            "shapes": [
                {
                    "type": "rect",
                    "xref": "x",
                    "yref": "y",
                    "x0": -0.7,
                    "x1": PAIRS - 0.3,
                    "y0": -0.5,
                    "y1": 0.5,
                    "line": {"color": "#d62728", "width": 3},
                    "fillcolor": "rgba(0,0,0,0)",
                }
            ],
            "annotations": [
                panel_title("the axis whose position turns each pair, in each layout", 0.965),
                panel_title("the wavelength of each pair, coloured by its axis", 0.645),
            ],
        }
        return {"data": [layouts, *(wavelengths(axis) for axis in range(3)), image], "layout": layout}

    def view(self, *, layout: float, base: float) -> View:
        """Frame layout ``layout`` of :data:`LAYOUTS` and draw its wavelengths at ``base``."""
        index = round(layout)
        name, section, interleaved, _model_base = LAYOUTS[index]
        axes = pair_axes(section, interleaved=interleaved)
        wavelength = 2.0 * np.pi / inv_freq(LANGUAGE_HEAD_DIM, base)  # (d/2,) tokens per turn
        traces: list[dict] = [{}]
        fastest, layout_parts = [], []
        for axis, indices in axis_runs(axes):
            traces.append({"x": indices.tolist(), "y": significant(wavelength[indices], 5)})
            first = int(indices[0])
            fastest.append(
                f"{AXES_SHORT[axis]} pair {first} (λ {tokens(wavelength[first])}, "
                f"{IMAGE_TOKENS / wavelength[first]:.3g} turns)"
            )
            layout_parts.append(f"{AXES_SHORT[axis]} {describe_pairs(indices)}")
        traces.append(
            {
                "x": [-0.5, PAIRS - 0.5],
                "y": [IMAGE_TOKENS, IMAGE_TOKENS],
                "text": [
                    "",
                    f"{IMAGE_TOKENS} tokens = {IMAGE_PIXELS} pixels in Qwen2.5-VL: an image's width",
                ],
            }
        )
        readout = (
            f"{name}, base {base:,.0f}. The fastest pair of each axis, and its turns across a "
            f"{IMAGE_TOKENS}-token image: {'; '.join(fastest)}. Pairs: {'; '.join(layout_parts)}."
        )
        return View(
            traces=traces,
            layout={"shapes[0].y0": index - 0.5, "shapes[0].y1": index + 0.5},
            readout=readout,
        )
