"""The contrast of the words Plotly draws in the figures' plots, read from the page.

axe-core checks the contrast of HTML text, not of the SVG text of a plot (tick labels, titles, legends, the
numbers beside points, annotations). Shared by the site's audit (:mod:`tests.site.test_accessibility`) and the
live figures' audit in the real clients (:mod:`tests.live.test_live_notebooks`): every word of every plot
must have :data:`LEAST_CONTRAST` or more against what lies behind the plot (its first ancestor with a
background: the plots' own backgrounds are transparent, so that they follow the page's theme).

Left out: the numbers in heatmap cells (Plotly gives each the colour that contrasts most with its cell, and
the cell, not the page, lies behind it), the tool buttons and hover labels (Plotly's own, on their own
backgrounds), and words that are hidden or fully transparent. A word's colour is taken with its opacity and
its groups'.
"""

from __future__ import annotations

#: WCAG 2's level AA for text of normal size.
LEAST_CONTRAST = 4.5

#: The words of the page's plots below :data:`LEAST_CONTRAST`: per word its figure, contrast (rounded to two
#: decimals), colour, text and the class of its group (what part of the plot it is).
PLOT_TEXT_CONTRAST = """
(least) => {
  const channels = text => (text.match(/[\\d.]+/g) || []).map(Number);
  const luminance = rgb => {
    const [r, g, b] = rgb.map(v => v / 255).map(v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const low = [];
  document.querySelectorAll('figure.rope-viz-demo').forEach((figure, index) => {
    let element = figure, background = null;
    while (element && !background) {
      const colour = channels(getComputedStyle(element).backgroundColor);
      if (colour.length === 3 || (colour.length === 4 && colour[3] > 0)) background = colour.slice(0, 3);
      element = element.parentElement;
    }
    background = background || [255, 255, 255];
    figure.querySelectorAll('.rope-viz-plot .main-svg text').forEach(text => {
      if (!text.textContent.trim() || text.closest('.modebar, .hoverlayer, .heatmap-label')) return;
      const style = getComputedStyle(text);
      if (style.visibility === 'hidden' || style.display === 'none') return;
      const fill = channels(style.fill);
      let alpha = (fill.length === 4 ? fill[3] : 1) * Number(style.fillOpacity);
      for (let node = text; node && node.tagName !== 'svg'; node = node.parentElement) {
        alpha *= Number(getComputedStyle(node).opacity);
      }
      if (alpha === 0) return;
      const shown = fill.slice(0, 3).map((value, k) => value * alpha + background[k] * (1 - alpha));
      const [high, dark] = [luminance(shown), luminance(background)].sort((a, b) => b - a);
      const ratio = (high + 0.05) / (dark + 0.05);
      if (ratio < least) {
        const part = text.closest('g[class]');
        low.push({figure: index, ratio: Math.round(ratio * 100) / 100, fill: style.fill,
                  text: text.textContent.slice(0, 40), part: part ? part.getAttribute('class') : ''});
      }
    });
  });
  return low;
}
"""


def low_contrast_words(page, where: str) -> list[str]:
    """The words of the plots on ``page`` under :data:`LEAST_CONTRAST`, one line each (empty if none)."""
    return [
        f"{where} figure {word['figure']}: {word['ratio']}:1 for {word['text']!r} "
        f"({word['part']}, {word['fill']})"
        for word in page.evaluate(PLOT_TEXT_CONTRAST, LEAST_CONTRAST)
    ]
