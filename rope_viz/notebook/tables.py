"""Small Markdown tables for the chapters: the numbers come from the math modules, the layout from here."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rope_viz.frequencies import inv_freq, wavelengths


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: str | None = None) -> str:
    """Return a Markdown pipe table; ``align`` has one of ``l``, ``r``, ``c`` per column (default ``r``)."""
    align = align or "r" * len(headers)
    if len(align) != len(headers) or any(len(row) != len(headers) for row in rows):
        raise ValueError("every row and the align string must have one entry per header")
    rule = {"l": ":---", "r": "---:", "c": ":---:"}
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(rule[a] for a in align) + " |"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def wavelength_table(dim: int, base: float, pairs: Sequence[int] | None = None) -> str:
    """Return ``theta_i = base**(-2i/dim)`` and the wavelength ``2 pi / theta_i`` of pairs, as Markdown."""
    frequencies = inv_freq(dim, base)
    tokens = wavelengths(dim, base)
    selected = range(dim // 2) if pairs is None else pairs
    rows = []
    for i in selected:
        if not 0 <= i < dim // 2:
            raise ValueError(f"pairs must lie in [0, {dim // 2 - 1}] for dim={dim}, got {i}")
        rows.append((i, f"{frequencies[i]:.4g}", f"{tokens[i]:,.1f}", f"{np.log10(tokens[i]):.2f}"))
    return markdown_table(
        ["pair i", "θᵢ (radians per token)", "wavelength λᵢ (tokens)", "log₁₀ λᵢ"], rows, align="rrrr"
    )
