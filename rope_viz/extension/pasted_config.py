"""Read a pasted ``config.json``, or only its RoPE block, into a config dict for ``from_config``.

:func:`config_from_text` accepts a whole JSON object, a fragment such as ``"rope_scaling": {...}`` or a bare
RoPE block; :func:`scaling_from_text` evaluates the result.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from rope_viz.scaling import RopeScaling, from_config
from rope_viz.scaling.parameters import check_positive_int

_MODEL_KEYS = (
    "hidden_size",
    "head_dim",
    "qk_rope_head_dim",
    "num_attention_heads",
    "rope_scaling",
    "rope_parameters",
    "text_config",
)


def config_from_text(text: str, *, head_dim: int = 128) -> dict:
    """Read a pasted ``config.json``, or only its RoPE block, into a config dict for ``from_config``.

    Accepts a whole JSON object, a fragment such as ``"rope_scaling": {...}`` (braces are added), or a bare
    RoPE block (``{"rope_type": "yarn", "factor": 4.0, ...}``, recognised by having none of the model keys
    ``hidden_size``, ``head_dim``, ``rope_scaling``, ...), which is given the head size ``head_dim``.

    Parameters
    ----------
    text : str
        JSON text.
    head_dim : int, default 128
        Head size used for a bare RoPE block.

    Returns
    -------
    dict

    Raises
    ------
    ValueError
        If the text is not JSON for an object.

    Examples
    --------
    >>> config_from_text('{"rope_type": "linear", "factor": 2.0}', head_dim=64)
    {'head_dim': 64, 'rope_scaling': {'rope_type': 'linear', 'factor': 2.0}}

    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("paste the JSON of a config.json or of its rope_scaling / rope_parameters block")
    stripped = text.strip().rstrip(",")
    try:
        value = json.loads(stripped)
    except json.JSONDecodeError as first_error:
        try:
            value = json.loads("{" + stripped + "}")
        except json.JSONDecodeError:
            raise ValueError(f"not valid JSON: {first_error}") from None
    if not isinstance(value, Mapping):
        raise ValueError(f"the JSON must be an object ({{...}}), got {type(value).__name__}")
    value = dict(value)
    if len(value) == 1 and next(iter(value)) in ("rope_scaling", "rope_parameters"):
        value = dict(value[next(iter(value))] or {})
    if not any(key in value for key in _MODEL_KEYS):
        return {"head_dim": check_positive_int(head_dim, "head_dim"), "rope_scaling": value}
    return value


def scaling_from_text(text: str, *, head_dim: int = 128, seq_len: int | None = None) -> RopeScaling:
    """:func:`config_from_text` followed by :func:`rope_viz.scaling.from_config`.

    Raises
    ------
    ValueError
        If the text is not JSON for an object, or the config is invalid (the message says why).

    """
    return from_config(config_from_text(text, head_dim=head_dim), seq_len=seq_len)


__all__ = [
    "config_from_text",
    "scaling_from_text",
]
