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
