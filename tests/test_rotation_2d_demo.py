"""The 2-D rotation demos: what they draw is checked against complex arithmetic and hand-written cos/sin, and
the facts the chapter "Rotation in two dimensions" teaches are checked on the same numbers."""

from __future__ import annotations

import cmath
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz.demos.rotation_2d import (
    POSITIONS,
    SHOWN_SHIFT,
    THETAS,
    K,
    Q,
    Rotation2D,
    SignConvention,
    arc,
    trail,
)
from tests.conftest import PROPERTY

q_c, k_c = complex(*Q), complex(*K)
positions = st.integers(0, 12)
thetas = st.floats(0.01, 3.14)


def complex_score(m: float, n: float, theta: float, sign_q: int = 1, sign_k: int = 1) -> float:
    """Re[(q e^{i σq m θ}) conj(k e^{i σk n θ})]: the dot product of the two turned vectors."""
    return (
        q_c * cmath.exp(1j * sign_q * m * theta) * (k_c * cmath.exp(1j * sign_k * n * theta)).conjugate()
    ).real


@PROPERTY
@given(m=positions, n=positions, theta=thetas)
def test_rotation_demo_draws_the_turned_vectors_and_their_dot_product(m, n, theta):
    view = Rotation2D().view(m=m, n=n, theta=theta)
    q_tip = q_c * cmath.exp(1j * m * theta)
    k_tip = k_c * cmath.exp(1j * n * theta)
    assert view.traces[4]["x"][1] == pytest.approx(q_tip.real, abs=1e-3)
    assert view.traces[4]["y"][1] == pytest.approx(q_tip.imag, abs=1e-3)
    assert view.traces[5]["x"][1] == pytest.approx(k_tip.real, abs=1e-3)
    assert view.traces[5]["y"][1] == pytest.approx(k_tip.imag, abs=1e-3)
    # the bar: <R_m q, R_n k> = Re[q conj(k) e^{i(m-n)θ}]
    expected = (q_c * k_c.conjugate() * cmath.exp(1j * (m - n) * theta)).real
    assert view.traces[6]["y"][0] == pytest.approx(expected, abs=1e-4)
    assert view.traces[6]["y"][0] == pytest.approx(complex_score(m, n, theta), abs=1e-4)
    # the marker and the equal-offset diagonal
    assert view.traces[9] == {"x": [n], "y": [m]}
    assert all(mm - nn == m - n for nn, mm in zip(view.traces[8]["x"], view.traces[8]["y"], strict=True))
    assert f"{expected:.4f}" in view.readout
    far = complex_score(m + SHOWN_SHIFT, n + SHOWN_SHIFT, theta)
    assert f"({m + SHOWN_SHIFT}, {n + SHOWN_SHIFT}): {far:.4f}" in view.readout


@PROPERTY
@given(theta=thetas)
def test_score_map_is_constant_along_diagonals(theta):
    z = np.array(Rotation2D().view(m=0, n=0, theta=theta).traces[7]["z"])
    assert z.shape == (len(POSITIONS), len(POSITIONS))
    for m in POSITIONS:
        for n in POSITIONS:
            assert z[m, n] == pytest.approx(complex_score(m, n, theta), abs=1e-3)
            if m and n:
                assert abs(z[m, n] - z[m - 1, n - 1]) <= 1.0001e-3  # same offset, same number (to rounding)


@PROPERTY
@given(m=positions, theta=thetas)
def test_trail_keeps_the_length_and_steps_by_theta(m, theta):
    points = trail(Q, m, theta)
    assert points.shape == (m + 1, 2)
    np.testing.assert_allclose(np.hypot(points[:, 0], points[:, 1]), abs(q_c), rtol=1e-12)
    for j in range(m + 1):
        assert complex(*points[j]) == pytest.approx(q_c * cmath.exp(1j * j * theta), abs=1e-12)


def test_angle_arc_spans_the_angle_between_the_vectors():
    points = arc(0.2, 1.0, 0.35)
    np.testing.assert_allclose(np.hypot(points[:, 0], points[:, 1]), 0.35)
    assert math.atan2(points[0, 1], points[0, 0]) == pytest.approx(0.2)
    assert math.atan2(points[-1, 1], points[-1, 0]) == pytest.approx(1.0)
    wrapped = arc(3.0, -3.0, 1.0)  # the short way round, through pi
    assert np.all(np.abs(np.arctan2(wrapped[:, 1], wrapped[:, 0])) >= 3.0 - 1e-9)


def test_rotation_demo_site_grid():
    demo = Rotation2D()
    assert [c.name for c in demo.controls] == ["m", "n", "theta"]
    assert demo.controls[2].site_values == THETAS
    assert len(POSITIONS) * len(POSITIONS) * len(THETAS) < 1000


# --- sign conventions --------------------------------------------------------------------------------------


@PROPERTY
@given(
    theta=st.sampled_from([0.25, 0.5, 1.0]), sign_q=st.sampled_from([-1, 1]), sign_k=st.sampled_from([-1, 1])
)
def test_sign_convention_map_and_shift_line(theta, sign_q, sign_k):
    demo = SignConvention()
    view = demo.view(sign_q=sign_q, sign_k=sign_k, theta=theta)
    z = np.array(view.traces[0]["z"])
    for m in demo.grid:
        for n in demo.grid:
            assert z[m, n] == pytest.approx(complex_score(m, n, theta, sign_q, sign_k), abs=1e-3)
    chosen = np.array(view.traces[3]["y"])
    standard = np.array(view.traces[2]["y"])
    m0, n0 = demo.start
    for t, value in zip(demo.shifts, chosen, strict=True):
        assert value == pytest.approx(complex_score(m0 + t, n0 + t, theta, sign_q, sign_k), abs=1e-4)
    np.testing.assert_allclose(
        standard, [complex_score(m0 + t, n0 + t, theta) for t in demo.shifts], atol=1e-4
    )
    if sign_q == sign_k:
        assert np.ptp(chosen) < 1e-3  # consistent: moving both positions changes nothing
        assert "consistent" in view.readout
    else:
        assert np.ptp(chosen) > 0.5  # mixed: the score now depends on m + n
        assert "mixed" in view.readout


def test_both_minus_is_the_transpose_of_both_plus_and_mixed_depends_on_the_sum():
    demo = SignConvention()
    plus = np.array(demo.view(sign_q=1, sign_k=1, theta=0.5).traces[0]["z"])
    minus = np.array(demo.view(sign_q=-1, sign_k=-1, theta=0.5).traces[0]["z"])
    mixed = np.array(demo.view(sign_q=1, sign_k=-1, theta=0.5).traces[0]["z"])
    np.testing.assert_allclose(minus, plus.T, atol=1e-3)
    assert not np.allclose(minus, plus, atol=1e-2)
    for m in range(1, 16):
        for n in range(15):
            assert mixed[m, n] == pytest.approx(mixed[m - 1, n + 1], abs=2e-3)  # constant along m + n


@PROPERTY
@given(
    x=st.lists(st.floats(-5, 5), min_size=6, max_size=6),
    m=st.integers(0, 500),
)
def test_elementwise_formula_with_sin_times_x1_minus_x0_turns_by_minus_angle(x, m):
    # The form y = cos ⊙ x + sin ⊙ (x1, -x0, x3, -x2, ...) turns every pair by -mθ_i.
    d = len(x)
    theta = rv.inv_freq(d)
    y = []
    for i in range(d // 2):
        c, s = math.cos(m * theta[i]), math.sin(m * theta[i])
        y += [x[2 * i] * c + x[2 * i + 1] * s, x[2 * i + 1] * c - x[2 * i] * s]
    np.testing.assert_allclose(y, rv.rotate(np.array(x), -m), atol=1e-9)
    np.testing.assert_allclose(y, rv.rotation_matrix(m, d).T @ np.array(x), atol=1e-9)
