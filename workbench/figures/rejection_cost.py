"""Notebook 05: what rejection costs (§3.2, App. A.5), and GRaMPa's single pass.

* :func:`plot_rejection_cost` — expected and measured trials (and optionally seconds) per
  sample against ``n``, every data series tagged with a ``gid``;
* :func:`cost_frame` — the table of notebook 05 with readable column names, "—" where
  nothing was measured; :func:`time_summary` — the measured speed-up and Eq. 47's
  extrapolation as Markdown, from the same objects the figure draws;
* their data, ``rejection_cost_table`` and ``sampler_timings``, come from
  :mod:`workbench.experiments.grampa_rejection` (which checks the arguments, samples and
  times), which the notebook imports; :data:`MAX_COST_N` is its constant.

This module computes nothing, checks no argument and does not assert: the notebook and the
tests do.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..experiments.grampa_rejection import MAX_COST_N
from .common import ACCENT, GREEN, SAMPLE

__all__ = ["COST_COLUMNS", "MAX_COST_N", "MIN_MEASURED", "cost_frame", "plot_rejection_cost",
           "time_summary"]


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
        threads = timings["num_threads"]
        ax.set(title="Wall time per sample (" + ("all threads" if not threads else
                                                 "one thread" if threads == 1 else
                                                 f"{threads} threads") + ")",
               xlabel="word length n", ylabel="seconds (log scale)")
        ax.legend(fontsize=8)
    return fig




# --------------------------------------------------------------------------- tables, prose
COST_COLUMNS = {
    "markov_expected": "Markov E[T] (Eq. 47)",
    "markov_samples": "Markov samples",
    "markov_mean": "Markov mean T",
    "bit_n_valid": "N_V (valid segmentations)",
    "bit_expected": "bit-mask E[T]",
    "bit_samples": "bit-mask samples",
    "bit_mean": "bit-mask mean T",
    "grampa_valid": "GRaMPa valid share",
}
"""The columns of :func:`cost_frame`: table key -> heading."""


def cost_frame(table: Mapping[str, Any], timings: Mapping[str, Any],
               rows: Iterable[int] | None = None) -> pd.DataFrame:
    """The numbers behind :func:`plot_rejection_cost` as a ``pandas.DataFrame``.

    Indexed by word length ``n``, columns :data:`COST_COLUMNS` plus the microseconds per
    sample of the Markov sampler and of GRaMPa; ``rows`` picks word lengths (all by
    default). A mean over no samples is shown as ``"—"`` (not measured), never ``NaN``;
    whole numbers exactly, others to four significant digits.
    """
    frame = pd.DataFrame({heading: np.asarray(table[key]) for key, heading in
                          COST_COLUMNS.items()}, index=pd.Index(np.asarray(table["ns"]), name="n"))
    frame["Markov µs/sample"] = np.asarray(timings["markov"], dtype=float) * 1e6
    frame["GRaMPa µs/sample"] = np.asarray(timings["grampa_infinite"], dtype=float) * 1e6
    if rows is not None:
        frame = frame.loc[list(rows)]

    def cell(v: Any) -> Any:  # counts exact, other numbers to four significant digits
        if isinstance(v, float) and math.isnan(v):
            return "—"
        if isinstance(v, (int, np.integer)) or float(v).is_integer() and abs(v) < 1e15:
            return int(v)
        return f"{float(v):.4g}"

    return frame.astype(object).map(cell)


def time_summary(table: Mapping[str, Any], timings: Mapping[str, Any],
                 extrapolate: Iterable[int] = (16, 20, 29)) -> str:
    """The measured speed-up of GRaMPa over Markov rejection, and Eq. 47 extrapolated.

    At the longest ``n`` the Markov sampler was timed on: both samplers' microseconds per
    sample and their ratio. For each ``n`` of ``extrapolate``: Eq. 47's expected walks times
    the measured seconds per walk and character, as seconds and years per sample.
    Returns Markdown.
    """
    markov = np.asarray(timings["markov"], dtype=float)
    last = int(np.flatnonzero(np.isfinite(markov))[-1])
    n_last = int(timings["ns"][last])
    grampa = np.asarray(timings["grampa_infinite"], dtype=float)
    ratio = markov[last] / grampa[last]
    lines = [f"At n = {n_last}, the longest word it was timed on, one Markov rejection sample "
             f"took {markov[last] * 1e6:,.1f} µs and one GRaMPa sample "
             f"{grampa[last] * 1e6:.3f} µs: **× {ratio:,.0f}**.", ""]
    per_walk = timings["markov_per_trial"][last] / n_last  # seconds per walk and character
    ns = list(np.asarray(table["ns"]))
    for n in extrapolate:
        walks = table["markov_expected"][ns.index(n)]
        seconds = walks * per_walk * n
        lines.append(f"* n = {n}: Eq. 47 expects {walks:.3g} walks, about {seconds:.3g} s "
                     f"({seconds / 3.15e7:.3g} years) per Markov sample; GRaMPa: "
                     f"{grampa[list(timings['ns']).index(n)] * 1e6:.2f} µs.")
    return "\n".join(lines)
