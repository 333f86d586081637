"""Every chapter printed to PDF in chromium (``page.pdf()``), as a lecturer prints a handout.

Before printing, one slider of the chapter's first figure is moved by the keyboard, so that the print shows a
state other than the first. The PDF's text (``pdftotext -bbox``) places each figure: the line of its slider
values (written out by ``rope-viz-print.css``) at its top and its readout at its bottom, found in page order.
The page is rendered (``pdftoppm``), and the figure's border found around them. Then, for every figure:

* its values line reads ``label = value, ...`` with the values the sliders show, the moved one included;
* it lies whole on one page, inside the printable area, and no text of its plot falls outside its border
  (a plot wider than the page would be cut at the border);
* no other text of the page (the next cell, another figure) falls inside its border;
* what is inside its border is a drawn plot: coloured pixels, neither blank nor a grey box;
* in dark mode, the page prints light: dark text, as in light mode.

Chapters alternate between Letter and A4 paper. The PDFs and the rendered pages that hold figures are kept in
``test-artifacts/print/``.
"""

from __future__ import annotations

import bisect
import html
import re
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.site.conftest import ARTIFACTS, ROOT, wait_for_figures, wait_for_math

pytestmark = pytest.mark.browser

PRINT_ARTIFACTS = ARTIFACTS / "print"
CHAPTERS = sorted(f"notebooks/{path.stem}.html" for path in (ROOT / "notebooks").glob("*.ipynb"))
#: Chapters printed from dark mode too (after light mode, in the same visit).
DARK_CHAPTERS = ("02", "05", "07", "09")
#: Resolution of the rendered pages (a CSS pixel is 1.04 pixels: the figure's 1 px border shows).
DPI = 100
PX_PER_PT = DPI / 72
#: The @page margin of rope-viz-print.css, in points.
MARGIN_PT = 12 / 25.4 * 72
#: A pixel with every channel at or above this is paper.
PAPER_LEVEL = 245
#: A pixel whose channels differ by more than this is coloured (a trace, a heatmap cell), not grey or text.
COLOURED_SPREAD = 60
#: At least this share of a figure's pixels is coloured (0.23 % in the least coloured figure, one thin line;
#: 0 in a blank one).
MIN_COLOURED_SHARE = 0.0005
#: A grey box is nearly all ink; a plot is mostly paper (at most 49 % ink in a figure, a heatmap).
MAX_INK_SHARE = 0.85
#: At least this share of a figure's pixels is near-black text (0.9 % or more in light colours, 0 in dark).
MIN_DARK_TEXT_SHARE = 0.001

FIGURE_TEXTS = """
() => [...document.querySelectorAll('figure.rope-viz-demo')].map(figure => ({
  values: [...figure.querySelectorAll('.rope-viz-control')].map(control =>
    control.querySelector('label').textContent + ' = ' + control.querySelector('output').textContent),
  readout: figure.querySelector('.rope-viz-readout').textContent,
}))
"""


@dataclass
class Box:
    """A rectangle on a page, in points from its top left."""

    left: float
    top: float
    right: float
    bottom: float

    def holds(self, other: Box, slack: float = 1) -> bool:
        """Whether the other box lies inside this one (within ``slack`` points)."""
        across = self.left - slack <= other.left and other.right <= self.right + slack
        return across and self.top - slack <= other.top and other.bottom <= self.bottom + slack

    def meets(self, other: Box, slack: float = 1) -> bool:
        """Whether the other box overlaps this one by more than ``slack`` points."""
        across = other.right > self.left + slack and other.left < self.right - slack
        return across and other.bottom > self.top + slack and other.top < self.bottom - slack


@dataclass
class Word:
    """A word of the PDF's text: its page (from 1), where it is and what it says."""

    page: int
    box: Box
    text: str


def _squash(text: str) -> str:
    """Text without spaces, ligatures undone: how a string is compared with the PDF's words."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def _pdf_words(pdf: Path) -> tuple[list[Word], tuple[float, float]]:
    """Every word of the PDF in reading order, and the page size in points."""
    bbox = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True)
    words: list[Word] = []
    size = (0.0, 0.0)
    for number, page in enumerate(re.findall(r"<page (.*?)</page>", bbox.stdout, flags=re.S), start=1):
        head = re.match(r'width="([\d.]+)" height="([\d.]+)"', page)
        size = (float(head.group(1)), float(head.group(2)))
        for x0, y0, x1, y1, text in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', page
        ):
            box = Box(float(x0), float(y0), float(x1), float(y1))
            words.append(Word(number, box, html.unescape(text)))
    return words, size


class WordIndex:
    """Find a text in the PDF's words, in order, whatever the spaces and line breaks between them."""

    def __init__(self, words: list[Word]) -> None:
        self.words = words
        self.starts: list[int] = []
        pieces = []
        offset = 0
        for word in words:
            self.starts.append(offset)
            piece = _squash(word.text)
            pieces.append(piece)
            offset += len(piece)
        self.text = "".join(pieces)

    def find(self, text: str, after: int) -> tuple[int, int] | None:
        """The first and last word of the first occurrence of ``text`` from word ``after`` on."""
        target = _squash(text)
        start = self.starts[after] if after < len(self.starts) else len(self.text)
        found = self.text.find(target, start)
        if found < 0 or not target:
            return None
        first = bisect.bisect_right(self.starts, found) - 1
        last = bisect.bisect_right(self.starts, found + len(target) - 1) - 1
        return first, last


def _figure_box(image: np.ndarray, top: float, bottom: float) -> Box | None:
    """The border of the figure whose own text runs from ``top`` to ``bottom`` (points) on a rendered page.

    The border is the only line that runs the whole height of the figure: a column inked in every row of
    that span (gridlines and axes stop short of the values line and the readout); its top and bottom are the
    first rows above and below that are inked nearly from border to border.
    """
    ink = (image < PAPER_LEVEL).any(axis=2)
    first, last = int(top * PX_PER_PT), int(bottom * PX_PER_PT)
    columns = np.flatnonzero(ink[first : last + 1].mean(axis=0) >= 0.98)
    if len(columns) < 2 or columns[-1] - columns[0] < image.shape[1] / 3:
        return None
    left, right = int(columns[0]), int(columns[-1])
    across = ink[:, left : right + 1].mean(axis=1) >= 0.9
    above = [row for row in range(first, max(first - 60, 0), -1) if across[row]]
    below = [row for row in range(last, min(last + 60, len(across))) if across[row]]
    if not above or not below:
        return None
    return Box(left / PX_PER_PT, above[0] / PX_PER_PT, right / PX_PER_PT, below[0] / PX_PER_PT)


def _move_a_slider(page) -> None:
    """Move the first slider of the first figure one step by the keyboard and wait until it is drawn."""
    figure = page.locator("figure.rope-viz-demo").first
    slider = figure.locator("input[type=range]").first
    state = figure.get_attribute("data-state")
    at_end = slider.evaluate("input => input.value === input.max")
    slider.press("ArrowLeft" if at_end else "ArrowRight")
    page.wait_for_function(
        "state => document.querySelector('figure.rope-viz-demo').dataset.state !== state", arg=state
    )


def _check_print(page, chapter: str, color_scheme: str, paper: str) -> WordIndex:
    """Print the page to PDF and check every figure on it (see the module's docstring); return its words."""
    figures = page.evaluate(FIGURE_TEXTS)
    PRINT_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = f"{Path(chapter).stem}-{color_scheme}"
    pdf = PRINT_ARTIFACTS / f"{name}.pdf"
    for old in PRINT_ARTIFACTS.glob(f"{name}-page*.png"):
        old.unlink()
    theme = page.evaluate("() => document.documentElement.dataset.theme")
    page.pdf(path=str(pdf), format=paper)
    after = page.evaluate("() => document.documentElement.dataset.theme")
    assert after == theme, "the page did not return to the reader's mode after printing"

    words, (page_width, page_height) = _pdf_words(pdf)
    found = WordIndex(words)
    images: dict[int, np.ndarray] = {}

    def image_of(number: int) -> np.ndarray:
        if number not in images:
            stem = PRINT_ARTIFACTS / f"{name}-page{number:02d}"
            pages = ["-f", str(number), "-l", str(number), "-singlefile"]
            subprocess.run(["pdftoppm", "-png", "-r", str(DPI), *pages, str(pdf), str(stem)], check=True)
            images[number] = np.asarray(Image.open(f"{stem}.png").convert("RGB")).astype(int)
        return images[number]

    printable = Box(MARGIN_PT, MARGIN_PT, page_width - MARGIN_PT, page_height - MARGIN_PT)
    placed: list[tuple[int, Box]] = []
    cursor = 0
    for number, figure in enumerate(figures):
        where = f"figure {number} of {chapter} ({color_scheme}, {paper})"
        values_line = ", ".join(figure["values"])
        values = found.find(values_line, cursor)
        assert values is not None, f"{where}: its values line {values_line!r} is not in the PDF"
        readout = found.find(figure["readout"], values[1] + 1)
        assert readout is not None, (
            f"{where}: its readout is not in the PDF after its values line (hidden, or mixed with text "
            "printed over it)"
        )
        first, last = values[0], readout[1]
        cursor = last + 1
        own = words[first : last + 1]
        on_page = words[first].page
        assert words[last].page == on_page, f"{where} is split between pages {on_page} and {words[last].page}"
        image = image_of(on_page)
        top = min(word.box.top for word in words[values[0] : values[1] + 1])
        bottom = max(word.box.bottom for word in words[readout[0] : readout[1] + 1])
        box = _figure_box(image, top, bottom)
        assert box is not None, f"{where}: no border found around it on page {on_page}"
        assert printable.holds(box, slack=2), f"{where} does not fit the printable area: {box}"
        for word in own:
            assert box.holds(word.box), f"{where}: its text {word.text!r} lies outside its border (cut off)"
        for word in words[:first] + words[last + 1 :]:
            lies_on = word.page == on_page and box.meets(word.box)
            assert not lies_on, f"{where}: the text {word.text!r} of another element lies on it"
        inner = image[
            round(box.top * PX_PER_PT) + 2 : round(box.bottom * PX_PER_PT) - 1,
            round(box.left * PX_PER_PT) + 2 : round(box.right * PX_PER_PT) - 1,
        ]
        coloured = (inner.max(axis=2) - inner.min(axis=2) > COLOURED_SPREAD).mean()
        ink = (inner < PAPER_LEVEL).any(axis=2).mean()
        assert coloured >= MIN_COLOURED_SHARE, f"{where} is not drawn: {coloured:.2%} of it is coloured"
        assert ink <= MAX_INK_SHARE, f"{where} is a filled box, not a plot: {ink:.0%} of it is ink"
        # The light theme's text (#1f2328) in the figure: near black on paper, also from dark mode.
        dark_text = (inner.max(axis=2) < 80).mean()
        dark = f"{where} prints in dark-mode colours: {dark_text:.2%} of it is dark text"
        assert dark_text >= MIN_DARK_TEXT_SHARE, dark
        placed.append((on_page, box))

    assert len(placed) == len(figures), f"{len(placed)} of the {len(figures)} figures were found in the PDF"
    for a, (page_a, box_a) in enumerate(placed):
        for b, (page_b, box_b) in enumerate(placed[a + 1 :], start=a + 1):
            overlap = page_a == page_b and box_a.meets(box_b)
            assert not overlap, f"figures {a} and {b} of {chapter} overlap on page {page_a}"
    return found


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_figure_prints_whole_and_drawn(open_page, subtests, chapter):
    if shutil.which("pdftoppm") is None or shutil.which("pdftotext") is None:
        pytest.fail("poppler-utils is not installed; run ./dev.sh test, which installs it")
    paper = ("Letter", "A4")[CHAPTERS.index(chapter) % 2]
    page, problems, blocked = open_page(chapter)
    assert wait_for_figures(page, settled=True) > 0
    wait_for_math(page)
    defaults = page.evaluate(FIGURE_TEXTS)
    _move_a_slider(page)
    assert page.evaluate(FIGURE_TEXTS)[0]["values"] != defaults[0]["values"], "the slider did not move"
    with subtests.test("prints from light mode", chapter=chapter):
        _check_print(page, chapter, "light", paper)
    if Path(chapter).stem[:2] in DARK_CHAPTERS:
        with subtests.test("prints light from dark mode", chapter=chapter):
            page.evaluate("() => document.documentElement.dataset.theme = 'dark'")
            # Printing redraws the plots in light colours with Plotly, which draws the state it holds; the
            # step just taken, drawn directly, goes back on that drawing at once (afterPlot in
            # rope-viz-figures.js).
            page.wait_for_function(
                "() => [...document.querySelectorAll('figure.rope-viz-demo')]"
                ".every(f => f.querySelector('.rope-viz-plot').layout.font.color === '#ced6dd')"
            )
            _check_print(page, chapter, "dark", paper)
    assert problems == [] and blocked == []
