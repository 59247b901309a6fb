"""Data behind the theory notebooks: one pure function per figure, numbers in, dicts out.

Each function samples with the package's samplers (seeded, so equal arguments give equal
results) and puts the samples next to the closed forms of :mod:`workbench.theory`:

* :func:`uniform_laws_panel` — Figure 2 / §3.1: histograms of the token count ``m``, the
  pooled token length ``ℓ``, ``R = n/m`` and ``S = (m-1)/(n-1)`` of GRaMPa samples
  (τ = 1, infinite vocabulary) against ``1 + Binom(n-1, ½)``, Eq. 12/16, Eq. 36;
* :func:`length_law_errors` — Eq. 27 and its limit Eq. 28 against the exact law Eq. 12,
  for every ``1 <= ℓ <= n <= n_max`` (differences computed exactly, then rounded);
* :func:`lock_order_table` — App. C: every segmentation of an ``n``-character word in LOCK
  order next to bit order;
* :func:`lock_histogram` — Figure 5: GRaMPa samples binned on the LOCK axis, for any τ;
* :func:`rejection_cost_table` — §3.2 and App. A.5: expected (Eq. 47, ``2^(n-1)/N_V``)
  and measured numbers of trials of the two rejection samplers, and GRaMPa's single pass;
* :func:`sampler_timings` — wall time per sample of the same samplers (the only impure
  function here: it reads the clock).

Helpers: :func:`tv_distance`, :func:`tv_bound` (the stated bound the notebooks assert),
:func:`trial_tolerance`, :func:`demo_word` and :func:`panels_equal` (equality of two
panel dicts holding arrays, for checking a widget's result against a direct call).

This module does not plot or import matplotlib/ipywidgets (see
:mod:`workbench.theory.plots`), does not implement any sampler or closed form itself (it
calls :mod:`workbench.grampa`, :mod:`.laws`, :mod:`.rejection`, :mod:`.lock`), and does
not assert: the notebooks and ``tests/test_theory_panels.py`` do.

Example
-------
>>> p = uniform_laws_panel(6, n_samples=2000, seed=0)
>>> int(p["m"]["counts"].sum()), p["m"]["values"].tolist()
(2000, [1, 2, 3, 4, 5, 6])
>>> bool(p["m"]["tv"] < tv_bound(6, 2000))
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from .._core.validate import check_int, check_n
from ..grampa import Grampa
from ..vocab import Vocabulary
from .laws import (
    expected_chars_per_token,
    segmentality_pmf,
    token_count_pmf,
    token_length_count,
    token_length_limit_pmf,
    token_length_pmf,
)
from .lock import bit_key, bit_unrank, lock_f1, lock_f2, lock_key, lock_keys, multiset_rank
from .rejection import (
    MAX_BIT_N,
    MAX_MARKOV_N,
    bit_rejection_expected_trials,
    bit_rejection_samples,
    bounded_composition_count,
    markov_rejection_expected_trials,
    markov_rejection_samples,
)

__all__ = [
    "FIGURE5_TAUS",
    "MAX_COST_N",
    "MAX_HISTOGRAM_N",
    "MAX_PANEL_N",
    "MAX_TABLE_N",
    "demo_word",
    "length_law_errors",
    "lock_histogram",
    "lock_order_table",
    "panels_equal",
    "rejection_cost_table",
    "sampler_timings",
    "trial_tolerance",
    "tv_bound",
    "tv_distance",
    "uniform_laws_panel",
]

MAX_PANEL_N = 64
"""Largest word length for :func:`uniform_laws_panel` (samples take ``n_samples * n`` ints)."""
MAX_TABLE_N = 12
"""Largest word length for :func:`lock_order_table` (``2^(n-1)`` rows)."""
MAX_HISTOGRAM_N = 62
"""Largest word length for :func:`lock_histogram` (bin edges up to ``2^(n-1)`` in int64)."""
MAX_COST_N = 128
"""Largest word length in :func:`rejection_cost_table` and :func:`sampler_timings`."""
MAX_SAMPLES = 10**7
"""Largest number of samples per call."""
FIGURE5_TAUS: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0, math.inf, -10.0, -2.0)
"""The temperatures of the Figure 5 notebook, in order of decreasing ``α = 1/τ``
(2, 1, ½, ⅕, 0, -⅒, -½): each skews further towards fewer, longer tokens."""

_ALPHABET = "abcdefghijklmnopqrstuvwxyz"


# --------------------------------------------------------------------------- helpers
def demo_word(n: int) -> str:
    """The ``n``-character word the panels segment: the alphabet, repeated.

    Under the infinite vocabulary every word of the same length has the same
    segmentations, so the letters only make tables readable.

    Examples
    --------
    >>> demo_word(3), len(demo_word(29))
    ('abc', 29)
    """
    n = check_int(n, "n", minimum=0)
    return (_ALPHABET * (n // len(_ALPHABET) + 1))[:n]


def tv_distance(p: Sequence[float] | np.ndarray, q: Sequence[float] | np.ndarray) -> float:
    """Total variation distance ``½ Σ |p_i - q_i|`` of two distributions on the same cells.

    Examples
    --------
    >>> tv_distance([0.5, 0.5], [1.0, 0.0])
    0.5
    """
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    if p.shape != q.shape:
        raise ValueError(f"shapes differ: {p.shape} vs {q.shape}")
    return float(0.5 * np.abs(p - q).sum())


def tv_bound(n_cells: int, n_samples: int, delta: float = 1e-6) -> float:
    """A bound on the TV distance between an empirical histogram and its law.

    ``½ √(k/N) + √(ln(1/δ) / (2N))`` for ``N`` i.i.d. draws into ``k`` cells: the expected
    distance is at most ``½ Σ √(p_i/N) <= ½ √(k/N)`` (Jensen, then Cauchy–Schwarz), and
    since one draw moves the distance by at most ``1/N``, McDiarmid's inequality makes
    exceeding the expectation by the second term a ``δ``-probability event.

    The pooled token-length histogram is not made of i.i.d. draws (tokens of one sample
    are dependent); the notebooks apply the bound with ``N`` = number of *samples* there,
    which is conservative in practice (there are ``~(n+1)/2`` tokens per sample).

    Parameters
    ----------
    n_cells : int
        Number of cells ``k >= 1``.
    n_samples : int
        Number of draws ``N >= 1``.
    delta : float
        Failure probability, in ``(0, 1)``.

    Examples
    --------
    >>> round(tv_bound(29, 100_000), 4)
    0.0168
    """
    k = check_int(n_cells, "n_cells", minimum=1)
    size = check_int(n_samples, "n_samples", minimum=1)
    if not 0.0 < delta < 1.0:
        raise ValueError(f"delta must lie in (0, 1), got {delta}")
    return 0.5 * math.sqrt(k / size) + math.sqrt(math.log(1.0 / delta) / (2.0 * size))


def trial_tolerance(expected: float | Fraction, n_samples: int, z: float = 4.0) -> float:
    """``z`` standard errors of the mean of ``n_samples`` geometric trial counts.

    A rejection sampler with acceptance probability ``p = 1/E[T]`` per trial needs
    ``T ~ Geom(p)`` trials: ``Var T = (1-p)/p^2``. The notebooks assert
    ``|mean - E[T]| <= trial_tolerance(E[T], N)`` (``z = 4``: a two-sided 6e-5 event).

    Examples
    --------
    >>> trial_tolerance(1, 100)
    0.0
    >>> round(trial_tolerance(2, 100), 3)
    0.566
    """
    size = check_int(n_samples, "n_samples", minimum=1)
    e = float(expected)
    if e < 1.0:
        raise ValueError(f"an expected number of trials is >= 1, got {e}")
    p = 1.0 / e
    return z * math.sqrt((1.0 - p) / p**2 / size)


def panels_equal(a: Any, b: Any) -> bool:
    """Deep equality of two panel results (dicts, sequences, arrays, numbers; NaN == NaN).

    Examples
    --------
    >>> panels_equal({"x": np.array([1.0, np.nan])}, {"x": np.array([1.0, np.nan])})
    True
    >>> panels_equal({"x": 1}, {"x": 2})
    False
    """
    if isinstance(a, Mapping) or isinstance(b, Mapping):
        return (isinstance(a, Mapping) and isinstance(b, Mapping) and a.keys() == b.keys()
                and all(panels_equal(a[k], b[k]) for k in a))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return False
        if a.dtype.kind in "fc" or b.dtype.kind in "fc":
            return bool(np.array_equal(a, b, equal_nan=True))
        return bool(np.array_equal(a, b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(panels_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


def _check_samples(n_samples: object) -> int:
    return check_int(n_samples, "n_samples", minimum=1, maximum=MAX_SAMPLES)


def _infinite_sampler(tau: float, seed: int) -> Grampa:
    return Grampa(Vocabulary.infinite(), tau=tau, ell_min=1, direction="l2r", seed=seed)


def _floats(fractions: Iterable[Fraction]) -> np.ndarray:
    return np.array([float(x) for x in fractions], dtype=float)


# --------------------------------------------------------------------------- Figure 2
def uniform_laws_panel(n: int = 29, n_samples: int = 100_000, seed: int = 0) -> dict[str, Any]:
    """Figure 2 for one word: GRaMPa samples (τ = 1, infinite vocabulary) against §3.1.

    Draws ``n_samples`` segmentations of :func:`demo_word` ``(n)`` with
    ``Grampa(Vocabulary.infinite(), tau=1)`` and tabulates four views of them, each next to
    its closed form:

    * ``m``, the token count: ``1 + Binom(n-1, ½)`` (:func:`.token_count_pmf`);
    * ``ell``, the token length pooled over all tokens of all samples: Eq. 12 with
      ``M(ℓ, n)`` of Eq. 16 (:func:`.token_length_pmf`), plus the approximation Eq. 27 and
      the limit Eq. 28 for comparison;
    * ``R = n/m``: the law of ``m`` moved to ``n/m`` (ascending ``R``) and its mean Eq. 36;
    * ``S = (m-1)/(n-1)``: :func:`.segmentality_pmf`.

    Parameters
    ----------
    n : int
        Word length, ``2 <= n <= MAX_PANEL_N`` (``S`` is 0/0 for ``n = 1``).
    n_samples : int
        Number of GRaMPa samples.
    seed : int
        Seed of the sampler; equal arguments give equal results.

    Returns
    -------
    dict
        ``n``, ``n_samples``, ``seed``, ``word`` and one dict per view, ``"m"``, ``"ell"``,
        ``"R"``, ``"S"``, each with ``values`` (support, ascending), ``counts`` (int64),
        ``freq`` (``counts / counts.sum()``), ``pmf`` (closed form, float) and ``tv``
        (:func:`tv_distance` of ``freq`` to ``pmf``). ``"ell"`` also has ``eq27`` and
        ``limit`` (Eq. 28); ``"R"`` has ``mean``, ``sem`` (standard error of the mean) and
        ``expected_mean`` (Eq. 36). ``"m"`` and ``"ell"`` carry ``bound``:
        :func:`tv_bound` for their number of cells and ``n_samples``.

    Examples
    --------
    >>> p = uniform_laws_panel(4, n_samples=1000, seed=1)
    >>> p["ell"]["pmf"].tolist()
    [0.6, 0.25, 0.1, 0.05]
    >>> p["R"]["values"].tolist(), p["S"]["values"].tolist()[:2]
    ([1.0, 1.3333333333333333, 2.0, 4.0], [0.0, 0.3333333333333333])
    """
    n = check_n(n, minimum=2, maximum=MAX_PANEL_N,
                why=f" (the panel holds n_samples * n token lengths; cap {MAX_PANEL_N})")
    size = _check_samples(n_samples)
    seed = check_int(seed, "seed", minimum=0)
    word = demo_word(n)
    lengths, offsets = _infinite_sampler(1.0, seed).sample_lengths(word, size)
    m = np.diff(offsets)
    support = np.arange(1, n + 1)

    m_counts = np.bincount(m, minlength=n + 1)[1:].astype(np.int64)
    m_pmf = _floats(token_count_pmf(n).values())
    m_freq = m_counts / size

    ell_counts = np.bincount(lengths, minlength=n + 1)[1:].astype(np.int64)
    ell_freq = ell_counts / ell_counts.sum()
    ell_pmf = _floats(token_length_pmf(n).values())
    eq27 = np.array(list(token_length_pmf(n, exact=False).values()), dtype=float)
    limit = _floats(token_length_limit_pmf(x) for x in support)

    r = n / m
    s_law = segmentality_pmf(n)
    return {
        "n": n,
        "n_samples": size,
        "seed": seed,
        "word": word,
        "m": {"values": support, "counts": m_counts, "freq": m_freq, "pmf": m_pmf,
              "tv": tv_distance(m_freq, m_pmf), "bound": tv_bound(n, size)},
        "ell": {"values": support, "counts": ell_counts, "freq": ell_freq, "pmf": ell_pmf,
                "eq27": eq27, "limit": limit, "tv": tv_distance(ell_freq, ell_pmf),
                "bound": tv_bound(n, size)},
        "R": {"values": n / support[::-1], "counts": m_counts[::-1].copy(),
              "freq": m_freq[::-1].copy(), "pmf": m_pmf[::-1].copy(),
              "tv": tv_distance(m_freq, m_pmf), "mean": float(r.mean()),
              "sem": float(r.std(ddof=1) / math.sqrt(size)) if size > 1 else math.inf,
              "expected_mean": float(expected_chars_per_token(n))},
        "S": {"values": _floats(s_law), "counts": m_counts, "freq": m_freq,
              "pmf": _floats(s_law.values()), "tv": tv_distance(m_freq, m_pmf)},
    }


def length_law_errors(n_max: int = 40) -> dict[str, Any]:
    """Eq. 27 and Eq. 28 against the exact token-length law Eq. 12, for ``ℓ <= n <= n_max``.

    Differences are formed between exact fractions and only then rounded to float, so the
    zeros are exact zeros: Eq. 27 equals Eq. 12 for every ``ℓ < n`` (its two
    approximations, Eq. 17 and Eq. 26, cancel there) and falls short by exactly
    ``1/((n+1)·2^n)`` at ``ℓ = n``, a relative error of ¼. The limit Eq. 28 differs by
    ``(2-ℓ)/(n+1) · 2^-ℓ`` for ``ℓ < n``.

    Parameters
    ----------
    n_max : int
        Largest word length, ``1 <= n_max <= 512``.

    Returns
    -------
    dict
        ``n`` and ``ell`` (both ``1 .. n_max``) and arrays of shape ``(n_max, n_max)``
        indexed ``[n-1, ℓ-1]``, NaN where ``ℓ > n``: ``exact`` (Eq. 12), ``eq27``,
        ``limit`` (Eq. 28), ``err27 = eq27 - exact``, ``err28 = limit - exact``,
        ``rel27 = err27 / exact``, ``rel28``; and per ``n``: ``shortfall`` (the exact
        ``1 - Σ_ℓ Eq. 27``) and ``deficit_at_n`` (``exact - eq27`` at ``ℓ = n``).

    Examples
    --------
    >>> e = length_law_errors(4)
    >>> e["err27"][3].tolist()
    [0.0, 0.0, 0.0, -0.0125]
    >>> float(e["rel27"][3, 3])
    -0.25
    """
    n_max = check_int(n_max, "n_max", minimum=1, maximum=512)
    shape = (n_max, n_max)
    out = {key: np.full(shape, np.nan) for key in
           ("exact", "eq27", "limit", "err27", "err28", "rel27", "rel28")}
    shortfall = np.zeros(n_max)
    deficit = np.zeros(n_max)
    for n in range(1, n_max + 1):
        total = Fraction((n + 1) << n, 4)
        sum27 = Fraction(0)
        for ell in range(1, n + 1):
            exact = token_length_count(ell, n) / total
            eq27 = (1 - Fraction(ell - 2, n + 1)) / (1 << ell)
            limit = token_length_limit_pmf(ell)
            sum27 += eq27
            row = (n - 1, ell - 1)
            out["exact"][row] = float(exact)
            out["eq27"][row] = float(eq27)
            out["limit"][row] = float(limit)
            out["err27"][row] = float(eq27 - exact)
            out["err28"][row] = float(limit - exact)
            out["rel27"][row] = float((eq27 - exact) / exact)
            out["rel28"][row] = float((limit - exact) / exact)
        shortfall[n - 1] = float(1 - sum27)
        deficit[n - 1] = -out["err27"][n - 1, n - 1]
    return {"n": np.arange(1, n_max + 1), "ell": np.arange(1, n_max + 1), **out,
            "shortfall": shortfall, "deficit_at_n": deficit}


# --------------------------------------------------------------------------- App. C
def _spell(word: str, lengths: Sequence[int]) -> str:
    parts, pos = [], 0
    for length in lengths:
        parts.append(word[pos:pos + length])
        pos += length
    return "/".join(parts)


def lock_order_table(n: int = 5) -> dict[str, Any]:
    """Every segmentation of an ``n``-character word, in LOCK order and in bit order.

    Enumerates the ``2^(n-1)`` compositions by their bit keys (App. C.1,
    :func:`.bit_unrank`), computes each one's LOCK with :func:`.lock_key` (Eq. 62) and sorts
    by it: row ``k`` holds the segmentation with LOCK ``k`` (left half) and the one with
    bit key ``k`` (right half).

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
        raise AssertionError("lock_key is not a bijection onto 0 .. 2^(n-1)-1")
    ordered: list[tuple[int, ...]] = by_lock  # type: ignore[assignment]
    cols = {
        "key": list(range(size)),
        "lock": [lock_key(t) for t in ordered],
        "lock_segmentation": [_spell(word, t) for t in ordered],
        "lock_lengths": ordered,
        "m": [len(t) for t in ordered],
        "sorted": [tuple(sorted(t)) for t in ordered],
        "f1": [lock_f1(len(t), n) for t in ordered],
        "f2": [lock_f2(t) for t in ordered],
        "f3": [multiset_rank(t) for t in ordered],
        "lock_bit_key": [bit_key(t) for t in ordered],
        "bit": [bit_key(t) for t in by_bit],
        "bit_segmentation": [_spell(word, t) for t in by_bit],
        "bit_lengths": by_bit,
        "bits": [format(b, f"0{n - 1}b") if n > 1 else "" for b in range(size)],
        "bit_lock_key": locks,
    }
    return {"n": n, "word": word, "columns": cols}


def lock_histogram(n: int = 29, tau: float = 1.0, n_samples: int = 100_000, bins: int = 512,
                   seed: int = 0) -> dict[str, Any]:
    """Figure 5: GRaMPa samples of an ``n``-character word binned on the LOCK axis.

    Draws ``n_samples`` segmentations with ``Grampa(Vocabulary.infinite(), tau)``, maps
    them to LOCKs with the batch kernel :func:`.lock_keys` and counts them in ``bins``
    adjacent spans of the ``2^(n-1)`` keys (span ``b`` is ``edges[b] <= key <
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
        ``tv_uniform`` (TV of ``freq`` to ``uniform``), ``bound`` (:func:`tv_bound` for
        ``bins`` cells); ``m_edges`` (``f1(m)`` for ``m = 1 .. n+1``), ``m_counts`` (token
        counts of the samples, from their offsets), ``m_counts_from_keys`` (samples per
        LOCK block), ``m_pmf`` (``Grampa.token_count_pmf`` at this τ, ``m = 1 .. n``),
        ``tv_m``, ``m_bound``; ``mean_m`` (sample mean) and ``expected_m`` (exact).

    Examples
    --------
    >>> h = lock_histogram(5, tau=1.0, n_samples=1600, bins=4, seed=0)
    >>> h["edges"].tolist(), int(h["counts"].sum()), h["m_edges"].tolist()
    ([0, 4, 8, 12, 16], 1600, [0, 1, 5, 11, 15, 16])
    >>> h["m_counts"].tolist() == h["m_counts_from_keys"].tolist()
    True
    """
    n = check_n(n, maximum=MAX_HISTOGRAM_N, why=f" (int64 bin edges; cap {MAX_HISTOGRAM_N})")
    size = _check_samples(n_samples)
    n_keys = 1 << (n - 1)
    bins = check_int(bins, "bins", minimum=1, maximum=n_keys,
                     why=" (there are only 2^(n-1) keys)")
    seed = check_int(seed, "seed", minimum=0)
    sampler = _infinite_sampler(tau, seed)  # validates tau (0 and NaN are refused)
    word = demo_word(n)
    lengths, offsets = sampler.sample_lengths(word, size)
    keys = lock_keys(lengths, offsets, n)
    edges = np.array([(b * n_keys) // bins for b in range(bins + 1)], dtype=np.int64)
    counts = np.bincount(np.searchsorted(edges, keys, side="right") - 1,
                         minlength=bins).astype(np.int64)
    uniform = np.diff(edges) / n_keys
    freq = counts / size
    m = np.diff(offsets)
    m_edges = np.array([lock_f1(j, n) for j in range(1, n + 1)] + [n_keys], dtype=np.int64)
    m_counts = np.bincount(m, minlength=n + 1)[1:].astype(np.int64)
    m_from_keys = np.bincount(np.searchsorted(m_edges, keys, side="right") - 1,
                              minlength=n).astype(np.int64)
    m_pmf = np.asarray(sampler.token_count_pmf(word), dtype=float)[1:]
    return {
        "n": n, "tau": float(tau), "n_samples": size, "seed": seed, "n_keys": n_keys,
        "edges": edges, "counts": counts, "freq": freq, "uniform": uniform,
        "tv_uniform": tv_distance(freq, uniform), "bound": tv_bound(bins, size),
        "m_edges": m_edges, "m_counts": m_counts, "m_counts_from_keys": m_from_keys,
        "m_pmf": m_pmf, "tv_m": tv_distance(m_counts / size, m_pmf),
        "m_bound": tv_bound(n, size),
        "mean_m": float(m.mean()), "expected_m": float(np.dot(np.arange(1, n + 1), m_pmf)),
    }


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
      :func:`.markov_rejection_samples`;
    * **bit-mask rejection** (§3.2) under the vocabulary of all strings of at most
      ``L = max_token_length`` characters: ``E[T] = 2^(n-1)/N_V`` with ``N_V`` the number
      of compositions of ``n`` into parts ``<= L``, measured with
      :func:`.bit_rejection_samples` (``L = 1``: only the character split is valid, the
      paper's adversarial string, ``E[T] = 2^(n-1)``);
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
    size = _check_samples(n_samples)
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
    size = _check_samples(n_samples)
    cap = check_int(max_token_length, "max_token_length", minimum=1)
    budget = check_int(trial_budget, "trial_budget", minimum=1)
    repeat = check_int(repeat, "repeat", minimum=1)
    seed = check_int(seed, "seed", minimum=0)
    k = len(ns)
    out: dict[str, Any] = {"ns": np.array(ns, dtype=np.int64)}
    for name in ("markov", "bit", "grampa_infinite", "grampa_bounded", "markov_per_trial"):
        out[name] = np.full(k, np.nan)
    infinite = _infinite_sampler(1.0, seed)
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
