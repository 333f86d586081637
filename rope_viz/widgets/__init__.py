"""Live front end for Jupyter, Binder and Colab: ipywidgets sliders over a Plotly FigureWidget."""

from rope_viz.widgets.live import LiveDemo, live_widget

__all__ = ["LiveDemo", "live_widget"]
