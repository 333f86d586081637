"""The bibliography: every entry names its author (a person or an organisation) and its year, every citation
label is distinct, and the references page lists exactly the works the pages cite.

These checks read ``book/references.bib`` with pybtex (what sphinxcontrib-bibtex reads it with) and build the
author-year labels the way the site's ``author_year`` style does: one author's last name, two joined by "and",
three or more as the first "et al."; ``tests/test_reading_in_jupyter.py`` compares with the labels that
sphinxcontrib-bibtex itself renders.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pybtex.database import parse_file, parse_string

from rope_viz.site import citations

ROOT = Path(__file__).resolve().parents[1]
BIB = ROOT / "book" / "references.bib"
REFERENCES_PAGE = ROOT / "book" / "references.md"
PAGES = [*sorted((ROOT / "notebooks").glob("*.ipynb")), *sorted((ROOT / "book").glob("*.md"))]

#: A year, with a letter when one author group has two works in it (2023a, 2023b).
YEAR = re.compile(r"^(?:19|20)\d\d[a-z]?$")
#: Words that stand for an unknown author or date; none may appear in a label.
PLACEHOLDERS = re.compile(r"\b(?:anonymous|unknown|n\.\s?d\.|no date|undated)", re.IGNORECASE)


def _last_name(person) -> str:
    return " ".join(person.last_names) or " ".join(person.first_names)


def label(entry) -> str:
    """The author-year label of an entry, as ``Su et al., 2024``."""
    authors = entry.persons.get("author", [])
    names = [re.sub(r"[{}]", "", _last_name(person)) for person in authors]
    if len(names) <= 1:
        who = "".join(names)
    elif len(names) == 2:
        who = f"{names[0]} and {names[1]}"
    else:
        who = f"{names[0]} et al."
    return f"{who}, {entry.fields.get('year', '')}"


def problems(bibliography) -> list[str]:
    """What is wrong with a parsed bibliography: missing authors or years, placeholders, repeated labels."""
    found = []
    seen: dict[str, str] = {}
    for key, entry in bibliography.entries.items():
        authors = entry.persons.get("author", [])
        year = entry.fields.get("year", "")
        if not authors or not any(_last_name(person).strip("{} ") for person in authors):
            found.append(f"{key}: no author")
        if not YEAR.match(year):
            found.append(f"{key}: year {year!r} is not a year")
        text = label(entry)
        if PLACEHOLDERS.search(text) or PLACEHOLDERS.search(" ".join(str(p) for p in authors)):
            found.append(f"{key}: placeholder in {text!r}")
        if text in seen:
            found.append(f"{key} and {seen[text]} share the label {text!r}")
        seen[text] = key
    return found


@pytest.fixture(scope="module")
def bibliography():
    return parse_file(str(BIB), bib_format="bibtex")


def test_every_entry_has_an_author_a_year_and_its_own_label(bibliography):
    assert len(bibliography.entries) > 30
    assert problems(bibliography) == []


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("@misc{x, title = {T}, year = {2021}}", "x: no author"),
        ("@misc{x, title = {T}, author = {{Anonymous}}, year = {2021}}", "placeholder"),
        ("@misc{x, title = {T}, author = {Su, Jianlin}, year = {n.d.}}", "is not a year"),
        ("@misc{x, title = {T}, author = {Su, Jianlin}}", "is not a year"),
        (
            "@misc{x, title = {T}, author = {Su, Jianlin and Lu, Yu and Pan, Shengfeng}, year = {2024}}\n"
            "@misc{y, title = {U}, author = {Su, Jianlin and Bo, Wen and Liu, Yunfeng}, year = {2024}}",
            "share the label 'Su et al., 2024'",
        ),
    ],
)
def test_the_check_catches_what_it_should(entry, problem):
    found = problems(parse_string(entry, "bibtex"))
    assert any(problem in text for text in found), found


def test_labels_read_as_the_site_shows_them(bibliography):
    assert label(bibliography.entries["su2024roformer"]) == "Su et al., 2024"
    assert label(bibliography.entries["wang2021gptj"]) == "Wang and Komatsuzaki, 2021"
    assert label(bibliography.entries["bloc97ntk2023"]) == "bloc97, 2023"


def _markdown(path: Path) -> list[str]:
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown"]
    return [path.read_text(encoding="utf-8")]


def test_the_references_page_lists_exactly_what_the_pages_cite(bibliography):
    """references.md lists every entry (``:all:``), so every entry must be cited by some page."""
    page = REFERENCES_PAGE.read_text(encoding="utf-8")
    assert re.search(r"```\{bibliography\}\n:all:\n```", page)
    targets = citations.citation_targets(BIB)
    cited = {
        key
        for path in PAGES
        for markdown in _markdown(path)
        for citation in citations.find_citations(markdown, targets)
        for key in citation.keys
    }
    assert set(bibliography.entries) - cited == set(), "listed in references.md but cited by no page"
