"""The course's kept results: notebooks 07, 09 and 11's kept calls in a fresh process, with an
empty and with a filled directory of kept files.

Each case is a new interpreter that points :data:`workbench.experiments.kept.CACHE_DIR` at a
directory and runs the notebook's entries of :data:`workbench.experiments.course_kept.FILLS`
(the notebook's own calls, with its arguments: ``tests/experiments/test_course_kept.py``).
Timed inside the process, after the imports: the calls, which also load their non-kept
inputs (09: the Shakespeare chunk counts, about 1 s, and the UN counts; 11: the two setups,
BPE trained on the slice, timed apart as ``setups`` and not included). *empty*: a new empty
directory each time (what a first visit after an install or a code change computes);
*filled*: a directory filled once beforehand (what ``python -m workbench warmup`` leaves).
The cases are interleaved over the repeats; reported: median and min seconds.

Run ``python -m workbench warmup`` first (numba's cache warm; the kept files it writes go to
the numba cache's directory, which this script does not use). Usage::

    python benchmarks/bench_kept.py --repeats 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

NOTEBOOKS = ("07", "09", "11")
PROBE = """
import json, sys, time
from pathlib import Path
from workbench.experiments import course_kept, kept
from workbench.experiments import grampa_efficiency as GE
kept.CACHE_DIR = Path(sys.argv[1])
notebook = sys.argv[2]
start = time.perf_counter()
if notebook == "11":
    GE.course_setups()  # lru-cached: the fill below reuses them
setups = time.perf_counter() - start
start = time.perf_counter()
for fill in course_kept.FILLS:
    if fill.notebook == notebook:
        fill.run()
print(json.dumps({"kept_calls": time.perf_counter() - start, "setups": setups}))
"""


def _run(directory: Path, notebook: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", PROBE, str(directory), notebook],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    times: dict[tuple[str, str], list[float]] = {}
    setups: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        filled = Path(tmp) / "filled"
        filled.mkdir()
        for notebook in NOTEBOOKS:
            _run(filled, notebook)  # fill once, untimed
        for repeat in range(args.repeats):
            for notebook in NOTEBOOKS:
                empty = Path(tmp) / f"empty-{notebook}-{repeat}"
                empty.mkdir()
                for state, directory in (("empty", empty), ("filled", filled)):
                    result = _run(directory, notebook)
                    times.setdefault((notebook, state), []).append(result["kept_calls"])
                    if notebook == "11":
                        setups.append(result["setups"])
    print(f"{'notebook':<9}{'empty: median / min':>22}{'filled: median / min':>23}")
    for notebook in NOTEBOOKS:
        cells = [f"{statistics.median(t):.2f} / {min(t):.2f} s"
                 for t in (times[notebook, "empty"], times[notebook, "filled"])]
        print(f"{notebook:<9}{cells[0]:>22}{cells[1]:>23}")
    print(f"(11's two setups, not included: median {statistics.median(setups):.2f} s)")


if __name__ == "__main__":
    main()
