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
  const payload = figure.querySelector('script.rope-viz-payload');
  return {
    narrowest: payload ? JSON.parse(payload.textContent).narrowest : null,
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

    The plot is scaled below 1; Plotly drew it at its layout width, on the site its figure's narrowest width
    (``narrowest`` in the payload); it is shown at that width times the scale,
    inside its figure's content box; the next element (the readout) starts 0 to 12 px under its drawing; no
    text of the plot reaches past its edge; and the scene caption above it keeps room for at most
    :data:`MOST_CAPTION_LINES` lines while it is empty.
    """
    shown, content = fit["shown"], fit["content"]
    checks = [
        (0 < fit["fit"] < 1, "the plot is not scaled down"),
        (fit["laidOut"] == fit["layoutWidth"], "Plotly drew another width than the plot's layout"),
        (
            fit["narrowest"] is None or fit["laidOut"] == fit["narrowest"],
            f"the plot is not laid out at its figure's narrowest width, {fit['narrowest']} px",
        ),
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


#: The plot's texts at its present layout: those that reach past its edge, those that come within 6 px of
#: it (a title drawn across the whole plot), and the pairs (by their words) whose boxes overlap by more than
#: 1.5 px each way. A text hidden by Plotly (a marker's label outside its axes) counts for none.
PLOT_TEXTS = """
figure => {
  const plot = figure.querySelector('.rope-viz-plot');
  const box = plot.getBoundingClientRect();
  const rects = [...plot.querySelectorAll('text')].filter(text => {
    if (!text.textContent.trim() || text.closest('.modebar') || text.closest('[display=none]')) return false;
    const style = getComputedStyle(text);
    const shown = style.visibility !== 'hidden' && style.display !== 'none';
    return shown && text.getBoundingClientRect().width > 0;
  }).map(text => {
    const rect = text.getBoundingClientRect();
    return {words: text.textContent.slice(0, 40), left: rect.left, right: rect.right, top: rect.top,
            bottom: rect.bottom};
  });
  const cut = rects.filter(rect => rect.left < box.left - 1 || rect.right > box.right + 1)
    .map(rect => rect.words);
  const edge = rects.filter(rect => rect.left < box.left + 6 || rect.right > box.right - 6)
    .map(rect => rect.words);
  const overlaps = [];
  rects.forEach((a, i) => rects.slice(i + 1).forEach(b => {
    const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (across > 1.5 && down > 1.5) overlaps.push([a.words, b.words].sort().join(' | '));
  }));
  return {cut: cut, edge: edge, overlaps: overlaps};
}
"""
