"""Diagnose an implementation of RoPE: is ``fn(x, positions)`` the rotation of RoFormer, and if not, why.

:func:`check` calls ``fn`` at most four times, on inputs of a few hundred rows drawn with a fixed-seed
generator, and reads the answers through the properties of the rotation that the course teaches (RoFormer,
Su et al. 2021, arXiv:2104.09864, sec. 3.2 and 3.4.2):

* **Agreement.** 96 random vectors at whole positions up to 8190 are compared with :func:`rope_viz.rotate`
  in both pairing conventions and with both signs of the angle. A match to float64 tolerance (``1e-8`` of
  ``|x|``) ends the check; it may still be the other layout (``"other_convention"``) or the negated angle
  (``"angle_sign"``).
* **Lengths** (``"norm"``). A rotation keeps ``|x|``: ``|fn(x, m)| / |x|`` must be 1 for every vector.
* **Offsets** (``"not_relative"``). RoPE's score depends on ``m - n`` only, so ``<fn(q, m), fn(k, n)>``
  must equal ``<fn(q, m + t), fn(k, n + t)>``; the random vectors come in such pairs, half at positions
  below 64, half up to 8190.
* **Pairs** (``"other_convention"``). ``fn`` applied to the unit vectors ``e_j`` at position ``m`` gives the
  columns of its matrix ``M(m)`` (and one random vector checks that ``fn`` is linear). RoPE's ``M(m)`` is
  block-diagonal, with 2x2 blocks on the pairs ``(2i, 2i+1)`` or ``(i, i + d/2)``.
* **Speeds** (``"frequencies"``, ``"angle_sign"``). In each pair, the angle of
  ``G_i(t) = M_i(0)^T M_i(t)``, the turn the scores see at offset ``t``, divided by ``t`` is the pair's speed.
  It is followed from ``t = 1/(4 base)`` up to ``t = 1`` by factors of 4, so that no whole turn is missed,
  and compared with ``theta_i = base ** (-2i/d)``: all speeds ``-theta_i`` is ``"angle_sign"``, any other
  difference beyond 1% (a lost minus sign or factor 2, another base, pairs that do not turn) is
  ``"frequencies"``, with the base the speeds fit. A pair whose 2x2 map is a reflection (determinant -1)
  is reported under ``"angle_sign"`` too, since it reverses the sense of turning (``y_b = x_a sin - x_b
  cos`` gives the scores of the negated angle). A constant added to every angle (``M(0)`` not the
  identity) is reported under ``"frequencies"``, and so is a difference from ``rotate`` that no check
  explains (a ``fn`` that is not linear, or reads the row index instead of the positions).
* **Large positions** (``"precision"``). At the positions ``2**k + 1`` up to 8193, which need ``k + 1``
  significant bits, and at random ones, every pair's angle is compared with ``m theta_i``. If one effective
  position ``m'`` explains all pairs at each ``m``, the positions were rounded: 2049 acting as 2048 is
  float16's 11 bits, 257 as 256 bfloat16's 8. Otherwise the angles themselves were rounded, and the largest
  relative error ``2**-p`` gives ``p`` bits. Errors above ``2**-7`` (bfloat16, the coarsest, errs by
  ``2**-8``), or rounded numbers off the grid of ``p``-bit numbers, are no rounding: the position is clamped
  or otherwise remapped, and the finding is ``"not_relative"``.

Several findings may apply at once. The last three checks need a linear ``fn`` that keeps lengths; a
function that fails ``"norm"`` is reported on lengths and offsets only. The comparisons are made at whole
positions (fractional ones only serve to read the speeds), and with ``dim = 2``, one pair turning at 1 rad
per token, the two layouts and every base coincide and a rounded position cannot be told from a wrong one.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rope_viz._validation import CONVENTIONS, check_base, check_convention, check_dim
from rope_viz.checker import messages
from rope_viz.checker.angles import large_position_errors, read_rotation
from rope_viz.checker.probes import FunctionFailedError, Probe, random_batch
from rope_viz.checker.report import FINDING_NAMES, CheckReport, Finding
from rope_viz.frequencies import inv_freq


def check(
    fn: Callable[[np.ndarray, np.ndarray], object],
    *,
    dim: int = 64,
    base: float = 10000.0,
    convention: str | None = None,
) -> CheckReport:
    """Check that ``fn(x, positions)`` rotates pair ``i`` of every vector by ``m theta_i``, and say why not.

    The reference is :func:`rope_viz.rotate`: ``y_a = x_a cos(m theta_i) - x_b sin(m theta_i)``,
    ``y_b = x_a sin(m theta_i) + x_b cos(m theta_i)`` with ``theta_i = base ** (-2i/d)`` (RoFormer, Su et al.
    2021, arXiv:2104.09864, sec. 3.4.2), pairs ``(a, b)`` from ``convention``. The method of each check is in
    the module docstring.

    Parameters
    ----------
    fn : callable
        ``fn(x, positions)`` with ``x`` of shape ``(seq, dim)`` (float64) and ``positions`` of shape
        ``(seq,)`` (int64 whole positions; float64 fractional ones for the speeds, which a ``fn`` that
        refuses them is spared); returns the rotated array of the shape of ``x``. ``fn`` gets copies.
    dim : int, default 64
        Vector size ``d``; even, >= 2. Up to a few hundred keeps a check well under a second.
    base : float, default 10000.0
        Frequency base (Hugging Face ``rope_theta``); finite, > 1.
    convention : {"interleaved", "half"} or None, default None
        Pairing convention ``fn`` must use; None accepts either.

    Returns
    -------
    CheckReport
        ``passed``: ``fn`` equals ``rotate`` in the asked convention (either if None) to float64 tolerance.
        With ``convention=None``, a ``fn`` equal to ``rotate`` with negated angles passes too, with an
        ``"angle_sign"`` finding for information (legitimate if applied to q and k alike); with a
        convention given it fails. ``convention``: the pairing ``fn`` matches, else None. ``findings``:
        :class:`Finding` objects named from :data:`FINDING_NAMES`; ``str(report)`` prints them.

    Raises
    ------
    ValueError
        If ``fn`` is not callable, ``dim`` is not an even integer >= 2, ``base`` is not a finite number > 1,
        or ``convention`` is not None, ``"interleaved"`` or ``"half"``.

    Examples
    --------
    >>> import rope_viz as rv
    >>> check(rv.rotate).passed
    True
    >>> report = check(lambda x, positions: rv.rotate(x, positions, base=500000.0))
    >>> report.passed, report.names
    (False, ('frequencies',))

    """
    if not callable(fn):
        raise ValueError(f"fn must be a callable fn(x, positions), got {fn!r}")
    dim = check_dim(dim)
    base = check_base(base)
    if convention is not None:
        convention = check_convention(convention)
    asked = (convention,) if convention is not None else CONVENTIONS
    try:
        findings, matched = _diagnose(Probe(fn, dim, base), asked)
    except FunctionFailedError as failure:
        findings, matched = [failure.finding], None
    findings.sort(key=lambda finding: FINDING_NAMES.index(finding.name))
    names = {finding.name for finding in findings}
    passed = matched is not None and (not names or (names == {"angle_sign"} and convention is None))
    return CheckReport(passed, matched, findings, dim, base, convention)


def _diagnose(probe: Probe, asked: tuple[str, ...]) -> tuple[list[Finding], str | None]:
    """Return the findings, and the convention ``fn`` equals RoPE in (angles possibly negated) or None."""
    batch = random_batch(probe.rng, probe.dim)
    out = probe.call(batch.x, batch.positions)
    errors = messages.agreement_errors(out, batch, probe.base)
    order = [*asked, *(c for c in CONVENTIONS if c not in asked)]
    for sign in (1, -1):
        for convention in order:
            if errors[convention, sign] <= messages.TOLERANCE:
                return messages.for_match(convention, sign, errors, asked), convention

    findings: list[Finding] = []
    norm = messages.norm(out, batch)
    deviation = messages.score_deviation(out, batch)
    rotation = read_rotation(probe, asked) if norm is None else None
    if norm is not None:
        findings.append(norm)
    theta = inv_freq(probe.dim, probe.base)
    large = None
    if rotation is not None and rotation.speeds is not None:
        large = large_position_errors(rotation, messages.expected_speeds(rotation.speeds, theta))
    explained = large is not None and large.is_rounding  # scores change only as much as rounding makes them
    breaks = large is not None and large.kind != "exact" and not explained
    relative = not breaks and (deviation.ok or explained)
    if not relative:
        findings.append(messages.not_relative(deviation, large, theta))
    if rotation is not None and rotation.convention not in asked:
        findings.append(messages.other_convention(rotation, asked))
    if relative and rotation is not None and rotation.speeds is not None:
        for finding in (
            messages.frequencies(rotation, theta, probe.base),
            messages.angle_sign(rotation, theta),
        ):
            if finding is not None:
                findings.append(finding)
    if large is not None and large.is_rounding:
        findings.append(messages.precision(large))
    if not findings:
        findings.append(messages.unexplained(errors, linear=rotation is not None))
    return findings, None


__all__ = ["FINDING_NAMES", "CheckReport", "Finding", "check"]
