"""GRaMPa's words/s on this tree and an older one, side by side (issue 37's speed must).

A refactor of the API must not slow the sampler down. This script checks out ``--old`` (a
git revision) into a temporary worktree and times the same call in fresh processes of both
trees, alternating old / new for ``--repeats`` rounds, so a load change on a shared machine
hits both alike:

* ``Grampa(vocab, tau=5.0, seed=0)``'s array form on the ``--words`` most frequent English
  words spelled ``vocab.to_alphabet(" " + w)``: ``encode_flat(words)`` on a tree that has it,
  ``encode(words)`` (its old name) on one that does not; one thread; a warm-up call first;
  the best of 5 calls per process;
* for the ``ulm-8k`` and ``gpt2`` vocabularies.

Reported: per vocabulary and tree, the median over rounds of words/s, and new / old.

Run: ``python benchmarks/bench_side_by_side.py --old f6b316e`` (Markdown on stdout).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time, warnings
import numba
numba.set_num_threads(1)
from workbench import datasets
from workbench.grampa import Grampa
n_words = int(sys.argv[1])
out = {}
for name in ("ulm-8k", "gpt2"):
    v = datasets.load_vocabulary(name)
    words = [v.to_alphabet(" " + w) for w in datasets.english_words()[:n_words]]
    g = Grampa(v, tau=5.0, seed=0)
    call = g.encode_flat if hasattr(g, "encode_flat") else g.encode
    call(words)
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        call(words)
        best = min(best, time.perf_counter() - t)
    out[name] = len(words) / best
print(json.dumps(out))
"""


def run(tree: Path, n_words: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(n_words)], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", required=True, help="the git revision to compare with")
    parser.add_argument("--words", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        subprocess.run(["git", "worktree", "add", "--detach", str(old), args.old], cwd=ROOT,
                       check=True, capture_output=True)
        try:
            rounds: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
            for _ in range(args.repeats):
                rounds["old"].append(run(old, args.words))
                rounds["new"].append(run(ROOT, args.words))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT,
                           check=False, capture_output=True)
    print(f"GRaMPa encode_flat, {args.words:,} words, 1 thread, medians of {args.repeats} "
          f"alternating fresh processes; old = {args.old}\n")
    print("| vocabulary | old words/s | new words/s | new / old |")
    print("|---|---|---|---|")
    for name in ("ulm-8k", "gpt2"):
        o = statistics.median(r[name] for r in rounds["old"])
        n = statistics.median(r[name] for r in rounds["new"])
        print(f"| {name} | {o:,.0f} | {n:,.0f} | {n / o:.3f} |")


if __name__ == "__main__":
    main()
