"""Reading past the training length: what each rotation pair meets, and what the extension methods change.

A model trained on sequences of ``L`` tokens has seen pair ``i`` at the angles ``m * theta_i`` for positions
(and query-key offsets) ``m`` in ``[0, L)``: an arc of ``L * theta_i`` radians. A fast pair covers the whole
circle many times over; a slow pair (wavelength ``2 pi / theta_i > L``) covers only part of it, so at a target
length ``L' > L`` it reaches angles it never met in training. The context-extension methods of
:mod:`rope_viz.scaling` replace ``theta_i`` by slower frequencies ``theta_i'`` (and may multiply cos and sin
by an attention factor); this package measures the consequences pair by pair, one module per question:

* :mod:`~rope_viz.extension.angles`: :func:`context_arcs`, :func:`turns`, :func:`first_partial_pair` and
  :func:`unseen_angles`, the trained arc against the arc a longer context asks for; :func:`neighbour_angles`,
  the angle between neighbouring tokens, which position interpolation shrinks;
* :mod:`~rope_viz.extension.methods`: :func:`compare_methods`, every static method for one head, one ``s``
  and one ``L``; :func:`scaled_relative_scores` and :func:`window_averaged_scores`, score against distance
  under a method's frequencies and attention factor, exactly or averaged over a window of distances;
* :mod:`~rope_viz.extension.paper_formulas`: :func:`yarn_paper_ramp`, :func:`yarn_paper_frequencies` and
  :func:`dynamic_paper_scale`, two rules as the YaRN paper writes them, where the code that models run (the
  authors' own, which Hugging Face transformers and vLLM copy) computes something else;
* :mod:`~rope_viz.extension.pasted_config`: :func:`config_from_text` and :func:`scaling_from_text`, read a
  pasted ``config.json`` (or only its RoPE block);
* :mod:`~rope_viz.extension.summary`: :func:`scaling_summary`, the key numbers of what a RoPE block does to
  each pair.

Every name is importable from here (``from rope_viz import extension as ext``; ``ext.turns``).

Sources: Chen et al. 2023, "Extending Context Window of Large Language Models via Positional Interpolation",
arXiv:2306.15595; Peng et al. 2023, "YaRN: Efficient Context Window Extension of Large Language Models",
arXiv:2309.00071.
"""

from __future__ import annotations

from rope_viz.extension.angles import (
    TWO_PI,
    UNSEEN_RTOL,
    context_arcs,
    first_partial_pair,
    neighbour_angles,
    turns,
    unseen_angles,
)
from rope_viz.extension.methods import (
    COMPARED_METHODS,
    compare_methods,
    scaled_relative_scores,
    window_averaged_scores,
)
from rope_viz.extension.paper_formulas import dynamic_paper_scale, yarn_paper_frequencies, yarn_paper_ramp
from rope_viz.extension.pasted_config import config_from_text, scaling_from_text
from rope_viz.extension.summary import scaling_summary

__all__ = [
    "COMPARED_METHODS",
    "TWO_PI",
    "UNSEEN_RTOL",
    "compare_methods",
    "config_from_text",
    "context_arcs",
    "dynamic_paper_scale",
    "first_partial_pair",
    "neighbour_angles",
    "scaled_relative_scores",
    "scaling_from_text",
    "scaling_summary",
    "turns",
    "unseen_angles",
    "window_averaged_scores",
    "yarn_paper_frequencies",
    "yarn_paper_ramp",
]
