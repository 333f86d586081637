"""The prose pages of the book: the glossary covers what the pages use, and the interview pitch fits its time.

* Every symbol of every formula on the chapters and book pages is listed in the glossary, and so is every
  config key the pages name.
* The glossary says what ``factor`` does for every ``rope_type`` that ``rope_viz.scaling`` knows.
* The "90-second" pitch of the interview page has 220 to 230 words: ninety seconds at about 150 spoken words a
  minute.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from rope_viz.scaling import METHODS, RopeParameters
from tests.test_reading_in_jupyter import formulas

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
GLOSSARY = BOOK / "glossary.md"
INTERVIEW = BOOK / "interview.md"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
PAGES = [*NOTEBOOKS, *sorted(path for path in BOOK.glob("*.md") if path != GLOSSARY)]

#: Greek letters, as TeX commands: kept as symbols; every other command is an operator or spacing.
GREEK = set(
    (
        "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi rho "
        "varrho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega"
    ).split()
)
#: Text and operator names inside these commands are words, not symbols (``\mathrm{Re}``, ``\text{tokens}``).
WORDS = re.compile(r"\\(?:text|textrm|texttt|mathrm|operatorname|mathtt)\s*\{(?:[^{}]|\{[^{}]*\})*\}")
ENVIRONMENT = re.compile(r"\\(?:begin|end)\s*\{[^{}]*\}")
FONT_LETTER = re.compile(r"\\(mathcal|mathbb)\s*\{\s*([A-Za-z])\s*\}")
COMMAND = re.compile(r"\\([A-Za-z]+)")

#: The config keys a page may name: Hugging Face's RoPE keys, as ``RopeParameters`` fields, and the blocks.
CONFIG_KEYS = {field.name for field in dataclasses.fields(RopeParameters)} - {"dim"} | {
    "rope_scaling",
    "rope_parameters",
}

#: The words a pitch may have: ninety seconds at about 150 words a minute.
PITCH_WORDS = (220, 230)
PITCH_LABEL = "(interview-pitch)="


def symbols(tex: str) -> set[str]:
    """The symbols of one TeX formula: Latin letters, Greek letters and calligraphic or blackboard letters.

    Operator names and text (``\\operatorname{Var}``, ``\\mathrm{score}``, ``\\text{factor}``) are words, not
    symbols; so are environment names. Digits and punctuation are ignored.
    """
    tex = ENVIRONMENT.sub(" ", tex)
    tex = WORDS.sub(" ", tex)
    found = {f"\\{font}{{{letter}}}" for font, letter in FONT_LETTER.findall(tex)}
    tex = FONT_LETTER.sub(" ", tex)
    found |= {f"\\{name}" for name in COMMAND.findall(tex) if name in GREEK}
    tex = COMMAND.sub(" ", tex)
    return found | set(re.findall(r"[A-Za-z]", tex))


def test_symbols_of_a_formula():
    assert symbols(r"\theta_i' = b^{-2i/d}") == {"\\theta", "i", "b", "d"}
    assert symbols(r"\mathbb{E}[\mathrm{score}(r)] = 2c \sum_i \cos(r\theta_i)") == {
        "\\mathbb{E}",
        "r",
        "c",
        "i",
        "\\theta",
    }
    assert symbols(r"\begin{pmatrix} x \\ y \end{pmatrix}, \text{factor}\cdot l/L") == {"x", "y", "l", "L"}
    assert symbols(r"q \sim \mathcal{N}(0, I_d)") == {"q", "\\mathcal{N}", "I", "d"}


def _texts(path: Path) -> list[str]:
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown"]
    return [path.read_text(encoding="utf-8")]


def _code(path: Path) -> list[str]:
    if path.suffix != ".ipynb":
        return []
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


def _glossary_entries() -> dict[str, str]:
    """The glossary's definition list: each term line with the text of its definition."""
    lines = GLOSSARY.read_text(encoding="utf-8").splitlines()
    entries: dict[str, list[str]] = {}
    term = None
    for index, line in enumerate(lines):
        if line.startswith(": ") and index > 0 and lines[index - 1].strip():
            term = lines[index - 1]
            entries[term] = [line[2:]]
        elif term is not None and (line.startswith("  ") or not line.strip()):
            entries[term].append(line.strip())
        else:
            term = None
    return {term: "\n".join(text).strip() for term, text in entries.items()}


def test_the_glossary_is_a_definition_list():
    entries = _glossary_entries()
    assert len(entries) > 40
    assert any("`factor`" in term for term in entries)


def test_every_symbol_on_the_pages_is_in_the_glossary():
    listed = set()
    for term in _glossary_entries():
        for tex, _ in formulas(term):
            listed |= symbols(tex)
    missing = {}
    for path in PAGES:
        for text in _texts(path):
            for tex, _ in formulas(text):
                for symbol in symbols(tex) - listed:
                    missing.setdefault(symbol, set()).add(path.name)
    assert not missing, f"symbols used but not listed in the glossary: {missing}"


def test_every_config_key_the_pages_name_is_in_the_glossary():
    terms = "\n".join(_glossary_entries())
    listed = set(re.findall(r"`([a-z_]+)`", terms))
    used = set()
    for path in PAGES:
        for text in _texts(path):
            used |= set(re.findall(r"`([a-z_]+)`", text)) & CONFIG_KEYS
        for code in _code(path):
            used |= set(re.findall(r"[\"']([a-z_]+)[\"']\s*:", code)) & CONFIG_KEYS
    assert {"factor", "rope_theta", "original_max_position_embeddings"} <= used
    assert used <= listed, f"config keys the pages name but the glossary does not list: {used - listed}"


def test_the_glossary_says_what_factor_does_for_every_method():
    entries = _glossary_entries()
    (definition,) = [text for term, text in entries.items() if "`factor`" in term and "$s$" in term]
    for rope_type in set(METHODS) - {"default"}:
        assert re.search(rf"^- `{rope_type}`", definition, re.MULTILINE), (
            f"the glossary's factor entry has no item for rope_type {rope_type!r}"
        )


def pitch(page: str) -> str:
    """The text of the spoken pitch: the block quote of the section that carries the pitch label."""
    assert page.count(PITCH_LABEL) == 1, f"the interview page must mark its pitch once with {PITCH_LABEL}"
    section = page.split(PITCH_LABEL, 1)[1].lstrip("\n")
    heading, _, body = section.partition("\n")
    assert heading.startswith("## ") and "90-second" in heading, f"the pitch label stands before {heading!r}"
    body = re.split(r"^#{1,6} ", body, maxsplit=1, flags=re.MULTILINE)[0]
    quoted = [line[1:].strip() for line in body.splitlines() if line.startswith(">")]
    assert any(quoted), "the pitch section has no block quote"
    return " ".join(quoted)


def words(text: str) -> int:
    """Spoken words: whitespace-separated tokens with a letter or a digit ("Llama 3.1's" is two)."""
    return sum(1 for token in text.split() if re.search(r"[A-Za-z0-9]", token))


def test_word_count():
    assert words("Attention compares tokens — with dot products, and NTK-aware scaling; 3.1's rule.") == 11


@pytest.mark.parametrize(
    "page",
    [
        "(interview-pitch)=\n## Five lines\n\n> a b c\n",
        "## The 90-second version\n\n> a b c\n",
        "(interview-pitch)=\n## The 90-second version\n\nNo quote.\n\n## Next\n\n> a b c\n",
    ],
)
def test_pitch_refuses_a_page_that_does_not_mark_it(page):
    with pytest.raises(AssertionError):
        pitch(page)


def test_the_ninety_second_pitch_fits_ninety_seconds():
    text = pitch(INTERVIEW.read_text(encoding="utf-8"))
    low, high = PITCH_WORDS
    assert low <= words(text) <= high, f"the pitch has {words(text)} words, not {low} to {high}"
