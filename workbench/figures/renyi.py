"""Notebook 10's figures for the Rényi counterexamples: the live table's bars, Thm 4.1's grid.

The data come from :mod:`workbench.experiments.renyi` (corpus, baseline BPE, encoded corpus,
``compute_*``) and :mod:`workbench.datasets.corpora` (``text_lines``), re-exported here under
the names notebook 10 uses; this module only draws (:func:`plot_live_table`,
:func:`plot_condition_grid`). It computes, trains and checks nothing itself.
"""

from __future__ import annotations

import numpy as np

from ..datasets.corpora import text_lines
from ..experiments.renyi import (
    ALPHAS,
    EncodedCorpus,
    compute_condition_grid,
    compute_live_table,
    compute_real_drops,
    encode_corpus,
    gpt4_chunk_counts,
    train_baseline,
)

__all__ = [
    "ALPHAS",
    "EncodedCorpus",
    "compute_condition_grid",
    "compute_live_table",
    "compute_real_drops",
    "encode_corpus",
    "gpt4_chunk_counts",
    "plot_condition_grid",
    "plot_live_table",
    "text_lines",
    "train_baseline",
]


def plot_live_table(table) -> dict:
    """Notebook 10's panel view of :func:`compute_live_table`: the table (rounded to 4
    places) and a bar chart of its ``Eff_α`` column (bars with gid ``efficiency``; a
    setting that is not allowed is a missing bar, labelled "not allowed").

    Returns ``{"table": DataFrame, "efficiency": Figure}``.
    """
    import matplotlib.pyplot as plt

    col = next(c for c in table.columns if c.startswith("Eff_"))
    values = table[col].to_numpy(dtype=np.float64)
    fig, ax = plt.subplots(figsize=(5, 2.6))
    shown = np.nan_to_num(values, nan=0.0)
    bars = ax.bar(list(table.index), shown, color=["#868e96", "#e8590c", "#4c6ef5"][:len(shown)],
                  width=0.6)
    for bar in bars:
        bar.set_gid("efficiency")
    ax.bar_label(bars, labels=["not allowed" if np.isnan(v) else f"{v:.4f}" for v in values],
                 padding=2, fontsize=8)
    finite = values[np.isfinite(values)]
    low = float(finite.min()) if finite.size else 0.0
    high = float(finite.max()) if finite.size else 1.0
    pad = max(high - low, 1e-3)
    ax.set_ylim(max(0.0, low - pad), high + pad)
    ax.set_ylabel(col.replace("Eff_", "Eff_α, α = "))
    ax.set_title("Rényi efficiency: baseline against the two counterexamples", fontsize=9)
    fig.tight_layout()
    return {"table": table.round(4), "efficiency": fig}


def plot_condition_grid(cond, delta, cx, cy, cz: float, alpha: float):
    """Heat map of ``ΔH_α`` with the region where Eq. 15 holds outlined."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    lim = float(np.abs(delta).max()) or 1.0
    mesh = ax.pcolormesh(cy, cx, delta, cmap="RdBu", vmin=-lim, vmax=lim, shading="nearest")
    ax.contour(cy, cx, cond.astype(float), levels=[0.5], colors="k", linewidths=1.5)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("c(y)")
    ax.set_ylabel("c(x)")
    ax.set_title(f"ΔH_{alpha:g} of dropping x = (y, z), c(z) = {cz:g}\n"
                 "black line: Thm 4.1's condition boundary")
    fig.colorbar(mesh, ax=ax, label="ΔH (bits)")
    fig.tight_layout()
    return fig
