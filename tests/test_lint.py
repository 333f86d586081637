"""ruff's lint rules and formatting hold for the whole repository (the same check as ./dev.sh lint)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUFF = Path(sys.executable).parent / "ruff"


def test_ruff_check_passes():
    result = subprocess.run([str(RUFF), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]


def test_ruff_format_is_applied():
    result = subprocess.run([str(RUFF), "format", "--check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]
