"""The lecture deck in chromium, driven as a lecturer drives it: trusted key presses (what a presentation
clicker sends), clicks, reloads and the browser's Back and Forward, at 1920×1080 (and a look at 1280×720).

Every slide is checked against the deck's definition in Python (``rope_viz.lecture``): one slide on screen,
its figure at the slide's scene (the sliders and the state drawn), the scene's caption, a link to a section
that exists, the slide's number in the URL. Screenshots of several slides in light and dark mode land in
``test-artifacts/lecture/``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from rope_viz import lecture
from rope_viz.figures.rounding import plain
from rope_viz.figures.scene_links import slug
from rope_viz.figures.slide_layout import side_by_side
from tests.site.conftest import ARTIFACTS, wait_for_figures
from tests.site.test_accessibility import FAILING_IMPACTS, _audit, _in_mode
from tests.site.test_present import SCALE_AT_1080, TEXT_LAYOUT
from tests.site.test_print import _check_print
from tests.site.test_tool_buttons import tool_button_problems

pytestmark = pytest.mark.browser

PAGE = "book/lecture.html"
SHOTS = ARTIFACTS / "lecture"
#: The title slide, then one slide per entry of ``lecture.SLIDES``.
COUNT = 1 + len(lecture.SLIDES)
#: Slides whose screenshots are kept: the title, and figures of chapters 2, 4, 6, 9 and 10.
SHOWN = (1, 5, 12, 19, 29, COUNT)

#: What is on screen: the slides visible, and of the first the figure, caption and link; the URL; the counter.
ON_SCREEN = """() => {
    const visible = [...document.querySelectorAll(".rope-viz-slide")].filter(slide =>
        slide.checkVisibility({visibilityProperty: true, checkVisibilityCSS: true}));
    const slide = visible[0];
    const figure = slide ? slide.querySelector("figure.rope-viz-demo") : null;
    const caption = slide ? slide.querySelector(".rope-viz-slide-caption") : null;
    const link = slide ? slide.querySelector(".rope-viz-slide-link a") : null;
    const box = slide ? slide.getBoundingClientRect() : null;
    return {
        visible: visible.map(slide => slide.id),
        hash: location.hash,
        search: location.search,
        counter: document.querySelector(".rope-viz-deck-counter").textContent,
        box: box && [box.left, box.top, box.width, box.height],
        title: figure && figure.getAttribute("aria-label"),
        ready: figure && figure.dataset.ready,
        state: figure && figure.dataset.state,
        sliders: figure && [...figure.querySelectorAll("input[type=range]")].map(el => Number(el.value)),
        pressed: figure && [...figure.querySelectorAll(".rope-viz-scenes button")]
            .map(button => button.getAttribute("aria-pressed")),
        caption: caption && caption.textContent,
        link: link && link.href,
    };
}"""


def _expected(number: int) -> dict | None:
    """Slide ``number`` as defined: its figure's title, its scene's slider indices and state key, caption."""
    if number == 1:
        return None
    slide = lecture.SLIDES[number - 2]
    demo = slide.demo()
    indices = demo.scene_indices(slide.find_scene())
    lengths = [len(control.site_values) for control in demo.controls]
    strides = [1] * len(lengths)
    for k in range(len(lengths) - 2, -1, -1):
        strides[k] = strides[k + 1] * lengths[k + 1]
    return {
        "title": demo.title,
        "indices": indices,
        "state": str(sum(index * stride for index, stride in zip(indices, strides, strict=True))),
        "scene": slide.scene_index(),
        "caption": slide.find_scene().caption,
        "page": f"{slide.chapter.docname}.html",
    }


EXPECTED = {number: _expected(number) for number in range(1, COUNT + 1)}
#: The slides whose figure is two or three stacked panels, which a slide shows side by side.
SIDE_BY_SIDE = {
    number
    for number, slide in enumerate(lecture.SLIDES, start=2)
    if side_by_side(plain(slide.demo().initial_figure())) is not None
}


def _wait_for_slide(page, number: int) -> None:
    """Wait until slide ``number`` is on screen with its figure laid out for the slide and drawn at its
    scene."""
    expected = EXPECTED[number]
    page.wait_for_function(
        """([number, state]) => {
            const slide = document.getElementById("slide-" + number);
            if (!slide || !slide.classList.contains("rope-viz-slide-current")) { return false; }
            const figure = slide.querySelector("figure.rope-viz-demo");
            return state === null || (figure && figure.dataset.ready === "true" &&
                slide.dataset.laidOut === "true" && figure.dataset.state === state);
        }""",
        arg=[number, expected and expected["state"]],
        timeout=20_000,
    )


def _check_slide(page, number: int, site: Path, width: int = 1920, height: int = 1080) -> None:
    """Slide ``number`` alone fills the window above the navigation, as the deck defines it."""
    _wait_for_slide(page, number)
    shown = page.evaluate(ON_SCREEN)
    where = f"slide {number}"
    assert shown["visible"] == [f"slide-{number}"], f"{where}: visible {shown['visible']}"
    assert shown["hash"] == f"#slide-{number}", where
    assert shown["counter"] == f"Slide {number} of {COUNT}", where
    left, top, slide_width, slide_height = shown["box"]
    assert (left, top, slide_width) == (0, 0, width) and 0.85 * height < slide_height < height, (
        where,
        shown["box"],
    )
    expected = EXPECTED[number]
    if expected is None:
        assert shown["title"] is None, where
        return
    assert shown["title"] == expected["title"], where
    assert shown["sliders"] == expected["indices"], f"{where}: sliders {shown['sliders']}"
    assert shown["state"] == expected["state"], where
    assert shown["pressed"][expected["scene"]] == "true" and shown["pressed"].count("true") == 1, where
    assert shown["caption"] == expected["caption"], where
    _check_link(shown["link"], expected["page"], site, where)


#: The parts of a figure's slide beside its plot that run out of the slide: below the window (the slide would
#: have to scroll, and the room would not see them) or past its right edge.
CUT_PARTS = """slide => {
  const box = slide.getBoundingClientRect();
  const parts = slide.querySelectorAll(".rope-viz-slide-caption, .rope-viz-slide-link, " +
    ".rope-viz-control label, .rope-viz-control output, .rope-viz-control input, .rope-viz-scenes button, " +
    ".rope-viz-readout");
  /* The part's box and its text's: a line that does not wrap runs out of its box. */
  const cut = [...parts].filter(part => {
    const text = document.createRange();
    text.selectNodeContents(part);
    return [part.getBoundingClientRect(), text.getBoundingClientRect()].some(r =>
      r.height > 0 && (r.bottom > box.bottom + 0.5 || r.right > box.right + 0.5));
  }).map(part => part.className || part.tagName.toLowerCase() + " " + part.textContent.trim().slice(0, 30));
  if (slide.scrollHeight > slide.clientHeight) { cut.push("the slide scrolls"); }
  return cut;
}"""


def _check_slide_column(page, number: int, size: str) -> None:
    """Everything beside the plot of slide ``number`` is on screen, within the slide."""
    if EXPECTED[number] is None:
        return
    cut = page.locator(f"#slide-{number}").evaluate(CUT_PARTS)
    assert cut == [], f"slide {number} at {size}: {cut}"


_PAGES: dict[Path, str] = {}


#: How many times its layout's size the plot's text is on screen (every text of it is scaled alike).
TEXT_SCALE = """
figure => {
  const texts = figure.querySelectorAll('.rope-viz-plot svg.main-svg text');
  const text = [...texts].find(t => t.textContent.trim());
  const m = text.getScreenCTM();
  return Math.hypot(m.a, m.b);
}
"""
#: The plot is laid out no shorter than the presenter view lays it out (540 px); what is left of a slide
#: 1080 px high for the plot, under its title, gives at least this scale.
SMALLEST_SCALE_AT_1080 = 1.7


def _check_slide_text(page, number: int, height: int = 1080) -> None:
    """The plot of slide ``number`` is enlarged for the room, with no text cut, outside or over other text."""
    if EXPECTED[number] is None:
        return
    figure = page.locator(f"#slide-{number} figure.rope-viz-demo")
    scale = figure.evaluate(TEXT_SCALE)
    assert SMALLEST_SCALE_AT_1080 * height / 1080 - 0.01 <= scale <= SCALE_AT_1080 * height / 1080 + 0.01, (
        f"slide {number}: the plot's text at {scale:.2f} times its size"
    )
    texts = figure.evaluate(TEXT_LAYOUT)
    assert texts == {"outside": [], "overlapping": [], "clipped": []}, f"slide {number}: {texts}"


def _check_plot_text(page, number: int, size: str) -> None:
    """No text of the plot of slide ``number`` is cut, outside the plot or over other text."""
    if EXPECTED[number] is None:
        return
    texts = page.locator(f"#slide-{number} figure.rope-viz-demo").evaluate(TEXT_LAYOUT)
    assert texts == {"outside": [], "overlapping": [], "clipped": []}, f"slide {number} at {size}: {texts}"


#: The boxes on screen of the plot's subplots (Plotly's background rectangle of each).
PANELS = """
figure => [...figure.querySelectorAll('.rope-viz-plot .bglayer rect.bg')].map(rect => {
  const r = rect.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom];
}).filter(r => r[2] > r[0] && r[3] > r[1])
"""


def _check_panels(page, number: int, size: str) -> None:
    """A figure of stacked panels (``rope_viz.figures.slide_layout.side_by_side``) has them side by side on
    the slide: of two, one beside the other, each at least 0.4 times as tall as the plot; of three, the last
    two side by side under the first, which is as wide as both, each at least 0.15 times as tall as the plot
    (stacked, each was 0.11 to 0.13 times as tall at 1920 × 1080: chapter 6's YaRN figure; now 0.18)."""
    if EXPECTED[number] is None or number not in SIDE_BY_SIDE:
        return
    figure = page.locator(f"#slide-{number} figure.rope-viz-demo")
    plot_height = figure.locator(".rope-viz-plot").evaluate("plot => plot.getBoundingClientRect().height")
    boxes = figure.evaluate(PANELS)
    assert len(boxes) in (2, 3), f"slide {number} at {size}: panels {boxes}"
    wide = max(boxes, key=lambda box: box[2] - box[0]) if len(boxes) == 3 else None
    if wide is not None:
        boxes.remove(wide)
    (left, right) = sorted(boxes)
    assert left[2] <= right[0], f"slide {number} at {size}: the panels overlap across, {boxes}"
    if wide is not None:
        assert wide[3] <= min(left[1], right[1]), f"slide {number} at {size}: {wide} is not over {boxes}"
        assert wide[0] <= left[0] + 1 and wide[2] >= right[2] - 1, f"slide {number} at {size}: {wide}"
    for box in [left, right, wide] if wide else [left, right]:
        share = 0.15 if wide else 0.4
        assert box[3] - box[1] >= share * plot_height, f"slide {number} at {size}: a panel is {box} high"


def _check_tool_buttons(page, number: int) -> None:
    """With the pointer on the plot of slide ``number``, Plotly's tool buttons show beside it, over none of
    its words and none of the slide's controls, and each takes a click."""
    if EXPECTED[number] is None:
        return
    figure = page.locator(f"#slide-{number} figure.rope-viz-demo")
    assert tool_button_problems(page, figure, f"slide {number}") == []


def _check_link(link: str, page: str, site: Path, where: str) -> None:
    """The link opens the slide's chapter at one of its figures, in one of that figure's scenes."""
    parts = urlsplit(link)
    target = site / parts.path.lstrip("/")
    assert parts.path.lstrip("/") == page, f"{where}: links to {link}"
    assert target.is_file(), f"{where}: {link} is not a page of the site"
    text = _PAGES.setdefault(target, target.read_text(encoding="utf-8"))
    match = re.fullmatch(r"scene:([a-z0-9-]+):([a-z0-9-]+)", parts.fragment)
    assert match, f"{where}: #{parts.fragment} is not a scene address"
    payloads = [
        json.loads(payload)
        for payload in re.findall(
            r'<script type="application/json" class="rope-viz-payload">(.*?)</script>', text
        )
    ]
    scenes = {
        slug(payload["title"]): [slug(scene["name"]) for scene in payload["scenes"]] for payload in payloads
    }
    assert match.group(2) in scenes.get(match.group(1), []), f"{where}: no such figure and scene in {page}"


def _open(open_page, mode: str = "light", fragment: str = "", width: int = 1920, height: int = 1080):
    page, problems, blocked = open_page(PAGE + fragment, color_scheme=mode, width=width, height=height)
    _in_mode(page, mode)
    return page, problems, blocked


def _screenshot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(400)  # the settled state, drawn by Plotly
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_a_clicker_walks_through_every_slide_and_back(built_site, open_page):
    """Page Down from the title slide to the last slide, and Page Up back, checking every slide."""
    for old in SHOTS.glob("*.png"):
        old.unlink()
    page, problems, blocked = _open(open_page)
    _check_slide(page, 1, built_site.html)
    _screenshot(page, "slide-01-light")
    for number in range(2, COUNT + 1):
        page.keyboard.press("PageDown")
        _check_slide(page, number, built_site.html)
        _check_slide_text(page, number)
        _check_slide_column(page, number, "1920x1080")
        _check_panels(page, number, "1920x1080")
        _check_tool_buttons(page, number)
        if number in SHOWN:
            _screenshot(page, f"slide-{number:02d}-light")
    page.keyboard.press("PageDown")  # past the last slide: stays there
    _check_slide(page, COUNT, built_site.html)
    for number in range(COUNT - 1, 0, -1):
        page.keyboard.press("PageUp")
        _check_slide(page, number, built_site.html)
    page.keyboard.press("End")
    _check_slide(page, COUNT, built_site.html)
    page.keyboard.press("Home")
    _check_slide(page, 1, built_site.html)
    assert problems == [] and blocked == []


def test_dark_mode_screenshots_and_a_small_projector(built_site, open_page):
    page, problems, blocked = _open(open_page, "dark", "#slide-2")
    for number in SHOWN[1:]:
        page.evaluate("number => { location.hash = '#slide-' + number; }", number)
        _check_slide(page, number, built_site.html)
        _screenshot(page, f"slide-{number:02d}-dark")
    page.keyboard.press("Home")
    _check_slide(page, 1, built_site.html)
    _screenshot(page, "slide-01-dark")
    page.context.close()
    page, small_problems, _ = _open(open_page, "light", "#slide-5", width=1280, height=720)
    for number in SHOWN[1:-1]:
        page.evaluate("number => { location.hash = '#slide-' + number; }", number)
        _check_slide(page, number, built_site.html, width=1280, height=720)
        _check_slide_text(page, number, height=720)
    page.evaluate("() => { location.hash = '#slide-5'; }")
    _check_slide(page, 5, built_site.html, width=1280, height=720)
    _screenshot(page, "slide-05-light-1280x720")
    assert problems == [] and blocked == [] and small_problems == []


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1280, 800), (1024, 768)])
def test_every_slide_keeps_its_caption_sliders_and_link_on_a_smaller_screen(
    built_site, open_page, width, height
):
    """At a projector's 1280 x 720, a laptop's 1280 x 800 and an old projector's 1024 x 768, the caption,
    the sliders with their values, the scene buttons, the readout and the chapter link of every slide lie
    within the slide, which does not scroll."""
    page, problems, blocked = _open(open_page, "light", "#slide-2", width=width, height=height)
    for number in range(2, COUNT + 1):
        page.evaluate("number => { location.hash = '#slide-' + number; }", number)
        _check_slide(page, number, built_site.html, width=width, height=height)
        page.wait_for_timeout(400)  # the settled state, its readout's room reserved
        _check_slide_column(page, number, f"{width}x{height}")
        _check_plot_text(page, number, f"{width}x{height}")
        _check_panels(page, number, f"{width}x{height}")
    assert problems == [] and blocked == []


#: The top of the shown slide's chapter link, each frame for ``ms`` after a Page Down: where it was drawn.
LINK_TOPS = """ms => new Promise(resolve => {
    const tops = [];
    const start = performance.now();
    function frame() {
        const link = document.querySelector(".rope-viz-slide-current .rope-viz-slide-link");
        const box = link && link.getBoundingClientRect();
        if (box && box.height) { tops.push(Math.round(box.top)); }
        if (performance.now() - start < ms) { requestAnimationFrame(frame); } else { resolve(tops); }
    }
    frame();
})"""


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1024, 768)])
def test_a_slide_shown_before_the_page_is_idle_keeps_its_text_in_place(built_site, open_page, width, height):
    """A lecturer may press Page Down as soon as the deck opens, before the page's first idle moment, when
    the figures make room for their longest readouts. The slide makes its figure's room as it is shown, so
    nothing under the readout (the chapter link) moves once drawn. The page's idle moments are held back
    1.5 s here, as on a busy laptop."""
    page, problems, blocked = _open(open_page, "light", "#slide-1", width=width, height=height)
    page.context.add_init_script(
        "window.requestIdleCallback = callback => setTimeout(() => "
        "callback({didTimeout: true, timeRemaining: () => 0}), 1500);"
    )
    for number in (2, 11, 19):
        page.goto(page.url.split("#")[0] + f"#slide-{number - 1}")
        page.wait_for_function("() => document.querySelector('.rope-viz-slide-current') !== null")
        page.keyboard.press("PageDown")
        tops = page.evaluate(LINK_TOPS, 2500)
        assert tops, f"slide {number}: no chapter link drawn"
        assert len(set(tops)) == 1, f"slide {number} at {width}x{height}: the chapter link moved, tops {tops}"
        _check_slide(page, number, built_site.html, width=width, height=height)
    assert problems == [] and blocked == []


def test_on_a_phone_the_page_is_the_list_of_slides(built_site, open_page):
    """A window taller than wide (a phone) keeps the page a list of slides: the theme's page with its
    navigation, every figure drawn and fitted to the page's width, no slide navigation, nothing wider than
    the screen."""
    page, problems, blocked = open_page(PAGE + "#slide-5", width=390, height=844, phone=True)
    wait_for_figures(page)
    shown = page.evaluate(
        """() => ({
            deck: document.documentElement.classList.contains("rope-viz-deck-on"),
            navigation: document.querySelectorAll(".rope-viz-deck-nav").length,
            hidden: [...document.querySelectorAll(".rope-viz-slide")].filter(slide =>
                !slide.checkVisibility({visibilityProperty: true})).length,
            overflow: document.documentElement.scrollWidth - window.innerWidth,
            wide: [...document.querySelectorAll("figure.rope-viz-demo")].filter(figure =>
                figure.getBoundingClientRect().right > window.innerWidth + 0.5).length,
        })"""
    )
    assert shown == {"deck": False, "navigation": 0, "hidden": 0, "overflow": 0, "wide": 0}, shown
    _screenshot(page, "phone-slide-05")
    assert problems == [] and blocked == []


def test_the_url_holds_the_slide_through_reload_back_and_forward(built_site, open_page):
    # The second scene of a figure: reloading must not bring back the figure's state of an earlier slide.
    number = next(n for n in range(3, COUNT + 1) if lecture.SLIDES[n - 2].demo is lecture.SLIDES[n - 3].demo)
    page, problems, _ = _open(open_page, fragment=f"#slide-{number - 1}")
    _check_slide(page, number - 1, built_site.html)
    page.keyboard.press("PageDown")
    _check_slide(page, number, built_site.html)
    # The slide sets its figure: a slider moved (which the figure keeps in the URL) is not restored.
    page.locator(f"#slide-{number} input[type=range]").first.focus()
    page.keyboard.press("End")
    page.keyboard.press("Home")
    page.wait_for_function("() => location.search !== ''")
    page.reload(wait_until="load")
    _check_slide(page, number, built_site.html)
    page.keyboard.press("PageDown")
    _check_slide(page, number + 1, built_site.html)
    page.go_back()
    _check_slide(page, number, built_site.html)
    page.go_forward()
    _check_slide(page, number + 1, built_site.html)
    assert problems == []


def test_a_slide_number_out_of_range_or_malformed_opens_the_first_slide(built_site, open_page):
    page, problems, _ = _open(open_page, fragment="#slide-abc")
    _check_slide(page, 1, built_site.html)
    for other in (f"#slide-{COUNT + 1}", "#slide-0", "#slide--2", "#slide-2.5", "#slide-", "#elsewhere"):
        page.evaluate("() => { location.hash = '#slide-3'; }")
        _check_slide(page, 3, built_site.html)
        page.evaluate("hash => { location.hash = hash; }", other)
        _check_slide(page, 1, built_site.html)
    # Loaded with a number past the last slide.
    page.evaluate("number => { location.hash = '#slide-' + number; }", COUNT + 1)
    page.reload(wait_until="load")
    _check_slide(page, 1, built_site.html)
    assert problems == []


def test_blanking_slider_keys_buttons_and_print(built_site, open_page):
    number = next(n for n in range(2, COUNT) if EXPECTED[n]["indices"][0] > 0)
    page, problems, _ = _open(open_page, fragment=f"#slide-{number}")
    _check_slide(page, number, built_site.html)
    blank = page.locator(".rope-viz-deck-blank")
    for key in ("b", "."):
        page.keyboard.press(key)
        assert blank.is_visible(), key
        assert blank.bounding_box() == {"x": 0, "y": 0, "width": 1920, "height": 1080}
        assert blank.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(0, 0, 0)"
        page.keyboard.press("PageDown")  # unblanks, and only that
        assert not blank.is_visible(), key
        _check_slide(page, number, built_site.html)
    page.keyboard.press("B")
    page.mouse.click(960, 540)
    assert not blank.is_visible()
    _check_slide(page, number, built_site.html)

    # On a focused slider the arrow keys, Home and End move the slider, not the deck.
    slider = page.locator(f"#slide-{number} input[type=range]").first
    start = EXPECTED[number]["indices"][0]
    slider.focus()
    for key, value in (("ArrowLeft", start - 1), ("ArrowRight", start), ("Home", 0)):
        page.keyboard.press(key)
        assert int(slider.input_value()) == value, key
        assert page.evaluate(ON_SCREEN)["visible"] == [f"slide-{number}"], key
    page.keyboard.press("End")
    assert int(slider.input_value()) == int(slider.get_attribute("max"))
    page.keyboard.press(".")  # the clicker's blank key, with the slider focused
    assert blank.is_visible()
    page.keyboard.press("ArrowLeft")  # unblanks, and does not move the slider
    assert not blank.is_visible() and int(slider.input_value()) == int(slider.get_attribute("max"))
    page.keyboard.press("PageDown")  # always the deck's
    _check_slide(page, number + 1, built_site.html)
    page.keyboard.press("ArrowLeft")  # focus left the slider with its slide
    _check_slide(page, number, built_site.html)

    # The previous and next buttons: named, reached by Tab, pressed by Space or Enter once.
    nav = page.get_by_role("navigation", name="Slides")
    nav.get_by_role("button", name="Next").click()
    _check_slide(page, number + 1, built_site.html)
    nav.get_by_role("button", name="Previous").click()
    _check_slide(page, number, built_site.html)
    page.keyboard.press("Home")
    _check_slide(page, 1, built_site.html)
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.textContent") == "Next":
            break
    else:
        pytest.fail("Tab never reached the Next button")
    page.keyboard.press("Space")
    _check_slide(page, 2, built_site.html)
    page.keyboard.press("Enter")
    _check_slide(page, 3, built_site.html)

    # Printed, the deck is a list of slides.
    page.emulate_media(media="print")
    assert page.evaluate(ON_SCREEN)["visible"] == [f"slide-{k}" for k in range(1, COUNT + 1)]
    page.emulate_media(media="screen")
    assert problems == []


def test_the_printed_deck_shows_every_figure_whole_and_comes_back_to_its_slide(built_site, open_page):
    """Printed from a slide, every figure is drawn whole in the list of slides, the one laid out for the slide
    on screen and those drawn on slides not shown alike; after, the slide is as it was."""
    number = SHOWN[1]
    page, problems, _ = _open(open_page, fragment=f"#slide-{number}")
    _check_slide(page, number, built_site.html)
    assert wait_for_figures(page, settled=True) == len({slide.demo for slide in lecture.SLIDES})
    found = _check_print(page, PAGE, "light", "A4")
    # Every slide after the title is printed whole on one page: from its chapter line to its link.
    ends = page.evaluate(
        """() => [...document.querySelectorAll('.rope-viz-slide[id]:not(.rope-viz-title-slide)')].map(slide =>
             [slide.id, slide.querySelector('.rope-viz-slide-chapter').textContent,
              slide.querySelector('.rope-viz-slide-link').textContent])"""
    )
    assert len(ends) == COUNT - 1
    cursor = 0
    for slide, chapter_line, link in ends:
        start = found.find(chapter_line, cursor)
        assert start is not None, f"{slide}: its chapter line is not in the PDF"
        end = found.find(link, start[1] + 1)
        assert end is not None, f"{slide}: its link is not in the PDF after its chapter line"
        first, last = found.words[start[0]].page, found.words[end[1]].page
        assert first == last, f"{slide} is split between pages {first} and {last}"
        cursor = end[1] + 1
    _check_slide(page, number, built_site.html)
    _check_slide_text(page, number)
    assert problems == []


def test_axe_finds_nothing_critical_or_serious_on_a_slide_in_light_and_dark_mode(built_site, open_page):
    number = SHOWN[1]
    page, problems, _ = _open(open_page, "light", f"#slide-{number}")
    _check_slide(page, number, built_site.html)
    for mode in ("light", "dark"):
        _in_mode(page, mode)
        page.wait_for_timeout(300)  # the plots redrawn in the mode's colours
        failing = [
            f"{violation['rule']} ({violation['impact']}) at {target}"
            for violation in _audit(page)
            if violation["impact"] in FAILING_IMPACTS
            for target in violation["nodes"]
        ]
        assert not failing, f"slide {number} in {mode} mode:\n  " + "\n  ".join(failing)
    assert problems == []


def test_every_slide_of_the_built_page_is_a_slide_of_the_deck(built_site):
    text = (built_site.html / PAGE).read_text(encoding="utf-8")
    assert re.findall(r'<section class="rope-viz-slide[^"]*" id="slide-(\d+)"', text) == [
        str(number) for number in range(1, COUNT + 1)
    ]
    assert text.count('<figure class="rope-viz-demo"') == len({slide.demo for slide in lecture.SLIDES})
    assert "_static/rope_viz/rope-viz-deck.js" in text and "_static/rope_viz/rope-viz-deck.css" in text
