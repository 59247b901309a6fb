"""Notebook 07: how a vocabulary shapes the segmentation space (GRaMPa paper §6, Figures 7 and 9).

``plot_*`` — one figure per view, every data series tagged with a ``gid``. Their data,
``token_length_distribution`` (Figure 7) and ``segmentation_fraction`` (Figure 9), come from
:mod:`workbench.experiments.grampa_vocabulary_shape`, which the notebook imports. This
module computes and checks nothing itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .common import ACCENT, GREEN, GREY, PINK, SAMPLE

__all__ = ["COVERED", "covering_length", "plot_length_distributions", "plot_segmentation_fraction"]


def plot_length_distributions(dists: Sequence[Mapping[str, Any]]) -> Figure:
    """Grouped bars of :func:`token_length_distribution` results (share of types).

    The x axis ends at the length below which ``COVERED`` of every distribution's types lie
    (a few very long tokens, such as GPT-2's runs of dashes, would otherwise squeeze the bars
    into slivers); the lengths cut off are said in a note under the title. Every bar is
    still drawn. Gids: ``lengths-<k>`` for the ``k``-th distribution (bar heights = shares).
    """
    fig = Figure(figsize=(7, 3.6), layout="constrained")
    ax = fig.subplots()
    width = 0.8 / max(len(dists), 1)
    colours = [SAMPLE, ACCENT, GREEN, PINK, GREY]
    for k, d in enumerate(dists):
        ax.bar(np.asarray(d["lengths"]) + (k - (len(dists) - 1) / 2) * width, d["share"],
               width=width, color=colours[k % len(colours)], gid=f"lengths-{k}",
               label=f"{d['name']} (|V| = {d['size']:,}, mean {d['mean']:.2f})")
    marker = " (marker not counted)" if dists and dists[0]["without_marker"] else ""
    ax.set(xlabel=f"token length in characters{marker}", ylabel="share of types",
           title="Figure 7: token lengths of the vocabulary")
    cut = covering_length(dists)
    if cut is not None:
        hidden = [(d["name"], int(np.asarray(d["counts"])[np.asarray(d["lengths"]) > cut].sum()),
                   int(np.max(d["lengths"]))) for d in dists]
        hidden = [h for h in hidden if h[1]]
        ax.set_xlim(0.4, cut + 0.6)
        if hidden:
            ax.set_title("Figure 7: token lengths of the vocabulary\n"
                         + f"longer than {cut} characters, not shown: "
                         + ", ".join(f"{n} {c:,}" for n, c, _ in hidden)
                         + f" types (longest {max(m for *_, m in hidden)})", fontsize=9)
    ax.legend(fontsize=8)
    return fig


#: Share of every vocabulary's types that Figure 7's x axis keeps in view.
COVERED = 0.995


def covering_length(dists: Sequence[Mapping[str, Any]]) -> int | None:
    """The smallest length below which :data:`COVERED` of each distribution's types lie
    (None for no distribution with types): where Figure 7's x axis ends, in both renderings."""
    ends = []
    for d in dists:
        share = np.asarray(d["share"], dtype=float)
        if share.size:
            cum = np.cumsum(share) / share.sum()
            ends.append(int(np.asarray(d["lengths"])[np.searchsorted(cum, COVERED - 1e-12)]))
    return max(ends) if ends else None


def plot_segmentation_fraction(results: Sequence[Mapping[str, Any]]) -> Figure:
    """Figure 9 (a), (b) against ``|V'|`` and the per-word fraction (b) against ``|s|``.

    Gids: ``fraction-a-<k>``, ``fraction-b-<k>`` (curves), ``fraction-words-<k>`` (per-word
    points) and ``fraction-mean-<k>`` (mean per length) for the ``k``-th result.
    """
    fig = Figure(figsize=(12, 3.8), layout="constrained")
    ax_a, ax_b, ax_w = fig.subplots(1, 3)
    colours = [SAMPLE, ACCENT, GREEN, PINK]
    for k, r in enumerate(results):
        col = colours[k % len(colours)]
        if len(r["sizes"]):
            ax_a.semilogx(r["sizes"], r["relative_to_vocab"], color=col, marker="o",
                          markersize=3, label=f"{r['name']} ({r['words_a']} words)",
                          gid=f"fraction-a-{k}")
            ax_b.semilogx(r["sizes"], r["relative_to_infinite"], color=col, marker="o",
                          markersize=3, label=f"{r['name']} ({r['words_b']} words)",
                          gid=f"fraction-b-{k}")
        lengths, frac = np.asarray(r["lengths"]), np.asarray(r["fraction"])
        ax_w.scatter(lengths + 0.15 * (k - (len(results) - 1) / 2), frac, s=6, alpha=0.35,
                     color=col, gid=f"fraction-words-{k}", label=f"{r['name']}: one word")
        if lengths.size:
            ls = np.unique(lengths)
            ax_w.plot(ls, [frac[lengths == x].mean() for x in ls], color=col,
                      label=f"{r['name']}: mean per length", gid=f"fraction-mean-{k}")
    ax_a.set(title="(a) relative to the full vocabulary", xlabel="|V'|",
             ylabel="mean log N_V'(s) / log N_V(s)", ylim=(0, 1.05))
    ax_b.set(title="(b) relative to the infinite vocabulary", xlabel="|V'|",
             ylabel="mean log N_V'(s) / log 2^(|s|−1)", ylim=(0, 1.05))
    ax_w.set(title="per word, V' = V", xlabel="|s| (characters as spelled)",
             ylabel="log N_V(s) / log 2^(|s|−1)", ylim=(0, 1.05))
    for ax in (ax_a, ax_b, ax_w):
        ax.legend(fontsize=7)
    return fig
