"""Warm a panel's caches for one step of each control from its setting (UI only).

* :func:`step_value` — the value one step from a control's (a slider or selection by one step,
  a dropdown or toggle to the next option, a checkbox toggled), or None;
* :func:`neighbour_settings` — the settings one step away from a panel's, a control at a time;
* :func:`warm_neighbours` — runs the panel's ``compute`` (and ``draw``) on each, so that the
  first move of any control from the setting a reader opens finds what it needs cached: now,
  or in the background (queued in a :class:`~workbench.experiments.prefetch.Prefetch`, the one
  runner of work done ahead; the panel made with ``ahead=`` then waits for a setting being
  computed instead of computing it twice).

It pays off only for a ``compute`` that caches its parts by what they depend on (the
notebooks' ``experiments`` functions do); the results are discarded. A ``compute`` is pure
and seeded, so a warmed result is the one the step would have computed. This module computes
and draws nothing of its own, runs no thread itself and changes no control
(:mod:`workbench.figures.panel` binds them); text boxes are not stepped.
"""

from __future__ import annotations

import contextlib
import io
import math
from collections.abc import Callable
from typing import Any

from .._core.errors import InvalidValueError
from ..experiments.prefetch import Prefetch, setting_key
from .panel import on_step_grid

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
        # a float as the panel's compute gets it after that step (on the slider's grid)
        return on_step_grid(v, control.min, control.step) if isinstance(v, float) else v
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
                    draw: Callable[[Any], Any] | None = None,
                    ahead: Prefetch | None = None) -> int:
    """Run ``compute`` (and ``draw`` on its result, its printed text discarded) on every
    :func:`neighbour_settings` of ``panel``; return how many settings.

    ``compute`` is the function the panel shows (or one taking the same arguments and
    filling the same caches); ``draw`` is worth passing only when it keeps its figures by
    what they show (the results are discarded). Without ``ahead`` the settings are computed
    now, before this returns. With ``ahead`` they are queued there (each by
    :func:`~workbench.experiments.prefetch.setting_key`, priority 1) and computed in its
    background thread while the reader reads; ``draw`` is then not allowed (it may print,
    and the text of a background thread would reach whatever the kernel shows). Make the
    panel with the same ``ahead`` (:func:`~workbench.figures.panel.interactive_panel`).

    Raises
    ------
    ValueError
        If both ``draw`` and ``ahead`` are given.
    """
    if ahead is not None and draw is not None:
        raise InvalidValueError("warm_neighbours: a draw cannot run in the background (its printed "
                                "text would reach the page); pass draw or ahead, not both")
    settings = neighbour_settings(panel)
    if ahead is not None:
        ahead.add({setting_key(s): (lambda s=s: compute(**s)) for s in settings},
                  priority=1)
        return len(settings)
    for setting in settings:
        result = compute(**setting)
        if draw is not None:
            with contextlib.redirect_stdout(io.StringIO()):
                draw(result)
    return len(settings)
