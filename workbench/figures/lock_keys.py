"""Notebook 04: an axis for segmentations, bit keys and LOCKs (App. C, Figure 5).

* :func:`plot_lock_order`, :func:`plot_lock_histogram`, :func:`plot_lock_histograms` —
  the figures of App. C and Figure 5, every data series tagged with a ``gid``;
* :func:`lock_order_table`, :func:`lock_histogram`, :data:`FIGURE5_TAUS`,
  :data:`MAX_TABLE_N`, :data:`MAX_HISTOGRAM_N` — re-exported from
  :mod:`workbench.experiments.grampa_lock`, which checks the arguments and computes.

This module computes nothing, checks no argument and does not assert: the notebook and the
tests do.

Example
-------
>>> lock_order_table(3)["columns"]["lock_segmentation"]
['abc', 'a/bc', 'ab/c', 'a/b/c']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..experiments.grampa_lock import (
    FIGURE5_TAUS,
    MAX_HISTOGRAM_N,
    MAX_TABLE_N,
    lock_histogram,
    lock_order_table,
)
from .common import ACCENT, LAW, SAMPLE, tau_label

__all__ = [
    "FIGURE5_TAUS",
    "MAX_HISTOGRAM_N",
    "MAX_TABLE_N",
    "lock_histogram",
    "lock_order_table",
    "plot_lock_histogram",
    "plot_lock_histograms",
    "plot_lock_order",
]


# --------------------------------------------------------------------------- figures
def plot_lock_order(table: Mapping[str, Any]) -> Figure:
    """LOCK against bit key for every segmentation of :func:`lock_order_table`.

    One point per segmentation (x: LOCK, y: bit key), coloured by token count; LOCK
    blocks of equal ``m`` are separated by dotted lines. Gid ``bit-of-lock`` (the y
    values, in LOCK order).
    """
    cols = table["columns"]
    n = table["n"]
    fig = Figure(figsize=(5.6, 4.6), layout="constrained")
    ax = fig.subplots()
    points = ax.scatter(cols["key"], cols["lock_bit_key"], c=cols["m"], cmap="viridis",
                        s=max(6, 400 / len(cols["key"])), gid="bit-of-lock")
    fig.colorbar(points, ax=ax, label="token count m")
    starts = [k for k in range(1, len(cols["m"])) if cols["m"][k] != cols["m"][k - 1]]
    for k in starts:
        ax.axvline(k - 0.5, color=LAW, linestyle=":", linewidth=0.7)
    ax.set(title=f"n = {n}: LOCK (App. C.2) against bit key (C.1)", xlabel="LOCK",
           ylabel="bit key")
    return fig


def plot_lock_histogram(hist: Mapping[str, Any], ax: Axes | None = None,
                        log: bool = True, label_blocks: int = 8) -> Figure:
    """One Figure 5 panel: sample shares per LOCK span, the uniform share, the m-blocks.

    ``log=True`` (default) uses a log share axis, on which the uniform histogram of τ = 1
    and the few spans the skewed temperatures fill are both visible; empty spans are
    then not drawn. Dotted lines separate the token-count blocks ``[f1(m), f1(m+1))``;
    the ``label_blocks`` widest are labelled.

    Gids: ``lock-samples`` (a filled step outline of ``freq``), ``lock-uniform`` (the
    share each span would get at τ = 1).
    """
    if ax is None:
        fig = Figure(figsize=(9, 3.4), layout="constrained")
        ax = fig.subplots()
    else:
        fig = ax.figure
    edges = np.asarray(hist["edges"], dtype=float)
    top = max(float(np.max(hist["freq"])), float(np.max(hist["uniform"])))
    if log:
        ax.set_yscale("log")
        floor = 0.5 / hist["n_samples"]
        label_y, ylim = top * 2.0, (floor, top * 8.0)
    else:
        floor = 0.0
        label_y, ylim = top * 1.08, (0.0, top * 1.2)
    # one filled step outline instead of one rectangle per span: fast at any number of spans
    ax.stairs(hist["freq"], edges, baseline=floor, fill=True, color=SAMPLE, label="samples",
              gid="lock-samples")
    ax.stairs(hist["uniform"], edges, baseline=None, color=ACCENT, linewidth=0.8,
              label="uniform", gid="lock-uniform")
    m_edges = np.asarray(hist["m_edges"], dtype=float)
    widest = set(np.argsort(np.diff(m_edges))[::-1][:label_blocks].tolist())
    for j, start in enumerate(m_edges[:-1]):
        if j:
            ax.axvline(start, color=LAW, linestyle=":", linewidth=0.5)
        if j in widest:
            ax.text((start + m_edges[j + 1]) / 2, label_y, f"m={j + 1}", ha="center",
                    va="bottom", fontsize=6, color=LAW)
    ax.set(xlim=(0, hist["n_keys"]), ylim=ylim, xlabel="LOCK",
           ylabel="share of samples" + (" (log)" if log else ""))
    ax.set_title(f"{tau_label(hist['tau'], prefix=True)}: {hist['n_samples']:,} samples, "
                 f"n = {hist['n']}, {hist['counts'].size} spans   "
                 f"(E[m] = {hist['expected_m']:.2f})",
                 fontsize=9)
    return fig


def plot_lock_histograms(hists: Iterable[Mapping[str, Any]], ncols: int = 2,
                         log: bool = True) -> Figure:
    """Figure 5: one :func:`plot_lock_histogram` panel per temperature, in a grid."""
    hists = list(hists)
    if not hists:
        raise ValueError("no histograms to plot")
    rows = -(-len(hists) // ncols)
    fig = Figure(figsize=(6 * ncols, 2.6 * rows), layout="constrained")
    axes = np.atleast_1d(fig.subplots(rows, ncols, squeeze=False)).ravel()
    for ax, hist in zip(axes, hists):
        plot_lock_histogram(hist, ax=ax, log=log)
    for ax in axes[len(hists):]:
        ax.set_visible(False)
    fig.suptitle("GRaMPa samples on the LOCK axis (Figure 5): fewer, longer tokens to the "
                 "left")
    return fig


