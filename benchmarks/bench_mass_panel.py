"""Notebook 12's panel: time per slider step (compute + draw + render) and per entropy match.

What is timed (median and minimum over ``--repeats`` rounds; every law cached by what it
depends on, as in the notebook, so a step recomputes only the law its slider changes):

* ``step τ`` / ``step α`` / ``step p`` / ``step q`` — one slider step of that knob from the
  default panel: :func:`workbench.experiments.laws_compare.compare_laws` with a value not yet
  seen, :func:`workbench.figures.mass.plot_mass` and :func:`summary_table`, rendered to the
  display bundles the panel publishes (:func:`workbench.figures.panel.render_outputs`);
* ``match τ`` — the *Match entropies* button for a τ not yet seen
  (:func:`workbench.experiments.laws_compare.match_entropies`), without the redraw.

The issue's aim is < 250 ms per slider step. Usage::

    python benchmarks/bench_mass_panel.py [--repeats R]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

from workbench.experiments import laws_compare as LC
from workbench.figures.mass import plot_mass, summary_table
from workbench.figures.panel import render_outputs


def _step(**knobs: float) -> float:
    t = time.perf_counter()
    c = LC.compare_laws(LC.DEFAULT_WORD, **knobs)
    render_outputs({"figure": plot_mass(c), "table": summary_table(c)})
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    _step()  # warm: loads the vocabularies, compiles the kernels, caches the default laws
    rng = np.random.default_rng(0)
    knobs = {"tau": lambda: float(rng.uniform(1.5, 20)), "alpha": lambda: float(rng.uniform(0, 2)),
             "p": lambda: float(rng.uniform(0, 0.6)), "q": lambda: float(rng.uniform(0, 0.6))}
    print(f"{platform.processor() or platform.machine()}, {args.repeats} repeats, "
          f"word {LC.DEFAULT_WORD!r}")
    for name, draw in knobs.items():
        times = [_step(**{name: draw()}) for _ in range(args.repeats)]
        print(f"step {name:5s}  median {1e3 * statistics.median(times):7.1f} ms   "
              f"min {1e3 * min(times):7.1f} ms")
    times = []
    for _ in range(max(2, args.repeats // 3)):
        t = time.perf_counter()
        LC.match_entropies(LC.DEFAULT_WORD, float(rng.uniform(2, 20)))
        times.append(time.perf_counter() - t)
    print(f"match τ      median {statistics.median(times):7.2f} s    min {min(times):7.2f} s")


if __name__ == "__main__":
    main()
