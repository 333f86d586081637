"""Multi-head latent attention (MLA) and its decoupled RoPE, in small numpy pieces.

DeepSeek-V2 (DeepSeek-AI 2024, arXiv:2405.04434, sections 2.1.2 and 2.1.3) caches one short latent per token,
``c = W_DKV h``, instead of every head's key, and rebuilds the content key of head ``j`` as
``k_C = W_UK[j] c``. Because ``q_C . (W_UK c) = (W_UK^T q_C) . c``, ``W_UK`` can be *absorbed* into the query
side at inference, and attention runs against the cached latents directly.

RoPE between the two projections breaks this: ``(R(m) q_C) . (R(n) W_UK c) = (W_UK^T R(n - m)^T q_C) . c``
puts a matrix that depends on the offset ``n - m`` between ``q_C`` and ``W_UK``. DeepSeek's answer, the
*decoupled* RoPE, leaves the content parts unrotated and adds a separate rotated slice: a query slice
``q_R = RoPE(W_QR[j] h)`` per head and one key slice ``k_R = RoPE(W_KR h)`` shared by all heads and cached
next to ``c``. The score is the sum ``q_C . k_C + q_R . k_R``.

Weights are laid out as in transformers' ``DeepseekV3Attention`` (5.23): ``q_proj`` holds, per head,
``qk_nope_head_dim`` content rows then ``qk_rope_head_dim`` rotated rows (:attr:`MLAWeights.query_content`,
:attr:`MLAWeights.query_rope`); ``kv_a_proj_with_mqa`` holds ``W_DKV`` then ``W_KR``; ``kv_b_proj`` holds, per
head, ``W_UK`` then ``W_UV``. Left out, to keep the algebra in view: the query's own compression
(``q_lora_rank``), the RMSNorm on the latent (``kv_a_layernorm``), the values and any attention temperature.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from rope_viz._validation import check_finite
from rope_viz.rotation import rotate, rotation_matrix, to_half


@dataclass(frozen=True)
class MLAWeights:
    """The projections of one MLA layer that make queries and keys (DeepSeek-V2, sec. 2.1.2-2.1.3).

    Attributes
    ----------
    query_content : numpy.ndarray
        ``W_UQ``, shape ``(heads, qk_nope_head_dim, hidden_size)``.
    query_rope : numpy.ndarray
        ``W_QR``, shape ``(heads, qk_rope_head_dim, hidden_size)``.
    latent_down : numpy.ndarray
        ``W_DKV``, shape ``(kv_lora_rank, hidden_size)``.
    key_up : numpy.ndarray
        ``W_UK``, shape ``(heads, qk_nope_head_dim, kv_lora_rank)``.
    key_rope : numpy.ndarray
        ``W_KR``, shape ``(qk_rope_head_dim, hidden_size)``: one for all heads.

    """

    query_content: np.ndarray
    query_rope: np.ndarray
    latent_down: np.ndarray
    key_up: np.ndarray
    key_rope: np.ndarray

    def __post_init__(self) -> None:
        for name in ("query_content", "query_rope", "latent_down", "key_up", "key_rope"):
            object.__setattr__(self, name, check_finite(getattr(self, name), name))
        heads, nope, hidden = self.query_content.shape if self.query_content.ndim == 3 else (0, 0, 0)
        rope = self.key_rope.shape[0] if self.key_rope.ndim == 2 else 0
        latent = self.latent_down.shape[0] if self.latent_down.ndim == 2 else 0
        expected = {
            "query_content": (heads, nope, hidden),
            "query_rope": (heads, rope, hidden),
            "latent_down": (latent, hidden),
            "key_up": (heads, nope, latent),
            "key_rope": (rope, hidden),
        }
        for name, shape in expected.items():
            if getattr(self, name).shape != shape or 0 in shape:
                raise ValueError(
                    f"{name} must have shape {shape} (non-empty), got {getattr(self, name).shape}"
                )
        if rope % 2:
            raise ValueError(f"key_rope must have an even number of rows (qk_rope_head_dim), got {rope}")

    @property
    def heads(self) -> int:
        """Number of attention heads."""
        return self.query_content.shape[0]

    @property
    def nope_dim(self) -> int:
        """``qk_nope_head_dim``: size of the content part of a query or key."""
        return self.query_content.shape[1]

    @property
    def rope_dim(self) -> int:
        """``qk_rope_head_dim``: size of the rotated part."""
        return self.key_rope.shape[0]

    @property
    def latent_dim(self) -> int:
        """``kv_lora_rank``: size of the cached latent ``c``."""
        return self.latent_down.shape[0]

    @property
    def hidden_size(self) -> int:
        """Size of a hidden state ``h``."""
        return self.latent_down.shape[1]


def random_mla_weights(
    *,
    hidden_size: int = 16,
    latent_dim: int = 6,
    heads: int = 2,
    nope_dim: int = 4,
    rope_dim: int = 4,
    seed: int = 0,
) -> MLAWeights:
    """Small Gaussian weights, each matrix scaled by ``1 / sqrt(fan_in)`` so that scores stay of order 1.

    Examples
    --------
    >>> weights = random_mla_weights()
    >>> weights.heads, weights.nope_dim, weights.rope_dim, weights.latent_dim, weights.hidden_size
    (2, 4, 4, 6, 16)

    """
    rng = np.random.default_rng(seed)

    def gaussian(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape) / np.sqrt(shape[-1])

    return MLAWeights(
        query_content=gaussian(heads, nope_dim, hidden_size),
        query_rope=gaussian(heads, rope_dim, hidden_size),
        latent_down=gaussian(latent_dim, hidden_size),
        key_up=gaussian(heads, nope_dim, latent_dim),
        key_rope=gaussian(rope_dim, hidden_size),
    )


def deepseek_rotate(
    x: object, position: float, *, base: float = 10000.0, rope_interleave: bool = True
) -> np.ndarray:
    """Rotate a rope slice as transformers' DeepSeek-V3 does: ``to_half(rotate(x, m, "interleaved"))``.

    DeepSeek's weights pair the coordinates of the rope slice as ``(2i, 2i + 1)``. With ``rope_interleave``
    (``DeepseekV3Config``'s default), ``apply_rotary_pos_emb_interleave`` rotates those pairs and writes the
    result in the half layout, all first members then all second members: exactly :func:`rope_viz.to_half` of
    :func:`rope_viz.rotate` with ``convention="interleaved"``. The same permutation reaches the query and the
    key, so dot products equal those of the interleaved rotation itself. Without ``rope_interleave``,
    ``apply_rotary_pos_emb`` (``rotate_half``) pairs ``(i, i + d/2)``: ``rotate(x, m, convention="half")``.

    Parameters
    ----------
    x : array_like
        Shape ``(qk_rope_head_dim,)``, even.
    position : float
        Position ``m``.
    base : float, default 10000.0
        ``rope_theta``.
    rope_interleave : bool, default True
        transformers' ``rope_interleave``.

    Returns
    -------
    numpy.ndarray
        Shape of ``x``.

    Examples
    --------
    >>> print(deepseek_rotate([1.0, 2.0, 3.0, 4.0], 0.0))
    [1. 3. 2. 4.]

    """
    if rope_interleave:
        return to_half(rotate(x, position, base=base, convention="interleaved"))
    return rotate(x, position, base=base, convention="half")


def _hidden(hidden: object, weights: MLAWeights, name: str) -> np.ndarray:
    hidden = check_finite(hidden, name)
    if hidden.shape[-1:] != (weights.hidden_size,):
        raise ValueError(f"{name} must end in an axis of size hidden_size = {weights.hidden_size}")
    return hidden


def _head(head: object, weights: MLAWeights) -> int:
    if isinstance(head, bool) or not isinstance(head, numbers.Integral) or not 0 <= head < weights.heads:
        raise ValueError(f"head must be an integer in [0, {weights.heads}), got {head!r}")
    return int(head)


def mla_query_key(
    weights: MLAWeights,
    hidden_query: object,
    hidden_key: object,
    query_position: float,
    key_position: float,
    *,
    head: int = 0,
    base: float = 10000.0,
    rope_interleave: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Return the query and key of one head as transformers concatenates them: ``[content, rotated]``.

    ``q = [W_UQ h_m, RoPE_m(W_QR h_m)]`` and ``k = [W_UK W_DKV h_n, RoPE_n(W_KR h_n)]`` (DeepSeek-V2,
    arXiv:2405.04434, sec. 2.1.2-2.1.3, without the query's compression), with :func:`deepseek_rotate` for
    RoPE. The score is ``q . k``.

    Parameters
    ----------
    weights : MLAWeights
        The layer's projections.
    hidden_query, hidden_key : array_like
        Hidden states ``h_m`` and ``h_n``, shape ``(hidden_size,)``.
    query_position, key_position : float
        Positions ``m`` and ``n``.
    head : int, default 0
        Which head's query (the rotated key slice is the same for all).
    base : float, default 10000.0
        ``rope_theta``.
    rope_interleave : bool, default True
        As in :func:`deepseek_rotate`.

    Returns
    -------
    query, key : numpy.ndarray
        Each of shape ``(qk_nope_head_dim + qk_rope_head_dim,)``.

    """
    head = _head(head, weights)
    hidden_query = _hidden(hidden_query, weights, "hidden_query")
    hidden_key = _hidden(hidden_key, weights, "hidden_key")
    query_content = weights.query_content[head] @ hidden_query  # (nope,)
    key_content = weights.key_up[head] @ (weights.latent_down @ hidden_key)  # (nope,), through the latent
    query_rope = deepseek_rotate(
        weights.query_rope[head] @ hidden_query, query_position, base=base, rope_interleave=rope_interleave
    )
    key_rope = deepseek_rotate(
        weights.key_rope @ hidden_key, key_position, base=base, rope_interleave=rope_interleave
    )
    return np.concatenate([query_content, query_rope]), np.concatenate([key_content, key_rope])


@dataclass(frozen=True)
class ScoreParts:
    """A score ``q . k`` (before the softmax scale) and its content and rotated parts."""

    content: float
    rotated: float
    total: float


def mla_score(
    weights: MLAWeights,
    hidden_query: object,
    hidden_key: object,
    query_position: float,
    key_position: float,
    *,
    head: int = 0,
    base: float = 10000.0,
    rope_interleave: bool = True,
) -> ScoreParts:
    """Score of one query and one key: ``q . k = q_C . k_C + q_R . k_R`` (DeepSeek-V2 sec. 2.1.3).

    ``total`` is one dot product over the concatenated vectors of :func:`mla_query_key`; ``content`` and
    ``rotated`` are the dot products of the first ``qk_nope_head_dim`` and the last ``qk_rope_head_dim``
    coordinates. Arguments as in :func:`mla_query_key`.

    Examples
    --------
    >>> weights = random_mla_weights()
    >>> hidden = np.random.default_rng(1).standard_normal((2, weights.hidden_size))
    >>> parts = mla_score(weights, hidden[0], hidden[1], 7.0, 3.0)
    >>> abs(parts.total - (parts.content + parts.rotated)) < 1e-12
    True

    """
    options = {"head": head, "base": base, "rope_interleave": rope_interleave}
    query, key = mla_query_key(weights, hidden_query, hidden_key, query_position, key_position, **options)
    nope = weights.nope_dim
    return ScoreParts(
        content=float(query[:nope] @ key[:nope]),
        rotated=float(query[nope:] @ key[nope:]),
        total=float(query @ key),
    )


def absorption_error_without_rope(
    weights: MLAWeights, hidden_query: object, hidden_keys: object, *, head: int = 0
) -> float:
    """Return ``max |q_C . (W_UK c_n) - (W_UK^T q_C) . c_n|`` over the keys: absorption, without RoPE.

    ``c_n = W_DKV h_n`` is what the cache holds; the absorbed query ``W_UK^T q_C`` is computed once, and every
    content score becomes a dot product with a cached latent. The two sides are the same sum in another order,
    so the result is rounding error only (about 1e-16).

    Parameters
    ----------
    weights : MLAWeights
        The layer's projections.
    hidden_query : array_like
        Shape ``(hidden_size,)``.
    hidden_keys : array_like
        Shape ``(keys, hidden_size)``.
    head : int, default 0
        Which head.

    Returns
    -------
    float

    """
    head = _head(head, weights)
    query_content = weights.query_content[head] @ _hidden(hidden_query, weights, "hidden_query")  # (nope,)
    latents = _hidden(hidden_keys, weights, "hidden_keys") @ weights.latent_down.T  # (keys, latent)
    direct = (latents @ weights.key_up[head].T) @ query_content  # k_C = W_UK c, then q_C . k_C
    absorbed = latents @ (weights.key_up[head].T @ query_content)  # (W_UK^T q_C) . c
    return float(np.max(np.abs(direct - absorbed)))


def rope_absorption_matrix(
    weights: MLAWeights, offset: float, *, head: int = 0, base: float = 10000.0
) -> np.ndarray:
    """Return ``R(n - m) W_UK``, the matrix to absorb if RoPE rotated the content query and key.

    ``(R(m) q_C) . (R(n) W_UK c) = q_C . (R(m)^T R(n) W_UK c) = q_C . (R(n - m) W_UK c)``: the query side
    would have to carry ``R(n - m) W_UK``, a different matrix for every offset (pairs interleaved).

    Returns
    -------
    numpy.ndarray
        Shape ``(qk_nope_head_dim, kv_lora_rank)``.

    Raises
    ------
    ValueError
        If ``qk_nope_head_dim`` is odd (RoPE needs pairs).

    """
    head = _head(head, weights)
    if weights.nope_dim % 2:
        raise ValueError(f"qk_nope_head_dim must be even to rotate the content part, got {weights.nope_dim}")
    return rotation_matrix(offset, weights.nope_dim, base=base) @ weights.key_up[head]


@dataclass(frozen=True)
class RopeAbsorption:
    """What goes wrong when RoPE sits between ``W_DKV`` and ``W_UK``: the numbers to print.

    Attributes
    ----------
    matrix_change : float
        ``max |R(n2 - m) W_UK - R(n1 - m) W_UK|``: how much the matrix to absorb changes between the offsets.
    own_matrix_error : float
        Largest error of the score at ``n1`` and at ``n2``, each computed with its own matrix (rounding only).
    borrowed_matrix_error : float
        Error of the score at ``n2`` computed with the matrix of ``n1``.

    """

    matrix_change: float
    own_matrix_error: float
    borrowed_matrix_error: float


def rope_blocks_absorption(
    weights: MLAWeights,
    hidden_query: object,
    hidden_key: object,
    *,
    query_position: float,
    key_positions: tuple[float, float],
    head: int = 0,
    base: float = 10000.0,
) -> RopeAbsorption:
    """Rotate the content query and key with RoPE, and show that no single absorbed matrix serves both keys.

    The same key token is placed at ``n1`` and at ``n2``, so the cache holds the same latent ``c`` for both;
    the direct scores ``(R(m) q_C) . (R(n) W_UK c)`` differ, and so must the absorbed matrices
    (:func:`rope_absorption_matrix`). The score, as a function of ``c``, is ``c . (M^T q_C)``, which fixes
    ``M^T q_C``: a matrix that is right at one offset is wrong at the other.

    Parameters
    ----------
    weights : MLAWeights
        The layer's projections, with an even ``qk_nope_head_dim``.
    hidden_query, hidden_key : array_like
        Shape ``(hidden_size,)``.
    query_position : float
        ``m``.
    key_positions : tuple of two floats
        ``(n1, n2)``.
    head : int, default 0
        Which head.
    base : float, default 10000.0
        ``rope_theta``.

    Returns
    -------
    RopeAbsorption

    Examples
    --------
    >>> weights = random_mla_weights()
    >>> hidden = np.random.default_rng(1).standard_normal((2, weights.hidden_size))
    >>> result = rope_blocks_absorption(weights, hidden[0], hidden[1], query_position=9, key_positions=(2, 5))
    >>> result.own_matrix_error < 1e-12 < 1e-3 < result.matrix_change
    True

    """
    head = _head(head, weights)
    query_content = weights.query_content[head] @ _hidden(hidden_query, weights, "hidden_query")
    latent = weights.latent_down @ _hidden(hidden_key, weights, "hidden_key")
    matrices, errors, direct = [], [], []
    for key_position in key_positions:
        rotated_query = rotate(query_content, query_position, base=base)
        rotated_key = rotate(weights.key_up[head] @ latent, key_position, base=base)
        direct.append(float(rotated_query @ rotated_key))
        matrices.append(rope_absorption_matrix(weights, key_position - query_position, head=head, base=base))
        errors.append(abs(direct[-1] - float((matrices[-1].T @ query_content) @ latent)))
    borrowed = float((matrices[0].T @ query_content) @ latent)
    return RopeAbsorption(
        matrix_change=float(np.max(np.abs(matrices[1] - matrices[0]))),
        own_matrix_error=max(errors),
        borrowed_matrix_error=abs(direct[1] - borrowed),
    )


@dataclass(frozen=True)
class DecoupledAbsorption:
    """How the decoupled design keeps absorption: the numbers to print.

    Attributes
    ----------
    absorption_error : float
        ``max |q . k - ((W_UK^T q_C) . c + q_R . k_R)|`` over the keys: the full score from the cache.
    split_error : float
        ``max |q . k - (content + rotated)|`` over the keys (:class:`ScoreParts`).
    shift_error : float
        ``max |rotated(m + t, n + t) - rotated(m, n)|``: the rotated part sees only the offset ``n - m``.

    """

    absorption_error: float
    split_error: float
    shift_error: float


def decoupled_absorption(
    weights: MLAWeights,
    hidden_query: object,
    hidden_keys: object,
    *,
    query_position: float,
    key_positions: object,
    shift: float,
    head: int = 0,
    base: float = 10000.0,
    rope_interleave: bool = True,
) -> DecoupledAbsorption:
    """Score every key as transformers does and from the cache (latent ``c`` plus shared ``k_R``), and shift.

    From the cache, the score is ``(W_UK^T q_C) . c + q_R . k_R``: the content part absorbs ``W_UK`` because
    it is not rotated, and the rotated part uses the key slice the cache keeps rotated. Moving the query and
    every key by ``shift`` leaves the rotated part unchanged.

    Parameters
    ----------
    weights : MLAWeights
        The layer's projections.
    hidden_query : array_like
        Shape ``(hidden_size,)``.
    hidden_keys : array_like
        Shape ``(keys, hidden_size)``.
    query_position : float
        ``m``.
    key_positions : array_like
        Shape ``(keys,)``.
    shift : float
        ``t``.
    head, base, rope_interleave
        As in :func:`mla_query_key`.

    Returns
    -------
    DecoupledAbsorption

    Examples
    --------
    >>> weights = random_mla_weights()
    >>> hidden = np.random.default_rng(1).standard_normal((4, weights.hidden_size))
    >>> result = decoupled_absorption(weights, hidden[0], hidden[1:], query_position=9,
    ...                               key_positions=[2, 5, 9], shift=1000)
    >>> max(result.absorption_error, result.split_error, result.shift_error) < 1e-10
    True

    """
    head = _head(head, weights)
    hidden_query = _hidden(hidden_query, weights, "hidden_query")
    hidden_keys = _hidden(hidden_keys, weights, "hidden_keys")
    key_positions = check_finite(key_positions, "key_positions")
    if hidden_keys.ndim != 2 or key_positions.shape != (hidden_keys.shape[0],):
        raise ValueError("hidden_keys must have shape (keys, hidden_size) and key_positions shape (keys,)")
    rotate_slice = {"base": base, "rope_interleave": rope_interleave}
    options = {"head": head, **rotate_slice}
    absorbed_query = weights.key_up[head].T @ (weights.query_content[head] @ hidden_query)  # (latent,)
    query_rope = deepseek_rotate(weights.query_rope[head] @ hidden_query, query_position, **rotate_slice)
    absorption, split, shifted = [], [], []
    for hidden_key, key_position in zip(hidden_keys, key_positions, strict=True):
        latent = weights.latent_down @ hidden_key  # cached
        key_rope = deepseek_rotate(weights.key_rope @ hidden_key, key_position, **rotate_slice)  # cached
        parts = mla_score(weights, hidden_query, hidden_key, query_position, key_position, **options)
        moved = mla_score(
            weights, hidden_query, hidden_key, query_position + shift, key_position + shift, **options
        )
        absorption.append(abs(parts.total - (absorbed_query @ latent + query_rope @ key_rope)))
        split.append(abs(parts.total - (parts.content + parts.rotated)))
        shifted.append(abs(moved.rotated - parts.rotated))
    return DecoupledAbsorption(
        absorption_error=float(max(absorption)),
        split_error=float(max(split)),
        shift_error=float(max(shifted)),
    )
