"""Kernel-free front end for the static site: every slider state precomputed at build time."""

from rope_viz.figures.static import SiteFigure, build_payload, site_figure

__all__ = ["SiteFigure", "build_payload", "site_figure"]
