"""The README's promises: its Python example runs, and .ci/run runs the README's test command."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_example_runs_and_prints_wavelengths():
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert blocks, "the README has a Python example"
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(blocks[0], "README.md", "exec"), {})
    printed = output.getvalue()
    assert "llama3" in printed and "'untouched'" in printed
    assert "6.3" in printed, "the first wavelength is 2*pi tokens"


def test_readme_opens_with_the_two_commands_and_ci_runs_the_test_one():
    commands = re.findall(r"^\./dev\.sh (\w+)", README, flags=re.M)
    assert commands[:2] == ["serve", "test"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^exec \./dev\.sh test\s*$", ci, flags=re.M)


def test_requirements_pin_python_and_install_the_package_for_binder():
    assert (ROOT / "runtime.txt").read_text().strip() == "python-3.11"
    requirements = (ROOT / "requirements.txt").read_text()
    assert ".[figures]" in requirements
    dev = (ROOT / "requirements-dev.txt").read_text()
    assert re.search(r"^jupyter-book==1\.", dev, flags=re.M), "the Sphinx line of Jupyter Book, not 2.x"
