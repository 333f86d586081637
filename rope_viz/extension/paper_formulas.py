"""Two rules as the YaRN paper writes them, where the code that models run computes something else.

* YaRN's ramp between kept and interpolated pairs: the paper's is linear in the turns ``rho`` a pair makes
  over ``L`` (Peng et al. 2023, arXiv:2309.00071, sec. 3.2, eq. (18)); the authors' reference code
  (jquesnelle/yarn), which Hugging Face transformers and vLLM copy, ramps linearly in the pair index
  (:func:`rope_viz.scaling.yarn_ramp`). :func:`yarn_paper_ramp` and :func:`yarn_paper_frequencies` evaluate
  the paper's.
* Dynamic scaling: the paper writes ``s = max(1, l / L)`` (sec. 3.3); the code that came first uses
  ``factor * l / L - (factor - 1)`` (:func:`rope_viz.scaling.dynamic_scale`). :func:`dynamic_paper_scale`
  evaluates the paper's.
"""

from __future__ import annotations

import numpy as np

from rope_viz.extension.angles import turns
from rope_viz.scaling import yarn_get_mscale
from rope_viz.scaling.parameters import RopeParameters, check_positive_int


def yarn_paper_ramp(parameters: RopeParameters) -> np.ndarray:
    """Weight of the interpolated frequency per pair, with the ramp of the YaRN paper (linear in turns).

    Implements ``1 - gamma(rho_i)`` with ``rho_i = L / lambda_i`` the turns pair ``i`` makes over
    ``L = original_max_position_embeddings`` and (Peng et al. 2023, arXiv:2309.00071, sec. 3.2, eq. (18),
    where ``rho`` is written ``r``, with ``alpha = beta_slow`` and ``beta = beta_fast``)::

        gamma(rho) = 0                                   if rho < alpha
                   = 1                                   if rho > beta
                   = (rho - alpha) / (beta - alpha)      otherwise.

    The authors' reference code (jquesnelle/yarn), with which the released YaRN models were fine-tuned and
    which transformers and vLLM copy, ramps linearly in the pair index instead, with edges rounded outward
    (:func:`rope_viz.scaling.yarn_ramp`). ``beta_fast == beta_slow`` gives a step at ``rho = beta_slow``.

    Parameters
    ----------
    parameters : RopeParameters
        Uses ``rope_theta``, ``dim``, ``original_max_position_embeddings``, ``beta_fast`` (default 32) and
        ``beta_slow`` (default 1).

    Returns
    -------
    numpy.ndarray
        Shape ``(dim // 2,)``, in ``[0, 1]``: 0 keeps the pair's frequency, 1 divides it by ``s``.

    """
    length = _original_length(parameters)
    alpha, beta = parameters.resolved_beta_slow, parameters.resolved_beta_fast
    theta = parameters.rope_theta ** -(np.arange(0, parameters.dim, 2, dtype=np.float64) / parameters.dim)
    rho = turns(length, theta)  # (d/2,)
    if beta == alpha:
        gamma = (rho > alpha).astype(np.float64)
    else:
        gamma = np.clip((rho - alpha) / (beta - alpha), 0.0, 1.0)
    return 1.0 - gamma


def yarn_paper_frequencies(
    parameters: RopeParameters, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """YaRN as the paper writes it: NTK-by-parts with a ramp linear in turns, and ``0.1 ln s + 1``.

    Implements ``theta_i' = (1 - gamma_i) theta_i / s + gamma_i theta_i`` (Peng et al. 2023,
    arXiv:2309.00071, sec. 3.2, eq. (20)) with ``gamma_i`` from :func:`yarn_paper_ramp` (eq. (18)), and the
    factor on cos and sin ``sqrt(1/t) = 0.1 ln s + 1`` (sec. 3.4, eq. (22)), ignoring DeepSeek's ``mscale``
    keys and ``attention_factor``. The YaRN models its authors released were trained with the reference
    code's ramp instead, :func:`rope_viz.scaling.yarn_frequencies`.
    Same signature as the methods of :data:`rope_viz.scaling.METHODS`.

    Parameters
    ----------
    parameters : RopeParameters
        As :func:`yarn_paper_ramp`, plus ``factor`` (``s``; ``None``: ``max_position_embeddings /
        original_max_position_embeddings``).
    seq_len : int, optional
        Unused.

    Returns
    -------
    inv_freq : numpy.ndarray
        Shape ``(dim // 2,)``.
    attention_factor : float

    """
    factor = parameters.scaling_factor
    theta = parameters.rope_theta ** -(np.arange(0, parameters.dim, 2, dtype=np.float64) / parameters.dim)
    weight = yarn_paper_ramp(parameters)
    return weight * theta / factor + (1.0 - weight) * theta, yarn_get_mscale(factor)


def _original_length(parameters: RopeParameters) -> int:
    length = parameters.original_max_position_embeddings or parameters.max_position_embeddings
    if length is None:
        raise ValueError("original_max_position_embeddings (the training length L) is required")
    return length


def dynamic_paper_scale(seq_len: int, trained_length: int) -> float:
    """Scale of dynamic NTK scaling in the YaRN paper: ``s = max(1, l / L)``.

    ``l`` is the current sequence length and ``L`` the training length (Peng et al. 2023, arXiv:2309.00071,
    sec. 3.3). The dynamic-scaling code that came first, in the YaRN authors' repository (jquesnelle/yarn,
    ``scaled_rope/LlamaDynamicScaledRotaryEmbedding.py``, its ``ntk`` argument) and in transformers
    (:func:`rope_viz.scaling.dynamic_scale`), uses ``factor * l / L - (factor - 1)``, which equals this only
    for ``factor = 1``.

    Parameters
    ----------
    seq_len : int
        Current sequence length ``l``; positive.
    trained_length : int
        Training length ``L``; positive.

    Returns
    -------
    float

    Examples
    --------
    >>> dynamic_paper_scale(8192, 4096), dynamic_paper_scale(1000, 4096)
    (2.0, 1.0)

    """
    seq_len = check_positive_int(seq_len, "seq_len")
    trained_length = check_positive_int(trained_length, "trained_length")
    return max(1.0, seq_len / trained_length)


__all__ = [
    "dynamic_paper_scale",
    "yarn_paper_frequencies",
    "yarn_paper_ramp",
]
