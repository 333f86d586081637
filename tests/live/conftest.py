"""Fixtures for the live-notebook tests: the Binder-like venv and one Jupyter server at a time.

Chromium is the session's shared ``browser`` fixture (``tests/conftest.py``).

Environment variables (all optional):

``ROPE_VIZ_LIVE_VENV``
    Use this existing venv (with ``jupyterlab``, ``notebook`` and the course package) instead of building
    ``.venv-binder`` with ``tests/live/make_env.py``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live import jupyter_client

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "live"
BINDER_VENV = ROOT / ".venv-binder"
MAKE_ENV = Path(__file__).resolve().parent / "make_env.py"

#: The front ends every chapter is opened in.
FRONTENDS: tuple[jupyter_client.Frontend, ...] = ("jupyterlab", "notebook7")


@pytest.fixture(scope="session", autouse=True)
def _fresh_artifacts() -> None:
    """Start each session with an empty ``test-artifacts/live`` (no numbers from an earlier run linger)."""
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)


@pytest.fixture(scope="session")
def live_venv() -> Path:
    """The venv the server and kernels run from: built as Binder builds it. Failing to build it fails."""
    override = os.environ.get("ROPE_VIZ_LIVE_VENV")
    if override:
        venv = Path(override)
        if not (venv / "bin" / "jupyter").exists():
            pytest.fail(f"ROPE_VIZ_LIVE_VENV={override} is not a venv with jupyter installed")
        return venv
    if not MAKE_ENV.exists():
        pytest.fail(
            f"{MAKE_ENV.relative_to(ROOT)} is missing: it builds the Binder-like venv these tests need"
        )
    from tests.live import make_env

    python = "python3.11" if shutil.which("python3.11") else sys.executable
    try:
        make_env.make_env(BINDER_VENV, "binder", ROOT / "requirements.txt", python)
    except (subprocess.CalledProcessError, OSError) as error:
        pytest.fail(f"could not build {BINDER_VENV.name} with make_env.py (stack binder): {error}")
    return BINDER_VENV


@pytest.fixture(scope="module", params=FRONTENDS)
def jupyter(request: pytest.FixtureRequest, live_venv: Path) -> Iterator[jupyter_client.JupyterServer]:
    """A Jupyter server (JupyterLab, then Notebook 7) over a copy of the notebooks; one at a time."""
    try:
        server = jupyter_client.start_server(live_venv, request.param, ROOT / "notebooks")
    except RuntimeError as error:
        pytest.fail(f"the {request.param} server did not start: {error}")
    try:
        yield server
    finally:
        server.stop()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copy2(server.log_path, ARTIFACTS / f"server-{request.param}.log")
        shutil.rmtree(server.home, ignore_errors=True)


def record_artifact(name: str, key: str, value: Any) -> None:
    """Store ``value`` under ``key`` in ``test-artifacts/live/<name>`` (a JSON object shared by the tests).

    Parameters
    ----------
    name : str
        File name, e.g. ``"latency.json"``.
    key : str
        E.g. ``"jupyterlab/02_rotation_2d"``.
    value : object
        JSON-serialisable.

    """
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    data[key] = value
    path.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
