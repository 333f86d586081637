"""The inputs :func:`rope_viz.checker.check` feeds the function under test, and what it reads back.

Every call goes through :meth:`Probe.call`, which turns an exception, a result that is not a finite real array
or a result of the wrong shape into a :class:`FunctionFailedError` carrying the finding that says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rope_viz.checker.report import Finding

SEED = 2104_09864
"""Seed of the generator of every random input (RoFormer's arXiv number): a check is repeatable."""

SCORE_CASES = 24
"""Pairs ``(q, k)`` in the random batch, each seen at ``(m, n)`` and at ``(m + t, n + t)``."""


class FunctionFailedError(Exception):
    """The function under test raised, or returned something unusable; ``finding`` says which."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


def pair_indices(dim: int, convention: str) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates ``(a, b)`` of every pair: ``(2i, 2i+1)`` interleaved, ``(i, i + d/2)`` half."""
    pairs = np.arange(dim // 2)
    if convention == "interleaved":
        return 2 * pairs, 2 * pairs + 1
    return pairs, pairs + dim // 2


@dataclass(frozen=True)
class RandomBatch:
    """Random ``q`` and ``k`` at positions ``(m, n, m + t, n + t)``: four rows per case, in that order."""

    x: np.ndarray  # (4 * cases, dim)
    positions: np.ndarray  # (4 * cases,) int64


def random_batch(rng: np.random.Generator, dim: int) -> RandomBatch:
    """Half the cases at positions and shifts below 64, half up to 4095 (so positions reach 8190)."""
    small = SCORE_CASES // 2
    large = SCORE_CASES - small

    def draw(low: int) -> np.ndarray:
        return np.concatenate([rng.integers(low, 64, small), rng.integers(low, 4096, large)])

    m, n, shift = draw(0), draw(0), draw(1)
    q = rng.standard_normal((SCORE_CASES, dim))
    k = rng.standard_normal((SCORE_CASES, dim))
    x = np.stack([q, k, q, k], axis=1).reshape(4 * SCORE_CASES, dim)
    positions = np.stack([m, n, m + shift, n + shift], axis=1).reshape(-1).astype(np.int64)
    return RandomBatch(x, positions)


class Probe:
    """The function under test, called on copies of the inputs, with the generator and settings of a check."""

    def __init__(self, fn: Callable[[np.ndarray, np.ndarray], object], dim: int, base: float) -> None:
        self.fn = fn
        self.dim = dim
        self.base = base
        self.rng = np.random.default_rng(SEED)

    def call(self, x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        """``fn(x, positions)`` as a float64 array of the shape of ``x``, or :class:`FunctionFailedError`."""
        described = (
            f"x of shape {x.shape} ({x.dtype}) and positions of shape {positions.shape} ({positions.dtype})"
        )
        try:
            result = self.fn(x.copy(), positions.copy())  # copies: fn may write into its inputs
        except Exception as error:  # whatever fn raises is the finding
            raise FunctionFailedError(
                Finding(
                    "error",
                    f"fn raised {type(error).__name__}: {error} (called with {described}). It must accept x "
                    "of shape (seq, dim) and positions of shape (seq,) and return the rotated x.",
                )
            ) from error
        try:
            array = np.asarray(result)
        except Exception:  # a ragged list, an object numpy cannot read
            array = np.asarray(None)
        if array.dtype.kind not in "biuf":
            raise FunctionFailedError(
                Finding(
                    "error",
                    f"fn returned {type(result).__name__} of dtype {array.dtype}, not an array of real "
                    f"numbers (called with {described}). It must return the rotated x as a real array.",
                )
            )
        if array.shape != x.shape:
            raise FunctionFailedError(
                Finding(
                    "shape",
                    f"fn returned shape {array.shape} for x of shape {x.shape}; the rotated array must have "
                    "the shape of x (flatten the pairs back, e.g. with reshape(x.shape)).",
                )
            )
        array = array.astype(np.float64)
        bad = ~np.isfinite(array)
        if bad.any():
            row = int(np.argwhere(bad)[0][0])
            raise FunctionFailedError(
                Finding(
                    "error",
                    f"fn returned {int(bad.sum())} NaN or infinite values, the first in the row at position "
                    f"{positions[row]}; a rotation of finite numbers is finite.",
                )
            )
        return array

    def maps(self, positions: np.ndarray) -> np.ndarray | None:
        """Read the matrices ``M(m)`` with ``fn(x, m) = M(m) x``, shape ``(len(positions), dim, dim)``.

        Column ``j`` of ``M(m)`` is ``fn(e_j, m)``. One random vector per position checks that ``fn`` is
        linear; None if it is not (its action is then not a matrix, and has no pairs or speeds to read).
        """
        count, dim = len(positions), self.dim
        vectors = self.rng.standard_normal((count, dim))
        x = np.concatenate([np.tile(np.eye(dim), (count, 1)), vectors])
        repeated = np.concatenate([np.repeat(positions, dim), positions])
        out = self.call(x, repeated)
        maps = out[: count * dim].reshape(count, dim, dim).transpose(0, 2, 1)  # (K, d, d)
        predicted = np.einsum("kij,kj->ki", maps, vectors)  # (K, d)
        scale = np.linalg.norm(vectors, axis=1)
        if np.any(np.linalg.norm(predicted - out[count * dim :], axis=1) > 1e-6 * scale):
            return None
        return maps

    def blocks(self, convention: str, positions: np.ndarray) -> np.ndarray | None:
        """Read the 2x2 blocks of ``M(m)`` on ``convention``'s pairs, shape ``(len(positions), d/2, 2, 2)``.

        Two inputs per position: the first member of every pair set to 1, then the second. For a ``M(m)``
        that is block-diagonal on these pairs the outputs hold the first and second column of every block.
        None if some block is not orthogonal there (``M(m)`` then mixes coordinates of different pairs).
        """
        a, b = pair_indices(self.dim, convention)
        first, second = np.zeros(self.dim), np.zeros(self.dim)
        first[a], second[b] = 1.0, 1.0
        x = np.tile(np.stack([first, second]), (len(positions), 1))
        out = self.call(x, np.repeat(positions, 2)).reshape(len(positions), 2, self.dim)
        columns = np.stack([out[:, :, a], out[:, :, b]], axis=-1)  # (K, 2 columns, d/2, 2 rows)
        blocks = columns.transpose(0, 2, 3, 1)  # (K, d/2, rows, columns)
        gram = np.einsum("kpji,kpjl->kpil", blocks, blocks)
        if np.max(np.abs(gram - np.eye(2))) > 1e-4:
            return None
        return blocks
