"""Sphinx extension that makes the course site work offline and without a kernel.

* Before any notebook runs, sets ``ROPE_VIZ_SITE=1`` so that :func:`rope_viz.notebook.show` emits kernel-free
  figures (the kernel inherits the build's environment).
* Re-reads every page, re-executing every notebook, when the source of ``rope_viz`` changed since the last
  build (Sphinx alone re-reads only the pages whose own text changed, and would show the old numbers).
* Serves plotly.js (a bundle of the trace types the course draws, at the version the installed ``plotly``
  package ships) and the
  figure scripts (:data:`FIGURE_ASSETS`) once per page, and only on pages that contain a figure, with the
  styles that print them (:data:`PRINT_ASSET`).
* Serves the self-check questions' script and styles (:data:`QUESTION_ASSETS`) on the pages that hold a
  question: a chapter's output of :func:`rope_viz.questions.show_questions`, or on a prose page the
  ``{rope-viz-question} name`` directive, which builds ``rope_viz.question_bank.build(name)``.
* Builds the lecture deck (:mod:`rope_viz.lecture`) where a page has the ``{rope-viz-deck}`` directive, and
  serves the deck's script and styles (:data:`DECK_ASSETS`) there.
* Serves MathJax 3 from the site itself (files of the ``sphinx-mathjax-offline`` distribution), not a CDN.
* Removes the duplicate inline script of sphinx-thebe that raises a console error on every page.
* Makes the theme's own markup pass an accessibility audit (axe-core): templates of its search field, colour
  mode button and site title (:data:`TEMPLATES`), one search field instead of two, and
  :func:`accessible_body` for what Sphinx and myst-nb write into the page body.
* Reads the prose the way notebooks are written to be read in Jupyter too: ``{eval}`name``` shows the value
  glued under ``name`` by the same notebook (:func:`rope_viz.notebook.glue`), and citation links become
  bibliography citations (:mod:`rope_viz.site.citations`).

Vendored files are copied into ``_static/rope_viz`` and ``_static/mathjax`` when the build finishes; they are
deliberately not on ``html_static_path``, where Jupyter Book would link every script on every page.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
from pathlib import Path
from typing import Any

from rope_viz.notebook import SITE_ENVIRONMENT_VARIABLE
from rope_viz.site import citations

STATIC_DIRECTORY = Path(__file__).parent / "static"
#: Our versions of some of the theme's templates, searched before the theme's own.
TEMPLATES = Path(__file__).parent / "templates"
FIGURE_MARKER = 'class="rope-viz-demo"'
ASSET_FOLDER = "rope_viz"
#: The figure front end: canvas layers, the direct SVG drawing, the slider wiring, the presenter view (scripts
#: in load order), and the figure styles.
FIGURE_ASSETS = (
    *("rope-viz-canvas.js", "rope-viz-direct.js", "rope-viz-figures.js", "rope-viz-present.js"),
    *("rope-viz-figures.css", "rope-viz-present.css"),
)
#: How a page with figures prints (the site only: the live widgets print as their notebook does).
PRINT_ASSET = "rope-viz-print.css"
#: What every page needs, figures or not (long words on a narrow screen).
PAGE_ASSET = "rope-viz-page.css"
MATHJAX_PATH = "mathjax/tex-chtml.js"
#: Every question's outer element carries this attribute (:mod:`rope_viz.questions`).
QUESTION_MARKER = "data-rope-viz-question"
#: The questions' front end: the script that grades them in the browser, and their styles.
QUESTION_ASSETS = ("rope-viz-questions.js", "rope-viz-questions.css")
#: The lecture deck's outer element carries this class (:func:`rope_viz.lecture.deck_html`).
DECK_MARKER = 'class="rope-viz-deck"'
#: The deck's front end: the script that shows one slide at a time, and its styles.
DECK_ASSETS = ("rope-viz-deck.js", "rope-viz-deck.css")


#: The plotly.js the site serves and the live widgets send: Plotly's core (the scatter trace and every
#: component) with the bar and heatmap traces, built from the npm package ``plotly.js`` by
#: ``plotly-bundle/build.mjs`` (``./dev.sh plotly``), at the plotly.js version that the installed plotly
#: package ships (a test checks that the two agree). A quarter of the full bundle's size, and much quicker to
#: evaluate than Plotly's cartesian bundle (benchmarks/README.md, "first figure").
PLOTLY_BUNDLE = STATIC_DIRECTORY / "plotly-rope-viz.min.js"

#: Trace types in :data:`PLOTLY_BUNDLE` (its banner names them); a demo may use no other.
PLOTLY_BUNDLE_TRACE_TYPES = frozenset({"scatter", "bar", "heatmap"})


def plotly_js_version(path: Path) -> str:
    """Return the plotly.js version written in the banner of a plotly.js bundle, e.g. ``"4.1.1"``."""
    import re

    banner = path.read_bytes()[:300].decode("utf-8", errors="replace")
    match = re.search(r"plotly\.js(?: \([^)]*\))? v(\d+\.\d+\.\d+)", banner)
    if match is None:
        raise ValueError(f"{path} does not start with a plotly.js banner")
    return match.group(1)


def plotly_js_path() -> Path:
    """Return the path of the plotly.js bundle the site serves (see :data:`PLOTLY_BUNDLE`)."""
    if not PLOTLY_BUNDLE.is_file():
        raise FileNotFoundError(f"{PLOTLY_BUNDLE} is missing; reinstall rope-viz")
    return PLOTLY_BUNDLE


def mathjax_directory() -> Path:
    """MathJax 3 files shipped by the ``sphinx-mathjax-offline`` distribution."""
    distribution = importlib.metadata.distribution("sphinx-mathjax-offline")
    path = Path(distribution.locate_file("sphinx-mathjax-offline/static/mathjax"))
    if not (path / "tex-chtml.js").is_file():
        raise FileNotFoundError(f"MathJax not found at {path}; reinstall sphinx-mathjax-offline")
    return path


def package_fingerprint() -> str:
    """Hash of every source file of ``rope_viz``: when it changes, every notebook must run again."""
    import hashlib

    digest = hashlib.sha256()
    root = Path(__file__).parents[1]
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in {".py", ".js", ".css", ".json"}:
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _on_env_get_outdated(app: Any, env: Any, added: set, changed: set, removed: set) -> list[str]:
    """Re-read every page (re-executing every notebook) when the package that computes the numbers changed.

    All pages, not only notebooks: prose pages show numbers glued from the notebooks.
    """
    fingerprint = package_fingerprint()
    if getattr(env, "rope_viz_fingerprint", None) == fingerprint:
        return []
    env.rope_viz_fingerprint = fingerprint
    return sorted(env.found_docs)


def _on_config_inited(app: Any, config: Any) -> None:
    os.environ[SITE_ENVIRONMENT_VARIABLE] = "1"
    config.mathjax_path = MATHJAX_PATH
    config.templates_path = [str(TEMPLATES), *config.templates_path]
    # pydata-sphinx-theme (0.17) puts a search field in the page header unless told otherwise; the book theme
    # has one in its sidebar already, and the two showed at once, one over the other.
    config.html_theme_options.setdefault("navbar_persistent", [])


#: Markup of the page body that an accessibility audit (axe-core) fails, and what replaces it. myst-nb names
#: the toggle of a hidden cell "Toggle hidden content" over its visible text ("Show code cell source"), and
#: docutils marks bibliography entries with the deprecated role ``doc-biblioentry`` inside a ``role="list"``,
#: which needs list items.
BODY_FIXES = (
    ('<summary aria-label="Toggle hidden content">', "<summary>"),
    (' role="doc-biblioentry"', ' role="listitem"'),
)


def accessible_body(body: str) -> str:
    """Return a page body with the markup of :data:`BODY_FIXES` replaced."""
    for old, new in BODY_FIXES:
        body = body.replace(old, new)
    return body


def _on_html_page_context(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    body = context.get("body", "")
    if body:
        context["body"] = accessible_body(body)
    app.add_css_file(f"{ASSET_FOLDER}/{PAGE_ASSET}")
    if FIGURE_MARKER in body:
        # Before MathJax (priority 500), so that the figures are wired before the page's math is typeset.
        app.add_js_file(f"{ASSET_FOLDER}/plotly.min.js", priority=400, loading_method="defer")
        # In this order: the figure script uses the direct drawing, which uses the canvas layers.
        scripts = [name for name in FIGURE_ASSETS if name.endswith(".js")]
        for priority, name in enumerate(scripts, start=401):
            app.add_js_file(f"{ASSET_FOLDER}/{name}", priority=priority, loading_method="defer")
        for name in FIGURE_ASSETS:
            if name.endswith(".css"):
                app.add_css_file(f"{ASSET_FOLDER}/{name}")
        app.add_css_file(f"{ASSET_FOLDER}/{PRINT_ASSET}", media="print")
    if DECK_MARKER in body:
        # Before the figure script, so that the deck has left the article before the figures are drawn.
        app.add_js_file(f"{ASSET_FOLDER}/rope-viz-deck.js", priority=399, loading_method="defer")
        app.add_css_file(f"{ASSET_FOLDER}/rope-viz-deck.css")
    if QUESTION_MARKER in body:
        app.add_js_file(f"{ASSET_FOLDER}/rope-viz-questions.js", priority=410, loading_method="defer")
        app.add_css_file(f"{ASSET_FOLDER}/rope-viz-questions.css")
    _drop_duplicate_inline_scripts(context)


def _drop_duplicate_inline_scripts(context: dict) -> None:
    """Keep the first of identical inline scripts (sphinx-thebe adds its configuration twice)."""
    scripts = context.get("script_files")
    if not scripts:
        return
    seen: set[str] = set()
    kept = []
    for script in scripts:
        body = getattr(script, "attributes", {}).get("body")
        if body:
            if body in seen:
                continue
            seen.add(body)
        kept.append(script)
    scripts[:] = kept


def _on_build_finished(app: Any, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    assets = static / ASSET_FOLDER
    assets.mkdir(parents=True, exist_ok=True)
    shutil.copy2(plotly_js_path(), assets / "plotly.min.js")
    for name in (*FIGURE_ASSETS, PRINT_ASSET, PAGE_ASSET, *QUESTION_ASSETS, *DECK_ASSETS):
        shutil.copy2(STATIC_DIRECTORY / name, assets / name)
    shutil.copytree(mathjax_directory(), static / "mathjax", dirs_exist_ok=True)


def _eval_role() -> Any:
    """Return the site's ``eval`` role: the value glued under that name by the same notebook, as Markdown.

    In JupyterLab with jupyterlab-myst, ``{eval}`name``` shows the value of ``name`` in the kernel, which
    :func:`rope_viz.notebook.glue` binds; on the site, where myst-nb would need its inline execution mode to
    evaluate it, the role pastes the glued value instead, exactly as ``{glue:md}`name``` does.
    """
    from myst_nb.ext.glue.roles import PasteMarkdownRole

    class GluedValueRole(PasteMarkdownRole):
        def run(self):
            if not self.text.isidentifier():
                message = f"{{eval}} takes the name of a value glued in this notebook, not {self.text!r}"
                return [], [self.document.reporter.warning(message, line=self.line)]
            return super().run()

    return GluedValueRole()


def _on_source_read(app: Any, docname: str, source: list[str]) -> None:
    """Turn citation links into bibliography citations (in notebooks, in Markdown cells only)."""
    targets = _citation_targets(app)
    text = source[0]
    if str(app.env.doc2path(docname)).endswith(".ipynb"):
        import json

        notebook = json.loads(text)
        changed = False
        for cell in notebook.get("cells", []):
            if cell.get("cell_type") != "markdown":
                continue
            markdown = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            rewritten = citations.links_to_roles(markdown, targets)
            if rewritten != markdown:
                cell["source"] = rewritten
                changed = True
        if changed:
            source[0] = json.dumps(notebook, ensure_ascii=False)
    else:
        source[0] = citations.links_to_roles(text, targets)


def _citation_targets(app: Any) -> dict[str, str]:
    targets = getattr(app, "_rope_viz_citation_targets", None)
    if targets is None:
        targets = {}
        for name in app.config.bibtex_bibfiles:
            targets.update(citations.citation_targets(Path(app.srcdir) / name))
        app._rope_viz_citation_targets = targets
    return targets


def _question_directive() -> Any:
    """Return the ``rope-viz-question`` directive: ``rope_viz.question_bank.build(name)`` as HTML.

    The answer is computed while the page is read, as a chapter's numbers are while its notebook runs.
    """
    from docutils import nodes
    from sphinx.util.docutils import SphinxDirective

    class QuestionDirective(SphinxDirective):
        required_arguments = 1

        def run(self) -> list:
            from rope_viz import question_bank

            try:
                question = question_bank.build(self.arguments[0])
            except ValueError as error:
                raise self.error(str(error)) from error
            return [nodes.raw("", question.to_html(), format="html")]

    return QuestionDirective


def _deck_directive() -> Any:
    """Return the ``rope-viz-deck`` directive: the lecture deck (:func:`rope_viz.lecture.deck_html`) as HTML.

    Its figures are computed while the page is read, as a chapter's are while its notebook runs. Each slide
    links to its chapter's section; a chapter missing from the book is an error.
    """
    from docutils import nodes
    from sphinx.util.docutils import SphinxDirective

    class DeckDirective(SphinxDirective):
        def run(self) -> list:
            from rope_viz import lecture

            def href(chapter: lecture.Chapter, section: str | None) -> str:
                if chapter.docname not in self.env.found_docs:
                    raise self.error(f"the deck links to {chapter.docname}, which is not a page of the book")
                uri = self.env.app.builder.get_relative_uri(self.env.docname, chapter.docname)
                # Sphinx names a section's anchor after its heading, as docutils' make_id does.
                return uri if section is None else f"{uri}#{nodes.make_id(section)}"

            return [nodes.raw("", lecture.deck_html(href), format="html")]

    return DeckDirective


def setup(app: Any) -> dict[str, Any]:
    """Register the extension's role and event handlers."""
    # After myst-nb, whose own ``eval`` role needs a kernel running while the page is read.
    app.add_role("eval", _eval_role(), override=True)
    app.add_directive("rope-viz-question", _question_directive())
    app.add_directive("rope-viz-deck", _deck_directive())
    app.connect("source-read", _on_source_read)
    app.connect("config-inited", _on_config_inited)
    app.connect("env-get-outdated", _on_env_get_outdated)
    app.connect("html-page-context", _on_html_page_context)
    app.connect("build-finished", _on_build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
