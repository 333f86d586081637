"""Show a demo the right way for where the notebook runs.

On the published site (the book build sets ``ROPE_VIZ_SITE=1`` before it executes the notebooks) a demo
becomes a kernel-free figure with precomputed slider states; anywhere else (Jupyter, Binder, Colab) it becomes
live ipywidgets sliders. A reader of the site never meets a slider that needs a kernel.
"""

from __future__ import annotations

import os
from typing import Literal

from rope_viz.demos.base import Demo

#: Environment variable that selects the site front end.
SITE_ENVIRONMENT_VARIABLE = "ROPE_VIZ_SITE"


def on_site() -> bool:
    """Return True while the book build executes the notebooks."""
    return os.environ.get(SITE_ENVIRONMENT_VARIABLE, "") == "1"


def show(demo: Demo, mode: Literal["auto", "site", "live"] = "auto"):
    """Return the front end of ``demo`` to display: ``SiteFigure`` on the site, ``LiveDemo`` elsewhere.

    Parameters
    ----------
    demo : Demo
        The demo.
    mode : {"auto", "site", "live"}
        ``"auto"`` picks by :func:`on_site`.

    """
    if mode not in ("auto", "site", "live"):
        raise ValueError(f"mode must be one of 'auto', 'site', 'live', got {mode!r}")
    if mode == "site" or (mode == "auto" and on_site()):
        from rope_viz.figures import site_figure

        return site_figure(demo)
    from rope_viz.widgets import live_widget

    return live_widget(demo)


def glue(name: str, value: object) -> None:
    """Make ``value`` available to the page's prose as ``{glue:md}`name```, computed at build time.

    Strings are glued as Markdown, so they appear inline without quotes. Outside the book build (where
    ``myst_nb`` may not be installed) this does nothing: the notebook's own outputs show the numbers.
    """
    try:
        from myst_nb import glue as myst_glue
    except ImportError:
        return
    if isinstance(value, str):
        from IPython.display import Markdown

        value = Markdown(value)
    myst_glue(name, value, display=False)
