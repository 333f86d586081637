"""The book builds with warnings as errors, and its pages carry what readers need: assets served locally and
once, launch buttons, and no page without its figures."""

from __future__ import annotations

import re
from pathlib import Path

import plotly
import yaml

from rope_viz.site.sphinx_ext import plotly_js_path, plotly_js_version

ROOT = Path(__file__).resolve().parents[2]
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
REPOSITORY = CONFIG["repository"]["url"].rstrip("/")
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SCRIPT_SOURCES = re.compile(r'<script[^>]*\ssrc="([^"]+)"')
STYLESHEETS = re.compile(r'<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"')


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _notebook_page(built_site, notebook: Path) -> Path:
    return built_site.html / "notebooks" / f"{notebook.stem}.html"


def test_the_book_builds_without_a_warning(built_site):
    assert built_site.returncode == 0, built_site.log[-4000:]
    sphinx_warnings = [
        line for line in built_site.log.splitlines() if ": WARNING:" in line or "ERROR" in line
    ]
    assert sphinx_warnings == []
    assert "build succeeded" in built_site.log


def test_every_toc_entry_becomes_a_page(built_site):
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [toc["root"]] + [chapter["file"] for part in toc["parts"] for chapter in part["chapters"]]
    for name in files:
        assert (built_site.html / f"{name}.html").is_file(), name
    for notebook in NOTEBOOKS:
        assert f"notebooks/{notebook.stem}" in files, f"{notebook.name} is not in _toc.yml"


def test_pages_load_no_script_or_stylesheet_from_another_host(built_site):
    for page in built_site.pages():
        text = _read(page)
        for source in SCRIPT_SOURCES.findall(text) + STYLESHEETS.findall(text):
            assert not re.match(r"^(https?:)?//", source), f"{page.name} loads {source}"


def test_served_plotly_js_has_the_version_the_plotly_package_ships():
    shipped = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    assert plotly_js_version(plotly_js_path()) == plotly_js_version(shipped)


def test_plotly_js_is_served_once_and_only_on_pages_with_a_figure(built_site):
    served = built_site.html / "_static" / "rope_viz" / "plotly.min.js"
    assert served.read_bytes() == plotly_js_path().read_bytes()
    pages_with_figures = 0
    for page in built_site.pages():
        text = _read(page)
        loads = [source for source in SCRIPT_SOURCES.findall(text) if "plotly" in source]
        if 'class="rope-viz-demo"' in text:
            pages_with_figures += 1
            assert len(loads) == 1, f"{page.name}: plotly.js loaded {len(loads)} times"
            order = [
                text.index(f"_static/rope_viz/{name}")
                for name in (
                    "rope-viz-canvas.js",
                    "rope-viz-direct.js",
                    "rope-viz-figures.js",
                    "rope-viz-present.js",
                )
            ]
            assert order == sorted(order), f"{page.name}: script order"
        else:
            assert loads == [], f"{page.name} loads plotly.js without a figure"
        # never inlined: the inline bundle would carry its banner
        assert "plotly.js v" not in text, f"{page.name} inlines plotly.js"
    assert pages_with_figures >= len(NOTEBOOKS)


def test_mathjax_is_served_by_the_site(built_site):
    assert (built_site.html / "_static" / "mathjax" / "tex-chtml.js").is_file()
    assert (built_site.html / "_static" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2").is_dir()
    page = _read(built_site.html / "book" / "glossary.html")
    assert "_static/mathjax/tex-chtml.js" in page


def test_every_chapter_has_binder_colab_download_and_repository_buttons(built_site):
    for notebook in NOTEBOOKS:
        text = _read(_notebook_page(built_site, notebook))
        owner_repo = REPOSITORY.removeprefix("https://github.com/")
        assert f"https://mybinder.org/v2/gh/{owner_repo}/main?urlpath=" in text, notebook.name
        assert f"notebooks/{notebook.name}" in text
        assert (
            f"https://colab.research.google.com/github/{owner_repo}/blob/main/notebooks/{notebook.name}"
            in text
        )
        assert 'href="../_sources/notebooks/' in text, "download button for the .ipynb"
        assert f'href="{REPOSITORY}"' in text, "repository button"


def test_each_chapter_page_shows_its_figure(built_site):
    for notebook in NOTEBOOKS:
        text = _read(_notebook_page(built_site, notebook))
        assert text.count('class="rope-viz-demo"') >= 1, notebook.name
        assert 'type="range"' in text
        # no ipywidget state or widget views on the site: a slider there would look live and be dead
        assert "application/vnd.jupyter.widget-view+json" not in text
        assert "application/vnd.jupyter.widget-state+json" not in text
