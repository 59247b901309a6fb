"""Notebook 11's slider panels in plotly: E_α against τ, p_d / ULM α and p (GRaMPa Figs 10–12).

:func:`plotly_tau`, :func:`plotly_regulariser` and :func:`plotly_multiplex` are the plotly
twins of :mod:`workbench.figures.efficiency`'s ``plot_*``, with traces named like the
matplotlib gids (``exact``, ``sampled``, ``deterministic``, ``grampa-uniform``, ``argmax``)
so that :func:`workbench.figures.common.figure_data` reads either. The browser draws them, so
a slider step renders no PNG in the kernel; the matplotlib versions stay for the PNGs that
``python -m workbench experiments`` writes.

This module computes nothing: every number comes from the dict it is given
(:func:`workbench.experiments.grampa_efficiency.compute_tau` and its siblings).

Example
-------
>>> import numpy as np
>>> d = {"kind": "bpe", "param": np.array([0.0, 0.1]), "sampled": np.array([[0.5, 0.52]]),
...      "deterministic": 0.5, "grampa_uniform": 0.6, "seeds": np.array([0])}
>>> [t.name for t in plotly_regulariser(d).data]
['range over the seeds', 'sampled', 'deterministic', 'grampa-uniform']
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..experiments.grampa_efficiency import REGULARISER_NAME
from .common import ACCENT, GREEN, GREY, GUIDE, LAW, SAMPLE, plotly_figure, tau_label

__all__ = ["plotly_multiplex", "plotly_regulariser", "plotly_tau"]


def _points(x: Any, sampled: Any, n_seeds: int) -> list[dict]:
    """The sampled points (trace ``sampled``, every seed) and their mean with the range over
    the seeds as error bars."""
    x = np.asarray(x, dtype=float)
    rows = np.atleast_2d(np.asarray(sampled, dtype=float))
    mean = rows.mean(axis=0)
    up = np.maximum(0.0, rows.max(axis=0) - mean)  # equal seeds: rounding may give −0
    down = np.maximum(0.0, mean - rows.min(axis=0))
    return [
        {"type": "scatter", "mode": "markers", "name": "range over the seeds",
         "x": x.tolist(), "y": mean.tolist(), "marker": {"color": SAMPLE, "size": 1},
         "error_y": {"type": "data", "symmetric": False, "array": up.tolist(),
                     "arrayminus": down.tolist(), "color": SAMPLE, "thickness": 1, "width": 4},
         "hoverinfo": "skip"},
        {"type": "scatter", "mode": "markers", "name": "sampled",
         "x": np.tile(x, len(rows)).tolist(),
         "y": rows.ravel().tolist(), "marker": {"color": SAMPLE, "size": 6, "opacity": 0.6},
         "hovertemplate": "%{y:.5f}<extra>sampled corpus (" + f"{n_seeds} seeds)</extra>"},
    ]


def _level(x: Any, y: float, name: str, colour: str, dash: str, label: str) -> dict:
    """A horizontal level across ``x``'s range (trace ``name``)."""
    lo, hi = float(np.min(x)), float(np.max(x))
    return {"type": "scatter", "mode": "lines", "name": name, "x": [lo, hi],
            "y": [float(y), float(y)], "line": {"color": colour, "dash": dash, "width": 1.5},
            "hovertemplate": f"{label}: " + "%{y:.5f}<extra></extra>"}


def _layout(title: str, xtitle: str, width: int, height: int, **extra: Any) -> dict:
    return {"width": width, "height": height, "plot_bgcolor": "white",
            "title": {"text": title, "x": 0.01, "font": {"size": 13}},
            "margin": {"l": 70, "r": 20, "t": 50, "b": 50},
            "legend": {"font": {"size": 10}, "bgcolor": "rgba(255,255,255,0.7)"},
            "xaxis": {"title": {"text": xtitle, "font": {"size": 11}}, "showline": True,
                      "linecolor": GREY, **extra.pop("xaxis", {})},
            "yaxis": {"title": {"text": "Rényi efficiency E_α", "font": {"size": 11}},
                      "showline": True, "linecolor": GREY, "gridcolor": "#eee"},
            **extra}


def plotly_tau(data: dict, *, title: str | None = None) -> Any:
    """Figure 10: exact E_α against the skew coordinate −1/τ (trace ``exact``, labelled with
    τ) and the sampled points (trace ``sampled``); a dotted guide at τ = 1."""
    traces = [{"type": "scatter", "mode": "lines", "name": "exact",
               "x": np.asarray(data["curve_x"], float).tolist(),
               "y": np.asarray(data["curve"], float).tolist(),
               "line": {"color": LAW, "width": 2},
               "hovertemplate": "−1/τ = %{x:.3f}: %{y:.5f}<extra>exact</extra>"},
              *_points(data["x"], data["sampled"], len(data["seeds"]))]
    layout = _layout(title or "E_α against τ (p = 1)",
                     "GRaMPa temperature τ (axis: −1/τ; skew towards longer tokens →)", 700, 380,
                     xaxis={"tickvals": np.asarray(data["x"], float).tolist(),
                            "ticktext": [tau_label(float(t)) for t in data["tau"]]},
                     shapes=[{"type": "line", "x0": -1.0, "x1": -1.0, "y0": 0, "y1": 1,
                              "yref": "paper", "name": f"{GUIDE}-uniform",
                              "line": {"color": GREY, "width": 1, "dash": "dot"}}])
    layout["legend"].update({"x": 0.01, "y": 0.99, "xanchor": "left", "yanchor": "top"})
    return plotly_figure({"data": traces, "layout": layout})


def plotly_regulariser(data: dict, *, title: str | None = None) -> Any:
    """Figure 11a/b: the sampled points (trace ``sampled``) against p_d (bpe) or the ULM
    smoothing α (ulm), the deterministic tokeniser (``deterministic``, dashed) and GRaMPa
    τ = 1 (``grampa-uniform``, dotted)."""
    x = np.asarray(data["param"], float)
    traces = [*_points(x, data["sampled"], len(data["seeds"])),
              _level(x, data["deterministic"], "deterministic", ACCENT, "dash",
                     "deterministic"),
              _level(x, data["grampa_uniform"], "grampa-uniform", GREEN, "dot",
                     "GRaMPa τ = 1 (exact)")]
    default = "BPE-dropout" if data["kind"] == "bpe" else "stochastic ULM"
    layout = _layout(title or default, REGULARISER_NAME[data["kind"]], 520, 360)
    return plotly_figure({"data": traces, "layout": layout})


def plotly_multiplex(data: dict, *, title: str | None = None) -> Any:
    """Figure 12a/b: exact E_α against the multiplexing rate p (trace ``exact``), the sampled
    points (``sampled``) and the maximiser (``argmax``, a vertical line)."""
    best = float(data["argmax_p"])
    curve = np.asarray(data["curve"], float)
    values = np.concatenate([curve, np.ravel(data["sampled"])])
    traces = [{"type": "scatter", "mode": "lines", "name": "exact",
               "x": np.asarray(data["curve_p"], float).tolist(), "y": curve.tolist(),
               "line": {"color": LAW, "width": 2},
               "hovertemplate": "p = %{x:.3f}: %{y:.5f}<extra>exact</extra>"},
              *_points(data["p"], data["sampled"], len(data["seeds"])),
              {"type": "scatter", "mode": "lines", "name": "argmax", "meta": "vline",
               "x": [best, best], "y": [float(values.min()), float(values.max())],
               "line": {"color": ACCENT, "dash": "dash", "width": 1.2},
               "hovertemplate": f"max at p = {best:.2f}<extra></extra>"}]
    other = "BPE" if data["kind"] == "bpe" else "ULM (k = 1)"
    layout = _layout(title or f"GRaMPa multiplexed with {other}",
                     "multiplexing rate p (share of words sampled by GRaMPa)", 520, 360)
    layout["annotations"] = [{"text": f"max at p = {best:.2f}", "x": best, "y": 1.0,
                              "xref": "x", "yref": "paper", "yanchor": "bottom",
                              "showarrow": False, "font": {"size": 10, "color": ACCENT}}]
    return plotly_figure({"data": traces, "layout": layout})
