"""What :func:`rope_viz.checker.check` returns: a :class:`CheckReport` holding :class:`Finding` objects."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

FINDING_NAMES = (
    "error",
    "shape",
    "norm",
    "not_relative",
    "other_convention",
    "frequencies",
    "angle_sign",
    "precision",
)
"""Every name a :class:`Finding` can have, in the order a report lists them."""

_WIDTH = 100  # characters per line of a printed report


@dataclass(frozen=True)
class Finding:
    """One thing the check found: ``name`` (one of :data:`FINDING_NAMES`) and a ``message``.

    The message says what is wrong, the evidence (numbers read from the function's output) and the fix.
    """

    name: str
    message: str

    def __str__(self) -> str:
        return f"{self.name}: {self.message}"


@dataclass(frozen=True)
class CheckReport:
    """The verdict of :func:`rope_viz.checker.check` on one function.

    Attributes
    ----------
    passed : bool
        Whether the function equals :func:`rope_viz.rotate` to float64 tolerance in the asked convention (in
        either when none was asked). With no convention asked, a function equal to ``rotate`` with every angle
        negated passes too, with an ``"angle_sign"`` finding for information.
    convention : str or None
        The pairing convention the function equals RoPE in (``"interleaved"`` or ``"half"``, its angles
        possibly negated), else None.
    findings : list of Finding
        What is wrong, in the order of :data:`FINDING_NAMES`; empty for a correct function.
    dim, base : int, float
        The vector size and frequency base the function was checked with.
    asked : str or None
        The ``convention`` the check was asked for.

    """

    passed: bool
    convention: str | None
    findings: list[Finding]
    dim: int
    base: float
    asked: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the findings, in the report's order."""
        return tuple(finding.name for finding in self.findings)

    def __str__(self) -> str:
        asked = f"{self.asked!r}" if self.asked else "either"
        verdict = "PASSED" if self.passed else "FAILED"
        lines = [f"RoPE check (dim={self.dim}, base={self.base:g}, convention={asked}): {verdict}"]
        if self.convention is not None:
            lines.append(f"  pairing: {self.convention!r}")
        if not self.findings:
            lines.append("  no findings: fn equals rope_viz.rotate to float64 tolerance")
        for finding in self.findings:
            lines.extend(textwrap.wrap(str(finding), _WIDTH, initial_indent="  - ", subsequent_indent="    "))
        return "\n".join(lines)
