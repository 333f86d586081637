"""The course on a phone: 390 × 844 CSS px (an iPhone 12 to 15 held upright), touch, two device pixels per CSS
pixel, the pages' viewport meta tag honoured. Readers open the site there as often as on a laptop.

* No page is wider than the screen, which would make it scroll sideways: long words (a class name in a
  reference, an identifier in a heading) break (``rope-viz-page.css``).
* Every plot of every chapter is laid out at the narrowest width its titles, legends and tick labels fit
  (its demo's ``narrowest_plot_width``, 440 to 640 px; 640 for every plot before, which showed the text of
  figures that fit in 440 px at 0.52 of its size, where it now shows at 0.75) and scaled down to its
  figure's width, whole. At that width, in every scene and at every value of every slider, no text is cut
  off at the plot's edge or comes within 6 px of it, and no two texts overlap, unless they do at 640 px.
  Scaled, no text of
  the plot is cut off at its edge, the plot lies inside its figure, the readout follows right under its
  drawing (the room the scaled drawing leaves is taken back), and an empty scene caption above it keeps
  room for two lines at most (three or four before). Before, a 332 px wide plot cut its subplot
  titles and legends at both ends and some tick labels at the left.
* A tap on the first slider of each figure moves it, and the step is drawn directly; one step of it drawn
  directly looks as Plotly's drawing of the same state, scaled as well.
* Plotly's hover follows the scale: a tap on a marker shows that marker's label beside the finger, its words
  at Plotly's own 13 px (Plotly takes every other tap on a touch screen as putting a label away, at any
  width).
* Plotly's tool buttons keep their own size on a scaled plot, inside its figure at the plot's top right (in a
  band above the drawing: ``test_tool_buttons.py``), and a tap on one works (scaled with the plot they were
  12 px, too small to tap).
"""

from __future__ import annotations

import re

import pytest

from rope_viz.demos.base import NARROWEST_PLOT_WIDTH
from tests.site.conftest import ROOT, wait_for_figures
from tests.site.drawing_comparison import compare_step
from tests.site.plot_fit import PLOT_FIT, PLOT_TEXTS, fit_problems

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844, "phone": True}
CHAPTERS = sorted(f"notebooks/{path.stem}.html" for path in (ROOT / "notebooks").glob("*.ipynb"))
#: Share of a scaled plot's pixels that may differ between a step drawn directly and Plotly's drawing. At a
#: scale of 0.52 the one-pixel gaps between heatmap cells and the numbers in them, painted on a canvas at the
#: screen's resolution, fall on other device pixels than Plotly's image and SVG text, which the browser scales
#: (chapter 1's first figure: 0.6 to 0.9 % of its pixels; at most 0.2 % on figures without a heatmap).
MAX_DIFFERING_PIXELS_SCALED = 0.012

WIDER_THAN_SCREEN = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
#: The inline formulas wider than their box, which the theme cuts at its edge (``overflow: hidden``), and the
#: displayed formulas wider than theirs that do not scroll in it, by px.
CUT_FORMULAS = """() => {
const words = formula => formula.querySelector('mjx-assistive-mml').textContent.slice(0, 40);
return [...document.querySelectorAll('.bd-article span.math')].flatMap(math => {
  const formula = math.querySelector('mjx-container');
  if (!formula || !math.checkVisibility()) { return []; }
  const extra = formula.getBoundingClientRect().width - math.getBoundingClientRect().width;
  return extra > 1 ? [[words(formula), Math.round(extra)]] : [];
}).concat([...document.querySelectorAll('.bd-article div.math mjx-container')].flatMap(formula => {
  const extra = formula.scrollWidth - formula.clientWidth;
  const scrolls = ['auto', 'scroll'].includes(getComputedStyle(formula).overflowX);
  return extra > 1 && !scrolls ? [[words(formula), extra]] : [];
}));
}"""

#: Keep, in ``window.ropeVizNextRender``, a promise of how the figure draws its next step
#: (``rope-viz:rendered``), or null if it draws none within 3 s.
NEXT_RENDER = """
figure => {
  window.ropeVizNextRender = new Promise(resolve => {
    figure.addEventListener('rope-viz:rendered', event => resolve(event.detail.path), {once: true});
    setTimeout(() => resolve(null), 3000);
  });
}
"""


def test_no_page_is_wider_than_a_phone(built_site, open_page):
    """Every page of the site, figures drawn: its width is the screen's, and no inline formula is cut at the
    edge of its line (a formula too wide for a phone is displayed, and scrolls in its own box)."""
    wider = {}
    cut = {}
    for relative in built_site.relative_pages():
        page, problems, _ = open_page(relative, **PHONE)
        wait_for_figures(page)
        extra = page.evaluate(WIDER_THAN_SCREEN)
        if extra > 0:
            wider[relative] = extra
        page.wait_for_function(
            "() => document.querySelector('mjx-container') || !document.querySelector('.math')"
        )
        if formulas := page.evaluate(CUT_FORMULAS):
            cut[relative] = formulas
        assert problems == [], f"{relative}: {problems}"
        page.context.close()
    assert wider == {}, f"pages wider than a phone's screen, by px: {wider}"
    assert cut == {}, f"inline formulas cut at the edge of their line, by px: {cut}"


@pytest.mark.parametrize("relative", CHAPTERS)
def test_every_plot_fits_a_phone_whole(open_page, relative):
    """Each figure of the chapter: scaled, whole, in its place; a tap on its first slider drawn directly."""
    page, problems, _ = open_page(relative, **PHONE)
    count = wait_for_figures(page, settled=True)
    assert count >= 1
    for index in range(count):
        where = f"{relative} figure {index}"
        figure = page.locator("figure.rope-viz-demo").nth(index)
        figure.locator(".rope-viz-plot").scroll_into_view_if_needed()
        page.wait_for_timeout(200)
        assert fit_problems(figure.evaluate(PLOT_FIT), where) == []

        slider = figure.locator("input[type=range]").first
        before = slider.input_value()
        slider.scroll_into_view_if_needed()
        box = slider.bounding_box()
        figure.evaluate(NEXT_RENDER)
        target = 0.25 if int(before) > int(slider.get_attribute("max")) / 2 else 0.75
        page.touchscreen.tap(box["x"] + box["width"] * target, box["y"] + box["height"] / 2)
        path = page.evaluate("() => window.ropeVizNextRender")
        assert path == "direct", f"{where}: a tap on the slider was drawn {path}, not directly"
        assert slider.input_value() != before, f"{where}: a tap on the slider did not move it"
        # Plotly draws that state (as when the reader reaches into the plot) before the next step is compared.
        figure.evaluate("f => f.dispatchEvent(new CustomEvent('rope-viz:commit'))")
        page.wait_for_function(
            "f => f.dataset.committed === f.dataset.state", arg=figure.element_handle(), timeout=5_000
        )

        step = compare_step(page, index, 0, None, where)
        assert step.path == "direct", f"{where}: a step was not drawn directly"
        assert step.share <= MAX_DIFFERING_PIXELS_SCALED, (
            f"{where}: {step.share:.2%} of the pixels differ from Plotly's drawing"
        )
    assert problems == [], f"{relative}: {problems}"


#: Lay the figure's plot out ``width`` px wide, and rendered out of view too, as a narrower screen does
#: (``rope-viz-figures.css``: out of view, a plot's words have no size), and wait until Plotly has drawn it
#: there and two frames have passed.
LAY_OUT_AT = """
async ([figure, width]) => {
  const plot = figure.querySelector('.rope-viz-plot');
  plot.style.contentVisibility = 'visible';
  plot.style.width = width + 'px';
  await Plotly.Plots.resize(plot);
  for (let frame = 0; frame < 2; frame++) await new Promise(resolve => requestAnimationFrame(resolve));
}
"""
#: Show the state at the sliders' ``indices`` (its key ``key``) and wait until Plotly has drawn it (not the
#: direct drawing) and two frames have passed.
SHOW_STATE = """
async ([figure, indices, key]) => {
  figure.querySelectorAll('input[type=range]').forEach((input, k) => {
    input.value = String(indices[k]);
    input.dispatchEvent(new Event('input', {bubbles: true}));
  });
  const start = performance.now();
  const wait = () => new Promise(resolve => setTimeout(resolve, 20));
  while (figure.dataset.state !== key && performance.now() - start < 10000) await wait();
  figure.dispatchEvent(new CustomEvent('rope-viz:commit'));
  while (figure.dataset.committed !== key && performance.now() - start < 10000) await wait();
  for (let frame = 0; frame < 2; frame++) await new Promise(resolve => requestAnimationFrame(resolve));
  return figure.dataset.committed === key;
}
"""
#: The figure's narrowest width, and the slider indices (with the state's key) of every scene and of every
#: value of every slider with the others at their defaults.
STATES_TO_FIT = """
figure => {
  const payload = JSON.parse(figure.querySelector('script.rope-viz-payload').textContent);
  const defaults = payload.controls.map(control => control.default);
  const states = [defaults].concat(payload.scenes.map(scene => scene.indices));
  payload.controls.forEach((control, k) => control.texts.forEach((_, index) => {
    const state = defaults.slice();
    state[k] = index;
    states.push(state);
  }));
  const key = state => String(state.reduce((sum, index, k) => sum + index * payload.strides[k], 0));
  const unique = [...new Map(states.map(state => [key(state), state])).entries()];
  return {narrowest: payload.narrowest, states: unique.map(([key, indices]) => ({key, indices}))};
}
"""


@pytest.mark.parametrize("relative", CHAPTERS)
def test_plots_fit_their_narrowest_width(open_page, relative):
    """Each figure narrower than 640 px (its demo's ``narrowest_plot_width``), in every scene and at every
    value of every slider with the others at their defaults: no text of the plot reaches past its edge or
    comes within 6 px of it, and no two texts overlap, unless they do so too when the same state is laid out
    640 px wide (the width every figure was designed to fit; the words in a heatmap's cells, say, may touch
    there by design). As on a phone, the plot is laid out at one width and goes through the states there:
    once at 640 px, once at its narrowest."""
    page, problems, _ = open_page(relative)
    count = wait_for_figures(page, settled=True)
    found = []
    checked = 0
    for index in range(count):
        figure = page.locator("figure.rope-viz-demo").nth(index).element_handle()
        plan = figure.evaluate(STATES_TO_FIT)
        if plan["narrowest"] == NARROWEST_PLOT_WIDTH:
            continue
        texts = {}
        for width in (NARROWEST_PLOT_WIDTH, plan["narrowest"]):
            page.evaluate(LAY_OUT_AT, [figure, width])
            for state in plan["states"]:
                shown = page.evaluate(SHOW_STATE, [figure, state["indices"], state["key"]])
                assert shown, f"{relative} figure {index}: Plotly did not draw the state {state['indices']}"
                texts[width, state["key"]] = figure.evaluate(PLOT_TEXTS)
        for state in plan["states"]:
            where = f"{relative} figure {index} at {plan['narrowest']} px, sliders at {state['indices']}"
            wide, narrow = texts[NARROWEST_PLOT_WIDTH, state["key"]], texts[plan["narrowest"], state["key"]]
            new = sorted(set(narrow["overlaps"]) - set(wide["overlaps"]))
            crowded = sorted(set(narrow["edge"]) - set(wide["edge"]) - set(narrow["cut"]))
            if narrow["cut"]:
                found.append(f"{where}: cut off at the plot's edge: {narrow['cut'][:3]}")
            if crowded:
                found.append(f"{where}: within 6 px of the plot's edge: {crowded[:3]}")
            if new:
                found.append(f"{where}: {len(new)} texts overlap, for example {new[:2]}")
            checked += 1
    assert checked > 0, f"{relative}: no figure narrower than 640 px to check"
    assert found == [], "\n".join(found[:20])
    assert problems == [], f"{relative}: {problems}"


#: Per plot of the page, per axis: its range as Plotly last drew it, to 4 decimals.
AXIS_RANGES = """
() => [...document.querySelectorAll('figure.rope-viz-demo .rope-viz-plot')].map(plot =>
  Object.fromEntries(Object.keys(plot._fullLayout).filter(key => /^[xy]axis\\d*$/.test(key))
    .map(key => [key, plot._fullLayout[key].range.map(end => Number(Number(end).toFixed(4)))])))
"""


@pytest.mark.parametrize(
    "relative",
    [
        f"notebooks/{stem}.html"
        for stem in ("02_rotation_2d", "03_multi_speed_clocks", "06_beyond_training_length")
    ],
)
def test_turning_the_phone_keeps_every_plot_as_it_was(open_page, relative):
    """The chapters whose clock faces are held to equal scales: turned on its side and back four times, the
    phone shows every axis of every plot at the range it had (each turn shrank the dials before: Plotly kept
    the range it had widened for the last shape and widened it again)."""
    page, problems, _ = open_page(relative, **PHONE)
    wait_for_figures(page, settled=True)
    before = page.evaluate(AXIS_RANGES)
    for _ in range(4):
        for size in ({"width": 844, "height": 390}, {"width": 390, "height": 844}):
            page.set_viewport_size(size)
            page.wait_for_timeout(600)
    assert page.evaluate(AXIS_RANGES) == before
    assert problems == [], f"{relative}: {problems}"


def test_hover_follows_the_scaled_plot(open_page):
    """Chapter 5's walk: a tap on a stop of the walk shows that stop's label, beside the finger."""
    page, problems, _ = open_page("notebooks/05_long_range_decay.html", **PHONE)
    wait_for_figures(page, settled=True)
    figure = page.locator("figure.rope-viz-demo").first
    figure.locator(".rope-viz-plot").scroll_into_view_if_needed()
    page.wait_for_timeout(300)  # a plot come into view is laid out and painted (content-visibility: auto)
    points = figure.locator("g.trace.scatter path.point")

    def tap(stop: int) -> tuple[float, float]:
        # Where the stop is at the moment of the tap: the plot may have been drawn again since the last one.
        box = points.nth(stop).bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.touchscreen.tap(x, y)
        return x, y

    for stop in (5, 30, 60):
        label = figure.locator(".hoverlayer g.hovertext")
        x, y = tap(stop)
        page.wait_for_timeout(400)
        if label.count() == 0:
            # On a touch screen Plotly takes every other tap as the one that puts a label away.
            x, y = tap(stop)
        label.wait_for(state="attached", timeout=2_000)
        first_line = label.locator("tspan.line").first.text_content()
        assert re.fullmatch(rf"stop S_{stop}\s*", first_line), f"stop {stop}: the label of {first_line!r}"
        # Its words on the screen at the size Plotly gives them (its layout's hover font), not scaled down.
        sizes = label.locator("text").first.evaluate(
            """t => { const plot = t.closest('.rope-viz-plot');
                return [parseFloat(getComputedStyle(t).fontSize) * Number(plot.dataset.fit),
                        plot._fullLayout.hoverlabel.font.size]; }"""
        )
        shown_size, own_size = sizes
        assert abs(shown_size - own_size) < 0.5, f"stop {stop}: words of {shown_size:.1f} px, not {own_size}"
        # The label's box points at the marker from its right or, short of room, from its left.
        shown = label.locator("path").bounding_box()
        right = shown["x"] + shown["width"]
        beside = x <= shown["x"] <= x + 12 or x - 12 <= right <= x
        assert beside and shown["y"] <= y <= shown["y"] + shown["height"], (
            f"stop {stop}: its label is at {shown}, the finger at ({x:.0f}, {y:.0f})"
        )
    assert problems == [], problems


#: Per tool button of the figure's plot: its size as shown and as laid out, and whether it lies inside the
#: figure, at the plot's right.
TOOL_BUTTONS = """
figure => {
  const shown = figure.querySelector('.rope-viz-plot').getBoundingClientRect();
  const outer = figure.getBoundingClientRect();
  return [...figure.querySelectorAll('.modebar-btn')].map(button => {
    const box = button.getBoundingClientRect();
    return {
      title: button.dataset.title,
      shown: [box.width, box.height],
      own: [button.offsetWidth, button.offsetHeight],
      inside: box.left >= shown.left - 1 && box.right <= shown.right + 1 && box.top >= outer.top,
    };
  });
}
"""


def test_tool_buttons_keep_their_size(open_page):
    """Chapter 5's walk: a tap on the plot shows Plotly's tool buttons at their own size; "Zoom in" zooms."""
    page, problems, _ = open_page("notebooks/05_long_range_decay.html", **PHONE)
    wait_for_figures(page, settled=True)
    figure = page.locator("figure.rope-viz-demo").first
    plot = figure.locator(".rope-viz-plot")
    plot.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    assert 0 < float(plot.get_attribute("data-fit")) < 1
    box = plot.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.3)
    page.wait_for_timeout(300)
    buttons = figure.evaluate(TOOL_BUTTONS)
    assert len(buttons) >= 5, buttons
    for button in buttons:
        assert button["own"][1] >= 20, f"{button['title']}: laid out {button['own']} px"
        assert all(abs(a - b) < 1 for a, b in zip(button["shown"], button["own"], strict=True)), (
            f"{button['title']}: shown at {button['shown']} px, laid out at {button['own']} px"
        )
        assert button["inside"], f"{button['title']}: outside the figure"
    ranges = "p => JSON.stringify(p.layout.xaxis.range)"
    before = plot.evaluate(ranges)
    zoom = figure.locator('.modebar-btn[data-title="Zoom in"]').first
    zoom_box = zoom.bounding_box()
    page.touchscreen.tap(zoom_box["x"] + zoom_box["width"] / 2, zoom_box["y"] + zoom_box["height"] / 2)
    page.wait_for_function(
        f"p => JSON.stringify(p.layout.xaxis.range) !== {before!r}", arg=plot.element_handle(), timeout=5_000
    )
    assert problems == [], problems
