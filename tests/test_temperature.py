"""rope_viz.temperature against an explicit softmax: the closed forms are the weight and the entropy of the
softmax of ``[c gap, 0, ..., 0]``, and they behave as the chapter says (more keys, less weight on the best one
and more entropy; a factor above 1 gives weight back; YaRN's fixed factor restores exactly one gap)."""

from __future__ import annotations

import numpy as np
import pytest

from rope_viz.attention import softmax
from rope_viz.scaling import yarn_get_mscale
from rope_viz.temperature import (
    attention_entropy,
    balanced_gap,
    best_key_weight,
    restoring_factor,
    yarn_logit_factor,
)


def explicit(keys: int, gap: float, logit_factor: float = 1.0) -> tuple[float, float]:
    """Weight of the best key and entropy of the softmax of N explicit logits, computed directly."""
    logits = np.zeros(keys)
    logits[0] = gap
    weights = softmax(logit_factor * logits)
    return float(weights[0]), float(-np.sum(weights * np.log(weights)))


@pytest.mark.parametrize("keys", [1, 2, 7, 4096, 65_536])
@pytest.mark.parametrize(
    ("gap", "logit_factor"), [(0.0, 1.0), (0.7, 1.0), (5.0, 1.0), (5.0, 1.6), (12.0, 2.0)]
)
def test_closed_forms_are_the_softmax_of_explicit_logits(keys, gap, logit_factor):
    weight, entropy = explicit(keys, gap, logit_factor)
    assert best_key_weight(keys, gap, logit_factor) == pytest.approx(weight, rel=1e-12)
    assert attention_entropy(keys, gap, logit_factor) == pytest.approx(entropy, rel=1e-9, abs=1e-12)


def test_more_keys_give_the_same_gap_less_weight_and_the_attention_more_entropy():
    keys = np.geomspace(2, 2**20, 200)
    for gap in (1.0, 5.0, 10.0):
        assert np.all(np.diff(best_key_weight(keys, gap)) < 0)
        assert np.all(np.diff(attention_entropy(keys, gap)) > 0)
    # equal logits: uniform attention, entropy ln N
    np.testing.assert_allclose(attention_entropy(keys, 0.0), np.log(keys), rtol=1e-12)
    # a small weight falls about s-fold from L to sL keys
    small = best_key_weight([4096, 16 * 4096], 3.0)
    assert small[0] / small[1] == pytest.approx(16, rel=0.01)


def test_a_factor_above_one_sharpens_and_the_restoring_factor_restores_exactly():
    keys, trained = 16 * 4096, 4096
    for gap in (2.0, 5.0, 9.0):
        for c in (1.2, 1.6, 2.5):
            assert best_key_weight(keys, gap, c) > best_key_weight(keys, gap)
            assert attention_entropy(keys, gap, c) < attention_entropy(keys, gap)
        c = restoring_factor(keys, trained, gap)
        assert c > 1
        assert best_key_weight(keys, gap, c) == pytest.approx(best_key_weight(trained, gap), rel=1e-12)
    # the factor needed falls as the gap grows: one fixed factor cannot restore every gap
    assert np.all(np.diff([restoring_factor(keys, trained, gap) for gap in (1, 2, 4, 8, 16)]) < 0)


def test_yarn_factor_is_the_square_of_the_factor_on_cos_and_sin_and_restores_one_gap():
    for s in (2.0, 4.0, 16.0, 64.0):
        assert yarn_logit_factor(s) == pytest.approx((0.1 * np.log(s) + 1) ** 2, rel=1e-15)
        assert yarn_logit_factor(s) == pytest.approx(yarn_get_mscale(s) ** 2, rel=1e-15)
        trained, keys = 4096, s * 4096
        balanced = balanced_gap(s, trained)
        assert restoring_factor(keys, trained, balanced) == pytest.approx(yarn_logit_factor(s), rel=1e-12)
        at_training = best_key_weight(trained, balanced)
        assert best_key_weight(keys, balanced, yarn_logit_factor(s)) == pytest.approx(at_training, rel=1e-12)
        # above that gap YaRN gives back more weight than was lost, below it less
        assert best_key_weight(keys, 2 * balanced, yarn_logit_factor(s)) > best_key_weight(
            trained, 2 * balanced
        )
        assert best_key_weight(keys, balanced / 2, yarn_logit_factor(s)) < best_key_weight(
            trained, balanced / 2
        )
    assert yarn_logit_factor(1.0) == 1.0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: best_key_weight(0, 1.0), "at least one key"),
        (lambda: best_key_weight(4, -1.0), "gap"),
        (lambda: attention_entropy(4, 1.0, logit_factor=-2.0), "logit_factor"),
        (lambda: restoring_factor(1, 4096, 1.0), "single key"),
        (lambda: restoring_factor(8192, 4096, 0.0), "gap"),
        (lambda: balanced_gap(1.0, 4096), "factor"),
    ],
)
def test_bad_arguments_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()
