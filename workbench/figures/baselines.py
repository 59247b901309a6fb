"""Notebook 07: GRaMPa's baselines on real words — Figure 6 (GRaMPa paper §5, Figure 6).

:func:`plot_regularisation_rates` draws Figure 6 (every data series tagged with a ``gid``);
its data (``figure6``, ``regularisation_point``) come from
:mod:`workbench.experiments.grampa_regularisation`, which the notebook imports. Notebook
07's other views live beside this module: :mod:`.vocabulary_shape` (Figures 7 and 9) and
:mod:`.rejection_words` (App. A.1/B, rejection cost on real words). The words (of the
shipped text, or made up) come from :mod:`workbench.datasets.corpora`.

This module computes, samples and checks nothing itself.

Example
-------
>>> _sparse_labels(np.array([1.0, 20.0]))
['1', '20']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from ..experiments.grampa_regularisation import (
    FAMILIES,
    FIGURE6_VALUES,
    ULM_NBEST,
)
from .common import GREY, GUIDE, LAW, PINK, SAMPLE, tau_label

__all__ = [
    "FAMILIES",
    "FIGURE6_VALUES",
    "ULM_NBEST",
    "plot_regularisation_rates",
]


_XLABEL = {"bpe-dropout": "dropout p_d", "ulm": f"ULM smoothing α (k = {ULM_NBEST})",
           "maxmatch-dropout": "dropout q",
           "grampa": "temperature τ, placed at −1/τ (longer tokens →)"}


def _sparse_labels(taus: np.ndarray, gap: float = 0.07) -> list[str]:
    """τ tick labels along −1/τ, blank within ``gap`` × the axis span of one already kept
    (±∞ first).

    >>> _sparse_labels(np.array([1.0, 20.0, np.inf, -20.0, -1.0]))
    ['1', '', '±∞', '', '−1']
    """
    xs = 0.0 - 1.0 / taus
    gap = gap * float(xs.max() - xs.min())
    kept: list[float] = []
    labels = [""] * len(taus)
    for k in sorted(range(len(taus)), key=lambda k: (xs[k] != 0.0, k)):
        if all(abs(xs[k] - x) >= gap for x in kept):
            kept.append(xs[k])
            labels[k] = tau_label(taus[k])
    return labels


def plot_regularisation_rates(curves: Mapping[str, Mapping[str, Any]],
                              point: Mapping[str, Any] | None = None) -> Figure:
    """One panel per family: sampled rate with its band, exact rate as a line, 50 % guide.

    GRaMPa's panel is drawn along ``−1/τ`` (footnote 10's order) with τ as tick labels.
    ``point`` (from ``experiments.grampa_regularisation.regularisation_point``) is marked on
    its family's panel.
    Gids: ``rr-<family>`` (sampled points), ``rr-band-<family>``, ``rr-exact-<family>``,
    ``rr-point``.
    """
    fig = Figure(figsize=(3.3 * max(len(curves), 1), 3.6), layout="constrained")
    axes = fig.subplots(1, max(len(curves), 1), squeeze=False).ravel()
    for ax, (family, c) in zip(axes, curves.items()):
        x = np.asarray(c["values"], dtype=float)
        if family == "grampa":
            x = np.array([0.0 - 1.0 / v if v != 0 else 0.0 for v in x])
        order = np.argsort(x, kind="stable")
        xs = x[order]
        ax.fill_between(xs, np.asarray(c["low"])[order], np.asarray(c["high"])[order],
                        color=SAMPLE, alpha=0.25, linewidth=0, gid=f"rr-band-{family}",
                        label="± 2 standard errors")
        ax.plot(xs, np.asarray(c["rate"])[order], color=SAMPLE, marker="o", markersize=4,
                label=f"sampled ({c['words']} words × {c['n_samples']})", gid=f"rr-{family}")
        exact = np.asarray(c["exact"], dtype=float)[order]
        if np.isfinite(exact).any():
            ax.plot(xs, exact, color=LAW, linewidth=1.2, label="exact",
                    gid=f"rr-exact-{family}")
        ax.axhline(0.5, color=GREY, linestyle=":", linewidth=1, gid=f"{GUIDE}-half")
        if point is not None and point["family"] == family:
            v = float(point["values"][0])
            ax.plot([0.0 - 1.0 / v if family == "grampa" else v], point["rate"], color=PINK,
                    marker="D", markersize=8, linestyle="none", gid="rr-point",
                    label=f"this value: {point['rate'][0]:.3f}")
        if family == "grampa":
            taus = np.asarray(c["values"], float)
            labels = _sparse_labels(taus, gap=0.09)
            kept = [k for k, label in enumerate(labels) if label]  # no unlabelled ticks
            ax.set_xticks(0.0 - 1.0 / taus[kept])
            ax.set_xticklabels([labels[k] for k in kept], fontsize=8)
        name = c.get("vocabulary") or ""
        ax.set(title=f"{family} ({name})" if name else family, xlabel=_XLABEL[family],
               ylabel=f"regularisation rate vs {c['reference']}", ylim=(-0.02, 1.02))
        ax.legend(fontsize=7)
    return fig


# --------------------------------------------------------------------------- Figure 7
