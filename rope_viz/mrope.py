"""Multimodal RoPE (M-RoPE) of Qwen2-VL, Qwen2.5-VL and Qwen3-VL: one position per axis, one axis per pair.

A token carries three positions, time ``t``, height ``h`` and width ``w`` (Wang et al. 2024, Qwen2-VL,
arXiv:2409.12191). Each rotation pair ``i`` is given to one of them, ``a(i)`` in {0, 1, 2}, and
turns by that position times its usual frequency:

    phi_{m,i} = p_{a(i)}(m) * theta_i,    theta_i = base ** (-2 i / d).

``mrope_section = (s_t, s_h, s_w)`` with ``s_t + s_h + s_w = d/2`` says how many pairs each axis gets, in one
of two layouts (:func:`pair_axes`): in consecutive chunks (Qwen2-VL; Qwen2.5-VL, Bai et al. 2025,
arXiv:2502.13923, which also ties ``t`` to absolute time: ``[16, 24, 24]``) or
interleaved ``t, h, w, t, h, w, ...`` (Qwen3-VL: ``[24, 20, 20]``; model card
https://huggingface.co/Qwen/Qwen3-VL-8B-Instruct). A text token has ``t = h = w``, so M-RoPE is then plain
RoPE; an image token keeps ``t`` fixed and moves ``h`` and ``w`` over the grid (:func:`position_ids`).

Hugging Face transformers 5.23 computes this in the text rotary module's ``recomposition_frequencies``
(``Qwen2VLRotaryEmbedding``, ``Qwen2_5_VLRotaryEmbedding``, ``Qwen3VLTextRotaryEmbedding``) and the position
ids in ``Qwen2VLModel.get_rope_index`` (and its Qwen2.5-VL and Qwen3-VL versions); transformers 4.x did the
split in ``apply_multimodal_rotary_pos_emb`` and ``apply_interleaved_mrope``. The rotation uses
``rotate_half``, the "half" pairing convention ``(i, i + d/2)`` of :mod:`rope_viz.rotation`.

The word "interleaved" has two meanings here: ``interleaved=True`` is Qwen3-VL's order of *axes* over the
pairs (transformers' ``mrope_interleaved``); ``convention="interleaved"`` is the *pairing* of coordinates
``(2i, 2i + 1)``. They are independent.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rope_viz._validation import check_convention, check_finite, check_real_array, check_vector_pair
from rope_viz.rotation import resolve_inv_freq, rotate_elementwise

#: Axis indices of the rows of :func:`position_ids` and the values of :func:`pair_axes`.
AXES = ("time", "height", "width")

#: ``mrope_section`` of Qwen2-VL and Qwen2.5-VL (head_dim 128; chunked layout).
QWEN2_VL_SECTION = (16, 24, 24)

#: ``mrope_section`` of Qwen3-VL (head_dim 128; interleaved layout).
QWEN3_VL_SECTION = (24, 20, 20)

_RESUME_RULES = ("maximum", "spatial")


def check_mrope_section(mrope_section: object) -> tuple[int, int, int]:
    """Return ``mrope_section`` as three ints ``(s_t, s_h, s_w)``, each >= 0, summing to at least 1."""
    if isinstance(mrope_section, str | bytes) or not isinstance(mrope_section, Sequence | np.ndarray):
        raise ValueError(f"mrope_section must be three pair counts (t, h, w), got {mrope_section!r}")
    counts = list(mrope_section)
    if len(counts) != 3:
        raise ValueError(f"mrope_section must have three entries (t, h, w), got {len(counts)}: {counts!r}")
    for count in counts:
        if isinstance(count, bool | np.bool_) or not isinstance(count, numbers.Integral) or count < 0:
            raise ValueError(f"mrope_section must hold integers >= 0, got {counts!r}")
    section = (int(counts[0]), int(counts[1]), int(counts[2]))
    if sum(section) == 0:
        raise ValueError(f"mrope_section must give at least one pair, got {counts!r}")
    return section


def pair_axes(mrope_section: object, *, interleaved: bool = False) -> np.ndarray:
    """Return the position axis (0 time, 1 height, 2 width) that rotates each pair under M-RoPE.

    With ``(s_t, s_h, s_w) = mrope_section`` and ``n = s_t + s_h + s_w = d/2`` pairs:

    * chunked (Qwen2-VL, arXiv:2409.12191; Qwen2.5-VL, arXiv:2502.13923): ``a(i) = 0`` for ``i < s_t``,
      ``1`` for ``s_t <= i < s_t + s_h``, ``2`` after. transformers 5.23 splits the frequencies by
      ``mrope_section`` and takes chunk ``j`` from axis ``j % 3`` (``Qwen2VLRotaryEmbedding.
      recomposition_frequencies``). The time pairs are the fastest ones and the spatial pairs the slowest;
    * interleaved (Qwen3-VL): ``a(i) = 1`` if ``i % 3 == 1`` and ``i < 3 s_h``, ``a(i) = 2`` if
      ``i % 3 == 2`` and ``i < 3 s_w``, else ``0``: ``t, h, w, t, h, w, ...`` until the spatial pairs are used
      up, time after that. Every axis then spans fast and slow frequencies. This is transformers 5.23's
      ``Qwen3VLTextRotaryEmbedding.recomposition_frequencies``, which starts from the time frequencies and
      overwrites the slices ``[1 : 3 s_h : 3]`` and ``[2 : 3 s_w : 3]``.

    The same axis holds for both coordinates of the pair, ``i`` and ``i + d/2`` in the "half" layout (the
    frequencies are concatenated with themselves after the split).

    Parameters
    ----------
    mrope_section : sequence of int
        ``(s_t, s_h, s_w)``: pairs per axis, each >= 0, at least one pair in all.
    interleaved : bool, default False
        Qwen3-VL's interleaved layout instead of Qwen2-VL's chunks.

    Returns
    -------
    numpy.ndarray
        Shape ``(sum(mrope_section),)``, int64, values in {0, 1, 2}; axis ``j`` occurs ``mrope_section[j]``
        times.

    Raises
    ------
    ValueError
        If ``mrope_section`` is not three integers >= 0 with a positive sum, or (interleaved) does not fit:
        the last height pair ``3 s_h - 2`` or the last width pair ``3 s_w - 1`` lies beyond pair ``n - 1``
        (transformers would then give the axes other counts than the section).

    Examples
    --------
    >>> pair_axes([2, 1, 1])
    array([0, 0, 1, 2])
    >>> pair_axes([2, 1, 1], interleaved=True)
    array([0, 1, 2, 0])

    """
    section = check_mrope_section(mrope_section)
    pairs = sum(section)
    if not interleaved:
        return np.repeat(np.arange(3), section)
    if 3 * section[1] - 2 > pairs - 1 or 3 * section[2] - 1 > pairs - 1:
        raise ValueError(
            f"mrope_section {list(section)} does not fit the interleaved layout: its height pairs reach "
            f"pair {3 * section[1] - 2} and its width pairs pair {3 * section[2] - 1}, but there are only "
            f"{pairs} pairs (needs 3 * s_h <= n + 1 and 3 * s_w <= n)"
        )
    axes = np.zeros(pairs, dtype=np.int64)
    axes[1 : 3 * section[1] : 3] = 1
    axes[2 : 3 * section[2] : 3] = 2
    return axes


@dataclass(frozen=True)
class Text:
    """``tokens`` text tokens: positions ``(s, s, s), (s+1, s+1, s+1), ...`` from the running start ``s``."""

    tokens: int


@dataclass(frozen=True)
class Image:
    """An image of ``rows x cols`` language-model tokens (the patch grid after the spatial merge).

    transformers' ``image_grid_thw`` counts patches before the merge: ``rows = grid_h // spatial_merge_size``.
    """

    rows: int
    cols: int


@dataclass(frozen=True)
class Video:
    """A video of ``frames`` temporal grids of ``rows x cols`` tokens each.

    ``frames`` counts the model's frames, transformers' ``video_grid_thw[0]``: each is a temporal patch of
    ``temporal_patch_size`` frames of the clip, 2 in the Qwen-VL video processors (``grid_t = num_frames //
    temporal_patch_size``). ``seconds_per_grid`` is the time one temporal grid spans (transformers'
    ``second_per_grid_ts``); it only matters with ``tokens_per_second`` (Qwen2.5-VL's absolute time).
    Qwen3-VL gives every temporal grid its own segment, with its timestamp as text before it: write those
    grids as ``Video(1, rows, cols)`` between ``Text``.
    """

    frames: int
    rows: int
    cols: int
    seconds_per_grid: float = 1.0


def _positive_int(value: object, name: str) -> int:
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return int(value)


def _non_negative_scalar(value: object, name: str) -> float:
    array = check_finite(value, name)
    if array.ndim != 0 or array < 0:
        raise ValueError(f"{name} must be one finite number >= 0, got {value!r}")
    return float(array)


def _temporal_offsets(frames: int, interval: float | None) -> np.ndarray:
    """``floor(j * interval)`` for ``j < frames``, in float32 as transformers 5.23 computes it."""
    if interval is None:
        return np.arange(frames, dtype=np.int64)
    # get_vision_position_ids: (arange(T) * time_interval).long(), a float32 product truncated to an integer
    return (np.arange(frames, dtype=np.float32) * np.float32(interval)).astype(np.int64)


def position_ids(
    segments: Sequence[Text | Image | Video],
    *,
    tokens_per_second: float | None = None,
    resume: str = "maximum",
) -> np.ndarray:
    """Return the M-RoPE position ids ``(t, h, w)`` of every token of a text / image / video sequence.

    With ``s`` the running start (0 at first), following Qwen2-VL (arXiv:2409.12191) and
    transformers 5.23's ``Qwen2VLModel.get_rope_index``:

    * a :class:`Text` token ``k`` is at ``(s + k, s + k, s + k)``; then ``s += tokens``;
    * an :class:`Image` token in row ``r``, column ``c`` (row by row) is at ``(s, s + r, s + c)``; then
      ``s += max(rows, cols)``, one past the largest id of the image;
    * a :class:`Video` token of grid ``j``, row ``r``, column ``c`` is at ``(s + floor(j delta), s + r,
      s + c)``, with ``delta = 1`` (Qwen2-VL) or, given ``tokens_per_second``, ``delta = tokens_per_second *
      seconds_per_grid`` (Qwen2.5-VL's absolute time, arXiv:2502.13923; computed in float32 as
      transformers does: grid 15 at 2 tokens per second and 2.1 s per grid lands at 62, not 63). The next
      start follows ``resume``.

    Parameters
    ----------
    segments : sequence of Text, Image or Video
        The sequence in order.
    tokens_per_second : float, optional
        Qwen2.5-VL's ``vision_config.tokens_per_second``; ``None`` for Qwen2-VL's frame index.
    resume : {"maximum", "spatial"}, default "maximum"
        Where the segment after a video starts. ``"maximum"``: one past the largest id so far, the rule of
        the Qwen2-VL paper (each modality starts one past the largest id of the one before) and of
        transformers 4.x (``st_idx = llm_pos_ids_list[-1].max() + 1``). ``"spatial"``: ``s + max(rows,
        cols)``, ignoring the temporal ids, as transformers 5.23's ``get_rope_index`` does; when a video's
        temporal ids pass its spatial ones, the text after it then reuses ids the video already took. The
        two agree for text and images, and after a video exactly when its last temporal offset
        ``floor((frames - 1) delta)`` is below ``max(rows, cols)``: with ``delta = 1``, when it has no more
        frames than its larger side; with a step ``delta > 1`` (Qwen2.5-VL's absolute time), they part
        after fewer frames.

    Returns
    -------
    numpy.ndarray
        Shape ``(3, seq)``, int64: rows time, height, width.

    Raises
    ------
    ValueError
        On an unknown segment, a count below 1, a negative or non-finite ``tokens_per_second`` or
        ``seconds_per_grid``, or an unknown ``resume``.

    Examples
    --------
    Three text tokens, a 2 x 3 image, two text tokens:

    >>> position_ids([Text(3), Image(2, 3), Text(2)])
    array([[0, 1, 2, 3, 3, 3, 3, 3, 3, 6, 7],
           [0, 1, 2, 3, 3, 3, 4, 4, 4, 6, 7],
           [0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7]])

    """
    if resume not in _RESUME_RULES:
        raise ValueError(f"resume must be one of {_RESUME_RULES}, got {resume!r}")
    if tokens_per_second is not None:
        tokens_per_second = _non_negative_scalar(tokens_per_second, "tokens_per_second")
    blocks = []
    start = 0
    for segment in segments:
        if isinstance(segment, Text):
            tokens = _positive_int(segment.tokens, "Text.tokens")
            blocks.append(np.broadcast_to(start + np.arange(tokens), (3, tokens)))
            start += tokens
            continue
        if isinstance(segment, Image):
            frames, rows, cols, interval = 1, segment.rows, segment.cols, None
        elif isinstance(segment, Video):
            frames, rows, cols = segment.frames, segment.rows, segment.cols
            seconds = _non_negative_scalar(segment.seconds_per_grid, "Video.seconds_per_grid")
            interval = (
                None if tokens_per_second is None else np.float32(seconds) * np.float32(tokens_per_second)
            )
        else:
            raise ValueError(f"segments must be Text, Image or Video, got {segment!r}")
        frames = _positive_int(frames, "Video.frames")
        rows = _positive_int(rows, "rows")
        cols = _positive_int(cols, "cols")
        time, height, width = np.meshgrid(
            _temporal_offsets(frames, interval), np.arange(rows), np.arange(cols), indexing="ij"
        )
        block = start + np.stack([time, height, width]).reshape(3, -1)  # (3, frames * rows * cols)
        blocks.append(block)
        start = int(block.max()) + 1 if resume == "maximum" else start + max(rows, cols)
    if not blocks:
        return np.zeros((3, 0), dtype=np.int64)
    return np.concatenate(blocks, axis=1).astype(np.int64)


def _check_position_ids(position_ids: object) -> np.ndarray:
    ids = check_finite(position_ids, "position_ids")
    if ids.ndim != 2 or ids.shape[0] != 3:
        raise ValueError(f"position_ids must have shape (3, seq) (t, h, w rows), got shape {ids.shape}")
    return ids


def mrope_angles(
    position_ids: object,
    mrope_section: object,
    *,
    interleaved: bool = False,
    base: float = 10000.0,
    inv_freq: object | None = None,
) -> np.ndarray:
    """Angle of every pair of every token under M-RoPE: ``phi[m, i] = P[a(i), m] * theta_i``.

    ``a`` is :func:`pair_axes` of ``mrope_section`` and ``theta_i = base ** (-2 i / d)`` with
    ``d = 2 * sum(mrope_section)`` (Qwen2-VL, arXiv:2409.12191; transformers 5.23's
    ``Qwen2VLRotaryEmbedding.forward``, which forms every axis' angles and then picks per pair).

    Parameters
    ----------
    position_ids : array_like
        Shape ``(3, seq)``: time, height and width positions, e.g. from :func:`position_ids`; finite.
    mrope_section : sequence of int
        Pairs per axis, as in :func:`pair_axes`.
    interleaved : bool, default False
        Qwen3-VL's layout of axes over the pairs.
    base : float, default 10000.0
        Frequency base (Hugging Face ``rope_theta``; transformers' Qwen2-VL config defaults to 1e6);
        ignored when ``inv_freq`` is given.
    inv_freq : array_like, optional
        Shape ``(sum(mrope_section),)``: frequencies to use instead of ``base ** (-2i/d)``.

    Returns
    -------
    numpy.ndarray
        Shape ``(seq, sum(mrope_section))``, float64, radians.

    Raises
    ------
    ValueError
        As :func:`pair_axes`; if ``position_ids`` is not ``(3, seq)`` and finite; if ``inv_freq`` does not
        have one positive entry per pair.

    Examples
    --------
    A token at ``t = 1, h = 2, w = 3`` with one pair per axis and unit frequencies:

    >>> mrope_angles([[1], [2], [3]], [1, 1, 1], inv_freq=[1.0, 1.0, 1.0])
    array([[1., 2., 3.]])

    """
    axes = pair_axes(mrope_section, interleaved=interleaved)
    ids = _check_position_ids(position_ids)
    frequencies = resolve_inv_freq(2 * axes.size, base, inv_freq)
    return ids[axes].T * frequencies  # (seq, d/2): pair i reads the row of its axis


def _check_x(x: object, pairs: int | None = None) -> np.ndarray:
    array = check_real_array(x, "x")
    if array.ndim == 0 or array.shape[-1] < 2 or array.shape[-1] % 2:
        raise ValueError(f"x must have shape (..., seq, dim) with dim even and >= 2, got shape {array.shape}")
    if pairs is not None and array.shape[-1] != 2 * pairs:
        raise ValueError(
            f"mrope_section gives {pairs} pairs, which does not fit x of dim {array.shape[-1]} "
            f"(needs sum(mrope_section) = dim / 2)"
        )
    return array


def rotate_by_angles(x: object, angles: object, *, convention: str = "half") -> np.ndarray:
    """Rotate pair ``i`` of token ``m`` of ``x`` by ``angles[m, i]``: RoPE with a free angle per pair.

    Implements ``y_a = x_a cos(phi) - x_b sin(phi)``, ``y_b = x_a sin(phi) + x_b cos(phi)`` for pair
    ``(a, b)`` of ``convention`` (RoFormer, Su et al. 2021, arXiv:2104.09864, sec. 3.4.2). With
    ``angles = positions[:, None] * theta`` it is :func:`rope_viz.rotate`; M-RoPE and 2-D RoPE give every pair
    its own position instead.

    Parameters
    ----------
    x : array_like
        Shape ``(..., seq, dim)`` or ``(dim,)``, ``dim`` even; finite.
    angles : array_like
        Shape ``(seq, dim/2)`` (or ``(dim/2,)`` for ``x`` of shape ``(dim,)``), radians; finite.
    convention : {"half", "interleaved"}, default "half"
        Pairing convention; "half" is transformers' ``rotate_half``.

    Returns
    -------
    numpy.ndarray
        Shape of ``x``; float32 for float32 input, else float64. Norms are unchanged.

    Raises
    ------
    ValueError
        If ``x`` or ``angles`` is not finite, their shapes do not match, or ``convention`` is unknown.

    Examples
    --------
    >>> print(np.round(rotate_by_angles([1.0, 0.0], [np.pi / 2]), 6) + 0.0)
    [0. 1.]

    """
    convention = check_convention(convention)
    x = _check_x(x)
    phi = check_finite(angles, "angles")
    expected = (x.shape[-1] // 2,) if x.ndim == 1 else (x.shape[-2], x.shape[-1] // 2)
    if phi.shape != expected:
        raise ValueError(f"angles must have shape {expected} to match x of shape {x.shape}, got {phi.shape}")
    return rotate_elementwise(x, np.cos(phi), np.sin(phi), convention)


def rotate_mrope(
    x: object,
    position_ids: object,
    mrope_section: object,
    *,
    interleaved: bool = False,
    base: float = 10000.0,
    inv_freq: object | None = None,
    convention: str = "half",
) -> np.ndarray:
    """Rotate queries or keys by M-RoPE: pair ``i`` of token ``m`` turns by ``P[a(i), m] * theta_i``.

    :func:`rotate_by_angles` with the angles of :func:`mrope_angles` (Qwen2-VL, arXiv:2409.12191;
    Qwen3-VL's interleaved layout with ``interleaved=True``). In the default "half" convention this is
    transformers 5.23's ``apply_rotary_pos_emb(q, k, cos, sin)`` with the ``cos, sin`` of the model's text
    rotary module (``Qwen2VLRotaryEmbedding``, ``Qwen3VLTextRotaryEmbedding``), i.e. ``q * cos +
    rotate_half(q) * sin``. When the three rows of ``position_ids`` are equal (text only) it equals
    :func:`rope_viz.rotate` at those positions.

    Parameters
    ----------
    x : array_like
        Shape ``(..., seq, dim)`` with ``dim = 2 * sum(mrope_section)``; leading axes are batch axes
        (e.g. heads). Finite.
    position_ids : array_like
        Shape ``(3, seq)``: time, height, width, e.g. from :func:`position_ids`.
    mrope_section, interleaved, base, inv_freq
        As in :func:`mrope_angles`.
    convention : {"half", "interleaved"}, default "half"
        Pairing convention of the coordinates (not the axis layout).

    Returns
    -------
    numpy.ndarray
        Shape of ``x``; float32 for float32 input, else float64. Norms are unchanged.

    Raises
    ------
    ValueError
        As :func:`mrope_angles` and :func:`rotate_by_angles`, and if ``sum(mrope_section)`` is not ``dim/2``.

    Examples
    --------
    Text only: M-RoPE is plain RoPE.

    >>> from rope_viz.rotation import rotate
    >>> x = np.ones((4, 8))
    >>> ids = position_ids([Text(4)])
    >>> bool(np.allclose(rotate_mrope(x, ids, [2, 1, 1]), rotate(x, ids[0], convention="half")))
    True

    """
    axes = pair_axes(mrope_section, interleaved=interleaved)
    x = _check_x(x, axes.size)
    ids = _check_position_ids(position_ids)
    if x.ndim < 2:
        raise ValueError(f"x must have shape (..., seq, dim), got shape {x.shape}")
    if ids.shape[1] != x.shape[-2]:
        raise ValueError(
            f"position_ids must have shape (3, seq) = (3, {x.shape[-2]}) to match x of shape {x.shape} "
            f"(..., seq, dim), got shape {ids.shape}"
        )
    angles = mrope_angles(ids, mrope_section, interleaved=interleaved, base=base, inv_freq=inv_freq)
    return rotate_by_angles(x, angles, convention=convention)


def _check_grid(grid: object, query_patch: object) -> tuple[int, int, int, int]:
    if not isinstance(grid, Sequence) or len(grid) != 2:
        raise ValueError(f"grid must be (rows, cols), got {grid!r}")
    rows, cols = _positive_int(grid[0], "grid rows"), _positive_int(grid[1], "grid cols")
    if not isinstance(query_patch, Sequence) or len(query_patch) != 2:
        raise ValueError(f"query_patch must be (row, col), got {query_patch!r}")
    row, col = query_patch
    for value, size, name in ((row, rows, "row"), (col, cols, "col")):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= value < size:
            raise ValueError(f"query_patch {name} must be an integer in [0, {size}), got {value!r}")
    return rows, cols, int(row), int(col)


def image_position_ids(grid: object, *, start: int = 0) -> np.ndarray:
    """Return the ids ``(start, start + r, start + c)`` of every patch of an image, row by row.

    The image part of :func:`position_ids` (Qwen2-VL, arXiv:2409.12191), shape ``(3, rows * cols)``,
    int64. Raises ValueError on a grid that is not two integers >= 1 or a ``start`` that is not an integer.

    Examples
    --------
    >>> image_position_ids((2, 2), start=5)
    array([[5, 5, 5, 5],
           [5, 5, 6, 6],
           [5, 6, 5, 6]])

    """
    rows, cols, _, _ = _check_grid(grid, (0, 0))
    if isinstance(start, bool) or not isinstance(start, numbers.Integral):
        raise ValueError(f"start must be an integer, got {start!r}")
    height, width = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    return int(start) + np.stack([np.zeros(rows * cols, dtype=np.int64), height.ravel(), width.ravel()])


def mrope_patch_scores(
    q: object,
    k: object,
    grid: object,
    query_patch: object,
    mrope_section: object,
    *,
    interleaved: bool = False,
    base: float = 10000.0,
    inv_freq: object | None = None,
    convention: str = "half",
    start: int = 0,
) -> np.ndarray:
    """Score map of one query patch against every key patch of an image under M-RoPE.

    Implements ``S[r', c'] = <R(P(r, c)) q, R(P(r', c')) k>`` with ``P(r, c) = (s, s + r, s + c)`` the ids of
    :func:`image_position_ids` and ``R`` the rotation of :func:`rotate_mrope`. In the complex view of the
    pairs, ``h_i = q_i conj(k_i)``,

        S[r', c'] = Re[ sum_i h_i exp(1j theta_i (Delta_{a(i)})) ],   Delta = (0, r - r', c - c'),

    so the map depends on the patches only through their 2-D offset, and not on the start ``s``: the time
    pairs do not turn within one image (Qwen2-VL, arXiv:2409.12191; RoFormer, Su et al. 2021,
    arXiv:2104.09864, sec. 3.4.3 for the complex form). The logit before ``1 / sqrt(d)``.

    Parameters
    ----------
    q, k : array_like
        Shape ``(dim,)`` each, ``dim = 2 * sum(mrope_section)``; finite.
    grid : (int, int)
        ``(rows, cols)`` of the image in language-model tokens.
    query_patch : (int, int)
        ``(r, c)`` of the query, inside the grid.
    mrope_section, interleaved, base, inv_freq, convention
        As in :func:`rotate_mrope`.
    start : int, default 0
        The image's start id ``s``; it cancels.

    Returns
    -------
    numpy.ndarray
        Shape ``(rows, cols)``, float64.

    Raises
    ------
    ValueError
        As :func:`rotate_mrope`, and on a grid or query patch outside it.

    """
    rows, cols, row, col = _check_grid(grid, query_patch)
    q, k = check_vector_pair(q, k)
    options = {"interleaved": interleaved, "base": base, "inv_freq": inv_freq, "convention": convention}
    ids = image_position_ids(grid, start=start)  # (3, rows * cols)
    keys = rotate_mrope(np.broadcast_to(k, (rows * cols, k.size)), ids, mrope_section, **options)
    query = rotate_mrope(q[None, :], ids[:, [row * cols + col]], mrope_section, **options)[0]
    return (keys @ query).reshape(rows, cols)


def expected_mrope_patch_self_scores(
    grid: object,
    query_patch: object,
    mrope_section: object,
    *,
    interleaved: bool = False,
    base: float = 10000.0,
    inv_freq: object | None = None,
) -> np.ndarray:
    """Return the expected score map of a vector with itself across an image under M-RoPE, ``q ~ N(0, I_d)``.

    Implements ``E[S[r', c']] = 2 sum_i cos(theta_i Delta_{a(i)})`` with ``Delta = (0, r - r', c - c')``, the
    M-RoPE counterpart of :func:`rope_viz.expected_self_score` (each pair contributes ``E[q_a^2 + q_b^2] = 2``
    times the cosine of its angle difference). The time pairs always contribute 2: with Qwen2-VL's chunks
    they are the fastest pairs, so the spatial axes are left with the slow frequencies only, while Qwen3-VL's
    interleaving gives each axis the whole range. Equals ``d`` at the query patch. Does not depend on the
    pairing convention.

    Parameters
    ----------
    grid, query_patch, mrope_section, interleaved, base, inv_freq
        As in :func:`mrope_patch_scores`.

    Returns
    -------
    numpy.ndarray
        Shape ``(rows, cols)``, float64.

    Raises
    ------
    ValueError
        As :func:`mrope_patch_scores`.

    Examples
    --------
    >>> print(expected_mrope_patch_self_scores((1, 2), (0, 0), [2, 1, 1], inv_freq=[1.0, 1.0, 1.0, np.pi]))
    [[8. 4.]]

    """
    rows, cols, row, col = _check_grid(grid, query_patch)
    axes = pair_axes(mrope_section, interleaved=interleaved)
    frequencies = resolve_inv_freq(2 * axes.size, base, inv_freq)
    height, width = np.meshgrid(row - np.arange(rows), col - np.arange(cols), indexing="ij")
    offsets = np.stack([np.zeros_like(height), height, width])  # (3, rows, cols)
    angle = offsets[axes] * frequencies[:, None, None]  # (d/2, rows, cols)
    return 2.0 * np.cos(angle).sum(axis=0)


__all__ = [
    "AXES",
    "QWEN2_VL_SECTION",
    "QWEN3_VL_SECTION",
    "Image",
    "Text",
    "Video",
    "check_mrope_section",
    "expected_mrope_patch_self_scores",
    "image_position_ids",
    "mrope_angles",
    "mrope_patch_scores",
    "pair_axes",
    "position_ids",
    "rotate_by_angles",
    "rotate_mrope",
]
