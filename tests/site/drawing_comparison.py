"""One slider step drawn directly in the SVG, then by Plotly, and the two drawings compared pixel by pixel.

Shared by the chapters' browser pass (:mod:`tests.site.test_browser`, one step of every slider of the
course's figures) and the feature pages (:mod:`tests.site.test_drawing_features`, every step of every
feature), so that both hold the direct drawing to the same measure.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
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

    """

    path: str
    canvases: int
    share: float | None
    direct: bytes | None
    plotly: bytes | None


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
    return ComparedStep(path, canvases, share, drawn_directly, drawn_by_plotly)


def keep_drawings(step: ComparedStep, folder: Path, stem: str) -> None:
    """Write both drawings of a compared step to ``folder`` as ``STEM-direct.png`` and ``STEM-plotly.png``,
    for a reader of a failure to look at."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}-direct.png").write_bytes(step.direct)
    (folder / f"{stem}-plotly.png").write_bytes(step.plotly)
