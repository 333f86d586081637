"""What a chapter notebook calls to show its content.

A demo in the right front end for where the notebook runs and a number glued into the prose
(:mod:`rope_viz.notebook.display`), and small Markdown tables of numbers from the math modules
(:mod:`rope_viz.notebook.tables`).

This layer sits above the front ends (``rope_viz.figures``, ``rope_viz.widgets``) and below the chapters.
"""

from __future__ import annotations

from rope_viz.notebook.display import SITE_ENVIRONMENT_VARIABLE, glue, on_site, show
from rope_viz.notebook.tables import markdown_table, wavelength_table

__all__ = ["SITE_ENVIRONMENT_VARIABLE", "glue", "markdown_table", "on_site", "show", "wavelength_table"]
