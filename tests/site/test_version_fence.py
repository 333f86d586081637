"""With a plotly.js other than the tested one, every slider still works: each step is a plain Plotly redraw.

The site is served as built, except that its plotly.js bundle reports another version (the assignment of
``Plotly.version`` inside the bundle is rewritten on the way to the browser). The direct drawing must then
stay off (every step's path is "full"), a console message at info level must say why, and no page may log an
error.
"""

from __future__ import annotations

import re

import pytest

from rope_viz.site.sphinx_ext import PLOTLY_BUNDLE, plotly_js_version

pytestmark = pytest.mark.browser

OTHER_VERSION = "0.0.0-untested"
TESTED_VERSION = plotly_js_version(PLOTLY_BUNDLE)
#: A figure has drawn a new state (more renders than ``n``) and Plotly holds it.
SETTLED_AFTER = "([el, n]) => Number(el.dataset.renders) > n && el.dataset.committed === el.dataset.state"


def _open_with_other_plotly(browser, site_url: str, relative: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    messages: list[tuple[str, str]] = []
    errors: list[str] = []

    def route(route_request):
        url = route_request.request.url
        if not url.startswith(site_url):
            route_request.abort()
            return
        if url.split("?")[0].endswith("/plotly.min.js"):
            response = route_request.fetch()
            text = response.text()
            rewritten, count = re.subn(
                rf'\.version="{re.escape(TESTED_VERSION)}"', f'.version="{OTHER_VERSION}"', text
            )
            assert count >= 1, "the bundle's version assignment was not found"
            route_request.fulfill(response=response, body=rewritten)
            return
        route_request.continue_()

    page.route("**/*", route)
    page.on("console", lambda message: messages.append((message.type, message.text)))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site_url}/{relative}", wait_until="load")
    return page, messages, errors


def test_every_slider_works_with_an_untested_plotly(built_site, browser, site_url):
    chapters = [str(page.relative_to(built_site.html)) for page in built_site.pages()]
    chapters = [relative for relative in chapters if relative.startswith("notebooks/")]
    assert chapters
    for relative in chapters:
        page, messages, errors = _open_with_other_plotly(browser, site_url, relative)
        figures = page.locator("figure.rope-viz-demo")
        count = figures.count()
        page.wait_for_function(
            "n => document.querySelectorAll('figure.rope-viz-demo[data-ready=true]').length === n",
            arg=count,
            timeout=20_000,
        )
        assert page.evaluate("() => Plotly.version") == OTHER_VERSION
        for figure_index in range(count):
            figure = figures.nth(figure_index)
            figure.scroll_into_view_if_needed()
            sliders = figure.locator("input[type=range]")
            for slider_index in range(sliders.count()):
                slider = sliders.nth(slider_index)
                before = page.evaluate(
                    "el => JSON.stringify(el.querySelector('.rope-viz-plot').data.map(t => [t.x, t.y, t.z]))",
                    figure.element_handle(),
                )
                renders = int(figure.get_attribute("data-renders"))
                slider.focus()
                value, maximum = int(slider.input_value()), int(slider.get_attribute("max"))
                page.keyboard.press("End" if maximum - value >= value else "Home")
                page.wait_for_function(
                    SETTLED_AFTER,
                    arg=[figure.element_handle(), renders],
                    timeout=10_000,
                )
                path = figure.get_attribute("data-path")
                assert path == "full", f"{relative} figure {figure_index} slider {slider_index}: drawn {path}"
                after = page.evaluate(
                    "el => JSON.stringify(el.querySelector('.rope-viz-plot').data.map(t => [t.x, t.y, t.z]))",
                    figure.element_handle(),
                )
                assert after != before, (
                    f"{relative} figure {figure_index}: slider {slider_index} changed nothing"
                )
        said = [text for kind, text in messages if kind == "info" and OTHER_VERSION in text]
        assert len(said) == 1 and "plain Plotly redraw" in said[0], messages
        assert [text for kind, text in messages if kind == "error"] == [] and errors == [], (
            relative,
            messages,
            errors,
        )
        page.context.close()
