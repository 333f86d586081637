"""The direct drawing runs only with the plotly.js it was tested against; the fence names the bundle."""

from __future__ import annotations

import re

from rope_viz.site.sphinx_ext import PLOTLY_BUNDLE, STATIC_DIRECTORY, plotly_js_version

FIGURES_SCRIPT = STATIC_DIRECTORY / "rope-viz-figures.js"


def fenced_version() -> str:
    match = re.search(r'var TESTED_PLOTLY_VERSION = "([^"]+)";', FIGURES_SCRIPT.read_text(encoding="utf-8"))
    assert match, "rope-viz-figures.js must name the plotly.js version its direct drawing was tested with"
    return match.group(1)


def test_the_fence_names_the_bundled_plotly_version():
    """Upgrading the bundle means re-running the pixel comparisons, then moving the fence (CONTRIBUTING)."""
    assert fenced_version() == plotly_js_version(PLOTLY_BUNDLE)


def test_the_bundle_reports_the_version_its_banner_says():
    """Plotly.version at run time comes from this assignment in the bundle; the browser test rewrites it."""
    text = PLOTLY_BUNDLE.read_text(encoding="utf-8")
    assigned = re.findall(r'\.version="(\d+\.\d+\.\d+)"', text)
    assert plotly_js_version(PLOTLY_BUNDLE) in assigned


def test_direct_drawing_is_created_only_inside_the_fence():
    text = FIGURES_SCRIPT.read_text(encoding="utf-8")
    creations = re.findall(r"[^\n]*RopeVizDirect\.create\([^\n]*", text)
    assert creations and all("directAllowed &&" in line for line in creations)
    assert "Plotly.version === TESTED_PLOTLY_VERSION" in text


#: What reading Plotly's internals looks like in a script: its private properties, d3's bound data, the
#: classes of the SVG it draws (the direct drawing's list of reliances names them all).
INTERNALS = re.compile(
    r"\._full(Layout|Data)\b|__data__|\._(length|offset|id)\b|"
    r"[\"']g\.(trace|hm|lines|fills|points|text|point|cb|legend|shapelayer|annotation)\b|js-line|js-fill"
)
ADAPTER = STATIC_DIRECTORY / "rope-viz-direct.js"


def _scripts_of_ours() -> list:
    widgets = STATIC_DIRECTORY.parents[1] / "widgets" / "static"
    return sorted(
        path
        for folder in (STATIC_DIRECTORY, widgets)
        for path in folder.glob("*.js")
        if not path.name.endswith(".min.js")
    )


def test_only_the_adapter_reads_plotly_internals():
    """Plotly's internals are read in one file, rope-viz-direct.js, so an upgrade has one place to check."""
    scripts = _scripts_of_ours()
    assert ADAPTER in scripts and len(scripts) >= 4
    readers = {path.name for path in scripts if INTERNALS.search(path.read_text(encoding="utf-8"))}
    assert readers == {ADAPTER.name}


def test_the_adapter_lists_each_internal_it_reads():
    """Every private property and SVG class the adapter's code uses is named in its header's list."""
    text = ADAPTER.read_text(encoding="utf-8")
    header, code = text.split("(function () {", 1)
    used = set(re.findall(r"\.(_(?:fullLayout|fullData|length|offset|id))\b", code))
    used |= {"__data__"} if "__data__" in code else set()
    for literal in re.findall(r"\"([^\"\n]*)\"|'([^'\n]*)'", code):
        used |= set(re.findall(r"\b(?:g|path|text)\.[a-z][a-z-]*", "".join(literal)))
    assert used, "the pattern no longer finds the adapter's internals"
    missing = sorted(name for name in used if not re.search(re.escape(name) + r"(?![\w-])", header))
    assert not missing, f"not in the list of what the direct drawing relies on: {missing}"
