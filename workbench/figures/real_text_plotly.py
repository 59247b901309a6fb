"""Notebook 06's slider panel in plotly: a live Table 7 row as two histograms, with hover.

:func:`plotly_live` is the plotly twin of :func:`workbench.figures.real_text.plot_live`
(m per word and token length, the sample against the deterministic tokeniser, the exact
E[m] as a dashed line), with traces named so that
:func:`workbench.figures.common.figure_data` reads them. The browser draws it, so a slider
step renders no PNG in the kernel; ``plot_live`` stays for static use.

This module computes nothing beyond counting the drawn values into unit bins.

Example
-------
>>> from workbench.experiments.grampa_live import compute_live
>>> fig = plotly_live(compute_live("To be, or not to be", p=1.0, seed=0))
>>> [t.name for t in fig.data]
['m-deterministic', 'm-sampled', 'm-exact', 'ell-deterministic', 'ell-sampled']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .common import ACCENT, GREY, plotly_figure, tau_label

__all__ = ["plotly_live"]


def _counts(values: np.ndarray, top: int) -> list[int]:
    """How many of ``values`` equal 1, 2, …, ``top``."""
    return np.bincount(np.asarray(values, dtype=np.int64), minlength=top + 1)[1:top + 1].tolist()


def _pair(result: Mapping[str, Any], name: str, axis: str) -> list[dict]:
    """The deterministic bars and the sampled step outline of one histogram."""
    top = max(int(np.max(result[name])), int(np.max(result[f"{name}_det"])))
    x = list(range(1, top + 1))
    sampled = _counts(result[name], top)
    return [
        {"type": "bar", "x": x, "y": _counts(result[f"{name}_det"], top),
         "name": f"{name}-deterministic",
         "legendgroup": "deterministic", "showlegend": False, "xaxis": f"x{axis}",
         "yaxis": f"y{axis}", "marker": {"color": GREY, "opacity": 0.6, "line": {"width": 0}},
         "hovertemplate": "%{x}: %{y} (deterministic)<extra></extra>"},
        {"type": "scatter", "x": [x[0] - 0.5, *x, x[-1] + 0.5], "y": [0, *sampled, 0],
         "mode": "lines", "line": {"shape": "hvh", "color": ACCENT, "width": 2},
         "name": f"{name}-sampled", "legendgroup": "sampled", "showlegend": name == "m",
         "xaxis": f"x{axis}", "yaxis": f"y{axis}",
         "hovertemplate": "%{x}: %{y} (multiplexed GRaMPa)<extra></extra>"},
    ]


def plotly_live(result: Mapping[str, Any], title: str | None = None) -> Any:
    """Histograms of m per word and of token length: the sample (an outline) against the
    deterministic segmentation (grey bars), the exact E[m] as a dashed line.

    Parameters
    ----------
    result : mapping
        :func:`workbench.experiments.grampa_live.compute_live`'s result.
    title : str, optional
        Replaces the default title (the setting and the number of words).

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``m-deterministic``, ``m-sampled``, ``m-exact`` (a vertical line: its x),
        ``ell-deterministic``, ``ell-sampled`` (y = counts per unit bin from 1).
    """
    exact_m = float(result["exact"]["m_mean"])
    m_bars = _pair(result, "m", "")
    top = max(max(m_bars[0]["y"]), max(m_bars[1]["y"]))
    vline = {"type": "scatter", "x": [exact_m, exact_m], "y": [0, top * 1.05], "mode": "lines",
             "line": {"color": ACCENT, "dash": "dash", "width": 1}, "meta": "vline",
             "name": "m-exact", "showlegend": False, "xaxis": "x", "yaxis": "y",
             "hovertemplate": f"exact E[m] = {exact_m:.3f}<extra></extra>"}
    s = result["settings"]
    text = title or (f"{s['vocabulary']}: τ = {tau_label(s['tau'])}, ℓ_min = {s['ell_min']}, "
                     f"p = {s['p']:g}{', LD1 typos' if s['typos'] else ''} "
                     f"({result['words']:,} words)")
    layout = {
        "title": {"text": text, "x": 0.01, "font": {"size": 13}},
        "xaxis": {"domain": [0, 0.45], "title": {"text": "tokens per word m"}, "dtick": 1},
        "yaxis": {"title": {"text": "words"}, "rangemode": "tozero"},
        "xaxis2": {"domain": [0.55, 1], "title": {"text": "token length ℓ (characters, marker "
                                                          "included)"}, "dtick": 1},
        "yaxis2": {"title": {"text": "tokens"}, "anchor": "x2", "rangemode": "tozero"},
        "annotations": [{"name": "m-exact", "text": f"exact E[m] = {exact_m:.2f}", "x": exact_m,
                         "y": top * 1.05, "xref": "x", "yref": "y", "xanchor": "left",
                         "showarrow": False, "font": {"size": 10, "color": ACCENT}},
                        {"name": "deterministic", "text": "grey bars: deterministic (p = 0)",
                         "x": 0.0, "y": 1.02, "xref": "paper", "yref": "paper", "xanchor": "left",
                         "yanchor": "bottom", "showarrow": False,
                         "font": {"size": 11, "color": GREY}},
                        {"name": "sampled", "text": "outline: multiplexed GRaMPa, this sample",
                         "x": 1.0, "y": 1.02, "xref": "paper", "yref": "paper", "xanchor": "right",
                         "yanchor": "bottom", "showarrow": False,
                         "font": {"size": 11, "color": ACCENT}}],
        "showlegend": False,
        "bargap": 0, "width": 950, "height": 360, "plot_bgcolor": "white",
        "margin": {"l": 60, "r": 20, "t": 70, "b": 50},
    }
    return plotly_figure({"data": [*m_bars, vline, *_pair(result, "ell", "2")],
                          "layout": layout})
