"""Headless execution of notebooks as Voilà runs them: wall time, kernel start, slowest cells.

Each notebook is executed in memory by ``nbclient`` (a fresh ``python3`` kernel, working
directory ``notebooks/``), skipping the cells tagged ``checks`` as Voilà does (``app/voila.py``;
``app/site.py`` executes the same way). Printed per notebook: the whole run (kernel start
included, what plain Voilà's 20 s cold must has to hold), the kernel start alone, the sum of
the cells' own times and the slowest cells (index, seconds, first line). Nothing is written.

Timings on a shared machine are noisy: take the minimum of ``--repeats``.

Usage::

    python benchmarks/bench_headless.py [NOTEBOOK_PREFIX ...] [--repeats 1] [--top 4]
"""

from __future__ import annotations

import argparse
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def _cell_seconds(cell) -> float:
    """The seconds between a cell's execute_input and its execute_reply (nbclient's timing)."""
    timing = cell.get("metadata", {}).get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return 0.0
    parse = datetime.fromisoformat
    return (parse(end.replace("Z", "+00:00")) - parse(start.replace("Z", "+00:00"))
            ).total_seconds()


def run(path: Path) -> tuple[float, float, list[tuple[int, float, str]]]:
    """Execute ``path`` without its ``checks`` cells: (wall s, kernel start s, cells)."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=False,
                            skip_cells_with_tag="checks", record_timing=True,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    start = time.perf_counter()
    with client.setup_kernel():
        started = time.perf_counter()
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
    wall = time.perf_counter() - start
    cells = [(i, _cell_seconds(c), "".join(c.source).splitlines()[0][:60] if c.source else "")
             for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    return wall, started - start, cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prefixes", nargs="*", help="notebook name prefixes (default: all)")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--top", type=int, default=4)
    args = parser.parse_args()
    paths = [p for p in sorted(NOTEBOOKS.glob("*.ipynb"))
             if not args.prefixes or p.name.startswith(tuple(args.prefixes))]
    print("| notebook | wall s (min) | kernel start s | cells s | slowest cells |")
    print("|---|---:|---:|---:|---|")
    for path in paths:
        runs = [run(path) for _ in range(args.repeats)]
        wall, kernel, cells = min(runs, key=lambda r: r[0])
        slow = sorted(cells, key=lambda c: -c[1])[:args.top]
        print(f"| {path.stem} | {wall:.1f} | {kernel:.1f} | {sum(c[1] for c in cells):.1f} | "
              + "; ".join(f"[{i}] {s:.1f} s `{line}`" for i, s, line in slow) + " |", flush=True)


if __name__ == "__main__":
    main()
