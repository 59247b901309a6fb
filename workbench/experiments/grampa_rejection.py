"""GRaMPa §3.2 and App. A.5: what rejection costs, and GRaMPa's single pass (notebook 05's numbers).

* :func:`rejection_cost_table` — expected (Eq. 47, ``2^(n-1)/N_V``) and measured numbers of
  trials of the two rejection samplers, and GRaMPa's single pass;
* :func:`sampler_timings` — wall time per sample of the same samplers (the only impure
  function here: it reads the clock).

This module implements no sampler itself (it calls :mod:`workbench.samplers.rejection` and
:class:`workbench.Grampa`), draws nothing (:mod:`workbench.figures.rejection_cost` does) and
does not assert: the notebook and the tests do (measured means against
:func:`workbench.stats.trial_tolerance`).

Example
-------
>>> t = rejection_cost_table([1, 4], n_samples=200, seed=0)
>>> t["markov_expected"].tolist(), t["bit_expected"].tolist()
([1.0, 3.0], [1.0, 1.6])
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import numpy as np

from .._core.deprecation import renamed_keywords
from .._core.errors import InvalidValueError
from .._core.validate import check_int, check_n, check_samples
from ..grampa import Grampa
from ..samplers.rejection import (
    MAX_BIT_N,
    MAX_MARKOV_N,
    bit_rejection_samples,
    markov_rejection_samples,
)
from ..theory import (
    bit_rejection_expected_trials,
    bounded_composition_count,
    markov_rejection_expected_trials,
)
from ..vocab import Vocabulary

__all__ = ["MAX_COST_N", "rejection_cost_table", "sampler_timings"]

MAX_COST_N = 128
"""Largest word length in :func:`rejection_cost_table` and :func:`sampler_timings`."""


# --------------------------------------------------------------------------- §3.2, App. A.5
def _bounded_vocabulary(cap: int) -> Vocabulary:
    return Vocabulary(["a" * k for k in range(1, cap + 1)], name=f"a^1..a^{cap}")


def _batch_size(expected: Fraction, n_samples: int, budget: int) -> int:
    """Samples to draw: ``n_samples``, fewer if ``E[T]·size`` would exceed ``budget``."""
    return int(min(n_samples, budget // expected))


def _check_ns(ns: Iterable[int]) -> list[int]:
    out = [check_n(x, maximum=MAX_COST_N, why=f" (n!/2^(n-1) must fit a float; cap {MAX_COST_N})")
           for x in ns]
    if not out:
        raise InvalidValueError("ns must not be empty")
    return out


_ROW_CACHE = 4096
"""Rows kept by the caches of :func:`rejection_cost_table` (a row does not depend on the
others, so a slider over ``n_max`` or ``L`` computes only the rows it has not seen)."""


def _trial_stats(trials: np.ndarray) -> dict[str, float]:
    return {"samples": trials.size, "mean": float(trials.mean()),
            "sem": float(trials.std(ddof=1) / math.sqrt(trials.size)) if trials.size > 1
            else math.nan,
            "max": float(trials.max())}


@functools.lru_cache(maxsize=_ROW_CACHE)
def _markov_row(n: int, size: int, seed: int, budget: int) -> dict[str, float]:
    """One row of the Markov rejection columns (checked arguments; do not mutate)."""
    e_markov = markov_rejection_expected_trials(n)
    row: dict[str, float] = {"expected": float(e_markov)}
    count = _batch_size(e_markov, size, budget)
    if n <= MAX_MARKOV_N and count >= 1:
        _, _, trials = markov_rejection_samples(n, count, np.random.default_rng([seed, n, 0]))
        row.update(_trial_stats(trials))
    return row


@functools.lru_cache(maxsize=_ROW_CACHE)
def _bit_row(n: int, cap: int, size: int, seed: int, budget: int) -> dict[str, float]:
    """One row of the bit-mask rejection columns (checked arguments; do not mutate)."""
    n_valid = bounded_composition_count(n, cap)
    e_bit = bit_rejection_expected_trials(n_valid, n)
    row: dict[str, float] = {"n_valid": n_valid, "expected": float(e_bit)}
    count = _batch_size(e_bit, size, budget)
    if n <= MAX_BIT_N and count >= 1:
        _, _, trials = bit_rejection_samples(n, cap, count, np.random.default_rng([seed, n, 1]))
        row.update(_trial_stats(trials))
    return row


@functools.lru_cache(maxsize=_ROW_CACHE)
def _grampa_valid(n: int, cap: int, size: int, seed: int) -> float:
    """The share of GRaMPa's samples of ``"a" * n`` valid under tokens ``<= cap``."""
    g = Grampa(_bounded_vocabulary(cap), tau=1.0, seed=np.random.default_rng([seed, n, 2]))
    lengths, offsets = g.sample_lengths("a" * n, size)
    sums = np.add.reduceat(lengths.astype(np.int64), offsets[:-1]) \
        if lengths.size else np.zeros(size, dtype=np.int64)
    longest = np.maximum.reduceat(lengths, offsets[:-1]) if lengths.size else sums
    return float(np.mean((sums == n) & (longest <= cap)))


def rejection_cost_table(ns: Iterable[int] = range(1, 41), n_samples: int = 1000,
                         seed: int = 0, max_token_length: int = 2,
                         trial_budget: int = 10**6) -> dict[str, Any]:
    """Expected and measured trials of the two rejection samplers; GRaMPa's single pass.

    For every ``n`` in ``ns``:

    * **Markov rejection** (Cognetta et al. 2024; §2, App. A.5) on the full lattice of the
      infinite vocabulary: ``E[T] = n!/2^(n-1)`` (Eq. 47), measured with
      :func:`workbench.theory.markov_rejection_samples`;
    * **bit-mask rejection** (§3.2) under the vocabulary of all strings of at most
      ``L = max_token_length`` characters: ``E[T] = 2^(n-1)/N_V`` with ``N_V`` the number
      of compositions of ``n`` into parts ``<= L``, measured with
      :func:`workbench.theory.bit_rejection_samples` (``L = 1``: only the character split
      is valid, the paper's adversarial string, ``E[T] = 2^(n-1)``);
    * **GRaMPa** over the same bounded vocabulary (word ``"a" * n``, vocabulary
      ``a, aa, …, a^L``): one pass per sample by construction; the table records the
      share of its samples that are valid (every token ``<= L``, summing to ``n``).

    A sampler draws ``min(n_samples, ⌊trial_budget / E[T]⌋)`` samples; where that is 0
    (or ``n`` exceeds the sampler's cap) its measured columns are NaN.

    Parameters
    ----------
    ns : iterable of int
        Word lengths, each ``1 <= n <= MAX_COST_N``.
    n_samples : int
        Largest number of samples per sampler and ``n``.
    seed : int
        Base seed; sampler ``k`` at length ``n`` uses ``numpy.random.default_rng([seed, n, k])``,
        so a row does not depend on the other rows.
    max_token_length : int
        ``L >= 1`` of the bounded vocabulary.
    trial_budget : int
        Largest expected total number of trials per sampler and ``n``.

    Returns
    -------
    dict
        ``ns`` (int64) and, per ``n``: ``markov_expected``, ``markov_samples``,
        ``markov_mean``, ``markov_sem``, ``markov_max``; ``bit_n_valid``,
        ``bit_expected``, ``bit_samples``, ``bit_mean``, ``bit_sem``, ``bit_max``;
        ``grampa_passes`` (all 1) and ``grampa_valid`` (share of valid samples); plus the
        scalars ``n_samples``, ``seed``, ``max_token_length``, ``trial_budget``.

    Examples
    --------
    >>> t = rejection_cost_table([1, 4], n_samples=200, seed=0)
    >>> t["markov_expected"].tolist(), t["bit_expected"].tolist()
    ([1.0, 3.0], [1.0, 1.6])
    >>> t["grampa_valid"].tolist()
    [1.0, 1.0]
    """
    ns = _check_ns(ns)
    size = check_samples(n_samples)
    seed = check_int(seed, "seed", minimum=0)
    cap = check_int(max_token_length, "max_token_length", minimum=1)
    budget = check_int(trial_budget, "trial_budget", minimum=1)
    k = len(ns)
    out: dict[str, Any] = {"ns": np.array(ns, dtype=np.int64)}
    for name in ("markov", "bit"):
        out[f"{name}_expected"] = np.zeros(k)
        out[f"{name}_samples"] = np.zeros(k, dtype=np.int64)
        for col in ("mean", "sem", "max"):
            out[f"{name}_{col}"] = np.full(k, np.nan)
    out["bit_n_valid"] = np.zeros(k, dtype=np.int64)
    out["grampa_passes"] = np.ones(k, dtype=np.int64)
    out["grampa_valid"] = np.full(k, np.nan)
    for i, n in enumerate(ns):
        for name, row in (("markov", _markov_row(n, size, seed, budget)),
                          ("bit", _bit_row(n, cap, size, seed, budget))):
            for col, value in row.items():
                out[f"{name}_{col}"][i] = value
        out["grampa_valid"][i] = _grampa_valid(n, cap, size, seed)
    out.update({"n_samples": size, "seed": seed, "max_token_length": cap,
                "trial_budget": budget})
    return out


def _best_seconds(run, count: int, repeat: int) -> tuple[float, Any]:
    """Fastest of ``repeat`` runs of ``run(count)`` in seconds, and the last run's result."""
    best, result = math.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run(count)
        best = min(best, time.perf_counter() - start)
    return best, result


@renamed_keywords(threads="num_threads")
def sampler_timings(ns: Iterable[int] = range(1, 41), n_samples: int = 2000,
                    max_token_length: int = 2, trial_budget: int = 2 * 10**5,
                    seed: int = 0, num_threads: int | None = 1, repeat: int = 3
                    ) -> dict[str, Any]:
    """Wall-clock seconds per sample of the rejection samplers and of GRaMPa.

    Not a pure function: it reads the clock (best of ``repeat`` runs, kernels compiled
    first). Each sampler runs as one batched call of ``min(n_samples, ⌊trial_budget /
    E[T]⌋)`` samples, so the Python overhead is shared in the same way; GRaMPa's
    ``Θ(n²)`` graph is built once per call (negligible next to ``n_samples`` walks).

    Parameters
    ----------
    ns, n_samples, max_token_length, trial_budget, seed
        As in :func:`rejection_cost_table`.
    num_threads : int or None
        Numba threads during the measurement (default 1: the rejection kernels are
        serial, GRaMPa's is parallel over samples); restored afterwards. ``None`` leaves
        the setting alone.
    repeat : int
        Repetitions; the fastest is kept.

    Returns
    -------
    dict
        ``ns`` and per ``n`` (NaN where not run): ``markov``, ``bit``, ``grampa_infinite``
        (τ = 1, infinite vocabulary), ``grampa_bounded`` (the vocabulary
        ``a, …, a^L``) — seconds per sample — and ``markov_per_trial`` (seconds per
        Markov walk: the time over the walks actually taken, for extrapolating with
        Eq. 47); ``num_threads``.
    """
    import numba

    ns = _check_ns(ns)
    size = check_samples(n_samples)
    cap = check_int(max_token_length, "max_token_length", minimum=1)
    budget = check_int(trial_budget, "trial_budget", minimum=1)
    repeat = check_int(repeat, "repeat", minimum=1)
    seed = check_int(seed, "seed", minimum=0)
    k = len(ns)
    out: dict[str, Any] = {"ns": np.array(ns, dtype=np.int64)}
    for name in ("markov", "bit", "grampa_infinite", "grampa_bounded", "markov_per_trial"):
        out[name] = np.full(k, np.nan)
    infinite = Grampa(Vocabulary.infinite(), tau=1.0, seed=seed)
    bounded = Grampa(_bounded_vocabulary(cap), tau=1.0, seed=seed)
    # compile outside the clock
    markov_rejection_samples(2, 1, seed)
    bit_rejection_samples(2, cap, 1, seed)
    infinite.sample_lengths("aa", 1)
    bounded.sample_lengths("aa", 1)
    previous = numba.get_num_threads()
    if num_threads is not None:
        numba.set_num_threads(check_int(num_threads, "num_threads", minimum=1,
                                        maximum=numba.config.NUMBA_NUM_THREADS))
    try:
        for i, n in enumerate(ns):
            word = "a" * n
            e_markov = markov_rejection_expected_trials(n)
            count = _batch_size(e_markov, size, budget)
            if n <= MAX_MARKOV_N and count >= 1:
                # same seed every repeat, hence the same walks: the trial count is exact
                seconds, (_, _, trials) = _best_seconds(
                    lambda c, n=n: markov_rejection_samples(n, c, seed), count, repeat)
                out["markov"][i] = seconds / count
                out["markov_per_trial"][i] = seconds / int(trials.sum())
            e_bit = bit_rejection_expected_trials(bounded_composition_count(n, cap), n)
            count = _batch_size(e_bit, size, budget)
            if n <= MAX_BIT_N and count >= 1:
                seconds, _ = _best_seconds(
                    lambda c, n=n: bit_rejection_samples(n, cap, c, seed), count, repeat)
                out["bit"][i] = seconds / count
            for name, sampler in (("grampa_infinite", infinite), ("grampa_bounded", bounded)):
                seconds, _ = _best_seconds(lambda c, g=sampler, w=word: g.sample_lengths(w, c),
                                           size, repeat)
                out[name][i] = seconds / size
    finally:
        if num_threads is not None:
            numba.set_num_threads(previous)
    out["num_threads"] = num_threads
    return out
