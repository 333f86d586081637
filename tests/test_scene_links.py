"""Scene links in the text (``rope_viz.figures.scene_links``): each names a figure of its own chapter and one
of that figure's scenes, and every figure of every chapter is reached by at least one from the prose.

The browser side (a click shows the scene; a page opened at such an address shows it) is checked on the built
site by ``tests/site/test_browser.py``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import rope_viz.demos
from rope_viz.figures import scene_links
from rope_viz.figures.scene_links import SceneLink, broken_scene_links, figure_key, scene_href, scene_link

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
DEMOS = {cls.__name__: cls for cls in rope_viz.demos.all_demos()}
#: A figure cell of a chapter: ``show(SomeDemo())``.
SHOWN = re.compile(r"\bshow\((\w+)\(\)\)")


def _chapter(path: Path) -> tuple[str, list[rope_viz.demos.Demo]]:
    """The Markdown of a chapter and the demos its code cells show, in order."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    markdown = "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
    code = "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")
    return markdown, [DEMOS[name]() for name in SHOWN.findall(code)]


@pytest.fixture(params=NOTEBOOKS, ids=lambda path: path.stem)
def chapter(request) -> tuple[str, list[rope_viz.demos.Demo]]:
    return _chapter(request.param)


def test_every_scene_link_names_a_figure_of_its_chapter_and_one_of_its_scenes(chapter):
    markdown, demos = chapter
    assert demos, "a chapter shows at least one figure"
    assert broken_scene_links(markdown, demos) == []


def test_every_figure_of_a_chapter_is_reached_from_its_text(chapter):
    markdown, demos = chapter
    linked = {link.href.split(":")[1] for link in scene_links.scene_links(markdown)}
    missing = [type(demo).__name__ for demo in demos if figure_key(demo) not in linked]
    assert missing == [], f"no scene link in the text to {missing}"


def test_no_chapter_shows_two_figures_with_one_key():
    """Two figures of one page with the same key would make their links ambiguous."""
    for path in NOTEBOOKS:
        keys = [figure_key(demo) for demo in _chapter(path)[1]]
        assert len(keys) == len(set(keys)), path.stem


def test_a_link_is_written_for_a_scene_and_refused_for_a_scene_the_demo_lacks():
    demo = rope_viz.demos.MultiSpeedClocks()
    scene = demo.scenes[-1]
    link = scene_link(demo, scene.name)
    assert scene_links.scene_links(link) == [SceneLink(href=scene_href(demo, scene.name), text=scene.name)]
    assert broken_scene_links(link, [demo]) == []
    with pytest.raises(ValueError, match="no scene 'no such scene'"):
        scene_href(demo, "no such scene")


def test_broken_links_are_each_named():
    demo = rope_viz.demos.MultiSpeedClocks()
    key = figure_key(demo)
    text = (
        f'<a href="#scene:{key}:nothing">a</a> <a href="#scene:other-figure:x">b</a> '
        f'<a href="#scene:{key}">c</a> <a href="{scene_href(demo, demo.scenes[0].name)}">d</a>'
    )
    problems = broken_scene_links(text, [demo])
    assert len(problems) == 3
    assert "no scene 'nothing'" in problems[0]
    assert "no figure 'other-figure'" in problems[1]
    assert "not of the form" in problems[2]


def test_the_figure_script_makes_the_same_slugs_of_every_title_and_scene_name():
    """A link written here must find its figure and scene in the browser: same slugs on both sides."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed; run ./dev.sh test, which installs it")
    texts = [demo_class().title for demo_class in DEMOS.values()]
    texts += [scene.name for demo_class in DEMOS.values() for scene in demo_class().scenes]
    texts += ["Shift invariance: q·k depends on m − n", "  ", "θ", "a--b__c"]
    result = subprocess.run(
        [node, "tests/js/slugs.js"],
        cwd=ROOT,
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout) == [scene_links.slug(text) for text in texts]
