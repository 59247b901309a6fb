"""Notebook 05's slider panel in plotly: trials per accepted sample against ``n``, with hover.

:func:`plotly_rejection_cost` is the plotly twin of the left plot of
:func:`workbench.figures.rejection_cost.plot_rejection_cost`, with traces named like the
matplotlib gids so that :func:`workbench.figures.common.figure_data` reads either. The
browser draws it, so a slider step renders no PNG in the kernel; the
static figure with the timings stays matplotlib.

This module computes nothing: every number comes from the table.

Example
-------
>>> from workbench.experiments.grampa_rejection import rejection_cost_table
>>> fig = plotly_rejection_cost(rejection_cost_table([1, 4], n_samples=200, seed=0))
>>> [t.name for t in fig.data]
['markov-expected', 'markov-measured', 'bit-expected', 'bit-measured', 'grampa-passes']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .common import ACCENT, GREEN, SAMPLE
from .rejection_cost import MIN_MEASURED

__all__ = ["plotly_rejection_cost"]


def _measured(table: Mapping[str, Any], name: str) -> tuple[np.ndarray, np.ndarray,
                                                            np.ndarray]:
    """Means with at least :data:`MIN_MEASURED` samples (NaN elsewhere) and their error
    bars down (clipped above 0 for the log axis) and up: ± 2 standard errors."""
    enough = np.asarray(table[f"{name}_samples"]) >= MIN_MEASURED
    mean = np.where(enough, np.asarray(table[f"{name}_mean"], dtype=float), np.nan)
    two_sem = 2 * np.nan_to_num(np.where(enough, np.asarray(table[f"{name}_sem"], float), 0.0))
    return mean, np.minimum(two_sem, 0.9 * np.nan_to_num(mean)), two_sem


def plotly_rejection_cost(table: Mapping[str, Any]) -> Any:
    """Trials per accepted sample against ``n`` (log axis), hover for values.

    Eq. 47 ``n!/2^(n-1)`` and ``2^(n-1)/N_V`` as lines, the measured mean trials (± 2
    standard errors) as points where at least :data:`MIN_MEASURED` samples fit the budget,
    GRaMPa's single pass at 1.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``markov-expected``, ``markov-measured``, ``bit-expected``,
        ``bit-measured``, ``grampa-passes`` (y = the plotted values).
    """
    import plotly.graph_objects as go

    ns = np.asarray(table["ns"])
    cap = table["max_token_length"]
    traces = []
    for name, colour, symbol in (("markov", ACCENT, "circle"), ("bit", SAMPLE, "square")):
        traces.append(go.Scatter(
            x=ns, y=np.asarray(table[f"{name}_expected"], dtype=float), mode="lines",
            name=f"{name}-expected", legendgroup=name, line={"color": colour},
            hovertemplate="n = %{x}: E[T] = %{y:.4g}<extra></extra>"))
        mean, down, up = _measured(table, name)
        traces.append(go.Scatter(
            x=ns, y=mean, mode="markers", name=f"{name}-measured", legendgroup=name,
            marker={"color": colour, "symbol": symbol, "size": 6 if name == "markov" else 5},
            error_y={"type": "data", "symmetric": False, "array": up, "arrayminus": down,
                     "color": colour, "thickness": 1, "width": 2},
            hovertemplate="n = %{x}: measured mean %{y:.4g} ± 2 s.e.<extra></extra>"))
    traces.append(go.Scatter(x=ns, y=np.asarray(table["grampa_passes"], dtype=float),
                             mode="lines", name="grampa-passes", legendgroup="grampa",
                             line={"color": GREEN, "width": 3},
                             hovertemplate="GRaMPa: one pass<extra></extra>"))
    top = float(np.nanmax([np.nanmax(np.asarray(table[k], dtype=float))
                           for k in ("markov_expected", "bit_expected")]))
    decades = float(np.ceil(np.log10(max(top, 10.0)))) + 0.5
    # direct labels instead of a legend (trace names are the gids figure_data reads)
    labels = [("markov", ACCENT, "Markov rejection, Eq. 47: n!/2ⁿ⁻¹"),
              ("bit", SAMPLE, f"bit-mask rejection, §3.2: 2ⁿ⁻¹/N_V (tokens ≤ {cap})"),
              ("grampa", GREEN, "GRaMPa: one pass, always valid")]
    annotations = [{"name": name, "text": f"<b>—</b> {text}", "x": 0.01, "y": 0.99 - 0.06 * i,
                    "xref": "paper", "yref": "paper", "xanchor": "left", "yanchor": "top",
                    "showarrow": False, "font": {"size": 11, "color": colour}}
                   for i, (name, colour, text) in enumerate(labels)]
    annotations.append({"text": f"dots: measured mean ± 2 s.e. (≥ {MIN_MEASURED} samples)",
                        "x": 0.01, "y": 0.99 - 0.06 * len(labels), "xref": "paper",
                        "yref": "paper", "xanchor": "left", "yanchor": "top",
                        "showarrow": False, "font": {"size": 11}})
    layout = {
        "title": {"text": "Trials per accepted sample", "x": 0.01, "font": {"size": 13}},
        "xaxis": {"title": {"text": "word length n"}, "gridcolor": "#e9ecef"},
        "yaxis": {"title": {"text": "trials (log scale)"}, "type": "log", "dtick": 1,
                  "range": [float(np.log10(0.5)), decades], "exponentformat": "power",
                  "gridcolor": "#e9ecef"},
        "annotations": annotations, "showlegend": False,
        "width": 760, "height": 460, "plot_bgcolor": "white",
        "margin": {"l": 70, "r": 20, "t": 50, "b": 50},
    }
    return go.Figure(data=traces, layout=layout)
