"""Each feature of the direct drawing on a page of its own, drawn at every step of every slider directly and
by Plotly, compared pixel by pixel (the demos are in :mod:`tests.site.drawing_features`). The steps that
:data:`~tests.site.drawing_features.DRAWN_BY_PLOTLY` names must be left to Plotly, every other step drawn
directly.

The chapters' browser pass compares one step of every slider of the course's own figures; these pages take
each feature the direct drawing covers on its own, at every step and back to the start, so that a plotly.js
upgrade (CONTRIBUTING.md) or a change to ``rope-viz-direct.js`` shows which feature it breaks. The pages are
written here, outside the book: the figure fragments come from :func:`rope_viz.figures.site_figure`, the
scripts and plotly.js are the site's own files.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from rope_viz.figures import site_figure
from rope_viz.site import local
from rope_viz.site.sphinx_ext import FIGURE_ASSETS, STATIC_DIRECTORY, plotly_js_path
from tests.site.conftest import ARTIFACTS
from tests.site.drawing_comparison import MAX_DIFFERING_PIXELS, compare_step, keep_drawings
from tests.site.drawing_features import (
    DRAWN_BY_PLOTLY,
    FEATURES,
    PAINTED_ON_CANVAS,
    ColourBarInFixedMargin,
    MovingLinearAxis,
)

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html>
<html lang="en" data-theme="light">
<head><meta charset="utf-8"><title>{title}</title>{styles}</head>
<body><main style="max-width: 900px; margin: 20px auto; font-family: sans-serif">{figure}</main>
<script src="plotly.min.js"></script>{scripts}
</body>
</html>
"""


def _page(demo) -> str:
    css = [name for name in FIGURE_ASSETS if name.endswith(".css")]
    js = [name for name in FIGURE_ASSETS if name.endswith(".js")]
    styles = "".join(f'<link rel="stylesheet" href="{name}">' for name in css)
    scripts = "".join(f'<script src="{name}"></script>' for name in js)
    return PAGE.format(title=demo.title, styles=styles, scripts=scripts, figure=site_figure(demo).to_html())


@pytest.fixture(scope="module")
def feature_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Serve one page per feature demo with the site's figure scripts and plotly.js, on 127.0.0.1."""
    folder = tmp_path_factory.mktemp("features")
    shutil.copy2(plotly_js_path(), folder / "plotly.min.js")
    for name in FIGURE_ASSETS:
        shutil.copy2(STATIC_DIRECTORY / name, folder / name)
    for feature in FEATURES:
        (folder / f"{feature.__name__}.html").write_text(_page(feature()), encoding="utf-8")
    server, url = local.serve(folder)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()


def _steps(maximum: int, start: int) -> list[int]:
    """Every value of a slider once, then back to where it started."""
    return [value for value in range(maximum + 1) if value != start] + [start]


def _open(context, feature_site: str, feature: type) -> tuple:
    """Open a feature's page (nothing off the feature site) once its figure is drawn and warm; return the
    page and the list of its console errors."""
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(f"pageerror: {error}"))
    page.route(
        "**/*",
        lambda route: route.continue_() if route.request.url.startswith(feature_site) else route.abort(),
    )
    page.goto(f"{feature_site}/{feature.__name__}.html", wait_until="load")
    page.wait_for_selector("figure.rope-viz-demo[data-ready=true][data-warm=true]", timeout=15_000)
    return page, problems


@pytest.mark.parametrize("feature", FEATURES, ids=lambda feature: feature.__name__)
def test_every_step_drawn_directly_looks_as_plotly_draws_it(browser, feature_site, feature):
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    try:
        page, problems = _open(context, feature_site, feature)
        figure = page.locator("figure.rope-viz-demo")
        differing: list[str] = []
        canvases = 0
        by_plotly = DRAWN_BY_PLOTLY.get(feature, frozenset())
        visited: set[tuple[int, int]] = set()
        for slider_index in range(figure.locator("input[type=range]").count()):
            slider = figure.locator("input[type=range]").nth(slider_index)
            start, maximum = int(slider.input_value()), int(slider.get_attribute("max"))
            for value in _steps(maximum, start):
                where = f"slider {slider_index} at {value}"
                visited.add((slider_index, value))
                step = compare_step(page, 0, slider_index, value, f"{feature.__name__}, {where}")
                if (slider_index, value) in by_plotly:
                    assert step.path == "full", f"{feature.__name__}, {where}: drawn directly, not by Plotly"
                    continue
                assert step.path == "direct", f"{feature.__name__}, {where}: drawn by Plotly, not directly"
                canvases += step.canvases
                if step.share > MAX_DIFFERING_PIXELS:
                    stem = f"{feature.__name__}-slider{slider_index}-{value}"
                    keep_drawings(step, ARTIFACTS / "drawing-features", stem)
                    differing.append(f"{where}: {step.share:.2%}")
                if step.missing or step.extra:
                    differing.append(f"{where}: words missing {step.missing}, extra {step.extra}")
        assert not differing, f"{feature.__name__}: pixels differ from Plotly's drawing at {differing}"
        assert by_plotly <= visited, f"{feature.__name__}: steps never visited: {sorted(by_plotly - visited)}"
        assert problems == [], problems
        if feature in PAINTED_ON_CANVAS:
            assert canvases, f"{feature.__name__}: no step was painted on a canvas layer"
        else:
            # A canvas layer costs the compositor more than it saves where few elements move (tick labels, a
            # few markers): benchmarks/README.md, "Canvas layers only where they pay".
            assert not canvases, f"{feature.__name__}: a step was painted on a canvas layer"
    finally:
        context.close()


#: The width of the plot's box and of the drawing Plotly made in it.
WIDTHS = """
figure => [figure.querySelector('.rope-viz-plot').getBoundingClientRect().width,
           Number(figure.querySelector('.rope-viz-plot .main-svg').getAttribute('width'))]
"""


def test_a_plot_follows_its_box_and_the_next_step_matches_plotly(browser, feature_site):
    """A plot whose box changes width while the window does not (a page's layout settling after its first
    figure is drawn, a notebook panel resized) is drawn again at the new width, so that the direct drawing
    draws the next step in the axes Plotly's next drawing will have. Plotly has been resized once before, as
    after any resize of the window: from then on its next update lays the plot out at its box's width, and a
    step drawn directly in a drawing of the old width would be a few pixels off Plotly's axes."""
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    try:
        page, problems = _open(context, feature_site, MovingLinearAxis)
        figure = page.locator("figure.rope-viz-demo")
        figure.evaluate("figure => Plotly.Plots.resize(figure.querySelector('.rope-viz-plot'))")
        box, drawn = figure.evaluate(WIDTHS)
        assert abs(box - drawn) <= 1, (box, drawn)
        page.add_style_tag(content="figure.rope-viz-demo { margin-right: 40px; }")
        page.wait_for_function(
            f"figure => {{ const [box, drawn] = ({WIDTHS.strip()})(figure); return box < {box} - 30 && "
            "Math.abs(box - drawn) <= 1; }",
            arg=figure.element_handle(),
            timeout=5_000,
        )
        step = compare_step(page, 0, 0, None, "MovingLinearAxis after its box narrowed")
        assert step.path == "direct"
        assert step.share <= MAX_DIFFERING_PIXELS, f"{step.share:.2%} of the pixels differ from Plotly's"
        assert not step.missing and not step.extra, (step.missing, step.extra)
        assert problems == [], problems
    finally:
        context.close()


#: Until the page sets ``window.ropeVizLaidOut``, a colour bar's labels have an empty box, as they have in a
#: plot that is not laid out (a hidden notebook panel, a tab in the background).
EMPTY_COLOUR_BAR_BOX = """
(() => {
  const getBBox = SVGGraphicsElement.prototype.getBBox;
  SVGGraphicsElement.prototype.getBBox = function () {
    if (!window.ropeVizLaidOut && this.matches('g.cbaxis')) { return new DOMRect(0, 0, 0, 0); }
    return getBBox.apply(this, arguments);
  };
})();
"""

#: Resolves once the page has been idle twice: the direct drawing reads Plotly's drawing when it is idle.
IDLE_TWICE = "() => new Promise(done => requestIdleCallback(() => requestIdleCallback(() => done())))"


def test_a_colour_bar_read_before_layout_is_read_again_at_the_next_step(browser, feature_site):
    """The direct drawing reads a colour bar's labels when the page is idle after Plotly draws. Read while the
    plot is not laid out, their box is empty; the next step that moves the bar reads them again, and is
    drawn directly and as Plotly draws it, instead of being left to Plotly."""
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    context.add_init_script(EMPTY_COLOUR_BAR_BOX)
    try:
        page, problems = _open(context, feature_site, ColourBarInFixedMargin)
        page.evaluate(IDLE_TWICE)
        page.evaluate("() => { window.ropeVizLaidOut = true; }")
        step = compare_step(page, 0, 0, 1, "ColourBarInFixedMargin, read before layout")
        assert step.path == "direct", "the step was left to Plotly"
        assert step.share <= MAX_DIFFERING_PIXELS, f"{step.share:.2%} of the pixels differ from Plotly's"
        assert not step.missing and not step.extra, (step.missing, step.extra)
        assert problems == [], problems
    finally:
        context.close()
