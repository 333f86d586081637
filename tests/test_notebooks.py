"""The chapter notebooks: committed clean, set up for Colab from the one repository URL, written to the
chapter template, and executable in a plain Jupyter kernel (the live-widget path; the site build runs the
other; the kernel run is the session's one, ``plain_kernel_run`` in tests/conftest.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rope_viz.site.notebook_setup import SETUP_TAG, repository_url, setup_cell_source

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
TEMPLATE_HEADINGS = ("What you'll learn", "What you need first", "Common mistake", "Exercises", "References")


@pytest.fixture(params=NOTEBOOKS, ids=lambda path: path.stem)
def notebook_path(request) -> Path:
    return request.param


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def test_there_are_chapters():
    assert NOTEBOOKS


def test_notebook_is_committed_without_outputs(notebook_path):
    for cell in _cells(notebook_path):
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [], f"{notebook_path.name}: a cell has outputs"
            assert cell["execution_count"] is None


def test_first_cell_installs_the_package_in_colab_from_the_configured_repository(notebook_path):
    first = _cells(notebook_path)[0]
    assert SETUP_TAG in first["metadata"]["tags"] and "remove-cell" in first["metadata"]["tags"]
    expected = setup_cell_source(repository_url(ROOT / "_config.yml"))
    assert "".join(first["source"]) == expected, "run: python -m rope_viz.site.notebook_setup"


def test_chapter_follows_the_template(notebook_path):
    cells = _cells(notebook_path)
    markdown = "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
    for heading in TEMPLATE_HEADINGS:
        assert heading.lower() in markdown.lower(), f"{notebook_path.name} lacks '{heading}'"
    code = "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")
    assert "show(" in code, "every chapter has at least one interactive figure"
    assert "{bibliography}" in markdown and ":list: bullet" in markdown


def test_references_name_labels_of_their_own_chapter(notebook_path):
    """JupyterLab's MyST renderer (jupyterlab-myst, on Binder) resolves a ``{ref}`` only to a label of the
    same notebook and logs a console error for any other; a link to another chapter is a Markdown link to its
    file."""
    markdown = "\n".join(
        "".join(cell["source"]) for cell in _cells(notebook_path) if cell["cell_type"] == "markdown"
    )
    labels = set(re.findall(r"^\(([\w-]+)\)=$", markdown, flags=re.MULTILINE))
    targets = [
        match.group(1) or match.group(2)
        for match in re.finditer(r"\{ref\}`(?:[^`<]*<([^`>]+)>|([^`<]+))`", markdown)
    ]
    elsewhere = sorted({target.strip() for target in targets} - labels)
    assert elsewhere == [], f"{notebook_path.name}: {{ref}} to labels of other notebooks: {elsewhere}"


def test_exercise_solutions_are_hidden_on_the_site_and_in_jupyter(notebook_path):
    cells = _cells(notebook_path)
    solutions = [cell for cell in cells if "".join(cell["source"]).lstrip().startswith("# Solution")]
    assert solutions, f"{notebook_path.name} has no solution cells"
    for cell in solutions:
        assert "hide-cell" in cell["metadata"].get("tags", [])
        assert cell["metadata"].get("jupyter", {}).get("source_hidden") is True


def test_notebook_runs_in_a_plain_kernel_with_live_widgets(notebook_path, plain_kernel_run):
    notebook, _ = plain_kernel_run(notebook_path)
    widget_views = sum(
        1
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if "application/vnd.jupyter.widget-view+json" in output.get("data", {})
    )
    assert widget_views >= 1, "the live notebook shows its figures as widgets"
