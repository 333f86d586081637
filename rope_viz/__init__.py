"""rope_viz: the math, figures and widgets of an interactive course on Rotary Position Embedding (RoPE).

The math modules (:mod:`~rope_viz.frequencies`, :mod:`~rope_viz.rotation`, :mod:`~rope_viz.scores`,
:mod:`~rope_viz.scaling`, :mod:`~rope_viz.presets`) need only numpy. So do the RoPE of recent models
(:mod:`~rope_viz.attention_temperatures`, :mod:`~rope_viz.mla`, :mod:`~rope_viz.mrope`,
:mod:`~rope_viz.axial` and :func:`rope_viz.scaling.layers_from_config`) and :func:`check`, which diagnoses a
reader's own RoPE implementation. Figures and widgets live in their own subpackages and import plotly or
ipywidgets only when used.
"""

from rope_viz import (
    attention_temperatures,
    axial,
    broken_rope,
    mla,
    mrope,
    permutation,
    precision,
    presets,
    scaling,
)
from rope_viz.checker import CheckReport, Finding, check
from rope_viz.frequencies import angles, inv_freq, wavelengths
from rope_viz.rotation import rotate, rotation_matrix, to_half, to_interleaved
from rope_viz.scores import decay_bound, expected_self_score, relative_scores, score, score_matrix

__version__ = "0.1.0"

__all__ = [
    "CheckReport",
    "Finding",
    "angles",
    "attention_temperatures",
    "axial",
    "broken_rope",
    "check",
    "decay_bound",
    "expected_self_score",
    "inv_freq",
    "mla",
    "mrope",
    "permutation",
    "precision",
    "presets",
    "relative_scores",
    "rotate",
    "rotation_matrix",
    "scaling",
    "score",
    "score_matrix",
    "to_half",
    "to_interleaved",
    "wavelengths",
]
