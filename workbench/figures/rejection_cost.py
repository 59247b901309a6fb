"""Notebook 05: what rejection costs (§3.2, App. A.5), and GRaMPa's single pass.

* :func:`rejection_cost_table` — expected (Eq. 47, ``2^(n-1)/N_V``) and measured numbers of
  trials of the two rejection samplers, and GRaMPa's single pass;
* :func:`sampler_timings` — wall time per sample of the same samplers (the only impure
  function here: it reads the clock);
* :func:`plot_rejection_cost` — both against ``n``, every data series tagged with a ``gid``.

This module implements no sampler itself (it calls :mod:`workbench.theory.rejection` and
:class:`workbench.Grampa`) and does not assert: the notebook and the tests do (measured
means against :func:`workbench.stats.trial_tolerance`).

Example
-------
>>> t = rejection_cost_table([1, 4], n_samples=200, seed=0)
>>> t["markov_expected"].tolist(), t["bit_expected"].tolist()
([1.0, 3.0], [1.0, 1.6])
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .._core.validate import check_int, check_n
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
from .common import ACCENT, GREEN, SAMPLE, check_samples

__all__ = ["MAX_COST_N", "plot_rejection_cost", "rejection_cost_table", "sampler_timings"]

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
        raise ValueError("ns must not be empty")
    return out


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
    vocab = _bounded_vocabulary(cap)

    def record(name: str, i: int, trials: np.ndarray) -> None:
        out[f"{name}_samples"][i] = trials.size
        out[f"{name}_mean"][i] = trials.mean()
        out[f"{name}_sem"][i] = trials.std(ddof=1) / math.sqrt(trials.size) \
            if trials.size > 1 else np.nan
        out[f"{name}_max"][i] = trials.max()

    for i, n in enumerate(ns):
        e_markov = markov_rejection_expected_trials(n)
        out["markov_expected"][i] = float(e_markov)
        count = _batch_size(e_markov, size, budget)
        if n <= MAX_MARKOV_N and count >= 1:
            _, _, trials = markov_rejection_samples(n, count, np.random.default_rng([seed, n, 0]))
            record("markov", i, trials)

        n_valid = bounded_composition_count(n, cap)
        e_bit = bit_rejection_expected_trials(n_valid, n)
        out["bit_n_valid"][i] = n_valid
        out["bit_expected"][i] = float(e_bit)
        count = _batch_size(e_bit, size, budget)
        if n <= MAX_BIT_N and count >= 1:
            _, _, trials = bit_rejection_samples(n, cap, count,
                                                 np.random.default_rng([seed, n, 1]))
            record("bit", i, trials)

        g = Grampa(vocab, tau=1.0, seed=np.random.default_rng([seed, n, 2]))
        lengths, offsets = g.sample_lengths("a" * n, size)
        sums = np.add.reduceat(lengths.astype(np.int64), offsets[:-1]) \
            if lengths.size else np.zeros(size, dtype=np.int64)
        longest = np.maximum.reduceat(lengths, offsets[:-1]) if lengths.size else sums
        out["grampa_valid"][i] = float(np.mean((sums == n) & (longest <= cap)))
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


def sampler_timings(ns: Iterable[int] = range(1, 41), n_samples: int = 2000,
                    max_token_length: int = 2, trial_budget: int = 2 * 10**5,
                    seed: int = 0, threads: int | None = 1, repeat: int = 3
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
    threads : int or None
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
        Eq. 47); ``threads``.
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
    if threads is not None:
        numba.set_num_threads(check_int(threads, "threads", minimum=1,
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
        if threads is not None:
            numba.set_num_threads(previous)
    out["threads"] = threads
    return out

# --------------------------------------------------------------------------- figures
MIN_MEASURED = 30
"""Fewest samples behind a plotted measured mean (fewer: the point is not drawn)."""


def _measured(table: Mapping[str, Any], name: str) -> tuple[np.ndarray, np.ndarray]:
    """Measured means with at least :data:`MIN_MEASURED` samples (NaN elsewhere) and their
    ± 2 standard errors, the lower bar clipped to stay above 0 on a log axis."""
    enough = np.asarray(table[f"{name}_samples"]) >= MIN_MEASURED
    mean = np.where(enough, np.asarray(table[f"{name}_mean"], dtype=float), np.nan)
    two_sem = 2 * np.nan_to_num(np.where(enough, np.asarray(table[f"{name}_sem"], float), 0.0))
    return mean, np.vstack([np.minimum(two_sem, 0.9 * np.nan_to_num(mean)), two_sem])


def plot_rejection_cost(table: Mapping[str, Any],
                        timings: Mapping[str, Any] | None = None) -> Figure:
    """Trials per accepted sample against ``n`` (log scale); optionally seconds per sample.

    Left: Eq. 47 ``n!/2^(n-1)`` and ``2^(n-1)/N_V`` as lines, the measured mean trials
    (± 2 standard errors) as points where at least :data:`MIN_MEASURED` samples fit the
    budget (a mean of fewer draws is not shown), GRaMPa's single pass at 1. Right (with ``timings``
    from :func:`sampler_timings`): measured seconds per sample; the Markov
    sampler's is extended beyond the measured ``n`` as ``E[T] · n`` (Eq. 48), scaled
    through its last measured point.

    Gids: ``markov-expected``, ``markov-measured``, ``bit-expected``, ``bit-measured``,
    ``grampa-passes``; ``time-markov``, ``time-bit``, ``time-grampa-infinite``,
    ``time-grampa-bounded``, ``time-markov-extrapolated``.
    """
    ns = np.asarray(table["ns"])
    cap = table["max_token_length"]
    fig = Figure(figsize=(11 if timings is not None else 6, 4.4), layout="constrained")
    axes = fig.subplots(1, 2 if timings is not None else 1, squeeze=False).ravel()
    ax = axes[0]
    ax.semilogy(ns, table["markov_expected"], color=ACCENT,
                label="Markov rejection, Eq. 47: n!/2ⁿ⁻¹", gid="markov-expected")
    mean, yerr = _measured(table, "markov")
    bars = ax.errorbar(ns, mean, yerr=yerr, color=ACCENT, linestyle="none", marker="o",
                       markersize=4,
                       label=f"  Markov: measured mean ± 2 s.e. (≥ {MIN_MEASURED} samples)")
    bars.lines[0].set_gid("markov-measured")  # the points only, not the error bars
    ax.semilogy(ns, table["bit_expected"], color=SAMPLE,
                label=f"bit-mask rejection, §3.2: 2ⁿ⁻¹/N_V (tokens ≤ {cap})",
                gid="bit-expected")
    mean, yerr = _measured(table, "bit")
    bars = ax.errorbar(ns, mean, yerr=yerr, color=SAMPLE, linestyle="none", marker="s",
                       markersize=3,
                       label=f"  bit-mask: measured mean ± 2 s.e. (≥ {MIN_MEASURED} samples)")
    bars.lines[0].set_gid("bit-measured")  # the points only, not the error bars
    ax.semilogy(ns, table["grampa_passes"], color=GREEN, linewidth=2,
                label="GRaMPa: one pass, always valid", gid="grampa-passes")
    ax.set(title="Trials per accepted sample", xlabel="word length n",
           ylabel="trials (log scale)")
    ax.set_ylim(0.5, None)
    ax.legend(fontsize=8)
    if timings is not None:
        ax = axes[1]
        tn = np.asarray(timings["ns"])
        per_trial = np.asarray(timings["markov_per_trial"], dtype=float)
        measured = np.flatnonzero(np.isfinite(per_trial))
        ax.semilogy(tn, timings["markov"], color=ACCENT, marker="o", markersize=4,
                    label="Markov rejection (infinite V)", gid="time-markov")
        if measured.size:  # Eq. 48: E[T] walks of O(n) steps, scaled from the longest run
            last = measured[-1]
            expected = np.interp(tn, ns, table["markov_expected"])
            ahead = slice(last, None)
            ax.semilogy(tn[ahead], (expected * per_trial[last] * tn / tn[last])[ahead],
                        color=ACCENT, linestyle=":",
                        label="  Eq. 48: E[T]·O(n) beyond the last measured n",
                        gid="time-markov-extrapolated")
        ax.semilogy(tn, timings["bit"], color=SAMPLE, marker="s", markersize=3,
                    label=f"bit-mask rejection (tokens ≤ {cap})", gid="time-bit")
        ax.semilogy(tn, timings["grampa_infinite"], color=GREEN, marker=".",
                    label="GRaMPa (infinite V)", gid="time-grampa-infinite")
        ax.semilogy(tn, timings["grampa_bounded"], color=GREEN, linestyle="--",
                    label=f"GRaMPa (tokens ≤ {cap})", gid="time-grampa-bounded")
        top = np.nanmax([np.nanmax(timings[k]) for k in
                         ("markov", "bit", "grampa_infinite", "grampa_bounded")])
        ax.set_ylim(None, top * 100)
        ax.set(title=f"Wall time per sample ({timings['threads'] or 'all'} thread(s))",
               xlabel="word length n", ylabel="seconds (log scale)")
        ax.legend(fontsize=8)
    return fig


