"""What every interactive demo is: controls, an empty figure, and a pure function from controls to a view.

A demo is defined once. Two thin front ends draw it: :mod:`rope_viz.figures` precomputes every state of the
site's sliders at build time (no kernel needed), and :mod:`rope_viz.widgets` recomputes a state on every move
of a live ipywidgets slider in Jupyter. Both apply the same :class:`View` through Plotly's ``update`` call, so
the two can never disagree.
"""

from __future__ import annotations

import abc
import itertools
import math
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rope_viz._validation import check_whole_number


@dataclass(frozen=True)
class Control:
    """One slider of a demo.

    Parameters
    ----------
    name : str
        Keyword passed to :meth:`Demo.view`.
    label : str
        What the reader sees, with the symbol, e.g. ``"position m"``.
    site_values : tuple of float
        The values the site's slider steps through; each one is precomputed at build time.
    default : float
        Starting value; must be one of ``site_values``.
    minimum, maximum : float
        Range of the live slider (continuous; on a log scale when ``log``).
    unit : str
        Unit shown after the value, e.g. ``"tokens"``; empty when the value has no unit.
    log : bool
        The live slider moves on a log scale.
    integer : bool
        Values are whole numbers (the live slider snaps to integers).
    choices : tuple of float, optional
        Only these values make sense (e.g. head sizes); the live slider then steps through them.
    labels : tuple of str, optional
        A name for each of ``site_values`` (and of ``choices``, which must then be the same values), shown
        instead of the number: for a control that picks one of several options, such as a model or a scheme.

    """

    name: str
    label: str
    site_values: tuple[float, ...]
    default: float
    minimum: float
    maximum: float
    unit: str = ""
    log: bool = False
    integer: bool = False
    choices: tuple[float, ...] | None = None
    labels: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not self.site_values:
            raise ValueError(f"control {self.name!r}: site_values must not be empty")
        if self.default not in self.site_values:
            raise ValueError(f"control {self.name!r}: default {self.default} is not one of site_values")
        if not self.minimum <= min(self.site_values) <= max(self.site_values) <= self.maximum:
            raise ValueError(f"control {self.name!r}: site_values must lie in [minimum, maximum]")
        if self.log and self.minimum <= 0:
            raise ValueError(f"control {self.name!r}: a log-scale control needs minimum > 0")
        if self.labels is not None:
            if len(self.labels) != len(self.site_values):
                raise ValueError(f"control {self.name!r}: labels needs one name per site value")
            if self.choices is not None and tuple(self.choices) != tuple(self.site_values):
                raise ValueError(f"control {self.name!r}: with labels, choices must equal site_values")

    def format(self, value: float, digits: int = 3) -> str:
        """Return the value as the reader sees it: its label, or the number with its unit.

        Examples: ``"4,096 tokens"``, ``"10⁴"`` (a power of ten >= 10,000 on a log scale), ``"0.25"``; from
        1,000 on, whole numbers (``"12,346"``, where three significant digits would read ``"1.23e+04"``).
        Other numbers show ``digits`` significant digits.
        """
        if self.labels is not None:
            matches = [k for k, site_value in enumerate(self.site_values) if math.isclose(site_value, value)]
            if not matches:
                raise ValueError(f"control {self.name!r}: {value} is not one of its labelled values")
            return self.labels[matches[0]]
        if self.integer or float(value).is_integer() or abs(value) >= 1_000:
            text = f"{round(value):,}"
        else:
            text = f"{value:.{digits}g}"
        if self.log and value >= 1e4:
            exponent = math.log10(value)
            if abs(exponent - round(exponent)) < 1e-9:
                text = "10" + superscript(round(exponent))
        return f"{text} {self.unit}".strip()


_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def superscript(number: int) -> str:
    """Return the whole number ``number`` in Unicode superscript digits (``11`` -> ``"¹¹"``).

    For exponents in plain-text labels, which the direct drawing of a slider step can write (it does not
    write Plotly's ``<sup>`` markup).
    """
    return str(int(number)).translate(_SUPERSCRIPTS)


@dataclass
class View:
    """What a figure shows for one setting of the controls.

    Parameters
    ----------
    traces : list of dict
        One dict per trace of the base figure, in order, mapping Plotly attribute paths (``"x"``, ``"y"``,
        ``"marker.color"``, ``"theta"``, ...) to new values. A trace left unchanged gets an empty dict.
    layout : dict
        Plotly layout attribute paths to change (``"xaxis.range"``, ``"annotations[0].text"``, ...).
    readout : str
        One line of text under the figure summarising the numbers (plain text).

    """

    traces: list[dict[str, Any]]
    layout: dict[str, Any] = field(default_factory=dict)
    readout: str = ""


#: Longest caption a scene may have, in characters: one sentence that fits under a figure on a projector.
MAX_CAPTION_LENGTH = 160
#: Most words a scene's name may have.
MAX_NAME_WORDS = 4
# A full stop, question or exclamation mark followed by a space and a capital letter starts a new sentence.
_SENTENCE_BREAK = re.compile(r"[.!?]\s+[A-Z]")


@dataclass(frozen=True)
class Scene:
    """A named state of a demo, with one sentence saying what to look at in it.

    A lecturer walks through a figure scene by scene; the site and the live widget both offer the scenes of a
    demo as buttons that set its sliders.

    Parameters
    ----------
    name : str
        Short name in lower case, one to four words, e.g. ``"raise the base"``.
    caption : str
        One sentence, ending in a full stop, of at most ``MAX_CAPTION_LENGTH`` characters: what to look at.
    values : mapping of str to float
        Control name to value; every value must be one of that control's ``site_values``, so that the site has
        precomputed the state. A control the scene does not name stays at its default.

    """

    name: str
    caption: str
    values: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # A read-only copy: a scene declared on a demo class must not change under it.
        object.__setattr__(self, "values", types.MappingProxyType(dict(self.values)))

    def __hash__(self) -> int:
        return hash((self.name, self.caption, tuple(sorted(self.values.items()))))


#: The width every figure's plot fits at (``NARROWEST_PLOT`` in ``rope-viz-figures.js``), and the widest a
#: demo's :attr:`Demo.narrowest_plot_width` may be.
NARROWEST_PLOT_WIDTH = 640
#: The narrowest :attr:`Demo.narrowest_plot_width`.
SMALLEST_PLOT_WIDTH = 440
#: The width of a figure's plot on a phone 390 px wide (an iPhone 12 to 15 held upright), inside the page's
#: margins and the figure's padding.
PHONE_PLOT_WIDTH = 332
#: The tallest a plot may be shown there, scaled, in px: with the slider being dragged above it, most of the
#: plot stays on a screen 844 px high.
TALLEST_PHONE_PLOT = 600


class Demo(abc.ABC):
    """An interactive figure: controls, a base figure and a pure ``view`` function."""

    #: Short title, used as the accessible name of the figure.
    title: str = ""
    #: The sliders, in display order.
    controls: tuple[Control, ...] = ()
    #: Named states in the order a lecture walks through them; the first is usually the default state.
    scenes: tuple[Scene, ...] = ()
    #: The narrowest width, in CSS px, the plot is laid out at. In a narrower figure (a phone, a narrow
    #: notebook panel) the plot is laid out at this width and scaled down to the figure's, whole: the
    #: narrower this width, the larger the plot's text there. The page's figures are 662 px wide; at
    #: :data:`NARROWEST_PLOT_WIDTH` every figure's titles, legends and tick labels fit. A demo whose text
    #: also fits in less says so, as long as its plot is shown no taller than :data:`TALLEST_PHONE_PLOT` on a
    #: phone; ``tests/site/test_phone.py`` lays each plot out at its width in every scene and at every value
    #: of every slider, and finds no text cut off, at the plot's edge or overlapping that is not so at 640 px.
    narrowest_plot_width: int = NARROWEST_PLOT_WIDTH

    @abc.abstractmethod
    def base_figure(self) -> dict[str, Any]:
        """Return the figure's traces (styles, no data needed) and layout, as a Plotly figure dict."""

    @abc.abstractmethod
    def view(self, **values: float) -> View:
        """Return what the figure shows for the given control values (one keyword per control)."""

    def defaults(self) -> dict[str, float]:
        """Return each control's default value, by name."""
        return {control.name: control.default for control in self.controls}

    def scene_indices(self, scene: Scene) -> list[int]:
        """Return, for each control in order, the index into its ``site_values`` of the scene's value.

        A control the scene does not name keeps its default. Raises ``ValueError`` naming the demo, the scene
        and the control for a control name the demo does not have, or a value that is not one of the
        control's site values (the message gives the nearest one).
        """
        where = f"{type(self).__name__}, scene {scene.name!r}"
        names = [control.name for control in self.controls]
        unknown = sorted(set(scene.values) - set(names))
        if unknown:
            raise ValueError(f"{where}: no control named {unknown[0]!r} (the controls are {names})")
        indices = []
        for control in self.controls:
            value = scene.values.get(control.name, control.default)
            matches = [
                k
                for k, site_value in enumerate(control.site_values)
                if math.isclose(site_value, value, rel_tol=1e-9, abs_tol=1e-12)
            ]
            if not matches:
                nearest = min(control.site_values, key=lambda site_value: abs(site_value - value))
                raise ValueError(
                    f"{where}: control {control.name!r} = {value} is not one of its site values "
                    f"(the nearest is {nearest})"
                )
            indices.append(matches[0])
        return indices

    def scene_values(self, scene: Scene) -> dict[str, float]:
        """Return every control's value in the scene, by name: the scene's value or the control's default."""
        return {
            control.name: control.site_values[index]
            for control, index in zip(self.controls, self.scene_indices(scene), strict=True)
        }

    def narrow_layout_width(self) -> int:
        """Return :attr:`narrowest_plot_width`, checked.

        It must be a whole number of px from :data:`SMALLEST_PLOT_WIDTH` to :data:`NARROWEST_PLOT_WIDTH`.
        Raises ``ValueError`` naming the demo otherwise.
        """
        return check_whole_number(
            self.narrowest_plot_width,
            f"{type(self).__name__}.narrowest_plot_width",
            SMALLEST_PLOT_WIDTH,
            NARROWEST_PLOT_WIDTH,
        )

    def initial_figure(self) -> dict[str, Any]:
        """Return the base figure with the default view applied: what a reader sees first."""
        figure = self.base_figure()
        view = self.view(**self.defaults())
        if len(view.traces) != len(figure["data"]):
            raise ValueError(
                f"{type(self).__name__}.view returned {len(view.traces)} trace updates for "
                f"{len(figure['data'])} traces"
            )
        for trace, update in zip(figure["data"], view.traces, strict=True):
            for path, value in update.items():
                _set_path(trace, path, value)
        for path, value in view.layout.items():
            _set_path(figure["layout"], path, value)
        return figure


def check_scenes(demo: Demo | type[Demo]) -> None:
    """Check a demo's scenes, raising ``ValueError`` naming the demo, the scene and what is wrong.

    Every scene must name only the demo's controls and give each one of its ``site_values``
    (:meth:`Demo.scene_indices`); its name must be lower case, one to ``MAX_NAME_WORDS`` words, and unique
    in the demo; its caption one sentence ending in a full stop, of at most ``MAX_CAPTION_LENGTH``
    characters; and no two scenes may set the controls to the same state. A demo without scenes passes.

    Parameters
    ----------
    demo : Demo or type of Demo
        The demo to check (a class is instantiated first).

    Raises
    ------
    ValueError
        Naming the demo, the scene and, where one is at fault, the control.

    Examples
    --------
    >>> from rope_viz.demos.clocks import MultiSpeedClocks
    >>> check_scenes(MultiSpeedClocks)
    >>> MultiSpeedClocks().scene_indices(MultiSpeedClocks.scenes[0])  # position 6, base 10,000, d = 64
    [6, 2, 2]

    """
    if isinstance(demo, type):
        demo = demo()
    demo_name = type(demo).__name__
    seen_names: set[str] = set()
    seen_states: dict[tuple[int, ...], str] = {}
    for scene in demo.scenes:
        if not isinstance(scene, Scene):
            raise ValueError(f"{demo_name}: scenes must be Scene objects, got {scene!r}")
        where = f"{demo_name}, scene {scene.name!r}"
        words = scene.name.split()
        if not 1 <= len(words) <= MAX_NAME_WORDS or " ".join(words) != scene.name:
            raise ValueError(f"{where}: a name is 1 to {MAX_NAME_WORDS} words separated by single spaces")
        if scene.name != scene.name.lower():
            raise ValueError(f"{where}: a name is in lower case")
        if scene.name in seen_names:
            raise ValueError(f"{where}: two scenes of one demo have this name")
        seen_names.add(scene.name)
        caption = scene.caption
        if not caption.strip():
            raise ValueError(f"{where}: the caption is empty")
        if len(caption) > MAX_CAPTION_LENGTH:
            raise ValueError(
                f"{where}: the caption has {len(caption)} characters, more than {MAX_CAPTION_LENGTH}"
            )
        if caption != caption.strip() or "\n" in caption:
            raise ValueError(f"{where}: the caption is one line without surrounding spaces")
        if not caption.endswith(".") or caption.endswith(".."):
            raise ValueError(f"{where}: the caption must end in a full stop")
        if _SENTENCE_BREAK.search(caption):
            raise ValueError(f"{where}: the caption must be one sentence")
        state = tuple(demo.scene_indices(scene))
        if state in seen_states:
            raise ValueError(f"{where}: the same state as scene {seen_states[state]!r}")
        seen_states[state] = scene.name


def _path_keys(path: str) -> list[str | int]:
    """Return the keys of a Plotly attribute path: ``"a.b[0].c"`` gives ``["a", "b", 0, "c"]``."""
    keys: list[str | int] = []
    for part in path.split("."):
        while "[" in part:
            head, rest = part.split("[", 1)
            index, part = rest.split("]", 1)
            if head:
                keys.append(head)
            keys.append(int(index))
            part = part.lstrip(".")
        if part:
            keys.append(part)
    return keys


def _get_path(target: dict[str, Any], path: str) -> Any:
    """Return ``target["a"]["b"][0]["c"]`` for a Plotly attribute path ``"a.b[0].c"`` (None if not set)."""
    node: Any = target
    for key in _path_keys(path):
        if isinstance(key, int):
            node = node[key] if isinstance(node, list) and key < len(node) else None
        else:
            node = node.get(key) if isinstance(node, dict) else None
        if node is None:
            return None
    return node


def _set_path(target: dict[str, Any], path: str, value: Any) -> None:
    """Set ``target["a"]["b"][0]["c"] = value`` for a Plotly attribute path ``"a.b[0].c"``."""
    keys = _path_keys(path)
    node: Any = target
    for key, next_key in itertools.pairwise(keys):
        if isinstance(key, int):
            node = node[key]
            continue
        if key not in node:
            node[key] = [] if isinstance(next_key, int) else {}
        node = node[key]
    node[keys[-1]] = value
