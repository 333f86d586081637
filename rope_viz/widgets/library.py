"""The figure library of the live widgets: plotly.js and the site's drawing code, sent once per kernel.

Every live figure (:class:`rope_viz.widgets.live.LiveFigure`) draws with the same scripts as the course
site: the bundle of plotly.js that the site serves, the canvas layers, the direct SVG drawing and
the slider wiring (:data:`rope_viz.site.sphinx_ext.FIGURE_ASSETS`). Sending them with every figure would move
megabytes over the kernel's websocket for each one; instead they travel once, as the front-end module of one
shared widget, :func:`figure_library`, that every figure refers to. Its module runs when the widget's model is
created in the browser and puts the scripts on the page; the figures wait for it.
"""

from __future__ import annotations

import functools
import hashlib

import anywidget
import traitlets

from rope_viz.site.sphinx_ext import FIGURE_ASSETS, STATIC_DIRECTORY, plotly_js_path

#: The module around the scripts. A kernel restart, or a second notebook on the same page, creates a new
#: library widget, whose module runs again; the scripts run only if the page does not hold them yet (the same
#: key: a hash of their text), so figures already drawn keep their plotly.js and new ones share it. Figures
#: wait for ``registry.figures`` (see ``rope-viz-live.js``).
_MODULE = """
const LIBRARY_KEY = "{key}";
const registry = (globalThis.__ropeVizLibrary ??= {{}});
if (registry.key !== LIBRARY_KEY) {{
  (function () {{
{scripts}
  }}).call(globalThis);
  registry.key = LIBRARY_KEY;
  registry.figures = window.RopeVizFigures;
  if (registry.resolve) {{ registry.resolve(registry.figures); }}
}}
export default {{ initialize() {{}} }};
"""

#: Styles of the live figures in JupyterLab, Notebook 7 and Colab, on top of the site's figure styles.
LIVE_CSS = """
figure.rope-viz-live {
  color: var(--jp-content-font-color1, inherit);
  border-color: var(--jp-border-color2, #d0d7de);
  font-family: var(--jp-ui-font-family, system-ui, sans-serif);
}
figure.rope-viz-live .rope-viz-status:empty { display: none; }
figure.rope-viz-live .rope-viz-status { color: var(--jp-warn-color0, #9a6700); font-weight: 600; }
"""


@functools.cache
def library_module() -> str:
    """Return the library's front-end module: plotly.js and the figure scripts in load order, run once."""
    scripts = [plotly_js_path().read_text(encoding="utf-8")]
    scripts += [
        (STATIC_DIRECTORY / name).read_text(encoding="utf-8")
        for name in FIGURE_ASSETS
        if name.endswith(".js")
    ]
    text = "\n;\n".join(scripts)
    key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return _MODULE.format(key=key, scripts=text)


@functools.cache
def library_styles() -> str:
    """Return the figure styles of the site followed by :data:`LIVE_CSS`."""
    styles = [
        (STATIC_DIRECTORY / name).read_text(encoding="utf-8")
        for name in FIGURE_ASSETS
        if name.endswith(".css")
    ]
    return "\n".join([*styles, LIVE_CSS])


class FigureLibrary(anywidget.AnyWidget):
    """The widget that carries plotly.js and the figure scripts to the browser; never displayed itself."""

    _esm = traitlets.Unicode().tag(sync=True)
    _css = traitlets.Unicode().tag(sync=True)

    def __init__(self) -> None:
        super().__init__(_esm=library_module(), _css=library_styles())


_shared: FigureLibrary | None = None


def figure_library() -> FigureLibrary:
    """Return this kernel's one :class:`FigureLibrary`, creating it on first use."""
    global _shared
    if _shared is None or _shared.comm is None:
        _shared = FigureLibrary()
    return _shared
