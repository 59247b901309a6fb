"""Notebook 04's slider panel in plotly: one Figure 5 panel (LOCK histogram), with hover.

:func:`plotly_lock_histogram` is the plotly twin of
:func:`workbench.figures.lock_keys.plot_lock_histogram` (log share axis, the view of
:func:`workbench.figures.lock_keys.lock_view`, the token-count blocks as dotted guides, the
widest ones labelled), with traces named like the matplotlib gids so that
:func:`workbench.figures.common.figure_data` reads either. The browser draws it, so a slider
step renders no PNG; the static Figure 5 stays matplotlib.

This module computes nothing: every number comes from the histogram.

Example
-------
>>> from workbench.experiments.grampa_lock import lock_histogram
>>> fig = plotly_lock_histogram(lock_histogram(8, tau=1.0, n_samples=2000, bins=16, seed=0))
>>> [t.name for t in fig.data]
['lock-samples', 'lock-uniform']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .common import ACCENT, LAW, SAMPLE, plotly_figure, tau_label
from .lock_keys import ZOOM_SHARE, lock_view

__all__ = ["plotly_lock_histogram"]


def plotly_lock_histogram(hist: Mapping[str, Any], label_blocks: int = 8) -> Any:
    """One Figure 5 panel: sample shares per LOCK span (bars, log axis), the uniform share
    (a step line), the token-count blocks ``[f1(m), f1(m+1))`` as dotted guides, the
    ``label_blocks`` widest in view labelled.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``lock-samples`` (y = ``freq``) and ``lock-uniform`` (y = ``uniform``).
    """
    edges = np.asarray(hist["edges"], dtype=float)
    freq, uniform = np.asarray(hist["freq"], float), np.asarray(hist["uniform"], float)
    top = max(float(freq.max()), float(uniform.max()))
    floor = 0.5 / hist["n_samples"]
    first, stop = lock_view(hist)
    lo, hi = float(edges[first]), float(edges[stop])
    # traces as plain dicts, made a figure once (graph objects validate every property)
    traces = [
        {"type": "bar", "x": (edges[:-1] + edges[1:]) / 2, "y": freq, "width": np.diff(edges),
         "name": "lock-samples", "marker": {"color": SAMPLE, "line": {"width": 0}},
         "hovertemplate": "LOCK span at %{x:.4g}: share %{y:.3g}<extra></extra>"},
        {"type": "scatter", "x": edges[:-1], "y": uniform, "mode": "lines",
         "line": {"color": ACCENT, "width": 1, "shape": "hv"}, "name": "lock-uniform",
         "hovertemplate": "uniform (τ = 1): %{y:.3g}<extra></extra>"},
    ]
    m_edges = np.asarray(hist["m_edges"], dtype=float)
    shown = np.clip(m_edges, lo, hi)
    widths = np.diff(shown)
    widest = [j for j in np.argsort(widths)[::-1][:label_blocks] if widths[j] >= (hi - lo) / 12]
    shapes = [{"type": "line", "x0": start, "x1": start, "y0": 0, "y1": 1, "xref": "x",
               "yref": "paper", "line": {"color": LAW, "dash": "dot", "width": 0.6}}
              for j, start in enumerate(m_edges[:-1]) if j and lo < start < hi]
    annotations = [{"text": f"m={j + 1}", "x": (shown[j] + shown[j + 1]) / 2, "y": 1.0,
                    "xref": "x", "yref": "paper", "yanchor": "top", "showarrow": False,
                    "font": {"size": 9, "color": LAW}} for j in widest]
    annotations += [
        {"name": "lock-samples", "text": "bars: share of samples per LOCK span", "x": 0.0,
         "y": 1.02, "xref": "paper", "yref": "paper", "xanchor": "left", "yanchor": "bottom",
         "showarrow": False, "font": {"size": 11, "color": SAMPLE}},
        {"name": "lock-uniform", "text": "line: uniform (τ = 1)", "x": 1.0, "y": 1.02,
         "xref": "paper", "yref": "paper", "xanchor": "right", "yanchor": "bottom",
         "showarrow": False, "font": {"size": 11, "color": ACCENT}}]
    zoomed = (first, stop) != (0, len(edges) - 1)
    xlabel = "LOCK" + (f" (zoomed to spans {first}–{stop - 1} of {len(edges) - 1}: "
                       f"{ZOOM_SHARE:.1%} of the samples)" if zoomed else "")
    layout = {
        "title": {"text": f"{tau_label(hist['tau'], prefix=True)}: {hist['n_samples']:,} "
                          f"samples, n = {hist['n']}, {hist['counts'].size} spans   "
                          f"(E[m] = {hist['expected_m']:.2f})", "x": 0.01,
                  "font": {"size": 13}},
        "xaxis": {"title": {"text": xlabel}, "range": [lo, hi], "gridcolor": "#e9ecef"},
        "yaxis": {"title": {"text": "share of samples (log)"}, "type": "log", "dtick": 1,
                  "exponentformat": "power", "gridcolor": "#e9ecef",
                  "range": [float(np.log10(floor)), float(np.log10(top * 8.0))]},
        "shapes": shapes, "annotations": annotations, "showlegend": False, "bargap": 0,
        "width": 900, "height": 380, "plot_bgcolor": "white",
        "margin": {"l": 70, "r": 20, "t": 70, "b": 50},
    }
    return plotly_figure({"data": traces, "layout": layout})
