"""Shared look of the image and video demos: one colour per position axis, the models' heads, the image size.

The colours are mid-tones from the Okabe-Ito set, legible on the site's light and dark pages and safe for the
common colour-vision deficiencies. The model settings are those of the presets ``qwen2.5-vl-7b`` and
``qwen3-vl-8b`` (:mod:`rope_viz.presets.recent`) and of Qwen2-VL's vision encoder (transformers 5.23,
``Qwen2VLVisionConfig``: ``embed_dim`` 1280 over 16 heads, ``Qwen2VLVisionRotaryEmbedding`` with base 10,000).
"""

from __future__ import annotations

from rope_viz.demos.extension_style import FONT_SIZE, PLAIN, panel_title, significant
from rope_viz.mrope import AXES, QWEN2_VL_SECTION, QWEN3_VL_SECTION

#: Colour of each position axis of :data:`rope_viz.mrope.AXES`: time, height (rows), width (columns).
AXIS_COLORS = ("#E69F00", "#2F8FD8", "#009E73")
#: The axes as the figures name them: by name, not by a bare letter (the glossary keeps ``t`` for a shift and
#: writes the three ids ``m_t``, ``m_h``, ``m_w``).
AXIS_NAMES = AXES

#: Head size of the language models of Qwen2.5-VL-7B (3584 / 28) and Qwen3-VL-8B (``head_dim``).
LANGUAGE_HEAD_DIM = 128
#: ``rope_theta`` of Qwen2.5-VL-7B and of Qwen3-VL-8B.
QWEN25_VL_BASE = 1_000_000.0
QWEN3_VL_BASE = 5_000_000.0
#: Head size and base of the 2-D RoPE of Qwen2-VL's vision encoder (1280 / 16 and 10,000).
VISION_HEAD_DIM = 80
VISION_BASE = 10_000.0

#: The M-RoPE layouts: (name, mrope_section, interleaved, base of the model).
LAYOUTS = (
    ("Qwen2.5-VL: chunks (16, 24, 24)", QWEN2_VL_SECTION, False, QWEN25_VL_BASE),
    ("Qwen3-VL: interleaved (24, 20, 20)", QWEN3_VL_SECTION, True, QWEN3_VL_BASE),
)

#: Pixels per side of a vision-encoder patch of Qwen2-VL and Qwen2.5-VL (``patch_size``; Qwen3-VL's is 16),
#: and patches per side merged into one language-model token (``spatial_merge_size``).
PATCH_PIXELS = 14
SPATIAL_MERGE = 2
#: Frames of a video clip in one temporal patch, one frame of the model's grid (``temporal_patch_size`` of
#: transformers' ``Qwen2VLVideoProcessor`` and ``Qwen3VLVideoProcessor``, which set ``grid_t = frames //
#: temporal_patch_size``, and of Qwen2.5-VL's ``vision_config``; Qwen3-VL's processor writes one timestamp per
#: temporal patch).
TEMPORAL_PATCH = 2
#: ``vision_config.tokens_per_second`` of Qwen2.5-VL's released configs (Qwen2.5-VL-7B-Instruct): time ids per
#: second of video, which tie the time id to absolute time.
QWEN25_VL_TOKENS_PER_SECOND = 2
#: An example image for Qwen2.5-VL: 896 pixels a side is 64 patches, 32 language-model tokens.
IMAGE_PIXELS = 896
IMAGE_TOKENS = IMAGE_PIXELS // (PATCH_PIXELS * SPATIAL_MERGE)

#: Faint fills of the segments of a sequence: text, image, video.
SEGMENT_FILLS = {"text": PLAIN, "image": "#CC79A7", "video": "#D55E00"}

__all__ = [
    "AXIS_COLORS",
    "AXIS_NAMES",
    "FONT_SIZE",
    "IMAGE_PIXELS",
    "IMAGE_TOKENS",
    "LANGUAGE_HEAD_DIM",
    "LAYOUTS",
    "PATCH_PIXELS",
    "PLAIN",
    "QWEN3_VL_BASE",
    "QWEN25_VL_BASE",
    "QWEN25_VL_TOKENS_PER_SECOND",
    "SEGMENT_FILLS",
    "SPATIAL_MERGE",
    "TEMPORAL_PATCH",
    "VISION_BASE",
    "VISION_HEAD_DIM",
    "panel_title",
    "significant",
]
