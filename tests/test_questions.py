"""Self-grading questions: the number parser, the tolerance, the HTML the site grades, the Jupyter widget, the
question bank (answers against independent formulas, links that resolve), the chapters' "Check yourself"
sections and the interview page (flashcards, the twelve questions, the whiteboard answer).

The browser side (the site's script grading the same HTML, by keyboard) is tests/site/test_questions.py.
"""

from __future__ import annotations

import html.parser
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from docutils.nodes import make_id
from hypothesis import given, settings
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz import question_bank
from rope_viz.questions import (
    STATES,
    ChoiceQuestion,
    Link,
    NumericQuestion,
    format_number,
    parse_number,
    question_widget,
    show_question,
    show_questions,
)

ROOT = Path(__file__).resolve().parents[1]
INTERVIEW = ROOT / "book" / "interview.md"
CHAPTERS = {int(path.name[:2]): path for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))}
ALL_NAMES = sorted(
    {*question_bank.INTERVIEW, *(n for names in question_bank.CHAPTERS.values() for n in names)}
)


# --- parse_number -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1e4", 1e4),
        ("10,000", 1e4),
        ("10 000", 1e4),
        ("10\u2009000", 1e4),
        ("10\u202f000\u202f000", 1e7),
        ("6.3e+04", 63_000.0),
        ("\u22122.5", -2.5),
        ("-2.5", -2.5),
        ("+.5", 0.5),
        ("5.", 5.0),
        ("  54,410.14 ", 54_410.14),
        ("1,234,567.5e-3", 1234.5675),
        ("1E-3", 1e-3),
        ("0", 0.0),
    ],
)
def test_parse_number_reads_what_readers_type(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize(
    "text",
    ["", "   ", "3,5", "1,0000", "10,000 000", "1,00", "1e", "e4", "1..2", "nan", "inf", "1e999", "0x10",
     "1_000",
     "١٢", "12 tokens", "1/256", "−", "--1", "1e4.5", ",100"],
)  # fmt: skip
def test_parse_number_refuses_anything_else(text):
    with pytest.raises(ValueError, match=r"^text must be"):
        parse_number(text)


def test_parse_number_refuses_a_non_string():
    with pytest.raises(ValueError, match=r"^text must be a string"):
        parse_number(10_000)


finite_floats = st.floats(allow_nan=False, allow_infinity=False)


@settings(deadline=None)
@given(finite_floats)
def test_every_float_reads_back_from_its_repr(value):
    assert parse_number(repr(value)) == value
    assert parse_number(f"{value:e}") == float(f"{value:e}")


@settings(deadline=None)
@given(st.integers(-(10**15), 10**15), st.sampled_from([",", " ", "\u00a0", "\u2009", "\u202f"]))
def test_grouped_integers_read_back(number, separator):
    grouped = f"{abs(number):,}".replace(",", separator)
    sign = "\u2212" if number < 0 else ""
    assert parse_number(sign + grouped) == number


@settings(deadline=None)
@given(st.text())
def test_parse_number_either_reads_a_finite_number_or_says_why(text):
    try:
        value = parse_number(text)
    except ValueError as error:
        assert str(error).startswith("text must be")
    else:
        assert math.isfinite(value)
        assert re.fullmatch(
            r"[+\-\u2212]?[0-9., \u00a0\u2009\u202f]*(?:[eE][+-]?[0-9]+)?", text.strip(" \t\n\r")
        )


@settings(deadline=None)
@given(finite_floats.filter(lambda value: abs(value) < 1e300), st.integers(1, 17))
def test_format_number_reads_back_within_its_digits(value, significant):
    text = format_number(value, significant)
    read = parse_number(text)
    if value.is_integer() and abs(value) < 1e15:
        assert read == value
    elif value != 0:
        # rounded to `significant` digits (or more, for whole parts longer than that), then to a float
        digit = 10 ** (math.floor(math.log10(abs(value))) - significant + 1)
        assert abs(read - value) <= 0.5 * digit * 1.000001 + math.ulp(read)


def test_format_number_examples():
    assert format_number(54_410.14) == "54,410"
    assert format_number(-0.416146) == "\u22120.4161"
    assert format_number(0.00390625, 3) == "0.00391"
    assert format_number(1.5e-7) == "1.500e-07"
    assert format_number(2_559_195.5) == "2,559,196"
    with pytest.raises(ValueError, match=r"^value"):
        format_number(float("nan"))
    with pytest.raises(ValueError, match=r"^significant"):
        format_number(1.0, 0)


# --- the tolerance ------------------------------------------------------------------------------------------


def test_relative_tolerance_is_relative_to_the_answer():
    question = NumericQuestion("Q?", 100.0, relative_tolerance=0.01, explanation="E.")
    assert [question.check(text) for text in ("101", "99", "101.0001", "98.99", "1e2")] == [
        "correct",
        "correct",
        "incorrect",
        "incorrect",
        "correct",
    ]


def test_absolute_tolerance_and_exact_answers():
    near_zero = NumericQuestion("Q?", 0.0, relative_tolerance=0.0, absolute_tolerance=0.005, explanation="E.")
    assert [near_zero.check(text) for text in ("0.005", "\u22120.004", "0.0051")] == [
        "correct",
        "correct",
        "incorrect",
    ]
    count = NumericQuestion("Q?", 29, relative_tolerance=0.0, explanation="E.")
    assert [count.check(text) for text in ("29", "29.0", "2.9e1", "29.000001", "28")] == [
        "correct",
        "correct",
        "correct",
        "incorrect",
        "incorrect",
    ]
    either = NumericQuestion("Q?", 1000.0, relative_tolerance=0.001, absolute_tolerance=5.0, explanation="E.")
    assert either.allowed_error == 5.0
    assert either.check("1,005") == "correct" and either.check("1,005.1") == "incorrect"


@settings(deadline=None, max_examples=200)
@given(
    st.floats(-1e12, 1e12, allow_nan=False),
    st.floats(0, 0.1),
    st.floats(0, 10),
)
def test_the_answer_shown_is_always_graded_correct(answer, relative, absolute):
    question = NumericQuestion(
        "Q?", answer, relative_tolerance=relative, absolute_tolerance=absolute, explanation="E."
    )
    assert question.check(question.answer_text) == "correct"
    assert question.answer_text in question.feedback("incorrect")
    beyond = question.answer + 2 * question.allowed_error + max(1.0, abs(question.answer))
    assert question.check(repr(beyond)) == "incorrect"


def test_invalid_text_is_not_graded():
    question = NumericQuestion("Q?", 4.0, explanation="E.")
    assert question.check("four") == "invalid"
    assert question.feedback("invalid").startswith("Enter a number")


def test_choice_grading():
    question = ChoiceQuestion("Q?", ["a", "b", "c"], 2, explanation="E.")
    assert [question.check(index) for index in (2, 0, None)] == ["correct", "incorrect", "invalid"]
    assert question.feedback("incorrect") == "Not quite: the answer is C."
    with pytest.raises(ValueError, match=r"^index"):
        question.check(3)
    with pytest.raises(ValueError, match=r"^state"):
        question.feedback("maybe")


# --- argument errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "name"),
    [
        ({"prompt": ""}, "prompt"),
        ({"prompt": None}, "prompt"),
        ({"answer": float("nan")}, "answer"),
        ({"answer": True}, "answer"),
        ({"answer": "3"}, "answer"),
        ({"relative_tolerance": -0.1}, "relative_tolerance"),
        ({"absolute_tolerance": float("inf")}, "absolute_tolerance"),
        ({"unit": 3}, "unit"),
        ({"explanation": " "}, "explanation"),
        ({"link": "ch06"}, "link"),
    ],
)
def test_numeric_question_names_a_bad_argument(arguments, name):
    given_arguments = {"prompt": "Q?", "answer": 1.0, "explanation": "E.", **arguments}
    prompt, answer = given_arguments.pop("prompt"), given_arguments.pop("answer")
    with pytest.raises(ValueError, match=rf"^{name} must"):
        NumericQuestion(prompt, answer, **given_arguments)


@pytest.mark.parametrize(
    ("arguments", "name"),
    [
        ({"choices": "ab"}, "choices"),
        ({"choices": ["a"]}, "choices"),
        ({"choices": ["a", "a"]}, "choices"),
        ({"choices": ["a", ""]}, "each choice"),
        ({"correct": 2}, "correct"),
        ({"correct": True}, "correct"),
        ({"correct": 1.0}, "correct"),
        ({"explanation": ""}, "explanation"),
        ({"link": 3}, "link"),
    ],
)
def test_choice_question_names_a_bad_argument(arguments, name):
    given_arguments = {"prompt": "Q?", "choices": ["a", "b"], "correct": 0, "explanation": "E.", **arguments}
    prompt, choices, correct = (given_arguments.pop(key) for key in ("prompt", "choices", "correct"))
    with pytest.raises(ValueError, match=rf"^{name} must"):
        ChoiceQuestion(prompt, choices, correct, **given_arguments)


@pytest.mark.parametrize(
    ("arguments", "name"),
    [
        ({"page": "/etc/passwd"}, "page"),
        ({"page": "interview"}, "page"),
        ({"text": ""}, "text"),
        ({"anchor": "two words"}, "anchor"),
    ],
)
def test_link_names_a_bad_argument(arguments, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        Link(**{"page": "notebooks/03_x", "text": "chapter 3", **arguments})


def test_link_target_is_relative_to_a_page_of_the_course():
    assert Link("notebooks/06_x", "t", "ch06-ntk").href == "../notebooks/06_x.html#ch06-ntk"
    assert Link("book/glossary", "t").href == "../book/glossary.html"


# --- the HTML -----------------------------------------------------------------------------------------------


class _Element:
    def __init__(self, tag: str, attributes: dict[str, str | None], parent: _Element | None) -> None:
        self.tag, self.attributes, self.parent = tag, attributes, parent
        self.children: list[_Element | str] = []  # elements and text, in document order

    def walk(self):
        yield self
        for child in self.children:
            if isinstance(child, _Element):
                yield from child.walk()

    def find_all(self, tag: str | None = None, **attributes: object) -> list[_Element]:
        return [
            element
            for element in self.walk()
            if (tag is None or element.tag == tag)
            and all(
                _matches(element.attributes, name.replace("_", "-"), value)
                for name, value in attributes.items()
            )
        ]

    def ancestors(self) -> list[str]:
        found, node = [], self.parent
        while node is not None:
            found.append(node.tag)
            node = node.parent
        return found

    def all_text(self) -> str:
        return "".join(child if isinstance(child, str) else child.all_text() for child in self.children)


def _matches(attributes: dict[str, str | None], name: str, value: object) -> bool:
    """``value`` ``...`` asks only that the attribute is there (``hidden``, ``data-rope-viz-feedback``)."""
    return name in attributes and (value is ... or attributes[name] == value)


class _TreeBuilder(html.parser.HTMLParser):
    VOID = frozenset({"input", "br", "img", "meta", "link"})

    def __init__(self) -> None:
        super().__init__()
        self.root = _Element("#root", {}, None)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        element = _Element(tag, dict(attrs), self.current)
        self.current.children.append(element)
        if tag not in self.VOID:
            self.current = element

    def handle_endtag(self, tag):
        assert self.current.tag == tag, f"</{tag}> closes <{self.current.tag}>"
        self.current = self.current.parent

    def handle_data(self, data):
        self.current.children.append(data)


def tree(markup: str) -> _Element:
    builder = _TreeBuilder()
    builder.feed(markup)
    builder.close()
    assert builder.current is builder.root, "unclosed elements"
    return builder.root


def _check_common_structure(question, root: _Element) -> _Element:
    (form,) = root.find_all("form")
    assert form.attributes["data-rope-viz-question"] == question.kind
    assert form.attributes["method"] == "dialog"
    fieldset = form.children[0]
    assert fieldset.tag == "fieldset" and fieldset.children[0].tag == "legend"
    (feedback,) = root.find_all(data_rope_viz_feedback=...)
    assert feedback.attributes["role"] == "status" and feedback.attributes["aria-live"] == "polite"
    assert "data-state" not in feedback.attributes and feedback.all_text() == ""
    (solution,) = root.find_all(data_rope_viz_solution=...)
    assert "hidden" in solution.attributes
    assert question.explanation.split("\n\n")[0][:20] in solution.all_text()
    if question.link is not None:
        (anchor,) = solution.find_all("a")
        assert anchor.attributes["href"] == question.link.href
    for state in STATES:
        assert form.attributes[f"data-feedback-{state}"] == question.feedback(state)
    (button,) = root.find_all("button")
    assert button.attributes["type"] == "submit" and button.all_text() == "Check"
    return form


def test_numeric_html_holds_a_labelled_decimal_box_and_the_exact_answer():
    question = question_bank.build("slowest_wavelength")
    root = tree(question.to_html())
    form = _check_common_structure(question, root)
    (box,) = root.find_all("input")
    assert box.attributes["inputmode"] == "decimal" and box.attributes["type"] == "text"
    assert "label" in box.ancestors()
    (label,) = root.find_all("label")
    assert "tokens" in label.all_text()
    assert float(form.attributes["data-answer"]) == question.answer
    assert float(form.attributes["data-relative-tolerance"]) == question.relative_tolerance
    assert float(form.attributes["data-absolute-tolerance"]) == question.absolute_tolerance


def test_choice_html_holds_one_labelled_radio_per_choice():
    question = question_bank.build("which_snippet_rotates")
    root = tree(question.to_html())
    form = _check_common_structure(question, root)
    radios = root.find_all("input", type="radio")
    assert [radio.attributes["value"] for radio in radios] == [str(k) for k in range(len(question.choices))]
    assert {radio.attributes["name"] for radio in radios} == {"choice"}
    assert all(radio.parent.tag == "label" for radio in radios)
    assert form.attributes["data-correct"] == str(question.correct)
    # A choice of code shows each of its lines as a block of its own (it wraps under itself on a phone).
    shown = [
        [line.all_text() for line in label.find_all("span", **{"class": "rope-viz-question-line"})]
        for label in root.find_all("label")
    ]
    assert shown == [choice.split("\n") for choice in question.choices]


def test_a_minus_sign_stays_with_what_it_negates_when_code_wraps():
    """``rotated = np.concatenate([-x1, x2])`` must not wrap as ``[-`` and ``x1`` on a phone: the sign is the
    question."""
    question = question_bank.build("which_rotate_half")
    root = tree(question.to_html())
    kept = []
    for choice, label in zip(question.choices, root.find_all("label"), strict=True):
        (code,) = label.find_all("code")
        assert code.all_text() == choice
        spans = code.find_all("span", **{"class": "rope-viz-question-unbroken"})
        kept += [span.all_text() for span in spans]
        # Outside the kept spans, no minus sign is followed by a name or number it could be split from.
        for span in spans:
            span.children = []
        assert not re.search(r"-\w", code.all_text()), choice
    assert sorted(kept) == ["-x1", "-x1", "-x2"]  # the snippets' negations: [x2, -x1], [-x1, x2], [-x2, x1]


def test_html_escapes_text_and_marks_code():
    question = ChoiceQuestion(
        'Is <b>"this"</b> `code`?', ["<script>x</script>", "a & b"], 1, explanation="Use `x < y`."
    )
    markup = question.to_html()
    assert "<script>" not in markup and "<b>" not in markup
    root = tree(markup)
    (legend,) = root.find_all("legend")
    assert legend.find_all("code")[0].all_text() == "code"
    assert '<b>"this"</b>' in legend.all_text()


# --- Jupyter ------------------------------------------------------------------------------------------------


def _feedback_state(widget_html: str) -> tuple[str, str]:
    match = re.search(r'data-state="(\w+)"[^>]*>([^<]*)<', widget_html)
    assert match, widget_html
    return match.group(1), html.unescape(match.group(2))


def test_numeric_widget_grades_with_the_sites_texts():
    question = question_bank.build("ntk_base_for_scale_four")
    box = question_widget(question)
    field, button = box.children[1].children
    feedback, solution = box.children[2], box.children[3]
    assert solution.layout.display == "none"
    button.click()
    assert _feedback_state(feedback.value) == ("invalid", question.feedback("invalid"))
    assert solution.layout.display == "none"
    field.value = "40,000"  # committed by Enter: the widget grades at once
    assert _feedback_state(feedback.value) == ("incorrect", question.feedback("incorrect"))
    assert solution.layout.display != "none"
    field.value = question.answer_text
    assert _feedback_state(feedback.value) == ("correct", question.feedback("correct"))


def test_choice_widget_grades_with_the_sites_texts():
    question = question_bank.build("which_rotate_half")
    box = question_widget(question)
    field, button = box.children[2].children
    feedback = box.children[3]
    assert field.value is None
    field.value = (question.correct + 1) % len(question.choices)
    button.click()
    assert _feedback_state(feedback.value) == ("incorrect", question.feedback("incorrect"))
    field.value = question.correct
    button.click()
    assert _feedback_state(feedback.value) == ("correct", question.feedback("correct"))


def test_show_question_picks_the_front_end(monkeypatch):
    import ipywidgets
    from IPython.display import HTML

    questions = question_bank.chapter_questions(3)
    site = show_questions(questions, mode="site")
    assert isinstance(site, HTML) and site.data.count("data-rope-viz-question=") == len(questions)
    assert isinstance(show_questions(questions, mode="live"), ipywidgets.VBox)
    monkeypatch.setenv("ROPE_VIZ_SITE", "1")
    assert isinstance(show_question(questions[0]), HTML)
    monkeypatch.delenv("ROPE_VIZ_SITE")
    assert isinstance(show_question(questions[0]), ipywidgets.VBox)
    with pytest.raises(ValueError, match=r"^mode"):
        show_questions(questions, mode="web")
    with pytest.raises(ValueError, match=r"^questions"):
        show_questions([])
    with pytest.raises(ValueError, match=r"^question"):
        question_widget("What?")


# --- the bank -----------------------------------------------------------------------------------------------


def test_every_chapter_has_three_questions_and_the_interview_page_twelve():
    assert sorted(question_bank.CHAPTERS) == sorted(CHAPTERS)
    assert all(len(names) >= 3 for names in question_bank.CHAPTERS.values())
    assert len(question_bank.INTERVIEW) >= 12
    assert len(set(question_bank.INTERVIEW)) == len(question_bank.INTERVIEW)
    assert len(question_bank.interview_questions()) == len(question_bank.INTERVIEW)


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_question_builds_with_a_worked_answer_and_a_link_that_exists(name):
    question = question_bank.build(name)
    assert question.explanation and question.link is not None
    page = ROOT / f"{question.link.page}.ipynb"
    if not page.exists():
        page = ROOT / f"{question.link.page}.md"
    assert page.exists(), question.link.page
    text = page.read_text(encoding="utf-8")
    if page.suffix == ".ipynb":
        cells = json.loads(text)["cells"]
        text = "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
    labels = set(re.findall(r"^\(([\w-]+)\)=\s*$", text, re.MULTILINE))
    headings = {
        make_id(re.sub(r"[`*$]", "", heading)) for heading in re.findall(r"^#+ (.+)$", text, re.MULTILINE)
    }
    assert question.link.anchor in labels | headings, f"{name}: no label or heading {question.link.anchor!r}"


def test_build_refuses_an_unknown_name():
    with pytest.raises(ValueError, match=r"^name must be one of"):
        question_bank.build("to_html")
    with pytest.raises(ValueError, match=r"^chapter must be one of"):
        question_bank.chapter_questions(11)


def test_numeric_answers_agree_with_the_published_formulas():
    """Each answer recomputed from its formula with :mod:`math`, sharing no code with rope_viz."""
    expected = {
        "slowest_wavelength": 2 * math.pi * 10_000 ** (126 / 128),
        "llama3_slowest_wavelength": 2 * math.pi * 500_000 ** (126 / 128),
        "neighbour_frequency_ratio": 10_000 ** (-2 / 64),
        "ntk_base_for_scale_four": 10_000 * 4 ** (128 / 126),
        "ntk_base_for_scale_eight": 10_000 * 8 ** (128 / 126),
        "yarn_logit_factor": (0.1 * math.log(4) + 1) ** 2,
        "yarn_logits_at_sixteen": (0.1 * math.log(16) + 1) ** 2,
        "one_pair_score": math.cos(2.0),
        "rotation_keeps_length": 5.0,
        "learned_table_parameters": 512 * 768,
        "independent_score_spread": math.sqrt(64),
        "mean_self_score": 2 * sum(math.cos(100 * 10_000 ** (-2 * i / 64)) for i in range(32)),
        "llama2_first_slow_pair": next(i for i in range(64) if 4096 * 10_000 ** (-2 * i / 128) < 2 * math.pi),
        "bfloat16_position": 256.0,  # 257 = 1.00000001₂ × 2⁸ needs 9 significant bits; ties go to even
        "left_padding_position": 3.0,
        "longrope_switch_length": 4097.0,
        "phi2_rotated_channels": int(0.4 * 80),
        "gemma4_global_rotating_pairs": int(0.25 * 512) // 2,  # proportional: the pairs i < p d / 2 rotate
        "llama4_nope_layers": sum((layer + 1) % 4 == 0 for layer in range(48)),  # no_rope_layer_interval 4
        "partial_rotary_wavelength_ratio": 1e6 ** (126 / 128) / 1e6 ** (126 / 512),
        "text_after_image": 5 + max(4, 6),
        "text_after_long_video": 2 + max(2, 2),  # transformers 5.23: the start plus the larger side
        "float16_exact_positions": 2.0**11,
        "cached_key_rotated_again": 2 * 5,
    }
    for name, value in expected.items():
        assert math.isclose(question_bank.build(name).answer, value, rel_tol=1e-12), name


def test_an_answer_rounded_to_three_figures_is_right_and_a_common_mistake_wrong():
    """A reader who gives YaRN's factor on the logits to three figures is right; one who gives a itself, or
    the first-order 1 + 0.2 ln s, is wrong."""
    for name, scale in (("yarn_logit_factor", 4), ("yarn_logits_at_sixteen", 16)):
        question = question_bank.build(name)
        a = 0.1 * math.log(scale) + 1
        assert question.check(f"{a**2:.3g}") == "correct", name
        assert question.check(f"{round(a, 2) ** 2:.4f}") == "correct", name  # a rounded first, then squared
        assert question.check(f"{a:.3f}") == "incorrect", name
        assert question.check(f"{1 + 0.2 * math.log(scale):.3f}") == "incorrect", name


def test_a_question_about_a_pair_index_says_where_the_count_starts():
    """RoFormer numbers pairs from 1, the course from 0: a prompt that asks for an index says which."""
    names = {name for chapter in question_bank.CHAPTERS.values() for name in chapter}
    names |= set(question_bank.INTERVIEW)
    asking = [name for name in sorted(names) if "index" in question_bank.build(name).prompt]
    assert "llama2_first_slow_pair" in asking
    for name in asking:
        assert "counted from 0" in question_bank.build(name).prompt, name


def test_pair_count_answers_follow_the_ramps():
    """Llama 3.1 keeps the pairs with wavelength under L / high_freq_factor; YaRN changes the rest."""
    wavelengths = [2 * math.pi * 500_000 ** (2 * i / 128) for i in range(64)]
    assert question_bank.build("llama31_untouched_pairs").answer == sum(w < 8192 / 4 for w in wavelengths)
    # transformers' YaRN: pairs up to floor(low) keep their frequency, low = the pair that turns 32 times in L
    low = math.floor(128 * math.log(4096 / (32 * 2 * math.pi)) / (2 * math.log(10_000)))
    assert question_bank.build("static_yarn_short_prompt").answer == 64 - (low + 1)


def test_the_code_choices_are_judged_by_running_them():
    """The right snippet is the one that equals the rotation, written out here pair by pair."""
    for name, convention in (("which_snippet_rotates", "interleaved"), ("which_rotate_half", "half")):
        question = question_bank.build(name)
        correct = question.choices[question.correct]
        if convention == "interleaved":
            assert "x[0::2] * cos - x[1::2] * sin" in correct and "x[0::2] * sin + x[1::2] * cos" in correct
        else:
            assert correct == "rotated = np.concatenate([-x2, x1])"


def _correct_choice(name: str) -> str:
    question = question_bank.build(name)
    return question.choices[question.correct]


def test_the_angle_lines_are_judged_by_an_independent_rotation():
    """Only the right `angle` line turns pair (2i, 2i+1) by m 10000^(-2i/d), at small and large positions."""
    question = question_bank.build("which_angles_pass_check")
    d = 64
    x = np.random.default_rng(0).standard_normal((6, d))
    positions = np.array([0, 1, 7, 1500, 2049, 5000])  # 2049 is not a float16, 5000 is past a 1024 table
    expected = np.empty_like(x)
    for row, m in enumerate(positions):
        for i in range(d // 2):
            angle = m * 10_000 ** (-2 * i / d)
            a, b = x[row, 2 * i], x[row, 2 * i + 1]
            expected[row, 2 * i] = a * math.cos(angle) - b * math.sin(angle)
            expected[row, 2 * i + 1] = a * math.sin(angle) + b * math.cos(angle)
    right = []
    for index, snippet in enumerate(question.choices):
        namespace = {"np": np, "x": x, "positions": positions, "d": d}
        exec(snippet, namespace)
        z = (x[:, 0::2] + 1j * x[:, 1::2]) * np.exp(1j * namespace["angle"])
        if np.allclose(np.stack([z.real, z.imag], axis=-1).reshape(x.shape), expected):
            right.append(index)
    assert right == [question.correct]


def test_the_position_choices_follow_independent_formulas():
    # Qwen3-VL deals t, h, w in turn while its 20 height and 20 width pairs last: pair 63 >= 3 * 20 is time's
    assert _correct_choice("qwen3_vl_last_pair_axis").startswith("time")

    # 1-D RoPE in raster order on 8 columns: E[score(r)] / d = (2 / d) sum_i cos(r theta_i), d = 80
    def expected_score(distance: int) -> float:
        return 2 * sum(math.cos(distance * 10_000 ** (-2 * i / 80)) for i in range(40)) / 80

    distances = {"row 1, column 0": 1, "row 1, column 7": 8, "row 0, column 5": 2, "row 7, column 7": 56}
    question = question_bank.build("raster_order_neighbour")
    assert sorted(choice.split(":")[0] for choice in question.choices) == sorted(distances)
    best = max(distances, key=lambda patch: expected_score(distances[patch]))
    assert question.choices[question.correct].startswith(best + ":")


def test_the_base_bound_choice_follows_the_sum():
    """Men et al.'s sum for Qwen3-8B (d = 128, b = 10^6) up to 32,768 tokens, from the outer product."""
    distances = np.arange(32_769.0)
    frequencies = 1e6 ** (-2 * np.arange(64) / 128)
    total = np.cos(np.outer(distances, frequencies)).sum(axis=1)
    assert -1 < total.min() < 0 and np.flatnonzero(total < 0)[0] >= 4096
    assert _correct_choice("qwen3_base_bound").startswith("No, by a hair")


def test_permuting_only_the_queries_is_wrong_at_equal_positions():
    """At m = n the half rotations cancel, leaving (P q) . k, which is not the interleaved model's q . k."""
    q, k = np.random.default_rng(2).standard_normal((2, 8))
    permuted = np.concatenate([q[0::2], q[1::2]])  # the conversion script's row order within one head
    for m in (0, 7, 300):
        loaded = rv.rotate(permuted, m, convention="half") @ rv.rotate(k, m, convention="half")
        assert math.isclose(loaded, permuted @ k, abs_tol=1e-9)
        assert not math.isclose(loaded, rv.rotate(q, m) @ rv.rotate(k, m), abs_tol=1e-3)
    assert "already at m = n" in _correct_choice("only_query_permuted")


# --- the chapters -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", sorted(CHAPTERS))
def test_each_chapter_checks_itself_before_its_key_points(number):
    cells = json.loads(CHAPTERS[number].read_text(encoding="utf-8"))["cells"]
    sources = ["".join(cell["source"]) for cell in cells]
    (check,) = [k for k, source in enumerate(sources) if source.startswith("## Check yourself")]
    (key_points,) = [
        k for k, source in enumerate(sources) if re.search(r"^## Key points", source, re.MULTILINE)
    ]
    assert check < key_points
    code = [cells[k] for k in range(check + 1, key_points) if cells[k]["cell_type"] == "code"]
    assert len(code) == 1
    assert f"show_questions(chapter_questions({number}))" in "".join(code[0]["source"])
    assert "remove-input" in code[0]["metadata"].get("tags", [])


# --- the interview page -------------------------------------------------------------------------------------


def _interview() -> str:
    return INTERVIEW.read_text(encoding="utf-8")


def _dropdowns(page: str) -> list[tuple[str, str]]:
    return re.findall(r"^:::\{dropdown\} ([^\n]+)\n(.*?)^:::$", page, re.MULTILINE | re.DOTALL)


def test_the_interview_page_shows_its_twelve_questions_in_order():
    names = re.findall(r"^```\{rope-viz-question\} (\w+)\s*$", _interview(), re.MULTILINE)
    assert tuple(names) == question_bank.INTERVIEW


def test_every_question_of_the_interview_page_is_a_flashcard_that_links_to_its_figure():
    page = _interview()
    outside = re.sub(r"^:::\{dropdown\}.*?^:::$", "", page, flags=re.MULTILINE | re.DOTALL)
    assert not re.findall(r"^\*\*.+\?\*\*\s*$", outside, re.MULTILINE), "a question with its answer in view"
    cards = [(title, body) for title, body in _dropdowns(page) if title.endswith("?")]
    assert len(cards) >= 25
    for title, body in cards:
        assert re.search(r"\{(?:ref|doc)\}`", body), f"the answer to {title!r} links to no chapter or figure"
    practitioners = page.split("## What practitioners ask", 1)[1].split("\n## ", 1)[0]
    for topic in ("YaRN", "short prompts", "LongRoPE", "bfloat16", "left padding"):
        assert topic in practitioners
    likely = page.split("## Likely questions", 1)[1].split("\n## ", 1)[0]
    assert "Interleaved or half pairs" in likely and "KV cache" in likely
    assert "`partial_rotary_factor`" in page


def test_the_whiteboard_answer_is_hidden_and_rotates_like_rope():
    page = _interview()
    section = page.split("## Whiteboard", 1)[1].split("\n## ", 1)[0]
    ((title, body),) = _dropdowns(section)
    assert title == "Model answer"
    (code,) = re.findall(r"```python\n(.*?)```", body, re.DOTALL)
    assert len([line for line in code.splitlines() if line.strip()]) <= 10
    namespace: dict = {}
    exec(code, namespace)
    x = np.random.default_rng(0).standard_normal((6, 16))
    positions = np.array([0, 1, 5, 100, 4095, 10_000])
    np.testing.assert_allclose(namespace["rope"](x, positions), rv.rotate(x, positions, convention="half"))
    np.testing.assert_allclose(
        namespace["rope"](x, positions, 500_000.0), rv.rotate(x, positions, base=500_000.0, convention="half")
    )
