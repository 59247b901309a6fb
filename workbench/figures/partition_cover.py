"""Notebook 09's figures (GreedTok): tokens per word, β(k), the reduction, cover steps, overlap.

Partition cover: tokens per word, β(k), the reduction, a word's cover steps, token-set
overlap.

The data come from :mod:`workbench.experiments.greedtok` (``compute_*``, the graphs, the
reduction's result) and :mod:`workbench.datasets.corpora` (GreedTok's chunk counts of the
shipped text), which the notebook imports; this module only draws (``plot_*``). It
computes, trains and checks nothing itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..experiments.greedtok import (
    GRAPHS,
    METHODS,
    CoverStep,
    ReductionResult,
)
from .common import GUIDE

__all__ = [
    "GRAPHS",
    "METHODS",
    "plot_beta",
    "plot_cover_steps",
    "plot_overlap",
    "plot_reduction",
    "plot_tokens_per_word",
]


# --------------------------------------------------------------------------- plots
def plot_tokens_per_word(ks: Sequence[int], tpw: Mapping[str, Sequence[float]]):
    """Tokens per word against k, one line per method."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    for m, ys in tpw.items():
        ax.plot(ks, ys, marker="o", label=m)
    ax.set_xscale("log")
    ax.set_xlabel("k (vocabulary = 256 bytes + k)")
    ax.set_ylabel("tokens per word")
    ax.legend()
    ax.grid(alpha=0.3)
    return fig


def plot_beta(curve):
    """β(k) and both objectives."""
    import matplotlib.pyplot as plt

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.5))
    a1.plot(curve.k, curve.greedtok, label="GreedTok")
    a1.plot(curve.k, curve.greedwmc, label="GreedWMC (relaxation)")
    a1.set_xlabel("k")
    a1.set_ylabel("covered pairs (count-weighted)")
    a1.legend()
    a2.plot(curve.k, curve.beta)
    a2.axhline(1.0, color="grey", lw=0.8, gid=f"{GUIDE}-one")
    a2.set_xlabel("k")
    a2.set_ylabel("β = GreedTok / GreedWMC")
    for a in (a1, a2):
        a.grid(alpha=0.3)
    fig.tight_layout()
    return fig


#: Graphs drawn better than on one circle: the Petersen graph as its outer pentagon
#: (vertices 0–4) around its inner pentagram (5–9); the bull as a triangle with two horns
#: and K4 as a triangle around its fourth vertex, without crossings.
_TWO_RINGS = {"Petersen": 5}
_POSITIONS = {"bull": [(0.0, 0.9), (-0.55, 0.0), (0.55, 0.0), (-1.0, -0.9), (1.0, -0.9)],
              "K4": [(0.0, 1.0), (-0.87, -0.5), (0.87, -0.5), (0.0, 0.0)]}
#: Above this many edges, edges carry numbers and the segmentations are listed beside.
_MAX_EDGE_LABELS = 8


def _layout(result: ReductionResult) -> np.ndarray:
    n = result.n_vertices
    if result.name in _POSITIONS:
        return np.asarray(_POSITIONS[result.name], dtype=float)
    outer = _TWO_RINGS.get(result.name, n)
    angle = 2 * np.pi * (np.arange(n) % outer) / outer + np.pi / 2
    radius = np.where(np.arange(n) < outer, 1.0, 0.5)
    return np.c_[radius * np.cos(angle), radius * np.sin(angle)]


def plot_reduction(result: ReductionResult):
    """The graph (on a circle; the Petersen graph as two rings), chosen vertices (tokens
    ``$v$``) filled, each edge word's best segmentation on the edge, or, for graphs of more
    than eight edges, an edge number on the edge and the segmentations listed beside it."""
    import matplotlib.pyplot as plt

    n = result.n_vertices
    xy = _layout(result)
    chosen = {t[1] for t in result.tokens}
    numbered = len(result.edges) > _MAX_EDGE_LABELS
    fig, ax = plt.subplots(figsize=(8.0, 5.5) if numbered else (5.5, 5.5))
    listing = []
    for e, (u, v) in enumerate(result.edges, start=1):
        ax.plot(*xy[[u, v]].T, color="grey", lw=1.2, zorder=1)
        word = f"${result.letters[u]}${result.letters[v]}$"
        segmentation = "|".join(result.segmentations[word]).replace("$", r"\$")
        mid = (xy[u] + xy[v]) / 2
        ax.text(*mid, str(e) if numbered else segmentation, fontsize=7 if numbered else 8,
                ha="center", va="center", bbox={"fc": "white", "ec": "none", "alpha": 0.8,
                                                "pad": 0.5})
        listing.append(f"{e:>2}  {segmentation}")
    for i in range(n):
        on = result.letters[i] in chosen
        ax.scatter(*xy[i], s=360, color="tab:orange" if on else "white", ec="black", zorder=2)
        ax.text(*xy[i], result.letters[i], ha="center", va="center", zorder=3)
    if numbered:
        ax.text(1.25, 1.0, "edge  best segmentation\n" + "\n".join(listing), family="monospace",
                fontsize=7.5, va="top", ha="left")
        ax.set_xlim(-1.15, 2.45)
    tokens = ", ".join(result.tokens).replace("$", r"\$")
    ax.set_title(f"{result.name}: k = {result.k}, tokens {tokens}\n"
                 f"cost {result.cost} = 3|E|; with k - 1: {result.cost_below}", fontsize=9)
    ax.set_aspect("equal")
    ax.axis("off")
    return fig


def plot_cover_steps(steps: Sequence[CoverStep]):
    """One row per step: the pair marks (filled = inside a token) and the segmentation."""
    import matplotlib.pyplot as plt

    n_pairs = len(steps[0].marks)
    fig, ax = plt.subplots(figsize=(1.2 + 0.45 * max(n_pairs, 1) + 3, 0.5 + 0.4 * len(steps)))
    grid = np.array([s.marks for s in steps], dtype=float).reshape(len(steps), n_pairs)
    ax.imshow(grid, cmap="Oranges", vmin=0, vmax=1.4, aspect="auto")
    labels = ["start" if s.token is None else f"#{s.rank} {s.token.decode(errors='replace')!r}"
              for s in steps]
    ax.set_yticks(range(len(steps)), labels, fontsize=8)
    ax.set_xticks(range(n_pairs), [f"{p}" for p in range(n_pairs)], fontsize=7)
    ax.set_xlabel("pair position")
    for row, s in enumerate(steps):
        text = "|".join(p.decode(errors="replace") for p in s.pieces)
        ax.text(n_pairs - 0.3, row, "  " + text, va="center", fontsize=8)
    fig.tight_layout()
    return fig


def plot_overlap(overlap: Mapping[str, int]):
    """Bar chart of the token-set sizes and their intersections."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 0.9 + 0.32 * len(overlap)))
    names = list(overlap)[::-1]  # the first set on top
    bars = ax.barh(range(len(names)), [overlap[n] for n in names], color="tab:blue")
    ax.set_yticks(range(len(names)), names, fontsize=8)
    ax.bar_label(bars, padding=2, fontsize=8)
    ax.set_xlim(0, 1.12 * max(overlap.values(), default=1))
    ax.set_xlabel("multi-byte tokens")
    fig.tight_layout()
    return fig
