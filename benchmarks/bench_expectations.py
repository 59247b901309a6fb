"""Exact expected GRaMPa unigram counts over the shipped word-count table, timed.

    python benchmarks/bench_expectations.py [--repeats 5]

For each shipped vocabulary and a few (τ, ℓ_min, direction) settings: the median time of
``expected_token_counts`` over the ~83k words of ``workbench.datasets.load_word_counts()``
(spelled with a leading space in the vocabulary's alphabet), next to the median time of
drawing *one* GRaMPa sample of every distinct word with ``Grampa.encode_flat`` (the cheapest
sampled estimate, far noisier than the exact answer), and their ratio. Kernels are compiled
before timing.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numba

from workbench import Grampa, Vocabulary, datasets
from workbench.grampa import expected_token_counts

SETTINGS = [(1.0, 1, "l2r"), (1.0, 1, "r2l"), (5.0, 2, "l2r"), (-10.0, 1, "l2r")]


def _median(fn, repeats: int, *args, **kwargs) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn(*args, **kwargs)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, numba threads: {numba.get_num_threads()}")
    words = datasets.load_word_counts()
    expected_token_counts({"ab": 1}, Vocabulary(["a", "b"]))  # compile
    for name in ("ulm-8k", "bpe-8k", "gpt2"):
        vocab = datasets.load_vocabulary(name)
        table = {vocab.to_alphabet(" " + w): c for w, c in words.items()}
        spelled = list(table)
        print(f"{name}: |V| = {len(vocab)}, {len(table):,} words")
        for tau, ell_min, direction in SETTINGS:
            g = Grampa(vocab, tau, ell_min, direction, seed=0)
            g.encode_flat(spelled[:10])
            exact = _median(expected_token_counts, args.repeats, table, vocab, tau, ell_min,
                            direction)
            sample = _median(g.encode_flat, args.repeats, spelled)
            print(f"  tau={tau:g} ell_min={ell_min} {direction}: exact {exact * 1e3:7.1f} ms, "
                  f"one sample per word {sample * 1e3:7.1f} ms, ratio {exact / sample:.2f}")


if __name__ == "__main__":
    main()
