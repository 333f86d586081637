"""The course's own JavaScript passes ESLint (pinned in package.json; ./dev.sh installs it)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


def test_eslint_passes():
    if shutil.which("node") is None or not ESLINT.exists():
        pytest.fail("ESLint is not installed: ./dev.sh test installs it (npm ci, from package-lock.json)")
    result = subprocess.run(
        [str(ESLINT), "--max-warnings", "0", "."], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_eslint_sees_every_script_of_ours():
    """Every .js file we wrote is linted; only the minified plotly.js bundle is left out."""
    if not ESLINT.exists():
        pytest.fail("ESLint is not installed: ./dev.sh test installs it (npm ci, from package-lock.json)")
    ours = sorted(
        str(path.relative_to(ROOT))
        for folder in ("rope_viz/site/static", "rope_viz/widgets/static")
        for path in (ROOT / folder).glob("*.js")
        if not path.name.endswith(".min.js")
    )
    assert ours
    result = subprocess.run(
        [str(ESLINT), "--format", "json", *ours], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    linted = sorted(str(Path(entry["filePath"]).relative_to(ROOT)) for entry in json.loads(result.stdout))
    assert linted == ours
