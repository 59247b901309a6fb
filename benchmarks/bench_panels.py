"""Slider steps of notebooks 01 and 02's panels in Python: compute, draw and the whole step.

Builds each panel as the notebook does (default vocabularies, default settings), then moves
one control at a time through a few values, as clicks would (``control.value = v``: the
panel computes its result, draws its figures and renders them into its output), timing

* **step** — the whole ``control.value = v`` (compute + draw + the panel's rendering,
  :mod:`workbench.figures.panel`);
* **compute** — the panel's compute function alone (``lattice_view``, ``skew_summary``;
  wrapped with a timer);
* **draw** — the figures built again from the step's result (``plotly_lattice``; the curve,
  histograms and lattice of notebook 02 — Figure 3 is drawn once per word and setting and
  kept, so it is in *step* only when it changes).

The browser's share (sending the figure, plotly drawing it) is not included:
``tests/app/test_browser.py`` measures that. Reported per panel and control: medians and
maxima (ms) over the first pass through the values (new values meet empty caches) and the
later passes (a reader going back and forth). Target: compute + draw ≤ 100 ms per step.
The host is shared: take the numbers of a quiet machine, or minima over runs.

Usage::

    NUMBA_CACHE_DIR=/tmp/nc python benchmarks/bench_panels.py [--rounds R]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

import matplotlib

matplotlib.use("Agg")

from workbench.datasets import vocabulary_options  # noqa: E402
from workbench.experiments.grampa_lattice import lattice_view  # noqa: E402
from workbench.experiments.grampa_skew import skew_summary  # noqa: E402
from workbench.figures.lattice import draw_lattice, lattice_panel  # noqa: E402
from workbench.figures.lattice_plotly import plotly_lattice  # noqa: E402
from workbench.figures.panel import panel_controls  # noqa: E402
from workbench.figures.skew_plotly import plotly_segmentality_curve, plotly_skew_panel  # noqa: E402
from workbench.figures.skew_widget import skew_widget  # noqa: E402

TARGET_MS = 100.0


def _draw_lattice(view: Any) -> None:
    try:
        plotly_lattice(view)
    except ValueError:
        draw_lattice(view)


def _draw_skew(s: Any) -> None:
    if s.panel is not None:
        plotly_skew_panel(s.panel, title="t")
    if s.lattice is not None:
        _draw_lattice(s.lattice)
    if s.curve is not None:
        plotly_segmentality_curve(s.curve, current_tau=s.tau, current=s.current, title="t")


#: per panel: its builder (given the timed compute function), the drawing and the values
#: each control steps through (in order)
PANELS: dict[str, tuple[Callable[..., Any], Callable[[Any], None], dict[str, list[Any]]]] = {
    "01 lattice": (
        lambda compute, opts: lattice_panel(compute, opts, word="GRAMPA",
                                            vocabulary="figure-1", direction="r2l"),
        _draw_lattice,
        {"ell_min": [2, 3, 1], "direction": ["l2r", "r2l"],
         "word": ["GRAMPAS", "GRAM", "GRAMPA"], "vocabulary": ["infinite", "figure-1"]}),
    "02 skew": (
        lambda compute, opts: skew_widget(
            compute, opts, word=" tokenisation",
            vocabulary="ulm-8k" if "ulm-8k" in opts else "infinite"),
        _draw_skew,
        {"tau": [5.0, -10.0, math.inf, -1.0, 0.5, 1.0], "p": [0.5, 0.25, 1.0],
         "ell_min": [2, 1], "direction": ["r2l", "l2r"],
         "word": [" information", " tokenisation"]}),
}
COMPUTE = {"01 lattice": lattice_view, "02 skew": skew_summary}


def _timed(f: Callable[..., Any], spent: list[float]) -> Callable[..., Any]:
    def timed(*args: Any) -> Any:
        start = time.perf_counter()
        try:
            return f(*args)
        finally:
            spent.append(time.perf_counter() - start)
    return timed


def time_panel(title: str, rounds: int) -> dict[str, dict[str, list[float]]]:
    """Seconds per step, by control and part ("step", "compute", "draw")."""
    build, draw, steps = PANELS[title]
    spent: list[float] = []
    panel = build(_timed(COMPUTE[title], spent), vocabulary_options())
    controls = panel_controls(panel)
    times: dict[str, dict[str, list[float]]] = {
        name: {"step": [], "compute": [], "draw": []} for name in steps}
    for _ in range(rounds):
        for name, values in steps.items():
            for value in values:
                spent.clear()
                start = time.perf_counter()
                controls[name].value = value
                times[name]["step"].append(time.perf_counter() - start)
                times[name]["compute"].append(sum(spent))
                start = time.perf_counter()
                draw(panel.result)
                times[name]["draw"].append(time.perf_counter() - start)
    return times


def _cell(ts: list[float]) -> str:
    ms = [1e3 * t for t in ts]
    return f"{statistics.median(ms):.0f} / {max(ms):.0f}" if ms else "–"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    print("| panel | control | pass | step | compute | draw | compute + draw |")
    print("|---|---|---|---:|---:|---:|---:|")
    worst = 0.0
    for title in PANELS:
        with contextlib.redirect_stdout(io.StringIO()):  # the panels' printed lines
            times = time_panel(title, args.rounds)
        for name, parts in times.items():
            k = len(PANELS[title][2][name])
            for label, sl in (("first", slice(0, k)), ("later", slice(k, None))):
                both = [c + d for c, d in zip(parts["compute"][sl], parts["draw"][sl])]
                if label == "later" and both:
                    worst = max(worst, max(both))
                print(f"| {title} | {name} | {label} | {_cell(parts['step'][sl])} | "
                      f"{_cell(parts['compute'][sl])} | {_cell(parts['draw'][sl])} | "
                      f"{_cell(both)} |")
    verdict = "met" if worst <= 1e-3 * TARGET_MS else "not met"
    print(f"\nms, median / max. Largest compute + draw after the first pass: {1e3 * worst:.0f} "
          f"ms (target ≤ {TARGET_MS:.0f} ms: {verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
