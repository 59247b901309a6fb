"""GRaMPa App. C and Figure 5: segmentations on the LOCK axis (notebook 04's numbers).

* :func:`lock_order_table` — App. C: every segmentation of an ``n``-character word in LOCK
  order next to bit order;
* :func:`lock_histogram` — Figure 5: GRaMPa samples binned on the LOCK axis, for any τ.

This module implements no key or sampler itself (it calls :mod:`workbench.theory.lock` and
:class:`workbench.Grampa`), draws nothing (:mod:`workbench.figures.lock_keys` does) and does
not assert: the notebook and the tests do.

Example
-------
>>> lock_order_table(3)["columns"]["lock_segmentation"]
['abc', 'a/bc', 'ab/c', 'a/b/c']
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from .._core.errors import InvariantError
from .._core.validate import check_int, check_n, check_samples
from ..datasets.corpora import demo_word
from ..grampa import Grampa
from ..lattice import tokens_from_lengths
from ..stats import tv_distance, tv_sampling_bound
from ..theory import bit_key, bit_unrank, lock_f1, lock_f2, lock_key, lock_keys, multiset_rank
from ..vocab import Vocabulary

__all__ = [
    "FIGURE5_TAUS",
    "MAX_HISTOGRAM_N",
    "MAX_TABLE_N",
    "lock_histogram",
    "lock_order_table",
]

MAX_TABLE_N = 12
"""Largest word length for :func:`lock_order_table` (``2^(n-1)`` rows)."""
MAX_HISTOGRAM_N = 62
"""Largest word length for :func:`lock_histogram` (bin edges up to ``2^(n-1)`` in int64)."""
FIGURE5_TAUS: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0, math.inf, -10.0, -2.0)
"""The temperatures of the Figure 5 notebook, in order of decreasing ``α = 1/τ``
(2, 1, ½, ⅕, 0, -⅒, -½): each skews further towards fewer, longer tokens."""



# --------------------------------------------------------------------------- App. C
def lock_order_table(n: int = 5) -> dict[str, Any]:
    """Every segmentation of an ``n``-character word, in LOCK order and in bit order.

    Enumerates the ``2^(n-1)`` compositions by their bit keys (App. C.1,
    :func:`workbench.theory.bit_unrank`), computes each one's LOCK with
    :func:`workbench.theory.lock_key` (Eq. 62) and sorts by it: row ``k`` holds the
    segmentation with LOCK ``k`` (left half) and the one with bit key ``k`` (right half).

    Parameters
    ----------
    n : int
        Word length, ``1 <= n <= MAX_TABLE_N``.

    Returns
    -------
    dict
        ``n``, ``word`` (:func:`demo_word`) and ``columns``, a dict of equal-length lists
        (one entry per row ``k = 0 .. 2^(n-1)-1``, ready for ``pandas.DataFrame``):
        ``key`` (= ``k``); ``lock`` (the LOCK of the left segmentation, computed),
        ``lock_segmentation`` (``"a/bcd"``), ``lock_lengths``, ``m``, ``sorted``
        (``sort(t)``), ``f1``, ``f2``, ``f3`` (Eq. 59–61; ``f3 = g(t)``), ``lock_bit_key``
        (its bit key); ``bit`` (the bit key of the right segmentation),
        ``bit_segmentation``, ``bit_lengths``, ``bits`` (the ``n-1`` boundary bits) and
        ``bit_lock_key`` (its LOCK).

    Examples
    --------
    >>> t = lock_order_table(3)
    >>> t["columns"]["lock_segmentation"], t["columns"]["bit_segmentation"]
    (['abc', 'a/bc', 'ab/c', 'a/b/c'], ['abc', 'ab/c', 'a/bc', 'a/b/c'])
    """
    n = check_n(n, maximum=MAX_TABLE_N, why=f" (the table has 2^(n-1) rows; cap {MAX_TABLE_N})")
    word = demo_word(n)
    size = 1 << (n - 1)
    by_bit = [bit_unrank(b, n) for b in range(size)]
    locks = [lock_key(t) for t in by_bit]
    by_lock: list[tuple[int, ...] | None] = [None] * size
    for t, key in zip(by_bit, locks):
        if 0 <= key < size and by_lock[key] is None:
            by_lock[key] = t
    if any(t is None for t in by_lock):  # pragma: no cover - lock_key is a bijection
        raise InvariantError("lock_key is not a bijection onto 0 .. 2^(n-1)-1")
    ordered: list[tuple[int, ...]] = by_lock  # type: ignore[assignment]
    cols = {
        "key": list(range(size)),
        "lock": [lock_key(t) for t in ordered],
        "lock_segmentation": ["/".join(tokens_from_lengths(word, t)) for t in ordered],
        "lock_lengths": ordered,
        "m": [len(t) for t in ordered],
        "sorted": [tuple(sorted(t)) for t in ordered],
        "f1": [lock_f1(len(t), n) for t in ordered],
        "f2": [lock_f2(t) for t in ordered],
        "f3": [multiset_rank(t) for t in ordered],
        "lock_bit_key": [bit_key(t) for t in ordered],
        "bit": [bit_key(t) for t in by_bit],
        "bit_segmentation": ["/".join(tokens_from_lengths(word, t)) for t in by_bit],
        "bit_lengths": by_bit,
        "bits": [format(b, f"0{n - 1}b") if n > 1 else "" for b in range(size)],
        "bit_lock_key": locks,
    }
    return {"n": n, "word": word, "columns": cols}


@functools.lru_cache(maxsize=16)
def _lock_sample(n: int, tau: float, size: int, seed: int) -> tuple[np.ndarray, np.ndarray,
                                                                     np.ndarray]:
    """GRaMPa's samples of the ``n``-character demo word as LOCKs, their token counts and
    the exact token-count law (m = 1..n), read-only: cached, so a panel's ``bins`` control,
    and a τ seen before, sample nothing (~1.6 MB per entry at 10^5 samples)."""
    sampler = Grampa(Vocabulary.infinite(), tau=tau, seed=seed)  # refuses τ = 0 and NaN
    word = demo_word(n)
    lengths, offsets = sampler.sample_lengths(word, size)
    pmf = sampler.law(word).token_count_pmf()
    out = (lock_keys(lengths, offsets, n), np.diff(offsets),
           np.array([pmf.get(m, 0.0) for m in range(1, n + 1)]))
    for array in out:
        array.flags.writeable = False
    return out


def lock_histogram(n: int = 29, tau: float = 1.0, n_samples: int = 100_000, bins: int = 512,
                   seed: int = 0) -> dict[str, Any]:
    """Figure 5: GRaMPa samples of an ``n``-character word binned on the LOCK axis.

    Draws ``n_samples`` segmentations with ``Grampa(Vocabulary.infinite(), tau)``, maps
    them to LOCKs with the batch kernel :func:`workbench.theory.lock_keys` and counts them in
    ``bins`` adjacent spans of the ``2^(n-1)`` keys (span ``b`` is ``edges[b] <= key <
    edges[b+1]``, ``edges[b] = ⌊b · 2^(n-1) / bins⌋``). Because the LOCK orders by token
    count first, the axis splits into one block per ``m``, ``[f1(m), f1(m+1))``; the block
    frequencies are returned next to GRaMPa's exact token-count law at this τ.

    Parameters
    ----------
    n : int
        Word length, ``1 <= n <= MAX_HISTOGRAM_N``. Figure 5 uses 29.
    tau : float
        GRaMPa's temperature: any real number except 0, ``±inf`` allowed.
    n_samples : int
        Number of samples (Figure 5: 100 000).
    bins : int
        Number of spans, ``1 <= bins <= 2^(n-1)``.
    seed : int
        Seed of the sampler.

    Returns
    -------
    dict
        ``n``, ``tau``, ``n_samples``, ``seed``, ``n_keys`` (``2^(n-1)``); ``edges``
        (int64, ``bins + 1``), ``counts`` (int64), ``freq`` (``counts / n_samples``),
        ``uniform`` (each span's share of the keys: the expected ``freq`` at τ = 1),
        ``tv_uniform`` (TV of ``freq`` to ``uniform``), ``bound``
        (:func:`workbench.stats.tv_sampling_bound` for ``bins`` cells); ``m_edges``
        (``f1(m)`` for ``m = 1 .. n+1``), ``m_counts`` (token counts of the samples, from
        their offsets), ``m_counts_from_keys`` (samples per LOCK block), ``m_pmf``
        (``Grampa.law(word).token_count_pmf()`` at this τ, ``m = 1 .. n``), ``tv_m``, ``m_bound``;
        ``mean_m`` (sample mean) and ``expected_m`` (exact).

    Examples
    --------
    >>> h = lock_histogram(5, tau=1.0, n_samples=1600, bins=4, seed=0)
    >>> h["edges"].tolist(), int(h["counts"].sum()), h["m_edges"].tolist()
    ([0, 4, 8, 12, 16], 1600, [0, 1, 5, 11, 15, 16])
    >>> h["m_counts"].tolist() == h["m_counts_from_keys"].tolist()
    True
    """
    n = check_n(n, maximum=MAX_HISTOGRAM_N, why=f" (int64 bin edges; cap {MAX_HISTOGRAM_N})")
    size = check_samples(n_samples)
    n_keys = 1 << (n - 1)
    bins = check_int(bins, "bins", minimum=1, maximum=n_keys,
                     why=" (there are only 2^(n-1) keys)")
    seed = check_int(seed, "seed", minimum=0)
    keys, m, m_pmf = _lock_sample(n, float(tau), size, seed)
    edges = np.array([(b * n_keys) // bins for b in range(bins + 1)], dtype=np.int64)
    if n_keys * bins < 1 << 62:
        # the span of a key k: the largest b with ⌊b·N/B⌋ <= k, i.e. b < (k+1)·B/N, so
        # b = ⌈(k+1)·B/N⌉ − 1 = ((k+1)·B − 1) // N, in exact int64 ((k+1)·B <= N·B)
        span = ((keys + 1) * bins - 1) // n_keys
    else:  # the product would overflow: search the edges
        span = np.searchsorted(edges, keys, side="right") - 1
    counts = np.bincount(span, minlength=bins).astype(np.int64)
    uniform = np.diff(edges) / n_keys
    freq = counts / size
    m_edges = np.array([lock_f1(j, n) for j in range(1, n + 1)] + [n_keys], dtype=np.int64)
    m_counts = np.bincount(m, minlength=n + 1)[1:].astype(np.int64)
    m_from_keys = np.bincount(np.searchsorted(m_edges, keys, side="right") - 1,
                              minlength=n).astype(np.int64)
    return {
        "n": n, "tau": float(tau), "n_samples": size, "seed": seed, "n_keys": n_keys,
        "edges": edges, "counts": counts, "freq": freq, "uniform": uniform,
        "tv_uniform": tv_distance(freq, uniform), "bound": tv_sampling_bound(bins, size),
        "m_edges": m_edges, "m_counts": m_counts, "m_counts_from_keys": m_from_keys,
        "m_pmf": m_pmf, "tv_m": tv_distance(m_counts / size, m_pmf),
        "m_bound": tv_sampling_bound(n, size),
        "mean_m": float(m.mean()), "expected_m": float(np.dot(np.arange(1, n + 1), m_pmf)),
    }
