"""One slider step drawn directly in the SVG, then by Plotly, and the two drawings compared pixel by pixel.

Shared by the chapters' browser pass (:mod:`tests.site.test_browser`, one step of every slider of the
course's figures) and the feature pages (:mod:`tests.site.test_drawing_features`, every step of every
feature), so that both hold the direct drawing to the same measure.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: A channel difference above this counts a pixel as different (anti-aliasing stays below it).
PIXEL_TOLERANCE = 48
#: Share of a figure's pixels that may differ between the direct drawing and Plotly's: dash phases of a
#: dashed curve whose points Plotly thins out (measured at 0.1 %), and the numbers in the cells of a heatmap
#: whose subplot starts half a pixel down, painted on a canvas one pixel higher than Plotly's SVG text
#: (chapter 1's first figure, top row: 0.50 to 0.52 % of its pixels).
MAX_DIFFERING_PIXELS = 0.006

#: Move slider ``sliderIndex`` of figure ``figureIndex`` to ``target`` (else one step); resolves to how the
#: step was drawn, ``"direct"`` or ``"full"``. A step drawn directly stays on screen until a commit.
STEP_AND_HOLD = """
async ([figureIndex, sliderIndex, target]) => {
  const figure = document.querySelectorAll('figure.rope-viz-demo')[figureIndex];
  const input = figure.querySelectorAll('input[type=range]')[sliderIndex];
  const value = Number(input.value);
  input.value = String(target ?? (value < Number(input.max) ? value + 1 : value - 1));
  const rendered = new Promise(resolve =>
    figure.addEventListener('rope-viz:rendered', event => resolve(event.detail.path), {once: true}));
  input.dispatchEvent(new Event('input', {bubbles: true}));
  const path = await rendered;
  await new Promise(resolve => setTimeout(resolve, 150));
  return path;
}
"""

#: The canvas layers of a figure that are shown (the direct drawing paints heatmaps and marker clouds there).
SHOWN_CANVASES = """
figure => [...figure.querySelectorAll('foreignObject.rope-viz-canvas')]
  .filter(node => getComputedStyle(node).visibility !== 'hidden').length
"""

#: A page-script function ``(element, plot) => bool``: whether an element of a plot shows (neither it nor an
#: ancestor up to the plot out of display, hidden or fully transparent).
SHOWN_IN_PLOT = """
(element, plot) => {
  for (let node = element; node && node !== plot; node = node.parentElement) {
    const style = getComputedStyle(node);
    const hidden = style.display === 'none' || style.visibility === 'hidden';
    if (hidden || Number(style.opacity) === 0) return false;
  }
  return true;
}
""".strip()

#: The words of a figure's plot that show: every SVG text with words, not hidden, inside the plot (its centre,
#: width and height in px from the plot's top left), and the boxes of the canvas layers shown.
SHOWN_TEXTS = (
    """
figure => {
  const plot = figure.querySelector('.rope-viz-plot');
  const origin = plot.getBoundingClientRect();
  const relative = rect =>
    ({x: rect.x - origin.x, y: rect.y - origin.y, width: rect.width, height: rect.height});
  const shown = element => ("""
    + SHOWN_IN_PLOT
    + """)(element, plot);
  const texts = [...plot.querySelectorAll('svg text')]
    .filter(text => text.textContent.trim() && shown(text))
    .map(text => ({text: text.textContent.trim(), ...relative(text.getBoundingClientRect())}))
    .map(box => ({text: box.text, x: box.x + box.width / 2, y: box.y + box.height / 2,
                  width: box.width, height: box.height}))
    .filter(box => box.width > 0 && box.x >= 0 && box.y >= 0)
    .filter(box => box.x <= origin.width && box.y <= origin.height);
  const canvases = [...plot.querySelectorAll('foreignObject.rope-viz-canvas')]
    .filter(node => getComputedStyle(node).visibility !== 'hidden')
    .map(node => relative(node.getBoundingClientRect()));
  return {texts, canvases};
}
"""
)

#: How far (px) the centre of a word may lie from where Plotly puts it.
TEXT_SLACK_PX = 3


def text_differences(direct: dict, plotly: dict) -> tuple[list[str], list[str]]:
    """Words that Plotly's drawing shows and the direct drawing does not (missing), and the other way round
    (extra), each with its place; a word of Plotly's that lies on a canvas layer of the direct drawing is
    painted there, not missing. ``direct`` and ``plotly`` come from :data:`SHOWN_TEXTS`."""

    def near(word: dict, others: list[dict]) -> bool:
        return any(
            other["text"] == word["text"]
            and abs(other["x"] - word["x"]) <= TEXT_SLACK_PX
            and abs(other["y"] - word["y"]) <= TEXT_SLACK_PX
            for other in others
        )

    def on_canvas(word: dict) -> bool:
        return any(
            box["x"] <= word["x"] <= box["x"] + box["width"]
            and box["y"] <= word["y"] <= box["y"] + box["height"]
            for box in direct["canvases"]
        )

    def named(word: dict) -> str:
        return f"{word['text']!r} at ({word['x']:.0f}, {word['y']:.0f})"

    missing = [
        named(word) for word in plotly["texts"] if not near(word, direct["texts"]) and not on_canvas(word)
    ]
    extra = [named(word) for word in direct["texts"] if not near(word, plotly["texts"])]
    return missing, extra


#: After Plotly's drawing, before its screenshot: time for chromium to paint it.
PAINT_WAIT_MS = 150


def differing_share(first: bytes, second: bytes) -> float:
    """Share of the pixels of two same-sized PNG images whose channels differ by more than
    :data:`PIXEL_TOLERANCE` (on the grey level of the difference)."""
    from PIL import Image, ImageChops

    one = Image.open(io.BytesIO(first)).convert("RGB")
    two = Image.open(io.BytesIO(second)).convert("RGB")
    assert one.size == two.size
    difference = (
        ImageChops.difference(one, two).convert("L").point(lambda v: 255 if v > PIXEL_TOLERANCE else 0)
    )
    return sum(1 for value in difference.get_flattened_data() if value) / (one.size[0] * one.size[1])


@dataclass
class ComparedStep:
    """A step drawn directly and then by Plotly.

    Attributes
    ----------
    path : {"direct", "full"}
        How the figure script drew the step.
    canvases : int
        Canvas layers shown after the step (before Plotly's drawing).
    share : float or None
        Share of the pixels that differ between the two drawings; None for a step Plotly drew itself.
    direct, plotly : bytes or None
        The two screenshots of the plot (None for a step Plotly drew itself).
    missing, extra : list of str
        Words Plotly's drawing shows that the direct drawing does not, and the other way round (see
        :func:`text_differences`); a missing label is too few pixels to fail the share.

    """

    path: str
    canvases: int
    share: float | None
    direct: bytes | None
    plotly: bytes | None
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)


def compare_step(
    page: Any, figure_index: int, slider_index: int, target: int | None = None, where: str = ""
) -> ComparedStep:
    """Step a slider (to ``target``, else one step) and compare the direct drawing with Plotly's.

    A step drawn directly is screenshotted, then Plotly draws the same state (the figure's
    ``rope-viz:commit`` event) and is screenshotted again. Plotly's drawing must hide the canvas layers (and
    show again what they covered); a layer left over it fails here, as it would hide Plotly's pixels.
    ``where`` names the step in a failure's message.
    """
    figure = page.locator("figure.rope-viz-demo").nth(figure_index)
    plot = figure.locator(".rope-viz-plot")
    path = page.evaluate(STEP_AND_HOLD, [figure_index, slider_index, target])
    canvases = figure.evaluate(SHOWN_CANVASES)
    if path != "direct":
        return ComparedStep(path, canvases, None, None, None)
    drawn_directly = plot.screenshot()
    texts_drawn_directly = figure.evaluate(SHOWN_TEXTS)
    assert figure.get_attribute("data-committed") != figure.get_attribute("data-state"), (
        f"{where}: Plotly drew the step before it was held back"
    )
    figure.evaluate("f => f.dispatchEvent(new CustomEvent('rope-viz:commit'))")
    page.wait_for_function(
        "el => el.dataset.committed === el.dataset.state", arg=figure.element_handle(), timeout=5_000
    )
    page.wait_for_timeout(PAINT_WAIT_MS)
    assert figure.evaluate(SHOWN_CANVASES) == 0, f"{where}: a canvas layer stayed over Plotly's drawing"
    drawn_by_plotly = plot.screenshot()
    share = differing_share(drawn_directly, drawn_by_plotly)
    missing, extra = text_differences(texts_drawn_directly, figure.evaluate(SHOWN_TEXTS))
    return ComparedStep(path, canvases, share, drawn_directly, drawn_by_plotly, missing, extra)


def keep_drawings(step: ComparedStep, folder: Path, stem: str) -> None:
    """Write both drawings of a compared step to ``folder`` as ``STEM-direct.png`` and ``STEM-plotly.png``,
    for a reader of a failure to look at."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}-direct.png").write_bytes(step.direct)
    (folder / f"{stem}-plotly.png").write_bytes(step.plotly)
