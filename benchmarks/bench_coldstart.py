"""Cold start of a fresh Python process on a warm numba cache (issue 20's targets).

Each case is a new interpreter (``sys.executable``), timed from before ``exec`` to exit
(wall clock, so interpreter start-up is included) and, inside, from the first import to the
end of the first result:

* ``import workbench``                      -- the package itself (lazy public names);
* ``python -m workbench --help``            -- the CLI's help;
* ``first GRaMPa sample``                   -- ``from workbench import Grampa, Vocabulary``, a
  five-token vocabulary, ``Grampa(...).sample("abab")``;
* ``first GRaMPa sample (ulm-8k)``          -- the same on the shipped 8k vocabulary
  (loading it and building its tries included);
* ``first GRaMPa encode (ulm-8k, numba kernels)`` -- ``encode`` always runs the numba
  kernels (``sample``/``tokenize`` of a small request run in plain Python while numba is not
  loaded, :mod:`workbench.grampa.interpreted`): what a process pays to start numba;
* ``CLI first sample (ulm-8k)``            -- ``python -m workbench sample -n 1 --space
  tokenisation`` (the same through the command line, which also skips the interpreter's
  last garbage collection, see ``workbench.__main__._exit``);
* ``SentencePiece first sample``            -- ``spm.SentencePieceProcessor(model_file=...)``
  and one ``encode(..., enable_sampling=True)`` on the shipped 8k ULM model (when installed;
  its path is found beforehand, so the process imports nothing of workbench).

Run ``python -m workbench warmup`` first (``make`` does it after installing); the script runs
every case once untimed so that the cache is warm. The cases are interleaved over the
repeats. Reported: medians (and min) in seconds.

Usage::

    python benchmarks/bench_coldstart.py [--repeats R]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES = {
    "import workbench": "import workbench",
    "python -m workbench --help": None,
    "first GRaMPa sample": (
        "from workbench import Grampa, Vocabulary\n"
        "Grampa(Vocabulary(['a', 'b', 'ab', 'ba', 'aba']), tau=2.0, seed=0).sample('abab')"),
    "first GRaMPa sample (ulm-8k)": (
        "from workbench import Grampa, datasets\n"
        "v = datasets.load_vocabulary('ulm-8k')\n"
        "Grampa(v, tau=2.0, seed=0).sample(v.to_alphabet(' tokenisation'))"),
    "first GRaMPa encode (ulm-8k, numba kernels)": (
        "from workbench import Grampa, datasets\n"
        "v = datasets.load_vocabulary('ulm-8k')\n"
        "Grampa(v, tau=2.0, seed=0).encode([v.to_alphabet(' tokenisation')])"),
    "CLI first sample (ulm-8k)": ["sample", "-n", "1", "--space", "tokenisation"],
    "SentencePiece first sample": (
        "import sentencepiece as spm\n"
        "sp = spm.SentencePieceProcessor(model_file={model!r})\n"
        "sp.encode(['tokenisation'], enable_sampling=True, alpha=0.0, nbest_size=-1)"),
}


def _command(code: str | list[str] | None) -> list[str]:
    if code is None:
        return [sys.executable, "-m", "workbench", "--help"]
    if isinstance(code, list):  # CLI arguments
        return [sys.executable, "-m", "workbench", *code]
    return [sys.executable, "-c", code]


def _time(code: str | list[str] | None) -> float:
    start = time.perf_counter()
    subprocess.run(_command(code), cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    cases = dict(CASES)
    try:
        import sentencepiece  # noqa: F401
    except ImportError:
        print("sentencepiece not installed: its row is left out")
        del cases["SentencePiece first sample"]
    else:  # the model path is found here, so the timed process imports only sentencepiece
        from workbench.datasets import sentencepiece_model_path

        model = str(sentencepiece_model_path("ulm-8k"))
        cases["SentencePiece first sample"] = cases["SentencePiece first sample"].format(
            model=model)
    for code in cases.values():  # warm: numba cache, OS file cache
        _time(code)
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.repeats):
        for name, code in cases.items():
            times[name].append(_time(code))
    print(f"# cold start, fresh process, warm numba cache ({datetime.date.today()}, "
          f"{platform.python_version()}, {os.cpu_count()} cores, {args.repeats} repeats)")
    print("| case | median s | min s |\n|---|---|---|")
    for name, values in times.items():
        print(f"| {name} | {statistics.median(values):.3f} | {min(values):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
