"""Notebook 03: uniform over segmentations, not over their properties (Figure 2, §3.1).

* :func:`plot_uniform_laws` — Figure 2: histograms of the token count ``m``, the pooled
  token length ``ℓ``, ``R = n/m`` and ``S = (m-1)/(n-1)`` of GRaMPa samples (τ = 1, infinite
  vocabulary) against ``1 + Binom(n-1, ½)``, Eq. 12/16, Eq. 36;
* :func:`plot_length_law_errors` — Eq. 27 and its limit Eq. 28 against the exact law Eq. 12;
  every data series tagged with a ``gid`` (read back with
  :func:`workbench.figures.common.figure_data`).

Their data, ``uniform_laws_panel`` and ``length_law_errors``, come from
:mod:`workbench.experiments.grampa_uniform_laws` (which checks the arguments, samples and
computes), which the notebook imports; :data:`MAX_PANEL_N` is its constant. This module
computes nothing, checks no argument and does not assert: the notebook and the tests do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..experiments.grampa_uniform_laws import MAX_PANEL_N
from .common import ACCENT, GREEN, GUIDE, LAW, SAMPLE

__all__ = [
    "MAX_PANEL_N",
    "plot_length_law_errors",
    "plot_uniform_laws",
]


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
    ax1.axhline(0, color=LAW, linewidth=0.6, gid=GUIDE)
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


