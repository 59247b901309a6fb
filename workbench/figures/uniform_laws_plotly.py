"""Notebook 03's slider panel in plotly: Figure 2 for one word length, with hover.

:func:`plotly_uniform_laws` is the plotly twin of
:func:`workbench.figures.uniform_laws.plot_uniform_laws`: the same four views of a
:func:`workbench.figures.uniform_laws.uniform_laws_panel` result (token count m, pooled token
length ℓ, characters per token R, segmentality S), each sample histogram next to its closed
form, with traces named like the matplotlib gids so that
:func:`workbench.figures.common.figure_data` reads either. The browser draws plotly figures,
which keeps a slider step short; the static Figure 2 and ``python -m workbench figures``
stay matplotlib.

This module computes nothing: every number comes from the panel result.

Example
-------
>>> from workbench.experiments.grampa_uniform_laws import uniform_laws_panel
>>> fig = plotly_uniform_laws(uniform_laws_panel(5, n_samples=200, seed=0))
>>> sorted(t.name for t in fig.data)[:4]
['R-expected', 'R-law', 'R-mean', 'R-samples']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .common import ACCENT, LAW, SAMPLE, plotly_figure

__all__ = ["plotly_uniform_laws"]


def _law(x: np.ndarray, y: np.ndarray, name: str, what: str) -> dict[str, Any]:
    return {"type": "scatter", "x": x, "y": y, "mode": "markers", "name": name,
            "legendgroup": "key",
            "marker": {"symbol": "line-ew", "size": 16, "line": {"width": 2.5, "color": LAW}},
            "hovertemplate": f"{what}: %{{y:.5f}}<extra></extra>"}


def _vline(x: float, top: float, name: str, text: str, colour: str, dash: str
           ) -> dict[str, Any]:
    return {"type": "scatter", "x": [x, x], "y": [0.0, top], "mode": "lines", "name": name,
            "meta": "vline", "line": {"color": colour, "dash": dash, "width": 1.5},
            "hovertemplate": f"{text}<extra></extra>"}


def plotly_uniform_laws(panel: Mapping[str, Any]) -> Any:
    """Figure 2 for one word, with hover: four histograms of a ``uniform_laws_panel``.

    (a) token count m against 1 + Binom(n−1, ½); (b) pooled token length ℓ against Eq. 12
    and the limit Eq. 28; (c) R = n/m (log axis) with the sample mean and E[R] of Eq. 36;
    (d) segmentality S.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``{m,ell,R,S}-samples`` (y = sample frequencies), ``{m,ell,R,S}-law``
        (y = closed form), ``ell-limit`` and the vertical lines ``R-mean``, ``R-expected``
        (``meta="vline"``, x = the value).
    """
    n, size = panel["n"], panel["n_samples"]
    m, ell, r, s = (panel[k] for k in ("m", "ell", "R", "S"))
    # a 2 x 2 grid of axes laid out by hand (make_subplots costs ~0.1 s per call)
    cells = {1: ([0.0, 0.46], [0.57, 1.0]), 2: ([0.54, 1.0], [0.57, 1.0]),
             3: ([0.0, 0.46], [0.0, 0.43]), 4: ([0.54, 1.0], [0.0, 0.43])}
    titles = {1: f"(a) token count m   (TV = {m['tv']:.4f}, bound {m['bound']:.4f})",
              2: f"(b) token length ℓ, pooled   (TV = {ell['tv']:.4f})",
              3: "(c) characters per token R = n/m",
              4: "(d) segmentality S = (m−1)/(n−1)"}
    xtitles = {1: "m", 2: "ℓ", 3: "R (log scale)", 4: "S"}
    ytitles = {1: "share", 2: "share of tokens", 3: "share", 4: "share"}
    layout: dict[str, Any] = {"annotations": []}
    for k, (xdom, ydom) in cells.items():
        ax = "" if k == 1 else str(k)
        layout[f"xaxis{ax}"] = {"domain": xdom, "anchor": f"y{ax}",
                                "title": {"text": xtitles[k]}}
        layout[f"yaxis{ax}"] = {"domain": ydom, "anchor": f"x{ax}",
                                "title": {"text": ytitles[k]}, "gridcolor": "#e9ecef"}
        layout["annotations"].append({"text": titles[k], "x": sum(xdom) / 2, "y": ydom[1],
                                      "xref": "paper", "yref": "paper", "xanchor": "center",
                                      "yanchor": "bottom", "showarrow": False,
                                      "font": {"size": 12}})
    layout["xaxis2"]["range"] = [0.3, min(n, 12) + 0.7]
    layout["xaxis3"]["type"] = "log"  # R in [1, n]: plain tick values, never plotly's 2, 5
    layout["xaxis3"]["tickvals"] = [v for v in (1, 1.25, 1.5, 2, 3, 4, 6, 10, 15, 20, 30)
                                    if v <= n] or [1]
    layout["xaxis3"]["ticktext"] = [f"{v:g}" for v in layout["xaxis3"]["tickvals"]]
    layout["xaxis4"]["range"] = [-0.05, 1.05]

    def on(k: int, trace: dict[str, Any]) -> dict[str, Any]:
        ax = "" if k == 1 else str(k)
        return {**trace, "xaxis": f"x{ax}", "yaxis": f"y{ax}"}

    bar = {"color": SAMPLE, "opacity": 0.6}
    top = float(max(np.max(r["freq"]), np.max(r["pmf"]))) * 1.05
    # traces as plain dicts, made a figure once (graph objects validate every property)
    traces = [
        on(1, {"type": "bar", "x": m["values"], "y": m["freq"], "name": "m-samples",
               "marker": bar, "legendgroup": "key",
               "hovertemplate": "m = %{x}: sampled %{y:.5f}<extra></extra>"}),
        on(1, _law(m["values"], m["pmf"], "m-law", "1 + Binom(n−1, ½)")),
        on(2, {"type": "bar", "x": ell["values"], "y": ell["freq"], "name": "ell-samples",
               "marker": bar, "legendgroup": "key",
               "hovertemplate": "ℓ = %{x}: sampled share %{y:.5f}<extra></extra>"}),
        on(2, _law(ell["values"], ell["pmf"], "ell-law", "Eq. 12")),
        on(2, {"type": "scatter", "x": ell["values"], "y": ell["limit"], "mode": "lines",
               "name": "ell-limit", "legendgroup": "key",
               "line": {"color": ACCENT, "dash": "dash", "width": 1},
               "hovertemplate": "Eq. 28, 2^−ℓ: %{y:.5f}<extra></extra>"}),
        on(3, {"type": "scatter", "x": r["values"], "y": r["freq"], "mode": "markers",
               "name": "R-samples", "legendgroup": "key",
               "marker": {"color": SAMPLE, "opacity": 0.6, "size": 1},
               "error_y": {"type": "data", "symmetric": False,
                           "array": np.zeros(len(r["freq"])), "arrayminus": r["freq"],
                           "width": 0, "thickness": 5, "color": SAMPLE},
               "hovertemplate": "R = %{x:.4f}: sampled %{y:.5f}<extra></extra>"}),
        on(3, _law(r["values"], r["pmf"], "R-law", "law of n/m")),
        on(3, _vline(r["mean"], top, "R-mean",
                     f"sample mean {r['mean']:.4f} ± {r['sem']:.4f} (s.e.)", SAMPLE, "dot")),
        on(3, _vline(r["expected_mean"], top, "R-expected",
                     f"Eq. 36: 2(1 − 2^−n) = {r['expected_mean']:.4f}", ACCENT, "dash")),
        on(4, {"type": "bar", "x": s["values"], "y": s["freq"], "name": "S-samples",
               "marker": bar, "width": 0.8 / (n - 1), "legendgroup": "key",
               "hovertemplate": "S = %{x:.4f}: sampled %{y:.5f}<extra></extra>"}),
        on(4, _law(s["values"], s["pmf"], "S-law", "Binom(n−1, ½)/(n−1)")),
    ]
    # direct labels instead of a legend: the two lines of (c) at their tops, and one key
    for name, x, text, colour, shift in (
            ("R-mean", r["mean"], "sample mean", SAMPLE, -4),
            ("R-expected", r["expected_mean"], "E[R], Eq. 36", ACCENT, 4)):
        layout["annotations"].append({
            "name": name, "text": text, "x": float(np.log10(x)), "y": top, "xref": "x3",
            "yref": "y3", "xanchor": "right" if shift < 0 else "left", "xshift": shift,
            "yanchor": "top", "showarrow": False, "font": {"size": 10, "color": colour}})
    layout["annotations"].append({
        "name": "key", "text": "bars, dots: GRaMPa samples · black dashes: closed forms · "
        "orange dashes in (b): the limit 2^−ℓ (Eq. 28)", "x": 1.0, "y": 1.07,
        "xref": "paper", "yref": "paper", "xanchor": "right", "yanchor": "bottom",
        "showarrow": False, "font": {"size": 11}})
    layout.update(
        width=1080, height=700, showlegend=False, plot_bgcolor="white", bargap=0.2,
        margin={"l": 60, "r": 20, "t": 80, "b": 50},
        title={"text": f"Uniform segmentations of a {n}-character word: {size:,} GRaMPa "
                       "samples (τ = 1, infinite vocabulary); hover "
                       "for values", "x": 0.01, "font": {"size": 13}})
    return plotly_figure({"data": traces, "layout": layout})
