"""The presenter view (``rope-viz-present.js``) of every figure of every chapter at 1920×1080, and of a
sample in dark mode, at 1280×720 without the Fullscreen API, on a 4:3 projector, a tablet held upright and a
phone held either way.

Each chapter is opened once; each figure in turn is presented with a real click on its "Present" button. It
must cover the screen; its text must be at least twice the page's size (on a screen 1920×1080; the same share
of the screen on others, and on a screen taller than wide, where the plot stands across the top and the
controls under it, no smaller than on the page there); no text of the plot may run into another or out of the
plot, and no control may be cut (on a screen taller than wide, the first slider is on the screen and the rest
may scroll); the first slider has a visible focus. A real ArrowRight then moves the figure, drawn
directly and as Plotly draws it, and a scene button and the URL still work. With the pointer on the plot,
Plotly's tool buttons cover none of its words and take a click (``test_tool_buttons.py``). Escape leaves: the
focus goes back to the button, and once the sliders are back where they were the figure is as it was
(Plotly's layout and data, its styles and boxes, its pixels). Screenshots of every presented figure are in
``test-artifacts/present/``.
"""

from __future__ import annotations

import json

import pytest

from tests.site.conftest import ARTIFACTS, ROOT, wait_for_figures
from tests.site.drawing_comparison import MAX_DIFFERING_PIXELS, PAINT_WAIT_MS, SHOWN_IN_PLOT, differing_share
from tests.site.test_tool_buttons import tool_button_problems
from tests.site.test_url_state import FIGURE_KEYS

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "present"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: Text size in the presenter view over the page's, on a screen of 1920×1080 (in proportion on others).
SCALE_AT_1080 = 2
SCREEN_AT_1080 = (1920, 1080)
#: On a phone (two device pixels per px) at a scale of 0.72, the white gaps between a heatmap's cells fall a
#: device pixel apart in the direct drawing (painted at the screen's resolution) and in Plotly's (an image at
#: the plot's own px, scaled by the browser): 1.2 % of chapter 2's second plot, where nothing else differs.
MAX_DIFFERING_PIXELS_ON_A_PHONE = 0.02

#: The smallest rendered font size in px of each kind of text of a figure: Plotly's tick labels and axis
#: titles (SVG text: its font size times the scale of its coordinates on the screen, CSS transforms included)
#: and the readout and slider values (HTML: the computed font size times the CSS zoom on the way).
FONT_SIZES = """
figure => {
  const svg = text => {
    const m = text.getScreenCTM();
    return parseFloat(getComputedStyle(text).fontSize) * Math.hypot(m.a, m.b);
  };
  const html = element => parseFloat(getComputedStyle(element).fontSize) * element.currentCSSZoom;
  const smallest = (elements, size) => {
    const shown = [...elements].filter(element => element.textContent.trim());
    return shown.length ? Math.min(...shown.map(size)) : null;
  };
  const plot = figure.querySelector('.rope-viz-plot');
  const titles = '[class^="g-x"][class$="title"] text, [class^="g-y"][class$="title"] text';
  return {
    'tick labels': smallest(plot.querySelectorAll('.xaxislayer-above text, .yaxislayer-above text'), svg),
    'axis titles': smallest(plot.querySelectorAll(titles), svg),
    'readout': smallest(figure.querySelectorAll('.rope-viz-readout'), html),
    'slider values': smallest(figure.querySelectorAll('.rope-viz-control output'), html),
  };
}
"""

#: Where the lines of the plot's texts are: those outside the plot's box or the window, those cut by the clip
#: path of a subplot (a label drawn in data units that its axes leave no room for), and pairs of lines that
#: overlap (by more than 2 px across and a third of the lower one's height: the boxes of neighbouring lines
#: and labels touch without their glyphs meeting).
TEXT_LAYOUT = (
    """
figure => {
  const plot = figure.querySelector('.rope-viz-plot');
  const box = plot.getBoundingClientRect();
  const shown = text => text.textContent.trim() !== '' && ("""
    + SHOWN_IN_PLOT
    + """)(text, plot);
  const lines = [...plot.querySelectorAll('svg text')].filter(shown).flatMap(text => {
    const parts = [...text.querySelectorAll('tspan.line')].filter(line => line.textContent.trim());
    const kind = text.getAttribute('class') || text.parentElement.getAttribute('class');
    return (parts.length ? parts : [text]).map(part => (
      {name: `${kind} "${part.textContent.slice(0, 40)}"`, r: part.getBoundingClientRect(), node: text}));
  }).filter(line => line.r.width > 0 && line.r.height > 0);
  /* The box on screen of the clip path that holds a text, if any: its rectangle, in the user space of the
     element it clips (Plotly's clip paths are one rect each). */
  const clipBox = node => {
    const holder = node.closest('[clip-path]');
    const id = holder && plot.contains(holder) &&
      (holder.getAttribute('clip-path').match(/url\\(["']?#([^"')]+)/) || [])[1];
    const rect = id && document.getElementById(id) && document.getElementById(id).querySelector('rect');
    if (!rect) return null;
    const matrix = holder.getScreenCTM();
    const [x, y, width, height] = ['x', 'y', 'width', 'height'].map(k => Number(rect.getAttribute(k) || 0));
    const corners = [[x, y], [x + width, y + height]]
      .map(([px, py]) => new DOMPoint(px, py).matrixTransform(matrix));
    return {left: Math.min(corners[0].x, corners[1].x), right: Math.max(corners[0].x, corners[1].x),
      top: Math.min(corners[0].y, corners[1].y), bottom: Math.max(corners[0].y, corners[1].y)};
  };
  const outside = [], overlapping = [], clipped = [];
  lines.forEach(({name, r, node}, i) => {
    const out = r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 ||
      r.bottom > box.bottom + 1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1;
    if (out) outside.push(name);
    const clip = clipBox(node);
    const cut = clip && (r.left < clip.left - 1 || r.right > clip.right + 1 || r.top < clip.top - 1 ||
      r.bottom > clip.bottom + 1);
    if (cut) clipped.push(name);
    for (const other of lines.slice(i + 1)) {
      const q = other.r;
      const across = Math.min(r.right, q.right) - Math.max(r.left, q.left);
      const down = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      if (across > 2 && down > 0.3 * Math.min(r.height, q.height)) {
        overlapping.push(`${name} and ${other.name}`);
      }
    }
  });
  return {outside, overlapping, clipped};
}
"""
)

#: The presented figure: does it cover the window, is any of its controls cut or over the plot?
COVERAGE = """
figure => {
  const rect = figure.getBoundingClientRect();
  const plot = figure.querySelector('.rope-viz-plot').getBoundingClientRect();
  const panel = [...figure.children].filter(child => !child.matches('.rope-viz-plot, script, noscript'));
  const stacked = figure.classList.contains('rope-viz-presenting-stacked');
  const slider = figure.querySelector('input[type=range]').getBoundingClientRect();
  return {
    stacked,
    sliderShown: (slider.top >= plot.bottom - 1 || slider.left >= plot.right - 1) &&
      slider.bottom <= innerHeight,
    fullscreen: document.fullscreenElement === figure,
    popover: figure.matches(':popover-open'),
    covers: rect.left <= 0 && rect.top <= 0 && rect.right >= innerWidth && rect.bottom >= innerHeight,
    plotInWindow: plot.left >= 0 && plot.top >= 0 && plot.right <= innerWidth + 1 &&
      plot.bottom <= innerHeight + 1,
    cut: figure.scrollHeight > figure.clientHeight + 1 || figure.scrollWidth > figure.clientWidth + 1,
    overPlot: panel.filter(child => {
      const box = child.getBoundingClientRect();
      return box.width > 0 && (stacked ? box.top < plot.bottom - 1 : box.left < plot.right - 1);
    }).map(child => child.className),
    focused: document.activeElement === figure.querySelector('input[type=range]'),
  };
}
"""

#: What "as it was" means for a figure: Plotly's layout and data, the styles and boxes of the figure and plot.
SNAPSHOT = """
figure => {
  const plot = figure.querySelector('.rope-viz-plot');
  const box = element => {
    const r = element.getBoundingClientRect();
    return [r.x, r.y + scrollY, r.width, r.height];
  };
  return JSON.stringify({
    layout: plot.layout, data: plot.data, classes: figure.className,
    figureStyle: figure.getAttribute('style'), plotStyle: plot.getAttribute('style'),
    figureBox: box(figure), plotBox: box(plot),
  });
}
"""

#: Note on the figure which drew it last, the direct drawing or Plotly.
WATCH_DRAWINGS = """
figure => {
  if (figure.lastDrawing) return;
  figure.lastDrawing = 'plotly';
  figure.addEventListener('rope-viz:rendered', event => {
    if (event.detail.path === 'direct') figure.lastDrawing = 'direct';
  });
  figure.querySelector('.rope-viz-plot').on('plotly_afterplot', () => { figure.lastDrawing = 'plotly'; });
}
"""

#: Plotly has drawn the state on screen (not only the direct drawing), and nothing holds it back.
SETTLED = """
figure => figure.dataset.committed === figure.dataset.state && figure.lastDrawing === 'plotly'
"""

#: Move the sliders to `indices` as a reader would (an input event each).
SET_INDICES = """
([figure, indices]) => {
  figure.querySelectorAll('input[type=range]').forEach((input, k) => {
    if (Number(input.value) !== indices[k]) {
      input.value = String(indices[k]);
      input.dispatchEvent(new Event('input', {bubbles: true}));
    }
  });
}
"""

#: Does the URL hold the figure's state under `key` (nothing when the sliders are at their defaults)?
URL_HOLDS_STATE = """
([figure, key]) => {
  const controls = JSON.parse(figure.querySelector('script.rope-viz-payload').textContent).controls;
  const here = [...figure.querySelectorAll('input[type=range]')].map(input => Number(input.value));
  const moved = here.some((value, k) => value !== controls[k].default);
  const wanted = moved ? RopeVizFigures.formatState(controls, here) : null;
  return new URLSearchParams(location.search).get(key) === wanted;
}
"""


def _chapters(built_site) -> list[str]:
    return [page for page in built_site.relative_pages() if page.startswith("notebooks/")]


def _settle(page, figure) -> None:
    """Have Plotly draw the state on screen (a step drawn directly stays so until then) and wait for it."""
    figure.evaluate("f => f.dispatchEvent(new CustomEvent('rope-viz:commit'))")
    page.wait_for_function(SETTLED, arg=figure.element_handle(), timeout=10_000)


def _move(page, figure, indices: list[int]) -> str:
    """Move the sliders to `indices` and let Plotly draw the state; return how the step was first drawn."""
    page.evaluate(SET_INDICES, [figure.element_handle(), indices])
    _settle(page, figure)
    return figure.get_attribute("data-path")


def _plot_pixels(page, figure) -> bytes:
    """A screenshot of the plot as far as it is in the window. (A screenshot of an element taller than the
    window would resize the window, and Plotly answers a resize by laying the plot out again.)"""
    box = figure.locator(".rope-viz-plot").bounding_box()
    top, bottom = max(box["y"], 0), min(box["y"] + box["height"], page.viewport_size["height"])
    return page.screenshot(clip={"x": box["x"], "y": top, "width": box["width"], "height": bottom - top})


def _audit(page, figure) -> list[str]:
    """axe on the presented figure: its critical and serious violations."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return figure.evaluate(
        """figure => axe.run(figure, {resultTypes: ['violations']}).then(results => results.violations
            .filter(v => v.impact === 'critical' || v.impact === 'serious')
            .map(v => `${v.id} (${v.impact}) at ${v.nodes.map(n => n.target.join(' ')).join(', ')}`))"""
    )


def _step_by_keyboard(page, figure, where: str, page_path: str, tolerance: float) -> None:
    """ArrowRight (ArrowLeft at the end) on the focused slider changes the figure, drawn as the same step is
    drawn on the page (`page_path`: directly, or by Plotly), and directly it looks as Plotly draws it (but for
    at most the share `tolerance` of its pixels)."""
    slider = figure.locator("input[type=range]").first
    value, maximum = int(slider.input_value()), int(slider.get_attribute("max"))
    state = figure.get_attribute("data-state")
    renders = int(figure.get_attribute("data-renders"))
    page.keyboard.press("ArrowRight" if value < maximum else "ArrowLeft")
    page.wait_for_function(
        "([f, n]) => Number(f.dataset.renders) > n", arg=[figure.element_handle(), renders], timeout=5_000
    )
    assert int(slider.input_value()) != value, f"{where}: the key did not move the slider"
    assert figure.get_attribute("data-state") != state, f"{where}: the step did not change the figure"
    path = figure.get_attribute("data-path")
    assert path == page_path, f"{where}: the step was drawn {path}, on the page {page_path}"
    page.wait_for_timeout(PAINT_WAIT_MS)
    drawn = _plot_pixels(page, figure)
    _settle(page, figure)
    page.wait_for_timeout(PAINT_WAIT_MS)
    share = differing_share(drawn, _plot_pixels(page, figure))
    assert share <= tolerance, f"{where}: {share:.2%} of the pixels differ from Plotly's drawing"


def _press_a_scene(page, figure, where: str) -> None:
    """A real click on a scene button that is not pressed: it is then, and the URL holds the new state."""
    buttons = figure.locator(".rope-viz-scenes button[aria-pressed=false]")
    if buttons.count() == 0:
        return
    button = buttons.last.element_handle()
    state = figure.get_attribute("data-state")
    button.click()
    _settle(page, figure)
    assert button.get_attribute("aria-pressed") == "true", f"{where}: the scene button is not pressed"
    assert figure.get_attribute("data-state") != state, f"{where}: the scene did not change the figure"
    index = figure.evaluate("f => [...document.querySelectorAll('figure.rope-viz-demo')].indexOf(f)")
    key = page.evaluate(FIGURE_KEYS)[index]
    page.wait_for_function(URL_HOLDS_STATE, arg=[figure.element_handle(), key], timeout=5_000)


def _check_presented(page, figure, where: str, page_fonts: dict, page_path: str, options: dict) -> dict:
    """Check the presented figure, step it, press a scene, and leave with Escape; return its text layout."""
    page.wait_for_function("f => f.dataset.presented === 'true'", arg=figure.element_handle(), timeout=10_000)
    page.mouse.move(page.viewport_size["width"] - 2, page.viewport_size["height"] - 2)
    page.wait_for_timeout(PAINT_WAIT_MS)
    coverage = figure.evaluate(COVERAGE)
    assert coverage["fullscreen"] if options["fullscreen"] else coverage["popover"], f"{where}: {coverage}"
    assert coverage["covers"] and coverage["plotInWindow"], f"{where}: the figure does not cover the screen"
    assert coverage["stacked"] == options["stacked"], f"{where}: stacked {coverage['stacked']}"
    if options["stacked"]:
        assert coverage["sliderShown"], f"{where}: the first slider is not on the screen under the plot"
    else:
        assert not coverage["cut"], f"{where}: the controls do not fit on the screen"
    assert coverage["overPlot"] == [], f"{where}: over the plot: {coverage['overPlot']}"
    assert coverage["focused"], f"{where}: the first slider does not have the focus"
    outline = figure.locator("input[type=range]:focus").evaluate("s => getComputedStyle(s).outlineStyle")
    assert outline != "none", f"{where}: the focused slider shows no outline"
    fonts = figure.evaluate(FONT_SIZES)
    for kind, size in page_fonts.items():
        if size is not None:
            assert fonts[kind] >= options["least"][kind] * size - 0.01, (
                f"{where}: {kind} {fonts[kind]:.1f} px, page {size:.1f}"
            )
    texts = figure.evaluate(
        TEXT_LAYOUT
    )  # asserted at the end: a crowded figure is still checked for the rest
    page.screenshot(path=str(SHOTS / options["shot"]))
    assert tool_button_problems(page, figure, where, touch=options["touch"]) == []
    if options["touch"]:
        figure.locator("input[type=range]").first.focus()  # the tap on the plot took the focus
    page.mouse.move(page.viewport_size["width"] - 2, page.viewport_size["height"] - 2)
    if options["audit"]:
        assert _audit(page, figure) == [], f"{where}: axe"
    _step_by_keyboard(page, figure, where, page_path, options["tolerance"])
    _press_a_scene(page, figure, where)
    page.keyboard.press("Escape")
    return texts


def _present(page, figure, where: str, options: dict) -> None:
    """Present `figure`, check it (see the module docstring), leave, and check that it is as it was."""
    button = figure.get_by_role("button", name="Present", exact=True)
    assert button.count() == 1, f"{where}: no button named Present"
    figure.evaluate("f => f.scrollIntoView({block: 'start'})")
    # In view before the page's scroll position is noted: a click scrolls its target into view first.
    button.scroll_into_view_if_needed()
    page.mouse.move(0, 0)
    figure.evaluate(WATCH_DRAWINGS)
    sliders = figure.locator("input[type=range]")
    indices = [int(value) for value in sliders.evaluate_all("s => s.map(i => i.value)")]
    # The step the keyboard makes in the presenter view, made on the page first: how it draws there; and
    # then the figure is as Plotly draws it after any step (it adds defaults to its layout on the first).
    maximum = int(sliders.first.get_attribute("max"))
    page_path = _move(page, figure, [indices[0] + (1 if indices[0] < maximum else -1), *indices[1:]])
    _move(page, figure, indices)
    page.wait_for_timeout(PAINT_WAIT_MS)
    before = figure.evaluate(SNAPSHOT)
    scroll = page.evaluate("() => [scrollX, scrollY]")
    pixels = _plot_pixels(page, figure)
    page_fonts = figure.evaluate(FONT_SIZES)
    # How much larger than on the page each kind of text must be: on a screen wider than high, the share of
    # the screen it takes at 1920×1080, twice its own size (a plot scaled to fit a phone's page is measured
    # at its own size); on one taller than wide, no smaller than on the page there.
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    if options["stacked"]:
        options["least"] = dict.fromkeys(page_fonts, 1.0)
    else:
        share = SCALE_AT_1080 * min(width / SCREEN_AT_1080[0], height / SCREEN_AT_1080[1])
        fit = float(figure.locator(".rope-viz-plot").get_attribute("data-fit") or 1)
        plot_text = ("tick labels", "axis titles")
        options["least"] = {kind: share / (fit if kind in plot_text else 1) for kind in page_fonts}
    leaves = int(figure.get_attribute("data-left") or 0)

    button.click()
    try:
        texts = _check_presented(page, figure, where, page_fonts, page_path, options)
    finally:
        # A failed check must not leave the figure over the page for the next one.
        page.evaluate(
            "() => document.querySelector('.rope-viz-presenting') &&"
            " document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}))"
        )
    page.wait_for_function(
        "([f, n]) => Number(f.dataset.left || 0) > n", arg=[figure.element_handle(), leaves], timeout=10_000
    )
    assert page.evaluate("() => document.fullscreenElement") is None, f"{where}: still full screen"
    assert button.evaluate("b => document.activeElement === b"), f"{where}: the focus is not on Present"
    assert page.evaluate("() => [scrollX, scrollY]") == scroll, f"{where}: the page scrolled"
    _move(page, figure, indices)
    page.mouse.move(0, 0)
    page.wait_for_timeout(PAINT_WAIT_MS)
    assert json.loads(figure.evaluate(SNAPSHOT)) == json.loads(before), (
        f"{where}: the figure is not as it was"
    )
    # On a phone a scene's caption may take more lines than the room kept for it, and the page keeps what is
    # on screen in place as it grows or shrinks (scroll anchoring): the plot is compared where it was.
    page.evaluate("([x, y]) => window.scrollTo(x, y)", scroll)
    share = differing_share(pixels, _plot_pixels(page, figure))
    assert share == 0, f"{where}: {share:.4%} of the plot's pixels changed"
    for kind in ("outside", "overlapping", "clipped"):
        assert texts[kind] == [], f"{where}: {len(texts[kind])} texts {kind}, e.g. {texts[kind][:4]}"


def _visit(open_page, relative: str, subtests, *, width: int, height: int, mode: str, **options) -> None:
    """Open a chapter and present its figures (`figures`: which; all by default) one after another."""
    phone = options.get("phone", False)
    page, problems, _ = open_page(relative, color_scheme=mode, width=width, height=height, phone=phone)
    fullscreen = options.get("fullscreen", True)
    if not fullscreen:
        page.evaluate("() => { delete Element.prototype.requestFullscreen; }")
    count = wait_for_figures(page, settled=True)
    if page.evaluate("() => document.documentElement.dataset.theme") != mode:
        page.evaluate("mode => { document.documentElement.dataset.theme = mode; }", mode)
    name = relative.removeprefix("notebooks/").removesuffix(".html")
    for index in options.get("figures", range(count)):
        with subtests.test(
            "presenter view", page=relative, figure=index, screen=f"{width}x{height}", mode=mode
        ):
            _present(
                page,
                page.locator("figure.rope-viz-demo").nth(index),
                f"{relative} figure {index} ({width}x{height}, {mode})",
                {
                    "stacked": width < height,
                    "touch": phone,
                    "tolerance": MAX_DIFFERING_PIXELS_ON_A_PHONE if phone else MAX_DIFFERING_PIXELS,
                    "fullscreen": fullscreen,
                    "audit": options.get("audit_first", False) and index == 0,
                    "shot": f"{name}-{index}-{width}x{height}-{mode}.png",
                },
            )
    assert problems == [], f"{relative}: {problems}"


def test_every_figure_presents_at_1920x1080(built_site, open_page, subtests):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for relative in _chapters(built_site):
        _visit(open_page, relative, subtests, width=1920, height=1080, mode="light", audit_first=True)


def test_presenter_view_in_dark_mode_and_at_1280x720_without_full_screen(built_site, open_page, subtests):
    SHOTS.mkdir(parents=True, exist_ok=True)
    chapters = _chapters(built_site)
    for relative in chapters[1::3]:
        _visit(
            open_page, relative, subtests, width=1920, height=1080, mode="dark", figures=[0], audit_first=True
        )
    for relative in chapters[0::3]:
        _visit(open_page, relative, subtests, width=1280, height=720, mode="light", fullscreen=False)


#: Screens other than a projector's of 16:9, and the chapters presented on each: a projector of 4:3, a tablet
#: held upright, and a phone held upright and on its side (chapters 6 and 9 hold the longest controls).
OTHER_SCREENS = {
    (1024, 768, False): ("03", "05", "07"),
    (768, 1024, False): ("04", "10"),
    (390, 844, True): ("01", "06", "09"),
    (844, 390, True): ("02", "08"),
}


def test_presenter_view_on_a_4_3_projector_a_tablet_and_a_phone(built_site, open_page, subtests):
    SHOTS.mkdir(parents=True, exist_ok=True)
    chapters = _chapters(built_site)
    for (width, height, phone), numbers in OTHER_SCREENS.items():
        for relative in [page for page in chapters if page.removeprefix("notebooks/")[:2] in numbers]:
            _visit(open_page, relative, subtests, width=width, height=height, mode="light", phone=phone)


def test_one_figure_is_presented_at_a_time_and_print_hides_the_button(open_page):
    page, problems, _ = open_page("notebooks/06_beyond_training_length.html", width=1920, height=1080)
    # Full screen keeps the rest of the page from the keyboard; the window-filling fallback does not, and
    # there Tab can reach another figure's Present button while one figure is presented.
    page.evaluate("() => { delete Element.prototype.requestFullscreen; }")
    wait_for_figures(page, settled=True)
    figures = page.locator("figure.rope-viz-demo")
    first_style = figures.nth(0).get_attribute("style")
    figures.nth(0).get_by_role("button", name="Present").click()
    page.wait_for_function("f => f.dataset.presented === 'true'", arg=figures.nth(0).element_handle())
    figures.nth(1).locator(".rope-viz-present button").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("f => f.dataset.presented === 'true'", arg=figures.nth(1).element_handle())
    presented = page.evaluate("() => [...document.querySelectorAll('.rope-viz-presenting')].map(f => f.id)")
    assert presented == [figures.nth(1).get_attribute("id")]
    assert figures.nth(0).get_attribute("style") == first_style, "the first figure kept the presenter's style"
    assert not figures.nth(0).evaluate("f => f.matches(':popover-open')"), "the first figure still covers"
    page.keyboard.press("Escape")
    page.wait_for_function(
        "() => !document.querySelector('.rope-viz-presenting') && !document.querySelector(':popover-open')"
    )
    page.emulate_media(media="print")
    shown = page.locator(".rope-viz-present").evaluate_all("rows => rows.filter(r => r.offsetParent).length")
    assert shown == 0, "the Present buttons are printed"
    assert problems == [], problems


def test_turning_a_phone_lays_the_presented_figure_out_again(open_page):
    # Held on its side the plot stands beside the controls; turned upright, above them; turned back, beside
    # them again, and leaving puts the figure back as it was.
    page, problems, _ = open_page("notebooks/05_long_range_decay.html", width=844, height=390, phone=True)
    wait_for_figures(page, settled=True)
    figure = page.locator("figure.rope-viz-demo").first
    figure.evaluate("f => f.scrollIntoView({block: 'start'})")
    button = figure.get_by_role("button", name="Present", exact=True)
    button.scroll_into_view_if_needed()
    before = figure.evaluate(SNAPSHOT)
    button.click()
    for width, height in ((844, 390), (390, 844), (844, 390)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(
            "([f, stacked]) => f.dataset.presented === 'true' &&"
            " f.classList.contains('rope-viz-presenting-stacked') === stacked",
            arg=[figure.element_handle(), width < height],
            timeout=10_000,
        )
        page.wait_for_timeout(400)  # laid out again once the screen has stopped changing
        page.wait_for_function("f => f.dataset.presented === 'true'", arg=figure.element_handle())
        coverage = figure.evaluate(COVERAGE)
        where = f"turned to {width}x{height}"
        assert coverage["stacked"] == (width < height), where
        assert coverage["covers"] and coverage["plotInWindow"], f"{where}: {coverage}"
        assert coverage["overPlot"] == [], f"{where}: over the plot: {coverage['overPlot']}"
        plot = figure.locator(".rope-viz-plot").bounding_box()
        assert plot["width"] >= (width if width < height else 0.55 * width) - 1, f"{where}: {plot}"
        texts = figure.evaluate(TEXT_LAYOUT)
        for kind in ("outside", "overlapping", "clipped"):
            assert texts[kind] == [], f"{where}: texts {kind}: {texts[kind][:4]}"
    page.keyboard.press("Escape")
    page.wait_for_function("f => Number(f.dataset.left || 0) > 0", arg=figure.element_handle())
    page.wait_for_timeout(PAINT_WAIT_MS)
    assert json.loads(figure.evaluate(SNAPSHOT)) == json.loads(before), "the figure is not as it was"
    assert problems == [], problems
