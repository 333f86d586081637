"""Position schemes other than RoPE, for comparison, and RoPE itself in the same three-hook form.

A scheme can inject position at one of three places of a self-attention layer:

* the **input**: a position vector is *added* to each token embedding, once, before the first layer
  (learned absolute, GPT-2/BERT style; sinusoidal absolute, Vaswani et al. 2017);
* the **logits**: a bias that depends on the positions is *added* to ``q . k / sqrt(d)`` in every layer
  (T5's bucketed relative bias, Raffel et al. 2020; ALiBi, Press et al. 2022);
* the **queries and keys**: ``q`` and ``k`` are *multiplied* by a rotation in every layer (RoPE, Su et al.
  2021; see :mod:`rope_viz.rotation`).

Each :class:`PositionScheme` exposes the three hooks (:meth:`~PositionScheme.input_embeddings`,
:meth:`~PositionScheme.rotate_qk`, :meth:`~PositionScheme.logit_bias`); :mod:`rope_viz.attention` runs a
single head with any of them, so the schemes can be compared on the same toy sentence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from rope_viz._validation import check_base, check_dim, check_finite, check_positions
from rope_viz.rotation import rotate


def sinusoidal_embeddings(positions: object, dim: int, base: float = 10000.0) -> np.ndarray:
    """Sinusoidal absolute position embeddings, added to the token embeddings at the input.

    Implements (Vaswani et al. 2017, section 3.5), for ``i = 0 .. d/2 - 1``::

        PE[m, 2i]     = sin(m / base**(2i/d))
        PE[m, 2i + 1] = cos(m / base**(2i/d))

    The frequencies are RoPE's ``theta_i``; the difference is that these vectors are *added* to the input,
    while RoPE *rotates* the query and key.

    Parameters
    ----------
    positions : array_like
        Shape ``(seq,)``; finite, may be fractional.
    dim : int
        Model width ``d``; even, >= 2.
    base : float, default 10000.0
        Frequency base; finite, > 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(seq, dim)``.

    """
    dim = check_dim(dim)
    base = check_base(base)
    positions = check_positions(positions, ndim=1)
    theta = base ** -(np.arange(0, dim, 2, dtype=np.float64) / dim)  # (d/2,)
    angle = np.multiply.outer(positions, theta)  # (seq, d/2)
    embeddings = np.empty((positions.size, dim))
    embeddings[:, 0::2] = np.sin(angle)
    embeddings[:, 1::2] = np.cos(angle)
    return embeddings


def learned_absolute_table(max_positions: int, dim: int, *, std: float = 0.5, seed: int = 0) -> np.ndarray:
    """Return a stand-in for a trained absolute position table: one random row per position ``0 .. L-1``.

    Implements ``P[m] ~ N(0, std**2 I_d)`` for ``m = 0 .. L - 1``. A real table (BERT, GPT-2) is learned
    with the model; only its shape, ``(L, d)``, matters for what this course shows: there is one free vector
    per position up to the training length ``L`` and none beyond.

    Parameters
    ----------
    max_positions : int
        Number of rows ``L`` (the longest sequence the table supports); >= 1.
    dim : int
        Model width ``d``; >= 1.
    std : float, default 0.5
        Standard deviation of the entries; > 0.
    seed : int, default 0
        Seed of the random generator, so that the table is the same on every run.

    Returns
    -------
    numpy.ndarray
        Shape ``(max_positions, dim)``, float64.

    """
    if int(max_positions) != max_positions or max_positions < 1:
        raise ValueError(f"max_positions must be an integer >= 1, got {max_positions!r}")
    if int(dim) != dim or dim < 1:
        raise ValueError(f"dim must be an integer >= 1, got {dim!r}")
    if not std > 0:
        raise ValueError(f"std must be > 0, got {std!r}")
    rng = np.random.default_rng(seed)
    return std * rng.standard_normal((int(max_positions), int(dim)))


def learned_absolute_embeddings(positions: object, table: object) -> np.ndarray:
    """Look up the learned position vectors ``P[m]`` of integer positions ``m`` in ``[0, L)``.

    Implements ``e(m) = P[m]`` (a table lookup, as in BERT and GPT-2). A position at or beyond
    ``L = len(table)`` has no row: the lookup raises instead of inventing one, which is why a learned
    absolute table cannot be used beyond its training length.

    Parameters
    ----------
    positions : array_like
        Shape ``(seq,)``; whole numbers in ``[0, L)``.
    table : array_like
        Shape ``(L, d)``, e.g. from :func:`learned_absolute_table`.

    Returns
    -------
    numpy.ndarray
        Shape ``(seq, d)``.

    Raises
    ------
    ValueError
        If a position is fractional, negative, or ``>= L``.

    Examples
    --------
    >>> table = np.arange(6.0).reshape(3, 2)
    >>> learned_absolute_embeddings([2, 0], table)
    array([[4., 5.],
           [0., 1.]])

    """
    table = check_finite(table, "table")
    if table.ndim != 2:
        raise ValueError(f"table must have shape (L, d), got shape {table.shape}")
    positions = check_positions(positions, ndim=1)
    if np.any(positions != np.round(positions)):
        raise ValueError("positions of a learned table must be whole numbers")
    too_far = positions[(positions < 0) | (positions >= table.shape[0])]
    if too_far.size:
        raise ValueError(
            f"the learned table has rows for positions 0 .. {table.shape[0] - 1} only; "
            f"position {too_far[0]:g} has no embedding"
        )
    return table[positions.astype(np.int64)]


def t5_relative_bucket(
    relative_position: object, *, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128
) -> np.ndarray:
    """T5's bucket index of a relative position ``r = n - m`` (key position minus query position).

    Implements the bucketing of Raffel et al. (2020, sec. 2.1; the function ``_relative_position_bucket`` of
    their code): with ``B = num_buckets`` (halved to ``B/2`` and offset by ``B/2`` for ``r > 0`` when
    ``bidirectional``; for a causal model, ``r > 0`` is clipped to 0) and ``D = |r|`` (``max(-r, 0)`` when
    causal), half the buckets are exact and the rest logarithmic up to ``max_distance``::

        bucket(D) = D                                                      if D < B/2
                  = min(B - 1, B/2 + floor(ln(D / (B/2)) / ln(max_distance / (B/2)) * (B - B/2)))
                                                                           otherwise

    so every distance ``>= max_distance`` shares the last bucket. Here ``B`` is the (possibly halved) count.

    Parameters
    ----------
    relative_position : array_like
        Integer offsets ``n - m``, any shape.
    bidirectional : bool, default True
        Separate buckets for keys before and after the query (encoder); False for a causal decoder.
    num_buckets : int, default 32
        Number of buckets (T5 uses 32); even, >= 4 when ``bidirectional``, >= 2 otherwise.
    max_distance : int, default 128
        Distance from which all offsets share one bucket (T5 uses 128); larger than the exact range.

    Returns
    -------
    numpy.ndarray
        Same shape as ``relative_position``, int64, in ``[0, num_buckets)``.

    Examples
    --------
    >>> t5_relative_bucket([0, -1, 1, -8, -16, -127, -128, -5000]).tolist()
    [0, 1, 17, 8, 10, 15, 15, 15]

    """
    offsets = check_finite(relative_position, "relative_position")
    if np.any(offsets != np.round(offsets)):
        raise ValueError("relative positions must be whole numbers")
    offsets = offsets.astype(np.int64)
    buckets = int(num_buckets)
    if buckets != num_buckets or buckets < (4 if bidirectional else 2) or buckets % 2:
        raise ValueError(
            f"num_buckets must be an even integer >= 4 (bidirectional) or >= 2, got {num_buckets}"
        )
    result = np.zeros(offsets.shape, dtype=np.int64)
    if bidirectional:
        buckets //= 2
        result += (offsets > 0) * buckets
        distance = np.abs(offsets)
    else:
        distance = np.maximum(-offsets, 0)
    max_exact = buckets // 2
    if not max_distance > max_exact:
        raise ValueError(f"max_distance must exceed the exact range {max_exact}, got {max_distance}")
    # Logarithmic buckets; evaluated on max(D, 1) so that ln(0) never occurs (those D take the exact branch).
    scaled = np.log(np.maximum(distance, 1) / max_exact) / math.log(max_distance / max_exact)
    large = max_exact + np.floor(scaled * (buckets - max_exact)).astype(np.int64)
    large = np.minimum(large, buckets - 1)
    return result + np.where(distance < max_exact, distance, large)


def t5_bias(
    query_positions: object,
    key_positions: object,
    bucket_bias: object,
    *,
    bidirectional: bool = True,
    max_distance: int = 128,
) -> np.ndarray:
    """T5's relative attention bias ``B[a, b] = w[bucket(n_b - m_a)]``, added to the logits of one head.

    Implements Raffel et al. (2020, sec. 2.1): a learned scalar ``w`` per bucket (per head, shared by all
    layers) indexed by :func:`t5_relative_bucket` of the offset ``n - m``. It depends on positions only
    through ``n - m``, so it is unchanged when both move by the same amount.

    Parameters
    ----------
    query_positions, key_positions : array_like
        Shapes ``(q,)`` and ``(k,)``; whole numbers.
    bucket_bias : array_like
        Shape ``(num_buckets,)``: the learned scalar of each bucket.
    bidirectional, max_distance
        As in :func:`t5_relative_bucket`.

    Returns
    -------
    numpy.ndarray
        Shape ``(q, k)``, float64.

    """
    weights = check_finite(bucket_bias, "bucket_bias")
    if weights.ndim != 1:
        raise ValueError(f"bucket_bias must have shape (num_buckets,), got shape {weights.shape}")
    m = check_positions(query_positions, "query_positions", ndim=1)
    n = check_positions(key_positions, "key_positions", ndim=1)
    offsets = n[None, :] - m[:, None]  # (q, k): key minus query, as in T5
    buckets = t5_relative_bucket(
        offsets, bidirectional=bidirectional, num_buckets=weights.size, max_distance=max_distance
    )
    return weights[buckets]


def alibi_slopes(num_heads: int) -> np.ndarray:
    """ALiBi's fixed, per-head slopes.

    Implements Press et al. (2022, sec. 3): for ``H`` a power of two the geometric sequence

        eta_j = 2 ** (-8 j / H),    j = 1 .. H  (head j)

    (1/2, 1/4, ..., 1/256 for ``H = 8``). For other ``H`` the authors' code takes the ``H2`` slopes of the
    largest power of two ``H2 < H`` and appends every other slope of the ``2 H2`` sequence,
    ``2 ** (-8 (2j + 1) / (2 H2))`` for ``j = 0 .. H - H2 - 1``.

    Parameters
    ----------
    num_heads : int
        Number of attention heads ``H``; >= 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(num_heads,)``, float64, each in ``(0, 1)``.

    Examples
    --------
    >>> alibi_slopes(4).tolist()
    [0.25, 0.0625, 0.015625, 0.00390625]
    >>> (-np.log2(alibi_slopes(6))).tolist()
    [2.0, 4.0, 6.0, 8.0, 1.0, 3.0]

    """
    if isinstance(num_heads, bool) or int(num_heads) != num_heads or num_heads < 1:
        raise ValueError(f"num_heads must be an integer >= 1, got {num_heads!r}")
    heads = int(num_heads)
    closest = 1 << (heads.bit_length() - 1)  # largest power of two <= H

    def geometric(count: int) -> np.ndarray:
        return 2.0 ** (-8.0 * np.arange(1, count + 1) / count)

    if closest == heads:
        return geometric(heads)
    return np.concatenate([geometric(closest), geometric(2 * closest)[0::2][: heads - closest]])


def alibi_bias(query_positions: object, key_positions: object, slope: float) -> np.ndarray:
    """ALiBi's linear distance penalty ``B[a, b] = -eta |m_a - n_b|``, added to the logits of one head.

    Implements Press et al. (2022, sec. 3), where a causal query at ``m`` sees keys ``n <= m`` and the bias
    is ``-eta (m - n)``; for ``n <= m`` that is ``-eta |m - n|``, which also defines a symmetric penalty for
    keys after the query (used here for the bidirectional toy examples). There are no learned parameters and
    no frequencies; the bias depends only on ``m - n``.

    Parameters
    ----------
    query_positions, key_positions : array_like
        Shapes ``(q,)`` and ``(k,)``; finite.
    slope : float
        The head's slope ``eta`` (see :func:`alibi_slopes`); finite, >= 0.

    Returns
    -------
    numpy.ndarray
        Shape ``(q, k)``, float64, <= 0.

    Examples
    --------
    >>> alibi_bias([2], [0, 1, 2], 0.5)
    array([[-1. , -0.5, -0. ]])

    """
    if not (math.isfinite(slope) and slope >= 0):
        raise ValueError(f"slope must be a finite number >= 0, got {slope!r}")
    m = check_positions(query_positions, "query_positions", ndim=1)
    n = check_positions(key_positions, "key_positions", ndim=1)
    return -slope * np.abs(m[:, None] - n[None, :])


# --- schemes as objects with three hooks -------------------------------------------------------------------


@dataclass(frozen=True)
class PositionScheme:
    """No position at all: the base class, whose three hooks leave the attention layer unchanged.

    Subclasses override one hook each. ``where`` and ``operation`` describe the hook in words for tables;
    ``citation`` is the key of the scheme's paper in ``book/references.bib``.
    """

    name: str = "no position"
    where: str = "nowhere"
    operation: str = "none"
    citation: str = ""

    def input_embeddings(self, positions: np.ndarray, dim: int) -> np.ndarray | None:
        """Return the vectors ``e(m)`` added to the token embeddings, shape ``(seq, dim)``; None if unused."""
        return None

    def rotate_qk(
        self, q: np.ndarray, k: np.ndarray, query_positions: np.ndarray, key_positions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return queries ``(seq_q, d)`` and keys ``(seq_k, d)`` after the scheme's transform."""
        return q, k

    def logit_bias(self, query_positions: np.ndarray, key_positions: np.ndarray) -> np.ndarray | None:
        """Bias ``(seq_q, seq_k)`` added to the logits ``q . k / sqrt(d)``; None if unused."""
        return None

    def parameter_count(self, *, max_positions: int, dim: int, heads: int) -> int:
        """Return the parameters added to a model of training length ``L``, width ``d``, with ``H`` heads."""
        return 0


@dataclass(frozen=True)
class LearnedAbsolute(PositionScheme):
    """A learned table of ``L`` position vectors, added to the input (BERT, GPT-2); random stand-in values."""

    name: str = "learned absolute"
    where: str = "input, once"
    operation: str = "added"
    citation: str = "devlin2019bert"
    max_positions: int = 32
    dim: int = 8
    std: float = 0.5
    seed: int = 1
    table: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        table = learned_absolute_table(self.max_positions, self.dim, std=self.std, seed=self.seed)
        object.__setattr__(self, "table", table)

    def input_embeddings(self, positions: np.ndarray, dim: int) -> np.ndarray:
        """``P[m]`` for each position (raises for ``m >= L``)."""
        if dim != self.dim:
            raise ValueError(f"this table has width {self.dim}, the tokens have width {dim}")
        return learned_absolute_embeddings(positions, self.table)

    def parameter_count(self, *, max_positions: int, dim: int, heads: int) -> int:
        """``L * d``: one free vector per position."""
        return int(max_positions) * int(dim)


@dataclass(frozen=True)
class SinusoidalAbsolute(PositionScheme):
    """Fixed sine/cosine vectors added to the input (Vaswani et al. 2017)."""

    name: str = "sinusoidal absolute"
    where: str = "input, once"
    operation: str = "added"
    citation: str = "vaswani2017attention"
    base: float = 10000.0

    def input_embeddings(self, positions: np.ndarray, dim: int) -> np.ndarray:
        """:func:`sinusoidal_embeddings` of the positions."""
        return sinusoidal_embeddings(positions, dim, self.base)


@dataclass(frozen=True)
class T5RelativeBias(PositionScheme):
    """One learned scalar per bucket of ``n - m``, added to the logits (Raffel et al. 2020); random values."""

    name: str = "T5 relative bias"
    where: str = "logits, every layer"
    operation: str = "added"
    citation: str = "raffel2020t5"
    num_buckets: int = 32
    max_distance: int = 128
    bidirectional: bool = True
    std: float = 1.0
    seed: int = 2
    bucket_bias: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        weights = self.std * np.random.default_rng(self.seed).standard_normal(self.num_buckets)
        object.__setattr__(self, "bucket_bias", weights)

    def logit_bias(self, query_positions: np.ndarray, key_positions: np.ndarray) -> np.ndarray:
        """:func:`t5_bias` with this scheme's bucket scalars."""
        return t5_bias(
            query_positions,
            key_positions,
            self.bucket_bias,
            bidirectional=self.bidirectional,
            max_distance=self.max_distance,
        )

    def parameter_count(self, *, max_positions: int, dim: int, heads: int) -> int:
        """``num_buckets * H``: one scalar per bucket and head, shared by all layers (Raffel et al. 2020)."""
        return self.num_buckets * int(heads)


@dataclass(frozen=True)
class ALiBi(PositionScheme):
    """A fixed penalty ``-s |m - n|`` added to the logits (Press et al. 2022); ``s`` is the head's slope."""

    name: str = "ALiBi"
    where: str = "logits, every layer"
    operation: str = "added"
    citation: str = "press2022alibi"
    slope: float = 0.5

    def logit_bias(self, query_positions: np.ndarray, key_positions: np.ndarray) -> np.ndarray:
        """:func:`alibi_bias` with this head's slope."""
        return alibi_bias(query_positions, key_positions, self.slope)


@dataclass(frozen=True)
class Rotary(PositionScheme):
    """RoPE: ``q`` and ``k`` rotated by ``R(m)`` and ``R(n)`` in every layer (Su et al. 2021)."""

    name: str = "RoPE"
    where: str = "q and k, every layer"
    operation: str = "multiplied"
    citation: str = "su2024roformer"
    base: float = 10000.0
    convention: str = "interleaved"

    def rotate_qk(
        self, q: np.ndarray, k: np.ndarray, query_positions: np.ndarray, key_positions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``R(m) q`` and ``R(n) k`` with :func:`rope_viz.rotate`."""
        options = {"base": self.base, "convention": self.convention}
        return rotate(q, query_positions, **options), rotate(k, key_positions, **options)


def all_schemes(dim: int = 8, max_positions: int = 32) -> tuple[PositionScheme, ...]:
    """Return the six schemes compared in the course, in order: none, learned, sinusoidal, T5, ALiBi, RoPE.

    ``dim`` is the token width (the learned table's width) and ``max_positions`` the learned table's ``L``.
    The ALiBi head is the steepest of an 8-head model, slope ``alibi_slopes(8)[0] = 1/2``.
    """
    return (
        PositionScheme(),
        LearnedAbsolute(max_positions=max_positions, dim=dim),
        SinusoidalAbsolute(),
        T5RelativeBias(),
        ALiBi(slope=float(alibi_slopes(8)[0])),
        Rotary(),
    )


__all__ = [
    "ALiBi",
    "LearnedAbsolute",
    "PositionScheme",
    "Rotary",
    "SinusoidalAbsolute",
    "T5RelativeBias",
    "alibi_bias",
    "alibi_slopes",
    "all_schemes",
    "learned_absolute_embeddings",
    "learned_absolute_table",
    "sinusoidal_embeddings",
    "t5_bias",
    "t5_relative_bucket",
]
