"""Partial rotary, two meanings of one key: ``partial_rotary_factor`` in GPT-NeoX style and proportional.

Both rotate ``p d/2`` pairs of a head of ``d = head_dim`` channels and leave the rest unrotated; they differ
in the frequencies of the pairs that rotate (:mod:`rope_viz.scaling.proportional`):

* GPT-NeoX style (GPT-NeoX, Phi-2, GLM-4): the schedule is spread over the rotated channels alone,
  ``theta_i = b^(-2i/(p d))`` for ``i < p d/2``, so the rotated pairs still run from one radian per token down
  to about ``1/b``;
* proportional (``rope_type: "proportional"``, Gemma 4's global layers): the schedule of the whole head,
  ``theta_i = b^(-2i/d)``, with the pairs from ``p d/2`` on switched off: the slow end of plain RoPE is cut
  away, which is the p-RoPE of Barbero et al. (arXiv:2410.06205).

The figure draws every pair's wavelength for both, with plain RoPE over the whole head behind them and a
training length ``L`` across.
"""

from __future__ import annotations

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.extension_style import FONT_SIZE, PLAIN, YARN, band_shape, reference_line, significant
from rope_viz.demos.layers_map import first_slow_pair, slot_wavelengths
from rope_viz.scaling import from_config

NEOX = "#D55E00"
PROPORTIONAL = YARN
FRACTIONS = (0.25, 0.4, 0.5, 0.75, 1.0)
#: Head sizes whose rotated part ``int(p d)`` is even for every fraction (Phi-2's 80, Gemma 4's 256 and 512).
HEAD_SIZES = (80, 256, 512)
BASES = (10_000.0, 100_000.0, 1_000_000.0)
LENGTHS = (2048, 8192, 32768, 131072)
#: The wavelength axis (log scale, powers of ten): one token to 10⁸ tokens.
WAVELENGTH_RANGE = [0.0, 8.0]


def partial_rotary_wavelengths(head_dim: int, fraction: float, base: float) -> dict[str, np.ndarray]:
    """Return the wavelength of all ``head_dim // 2`` pairs for both readings of ``partial_rotary_factor``.

    ``"neox"``: ``from_config`` of ``{"head_dim": d, "partial_rotary_factor": p, "rope_theta": b}``, so
    ``lambda_i = 2 pi b^(2i/(p d))`` for the first ``p d/2`` pairs; ``"proportional"``: the same keys with
    ``rope_type: "proportional"``, ``lambda_i = 2 pi b^(2i/d)`` for ``i < int(p d) // 2``; ``"plain"``: plain
    RoPE over the whole head. Pairs that do not rotate have wavelength ``inf``
    (:func:`rope_viz.demos.layers_map.slot_wavelengths`).

    Examples
    --------
    >>> waves = partial_rotary_wavelengths(8, 0.5, 10_000.0)
    >>> [waves[key].round(1).tolist() for key in ("neox", "proportional")]
    [[6.3, 628.3, inf, inf], [6.3, 62.8, inf, inf]]

    """
    neox = from_config({"head_dim": head_dim, "partial_rotary_factor": fraction, "rope_theta": base})
    block = {"rope_type": "proportional", "partial_rotary_factor": fraction, "rope_theta": base}
    proportional = from_config({"head_dim": head_dim, "rope_parameters": block})
    plain = from_config({"head_dim": head_dim, "rope_theta": base})
    return {
        "neox": slot_wavelengths(neox),
        "proportional": slot_wavelengths(proportional),
        "plain": slot_wavelengths(plain),
    }


def _finite(values: np.ndarray) -> list[float | None]:
    """Wavelengths rounded to four digits, ``None`` (a gap in the curve) for ``inf``."""
    rounded = significant(np.where(np.isfinite(values), values, 0.0), 4)
    return [value if np.isfinite(raw) else None for value, raw in zip(rounded, values, strict=True)]


def _tokens(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


class PartialRotary(Demo):
    """Wavelength per pair under the GPT-NeoX-style and the proportional ``partial_rotary_factor``."""

    narrowest_plot_width = 480
    title = "Partial rotary, two meanings: GPT-NeoX style against proportional RoPE"
    controls = (
        Control("fraction", "partial_rotary_factor p", FRACTIONS, 0.25, 0.25, 1.0, choices=FRACTIONS),
        Control(
            "head_dim",
            "head size d",
            HEAD_SIZES,
            512,
            80,
            512,
            integer=True,
            choices=HEAD_SIZES,
            labels=("80 (Phi-2)", "256", "512 (Gemma 4)"),
        ),
        Control("base", "base b", BASES, 1_000_000.0, 1_000.0, 10_000_000.0, log=True),
        Control(
            "length", "training length L", LENGTHS, 8192, 1024, 262144, unit="tokens", log=True, integer=True
        ),
    )
    scenes = (
        Scene(
            "a quarter rotated",
            "With a quarter of the head rotated, the GPT-NeoX reading reaches very long wavelengths, while "
            "the proportional one keeps only fast pairs.",
            {},
        ),
        Scene(
            "half rotated",
            "Raising p uncovers more of plain RoPE's line on the proportional curve, which itself does not "
            "move.",
            {"fraction": 0.5},
        ),
        Scene(
            "the whole head",
            "At p = 1 both readings rotate every pair and coincide with plain RoPE.",
            {"fraction": 1.0},
        ),
        Scene(
            "phi-2's head",
            "Phi-2's head, which its code reads the GPT-NeoX way, keeps rotated pairs that turn less than "
            "once within its training length.",
            {"head_dim": 80, "fraction": 0.4, "base": 10000.0, "length": 2048},
        ),
    )

    def base_figure(self) -> dict:
        """Three wavelength curves on a log axis, the line of ``L`` and the band of unrotated pairs."""

        def curve(name: str, color: str, dash: str, size: int) -> dict:
            return {
                "type": "scatter",
                "mode": "lines+markers",
                "name": name,
                "line": {"color": color, "width": 2.5, "dash": dash},
                "marker": {"color": color, "size": size},
                "hovertemplate": "pair %{x}<br>λ = %{y:,.4g} tokens<extra>" + name + "</extra>",
            }

        plain = curve("plain RoPE over the whole head", PLAIN, "dot", 3)
        plain["line"]["width"] = 1.5
        length = reference_line("L", "dash", axes=("x", "y"))
        data = [
            plain,
            curve("GPT-NeoX style: θᵢ = b^(−2i/(p·d))", NEOX, "solid", 5),
            curve("proportional: θᵢ = b^(−2i/d), slow pairs off", PROPORTIONAL, "solid", 5),
            length,
        ]
        layout = {
            "height": 560,
            "margin": {"l": 80, "r": 20, "t": 30, "b": 60},
            "font": {"size": FONT_SIZE},
            "legend": {"x": 0.01, "y": 0.99, "yanchor": "top", "bgcolor": "rgba(0,0,0,0)"},
            "xaxis": {"title": {"text": "pair i of the head"}, "zeroline": False},
            "yaxis": {
                "type": "log",
                "range": WAVELENGTH_RANGE,
                "title": {"text": "wavelength λᵢ = 2π/θᵢ (tokens)"},
                "exponentformat": "power",
                "dtick": 1,
            },
            "shapes": [band_shape("x", "y", PLAIN)],
            "annotations": [
                {
                    "text": "not rotated (λ = ∞)",
                    "x": 0,
                    "y": 0.02,
                    "xref": "x",
                    "yref": "y domain",
                    "xanchor": "center",
                    "yanchor": "bottom",
                    "showarrow": False,
                }
            ],
        }
        return {"data": data, "layout": layout}

    def view(self, *, fraction: float, head_dim: float, base: float, length: float) -> View:
        """Both readings of ``partial_rotary_factor = fraction`` for a head of ``head_dim``, base ``base``."""
        head_dim = round(head_dim)
        waves = partial_rotary_wavelengths(head_dim, fraction, base)
        pairs = head_dim // 2
        rotated = int(np.count_nonzero(np.isfinite(waves["neox"])))
        index = list(range(pairs))
        neox, proportional = waves["neox"][:rotated], waves["proportional"][:rotated]

        def slow(values: np.ndarray) -> int:
            first = first_slow_pair(values, length)
            return 0 if first is None else rotated - first

        readout = (
            f"d = {head_dim}, p = {fraction:g}: {rotated} of {pairs} pairs rotate in both. "
            f"GPT-NeoX style: λ from {_tokens(neox[0])} to {_tokens(neox[-1])} tokens, {slow(neox)} pairs "
            f"turn less than once within L = {length:,.0f}. Proportional: λ from {_tokens(proportional[0])} "
            f"to {_tokens(proportional[-1])} tokens, {slow(proportional)} such pairs."
        )
        band_left = rotated - 0.5
        return View(
            traces=[
                {"x": index, "y": _finite(waves["plain"])},
                {"x": index, "y": _finite(waves["neox"])},
                {"x": index, "y": _finite(waves["proportional"])},
                {"x": [-0.5, pairs - 0.5], "y": [length, length], "text": [f"L = {length:,.0f}", ""]},
            ],
            layout={
                "xaxis.range": [-1.0, pairs],
                "shapes[0].x0": band_left,
                "shapes[0].x1": pairs - 0.5 if rotated < pairs else band_left,
                # centred, so that the page can change the words without a redraw
                "annotations[0].x": (band_left + pairs - 0.5) / 2 if rotated < pairs else pairs / 2,
                "annotations[0].text": "not rotated (λ = ∞)" if rotated < pairs else "every pair rotates",
            },
            readout=readout,
        )
