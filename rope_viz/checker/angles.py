"""Read a rotation's pairs, speeds and large-position angles from the output of the function under test.

For a linear ``fn`` that keeps lengths, ``M(m)`` (with ``fn(x, m) = M(m) x``) is orthogonal. Scores see
``M(m)^T M(m + t)``; for RoPE that is ``R(t)``, the block-diagonal rotation by ``t theta_i`` (RoFormer, Su et
al. 2021, arXiv:2104.09864, sec. 3.4.2). In each pair this module reads the angle of
``G_i(t) = F_i^T B_i(t)``, where ``B_i(t)`` is the pair's 2x2 block of ``M(t)`` and ``F_i`` that of ``M(0)``:
the angle the scores see at offset ``t``, whatever fixed map ``F`` the function applies on top.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rope_viz._validation import CONVENTIONS
from rope_viz.checker.probes import FunctionFailedError, Probe, pair_indices

STRUCTURE_POSITIONS = np.array([0, 1, 1000])
"""Positions at which the whole matrix ``M(m)`` is read: 0 for ``F``, 1000 to turn even the slowest pairs."""

LARGE_POSITIONS = np.array([1, 17, 33, 65, 129, 257, 513, 1025, 2049, 4097, 8193])
"""Whole positions just past powers of two: ``2**k + 1`` needs ``k + 1`` significant bits to be exact."""

RANDOM_LARGE_POSITIONS = 9
"""Random whole positions below 8192 added to :data:`LARGE_POSITIONS`."""

STRUCTURE_TOLERANCE = 1e-6  # largest entry of M(m) outside the pairs' blocks, for a block-diagonal M(m)
SAME_ANGLE = 1e-6  # rad: two angles this close are one (a float64 rotation agrees to ~1e-12)
EXACT = 2.0**-36  # relative errors below this are float64 noise
ROUNDING = 2.0**-7  # relative errors up to this can be rounding (bfloat16, 8 bits, errs by up to 2**-8)
GRID_BITS = 16  # angles rounded to this many bits or fewer must lie on that grid (finer: noise of the output)

FORMATS = {"bfloat16": 8, "float16": 11, "float32": 24}
"""Significant bits (stored ones plus the implicit leading bit) of the low-precision floating-point types."""


def wrap(angle: np.ndarray) -> np.ndarray:
    """Angles brought into ``[-pi, pi)``."""
    return (angle + np.pi) % (2.0 * np.pi) - np.pi


def block_angle(blocks: np.ndarray) -> np.ndarray:
    """Angle of the rotation part of 2x2 blocks ``(..., 2, 2)``: ``atan2(G_10 - G_01, G_00 + G_11)``."""
    return np.arctan2(blocks[..., 1, 0] - blocks[..., 0, 1], blocks[..., 0, 0] + blocks[..., 1, 1])


def representable(values: np.ndarray, bits: int) -> bool:
    """Whether every value is, to 1% of the grid step, a number with ``bits`` significant binary digits."""
    values = np.abs(values[values != 0])
    step = 2.0 ** (np.floor(np.log2(values)) - bits + 1)  # spacing of bits-bit numbers at each value
    steps = values / step
    return bool(np.all(np.abs(steps - np.round(steps)) <= 0.01))


def off_block(maps: np.ndarray, convention: str) -> float:
    """Largest entry of the matrices ``maps`` outside the 2x2 blocks of ``convention``'s pairs."""
    dim = maps.shape[-1]
    a, b = pair_indices(dim, convention)
    outside = np.ones((dim, dim), dtype=bool)
    for rows in (a, b):
        for columns in (a, b):
            outside[rows, columns] = False
    return float(np.max(np.abs(maps[:, outside]), initial=0.0))


@dataclass(frozen=True)
class LargePositions:
    """How the angles at large positions depart from ``m * omega_i``.

    ``kind`` is ``"exact"``; ``"positions"`` when one effective position ``m'`` explains every pair at each
    ``m`` (``effective`` holds them); or ``"angles"`` when the pairs disagree. ``relative`` is the largest
    relative error (of the position, or of the angle), ``worst`` the ``(index into positions, pair)`` where it
    is, and for ``"angles"`` ``observed`` and ``expected`` the two angles there; ``irregular`` when the angle
    errors are not those of one rounding (some is far larger, relative to its angle, than the rest), and
    ``rounded`` the angles read between 1 and 64 radians.
    """

    kind: str
    relative: float
    positions: np.ndarray
    effective: np.ndarray | None = None
    worst: tuple[int, int] = (0, 0)
    observed: float = 0.0
    expected: float = 0.0
    irregular: bool = False
    rounded: np.ndarray | None = None

    @property
    def bits(self) -> int:
        """Significant bits that round to this error: the ``p`` with ``2**-(p+1) < relative <= 2**-p``."""
        if self.relative <= 0:
            return 53  # no error at all: float64's own precision
        return max(0, math.floor(-math.log2(self.relative)))

    @property
    def format(self) -> str | None:
        """The floating-point type with about that many significant bits, if any."""
        name, bits = min(FORMATS.items(), key=lambda item: abs(item[1] - self.bits))
        return name if abs(bits - self.bits) <= 1 else None

    @property
    def is_rounding(self) -> bool:
        """Whether the errors are those of rounding to a low-precision type.

        They must be small and follow one rule, and the rounded numbers (positions, or angles rounded to at
        most :data:`GRID_BITS` bits) must lie on the grid of numbers with :attr:`bits` significant bits: a
        position clamped to 1023 does not, whatever its error.
        """
        if self.kind == "exact" or self.irregular or self.relative > ROUNDING:
            return False
        if self.kind == "positions":
            return representable(self.effective, self.bits)
        return self.bits > GRID_BITS or representable(self.rounded, self.bits)


@dataclass(frozen=True)
class Rotation:
    """What the output tells of a linear, length-keeping ``fn``.

    ``convention`` is the pairing ``M(m)`` is block-diagonal on, or None if neither (``mixing`` then holds a
    coordinate and the coordinates it is mixed with at position 1000). ``offset`` holds the pairs' 2x2 blocks
    of ``M(0)``, shape ``(d/2, 2, 2)``. ``speeds`` are the radians per token the scores see in each pair,
    read modulo ``2 pi`` when ``whole_positions_only``; ``angles`` the angles of ``G_i(m)`` at
    ``positions``, shape ``(len(positions), d/2)``. The last four are None where they could not be read.
    ``mixed`` is the largest entry of ``M(m)`` outside the blocks of the first asked convention.
    """

    convention: str | None
    mixed: float = 0.0
    mixing: tuple[int, tuple[int, ...]] = (0, ())
    offset: np.ndarray | None = None
    speeds: np.ndarray | None = None
    whole_positions_only: bool = False
    positions: np.ndarray | None = None
    angles: np.ndarray | None = None


def read_rotation(probe: Probe, asked: tuple[str, ...]) -> Rotation | None:
    """Pairs, speeds and large-position angles of ``fn``; None if ``fn`` is not linear in ``x``.

    Three calls: the whole matrices at :data:`STRUCTURE_POSITIONS` (the asked conventions are tried first, so
    that with ``dim = 2``, where both pairings are one, the asked one is named), the pairs' blocks at large
    positions, and the blocks at fractional positions for the speeds (see :func:`read_speeds`).
    """
    maps = probe.maps(STRUCTURE_POSITIONS)
    if maps is None:
        return None
    order = [*asked, *(c for c in CONVENTIONS if c not in asked)]
    planes = [c for c in order if off_block(maps, c) <= STRUCTURE_TOLERANCE]
    if not planes:
        column = np.abs(maps[-1][:, 0])  # where e_0 goes at position 1000
        partners = tuple(int(j) for j in np.flatnonzero(column > STRUCTURE_TOLERANCE) if j != 0)
        return Rotation(None, off_block(maps, asked[0]), (0, partners))
    convention = planes[0]
    mixed = off_block(maps, asked[0])
    a, b = pair_indices(probe.dim, convention)
    first_row = np.stack([maps[0][a, a], maps[0][a, b]], axis=-1)
    second_row = np.stack([maps[0][b, a], maps[0][b, b]], axis=-1)
    offset = np.stack([first_row, second_row], axis=-2)  # (d/2, 2, 2)
    extra = probe.rng.integers(2, 8192, RANDOM_LARGE_POSITIONS)
    positions = np.concatenate([LARGE_POSITIONS, extra]).astype(np.int64)
    blocks = probe.blocks(convention, positions)
    if blocks is None:
        return Rotation(convention, mixed, offset=offset)
    angles = scored_angles(offset, blocks)  # (K, d/2)
    speeds, whole_only = read_speeds(probe, convention, offset, angles[0])
    return Rotation(convention, mixed, (0, ()), offset, speeds, whole_only, positions, angles)


def scored_angles(offset: np.ndarray, blocks: np.ndarray) -> np.ndarray:
    """Angle of ``G_i = F_i^T B_i`` for blocks ``(K, d/2, 2, 2)``, the turn the scores see: ``(K, d/2)``."""
    return block_angle(np.einsum("pji,kpjl->kpil", offset, blocks))


def read_speeds(
    probe: Probe, convention: str, offset: np.ndarray, angle_at_one: np.ndarray
) -> tuple[np.ndarray, bool]:
    """Each pair's speed in radians per token, followed from a tiny offset up to ``t = 1``.

    The offsets ``t = 1 / (4 base), 4 / (4 base), ...`` grow by 4 up to 1: at the first no pair with a speed
    below ``pi * 4 base`` has turned by half a turn, and at each next one the turn predicted from the speed so
    far fixes the whole turns that the angle alone cannot show. A ``fn`` that refuses fractional positions
    (a table indexed by position) gets its speeds from ``t = 1`` alone, known modulo ``2 pi``: returned with
    ``True``.
    """
    offsets = []
    t = 1.0 / (4.0 * probe.base)
    while t < 1.0:
        offsets.append(t)
        t *= 4.0
    try:
        blocks = probe.blocks(convention, np.array(offsets))
    except FunctionFailedError:
        blocks = None
    if blocks is None:
        return wrap(angle_at_one), True
    angles = scored_angles(offset, blocks)  # (T, d/2)
    speeds = angles[0] / offsets[0]
    for t, angle in zip([*offsets[1:], 1.0], [*angles[1:], angle_at_one], strict=True):
        predicted = speeds * t
        speeds = (predicted + wrap(angle - predicted)) / t
    return speeds, False


def large_position_errors(rotation: Rotation, expected: np.ndarray) -> LargePositions:
    """Compare the angles at large positions with ``m * expected_i`` and name the kind of departure.

    If the slowest turning pair gives an effective position ``m' = m + wrap(alpha - m omega) / omega`` that
    every other pair agrees with, the positions were changed before the angles were formed (rounded, or
    clamped): the error is ``|m' - m| / m``. This needs two turning pairs: with one, any angle is some
    position's. Otherwise each angle has its own error, measured relative to the angle where it lies between 1
    and 64 radians (large enough that an error in the output's last digits is not magnified, small enough that
    a rounding error stays below half a turn); an error elsewhere larger than rounding by as many bits allows
    makes the errors ``irregular``.
    """
    positions = rotation.positions.astype(np.float64)
    angles = rotation.angles
    predicted = np.multiply.outer(positions, expected)  # (K, d/2)
    residual = wrap(angles - predicted)
    turning = np.abs(expected) > 0
    if not turning.any():
        return LargePositions("exact", 0.0, rotation.positions)
    slowest = int(np.flatnonzero(turning)[np.argmin(np.abs(expected[turning]))])
    effective = positions + residual[:, slowest] / expected[slowest]  # (K,)
    disagreement = wrap(angles - np.multiply.outer(effective, expected))[:, turning]
    if np.sum(turning) >= 2 and np.max(np.abs(disagreement)) <= SAME_ANGLE:
        errors = np.abs(effective - positions) / positions
        k = int(np.argmax(errors))
        kind = "exact" if errors[k] <= EXACT else "positions"
        return LargePositions(kind, float(errors[k]), rotation.positions, effective, (k, slowest))
    window = (np.abs(predicted) >= 1.0) & (np.abs(predicted) <= 64.0)
    if not window.any():
        window = np.abs(predicted) > 0
    errors = np.where(window, np.abs(residual) / np.where(window, np.abs(predicted), 1.0), 0.0)
    k, i = np.unravel_index(int(np.argmax(errors)), errors.shape)
    relative = float(errors[k, i])
    # Rounding to p bits errs by at most 2**-p of the angle everywhere, outside the window too.
    excess = np.abs(residual) - (4.0 * relative * np.abs(predicted) + SAME_ANGLE)
    irregular = bool(np.any(excess > 0))
    if irregular:
        k, i = np.unravel_index(int(np.argmax(excess)), excess.shape)
        relative = float(np.abs(residual[k, i]) / max(abs(predicted[k, i]), SAME_ANGLE))
    kind = "exact" if relative <= EXACT and not irregular else "angles"
    return LargePositions(
        kind,
        relative,
        rotation.positions,
        worst=(int(k), int(i)),
        observed=float(predicted[k, i] + residual[k, i]),
        expected=float(predicted[k, i]),
        irregular=irregular,
        rounded=(predicted + residual)[window],
    )
