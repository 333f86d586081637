"""Real models: what each preset's RoPE block does to its pairs, from :func:`rope_viz.scaling.from_config`.

For every preset of :mod:`rope_viz.presets`: how many times slower each pair turns than plain RoPE with the
same base, which pairs are untouched, blended or interpolated, and every pair's wavelength before and after,
against the model's original length ``L``, the length ``L s`` its scaling aims at, and the
``max_position_embeddings`` its config declares (three numbers that need not agree).
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.extension_style import (
    CLASS_STYLE,
    FONT_SIZE,
    LONGROPE,
    PLAIN,
    class_traces,
    masked,
    panel_title,
    reference_line,
    significant,
    wavelength_trace,
)
from rope_viz.extension import scaling_summary
from rope_viz.presets import PRESETS
from rope_viz.scaling import RopeScaling, from_config

#: Dashes of the wavelength panel's length lines (at most three distinct lengths: L, s·L and
#: max_position_embeddings).
LINE_DASHES = ("dash", "dashdot", "dot")

#: Presets in the order of the slider: plain RoPE first, then the extension methods.
PRESET_ORDER = (
    "llama-2-7b",
    "mistral-7b-v0.1",
    "gemma-2-9b",
    "code-llama-7b",
    "qwen2.5-7b-instruct",
    "qwen2.5-7b-instruct-yarn",
    "llama-3.1-8b",
    "deepseek-v3",
    "phi-3.5-mini-instruct",
)

#: What the slider shows for each preset (short enough for the control's value column).
PRESET_LABELS = {
    "llama-2-7b": "Llama 2 7B",
    "mistral-7b-v0.1": "Mistral 7B",
    "gemma-2-9b": "Gemma 2 9B",
    "code-llama-7b": "Code Llama 7B",
    "qwen2.5-7b-instruct": "Qwen2.5 7B",
    "qwen2.5-7b-instruct-yarn": "Qwen2.5 + YaRN",
    "llama-3.1-8b": "Llama 3.1 8B",
    "deepseek-v3": "DeepSeek-V3",
    "phi-3.5-mini-instruct": "Phi-3.5 mini",
}


def preset_scaling(name: str) -> RopeScaling:
    """Load the preset at its full context length (LongRoPE then uses its ``long_factor``)."""
    config = PRESETS[name].config
    text_config = config.get("text_config", config)
    return from_config(config, seq_len=text_config.get("max_position_embeddings"))


def context_lengths(scaling: RopeScaling) -> tuple[int | None, float | None, int | None]:
    """Return ``(L, L s, L_max)``: original length, ``L`` times ``s`` and ``max_position_embeddings``.

    The first two are ``None`` when the config names no original length.
    """
    summary = scaling_summary(scaling)
    return summary["original_length"], summary["extended_length"], summary["max_position_embeddings"]


def length_lines(scaling: RopeScaling) -> list[tuple[float, str]]:
    """Return the horizontal lines of the wavelength panel: ``(tokens, label)`` per length, shortest first.

    Lengths that coincide share one line, whose label names them all (``"L = max_position_embeddings =
    32,768"``), so that no two labels sit on top of each other.
    """
    original, extended, declared = context_lengths(scaling)
    named = [(original, "L"), (extended, "s·L"), (declared, "max_position_embeddings")]
    lines: dict[float, list[str]] = {}
    for length, name in named:
        if length is not None:
            lines.setdefault(float(length), []).append(name)
    return [(length, f"{' = '.join(names)} = {length:,.0f}") for length, names in sorted(lines.items())]


class PresetBands(Demo):
    """Per-pair slow-down and wavelengths of a real model's RoPE configuration."""

    narrowest_plot_width = 480
    title = "Real models: untouched, blended and interpolated pairs"
    controls = (
        Control(
            "preset",
            "model",
            tuple(range(len(PRESET_ORDER))),
            PRESET_ORDER.index("llama-3.1-8b"),
            0,
            len(PRESET_ORDER) - 1,
            integer=True,
            choices=tuple(range(len(PRESET_ORDER))),
            labels=tuple(PRESET_LABELS[name] for name in PRESET_ORDER),
        ),
    )
    scenes = (
        Scene(
            "llama 3.1",
            "Llama 3.1 keeps its fast pairs, slows its slow pairs by the full factor and blends only a few "
            "between.",
            {},
        ),
        Scene(
            "qwen2.5 with yarn",
            "Qwen2.5's YaRN block blends more pairs than Llama 3.1, although its factor is smaller.",
            {"preset": 5},
        ),
        Scene("llama 2", "Llama 2 has no scaling block: every pair turns as in plain RoPE.", {"preset": 0}),
        Scene(
            "phi-3.5 mini",
            "Phi-3.5 mini's LongRoPE divisors for long inputs are searched rather than derived, and they "
            "leave no pair untouched.",
            {"preset": 8},
        ),
    )

    def base_figure(self) -> dict:
        """Slow-down per pair by class above; wavelengths before and after (log) below."""
        data = class_traces("pair %{x}<br>slowed %{y:.4g}×")

        data += [
            wavelength_trace("plain RoPE, same base", PLAIN, "dash", marker_size=4),
            wavelength_trace("with the model's scaling", LONGROPE, "solid", marker_size=4),
            # The lines fill these traces from the last, highest one down (length_lines gives them shortest
            # first): the highest line's label goes above it, the others' under theirs, so that the labels of
            # two lines a factor of two apart stay apart, however few lines a model has.
            *(
                {
                    **reference_line(f"length {number}", dash),
                    "textposition": "top right" if number == 2 else "bottom right",
                }
                for number, dash in enumerate(LINE_DASHES)
            ),
        ]
        layout = {
            "height": 860,
            "margin": {"l": 80, "r": 20, "t": 40, "b": 60},
            "font": {"size": FONT_SIZE},
            "legend": {"x": 0.01, "y": 0.95, "yanchor": "top", "bgcolor": "rgba(0,0,0,0)"},
            "legend2": {
                "x": 0.99,
                "xanchor": "right",
                "y": 0.03,
                "yanchor": "bottom",
                "bgcolor": "rgba(0,0,0,0)",
            },
            "xaxis": {"domain": [0, 1], "anchor": "y", "title": {"text": "pair index i"}, "zeroline": False},
            "yaxis": {
                "domain": [0.56, 0.96],
                "type": "log",
                "title": {"text": "slow-down θᵢ/θᵢ′ (×)"},
                "tickvals": [1, 2, 4, 8, 16, 32, 64],
            },
            "xaxis2": {
                "domain": [0, 1],
                "anchor": "y2",
                "title": {"text": "pair index i"},
                "zeroline": False,
            },
            "yaxis2": {
                "domain": [0.0, 0.4],
                "type": "log",
                "title": {"text": "wavelength (tokens)"},
                "exponentformat": "power",
                "dtick": 1,
            },
            "annotations": [
                panel_title("how many times slower each pair turns than plain RoPE", 0.97),
                panel_title("wavelength of each pair, and the model's context lengths", 0.415),
            ],
        }
        return {"data": data, "layout": layout}

    def view(self, *, preset: float) -> View:
        """Show the preset at index ``preset`` of :data:`PRESET_ORDER`."""
        name = PRESET_ORDER[round(preset)]
        return self.view_scaling(preset_scaling(name), name)

    def view_scaling(self, scaling: RopeScaling, name: str) -> View:
        """Show any RoPE configuration (a preset, or a pasted ``config.json``)."""
        summary = scaling_summary(scaling)
        pairs = summary["pairs"]
        pair_index = np.arange(pairs)
        scale = scaling.scale_per_pair
        classes = scaling.pair_classes
        plain = 2.0 * np.pi / scaling.default_inv_freq
        lengths = length_lines(scaling)
        lines = [
            {"x": [-0.5, pairs - 0.5], "y": [length, length], "text": [label, ""]}
            for length, label in lengths
        ]
        lines = [{"x": [], "y": [], "text": []} for _ in range(len(LINE_DASHES) - len(lines))] + lines

        counts = summary["counts"]
        bands = "; ".join(
            f"{kind} pairs {first}–{last}" if first != last else f"{kind} pair {first}"
            for kind, (first, last) in summary["bands"].items()
        )
        original, declared = summary["original_length"], summary["max_position_embeddings"]
        spans = [] if original is None else [f"L = {original:,} → s·L = {summary['extended_length']:,.0f}"]
        spans += [] if declared is None else [f"max_position_embeddings {declared:,}"]
        readout = (
            f"{name}: rope_type {summary['rope_type']}, d = {summary['dim']}, base {summary['base']:,.0f}, "
            f"factor {summary['factor']:.4g}{''.join('; ' + span for span in spans)}. "
            f"{counts['untouched']} untouched, {counts['blended']} blended, "
            f"{counts['interpolated']} interpolated ({bands}). Longest wavelength "
            f"{summary['longest_plain_wavelength']:,.0f} → {summary['longest_wavelength']:,.0f} tokens; "
            f"logits × {summary['logit_factor']:.4g}."
        )
        if scaling.rope_type == "longrope":
            long = scaling.seq_len is not None and original is not None and scaling.seq_len > original
            which = "long_factor (sequences longer than L)" if long else "short_factor (sequences up to L)"
            readout += (
                f" LongRoPE shown with its {which}: searched divisors, which the classes only sort against "
                "1 and s."
            )
        y_values = np.concatenate([plain, scaling.wavelengths, [length for length, _ in lengths]])
        top = max(float(scale.max()), 2.0)
        return View(
            traces=[
                *[{"x": pair_index.tolist(), "y": masked(scale, classes == kind)} for kind in CLASS_STYLE],
                {"x": pair_index.tolist(), "y": significant(plain)},
                {"x": pair_index.tolist(), "y": significant(scaling.wavelengths)},
                *lines,
            ],
            layout={
                "xaxis.range": [-1, pairs],
                "xaxis2.range": [-1, pairs],
                "yaxis.range": [-0.08, float(np.log10(top)) + 0.12],
                "yaxis2.range": [
                    float(np.log10(y_values.min())) - 0.2,
                    float(np.log10(y_values.max())) + 0.45,
                ],
            },
            readout=readout,
        )
