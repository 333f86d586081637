"""Every figure keeps its slider state in the page URL: a moved slider shows up in the URL (without a history
entry per step), the URL restores every figure exactly, a value between steps snaps to the nearer one, a
malformed value leaves the defaults, and each figure's "copy link" button copies a link to its view."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from rope_viz.demos import MultiSpeedClocks
from rope_viz.figures.scene_links import scene_href
from tests.site.conftest import settle_figures, wait_for_figures

pytestmark = pytest.mark.browser

#: Each figure's slider values, drawn state, readout and URL parameter name.
FIGURE_STATES = """
() => [...document.querySelectorAll('figure.rope-viz-demo')].map((figure, index, all) => ({
  values: [...figure.querySelectorAll('input[type=range]')].map(input => Number(input.value)),
  state: figure.dataset.state,
  readout: figure.querySelector('.rope-viz-readout').textContent,
}))
"""

#: The URL parameter names of the page's figures, as the page script gives them.
FIGURE_KEYS = """
() => {
  const taken = [];
  return [...document.querySelectorAll('figure.rope-viz-demo')].map(figure => {
    const title = JSON.parse(figure.querySelector('script.rope-viz-payload').textContent).title;
    const key = RopeVizFigures.figureKey(title, taken);
    taken.push(key);
    return key;
  });
}
"""


def _move_every_figure(page) -> None:
    """Move the first slider of every figure to the end furthest from where it is."""
    figures = page.locator("figure.rope-viz-demo")
    for index in range(figures.count()):
        slider = figures.nth(index).locator("input[type=range]").first
        value, maximum = int(slider.input_value()), int(slider.get_attribute("max"))
        slider.fill(str(maximum if maximum - value >= value else 0))
    page.wait_for_timeout(600)  # the URL is written once the sliders rest


def test_the_url_restores_every_figure_of_every_chapter(built_site, open_page, subtests):
    for relative in built_site.relative_pages():
        if not relative.startswith("notebooks/"):
            continue
        with subtests.test("moved sliders, reloaded from the URL", page=relative):
            page, problems, _ = open_page(relative)
            wait_for_figures(page, settled=True)
            history = page.evaluate("() => history.length")
            # Every figure's buttons under its readout in one order: Present, then the link to this view.
            buttons = page.evaluate(
                """() => [...document.querySelectorAll('figure.rope-viz-demo')].map(f =>
                    [...f.querySelectorAll('.rope-viz-present, .rope-viz-link')].map(row => row.className))"""
            )
            in_order = all(rows == ["rope-viz-present", "rope-viz-link"] for rows in buttons)
            assert in_order, f"{relative}: {buttons}"
            _move_every_figure(page)
            settle_figures(page)
            moved = page.evaluate(FIGURE_STATES)
            url = page.url
            query = parse_qs(urlsplit(url).query)
            assert sorted(query) == sorted(page.evaluate(FIGURE_KEYS)), f"{relative}: {url}"
            assert page.evaluate("() => history.length") == history, "the URL was written as a new entry"
            again, again_problems, _ = open_page(relative + "?" + urlsplit(url).query)
            wait_for_figures(again)
            again.wait_for_function(
                "states => [...document.querySelectorAll('figure.rope-viz-demo')]"
                ".every((f, i) => f.dataset.state === states[i])",
                arg=[figure["state"] for figure in moved],
                timeout=10_000,
            )
            assert again.evaluate(FIGURE_STATES) == moved
            assert problems == [] and again_problems == [], problems + again_problems


def test_a_value_between_steps_snaps_and_a_malformed_one_leaves_the_defaults(open_page):
    chapter = "notebooks/03_multi_speed_clocks.html"
    page, problems, _ = open_page(chapter)
    wait_for_figures(page, settled=True)
    key = page.evaluate(FIGURE_KEYS)[0]
    defaults = page.evaluate(FIGURE_STATES)
    steps = page.evaluate(
        "() => JSON.parse(document.querySelector('figure.rope-viz-demo script.rope-viz-payload').textContent)"
        ".controls.map(control => [control.name, control.values])"
    )
    name, values = steps[0]
    between = values[1] + 0.4 * (values[2] - values[1])  # nearer to the second step than to the third
    snapped, snapped_problems, _ = open_page(f"{chapter}?{key}={name}:{between}")
    wait_for_figures(snapped)
    snapped.wait_for_function(
        "() => document.querySelector('figure.rope-viz-demo input[type=range]').value === '1'", timeout=10_000
    )
    for malformed in (f"{name}:abc", "nosuchcontrol:3", f"{name}", "%%%"):
        broken, broken_problems, _ = open_page(f"{chapter}?{key}={malformed}")
        wait_for_figures(broken, settled=True)
        assert broken.evaluate(FIGURE_STATES)[0] == defaults[0], malformed
        assert broken_problems == [], (malformed, broken_problems)
    assert problems == [] and snapped_problems == []


def test_copy_link_copies_a_link_to_the_figure_in_its_state(open_page, site_url):
    chapter = "notebooks/05_long_range_decay.html"
    page, problems, _ = open_page(chapter)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    wait_for_figures(page, settled=True)
    figure = page.locator("figure.rope-viz-demo").nth(1)
    figure.scroll_into_view_if_needed()
    slider = figure.locator("input[type=range]").first
    slider.focus()
    page.keyboard.press("End")
    settle_figures(page)
    state = page.evaluate(FIGURE_STATES)[1]
    figure.locator(".rope-viz-link button").click()
    page.wait_for_function(
        "f => f.querySelector('.rope-viz-link [role=status]').textContent !== ''", arg=figure.element_handle()
    )
    assert figure.locator(".rope-viz-link [role=status]").inner_text() == "Link copied."
    link = page.evaluate("() => navigator.clipboard.readText()")
    assert link.endswith("#" + figure.get_attribute("id")), link
    assert page.evaluate(FIGURE_KEYS)[1] in parse_qs(urlsplit(link).query)
    opened, opened_problems, _ = open_page(link.removeprefix(site_url + "/"))
    wait_for_figures(opened)
    opened.wait_for_function(
        "s => document.querySelectorAll('figure.rope-viz-demo')[1].dataset.state === s",
        arg=state["state"],
        timeout=10_000,
    )
    assert opened.evaluate(FIGURE_STATES)[1] == state
    assert problems == [] and opened_problems == []


def test_a_page_opened_at_a_scene_address_shows_that_scene(open_page):
    """A link from another page (``chapter.html#scene:FIGURE:SCENE``) opens the chapter at that scene."""
    demo = MultiSpeedClocks()
    scene = demo.scenes[-1]
    indices = demo.scene_indices(scene)
    assert indices != demo.scene_indices(demo.scenes[0]), "pick a scene away from the first"
    page, problems, _ = open_page("notebooks/03_multi_speed_clocks.html" + scene_href(demo, scene.name))
    wait_for_figures(page)
    figure = page.locator("figure.rope-viz-demo").first
    sliders = figure.locator("input[type=range]")
    page.wait_for_function(
        "text => document.querySelector('figure.rope-viz-demo .rope-viz-scene-caption').textContent === text",
        arg=scene.caption,
        timeout=10_000,
    )
    assert [int(sliders.nth(k).input_value()) for k in range(sliders.count())] == indices
    assert figure.bounding_box()["y"] < page.viewport_size["height"]
    assert problems == []
