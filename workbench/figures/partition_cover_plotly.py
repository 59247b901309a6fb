"""Notebook 09's slider panels in plotly: a word's cover steps and the reduction's graph.

:func:`plotly_cover_steps` and :func:`plotly_reduction` are the plotly twins of
:func:`workbench.figures.partition_cover.plot_cover_steps` and ``plot_reduction`` (same
layout of the graph, same labels). The browser draws them, so a dropdown step renders no PNG
in the kernel; the matplotlib versions stay for static use.

This module computes nothing: every number comes from the steps or the result it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..experiments.greedtok import CoverStep, ReductionResult
from .common import plotly_figure
from .partition_cover import _MAX_EDGE_LABELS, _layout

__all__ = ["plotly_cover_steps", "plotly_reduction"]

_HIDDEN = {"visible": False}


def plotly_cover_steps(steps: Sequence[CoverStep]) -> Any:
    """One row per step: the pair marks (filled = inside a token) and the segmentation.

    Returns
    -------
    plotly.graph_objects.Figure
        Trace ``marks`` (a heat map, z = the marks, one row per step).
    """
    n_pairs = len(steps[0].marks)
    grid = np.array([s.marks for s in steps], dtype=float).reshape(len(steps), n_pairs)
    labels = ["start" if s.token is None else f"#{s.rank} {s.token.decode(errors='replace')!r}"
              for s in steps]
    texts = ["|".join(p.decode(errors="replace") for p in s.pieces) for s in steps]
    traces = [{"type": "heatmap", "z": grid.tolist(), "x": list(range(n_pairs)),
               "y": list(range(len(steps))), "name": "marks", "zmin": 0, "zmax": 1.4,
               "colorscale": "Oranges", "showscale": False, "xgap": 1, "ygap": 1,
               "customdata": [[t] * n_pairs for t in texts],
               "hovertemplate": "pair %{x}: %{z}<br>%{customdata}<extra></extra>"}]
    annotations = [{"text": t, "x": n_pairs - 0.4, "y": row, "xref": "x", "yref": "y",
                    "xanchor": "left", "showarrow": False, "font": {"size": 11}}
                   for row, t in enumerate(texts)]
    layout = {"width": int(160 + 30 * max(n_pairs, 1) + 260), "height": 90 + 28 * len(steps),
              "plot_bgcolor": "white", "annotations": annotations,
              "margin": {"l": 130, "r": 240, "t": 20, "b": 50},
              "xaxis": {"title": {"text": "pair position"}, "dtick": 1},
              "yaxis": {"tickvals": list(range(len(steps))), "ticktext": labels,
                        "autorange": "reversed"}}
    return plotly_figure({"data": traces, "layout": layout})


def plotly_reduction(result: ReductionResult) -> Any:
    """The graph (on a circle; the Petersen graph as two rings), chosen vertices (tokens
    ``$v$``) filled, each edge word's best segmentation on the edge, or, for graphs of more
    than eight edges, an edge number on the edge and the segmentations listed beside it.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``edges`` (lines) and ``vertices`` (markers, filled where chosen).
    """
    xy = _layout(result)
    chosen = {t[1] for t in result.tokens}
    numbered = len(result.edges) > _MAX_EDGE_LABELS
    ex, ey, annotations, listing = [], [], [], []
    for e, (u, v) in enumerate(result.edges, start=1):
        ex += [float(xy[u, 0]), float(xy[v, 0]), None]
        ey += [float(xy[u, 1]), float(xy[v, 1]), None]
        segmentation = "|".join(result.segmentations[f"${result.letters[u]}${result.letters[v]}$"])
        mid = (xy[u] + xy[v]) / 2
        annotations.append({"text": str(e) if numbered else segmentation, "x": float(mid[0]),
                            "y": float(mid[1]), "showarrow": False, "bgcolor": "white",
                            "font": {"size": 10 if numbered else 11}})
        listing.append(f"{e:>2}  {segmentation}")
    if numbered:
        annotations.append({"text": "edge  best segmentation<br>" + "<br>".join(listing),
                            "x": 1.3, "y": 1.0, "xanchor": "left", "yanchor": "top",
                            "align": "left", "showarrow": False,
                            "font": {"family": "monospace", "size": 10}})
    on = [result.letters[i] in chosen for i in range(result.n_vertices)]
    traces = [
        {"type": "scatter", "x": ex, "y": ey, "mode": "lines", "name": "edges",
         "line": {"color": "grey", "width": 1.5}, "hoverinfo": "skip"},
        {"type": "scatter", "x": xy[:, 0].tolist(), "y": xy[:, 1].tolist(),
         "mode": "markers+text", "name": "vertices", "text": list(result.letters),
         "marker": {"size": 26, "color": ["orange" if c else "white" for c in on],
                    "line": {"color": "black", "width": 1}},
         "hovertemplate": "%{text}<extra></extra>"},
    ]
    tokens = ", ".join(result.tokens)
    layout = {"width": 760 if numbered else 520, "height": 520, "showlegend": False,
              "plot_bgcolor": "white", "annotations": annotations,
              "title": {"text": f"{result.name}: k = {result.k}, tokens {tokens}<br>"
                                f"cost {result.cost} = 3|E|; with k - 1: {result.cost_below}",
                        "x": 0.01, "font": {"size": 12}},
              "xaxis": {**_HIDDEN, "range": [-1.2, 2.5 if numbered else 1.2]},
              "yaxis": {**_HIDDEN, "range": [-1.2, 1.2], "scaleanchor": "x"}}
    return plotly_figure({"data": traces, "layout": layout})
