"""The direct drawing runs only with the plotly.js it was tested against; the fence names the bundle."""

from __future__ import annotations

import json
import re

from rope_viz.site.sphinx_ext import (
    PLOTLY_BUNDLE,
    PLOTLY_BUNDLE_TRACE_TYPES,
    STATIC_DIRECTORY,
    plotly_js_version,
)

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


#: Where the bundle is built from (``./dev.sh plotly``).
BUNDLE_SOURCE = STATIC_DIRECTORY.parents[2] / "plotly-bundle"


def _banner() -> str:
    return PLOTLY_BUNDLE.read_text(encoding="utf-8")[:600]


def test_the_bundle_names_the_trace_types_a_demo_may_use():
    """The banner lists the bundle's trace types; tests/test_demos.py holds every demo to the same list."""
    match = re.search(r"plotly\.js \(([a-z, ]+) - minified\) v", _banner())
    assert match, "the bundle's banner must name its trace types"
    assert set(match.group(1).split(", ")) == PLOTLY_BUNDLE_TRACE_TYPES


def test_the_bundle_is_built_from_what_plotly_bundle_pins():
    """The committed bundle came from the pinned plotly.js and esbuild, with the trace types its entry
    registers (scatter is in Plotly's core)."""
    package = json.loads((BUNDLE_SOURCE / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((BUNDLE_SOURCE / "package-lock.json").read_text(encoding="utf-8"))
    pins = package["devDependencies"]
    for name in ("plotly.js", "esbuild"):
        assert lock["packages"][f"node_modules/{name}"]["version"] == pins[name], name
    assert plotly_js_version(PLOTLY_BUNDLE) == pins["plotly.js"]
    assert f"with esbuild {pins['esbuild']} " in _banner()
    entry = (BUNDLE_SOURCE / "entry.js").read_text(encoding="utf-8")
    assert 'require("plotly.js/lib/core")' in entry
    registered = set(re.findall(r'require\("plotly\.js/lib/([a-z0-9]+)"\)', entry)) - {"core"}
    assert registered | {"scatter"} == PLOTLY_BUNDLE_TRACE_TYPES
