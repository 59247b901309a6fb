"""Slider steps of notebooks 01 and 02's panels in Python: compute + draw, per control.

Builds each panel as the notebook does (default vocabularies, default settings), then moves
one control at a time through a few values, as clicks would (``control.value = v``: the
panel computes its result, draws its figures and renders them into its output), timing each
step with ``time.perf_counter``. The browser's share (sending the figure, plotly drawing it)
is not included: ``tests/app/test_browser.py`` measures that.

Reported per panel and control: the number of steps, the median and the largest step (ms),
over ``--rounds`` passes through the values (the first pass meets empty caches for new
values; later passes show a reader going back and forth). Target: every step ≤ 100 ms.

Usage::

    NUMBA_CACHE_DIR=/tmp/nc python benchmarks/bench_panels.py [--rounds R]
"""

from __future__ import annotations

import argparse
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
from workbench.figures.lattice import lattice_panel  # noqa: E402
from workbench.figures.panel import panel_controls  # noqa: E402
from workbench.figures.skew_widget import skew_widget  # noqa: E402

TARGET_MS = 100.0

#: per panel: how to build it and the values each control steps through (in order)
PANELS: dict[str, tuple[Callable[[dict], Any], dict[str, list[Any]]]] = {
    "01 lattice": (
        lambda opts: lattice_panel(lattice_view, opts, word="GRAMPA", vocabulary="figure-1",
                                   direction="r2l"),
        {"ell_min": [2, 3, 1], "direction": ["l2r", "r2l"], "word": ["GRAMPAS", "GRAM",
                                                                      "GRAMPA"],
         "vocabulary": ["infinite", "figure-1"]}),
    "02 skew": (
        lambda opts: skew_widget(skew_summary, opts, word=" tokenisation",
                                 vocabulary="ulm-8k" if "ulm-8k" in opts else "infinite"),
        {"tau": [5.0, -10.0, math.inf, -1.0, 0.5, 1.0], "p": [0.5, 0.25, 1.0],
         "ell_min": [2, 1], "direction": ["r2l", "l2r"],
         "word": [" information", " tokenisation"]}),
}


def time_panel(panel: Any, steps: dict[str, list[Any]], rounds: int) -> dict[str, list[float]]:
    """Seconds per step, by control (values set one at a time, as clicks)."""
    controls = panel_controls(panel)
    times: dict[str, list[float]] = {name: [] for name in steps}
    for _ in range(rounds):
        for name, values in steps.items():
            for value in values:
                start = time.perf_counter()
                controls[name].value = value
                times[name].append(time.perf_counter() - start)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    opts = vocabulary_options()
    print("| panel | control | steps | first pass: median / max (ms) | "
          "later passes: median / max (ms) |")
    print("|---|---|---:|---:|---:|")
    worst = 0.0
    for title, (build, steps) in PANELS.items():
        panel = build(opts)
        times = time_panel(panel, steps, args.rounds)
        for name, ts in times.items():
            k = len(steps[name])
            first, later = [1e3 * t for t in ts[:k]], [1e3 * t for t in ts[k:]] or [math.nan]
            worst = max(worst, max(later))
            print(f"| {title} | {name} | {len(ts)} | {statistics.median(first):.0f} / "
                  f"{max(first):.0f} | {statistics.median(later):.0f} / {max(later):.0f} |")
    verdict = "met" if worst <= TARGET_MS else "not met"
    print(f"\nlargest step after the first pass: {worst:.0f} ms (target ≤ {TARGET_MS:.0f} ms: "
          f"{verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
