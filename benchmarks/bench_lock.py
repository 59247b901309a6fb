"""LOCK-key throughput and the paper's partition-enumeration timing claim (Appendix C).

What is timed (median over ``--repeats`` rounds, after a warm-up call that compiles the
numba kernel and checks the keys against the exact Python-int ``lock_key``):

* ``lock_keys n=29``  -- ``workbench.theory.lock_keys(lengths, offsets, 29)`` on ``--samples``
  (default 10^5) uniformly random compositions of 29 (independent fair boundary bits, i.e.
  GRaMPa's law at τ = 1 under the infinite vocabulary), once on one thread
  (``numba.set_num_threads(1)``) and once on all of numba's threads;
* ``lock_key n=29``   -- the scalar Python-int ``lock_key`` on 2 000 of the same samples, for
  reference;
* ``partitions_k(40, 20)`` -- enumerating all 627 partitions of 40 into 20 parts with the
  iterative generator and with the literal recursive transcription of Algorithm 4. The paper
  reports "2 ms on a single Intel i7 core".

Also checks the sanity value p(37) = 21 637 (the paper's footnote 17).

Usage::

    python benchmarks/bench_lock.py [--samples N] [--repeats R] [--seed S]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable

import numba
import numpy as np

from workbench.theory import (
    lock_key,
    lock_keys,
    partition_count,
    partitions_k,
    partitions_k_recursive,
)

PAPER_PARTITIONS_MS = 2.0


def random_compositions(n: int, size: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``size`` uniform compositions of ``n`` as (lengths_flat, offsets)."""
    rng = np.random.default_rng(seed)
    cuts = rng.random((size, n - 1)) < 0.5
    bounds = np.ones((size, n + 1), dtype=bool)
    bounds[:, 1:n] = cuts
    idx = np.where(bounds, np.arange(n + 1), 0)
    prev = np.maximum.accumulate(idx, axis=1)
    lengths = (np.arange(1, n + 1) - prev[:, :-1])[bounds[:, 1:]]
    offsets = np.concatenate([[0], np.cumsum(bounds[:, 1:].sum(axis=1))]).astype(np.int64)
    return lengths.astype(np.int64), offsets


def median_time(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    n = 29
    lengths, offsets = random_compositions(n, args.samples, args.seed)
    threads = numba.get_num_threads()
    print(f"machine: {platform.processor() or platform.machine()}, numba threads: {threads}")

    # warm-up + correctness
    keys = lock_keys(lengths, offsets, n)
    check = range(0, args.samples, max(1, args.samples // 2000))
    flat = lengths.tolist()
    samples = [flat[offsets[k]:offsets[k + 1]] for k in check]
    assert keys[list(check)].tolist() == [lock_key(t) for t in samples], "kernel != lock_key"

    numba.set_num_threads(1)
    t1 = median_time(lambda: lock_keys(lengths, offsets, n), args.repeats)
    numba.set_num_threads(threads)
    tn = median_time(lambda: lock_keys(lengths, offsets, n), args.repeats)
    ts = median_time(lambda: [lock_key(t) for t in samples], max(3, args.repeats // 4))
    print(f"lock_keys n={n}, {args.samples:,} random compositions:")
    print(f"  1 thread : {t1 * 1e3:8.2f} ms  = {args.samples / t1:13,.0f} keys/s")
    print(f"  {threads} threads: {tn * 1e3:8.2f} ms  = {args.samples / tn:13,.0f} keys/s")
    print(f"  scalar lock_key (Python ints): {len(samples) / ts:,.0f} keys/s")

    count = sum(1 for _ in partitions_k(40, 20))
    assert count == 627 == sum(1 for _ in partitions_k_recursive(40, 20))
    ti = median_time(lambda: list(partitions_k(40, 20)), args.repeats)
    tr = median_time(lambda: list(partitions_k_recursive(40, 20)), args.repeats)
    print(f"partitions_k(40, 20): {count} partitions")
    print(f"  iterative            : {ti * 1e3:6.3f} ms")
    print(f"  recursive (Alg. 4)   : {tr * 1e3:6.3f} ms")
    print(f"  paper (Intel i7 core): {PAPER_PARTITIONS_MS:6.3f} ms")

    p37 = partition_count(37)
    assert p37 == 21637, p37
    print(f"sanity: p(37) = {p37:,} (paper: 'just over 20 000')")


if __name__ == "__main__":
    main()
