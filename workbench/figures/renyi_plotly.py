"""Notebook 10's slider panels in plotly: the live table's efficiency bars, Thm 4.1's grid.

:func:`plotly_live_table` and :func:`plotly_condition_grid` are the plotly twins of
:func:`workbench.figures.renyi.plot_live_table` and ``plot_condition_grid``, with traces named
like the matplotlib gids (``efficiency``, ``efficiency-change``) so that
:func:`workbench.figures.common.figure_data` reads either. The browser draws them, so a slider
step renders no PNG in the kernel; the matplotlib versions stay for static use.

This module computes nothing: every number comes from the table or the grid it is given.

Example
-------
>>> import pandas as pd
>>> t = pd.DataFrame({"Eff_3": [0.80, 0.78, float("nan")]},
...                  index=["baseline", "duplication", "random-drop"])
>>> [tr.name for tr in plotly_live_table(t)["efficiency"].data]
['efficiency', 'efficiency-change']
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .common import plotly_figure

__all__ = ["plotly_condition_grid", "plotly_live_table"]

_COLOURS = ["#868e96", "#e8590c", "#4c6ef5"]


def plotly_live_table(table: Any, readable: bool = False) -> dict[str, Any]:
    """The live table (rounded to 4 places; with ``readable``, a setting that is not allowed
    reads "not allowed" rather than NaN) and its ``Eff_α`` column as bars from zero (a setting
    not allowed: a zero-height bar labelled "not allowed"), beside each counterexample's
    change against the baseline.

    Returns
    -------
    dict
        ``{"table": DataFrame, "efficiency": plotly.graph_objects.Figure}``; traces
        ``efficiency`` (y = the column, NaN as 0) and ``efficiency-change``.
    """
    col = next(c for c in table.columns if c.startswith("Eff_"))
    values = table[col].to_numpy(dtype=np.float64)
    names = [str(n) for n in table.index]
    change = values[1:] - values[0]
    finite = values[np.isfinite(values)]
    top = 1.15 * (float(finite.max()) if finite.size else 1.0)
    lim = 1.3 * float(np.nanmax(np.abs(change))) if np.isfinite(change).any() else 1.0
    lim = lim or 1.0
    traces = [
        {"type": "bar", "x": names, "y": np.nan_to_num(values, nan=0.0).tolist(),
         "name": "efficiency", "marker": {"color": _COLOURS[:len(names)]},
         "text": ["not allowed" if np.isnan(v) else f"{v:.4f}" for v in values],
         "textposition": "outside", "cliponaxis": False, "xaxis": "x", "yaxis": "y",
         "hovertemplate": "%{x}: %{text}<extra></extra>"},
        {"type": "bar", "x": names[1:], "y": np.nan_to_num(change, nan=0.0).tolist(),
         "name": "efficiency-change", "marker": {"color": _COLOURS[1:len(names)]},
         "text": ["not allowed" if np.isnan(v) else f"{v:+.4f}" for v in change],
         "textposition": "outside", "cliponaxis": False, "xaxis": "x2", "yaxis": "y2",
         "hovertemplate": "%{x}: %{text}<extra>change</extra>"},
    ]
    layout = {
        "width": 760, "height": 320, "showlegend": False, "plot_bgcolor": "white",
        "margin": {"l": 70, "r": 20, "t": 40, "b": 40},
        "xaxis": {"domain": [0, 0.56]}, "xaxis2": {"domain": [0.66, 1], "anchor": "y2"},
        "yaxis": {"range": [0, top], "title": {"text": col.replace("Eff_", "Eff_α, α = "),
                                               "font": {"size": 11}}},
        "yaxis2": {"range": [-lim, lim], "anchor": "x2", "zeroline": True,
                   "zerolinecolor": "black"},
        "annotations": [
            {"text": "Rényi efficiency (bars from zero)", "x": 0.28, "y": 1.08, "xref": "paper",
             "yref": "paper", "showarrow": False, "font": {"size": 12}},
            {"text": "change against the baseline", "x": 0.83, "y": 1.08, "xref": "paper",
             "yref": "paper", "showarrow": False, "font": {"size": 12}}],
    }
    shown = table.round(4)
    if readable:
        shown = shown.astype(object).where(table.notna(), "not allowed")
    return {"table": shown, "efficiency": plotly_figure({"data": traces, "layout": layout})}


def plotly_condition_grid(cond: np.ndarray, delta: np.ndarray, cx: np.ndarray, cy: np.ndarray,
                          cz: float, alpha: float) -> Any:
    """Heat map of ``ΔH_α`` over ``(c(y), c(x))`` (log axes), with the cells where Eq. 15
    holds marked.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``delta`` (a heat map; hover gives the value and whether Eq. 15 holds) and
        ``condition`` (the cells where it holds, as points).
    """
    delta = np.asarray(delta, dtype=float)
    cond = np.asarray(cond, dtype=bool)
    lim = float(np.abs(delta).max()) or 1.0
    logx, logy = np.log10(np.asarray(cy, float)), np.log10(np.asarray(cx, float))
    i, j = np.nonzero(cond)
    ticks = [v for v in (1, 10, 100, 1000) if logx[0] - 1e-9 <= np.log10(v) <= logx[-1] + 1e-9]
    axis = {"tickvals": [float(np.log10(v)) for v in ticks], "ticktext": [f"{v:g}" for v in ticks]}
    traces = [
        {"type": "heatmap", "x": logx.tolist(), "y": logy.tolist(), "z": delta.tolist(),
         "name": "delta", "zmin": -lim, "zmax": lim, "colorscale": "RdBu",
         "colorbar": {"title": {"text": "ΔH (bits)"}},
         "customdata": np.where(cond, "holds", "does not hold").tolist(),
         "hovertemplate": "ΔH = %{z:.3g}; Eq. 15 %{customdata}<extra></extra>"},
        {"type": "scatter", "x": logx[j].tolist(), "y": logy[i].tolist(), "mode": "markers",
         "name": "condition", "marker": {"color": "black", "size": 3, "symbol": "circle"},
         "hoverinfo": "skip"},
    ]
    layout = {
        "width": 620, "height": 460, "showlegend": False, "plot_bgcolor": "white",
        "title": {"text": f"ΔH_{alpha:g} of dropping x = (y, z), c(z) = {cz:g}", "x": 0.01,
                  "font": {"size": 13}},
        "xaxis": {"title": {"text": "c(y)"}, **axis},
        "yaxis": {"title": {"text": "c(x)"}, **axis},
        "annotations": [{"name": "condition", "text": "black dots: cells where Thm 4.1's "
                         "condition (Eq. 15) holds", "x": 0, "y": 1.0, "xref": "paper",
                         "yref": "paper", "yanchor": "bottom", "xanchor": "left",
                         "showarrow": False, "font": {"size": 11}},
                        {"name": "delta", "text": "colour: ΔH_α", "x": 1, "y": 1.0,
                         "xref": "paper", "yref": "paper", "yanchor": "bottom",
                         "xanchor": "right", "showarrow": False, "font": {"size": 11}}],
    }
    return plotly_figure({"data": traces, "layout": layout})
