"""Shared hypothesis strategies and reference helpers for the math tests.

Test modules import them with ``from tests.conftest import ...``. Nothing here changes hypothesis' global
settings: each test states its own ``@settings``, so other test modules are unaffected.

The reference helpers are written from the definitions, one pair at a time with :mod:`math`, and share no code
with :mod:`rope_viz`.

The ``browser`` fixture is the one chromium of the whole test session: Playwright's sync API allows one
instance at a time, so every test that drives a browser (the site, KaTeX, live notebooks) shares it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

CONVENTIONS = ("interleaved", "half")

#: The settings of the property tests: no deadline (the first numpy call of a run can be slow).
PROPERTY = settings(deadline=None, max_examples=60)

conventions = st.sampled_from(CONVENTIONS)
dims = st.integers(min_value=1, max_value=32).map(lambda half: 2 * half)  # even, 2..64
bases = st.floats(min_value=1.01, max_value=1e6)
positions = st.floats(min_value=-1e4, max_value=1e4)  # fractional and negative included
coordinates = st.floats(min_value=-10.0, max_value=10.0)


def vectors(dim: int) -> st.SearchStrategy[np.ndarray]:
    """Float64 vectors of shape ``(dim,)`` with entries in [-10, 10]."""
    return hnp.arrays(np.float64, (dim,), elements=coordinates)


def arrays(shape: tuple[int, ...], dtype: type = np.float64) -> st.SearchStrategy[np.ndarray]:
    """Arrays of ``shape`` with entries in [-10, 10] (float32 entries are exactly representable floats)."""
    elements = st.floats(min_value=-10.0, max_value=10.0, width=32 if dtype == np.float32 else 64)
    return hnp.arrays(dtype, shape, elements=elements)


def hand_frequencies(dim: int, base: float) -> list[float]:
    """theta_i = base ** (-2 i / dim), one pair at a time."""
    return [math.pow(base, -2.0 * i / dim) for i in range(dim // 2)]


def pair_indices(dim: int, convention: str) -> list[tuple[int, int]]:
    """Coordinates ``(a, b)`` of every pair: ``(2i, 2i+1)`` interleaved, ``(i, i + dim/2)`` half."""
    half = dim // 2
    if convention == "interleaved":
        return [(2 * i, 2 * i + 1) for i in range(half)]
    return [(i, i + half) for i in range(half)]


def hand_rotate(vector: np.ndarray, position: float, convention: str, frequencies: list[float]) -> np.ndarray:
    """Rotate one vector pair by pair: ``y_a = x_a cos - x_b sin``, ``y_b = x_a sin + x_b cos``."""
    out = [0.0] * len(vector)
    for (a, b), theta in zip(pair_indices(len(vector), convention), frequencies, strict=True):
        c, s = math.cos(position * theta), math.sin(position * theta)
        x_a, x_b = float(vector[a]), float(vector[b])
        out[a] = x_a * c - x_b * s
        out[b] = x_a * s + x_b * c
    return np.array(out)


def as_complex(vector: np.ndarray, convention: str) -> np.ndarray:
    """The pairs as complex numbers ``x_a + 1j x_b`` (shape ``(..., dim/2)``)."""
    dim = vector.shape[-1]
    a, b = np.array(pair_indices(dim, convention)).T
    return vector[..., a] + 1j * vector[..., b]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's chromium driven by Playwright. Missing chromium is a failure, never a skip."""
    from rope_viz.site import local

    if not Path(local.CHROMIUM).exists():
        pytest.fail("Debian's chromium is not installed; run ./dev.sh test, which installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=local.CHROMIUM, args=list(local.CHROMIUM_ARGS))
        try:
            yield instance
        finally:
            instance.close()
