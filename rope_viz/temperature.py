"""Why YaRN sharpens attention: with more keys in the softmax, the same logit gap buys less weight.

A query shares its softmax with every key it attends to: at most ``L`` keys in training, up to ``s L`` after
the context is extended. Take the simplest case that shows what changes: ``N`` keys, one of them (the *best*
key) with a logit ``gap`` above the ``N - 1`` others, which are all equal. Multiplying every logit by a
``logit_factor`` multiplies the gap by it, to ``sharp = logit_factor * gap``, and the softmax gives the best
key the weight

    A_best = e^sharp / (e^sharp + N - 1) = 1 / (1 + crowd),   crowd = (N - 1) e^(-sharp),

and the attention as a whole the entropy (in nats)

    -sum_n A_n ln A_n = ln(1 + crowd) + sharp * crowd / (1 + crowd),

which is ``ln N`` when the gap is 0 (all keys equal) and falls towards 0 as the gap grows. At a fixed gap,
every key added to the softmax lowers ``A_best`` (by about ``1/s`` from ``L`` to ``s L`` keys while it is
small) and raises the entropy. The factor on the logits that gives the best key at ``N`` keys the weight it
had at ``L`` keys is

    1 + ln((N - 1) / (L - 1)) / gap,

which depends on the gap: no single factor restores every gap. YaRN multiplies every logit by the fixed

    1/tau = (0.1 ln s + 1)^2

(Peng et al. 2023, "YaRN: Efficient Context Window Extension of Large Language Models", arXiv:2309.00071,
section 3.4), a curve its authors fitted to perplexity, not derived from this model. It restores exactly the
one gap

    ln((s L - 1) / (L - 1)) / ((0.1 ln s + 1)^2 - 1):

larger gaps get back more weight than they lost, smaller ones less.
"""

from __future__ import annotations

import numpy as np

from rope_viz._validation import check_finite
from rope_viz.scaling import yarn_get_mscale
from rope_viz.scaling.parameters import check_number


def _keys(keys: object, name: str = "keys") -> np.ndarray:
    keys = check_finite(keys, name)
    if np.any(keys < 1):
        raise ValueError(f"{name} must be >= 1: a softmax needs at least one key")
    return keys


def _crowd(keys: object, gap: float, logit_factor: float) -> tuple[np.ndarray, float]:
    """``crowd = (N - 1) e^(-sharp)``, the other keys' weight relative to the best one's, and ``sharp``."""
    keys = _keys(keys)
    gap = check_number(gap, "gap", minimum=0.0)
    logit_factor = check_number(logit_factor, "logit_factor", minimum=0.0)
    sharpened = logit_factor * gap
    return (keys - 1.0) * np.exp(-sharpened), sharpened


def yarn_logit_factor(factor: float) -> float:
    """YaRN's factor on the logits, ``1/tau = (0.1 ln s + 1)^2``; 1 for ``s <= 1``.

    It is the square of :func:`rope_viz.scaling.yarn_get_mscale`, the factor on cos and sin, because the
    rotated query and the rotated key both carry it (Peng et al. 2023, section 3.4).

    Examples
    --------
    >>> round(yarn_logit_factor(16.0), 4)
    1.6314

    """
    return yarn_get_mscale(check_number(factor, "factor", minimum=0.0, inclusive=False)) ** 2


def best_key_weight(keys: object, gap: float, logit_factor: float = 1.0) -> np.ndarray:
    """Softmax weight of the best of ``N`` keys: ``A_best = e^sharp / (e^sharp + N - 1)``.

    The best key's logit stands ``gap`` above the ``N - 1`` others, which are all equal; every logit is
    multiplied by ``logit_factor`` before the softmax, so that the gap becomes ``sharp = logit_factor * gap``.

    Parameters
    ----------
    keys : array_like
        Number of keys ``N`` in the softmax, any shape, each >= 1 (need not be whole, for smooth curves).
    gap : float
        Logit of the best key minus the logit of each other key, >= 0 (logits as they enter the softmax,
        after the ``1/sqrt(d)`` scaling).
    logit_factor : float, default 1.0
        Factor on every logit; YaRN's is :func:`yarn_logit_factor`.

    Returns
    -------
    numpy.ndarray
        Same shape as ``keys``: weights in ``(0, 1]``, 1 for a single key.

    Examples
    --------
    >>> best_key_weight([1, 2, 4], np.log(3.0)).round(4)
    array([1.  , 0.75, 0.5 ])

    """
    crowd, _ = _crowd(keys, gap, logit_factor)
    return 1.0 / (1.0 + crowd)


def attention_entropy(keys: object, gap: float, logit_factor: float = 1.0) -> np.ndarray:
    """Entropy ``-sum_n A_n ln A_n`` of the attention weights: one best key, ``N - 1`` equal ones.

    In closed form ``ln(1 + crowd) + sharp * crowd / (1 + crowd)`` with ``crowd = (N - 1) e^(-sharp)`` and
    ``sharp = logit_factor * gap``: ``ln N`` at ``gap = 0``, 0 for a single key, falling as ``sharp`` grows
    and rising with ``N``.

    Parameters
    ----------
    keys, gap, logit_factor
        As in :func:`best_key_weight`.

    Returns
    -------
    numpy.ndarray
        Same shape as ``keys``: entropies in nats, between 0 and ``ln N``.

    Examples
    --------
    >>> attention_entropy([1, 4], 0.0).round(4)
    array([0.    , 1.3863])

    """
    crowd, sharpened = _crowd(keys, gap, logit_factor)
    return np.log1p(crowd) + sharpened * crowd / (1.0 + crowd)


def restoring_factor(keys: object, trained_keys: float, gap: float) -> np.ndarray:
    """Return the logit factor that keeps the best key's weight from ``L`` to ``N`` keys: ``1 + ln(...)/gap``.

    In full ``1 + ln((N - 1) / (L - 1)) / gap``: the gap must grow by ``ln((N - 1) / (L - 1))``, since the
    same weight at ``N`` keys with ``sharp`` as at ``L`` keys with ``gap`` means
    ``(N - 1) e^(-sharp) = (L - 1) e^(-gap)``.

    Parameters
    ----------
    keys : array_like
        Number of keys ``N``, each >= 2.
    trained_keys : float
        Number of keys ``L`` whose weight is to be kept, >= 2 (the training length, for the last query).
    gap : float
        The best key's logit gap, > 0.

    Returns
    -------
    numpy.ndarray
        Same shape as ``keys``: the factor (below 1 for ``N < L``).

    Examples
    --------
    >>> float(restoring_factor(4 * 4095 + 1, 4096, np.log(4.0)))
    2.0

    """
    keys = _keys(keys)
    if np.any(keys < 2):
        raise ValueError("keys must be >= 2: a single key always has all the weight")
    trained_keys = check_number(trained_keys, "trained_keys", minimum=2.0)
    gap = check_number(gap, "gap", minimum=0.0, inclusive=False)
    return 1.0 + np.log((keys - 1.0) / (trained_keys - 1.0)) / gap


def balanced_gap(factor: float, trained_keys: float) -> float:
    """Return the gap that YaRN's factor restores exactly: ``ln((sL - 1)/(L - 1)) / ((0.1 ln s + 1)^2 - 1)``.

    For gaps above it YaRN's :func:`yarn_logit_factor` gives the best key at ``s L`` keys more weight than it
    had at ``L``; below it, less.

    Parameters
    ----------
    factor : float
        Scale factor ``s``, > 1.
    trained_keys : float
        Training length ``L`` in keys, >= 2.

    Returns
    -------
    float

    Examples
    --------
    >>> round(balanced_gap(16.0, 4096), 3)
    4.392

    """
    factor = check_number(factor, "factor", minimum=1.0, inclusive=False)
    trained_keys = check_number(trained_keys, "trained_keys", minimum=2.0)
    growth = np.log((factor * trained_keys - 1.0) / (trained_keys - 1.0))
    return float(growth / (yarn_logit_factor(factor) - 1.0))
