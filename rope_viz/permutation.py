"""The weight permutation between Meta's interleaved RoPE and Hugging Face's ``rotate_half``.

Meta's LLaMA code rotates the pairs ``(2i, 2i+1)`` of every head (it views them as complex numbers);
transformers' ``LlamaAttention`` rotates the pairs ``(i, i + d/2)`` with ``rotate_half``. Both are RoPE
(RoFormer, Su et al. 2021, arXiv:2104.09864, sec. 3.4.2), in two orders of the coordinates of a head. A
checkpoint trained with one can run with the other once the *rows* of ``W_q`` and ``W_k`` (the output
channels, in PyTorch's ``(out_features, in_features)`` layout with ``q = W_q x``) are reordered inside every
head, so that channel ``2i + c`` of a head becomes channel ``c d/2 + i`` (``c`` = 0 or 1)::

    W_half[h d + c d/2 + i] = W_interleaved[h d + 2i + c]

transformers' ``convert_llama_weights_to_hf.py`` writes it as
``w.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2).reshape(dim1, dim2)``; it is
:func:`rope_viz.to_half` applied to the output channels of each head. With ``P`` this permutation,
``R^half_m = P R^interleaved_m P^T``, so ``P W_q x`` rotated with half pairs is ``P`` times ``W_q x``
rotated with interleaved pairs, and the scores, dot products over the head, are unchanged. Permuting one of
the two matrices only, or neither, gives other scores (the question of transformers issue #25199).
"""

from __future__ import annotations

import numbers

import numpy as np

from rope_viz._validation import check_convention, check_positions, check_real_array
from rope_viz.rotation import rotate


def _check_heads(n_heads: object, rows: int, name: str = "n_heads") -> int:
    if isinstance(n_heads, bool) or not isinstance(n_heads, numbers.Integral) or n_heads < 1:
        raise ValueError(f"{name} must be a positive integer, got {n_heads!r}")
    n_heads = int(n_heads)
    if rows % (2 * n_heads):
        raise ValueError(
            f"the rows of the weight ({rows}) must split into {name} = {n_heads} heads of even size"
        )
    return n_heads


def _check_weight(weight: object, name: str = "weight") -> np.ndarray:
    array = check_real_array(weight, name)
    if array.ndim not in (1, 2) or array.shape[0] < 2:
        raise ValueError(
            f"{name} must have shape (out_features, in_features), or (out_features,) for a bias, "
            f"got shape {array.shape}"
        )
    return array


def row_order(out_features: int, n_heads: int) -> np.ndarray:
    """Return the row indices that reorder interleaved heads into ``rotate_half`` order.

    ``order[h d + c d/2 + i] = h d + 2i + c`` for head ``h``, pair ``i < d/2`` and member ``c`` in {0, 1},
    ``d = out_features / n_heads``, so that ``weight[order]`` is
    :func:`interleaved_to_half_rows` of ``weight``. It is a permutation of ``range(out_features)``.

    Parameters
    ----------
    out_features : int
        Rows of the projection: ``n_heads * head_dim``.
    n_heads : int
        Heads the rows split into (``num_key_value_heads`` for ``W_k`` in a grouped-query model).

    Returns
    -------
    numpy.ndarray
        Shape ``(out_features,)``, int64.

    Raises
    ------
    ValueError
        If ``n_heads`` is not a positive integer or the rows do not split into heads of even size.

    Examples
    --------
    >>> row_order(8, 2)
    array([0, 2, 1, 3, 4, 6, 5, 7])

    """
    if isinstance(out_features, bool) or not isinstance(out_features, numbers.Integral) or out_features < 2:
        raise ValueError(f"out_features must be an integer >= 2, got {out_features!r}")
    n_heads = _check_heads(n_heads, int(out_features))
    head_dim = int(out_features) // n_heads
    pairs = np.arange(head_dim).reshape(head_dim // 2, 2)  # (d/2, 2): row 2i + c of a head
    within = pairs.T.reshape(-1)  # (d,): member 0 of every pair, then member 1
    return (np.arange(n_heads)[:, None] * head_dim + within).reshape(-1)


def interleaved_to_half_rows(weight: object, n_heads: int) -> np.ndarray:
    """Reorder the rows of a query or key projection from interleaved pairs to ``rotate_half`` pairs.

    Implements ``W_half[h d + c d/2 + i] = W[h d + 2i + c]``: the ``permute`` of transformers'
    ``convert_llama_weights_to_hf.py`` (transformers' Llama conversion script),
    ``w.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2).reshape(dim1, dim2)``. Apply it to
    ``W_q`` with the number of query heads and to ``W_k`` with ``num_key_value_heads``; ``W_v`` and ``W_o``
    are not rotated and stay as they are.

    Parameters
    ----------
    weight : array_like
        Shape ``(out_features, in_features)`` as PyTorch's ``nn.Linear`` stores it (``q = weight @ x``), or
        ``(out_features,)`` for a bias. Finite.
    n_heads : int
        Heads the rows split into; ``out_features / n_heads`` must be even.

    Returns
    -------
    numpy.ndarray
        Same shape; float32 kept, anything else float64.

    Raises
    ------
    ValueError
        On a weight that is not 1-D or 2-D, a NaN or infinity, or a head count that does not divide the rows
        into heads of even size.

    Examples
    --------
    >>> interleaved_to_half_rows(np.arange(8.0), n_heads=2)
    array([0., 2., 1., 3., 4., 6., 5., 7.])

    """
    weight = _check_weight(weight)
    n_heads = _check_heads(n_heads, weight.shape[0])
    head_dim = weight.shape[0] // n_heads
    # (heads, d/2, 2, in) -> (heads, 2, d/2, in), the conversion script's view and transpose
    split = weight.reshape(n_heads, head_dim // 2, 2, *weight.shape[1:])
    return np.ascontiguousarray(np.swapaxes(split, 1, 2)).reshape(weight.shape)


def half_to_interleaved_rows(weight: object, n_heads: int) -> np.ndarray:
    """Inverse of :func:`interleaved_to_half_rows`: ``W[h d + 2i + c] = W_half[h d + c d/2 + i]``.

    This is what a runtime with interleaved RoPE (llama.cpp's ``permute`` in ``convert_hf_to_gguf.py``) does
    to a Hugging Face checkpoint: ``w.reshape(n_heads, 2, d/2, in).swapaxes(1, 2).reshape(w.shape)``.

    Parameters
    ----------
    weight : array_like
        Shape ``(out_features, in_features)`` or ``(out_features,)``; finite.
    n_heads : int
        Heads the rows split into; ``out_features / n_heads`` must be even.

    Returns
    -------
    numpy.ndarray
        Same shape; float32 kept, anything else float64.

    Raises
    ------
    ValueError
        As :func:`interleaved_to_half_rows`.

    Examples
    --------
    >>> half_to_interleaved_rows([0.0, 2.0, 1.0, 3.0], n_heads=1)
    array([0., 1., 2., 3.])

    """
    weight = _check_weight(weight)
    n_heads = _check_heads(n_heads, weight.shape[0])
    head_dim = weight.shape[0] // n_heads
    split = weight.reshape(n_heads, 2, head_dim // 2, *weight.shape[1:])
    return np.ascontiguousarray(np.swapaxes(split, 1, 2)).reshape(weight.shape)


def attention_scores(
    weight_q: object,
    weight_k: object,
    tokens: object,
    positions: object,
    *,
    n_heads: int,
    n_kv_heads: int | None = None,
    base: float = 10000.0,
    convention: str = "interleaved",
) -> np.ndarray:
    """Return every head's RoPE scores ``S[h, m, n] = <R_m q_{h,m}, R_n k_{h,n}>`` for a sequence of tokens.

    ``q_m = W_q x_m`` and ``k_n = W_k x_n`` are split into heads of ``d = rows / heads`` channels; each head's
    query and key are rotated with :func:`rope_viz.rotate` (pair ``i`` by ``m theta_i``,
    ``theta_i = base ** (-2i/d)``, RoFormer, Su et al. 2021, arXiv:2104.09864, sec. 3.4.2) in ``convention``,
    and dotted. No ``1/sqrt(d)`` and no mask: the logits of every pair of positions. With grouped-query
    attention (``n_kv_heads < n_heads``) query head ``h`` reads key head ``h // (n_heads / n_kv_heads)``, as
    transformers' ``repeat_kv`` arranges it.

    Parameters
    ----------
    weight_q, weight_k : array_like
        Shapes ``(n_heads d, d_model)`` and ``(n_kv_heads d, d_model)``, PyTorch's layout; finite.
    tokens : array_like
        Shape ``(seq, d_model)``: the token vectors ``x_m``; finite.
    positions : array_like
        Shape ``(seq,)``: the position of each token.
    n_heads : int
        Query heads.
    n_kv_heads : int, optional
        Key heads; ``n_heads`` when not given. Must divide ``n_heads``.
    base : float, default 10000.0
        Frequency base (Hugging Face ``rope_theta``).
    convention : {"interleaved", "half"}
        The pairs the rotation turns: Meta's ``(2i, 2i+1)`` or ``rotate_half``'s ``(i, i + d/2)``.

    Returns
    -------
    numpy.ndarray
        Shape ``(n_heads, seq, seq)``, float64.

    Raises
    ------
    ValueError
        On shapes that do not fit together, head counts that do not split the rows into heads of one even
        size, non-finite input, or an unknown ``convention``.

    Examples
    --------
    Interleaved weights with interleaved RoPE, and the permuted weights with ``rotate_half``, give the same
    scores:

    >>> rng = np.random.default_rng(0)
    >>> w_q, w_k, x = rng.standard_normal((8, 6)), rng.standard_normal((8, 6)), rng.standard_normal((3, 6))
    >>> meta = attention_scores(w_q, w_k, x, [0, 1, 2], n_heads=2)
    >>> hf = attention_scores(interleaved_to_half_rows(w_q, 2), interleaved_to_half_rows(w_k, 2), x,
    ...                       [0, 1, 2], n_heads=2, convention="half")
    >>> bool(np.allclose(meta, hf, rtol=0, atol=1e-12))
    True

    """
    convention = check_convention(convention)
    weight_q = _check_weight(weight_q, "weight_q").astype(np.float64, copy=False)
    weight_k = _check_weight(weight_k, "weight_k").astype(np.float64, copy=False)
    # contiguous: a broadcast view (strides of 0) would send the projections below off BLAS, 10 times slower
    tokens = np.ascontiguousarray(check_real_array(tokens, "tokens"), dtype=np.float64)
    if weight_q.ndim != 2 or weight_k.ndim != 2:
        raise ValueError("weight_q and weight_k must have shape (out_features, in_features)")
    if tokens.ndim != 2 or tokens.shape[1] != weight_q.shape[1] or weight_k.shape[1] != weight_q.shape[1]:
        raise ValueError(
            f"tokens must have shape (seq, d_model) with d_model = in_features of both weights, got tokens "
            f"{tokens.shape}, weight_q {weight_q.shape}, weight_k {weight_k.shape}"
        )
    n_heads = _check_heads(n_heads, weight_q.shape[0])
    n_kv_heads = n_heads if n_kv_heads is None else _check_heads(n_kv_heads, weight_k.shape[0], "n_kv_heads")
    head_dim = weight_q.shape[0] // n_heads
    if weight_k.shape[0] != n_kv_heads * head_dim or n_heads % n_kv_heads:
        raise ValueError(
            f"weight_k must have n_kv_heads * head_dim = {n_kv_heads} * {head_dim} rows and n_kv_heads must "
            f"divide n_heads = {n_heads}; got {weight_k.shape[0]} rows"
        )
    seq = tokens.shape[0]
    positions = check_positions(
        positions, ndim=1, length=seq, context=f"to match tokens of shape {tokens.shape}"
    )
    q = (tokens @ weight_q.T).reshape(seq, n_heads, head_dim).transpose(1, 0, 2)  # (heads, seq, d)
    k = (tokens @ weight_k.T).reshape(seq, n_kv_heads, head_dim).transpose(1, 0, 2)  # (kv heads, seq, d)
    q = rotate(q, positions, base=base, convention=convention)
    k = rotate(k, positions, base=base, convention=convention)
    k = np.repeat(k, n_heads // n_kv_heads, axis=0)  # (heads, seq, d), transformers' repeat_kv
    return q @ np.swapaxes(k, 1, 2)


__all__ = ["attention_scores", "half_to_interleaved_rows", "interleaved_to_half_rows", "row_order"]
