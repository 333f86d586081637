"""rope_viz cites transformers by function name and version, never by line number.

Line numbers of modeling_rope_utils.py move with every release, so a citation such as "(modeling_rope_utils.py
lines 427-428)" soon points at other code; the name of the function (and of the variable, where it helps)
stays true.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# "line 463", "lines 427-428" (also broken over two lines of a docstring), "modeling_rope_utils.py:427",
# a GitHub anchor "#L427" and "l. 427".
LINE_CITATION = re.compile(r"\blines?\s+\d+|\.py:\d+|#L\d+|\bl\.\s*\d+", re.IGNORECASE)


def line_citations(text: str) -> list[str]:
    """Return each line-number citation in ``text`` with the line of text it sits on."""
    found = []
    for match in LINE_CITATION.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        found.append(text[start : end if end != -1 else len(text)].strip())
    return found


@pytest.mark.parametrize(
    "text",
    [
        "(modeling_rope_utils.py lines 427-428)",
        "transformers widens an empty ramp by this much (line 463)",
        "(modeling_rope_utils.py lines\n      836-843)",
        "see modeling_rope_utils.py:341",
        "modeling_rope_utils.py#L450",
        "(l. 475)",
        "Line 190 of modeling_rope_utils.py",
    ],
)
def test_the_pattern_finds_a_line_number_citation(text):
    assert line_citations(text)


@pytest.mark.parametrize(
    "text",
    [
        "(transformers 5.23, ``_compute_yarn_parameters``)",
        "the ``factor is None`` branch of ``_compute_longrope_parameters``",
        "lines of code",
        "a baseline 4096",
        "pipeline 2",
    ],
)
def test_the_pattern_leaves_a_name_citation_alone(text):
    assert not line_citations(text)


def test_rope_viz_cites_no_line_numbers():
    offenders = [
        f"{path.relative_to(ROOT)}: {citation}"
        for path in sorted((ROOT / "rope_viz").rglob("*.py"))
        for citation in line_citations(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, "cite the transformers function (and version) instead:\n" + "\n".join(offenders)
