"""Citations written as Markdown links: every notebook front end reads them, the site makes them citations.

A chapter cites a work with a link whose text is the author-year label and whose target is the work's ``url``
in ``book/references.bib`` (or its entry in the bibliography page, ``../book/references.md#key``, for an entry
without one)::

    ([Su et al., 2024](https://arxiv.org/abs/2104.09864))     parenthetical, one or more works joined by "; "
    [Su et al. (2024)](https://arxiv.org/abs/2104.09864)      textual

JupyterLab (with or without jupyterlab-myst), Notebook 7 and Colab all show such a link as its text. On the
site, :func:`links_to_roles` rewrites them, before Sphinx parses the page, into the roles of
sphinxcontrib-bibtex, ``{cite:p}`key1,key2``` and ``{cite:t}`key```, so that the site shows the
bibliography's own labels, linked to its entries, and every chapter's ``{bibliography}`` with ``:filter:
docname in docnames`` lists the works it cites. ``tests/test_reading_in_jupyter.py`` checks that each
link's text is the label the site shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

#: A Markdown link with a target that has no spaces (the form citations take).
LINK = re.compile(r"\[(?P<text>[^\[\]]+)\]\((?P<target>[^()\s]+)\)")
_LINK_SOURCE = LINK.pattern.replace("?P<text>", "?:").replace("?P<target>", "?:")
#: A parenthesised group of links separated by "; ".
GROUP = re.compile(rf"\((?P<links>{_LINK_SOURCE}(?:; {_LINK_SOURCE})*)\)")
#: Inline code and fenced code blocks, which are left alone.
_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.DOTALL)

_ENTRY = re.compile(r"@\w+\s*\{\s*(?P<key>[^,\s]+)\s*,(?P<body>.*?)\n\}", re.DOTALL)
_URL_FIELD = re.compile(r"^\s*url\s*=\s*[{\"](?P<url>[^}\"]+)[}\"]", re.MULTILINE)


@dataclass(frozen=True)
class Citation:
    """One citation found in Markdown: the keys it cites, its form and the link texts written for them."""

    keys: tuple[str, ...]
    parenthetical: bool
    texts: tuple[str, ...]
    source: str


#: Where an entry without a ``url`` points: its place in the bibliography page, from a chapter
#: (``notebooks/``) and from a page beside it (``book/``). A bare ``#key`` would make jupyterlab-myst look for
#: a target in the notebook itself and log an error for each one.
BIBLIOGRAPHY_PAGES = ("../book/references.md", "references.md")


def citation_targets(bib_path: Path) -> dict[str, str]:
    """Map the link targets of every entry of ``bib_path`` to its key.

    An entry's target is its ``url``; an entry without one is reached at ``<page>#key`` for each page of
    :data:`BIBLIOGRAPHY_PAGES`.
    """
    targets: dict[str, str] = {}
    for match in _ENTRY.finditer(Path(bib_path).read_text(encoding="utf-8")):
        key = match.group("key")
        url = _URL_FIELD.search(match.group("body"))
        for target in [url.group("url").strip()] if url else [f"{page}#{key}" for page in BIBLIOGRAPHY_PAGES]:
            if target in targets:
                raise ValueError(f"{bib_path}: {key} and {targets[target]} share the link target {target}")
            targets[target] = key
    return targets


def link_target(bib_path: Path, key: str, page: str = BIBLIOGRAPHY_PAGES[0]) -> str:
    """Return the link target of a citation of ``key`` in a chapter (or, with ``page``, in a book page)."""
    for target, entry in citation_targets(bib_path).items():
        if entry == key and not target.endswith(f"#{key}"):
            return target
    return f"{page}#{key}"


def _outside_code(text: str, rewrite) -> str:
    parts = _CODE.split(text)
    return "".join(part if index % 2 else rewrite(part) for index, part in enumerate(parts))


def find_citations(markdown: str, targets: dict[str, str]) -> list[Citation]:
    """Every citation in ``markdown`` (outside code), in order of appearance."""
    found: list[tuple[int, Citation]] = []

    def collect(part: str) -> str:
        taken: list[tuple[int, int]] = []
        for group in GROUP.finditer(part):
            links = list(LINK.finditer(group.group("links")))
            if all(link.group("target") in targets for link in links):
                keys = tuple(targets[link.group("target")] for link in links)
                texts = tuple(link.group("text") for link in links)
                found.append((group.start(), Citation(keys, True, texts, group.group(0))))
                taken.append(group.span())
        for link in LINK.finditer(part):
            if link.group("target") in targets and not any(a <= link.start() < b for a, b in taken):
                key = targets[link.group("target")]
                found.append((link.start(), Citation((key,), False, (link.group("text"),), link.group(0))))
        return part

    _outside_code(markdown, collect)
    return [citation for _, citation in sorted(found, key=lambda item: item[0])]


def links_to_roles(markdown: str, targets: dict[str, str]) -> str:
    """Rewrite citation links into ``{cite:p}`` and ``{cite:t}`` roles (outside code)."""

    def group_role(match: re.Match) -> str:
        links = list(LINK.finditer(match.group("links")))
        if not all(link.group("target") in targets for link in links):
            return match.group(0)
        keys = ",".join(targets[link.group("target")] for link in links)
        return f"{{cite:p}}`{keys}`"

    def link_role(match: re.Match) -> str:
        key = targets.get(match.group("target"))
        return match.group(0) if key is None else f"{{cite:t}}`{key}`"

    def rewrite(part: str) -> str:
        part = GROUP.sub(group_role, part)
        # A link already inside a role is gone; what is left are textual citations and ordinary links.
        return LINK.sub(link_role, part)

    return _outside_code(markdown, rewrite)
