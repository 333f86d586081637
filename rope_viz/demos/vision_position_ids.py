"""M-RoPE's position ids of a sequence of text, an image, text, a video and text.

Three panels, one per row of :func:`rope_viz.mrope.position_ids` (the time, height and width ids, the
glossary's ``m_t``, ``m_h`` and ``m_w``), against the index of the token in the sequence. Text advances the
three ids together; an image holds its time id and walks the height id over its rows and the width id over
its columns, row by row; a video adds one to the time id per frame of its grid (Qwen2-VL's frame index;
Qwen2.5-VL ties the step to absolute time). A frame here is one temporal grid of the model: a temporal patch
of ``temporal_patch_size`` = 2 frames of the clip in transformers' Qwen-VL video processors
(:class:`rope_viz.mrope.Video`). The text after an image starts one past its largest id. After a video the
two rules of :func:`rope_viz.mrope.position_ids` part: the Qwen2-VL paper's (one past the largest id so far)
and transformers 5.23's (the video's start plus the larger side of its grid), which reuses ids once a video
has more frames than rows and columns; the readout names the ids that the final text then shares with the
video (:func:`shared_ids`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rope_viz.demos.base import Control, Demo, Scene, View
from rope_viz.demos.vision_style import AXIS_COLORS, AXIS_NAMES, FONT_SIZE, SEGMENT_FILLS
from rope_viz.mrope import Image, Text, Video, position_ids

#: Tokens of the three text segments, and the grid of the video (rows, columns of language-model tokens).
TEXT_TOKENS = (3, 2, 2)
VIDEO_GRID = (2, 2)
SIDES = (1, 2, 3, 4, 5, 6)
FRAMES = (3, 4, 5, 6, 7, 8)  # every count here outruns the 2 × 2 grid, so the two resume rules differ
#: The image the figure starts with (rows, columns) and the frames of its scenes' longer video.
IMAGE_GRID = (3, 4)
LONG_VIDEO_FRAMES = 6
RESUME_RULES = ("maximum", "spatial")
RESUME_LABELS = ("largest id + 1 (paper)", "start + side (transformers 5.23)")
#: Paper heights of the three panels (time on top).
PANEL_DOMAINS = ((0.64, 0.88), (0.34, 0.58), (0.04, 0.28))
BAND_TOP = 0.9


def mixed_sequence(rows: int, cols: int, frames: int) -> list[Text | Image | Video]:
    """Return text, a ``rows x cols`` image, text, a video of ``frames`` grids of :data:`VIDEO_GRID`, text.

    Examples
    --------
    >>> mixed_sequence(2, 3, 4)[1:4]
    [Image(rows=2, cols=3), Text(tokens=2), Video(frames=4, rows=2, cols=2, seconds_per_grid=1.0)]

    """
    first, middle, last = TEXT_TOKENS
    return [Text(first), Image(rows, cols), Text(middle), Video(frames, *VIDEO_GRID), Text(last)]


def segment_spans(segments: Sequence[Text | Image | Video]) -> list[tuple[str, int, int]]:
    """Return ``(kind, start, stop)`` token indices of every segment: ``kind`` is text, image or video.

    Examples
    --------
    >>> segment_spans([Text(3), Image(2, 3), Text(2), Video(2, 1, 2)])
    [('text', 0, 3), ('image', 3, 9), ('text', 9, 11), ('video', 11, 15)]

    """
    spans = []
    start = 0
    for segment in segments:
        if isinstance(segment, Text):
            kind, size = "text", segment.tokens
        elif isinstance(segment, Image):
            kind, size = "image", segment.rows * segment.cols
        elif isinstance(segment, Video):
            kind, size = "video", segment.frames * segment.rows * segment.cols
        else:
            raise ValueError(f"segments must be Text, Image or Video, got {segment!r}")
        spans.append((kind, start, start + size))
        start += size
    return spans


def segment_label(segment: Text | Image | Video) -> str:
    """``"text"``, ``"image 2×3"``, ``"video 4×2×2"``: what a band of the figure is called."""
    if isinstance(segment, Image):
        return f"image {segment.rows}×{segment.cols}"
    if isinstance(segment, Video):
        return f"video {segment.frames}×{segment.rows}×{segment.cols}"
    return "text"


def shared_ids(ids: np.ndarray, spans: Sequence[tuple[str, int, int]]) -> np.ndarray:
    """Return the ids that the last segment's tokens hold and the last video's tokens hold too, ascending.

    ``ids`` is the ``(3, seq)`` output of :func:`rope_viz.mrope.position_ids` and ``spans`` the
    :func:`segment_spans` of the same sequence. Under the paper's rule nothing is shared; under transformers
    5.23's the text after a video whose time ids outrun its grid takes ids the video already holds.

    Examples
    --------
    >>> from rope_viz.mrope import position_ids
    >>> segments = [Text(1), Video(4, 1, 1), Text(2)]
    >>> shared_ids(position_ids(segments, resume="spatial"), segment_spans(segments)).tolist()
    [2, 3]
    >>> shared_ids(position_ids(segments, resume="maximum"), segment_spans(segments)).tolist()
    []

    """
    _, video_start, video_stop = [span for span in spans if span[0] == "video"][-1]
    _, last_start, last_stop = spans[-1]
    return np.intersect1d(ids[:, last_start:last_stop], ids[:, video_start:video_stop])


def id_list(values: Sequence[int] | np.ndarray) -> str:
    """``"id 11"``, ``"ids 11–12"`` for a run, ``"ids 3, 5"`` otherwise: ids as the readout names them.

    Examples
    --------
    >>> id_list([11]), id_list([11, 12, 13]), id_list([3, 5])
    ('id 11', 'ids 11–13', 'ids 3, 5')

    """
    values = [int(value) for value in values]
    if not values:
        return "no ids"
    if len(values) == 1:
        return f"id {values[0]}"
    if values == list(range(values[0], values[-1] + 1)):
        return f"ids {values[0]}–{values[-1]}"
    return "ids " + ", ".join(str(value) for value in values)


class MixedSequenceIds(Demo):
    """The three position ids of every token of text, an image, text, a video and text."""

    narrowest_plot_width = 440
    title = "M-RoPE: the time, height and width ids of text, an image and a video"
    controls = (
        Control("rows", "image rows", SIDES, IMAGE_GRID[0], 1, 6, unit="tokens", integer=True),
        Control("cols", "image columns", SIDES, IMAGE_GRID[1], 1, 6, unit="tokens", integer=True),
        Control("frames", f"video frames of {VIDEO_GRID[0]}×{VIDEO_GRID[1]}", FRAMES, 4, 3, 8, integer=True),
        Control(
            "resume",
            "text after the video",
            (0, 1),
            0,
            0,
            1,
            integer=True,
            choices=(0, 1),
            labels=RESUME_LABELS,
        ),
    )
    scenes = (
        Scene(
            "the image",
            "The text after the image resumes one past the image's largest id, not one past its last token "
            "in the sequence.",
            {},
        ),
        Scene(
            "a longer video",
            f"With {LONG_VIDEO_FRAMES} frames the video's time ids run past its spatial ids, and the paper's "
            "rule starts the final text after all of them.",
            {"frames": LONG_VIDEO_FRAMES},
        ),
        Scene(
            "transformers' rule",
            "Under transformers 5.23's rule the final text starts at the video's start plus its side, on "
            "time ids that frames of the video already hold.",
            {"frames": LONG_VIDEO_FRAMES, "resume": 1},
        ),
    )

    def __init__(self) -> None:
        largest = max(
            int(position_ids(mixed_sequence(SIDES[-1], SIDES[-1], FRAMES[-1]), resume=rule).max())
            for rule in RESUME_RULES
        )
        self.id_range = [-1.0, largest + 1.0]

    def base_figure(self) -> dict:
        """Three panels of ids against the token index, over bands that mark the segments."""
        data = []
        layout: dict = {
            "height": 720,
            "margin": {"l": 80, "r": 20, "t": 30, "b": 60},
            "font": {"size": FONT_SIZE},
            "showlegend": False,
            "xaxis": {
                "anchor": "y3",
                "domain": [0, 1],
                "title": {"text": "token index in the sequence"},
                "zeroline": False,
            },
        }
        annotations = []
        for axis, (low, high) in enumerate(PANEL_DOMAINS):
            name = "yaxis" if axis == 0 else f"yaxis{axis + 1}"
            layout[name] = {
                "anchor": "x",
                "domain": [low, high],
                "range": self.id_range,
                "title": {"text": f"{AXIS_NAMES[axis].split()[0]} id"},
                "zeroline": False,
            }
            data.append(
                {
                    "type": "scatter",
                    "mode": "lines+markers",
                    "name": AXIS_NAMES[axis],
                    "line": {"color": AXIS_COLORS[axis], "width": 1.5},
                    "marker": {"color": AXIS_COLORS[axis], "size": 7},
                    "hovertemplate": "token %{x}<br>" + AXIS_NAMES[axis] + " id %{y}<extra>%{text}</extra>",
                    "xaxis": "x",
                    "yaxis": "y" if axis == 0 else f"y{axis + 1}",
                }
            )
            annotations.append(
                {
                    "text": f"{AXIS_NAMES[axis]} id",
                    "x": 0.0,
                    "y": high,
                    "xref": "paper",
                    "yref": "paper",
                    "xanchor": "left",
                    "yanchor": "bottom",
                    "showarrow": False,
                    # The theme's text colour: in the axis's colour the name had 2.3:1 to 3.5:1 on white.
                    "font": {"size": FONT_SIZE},
                }
            )
        segments = mixed_sequence(1, 1, 1)
        layout["shapes"] = [
            {
                "type": "rect",
                "xref": "x",
                "yref": "paper",
                "x0": 0,
                "x1": 0,
                "y0": PANEL_DOMAINS[-1][0],
                "y1": BAND_TOP,
                "fillcolor": SEGMENT_FILLS[kind],
                "opacity": 0.16,
                "line": {"width": 0},
                "layer": "below",
            }
            for kind, _, _ in segment_spans(segments)
        ]
        annotations += [
            {
                "text": "",
                "x": 0,
                "y": BAND_TOP + (0.045 if k % 2 else 0.0),
                "xref": "x",
                "yref": "paper",
                "yanchor": "bottom",
                "showarrow": False,
                "font": {"size": FONT_SIZE - 1},
            }
            for k in range(len(segments))
        ]
        layout["annotations"] = annotations
        return {"data": data, "layout": layout}

    def view(self, *, rows: float, cols: float, frames: float, resume: float) -> View:
        """Ids of the sequence with an image of ``rows x cols`` and a video of ``frames`` grids."""
        rows, cols, frames = round(rows), round(cols), round(frames)
        rule = RESUME_RULES[round(resume)]
        segments = mixed_sequence(rows, cols, frames)
        ids = position_ids(segments, resume=rule)  # (3, seq)
        spans = segment_spans(segments)
        tokens = list(range(ids.shape[1]))
        kinds = [kind for kind, start, stop in spans for _ in range(start, stop)]
        traces = [{"x": tokens, "y": ids[axis].tolist(), "text": kinds} for axis in range(3)]
        layout: dict = {"xaxis.range": [-0.7, ids.shape[1] - 0.3]}
        for k, ((_, start, stop), segment) in enumerate(zip(spans, segments, strict=True)):
            layout[f"shapes[{k}].x0"] = start - 0.5
            layout[f"shapes[{k}].x1"] = stop - 0.5
            layout[f"annotations[{3 + k}].x"] = (start + stop - 1) / 2
            layout[f"annotations[{3 + k}].text"] = segment_label(segment)
        image_start, image_end = spans[1][1], spans[1][2]
        video_start, video_end = spans[3][1], spans[3][2]
        after_image = int(ids[0, image_end])
        video_first = int(ids[0, video_start])
        largest = int(ids[:, :video_end].max())
        after_video = int(ids[0, video_end])
        paper, code = largest + 1, video_first + max(VIDEO_GRID)
        if paper == code:
            rules = f"both rules give {paper}"
        else:
            other = "transformers 5.23 would start at" if rule == "maximum" else "the paper's rule would give"
            alternative = code if rule == "maximum" else paper
            rules = f"{other} {alternative}"
            shared = shared_ids(ids, spans)
            if shared.size:
                held = "is" if shared.size == 1 else "are"
                rules += f", so {id_list(shared)} {held} held by both the video and the final text"
        readout = (
            f"Image {rows}×{cols} at time id {int(ids[0, image_start])}: its height ids run over "
            f"{int(ids[1, image_start])}–{int(ids[1, image_end - 1])} and its width ids over "
            f"{int(ids[2, image_start])}–{int(ids[2, image_end - 1])}; the text after it starts at "
            f"{after_image}. Video from {video_first}, largest id {largest}; the text after it starts at "
            f"{after_video} ({rules})."
        )
        return View(traces=traces, layout=layout, readout=readout)
