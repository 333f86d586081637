"""Live front end for Jupyter, Binder and Colab: the site's figures, with their states from the kernel."""

from rope_viz.widgets.library import FigureLibrary, figure_library
from rope_viz.widgets.live import LiveFigure, live_values, live_widget

__all__ = ["FigureLibrary", "LiveFigure", "figure_library", "live_values", "live_widget"]
