"""Notebook 07: rejection samplers on real words (GRaMPa paper §3.2, App. A.1, A.5, B).

* :func:`plot_unigram_demo`, :func:`plot_rejection_words` — one figure per view, every data
  series tagged with a ``gid``;
* their data, ``unigram_demo`` and ``rejection_cost_words``, come from
  :mod:`workbench.experiments.grampa_rejection_words` (which checks the arguments and
  samples), which the notebook imports.

This module computes nothing and checks no argument itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from ..experiments.grampa_rejection_words import REJECTION_SAMPLERS
from .common import ACCENT, GREEN, LAW, PINK, SAMPLE

__all__ = ["plot_rejection_words", "plot_unigram_demo"]


def plot_unigram_demo(demo: Mapping[str, Any], top: int = 16) -> Figure:
    """The ``top`` most probable segmentations (by the joint): three bars each.

    Gids: ``joint``, ``markov``, ``sampled`` (bar heights, in the plotted order).
    """
    order = np.asarray(demo["order"])[:top]
    x = np.arange(order.size)
    fig = Figure(figsize=(max(6.0, 0.55 * order.size + 2), 4.2), layout="constrained")
    ax = fig.subplots()
    for k, (key, colour, label) in enumerate((
            ("joint", LAW, "joint unigram law Π P(t) (ULM)"),
            ("markov", ACCENT, f"plain Markov walk (A.1), TV = {demo['tv_markov']:.3f}"),
            ("sampled", SAMPLE, f"App. B rejection, {demo['n_samples']:,} samples, "
                                f"TV = {demo['tv_sampled']:.3f}"))):
        ax.bar(x + (k - 1) * 0.27, np.asarray(demo[key])[order], width=0.27, color=colour,
               label=label, gid=key)
    ax.set_xticks(x)
    ax.set_xticklabels([" | ".join(demo["tokens"][k]) for k in order], rotation=90,
                       fontsize=7)
    ax.set(ylabel="probability", title=f"Segmentations of {demo['word']!r}")
    ax.legend(fontsize=8)
    return fig


def plot_rejection_words(table: Mapping[str, Any]) -> Figure:
    """Expected (median, and max as a thin line) and measured trials per sample vs ``|s|``.

    Gids: ``expected-<name>``, ``expected-max-<name>``, ``measured-<name>``, ``grampa``.
    """
    fig = Figure(figsize=(7, 4.2), layout="constrained")
    ax = fig.subplots()
    x = np.asarray(table["lengths"])
    for name, colour in zip(REJECTION_SAMPLERS, (ACCENT, PINK, SAMPLE)):
        ax.semilogy(x, table[f"{name}_expected"], color=colour,
                    label=f"{name}: expected (median over words)", gid=f"expected-{name}")
        ax.semilogy(x, table[f"{name}_expected_max"], color=colour, linewidth=0.7,
                    linestyle=":", gid=f"expected-max-{name}", label=f"{name}: worst word")
        ax.semilogy(x, table[f"{name}_measured"], color=colour, linestyle="none", marker="o",
                    markersize=3, gid=f"measured-{name}", label=f"{name}: measured")
    ax.semilogy(x, np.ones(x.size), color=GREEN, linewidth=2, label="GRaMPa: one pass",
                gid="grampa")
    ax.set(xlabel="|s| (characters as spelled)", ylabel="trials per sample (log scale)",
           title=f"Rejection cost on real words ({table['name']})")
    ax.set_ylim(0.5, None)
    ax.legend(fontsize=7, ncol=2)
    return fig
