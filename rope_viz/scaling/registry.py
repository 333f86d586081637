"""The method registry :data:`METHODS` and the entry point :func:`from_config`."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from rope_viz.scaling.config import parse_config
from rope_viz.scaling.interpolation import default_frequencies, linear_frequencies
from rope_viz.scaling.llama3 import llama3_frequencies
from rope_viz.scaling.longrope import longrope_frequencies
from rope_viz.scaling.ntk import dynamic_frequencies, ntk_frequencies
from rope_viz.scaling.parameters import RopeParameters, check_seq_len
from rope_viz.scaling.proportional import proportional_frequencies
from rope_viz.scaling.result import RopeScaling
from rope_viz.scaling.yarn import yarn_frequencies

RopeMethod = Callable[[RopeParameters, int | None], tuple[np.ndarray, float]]

METHODS: dict[str, RopeMethod] = {
    "default": default_frequencies,
    "linear": linear_frequencies,
    "ntk": ntk_frequencies,
    "dynamic": dynamic_frequencies,
    "yarn": yarn_frequencies,
    "llama3": llama3_frequencies,
    "longrope": longrope_frequencies,
    "proportional": proportional_frequencies,
}
"""``rope_type -> method``; every method is ``(parameters, seq_len) -> (inv_freq, attention_factor)``."""


def from_config(
    config: Mapping | RopeParameters, *, seq_len: int | None = None, layer_type: str | None = None
) -> RopeScaling:
    """Frequencies and attention factor of a model's RoPE, from its Hugging Face config.

    Parameters
    ----------
    config : dict or RopeParameters
        A ``config.json`` as a dict, in the transformers 4.x (``rope_theta`` + ``rope_scaling``) or 5.x
        (``rope_parameters``) layout, or already parsed settings.
    seq_len : int, optional
        Current sequence length, for ``dynamic`` and ``longrope``; positive. ``None`` gives what transformers
        computes when it builds the model.
    layer_type : str, optional
        For configs whose ``rope_parameters`` is split by attention layer type.

    Returns
    -------
    RopeScaling

    Raises
    ------
    ValueError
        If the config is not a dict, names an unknown ``rope_type``, lacks a key the method needs, holds a
        value out of range or two contradictory values, or if ``seq_len`` is not a positive integer.

    Examples
    --------
    >>> scaling = from_config({"head_dim": 8, "rope_theta": 10000.0,
    ...                        "rope_scaling": {"rope_type": "linear", "factor": 4.0}})
    >>> scaling.inv_freq
    array([0.25   , 0.025  , 0.0025 , 0.00025])
    >>> scaling.pair_counts()
    {'untouched': 0, 'blended': 0, 'interpolated': 4}

    """
    seq_len = check_seq_len(seq_len)
    if isinstance(config, RopeParameters):
        if layer_type is not None:
            raise ValueError("layer_type applies only to a config dict, not to RopeParameters")
        parameters = config
    else:
        parameters = parse_config(config, layer_type=layer_type)
    method = METHODS.get(parameters.rope_type)
    if method is None:
        raise ValueError(f"rope_type must be one of {tuple(METHODS)}, got {parameters.rope_type!r}")
    inv_freq, attention_factor = method(parameters, seq_len)
    return RopeScaling(parameters.rope_type, parameters, inv_freq, attention_factor, seq_len)
