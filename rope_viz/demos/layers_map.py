"""One model, layer by layer: the wavelength of every pair of every decoder layer, as a map.

Models since 2024 do not give every layer the same RoPE (:func:`rope_viz.scaling.layers_from_config`): Gemma 3
gives its sliding-window layers base 10,000 and its global layers base 10⁶ with linear scaling, Gemma 4's
global layers rotate only the fastest quarter of a head twice as large, Llama 4 leaves every fourth layer
without RoPE. The map puts the layers across and the pairs of a head up, coloured by ``log10`` of each pair's
wavelength ``lambda_i = 2 pi / theta_i`` in tokens, with pairs that do not rotate (frequency 0, or channels
past a GPT-NeoX-style ``rotary_dim``) and NoPE layers in two greys.

Heads hold 32 to 256 pairs. So that every model fills the same rows (and the site's payload stays small),
the map has :data:`ROWS` rows, each a ``1/ROWS`` slice of the head's pairs, drawn with the pair in the
middle of the slice (:func:`head_rows`): a head of 256 pairs shows every fourth, a head of 32 each pair
twice.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.extension_style import FONT_SIZE
from rope_viz.presets import get, load_layers
from rope_viz.scaling import RopeScaling, attention_layer_types

#: Presets with a layer schedule worth a look, in the order of the slider.
MODEL_ORDER = (
    "gemma-3-27b",
    "gemma-4-31b",
    "gpt-oss-20b",
    "llama-4-scout",
    "qwen3-8b",
    "qwen3-8b-yarn",
    "llama-3.2-1b",
    "phi-2",
    "glm-4-9b",
)
MODEL_LABELS = {
    "gemma-3-27b": "Gemma 3 27B",
    "gemma-4-31b": "Gemma 4 31B",
    "gpt-oss-20b": "gpt-oss-20b",
    "llama-4-scout": "Llama 4 Scout",
    "qwen3-8b": "Qwen3 8B",
    "qwen3-8b-yarn": "Qwen3 8B + YaRN",
    "llama-3.2-1b": "Llama 3.2 1B",
    "phi-2": "Phi-2",
    "glm-4-9b": "GLM-4 9B",
}

#: Rows of the map: each is one slice of a head's pairs.
ROWS = 64
#: Colour range of ``log10(lambda / 1 token)``: from 1 token to 10⁸ tokens.
LOG_WAVELENGTH_RANGE = (0.0, 8.0)

#: Neutral colours, outside viridis: a pair that does not rotate, and a layer without RoPE.
UNROTATED_COLOR = "#b3b3b3"
NOPE_COLOR = "#6e6e6e"
#: Marks of the first pair that turns less than once over the layer's reach.
REACH_MARK_COLOR = "#ff2d55"
#: Cell values of the two greys, below the wavelengths' range, so that one heatmap and one colour bar hold
#: everything (a second heatmap, empty for most models, could not be redrawn directly on the site).
NOPE_VALUE, UNROTATED_VALUE = -2.0, -1.0
_LOW = NOPE_VALUE - 0.5
_SPAN = LOG_WAVELENGTH_RANGE[1] - _LOW


def _at(value: float) -> float:
    """Position of a cell value on the colour scale, from 0 (below ``NOPE_VALUE``) to 1 (10⁸ tokens)."""
    return round((value - _LOW) / _SPAN, 6)


#: Viridis stops (plotly.js knows fewer colour-scale names than plotly.py) for log10 λ from 0 to 8, below
#: them the two greys, each a band of its own.
_VIRIDIS = ("#440154", "#472d7b", "#3b528b", "#2c728e", "#21918c", "#28ae80", "#5ec962", "#addc30", "#fde725")
COLORSCALE = [
    [0.0, NOPE_COLOR],
    [_at(-1.5), NOPE_COLOR],
    [_at(-1.5), UNROTATED_COLOR],
    [_at(-0.5), UNROTATED_COLOR],
    [_at(-0.5), _VIRIDIS[0]],
    *([_at(value), color] for value, color in zip(range(9), _VIRIDIS, strict=True)),
]

_UNROTATED, _NOPE = 0.0, 1.0


def slot_wavelengths(scaling: RopeScaling) -> np.ndarray:
    """Return the wavelength of all ``head_dim // 2`` pairs of a head, ``inf`` for a pair that does not turn.

    ``lambda_i = 2 pi / theta_i``. A GPT-NeoX-style partial rotary (Phi-2, GLM-4) rotates the first
    ``rotary_dim`` channels with ``rotary_dim / 2`` frequencies; the channels after them pass through,
    counted here as pairs ``rotary_dim / 2`` to ``head_dim / 2 - 1`` of wavelength ``inf``. Proportional RoPE
    (Gemma 4) already gives its unrotated pairs frequency 0, which is wavelength ``inf``.

    Examples
    --------
    >>> from rope_viz.scaling import from_config
    >>> phi = from_config({"head_dim": 8, "partial_rotary_factor": 0.5})
    >>> slot_wavelengths(phi).round(2)
    array([  6.28, 628.32,    inf,    inf])

    """
    pairs = scaling.head_dim // 2
    wavelengths = np.full(pairs, np.inf)
    rotating = scaling.wavelengths  # (len(inv_freq),), inf where the frequency is 0
    wavelengths[: rotating.size] = rotating
    return wavelengths


def head_rows(values: Sequence[float] | np.ndarray, rows: int = ROWS) -> np.ndarray:
    """Resample one value per pair to ``rows`` rows: row ``r`` shows pair ``floor((r + 1/2) P / rows)``.

    ``P`` is the number of pairs. Row ``r`` stands for the slice ``[r/rows, (r + 1)/rows)`` of the head and
    shows the pair at its middle, so a head of ``P = 4 rows`` pairs shows pairs ``2, 6, 10, ...`` and a head
    of ``rows / 2`` pairs shows each pair twice.

    Examples
    --------
    >>> head_rows([10.0, 20.0], rows=4).tolist()
    [10.0, 10.0, 20.0, 20.0]
    >>> head_rows(np.arange(8.0), rows=4).tolist()
    [1.0, 3.0, 5.0, 7.0]

    """
    values = np.asarray(values, dtype=float)
    if values.ndim != 1 or values.size == 0:
        raise ValueError("values must be a non-empty 1-D array, one value per pair")
    if isinstance(rows, bool) or not isinstance(rows, int) or rows < 1:
        raise ValueError(f"rows must be a positive integer, got {rows!r}")
    index = np.floor((np.arange(rows) + 0.5) * values.size / rows).astype(int)
    return values[index]


def first_slow_pair(wavelengths: np.ndarray, length: float) -> int | None:
    """Index of the first rotating pair whose wavelength exceeds ``length`` tokens, or ``None`` if none does.

    Such a pair turns less than once over ``length`` tokens.

    Examples
    --------
    >>> first_slow_pair(np.array([6.3, 63.0, 630.0, np.inf]), 100.0)
    2
    >>> first_slow_pair(np.array([6.3, np.inf]), 100.0) is None
    True

    """
    slow = np.flatnonzero(np.isfinite(wavelengths) & (wavelengths > length))
    return None if slow.size == 0 else int(slow[0])


def describe_rope(scaling: RopeScaling) -> str:
    """One short phrase for a layer's RoPE: ``"linear × 8, b = 1,000,000, 64 of 64 pairs rotate"``."""
    method = scaling.rope_type
    if method not in ("default", "proportional") or scaling.parameters.factor not in (None, 1.0):
        method += f" × {scaling.factor:g}"
    pairs = scaling.head_dim // 2
    rotating = int(np.count_nonzero(np.isfinite(slot_wavelengths(scaling))))
    return (
        f"{method}, b = {scaling.parameters.rope_theta:,.0f}, head {scaling.head_dim}: "
        f"{rotating} of {pairs} pairs rotate"
    )


def layer_groups(config: dict, layers: list[RopeScaling | None]) -> list[tuple[str, int, str]]:
    """Group the layers by attention type and RoPE: ``(attention type, number of layers, RoPE phrase)``.

    NoPE layers form the group ``"no RoPE"``; where the config names no layer types, the type is
    ``"layers"``. Groups come in the order of their first layer.
    """
    types = attention_layer_types(config) or ["layers"] * len(layers)
    groups: dict[tuple[str, str], int] = {}
    for kind, layer in zip(types, layers, strict=True):
        key = (kind, "no RoPE" if layer is None else describe_rope(layer))
        groups[key] = groups.get(key, 0) + 1
    return [(kind, count, rope) for (kind, rope), count in groups.items()]


def layer_reach(config: dict, attention_type: str) -> int:
    """Return the longest distance, in tokens, that a query of a layer of ``attention_type`` looks back.

    ``sliding_window`` for ``"sliding_attention"`` (Gemma, gpt-oss), ``attention_chunk_size`` for Llama 4's
    ``"chunked_attention"`` (a query sees only its own chunk), and ``max_position_embeddings`` otherwise. A
    pair whose wavelength exceeds it turns less than once over every distance the layer ever sees.

    Examples
    --------
    >>> layer_reach({"sliding_window": 1024, "max_position_embeddings": 131072}, "sliding_attention")
    1024

    """
    text = config.get("text_config", config)
    key = {"sliding_attention": "sliding_window", "chunked_attention": "attention_chunk_size"}.get(
        attention_type, "max_position_embeddings"
    )
    if text.get(key) is None:
        raise ValueError(f"the config has no {key}, which a {attention_type} layer needs")
    return int(text[key])


def model_map(name: str) -> dict:
    """Everything the map shows for the preset ``name``: cells, grey cells, marks and the readout's numbers.

    Returns
    -------
    dict
        ``"colour"``: ``(ROWS, layers)`` of ``log10`` wavelengths (NaN for grey cells);
        ``"grey"``: the same shape, 0 for an unrotated pair, 1 for a NoPE layer, NaN elsewhere;
        ``"marks"``: ``(layers,)``, the share of the head below the first pair whose wavelength exceeds
        the layer's reach (:func:`layer_reach`; NaN where no pair does);
        ``"layers"``, ``"nope"``, ``"groups"`` (:func:`layer_groups`), ``"reach"`` (each attention type's
        reach, by type).

    """
    config = get(name).config
    layers = load_layers(name)
    types = attention_layer_types(config) or ["full_attention"] * len(layers)
    reach = {kind: layer_reach(config, kind) for kind in sorted(set(types))}
    colour = np.full((ROWS, len(layers)), np.nan)
    grey = np.full((ROWS, len(layers)), np.nan)
    marks = np.full(len(layers), np.nan)
    for column, (layer, kind) in enumerate(zip(layers, types, strict=True)):
        if layer is None:
            grey[:, column] = _NOPE
            continue
        wavelengths = slot_wavelengths(layer)
        rows = head_rows(wavelengths)
        rotating = np.isfinite(rows)
        colour[rotating, column] = np.log10(rows[rotating])
        grey[~rotating, column] = _UNROTATED
        slow = first_slow_pair(wavelengths, reach[kind])
        if slow is not None:
            marks[column] = slow / wavelengths.size
    return {
        "colour": colour,
        "grey": grey,
        "marks": marks,
        "layers": len(layers),
        "nope": sum(layer is None for layer in layers),
        "groups": layer_groups(config, layers),
        "reach": reach,
    }


def map_cells(shown: dict) -> np.ndarray:
    """Return the heatmap's cells: ``log10`` wavelengths, and ``UNROTATED_VALUE`` or ``NOPE_VALUE`` in grey.

    ``shown`` is a :func:`model_map`.
    """
    cells = np.array(shown["colour"], dtype=float)
    cells[shown["grey"] == _UNROTATED] = UNROTATED_VALUE
    cells[shown["grey"] == _NOPE] = NOPE_VALUE
    return cells


def _cells(values: np.ndarray) -> list[list[float | None]]:
    """Rows of a heatmap, rounded to two decimals, with ``None`` (a transparent cell) for NaN."""
    return [[None if np.isnan(v) else round(float(v), 2) for v in row] for row in values]


def reach_segments(marks: np.ndarray) -> dict[str, list]:
    """Return the reach marks as a line trace: one segment across each layer's column, at its mark.

    Layer ℓ, whose cell runs from ℓ − ½ to ℓ + ½, gets the segment from (ℓ − ½, m_ℓ) to (ℓ + ½, m_ℓ), where
    m_ℓ is its mark (the share of the head below its first pair slower than its reach); a
    layer without one (NaN: no RoPE, or no pair slower than its reach) gets none. Neighbouring layers with the
    same mark meet, so a run of them reads as one line. Each segment ends in a gap (``None``), which breaks
    Plotly's line; ``customdata`` holds the layer of each point, for the hover text.

    >>> reach_segments(np.array([0.5, np.nan, 0.25]))["x"]
    [-0.5, 0.5, None, 1.5, 2.5, None]
    """
    x: list[float | None] = []
    y: list[float | None] = []
    layer: list[int | None] = []
    for column, mark in enumerate(marks):
        if np.isnan(mark):
            continue
        x += [column - 0.5, column + 0.5, None]
        y += [round(float(mark), 4)] * 2 + [None]
        layer += [column, column, None]
    return {"x": x, "y": y, "customdata": layer}


class LayerMap(Demo):
    """Wavelength of every pair in every decoder layer of one model, with unrotated pairs and NoPE layers."""

    narrowest_plot_width = 440
    title = "Layer by layer: the wavelength of every pair of a real model"
    controls = (
        Control(
            "model",
            "model",
            tuple(range(len(MODEL_ORDER))),
            0,
            0,
            len(MODEL_ORDER) - 1,
            integer=True,
            choices=tuple(range(len(MODEL_ORDER))),
            labels=tuple(MODEL_LABELS[name] for name in MODEL_ORDER),
        ),
    )
    scenes = (
        Scene(
            "gemma 3",
            "In Gemma 3 the red marks sit at almost the same height in the sliding and the global layers; "
            "the colours differ, not the marks.",
            {},
        ),
        Scene(
            "gemma 4",
            "Gemma 4's global layers rotate only the fastest quarter of their head, and the rest of it is "
            "light grey.",
            {"model": 1},
        ),
        Scene(
            "gpt-oss",
            "gpt-oss gives every layer the same RoPE, yet its marks alternate, because its sliding layers "
            "see only a short window.",
            {"model": 2},
        ),
        Scene(
            "llama 4 scout",
            "Llama 4 Scout leaves every fourth layer without RoPE: the dark grey columns.",
            {"model": 3},
        ),
    )

    def base_figure(self) -> dict:
        """One heatmap (wavelengths, and the two greys below them on its colour bar) and the reach marks."""
        centres = [round((row + 0.5) / ROWS, 6) for row in range(ROWS)]
        tick_values = [NOPE_VALUE, UNROTATED_VALUE, *range(int(LOG_WAVELENGTH_RANGE[1]) + 1)]
        tick_text = ["no RoPE", "not rotated", "1", "10", "100", "1,000", "10⁴", "10⁵", "10⁶", "10⁷", "10⁸"]
        data = [
            {
                "type": "heatmap",
                "name": "wavelength",
                "y": centres,
                "colorscale": COLORSCALE,
                "zmin": _LOW,
                "zmax": LOG_WAVELENGTH_RANGE[1],
                "colorbar": {
                    "title": {"text": "wavelength λ (tokens)", "side": "right"},
                    "tickvals": tick_values,
                    "ticktext": tick_text,
                    "thickness": 14,
                },
                "hovertemplate": "layer %{x}<br>%{y:.2f} of the way up the head<br>"
                "log₁₀ λ = %{z:.2f} (−1: not rotated, −2: no RoPE)<extra></extra>",
            },
            {
                "type": "scatter",
                "mode": "lines",
                "name": "above: λ longer than the layer's reach",
                "line": {"color": REACH_MARK_COLOR, "width": 4},
                "hovertemplate": "layer %{customdata}: the pairs above %{y:.2f} of the head turn less than "
                "once over the longest distance this layer sees<extra></extra>",
            },
        ]
        layout = {
            "height": 640,
            "margin": {"l": 80, "r": 20, "t": 50, "b": 60},
            "font": {"size": FONT_SIZE},
            "showlegend": True,
            "legend": {
                "orientation": "h",
                "x": 0.0,
                "y": 1.02,
                "yanchor": "bottom",
                "bgcolor": "rgba(0,0,0,0)",
            },
            "xaxis": {
                "title": {"text": "decoder layer (from 0)"},
                "zeroline": False,
                "showgrid": False,
            },
            "yaxis": {
                "title": {"text": f"pairs of a head, fast (0) to slow (1); {ROWS} slices"},
                "range": [0.0, 1.0],
                "tickvals": [0, 0.25, 0.5, 0.75, 1],
                "zeroline": False,
                "showgrid": False,
            },
        }
        return {"data": data, "layout": layout}

    def view(self, *, model: float) -> View:
        """Show the preset at index ``model`` of :data:`MODEL_ORDER`."""
        name = MODEL_ORDER[round(model)]
        shown = model_map(name)
        columns = list(range(shown["layers"]))
        marks = reach_segments(shown["marks"])
        reach = shown["reach"]

        def group(kind: str, count: int, rope: str) -> str:
            if rope == "no RoPE":
                return f"{count} {kind}: no RoPE"
            if kind == "layers":
                return f"all (reach {reach['full_attention']:,} tokens): {rope}"
            return f"{count} {kind} (reach {reach[kind]:,}): {rope}"

        groups = "; ".join(group(*entry) for entry in shown["groups"])
        nope = shown["nope"]
        readout = f"{MODEL_LABELS[name]}: {shown['layers']} layers, {nope or 'none'} without RoPE. {groups}."
        return View(
            traces=[
                {"x": columns, "z": _cells(map_cells(shown))},
                marks,
            ],
            # One column per layer of this model, across the whole plot; a tick every 10 layers (5 for a
            # model of 30 or fewer), so that models of similar depth show the same ticks.
            layout={
                "xaxis.range": [-0.5, shown["layers"] - 0.5],
                "xaxis.tickvals": list(range(0, shown["layers"], 10 if shown["layers"] > 30 else 5)),
            },
            readout=readout,
        )
