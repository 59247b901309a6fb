"""Notebook 03: uniform over segmentations, not over their properties (Figure 2, §3.1).

* :func:`uniform_laws_panel` — Figure 2: histograms of the token count ``m``, the pooled
  token length ``ℓ``, ``R = n/m`` and ``S = (m-1)/(n-1)`` of GRaMPa samples (τ = 1, infinite
  vocabulary) against ``1 + Binom(n-1, ½)``, Eq. 12/16, Eq. 36;
* :func:`length_law_errors` — Eq. 27 and its limit Eq. 28 against the exact law Eq. 12, for
  every ``1 <= ℓ <= n <= n_max`` (differences computed exactly, then rounded);
* :func:`plot_uniform_laws`, :func:`plot_length_law_errors` — their figures, every data
  series tagged with a ``gid`` (read back with :func:`workbench.figures.common.figure_data`).

This module implements no sampler or closed form itself (it calls :class:`workbench.Grampa`
and :mod:`workbench.theory.laws`) and does not assert: the notebook and the tests do.

Example
-------
>>> p = uniform_laws_panel(6, n_samples=2000, seed=0)
>>> int(p["m"]["counts"].sum()), p["m"]["values"].tolist()
(2000, [1, 2, 3, 4, 5, 6])
>>> bool(p["m"]["tv"] < p["m"]["bound"])
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .._core.validate import check_int, check_n
from ..grampa import Grampa
from ..stats import tv_distance, tv_sampling_bound
from ..theory import (
    expected_chars_per_token,
    segmentality_pmf,
    token_count_pmf,
    token_length_count,
    token_length_limit_pmf,
    token_length_pmf,
)
from ..vocab import Vocabulary
from .common import ACCENT, GREEN, LAW, SAMPLE, check_samples, demo_word

__all__ = [
    "MAX_PANEL_N",
    "length_law_errors",
    "plot_length_law_errors",
    "plot_uniform_laws",
    "uniform_laws_panel",
]

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

    * ``m``, the token count: ``1 + Binom(n-1, ½)`` (:func:`workbench.theory.token_count_pmf`);
    * ``ell``, the token length pooled over all tokens of all samples: Eq. 12 with
      ``M(ℓ, n)`` of Eq. 16 (:func:`workbench.theory.token_length_pmf`), plus the
      approximation Eq. 27 and the limit Eq. 28 for comparison;
    * ``R = n/m``: the law of ``m`` moved to ``n/m`` (ascending ``R``) and its mean Eq. 36;
    * ``S = (m-1)/(n-1)``: :func:`workbench.theory.segmentality_pmf`.

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
    word = demo_word(n)
    lengths, offsets = Grampa(Vocabulary.infinite(), tau=1.0, seed=seed).sample_lengths(word, size)
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


# --------------------------------------------------------------------------- figures
def _law_markers(ax: Axes, x: np.ndarray, y: np.ndarray, gid: str, label: str) -> None:
    ax.plot(x, y, linestyle="none", marker="_", markersize=14, markeredgewidth=2,
            color=LAW, label=label, gid=gid)


def plot_uniform_laws(panel: Mapping[str, Any]) -> Figure:
    """Figure 2 for one word: four histograms of :func:`uniform_laws_panel`.

    (a) token count ``m`` against ``1 + Binom(n-1, ½)``; (b) pooled token length ``ℓ``
    against Eq. 12 and the geometric limit Eq. 28; (c) ``R = n/m`` (log axis) with the
    sample mean and ``E[R]`` of Eq. 36; (d) segmentality ``S``.

    Gids: ``{m,ell,R,S}-samples`` (bars: sample frequencies), ``{m,ell,R,S}-law``
    (markers: closed form), ``ell-limit``, ``R-mean``, ``R-expected``.
    """
    n, size = panel["n"], panel["n_samples"]
    # margins by hand: constrained layout doubled the time a slider step takes to render
    fig = Figure(figsize=(11, 7.2))
    fig.subplots_adjust(left=0.065, right=0.985, bottom=0.075, top=0.9, hspace=0.32,
                        wspace=0.18)
    axes = fig.subplots(2, 2)
    fig.suptitle(f"Uniform segmentations of a {n}-character word: {size:,} GRaMPa samples "
                 "(τ = 1, infinite vocabulary)")

    m = panel["m"]
    ax = axes[0, 0]
    ax.bar(m["values"], m["freq"], width=0.8, color=SAMPLE, alpha=0.6, label="samples",
           gid="m-samples")
    _law_markers(ax, m["values"], m["pmf"], "m-law", "1 + Binom(n-1, ½)")
    ax.set(title=f"(a) token count m   (TV = {m['tv']:.4f})", xlabel="m", ylabel="share")

    ell = panel["ell"]
    ax = axes[0, 1]
    ax.bar(ell["values"], ell["freq"], width=0.8, color=SAMPLE, alpha=0.6,
           label="samples (all tokens)", gid="ell-samples")
    _law_markers(ax, ell["values"], ell["pmf"], "ell-law", "Eq. 12: M(ℓ,n) / (n+1)2ⁿ⁻²")
    ax.plot(ell["values"], ell["limit"], color=ACCENT, linestyle="--", linewidth=1,
            label="Eq. 28: 2^-ℓ", gid="ell-limit")
    ax.set(title=f"(b) token length ℓ, pooled   (TV = {ell['tv']:.4f})", xlabel="ℓ",
           ylabel="share of tokens", xlim=(0.3, min(n, 12) + 0.7))

    r = panel["R"]
    ax = axes[1, 0]
    ax.vlines(r["values"], 0, r["freq"], color=SAMPLE, linewidth=5, alpha=0.6,
              label="samples", gid="R-samples")
    _law_markers(ax, r["values"], r["pmf"], "R-law", "law of n/m")
    ax.axvline(r["mean"], color=SAMPLE, linestyle=":", label=f"mean {r['mean']:.4f}",
               gid="R-mean")
    ax.axvline(r["expected_mean"], color=ACCENT, linestyle="--",
               label=f"Eq. 36: 2(1 - 2⁻ⁿ) = {r['expected_mean']:.4f}", gid="R-expected")
    ax.set_xscale("log")
    ax.set(title="(c) characters per token R = n/m", xlabel="R (log scale)", ylabel="share")

    s = panel["S"]
    ax = axes[1, 1]
    ax.bar(s["values"], s["freq"], width=0.8 / (n - 1), color=SAMPLE, alpha=0.6,
           label="samples", gid="S-samples")
    _law_markers(ax, s["values"], s["pmf"], "S-law", "Binom(n-1, ½)/(n-1)")
    ax.set(title="(d) segmentality S = (m-1)/(n-1)", xlabel="S", ylabel="share",
           xlim=(-0.05, 1.05))
    for ax in axes.flat:
        ax.legend(fontsize=8, loc="upper right")
    return fig


def plot_length_law_errors(errors: Mapping[str, Any],
                           ns: Sequence[int] = (4, 8, 16, 29)) -> Figure:
    """Errors of Eq. 27 and Eq. 28 against Eq. 12 (:func:`length_law_errors`).

    (a) the signed error of the limit ``2^-ℓ`` against ``ℓ`` for the word lengths ``ns``
    (lines), with the error of Eq. 27 as markers (zero except at ``ℓ = n``); (b) against
    ``n``, log scale: the largest ``|Eq. 28 - Eq. 12|``, the deficit of Eq. 27 at
    ``ℓ = n`` and the missing mass ``1 - Σ_ℓ Eq. 27``.

    Gids: ``err28-n{n}``, ``err27-n{n}``, ``max-err28``, ``deficit27``, ``shortfall27``.
    """
    n_max = int(errors["n"][-1])
    ns = [n for n in ns if 1 <= n <= n_max]
    fig = Figure(figsize=(11, 4.2), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    colours = [SAMPLE, GREEN, ACCENT, "#ae3ec9", "#1098ad", LAW]
    for k, n in enumerate(ns):
        colour = colours[k % len(colours)]
        ell = errors["ell"][:n]
        ax1.plot(ell, errors["err28"][n - 1, :n], color=colour, marker=".",
                 label=f"Eq. 28 - Eq. 12, n = {n}", gid=f"err28-n{n}")
        ax1.plot(ell, errors["err27"][n - 1, :n], color=colour, linestyle="none",
                 marker="x", markersize=7, label=f"Eq. 27 - Eq. 12, n = {n}",
                 gid=f"err27-n{n}")
    ax1.axhline(0, color=LAW, linewidth=0.6)
    ax1.set(title="(a) approximation minus exact law, by token length",
            xlabel="ℓ", ylabel="P_approx(ℓ|n) - P(ℓ|n)",
            xlim=(0.5, min(n_max, max(ns, default=1)) + 0.5))
    ax1.legend(fontsize=7, ncol=2)
    n_axis = errors["n"]
    worst28 = np.nanmax(np.abs(errors["err28"]), axis=1)
    ax2.semilogy(n_axis, worst28, color=ACCENT, marker=".",
                 label="max_ℓ |Eq. 28 - Eq. 12|", gid="max-err28")
    ax2.semilogy(n_axis, errors["deficit_at_n"], color=SAMPLE, marker=".",
                 label="Eq. 12 - Eq. 27 at ℓ = n: 1/((n+1)2ⁿ)", gid="deficit27")
    ax2.semilogy(n_axis, errors["shortfall"], color=LAW, linestyle=":",
                 label="1 - Σ_ℓ Eq. 27", gid="shortfall27")
    ax2.set(title="(b) size of the errors against word length", xlabel="n",
            ylabel="absolute error (log scale)")
    ax2.legend(fontsize=8)
    return fig


