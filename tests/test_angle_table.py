"""The cos/sin table of the angles m·θᵢ: the numbers sinusoidal embeddings add and RoPE rotates by, and the
demo that shows it as a position × pair heatmap."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rope_viz as rv
from rope_viz.demos.angle_table import DIM, POSITIONS, RED_COS, AngleTable, table
from rope_viz.demos.clocks import hand_angles_degrees
from rope_viz.frequencies import cos_sin_table
from rope_viz.position_schemes import sinusoidal_embeddings
from tests.conftest import (
    PROPERTY,
    bases,
    conventions,
    dims,
    hand_frequencies,
    hand_rotate,
    positions,
    vectors,
)


@PROPERTY
@given(dim=dims, base=bases, m=positions)
def test_the_table_holds_cos_and_sin_of_position_times_frequency(dim, base, m):
    cos, sin = cos_sin_table(m, rv.inv_freq(dim, base))
    for i, theta in enumerate(hand_frequencies(dim, base)):
        assert cos[i] == pytest.approx(math.cos(m * theta), abs=1e-9)
        assert sin[i] == pytest.approx(math.sin(m * theta), abs=1e-9)
    np.testing.assert_allclose(cos**2 + sin**2, 1.0, atol=1e-12)


@PROPERTY
@given(dim=dims, base=bases)
def test_a_sinusoidal_embedding_is_the_table_interleaved(dim, base):
    m = np.arange(0.0, 200.0, 3.0)
    cos, sin = cos_sin_table(m, rv.inv_freq(dim, base))  # (seq, d/2)
    embeddings = sinusoidal_embeddings(m, dim, base)  # (seq, d)
    np.testing.assert_allclose(embeddings[:, 0::2], sin, atol=1e-12)
    np.testing.assert_allclose(embeddings[:, 1::2], cos, atol=1e-12)


@PROPERTY
@given(data=st.data(), dim=dims, base=bases, m=positions, convention=conventions)
def test_rope_rotates_each_pair_by_the_row_of_its_position(data, dim, base, m, convention):
    x = data.draw(vectors(dim))
    cos, sin = cos_sin_table(m, rv.inv_freq(dim, base))
    half = dim // 2
    a = np.arange(0, dim, 2) if convention == "interleaved" else np.arange(half)
    b = a + 1 if convention == "interleaved" else a + half
    expected = np.empty(dim)
    expected[a] = x[a] * cos - x[b] * sin
    expected[b] = x[a] * sin + x[b] * cos
    got = rv.rotate(x, m, base=base, convention=convention)
    np.testing.assert_allclose(got, expected, atol=1e-8 * (1 + np.abs(x).max()))
    np.testing.assert_allclose(
        got, hand_rotate(x, m, convention, hand_frequencies(dim, base)), atol=1e-8 * (1 + np.abs(x).max())
    )


@pytest.mark.parametrize(("base", "shown"), [(10_000, 0), (10_000, 1), (100, 0), (1_000_000, 1)])
def test_the_heatmap_is_the_sinusoidal_table_for_positions_0_to_127(base, shown):
    view = AngleTable().view(base=base, shown=shown, position=6)
    z = np.array(view.traces[0]["z"])
    assert z.shape == (POSITIONS.size, DIM // 2)
    embeddings = sinusoidal_embeddings(POSITIONS, DIM, base)
    expected = embeddings[:, 1::2] if shown == 0 else embeddings[:, 0::2]
    np.testing.assert_allclose(z, expected, atol=5e-4)


@pytest.mark.parametrize("position", [0, 6, 40, 127])
def test_the_row_below_is_the_clock_of_that_position(position):
    view = AngleTable().view(base=10_000, shown=0, position=position)
    cos, sin = np.array(view.traces[2]["y"]), np.array(view.traces[3]["y"])
    hands = np.radians(hand_angles_degrees(position, DIM, 10_000))  # the clock demo's hands
    np.testing.assert_allclose(cos, np.cos(hands), atol=1e-4)
    np.testing.assert_allclose(sin, np.sin(hands), atol=1e-4)
    outline = view.traces[1]["y"]
    assert min(outline) < position < max(outline)
    assert max(outline) - min(outline) < 4


def test_the_readout_counts_what_the_columns_show():
    full_turns = int(np.count_nonzero(rv.wavelengths(DIM, 10_000) <= 127))
    readout = AngleTable().view(base=10_000, shown=0, position=6).readout
    assert f"{full_turns} of {DIM // 2} pairs complete a full turn" in readout
    # the columns that stay red, counted from the table itself: the slow columns whose every cos is above
    # RED_COS (a quarter turn would take cos to 0, the grey middle of the scale, not red)
    cos = table(10_000, 0)  # (128, d/2)
    red = cos.min(axis=0) > RED_COS
    red_columns = int(np.count_nonzero(red))
    assert red[-red_columns:].all() and not red[: DIM // 2 - red_columns].any()
    assert red_columns < np.count_nonzero(rv.inv_freq(DIM, 10_000) * 127 < np.pi / 2)
    assert (
        f"{red_columns} turn so little that cos stays above {RED_COS:g} in every row: in the cos table they "
        "are red from top to bottom." in readout
    )


@pytest.mark.parametrize("base", [100, 1_000, 100_000, 1_000_000])
def test_the_readout_counts_the_red_columns_at_every_base(base):
    readout = AngleTable().view(base=base, shown=0, position=6).readout
    red_columns = int(np.count_nonzero(table(base, 0).min(axis=0) > RED_COS))
    if red_columns == 0:
        assert "no column of the cos table stays red" in readout
    else:
        assert f"{red_columns} turn so little that cos stays above {RED_COS:g}" in readout


def test_raising_the_base_changes_the_left_and_the_middle_not_the_red_block_on_the_right():
    """The scene "raise the base" and chapter 3's answer: at base 1,000,000 fewer columns cycle and the red
    block on the right grows leftwards; the columns red at base 10,000 stay red, and column 0 is unchanged."""
    [scene] = [scene for scene in AngleTable.scenes if scene.name == "raise the base"]
    bases = (10_000, AngleTable().scene_values(scene)["base"])
    low, high = (table(base, 0) for base in bases)  # (128, d/2) each
    # a column cycles (red, through blue, back to red) when its pair turns once by the last row
    cycling_low, cycling_high = (set(np.flatnonzero(rv.wavelengths(DIM, b) <= POSITIONS[-1])) for b in bases)
    assert cycling_high < cycling_low
    red_low, red_high = (np.flatnonzero(cos.min(axis=0) > RED_COS) for cos in (low, high))
    for block in (red_low, red_high):
        np.testing.assert_array_equal(block, np.arange(block[0], DIM // 2))  # a block on the right
    assert red_high[0] < red_low[0]  # it grows leftwards
    np.testing.assert_array_equal(low[:, 0], high[:, 0])
    # every column from 1 up to the old red block changes; the old red block barely changes shade
    change = np.abs(low - high).max(axis=0)
    assert change[1 : red_low[0]].min() > 0.1
    assert change[red_low].max() < 0.1
