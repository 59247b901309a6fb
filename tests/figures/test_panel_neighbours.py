"""workbench.figures.panel_neighbours: one step of each control, and warming a panel's caches."""

from __future__ import annotations

import math

import pytest

from workbench.figures.panel_neighbours import neighbour_settings, step_value, warm_neighbours

widgets = pytest.importorskip("ipywidgets")


def test_step_value_per_kind_of_control() -> None:
    assert step_value(widgets.IntSlider(value=3, min=1, max=8), 1) == 4
    assert step_value(widgets.IntSlider(value=8, min=1, max=8), 1) == 7   # the end: back
    assert step_value(widgets.IntSlider(value=1, min=1, max=8), -1) == 2
    assert math.isclose(step_value(widgets.FloatSlider(value=0.5, step=0.05), -1), 0.45)
    log = widgets.FloatLogSlider(value=100.0, base=10, min=0, max=3, step=1)
    assert math.isclose(step_value(log, 1), 1000.0) and math.isclose(step_value(log, -1), 10.0)
    options = [("a", 1.0), ("b", 2.0), ("c", 3.0)]
    assert step_value(widgets.SelectionSlider(options=options, value=1.0), 1) == 2.0
    assert step_value(widgets.SelectionSlider(options=options, value=1.0), -1) == 2.0
    assert step_value(widgets.Dropdown(options=["x", "y", "z"], value="z"), 1) == "y"
    assert step_value(widgets.ToggleButtons(options=["l2r", "r2l"], value="l2r"), 1) == "r2l"
    assert step_value(widgets.Checkbox(value=False), 1) is True
    assert step_value(widgets.Dropdown(options=["only"], value="only"), 1) is None
    assert step_value(widgets.Text(value="word"), 1) is None


def _panel(calls: list) -> object:
    from workbench.figures.panel import interactive_panel

    def compute(n: int, mode: str, word: str, seed: int) -> tuple:
        calls.append((n, mode, word, seed))
        return (n, mode, word, seed)

    return interactive_panel(
        compute, lambda result: None,
        n=widgets.IntSlider(value=2, min=1, max=5), mode=widgets.Dropdown(options=["a", "b"]),
        word=widgets.Text(value="w"), seed=widgets.fixed(7))


def test_neighbour_settings_steps_one_control_at_a_time() -> None:
    calls: list = []
    panel = _panel(calls)
    settings = neighbour_settings(panel)
    assert settings == [{"n": 3, "mode": "a", "word": "w", "seed": 7},
                        {"n": 1, "mode": "a", "word": "w", "seed": 7},
                        {"n": 2, "mode": "b", "word": "w", "seed": 7}]  # b both ways: once


def test_warm_neighbours_computes_and_draws_each_setting_once() -> None:
    calls: list = []
    panel = _panel(calls)
    drawn: list = []
    calls.clear()

    def draw(result: tuple) -> None:
        print("text a draw prints is discarded")
        drawn.append(result)

    assert warm_neighbours(panel, lambda **kw: tuple(kw.values()), draw) == 3
    assert drawn == [(3, "a", "w", 7), (1, "a", "w", 7), (2, "b", "w", 7)]
    assert calls == []                        # the panel itself did not run again
    assert panel.result == (2, "a", "w", 7)   # nor changed its setting


def test_a_float_neighbour_is_on_the_slider_grid() -> None:
    """The warmed p is the p the step computes (on_step_grid), not 0.30000000000000004."""
    assert step_value(widgets.FloatSlider(value=0.2, min=0.0, max=1.0, step=0.1), 1) == 0.3
    assert step_value(widgets.FloatSlider(value=0.7, min=0.0, max=1.0, step=0.1), -1) == 0.6


def test_warm_neighbours_in_the_background_and_the_panel_settles() -> None:
    """With ``ahead``, the settings are queued and computed in its thread; the panel made
    with the same ``ahead`` waits for a setting being computed instead of computing it again
    (each setting computed once in all)."""
    import threading

    from workbench.experiments.prefetch import Prefetch, setting_key
    from workbench.figures.panel import interactive_panel, set_panel_values

    computed: list = []
    cache: dict = {}
    started, release = threading.Event(), threading.Event()

    def compute(n: int, seed: int) -> tuple:  # caches its results, as experiments do
        if (n, seed) not in cache:
            if threading.current_thread().name == "workbench-prefetch" and n == 3:
                started.set()
                assert release.wait(10)
            computed.append((n, threading.current_thread().name))
            cache[(n, seed)] = (n, seed)
        return cache[(n, seed)]

    ahead = Prefetch()
    panel = interactive_panel(compute, lambda result: None, ahead=ahead,
                              n=widgets.IntSlider(value=2, min=1, max=5),
                              seed=widgets.fixed(7))
    with pytest.raises(ValueError, match="background"):
        warm_neighbours(panel, compute, lambda r: None, ahead=ahead)
    assert warm_neighbours(panel, compute, ahead=ahead) == 2
    assert started.wait(10)                    # n = 3 is being computed in the background
    threading.Timer(0.2, release.set).start()
    assert set_panel_values(panel, n=3) == (3, 7)  # waited for it, then found it computed
    assert ahead.join(timeout=10)
    assert sorted(computed) == [(1, "workbench-prefetch"), (2, "MainThread"),
                                (3, "workbench-prefetch")]
    assert setting_key({"n": 3, "seed": 7}) == setting_key({"seed": 7, "n": 3})
