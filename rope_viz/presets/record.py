"""The :class:`Preset` record: one model's RoPE keys and where they come from."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from rope_viz.scaling.config import rope_layer_types

_HUB = "https://huggingface.co"


@dataclass(frozen=True)
class Preset:
    """One model's RoPE configuration and where it comes from.

    Attributes
    ----------
    name : str
        Key in :data:`PRESETS`.
    hf_repo : str
        Hugging Face Hub repository id.
    paper : str
        Paper or model card describing the model.
    config : dict
        RoPE-relevant keys of the repository's ``config.json``, in its own layout. Treat as read-only;
        :meth:`config_dict` returns a copy to modify.
    notes : str
        What the configuration shows.

    """

    name: str
    hf_repo: str
    paper: str
    config: dict = field(repr=False)
    notes: str = ""

    @property
    def source_url(self) -> str:
        """URL of the ``config.json`` the keys are taken from."""
        return f"{_HUB}/{self.hf_repo}/blob/main/config.json"

    @property
    def layer_types(self) -> tuple[str, ...]:
        """The attention layer types with RoPE settings of their own (``()`` when one setting serves all)."""
        return rope_layer_types(self.config)

    def config_dict(self) -> dict:
        """Return a deep copy of :attr:`config`, safe to edit."""
        return copy.deepcopy(self.config)
