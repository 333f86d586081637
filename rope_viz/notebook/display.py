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
    """Make ``value`` the number the prose shows as ``{eval}`name```, wherever the notebook is read.

    Two things happen:

    * ``name`` is bound in the notebook's namespace to the text of ``value`` (``value`` itself if it is a
      string, else ``str(value)``). JupyterLab with jupyterlab-myst (what Binder runs) evaluates
      ``{eval}`name``` in the kernel when the Markdown cell runs, and shows that text. A name that the
      notebook already uses for a variable of its own is refused (``ValueError``) rather than overwritten.
    * During the book build, where ``myst_nb`` is installed, ``value`` is glued under ``name`` (strings as
      Markdown, so that they appear inline without quotes); the site's ``{eval}`name``` role, and myst-nb's
      ``{glue:text}`` from other pages, paste it.

    Outside IPython and without ``myst_nb`` this does nothing.
    """
    if not name.isidentifier():
        raise ValueError(f"glue names are Python identifiers, got {name!r}")
    text = value if isinstance(value, str) else str(value)
    try:
        from IPython import get_ipython
    except ImportError:
        shell = None
    else:
        shell = get_ipython()
    if shell is not None:
        namespace = shell.user_ns
        glued = namespace.setdefault("_rope_viz_glued", set())
        if name in namespace and name not in glued:
            raise ValueError(f"glue({name!r}, ...) would overwrite the notebook's variable {name!r}")
        namespace[name] = text
        glued.add(name)
    try:
        from myst_nb import glue as myst_glue
    except ImportError:
        return
    if isinstance(value, str):
        from IPython.display import Markdown

        value = Markdown(value)
    myst_glue(name, value, display=False)
