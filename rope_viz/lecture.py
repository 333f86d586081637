"""The lecture deck "RoPE in 45 minutes": the course's figures, one scene per slide, chapter by chapter.

The deck is defined here once, as data: the ten chapters with the minutes each gets, and the slides in order,
each naming its chapter, the section of the chapter that shows its figure, the demo (a class, constructed with
no arguments, as every chapter constructs its demos) and the scene of the demo it shows
(:class:`rope_viz.demos.base.Scene`, by name). :func:`deck_html` writes the deck as HTML for the site: a title
slide with the agenda, then every slide with its figure, caption and link to the chapter. Each demo appears
once; a later slide of the same demo names the figure by its element id and the scene by its index, and the
deck's script (``rope-viz-deck.js``) moves the figure onto the slide on screen and sets the scene there.
Without the script the page reads as a list of slides.

The site builds the page from the ``{rope-viz-deck}`` directive (:mod:`rope_viz.site.sphinx_ext`), which
gives :func:`deck_html` the link of each chapter section.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

from rope_viz.demos.base import Demo, Scene
from rope_viz.demos.clocks import MultiSpeedClocks
from rope_viz.demos.code_permutation import WeightPermutation
from rope_viz.demos.code_precision import AnglePrecision
from rope_viz.demos.extension_arcs import TrainedArcs
from rope_viz.demos.extension_compare import MethodComparison
from rope_viz.demos.extension_llama3 import Llama3Blend
from rope_viz.demos.extension_presets import PresetBands
from rope_viz.demos.extension_resolution import InterpolationResolution
from rope_viz.demos.extension_yarn import YarnBands
from rope_viz.demos.layers_map import LayerMap
from rope_viz.demos.layers_mla import MLAScoreSplit
from rope_viz.demos.layers_partial import PartialRotary
from rope_viz.demos.long_range_decay import DecayBound
from rope_viz.demos.partial_sum_walk import PartialSumWalk
from rope_viz.demos.rotation_2d import Rotation2D
from rope_viz.demos.shift_invariance import ShiftInvariance
from rope_viz.demos.vision_pair_axes import PairAxes
from rope_viz.demos.vision_patch_scores import PatchScoreMap
from rope_viz.demos.why_position import ShiftTheSentence


@dataclass(frozen=True)
class Chapter:
    """A chapter of the course as the deck walks through it.

    Parameters
    ----------
    number : int
        The chapter's number, 1 to 10.
    docname : str
        Its page in the book, e.g. ``"notebooks/02_rotation_2d"``.
    title : str
        Its title: the notebook's first heading.
    minutes : int
        The minutes of the lecture it gets.

    """

    number: int
    docname: str
    title: str
    minutes: int


@dataclass(frozen=True)
class Slide:
    """One slide: a figure of a chapter at one of its scenes.

    Parameters
    ----------
    chapter : Chapter
        The chapter that shows the figure.
    section : str
        The heading of the chapter's section that shows it; the slide links there.
    demo : type of Demo
        The demo, constructed with no arguments (as the chapter constructs it).
    scene : str
        The name of the demo's scene the slide shows.

    """

    chapter: Chapter
    section: str
    demo: type[Demo]
    scene: str

    def find_scene(self) -> Scene:
        """Return the demo's scene named :attr:`scene`; ``ValueError`` naming the demo if it has none."""
        for scene in self.demo.scenes:
            if scene.name == self.scene:
                return scene
        names = [scene.name for scene in self.demo.scenes]
        raise ValueError(f"{self.demo.__name__} has no scene {self.scene!r} (its scenes are {names})")

    def scene_index(self) -> int:
        """Return the index of the slide's scene among the demo's scenes (the order of its buttons)."""
        return self.demo.scenes.index(self.find_scene())


SUBTITLE = "Rotary Position Embedding, from one rotation to the models that run it: one figure per slide."

CHAPTERS = (
    Chapter(1, "notebooks/01_why_position", "Why attention needs position", 4),
    Chapter(2, "notebooks/02_rotation_2d", "Rotation in two dimensions", 5),
    Chapter(3, "notebooks/03_multi_speed_clocks", "Multi-speed clocks: one rotation speed per pair", 5),
    Chapter(4, "notebooks/04_shift_invariance", "Shift-invariant dot products: only the offset counts", 4),
    Chapter(
        5, "notebooks/05_long_range_decay", "Long-range decay: what the bound says, and what it does not", 5
    ),
    Chapter(6, "notebooks/06_beyond_training_length", "Beyond the training length", 6),
    Chapter(7, "notebooks/07_extension_methods_compared", "Context-extension methods side by side", 4),
    Chapter(8, "notebooks/08_which_pairs_and_layers", "Which pairs and which layers", 4),
    Chapter(9, "notebooks/09_rope_beyond_text", "RoPE beyond text: images and video", 5),
    Chapter(10, "notebooks/10_rope_in_code", "RoPE in code", 3),
)


#: The deck's title, which is also the title of its page (``book/lecture.md``).
TITLE = f"RoPE in {sum(chapter.minutes for chapter in CHAPTERS)} minutes"


def _walk(chapter: int, section: str, demo: type[Demo], *scenes: str) -> tuple[Slide, ...]:
    """Return the slides that walk through ``scenes`` of one figure of chapter number ``chapter``."""
    return tuple(Slide(CHAPTERS[chapter - 1], section, demo, scene) for scene in scenes)


#: The slides after the title slide, in the order of the chapters and of the figures in each chapter.
SLIDES = (
    *_walk(1, "See it: move the sentence", ShiftTheSentence, "the sentence", "shift by 20", "swap the words"),
    *_walk(
        2,
        "See it: two vectors, two positions, one number",
        Rotation2D,
        "the start",
        "move both on",
        "swap the positions",
    ),
    *_walk(
        3, "The clocks, interactively", MultiSpeedClocks, "the first tokens", "move to 100", "raise the base"
    ),
    *_walk(
        4,
        "Shift both positions, interactively",
        ShiftInvariance,
        "rope at shift 0",
        "rope shifted far",
        "added pe shifted",
    ),
    *_walk(5, "The partial sums as a walk", PartialSumWalk, "sixteen tokens apart", "a knot at 256"),
    *_walk(5, "The bound and a real score, interactively", DecayBound, "roformer's bound"),
    *_walk(6, "The trained arcs, interactively", TrainedArcs, "four times longer"),
    *_walk(6, "Position interpolation", InterpolationResolution, "the fastest pair"),
    *_walk(6, "YaRN", YarnBands, "three bands"),
    *_walk(6, "Llama 3.1", Llama3Blend, "llama 3.1"),
    *_walk(7, "The comparison figure", MethodComparison, "four times longer", "sixteen times longer"),
    *_walk(7, "The models, interactively", PresetBands, "qwen2.5 with yarn"),
    *_walk(8, "The map of a model", LayerMap, "llama 4 scout"),
    *_walk(8, "Both readings, side by side", PartialRotary, "a quarter rotated"),
    *_walk(8, "The score, split", MLAScoreSplit, "a wide slice"),
    *_walk(9, "Which pairs each axis gets", PairAxes, "chunks", "interleaved"),
    *_walk(9, "The score map, interactively", PatchScoreMap, "m-rope chunks", "m-rope interleaved"),
    *_walk(
        10,
        "The score against the offset, interactively",
        WeightPermutation,
        "the conversion",
        "neither permuted",
    ),
    *_walk(10, "Precision", AnglePrecision, "bfloat16 positions"),
)


def total_minutes(chapters: tuple[Chapter, ...] = CHAPTERS) -> int:
    """Return the minutes of the whole lecture: the sum of the chapters' minutes."""
    return sum(chapter.minutes for chapter in chapters)


def start_minute(chapter: Chapter, chapters: tuple[Chapter, ...] = CHAPTERS) -> int:
    """Return the minute of the lecture at which ``chapter`` starts (the first starts at 0)."""
    return sum(other.minutes for other in chapters[: chapters.index(chapter)])


def check_deck(slides: tuple[Slide, ...] = SLIDES, chapters: tuple[Chapter, ...] = CHAPTERS) -> None:
    """Check a deck, raising ``ValueError`` naming the slide and what is wrong.

    Every slide's scene exists in its demo; the chapters are numbered 1, 2, ... in order and every one has a
    slide; the slides follow the chapters in order; the slides of one figure are consecutive, so that the
    figure is shown once and walked through.
    """
    if [chapter.number for chapter in chapters] != list(range(1, len(chapters) + 1)):
        raise ValueError("the chapters must be numbered 1, 2, ... in order")
    for number, slide in enumerate(slides, start=2):
        if slide.chapter not in chapters:
            raise ValueError(f"slide {number}: its chapter {slide.chapter.title!r} is not one of the deck's")
        try:
            slide.find_scene()
        except ValueError as error:
            raise ValueError(f"slide {number}: {error}") from error
    numbers = [slide.chapter.number for slide in slides]
    if numbers != sorted(numbers):
        raise ValueError("the slides must follow the chapters in order")
    missing = sorted({chapter.number for chapter in chapters} - set(numbers))
    if missing:
        raise ValueError(f"chapter {missing[0]} has no slide")
    runs = [slide.demo for k, slide in enumerate(slides) if k == 0 or slides[k - 1].demo is not slide.demo]
    if len(runs) != len(set(runs)):
        raise ValueError("the slides of one figure must follow each other")


def _chapter_line(chapter: Chapter) -> str:
    start = start_minute(chapter)
    end = start + chapter.minutes
    return f"Chapter {chapter.number} of {len(CHAPTERS)} · {chapter.title} · minutes {start}–{end}"


#: What the keys do, on the title slide.
KEYS = (
    "Next slide: Page Down, Space, → or ↓. Previous: Page Up, Shift+Space, ← or ↑. First and last: Home and "
    "End. Blank the screen: B or “.”, and any key brings it back. On a slider you have clicked, the arrow "
    "keys move the slider; Page Down and Page Up always change the slide."
)


def _title_slide(href: Callable[[Chapter, str | None], str]) -> str:
    rows = []
    first = 2
    for chapter in CHAPTERS:
        last = first + sum(slide.chapter == chapter for slide in SLIDES) - 1
        start = start_minute(chapter)
        link = (
            f'<a href="{html.escape(href(chapter, None))}">{chapter.number}. {html.escape(chapter.title)}</a>'
        )
        rows.append(
            f"<tr><td>{link}</td><td>{chapter.minutes} min</td><td>{start}–{start + chapter.minutes}</td>"
            f"<td>{first}–{last}</td></tr>"
        )
        first = last + 1
    head = "".join(f'<th scope="col">{name}</th>' for name in ("Chapter", "Length", "Minutes", "Slides"))
    return (
        '<section class="rope-viz-slide rope-viz-title-slide" id="slide-1" aria-labelledby="slide-1-title">'
        f'<h2 id="slide-1-title">{html.escape(TITLE)}</h2>'
        f'<p class="rope-viz-slide-subtitle">{html.escape(SUBTITLE)}</p>'
        '<table class="rope-viz-agenda"><caption>How the time splits</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        f'<p class="rope-viz-deck-keys">{html.escape(KEYS)}</p>'
        "</section>"
    )


def _slide(number: int, slide: Slide, figure_id: str, figure: str, href: str) -> str:
    caption = slide.find_scene().caption
    where = f"In the chapter: {slide.chapter.title}, “{slide.section}”"
    return (
        f'<section class="rope-viz-slide" id="slide-{number}" aria-labelledby="slide-{number}-title" '
        f'data-figure="{figure_id}" data-scene="{slide.scene_index()}" data-print-unit="true">'
        f'<p class="rope-viz-slide-chapter">{html.escape(_chapter_line(slide.chapter))}</p>'
        f'<h2 id="slide-{number}-title">{html.escape(slide.demo.title)}</h2>'
        f'<div class="rope-viz-slide-figure">{figure}</div><div class="rope-viz-slide-plot-area"></div>'
        f'<p class="rope-viz-slide-caption">{html.escape(caption)}</p>'
        f'<p class="rope-viz-slide-link"><a href="{html.escape(href)}">{html.escape(where)}</a></p>'
        "</section>"
    )


def deck_html(href: Callable[[Chapter, str | None], str]) -> str:
    """Return the deck as HTML: the title slide, then one ``<section>`` per slide of :data:`SLIDES`.

    Each demo's figure (:func:`rope_viz.figures.site_figure`) is on the first slide that shows it; a slide
    carries ``data-figure`` (the figure's element id) and ``data-scene`` (the scene's index) for the deck's
    script, and its caption is the scene's caption. Its link opens the chapter at that figure in that scene
    (:func:`rope_viz.figures.scene_links.scene_href`).

    Parameters
    ----------
    href : callable
        ``href(chapter, section)``: the link to a chapter's page, at the section with that heading (the page's
        top for ``None``), relative to the page that shows the deck.

    """
    from rope_viz.figures import site_figure
    from rope_viz.figures.scene_links import scene_href

    check_deck()
    figures: dict[type[Demo], str] = {}
    parts = ['<div class="rope-viz-deck">', _title_slide(href)]
    for number, slide in enumerate(SLIDES, start=2):
        if slide.demo in figures:
            scene = html.escape(slide.scene)
            figure = f'<p class="rope-viz-slide-same">The figure above, at the scene “{scene}”.</p>'
        else:
            shown = site_figure(slide.demo())
            figures[slide.demo] = shown.element_id
            figure = shown.to_html()
        # The chapter opens at its figure, set to the slide's scene (rope_viz.figures.scene_links).
        link = href(slide.chapter, None) + scene_href(slide.demo(), slide.scene)
        parts.append(_slide(number, slide, figures[slide.demo], figure, link))
    parts.append("</div>")
    return "".join(parts)
