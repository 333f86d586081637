"""Every page of the built site in Debian's chromium: no errors, no request off 127.0.0.1, math rendered,
every figure drawn, and every slider changes what is plotted. Saves a screenshot of each page.

Each page is opened once and its checks run on it one after another, each a subtest with its own failure
message (a failing check does not stop the next): the page loads cleanly, with its screenshot taken while
every figure shows its initial state; then, on a chapter, :data:`CHAPTER_CHECKS` in their order. Between two
checks the figures settle (Plotly draws the state on screen). A chapter takes about 3 s to load here: one
visit instead of one per check saves that three times a chapter.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.site.conftest import ARTIFACTS, settle_figures, wait_for_figures, wait_for_math
from tests.site.drawing_comparison import (
    MAX_DIFFERING_PIXELS,
    PAINT_WAIT_MS,
    SHOWN_TEXTS,
    compare_step,
    keep_drawings,
    text_differences,
)

pytestmark = pytest.mark.browser


def _plotted_data(page, figure_index: int) -> str:
    return page.evaluate(
        """i => {
            const plot = document.querySelectorAll('figure.rope-viz-demo .rope-viz-plot')[i];
            return JSON.stringify(plot.data.map(t => [t.x, t.y, t.r, t.theta, t.z]));
        }""",
        figure_index,
    )


def test_site_has_pages(built_site):
    pages = built_site.relative_pages()
    assert len(pages) >= 5
    assert "search.html" in pages


#: The viewport height of the visit (the pixel comparison was measured with it).
VIEWPORT_HEIGHT = 1500

#: Move slider ``sliderIndex`` of figure ``figureIndex`` through every value and back to where it was. Each
#: step records the figure's height and how it was drawn. With ``compareWords``, a step drawn directly also
#: records the words shown, then hands the state to Plotly and records the words of Plotly's drawing (the next
#: step starts from it: after a state in which Plotly drew a trace with no data, the step may be Plotly's).
SWEEP = (
    """
async ([figureIndex, sliderIndex, compareWords]) => {
  const figure = document.querySelectorAll('figure.rope-viz-demo')[figureIndex];
  const input = figure.querySelectorAll('input[type=range]')[sliderIndex];
  const shownTexts = """
    + SHOWN_TEXTS.strip()
    + """;
  const start = input.value;
  const heights = [];
  const redrawn = [];
  const words = [];
  const values = [...Array(Number(input.max) + 1).keys()].concat([Number(start)]);
  for (const value of values) {
    const rendered = new Promise(resolve =>
      figure.addEventListener('rope-viz:rendered', event => resolve(event.detail.path), {once: true}));
    input.value = String(value);
    input.dispatchEvent(new Event('input', {bubbles: true}));
    const path = await rendered;
    heights.push(figure.getBoundingClientRect().height);
    if (path !== 'direct') { redrawn.push(value); continue; }
    if (!compareWords) { continue; }
    // Each drawing once painted: right after a step, chromium may still report a text's box as it was.
    const painted = () => new Promise(resolve => setTimeout(resolve, """
    + str(PAINT_WAIT_MS)
    + """));
    await painted();
    const direct = shownTexts(figure);
    const committed = new Promise(resolve =>
      figure.addEventListener('rope-viz:committed', () => resolve(), {once: true}));
    figure.dispatchEvent(new CustomEvent('rope-viz:commit'));
    await committed;
    await painted();
    words.push({value, direct, plotly: shownTexts(figure)});
  }
  return {heights, redrawn, words};
}
"""
)


def _check_loads_cleanly(page, relative: str, problems: list[str], blocked: list[str]) -> dict:
    """No console error, no request off 127.0.0.1, math rendered; saves a full-page screenshot."""
    figures = page.locator("figure.rope-viz-demo").count()
    has_math = page.locator(".math").count() > 0
    rendered = page.locator("mjx-container").count()
    math_errors = page.locator("mjx-merror").count()
    shot = ARTIFACTS / "screenshots" / (relative.replace("/", "__").removesuffix(".html") + ".png")
    shot.parent.mkdir(parents=True, exist_ok=True)
    # Plots out of view are not rendered (content-visibility: auto): show every one in the full-page shot,
    # as a reader sees each when scrolling to it; the page is as it was for the checks after this one.
    style = page.add_style_tag(content=".rope-viz-plot { content-visibility: visible !important; }")
    page.wait_for_timeout(100)
    page.screenshot(path=str(shot), full_page=True)
    style.evaluate("node => node.remove()")
    report = {"problems": list(problems), "blocked": list(blocked), "figures": figures, "math": rendered}
    assert problems == [], f"{relative}: {problems}"
    assert blocked == [], f"{relative} requested other hosts: {blocked}"
    if has_math:
        assert rendered > 0, f"{relative}: math present but MathJax rendered nothing"
    assert math_errors == 0, f"{relative}: {math_errors} MathJax errors"
    assert page.locator("text=\\(").count() == 0 or not has_math
    return report


def _check_steps_drawn_directly(page, relative: str, tally: dict[str, list[str]]) -> None:
    """A step of every slider drawn directly in the SVG looks as Plotly draws the same state (the first step
    after the page loaded included), and Plotly's data follow. Both drawings of a step that differs are
    saved in ``test-artifacts/steps/``."""
    for figure_index in range(page.locator("figure.rope-viz-demo").count()):
        figure = page.locator("figure.rope-viz-demo").nth(figure_index)
        for slider_index in range(figure.locator("input[type=range]").count()):
            where = f"{relative} figure {figure_index} slider {slider_index}"
            step = compare_step(page, figure_index, slider_index, None, where)
            if step.path != "direct":
                tally["redrawn"].append(where)
                continue
            tally["direct"].append(where)
            if step.canvases:
                tally["on canvas"].append(where)
            if step.share > MAX_DIFFERING_PIXELS:
                stem = f"{Path(relative).stem}-figure{figure_index}-slider{slider_index}"
                keep_drawings(step, ARTIFACTS / "steps", stem)
            assert step.share <= MAX_DIFFERING_PIXELS, (
                f"{where}: {step.share:.2%} of the pixels differ from Plotly's drawing"
            )
            assert not step.missing and not step.extra, (
                f"{where}: words of Plotly's drawing not drawn directly {step.missing}, "
                f"drawn directly and not by Plotly {step.extra}"
            )


def _check_sweeps(page, relative: str, tally: dict[str, list[str]]) -> None:
    """Every value of every slider, one after another: no value changes the height of its figure (the
    readout keeps room for its longest text), so the page below never jumps while a reader drags, and Plotly
    draws none of the steps ("redrawn in a sweep" tallies those it does). A second sweep hands each step to
    Plotly: every step drawn directly showed the words of Plotly's drawing of the same state in the same
    places (tick labels, axis titles moved beside them, annotations)."""
    for figure_index in range(page.locator("figure.rope-viz-demo").count()):
        figure = page.locator("figure.rope-viz-demo").nth(figure_index)
        figure.scroll_into_view_if_needed()
        for slider_index in range(figure.locator("input[type=range]").count()):
            where = f"{relative} figure {figure_index} slider {slider_index}"
            sweep = page.evaluate(SWEEP, [figure_index, slider_index, False])
            tally["redrawn in a sweep"] += [f"{where} at {value}" for value in sweep["redrawn"]]
            heights = sweep["heights"]
            assert max(heights) - min(heights) < 0.5, f"{where}: heights {sorted(set(heights))}"
            for step in page.evaluate(SWEEP, [figure_index, slider_index, True])["words"]:
                missing, extra = text_differences(step["direct"], step["plotly"])
                assert not missing and not extra, (
                    f"{where} at {step['value']}: words of Plotly's drawing not drawn directly {missing}, "
                    f"drawn directly and not by Plotly {extra}"
                )


#: Longer than a reader's pause between two key presses of a lecture: no Plotly redraw may come after it.
REST_MS = 700


def _check_every_slider_changes_the_plot(page, relative: str, tally: dict[str, list[str]]) -> None:
    """Each slider moved by the keyboard to its further end changes the plotted data and its value text.

    A step drawn directly stays so while the slider rests, with no Plotly redraw after it that could fall
    between two key presses; the pointer entering the plot hands the state to Plotly (its hover labels and
    tools then show it)."""
    figures = page.locator("figure.rope-viz-demo").count()
    assert figures >= 1, f"{relative} has no interactive figure"
    for figure_index in range(figures):
        figure = page.locator("figure.rope-viz-demo").nth(figure_index)
        plot_svg = figure.locator(".rope-viz-plot .main-svg").first
        # A plot out of view is not rendered (content-visibility: auto): look at it as a reader would.
        figure.scroll_into_view_if_needed()
        plot_svg.wait_for(state="visible", timeout=5_000)
        assert plot_svg.is_visible(), f"{relative} figure {figure_index} is not drawn"
        sliders = figure.locator("input[type=range]")
        assert sliders.count() >= 1
        for slider_index in range(sliders.count()):
            slider = sliders.nth(slider_index)
            before = _plotted_data(page, figure_index)
            renders = int(figure.get_attribute("data-renders"))
            output_before = figure.locator("output").nth(slider_index).inner_text()
            slider.focus()
            # Move towards whichever end is further away, so the value really changes.
            value, maximum = int(slider.input_value()), int(slider.get_attribute("max"))
            page.keyboard.press("End" if maximum - value >= value else "Home")
            page.wait_for_function(
                "([el, n]) => Number(el.dataset.renders) > n",
                arg=[figure.element_handle(), renders],
                timeout=5_000,
            )
            if figure.get_attribute("data-path") == "direct":
                page.wait_for_timeout(REST_MS)
                assert figure.get_attribute("data-committed") != figure.get_attribute("data-state"), (
                    f"{relative} figure {figure_index}: Plotly redrew a resting step"
                )
            plot = figure.locator(".rope-viz-plot").bounding_box()
            page.mouse.move(plot["x"] + plot["width"] / 2, max(plot["y"], 0) + 40)
            page.wait_for_function(
                "el => el.dataset.committed === el.dataset.state",
                arg=figure.element_handle(),
                timeout=5_000,
            )
            page.mouse.move(0, 0)
            after = _plotted_data(page, figure_index)
            assert after != before, f"{relative} figure {figure_index}: slider {slider_index} changed nothing"
            assert figure.locator("output").nth(slider_index).inner_text() != output_before


SCENES = """
i => {
  const figure = document.querySelectorAll('figure.rope-viz-demo')[i];
  const payload = JSON.parse(figure.querySelector('script.rope-viz-payload').textContent);
  return {scenes: payload.scenes, strides: payload.strides, readouts: payload.states.map(state => state.r)};
}
"""


def _check_scenes(page, relative: str, tally: dict[str, list[str]]) -> None:
    """Every figure shows a button per scene; pressing one (by keyboard) sets every slider to the scene's
    step, draws that state, shows the caption and marks that button alone as pressed; a slider moved off
    the scene clears the caption."""
    for figure_index in range(page.locator("figure.rope-viz-demo").count()):
        figure = page.locator("figure.rope-viz-demo").nth(figure_index)
        figure.scroll_into_view_if_needed()
        data = page.evaluate(SCENES, figure_index)
        buttons = figure.locator(".rope-viz-scenes button")
        where = f"{relative} figure {figure_index}"
        assert data["scenes"], f"{where} has no scenes"
        assert buttons.count() == len(data["scenes"]), where
        sliders = figure.locator("input[type=range]")
        for scene_index, scene in enumerate(data["scenes"]):
            button = buttons.nth(scene_index)
            assert button.inner_text() == scene["name"], where
            button.focus()
            page.keyboard.press("Enter")
            strides = zip(scene["indices"], data["strides"], strict=True)
            key = str(sum(index * stride for index, stride in strides))
            page.wait_for_function(
                "([el, key]) => el.dataset.state === key", arg=[figure.element_handle(), key], timeout=5_000
            )
            values = [int(sliders.nth(k).input_value()) for k in range(sliders.count())]
            assert values == scene["indices"], f"{where}, scene {scene['name']!r}: sliders at {values}"
            assert figure.locator(".rope-viz-readout").inner_text() == data["readouts"][int(key)]
            assert figure.locator(".rope-viz-scene-caption").inner_text() == scene["caption"]
            pressed = [buttons.nth(k).get_attribute("aria-pressed") for k in range(buttons.count())]
            assert pressed.count("true") == 1 and pressed[scene_index] == "true", f"{where}: {pressed}"
        # Off the scene: a slider step (to a state no scene names) clears the caption.
        last = data["scenes"][-1]["indices"]
        named = {tuple(scene["indices"]) for scene in data["scenes"]}
        for k in range(sliders.count()):
            maximum = int(sliders.nth(k).get_attribute("max"))
            for value in range(maximum + 1):
                moved = list(last)
                moved[k] = value
                if tuple(moved) not in named:
                    sliders.nth(k).focus()
                    sliders.nth(k).fill(str(value))
                    assert figure.locator(".rope-viz-scene-caption").inner_text() == "", where
                    assert figure.locator(".rope-viz-scenes button[aria-pressed=true]").count() == 0, where
                    break
            else:
                continue
            break


def _check_keyboard(page, relative: str, tally: dict[str, list[str]]) -> None:
    """Each figure by keyboard alone: an arrow key moves the focused slider one step and draws it, Home and
    End go to its ends, and Tab goes from each slider to the next, then on to the scene buttons."""
    for figure_index in range(page.locator("figure.rope-viz-demo").count()):
        figure = page.locator("figure.rope-viz-demo").nth(figure_index)
        figure.scroll_into_view_if_needed()
        sliders = figure.locator("input[type=range]")
        where = f"{relative} figure {figure_index}"
        sliders.first.focus()
        for k in range(sliders.count()):
            slider = sliders.nth(k)
            assert slider.evaluate("el => el === document.activeElement"), (
                f"{where}: Tab did not reach slider {k}"
            )
            value, maximum = int(slider.input_value()), int(slider.get_attribute("max"))
            key, expected = ("ArrowRight", value + 1) if value < maximum else ("ArrowLeft", value - 1)
            if maximum > 0:
                state = figure.get_attribute("data-state")
                page.keyboard.press(key)
                assert int(slider.input_value()) == expected, f"{where} slider {k}: {key}"
                page.wait_for_function(
                    "([el, state]) => el.dataset.state !== state",
                    arg=[figure.element_handle(), state],
                    timeout=5_000,
                )
            page.keyboard.press("Home")
            assert int(slider.input_value()) == 0, f"{where} slider {k}: Home"
            page.keyboard.press("End")
            assert int(slider.input_value()) == maximum, f"{where} slider {k}: End"
            page.keyboard.press("Tab")
        focused = page.evaluate("() => document.activeElement.closest('.rope-viz-scenes') !== null")
        assert focused, f"{where}: Tab after the last slider did not reach the scene buttons"


#: Every scene link of the page: its address, its figure's index on the page and the scene's slider indices
#: and caption (figure keys and scene slugs as the figure script makes them).
SCENE_LINKS = """
() => {
  const figures = [...document.querySelectorAll('figure.rope-viz-demo')];
  const taken = [];
  const keys = figures.map(figure => {
    const key = RopeVizFigures.figureKey(figure.getAttribute('aria-label'), taken);
    taken.push(key);
    return key;
  });
  return [...document.querySelectorAll('a[href^="#scene:"]')].map(link => {
    const [, key, name] = link.getAttribute('href').split(':');
    const figure = keys.indexOf(key);
    const script = figure < 0 ? null : figures[figure].querySelector('script.rope-viz-payload');
    const payload = script ? JSON.parse(script.textContent) : null;
    const scene = payload ? payload.scenes.find(s => RopeVizFigures.slug(s.name) === name) : null;
    const state = scene ? scene.indices.reduce((sum, index, k) => sum + index * payload.strides[k], 0) : null;
    return {href: link.getAttribute('href'), figure, state: String(state), scene: scene ? scene.name : null,
            caption: scene ? scene.caption : null};
  });
}
"""


def _check_scene_links(page, relative: str, tally: dict[str, list[str]]) -> None:
    """Every scene link in the text, clicked, shows its scene in its figure: sliders, state, caption, the
    scene's button pressed and focused, the figure in view; the page does not navigate. A link inside a
    closed answer (``<details>``) is clicked after its summary opens the answer."""
    links = page.evaluate(SCENE_LINKS)
    assert links, f"{relative} has no scene link in its text"
    url = page.url
    for k, link in enumerate(links):
        where = f"{relative}: link {link['href']}"
        assert link["scene"] is not None, f"{where} names no figure or scene of the page"
        figure = page.locator("figure.rope-viz-demo").nth(link["figure"])
        anchor = page.locator('a[href^="#scene:"]').nth(k)
        # A link in an answer is hidden until the reader opens its <details>: open it as a reader does.
        answer = anchor.locator("xpath=ancestor::details[1]")
        if answer.count() and not answer.evaluate("details => details.open"):
            answer.locator("summary").first.click()
        anchor.click()
        page.wait_for_function(
            "([el, key]) => el.dataset.state === key",
            arg=[figure.element_handle(), link["state"]],
            timeout=5_000,
        )
        assert figure.locator(".rope-viz-scene-caption").inner_text() == link["caption"], where
        focused = page.evaluate("() => document.activeElement.textContent")
        assert focused == link["scene"], f"{where}: the focus is on {focused!r}"
        assert figure.locator(".rope-viz-scenes button[aria-pressed=true]").inner_text() == link["scene"]
        top = figure.bounding_box()["y"]
        assert 0 <= top < page.viewport_size["height"] / 2, f"{where}: the figure is not in view ({top} px)"
        assert page.url.split("#")[0].split("?")[0] == url.split("#")[0].split("?")[0], where
        assert "#scene:" not in page.url, f"{where}: the link navigated"


#: The tool buttons a figure may show, each working in the page and offline. plotly.js 3 adds "Share chart..."
#: by default, which sends the figure to Plotly's servers after a confirmation; the figures turn it off.
OFFLINE_TOOLS = frozenset(
    {"Download plot as a PNG", "Zoom", "Pan", "Zoom in", "Zoom out", "Autoscale", "Reset axes"}
)


def _check_tool_buttons(page, relative: str, tally: dict[str, list[str]]) -> None:
    """Every tool button of every figure is one of :data:`OFFLINE_TOOLS`, and the first figure's camera button
    saves the plot as a PNG file."""
    titles = page.evaluate(
        "() => [...document.querySelectorAll('figure.rope-viz-demo')]"
        ".map(f => [...f.querySelectorAll('.modebar-btn')].map(b => b.getAttribute('data-title')))"
    )
    for index, names in enumerate(titles):
        assert set(names) <= OFFLINE_TOOLS, (
            f"{relative} figure {index}: tool buttons {sorted(set(names) - OFFLINE_TOOLS)}"
        )
        assert "Download plot as a PNG" in names, f"{relative} figure {index}: no camera button ({names})"
    figure = page.locator("figure.rope-viz-demo").first
    figure.locator(".rope-viz-plot").scroll_into_view_if_needed()
    figure.locator(".rope-viz-plot").hover()
    with page.expect_download(timeout=15_000) as download:
        figure.locator('.modebar-btn[data-title="Download plot as a PNG"]').click()
    name = download.value.suggested_filename
    assert name.endswith(".png"), f"{relative}: the camera button saved {name!r}"


#: The checks of a chapter page, in the order they run on it, each with its subtest's name. Each takes the
#: page, its path in the site and the tally of the steps drawn directly, redrawn by Plotly and on a canvas.
CHAPTER_CHECKS = (
    ("steps drawn directly match Plotly's drawing", _check_steps_drawn_directly),
    ("every value of every slider: same height, the words Plotly draws", _check_sweeps),
    ("every slider of every figure changes the plot", _check_every_slider_changes_the_plot),
    ("arrow keys step, Home and End reach the ends, Tab goes from control to control", _check_keyboard),
    ("every scene button sets the sliders, draws the scene and shows its caption", _check_scenes),
    ("every scene link in the text shows its scene", _check_scene_links),
    ("every tool button works offline; the camera saves a PNG", _check_tool_buttons),
)


def test_every_page_in_one_visit(built_site, open_page, subtests):
    """Open each page once and run every check on it in turn (see the module docstring for the order)."""
    ARTIFACTS.mkdir(exist_ok=True)
    report = {}
    tally: dict[str, list[str]] = {"direct": [], "redrawn": [], "on canvas": [], "redrawn in a sweep": []}
    chapters = 0
    for relative in built_site.relative_pages():
        page, problems, blocked = open_page(relative, height=VIEWPORT_HEIGHT)
        chapter = relative.startswith("notebooks/")
        with subtests.test("loads cleanly offline and renders its math", page=relative):
            wait_for_math(page)
            # Settled: every figure drawn and its idle-time preparation done, as the direct steps need.
            wait_for_figures(page, settled=True)
            report[relative] = _check_loads_cleanly(page, relative, problems, blocked)
        if chapter:
            chapters += 1
            for name, check in CHAPTER_CHECKS:
                with subtests.test(name, page=relative):
                    seen = len(problems), len(blocked)
                    settle_figures(page)
                    check(page, relative, tally)
                    assert problems[seen[0] :] == [], f"{relative}: {problems[seen[0] :]}"
                    assert blocked[seen[1] :] == [], f"{relative}: {blocked[seen[1] :]}"
        page.context.close()
    report["steps"] = {name: len(entries) for name, entries in tally.items()}
    report["steps redrawn by Plotly"] = tally["redrawn"] + tally["redrawn in a sweep"]
    (ARTIFACTS / "browser-report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    assert chapters, "no chapter pages"
    # The slider latency rests on the direct path: every step of every slider takes it.
    assert tally["redrawn"] == [], f"steps redrawn by Plotly: {tally['redrawn']}"
    assert tally["redrawn in a sweep"] == [], f"steps redrawn by Plotly: {tally['redrawn in a sweep']}"
    # Heatmaps and clouds of markers are painted on canvas layers.
    assert tally["on canvas"], "no step drawn directly showed a canvas layer"


def test_figures_follow_the_dark_theme(built_site, open_page):
    chapter = next(relative for relative in built_site.relative_pages() if relative.startswith("notebooks/"))
    page, problems, _ = open_page(chapter, color_scheme="dark")
    wait_for_figures(page)
    page.evaluate("() => document.documentElement.dataset.theme = 'dark'")
    page.wait_for_timeout(300)
    font_color = page.evaluate(
        "() => document.querySelector('figure.rope-viz-demo .rope-viz-plot').layout.font.color"
    )
    assert font_color.lower() == "#ced6dd"
    shot = ARTIFACTS / "screenshots" / (Path(chapter).stem + "__dark.png")
    page.locator("figure.rope-viz-demo").first.screenshot(path=str(shot))
    assert problems == []


#: Each figure's readout: its width and the height kept for its longest text.
READOUT_ROOM = """() => [...document.querySelectorAll('figure.rope-viz-demo .rope-viz-readout')]
    .map(readout => [readout.clientWidth, readout.style.minHeight])"""


#: Resolves once the first readout has kept one width for ten frames in a row (the sidebar may slide away).
SETTLED_WIDTH = """() => new Promise(resolve => {
    const readout = document.querySelector('figure.rope-viz-demo .rope-viz-readout');
    let width = readout.clientWidth;
    let same = 0;
    function frame() {
        same = readout.clientWidth === width ? same + 1 : 0;
        width = readout.clientWidth;
        if (same >= 10) { resolve(width); } else { requestAnimationFrame(frame); }
    }
    requestAnimationFrame(frame);
})"""


def test_hiding_the_sidebar_makes_the_readouts_room_again_at_their_new_width(built_site, open_page):
    """The theme's sidebar button widens the article without resizing the window. Every readout keeps
    room for its longest text at its new width at once, as a window resize would give it (a readout that
    kept the room of its old width would grow at a later step and move the page under it)."""
    page, problems, _ = open_page("notebooks/07_extension_methods_compared.html", width=1280)
    wait_for_figures(page, settled=True)
    before = page.evaluate(READOUT_ROOM)
    page.locator(".primary-toggle").first.click()
    page.wait_for_function(
        "width => document.querySelector('.rope-viz-readout').clientWidth > width", arg=before[0][0]
    )
    page.evaluate(SETTLED_WIDTH)
    widened = page.evaluate(READOUT_ROOM)
    assert all(now[0] > then[0] for now, then in zip(widened, before, strict=True)), (before, widened)
    assert [room for _, room in widened] != [room for _, room in before], "no readout's room changed"
    # What the window's resize measures (when the page is next idle) is what is already kept.
    page.evaluate("() => window.dispatchEvent(new Event('resize'))")
    page.wait_for_timeout(1500)
    assert page.evaluate(READOUT_ROOM) == widened
    assert problems == []
