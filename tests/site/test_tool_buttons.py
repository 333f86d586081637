"""Plotly's tool buttons (zoom, pan, download ...) on every figure of every chapter, at the page's width and
on a phone, as a reader brings them up: the pointer over the plot, or a tap on it.

They sit in a band of their own above the plot's drawing (``rope-viz-figures.css``). Inside the drawing, at
its top right, they covered the end of a long title or legend entry on eight of the course's figures at
1280 px, and on a phone, where they keep their own size on a plot scaled to half of its, a title's middle.

Checked on each figure with the buttons shown: no text of the plot, and no other part of the figure (sliders,
scene buttons, caption, readout, the buttons under it), lies under them; they lie inside the figure; and the
browser's hit test at each button's centre finds that button (it is painted there and takes a click or a
tap). ``test_present.py`` checks the same in the presenter view, ``test_lecture.py`` on every slide of the
lecture deck.

Their icons' contrast with their bar is part of the audit of the plots' words (:mod:`tests.site.plot_text`).
"""

from __future__ import annotations

import pytest

from tests.site.conftest import ROOT, wait_for_figures

pytestmark = pytest.mark.browser

CHAPTERS = sorted(f"notebooks/{path.stem}.html" for path in (ROOT / "notebooks").glob("*.ipynb"))
#: Plotly fades the buttons in over 0.3 s.
FADE_MS = 500

#: What lies under the tool buttons of a figure's plot, and whether each button takes the pointer.
UNDER_THE_BUTTONS = """
figure => {
  const plot = figure.querySelector('.rope-viz-plot');
  const bar = plot.querySelector('.modebar');
  // Plotly fades the bar's groups in and out, not the bar.
  const group = bar && bar.querySelector('.modebar-group');
  if (!group || getComputedStyle(group).opacity !== '1') { return {shown: false}; }
  const box = bar.getBoundingClientRect();
  const meets = element => {
    const r = element.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.left < box.right && r.right > box.left && r.top < box.bottom &&
      r.bottom > box.top;
  };
  const texts = [...plot.querySelectorAll('svg text')].filter(text => text.textContent.trim() && meets(text))
    .map(text => text.textContent.trim());
  const parts = [...figure.querySelectorAll(
    '.rope-viz-controls, .rope-viz-scenes button, .rope-viz-scene-caption, .rope-viz-readout, ' +
    '.rope-viz-link button, .rope-viz-present button')]
    .filter(meets).map(part => part.className || part.textContent);
  // A figure laid out on a lecture slide has no box of its own (display: contents): the window stands for it.
  const outer = getComputedStyle(figure).display === 'contents' ?
    {left: 0, top: 0, right: innerWidth, bottom: innerHeight} : figure.getBoundingClientRect();
  const inside = box.left >= outer.left && box.right <= outer.right && box.top >= outer.top &&
    box.bottom <= outer.bottom;
  const missed = [...bar.querySelectorAll('.modebar-btn')].filter(button => {
    const r = button.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(hit && hit.closest('.modebar-btn') === button);
  }).map(button => button.dataset.title);
  return {shown: true, texts, parts, inside, missed};
}
"""


def tool_button_problems(page, figure, where: str, touch: bool = False) -> list[str]:
    """Bring up the tool buttons of ``figure`` (a locator) with the pointer, or a tap, on a corner of its
    plot's paper, where there is nothing to hover or to toggle; return what is wrong with them (empty if
    nothing), and move the pointer away again."""
    box = figure.locator(".rope-viz-plot").bounding_box()
    if touch:
        page.touchscreen.tap(box["x"] + 3, box["y"] + 3)
    else:
        page.mouse.move(box["x"] + 3, box["y"] + 3)
    page.wait_for_timeout(FADE_MS)
    found = figure.evaluate(UNDER_THE_BUTTONS)
    if not touch:
        page.mouse.move(1, 1)
    if not found["shown"]:
        return [f"{where}: the tool buttons did not show"]
    problems = []
    if found["texts"]:
        problems.append(f"{where}: the tool buttons cover the plot's {found['texts']}")
    if found["parts"]:
        problems.append(f"{where}: the tool buttons cover {found['parts']}")
    if not found["inside"]:
        problems.append(f"{where}: the tool buttons lie outside the figure")
    if found["missed"]:
        problems.append(f"{where}: a click on {found['missed']} does not reach the button")
    return problems


def _check_every_figure(page, relative: str, touch: bool) -> list[str]:
    problems = []
    for index in range(wait_for_figures(page, settled=True)):
        figure = page.locator("figure.rope-viz-demo").nth(index)
        plot = figure.locator(".rope-viz-plot")
        plot.scroll_into_view_if_needed()
        # The plot's top a third of the way down the window, clear of the page's sticky header.
        third = page.viewport_size["height"] / 3
        page.evaluate("y => window.scrollBy(0, y)", plot.bounding_box()["y"] - third)
        page.wait_for_timeout(200)
        problems += tool_button_problems(page, figure, f"{relative} figure {index}", touch)
    return problems


@pytest.mark.parametrize("relative", CHAPTERS)
def test_tool_buttons_cover_nothing_at_the_page_width(open_page, relative):
    page, errors, _ = open_page(relative)
    assert _check_every_figure(page, relative, touch=False) == []
    assert errors == [], errors


@pytest.mark.parametrize("relative", CHAPTERS)
def test_tool_buttons_cover_nothing_on_a_phone(open_page, relative):
    page, errors, _ = open_page(relative, width=390, height=844, phone=True)
    assert _check_every_figure(page, relative, touch=True) == []
    assert errors == [], errors
