"""The prose pages of the book: the glossary covers what the pages use, and the interview pitch fits its time.

* Every symbol of every formula on the chapters and book pages is listed in the glossary, and so is every
  config key the pages name.
* The glossary says what ``factor`` does for every ``rope_type`` that ``rope_viz.scaling`` knows.
* The "90-second" pitch of the interview page has 220 to 230 words: ninety seconds at about 150 spoken words a
  minute.
* What the interview page and the glossary state about the code holds for ``rope_viz``: the quarter turn of
  ``rotate_half``, the lost factor 2, YaRN's two ``mscale`` values, which methods a KV cache trips up,
  float16's largest number, the two permutations, what ``factor`` does for YaRN and LongRoPE (and in which
  transformers version), Qwen3-VL's time ids, and the output channels the weight permutation reorders.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import numpy as np
import pytest

import rope_viz as rv
from rope_viz import mistakes, question_bank
from rope_viz.scaling import METHODS, RopeParameters, from_config
from tests.test_reading_in_jupyter import formulas

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
GLOSSARY = BOOK / "glossary.md"
INTERVIEW = BOOK / "interview.md"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
PAGES = [*NOTEBOOKS, *sorted(path for path in BOOK.glob("*.md") if path != GLOSSARY)]

#: Greek letters, as TeX commands: kept as symbols; every other command is an operator or spacing.
GREEK = set(
    (
        "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi rho "
        "varrho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega"
    ).split()
)
#: Text and operator names inside these commands are words, not symbols (``\mathrm{Re}``, ``\text{tokens}``).
WORDS = re.compile(r"\\(?:text|textrm|texttt|mathrm|operatorname|mathtt)\s*\{(?:[^{}]|\{[^{}]*\})*\}")
ENVIRONMENT = re.compile(r"\\(?:begin|end)\s*\{[^{}]*\}")
FONT_LETTER = re.compile(r"\\(mathcal|mathbb)\s*\{\s*([A-Za-z])\s*\}")
COMMAND = re.compile(r"\\([A-Za-z]+)")

#: The config keys a page may name: Hugging Face's RoPE keys, as ``RopeParameters`` fields, and the blocks.
CONFIG_KEYS = {field.name for field in dataclasses.fields(RopeParameters)} - {"dim"} | {
    "rope_scaling",
    "rope_parameters",
}

#: The words a pitch may have: ninety seconds at about 150 words a minute.
PITCH_WORDS = (220, 230)
PITCH_LABEL = "(interview-pitch)="


def symbols(tex: str) -> set[str]:
    """The symbols of one TeX formula: Latin letters, Greek letters and calligraphic or blackboard letters.

    Operator names and text (``\\operatorname{Var}``, ``\\mathrm{score}``, ``\\text{factor}``) are words, not
    symbols; so are environment names. Digits and punctuation are ignored.
    """
    tex = ENVIRONMENT.sub(" ", tex)
    tex = WORDS.sub(" ", tex)
    found = {f"\\{font}{{{letter}}}" for font, letter in FONT_LETTER.findall(tex)}
    tex = FONT_LETTER.sub(" ", tex)
    found |= {f"\\{name}" for name in COMMAND.findall(tex) if name in GREEK}
    tex = COMMAND.sub(" ", tex)
    return found | set(re.findall(r"[A-Za-z]", tex))


def test_symbols_of_a_formula():
    assert symbols(r"\theta_i' = b^{-2i/d}") == {"\\theta", "i", "b", "d"}
    assert symbols(r"\mathbb{E}[\mathrm{score}(r)] = 2c \sum_i \cos(r\theta_i)") == {
        "\\mathbb{E}",
        "r",
        "c",
        "i",
        "\\theta",
    }
    assert symbols(r"\begin{pmatrix} x \\ y \end{pmatrix}, \text{factor}\cdot l/L") == {"x", "y", "l", "L"}
    assert symbols(r"q \sim \mathcal{N}(0, I_d)") == {"q", "\\mathcal{N}", "I", "d"}


def _texts(path: Path) -> list[str]:
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown"]
    return [path.read_text(encoding="utf-8")]


def _code(path: Path) -> list[str]:
    if path.suffix != ".ipynb":
        return []
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


def _glossary_entries() -> dict[str, str]:
    """The glossary's definition list: each term line with the text of its definition."""
    lines = GLOSSARY.read_text(encoding="utf-8").splitlines()
    entries: dict[str, list[str]] = {}
    term = None
    for index, line in enumerate(lines):
        if line.startswith(": ") and index > 0 and lines[index - 1].strip():
            term = lines[index - 1]
            entries[term] = [line[2:]]
        elif term is not None and (line.startswith("  ") or not line.strip()):
            entries[term].append(line.strip())
        else:
            term = None
    return {term: "\n".join(text).strip() for term, text in entries.items()}


def test_the_glossary_is_a_definition_list():
    entries = _glossary_entries()
    assert len(entries) > 40
    assert any("`factor`" in term for term in entries)


def test_every_symbol_on_the_pages_is_in_the_glossary():
    listed = set()
    for term in _glossary_entries():
        for tex, _ in formulas(term):
            listed |= symbols(tex)
    missing = {}
    for path in PAGES:
        for text in _texts(path):
            for tex, _ in formulas(text):
                for symbol in symbols(tex) - listed:
                    missing.setdefault(symbol, set()).add(path.name)
    assert not missing, f"symbols used but not listed in the glossary: {missing}"


def test_every_config_key_the_pages_name_is_in_the_glossary():
    terms = "\n".join(_glossary_entries())
    listed = set(re.findall(r"`([a-z_]+)`", terms))
    used = set()
    for path in PAGES:
        for text in _texts(path):
            used |= set(re.findall(r"`([a-z_]+)`", text)) & CONFIG_KEYS
        for code in _code(path):
            used |= set(re.findall(r"[\"']([a-z_]+)[\"']\s*:", code)) & CONFIG_KEYS
    assert {"factor", "rope_theta", "original_max_position_embeddings"} <= used
    assert used <= listed, f"config keys the pages name but the glossary does not list: {used - listed}"


def test_the_glossary_says_what_factor_does_for_every_method():
    entries = _glossary_entries()
    (definition,) = [text for term, text in entries.items() if "`factor`" in term and "$s$" in term]
    for rope_type in set(METHODS) - {"default"}:
        assert re.search(rf"^- `{rope_type}`", definition, re.MULTILINE), (
            f"the glossary's factor entry has no item for rope_type {rope_type!r}"
        )


def pitch(page: str) -> str:
    """The text of the spoken pitch: the block quote of the section that carries the pitch label."""
    assert page.count(PITCH_LABEL) == 1, f"the interview page must mark its pitch once with {PITCH_LABEL}"
    section = page.split(PITCH_LABEL, 1)[1].lstrip("\n")
    heading, _, body = section.partition("\n")
    assert heading.startswith("## ") and "90-second" in heading, f"the pitch label stands before {heading!r}"
    body = re.split(r"^#{1,6} ", body, maxsplit=1, flags=re.MULTILINE)[0]
    quoted = [line[1:].strip() for line in body.splitlines() if line.startswith(">")]
    assert any(quoted), "the pitch section has no block quote"
    return " ".join(quoted)


def words(text: str) -> int:
    """Spoken words: whitespace-separated tokens with a letter or a digit ("Llama 3.1's" is two)."""
    return sum(1 for token in text.split() if re.search(r"[A-Za-z0-9]", token))


def test_word_count():
    assert words("Attention compares tokens — with dot products, and NTK-aware scaling; 3.1's rule.") == 11


@pytest.mark.parametrize(
    "page",
    [
        "(interview-pitch)=\n## Five lines\n\n> a b c\n",
        "## The 90-second version\n\n> a b c\n",
        "(interview-pitch)=\n## The 90-second version\n\nNo quote.\n\n## Next\n\n> a b c\n",
    ],
)
def test_pitch_refuses_a_page_that_does_not_mark_it(page):
    with pytest.raises(AssertionError):
        pitch(page)


def test_the_ninety_second_pitch_fits_ninety_seconds():
    text = pitch(INTERVIEW.read_text(encoding="utf-8"))
    low, high = PITCH_WORDS
    assert low <= words(text) <= high, f"the pitch has {words(text)} words, not {low} to {high}"


# --- statements of the interview page and the glossary, checked against the code ---------------------------


def _card(page: str, question: str) -> str:
    """The answer of the flashcard whose title starts with ``question``."""
    cards = re.findall(r"^:::\{dropdown\} ([^\n]+)\n(.*?)^:::$", page, re.MULTILINE | re.DOTALL)
    (body,) = [body for title, body in cards if title.startswith(question)]
    return body


def _entry(start: str) -> str:
    """The glossary definition whose term line starts with ``start``."""
    (text,) = [text for term, text in _glossary_entries().items() if term.startswith(start)]
    return text


def _one_line(text: str) -> str:
    return " ".join(text.split())


def test_the_rot_of_the_five_lines_is_rotate_half():
    page = _one_line(INTERVIEW.read_text(encoding="utf-8"))
    assert r"it maps $(x_i, x_{i+d/2})$ to $(-x_{i+d/2}, x_i)$" in page
    d, m = 8, 3
    x = np.random.default_rng(0).standard_normal(d)
    i = np.arange(d // 2)
    rot = np.empty(d)
    rot[i], rot[i + d // 2] = -x[i + d // 2], x[i]  # the page's rot, pair by pair
    angles = np.tile(m * rv.inv_freq(d), 2)
    np.testing.assert_allclose(x * np.cos(angles) + rot * np.sin(angles), rv.rotate(x, m, convention="half"))


def test_the_lost_factor_two_stops_where_the_interview_page_says():
    page = _one_line(INTERVIEW.read_text(encoding="utf-8"))
    assert r"at $b^{-(d-2)/(2d)}$, about $b^{-1/2}$, instead of $b^{-(d-2)/d}$, about $1/b$" in page
    for d, b in [(4, 100.0), (128, 10_000.0)]:
        wrong = mistakes.inv_freq_wrong_exponent(d, b, "lost_two")
        assert np.isclose(wrong[-1], b ** (-(d - 2) / (2 * d)))
        assert np.isclose(rv.inv_freq(d, b)[-1], b ** (-(d - 2) / d))


def test_both_mscales_combine_as_a_ratio_of_temperature_curves():
    page = _one_line(INTERVIEW.read_text(encoding="utf-8"))
    # two formulas, so that a phone's narrow column can break the line between them
    ratio = (
        r"$\mathtt{get\_mscale}(s, \mathtt{mscale})$ over "
        + r"$\mathtt{get\_mscale}(s, \mathtt{mscale\_all\_dim})$"
    )
    assert f"$a$ is {ratio}" in page
    assert r"$\mathtt{get\_mscale}(s, \mu) = 0.1\,\mu\ln s + 1$" in page
    assert "whose ratio then replaces it" not in page
    s, mscale, mscale_all_dim = 40.0, 1.0, 0.707
    block = {"rope_type": "yarn", "factor": s, "original_max_position_embeddings": 4096}
    config = {"head_dim": 64, "rope_theta": 10_000.0, "max_position_embeddings": 163_840}
    block |= {"mscale": mscale, "mscale_all_dim": mscale_all_dim}
    scaling = from_config({**config, "rope_scaling": block})
    curve = rv.scaling.yarn_get_mscale
    assert np.isclose(scaling.attention_factor, curve(s, mscale) / curve(s, mscale_all_dim))
    assert not np.isclose(scaling.attention_factor, mscale / mscale_all_dim)


def test_the_kv_cache_card_names_every_method_whose_frequencies_change_mid_sequence():
    body = _one_line(_card(INTERVIEW.read_text(encoding="utf-8"), "Does RoPE work with a KV cache?"))
    assert "dynamic NTK" in body and "LongRoPE" in body
    assert "Dynamic NTK is the exception" not in body
    config = {"head_dim": 8, "rope_theta": 10_000.0, "max_position_embeddings": 4096}
    blocks = {
        "dynamic": {"rope_type": "dynamic", "factor": 2.0},
        "longrope": {
            "rope_type": "longrope",
            "original_max_position_embeddings": 4096,
            "short_factor": [1.0, 1.0, 1.5, 2.0],
            "long_factor": [1.0, 2.0, 4.0, 8.0],
        },
    }
    for block in blocks.values():
        scaled = {**config, "rope_scaling": block}
        before, after = (from_config(scaled, seq_len=n).inv_freq for n in (4096, 4097))
        assert not np.allclose(before, after), f"{block['rope_type']} keeps its frequencies past L"


def test_the_definition_of_l_names_the_length_dynamic_ntk_reads():
    page = _one_line(INTERVIEW.read_text(encoding="utf-8"))
    section = page.split("## Context-extension methods, cold", 1)[1].split("What each method does", 1)[0]
    assert "except for dynamic NTK, where transformers takes `max_position_embeddings`" in section
    config = {
        "head_dim": 8,
        "rope_theta": 10_000.0,
        "max_position_embeddings": 4096,
        "rope_scaling": {"rope_type": "dynamic", "factor": 2.0},
    }
    plain = rv.inv_freq(8, 10_000.0)
    assert np.allclose(from_config(config, seq_len=4096).inv_freq, plain)
    assert not np.allclose(from_config(config, seq_len=4097).inv_freq, plain)


#: Counts as words, for prose that would spell one out.
NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty"
).split()


def test_the_interview_page_types_no_count_of_its_questions():
    """No count of questions can be glued onto the page, so it states none (``question_bank.INTERVIEW``)."""
    section = INTERVIEW.read_text(encoding="utf-8").split("## Check yourself", 1)[1].split("```", 1)[0]
    prose = re.sub(r"`[^`]*`", "", section).lower()
    count = len(question_bank.INTERVIEW)
    assert not re.search(rf"\b{count}\b", prose)
    if count < len(NUMBER_WORDS):
        assert not re.search(rf"\b{NUMBER_WORDS[count]}\b", prose)


def test_the_glossary_gives_float16s_largest_number_as_the_format_makes_it():
    text = _one_line(_entry("float16, bfloat16, float32"))
    (formula,) = re.findall(r"holds no number above \$\(2 - 2\^\{-(\d+)\}\) \\cdot 2\^\{(\d+)\}\$", text)
    fraction_bits, top_exponent = map(int, formula)
    assert (2 - 2.0**-fraction_bits) * 2.0**top_exponent == float(np.finfo(np.float16).max)
    ieee, kalamkar = "[IEEE, 2019]", "[Kalamkar et al., 2019]"
    sentences = re.split(r"(?<=\.) ", text)
    for sentence in sentences:
        assert not (ieee in sentence and "bfloat16" in sentence), f"IEEE 754 cited for bfloat16: {sentence!r}"
    assert any(kalamkar in sentence and "bfloat16" in sentence for sentence in sentences)


def test_the_glossary_puts_a_new_token_after_the_real_tokens_not_the_cache():
    text = _one_line(_entry("KV cache"))
    assert "a new token's position is the number of real tokens before it" in text
    assert "the length of the cache, less any padding" in text


def test_the_score_entry_scales_by_the_head_not_the_rotated_part():
    text = _one_line(_entry(r"$\mathrm{score}(m, n)$"))
    assert r"usually $1/\sqrt{\text{head\_dim}}$" in text
    assert r"before the $1/\sqrt d$ scaling" not in text


def test_one_permutation_symbol_per_meaning_in_the_glossary():
    entries = _glossary_entries()
    tokens = [term for term in entries if term.startswith(r"$\Pi$")]
    channels = [term for term in entries if term.strip() == "$P$"]
    assert len(tokens) == len(channels) == 1
    assert "rows of $X$" in entries[tokens[0]] and "rv.to_half" not in entries[tokens[0]]
    assert "`rv.to_half`" in entries[channels[0]] and "$X$" not in entries[channels[0]]
    assert "permutation $P$ of `rv.to_half`" in _one_line(_entry("weight permutation"))
    # the glossary's P: interleaved to half pairs, with R^half_m = P R_m P^T
    d, m = 8, 5
    P = np.eye(d)[rv.to_half(np.arange(d)).astype(int)]
    R = np.stack([rv.rotate(e, m) for e in np.eye(d)], axis=1)
    R_half = np.stack([rv.rotate(e, m, convention="half") for e in np.eye(d)], axis=1)
    np.testing.assert_allclose(R_half, P @ R @ P.T, atol=1e-12)


def test_the_glossary_credits_no_order_of_the_axial_halves_to_heo():
    text = _one_line(_entry("2-D RoPE, RoPE-Axial, RoPE-Mixed"))
    assert "turns the first half of the pairs with the row" not in text
    assert "Heo et al.'s code puts the column half first" in text
    assert "RoPE-Mixed learns a row and a column frequency for every pair" in text
    interview = _one_line(INTERVIEW.read_text(encoding="utf-8"))
    assert "RoPE-Mixed learns a row and a column frequency for every pair" in interview


def _method_item(rope_type: str) -> str:
    """The item of the glossary's ``factor`` entry that says what ``rope_type`` does with it."""
    (definition,) = [
        text for term, text in _glossary_entries().items() if "`factor`" in term and "$s$" in term
    ]
    (item,) = re.findall(rf"^- `{rope_type}`:(.*?)(?=^- |^$|\Z)", definition, re.MULTILINE | re.DOTALL)
    return _one_line(item)


def test_longrope_credits_its_attention_factor_to_the_code_and_names_the_version():
    item = _method_item("longrope")
    sentences = re.split(r"(?<=\.) (?=[A-Z])", item)
    formula = r"$a = \sqrt{1 + \ln s / \ln L}$"
    (with_formula,) = [sentence for sentence in sentences if formula in sentence]
    assert "Ding et al." not in with_formula, "the formula is transformers' default, from Phi-3's code"
    assert "`_compute_longrope_parameters` of transformers 5.x" in with_formula
    assert "Phi-3's LongRoPE code" in item and "In transformers 4.x" in item
    # transformers 5.x: `factor` sets a and no frequency; without it, the ratio of the two lengths
    config = rv.presets.get("phi-3.5-mini-instruct").config
    block = config["rope_scaling"]
    assert "factor" not in block
    length = config["original_max_position_embeddings"]  # at the top level, as in Phi-3's configs
    ratio = config["max_position_embeddings"] / length
    plain = from_config(config)
    assert np.isclose(plain.attention_factor, np.sqrt(1 + np.log(ratio) / np.log(length)))
    for s in (16.0, 32.0):
        scaled = from_config({**config, "rope_scaling": {**block, "factor": s}})
        assert np.isclose(scaled.attention_factor, np.sqrt(1 + np.log(s) / np.log(length)))
        np.testing.assert_array_equal(scaled.inv_freq, plain.inv_freq)


def test_the_longrope_flashcards_agree_with_the_glossary():
    page = INTERVIEW.read_text(encoding="utf-8")
    factor_card = _one_line(_card(page, "Is `factor` in a config always the stretch"))
    assert "for `longrope` it only sets the attention factor in transformers 5.x (in 4.x" in factor_card
    switch_card = _one_line(_card(page, "What happens when a LongRoPE model's sequence passes"))
    assert "depends only on the two lengths" not in switch_card
    assert "comes from `factor` (or, without one, from the ratio of the two lengths)" in switch_card
    question = question_bank.build("longrope_factor_meaning")
    assert question.prompt.startswith("In transformers 5.x,") and "4.x" in question.explanation
    # the factor is the same before and after the switch to long_factor
    config = rv.presets.get("phi-3.5-mini-instruct").config
    length = config["original_max_position_embeddings"]
    short, long = (from_config(config, seq_len=n) for n in (length, length + 1))
    assert short.attention_factor == long.attention_factor
    assert not np.allclose(short.inv_freq, long.inv_freq)


def test_yarn_needs_its_factor_and_only_a_null_one_takes_the_ratio():
    item = _method_item("yarn")
    assert "Without `factor`" not in item
    assert "`factor` is a required key: only an explicit `factor: null`" in item
    config = {"head_dim": 64, "rope_theta": 10_000.0, "max_position_embeddings": 16_384}
    block = {"rope_type": "yarn", "original_max_position_embeddings": 4096}
    with pytest.raises(ValueError, match="factor"):
        from_config({**config, "rope_scaling": block})
    null = from_config({**config, "rope_scaling": {**block, "factor": None}})
    four = from_config({**config, "rope_scaling": {**block, "factor": 16_384 / 4096}})
    np.testing.assert_array_equal(null.inv_freq, four.inv_freq)
    assert null.attention_factor == four.attention_factor


def test_the_glossary_gives_qwen3_vl_no_step_of_one_per_frame():
    text = _one_line(_entry("frame of a video"))
    assert "1 in Qwen2-VL and Qwen3-VL" not in text
    assert "Qwen3-VL has no such step" in text
    # Qwen3-VL: each frame a Video(1, rows, cols) after its timestamp as text (rope_viz.mrope.Video)
    rows, cols, between = 3, 5, 4
    ids = rv.mrope.position_ids(
        [
            rv.mrope.Text(between),
            rv.mrope.Video(1, rows, cols),
            rv.mrope.Text(between),
            rv.mrope.Video(1, rows, cols),
        ]
    )
    frame = rows * cols
    first, second = ids[0, between], ids[0, 2 * between + frame]
    assert second - first == max(rows, cols) + between
    assert ids[0, between : between + frame].min() == ids[0, between : between + frame].max() == first


def test_the_weight_permutation_reorders_output_channels():
    glossary = _one_line(_entry("weight permutation"))
    interview = _one_line(INTERVIEW.read_text(encoding="utf-8"))
    assert (
        "output channels of $W_q$ and $W_k$" in glossary and "output channels of $W_q$ and $W_k$" in interview
    )
    assert "The output channels are the rows of $W_q$, PyTorch's weight of shape out × in." in glossary
    # PyTorch's weight is W_q (out x in, q = W_q x): permuting its rows permutes the channels of q, also on
    # the rows of X (X @ W_q.T)
    heads, head_dim, width = 2, 8, 5
    weight = np.random.default_rng(1).standard_normal((heads * head_dim, width))
    x = np.random.default_rng(2).standard_normal(width)
    order = rv.permutation.row_order(heads * head_dim, heads)
    permuted = rv.permutation.interleaved_to_half_rows(weight, heads)
    np.testing.assert_allclose(permuted @ x, (weight @ x)[order])
    np.testing.assert_allclose(x @ permuted.T, (x @ weight.T)[order])
    for head in range(heads):
        channels = slice(head * head_dim, (head + 1) * head_dim)
        np.testing.assert_allclose(permuted[channels] @ x, rv.to_half(weight[channels] @ x))


#: A projection written on the right of a vector (``x_m W_q``, ``(x + p) W_k``, ``p^\top W_q``): the
#: row-vector convention. ``p_m^\top W_q^\top`` is the transpose of ``W_q p_m`` and passes.
ROW_VECTOR_PROJECTION = re.compile(
    r"(?:(?<![A-Za-z\\])[xXp](?:_\{?[a-z0-9]+\}?)?|\))(?:\s*\^\s*\\top)?\s*W_(?:[qkv]|\{[qkv]\})(?!\s*\^\s*\\top)"
)


def test_projections_are_written_for_column_vectors_everywhere():
    """Every page writes ``W_q x_m`` (vectors are columns, ``W`` is ``nn.Linear``'s out x in weight)."""
    for row_form in ("q_m = x_m W_q", r"(x_m + p_m) W_q W_k^\top", r"x_m W_q", r"p_m^\top W_q"):
        assert ROW_VECTOR_PROJECTION.search(row_form), row_form
    for column_form in ("q_m = W_q x_m", r"p_m^\top W_q^\top W_k\, p_n", r"(x_m + p_m)^\top W_q^\top W_k"):
        assert ROW_VECTOR_PROJECTION.search(column_form) is None, column_form
    found = [
        (path.name, formula)
        for path in [*PAGES, GLOSSARY]
        for text in _texts(path)
        for formula, _ in formulas(text)
        if ROW_VECTOR_PROJECTION.search(formula)
    ]
    assert not found
    glossary = _one_line(_entry("$q$, $k$, $v$"))
    assert "$q_m = W_q x_m$, $k_n = W_k x_n$, $v_n = W_v x_n$" in glossary


def test_the_partial_rotary_questions_write_head_dim_not_d():
    phi2 = question_bank.build("phi2_rotated_channels")
    assert "int(p · head_dim)" in phi2.explanation and "int(p · d)" not in phi2.explanation
    ratio = question_bank.build("partial_rotary_wavelength_ratio")
    assert "A head of head_dim = " in ratio.prompt and "A head of d = " not in ratio.prompt
    assert "p · head_dim = " in ratio.explanation and "p d = " not in ratio.explanation


def test_the_glossary_says_rope_parameters_always_exists():
    text = _one_line(_entry("`rope_scaling`, `rope_parameters`"))
    assert "`rope_scaling` is the block of a context-extension method, absent for plain RoPE" in text
    assert "`rope_parameters`, which every config then has" in text
    assert "`rope_type` `default` for plain RoPE" in text
