"""The contrast of the words Plotly draws in the figures' plots, read from the page.

axe-core checks the contrast of HTML text, not of the SVG text of a plot (tick labels, titles, legends, the
numbers beside points, annotations). Shared by the site's audit (:mod:`tests.site.test_accessibility`) and the
live figures' audit in the real clients (:mod:`tests.live.test_live_notebooks`): every word of every plot
must have :data:`LEAST_CONTRAST` or more against what lies behind the plot (its first ancestor with a
background: the plots' own backgrounds are transparent, so that they follow the page's theme).

Left out: the numbers in heatmap cells (Plotly gives each the colour that contrasts most with its cell, and
the cell, not the page, lies behind it), hover labels (Plotly's own, on their own backgrounds), and words that
are hidden or fully transparent. A word's colour is taken with its opacity and its groups'.

The icons of Plotly's tool buttons are checked too, at rest, against their bar as it shows over that
background: :data:`LEAST_ICON_CONTRAST` or more. Plotly's own colours there (on the transparent paper the
figures have), white at 30 % on black at 50 %, gave 1.6:1 on the light page and 2.6:1 on the dark one; the
figures give them the theme's (``themeUpdate`` in ``rope-viz-figures.js``).
"""

from __future__ import annotations

#: WCAG 2's level AA for text of normal size.
LEAST_CONTRAST = 4.5
#: WCAG 2.1's least contrast for the parts of a user interface component (success criterion 1.4.11).
LEAST_ICON_CONTRAST = 3.0
#: The two, as :data:`PLOT_TEXT_CONTRAST` takes them.
LEAST = (LEAST_CONTRAST, LEAST_ICON_CONTRAST)

#: The words of the page's plots below :data:`LEAST_CONTRAST` and the tool buttons' icons below
#: :data:`LEAST_ICON_CONTRAST` (takes :data:`LEAST`): per word or icon its figure, contrast (rounded to two
#: decimals), colour, text (a button's title) and the class of its group (what part of the plot it is).
PLOT_TEXT_CONTRAST = """
([least, leastIcon]) => {
  const channels = text => (text.match(/[\\d.]+/g) || []).map(Number);
  // A colour [r, g, b] or [r, g, b, a] seen over an opaque one.
  const over = (top, bottom) => {
    const alpha = top.length === 4 ? top[3] : 1;
    return top.slice(0, 3).map((v, k) => v * alpha + bottom[k] * (1 - alpha));
  };
  const luminance = rgb => {
    const [r, g, b] = rgb.map(v => v / 255).map(v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => {
    const [high, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (high + 0.05) / (dark + 0.05);
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
      const shown = over(fill.slice(0, 3).concat([alpha]), background);
      const ratio = contrast(shown, background);
      if (ratio < least) {
        const part = text.closest('g[class]');
        low.push({figure: index, ratio: Math.round(ratio * 100) / 100, fill: style.fill,
                  text: text.textContent.slice(0, 40), part: part ? part.getAttribute('class') : ''});
      }
    });
    figure.querySelectorAll('.rope-viz-plot .modebar-btn').forEach(button => {
      const icon = button.querySelector('path');
      if (!icon) return;
      const group = button.closest('.modebar-group');
      const bar = over(channels(getComputedStyle(group).backgroundColor), background);
      const fill = getComputedStyle(icon).fill;
      const ratio = contrast(over(channels(fill), bar), bar);
      if (ratio < leastIcon) {
        low.push({figure: index, ratio: Math.round(ratio * 100) / 100, fill: fill,
                  text: button.dataset.title, part: 'modebar'});
      }
    });
  });
  return low;
}
"""


def low_contrast_words(page, where: str) -> list[str]:
    """The words of the plots on ``page`` under :data:`LEAST_CONTRAST` and the tool buttons' icons under
    :data:`LEAST_ICON_CONTRAST`, one line each (empty if none)."""
    return [
        f"{where} figure {word['figure']}: {word['ratio']}:1 for {word['text']!r} "
        f"({word['part']}, {word['fill']})"
        for word in page.evaluate(PLOT_TEXT_CONTRAST, LEAST)
    ]
