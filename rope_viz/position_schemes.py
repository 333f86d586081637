"""Position schemes other than RoPE, for comparison: sinusoidal absolute embeddings (Vaswani et al. 2017).

More schemes (learned absolute, T5 relative bias, ALiBi) are added beside this one.
"""

from __future__ import annotations

import numpy as np

from rope_viz._validation import check_base, check_dim, check_finite


def sinusoidal_embeddings(positions: object, dim: int, base: float = 10000.0) -> np.ndarray:
    """Sinusoidal absolute position embeddings, added to the token embeddings at the input.

    Implements (Vaswani et al. 2017, section 3.5), for ``i = 0 .. d/2 - 1``::

        PE[m, 2i]     = sin(m / base**(2i/d))
        PE[m, 2i + 1] = cos(m / base**(2i/d))

    The frequencies are RoPE's ``theta_i``; the difference is that these vectors are *added* to the input,
    while RoPE *rotates* the query and key.

    Parameters
    ----------
    positions : array_like
        Shape ``(seq,)``; finite, may be fractional.
    dim : int
        Model width ``d``; even, >= 2.
    base : float, default 10000.0
        Frequency base; finite, > 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(seq, dim)``.
    """
    dim = check_dim(dim)
    base = check_base(base)
    positions = check_finite(positions, "positions")
    if positions.ndim != 1:
        raise ValueError(f"positions must have shape (seq,), got shape {positions.shape}")
    theta = base ** -(np.arange(0, dim, 2, dtype=np.float64) / dim)  # (d/2,)
    angle = np.multiply.outer(positions, theta)  # (seq, d/2)
    embeddings = np.empty((positions.size, dim))
    embeddings[:, 0::2] = np.sin(angle)
    embeddings[:, 1::2] = np.cos(angle)
    return embeddings
