"""RoPE settings of real open models, each as the RoPE-relevant keys of its Hugging Face ``config.json``.

Every preset names the Hub repository its keys come from, the URL of that ``config.json`` and the paper or
model card that describes the model. The dicts keep the file's own layout (transformers 4.x: ``rope_theta``
plus ``rope_scaling``; keys absent from the file are absent here too), so :func:`load` exercises the same
parsing a downloaded config goes through.

Examples
--------
>>> scaling = load("llama-3.1-8b")
>>> scaling.rope_type, scaling.dim, scaling.pair_counts()
('llama3', 128, {'untouched': 29, 'blended': 6, 'interpolated': 29})

"""

from __future__ import annotations

from rope_viz.presets.classic import CLASSIC_PRESETS
from rope_viz.presets.recent import RECENT_PRESETS
from rope_viz.presets.record import Preset
from rope_viz.scaling import RopeScaling, from_config, layers_from_config

__all__ = ["PRESETS", "Preset", "get", "load", "load_layers"]


PRESETS: dict[str, Preset] = {preset.name: preset for preset in (*CLASSIC_PRESETS, *RECENT_PRESETS)}
"""All presets by name."""


def get(name: str) -> Preset:
    """Return the preset called ``name``.

    Raises
    ------
    ValueError
        If there is no such preset; the message lists the names.

    """
    if name not in PRESETS:
        raise ValueError(f"name must be one of {sorted(PRESETS)}, got {name!r}")
    return PRESETS[name]


def load(name: str, *, seq_len: int | None = None, layer_type: str | None = None) -> RopeScaling:
    """Frequencies and attention factor of the preset ``name``: ``from_config(PRESETS[name].config)``.

    Parameters
    ----------
    name : str
        A key of :data:`PRESETS`.
    seq_len : int, optional
        Passed to :func:`rope_viz.scaling.from_config` (matters for ``longrope`` and ``dynamic``).
    layer_type : str, optional
        For a model whose layer types have RoPE settings of their own (:attr:`Preset.layer_types`, e.g.
        Gemma 3's ``"sliding_attention"`` and ``"full_attention"``); required there.

    Returns
    -------
    RopeScaling

    Raises
    ------
    ValueError
        If ``name`` is not a preset (the message lists the names), or ``layer_type`` is missing or not one
        of the preset's layer types.

    """
    return from_config(get(name).config, seq_len=seq_len, layer_type=layer_type)


def load_layers(name: str, *, seq_len: int | None = None) -> list[RopeScaling | None]:
    """RoPE of every decoder layer of the preset ``name`` (:func:`rope_viz.scaling.layers_from_config`).

    Examples
    --------
    >>> layers = load_layers("gemma-3-27b")
    >>> len(layers), sorted({layer.parameters.rope_theta for layer in layers})
    (62, [10000.0, 1000000.0])

    """
    return layers_from_config(get(name).config, seq_len=seq_len)
