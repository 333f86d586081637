"""rope_viz.extension is a package of one module per question; its __init__ re-exports every public name.

Chapters 06 and 07 write ``from rope_viz import extension as ext`` and the demos ``from rope_viz.extension
import ...``; both must keep working whichever module a function lives in.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

from rope_viz import extension

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(info.name for info in pkgutil.iter_modules(extension.__path__))

#: The public names of rope_viz.extension before it became a package; none may go missing.
PUBLIC_NAMES = [
    "COMPARED_METHODS",
    "TWO_PI",
    "UNSEEN_RTOL",
    "compare_methods",
    "config_from_text",
    "context_arcs",
    "dynamic_paper_scale",
    "first_partial_pair",
    "neighbour_angles",
    "scaled_relative_scores",
    "scaling_from_text",
    "scaling_summary",
    "turns",
    "unseen_angles",
    "window_averaged_scores",
    "yarn_paper_frequencies",
    "yarn_paper_ramp",
]


def test_the_package_exports_the_names_it_always_had():
    assert extension.__all__ == PUBLIC_NAMES
    namespace: dict = {}
    exec("from rope_viz.extension import *", namespace)  # what a notebook's star import would see
    assert sorted(name for name in namespace if not name.startswith("__")) == sorted(PUBLIC_NAMES)


@pytest.mark.parametrize("module_name", MODULES)
def test_each_module_exports_only_what_it_defines_and_the_package_passes_it_on(module_name):
    module = importlib.import_module(f"rope_viz.extension.{module_name}")
    assert module.__all__, module_name
    for name in module.__all__:
        value = getattr(module, name)
        assert getattr(extension, name) is value
        if callable(value):
            assert value.__module__ == module.__name__, f"{name} is re-exported by {module_name}"


def test_every_public_name_has_exactly_one_home():
    homes = {}
    for module_name in MODULES:
        for name in importlib.import_module(f"rope_viz.extension.{module_name}").__all__:
            homes.setdefault(name, []).append(module_name)
    assert sorted(homes) == sorted(PUBLIC_NAMES)
    assert all(len(places) == 1 for places in homes.values()), homes


@pytest.mark.parametrize("module_name", MODULES)
def test_modules_import_numpy_and_rope_viz_math_only(module_name):
    tree = ast.parse((ROOT / "rope_viz" / "extension" / f"{module_name}.py").read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported <= {"__future__", "collections", "json", "math", "numpy", "rope_viz"}, imported
