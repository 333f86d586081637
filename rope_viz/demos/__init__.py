"""Interactive demos, each defined once: controls, a base figure and a pure ``view`` function."""

from rope_viz.demos.base import Control, Demo, View
from rope_viz.demos.clocks import MultiSpeedClocks

__all__ = ["Control", "Demo", "MultiSpeedClocks", "View"]
