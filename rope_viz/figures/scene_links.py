"""Links from the text of a page to a scene of one of its figures.

A chapter's prose names a scene of a figure with a plain HTML link, which reads the same on the site and in
JupyterLab::

    <a href="#scene:multi-speed-clocks:raise-the-base">raise the base</a>

``multi-speed-clocks`` is the figure's key (its title as a slug, as the figure script names the figure in the
page URL) and ``raise-the-base`` the scene's name as a slug. The figure script (``rope-viz-figures.js``)
shows that scene when the link is clicked, or when a page opens with such an address, e.g.
``03_multi_speed_clocks.html#scene:multi-speed-clocks:raise-the-base``. This module writes such links and
finds the ones in a text that name no figure or no scene (``tests/test_scene_links.py`` checks every chapter).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass

from rope_viz.demos.base import Demo

#: The address of a scene link: ``#scene:`` figure key ``:`` scene slug.
SCENE_HREF = re.compile(r"#scene:([a-z0-9-]+):([a-z0-9-]+)")
#: A scene link in a text, with its address and its words.
SCENE_LINK = re.compile(r'<a href="(#scene:[^"]*)">(.*?)</a>', re.DOTALL)


def slug(text: str) -> str:
    """Return ``text`` in lower case with every run of other characters than ``a-z0-9`` as one ``-``.

    The figure script's ``slug`` does the same, so that a link written here finds its figure there.

    Examples
    --------
    >>> slug("Raise the base")
    'raise-the-base'
    >>> slug("Shift invariance: q·k depends on m − n")
    'shift-invariance-q-k-depends-on-m-n'

    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def figure_key(demo: Demo) -> str:
    """Return the key of the demo's figure on a page: its title as a slug (``"figure"`` if it has none).

    Two figures of one page with the same title get ``-2``, ``-3``, ... in page order in the figure script;
    the course's chapters show no title twice.
    """
    return slug(demo.title) or "figure"


def scene_href(demo: Demo, scene_name: str) -> str:
    """Return the address that shows scene ``scene_name`` of ``demo``'s figure: ``#scene:FIGURE:SCENE``.

    Raises ``ValueError`` naming the demo's scenes if it has no scene of that name.
    """
    names = [scene.name for scene in demo.scenes]
    if scene_name not in names:
        raise ValueError(f"{type(demo).__name__} has no scene {scene_name!r}; its scenes are {names}")
    return f"#scene:{figure_key(demo)}:{slug(scene_name)}"


def scene_link(demo: Demo, scene_name: str, text: str | None = None) -> str:
    """Return the HTML link to scene ``scene_name`` of ``demo``'s figure.

    The link reads ``text``, or the scene's name if ``text`` is not given.
    """
    return f'<a href="{scene_href(demo, scene_name)}">{html.escape(text or scene_name)}</a>'


@dataclass(frozen=True)
class SceneLink:
    """A scene link found in a text: its address and its words."""

    href: str
    text: str


def scene_links(text: str) -> list[SceneLink]:
    """Return every scene link of ``text`` (HTML or Markdown holding HTML links), in order."""
    return [SceneLink(href=match.group(1), text=match.group(2)) for match in SCENE_LINK.finditer(text)]


def broken_scene_links(text: str, demos: Iterable[Demo]) -> list[str]:
    """Return what is wrong with the scene links of ``text``, whose page shows the figures of ``demos``.

    A link is wrong when its address is not of the form ``#scene:FIGURE:SCENE``, when no demo of the page
    has the key FIGURE, or when that demo has no scene whose name's slug is SCENE. Each problem is one line
    naming the link.
    """
    scenes_by_key: dict[str, list[str]] = {}
    for demo in demos:
        scenes_by_key.setdefault(figure_key(demo), []).extend(slug(scene.name) for scene in demo.scenes)
    problems = []
    for link in scene_links(text):
        match = SCENE_HREF.fullmatch(link.href)
        if match is None:
            problems.append(f"{link.href!r} ({link.text!r}) is not of the form #scene:FIGURE:SCENE")
        elif match.group(1) not in scenes_by_key:
            problems.append(
                f"{link.href!r} ({link.text!r}): no figure {match.group(1)!r} here; the figures are "
                f"{sorted(scenes_by_key)}"
            )
        elif match.group(2) not in scenes_by_key[match.group(1)]:
            problems.append(
                f"{link.href!r} ({link.text!r}): the figure has no scene {match.group(2)!r}; its scenes are "
                f"{scenes_by_key[match.group(1)]}"
            )
    return problems
