"""GRaMPa §3.1, Figure 2: uniform over segmentations, not over their properties (notebook 03).

* :func:`uniform_laws_panel` — Figure 2: the token count ``m``, the pooled token length
  ``ℓ``, ``R = n/m`` and ``S = (m-1)/(n-1)`` of GRaMPa samples (τ = 1, infinite vocabulary)
  tabulated against ``1 + Binom(n-1, ½)``, Eq. 12/16, Eq. 36;
* :func:`length_law_errors` — Eq. 27 and its limit Eq. 28 against the exact law Eq. 12, for
  every ``1 <= ℓ <= n <= n_max`` (differences computed exactly, then rounded).

This module implements no sampler or closed form itself (it calls :class:`workbench.Grampa`
and :mod:`workbench.theory.laws`), draws nothing (:mod:`workbench.figures.uniform_laws`
does) and does not assert: the notebook and the tests do. :func:`uniform_laws_panel` is
cached by its arguments (a slider step back samples nothing).

Example
-------
>>> p = uniform_laws_panel(6, n_samples=2000, seed=0)
>>> int(p["m"]["counts"].sum()), p["m"]["values"].tolist()
(2000, [1, 2, 3, 4, 5, 6])
>>> bool(p["m"]["tv"] < p["m"]["bound"])
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import numpy as np

from .._core.validate import check_int, check_n, check_samples
from ..datasets.corpora import demo_word
from ..grampa import Grampa
from ..stats import tv_distance, tv_sampling_bound
from ..theory import (
    expected_chars_per_token,
    token_length_count,
    token_length_limit_pmf,
    uniform_segmentality_pmf,
    uniform_token_count_pmf,
    uniform_token_length_pmf,
)
from ..vocab import Vocabulary

__all__ = ["MAX_PANEL_N", "length_law_errors", "uniform_laws_panel"]

MAX_PANEL_N = 64
"""Largest word length for :func:`uniform_laws_panel` (samples take ``n_samples * n`` ints)."""


def _floats(fractions: Iterable[Fraction]) -> np.ndarray:
    return np.array([float(x) for x in fractions], dtype=float)


# --------------------------------------------------------------------------- Figure 2
def uniform_laws_panel(n: int = 29, n_samples: int = 100_000, seed: int = 0) -> dict[str, Any]:
    """Figure 2 for one word: GRaMPa samples (τ = 1, infinite vocabulary) against §3.1.

    Draws ``n_samples`` segmentations of :func:`demo_word` ``(n)`` with
    ``Grampa(Vocabulary.infinite(), tau=1)`` and tabulates four views of them, each next to
    its closed form:

    * ``m``, the token count: ``1 + Binom(n-1, ½)``
      (:func:`workbench.theory.uniform_token_count_pmf`);
    * ``ell``, the token length pooled over all tokens of all samples: Eq. 12 with
      ``M(ℓ, n)`` of Eq. 16 (:func:`workbench.theory.uniform_token_length_pmf`), plus the
      approximation Eq. 27 and the limit Eq. 28 for comparison;
    * ``R = n/m``: the law of ``m`` moved to ``n/m`` (ascending ``R``) and its mean Eq. 36;
    * ``S = (m-1)/(n-1)``: :func:`workbench.theory.uniform_segmentality_pmf`.

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
        (:func:`workbench.stats.tv_distance` of ``freq`` to ``pmf``). ``"ell"`` also has
        ``eq27`` and ``limit`` (Eq. 28); ``"R"`` has ``mean``, ``sem`` (standard error of
        the mean) and ``expected_mean`` (Eq. 36). ``"m"`` and ``"ell"`` carry ``bound``:
        :func:`workbench.stats.tv_sampling_bound` for their number of cells and ``n_samples``.

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
    size = check_samples(n_samples)
    seed = check_int(seed, "seed", minimum=0)
    cached = _uniform_laws_panel(n, size, seed)
    return {key: dict(value) if isinstance(value, dict) else value
            for key, value in cached.items()}


@functools.lru_cache(maxsize=64)
def _uniform_laws_panel(n: int, size: int, seed: int) -> dict[str, Any]:
    """:func:`uniform_laws_panel` once per argument (a slider step back samples nothing);
    its arrays read-only, its dicts copied by the caller."""
    word = demo_word(n)
    lengths, offsets = Grampa(Vocabulary.infinite(), tau=1.0, seed=seed).sample_lengths(word, size)
    m = np.diff(offsets)
    support = np.arange(1, n + 1)

    m_counts = np.bincount(m, minlength=n + 1)[1:].astype(np.int64)
    m_pmf = _floats(uniform_token_count_pmf(n).values())
    m_freq = m_counts / size

    ell_counts = np.bincount(lengths, minlength=n + 1)[1:].astype(np.int64)
    ell_freq = ell_counts / ell_counts.sum()
    ell_pmf = _floats(uniform_token_length_pmf(n).values())
    eq27 = np.array(list(uniform_token_length_pmf(n, exact=False).values()), dtype=float)
    limit = _floats(token_length_limit_pmf(x) for x in support)

    r = n / m
    s_law = uniform_segmentality_pmf(n)
    panel = {
        "n": n,
        "n_samples": size,
        "seed": seed,
        "word": word,
        "m": {"values": support, "counts": m_counts, "freq": m_freq, "pmf": m_pmf,
              "tv": tv_distance(m_freq, m_pmf), "bound": tv_sampling_bound(n, size)},
        "ell": {"values": support, "counts": ell_counts, "freq": ell_freq, "pmf": ell_pmf,
                "eq27": eq27, "limit": limit, "tv": tv_distance(ell_freq, ell_pmf),
                "bound": tv_sampling_bound(n, size)},
        "R": {"values": n / support[::-1], "counts": m_counts[::-1].copy(),
              "freq": m_freq[::-1].copy(), "pmf": m_pmf[::-1].copy(),
              "tv": tv_distance(m_freq, m_pmf), "mean": float(r.mean()),
              "sem": float(r.std(ddof=1) / math.sqrt(size)) if size > 1 else math.inf,
              "expected_mean": float(expected_chars_per_token(n))},
        "S": {"values": _floats(s_law), "counts": m_counts, "freq": m_freq,
              "pmf": _floats(s_law.values()), "tv": tv_distance(m_freq, m_pmf)},
    }
    for view in ("m", "ell", "R", "S"):
        for value in panel[view].values():
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
    return panel


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
