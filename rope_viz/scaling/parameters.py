"""The RoPE settings of one model, checked once: :class:`RopeParameters`.

Every context-extension method in :mod:`rope_viz.scaling` is a pure function of a :class:`RopeParameters`
(and, for two of them, the current sequence length). Building one checks every field, so a method never sees
a missing key, a NaN or a factor it cannot take. Field names are Hugging Face's ``rope_parameters`` keys.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field

from rope_viz._validation import check_base

KNOWN_ROPE_TYPES = ("default", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "proportional")
"""Names accepted as ``rope_type``: Hugging Face's names, plus ``"ntk"`` (static NTK-aware base change)."""

DEFAULT_ROPE_THETA = 10000.0
"""``rope_theta`` when a config gives none (transformers' ``RotaryEmbeddingConfigMixin.default_theta``)."""

YARN_DEFAULT_BETA_FAST = 32.0
YARN_DEFAULT_BETA_SLOW = 1.0

# Keys each method cannot do without (checked after the defaults transformers fills in).
_REQUIRED = {
    "default": (),
    "linear": ("factor",),
    "ntk": ("factor",),
    "dynamic": ("factor", "max_position_embeddings"),
    "yarn": ("original_max_position_embeddings",),
    "llama3": ("factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"),
    "longrope": ("short_factor", "long_factor", "original_max_position_embeddings"),
    "proportional": (),
}


def check_number(value: object, name: str, *, minimum: float, inclusive: bool = True) -> float:
    """Return ``value`` as a float after checking it is a finite real number ``>= minimum`` (or ``>``)."""
    bound = f">= {minimum:g}" if inclusive else f"> {minimum:g}"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a finite number {bound}, got {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < minimum or (not inclusive and number == minimum):
        raise ValueError(f"{name} must be a finite number {bound}, got {value!r}")
    return number


def check_positive_int(value: object, name: str) -> int:
    """Return ``value`` as an int after checking it is a whole number >= 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not float(value).is_integer():
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def check_seq_len(seq_len: object) -> int | None:
    """Return ``seq_len`` (``None`` or a positive integer) after checking it."""
    if seq_len is None:
        return None
    return check_positive_int(seq_len, "seq_len")


def _check_factor_list(values: object, name: str, length: int) -> tuple[float, ...]:
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise ValueError(f"{name} must be a list of {length} finite numbers > 0, got {values!r}")
    if len(values) != length:
        raise ValueError(
            f"{name} must be a list of length rotary dim // 2 = {length} (one factor per pair), "
            f"got length {len(values)}"
        )
    return tuple(
        check_number(value, f"{name}[{index}]", minimum=0.0, inclusive=False)
        for index, value in enumerate(values)
    )


def _optional(value: object, name: str, *, minimum: float, inclusive: bool = True) -> float | None:
    return None if value is None else check_number(value, name, minimum=minimum, inclusive=inclusive)


@dataclass(frozen=True, kw_only=True)
class RopeParameters:
    """Everything a RoPE frequency method reads from a model config, checked.

    Parameters
    ----------
    rope_type : str
        One of :data:`KNOWN_ROPE_TYPES`.
    rope_theta : float
        Frequency base ``b``; finite, > 1.
    head_dim : int
        Size of one attention head, >= 1.
    partial_rotary_factor : float, default 1.0
        Fraction of the head that is rotated, in ``(0, 1]``. Two meanings exist (see ``dim`` and
        ``rotary_dim``): for every ``rope_type`` but ``proportional``, the first ``int(p * head_dim)``
        channels rotate, with frequencies spread over that rotary size (GPT-NeoX, Phi, GLM); for
        ``proportional`` (Gemma 4's global layers), the frequencies are spread over the whole head and only
        the ``int(p * head_dim) // 2`` fastest pairs rotate.
    max_position_embeddings : int or None
        Context length the config declares (after any extension).
    original_max_position_embeddings : int or None
        Pre-training context length ``L`` (``yarn``, ``llama3``, ``longrope``).
    factor : float or None
        Context-extension factor ``s``; finite, >= 1.
    attention_factor : float or None
        Explicit multiplier of cos and sin (``yarn``, ``longrope``); finite, > 0.
    beta_fast, beta_slow : float or None
        YaRN's rotation counts bounding the blend; > 0, ``beta_fast >= beta_slow`` (defaults 32 and 1).
    mscale, mscale_all_dim : float or None
        DeepSeek's YaRN attention-scale coefficients; finite, >= 0 (0 counts as absent, as in transformers).
    truncate : bool, default True
        Whether YaRN rounds its blend edges outward to whole pair indices.
    low_freq_factor, high_freq_factor : float or None
        Llama 3.1's band edges ``L / low_freq_factor`` and ``L / high_freq_factor`` (in tokens); > 0,
        ``low_freq_factor <= high_freq_factor`` (Llama 4 sets both to 1: no blend band).
    short_factor, long_factor : sequence of float or None
        LongRoPE's per-pair divisors, ``rotary dim // 2`` numbers > 0 each.

    Attributes
    ----------
    dim : int
        Size the frequency schedule is spread over, twice the length of ``inv_freq``: the rotary dimension
        ``int(head_dim * partial_rotary_factor)`` (transformers truncates the same way), or the whole
        ``head_dim`` for ``proportional``.
    rotary_dim : int
        How many channels of a head rotate: ``dim``, or for ``proportional`` ``2 * (int(p * head_dim) // 2)``
        (its other pairs have frequency 0).

    """

    rope_type: str = "default"
    rope_theta: float = DEFAULT_ROPE_THETA
    head_dim: int
    partial_rotary_factor: float = 1.0
    max_position_embeddings: int | None = None
    original_max_position_embeddings: int | None = None
    factor: float | None = None
    attention_factor: float | None = None
    beta_fast: float | None = None
    beta_slow: float | None = None
    mscale: float | None = None
    mscale_all_dim: float | None = None
    truncate: bool = True
    low_freq_factor: float | None = None
    high_freq_factor: float | None = None
    short_factor: tuple[float, ...] | None = None
    long_factor: tuple[float, ...] | None = None
    dim: int = field(init=False)
    rotary_dim: int = field(init=False)

    def __post_init__(self) -> None:
        if self.rope_type not in KNOWN_ROPE_TYPES:
            raise ValueError(f"rope_type must be one of {KNOWN_ROPE_TYPES}, got {self.rope_type!r}")
        values: dict[str, object] = {
            "rope_theta": check_base(self.rope_theta, "rope_theta"),
            "head_dim": check_positive_int(self.head_dim, "head_dim"),
            "partial_rotary_factor": check_number(
                self.partial_rotary_factor, "partial_rotary_factor", minimum=0.0, inclusive=False
            ),
        }
        if values["partial_rotary_factor"] > 1.0:
            raise ValueError(f"partial_rotary_factor must be in (0, 1], got {self.partial_rotary_factor!r}")
        head_dim, proportion = values["head_dim"], values["partial_rotary_factor"]
        if self.rope_type == "proportional":
            # transformers: rope_angles = int(partial_rotary_factor * head_dim // 2), the rest get frequency 0
            rotated_pairs = int(proportion * head_dim // 2)
            if head_dim % 2 or rotated_pairs < 1:
                raise ValueError(
                    "rope_type 'proportional' needs an even head_dim and at least one rotated pair, "
                    f"int(partial_rotary_factor * head_dim // 2) >= 1; got head_dim={head_dim} and "
                    f"partial_rotary_factor={proportion}"
                )
            dim, rotary_dim = head_dim, 2 * rotated_pairs
        else:
            dim = rotary_dim = int(head_dim * proportion)
            if dim < 2 or dim % 2:
                raise ValueError(
                    f"the rotary dim int(head_dim * partial_rotary_factor) must be an even integer >= 2, got "
                    f"int({head_dim} * {proportion}) = {dim}"
                )
        values["dim"], values["rotary_dim"] = dim, rotary_dim
        for name in ("max_position_embeddings", "original_max_position_embeddings"):
            value = getattr(self, name)
            values[name] = None if value is None else check_positive_int(value, name)
        values["factor"] = _optional(self.factor, "factor", minimum=1.0)
        values["attention_factor"] = _optional(
            self.attention_factor, "attention_factor", minimum=0.0, inclusive=False
        )
        for name in ("beta_fast", "beta_slow", "low_freq_factor", "high_freq_factor"):
            values[name] = _optional(getattr(self, name), name, minimum=0.0, inclusive=False)
        for name in ("mscale", "mscale_all_dim"):
            values[name] = _optional(getattr(self, name), name, minimum=0.0)
        if not isinstance(self.truncate, bool):
            raise ValueError(f"truncate must be True or False, got {self.truncate!r}")
        for name in ("short_factor", "long_factor"):
            value = getattr(self, name)
            values[name] = None if value is None else _check_factor_list(value, name, dim // 2)
        for name, value in values.items():
            object.__setattr__(self, name, value)
        self._check_method_needs()

    def _check_method_needs(self) -> None:
        for name in _REQUIRED[self.rope_type]:
            if getattr(self, name) is None:
                raise ValueError(f"{name} is required for rope_type {self.rope_type!r} and is missing")
        if self.rope_type in ("ntk", "dynamic") and self.dim < 4:
            raise ValueError(
                f"rope_type {self.rope_type!r} needs a rotary dim >= 4 (its exponent is dim / (dim - 2)), "
                f"got int(head_dim * partial_rotary_factor) = {self.dim}"
            )
        if self.rope_type == "yarn":
            if self.factor is None and self.max_position_embeddings is None:
                raise ValueError(
                    "factor is None for rope_type 'yarn', so it is taken from max_position_embeddings / "
                    "original_max_position_embeddings, but max_position_embeddings is missing"
                )
            if self.scaling_factor < 1.0:
                raise ValueError(
                    "factor for rope_type 'yarn' (here max_position_embeddings / "
                    f"original_max_position_embeddings) must be >= 1, got {self.scaling_factor}"
                )
            if self.resolved_beta_fast < self.resolved_beta_slow:
                raise ValueError(
                    f"beta_fast must be >= beta_slow, got beta_fast={self.resolved_beta_fast} and "
                    f"beta_slow={self.resolved_beta_slow}"
                )
        if self.rope_type == "llama3" and not self.low_freq_factor <= self.high_freq_factor:
            raise ValueError(
                f"low_freq_factor must be <= high_freq_factor, got low_freq_factor={self.low_freq_factor} "
                f"and high_freq_factor={self.high_freq_factor}"
            )
        if (
            self.rope_type == "longrope"
            and self.factor is None
            and self.attention_factor is None
            and self.max_position_embeddings is None
        ):
            raise ValueError(
                "rope_type 'longrope' needs factor, attention_factor or max_position_embeddings to set the "
                "attention factor; all are missing"
            )

    @property
    def scaling_factor(self) -> float:
        """The extension factor ``s`` the method uses.

        ``factor`` if given; for ``yarn`` and ``longrope`` without one, ``max_position_embeddings /
        original_max_position_embeddings`` (the ``factor is None`` branch of transformers 5.23's
        ``_compute_yarn_parameters`` and ``_compute_longrope_parameters``); 1.0 when neither is known
        (``default``).
        """
        if self.factor is not None:
            return self.factor
        if (
            self.rope_type in ("yarn", "longrope")
            and self.max_position_embeddings is not None
            and self.original_max_position_embeddings is not None
        ):
            return self.max_position_embeddings / self.original_max_position_embeddings
        return 1.0

    @property
    def resolved_beta_fast(self) -> float:
        """``beta_fast``, or 32 when not given."""
        return YARN_DEFAULT_BETA_FAST if self.beta_fast is None else self.beta_fast

    @property
    def resolved_beta_slow(self) -> float:
        """``beta_slow``, or 1 when not given."""
        return YARN_DEFAULT_BETA_SLOW if self.beta_slow is None else self.beta_slow
