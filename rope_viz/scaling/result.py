"""What a context-extension method did to each pair: :class:`RopeScaling` and :func:`classify_pairs`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rope_viz._validation import check_real_array
from rope_viz.frequencies import inv_freq as _plain_inv_freq
from rope_viz.scaling.ntk import dynamic_scale
from rope_viz.scaling.parameters import RopeParameters, check_number

UNTOUCHED = "untouched"
BLENDED = "blended"
INTERPOLATED = "interpolated"
PAIR_CLASSES = (UNTOUCHED, BLENDED, INTERPOLATED)
"""How a context-extension method can treat a rotating pair."""
UNROTATED = "unrotated"
"""The class of a pair whose frequency is 0 (proportional RoPE's slow pairs): it does not rotate at all."""


def classify_pairs(scale_per_pair: object, factor: float, *, rtol: float = 1e-9) -> np.ndarray:
    """Label each pair by how much it was slowed relative to plain RoPE.

    Parameters
    ----------
    scale_per_pair : array_like
        ``default_inv_freq / inv_freq`` for each pair.
    factor : float
        The method's full extension factor (>= 1).
    rtol : float, default 1e-9
        Relative tolerance of both comparisons.

    Returns
    -------
    numpy.ndarray
        Strings, one per pair: ``"untouched"`` where the scale is 1, ``"interpolated"`` where it is at least
        ``factor`` (and ``factor > 1``), ``"unrotated"`` where it is ``inf`` (frequency 0), ``"blended"``
        otherwise.

    Examples
    --------
    >>> classify_pairs([1.0, 2.5, 4.0, float("inf")], 4.0).tolist()
    ['untouched', 'blended', 'interpolated', 'unrotated']

    """
    scale = check_real_array(scale_per_pair, "scale_per_pair", finite=False)
    if np.isnan(scale).any() or (scale == -np.inf).any():
        raise ValueError("scale_per_pair must hold finite numbers or +inf (a pair that does not rotate)")
    factor = check_number(factor, "factor", minimum=1.0)
    rtol = check_number(rtol, "rtol", minimum=0.0)
    labels = np.full(scale.shape, BLENDED, dtype=object)
    labels[scale >= factor * (1.0 - rtol)] = INTERPOLATED
    labels[np.abs(scale - 1.0) <= rtol] = UNTOUCHED
    labels[scale == np.inf] = UNROTATED
    return labels.astype(str)


@dataclass(frozen=True, eq=False)
class RopeScaling:
    """Frequencies and attention factor of one RoPE configuration, from :func:`rope_viz.scaling.from_config`.

    Attributes
    ----------
    rope_type : str
        Method name (a key of :data:`rope_viz.scaling.METHODS`).
    parameters : RopeParameters
        The parsed settings.
    inv_freq : numpy.ndarray
        Shape ``(dim // 2,)``, radians per token, read-only. Proportional RoPE's unrotated pairs hold 0.
    attention_factor : float
        Multiplier of cos and sin (so attention logits grow by its square).
    seq_len : int or None
        The sequence length the frequencies were computed for (``dynamic`` and ``longrope`` depend on it).

    """

    rope_type: str
    parameters: RopeParameters
    inv_freq: np.ndarray
    attention_factor: float
    seq_len: int | None = None

    def __post_init__(self) -> None:
        frequencies = np.array(self.inv_freq, dtype=np.float64)
        frequencies.setflags(write=False)
        object.__setattr__(self, "inv_freq", frequencies)
        object.__setattr__(self, "attention_factor", float(self.attention_factor))

    @property
    def dim(self) -> int:
        """Size ``d`` the frequency schedule spans, ``2 * len(inv_freq)`` (see :class:`RopeParameters`)."""
        return self.parameters.dim

    @property
    def head_dim(self) -> int:
        """Size of one attention head."""
        return self.parameters.head_dim

    @property
    def rotary_dim(self) -> int:
        """How many channels of a head rotate.

        The first ``rotary_dim`` channels for a partial rotary of the GPT-NeoX kind (the rest of the head
        passes through); ``2 r`` channels, the ``r`` fastest pairs, for proportional RoPE; ``head_dim``
        otherwise.
        """
        return self.parameters.rotary_dim

    @property
    def wavelengths(self) -> np.ndarray:
        """Tokens per full turn of each pair, ``2 pi / inv_freq`` (``inf`` for a pair that never turns)."""
        with np.errstate(divide="ignore"):
            return 2.0 * np.pi / self.inv_freq

    @property
    def default_inv_freq(self) -> np.ndarray:
        """Plain-RoPE frequencies of the same ``rope_theta`` and ``dim``."""
        return _plain_inv_freq(self.parameters.dim, self.parameters.rope_theta)

    @property
    def scale_per_pair(self) -> np.ndarray:
        """How many times slower each pair turns than in plain RoPE: ``default_inv_freq / inv_freq``.

        ``inf`` for a pair that does not rotate.
        """
        with np.errstate(divide="ignore"):
            return self.default_inv_freq / self.inv_freq

    @property
    def factor(self) -> float:
        """The full extension factor: 1 for ``default``, the current scale for ``dynamic``, else ``s``."""
        if self.rope_type == "default":
            return 1.0
        if self.rope_type == "dynamic":
            return dynamic_scale(self.parameters, self.seq_len)
        return self.parameters.scaling_factor

    @property
    def pair_classes(self) -> np.ndarray:
        """The class of each pair: see :func:`classify_pairs`."""
        return classify_pairs(self.scale_per_pair, max(self.factor, 1.0))

    def pair_counts(self) -> dict[str, int]:
        """Count the pairs in each class, e.g. ``{"untouched": 29, "blended": 6, "interpolated": 29}``.

        The key ``"unrotated"`` is added only where some pairs do not rotate (proportional RoPE).
        """
        classes = self.pair_classes
        counts = {name: int(np.count_nonzero(classes == name)) for name in PAIR_CLASSES}
        unrotated = int(np.count_nonzero(classes == UNROTATED))
        if unrotated:
            counts[UNROTATED] = unrotated
        return counts
