"""Notebook 10's figures for the Rényi counterexamples: the live table's bars, Thm 4.1's grid.

The data come from :mod:`workbench.experiments.renyi` (corpus, baseline BPE, encoded corpus,
``compute_*``) and :mod:`workbench.datasets.corpora` (``text_lines``), which the notebook
imports; this module only draws (:func:`plot_live_table`,
:func:`plot_condition_grid`) and words what they show (:func:`describe_live_table`,
:func:`readable_drops`). It computes, trains and checks nothing itself.
"""

from __future__ import annotations

import numpy as np

from ..experiments.renyi import (
    ALPHAS,
    EncodedCorpus,
)
from .common import GUIDE

__all__ = [
    "ALPHAS",
    "EncodedCorpus",
    "describe_live_table",
    "plot_condition_grid",
    "plot_live_table",
    "readable_drops",
]


def plot_live_table(table, readable: bool = False) -> dict:
    """Notebook 10's panel view of :func:`compute_live_table`: the table (rounded to 4
    places; with ``readable``, a setting that is not allowed reads "not allowed" rather
    than NaN) and a
    figure of its ``Eff_α`` column: bars from zero (gid ``efficiency``; a setting that is
    not allowed is a missing bar, labelled "not allowed") and, beside them, each
    counterexample's change against the baseline (gid ``efficiency-change``), where
    differences of a hundredth are visible.

    Returns ``{"table": DataFrame, "efficiency": Figure}``.
    """
    import matplotlib.pyplot as plt

    col = next(c for c in table.columns if c.startswith("Eff_"))
    values = table[col].to_numpy(dtype=np.float64)
    names = list(table.index)
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(7.5, 2.8), width_ratios=(3, 2))
    shown = np.nan_to_num(values, nan=0.0)
    colours = ["#868e96", "#e8590c", "#4c6ef5"][:len(shown)]
    bars = ax.bar(names, shown, color=colours, width=0.6)
    for bar in bars:
        bar.set_gid("efficiency")
    ax.bar_label(bars, labels=["not allowed" if np.isnan(v) else f"{v:.4f}" for v in values],
                 padding=2, fontsize=8)
    finite = values[np.isfinite(values)]
    ax.set_ylim(0.0, 1.15 * (float(finite.max()) if finite.size else 1.0))
    ax.set_ylabel(col.replace("Eff_", "Eff_α, Rényi order α = "), fontsize=8)
    ax.set_title("Rényi efficiency (bars from zero)", fontsize=9)
    change = values[1:] - values[0]
    bars2 = ax2.bar(names[1:], np.nan_to_num(change, nan=0.0), color=colours[1:], width=0.5)
    for bar in bars2:
        bar.set_gid("efficiency-change")
    ax2.bar_label(bars2, labels=["not allowed" if np.isnan(v) else f"{v:+.4f}" for v in change],
                  padding=2, fontsize=8)
    lim = 1.3 * float(np.nanmax(np.abs(change))) if np.isfinite(change).any() else 1.0
    ax2.set_ylim(-(lim or 1.0), lim or 1.0)
    ax2.axhline(0.0, color="black", lw=0.8, gid=f"{GUIDE}-zero")
    ax2.set_title("change against the baseline", fontsize=9)
    fig.tight_layout()
    shown_table = table.round(4)
    if readable:
        shown_table = shown_table.astype(object).where(table.notna(), "not allowed")
    return {"table": shown_table, "efficiency": fig}


def describe_live_table(table) -> str:
    """Markdown saying, from ``table`` (:func:`compute_live_table`), which counterexample
    raises the ``Eff_α`` column against the baseline and which lowers it.

    >>> import pandas as pd
    >>> t = pd.DataFrame({"Eff_2.5": [0.80, 0.78, 0.93]},
    ...                  index=["baseline", "random-drop", "duplication"])
    >>> describe_live_table(t)[:60]
    'At this setting, Eff_α (Rényi order α = 2.5) is 0.8000 for t'
    """
    col = next(c for c in table.columns if c.startswith("Eff_"))
    base = float(table.loc["baseline", col])
    parts = []
    for name, label in (("random-drop", "RANDOM-DROP"), ("duplication", "DUPLICATION")):
        v = float(table.loc[name, col])
        if np.isnan(v):
            parts.append(f"{label} is not allowed")
        else:
            verb = "raises" if v > base else "lowers" if v < base else "keeps"
            parts.append(f"{label} **{verb}** it to {v:.4f}")
    return (f"At this setting, Eff_α (Rényi order α = {col[4:]}) is {base:.4f} for the baseline; "
            + "; ".join(parts) + ".")


def readable_drops(drops):
    """:func:`compute_real_drops`'s table with its byte tokens shown as quoted text
    (``' the'`` instead of ``b' the'``), for display."""
    out = drops.copy()
    for col in ("x", "y", "z"):
        out[col] = [repr(t.decode("utf-8", errors="replace")) if isinstance(t, bytes) else t
                    for t in out[col]]
    return out


def plot_condition_grid(cond, delta, cx, cy, cz: float, alpha: float):
    """Heat map of ``ΔH_α`` with the region where Eq. 15 holds outlined (both in a legend)."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    lim = float(np.abs(delta).max()) or 1.0
    mesh = ax.pcolormesh(cy, cx, delta, cmap="RdBu", vmin=-lim, vmax=lim, shading="nearest",
                         label="ΔH_α (colour bar)")
    boundary = ax.contour(cy, cx, cond.astype(float), levels=[0.5], colors="k", linewidths=1.5)
    boundary.set_label("Eq. 15's boundary")
    ax.legend(handles=[Patch(color="#f4a582", label="ΔH_α (colour bar)"),
                       Line2D([], [], color="k", lw=1.5, label="Eq. 15's boundary")],
              fontsize=7, loc="lower right")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("c(y)")
    ax.set_ylabel("c(x)")
    ax.set_title(f"ΔH_{alpha:g} of dropping x = (y, z), c(z) = {cz:g}\n"
                 "black line: Thm 4.1's condition boundary")
    fig.colorbar(mesh, ax=ax, label="ΔH (bits)")
    fig.tight_layout()
    return fig
