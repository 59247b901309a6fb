"""Notebook 05: what rejection costs (§3.2, App. A.5), and GRaMPa's single pass.

* :func:`plot_rejection_cost` — expected and measured trials (and optionally seconds) per
  sample against ``n``, every data series tagged with a ``gid``;
* :func:`rejection_cost_table`, :func:`sampler_timings`, :data:`MAX_COST_N` — re-exported
  from :mod:`workbench.experiments.grampa_rejection`, which checks the arguments, samples and
  times.

This module computes nothing, checks no argument and does not assert: the notebook and the
tests do.

Example
-------
>>> t = rejection_cost_table([1, 4], n_samples=200, seed=0)
>>> t["markov_expected"].tolist(), t["bit_expected"].tolist()
([1.0, 3.0], [1.0, 1.6])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from ..experiments.grampa_rejection import MAX_COST_N, rejection_cost_table, sampler_timings
from .common import ACCENT, GREEN, SAMPLE

__all__ = ["MAX_COST_N", "MIN_MEASURED", "plot_rejection_cost", "rejection_cost_table",
           "sampler_timings"]


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


