"""Regenerate ``mrope_reference.json``: M-RoPE as Hugging Face transformers 5.x computes it for Qwen-VL.

The fixture pins :mod:`rope_viz.mrope` to transformers' own code, so the tests can check it without torch. It
holds three kinds of cases, each computed by calling transformers:

* ``"pair_axes"``: which position axis (0 time, 1 height, 2 width) every rotation pair takes. The model's text
  rotary module (``Qwen2VLRotaryEmbedding``, chunked sections; ``Qwen3VLTextRotaryEmbedding``, interleaved) is
  built with ``mrope_section`` in its ``rope_parameters``, its ``inv_freq`` is set to 0.1 for every pair, and
  its ``forward`` is called on marker position ids ``t = 1, h = 2, w = 3``: the angle of pair ``i`` is then
  ``0.1 * (axis + 1)``, read back from ``atan2(sin, cos)``. Both halves of the ``rotate_half`` layout are
  read and must agree; the module's ``recomposition_frequencies`` on a tensor of markers
  ``1000 * axis + pair`` must give the same axes and keep every pair in place. ``"misfit"`` cases record
  what the interleaved code does with a section too wide for it (a pair count per axis that differs from the
  section).
* ``"position_ids"``: the ``(3, seq)`` ids of ``get_rope_index`` of a tiny model (one layer, hidden size 16,
  no weights loaded) for a text / image / video sequence. The input ids use the config's ``image_token_id``
  and ``video_token_id``, ``mm_token_type_ids`` mark the modality of every token (0 text, 1 image, 2 video),
  and the grids are given before the spatial merge, as the processor gives them: ``(frames, rows * 2,
  cols * 2)`` for ``spatial_merge_size = 2``.
* ``"rotation"``: random float32 queries rotated by the model's rotary module (real ``inv_freq`` from
  ``rope_theta``) and ``apply_rotary_pos_emb``, at the position ids of a sequence case.
* ``"axial"``: the 2-D RoPE of Qwen2-VL's vision encoder: random float32 queries of the patches of a grid,
  rotated by ``Qwen2VLVisionRotaryEmbedding`` and ``apply_rotary_pos_emb_vision`` at the (row, column) ids of
  ``transformers.vision_utils.get_vision_position_ids`` (patches in the order of the spatial-merge blocks).

Run it from the repository root with a Python that has torch and transformers 5.x installed (rope_viz itself
needs neither):

    /path/to/venv-with-transformers/bin/python tests/reference/generate_mrope_reference.py
"""

from __future__ import annotations

import json
from pathlib import Path

FIXTURE = Path(__file__).resolve().with_name("mrope_reference.json")
SPATIAL_MERGE_SIZE = 2
MARKER_FREQUENCY = 0.1
CASE_LISTS = ("pair_axes", "misfit", "position_ids", "rotation", "axial")

# (model, mrope_section): Qwen2-VL and Qwen2.5-VL release [16, 24, 24] with head_dim 128; Qwen3-VL
# [24, 20, 20] with head_dim 128; Qwen3.5's text module defaults to [11, 11, 10] (64 rotated dimensions).
PAIR_AXES_CASES = [
    ("qwen2_vl", [16, 24, 24]),
    ("qwen2_vl", [2, 3, 3]),
    ("qwen2_vl", [4, 2, 2]),
    ("qwen2_vl", [1, 1, 1]),
    ("qwen2_vl", [3, 0, 2]),
    ("qwen2_5_vl", [16, 24, 24]),
    ("qwen3_vl", [24, 20, 20]),
    ("qwen3_vl", [11, 11, 10]),
    ("qwen3_vl", [4, 2, 2]),
    ("qwen3_vl", [2, 1, 1]),
    ("qwen3_vl", [8, 4, 4]),
    ("qwen3_vl", [5, 3, 2]),
    ("qwen3_vl", [3, 3, 2]),
]
MISFIT_CASES = [("qwen3_vl", [16, 24, 24]), ("qwen3_vl", [1, 3, 2])]

# Segments: {"text": n}, {"image": [rows, cols]} or {"video": [frames, rows, cols], "seconds_per_grid": s},
# with rows and cols counted after the spatial merge (tokens the language model sees).
POSITION_CASES = [
    ("qwen2_vl", "text-image-text", [{"text": 3}, {"image": [2, 3]}, {"text": 2}]),
    ("qwen2_vl", "image-first", [{"image": [3, 2]}, {"text": 4}]),
    ("qwen2_vl", "two-images", [{"text": 2}, {"image": [2, 2]}, {"text": 1}, {"image": [1, 3]}, {"text": 3}]),
    ("qwen2_vl", "video-short", [{"text": 2}, {"video": [2, 2, 3]}, {"text": 2}]),
    ("qwen2_vl", "video-long", [{"text": 2}, {"video": [3, 2, 2]}, {"text": 2}]),
    (
        "qwen2_5_vl",
        "video-two-seconds",
        [{"text": 2}, {"video": [3, 2, 2], "seconds_per_grid": 1.0}, {"text": 2}],
    ),
    (
        "qwen2_5_vl",
        "video-fractional",
        [{"text": 1}, {"video": [4, 1, 2], "seconds_per_grid": 0.75}, {"text": 1}],
    ),
    (
        "qwen2_5_vl",
        "image-and-video",
        [{"image": [2, 2]}, {"text": 2}, {"video": [2, 2, 2], "seconds_per_grid": 0.5}, {"text": 3}],
    ),
    # 15 * (2 * 2.1) is 63, but 62.99999 in transformers' float32 product: grid 15 lands at 62.
    ("qwen2_5_vl", "video-float32-interval", [{"video": [16, 1, 1], "seconds_per_grid": 2.1}, {"text": 1}]),
    ("qwen3_vl", "text-image-text", [{"text": 3}, {"image": [2, 3]}, {"text": 2}]),
    (
        "qwen3_vl",
        "video-frames-with-timestamps",
        [{"text": 2}, {"video": [1, 2, 2]}, {"text": 1}, {"video": [1, 2, 2]}, {"text": 2}],
    ),
]
TOKENS_PER_SECOND = 2  # Qwen2.5-VL's released vision configs

# (model, mrope_section, rope_theta, position case id)
ROTATION_CASES = [
    ("qwen2_vl", [16, 24, 24], 1000000.0, "qwen2_vl/two-images"),
    ("qwen2_vl", [2, 3, 3], 10000.0, "qwen2_vl/text-image-text"),
    ("qwen2_5_vl", [16, 24, 24], 1000000.0, "qwen2_5_vl/video-two-seconds"),
    ("qwen3_vl", [24, 20, 20], 5000000.0, "qwen3_vl/text-image-text"),
    ("qwen3_vl", [4, 2, 2], 10000.0, "qwen3_vl/video-frames-with-timestamps"),
]


def _modules(model: str):
    """(text config class, text rotary class, full config class, model class) of ``model``."""
    if model == "qwen2_vl":
        from transformers import Qwen2VLConfig
        from transformers.models.qwen2_vl.configuration_qwen2_vl import Qwen2VLTextConfig
        from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLModel, Qwen2VLRotaryEmbedding

        return Qwen2VLTextConfig, Qwen2VLRotaryEmbedding, Qwen2VLConfig, Qwen2VLModel
    if model == "qwen2_5_vl":
        from transformers import Qwen2_5_VLConfig
        from transformers.models.qwen2_5_vl.configuration_qwen2_5_vl import Qwen2_5_VLTextConfig
        from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import (
            Qwen2_5_VLModel,
            Qwen2_5_VLRotaryEmbedding,
        )

        return Qwen2_5_VLTextConfig, Qwen2_5_VLRotaryEmbedding, Qwen2_5_VLConfig, Qwen2_5_VLModel
    if model == "qwen3_vl":
        from transformers import Qwen3VLConfig
        from transformers.models.qwen3_vl.configuration_qwen3_vl import Qwen3VLTextConfig
        from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLModel, Qwen3VLTextRotaryEmbedding

        return Qwen3VLTextConfig, Qwen3VLTextRotaryEmbedding, Qwen3VLConfig, Qwen3VLModel
    raise ValueError(f"unknown model {model!r}")


def rotary_module(model: str, mrope_section: list[int], rope_theta: float = 10000.0):
    """The text rotary module of ``model`` for a head of ``2 * sum(mrope_section)`` dimensions."""
    text_config_class, rotary_class, _, _ = _modules(model)
    head_dim = 2 * sum(mrope_section)
    config = text_config_class(
        hidden_size=2 * head_dim,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=head_dim,
        num_hidden_layers=1,
        rope_parameters={
            "rope_type": "default",
            "rope_theta": rope_theta,
            "mrope_section": list(mrope_section),
        },
    )
    module = rotary_class(config)
    if list(module.mrope_section) != list(mrope_section):
        raise RuntimeError(f"{rotary_class.__name__} did not take mrope_section {mrope_section}")
    return module


def hf_pair_axes(model: str, mrope_section: list[int]) -> list[int]:
    """The axis of every pair, read from the rotary module's cos/sin at marker position ids."""
    import torch

    module = rotary_module(model, mrope_section)
    pairs = sum(mrope_section)
    module.inv_freq = torch.full((pairs,), MARKER_FREQUENCY)
    position_ids = torch.tensor([1, 2, 3]).view(3, 1, 1)  # (3, batch, seq): t = 1, h = 2, w = 3
    cos, sin = module(torch.zeros(1, 1, 2 * pairs), position_ids)  # (batch, seq, head_dim)
    angle = torch.atan2(sin[0, 0].double(), cos[0, 0].double())  # (head_dim,)
    marker = torch.round(angle / MARKER_FREQUENCY).long() - 1  # the axis; 1 + axis = the marker position
    first, second = marker[:pairs], marker[pairs:]
    if not torch.equal(first, second):
        raise RuntimeError(f"{model} {mrope_section}: the two halves of cos/sin take different axes")
    if not torch.allclose(angle, (marker + 1).double() * MARKER_FREQUENCY, atol=1e-6):
        raise RuntimeError(f"{model} {mrope_section}: an angle is not a marker")
    # Cross-check with the recomposition itself on markers 1000 * axis + pair.
    markers = 1000.0 * torch.arange(3.0).view(3, 1, 1, 1) + torch.arange(float(pairs)).view(1, 1, 1, -1)
    recomposed = module.recomposition_frequencies(markers.clone())[0, 0, :pairs]  # (pairs,)
    if not torch.equal(recomposed % 1000, torch.arange(float(pairs))):
        raise RuntimeError(f"{model} {mrope_section}: recomposition moved a pair")
    if not torch.equal((recomposed // 1000).long(), first):
        raise RuntimeError(f"{model} {mrope_section}: recomposition and forward disagree")
    return first.tolist()


def tiny_model(model: str):
    """A tiny ``...VLModel`` (random weights, one layer, hidden size 16) for its ``get_rope_index``."""
    _, _, config_class, model_class = _modules(model)
    text = {
        "hidden_size": 16,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "intermediate_size": 16,
        "num_hidden_layers": 1,
        "vocab_size": 64,
        "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 1, 1]},
    }
    vision = {
        "depth": 1,
        "hidden_size": 16,
        "num_heads": 2,
        "in_channels": 3,
        "patch_size": 2,
        "spatial_merge_size": SPATIAL_MERGE_SIZE,
    }
    if model == "qwen2_vl":
        vision.update(embed_dim=16, mlp_ratio=1)
    elif model == "qwen2_5_vl":
        vision.update(intermediate_size=16, out_hidden_size=16, tokens_per_second=TOKENS_PER_SECOND)
    else:
        vision.update(intermediate_size=16, out_hidden_size=16, deepstack_visual_indexes=[])
    config = config_class(text_config=text, vision_config=vision)
    return model_class(config).eval()


def hf_position_ids(model: str, segments: list[dict]) -> list[list[int]]:
    """``get_rope_index`` of a tiny ``model`` for ``segments``: shape ``(3, seq)``."""
    import torch

    instance = tiny_model(model)
    config = instance.config
    input_ids, token_types, image_grids, video_grids, seconds = [], [], [], [], []
    for segment in segments:
        if "text" in segment:
            input_ids += [1 + i % 50 for i in range(segment["text"])]
            token_types += [0] * segment["text"]
        elif "image" in segment:
            rows, cols = segment["image"]
            input_ids += [config.image_token_id] * (rows * cols)
            token_types += [1] * (rows * cols)
            image_grids.append([1, rows * SPATIAL_MERGE_SIZE, cols * SPATIAL_MERGE_SIZE])
        else:
            frames, rows, cols = segment["video"]
            input_ids += [config.video_token_id] * (frames * rows * cols)
            token_types += [2] * (frames * rows * cols)
            video_grids.append([frames, rows * SPATIAL_MERGE_SIZE, cols * SPATIAL_MERGE_SIZE])
            seconds.append(segment.get("seconds_per_grid", 1.0))
    keywords = {
        "input_ids": torch.tensor([input_ids]),
        "mm_token_type_ids": torch.tensor([token_types]),
        "image_grid_thw": torch.tensor(image_grids) if image_grids else None,
        "video_grid_thw": torch.tensor(video_grids) if video_grids else None,
    }
    if model == "qwen2_5_vl" and seconds:
        keywords["second_per_grid_ts"] = torch.tensor(seconds)
    with torch.no_grad():
        position_ids, _ = instance.get_rope_index(**keywords)
    return position_ids[:, 0].tolist()


def hf_rotation(
    model: str, mrope_section: list[int], rope_theta: float, position_ids: list[list[int]], seed: int
) -> tuple[list[list[float]], list[list[float]]]:
    """Random float32 queries ``(seq, head_dim)`` and the same rotated by the model's M-RoPE."""
    import importlib

    import torch

    module = rotary_module(model, mrope_section, rope_theta)
    modeling = importlib.import_module(type(module).__module__)
    head_dim = 2 * sum(mrope_section)
    seq = len(position_ids[0])
    generator = torch.Generator().manual_seed(seed)
    q = torch.randn(1, 1, seq, head_dim, generator=generator)  # (batch, heads, seq, head_dim)
    ids = torch.tensor(position_ids).view(3, 1, seq)
    cos, sin = module(q, ids)
    q_embed, _ = modeling.apply_rotary_pos_emb(q, q, cos, sin)
    return _floats(q[0, 0]), _floats(q_embed[0, 0])


# (head_dim, rope_theta, grid_thw before the merge)
AXIAL_CASES = [(16, 10000.0, [1, 4, 6]), (32, 100.0, [1, 6, 4]), (80, 10000.0, [2, 4, 4])]


def hf_axial(head_dim: int, rope_theta: float, grid_thw: list[int], seed: int) -> dict:
    """Rows, columns, queries and rotated queries of Qwen2-VL's vision encoder for one grid."""
    import torch
    from transformers.models.qwen2_vl.configuration_qwen2_vl import Qwen2VLVisionConfig
    from transformers.models.qwen2_vl.modeling_qwen2_vl import (
        Qwen2VLVisionRotaryEmbedding,
        apply_rotary_pos_emb_vision,
    )
    from transformers.vision_utils import get_vision_position_ids

    config = Qwen2VLVisionConfig(
        embed_dim=2 * head_dim,
        num_heads=2,
        spatial_merge_size=SPATIAL_MERGE_SIZE,
        rope_parameters={"rope_type": "axial", "rope_theta": rope_theta},
    )
    module = Qwen2VLVisionRotaryEmbedding(config)
    position_ids = get_vision_position_ids(torch.tensor([grid_thw]), SPATIAL_MERGE_SIZE)  # (N, 2): h, w
    generator = torch.Generator().manual_seed(1000 + seed)
    q = torch.randn(position_ids.shape[0], 1, head_dim, generator=generator)  # (N, heads, head_dim)
    cos, sin = module(q, position_ids)
    rotated, _ = apply_rotary_pos_emb_vision(q, q, cos, sin)
    return {
        "id": f"qwen2_vl_vision/d{head_dim}-theta{rope_theta:g}/{'x'.join(map(str, grid_thw))}",
        "head_dim": head_dim,
        "rope_theta": rope_theta,
        "grid_thw": grid_thw,
        "rows": position_ids[:, 0].tolist(),
        "cols": position_ids[:, 1].tolist(),
        "q": _floats(q[:, 0]),
        "rotated": _floats(rotated[:, 0]),
    }


def _floats(tensor) -> list[list[float]]:
    # float32 values; 9 significant digits represent each exactly.
    return [[float(f"{value:.9g}") for value in row] for row in tensor.tolist()]


def build_document() -> dict:
    import torch
    import transformers

    transformers.logging.set_verbosity_error()
    pair_axes = [
        {
            "id": f"{model}/{'-'.join(map(str, section))}",
            "model": model,
            "mrope_section": section,
            "interleaved": model == "qwen3_vl",
            "pair_axes": hf_pair_axes(model, section),
        }
        for model, section in PAIR_AXES_CASES
    ]
    misfits = [
        {
            "id": f"{model}/{'-'.join(map(str, section))}",
            "model": model,
            "mrope_section": section,
            "interleaved": True,
            "pair_axes": hf_pair_axes(model, section),
        }
        for model, section in MISFIT_CASES
    ]
    positions = [
        {
            "id": f"{model}/{label}",
            "model": model,
            "spatial_merge_size": SPATIAL_MERGE_SIZE,
            "tokens_per_second": TOKENS_PER_SECOND if model == "qwen2_5_vl" else None,
            "segments": segments,
            "position_ids": hf_position_ids(model, segments),
        }
        for model, label, segments in POSITION_CASES
    ]
    by_id = {case["id"]: case for case in positions}
    rotations = []
    for seed, (model, section, rope_theta, position_case) in enumerate(ROTATION_CASES):
        ids = by_id[position_case]["position_ids"]
        q, q_embed = hf_rotation(model, section, rope_theta, ids, seed)
        rotations.append(
            {
                "id": f"{model}/{'-'.join(map(str, section))}/{position_case.split('/')[1]}",
                "model": model,
                "mrope_section": section,
                "interleaved": model == "qwen3_vl",
                "rope_theta": rope_theta,
                "position_ids": ids,
                "q": q,
                "rotated": q_embed,
            }
        )
    axial = [hf_axial(*case, seed) for seed, case in enumerate(AXIAL_CASES)]
    return {
        "description": (
            "M-RoPE pair axes, get_rope_index position ids, M-RoPE and vision 2-D RoPE rotations "
            "from transformers"
        ),
        "generator": "tests/reference/generate_mrope_reference.py",
        "transformers_version": transformers.__version__,
        "torch_version": torch.__version__,
        "pair_axes": pair_axes,
        "misfit": misfits,
        "position_ids": positions,
        "rotation": rotations,
        "axial": axial,
    }


def _dump(document: dict) -> str:
    """JSON with one case per line: readable diffs without a line per number."""
    header = {key: value for key, value in document.items() if key not in CASE_LISTS}
    lines = [json.dumps(header, indent=1)[:-2] + ","]
    for index, key in enumerate(CASE_LISTS):
        lines.append(f' "{key}": [')
        lines += ["  " + json.dumps(case, separators=(",", ":")) + "," for case in document[key]]
        lines[-1] = lines[-1].rstrip(",")
        lines.append(" ]" + ("," if index < len(CASE_LISTS) - 1 else ""))
    return "\n".join([*lines, "}", ""])


def main() -> None:
    document = build_document()
    FIXTURE.write_text(_dump(document))
    counts = ", ".join(f"{len(document[key])} {key}" for key in CASE_LISTS)
    print(f"wrote {counts} cases to {FIXTURE}")


if __name__ == "__main__":
    main()
