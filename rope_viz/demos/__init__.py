"""Interactive demos, each defined once: controls, a base figure and a pure ``view`` function."""

from __future__ import annotations

import importlib
import pkgutil

from rope_viz.demos.base import Control, Demo, Scene, View, check_scenes
from rope_viz.demos.clocks import MultiSpeedClocks


def all_demos() -> list[type[Demo]]:
    """Return every concrete demo class defined in this package's modules, sorted by name."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    found: set[type[Demo]] = set()
    stack = list(Demo.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if not getattr(cls, "__abstractmethods__", None) and cls.__module__.startswith(f"{__name__}."):
            found.add(cls)
    return sorted(found, key=lambda cls: cls.__name__)


__all__ = ["Control", "Demo", "MultiSpeedClocks", "Scene", "View", "all_demos", "check_scenes"]
