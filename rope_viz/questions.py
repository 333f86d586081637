"""Questions that grade themselves: a number with a tolerance, or one choice out of several.

A question is plain data with its answer computed when it is built (the chapters build theirs from
:mod:`rope_viz.question_bank`, with the math modules). It has two front ends, with the same feedback texts:

* :meth:`NumericQuestion.to_html` and :meth:`ChoiceQuestion.to_html`: a ``<form>`` for the course site, which
  ``rope-viz-questions.js`` grades in the browser, with no kernel. The outer element carries
  ``data-rope-viz-question`` (``"numeric"`` or ``"choice"``) and the answer in data attributes; after a check
  its feedback element (``data-rope-viz-feedback``, a polite live region) has ``data-state`` set to
  ``"correct"``, ``"incorrect"`` or ``"invalid"`` (nothing to grade), and the worked answer
  (``data-rope-viz-solution``) is shown unless the state is ``"invalid"``.
* :func:`question_widget`: the same question as ipywidgets, graded in the kernel.

:func:`show_question` picks the front end as :func:`rope_viz.notebook.show` does for figures.
"""

from __future__ import annotations

import html
import math
import numbers
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rope_viz.notebook.display import on_site

__all__ = [
    "STATES",
    "ChoiceQuestion",
    "Link",
    "NumericQuestion",
    "Question",
    "format_number",
    "parse_number",
    "question_widget",
    "show_question",
    "show_questions",
]

#: What a check can conclude. ``"invalid"``: nothing to grade (no number, no choice).
STATES = ("correct", "incorrect", "invalid")
INVALID_NUMBER_TEXT = "Enter a number, such as 1.5e4, 10,000 or −0.25."
NO_CHOICE_TEXT = "Choose one of the answers first."
UNICODE_MINUS = "\u2212"
#: Characters trimmed from both ends of an answer, and the separators of digit groups (comma, space,
#: no-break space, thin space, narrow no-break space): both exactly as ``rope-viz-questions.js`` has them.
_BLANKS = " \t\n\r\u00a0\u2009\u202f"
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_GROUPED_NUMBER = re.compile(
    r"[+-]?[0-9]{1,3}(?P<separator>[, \u00a0\u2009\u202f])[0-9]{3}(?:(?P=separator)[0-9]{3})*"
    r"(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?"
)
_CODE = re.compile(r"`([^`]+)`")
#: A minus sign and the name or number it negates (``-x1``, ``-np.arange``), kept on one line when code wraps:
#: browsers may break a line after a hyphen.
_NEGATED = re.compile(r"-[\w.]+")
_LETTERS = "ABCDEFGHIJ"


def parse_number(text: str) -> float:
    """Read the number a reader typed: ``"1e4"``, ``"10,000"``, ``"10 000"``, ``"6.3e+04"``, ``"−2.5"``.

    Accepts an optional sign (``+``, ``-`` or the Unicode minus U+2212), digits with an optional decimal
    point and an optional exponent (``e`` or ``E``). The integer part may be split into groups of three digits
    by one kind of separator used throughout: a comma (English usage) or a space, no-break space or thin space
    (the SI Brochure, 9th edition, sec. 5.4.4). Anything else, a decimal comma (``"3,5"``) included, is
    refused rather than guessed at.

    Parameters
    ----------
    text : str
        What the reader typed; blanks at either end are ignored.

    Returns
    -------
    float
        The number, finite.

    Raises
    ------
    ValueError
        If ``text`` is not a string, not a number in one of these forms, or too large for a float.

    Examples
    --------
    >>> [parse_number(text) for text in ("1e4", "10,000", "10 000", "6.3e+04", "\u22122.5")]
    [10000.0, 10000.0, 10000.0, 63000.0, -2.5]

    """
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {text!r}")
    cleaned = text.strip(_BLANKS).replace(UNICODE_MINUS, "-")
    grouped = _GROUPED_NUMBER.fullmatch(cleaned)
    if grouped:
        cleaned = cleaned.replace(grouped.group("separator"), "")
    elif not _PLAIN_NUMBER.fullmatch(cleaned):
        raise ValueError(f"text must be a number such as 1.5e4 or 10,000, got {text!r}")
    value = float(cleaned)
    if not math.isfinite(value):
        raise ValueError(f"text must be a finite number, got {text!r}")
    return value


def format_number(value: float, significant: int = 4) -> str:
    """Write ``value`` for a reader: thousands separated by commas, a Unicode minus, ``significant`` digits.

    Whole numbers below 10¹⁵ are written in full; other numbers from 10⁻⁴ on in fixed point, smaller or
    larger ones in scientific notation. :func:`parse_number` reads every result back.

    Examples
    --------
    >>> format_number(54410.14313), format_number(-0.41614683), format_number(393216.0)
    ('54,410', '−0.4161', '393,216')

    """
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"value must be a finite number, got {value!r}")
    if not 1 <= significant <= 17:
        raise ValueError(f"significant must be between 1 and 17, got {significant!r}")
    magnitude = abs(value)
    if value.is_integer() and magnitude < 1e15:
        text = f"{int(magnitude):,}"
    elif 1e-4 <= magnitude < 1e15:
        decimals = max(0, significant - 1 - math.floor(math.log10(magnitude)))
        text = f"{magnitude:,.{decimals}f}"
    else:
        text = f"{magnitude:.{significant - 1}e}"
    return (UNICODE_MINUS if value < 0 else "") + text


@dataclass(frozen=True)
class Link:
    """Where the course shows the answer: a page (``"notebooks/06_beyond_training_length"``) and an anchor.

    Every page of the course sits one folder below the site's root, so :attr:`href` is relative to the page
    that shows the question: ``../<page>.html#<anchor>``.
    """

    page: str
    text: str
    anchor: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.page, str) or not re.fullmatch(r"[A-Za-z0-9_-]+/[A-Za-z0-9_.-]+", self.page):
            raise ValueError(f"page must be a page of the course such as 'notebooks/03_x', got {self.page!r}")
        _check_text(self.text, "text")
        if self.anchor is not None and not (
            isinstance(self.anchor, str) and re.fullmatch(r"[A-Za-z0-9_-]+", self.anchor)
        ):
            raise ValueError(f"anchor must be an id of letters, digits, '-' and '_', got {self.anchor!r}")

    @property
    def href(self) -> str:
        """The link's target, relative to a page of the course."""
        return f"../{self.page}.html" + (f"#{self.anchor}" if self.anchor else "")


def _check_text(value: object, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    return value


def _check_tolerance(value: object, name: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(value)
        or value < 0
    ):
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return float(value)


def _inline_html(text: str) -> str:
    """Escape ``text`` for HTML, with `backticks` as ``<code>``."""
    return _CODE.sub(r"<code>\1</code>", html.escape(text))


def _solution_html(explanation: str, link: Link | None, *, href: bool = True) -> str:
    paragraphs = [p for p in explanation.split("\n\n") if p.strip()]
    parts = [
        f"<p>{'<strong>Worked answer.</strong> ' if k == 0 else ''}{_inline_html(p)}</p>"
        for k, p in enumerate(paragraphs)
    ]
    if link is not None:
        target = f'<a href="{html.escape(link.href)}">{html.escape(link.text)}</a>' if href else link.text
        parts.append(f"<p>Where the course shows it: {target}.</p>")
    return "".join(parts)


class _Question:
    kind: str
    prompt: str
    explanation: str
    link: Link | None

    def feedback(self, state: str) -> str:
        """Return the text the feedback element shows for ``state`` (one of :data:`STATES`)."""
        texts = self._feedback_texts()
        if state not in texts:
            raise ValueError(f"state must be one of {STATES}, got {state!r}")
        return texts[state]

    def _feedback_texts(self) -> dict[str, str]:
        raise NotImplementedError

    def _response_html(self) -> str:
        raise NotImplementedError

    def _answer_attributes(self) -> dict[str, str]:
        raise NotImplementedError

    def to_html(self) -> str:
        """Return the question as a ``<form>`` that the site's script grades (see the module docstring)."""
        attributes = {"data-rope-viz-question": self.kind, **self._answer_attributes()}
        attributes.update({f"data-feedback-{state}": text for state, text in self._feedback_texts().items()})
        written = "".join(f' {name}="{html.escape(value)}"' for name, value in attributes.items())
        # method="dialog" outside a dialog submits nowhere: without the script, Check leaves the page alone.
        return (
            f'<form class="rope-viz-question" method="dialog"{written}><fieldset>'
            f"<legend>{_inline_html(self.prompt)}</legend>{self._response_html()}"
            '<div class="rope-viz-question-feedback" data-rope-viz-feedback role="status" aria-live="polite">'
            "</div>"
            f'<div class="rope-viz-question-solution" data-rope-viz-solution hidden>'
            f"{_solution_html(self.explanation, self.link)}</div></fieldset></form>"
        )


class NumericQuestion(_Question):
    """A question whose answer is a number, accepted within a tolerance.

    A response ``x`` is correct when
    ``|x - answer| <= max(absolute_tolerance, relative_tolerance * |answer|)``: relative to the answer only,
    unlike :func:`math.isclose`, which is symmetric in its two numbers.

    Parameters
    ----------
    prompt : str
        The question (`backticks` mark code).
    answer : float
        The right number, computed with ``rope_viz``.
    relative_tolerance, absolute_tolerance : float, default 0.01 and 0
        The accepted distance from ``answer``; both 0 accepts ``answer`` exactly (for counts).
    unit : str, default ""
        What the number counts ("tokens"), shown in the label and the feedback.
    explanation : str
        The worked answer, shown after a check (paragraphs separated by blank lines).
    link : Link, optional
        The figure or section that shows the answer.

    Examples
    --------
    >>> question = NumericQuestion("What is 2 + 2?", 4, explanation="Count.")
    >>> [question.check(text) for text in ("4", "4.5", "four")]
    ['correct', 'incorrect', 'invalid']
    >>> question.feedback("incorrect")
    'Not quite: the answer is 4.'

    """

    kind = "numeric"

    def __init__(
        self,
        prompt: str,
        answer: float,
        *,
        relative_tolerance: float = 0.01,
        absolute_tolerance: float = 0.0,
        unit: str = "",
        explanation: str,
        link: Link | None = None,
    ) -> None:
        self.prompt = _check_text(prompt, "prompt")
        if isinstance(answer, bool) or not isinstance(answer, numbers.Real) or not math.isfinite(answer):
            raise ValueError(f"answer must be a finite number, got {answer!r}")
        self.answer = float(answer)
        self.relative_tolerance = _check_tolerance(relative_tolerance, "relative_tolerance")
        self.absolute_tolerance = _check_tolerance(absolute_tolerance, "absolute_tolerance")
        if not isinstance(unit, str):
            raise ValueError(f"unit must be a string, got {unit!r}")
        self.unit = unit.strip()
        self.explanation = _check_text(explanation, "explanation")
        if link is not None and not isinstance(link, Link):
            raise ValueError(f"link must be a Link or None, got {link!r}")
        self.link = link
        # The fewest digits that the tolerance accepts, so that the answer shown is graded correct.
        self.answer_text = next(
            text
            for text in (format_number(self.answer, digits) for digits in range(3, 18))
            if self.accepts(parse_number(text))
        )

    @property
    def allowed_error(self) -> float:
        """The largest accepted distance from the answer: ``max(absolute, relative * |answer|)``."""
        return max(self.absolute_tolerance, self.relative_tolerance * abs(self.answer))

    def accepts(self, value: float) -> bool:
        """Whether ``value`` is within the tolerance of the answer."""
        return abs(float(value) - self.answer) <= self.allowed_error

    def check(self, text: str) -> str:
        """Grade what the reader typed: ``"correct"``, ``"incorrect"`` or ``"invalid"`` (not a number)."""
        try:
            value = parse_number(text)
        except ValueError:
            return "invalid"
        return "correct" if self.accepts(value) else "incorrect"

    def _shown_answer(self) -> str:
        return f"{self.answer_text} {self.unit}".strip()

    def _feedback_texts(self) -> dict[str, str]:
        return {
            "correct": f"Correct: {self._shown_answer()}.",
            "incorrect": f"Not quite: the answer is {self._shown_answer()}.",
            "invalid": INVALID_NUMBER_TEXT,
        }

    def _answer_attributes(self) -> dict[str, str]:
        # repr() of a float reads back exactly in JavaScript's Number().
        return {
            "data-answer": repr(self.answer),
            "data-relative-tolerance": repr(self.relative_tolerance),
            "data-absolute-tolerance": repr(self.absolute_tolerance),
        }

    def _response_html(self) -> str:
        label = f"Your answer, in {self.unit}" if self.unit else "Your answer"
        return (
            '<div class="rope-viz-question-response"><label>'
            f'<span class="rope-viz-question-label">{html.escape(label)}</span> '
            '<input type="text" inputmode="decimal" name="answer" autocomplete="off" spellcheck="false">'
            '</label> <button type="submit">Check</button></div>'
        )


class ChoiceQuestion(_Question):
    """A question with one right answer among several choices, lettered A, B, C, ...

    Parameters
    ----------
    prompt : str
        The question (`backticks` mark code).
    choices : sequence of str
        Two to ten distinct answers.
    correct : int
        Index of the right one in ``choices``.
    explanation : str
        The worked answer, shown after a check.
    link : Link, optional
        The figure or section that shows the answer.
    code : bool, default False
        Whether the choices are code (shown as preformatted blocks).

    Examples
    --------
    >>> question = ChoiceQuestion("Which is even?", ["3", "4"], 1, explanation="4 = 2 · 2.")
    >>> [question.check(index) for index in (1, 0, None)]
    ['correct', 'incorrect', 'invalid']
    >>> question.feedback("correct")
    'Correct: B.'

    """

    kind = "choice"

    def __init__(
        self,
        prompt: str,
        choices: Sequence[str],
        correct: int,
        *,
        explanation: str,
        link: Link | None = None,
        code: bool = False,
    ) -> None:
        self.prompt = _check_text(prompt, "prompt")
        if isinstance(choices, str) or not isinstance(choices, Sequence):
            raise ValueError(f"choices must be a sequence of strings, got {choices!r}")
        self.choices = tuple(_check_text(choice, "each choice") for choice in choices)
        if not 2 <= len(self.choices) <= len(_LETTERS) or len(set(self.choices)) != len(self.choices):
            raise ValueError(f"choices must hold 2 to {len(_LETTERS)} distinct strings, got {choices!r}")
        if isinstance(correct, bool) or not isinstance(correct, numbers.Integral):
            raise ValueError(f"correct must be the index of a choice, got {correct!r}")
        if not 0 <= correct < len(self.choices):
            raise ValueError(f"correct must be between 0 and {len(self.choices) - 1}, got {correct!r}")
        self.correct = int(correct)
        self.explanation = _check_text(explanation, "explanation")
        if link is not None and not isinstance(link, Link):
            raise ValueError(f"link must be a Link or None, got {link!r}")
        self.link = link
        self.code = bool(code)

    @property
    def letters(self) -> str:
        """The letters of the choices, in order."""
        return _LETTERS[: len(self.choices)]

    def check(self, index: int | None) -> str:
        """Grade the chosen index: ``"correct"``, ``"incorrect"`` or ``"invalid"`` (``None``: no choice)."""
        if index is None:
            return "invalid"
        if (
            isinstance(index, bool)
            or not isinstance(index, numbers.Integral)
            or not 0 <= index < len(self.choices)
        ):
            raise ValueError(f"index must be None or between 0 and {len(self.choices) - 1}, got {index!r}")
        return "correct" if index == self.correct else "incorrect"

    def _feedback_texts(self) -> dict[str, str]:
        letter = self.letters[self.correct]
        return {
            "correct": f"Correct: {letter}.",
            "incorrect": f"Not quite: the answer is {letter}.",
            "invalid": NO_CHOICE_TEXT,
        }

    def _answer_attributes(self) -> dict[str, str]:
        return {"data-correct": str(self.correct)}

    def _choice_html(self, choice: str) -> str:
        if self.code:
            # One block per line of code, so that a line too long for the screen wraps under itself, indented.
            lines = "".join(
                '<span class="rope-viz-question-line">'
                + _NEGATED.sub(r'<span class="rope-viz-question-unbroken">\g<0></span>', html.escape(line))
                + "</span>"
                for line in choice.split("\n")
            )
            return f'<code class="rope-viz-question-code">{lines}</code>'
        return f"<span>{_inline_html(choice)}</span>"

    def _response_html(self) -> str:
        items = "".join(
            f'<label class="rope-viz-question-choice"><input type="radio" name="choice" value="{index}"> '
            f'<span class="rope-viz-question-letter">{letter}.</span> {self._choice_html(choice)}</label>'
            for index, (letter, choice) in enumerate(zip(self.letters, self.choices, strict=True))
        )
        return (
            f'<div class="rope-viz-question-choices">{items}</div>'
            '<div class="rope-viz-question-response"><button type="submit">Check</button></div>'
        )


Question = NumericQuestion | ChoiceQuestion


def question_widget(question: Question):
    """Return ``question`` as ipywidgets, graded in the kernel with the site's feedback texts.

    A numeric question is checked by its Check button or by Enter in the box; a choice question by its button.
    The feedback is an HTML element with the site's ``data-rope-viz-feedback`` and ``data-state``.
    """
    import ipywidgets as widgets

    if not isinstance(question, NumericQuestion | ChoiceQuestion):
        raise ValueError(f"question must be a NumericQuestion or a ChoiceQuestion, got {question!r}")
    parts: list = [widgets.HTML(f"<p><strong>{_inline_html(question.prompt)}</strong></p>")]
    if isinstance(question, NumericQuestion):
        label = f"Your answer, in {question.unit}" if question.unit else "Your answer"
        field = widgets.Text(placeholder=label, continuous_update=False, layout=widgets.Layout(width="16rem"))
    else:
        if question.code:
            blocks = "".join(
                f"<p><strong>{letter}.</strong></p><pre>{html.escape(choice)}</pre>"
                for letter, choice in zip(question.letters, question.choices, strict=True)
            )
            parts.append(widgets.HTML(blocks))
            options = [(letter, index) for index, letter in enumerate(question.letters)]
        else:
            options = [
                (f"{letter}. {choice.replace('`', '')}", index)
                for index, (letter, choice) in enumerate(zip(question.letters, question.choices, strict=True))
            ]
        field = widgets.RadioButtons(options=options, value=None, layout=widgets.Layout(width="auto"))
    button = widgets.Button(description="Check", tooltip="Check your answer")
    feedback = widgets.HTML("")
    solution = widgets.HTML(
        _solution_html(question.explanation, question.link, href=False), layout=widgets.Layout(display="none")
    )

    def check(*_: object) -> None:
        state = question.check(field.value)
        feedback.value = (
            f'<div data-rope-viz-feedback data-state="{state}" role="status">'
            f"{html.escape(question.feedback(state))}</div>"
        )
        if state != "invalid":
            solution.layout.display = None

    button.on_click(check)
    if isinstance(question, NumericQuestion):
        field.observe(check, names="value")  # Enter (or leaving the box) commits the value
    box = widgets.VBox([*parts, widgets.HBox([field, button]), feedback, solution])
    box.add_class("rope-viz-question")
    return box


def show_question(question: Question, mode: Literal["auto", "site", "live"] = "auto"):
    """Return the front end of ``question`` to display: the site's HTML on the site, ipywidgets elsewhere.

    Parameters
    ----------
    question : NumericQuestion or ChoiceQuestion
        The question.
    mode : {"auto", "site", "live"}
        ``"auto"`` picks by :func:`rope_viz.notebook.on_site`.

    """
    return show_questions([question], mode)


def show_questions(questions: Sequence[Question], mode: Literal["auto", "site", "live"] = "auto"):
    """Return several questions as one display object (see :func:`show_question`)."""
    if mode not in ("auto", "site", "live"):
        raise ValueError(f"mode must be one of 'auto', 'site', 'live', got {mode!r}")
    questions = list(questions)
    if not questions or not all(isinstance(item, NumericQuestion | ChoiceQuestion) for item in questions):
        raise ValueError(f"questions must be NumericQuestion or ChoiceQuestion objects, got {questions!r}")
    if mode == "site" or (mode == "auto" and on_site()):
        from IPython.display import HTML

        return HTML('<div class="rope-viz-questions">' + "".join(q.to_html() for q in questions) + "</div>")
    import ipywidgets as widgets

    return widgets.VBox([question_widget(question) for question in questions])
