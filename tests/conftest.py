"""Shared hypothesis strategies and reference helpers for the math tests, the suite's hypothesis profiles,
and the marking of slow tests.

Test modules import the strategies and helpers with ``from tests.conftest import ...``. The reference helpers
are written from the definitions, one pair at a time with :mod:`math`, and share no code with :mod:`rope_viz`.

Hypothesis profiles (``ROPE_VIZ_HYPOTHESIS_PROFILE``; ``ci`` when the ``CI`` variable is set, as on CI, else
``default``; pytest's ``--hypothesis-profile`` overrides both):

``default``
    No deadline and no ``too_slow`` health check: a loaded 2-core machine can make any example slow, and that
    says nothing about the code. Random examples, remembered in ``.hypothesis/``.
``ci``
    As ``default``, derandomized (every run tries the same examples, so a result never depends on the run)
    with no example database, and a failure prints the blob that reproduces it.

A test's own ``@settings`` (e.g. :data:`PROPERTY`) sets what it names and takes the rest from the profile.

Slow tests (``./dev.sh test --fast`` leaves them out with ``-m "not slow"``) are marked here at collection,
so a new test file needs no marks of its own when it uses the usual fixtures: every test under
``tests/site/`` and ``tests/live/``, and every test that asks for one of :data:`SLOW_FIXTURES` (a browser,
the built site, a Jupyter server, a run of a chapter). A test that is slow in another way (it executes
notebooks itself, builds the book) carries ``@pytest.mark.slow`` itself.

The ``browser`` fixture is the one chromium of the whole test session: Playwright's sync API allows one
instance at a time, so every test that drives a browser (the site, KaTeX, live notebooks) shares it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

#: The environment variable that names the hypothesis profile.
HYPOTHESIS_PROFILE_VARIABLE = "ROPE_VIZ_HYPOTHESIS_PROFILE"

# Each profile names its parent: hypothesis loads a "ci" profile of its own where CI is set, and a profile
# without a parent would inherit from whichever profile is loaded.
settings.register_profile(
    "default", settings.get_profile("default"), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", settings.get_profile("default"), derandomize=True, database=None, print_blob=True
)
settings.load_profile(
    os.environ.get(HYPOTHESIS_PROFILE_VARIABLE, "ci" if os.environ.get("CI") else "default")
)

CONVENTIONS = ("interleaved", "half")

#: The settings of the property tests: no deadline (the first numpy call of a run can be slow).
PROPERTY = settings(deadline=None, max_examples=60)

#: Directories of ``tests/`` whose every test is slow (the site build with its browser pass, the real Jupyter
#: clients), with the marks they add besides ``slow``.
SLOW_DIRECTORIES: dict[str, tuple[str, ...]] = {"site": (), "live": ("live",)}
#: Fixtures that make a test slow, with the marks they add besides ``slow``.
SLOW_FIXTURES: dict[str, tuple[str, ...]] = {
    "browser": ("browser",),
    "built_site": (),
    "site_url": ("browser",),
    "jupyter": ("live",),
    "live_venv": ("live",),
    "plain_kernel_run": (),
}
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

conventions = st.sampled_from(CONVENTIONS)
dims = st.integers(min_value=1, max_value=32).map(lambda half: 2 * half)  # even, 2..64
bases = st.floats(min_value=1.01, max_value=1e6)
positions = st.floats(min_value=-1e4, max_value=1e4)  # fractional and negative included
coordinates = st.floats(min_value=-10.0, max_value=10.0)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark slow every test under one of :data:`SLOW_DIRECTORIES` or using one of :data:`SLOW_FIXTURES`."""
    for item in items:
        marks: set[str] = set()
        path = Path(item.path).resolve()
        parts = path.relative_to(TESTS).parts if path.is_relative_to(TESTS) else ()
        if len(parts) > 1 and parts[0] in SLOW_DIRECTORIES:
            marks.update({"slow", *SLOW_DIRECTORIES[parts[0]]})
        for name in getattr(item, "fixturenames", ()):
            if name in SLOW_FIXTURES:
                marks.update({"slow", *SLOW_FIXTURES[name]})
        present = {mark.name for mark in item.iter_markers()}
        for name in sorted(marks - present):
            item.add_marker(name)


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


@pytest.fixture(scope="session")
def plain_kernel_run() -> Callable[[Path], tuple[object, dict[str, list[dict]]]]:
    """Run a chapter in a plain kernel once per test session; every test that needs the run reads this one.

    Calling it with a notebook's path returns what :func:`rope_viz.site.notebook_numbers.run_in_plain_kernel`
    returns (the executed notebook and its prose numbers), or raises what that run raised.
    """
    from rope_viz.site import notebook_numbers

    runs: dict[Path, tuple[object, dict[str, list[dict]]] | Exception] = {}

    def run(notebook_path: Path) -> tuple[object, dict[str, list[dict]]]:
        if notebook_path not in runs:
            try:
                runs[notebook_path] = notebook_numbers.run_in_plain_kernel(notebook_path, ROOT)
            except Exception as error:  # a chapter that fails fails every test that reads it, run once
                runs[notebook_path] = error
        outcome = runs[notebook_path]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    return run
