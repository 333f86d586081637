"""Accessibility of the built site in chromium: an axe-core audit of every page in light and dark mode and on
a phone, and the figures' sliders and text alternatives as a screen reader meets them.

axe-core comes from ``node_modules/`` (installed by ``npm ci`` from ``package-lock.json``) and is injected
into the page by the test; the site itself never loads it. Every rule runs on the whole page: a violation
is fixed where the markup comes from (the figure renderer, the figure script, the theme's templates in
``rope_viz/site/templates``, the body fixes of ``rope_viz/site/sphinx_ext.py``), never by leaving a rule or an
element out of the audit. axe does not check the words Plotly draws in the plots' SVG; the same visits measure
their contrast (:mod:`tests.site.plot_text`). The counts of every rule by impact, per page and visit, are
written to ``test-artifacts/axe-report.json``.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from playwright.sync_api import expect

from tests.site.conftest import ARTIFACTS, ROOT, wait_for_figures, wait_for_math
from tests.site.plot_text import low_contrast_words

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: Impacts that fail the audit; ``moderate`` and ``minor`` ones are only reported.
FAILING_IMPACTS = ("critical", "serious")
#: How each page is audited: in both modes at 1280 × 900, and on a phone (390 × 844, touch), where long lines
#: wrap or scroll and plots are scaled down.
VISITS = {
    "light": {"color_scheme": "light"},
    "dark": {"color_scheme": "dark"},
    "phone": {"color_scheme": "light", "width": 390, "height": 844, "phone": True},
}


def _in_mode(page, mode: str) -> None:
    """Make sure the page shows ``mode``: the theme follows the browser's colour scheme, else set it."""
    if page.evaluate("() => document.documentElement.dataset.theme") != mode:
        page.evaluate(
            "mode => { document.documentElement.dataset.theme = mode;"
            " return new Promise(done => requestAnimationFrame(() => done())); }",
            mode,
        )


#: Show what a reader opens: every ``<details>`` (the interview page's answer cards, folded cells), and every
#: question answered and checked, so that its feedback and worked answer show. Resolves, once the transitions
#: that fade them in have ended, to how many of each.
REVEAL = """async () => {
    const details = [...document.querySelectorAll("details")];
    details.forEach(element => { element.open = true; });
    const forms = [...document.querySelectorAll("form.rope-viz-question")];
    forms.forEach(form => {
        const choice = form.querySelector("input[type=radio]");
        if (choice) choice.checked = true;
        const number = form.querySelector("input[type=text]");
        if (number) number.value = "1";
        form.requestSubmit();
    });
    await new Promise(done => requestAnimationFrame(() => done()));
    await Promise.all(document.getAnimations()
        .filter(animation => animation.effect.getComputedTiming().endTime !== Infinity)
        .map(animation => animation.finished.catch(() => null)));
    return {details: details.length, questions: forms.length,
            solutions: document.querySelectorAll(".rope-viz-question-solution:not([hidden])").length};
}"""


def _audit(page) -> list[dict]:
    """Run axe on the whole page; return its violations as rule, impact and the targets of its nodes."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return page.evaluate(
        """() => axe.run(document, {resultTypes: ["violations"]}).then(results => results.violations.map(
            v => ({rule: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(" "))}),
        ))"""
    )


def _merged(first: list[dict], second: list[dict]) -> list[dict]:
    """The violations of two audits of one page, each rule's targets once."""
    rules: dict[str, dict] = {}
    for violation in first + second:
        kept = rules.setdefault(violation["rule"], {**violation, "nodes": []})
        kept["nodes"] += [node for node in violation["nodes"] if node not in kept["nodes"]]
    return list(rules.values())


def test_axe_finds_nothing_critical_or_serious(built_site, open_page, subtests):
    """Every page in both modes and on a phone, once its figures are drawn and its math typeset, and again
    with every question answered and every fold open; one subtest per visit. The words of the plots, which axe
    does not check, have 4.5:1 or more against the page (:mod:`tests.site.plot_text`)."""
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing; run `npm ci` (./dev.sh test does)")
    report: dict[str, dict[str, dict[str, int]]] = {}
    for visit, options in VISITS.items():
        for relative in built_site.relative_pages():
            with subtests.test("axe: no critical or serious violation", page=relative, visit=visit):
                page, _, _ = open_page(relative, **options)
                try:
                    wait_for_math(page)
                    wait_for_figures(page)
                    _in_mode(page, options["color_scheme"])
                    violations = _audit(page)
                    # axe leaves out the words Plotly draws in SVG: measured on their own.
                    low_words = low_contrast_words(page, f"{relative} ({visit})")
                    # Then again with everything a reader can open opened, where there is any.
                    shown = page.evaluate(REVEAL)
                    assert shown["solutions"] == shown["questions"], shown
                    if shown["details"] or shown["questions"]:
                        violations = _merged(violations, _audit(page))
                finally:
                    page.context.close()
                counts = Counter()
                for violation in violations:
                    counts[f"{violation['rule']} ({violation['impact']})"] += len(violation["nodes"])
                report.setdefault(relative, {})[visit] = dict(sorted(counts.items()))
                failing = [
                    f"{violation['rule']} ({violation['impact']}: {violation['help']}) at {target}"
                    for violation in violations
                    if violation["impact"] in FAILING_IMPACTS
                    for target in violation["nodes"]
                ]
                failing += low_words
                assert not failing, f"{relative} ({visit}):\n  " + "\n  ".join(failing)
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
