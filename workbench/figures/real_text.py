"""Notebook 06's figures: GRaMPa's skew on real text, a live Table 7 row beside the paper.

Histograms of a live Table 7 row, its tables, and ``results/tables`` beside the paper's
Tables 7 and 8.

The data come from :mod:`workbench.experiments.grampa_live` (``compute_live``, one
multiplexed sample with its exact statistics) and :mod:`workbench.experiments.grampa_tables`
(``load_results``); the notebook imports them from there. This module holds the τ slider's
options (:data:`TAU_OPTIONS`, notebook 02's), draws (:func:`plot_live`; the panel's plotly
twin is :mod:`.real_text_plotly`) and tabulates (:func:`live_tables`). It computes, trains,
reads and checks nothing itself.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..experiments.grampa_skew import TAU_SLIDER_GRID, skew_coordinate
from .common import ACCENT, GREY, tau_label

__all__ = ["TAU_OPTIONS", "for_reading", "live_tables", "plot_live"]

#: The τ slider's options, as notebook 02's: (label, τ) over ``grampa_skew.TAU_SLIDER_GRID`` in
#: footnote 10's order (by −1/τ), so τ = 1 sits left of ±∞ and negative τ to its right.
TAU_OPTIONS: list[tuple[str, float]] = [
    (tau_label(t), float(t)) for t in sorted(TAU_SLIDER_GRID, key=skew_coordinate)]


def for_reading(frame: pd.DataFrame, digits: int) -> pd.DataFrame:
    """``frame`` rounded to ``digits`` places for display, an undefined cell (NaN: no exact
    law for a sampled baseline, no second segmentation for a deterministic one) shown as "–".

    >>> for_reading(pd.DataFrame({"a": [1.234, float("nan")]}), 1)["a"].tolist()
    [1.2, '–']
    """
    return frame.round(digits).astype(object).where(frame.notna(), "–")


def plot_live(result: dict, title: str | None = None) -> Figure:
    """Histograms of m per word and of token length: the sample against deterministic."""
    fig = Figure(figsize=(9.5, 3.4), layout="constrained")
    ax_m, ax_l = fig.subplots(1, 2)
    m, m_det = result["m"], result["m_det"]
    bins = np.arange(1, max(int(m.max()), int(m_det.max())) + 2) - 0.5
    ax_m.hist(m_det, bins=bins, color=GREY, alpha=0.6)[2].set_label("deterministic")
    ax_m.hist(m, bins=bins, histtype="step", color=ACCENT, lw=2, label="multiplexed GRaMPa")
    ax_m.axvline(result["exact"]["m_mean"], color=ACCENT, ls="--", lw=1,
                 label=f"exact E[m] = {result['exact']['m_mean']:.2f}")
    ax_m.set(xlabel="tokens per word m", ylabel="words", title="m per word")
    ell, ell_det = result["ell"], result["ell_det"]
    bins = np.arange(1, max(int(ell.max()), int(ell_det.max())) + 2) - 0.5
    ax_l.hist(ell_det, bins=bins, color=GREY, alpha=0.6)[2].set_label("deterministic")
    ax_l.hist(ell, bins=bins, histtype="step", color=ACCENT, lw=2, label="multiplexed GRaMPa")
    ax_l.set(xlabel="token length ℓ (characters, marker included)", ylabel="tokens",
             title="token length")
    for ax in (ax_m, ax_l):
        ax.legend(fontsize=8)
    s = result["settings"]
    fig.suptitle(title or f"{s['vocabulary']}: τ = {tau_label(s['tau'])}, ℓ_min = {s['ell_min']}, "
                 f"p = {s['p']:g}{', LD1 typos' if s['typos'] else ''} "
                 f"({result['words']:,} words)", fontsize=10)
    return fig


def live_tables(result: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The Table 7 rows (sample, deterministic) and the exact-vs-sampled comparison, where a
    quantity one sample does not estimate (the entropy) is "–" (:func:`for_reading`)."""
    rows = pd.DataFrame([result["row"], result["deterministic"]],
                        index=["this sample", "deterministic (p = 0)"])
    rows = rows[[c for c in rows.columns if c.split("_")[0] in ("m", "S", "ell", "R")]]
    side = pd.DataFrame({"exact": result["exact"], "sampled": result["sampled"]})
    return rows.round(3), for_reading(side, 4)

