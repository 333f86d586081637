"""The chapters read well outside the site: in JupyterLab with jupyterlab-myst (Binder), and in plain
CommonMark (Notebook 7 without the extension, Colab).

* Numbers in prose are ``{eval}`name``` of a value that a code cell of the same notebook glues; the results
  stored in the Markdown cells (what JupyterLab shows on opening) are what the chapter computes.
* Citations are Markdown links whose text is the label the site shows; chapter links show the chapter's title.
* Markdown cells use no role or directive that jupyterlab-myst shows as a key name or a warning.
* Every formula of every Markdown cell and book page compiles in KaTeX (what JupyterLab renders math with),
  run in Debian's chromium, which the test suite drives anyway (``tests/vendor/katex.min.js``: KaTeX 0.16.47
  from npm).
* In Colab, the live figures turn on Colab's custom widget manager themselves.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from rope_viz.site import citations, notebook_numbers

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
BOOK_PAGES = sorted((ROOT / "book").glob("*.md"))
BIB = ROOT / "book" / "references.bib"
KATEX = Path(__file__).parent / "vendor" / "katex.min.js"

#: Roles that jupyterlab-myst renders as the site does: inline expressions, and references to a label of the
#: same notebook (it renders all cells of a notebook as one document).
JUPYTER_ROLES = {"eval", "ref"}
#: Directives allowed in Markdown cells: the bibliography (shown on the site; empty in JupyterLab).
JUPYTER_DIRECTIVES = {"bibliography"}

ROLE = re.compile(r"\{([a-zA-Z][\w:+-]*)\}`([^`]*)`")
DIRECTIVE = re.compile(r"^(?:```+|:::+)\{([\w:+-]+)\}", re.MULTILINE)
LABEL = re.compile(r"^\(([\w-]+)\)=\s*$", re.MULTILINE)


@pytest.fixture(params=NOTEBOOKS, ids=lambda path: path.stem)
def notebook_path(request) -> Path:
    return request.param


def _notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _markdown(path: Path) -> list[str]:
    return [_source(cell) for cell in _notebook(path)["cells"] if cell["cell_type"] == "markdown"]


def _code(path: Path) -> list[str]:
    return [_source(cell) for cell in _notebook(path)["cells"] if cell["cell_type"] == "code"]


def _parse(code: str) -> ast.Module:
    """Parse a code cell, with IPython's ``%magic`` lines blanked out."""
    lines = code.splitlines()
    return ast.parse(
        "\n".join(
            line.replace("%", "pass  #", 1) if line.lstrip().startswith("%") else line for line in lines
        )
    )


def _glue_patterns(path: Path) -> list[re.Pattern]:
    """A pattern for the name of every ``glue(...)`` call: literal names, and f-strings with any fill."""
    patterns = []
    for code in _code(path):
        for node in ast.walk(_parse(code)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "glue" and node.args:
                name = node.args[0]
                if isinstance(name, ast.Constant) and isinstance(name.value, str):
                    patterns.append(re.compile(re.escape(name.value)))
                elif isinstance(name, ast.JoinedStr):
                    parts = [
                        re.escape(part.value) if isinstance(part, ast.Constant) else r"\w+"
                        for part in name.values
                    ]
                    patterns.append(re.compile("".join(parts)))
    return patterns


def _assigned_names(path: Path) -> set[str]:
    names: set[str] = set()
    for code in _code(path):
        for node in ast.walk(_parse(code)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[0])
    return names


# Numbers ----------------------------------------------------------------------------------------------------


def test_every_inline_number_is_glued_by_the_same_notebook(notebook_path):
    patterns = _glue_patterns(notebook_path)
    names = [name for markdown in _markdown(notebook_path) for name in notebook_numbers.expressions(markdown)]
    for name in names:
        assert name.isidentifier(), f"{notebook_path.name}: {{eval}}`{name}` is not the name of a glued value"
        assert any(pattern.fullmatch(name) for pattern in patterns), (
            f"{notebook_path.name}: {{eval}}`{name}` but no code cell glues {name!r}"
        )


def test_glued_names_are_not_the_notebooks_own_variables(notebook_path):
    """``glue`` binds each name in the kernel, so a name must not be a variable the chapter uses otherwise."""
    assigned = _assigned_names(notebook_path)
    for pattern in _glue_patterns(notebook_path):
        clash = sorted(name for name in assigned if pattern.fullmatch(name))
        assert not clash, f"{notebook_path.name}: glued names {clash} are also variables of the notebook"


def test_glue_binds_the_text_in_the_kernel_and_refuses_to_overwrite_a_variable(monkeypatch):
    import IPython

    from rope_viz.notebook.display import glue

    shell = types.SimpleNamespace(user_ns={"existing": 1})
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
    glue("ratio", "0.7499")
    glue("count", 12)
    glue("ratio", "0.75")  # running a cell again
    assert shell.user_ns["ratio"] == "0.75" and shell.user_ns["count"] == "12"
    with pytest.raises(ValueError, match="overwrite"):
        glue("existing", "2")
    with pytest.raises(ValueError, match="identifier"):
        glue("not a name", "2")


#: A negative number written with the ASCII hyphen: at the start of the text or after a space or a bracket.
HYPHEN_MINUS = re.compile(r"(?:^|[\s(\[])-\d")


def test_glued_numbers_write_a_true_minus(notebook_path):
    """Prose shows a negative number with U+2212 (``rope_viz.questions.format_number``), never ``-``."""
    assert HYPHEN_MINUS.search("-1.902") and HYPHEN_MINUS.search("from (-0.5, 2)")
    assert (
        not HYPHEN_MINUS.search("−1.902")
        and not HYPHEN_MINUS.search("Qwen2.5-VL")
        and not HYPHEN_MINUS.search("1e-4")
    )
    for items in notebook_numbers.stored_numbers(_notebook(notebook_path)).values():
        for item in items:
            text = item["result"]["data"]["text/plain"][1:-1]  # the repr's quotes
            assert not HYPHEN_MINUS.search(text), f"{notebook_path.name}: {item['expression']} = {text}"


@pytest.mark.slow
def test_stored_numbers_are_what_the_notebook_computes(notebook_path, plain_kernel_run):
    """What JupyterLab shows before anything runs is what Run All computes (``python -m
    rope_viz.site.notebook_numbers`` rewrites it)."""
    _, computed = plain_kernel_run(notebook_path)
    for items in computed.values():
        for item in items:
            result = item["result"]
            assert result["status"] == "ok", f"{notebook_path.name}: {item['expression']}: {result}"
            text = result["data"]["text/plain"]
            assert re.fullmatch(r"'[^'\\]*'", text), f"{item['expression']} is not plain text: {text}"
    stored = notebook_numbers.stored_numbers(_notebook(notebook_path))
    assert stored == computed, "run: python -m rope_viz.site.notebook_numbers"


@pytest.mark.slow
def test_stored_numbers_do_not_depend_on_the_machine(notebook_path, monkeypatch):
    """Numpy picks its vector code by the processor (a float32 power with AVX-512 is a unit in the last place
    off the baseline's for a third of RoPE's frequencies), so a number computed from such a result reads one
    way on this machine and another on a reader's. The chapter runs again with numpy held to its baseline
    instructions, and must give the stored numbers too: with the test above, a machine with more than the
    baseline checks both paths."""
    from numpy._core import _multiarray_umath as umath

    extra = [feature for feature in umath.__cpu_dispatch__ if umath.__cpu_features__.get(feature)]
    monkeypatch.setenv("NPY_DISABLE_CPU_FEATURES", " ".join(extra))
    _, computed = notebook_numbers.run_in_plain_kernel(notebook_path, ROOT)
    stored = notebook_numbers.stored_numbers(_notebook(notebook_path))
    assert stored == computed, f"numpy without {extra} computes other numbers"


# What jupyterlab-myst shows ---------------------------------------------------------------------------------


def test_markdown_cells_use_only_roles_and_directives_that_jupyterlab_myst_shows(notebook_path):
    markdown = "\n".join(_markdown(notebook_path))
    labels = set(LABEL.findall(markdown))
    for role, target in ROLE.findall(markdown):
        assert role in JUPYTER_ROLES, (
            f"{notebook_path.name}: {{{role}}}`{target}` shows as a key name or a warning in JupyterLab"
        )
        if role == "ref":
            assert target in labels, (
                f"{notebook_path.name}: {{ref}}`{target}` is not a label of this notebook"
            )
    for directive in DIRECTIVE.findall(markdown):
        assert directive in JUPYTER_DIRECTIVES, f"{notebook_path.name}: directive {directive}"


def test_chapter_links_show_the_chapter_title(notebook_path):
    titles = {}
    for path in NOTEBOOKS:
        heading = re.search(r"^# (.+)$", "\n".join(_markdown(path)), re.MULTILINE)
        titles[path.name] = heading.group(1).strip()
    for markdown in _markdown(notebook_path):
        for link in citations.LINK.finditer(markdown):
            target = link.group("target").split("#")[0]
            if target.endswith(".ipynb"):
                assert target in titles, f"{notebook_path.name}: link to a missing chapter {target}"
                assert link.group("text") == titles[target], f"{notebook_path.name}: {link.group(0)}"


def test_no_page_cites_with_a_role():
    """Citations are links everywhere (the site turns them into citations); ``{cite}`` shows a warning in
    JupyterLab."""
    for path in [*NOTEBOOKS, *BOOK_PAGES]:
        text = "\n".join(_markdown(path)) if path.suffix == ".ipynb" else path.read_text(encoding="utf-8")
        assert not re.search(r"\{cite(:\w+)?\}`", text), f"{path.name} cites with a role"


# Citations --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site_labels(tmp_path_factory) -> dict[str, tuple[str, str]]:
    """The label of every bibliography entry as the site shows it, from sphinxcontrib-bibtex itself.

    Parenthetical ``Su et al., 2024`` and textual ``Su et al. (2024)`` (the site: brackets).
    """
    keys = re.findall(r"^@\w+\s*\{\s*([^,\s]+)\s*,", BIB.read_text(encoding="utf-8"), re.MULTILINE)
    project = tmp_path_factory.mktemp("labels")
    (project / "references.bib").write_bytes(BIB.read_bytes())
    (project / "conf.py").write_text(
        "extensions = ['myst_parser', 'sphinxcontrib.bibtex']\nbibtex_bibfiles = ['references.bib']\n"
        "bibtex_reference_style = 'author_year'\nbibtex_default_style = 'plain'\n",
        encoding="utf-8",
    )
    lines = ["# Labels", ""] + [f"- {key} P {{cite:p}}`{key}` T {{cite:t}}`{key}` END" for key in keys]
    (project / "index.md").write_text(
        "\n".join([*lines, "", "```{bibliography}", "```", ""]), encoding="utf-8"
    )
    subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "text", str(project), str(project / "_out")],
        check=True,
        capture_output=True,
    )
    text = " ".join((project / "_out" / "index.txt").read_text(encoding="utf-8").split())
    labels = {}
    for key, parenthetical, author, year in re.findall(r"\* (\S+) P \[(.*?)\] T (.*?) \[(.*?)\] END", text):
        # The site shows "et al." in italics.
        labels[key] = (parenthetical.replace("*", ""), f"{author.replace('*', '')} ({year})")
    assert set(labels) == set(keys)
    return labels


def test_every_citation_link_shows_the_label_the_site_shows(site_labels):
    targets = citations.citation_targets(BIB)
    count = 0
    for path in [*NOTEBOOKS, *BOOK_PAGES]:
        texts = _markdown(path) if path.suffix == ".ipynb" else [path.read_text(encoding="utf-8")]
        page = citations.BIBLIOGRAPHY_PAGES[0 if path.suffix == ".ipynb" else 1]
        for markdown in texts:
            for citation in citations.find_citations(markdown, targets):
                count += 1
                for key, text in zip(citation.keys, citation.texts, strict=True):
                    expected = site_labels[key][0 if citation.parenthetical else 1]
                    assert text == expected, f"{path.name}: {citation.source} should read {expected!r}"
                    assert any(
                        link.group("target") == citations.link_target(BIB, key, page)
                        for link in citations.LINK.finditer(citation.source)
                    )
    assert count > 50


def test_every_label_the_site_shows_is_distinct_and_names_an_author_and_a_year(site_labels):
    parenthetical = [label for label, _ in site_labels.values()]
    assert len(set(parenthetical)) == len(parenthetical), "two works share a citation label"
    for key, (label, textual) in site_labels.items():
        assert re.fullmatch(r".+, (?:19|20)\d\d[a-z]?", label), f"{key}: {label!r} lacks an author or a year"
        assert not re.search(r"anonymous|n\.\s?d\.", f"{label} {textual}", re.IGNORECASE), f"{key}: {label!r}"


def test_citation_links_become_bibliography_roles_on_the_site():
    targets = citations.citation_targets(BIB)
    su, vaswani = (
        citations.link_target(BIB, "su2024roformer"),
        citations.link_target(BIB, "vaswani2017attention"),
    )
    markdown = (
        f"RoPE ([Su et al., 2024]({su})) and ([Su et al., 2024]({su}); [Vaswani et al., 2017]({vaswani})); "
        f"[Vaswani et al. (2017)]({vaswani}) wrote it; the [model card](https://example.org/card) is a link; "
        f"`[Su et al., 2024]({su})` is code; ([Radford et al., 2019](../book/references.md#radford2019gpt2))."
    )
    assert citations.links_to_roles(markdown, targets) == (
        "RoPE {cite:p}`su2024roformer` and {cite:p}`su2024roformer,vaswani2017attention`; "
        "{cite:t}`vaswani2017attention` wrote it; the [model card](https://example.org/card) is a link; "
        f"`[Su et al., 2024]({su})` is code; {{cite:p}}`radford2019gpt2`."
    )


def test_every_chapter_cites_what_its_bibliography_lists(notebook_path):
    """The chapter's ``{bibliography}`` lists the works it cites: it cites some, as links the site reads."""
    targets = citations.citation_targets(BIB)
    cited = [c for markdown in _markdown(notebook_path) for c in citations.find_citations(markdown, targets)]
    assert cited, f"{notebook_path.name} cites nothing, so its References section would be empty"


# Formulas ---------------------------------------------------------------------------------------------------


def formulas(markdown: str) -> list[tuple[str, bool]]:
    """Every TeX formula of a Markdown text, outside code, with True for display math.

    ``$$...$$`` and ``$...$`` (dollarmath), with amsmath environments inside.
    """
    text = re.sub(r"```.*?```", "", markdown, flags=re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    found = [(body.strip(), True) for body in re.findall(r"\$\$(.+?)\$\$", text, flags=re.DOTALL)]
    text = re.sub(r"\$\$(.+?)\$\$", "", text, flags=re.DOTALL)
    found += [(body, False) for body in re.findall(r"(?<![\\$])\$(?=\S)([^$]+?)(?<=\S)\$(?!\d)", text)]
    return found


def test_formula_extraction():
    assert formulas("a $x_1$ and\n$$\n\\frac{a}{b}\n$$\n`$not$` $5 and $6") == [
        ("\\frac{a}{b}", True),
        ("x_1", False),
    ]


def test_every_formula_compiles_in_katex(browser):
    items = []
    for path in [*NOTEBOOKS, *BOOK_PAGES]:
        texts = _markdown(path) if path.suffix == ".ipynb" else [path.read_text(encoding="utf-8")]
        for markdown in texts:
            items += [
                {"where": path.name, "tex": tex, "display": display} for tex, display in formulas(markdown)
            ]
    assert len(items) > 200
    page = browser.new_page()
    try:
        page.route("**/*", lambda route: route.abort())
        page.set_content("<html><body></body></html>")
        page.add_script_tag(content=KATEX.read_text(encoding="utf-8"))
        errors = page.evaluate(
            """items => items.flatMap(item => {
                try {
                    katex.renderToString(item.tex, {displayMode: item.display, throwOnError: true});
                    return [];
                } catch (error) {
                    return [`${item.where}: ${item.tex}: ${error.message}`];
                }
            })""",
            items,
        )
    finally:
        page.close()
    assert errors == []


# Colab ------------------------------------------------------------------------------------------------------


def test_live_figures_turn_on_colabs_custom_widget_manager(monkeypatch):
    """The setup cell only installs the package: the first live figure turns on Colab's widget manager."""
    import anywidget._util

    from rope_viz.demos.base import Demo
    from rope_viz.notebook.display import show

    calls = []
    output = types.ModuleType("google.colab.output")
    output.enable_custom_widget_manager = lambda: calls.append("enabled")
    output._widgets = types.SimpleNamespace(_installed_url=None)
    colab = types.ModuleType("google.colab")
    colab.output = output
    monkeypatch.setitem(sys.modules, "google.colab", colab)
    monkeypatch.setitem(sys.modules, "google.colab.output", output)
    anywidget._util.enable_custom_widget_manager_once.cache_clear()
    try:
        demo_class = next(iter(_demo_classes(Demo)))
        show(demo_class(), mode="live")
    finally:
        anywidget._util.enable_custom_widget_manager_once.cache_clear()
    assert calls == ["enabled"]


def _demo_classes(base):
    import importlib
    import pkgutil

    import rope_viz.demos

    for module in pkgutil.iter_modules(rope_viz.demos.__path__):
        importlib.import_module(f"rope_viz.demos.{module.name}")
    found = []
    stack = list(base.__subclasses__())
    while stack:
        cls = stack.pop()
        stack += cls.__subclasses__()
        if not getattr(cls, "__abstractmethods__", None):
            found.append(cls)
    return sorted(found, key=lambda cls: cls.__name__)
