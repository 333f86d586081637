"""The course's self-check questions: each built by a function that computes its answer with ``rope_viz``.

Every answer comes from the math modules when the question is built (on the site: when the book is built),
so a changed formula changes the answer. A choice question computes, for every choice, whether its claim
holds (code snippets are run, and compared with :func:`rope_viz.rotate` or judged by :func:`rope_viz.check`),
and refuses to build unless exactly one does. The formula each answer rests on is named in its function's
docstring; the ``rope_viz`` functions it calls cite their sources.

:data:`CHAPTERS` lists the questions of each chapter's "Check yourself" section, :data:`INTERVIEW` those of
the interview page, which shows each with the ``{rope-viz-question}`` directive of
:mod:`rope_viz.site.sphinx_ext`; :func:`build` makes one by name.
"""

from __future__ import annotations

import math

import numpy as np

import rope_viz as rv
from rope_viz import attention, axial, broken_rope, mrope, permutation, position_schemes, precision
from rope_viz.checker import CheckReport
from rope_viz.extension import angles as extension_angles
from rope_viz.long_range import local_maxima, score_statistics
from rope_viz.questions import ChoiceQuestion, Link, NumericQuestion, Question, format_number
from rope_viz.scaling import RopeScaling, longrope
from rope_viz.shift_invariance import diagonal_spread

__all__ = ["CHAPTERS", "INTERVIEW", "build", "chapter_questions", "interview_questions"]

_PAGES = {
    1: "notebooks/01_why_position",
    2: "notebooks/02_rotation_2d",
    3: "notebooks/03_multi_speed_clocks",
    4: "notebooks/04_shift_invariance",
    5: "notebooks/05_long_range_decay",
    6: "notebooks/06_beyond_training_length",
    7: "notebooks/07_extension_methods_compared",
    8: "notebooks/08_which_pairs_and_layers",
    9: "notebooks/09_rope_beyond_text",
    10: "notebooks/10_rope_in_code",
}


#: Relative tolerance of a numeric answer that a reader may round to three significant figures (1.30 for
#: 1.2965): the largest rounding error of three figures is 0.5 in the third, 0.5 % at worst.
_THREE_FIGURES = 0.005


def _link(chapter: int, anchor: str, text: str) -> Link:
    return Link(_PAGES[chapter], f"chapter {chapter}, {text}", anchor)


def _choice(
    prompt: str,
    options: list[tuple[str, bool]],
    *,
    explanation: str,
    link: Link,
    code: bool = False,
) -> ChoiceQuestion:
    """Make a choice question from ``(text, holds)`` pairs; exactly one claim must hold."""
    right = [index for index, (_, holds) in enumerate(options) if holds]
    if len(right) != 1:
        raise RuntimeError(f"{prompt!r}: expected exactly one choice that holds, found {right}")
    choices = [text for text, _ in options]
    return ChoiceQuestion(prompt, choices, right[0], explanation=explanation, link=link, code=code)


# Chapter 1 --------------------------------------------------------------------------------------------------


def shuffled_tokens() -> Question:
    """Ask what shuffling does to attention without position: ``Attn(ΠX) = Π Attn(X)``, on the toy head."""
    head = attention.ToyHead(dim=8, seed=0)
    x = head.embed("the dog bit the man".split())
    order = np.array([3, 0, 4, 1, 2])
    out, _ = attention.self_attention(x, *head.weights)
    shuffled, _ = attention.self_attention(x[order], *head.weights)
    same_numbers = np.allclose(np.sort(shuffled, axis=None), np.sort(out, axis=None))
    return _choice(
        "A self-attention head without position information and without a mask reads a sentence, then the "
        "same words shuffled. What happens to its outputs?",
        [
            ("Every output stays in its row: attention ignores the order.", np.allclose(shuffled, out)),
            ("Every output changes, because the softmax sees the keys in another order.", not same_numbers),
            (
                "Each token keeps its own output vector, which moves with it.",
                np.allclose(shuffled, out[order]),
            ),
            ("Only the first and the last outputs change.", False),
        ],
        explanation="The logits, the softmax and the weighted sum treat the keys as a set, so shuffling the "
        "rows of X shuffles the rows of the output the same way: Attn(ΠX) = Π Attn(X). The layer is "
        "permutation-equivariant, not invariant: the rows do move.",
        link=_link(1, "shuffle-the-tokens-and-the-outputs-shuffle-the-same-way", "shuffling the tokens"),
    )


def shift_invariant_schemes() -> Question:
    """Ask which schemes keep every logit when the sentence moves: ``max |S_{m+t} - S_m| = 0``."""
    head = attention.ToyHead(dim=8, seed=0)
    x = head.embed("the dog bit the man".split())
    w_q, w_k, _ = head.weights
    schemes = position_schemes.all_schemes(dim=8, max_positions=32)
    kept = {
        scheme.name
        for scheme in schemes
        if max(attention.shift_change(x, w_q, w_k, scheme, shift) for shift in (1, 7, 20)) < 1e-9
    } - {"no position"}
    every = {scheme.name for scheme in schemes} - {"no position"}
    return _choice(
        "Shift a whole sentence by t positions. Under which schemes does every logit stay exactly the same?",
        [
            ("T5, ALiBi and RoPE", kept == {"T5 relative bias", "ALiBi", "RoPE"}),
            ("RoPE only", kept == {"RoPE"}),
            ("learned and sinusoidal", kept == {"learned absolute", "sinusoidal absolute"}),
            ("all five", kept == every),
        ],
        explanation="T5's bias and ALiBi's penalty depend on m − n only, and RoPE's two rotations meet in "
        "the dot product as one rotation by the offset; moving the sentence keeps every offset. Learned and "
        "sinusoidal vectors are added to the tokens: each token gets another vector, and the logits change.",
        link=_link(1, "what-each-scheme-guarantees-measured", "what each scheme guarantees"),
    )


def learned_table_parameters() -> Question:
    """Ask for the trainable numbers of a learned absolute table: ``L d``."""
    positions, dim = 512, 768  # BERT-base
    count = position_schemes.LearnedAbsolute().parameter_count(max_positions=positions, dim=dim, heads=12)
    return NumericQuestion(
        "How many trainable numbers does a learned absolute position table add to a BERT-base-sized model "
        f"(L = {positions} positions, d = {dim})?",
        count,
        relative_tolerance=0.0,
        explanation=f"One vector of d numbers per position: {positions} · {dim} = {format_number(count)}. "
        "RoPE, ALiBi and the sinusoidal table add none, T5's bias one number per bucket and head.",
        link=_link(1, "what-each-scheme-guarantees-measured", "what each scheme guarantees"),
    )


# Chapter 2 --------------------------------------------------------------------------------------------------


def one_pair_score() -> Question:
    """Ask for the score of one pair: ``Re[q conj(k) e^{i (m - n) theta}]``."""
    score = rv.score([1.0, 0.0], [1.0, 0.0], 7, 3, inv_freq=[0.5])
    return NumericQuestion(
        "One pair with θ = 0.5 radian per token: q = (1, 0) at m = 7 and k = (1, 0) at n = 3. What is their "
        "RoPE score?",
        score,
        relative_tolerance=0.0,
        absolute_tolerance=0.005,
        explanation="Only the offset counts: the score is |q| |k| cos((m − n)θ) = cos(4 · 0.5) = cos 2 = "
        f"{format_number(score)}.",
        link=_link(2, "the-derivation-one-step-at-a-time", "the derivation"),
    )


def rotation_keeps_length() -> Question:
    """Ask for the length of a turned vector: ``|R(m theta) q| = |q|``."""
    length = float(np.linalg.norm(rv.rotate([3.0, 4.0], 7, inv_freq=[0.5])))
    return NumericQuestion(
        "RoPE turns q = (3, 4) at position m = 7 with θ = 0.5. What is the length of the turned vector?",
        length,
        relative_tolerance=1e-3,
        explanation="A rotation changes the direction, never the length: |R(mθ) q| = |q| = √(3² + 4²) = "
        f"{format_number(length)}. Position lives in the direction of q and k.",
        link=_link(2, "what-a-rotation-preserves", "what a rotation preserves"),
    )


def mixed_signs() -> Question:
    """Ask what a query turned by ``+m theta`` and a key by ``-n theta`` score: ``q^T R(-(m+n) theta) k``."""
    q, k = np.random.default_rng(1).standard_normal((2, 8))

    def mixed(m: float, n: float) -> float:
        return float(rv.rotate(q, m) @ rv.rotate(k, -n))

    follows_offset = np.isclose(mixed(7, 3), mixed(107, 103))
    follows_sum = np.isclose(mixed(7, 3), mixed(5, 5)) and not follows_offset
    return _choice(
        "The query is turned by +mθ, but a cached-key path turns the key by −nθ. The score then depends on "
        "the positions through:",
        [
            ("m − n, as before", follows_offset),
            ("m + n", follows_sum),
            ("m alone", np.isclose(mixed(7, 3), mixed(7, 30))),
            ("nothing: position is lost", False),
        ],
        explanation="R(mθ)ᵀ R(−nθ) = R(−(m + n)θ): the two angles add instead of cancelling, so the score "
        "depends on m + n and the relative-position property is gone. Turning both vectors by minus their "
        "angles keeps it relative, but mirrors the offset: weights trained with the usual sign would read "
        "every past key as a future one.",
        link=_link(2, "turning-clockwise-without-saying-so", "turning clockwise"),
    )


# Chapter 3 --------------------------------------------------------------------------------------------------


def slowest_wavelength() -> Question:
    """Ask for the wavelength of the slowest pair: ``lambda = 2 pi b^((d - 2)/d)``."""
    dim, base = 128, 10_000.0
    wavelength = rv.wavelengths(dim, base)[-1]
    return NumericQuestion(
        f"How many tokens does the slowest pair of a head with d = {dim} and b = {format_number(base)} take "
        "for one turn?",
        wavelength,
        unit="tokens",
        explanation=f"λ = 2π b^((d−2)/d) = 2π · {base:.0f}^({dim - 2}/{dim}) ≈ {format_number(wavelength)} "
        f"tokens, one factor b^(2/d) = {format_number(base ** (2 / dim))} below 2πb ≈ "
        f"{format_number(2 * np.pi * base)}, because the slowest pair's exponent is (d − 2)/d, not 1.",
        link=_link(3, "a-wavelength-table", "the wavelength table"),
    )


def neighbour_frequency_ratio() -> Question:
    """Ask for the ratio of neighbouring frequencies: ``theta_{i+1} / theta_i = b^(-2/d)``."""
    dim, base = 64, 10_000.0
    frequencies = rv.inv_freq(dim, base)
    ratio = float(frequencies[1] / frequencies[0])
    if not np.allclose(frequencies[1:] / frequencies[:-1], ratio):
        raise RuntimeError("the schedule is not geometric")
    return NumericQuestion(
        f"For d = {dim} and b = {format_number(base)}, what is the ratio θᵢ₊₁ / θᵢ of a pair's frequency to "
        "the frequency of the pair before it?",
        ratio,
        relative_tolerance=1e-3,
        explanation=f"θᵢ = b^(−2i/d), so θᵢ₊₁ / θᵢ = b^(−2/d) = {base:.0f}^(−2/{dim}) = "
        f"{format_number(ratio)} for every pair: the schedule is geometric. A schedule that starts at 1 but "
        "has another ratio is wrong.",
        link=_link(3, "common-mistake-the-exponent-of-the-schedule", "checking a schedule"),
    )


def base_leaves_pair_zero() -> Question:
    """Ask what a larger base changes: pair ``i`` is slowed by ``(b'/b)^(2i/d)``."""
    slowdown = rv.inv_freq(128, 10_000.0) / rv.inv_freq(128, 500_000.0)
    return _choice(
        "The base goes from 10,000 to 500,000 (d = 128), as from Llama 2 to Llama 3. Which frequencies "
        "change?",
        [
            ("Every pair's, all by the same factor", bool(np.allclose(slowdown, slowdown[-1]))),
            ("Every pair's but the slowest pair's", bool(slowdown[-1] == 1.0)),
            ("None: the base only sets the training length", bool(np.all(slowdown == 1.0))),
            (
                "Every pair's but pair 0's, the slowest pairs' most",
                bool(slowdown[0] == 1.0 and np.all(np.diff(slowdown) > 0)),
            ),
        ],
        explanation="θ₀ = b⁰ = 1 whatever the base. Pair i is slowed by (500000/10000)^(2i/d), which grows "
        f"with i, up to {format_number(slowdown[-1])} times for the slowest pair.",
        link=_link(3, "the-clocks-interactively", "the clocks"),
    )


# Chapter 4 --------------------------------------------------------------------------------------------------

#: Four ways of writing "turn x by m theta" for interleaved pairs; the bank runs each one.
_INTERLEAVED_SNIPPETS = (
    "y = np.empty_like(x)\ny[0::2] = x[0::2] * cos - x[1::2] * sin\ny[1::2] = x[0::2] * sin + x[1::2] * cos",
    "y = x * np.concatenate([sin, cos])",
    "y = np.empty_like(x)\ny[0::2] = x[0::2] * cos + x[1::2] * sin\ny[1::2] = x[0::2] * sin + x[1::2] * cos",
    "y = x * np.repeat(cos, 2) + x * np.repeat(sin, 2)",
)

#: ``rotate_half`` written four ways, for ``y = x * cos + rotated * sin`` with cos and sin over both halves.
_ROTATE_HALF_SNIPPETS = (
    "rotated = np.concatenate([x2, -x1])",
    "rotated = np.concatenate([-x1, x2])",
    "rotated = np.concatenate([x2, x1])",
    "rotated = np.concatenate([-x2, x1])",
)
_ROTATE_HALF_CONTEXT = (
    "x1, x2 = x[: d // 2], x[d // 2 :]\n{}\ny = x * np.tile(cos, 2) + rotated * np.tile(sin, 2)"
)


def _turns_like_rope(snippet: str, convention: str) -> bool:
    """Run ``snippet`` (it sets ``y`` from ``x``, ``cos``, ``sin`` and ``d``); compare with ``rv.rotate``."""
    x, position = np.random.default_rng(0).standard_normal(8), 5.0
    angle = position * rv.inv_freq(x.size)  # (d/2,)
    namespace = {"np": np, "x": x, "cos": np.cos(angle), "sin": np.sin(angle), "d": x.size}
    exec(snippet, namespace)  # only the module's own snippets are run
    return bool(np.allclose(namespace["y"], rv.rotate(x, position, convention=convention)))


def which_snippet_rotates() -> Question:
    """Ask which snippet is ``y_a = x_a cos - x_b sin, y_b = x_a sin + x_b cos`` (each one is run)."""
    return _choice(
        "x has interleaved pairs (2i, 2i + 1); cos and sin hold cos(mθᵢ) and sin(mθᵢ), one entry per pair. "
        "Which snippet turns x by mθ?",
        [(snippet, _turns_like_rope(snippet, "interleaved")) for snippet in _INTERLEAVED_SNIPPETS],
        code=True,
        explanation="Pair i must become (x₂ᵢ cos − x₂ᵢ₊₁ sin, x₂ᵢ sin + x₂ᵢ₊₁ cos). The element-wise product "
        "with [sin, cos] never mixes the two members of a pair and changes lengths; the snippet with + in "
        "both lines is not orthogonal (its determinant is cos² − sin²); the last one only scales x.",
        link=_link(
            4,
            "common-mistake-an-element-wise-product-with-sin-cos-is-not-a-rotation",
            "the element-wise product",
        ),
    )


def shifted_score() -> Question:
    """Ask for the score after both positions move: ``score(m + t, n + t) = score(m, n)``."""
    q, k = np.random.default_rng(4).standard_normal((2, 64))
    m, n, shift = 10, 4, 1_000
    before, after = rv.score(q, k, m, n), rv.score(q, k, m + shift, n + shift)  # base 10,000 by default
    if not math.isclose(before, after, rel_tol=1e-9, abs_tol=1e-9):
        raise RuntimeError("the score is not shift-invariant")
    return NumericQuestion(
        f"A RoPE head (d = {q.size}, b = 10,000) scores {format_number(before, 6)} for a query at m = {m} "
        f"and a key at n = {n}. What does it score for the same vectors at m = {format_number(m + shift)} "
        f"and n = {format_number(n + shift)}?",
        after,
        relative_tolerance=1e-3,
        absolute_tolerance=1e-3,
        explanation=f"The offset is {m - n} in both cases, and the RoPE score depends on the positions only "
        f"through m − n: {format_number(after, 6)} again.",
        link=_link(4, "the-equation", "the equation"),
    )


def score_grid_diagonals() -> Question:
    """Ask along which lines a RoPE score grid is constant: ``S[m, n] = f(m - n)`` is a Toeplitz matrix."""
    q, k = np.random.default_rng(5).standard_normal((2, 16))
    grid = rv.score_matrix(q, k, np.arange(12), np.arange(12))
    return _choice(
        "The grid of RoPE scores S[m, n] of one query and one key over positions 0 to 11 is constant along:",
        [
            ("each row", bool(np.allclose(grid, grid[:, :1]))),
            ("each column", bool(np.allclose(grid, grid[:1, :]))),
            ("each diagonal, where m − n is fixed", bool(diagonal_spread(grid).max() < 1e-9)),
            ("each anti-diagonal, where m + n is fixed", bool(diagonal_spread(grid[:, ::-1]).max() < 1e-9)),
        ],
        explanation="The score depends on m − n only, so every cell of a diagonal has the same value: the "
        "grid is a Toeplitz matrix. Checking that is a quick test of an implementation.",
        link=_link(4, "the-score-grid-is-a-toeplitz-matrix", "the Toeplitz grid"),
    )


# Chapter 5 --------------------------------------------------------------------------------------------------


def bound_is_not_monotone() -> Question:
    """Ask how RoFormer's bound ``B(r) = mean_j |S_j(r)|`` behaves: it falls, with many local maxima."""
    bound = rv.decay_bound(np.arange(0, 2_001), 128, 10_000.0)
    peaks = len(local_maxima(bound))
    return _choice(
        "RoFormer's bound B(r) on the size of the score (d = 128, b = 10,000), from r = 0 to 2,000 tokens:",
        [
            ("falls at every step", bool(np.all(np.diff(bound) < 0))),
            ("stays flat", bool(np.ptp(bound) == 0)),
            ("grows with the distance", bool(bound[-1] > bound[0])),
            ("falls overall, but rises again many times", bool(bound[-1] < bound[0] and peaks > 10)),
        ],
        explanation=f"Between r = 0 and 2,000 the bound has {peaks} local maxima: it shrinks overall, as "
        "the fast part of the walk of unit arrows curls up, but it is not monotone, and it lies far above "
        "the scores of typical queries and keys.",
        link=_link(5, "it-is-not-monotone", "the bound is not monotone"),
    )


def independent_score_spread() -> Question:
    """Ask for the spread of the score of independent standard normal ``q, k``: ``sqrt(d)``."""
    mean, spread = score_statistics([0.0, 500.0], 64, 10_000.0, correlation=0.0)
    if not (np.allclose(mean, 0.0) and np.allclose(spread, spread[0])):
        raise RuntimeError("independent vectors should score 0 on average, with one spread at every distance")
    return NumericQuestion(
        "q and k are independent, with standard normal entries, d = 64. What is the standard deviation of "
        "their RoPE score, at any distance?",
        float(spread[0]),
        relative_tolerance=0.01,
        explanation="A rotation does not change the distribution of a standard normal vector, so at every "
        "distance the score is a sum of d products of independent entries: mean 0, variance d, standard "
        f"deviation √64 = {format_number(spread[0])}. Nothing decays for unrelated vectors.",
        link=_link(5, "what-scores-of-random-queries-and-keys-do", "scores of random vectors"),
    )


def mean_self_score() -> Question:
    """Ask for the mean score of a key equal to its query: ``E[score(r)] = 2 sum_i cos(r theta_i)``."""
    dim, distance = 64, 100
    value = float(rv.expected_self_score([float(distance)], dim, 10_000.0)[0])
    return NumericQuestion(
        f"A key equal to its query (standard normal entries, d = {dim}, b = 10,000) has a mean score of "
        f"{format_number(rv.expected_self_score([0.0], dim, 10_000.0)[0])} at distance 0. What is its mean "
        f"score at distance {distance}?",
        value,
        relative_tolerance=0.01,
        explanation="E[score(r)] = 2 Σᵢ cos(rθᵢ): every pair adds 2 cos(rθᵢ), and the fast pairs fall out of "
        f"step with the slow ones. At r = {distance} the sum is {format_number(value)}.",
        link=_link(5, "what-scores-of-random-queries-and-keys-do", "scores of random vectors"),
    )


# Chapter 6 --------------------------------------------------------------------------------------------------


def ntk_base_for_scale_four() -> Question:
    """Ask for the NTK-aware base ``b' = b s^(d/(d-2))`` at ``s = 4``."""
    old_base, scale, dim = 10_000.0, 4.0, 128
    base = rv.scaling.ntk_base(old_base, scale, dim)
    return NumericQuestion(
        f"What is the NTK-aware base for a scale factor s = {scale:g} at d = {dim} and b = "
        f"{format_number(old_base)}?",
        base,
        relative_tolerance=0.005,
        explanation=f"b′ = b s^(d/(d−2)) = {old_base:.0f} · {scale:g}^({dim}/{dim - 2}) ≈ "
        f"{format_number(base)}: the slowest pair is slowed by exactly s, the fastest not at all. Not "
        f"{scale:g} · {format_number(old_base)}: multiplying the base by s slows the slowest pair by less "
        "than s.",
        link=_link(6, "ch06-ntk", "the NTK-aware base change"),
    )


def yarn_logit_factor() -> Question:
    """Ask for YaRN's factor on the logits: ``a^2 = (0.1 ln s + 1)^2`` at ``s = 4``."""
    scale = 4.0
    factor = rv.scaling.yarn_get_mscale(scale)
    return NumericQuestion(
        f"YaRN with s = {scale:g}: by what factor are the attention logits multiplied?",
        factor**2,
        relative_tolerance=_THREE_FIGURES,
        explanation=f"a = 0.1 ln {scale:g} + 1 = {format_number(factor)} multiplies cos and sin, so the "
        "rotated query and the rotated key both carry it and the logits grow by a² = "
        f"{format_number(factor**2)}.",
        link=_link(6, "ch06-yarn-temperature", "why YaRN sharpens the softmax"),
    )


def llama2_first_slow_pair() -> Question:
    """Ask for the first pair that never completes a turn within ``L``: the first ``L theta_i < 2 pi``."""
    dim, base, length = 128, 10_000.0, 4096
    first = extension_angles.first_partial_pair(length, rv.inv_freq(dim, base))
    wavelength = rv.wavelengths(dim, base)[first]
    return NumericQuestion(
        f"Llama 2 (d = {dim}, b = {format_number(base)}, L = {format_number(length)}): what is the index i, "
        "counted from 0 (θ₀ = 1), of the first pair that never completes a turn within the training length?",
        first,
        relative_tolerance=0.0,
        explanation=f"Pair {first} has a wavelength of {format_number(wavelength)} tokens, more than "
        f"{format_number(length)}; "
        "from it on, positions past L reach angles never seen in training.",
        link=_link(6, "ch06-why-it-breaks", "why positions beyond L break"),
    )


# Chapter 7 --------------------------------------------------------------------------------------------------


def llama31_untouched_pairs() -> Question:
    """Ask how many of Llama 3.1's pairs keep their frequency: wavelengths under ``L / high_freq_factor``."""
    llama = rv.presets.load("llama-3.1-8b")
    counts, block = llama.pair_counts(), rv.presets.get("llama-3.1-8b").config["rope_scaling"]
    length, factor = block["original_max_position_embeddings"], block["factor"]
    return NumericQuestion(
        f"Llama 3.1 (d = {llama.dim}, factor {factor:g}, L = {length:,}): how many of its {llama.dim // 2} "
        "pairs does its scaling rule leave untouched?",
        counts["untouched"],
        relative_tolerance=0.0,
        unit="pairs",
        explanation="The pairs with a wavelength under L / high_freq_factor = "
        f"{format_number(length / block['high_freq_factor'])} tokens keep their frequency: "
        f"{counts['untouched']} of them. {counts['blended']} are blended and {counts['interpolated']} slowed "
        f"by the full factor {factor:g}.",
        link=_link(7, "ch07-real-models", "real models"),
    )


def deepseek_rotary_factor() -> Question:
    """Ask for DeepSeek-V3's factor on cos and sin: ``mscale(s, mscale) / mscale(s, mscale_all_dim)``."""
    deepseek = rv.presets.load("deepseek-v3")
    scale = deepseek.parameters.factor
    block = rv.presets.get("deepseek-v3").config["rope_scaling"]
    curve = rv.scaling.yarn_get_mscale(scale)
    factor = deepseek.attention_factor
    return _choice(
        f"DeepSeek-V3's YaRN block has factor {scale:g} and mscale = {block['mscale']:g}, mscale_all_dim = "
        f"{block['mscale_all_dim']:g}. In transformers, what factor multiplies its cos and sin?",
        [
            ("exactly 1", math.isclose(factor, 1.0)),
            (f"0.1 ln {scale:g} + 1", math.isclose(factor, curve)),
            (f"(0.1 ln {scale:g} + 1)²", math.isclose(factor, curve**2)),
            (f"1 / (0.1 ln {scale:g} + 1)", math.isclose(factor, 1.0 / curve)),
        ],
        explanation="transformers takes the ratio get_mscale(s, mscale) / get_mscale(s, mscale_all_dim), "
        "which is 1 when the two are equal. DeepSeek's attention layer puts the temperature into its softmax "
        "scale instead.",
        link=_link(7, "ch07-code-vs-paper", "code versus paper"),
    )


def longrope_factor_meaning() -> Question:
    """Ask what ``factor`` changes in a LongRoPE block: only the factor ``sqrt(1 + ln s / ln L)``.

    As in transformers 5.x (``_compute_longrope_parameters``); in 4.x a top-level
    ``original_max_position_embeddings``, as in Phi-3's configs, replaces ``factor`` by the ratio of the two
    lengths.
    """
    config = rv.presets.get("phi-3.5-mini-instruct").config
    built, tried = [], (16.0, 32.0)
    for factor in tried:
        changed = {**config, "rope_scaling": {**config["rope_scaling"], "factor": factor}}
        built.append([rv.scaling.from_config(changed, seq_len=length) for length in (None, 8_192)])
    same_frequencies = all(np.array_equal(a.inv_freq, b.inv_freq) for a, b in zip(*built, strict=True))
    attention_factors = [scalings[0].attention_factor for scalings in built]
    other_factor = not math.isclose(*attention_factors)
    return _choice(
        "In transformers 5.x, what does `factor` change in a LongRoPE (`longrope`) block?",
        [
            ("how much every pair is slowed", False),
            ("only the attention factor on cos and sin", same_frequencies and other_factor),
            ("how much the slowest pairs are slowed", False),
            ("the frequencies of the long list only", not same_frequencies),
        ],
        explanation="Each pair's slow-down comes from the searched lists short_factor and long_factor; "
        "`factor` only enters the attention factor, √(1 + ln s / ln L) by default. Changing it from "
        f"{tried[0]:g} to {tried[1]:g} leaves every frequency of Phi-3.5-mini as it was and moves the "
        f"attention factor from {format_number(attention_factors[0])} to "
        f"{format_number(attention_factors[1])}. "
        "transformers 4.x differs: there a top-level `original_max_position_embeddings`, as in Phi-3's "
        "configs, replaces `factor` by the ratio of the two lengths, so `factor` changes nothing.",
        link=_link(7, "ch07-real-models", "real models"),
    )


# Chapter 8 --------------------------------------------------------------------------------------------------


def _finite_wavelengths(scaling: RopeScaling) -> np.ndarray:
    """Return the wavelengths of the pairs that rotate (an unrotated pair has wavelength inf)."""
    return scaling.wavelengths[np.isfinite(scaling.wavelengths)]


def gemma4_global_rotating_pairs() -> Question:
    """Ask how many pairs Gemma 4's global heads rotate: proportional RoPE keeps ``i < p d/2`` only."""
    world = rv.presets.load("gemma-4-31b", layer_type="full_attention")
    counts = world.pair_counts()
    pairs, unrotated = world.head_dim // 2, counts.get("unrotated", 0)
    rotating = sum(counts.values()) - unrotated
    config = rv.presets.get("gemma-4-31b").config["text_config"]
    factor = config["rope_parameters"]["full_attention"]["partial_rotary_factor"]
    return NumericQuestion(
        f"Gemma 4 31B's global layers have heads of {world.head_dim} channels ({pairs} pairs), with "
        f"`rope_type` `proportional` and `partial_rotary_factor` = {factor:g}. How many pairs of each head "
        "rotate?",
        rotating,
        relative_tolerance=0.0,
        unit="pairs",
        explanation=f"Proportional RoPE keeps plain RoPE's θᵢ = b^(−2i/d) over the whole head of d = "
        f"{world.head_dim} and switches off every pair from p · d/2 = {factor:g} · {pairs} = {rotating} on: "
        f"the {rotating} fastest pairs rotate, the slowest of them every "
        f"{format_number(round(float(_finite_wavelengths(world).max())))} tokens, and {unrotated} have "
        "frequency 0 and compare content only. Not p · d: that counts channels, two per pair.",
        link=_link(8, "ch08-partial", "partial rotary"),
    )


def llama4_nope_layers() -> Question:
    """Ask how many of Llama 4 Scout's layers have no RoPE: the ``None`` layers of ``no_rope_layers``."""
    layers = rv.presets.load_layers("llama-4-scout")
    nope = [index for index, layer in enumerate(layers) if layer is None]
    config = rv.presets.get("llama-4-scout").config
    chunk = config.get("text_config", config)["attention_chunk_size"]
    return NumericQuestion(
        f"Llama 4 Scout has {len(layers)} decoder layers. In how many of them does attention use no position "
        "encoding at all?",
        len(nope),
        relative_tolerance=0.0,
        unit="layers",
        explanation=f"Every fourth layer ({nope[0]}, {nope[1]}, {nope[2]}, …, {nope[-1]}, counted from 0) is "
        f"a NoPE layer: {len(nope)} of {len(layers)}. They attend over the whole context, while the other "
        f"{len(layers) - len(nope)} rotate and attend within chunks of {format_number(chunk)} tokens. A "
        "causal mask still lets a NoPE layer work out the order of the tokens.",
        link=_link(8, "ch08-layers", "layer by layer"),
    )


def partial_rotary_wavelength_ratio() -> Question:
    """Ask how much slower GPT-NeoX's slowest rotated pair is: ``b^((p h - 2)/(p h)) / b^((p h - 2)/h)``.

    ``h`` is ``head_dim`` and ``p`` is ``partial_rotary_factor``.
    """
    gemma4 = next(layer for layer in rv.presets.load_layers("gemma-4-31b") if layer.head_dim == 512)
    dim, fraction = gemma4.head_dim, gemma4.parameters.partial_rotary_factor
    base = gemma4.parameters.rope_theta
    neox = rv.scaling.from_config({"head_dim": dim, "partial_rotary_factor": fraction, "rope_theta": base})
    block = {"rope_type": "proportional", "partial_rotary_factor": fraction, "rope_theta": base}
    proportional = rv.scaling.from_config({"head_dim": dim, "rope_parameters": block})
    slow_neox = float(_finite_wavelengths(neox).max())
    slow_proportional = float(_finite_wavelengths(proportional).max())
    rotated = neox.rotary_dim
    return NumericQuestion(
        f"A head of head_dim = {dim} channels, b = {format_number(base)} and `partial_rotary_factor` p = "
        f"{fraction:g} (Gemma 4's global head), read the GPT-NeoX way and the proportional way: how many "
        "times longer is the wavelength of the slowest rotated pair in the GPT-NeoX reading?",
        slow_neox / slow_proportional,
        relative_tolerance=0.01,
        explanation=f"GPT-NeoX spreads the whole schedule over the p · head_dim = {rotated} rotated "
        f"channels: λ = 2π b^({rotated - 2}/{rotated}) ≈ {format_number(round(slow_neox))} tokens. "
        f"Proportional RoPE keeps θᵢ = b^(−2i/d) with d = head_dim and stops at pair {rotated // 2 - 1}: "
        f"λ = 2π b^({rotated - 2}/{dim}) ≈ {format_number(round(slow_proportional))} tokens. The ratio is "
        f"{format_number(slow_neox / slow_proportional)}: a loader that reads Gemma 4's config the GPT-NeoX "
        "way gives its global layers very slow positional pairs where the model has only fast ones.",
        link=_link(8, "ch08-partial", "partial rotary"),
    )


def qwen3_base_bound() -> Question:
    """Ask whether Qwen3-8B's base meets Men et al.'s bound (arXiv:2405.14591): ``sum_i cos(r theta_i) >= 0``.

    The bound asks it for every distance ``0 <= r <= L``; the sum is :func:`rope_viz.expected_self_score` / 2.
    """
    qwen = rv.presets.load("qwen3-8b")
    length, base = 32_768, qwen.parameters.rope_theta
    distances = np.arange(0, length + 1, dtype=float)
    total = rv.expected_self_score(distances, qwen.dim, base) / 2  # sum_i cos(r theta_i)
    negative = np.flatnonzero(total < 0)
    lowest = float(total.min())
    large_base = 1e9
    large_base_passes = bool(rv.expected_self_score(distances, qwen.dim, large_base).min() >= 0)
    return _choice(
        f"By the criterion of Men et al. (2024), Σᵢ cos(rθᵢ) ≥ 0 for every distance r up to the context "
        f"length, does Qwen3-8B's base (d = {qwen.dim}, b = {format_number(base)}) suffice for "
        f"{format_number(length)} tokens?",
        [
            (f"Yes: the sum stays at or above 0 up to {format_number(length)}.", negative.size == 0),
            (
                f"No, by a hair: the sum, {format_number(total[0])} at r = 0, dips below 0 by less than 1.",
                bool(-1 < lowest < 0),
            ),
            (
                "No, by far: the sum is negative already before 4,096 tokens.",
                bool(negative.size and negative[0] < 4096),
            ),
            (
                f"No base can: with d = {qwen.dim} the sum turns negative before {format_number(length)} "
                "tokens whatever the base.",
                not large_base_passes,
            ),
        ],
        explanation=f"The sum first turns negative at r = {format_number(int(negative[0]))} and reaches "
        f"{format_number(lowest, 2)} at r = {format_number(int(np.argmin(total)))}: a fail, but a narrow "
        "one. The sum of plain RoPE depends only on b and d, so the criterion can be checked from a config "
        f"alone; a base of {format_number(large_base)} passes easily. Read it as a scale, not a sharp line.",
        link=_link(8, "ch08-base-bound", "how large a base for a context"),
    )


# Chapter 9 --------------------------------------------------------------------------------------------------


def qwen3_vl_last_pair_axis() -> Question:
    """Ask which axis Qwen3-VL's last pair follows: interleaved, ``a(i) = 0`` for ``i >= 3 max(s_h, s_w)``.

    The layout is :func:`rope_viz.mrope.pair_axes` (transformers 5.23, ``Qwen3VLTextRotaryEmbedding``).
    """
    text_config = rv.presets.get("qwen3-vl-8b").config["text_config"]
    block = text_config["rope_scaling"]
    section = tuple(block["mrope_section"])
    dealt = mrope.pair_axes(section, interleaved=block["mrope_interleaved"])
    chunks = mrope.pair_axes(rv.presets.get("qwen2.5-vl-7b").config["rope_scaling"]["mrope_section"])
    dealt_out = 3 * max(section[1], section[2])  # from here on, no height or width pair is left
    slowest = rv.inv_freq(2 * dealt.size, text_config["rope_theta"])[-1]
    return _choice(
        f"Qwen3-VL-8B deals the {dealt.size} pairs of a head out to the axes in turn (`mrope_interleaved`, "
        f"`mrope_section` = {list(section)}). Which position does the last, slowest pair turn with?",
        [
            ("the width, as in Qwen2.5-VL's chunks", bool(dealt[-1] == 2 and chunks[-1] == 2)),
            ("the height", bool(dealt[-1] == 1)),
            (
                "time: once the height and width pairs are dealt out, every later pair follows time",
                bool(dealt[-1] == 0 and np.all(dealt[dealt_out:] == 0)),
            ),
            ("none: the slowest pair does not turn", bool(slowest == 0)),
        ],
        explanation=f"The order is t, h, w, t, h, w, … while height and width pairs remain, "
        f"{section[1]} and {section[2]} of them, so pairs {dealt_out} to {dealt.size - 1} all follow time. "
        "In Qwen2.5-VL's chunks the last pairs are the width's. For text it makes no difference: a text "
        "token's three ids are equal.",
        link=_link(9, "ch09-mrope", "M-RoPE"),
    )


def text_after_image() -> Question:
    """Ask where the text after an image starts: ``s + max(rows, cols)`` (Qwen2-VL, arXiv:2409.12191)."""
    before, image = mrope.Text(5), mrope.Image(4, 6)
    ids = mrope.position_ids([before, image, mrope.Text(2)])  # (3, seq)
    first = before.tokens + image.rows * image.cols  # the index of the first token after the image
    start = int(ids[0, first])
    if not np.all(ids[:, first] == start):
        raise RuntimeError("a text token should have three equal ids")
    return NumericQuestion(
        f"A sequence holds {before.tokens} text tokens (ids 0 to {before.tokens - 1}), an image of "
        f"{image.rows} rows and {image.cols} columns of tokens, then more text. Which M-RoPE position id "
        "does the first text token after the image get?",
        start,
        relative_tolerance=0.0,
        explanation=f"The image's tokens sit at ({before.tokens}, {before.tokens} + row, {before.tokens} + "
        f"column), up to {int(ids[:, before.tokens : first].max())}, and the text resumes one past that, at "
        f"{before.tokens} + max({image.rows}, {image.cols}) = {start}, although it is token {first} of the "
        f"sequence: an image of {image.rows * image.cols} tokens takes only {start - before.tokens} ids.",
        link=_link(9, "ch09-ids", "the position ids"),
    )


def text_after_long_video() -> Question:
    """Ask where transformers 5.23 starts the text after a video: ``s + max(rows, cols)``, not ``max + 1``."""
    before, video = mrope.Text(2), mrope.Video(8, 2, 2)
    segments = [before, video, mrope.Text(1)]
    code = mrope.position_ids(segments, resume="spatial")
    paper = mrope.position_ids(segments, resume="maximum")
    start, paper_start = int(code[0, -1]), int(paper[0, -1])
    last_frame = int(code[0, -2])  # the time id of the video's last token
    return NumericQuestion(
        f"A sequence holds {before.tokens} text tokens, a video of {video.frames} frames of {video.rows} × "
        f"{video.cols} tokens, then one more text token. Which position id does transformers 5.23 give that "
        "last token?",
        start,
        relative_tolerance=0.0,
        explanation=f"The video starts at {before.tokens}, and its time ids run from {before.tokens} to "
        f"{last_frame}. transformers 5.23 resumes after a video as after an image, at its start plus the "
        f"larger of its rows and columns: {before.tokens} + {max(video.rows, video.cols)} = {start}, the "
        f"time id of frame {start - before.tokens} (from 0) of the video. The Qwen2-VL paper, and "
        f"transformers 4.x, resume one past the largest id, at {paper_start}.",
        link=_link(9, "ch09-resume", "after a video"),
    )


def raster_order_neighbour() -> Question:
    """Ask which patch 1-D RoPE in raster order rates closest: ``E[score(r)] = 2 sum_i cos(r theta_i)``."""
    rows = cols = 8
    dim, base = 80, 10_000.0  # Qwen2-VL's vision encoder
    query = (0, cols - 1)
    keys = {
        (1, 0): "row 1, column 0: the first patch of the next row, at the other edge of the image",
        (1, cols - 1): f"row 1, column {cols - 1}: the patch right below it",
        (0, cols - 3): f"row 0, column {cols - 3}: two patches to its left",
        (rows - 1, cols - 1): f"row {rows - 1}, column {cols - 1}: the bottom corner of its column",
    }

    def raster(patch: tuple[int, int]) -> int:
        return patch[0] * cols + patch[1]

    flat = {
        key: float(rv.expected_self_score([raster(query) - raster(key)], dim, base)[0]) / dim for key in keys
    }
    axial_map = axial.expected_axial_patch_self_scores((rows, cols), query, dim, base=base) / dim
    best = max(flat, key=flat.__getitem__)
    return _choice(
        f"The patches of an {rows} × {cols} image are numbered row by row, 0 to {rows * cols - 1}, and "
        f"rotated with 1-D RoPE (d = {dim}, b = {format_number(base)}). With the key equal to the query, "
        f"which key patch scores highest in expectation against the query patch in row 0, column {cols - 1}?",
        [(text, best == key) for key, text in keys.items()],
        explanation=f"Row by row, the query is position {raster(query)} and the first patch of row 1 "
        f"position {raster((1, 0))}: one apart, so it scores {format_number(flat[(1, 0)], 3)} of the peak, "
        f"while the patch right below, {cols} positions away, scores "
        f"{format_number(flat[(1, cols - 1)], 3)}. With 2-D RoPE the order is the picture's: "
        f"{format_number(axial_map[1, cols - 1], 3)} right below, {format_number(axial_map[1, 0], 3)} at the "
        "other edge.",
        link=_link(
            9,
            "common-mistake-reading-an-image-as-one-line-of-positions",
            "reading an image as one line of positions",
        ),
    )


# Chapter 10 -------------------------------------------------------------------------------------------------

#: The base the snippets of :data:`_ANGLE_SNIPPETS` use, written in them as ``10_000.0``.
_ANGLE_BASE = 10_000.0
#: Four ways of forming the angles of :data:`_ANGLE_CONTEXT`; the bank runs ``rv.check`` on each.
_ANGLE_SNIPPETS = (
    f"θ = {_ANGLE_BASE:_} ** (-np.arange(d // 2) / d)\nangle = np.outer(positions, θ)",
    f"θ = {_ANGLE_BASE:_} ** (-np.arange(0, d, 2) / d)\nangle = np.outer(positions, θ)",
    f"θ = {_ANGLE_BASE:_} ** (-np.arange(0, d, 2) / d)\nangle = np.outer(positions.astype(np.float16), θ)",
    f"θ = {_ANGLE_BASE:_} ** (-np.arange(0, d, 2) / d)\n"
    f"angle = np.outer(np.minimum(positions, {broken_rope.CACHE_LENGTH - 1}), θ)",
)
#: The rest of the function: the interleaved pairs ``(2i, 2i + 1)`` as complex numbers, as in Meta's code.
_ANGLE_CONTEXT = (
    "def rope(x, positions):\n"
    "    d = x.shape[-1]\n"
    "    {}\n"
    "    z = (x[:, 0::2] + 1j * x[:, 1::2]) * np.exp(1j * angle)\n"
    "    return np.stack([z.real, z.imag], axis=-1).reshape(x.shape)"
)


def _angle_report(snippet: str) -> CheckReport:
    """Define ``rope`` with ``snippet`` for its angles and check it with :func:`rope_viz.check`."""
    namespace = {"np": np}
    exec(_ANGLE_CONTEXT.format(snippet.replace("\n", "\n    ")), namespace)  # only the module's own snippets
    return rv.check(namespace["rope"])


def which_angles_pass_check() -> Question:
    """Ask which angles make ``z e^{i m theta}`` RoPE (``theta_i = b^(-2i/d)``); ``rv.check`` judges each."""
    reports = [_angle_report(snippet) for snippet in _ANGLE_SNIPPETS]
    found = ["passed" if report.passed else "`" + "`, `".join(report.names) + "`" for report in reports]
    return _choice(
        "`rope(x, positions)` turns the interleaved pairs of x, of shape (seq, d), as complex numbers: "
        "`z = (x[:, 0::2] + 1j * x[:, 1::2]) * np.exp(1j * angle)`. Which lines for `angle` make it pass "
        "`rv.check`?",
        [(snippet, report.passed) for snippet, report in zip(_ANGLE_SNIPPETS, reports, strict=True)],
        code=True,
        explanation="A loses the factor 2 of the exponent: pair i turns b^(i/d) times too fast, the slowest "
        f"almost √b = {format_number(_ANGLE_BASE**0.5)} times ({found[0]}). B is RoPE: θᵢ = b^(−2i/d) and "
        "the positions as given "
        f"({found[1]}). C holds the positions in float16, exact only up to "
        f"{format_number(precision.largest_exact_integer('float16'))} ({found[2]}). D clamps them to a table "
        f"of {format_number(broken_rope.CACHE_LENGTH)} positions, so that distant tokens share one place "
        f"({found[3]}). In brackets: what `rv.check` reports.",
        link=_link(10, "check-your-implementation", "check your implementation"),
    )


def only_query_permuted() -> Question:
    """Ask what permuting only ``W_q`` does at ``m = n``: the rotations cancel, leaving ``(P q)^T k``."""
    n_heads, head_dim, d_model = 2, 8, 12
    rng = np.random.default_rng(1)
    w_q, w_k = rng.standard_normal((2, n_heads * head_dim, d_model))  # Meta's layout, interleaved pairs
    rng.standard_normal(d_model)  # the chapter's single token, drawn before its six: the same layer
    tokens = rng.standard_normal((6, d_model))
    positions = np.array([0, 1, 2, 40, 41, 300])
    w_q_half = permutation.interleaved_to_half_rows(w_q, n_heads)

    def loaded(at: np.ndarray, x: np.ndarray = tokens) -> np.ndarray:
        return permutation.attention_scores(w_q_half, w_k, x, at, n_heads=n_heads, convention="half")

    trained = permutation.attention_scores(w_q, w_k, tokens, positions, n_heads=n_heads)
    scores = loaded(positions)
    same = np.arange(positions.size)
    change_at_equal = float(np.abs(scores - trained)[:, same, same].max())
    near, far = loaded(np.array([9, 4]), tokens[:2]), loaded(np.array([509, 504]), tokens[:2])
    relative = bool(np.allclose(near, far))
    return _choice(
        "Meta's LLaMA weights (interleaved pairs) are loaded into code that rotates with `rotate_half`. The "
        "rows of W_q are permuted in every head, but W_k is left as it is. What becomes of the scores?",
        [
            (
                "At m = n they are Meta's, since both rotations cancel; elsewhere they differ.",
                change_at_equal < 1e-9,
            ),
            (
                "They are wrong already at m = n: the query's channels are in the new order, the key's in "
                "Meta's.",
                change_at_equal > 1e-3,
            ),
            (
                "They are Meta's at every offset: permuting one matrix is enough.",
                bool(np.allclose(scores, trained)),
            ),
            ("They depend on m + n instead of m − n.", not relative),
        ],
        explanation="At m = n both vectors turn by the same angles and the rotation cancels, which leaves "
        "(P q)ᵀ k: the permuted query against the key in Meta's order, so the dot product multiplies "
        "channels that do not belong together. In a small random layer whose scores reach "
        f"{format_number(np.abs(trained).max(), 3)}, those at m = n change by up to "
        f"{format_number(change_at_equal, 3)}. The scores still depend on m − n only, since query and key "
        "turn in the same pairs: nothing in their structure gives the mistake away. Both W_q and W_k must "
        "be permuted.",
        link=_link(10, "the-score-against-the-offset-interactively", "the score against the offset"),
    )


def float16_exact_positions() -> Question:
    """Ask up to which whole number float16 holds every position: ``2^nu``, ``nu = 11`` significant bits."""
    limit, bits = precision.largest_exact_integer("float16"), precision.significant_bits("float16")
    next_held = int(precision.round_to_format([limit + 1], "float16")[0])
    if next_held == limit + 1:
        raise RuntimeError("float16 should not hold 2^11 + 1")
    first_bfloat16_miss = precision.largest_exact_integer("bfloat16") + 1
    return NumericQuestion(
        "Code holds positions in float16 (`torch.arange(seq, dtype=torch.float16)`). Up to which position "
        "is every whole position held exactly?",
        limit,
        relative_tolerance=0.0,
        explanation=f"float16 has {bits} significant bits, so it holds every whole number up to 2^{bits} = "
        f"{format_number(limit)}. {format_number(limit + 1)} lies halfway between {format_number(limit)} and "
        f"{format_number(limit + 2)} and rounds to the even one, {format_number(next_held)}: from there on "
        f"neighbouring tokens share an angle, and from {format_number(2 * limit)} on the positions snap to "
        f"multiples of 4. bfloat16 fails from {format_number(first_bfloat16_miss)} on already.",
        link=_link(10, "precision", "precision"),
    )


def cached_key_rotated_again() -> Question:
    """Ask where a cached key acts when rotated a second time: ``R(n theta) R(n theta) = R(2 n theta)``."""
    key = np.random.default_rng(7).standard_normal(64)
    position = 5
    twice = rv.rotate(rv.rotate(key, position), position)
    acting = next(m for m in range(4 * position) if np.allclose(rv.rotate(key, m), twice))
    return NumericQuestion(
        "A cache holds keys after their rotation. A bug rotates every key it reads from the cache once more, "
        "by the key's own position (the cache itself stays as it is). At which position does the key of the "
        f"token at position {position} then act in the scores?",
        acting,
        relative_tolerance=0.0,
        explanation=f"Two turns by nθᵢ make one by 2nθᵢ, R(nθ) R(nθ) = R(2nθ): the key acts at 2n = {acting} "
        "for every query, and only the key at position 0 is spared. A cached key is rotated once, at its "
        "own position.",
        link=_link(10, "the-kv-cache", "the KV cache"),
    )


# The interview page -----------------------------------------------------------------------------------------


def rotated_vectors() -> Question:
    """Ask which vectors RoPE rotates: queries and keys; the output is ``A V`` with unrotated values."""
    x = np.random.default_rng(8).standard_normal((5, 8))
    w_q, w_k, w_v = attention.ToyHead(dim=8, seed=1).weights
    out, weights = attention.self_attention(x, w_q, w_k, w_v, scheme=position_schemes.Rotary())
    return _choice(
        "Which vectors does RoPE rotate, and where?",
        [
            ("The token embeddings, once, before the first layer", False),
            (
                "Queries and keys, in every attention layer, after their projections",
                bool(np.allclose(out, weights @ (x @ w_v.T))),
            ),
            ("Queries, keys and values, in every attention layer", False),
            ("The attention output, before the residual connection", False),
        ],
        explanation="RoPE turns each query and key by its position after W_q and W_k, before their dot "
        "product, in every layer. The values are not rotated (the output is the attention weights times the "
        "unrotated values) and nothing is added to the residual stream.",
        link=_link(4, "rope-leaves-the-values-alone", "RoPE leaves the values alone"),
    )


def which_rotate_half() -> Question:
    """Ask which ``rotate_half`` makes ``x cos + rotate_half(x) sin`` the turn by ``+m theta`` (each run)."""
    return _choice(
        "Half pairs (i, i + d/2): x1, x2 = x[:d/2], x[d/2:], and y = x * cos + rotated * sin, with cos and "
        "sin repeated over both halves. Which `rotated` turns every pair by +mθ?",
        [
            (snippet, _turns_like_rope(_ROTATE_HALF_CONTEXT.format(snippet), "half"))
            for snippet in _ROTATE_HALF_SNIPPETS
        ],
        code=True,
        explanation="Coordinate i must get x[i] cos − x[i + d/2] sin, and coordinate i + d/2 must get "
        "x[i + d/2] cos + x[i] sin, so rotate_half(x) = (−x2, x1). (x2, −x1) turns every pair the other way.",
        link=_link(10, "the-shortest-correct-implementation", "the shortest correct implementation"),
    )


def half_pairs_without_permuting() -> Question:
    """Ask what half pairs do to interleaved-trained weights: relative scores, but not the trained ones."""
    q, k = np.random.default_rng(3).standard_normal((2, 8))
    trained = rv.score(q, k, 9, 4)
    loaded = [rv.score(q, k, 9 + shift, 4 + shift, convention="half") for shift in (0, 50)]
    relative, same = bool(np.isclose(*loaded)), bool(np.isclose(loaded[0], trained))
    return _choice(
        "Weights trained with interleaved pairs are run by code that rotates half pairs (`rotate_half`), "
        "without permuting the projections. What happens?",
        [
            ("Nothing: the two conventions give the same scores.", relative and same),
            ("Scores still depend on m − n only, but they are not the trained ones.", relative and not same),
            ("Scores depend on m + n instead of m − n.", not relative),
            ("The code fails with a shape error.", False),
        ],
        explanation="Half pairs are a valid RoPE too, so the scores stay relative; but each pair that "
        "`rotate_half` turns holds coordinates of two different trained pairs, which then turn at the wrong "
        "speeds. Converting a checkpoint permutes the rows of W_q and W_k inside every head.",
        link=_link(10, "the-weight-permutation", "the weight permutation"),
    )


def llama3_slowest_wavelength() -> Question:
    """Ask for the slowest wavelength at Llama 3's base: ``2 pi b^((d - 2)/d)``."""
    dim, base, old_base = 128, 500_000.0, 10_000.0
    wavelength = rv.wavelengths(dim, base)[-1]
    return NumericQuestion(
        f"Llama 3 raised the base to {format_number(base)} (d = {dim}). How many tokens does its slowest "
        "pair take for one turn?",
        wavelength,
        unit="tokens",
        explanation=f"2π · {base:.0f}^({dim - 2}/{dim}) ≈ {format_number(wavelength)} tokens, against "
        f"{format_number(rv.wavelengths(dim, old_base)[-1])} at b = {format_number(old_base)}.",
        link=_link(3, "a-wavelength-table", "the wavelength table"),
    )


def phi2_rotated_channels() -> Question:
    """Ask how many channels GPT-NeoX's ``partial_rotary_factor`` rotates: ``int(p head_dim)``."""
    phi = rv.presets.load("phi-2")
    factor = rv.presets.get("phi-2").config["partial_rotary_factor"]
    return NumericQuestion(
        f"Phi-2 has head_dim = {phi.head_dim} and partial_rotary_factor = {factor:g}, read the GPT-NeoX way. "
        "How many channels of each head are rotated?",
        phi.rotary_dim,
        relative_tolerance=0.0,
        unit="channels",
        explanation=f"The first int(p · head_dim) = int({factor:g} · {phi.head_dim}) = {phi.rotary_dim} "
        f"channels, {phi.rotary_dim // 2} pairs, with the frequency schedule spread over them alone (d = "
        f"{phi.rotary_dim} in θᵢ = b^(−2i/d)); the other "
        f"{phi.head_dim - phi.rotary_dim} pass through unrotated. Proportional RoPE (Gemma 4) reads the same "
        "key differently.",
        link=_link(8, "ch08-partial", "partial rotary"),
    )


def ntk_base_for_scale_eight() -> Question:
    """Ask for the NTK-aware base ``b' = b s^(d/(d-2))`` at ``s = 8``."""
    old_base, scale, dim = 10_000.0, 8.0, 128
    base = rv.scaling.ntk_base(old_base, scale, dim)
    return NumericQuestion(
        f"What base does NTK-aware scaling give a head with d = {dim} and b = {format_number(old_base)} for "
        f"s = {scale:g}?",
        base,
        relative_tolerance=0.005,
        explanation=f"b′ = b s^(d/(d−2)) = {old_base:.0f} · {scale:g}^({dim}/{dim - 2}) ≈ "
        f"{format_number(base)}, a little more than {scale:g} · {format_number(old_base)}, so that the "
        f"slowest pair is slowed by exactly {scale:g}.",
        link=_link(6, "ch06-ntk", "the NTK-aware base change"),
    )


def dynamic_ntk_cached_keys() -> Question:
    """Ask what keys cached under one base score against queries under another: ``q^T R'(m)^T R(n) k``."""
    q, k = np.random.default_rng(6).standard_normal((2, 64))
    old = rv.inv_freq(64, 10_000.0)
    new = rv.inv_freq(64, rv.scaling.ntk_base(10_000.0, 3.0, 64))

    def cached(m: float, n: float) -> float:
        return float(rv.rotate(q, m, inv_freq=new) @ rv.rotate(k, n, inv_freq=old))

    relative = math.isclose(cached(5_000, 4_990), cached(6_000, 5_990), rel_tol=1e-6, abs_tol=1e-6)
    return _choice(
        "With dynamic NTK the base grows once the sequence passes L. Keys cached earlier keep their "
        "rotation; new queries use the new base. Their scores:",
        [
            ("are those of the new base, as if it had been used from the start", relative),
            ("are those of plain RoPE", False),
            ("depend on where the two tokens sit, not only on their offset", not relative),
            ("are unchanged, because a KV cache stores keys before rotating them", False),
        ],
        explanation="The query turns by mθᵢ′ and the cached key by nθᵢ: the rotations no longer cancel into "
        "one by the offset, so the score depends on m and n separately. Caching keys before rotation avoids "
        "the mismatch, at the cost of rotating every cached key again at each step.",
        link=_link(6, "ch06-dynamic", "dynamic NTK"),
    )


def yarn_logits_at_sixteen() -> Question:
    """Ask for YaRN's factor on the logits at ``s = 16``: ``a^2 = (0.1 ln s + 1)^2``, ``a`` on cos and sin."""
    scale = 16.0
    factor = rv.scaling.yarn_get_mscale(scale)
    return NumericQuestion(
        f"YaRN stretches a model by s = {scale:g}. By what factor does it multiply the attention logits?",
        factor**2,
        relative_tolerance=_THREE_FIGURES,
        explanation=f"YaRN's attention factor a = 0.1 ln {scale:g} + 1 = {format_number(factor)} multiplies "
        "cos and sin, so the query and the key both carry it: the logits grow by a² = "
        f"{format_number(factor**2)}. Applying a once, to the logits, is a common mistake.",
        link=_link(6, "ch06-yarn-temperature", "why YaRN sharpens the softmax"),
    )


def static_yarn_short_prompt() -> Question:
    """Ask how many pairs static YaRN changes at every length (``RopeScaling.pair_counts``)."""
    block = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}
    yarn = rv.scaling.from_config({"head_dim": 128, "rope_theta": 10_000.0, "rope_scaling": block})
    counts = yarn.pair_counts()
    changed = counts["blended"] + counts["interpolated"]
    return NumericQuestion(
        f"Llama 2's RoPE (d = {yarn.dim}, b = {format_number(yarn.parameters.rope_theta)}, L = "
        f"{format_number(block['original_max_position_embeddings'])}) with static YaRN, s = "
        f"{format_number(block['factor'])}, reads a 100-token prompt. How many of its {yarn.inv_freq.size} "
        "pairs turn at other speeds than in plain RoPE?",
        changed,
        relative_tolerance=0.0,
        unit="pairs",
        explanation=f"Static YaRN does not look at the length: {counts['blended']} pairs are blended and "
        f"{counts['interpolated']} slowed by {format_number(block['factor'])}, at every length, and the "
        f"logits are multiplied by {format_number(yarn.attention_factor**2)}. A short prompt no longer meets "
        "the model it was trained with, which is why static scaling can cost quality on short inputs.",
        link=_link(6, "ch06-after", "checking short inputs too"),
    )


def longrope_switch_length() -> Question:
    """Ask from which length transformers uses LongRoPE's ``long_factor``: ``seq_len > L``."""
    phi = rv.presets.load("phi-3.5-mini-instruct")
    original = phi.parameters.original_max_position_embeddings
    switch = next(n for n in range(1, 2 * original + 2) if longrope.uses_long_factor(phi.parameters, n))
    return NumericQuestion(
        f"Phi-3.5-mini uses LongRoPE with an original length of {original:,} tokens. From which sequence "
        "length on does transformers rotate with `long_factor` instead of `short_factor`?",
        switch,
        relative_tolerance=0.0,
        unit="tokens",
        explanation="The long list applies once the sequence is longer than "
        f"original_max_position_embeddings: from {format_number(switch)} tokens on. In generation the switch "
        "comes in the middle of a sequence, and the keys cached before it keep the short list's rotation.",
        link=_link(7, "ch07-code-vs-paper", "code versus paper"),
    )


def bfloat16_position() -> Question:
    """Ask where position 257 lands in bfloat16 (8 significant bits: whole numbers exact up to ``2^8``)."""
    limit = precision.largest_exact_integer("bfloat16")
    token = limit + 1
    held = float(precision.round_to_bfloat16([float(token)])[0])
    return NumericQuestion(
        "Code builds the positions with `torch.arange(seq, dtype=torch.bfloat16)`. Which position does "
        f"token {token} get?",
        held,
        relative_tolerance=0.0,
        explanation=f"bfloat16 has {precision.significant_bits('bfloat16')} significant bits, so it holds "
        f"every whole number only up to {format_number(limit)}; {token} rounds to {format_number(held)}, and "
        "from there on neighbouring tokens share positions. Positions belong in integers or float32.",
        link=_link(10, "precision", "precision"),
    )


def left_padding_position() -> Question:
    """Ask for the position of the first generated token after left padding: ``cumsum(mask) - 1``."""
    mask = np.array([0, 0, 1, 1, 1, 1])  # two padding tokens, three real ones, the new token
    position = int(np.cumsum(mask)[-1] - 1)
    counted = ", ".join(str(at) for at in np.flatnonzero(mask)[:-1])  # positions if the padding counted
    real = ", ".join(str(at) for at in range(position - 1)) + f" and {position - 1}"  # the prompt's tokens
    return NumericQuestion(
        f"A prompt of {int(mask[:-1].sum())} tokens is left-padded by {int(mask.size - mask.sum())} "
        f"(attention mask {' '.join(str(bit) for bit in mask[:-1])}), and positions are "
        "`attention_mask.cumsum(-1) - 1`. What position does the first generated token get?",
        position,
        relative_tolerance=0.0,
        explanation=f"The real tokens sit at {real}, and the padding is not counted, so the new token is at "
        f"{position}. Counting the padding instead ({counted}, then {mask.size - 1}) changes no RoPE score, "
        "as long as the cache and the new token are counted the same way.",
        link=_link(10, "left-padding-and-position-ids", "left padding"),
    )


#: The questions of each chapter's "Check yourself" section, by chapter number.
CHAPTERS: dict[int, tuple[str, ...]] = {
    1: ("shuffled_tokens", "shift_invariant_schemes", "learned_table_parameters"),
    2: ("one_pair_score", "rotation_keeps_length", "mixed_signs"),
    3: ("slowest_wavelength", "neighbour_frequency_ratio", "base_leaves_pair_zero"),
    4: ("which_snippet_rotates", "shifted_score", "score_grid_diagonals"),
    5: ("bound_is_not_monotone", "independent_score_spread", "mean_self_score"),
    6: ("ntk_base_for_scale_four", "yarn_logit_factor", "llama2_first_slow_pair"),
    7: ("llama31_untouched_pairs", "deepseek_rotary_factor", "longrope_factor_meaning"),
    8: (
        "gemma4_global_rotating_pairs",
        "llama4_nope_layers",
        "partial_rotary_wavelength_ratio",
        "qwen3_base_bound",
    ),
    9: ("qwen3_vl_last_pair_axis", "text_after_image", "text_after_long_video", "raster_order_neighbour"),
    10: (
        "which_angles_pass_check",
        "only_query_permuted",
        "float16_exact_positions",
        "cached_key_rotated_again",
    ),
}

#: The questions of the interview page, in its order.
INTERVIEW: tuple[str, ...] = (
    "rotated_vectors",
    "which_rotate_half",
    "half_pairs_without_permuting",
    "llama3_slowest_wavelength",
    "phi2_rotated_channels",
    "ntk_base_for_scale_eight",
    "dynamic_ntk_cached_keys",
    "yarn_logits_at_sixteen",
    "static_yarn_short_prompt",
    "longrope_switch_length",
    "bfloat16_position",
    "left_padding_position",
)


def build(name: str) -> Question:
    """Build the question called ``name``, one of :data:`CHAPTERS` or :data:`INTERVIEW`.

    Raises
    ------
    ValueError
        If no question has that name.

    Examples
    --------
    >>> build("slowest_wavelength").answer_text
    '54,410'

    """
    known = sorted({*INTERVIEW, *(item for names in CHAPTERS.values() for item in names)})
    if not isinstance(name, str) or name not in known:
        raise ValueError(f"name must be one of {known}, got {name!r}")
    return globals()[name]()


def chapter_questions(chapter: int) -> tuple[Question, ...]:
    """Build the questions of chapter ``chapter``'s "Check yourself" section."""
    if isinstance(chapter, bool) or chapter not in CHAPTERS:
        raise ValueError(f"chapter must be one of {sorted(CHAPTERS)}, got {chapter!r}")
    return tuple(build(name) for name in CHAPTERS[chapter])


def interview_questions() -> tuple[Question, ...]:
    """Build the questions of the interview page, in its order."""
    return tuple(build(name) for name in INTERVIEW)
