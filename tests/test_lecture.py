"""The lecture deck as defined (``rope_viz.lecture``): its slides exist, follow the chapters, show each figure
as its chapter constructs it, and link to sections of pages of the table of contents. The deck as a reader
meets it in the browser is tested in ``tests/site/test_lecture.py``."""

from __future__ import annotations

import dataclasses
import html
import itertools
import json
import re
from pathlib import Path
from typing import ClassVar

import pytest
import yaml

import rope_viz.figures
from rope_viz import lecture
from rope_viz.demos.base import Demo
from rope_viz.figures.scene_links import scene_href

ROOT = Path(__file__).resolve().parents[1]
DECK_PAGE = ROOT / "book" / "lecture.md"


def _toc_files() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [entry["file"] for part in toc["parts"] for entry in part["chapters"]]


def _cells(docname: str) -> list[dict]:
    return json.loads((ROOT / f"{docname}.ipynb").read_text(encoding="utf-8"))["cells"]


def _figure_sections(docname: str) -> list[tuple[str, str]]:
    """Each ``show(...)`` call of a chapter, in order, with the heading of the section it is in."""
    heading = ""
    shown = []
    for cell in _cells(docname):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            headings = re.findall(r"^#+ (.+)$", source, re.MULTILINE)
            heading = headings[-1].strip() if headings else heading
        else:
            shown += [(call, heading) for call in re.findall(r"\bshow\((\w+\(.*?\))\)", source)]
    return shown


def test_the_deck_is_valid_and_forty_five_minutes_long():
    lecture.check_deck()
    assert lecture.total_minutes() == 45
    assert lecture.TITLE == "RoPE in 45 minutes"
    # A title slide and one slide per scene: about a minute and a half per slide.
    assert 25 <= 1 + len(lecture.SLIDES) <= 40


def test_the_chapters_are_the_ten_chapters_of_the_toc_in_order_with_their_titles():
    chapters = [file for file in _toc_files() if file.startswith("notebooks/")]
    assert [chapter.docname for chapter in lecture.CHAPTERS] == chapters
    assert len(chapters) == 10
    for chapter in lecture.CHAPTERS:
        first = "".join(_cells(chapter.docname)[1]["source"])
        assert re.match(r"# (.+)", first).group(1).strip() == chapter.title, chapter.docname
        assert chapter.minutes > 0


def test_every_slide_shows_an_existing_scene_of_a_figure_its_chapter_shows_in_that_section():
    for number, slide in enumerate(lecture.SLIDES, start=2):
        assert issubclass(slide.demo, Demo)
        assert slide.find_scene() in slide.demo.scenes
        # Constructed exactly as the chapter constructs it: with no arguments, in the slide's section.
        shown = _figure_sections(slide.chapter.docname)
        call = f"{slide.demo.__name__}()"
        assert (call, slide.section) in shown, f"slide {number}: no {call} under {slide.section!r}"


def test_slides_follow_the_chapters_and_each_chapter_follows_its_figures():
    numbers = [slide.chapter.number for slide in lecture.SLIDES]
    assert numbers == sorted(numbers)
    assert set(numbers) == {chapter.number for chapter in lecture.CHAPTERS}
    for chapter in lecture.CHAPTERS:
        shown = [call for call, _ in _figure_sections(chapter.docname)]
        slides = [slide for slide in lecture.SLIDES if slide.chapter == chapter]
        places = [shown.index(f"{slide.demo.__name__}()") for slide in slides]
        assert places == sorted(places), f"{chapter.docname}: the slides take its figures out of order"
        for first, second in itertools.pairwise(slides):
            if first.demo is second.demo:
                assert first.scene_index() < second.scene_index(), f"{chapter.docname}: scenes out of order"


def _replace(index: int, **changes) -> tuple[lecture.Slide, ...]:
    slides = list(lecture.SLIDES)
    slides[index] = dataclasses.replace(slides[index], **changes)
    return tuple(slides)


def test_check_deck_refuses_a_missing_scene_a_wrong_order_a_split_figure_and_a_chapter_without_slides():
    with pytest.raises(ValueError, match="slide 3: ShiftTheSentence has no scene 'no such scene'"):
        lecture.check_deck(_replace(1, scene="no such scene"))
    with pytest.raises(ValueError, match="follow the chapters in order"):
        lecture.check_deck(lecture.SLIDES[::-1])
    # Chapter 5 walks through the partial sums twice, then the bound: put the bound between the two.
    walk = [k for k, slide in enumerate(lecture.SLIDES) if slide.demo.__name__ == "PartialSumWalk"]
    assert len(walk) == 2 and lecture.SLIDES[walk[1] + 1].demo.__name__ == "DecayBound"
    split = list(lecture.SLIDES)
    split[walk[1]], split[walk[1] + 1] = split[walk[1] + 1], split[walk[1]]
    with pytest.raises(ValueError, match="one figure must follow each other"):
        lecture.check_deck(tuple(split))
    with pytest.raises(ValueError, match="chapter 10 has no slide"):
        lecture.check_deck(tuple(slide for slide in lecture.SLIDES if slide.chapter.number != 10))
    stranger = dataclasses.replace(lecture.CHAPTERS[0], title="Another chapter")
    with pytest.raises(ValueError, match="slide 2: its chapter 'Another chapter'"):
        lecture.check_deck(_replace(0, chapter=stranger))


def test_the_minutes_add_up_chapter_after_chapter():
    starts = [lecture.start_minute(chapter) for chapter in lecture.CHAPTERS]
    assert starts[0] == 0
    for chapter, start, following in zip(lecture.CHAPTERS, starts, [*starts[1:], 45], strict=True):
        assert start + chapter.minutes == following


class _Figure:
    """A stand-in for a site figure: what the deck needs of one, without computing every state."""

    made: ClassVar[list[type]] = []

    def __init__(self, demo: Demo) -> None:
        _Figure.made.append(type(demo))
        self.element_id = f"figure-{type(demo).__name__}"

    def to_html(self) -> str:
        return f'<figure class="rope-viz-demo" id="{self.element_id}"></figure>'


def test_deck_html_shows_each_figure_once_and_every_slide_its_scene_caption_and_link(monkeypatch):
    _Figure.made = []
    monkeypatch.setattr(rope_viz.figures, "site_figure", _Figure)
    links = []

    def href(chapter, section):
        links.append((chapter.docname, section))
        return f"../{chapter.docname}.html" + ("" if section is None else f"#{section}")

    text = lecture.deck_html(href)
    demos = list(dict.fromkeys(slide.demo for slide in lecture.SLIDES))
    assert _Figure.made == demos
    assert text.count('class="rope-viz-demo"') == len(demos)
    sections = re.findall(r'<section class="rope-viz-slide[^"]*" id="slide-(\d+)"(.*?)</section>', text)
    assert [int(number) for number, _ in sections] == list(range(1, len(lecture.SLIDES) + 2))
    for (number, body), slide in zip(sections[1:], lecture.SLIDES, strict=True):
        assert f'data-figure="figure-{slide.demo.__name__}"' in body, number
        assert f'data-scene="{slide.scene_index()}"' in body, number
        caption = re.search(r'<p class="rope-viz-slide-caption">(.*?)</p>', body).group(1)
        assert html.unescape(caption) == slide.find_scene().caption
        link = re.search(r'<p class="rope-viz-slide-link"><a href="(.*?)"', body).group(1)
        assert html.unescape(link) == f"../{slide.chapter.docname}.html" + scene_href(
            slide.demo(), slide.scene
        )
    # The agenda links to every chapter; every slide to its chapter, at its figure's scene.
    assert links == [(chapter.docname, None) for chapter in lecture.CHAPTERS] + [
        (slide.chapter.docname, None) for slide in lecture.SLIDES
    ]


def test_the_deck_page_is_in_the_toc_has_the_title_and_is_linked_from_the_start_pages():
    assert "book/lecture" in _toc_files()
    text = DECK_PAGE.read_text(encoding="utf-8")
    assert text.splitlines()[0] == f"# {lecture.TITLE}"
    assert re.search(r"^```\{rope-viz-deck\}\n```$", text, re.MULTILINE)
    for page in ("intro.md", "how_to_use.md"):
        assert "lecture" in re.findall(r"\{doc\}`(?:[^`<]*<)?(\w+)>?`", (ROOT / "book" / page).read_text()), (
            page
        )
