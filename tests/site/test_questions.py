"""The self-grading questions and the flashcards of the built site, in Debian's chromium, driven by keyboard.

On every page that holds a question: each one is reached with Tab, answered wrong (its feedback gets
``data-state="incorrect"``) and then right (``"correct"``), both submitted with Enter, the worked answer shown
only after a check; the page's script reads numbers exactly as :func:`rope_viz.questions.parse_number` does;
nothing is logged as an error and nothing is requested off 127.0.0.1. Every worked answer's link leads to an
element of the built site. On the interview page every flashcard starts closed and opens with Enter.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from rope_viz.questions import NumericQuestion, format_number, parse_number
from tests.site.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

QUESTION = "form[data-rope-viz-question]"
#: Texts that the page's parser must read exactly as the Python one does (None: refused).
PARSER_CASES = (
    "1e4", "10,000", "10 000", "10\u2009000", "6.3e+04", "\u22122.5", "+.5", "5.", " 54,410 ", "1,234.5e-3",
    "3,5", "1,0000", "10,000 000", "1e", "e4", "", "nan", "1e999", "0x10", "1_000", "12 tokens", "\u2212",
)  # fmt: skip
#: Every chapter page: each has a "Check yourself" section of at least three questions.
CHAPTER_PAGES = tuple(
    f"notebooks/{path.stem}.html"
    for path in sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("[0-9][0-9]_*.ipynb"))
)
INTERVIEW_PAGE = "book/interview.html"


def _pages_with_questions(built_site) -> dict[str, int]:
    counts = {}
    for page in built_site.pages():
        text = page.read_text(encoding="utf-8")
        if "data-rope-viz-question=" in text:
            counts[str(page.relative_to(built_site.html))] = len(
                re.findall(r"<form[^>]*data-rope-viz-question=", text)
            )
    return counts


def _open_questions(open_page, relative: str, color_scheme: str = "light"):
    page, problems, blocked = open_page(relative, color_scheme)
    page.wait_for_function("() => window.RopeVizQuestions !== undefined", timeout=15_000)
    return page, problems, blocked


def test_every_chapter_and_the_interview_page_hold_their_questions(built_site):
    counts = _pages_with_questions(built_site)
    for page in CHAPTER_PAGES:
        assert counts.get(page, 0) >= 3, f"{page}: {counts.get(page, 0)} questions"
    assert counts.get(INTERVIEW_PAGE, 0) >= 12


def test_every_worked_answer_links_to_an_element_of_the_site(built_site):
    checked = 0
    for relative in _pages_with_questions(built_site):
        source = built_site.html / relative
        for href in re.findall(
            r"data-rope-viz-solution hidden>.*?</div>", source.read_text(encoding="utf-8")
        ):
            for target in re.findall(r'<a href="([^"]+)"', href):
                path, _, anchor = html.unescape(target).partition("#")
                page = (source.parent / path).resolve()
                assert page.is_file(), f"{relative}: {target} leads nowhere"
                assert f'id="{anchor}"' in page.read_text(encoding="utf-8"), (
                    f"{relative}: no element #{anchor}"
                )
                checked += 1
    assert checked >= 30


def _tab_into(page, index: int) -> None:
    """Focus a stand-in placed just before question ``index``, then press Tab, as a reader arriving there."""
    page.evaluate(
        """i => {
            document.querySelectorAll('[data-test-anchor]').forEach(node => node.remove());
            const anchor = document.createElement('span');
            anchor.tabIndex = 0;
            anchor.dataset.testAnchor = '';
            document.querySelectorAll('form[data-rope-viz-question]')[i].before(anchor);
            anchor.focus();
        }""",
        index,
    )
    page.keyboard.press("Tab")


def _focused(page) -> str:
    return page.evaluate(
        "() => { const e = document.activeElement; return e.tagName.toLowerCase() + ':' + (e.type || ''); }"
    )


def _state(form) -> str | None:
    return form.locator("[data-rope-viz-feedback]").get_attribute("data-state")


def _check_shows(form, state: str) -> None:
    assert _state(form) == state
    assert (
        form.locator("[data-rope-viz-feedback]")
        .inner_text()
        .strip()
        .endswith(form.get_attribute(f"data-feedback-{state}"))
    )
    assert form.locator("[data-rope-viz-solution]").is_visible()


def _answer_numeric(page, form, index: int) -> None:
    question = NumericQuestion(
        "the page's question",
        float(form.get_attribute("data-answer")),
        relative_tolerance=float(form.get_attribute("data-relative-tolerance")),
        absolute_tolerance=float(form.get_attribute("data-absolute-tolerance")),
        explanation="-",
    )
    wrong = format_number(question.answer + 2 * question.allowed_error + max(1.0, abs(question.answer)), 6)
    assert question.check(wrong) == "incorrect"
    _tab_into(page, index)
    assert _focused(page) == "input:text"
    page.keyboard.type(wrong)
    page.keyboard.press("Enter")
    _check_shows(form, "incorrect")
    page.keyboard.press("Control+A")
    page.keyboard.type(question.answer_text)
    assert _state(form) is None, "a changed answer still shows the old verdict"
    page.keyboard.press("Enter")
    _check_shows(form, "correct")


def _answer_choice(page, form, index: int) -> None:
    count = form.locator("input[type=radio]").count()
    correct = int(form.get_attribute("data-correct"))
    wrong = (correct + 1) % count
    _tab_into(page, index)
    assert _focused(page) == "input:radio"
    page.keyboard.press("Space")  # choose the first answer, then move the choice with the arrow keys
    for _ in range(wrong):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")
    assert _focused(page) == "button:submit"
    page.keyboard.press("Enter")
    _check_shows(form, "incorrect")
    page.keyboard.press("Shift+Tab")
    assert _focused(page) == "input:radio"
    for _ in range((correct - wrong) % count):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    _check_shows(form, "correct")


def test_every_question_grades_a_wrong_and_a_right_answer_by_keyboard(built_site, open_page):
    pages = _pages_with_questions(built_site)
    assert pages
    for relative in sorted(pages):
        page, problems, blocked = _open_questions(open_page, relative)
        parsed = page.evaluate("cases => cases.map(c => { const v = RopeVizQuestions.parseNumber(c); "
                               "return Number.isNaN(v) ? null : v; })", list(PARSER_CASES))  # fmt: skip
        expected = []
        for case in PARSER_CASES:
            try:
                expected.append(parse_number(case))
            except ValueError:
                expected.append(None)
        assert parsed == expected, f"{relative}: the page reads numbers otherwise than parse_number"
        forms = page.locator(QUESTION)
        for index in range(forms.count()):
            form = forms.nth(index)
            assert _state(form) is None and not form.locator("[data-rope-viz-solution]").is_visible()
            if form.get_attribute("data-rope-viz-question") == "numeric":
                _answer_numeric(page, form, index)
            else:
                _answer_choice(page, form, index)
        assert problems == [], f"{relative}: {problems}"
        assert blocked == [], f"{relative} requested other hosts: {blocked}"


def test_a_check_with_nothing_to_grade_says_so_and_keeps_the_answer_hidden(open_page):
    page, problems, _ = _open_questions(open_page, INTERVIEW_PAGE)
    for kind in ("numeric", "choice"):
        form = page.locator(f"{QUESTION}[data-rope-viz-question={kind}]").first
        form.locator("button[type=submit]").click()
        assert _state(form) == "invalid"
        assert form.locator("[data-rope-viz-feedback]").inner_text() == form.get_attribute(
            "data-feedback-invalid"
        )
        assert not form.locator("[data-rope-viz-solution]").is_visible()
    numeric = page.locator(f"{QUESTION}[data-rope-viz-question=numeric]").first
    numeric.locator("input").fill("3,5")
    numeric.locator("input").press("Enter")
    assert _state(numeric) == "invalid" and numeric.locator("input").get_attribute("aria-invalid") == "true"
    assert page.url.endswith(INTERVIEW_PAGE), "a check must not leave the page"
    assert problems == []


def test_the_interview_answers_stay_hidden_until_asked_for(open_page):
    page, problems, _ = _open_questions(open_page, INTERVIEW_PAGE)
    cards = page.locator("article details")
    assert cards.count() >= 25
    for index in range(cards.count()):
        card = cards.nth(index)
        assert card.get_attribute("open") is None, f"card {index} starts open"
        body = card.locator(":scope > :not(summary)").first
        assert not body.is_visible(), f"card {index} shows its answer before it is asked for"
        card.locator("summary").focus()
        page.keyboard.press("Enter")
        assert card.get_attribute("open") is not None and body.is_visible(), f"card {index} does not open"
    assert problems == []


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
def test_screenshots_of_a_question_before_and_after_a_check(open_page, color_scheme):
    page, problems, _ = _open_questions(open_page, INTERVIEW_PAGE, color_scheme)
    shots = ARTIFACTS / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    forms = page.locator(QUESTION)
    numeric = page.locator(f"{QUESTION}[data-rope-viz-question=numeric]").first
    choice = forms.first
    numeric.scroll_into_view_if_needed()
    numeric.screenshot(path=str(shots / f"question-numeric-before__{color_scheme}.png"))
    numeric.locator("input").fill("1")
    numeric.locator("input").press("Enter")
    numeric.screenshot(path=str(shots / f"question-numeric-after__{color_scheme}.png"))
    choice.locator("input[type=radio]").nth(int(choice.get_attribute("data-correct"))).check()
    choice.locator("button[type=submit]").click()
    choice.screenshot(path=str(shots / f"question-choice-after__{color_scheme}.png"))
    assert _state(numeric) == "incorrect" and _state(choice) == "correct"
    assert problems == []
