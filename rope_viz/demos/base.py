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
from dataclasses import dataclass, field
from typing import Any


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
                text = "10" + str(round(exponent)).translate(_SUPERSCRIPTS)
        return f"{text} {self.unit}".strip()


_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


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


class Demo(abc.ABC):
    """An interactive figure: controls, a base figure and a pure ``view`` function."""

    #: Short title, used as the accessible name of the figure.
    title: str = ""
    #: The sliders, in display order.
    controls: tuple[Control, ...] = ()

    @abc.abstractmethod
    def base_figure(self) -> dict[str, Any]:
        """Return the figure's traces (styles, no data needed) and layout, as a Plotly figure dict."""

    @abc.abstractmethod
    def view(self, **values: float) -> View:
        """Return what the figure shows for the given control values (one keyword per control)."""

    def defaults(self) -> dict[str, float]:
        """Return each control's default value, by name."""
        return {control.name: control.default for control in self.controls}

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


def _set_path(target: dict[str, Any], path: str, value: Any) -> None:
    """Set ``target["a"]["b"][0]["c"] = value`` for a Plotly attribute path ``"a.b[0].c"``."""
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
    node: Any = target
    for key, next_key in itertools.pairwise(keys):
        if isinstance(key, int):
            node = node[key]
            continue
        if key not in node:
            node[key] = [] if isinstance(next_key, int) else {}
        node = node[key]
    node[keys[-1]] = value
