"""The teaching structure every chapter shares: predict-then-drag prompts, and key points before exercises.

A prompt is a Markdown cell that starts with ``**Predict, then drag.**`` and asks a question; the next
code cell shows a live figure (``show(...)``); a Markdown cell after that figure holds the answer in a
``<details>`` element, so that a reader sees it only after trying (``<details>`` opens the same way on the
site, in JupyterLab, Notebook 7 and Colab). A chapter ends with ``## Key points`` (three to five points a
reader should be able to say) before ``## Exercises``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PROMPT = "**Predict, then drag.**"


def cells(path: Path) -> list[tuple[str, str]]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [(cell["cell_type"], "".join(cell["source"])) for cell in notebook["cells"]]


def heading_index(chapter: list[tuple[str, str]], title: str) -> int:
    found = [
        k
        for k, (kind, source) in enumerate(chapter)
        if kind == "markdown" and re.search(rf"^## {re.escape(title)}\s*$", source, re.MULTILINE)
    ]
    assert len(found) == 1, f"expected one '## {title}' heading, found {len(found)}"
    return found[0]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda path: path.stem)
def test_every_chapter_asks_at_least_two_predictions_answered_after_the_figure(path):
    chapter = cells(path)
    prompts = [
        k for k, (kind, source) in enumerate(chapter) if kind == "markdown" and source.startswith(PROMPT)
    ]
    assert len(prompts) >= 2, f"{path.stem}: {len(prompts)} predict-then-drag prompts, at least 2 expected"
    for number, k in enumerate(prompts):
        question = chapter[k][1][len(PROMPT) :]
        assert "?" in question, f"{path.stem}: prompt {number + 1} asks no question"
        assert "<details>" not in chapter[k][1], f"{path.stem}: prompt {number + 1} holds its own answer"
        following = chapter[k + 1 :]
        code = next((j for j, (kind, _) in enumerate(following) if kind == "code"), None)
        assert code is not None and "show(" in following[code][1], (
            f"{path.stem}: prompt {number + 1} is not followed by a cell that shows a figure"
        )
        end = prompts[number + 1] - k - 1 if number + 1 < len(prompts) else len(following)
        answers = [
            source
            for kind, source in following[code + 1 : end]
            if kind == "markdown" and "<details>" in source
        ]
        assert answers, f"{path.stem}: prompt {number + 1} has no answer in <details> after its figure"
        answer = answers[0]
        assert re.search(r"<summary>[^<]+</summary>", answer) and "</details>" in answer
        body = answer.split("</summary>", 1)[1].split("</details>", 1)[0]
        assert len(body.split()) >= 15, f"{path.stem}: answer {number + 1} is too short to teach"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda path: path.stem)
def test_every_chapter_ends_with_three_to_five_key_points_before_its_exercises(path):
    chapter = cells(path)
    key_points, exercises = heading_index(chapter, "Key points"), heading_index(chapter, "Exercises")
    assert key_points < exercises, f"{path.stem}: key points must come before the exercises"
    between = [kind for kind, _ in chapter[key_points + 1 : exercises]]
    assert "code" not in between, f"{path.stem}: no code between the key points and the exercises"
    body = chapter[key_points][1].split("## Key points", 1)[1]
    points = re.findall(r"^- (.+?)(?=^- |\Z)", body, re.MULTILINE | re.DOTALL)
    assert 3 <= len(points) <= 5, f"{path.stem}: {len(points)} key points, 3 to 5 expected"
    for point in points:
        sentences = [part for part in re.split(r"(?<=[.!?])\s+", point.strip()) if part]
        assert 1 <= len(sentences) <= 2, f"{path.stem}: a key point is one or two sentences: {point!r}"
