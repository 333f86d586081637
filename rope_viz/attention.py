"""Single-head softmax self-attention in numpy, with any position scheme, and permutation helpers.

One head of self-attention over token vectors ``x_a`` (the rows of ``x``, shape ``(seq, d)``) computes
(Vaswani et al. 2017, sec. 3.2.1)

    q_a = W_q x_a,   k_b = W_k x_b,   v_b = W_v x_b,
    A[a, b] = softmax_b(q_a . k_b / sqrt(d_k) + B[a, b]),   out_a = sum_b A[a, b] v_b,

with ``B = 0`` when there is no bias. Vectors are columns and each projection has the shape PyTorch's
``nn.Linear`` gives its weight, ``(out, in)``, as in :mod:`rope_viz.permutation`; on the rows of ``x`` the
projections are ``x @ W_q.T``. A :class:`~rope_viz.position_schemes.PositionScheme`
adds its position signal at its own place: to ``x`` before the projections, to ``q`` and ``k`` (a rotation)
or to the logits (``B``).

Without any position signal the layer is *permutation-equivariant*: shuffling the tokens shuffles the outputs
the same way, ``f(Π x) = Π f(x)``. A causal mask breaks this, because the mask itself depends on order.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rope_viz._validation import check_finite, check_positions, check_projection
from rope_viz.position_schemes import PositionScheme


def softmax(logits: object, axis: int = -1) -> np.ndarray:
    """Softmax along ``axis``: ``exp(z_j - max z) / sum_l exp(z_l - max z)``; ``-inf`` entries get weight 0.

    Parameters
    ----------
    logits : array_like
        Any shape; finite or ``-inf`` (masked), with at least one finite entry along ``axis``.
    axis : int, default -1
        Axis to normalise.

    Returns
    -------
    numpy.ndarray
        Same shape, float64, non-negative, summing to 1 along ``axis``.

    Examples
    --------
    >>> softmax([0.0, np.log(3.0)])
    array([0.25, 0.75])

    """
    z = np.asarray(logits, dtype=np.float64)
    if np.any(np.isnan(z)) or np.any(z == np.inf):
        raise ValueError("logits must be finite or -inf")
    peak = np.max(z, axis=axis, keepdims=True)
    if not np.all(np.isfinite(peak)):
        raise ValueError("every row of logits needs at least one finite entry")
    weights = np.exp(z - peak)
    return weights / weights.sum(axis=axis, keepdims=True)


def causal_mask(seq: int) -> np.ndarray:
    """Return the additive causal mask ``M[a, b] = 0`` if ``b <= a``, else ``-inf``; shape ``(seq, seq)``."""
    mask = np.zeros((seq, seq))
    mask[np.triu_indices(seq, k=1)] = -np.inf
    return mask


def _check_tokens(x: object) -> np.ndarray:
    x = check_finite(x, "x")
    if x.ndim != 2:
        raise ValueError(f"x must have shape (seq, d), got shape {x.shape}")
    return x


def _default_positions(x: np.ndarray, positions: object | None) -> np.ndarray:
    if positions is None:
        return np.arange(x.shape[0], dtype=np.float64)
    return check_positions(positions, ndim=1, length=x.shape[0])


def attention_logits(
    x: object,
    w_q: object,
    w_k: object,
    *,
    positions: object | None = None,
    scheme: PositionScheme | None = None,
) -> np.ndarray:
    """Logits ``S[a, b] = q_a . k_b / sqrt(d_k) + B[a, b]`` of one head, with ``scheme``'s position signal.

    Implements, for token vectors ``x_a`` at positions ``m_a`` (Vaswani et al. 2017, sec. 3.2.1, with the
    scheme's hooks from :mod:`rope_viz.position_schemes`)::

        x'_a = x_a + e(m_a)                     (input schemes; e = 0 otherwise)
        q_a = T_m(W_q x'_a),  k_b = T_n(W_k x'_b)  (T = rotation for RoPE; identity otherwise)
        S[a, b] = q_a . k_b / sqrt(d_k) + B(m_a, n_b)   (B = bias schemes; 0 otherwise)

    Parameters
    ----------
    x : array_like
        Token vectors, shape ``(seq, d)``.
    w_q, w_k : array_like
        Projections, shape ``(d_k, d)`` each, as ``nn.Linear`` stores them (``d_k`` even for RoPE).
    positions : array_like, optional
        Shape ``(seq,)``; default ``0 .. seq - 1``.
    scheme : PositionScheme, optional
        Where position enters; default: nowhere.

    Returns
    -------
    numpy.ndarray
        Shape ``(seq, seq)``: rows are queries, columns keys.

    """
    x = _check_tokens(x)
    positions = _default_positions(x, positions)
    scheme = scheme if scheme is not None else PositionScheme()
    added = scheme.input_embeddings(positions, x.shape[1])
    if added is not None:
        x = x + added
    q = x @ check_projection(w_q, "w_q", x.shape[1]).T  # (seq, d_k)
    k = x @ check_projection(w_k, "w_k", x.shape[1]).T
    q, k = scheme.rotate_qk(q, k, positions, positions)
    logits = q @ k.T / np.sqrt(q.shape[1])
    bias = scheme.logit_bias(positions, positions)
    if bias is not None:
        logits = logits + bias
    return logits


def self_attention(
    x: object,
    w_q: object,
    w_k: object,
    w_v: object,
    *,
    positions: object | None = None,
    scheme: PositionScheme | None = None,
    causal: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Run one softmax self-attention head: ``out = softmax(S + M) v``, ``S`` from :func:`attention_logits`.

    Implements ``A = softmax(q k^T / sqrt(d_k) + B + M)`` row by row and ``out_a = sum_b A[a, b] W_v x'_b``
    (Vaswani et al. 2017, sec. 3.2.1), where ``x'`` is ``x`` plus the scheme's input vectors and ``M`` the
    optional causal mask (:func:`causal_mask`). Values are never rotated, also under RoPE.

    Parameters
    ----------
    x : array_like
        Token vectors, shape ``(seq, d)``.
    w_q, w_k, w_v : array_like
        Projections, shapes ``(d_k, d)``, ``(d_k, d)``, ``(d_v, d)``, as ``nn.Linear`` stores them.
    positions : array_like, optional
        Shape ``(seq,)``; default ``0 .. seq - 1``.
    scheme : PositionScheme, optional
        Where position enters; default: nowhere.
    causal : bool, default False
        Mask keys after each query.

    Returns
    -------
    out : numpy.ndarray
        Shape ``(seq, d_v)``.
    weights : numpy.ndarray
        Attention weights ``A``, shape ``(seq, seq)``; rows sum to 1.

    """
    x = _check_tokens(x)
    positions = _default_positions(x, positions)
    scheme = scheme if scheme is not None else PositionScheme()
    logits = attention_logits(x, w_q, w_k, positions=positions, scheme=scheme)
    if causal:
        logits = logits + causal_mask(x.shape[0])
    weights = softmax(logits, axis=-1)
    added = scheme.input_embeddings(positions, x.shape[1])
    values = (x if added is None else x + added) @ check_projection(w_v, "w_v", x.shape[1]).T
    return weights @ values, weights


def shift_change(
    x: object,
    w_q: object,
    w_k: object,
    scheme: PositionScheme,
    shift: float,
    *,
    positions: object | None = None,
) -> float:
    """Largest change of any logit when the whole sequence moves by ``shift`` positions.

    Implements ``max_{a,b} |S_{m+t}[a, b] - S_m[a, b]|`` with ``S`` from :func:`attention_logits`. Zero (up to
    rounding) exactly when the scheme's logits depend on positions only through ``m - n`` for this input.

    Parameters
    ----------
    x, w_q, w_k, scheme
        As in :func:`attention_logits`.
    shift : float
        The shift ``t`` added to every position.
    positions : array_like, optional
        Starting positions; default ``0 .. seq - 1``.

    Returns
    -------
    float

    """
    x = _check_tokens(x)
    start = _default_positions(x, positions)
    before = attention_logits(x, w_q, w_k, positions=start, scheme=scheme)
    after = attention_logits(x, w_q, w_k, positions=start + shift, scheme=scheme)
    return float(np.max(np.abs(after - before)))


# --- permutations -------------------------------------------------------------------------------------------


def permutation_matrix(perm: Sequence[int]) -> np.ndarray:
    """Return the matrix ``Π`` with ``Π @ x == x[perm]``: ``Π[a, perm[a]] = 1``, zeros elsewhere.

    Examples
    --------
    >>> permutation_matrix([2, 0, 1]) @ np.array([10.0, 20.0, 30.0])
    array([30., 10., 20.])

    """
    perm = _check_permutation(perm)
    matrix = np.zeros((perm.size, perm.size))
    matrix[np.arange(perm.size), perm] = 1.0
    return matrix


def inverse_permutation(perm: Sequence[int]) -> np.ndarray:
    """Return the permutation ``inv`` with ``x[perm][inv] == x``: ``inv[perm[a]] = a``.

    Examples
    --------
    >>> inverse_permutation([2, 0, 1]).tolist()
    [1, 2, 0]

    """
    perm = _check_permutation(perm)
    inverse = np.empty_like(perm)
    inverse[perm] = np.arange(perm.size)
    return inverse


def permute_square(matrix: object, perm: Sequence[int]) -> np.ndarray:
    """Reorder rows and columns together: ``Π S Π^T``, i.e. ``S[perm][:, perm]``."""
    matrix = np.asarray(matrix)
    perm = _check_permutation(perm)
    if matrix.shape != (perm.size, perm.size):
        raise ValueError(f"matrix must have shape ({perm.size}, {perm.size}), got {matrix.shape}")
    return matrix[np.ix_(perm, perm)]


def reordering(source: Sequence[object], target: Sequence[object]) -> np.ndarray:
    """Return a permutation ``perm`` with ``target[a] == source[perm[a]]`` (repeats matched in order).

    Parameters
    ----------
    source, target : sequence
        The same items in two orders, e.g. the words of two sentences.

    Returns
    -------
    numpy.ndarray
        int64 indices into ``source``.

    Raises
    ------
    ValueError
        If ``target`` is not a rearrangement of ``source``.

    Examples
    --------
    >>> reordering("the dog bit the man".split(), "the man bit the dog".split()).tolist()
    [0, 4, 2, 3, 1]

    """
    source, target = list(source), list(target)
    if sorted(map(repr, source)) != sorted(map(repr, target)):
        raise ValueError("target must contain exactly the items of source")
    used = [False] * len(source)
    perm = []
    for item in target:
        index = next(a for a, candidate in enumerate(source) if candidate == item and not used[a])
        used[index] = True
        perm.append(index)
    return np.array(perm, dtype=np.int64)


def _check_permutation(perm: Sequence[int]) -> np.ndarray:
    array = np.asarray(perm)
    if array.ndim != 1 or array.dtype.kind not in "iu" or sorted(array.tolist()) != list(range(array.size)):
        raise ValueError(f"perm must be a permutation of 0 .. n - 1, got {perm!r}")
    return array.astype(np.int64)


# --- a deterministic toy model ------------------------------------------------------------------------------


def word_vector(word: str, dim: int, seed: int = 0) -> np.ndarray:
    """Return a fixed random stand-in for a word's embedding: ``N(0, I_d)`` seeded by the word itself.

    The same word always gets the same vector (whatever else is in the sentence, on every machine), so the
    examples are reproducible. The seed is the CRC-32 of the word plus ``seed``.
    """
    rng = np.random.default_rng([zlib.crc32(word.encode("utf-8")), seed])
    return rng.standard_normal(dim)


@dataclass(frozen=True)
class ToyHead:
    """A single attention head with fixed random weights, for examples: ``w_q, w_k, w_v ~ N(0, 1/d)``.

    Parameters
    ----------
    dim : int
        Width ``d`` of the tokens and of ``q``, ``k``, ``v`` (even, for RoPE).
    seed : int
        Seed of the weights and of the word vectors.

    """

    dim: int = 8
    seed: int = 0

    @property
    def weights(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(w_q, w_k, w_v)``, each ``(d, d)`` in ``(out, in)`` order."""
        rng = np.random.default_rng(self.seed)
        # Drawn in (in, out) order and stored (out, in); the order of the draw fixes the examples' numbers.
        w_q, w_k, w_v = rng.standard_normal((3, self.dim, self.dim)).swapaxes(1, 2) / np.sqrt(self.dim)
        return w_q, w_k, w_v

    def embed(self, words: Sequence[str]) -> np.ndarray:
        """Return the words' vectors (:func:`word_vector`), shape ``(seq, d)``."""
        return np.stack([word_vector(word, self.dim, self.seed) for word in words])

    def logits(
        self, words: Sequence[str], positions: object | None = None, scheme: PositionScheme | None = None
    ) -> np.ndarray:
        """:func:`attention_logits` of the sentence ``words``."""
        w_q, w_k, _ = self.weights
        return attention_logits(self.embed(words), w_q, w_k, positions=positions, scheme=scheme)

    def attend(
        self,
        words: Sequence[str],
        positions: object | None = None,
        scheme: PositionScheme | None = None,
        *,
        causal: bool = False,
    ) -> tuple[np.ndarray, np.ndarray]:
        """:func:`self_attention` of the sentence ``words``: ``(out, weights)``."""
        w_q, w_k, w_v = self.weights
        return self_attention(
            self.embed(words), w_q, w_k, w_v, positions=positions, scheme=scheme, causal=causal
        )


__all__ = [
    "ToyHead",
    "attention_logits",
    "causal_mask",
    "inverse_permutation",
    "permutation_matrix",
    "permute_square",
    "reordering",
    "self_attention",
    "shift_change",
    "softmax",
    "word_vector",
]
