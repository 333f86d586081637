"""The first cell of every chapter notebook: in Colab, install the course package.

Colab shows third-party widgets only through its custom widget manager. The cell does not turn it on: the live
figures are anywidgets, and anywidget (0.11) turns the manager on itself when the first widget is created in
Colab (``anywidget.AnyWidget.__init__`` calls ``google.colab.output.enable_custom_widget_manager``), which
``tests/test_reading_in_jupyter.py`` checks.

The repository URL lives in one place, ``_config.yml`` (``repository.url``). This module renders the setup
cell from it; ``python -m rope_viz.site.notebook_setup`` rewrites the cell in every notebook, and the test
suite fails if a notebook's cell differs from what this module renders.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SETUP_TAG = "colab-setup"

_TEMPLATE = """\
# Colab only: install the course package with its figures.
# (Binder and local installs have it; the course site hides this cell.)
import sys

if "google.colab" in sys.modules:
    %pip install --quiet "rope-viz[figures] @ git+{url}"
"""


def repository_url(config_path: Path) -> str:
    """``repository.url`` from the book's ``_config.yml``."""
    import yaml

    config = yaml.safe_load(Path(config_path).read_text(encoding="utf-8"))
    try:
        url = config["repository"]["url"]
    except (KeyError, TypeError) as error:
        raise ValueError(f"{config_path} has no repository.url") from error
    return str(url).rstrip("/")


def setup_cell_source(url: str) -> str:
    """Source of the setup cell for the repository at ``url``."""
    return _TEMPLATE.format(url=url).rstrip("\n")


def setup_cell(url: str) -> dict:
    """Return the setup cell as notebook JSON, tagged so that the site removes it but still runs it."""
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": SETUP_TAG,
        "metadata": {"tags": ["remove-cell", SETUP_TAG]},
        "outputs": [],
        "source": setup_cell_source(url).splitlines(keepends=True),
    }


def sync(notebook_path: Path, url: str) -> bool:
    """Make the first cell of ``notebook_path`` the setup cell; return True if the file changed."""
    text = Path(notebook_path).read_text(encoding="utf-8")
    notebook = json.loads(text)
    cells = notebook["cells"]
    cell = setup_cell(url)
    if cells and SETUP_TAG in cells[0].get("metadata", {}).get("tags", []):
        cells[0] = cell
    else:
        cells.insert(0, cell)
    return write_notebook(notebook_path, notebook, text)


def write_notebook(notebook_path: Path, notebook: dict, text: str) -> bool:
    """Write ``notebook`` as the repository formats notebooks, unless that is ``text`` already.

    Returns whether the file changed.
    """
    new_text = json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
    if new_text == text:
        return False
    Path(notebook_path).write_text(new_text, encoding="utf-8")
    return True


def main(root: Path = Path()) -> int:
    """Rewrite the setup cell of every notebook under ``root / "notebooks"``."""
    url = repository_url(root / "_config.yml")
    for path in sorted((root / "notebooks").glob("*.ipynb")):
        if sync(path, url):
            print(f"updated {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
