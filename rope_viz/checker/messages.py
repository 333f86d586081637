"""The findings of :func:`rope_viz.checker.check`: each built from measurements, with evidence and a fix."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rope_viz.checker.angles import SAME_ANGLE, LargePositions, Rotation, block_angle, wrap
from rope_viz.checker.probes import SCORE_CASES, RandomBatch
from rope_viz.checker.report import Finding
from rope_viz.rotation import rotate

TOLERANCE = 1e-8
"""Largest ``|fn(x, m) - rotate(x, m)| / |x|`` of a match: float64 rounding of angles near 8192 is ~1e-12."""
NORM_TOLERANCE = 1e-5  # largest | |fn(x, m)| / |x| - 1 | of a rotation (float32 arithmetic gives ~1e-7)
SCORE_TOLERANCE = 1e-7  # largest score difference at one offset, relative to |q| |k|
SPEED_TOLERANCE = 1e-2  # relative difference from theta_i above which a speed is wrong, not rounded

_LAYOUTS = {
    "interleaved": "(2i, 2i+1), the 'interleaved' layout of GPT-J and Meta's LLaMA code",
    "half": "(i, i + d/2), the 'half' layout of GPT-NeoX and Hugging Face rotate_half",
}
_PAIR_FIX = (
    "pair the coordinates as the asked layout does, or move vectors between the layouts with "
    "rope_viz.to_half / rope_viz.to_interleaved."
)
_ROTATE = "y_a = x_a cos(m theta_i) - x_b sin(m theta_i), y_b = x_a sin(m theta_i) + x_b cos(m theta_i)"


_SIGN_CONSEQUENCE = (
    "Used for q and k alike it is still a relative scheme (the score at positions (m, n) is the usual one "
    "at (n, m)), so a model trained with it works; but weights trained with the usual sign, as public "
    "checkpoints are, see every offset reversed."
)


def _within(error: float) -> str:
    return "exactly" if error == 0 else f"to {error:.1g}"


def _pairs_text(indices: np.ndarray) -> str:
    """``[1, 2, 3, 7]`` as ``"1-3, 7"``."""
    runs: list[list[int]] = []
    for i in (int(j) for j in indices):
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else f"{run[0]}" for run in runs)


# --- agreement with rotate ----------------------------------------------------------------------------------


def agreement_errors(out: np.ndarray, batch: RandomBatch, base: float) -> dict[tuple[str, int], float]:
    """``max_rows |out - rotate(x, sign * positions, convention)| / |x|`` for both conventions and signs."""
    scale = np.linalg.norm(batch.x, axis=1)
    errors = {}
    for convention in _LAYOUTS:
        for sign in (1, -1):
            reference = rotate(batch.x, sign * batch.positions, base=base, convention=convention)
            errors[convention, sign] = float(np.max(np.linalg.norm(out - reference, axis=1) / scale))
    return errors


def for_match(
    convention: str, sign: int, errors: dict[tuple[str, int], float], asked: tuple[str, ...]
) -> list[Finding]:
    """List the findings of a function equal to ``rotate(x, sign * positions, convention=convention)``."""
    findings = []
    if convention not in asked:
        (wanted,) = asked
        findings.append(
            Finding(
                "other_convention",
                f"It is RoPE on pairs {_LAYOUTS[convention]}, not on pairs {_LAYOUTS[wanted]} as asked: it "
                f"equals rope_viz.rotate(..., convention={convention!r}) {_within(errors[convention, sign])} "
                f"but differs from convention={wanted!r} by up to {errors[wanted, sign]:.3g} of |x|. Fix: "
                f"{_PAIR_FIX}",
            )
        )
    if sign < 0:
        findings.append(
            Finding(
                "angle_sign",
                f"It turns every pair by -m theta_i instead of +m theta_i: it equals rope_viz.rotate(x, "
                f"-positions) {_within(errors[convention, -1])} and differs from rotate(x, positions) by up "
                f"to {errors[convention, 1]:.3g} of |x|. {_SIGN_CONSEQUENCE} Fix: flip the sign of sin "
                f"({_ROTATE}).",
            )
        )
    return findings


# --- lengths and offsets ------------------------------------------------------------------------------------


def norm(out: np.ndarray, batch: RandomBatch) -> Finding | None:
    """Build the ``"norm"`` finding if ``|fn(x, m)| / |x|`` departs from 1, else return None."""
    ratio = np.linalg.norm(out, axis=1) / np.linalg.norm(batch.x, axis=1)
    worst = int(np.argmax(np.abs(ratio - 1.0)))
    if abs(ratio[worst] - 1.0) <= NORM_TOLERANCE:
        return None
    return Finding(
        "norm",
        f"It changes lengths, so it is not a rotation: |fn(x, m)| / |x| ranges from {ratio.min():.4g} to "
        f"{ratio.max():.4g} over {len(ratio)} random vectors ({ratio[worst]:.4g} at position "
        f"{batch.positions[worst]}), where a rotation keeps 1. Fix: turn each pair (a, b) as a whole, "
        f"{_ROTATE}; multiplying coordinates by cos or sin alone, or a sign slip in one member, changes "
        "lengths.",
    )


@dataclass(frozen=True)
class ScoreDeviation:
    """The largest change of ``<fn(q, m), fn(k, n)>`` under a shift of both positions, relative to |q| |k|."""

    relative: float
    positions: tuple[int, int, int, int]  # (m, n, m + t, n + t)
    scores: tuple[float, float]

    @property
    def ok(self) -> bool:
        """Whether the scores depend on the offset only, to float64 tolerance."""
        return self.relative <= SCORE_TOLERANCE


def score_deviation(out: np.ndarray, batch: RandomBatch) -> ScoreDeviation:
    """Compare the score of each random ``(q, k)`` at ``(m, n)`` with its score at ``(m + t, n + t)``."""
    rows = out.reshape(SCORE_CASES, 4, -1)
    inputs = batch.x.reshape(SCORE_CASES, 4, -1)
    before = np.einsum("cd,cd->c", rows[:, 0], rows[:, 1])
    after = np.einsum("cd,cd->c", rows[:, 2], rows[:, 3])
    scale = np.linalg.norm(inputs[:, 0], axis=1) * np.linalg.norm(inputs[:, 1], axis=1)
    relative = np.abs(before - after) / scale
    c = int(np.argmax(relative))
    positions = tuple(int(p) for p in batch.positions.reshape(SCORE_CASES, 4)[c])
    return ScoreDeviation(float(relative[c]), positions, (float(before[c]), float(after[c])))


def not_relative(deviation: ScoreDeviation, large: LargePositions | None, theta: np.ndarray) -> Finding:
    """Build the ``"not_relative"`` finding, with the scores (and the angles, if read) as evidence."""
    m, n, shifted_m, shifted_n = deviation.positions
    before, after = deviation.scores
    if deviation.ok:
        evidence = "the scores of the random test vectors, all in one call, do not show it, but the angles do"
    else:
        evidence = (
            f"<fn(q, m), fn(k, n)> is {before:.4g} at (m, n) = ({m}, {n}) but {after:.4g} at ({shifted_m}, "
            f"{shifted_n}), the same offset m - n = {m - n} (a change of {deviation.relative:.3g} of |q| |k|)"
        )
    reading = ""
    if large is not None and large.kind == "positions":
        order = np.argsort(-np.abs(large.effective - large.positions))[:2]
        acts = " and ".join(f"position {large.positions[k]} acts as {large.effective[k]:.6g}" for k in order)
        reading = f" Read from the angles of the output, {acts}."
    elif large is not None and large.kind == "angles":
        k, i = large.worst
        position = large.positions[k]
        speed = large.expected / position
        if math.isclose(speed, theta[i], rel_tol=SPEED_TOLERANCE):
            predicted = f"m theta_{i} = {large.expected:.4g}"
        else:
            predicted = (
                f"its speed read near position 0 ({speed:.4g} rad per token) predicts {large.expected:.4g}"
            )
        reading = (
            f" Read from the angles of the output, pair {i} at position {position} is turned by "
            f"{large.observed:.4g} rad (modulo 2 pi) where {predicted}."
        )
    return Finding(
        "not_relative",
        f"Its scores depend on absolute positions, not only on their offset: {evidence}.{reading} Fix: turn "
        "pair i by exactly m theta_i, in proportion to m, at every position (no clamping, no table shorter "
        "than the sequence, no other function of m).",
    )


# --- pairs, speeds and signs --------------------------------------------------------------------------------


def other_convention(rotation: Rotation, asked: tuple[str, ...]) -> Finding:
    """Build the ``"other_convention"`` finding of a rotation on other pairs than the asked ones."""
    if rotation.convention is None:
        coordinate, partners = rotation.mixing
        return Finding(
            "other_convention",
            f"It keeps lengths but turns coordinates that are paired in neither layout: at position 1000 "
            f"coordinate {coordinate} is mixed with coordinate(s) {list(partners)[:6]}. RoPE turns pairs "
            f"{_LAYOUTS['interleaved']}, or pairs {_LAYOUTS['half']}. Fix: pair coordinates in one of these.",
        )
    wanted = asked[0]
    return Finding(
        "other_convention",
        f"It turns pairs {_LAYOUTS[rotation.convention]}, not pairs {_LAYOUTS[wanted]} as asked: its output "
        f"at positions 0, 1 and 1000 mixes coordinates of different {wanted!r} pairs (entries up to "
        f"{rotation.mixed:.3g} outside their 2x2 blocks) and none of different {rotation.convention!r} "
        f"pairs. Fix: {_PAIR_FIX}",
    )


def expected_speeds(speeds: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """``theta`` or ``-theta`` if the speeds read are one of them up to rounding, else the speeds read."""
    for sign in (1.0, -1.0):
        if np.max(np.abs(speeds / (sign * theta) - 1.0)) <= SPEED_TOLERANCE:
            return sign * theta
    return speeds


def _negated(speeds: np.ndarray) -> bool:
    turning = np.abs(speeds) > 0
    return bool(turning.any() and np.all(speeds[turning] < 0))


def _reflected(rotation: Rotation) -> np.ndarray:
    return np.linalg.det(rotation.offset) < 0  # (d/2,)


def _speed_pattern(magnitude: np.ndarray, theta: np.ndarray, base: float) -> str:
    """Name the formula the speeds fit: ``s * theta_i`` for one ``s``, or ``b ** (-2i/d)`` for one ``b``."""
    ratio = magnitude / theta
    if np.all(magnitude > 0) and np.ptp(np.log(ratio)) <= SPEED_TOLERANCE:
        scale = float(np.median(ratio))
        return f"Every pair turns {scale:.4g} times as fast as theta_i, as if positions were scaled."
    dim = 2 * len(theta)
    i = np.arange(1, dim // 2)
    if len(i) == 0 or not np.all(magnitude[i] > 0) or abs(magnitude[0] - 1.0) > SPEED_TOLERANCE:
        return ""
    implied = np.exp(-np.log(magnitude[i]) * dim / (2.0 * i))  # b with magnitude_i = b ** (-2i/d)
    if np.ptp(np.log(implied)) > SPEED_TOLERANCE:
        return ""
    fitted = float(np.median(implied))
    if math.isclose(fitted * base, 1.0, rel_tol=SPEED_TOLERANCE):
        fast = int(np.sum(magnitude > np.pi))
        return (
            "The speeds are base ** (+2i/d) = (1/base) ** (-2i/d): the minus sign of the exponent is lost; "
            f"{fast} pairs turn by more than pi rad per token, too fast to tell neighbouring tokens apart."
        )
    if math.isclose(fitted, math.sqrt(base), rel_tol=SPEED_TOLERANCE):
        return (
            f"The speeds are base ** (-i/d), those of base {fitted:.6g} = sqrt(base): the factor 2 of the "
            "exponent is lost."
        )
    return (
        f"The speeds are b ** (-2i/d) with b = {fitted:.6g}: the formula is right, the base is not {base:g}."
    )


def _start_text(start: np.ndarray, speeds: np.ndarray) -> str:
    """Describe the angles ``start`` of ``M(0)``: a shift of the positions if one explains every pair."""
    i = int(np.argmax(np.abs(start)))
    turned = f"at position 0 the pairs are already turned (pair {i} by {start[i]:.4g} rad)"
    turning = np.flatnonzero(speeds != 0)
    if len(turning):
        slow = int(turning[np.argmin(np.abs(speeds[turning]))])
        shift = start[slow] / speeds[slow]
        if np.max(np.abs(wrap(shift * speeds - start))) <= SAME_ANGLE:
            return (
                f"{turned}: every angle is (m + {shift:.6g}) theta_i, as if positions started at {shift:.6g}."
            )
    return f"{turned}, as if a constant were added to every angle."


def frequencies(rotation: Rotation, theta: np.ndarray, base: float) -> Finding | None:
    """Build the ``"frequencies"`` finding: speeds other than ``theta_i``, or a constant in the angles."""
    speeds = rotation.speeds
    magnitude = -speeds if _negated(speeds) else speeds
    ratio = magnitude / theta
    wrong = np.abs(ratio - 1.0) > SPEED_TOLERANCE
    reflected = _reflected(rotation)
    start = np.where(reflected, 0.0, block_angle(rotation.offset))
    shifted = np.abs(start) > SAME_ANGLE
    if not wrong.any() and not shifted.any():
        return None
    parts = []
    still = wrong & (magnitude == 0)
    if still.any():
        parts.append(f"pairs {_pairs_text(np.flatnonzero(still))} do not turn at all (0 rad per token).")
    moving = wrong & ~still
    if moving.any():
        i = int(np.flatnonzero(moving)[np.argmax(np.abs(np.log(np.abs(ratio[moving]))))])
        backwards = " backwards" if ratio[i] < 0 else ""
        parts.append(
            f"pairs {_pairs_text(np.flatnonzero(moving))} turn at the wrong speed; the worst, pair {i}, "
            f"turns {magnitude[i]:.4g} rad per token{backwards} instead of theta_{i} = {theta[i]:.4g} (ratio "
            f"{ratio[i]:.4g})."
        )
    if wrong.any():
        parts.append(_speed_pattern(magnitude, theta, base))
        if rotation.whole_positions_only:
            parts.append("(fn takes whole positions only, so the speeds are read modulo 2 pi.)")
    if shifted.any():
        parts.append(_start_text(start, speeds))
    return Finding(
        "frequencies",
        "It is a rotation whose scores depend on the offset only, but its angles are not m theta_i with "
        f"theta_i = base ** (-2i/d): {' '.join(part for part in parts if part)} Fix: angle m theta_i with "
        f"theta_i = base ** (-2i/d), base = {base:g}, i = 0 .. d/2 - 1.",
    )


def angle_sign(rotation: Rotation, theta: np.ndarray) -> Finding | None:
    """Build the ``"angle_sign"`` finding of a rotation by ``-m theta_i`` or of reflected pairs."""
    negated = _negated(rotation.speeds)
    reflected = _reflected(rotation)
    if not negated and not reflected.any():
        return None
    parts = []
    if reflected.any():
        i = int(np.flatnonzero(reflected)[0])
        block = np.round(rotation.offset[i], 6) + 0.0
        parts.append(
            f"Pairs {_pairs_text(np.flatnonzero(reflected))} are reflected, not rotated: their 2x2 map has "
            f"determinant -1, and at position 0 it is {block.tolist()} for pair {i}, not the identity. "
            "Lengths are kept, and the scores come out as those of RoPE with "
            + ("negated angles (the fixed flip cancels in q . k)." if negated else "the usual angles.")
        )
    if negated:
        j = min(1, len(theta) - 1)
        parts.append(
            f"The scores see every pair turn by -m theta_i: pair {j} at {rotation.speeds[j]:.4g} rad per "
            f"token, not +{theta[j]:.4g}. {_SIGN_CONSEQUENCE}"
        )
    fix = f"rotate, do not reflect: {_ROTATE}." if reflected.any() else f"flip the sign of sin ({_ROTATE})."
    return Finding("angle_sign", f"{' '.join(parts)} Fix: {fix}")


def precision(large: LargePositions) -> Finding:
    """Build the ``"precision"`` finding: positions or angles rounded to a low-precision type."""
    bits = large.bits
    digits = max(4, math.ceil(bits * math.log10(2)) + 2)  # enough to show the difference
    named = f", as {large.format} holds it" if large.format else ""
    if large.kind == "positions":
        order = np.argsort(-np.abs(large.effective - large.positions) / large.positions)[:2]
        acts = " and ".join(f"position {large.positions[k]} acts as {large.effective[k]:.6g}" for k in order)
        what = (
            f"The positions are rounded before the angles are formed: read from the angles of the output, "
            f"{acts}, an error of up to 2^-{-math.log2(large.relative):.1f} of the position. That is the "
            f"rounding of a number with {bits} significant bits{named}, which keeps whole positions exact "
            f"only up to {2**bits} (float16 has 11 bits, bfloat16 8, float32 24)."
        )
    else:
        k, i = large.worst
        what = (
            f"The angles are rounded: pair {i} at position {large.positions[k]} is turned by "
            f"{large.observed:.{digits}g} rad instead of m theta_{i} = {large.expected:.{digits}g}, an error "
            f"of 2^-{-math.log2(large.relative):.1f} of the angle. That is the rounding of a number with "
            f"about {bits} significant bits{named} (bfloat16 has 8, float16 11, float32 24)."
        )
        if large.format == "float32":
            what += " transformers forms its angles in float32, which most models tolerate."
    return Finding(
        "precision",
        f"{what} Fix: form positions and angles m theta_i in float64 (at least float32), and cast only cos "
        "and sin, or the result, to the low-precision type.",
    )


def unexplained(errors: dict[tuple[str, int], float], linear: bool) -> Finding:
    """Build the finding (named "frequencies") for a difference from ``rotate`` that no check explains."""
    best = min(errors, key=errors.get)
    reason = (
        ""
        if linear
        else " Its output for a vector does not follow from its output for the unit vectors at the same "
        "position, so its angles could not be read pair by pair: it is not linear in x, or it depends on the "
        "other rows of the call (a row's index, the sequence length) rather than on positions alone."
    )
    return Finding(
        "frequencies",
        f"It keeps lengths and the scores of the test vectors depend on the offset only, yet it differs from "
        f"rope_viz.rotate (closest: convention={best[0]!r}, angle sign {best[1]:+d}) by up to "
        f"{errors[best]:.3g} of |x|.{reason} Fix: {_ROTATE} with theta_i = base ** (-2i/d), m from "
        "positions.",
    )
