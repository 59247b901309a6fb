"""Slider latency without a browser: every control of every panel of every notebook, stepped.

Runs each notebook's code cells in an IPython shell (working directory ``notebooks/``, as
Jupyter does) up to its "Checks" heading, then, for every panel made by
:func:`workbench.figures.panel.interactive_panel` that the notebook binds to a name (the
panels of the Checks cells are not run), steps every control forth, back and forth again
(a slider or selection by one step, a dropdown to the next option, a checkbox toggled; back
is to the value it had) and
prints, per control, the seconds each step spent in ``compute``, in ``draw`` and in updating
the widgets (``panel.last_timing``), and the whole step. It does not time the browser's part
(sending, plotly.js, layout): ``tests/app/test_browser.py`` does, in JupyterLab and Voilà.

Timings on a shared machine are noisy: the summary gives the median and the maximum of the
steps of each control; ``--repeats N`` (3) timed steps per control, alternately forth and
back (``--repeats``, as the other benchmarks and ``bench_browser_step.py`` name it; ``--steps``
is its older name, still accepted).

Usage::

    python benchmarks/bench_panels.py [NOTEBOOK_PREFIX ...] [--repeats 3] [--json FILE]

e.g. ``python benchmarks/bench_panels.py 03 06`` for notebooks 03 and 06 only.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def _reading_cells(path: Path) -> list[str]:
    """The code cells before the notebook's "Checks" heading."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = []
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and source.lstrip().startswith("## Checks"):
            break
        if cell["cell_type"] == "code":  # `%matplotlib inline` needs a kernel: MPLBACKEND
            code.append("\n".join(line for line in source.splitlines()
                                  if not line.startswith("%matplotlib")))
    return code


def bench_notebook(path: Path, repeats: int) -> dict[str, dict]:
    """Run ``path``'s reading cells, step every control of its panels ``repeats`` times
    (forth, back, forth, ...); per control the steps."""
    import ipywidgets as w
    from IPython.core.interactiveshell import InteractiveShell

    from workbench.figures.panel import panel_controls, set_panel_values
    from workbench.figures.panel_neighbours import step_value

    shell = InteractiveShell.instance()
    shell.reset()
    os.chdir(NOTEBOOKS)
    start = time.perf_counter()
    for source in _reading_cells(path):
        with contextlib.redirect_stdout(io.StringIO()):  # what the cells display
            result = shell.run_cell(source, silent=True)
        if not result.success:
            raise RuntimeError(f"{path.name}: a cell failed: {result.error_in_exec!r}")
    print(f"{path.name}: reading cells ran in {time.perf_counter() - start:.1f} s", flush=True)
    panels = {name: obj for name, obj in shell.user_ns.items()
              if isinstance(obj, w.interactive) and "workbench-output" in obj.out._dom_classes
              and not name.startswith(("check", "_"))}
    rows: dict[str, dict] = {}
    for name, panel in panels.items():
        for control_name, control in panel_controls(panel).items():
            times = []
            # forth to the next value, back to the one the control had, forth again
            # (stepping "back" from the next value would leave the setting at a list's end)
            origin, forth = control.value, step_value(control, 1)
            for step in range(repeats):
                value = forth if step % 2 == 0 else origin
                if forth is None:
                    break
                t0 = time.perf_counter()
                with contextlib.redirect_stdout(io.StringIO()):  # outputs, without a kernel
                    set_panel_values(panel, **{control_name: value})
                total = time.perf_counter() - t0
                times.append({**{k: round(v, 4) for k, v in panel.last_timing.items()},
                              "step_s": round(total, 4)})
            if times:
                key = f"{path.stem}.{name}.{control_name}"
                rows[key] = {"steps": times}
                print(f"  {name}.{control_name:14s} " + "  ".join(
                    f"[c {t['compute_s'] * 1e3:6.1f} d {t['draw_s'] * 1e3:6.1f} "
                    f"s {t['show_s'] * 1e3:6.1f} = {t['step_s'] * 1e3:6.1f} ms]" for t in times),
                    flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prefixes", nargs="*", help="notebook name prefixes (default: all)")
    parser.add_argument("--repeats", "--steps", dest="repeats", type=int, default=3,
                        help="timed steps per control, alternately forth and back (3)")
    parser.add_argument("--json", help="also write the steps to this JSON file")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    paths = [p for p in sorted(NOTEBOOKS.glob("*.ipynb"))
             if not args.prefixes or p.name.startswith(tuple(args.prefixes))]
    rows: dict[str, dict] = {}
    for path in paths:
        rows.update(bench_notebook(path, args.repeats))
    print("\n| notebook.panel.control | median ms | max ms | max compute | max draw |")
    print("|---|---:|---:|---:|---:|")
    for key, row in rows.items():
        st = [t["step_s"] * 1e3 for t in row["steps"]]
        print(f"| {key} | {statistics.median(st):.0f} | {max(st):.0f} | "
              f"{max(t['compute_s'] for t in row['steps']) * 1e3:.0f} | "
              f"{max(t['draw_s'] for t in row['steps']) * 1e3:.0f} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
