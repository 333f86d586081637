"""The numbers of a chapter's prose, stored in its Markdown cells for JupyterLab to show before anything runs.

A chapter writes a computed number in its prose as ``{eval}`name```, where a code cell of the same notebook
calls ``glue("name", text)`` (:func:`rope_viz.notebook.glue`). JupyterLab with jupyterlab-myst (what Binder
runs) evaluates each ``{eval}`` expression in the kernel when its Markdown cell runs and keeps the results in
the cell's ``user_expressions`` metadata; it shows the results stored there as soon as the notebook opens, and
jupyterlab-myst 2.4 shows a freshly run cell with the results it had before that run. So the notebooks are
committed with these results already in place: a reader sees every number at once, and Run All recomputes the
same ones.

``python -m rope_viz.site.notebook_numbers`` runs every chapter in a plain kernel and rewrites that metadata
(run it after changing a number or the code behind it); ``tests/test_reading_in_jupyter.py`` fails when the
stored numbers differ from what the chapter computes. The course site ignores this metadata: its numbers come
from the build's own run of each notebook.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rope_viz.site.notebook_setup import write_notebook

if TYPE_CHECKING:
    from nbformat import NotebookNode

#: Key of the Markdown cell metadata that jupyterlab-myst reads and writes.
METADATA_KEY = "user_expressions"
#: An inline expression of MyST: ``{eval}`expression```.
EVAL_ROLE = re.compile(r"\{eval\}`([^`]+)`")
_MARKER = "ROPE_VIZ_USER_EXPRESSIONS:"


def expressions(markdown: str) -> list[str]:
    """Return the ``{eval}`` expressions of a Markdown cell in order, repeats included."""
    return EVAL_ROLE.findall(markdown)


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def stored_numbers(notebook: dict) -> dict[str, list[dict]]:
    """``user_expressions`` metadata of every Markdown cell that has some, by cell id."""
    return {
        cell["id"]: cell["metadata"][METADATA_KEY]
        for cell in notebook["cells"]
        if cell["cell_type"] == "markdown" and METADATA_KEY in cell.get("metadata", {})
    }


def run_in_plain_kernel(
    notebook_path: Path, root: Path, timeout: int = 600
) -> tuple[NotebookNode, dict[str, list[dict]]]:
    """Run the notebook in a plain kernel and evaluate every ``{eval}`` expression as jupyterlab-myst does.

    The kernel runs without ``ROPE_VIZ_SITE``, so the figures are live widgets, as in Jupyter.

    Returns the executed notebook (an ``nbformat`` notebook with its outputs) and the ``user_expressions``
    metadata due for every Markdown cell with expressions, by cell id: a list of ``{"expression": ...,
    "result": ...}``, the result being the kernel's reply to the expression (a MIME bundle with ``"status":
    "ok"``, or the error).
    """
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(notebook_path, as_version=4)
    wanted = {
        cell.id: expressions(cell.source)
        for cell in notebook.cells
        if cell.cell_type == "markdown" and expressions(cell.source)
    }
    unique = sorted({expression for exprs in wanted.values() for expression in exprs})
    probe = (
        "import json as _json\n"
        f"print({_MARKER!r} + _json.dumps(get_ipython().user_expressions("
        f"{{_e: _e for _e in {unique!r}}})))"
    )
    notebook.cells.append(nbformat.v4.new_code_cell(probe))
    environment = {key: value for key, value in os.environ.items() if key != "ROPE_VIZ_SITE"}
    client = NotebookClient(
        notebook, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(root)}}
    )
    client.execute(env=environment)
    probe_cell = notebook.cells.pop()
    text = "".join(output.get("text", "") for output in probe_cell.outputs if output.get("name") == "stdout")
    results = json.loads(text.split(_MARKER, 1)[1])
    numbers = {
        cell_id: [{"expression": expression, "result": results[expression]} for expression in exprs]
        for cell_id, exprs in wanted.items()
    }
    return notebook, numbers


def compute_numbers(notebook_path: Path, root: Path, timeout: int = 600) -> dict[str, list[dict]]:
    """Return the ``user_expressions`` metadata due for every Markdown cell (:func:`run_in_plain_kernel`)."""
    return run_in_plain_kernel(notebook_path, root, timeout)[1]


def write_numbers(notebook_path: Path, numbers: dict[str, list[dict]]) -> bool:
    """Store ``numbers`` in the Markdown cells of ``notebook_path``, dropping stale ones; True if changed."""
    text = Path(notebook_path).read_text(encoding="utf-8")
    notebook = json.loads(text)
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        metadata = cell.setdefault("metadata", {})
        due = numbers.get(cell.get("id"))
        if due and [item["expression"] for item in due] == expressions(_source(cell)):
            metadata[METADATA_KEY] = due
        else:
            metadata.pop(METADATA_KEY, None)
    return write_notebook(notebook_path, notebook, text)


def main(root: Path = Path()) -> int:
    """Recompute and store the prose numbers of every notebook under ``root / "notebooks"``."""
    for path in sorted((root / "notebooks").glob("*.ipynb")):
        numbers = compute_numbers(path, root.resolve())
        if write_numbers(path, numbers):
            print(f"updated {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
