"""Accessibility of the built site in chromium: an axe-core audit of every page in light and dark mode, and
the figures' sliders and text alternatives as a screen reader meets them.

axe-core comes from ``node_modules/`` (installed by ``npm ci`` from ``package-lock.json``) and is injected
into the page by the test; the site itself never loads it. Every rule runs on the whole page: a violation
is fixed where the markup comes from (the figure renderer, the figure script, the theme's templates in
``rope_viz/site/templates``, the body fixes of ``rope_viz/site/sphinx_ext.py``), never by leaving a rule or an
element out of the audit. The counts of every rule by impact, per page and mode, are written to
``test-artifacts/axe-report.json``.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from playwright.sync_api import expect

from tests.site.conftest import ARTIFACTS, ROOT, wait_for_figures, wait_for_math

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: Impacts that fail the audit; ``moderate`` and ``minor`` ones are only reported.
FAILING_IMPACTS = ("critical", "serious")
MODES = ("light", "dark")


def _in_mode(page, mode: str) -> None:
    """Make sure the page shows ``mode``: the theme follows the browser's colour scheme, else set it."""
    if page.evaluate("() => document.documentElement.dataset.theme") != mode:
        page.evaluate(
            "mode => { document.documentElement.dataset.theme = mode;"
            " return new Promise(done => requestAnimationFrame(() => done())); }",
            mode,
        )


def _audit(page) -> list[dict]:
    """Run axe on the whole page; return its violations as rule, impact and the targets of its nodes."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return page.evaluate(
        """() => axe.run(document, {resultTypes: ["violations"]}).then(results => results.violations.map(
            v => ({rule: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(" "))}),
        ))"""
    )


def test_axe_finds_nothing_critical_or_serious(built_site, open_page, subtests):
    """Every page in both modes, once its figures are drawn and its math typeset, one subtest per visit."""
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing; run `npm ci` (./dev.sh test does)")
    report: dict[str, dict[str, dict[str, int]]] = {}
    for mode in MODES:
        for relative in built_site.relative_pages():
            with subtests.test("axe: no critical or serious violation", page=relative, mode=mode):
                page, _, _ = open_page(relative, color_scheme=mode)
                try:
                    wait_for_math(page)
                    wait_for_figures(page)
                    _in_mode(page, mode)
                    violations = _audit(page)
                finally:
                    page.context.close()
                counts = Counter()
                for violation in violations:
                    counts[f"{violation['rule']} ({violation['impact']})"] += len(violation["nodes"])
                report.setdefault(relative, {})[mode] = dict(sorted(counts.items()))
                failing = [
                    f"{violation['rule']} ({violation['impact']}: {violation['help']}) at {target}"
                    for violation in violations
                    if violation["impact"] in FAILING_IMPACTS
                    for target in violation["nodes"]
                ]
                assert not failing, f"{relative} in {mode} mode:\n  " + "\n  ".join(failing)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "axe-report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")


#: For every figure of a page: its accessible name and description, its readout, and for every slider its
#: visible label, its value text and the text shown beside it.
FIGURE_TEXTS = """() => [...document.querySelectorAll("figure.rope-viz-demo")].map(figure => ({
    id: figure.id,
    label: figure.getAttribute("aria-label") || "",
    describedBy: (figure.getAttribute("aria-describedby") || "").split(/\\s+/)
        .map(id => document.getElementById(id)).filter(Boolean).map(el => el.textContent.trim()).join(" "),
    readout: figure.querySelector(".rope-viz-readout").textContent.trim(),
    sliders: [...figure.querySelectorAll("input[type=range]")].map(input => ({
        id: input.id,
        label: [...input.labels].map(label => label.textContent.trim()).join(" "),
        valuetext: input.getAttribute("aria-valuetext"),
        shown: figure.querySelector(`output[for="${input.id}"]`).textContent.trim(),
    })),
}))"""


def test_sliders_and_figures_speak(built_site, open_page, subtests):
    """Every slider of a chapter is named by its visible label and says its value, also after a keyboard
    step; every figure is named by its title and described by its readout."""
    chapters = [relative for relative in built_site.relative_pages() if relative.startswith("notebooks/")]
    assert chapters, "no chapter pages"
    for relative in chapters:
        with subtests.test("sliders named and valued, figures described", page=relative):
            page, problems, _ = open_page(relative)
            try:
                assert wait_for_figures(page) >= 1, f"{relative} has no interactive figure"
                for figure in page.evaluate(FIGURE_TEXTS):
                    where = f"{relative} #{figure['id']}"
                    assert figure["label"], f"{where}: the figure has no name"
                    described = figure["describedBy"] == figure["readout"]
                    assert described, f"{where}: the figure is not described by its readout"
                    for slider in figure["sliders"]:
                        _check_slider(page, where, slider)
                assert problems == [], f"{relative}: {problems}"
            finally:
                page.context.close()


def _check_slider(page, where: str, slider: dict) -> None:
    """The slider's accessible name holds its label; a key press changes its value text to the one shown."""
    control = page.locator(f"#{slider['id']}")
    label = slider["label"]
    assert label, f"{where}: slider {slider['id']} has no visible label"
    message = f"{where}: slider {slider['id']} is not named by its label {label!r}"
    expect(control, message).to_have_accessible_name(re.compile(re.escape(label)))
    assert slider["valuetext"] and slider["valuetext"] == slider["shown"], (
        f"{where}: slider {label!r} says {slider['valuetext']!r} and shows {slider['shown']!r}"
    )
    at_end = control.input_value() == control.get_attribute("max")
    control.focus()
    page.keyboard.press("ArrowLeft" if at_end else "ArrowRight")
    after = control.get_attribute("aria-valuetext")
    shown = page.locator(f'output[for="{slider["id"]}"]').inner_text().strip()
    assert after and after != slider["valuetext"], (
        f"{where}: a step of {label!r} left its value text at {after!r}"
    )
    assert after == shown, f"{where}: after a step, {label!r} says {after!r} and shows {shown!r}"
