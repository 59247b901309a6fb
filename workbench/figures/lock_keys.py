"""Notebook 04: an axis for segmentations, bit keys and LOCKs (App. C, Figure 5).

* :func:`plot_lock_order`, :func:`plot_lock_histogram`, :func:`plot_lock_histograms` —
  the figures of App. C and Figure 5, every data series tagged with a ``gid``;
  :func:`figure5_caption` — what each panel shows, as Markdown, from the same histograms;
  :func:`lock_view` — the spans a Figure 5 panel shows (zoomed to where the samples are);
* the data, ``lock_order_table`` and ``lock_histogram``, come from
  :mod:`workbench.experiments.grampa_lock` (which checks the arguments and computes), which
  the notebook imports; :data:`FIGURE5_TAUS`, :data:`MAX_TABLE_N`, :data:`MAX_HISTOGRAM_N`
  are its constants.

This module computes nothing, checks no argument and does not assert: the notebook and the
tests do.

Example
-------
>>> from workbench.experiments.grampa_lock import lock_order_table
>>> fig = plot_lock_order(lock_order_table(3))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .._core.errors import InvalidValueError
from ..experiments.grampa_lock import (
    FIGURE5_TAUS,
    MAX_HISTOGRAM_N,
    MAX_TABLE_N,
)
from .common import ACCENT, GUIDE, LAW, SAMPLE, tau_label

__all__ = [
    "FIGURE5_TAUS",
    "MAX_HISTOGRAM_N",
    "MAX_TABLE_N",
    "MIN_VIEW_SPANS",
    "ZOOM_SHARE",
    "plot_lock_histogram",
    "plot_lock_histograms",
    "plot_lock_order",
    "figure5_caption",
    "lock_view",
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
        ax.axvline(k - 0.5, color=LAW, linestyle=":", linewidth=0.7, gid=GUIDE)
    ax.set(title=f"n = {n}: LOCK (App. C.2) against bit key (C.1)", xlabel="LOCK",
           ylabel="bit key")
    return fig


ZOOM_SHARE = 0.999
"""Share of the samples the x-axis of :func:`plot_lock_histogram` keeps in view when the
samples fill less than a quarter of the LOCK axis (the rest lie in the tails)."""

MIN_VIEW_SPANS = 16
"""Fewest spans a zoomed view shows, so that a single filled span is 1/16 of the axis."""


def lock_view(hist: Mapping[str, Any]) -> tuple[int, int]:
    """The spans ``[first, stop)`` that :func:`plot_lock_histogram` shows.

    All spans when the central :data:`ZOOM_SHARE` of the samples fills at least a quarter of
    them; otherwise those spans, widened to at least :data:`MIN_VIEW_SPANS` (kept inside the
    axis). So a temperature whose samples all fall in span 0 (τ = −2 at ``n = 29``) shows
    span 0 as a sixteenth of the axis instead of a sliver under the y-axis.

    >>> lock_view({"counts": np.array([5, 0, 0, 0] + [0] * 60)})
    (0, 16)
    >>> lock_view({"counts": np.ones(64)})
    (0, 64)
    """
    counts = np.asarray(hist["counts"], dtype=float)
    k = counts.size
    share = np.cumsum(counts) / counts.sum()
    tail = (1.0 - ZOOM_SHARE) / 2
    first = int(np.searchsorted(share, tail, side="right"))
    stop = int(np.searchsorted(share, 1.0 - tail, side="left")) + 1
    if stop - first >= k / 4:
        return 0, k
    width = min(k, max(MIN_VIEW_SPANS, stop - first))
    first = max(0, min(first - (width - (stop - first)) // 2, k - width))
    return first, first + width


def plot_lock_histogram(hist: Mapping[str, Any], ax: Axes | None = None,
                        log: bool = True, label_blocks: int = 8) -> Figure:
    """One Figure 5 panel: sample shares per LOCK span, the uniform share, the m-blocks.

    ``log=True`` (default) uses a log share axis, on which the uniform histogram of τ = 1
    and the few spans the skewed temperatures fill are both visible; empty spans are
    then not drawn. The x-axis shows the spans of :func:`lock_view`: the whole LOCK axis,
    or, when the samples fill less than a quarter of it, the spans holding
    :data:`ZOOM_SHARE` of them (the axis label then says "zoomed"). Dotted lines (guides)
    separate the token-count blocks ``[f1(m), f1(m+1))``; the ``label_blocks`` widest
    blocks in view are labelled.

    Gids: ``lock-samples`` (a filled step outline of ``freq``), ``lock-uniform`` (the
    share each span would get at τ = 1); the block separators are :data:`GUIDE`.
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
              label="uniform (τ = 1)", gid="lock-uniform")
    first, stop = lock_view(hist)
    lo, hi = float(edges[first]), float(edges[stop])
    m_edges = np.asarray(hist["m_edges"], dtype=float)
    shown = np.clip(m_edges, lo, hi)
    widths = np.diff(shown)
    widest = [j for j in np.argsort(widths)[::-1][:label_blocks]
              if widths[j] >= (hi - lo) / 12]
    for j, start in enumerate(m_edges[:-1]):
        if j and lo < start < hi:
            ax.axvline(start, color=LAW, linestyle=":", linewidth=0.5, gid=GUIDE)
    for j in widest:
        ax.text((shown[j] + shown[j + 1]) / 2, label_y, f"m={j + 1}", ha="center",
                va="bottom", fontsize=6, color=LAW, clip_on=True)
    zoomed = (first, stop) != (0, len(edges) - 1)
    xlabel = "LOCK" + (f" (zoomed to spans {first}–{stop - 1} of {len(edges) - 1}: "
                       f"{ZOOM_SHARE:.1%} of the samples)" if zoomed else "")
    ax.set(xlim=(lo, hi), ylim=ylim, xlabel=xlabel,
           ylabel="share of samples" + (" (log)" if log else ""))
    ax.legend(fontsize=7, loc="lower right" if log else "upper right")
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
        raise InvalidValueError("no histograms to plot")
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




def figure5_caption(hists: Iterable[Mapping[str, Any]]) -> str:
    """What each Figure 5 panel shows, as Markdown, from the histograms it draws.

    One item per temperature: the share of samples in the first span, and for a zoomed
    panel (:func:`lock_view`) the spans it shows.
    """
    lines = []
    for hist in hists:
        counts = np.asarray(hist["counts"])
        first, stop = lock_view(hist)
        where = ("the whole axis" if (first, stop) == (0, counts.size)
                 else f"zoomed to spans {first}–{stop - 1} of {counts.size}")
        lines.append(f"* {tau_label(hist['tau'], prefix=True)}: {where}; "
                     f"{counts[0] / counts.sum():.1%} of the samples in span 0, "
                     f"{np.count_nonzero(counts)} spans hold any; E[m] = "
                     f"{hist['expected_m']:.2f}")
    return "\n".join(lines)
