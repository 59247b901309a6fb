"""Warm a panel's caches for one step of each control from its setting (UI only).

* :func:`step_value` — the value one step from a control's (a slider or selection by one step,
  a dropdown or toggle to the next option, a checkbox toggled), or None;
* :func:`neighbour_settings` — the settings one step away from a panel's, a control at a time;
* :func:`warm_neighbours` — runs the panel's ``compute`` (and ``draw``) on each, so that the
  first move of any control from the setting a reader opens finds what it needs cached.

It pays off only for a ``compute`` that caches its parts by what they depend on (the
notebooks' ``experiments`` functions do); the results are discarded. A ``compute`` is pure
and seeded, so a warmed result is the one the step would have computed. This module computes
and draws nothing of its own and changes no control (:mod:`workbench.figures.panel` binds
them); text boxes are not stepped.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["neighbour_settings", "step_value", "warm_neighbours"]


def step_value(control: Any, direction: int) -> Any:
    """The value one step from ``control``'s in ``direction`` (+1 or −1), or None.

    At the end of a range or list the step goes the other way; a control with one option
    and any other control (a text box) give None.
    """
    import ipywidgets as w

    if isinstance(control, w.Checkbox):
        return not control.value
    if isinstance(control, (w.SelectionSlider, w.Dropdown, w.ToggleButtons, w.RadioButtons)):
        values = [o[1] if isinstance(o, tuple) else o for o in control.options]
        if len(values) < 2:
            return None
        i = values.index(control.value) + direction
        return values[i if 0 <= i < len(values) else i - 2 * direction]
    if isinstance(control, w.FloatLogSlider):
        exponent = math.log(control.value, control.base)
        e = exponent + direction * control.step
        if not control.min <= e <= control.max:
            e = exponent - direction * control.step
        return control.base ** e
    if isinstance(control, (w.IntSlider, w.FloatSlider)):
        v = control.value + direction * control.step
        if not control.min <= v <= control.max:
            v = control.value - direction * control.step
        return v
    return None


def neighbour_settings(panel: Any) -> list[dict[str, Any]]:
    """Every setting one step of one control away from ``panel``'s (both directions,
    without repeats), as full keyword dicts for its ``compute`` (fixed arguments included)."""
    import ipywidgets

    current = {w._kwarg: w.get_interact_value() for w in panel.kwargs_widgets}
    settings: list[dict[str, Any]] = []
    for control in panel.kwargs_widgets:
        if isinstance(control, ipywidgets.fixed):
            continue
        for direction in (1, -1):
            value = step_value(control, direction)
            if value is None or value == current[control._kwarg]:
                continue
            setting = {**current, control._kwarg: value}
            if setting not in settings:
                settings.append(setting)
    return settings


def warm_neighbours(panel: Any, compute: Callable[..., Any],
                    draw: Callable[[Any], Any] | None = None) -> int:
    """Run ``compute`` (and ``draw`` on its result, its printed text discarded) on every
    :func:`neighbour_settings` of ``panel``; return how many settings.

    ``compute`` is the function the panel shows (or one taking the same arguments and
    filling the same caches); ``draw`` is worth passing only when it keeps its figures by
    what they show (the results are discarded).
    """
    import contextlib
    import io

    settings = neighbour_settings(panel)
    for setting in settings:
        result = compute(**setting)
        if draw is not None:
            with contextlib.redirect_stdout(io.StringIO()):
                draw(result)
    return len(settings)
