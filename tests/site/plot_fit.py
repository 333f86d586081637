"""How a figure's plot is fitted to a figure narrower than its layout, read from the page.

Shared by the phone pass of the site (:mod:`tests.site.test_phone`) and the narrow notebook panel of the real
clients (:mod:`tests.live.test_live_notebooks`): on both, a figure narrower than ``NARROWEST_PLOT`` in
``rope-viz-figures.js`` lays its plot out at that width and scales it down to the figure's width, whole.
"""

from __future__ import annotations

from typing import Any

#: The most lines an empty scene caption keeps free (``CAPTION_LINES`` in ``rope-viz-figures.js``): a
#: narrow figure does not show an empty band of many lines above its plot while no scene is on screen.
MOST_CAPTION_LINES = 2

#: Per figure: how its plot is scaled and placed, and the texts of the plot that reach past its edge.
PLOT_FIT = """
figure => {
  const plot = figure.querySelector('.rope-viz-plot');
  const svg = plot.querySelector('svg.main-svg');
  const shown = plot.getBoundingClientRect();
  const style = getComputedStyle(figure);
  const box = figure.getBoundingClientRect();
  const left = box.left + figure.clientLeft + parseFloat(style.paddingLeft);
  const inner = figure.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const content = {left: left, right: left + inner};
  const cut = [...plot.querySelectorAll('text')].filter(text => {
    if (!text.textContent.trim() || text.closest('.modebar')) return false;
    const style = getComputedStyle(text);
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    const rect = text.getBoundingClientRect();
    return rect.width > 0 && (rect.left < shown.left - 1 || rect.right > shown.right + 1);
  }).map(text => text.textContent.slice(0, 50));
  let after = plot.nextElementSibling;
  while (after && after.getBoundingClientRect().height === 0) after = after.nextElementSibling;
  const next = after.getBoundingClientRect();
  const caption = figure.querySelector('.rope-viz-scene-caption');
  const captionStyle = caption && getComputedStyle(caption);
  const captionLines = caption
    ? parseFloat(captionStyle.minHeight) / parseFloat(captionStyle.lineHeight) || 0 : 0;
  return {
    fit: Number(plot.dataset.fit || 0),
    laidOut: Number(svg.getAttribute('width')),
    layoutWidth: plot.offsetWidth,
    shown: {left: shown.left, right: shown.right, width: shown.width, bottom: shown.bottom},
    content: content,
    gapBelow: next.top - shown.bottom,
    cut: cut,
    captionLines: captionLines,
  };
}
"""


def fit_problems(fit: dict[str, Any], where: str) -> list[str]:
    """What is wrong with a plot that should be scaled down whole (``fit`` as :data:`PLOT_FIT` reads it).

    The plot is scaled below 1; Plotly drew it at its layout width; it is shown at that width times the scale,
    inside its figure's content box; the next element (the readout) starts 0 to 12 px under its drawing; no
    text of the plot reaches past its edge; and the scene caption above it keeps room for at most
    :data:`MOST_CAPTION_LINES` lines while it is empty.
    """
    shown, content = fit["shown"], fit["content"]
    checks = [
        (0 < fit["fit"] < 1, "the plot is not scaled down"),
        (fit["laidOut"] == fit["layoutWidth"], "Plotly drew another width than the plot's layout"),
        (abs(shown["width"] - fit["layoutWidth"] * fit["fit"]) < 1, "the plot is not shown at its scale"),
        (content["left"] - 1 <= shown["left"], "the plot starts left of its figure"),
        (shown["right"] <= content["right"] + 1, "the plot ends right of its figure"),
        (0 <= fit["gapBelow"] <= 12, f"{fit['gapBelow']:.0f} px from the plot to the text under it"),
        (fit["cut"] == [], f"texts of the plot cut off at its edge: {fit['cut']}"),
        (
            fit["captionLines"] <= MOST_CAPTION_LINES + 0.05,
            f"the scene caption keeps room for {fit['captionLines']:.1f} lines above the plot",
        ),
    ]
    return [f"{where}: {message} ({fit})" for passed, message in checks if not passed]
