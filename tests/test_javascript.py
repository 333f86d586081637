"""The course's own JavaScript passes ESLint (pinned in package.json; ./dev.sh installs it) and its unit tests
(tests/js/, node's own test runner), and decodes the payloads Python writes into the states it computed."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path

import pytest

import rope_viz.demos
from rope_viz.figures.static import build_payload

ROOT = Path(__file__).resolve().parents[1]
ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed: ./dev.sh test installs it (Debian's nodejs)")
    return node


def test_javascript_unit_tests_pass():
    result = subprocess.run(
        [_node(), "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    # The runner found the test files (it passes an empty folder too).
    assert "# pass " in result.stdout and "# pass 0" not in result.stdout


def _resolved(value, arrays):
    """Python's own reading of a payload's shared arrays, written independently of the script's."""
    if isinstance(value, dict) and set(value) == {"$ref"}:
        return arrays[value["$ref"]]
    if isinstance(value, list):
        return [_resolved(item, arrays) for item in value]
    if isinstance(value, dict):
        return {key: _resolved(item, arrays) for key, item in value.items()}
    return value


#: Demos of two and three sliders (78, 24 and 256 states), with shared arrays, a heatmap and explicit ticks.
DECODED_DEMOS = ("Rotation2D", "DecayBound", "PatchScoreMap")


def test_the_page_script_decodes_every_state_of_real_payloads():
    """For every combination of slider indices, the state the page script finds is the one Python computed
    for those control values (same readout), with every shared array resolved as Python resolves it."""
    demos = {cls.__name__: cls for cls in rope_viz.demos.all_demos()}
    chosen = [demos[name]() for name in DECODED_DEMOS if name in demos]
    assert len(chosen) == len(DECODED_DEMOS), sorted(demos)
    payloads = [build_payload(demo) for demo in chosen]
    result = subprocess.run(
        [_node(), "tests/js/decode_payloads.js"],
        cwd=ROOT,
        input=json.dumps(payloads),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    decoded = json.loads(result.stdout)
    for demo, payload, page in zip(chosen, payloads, decoded, strict=True):
        assert page["figure"] == _resolved(payload["figure"], payload["arrays"])
        assert page["texts"] == [control["texts"] for control in payload["controls"]]
        grids = [control.site_values for control in demo.controls]
        combinations = list(itertools.product(*(range(len(grid)) for grid in grids)))
        assert sorted(page["states"]) == sorted(",".join(map(str, c)) for c in combinations)
        keys = set()
        for combination in combinations:
            entry = page["states"][",".join(map(str, combination))]
            keys.add(entry["key"])
            values = {
                control.name: grid[index]
                for control, grid, index in zip(demo.controls, grids, combination, strict=True)
            }
            assert entry["state"]["r"] == demo.view(**values).readout, (type(demo).__name__, values)
            state = payload["states"][int(entry["key"])]
            assert entry["state"]["t"] == _resolved(state["t"], payload["arrays"])
            assert entry["state"]["l"] == _resolved(state["l"], payload["arrays"])
        assert len(keys) == len(combinations)


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
