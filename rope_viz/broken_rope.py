"""Small RoPE implementations, three correct and many broken, each with the ``fn(x, positions)`` signature.

Every function takes ``x`` of shape ``(seq, dim)`` and ``positions`` of shape ``(seq,)`` and returns what it
believes is ``x`` rotated by RoPE with ``base = 10000``: pair ``i`` turned by ``m * theta_i``,
``theta_i = base ** (-2i/d)`` (Su et al. 2021, RoFormer, arXiv:2104.09864, sec. 3.2.2 and 3.4.2). The
docstring of each says what it computes and, for the broken ones, what it gets wrong; the correct results are
those of :func:`rope_viz.rotate`.

:data:`IMPLEMENTATIONS` lists them with what :func:`rope_viz.checker.check` reports for each at its defaults
(``dim=64``, ``base=10000``), so that the tests and the chapter's spot-the-bug exercises can iterate over
them. None of these functions is used by the rest of the package.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rope_viz.mistakes import inv_freq_wrong_exponent, sincos_table
from rope_viz.precision import round_to_bfloat16

BASE = 10000.0
"""The base every function here assumes (Hugging Face ``rope_theta``), as in RoFormer."""

CACHE_LENGTH = 1024
"""Positions in the cos/sin table of :func:`clamped_cache`."""


def _theta(dim: int, base: float = BASE) -> np.ndarray:
    return base ** -(np.arange(0, dim, 2, dtype=np.float64) / dim)  # (d/2,)  theta_i = base ** (-2i/d)


def _angles(positions: np.ndarray, theta: np.ndarray) -> np.ndarray:
    return np.multiply.outer(np.asarray(positions, dtype=np.float64), theta)  # (seq, d/2)


def _turn_interleaved(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """``y_a = x_a cos - x_b sin``, ``y_b = x_a sin + x_b cos`` on pairs ``(a, b) = (2i, 2i+1)``."""
    x = np.asarray(x, dtype=np.float64)
    x_a, x_b = x[..., 0::2], x[..., 1::2]  # (seq, d/2) each
    out = np.empty_like(x)
    out[..., 0::2] = x_a * cos - x_b * sin
    out[..., 1::2] = x_a * sin + x_b * cos
    return out


def _rotate_half(x: np.ndarray) -> np.ndarray:
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


# --- correct ------------------------------------------------------------------------------------------------


def rope_interleaved(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Correct: pairs ``(2i, 2i+1)`` turned element-wise (GPT-J, Meta's LLaMA code).

    ``y_a = x_a cos(m theta_i) - x_b sin(m theta_i)``, ``y_b = x_a sin(m theta_i) + x_b cos(m theta_i)``
    (RoFormer sec. 3.4.2), equal to ``rope_viz.rotate(x, positions)``.
    """
    angle = _angles(positions, _theta(np.shape(x)[-1]))
    return _turn_interleaved(x, np.cos(angle), np.sin(angle))


def rope_rotate_half(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Correct: pairs ``(i, i + d/2)`` as ``x * cos + rotate_half(x) * sin`` (GPT-NeoX, Hugging Face).

    ``rotate_half(x) = concat(-x[d/2:], x[:d/2])`` and the cos and sin tables are repeated twice along the
    last axis, as in transformers' ``apply_rotary_pos_emb`` (modeling_llama, transformers 5.x); equal to
    ``rope_viz.rotate(x, positions, convention="half")``.
    """
    x = np.asarray(x, dtype=np.float64)
    angle = _angles(positions, _theta(x.shape[-1]))
    emb = np.concatenate([angle, angle], axis=-1)  # (seq, d)
    return x * np.cos(emb) + _rotate_half(x) * np.sin(emb)


def rope_complex(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Correct: the pairs as complex numbers ``z_i = x[2i] + 1j x[2i+1]``, times ``exp(1j m theta_i)``.

    RoFormer sec. 3.2.1, as Meta's LLaMA code does it (``torch.polar`` and ``view_as_complex``); equal to
    ``rope_viz.rotate(x, positions)``.
    """
    x = np.ascontiguousarray(x, dtype=np.float64)
    pairs = x.view(np.complex128)  # (seq, d/2), no copy
    rotated = pairs * np.exp(1j * _angles(positions, _theta(x.shape[-1])))
    return rotated.view(np.float64)


# --- broken -------------------------------------------------------------------------------------------------


def sincos_product(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """WRONG: multiplies ``x`` element-wise by ``[sin(m theta), cos(m theta)]``; nothing is rotated.

    ``y_j = x_j sin(m theta_j)`` for the first half and ``x_j cos(m theta_{j-d/2})`` for the second (see
    :func:`rope_viz.mistakes.sincos_product`): lengths shrink and scores depend on ``m + n``.
    """
    x = np.asarray(x, dtype=np.float64)
    return x * sincos_table(positions, x.shape[-1], BASE)


def squared_positions(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """WRONG: turns pair ``i`` by ``m**2 theta_i`` instead of ``m theta_i``.

    Still a rotation, but the angle difference ``(m**2 - n**2) theta_i`` is not a function of ``m - n``, so
    the scores depend on where the two tokens are, not only on how far apart.
    """
    positions = np.asarray(positions, dtype=np.float64)
    angle = _angles(positions**2, _theta(np.shape(x)[-1]))
    return _turn_interleaved(x, np.cos(angle), np.sin(angle))


def clamped_cache(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """WRONG: reads cos and sin from a table of :data:`CACHE_LENGTH` positions and clamps larger positions.

    ``index = min(m, 1023)``: every token beyond the table is turned as if it sat at position 1023, so two
    tokens there score as if they were at the same place. Like many cached implementations it indexes the
    table with the positions, so it accepts only whole positions.
    """
    x = np.asarray(x, dtype=np.float64)
    angle = _angles(np.arange(CACHE_LENGTH), _theta(x.shape[-1]))  # (L, d/2)
    cos_cached, sin_cached = np.cos(angle), np.sin(angle)
    index = np.minimum(np.asarray(positions), CACHE_LENGTH - 1)  # IndexError for fractional positions
    return _turn_interleaved(x, cos_cached[index], sin_cached[index])


def lost_minus_sign(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """WRONG: frequencies ``theta_i = base ** (+2i/d)``: the minus sign of the exponent is lost.

    Pair 0 still turns at 1 rad per token, but the others turn faster and faster, up to about ``base``
    radians per token, instead of slower and slower.
    """
    dim = np.shape(x)[-1]
    angle = _angles(positions, inv_freq_wrong_exponent(dim, BASE, "lost_minus"))
    return _turn_interleaved(x, np.cos(angle), np.sin(angle))


def lost_factor_two(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """WRONG: frequencies ``theta_i = base ** (-i/d)``: the factor 2 of the exponent is lost.

    The schedule stops at ``base ** (-1/2)``, so the slowest pair turns about ``sqrt(base) = 100`` times too
    fast; the speeds are those of the correct formula with base ``sqrt(base)``.
    """
    dim = np.shape(x)[-1]
    angle = _angles(positions, inv_freq_wrong_exponent(dim, BASE, "lost_two"))
    return _turn_interleaved(x, np.cos(angle), np.sin(angle))


def wrong_base(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """WRONG: frequencies from ``base = 500000`` (Llama 3's ``rope_theta``) for a model built with 10000.

    The formula is right; the constant is another model's.
    """
    angle = _angles(positions, _theta(np.shape(x)[-1], 500000.0))
    return _turn_interleaved(x, np.cos(angle), np.sin(angle))


def half_the_pairs(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """WRONG: turns only the first ``d/4`` pairs and leaves the others as they are.

    The cos/sin table was cut to half its width and the remaining coordinates copied through. Rotating part of
    a head is a design of its own when a model declares it, in one of two ways: GPT-NeoX's (``rotary_pct``,
    ``partial_rotary_factor``) spreads the frequency schedule over the rotated channels alone, and
    proportional RoPE (p-RoPE, Gemma 4's ``rope_type`` ``"proportional"``) spreads it over the whole head, as
    plain RoPE does, and switches the slow pairs off. This function computes the second, with ``p = 0.5``;
    but it claims to be plain RoPE, in which pairs ``d/4 .. d/2 - 1`` turn too.
    """
    x = np.asarray(x, dtype=np.float64)
    dim = x.shape[-1]
    angle = _angles(positions, _theta(dim))
    angle[:, dim // 4 :] = 0.0
    return _turn_interleaved(x, np.cos(angle), np.sin(angle))


def negated_angle(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """UNUSUAL: turns every pair by ``-m theta_i`` (the sign of sin flipped in both members of the pair).

    ``y_a = x_a cos + x_b sin``, ``y_b = -x_a sin + x_b cos``. Applied to ``q`` and ``k`` alike it is still a
    relative scheme (the score at ``(m, n)`` is the usual one at ``(n, m)``), but weights trained with the
    usual sign see every offset reversed.
    """
    angle = _angles(positions, _theta(np.shape(x)[-1]))
    return _turn_interleaved(x, np.cos(angle), -np.sin(angle))


def sin_sign_on_one_member(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """WRONG: ``y_b = x_b cos - x_a sin``, the formula of ``y_a`` copied with ``a`` and ``b`` swapped.

    The block is ``[[cos, -sin], [-sin, cos]]``: not a rotation, and not a reflection either (its
    determinant is ``cos**2 - sin**2``). It stretches the diagonal ``x_a = -x_b`` by ``cos + sin`` and the
    diagonal ``x_a = x_b`` by ``cos - sin``, so lengths change, and the scores depend on ``m + n``.
    """
    x = np.asarray(x, dtype=np.float64)
    angle = _angles(positions, _theta(x.shape[-1]))
    cos, sin = np.cos(angle), np.sin(angle)
    x_a, x_b = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = x_a * cos - x_b * sin
    out[..., 1::2] = x_b * cos - x_a * sin
    return out


def reflected_pairs(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """WRONG: ``y_a = x_a cos + x_b sin``, ``y_b = x_a sin - x_b cos``: each pair is reflected, not rotated.

    The block ``[[cos, sin], [sin, -cos]]`` is the reflection across the line at angle ``m theta_i / 2``
    (determinant -1). It keeps lengths, and since it equals ``diag(1, -1) R(-m theta_i)`` the scores are
    exactly those of :func:`negated_angle`; but at position 0 it already flips ``x_b``.
    """
    x = np.asarray(x, dtype=np.float64)
    angle = _angles(positions, _theta(x.shape[-1]))
    cos, sin = np.cos(angle), np.sin(angle)
    x_a, x_b = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = x_a * cos + x_b * sin
    out[..., 1::2] = x_a * sin - x_b * cos
    return out


def float16_positions(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """WRONG: the positions are cast to float16 before the angles are formed.

    float16 has 11 significant bits, so whole positions are exact only up to 2048; beyond, position 2049 is
    stored as 2048, and from 4096 on positions snap to multiples of 4. Nearby tokens get the same angle.
    """
    rounded = np.asarray(positions).astype(np.float16)
    angle = _angles(rounded, _theta(np.shape(x)[-1]))
    return _turn_interleaved(x, np.cos(angle), np.sin(angle))


def bfloat16_angles(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """WRONG: the angles ``m theta_i`` are formed in float32 and stored in bfloat16 before cos and sin.

    bfloat16 keeps 8 significant bits, so every angle is off by up to ``2**-8`` of itself: up to about
    0.004 rad just above one radian (its numbers there are ``2**-7`` apart), up to 16 rad for pair 0 just past
    position 4096. (Emulated by rounding the float32 significand to 8 bits.)
    """
    theta = _theta(np.shape(x)[-1]).astype(np.float32)
    angle = round_to_bfloat16(np.asarray(positions, dtype=np.float32)[:, None] * theta).astype(np.float64)
    return _turn_interleaved(x, np.cos(angle), np.sin(angle))


def float32_angles(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """IMPRECISE: positions, frequencies and angles in float32, as transformers forms them.

    transformers' ``LlamaRotaryEmbedding.forward`` (transformers 5.x) computes ``inv_freq @ position_ids`` in
    float32. Enough for most models, but over positions up to 8192 an angle is already off by up to 3.0e-4 rad
    for ``d = 64`` (4.9e-4 rad for ``d = 128``), far from the float64 precision that :func:`rope_viz.rotate`
    keeps.
    """
    theta = _theta(np.shape(x)[-1]).astype(np.float32)
    angle = (np.asarray(positions, dtype=np.float32)[:, None] * theta).astype(np.float64)
    return _turn_interleaved(x, np.cos(angle), np.sin(angle))


def pairs_left_stacked(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """WRONG: returns the rotated pairs stacked as shape ``(seq, d/2, 2)``, without flattening them back.

    The numbers are those of :func:`rope_complex`; the missing ``reshape(x.shape)`` makes the shape wrong.
    """
    x = np.ascontiguousarray(x, dtype=np.float64)
    rotated = x.view(np.complex128) * np.exp(1j * _angles(positions, _theta(x.shape[-1])))
    return np.stack([rotated.real, rotated.imag], axis=-1)


def expects_batch_axis(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """WRONG: unpacks ``batch, seq, dim = x.shape``, so it fails on the ``(seq, dim)`` input it is given."""
    _batch, _seq, dim = np.shape(x)  # ValueError: x has two axes
    angle = _angles(positions, _theta(dim))
    return _turn_interleaved(x, np.cos(angle), np.sin(angle))


# --- registry -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Implementation:
    """An entry of :data:`IMPLEMENTATIONS`: a function and what ``check(function, convention=...)`` says.

    Attributes
    ----------
    function : callable
        ``function(x, positions) -> array``.
    findings : frozenset of str
        The names of the findings the check reports.
    passed : bool
        The report's ``passed``.
    matches : str or None
        The report's ``convention``: the pairing the function equals RoPE in, if any.
    convention : str or None, default None
        The ``convention`` argument given to the check.

    """

    function: Callable[[np.ndarray, np.ndarray], np.ndarray]
    findings: frozenset[str]
    passed: bool
    matches: str | None
    convention: str | None = None


def _entry(
    function: Callable[[np.ndarray, np.ndarray], np.ndarray],
    findings: tuple[str, ...] = (),
    *,
    passed: bool = False,
    matches: str | None = None,
    convention: str | None = None,
) -> Implementation:
    return Implementation(function, frozenset(findings), passed, matches, convention)


IMPLEMENTATIONS: dict[str, Implementation] = {
    "interleaved": _entry(rope_interleaved, passed=True, matches="interleaved"),
    "rotate_half": _entry(rope_rotate_half, passed=True, matches="half"),
    "complex": _entry(rope_complex, passed=True, matches="interleaved"),
    "interleaved_asked_interleaved": _entry(
        rope_interleaved, passed=True, matches="interleaved", convention="interleaved"
    ),
    "half_pairs_when_interleaved_asked": _entry(
        rope_rotate_half, ("other_convention",), matches="half", convention="interleaved"
    ),
    "sincos_product": _entry(sincos_product, ("norm", "not_relative")),
    "squared_positions": _entry(squared_positions, ("not_relative",)),
    "clamped_cache": _entry(clamped_cache, ("not_relative",)),
    "lost_minus_sign": _entry(lost_minus_sign, ("frequencies",)),
    "lost_factor_two": _entry(lost_factor_two, ("frequencies",)),
    "wrong_base": _entry(wrong_base, ("frequencies",)),
    "half_the_pairs": _entry(half_the_pairs, ("frequencies",)),
    "negated_angle": _entry(negated_angle, ("angle_sign",), passed=True, matches="interleaved"),
    "negated_angle_when_interleaved_asked": _entry(
        negated_angle, ("angle_sign",), matches="interleaved", convention="interleaved"
    ),
    "negated_angle_when_half_asked": _entry(
        negated_angle, ("other_convention", "angle_sign"), matches="interleaved", convention="half"
    ),
    "sin_sign_on_one_member": _entry(sin_sign_on_one_member, ("norm", "not_relative")),
    "reflected_pairs": _entry(reflected_pairs, ("angle_sign",)),
    "float16_positions": _entry(float16_positions, ("precision",)),
    "bfloat16_angles": _entry(bfloat16_angles, ("precision",)),
    "float32_angles": _entry(float32_angles, ("precision",)),
    "pairs_left_stacked": _entry(pairs_left_stacked, ("shape",)),
    "expects_batch_axis": _entry(expects_batch_axis, ("error",)),
}
"""Every implementation above, with the report ``rope_viz.checker.check`` gives at ``dim=64, base=10000``.

A key names the case; a correct function appears under several keys when the ``convention`` asked for
changes the verdict (``"half_pairs_when_interleaved_asked"`` is the correct :func:`rope_rotate_half` checked
against the interleaved layout).
"""

__all__ = [
    "BASE",
    "CACHE_LENGTH",
    "IMPLEMENTATIONS",
    "Implementation",
    "bfloat16_angles",
    "clamped_cache",
    "expects_batch_axis",
    "float16_positions",
    "float32_angles",
    "half_the_pairs",
    "lost_factor_two",
    "lost_minus_sign",
    "negated_angle",
    "pairs_left_stacked",
    "reflected_pairs",
    "rope_complex",
    "rope_interleaved",
    "rope_rotate_half",
    "sin_sign_on_one_member",
    "sincos_product",
    "squared_positions",
    "wrong_base",
]
