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
>>> from workbench.figures.uniform_laws import uniform_laws_panel
>>> fig = plotly_uniform_laws(uniform_laws_panel(5, n_samples=200, seed=0))
>>> sorted(t.name for t in fig.data)[:4]
['R-expected', 'R-law', 'R-mean', 'R-samples']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .common import ACCENT, LAW, SAMPLE

__all__ = ["plotly_uniform_laws"]


def _law(x: np.ndarray, y: np.ndarray, name: str, what: str) -> Any:
    import plotly.graph_objects as go

    return go.Scatter(x=x, y=y, mode="markers", name=name,
                      marker={"symbol": "line-ew", "size": 16,
                              "line": {"width": 2.5, "color": LAW}},
                      hovertemplate=f"{what}: %{{y:.5f}}<extra></extra>")


def _vline(x: float, top: float, name: str, text: str, colour: str, dash: str) -> Any:
    import plotly.graph_objects as go

    return go.Scatter(x=[x, x], y=[0.0, top], mode="lines", name=name, meta="vline",
                      line={"color": colour, "dash": dash, "width": 1.5},
                      hovertemplate=f"{text}<extra></extra>")


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
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    n, size = panel["n"], panel["n_samples"]
    m, ell, r, s = (panel[k] for k in ("m", "ell", "R", "S"))
    fig = make_subplots(2, 2, horizontal_spacing=0.08, vertical_spacing=0.14, subplot_titles=(
        f"(a) token count m   (TV = {m['tv']:.4f}, bound {m['bound']:.4f})",
        f"(b) token length ℓ, pooled   (TV = {ell['tv']:.4f})",
        "(c) characters per token R = n/m",
        "(d) segmentality S = (m−1)/(n−1)"))
    bar = {"color": SAMPLE, "opacity": 0.6}

    fig.add_trace(go.Bar(x=m["values"], y=m["freq"], name="m-samples", marker=bar,
                         hovertemplate="m = %{x}: sampled %{y:.5f}<extra></extra>"), 1, 1)
    fig.add_trace(_law(m["values"], m["pmf"], "m-law", "1 + Binom(n−1, ½)"), 1, 1)

    fig.add_trace(go.Bar(x=ell["values"], y=ell["freq"], name="ell-samples", marker=bar,
                         hovertemplate="ℓ = %{x}: sampled share %{y:.5f}<extra></extra>"),
                  1, 2)
    fig.add_trace(_law(ell["values"], ell["pmf"], "ell-law", "Eq. 12"), 1, 2)
    fig.add_trace(go.Scatter(x=ell["values"], y=ell["limit"], mode="lines", name="ell-limit",
                             line={"color": ACCENT, "dash": "dash", "width": 1},
                             hovertemplate="Eq. 28, 2^−ℓ: %{y:.5f}<extra></extra>"), 1, 2)

    top = float(max(np.max(r["freq"]), np.max(r["pmf"]))) * 1.05
    fig.add_trace(go.Scatter(
        x=r["values"], y=r["freq"], mode="markers", name="R-samples",
        marker={"color": SAMPLE, "opacity": 0.6, "size": 1},
        error_y={"type": "data", "symmetric": False, "array": np.zeros(len(r["freq"])),
                 "arrayminus": r["freq"], "width": 0, "thickness": 5, "color": SAMPLE},
        hovertemplate="R = %{x:.4f}: sampled %{y:.5f}<extra></extra>"), 2, 1)
    fig.add_trace(_law(r["values"], r["pmf"], "R-law", "law of n/m"), 2, 1)
    fig.add_trace(_vline(r["mean"], top, "R-mean",
                         f"sample mean {r['mean']:.4f} ± {r['sem']:.4f} (s.e.)", SAMPLE, "dot"),
                  2, 1)
    fig.add_trace(_vline(r["expected_mean"], top, "R-expected",
                         f"Eq. 36: 2(1 − 2^−n) = {r['expected_mean']:.4f}", ACCENT, "dash"), 2, 1)

    fig.add_trace(go.Bar(x=s["values"], y=s["freq"], name="S-samples", marker=bar,
                         width=0.8 / (n - 1),
                         hovertemplate="S = %{x:.4f}: sampled %{y:.5f}<extra></extra>"), 2, 2)
    fig.add_trace(_law(s["values"], s["pmf"], "S-law", "Binom(n−1, ½)/(n−1)"), 2, 2)

    fig.update_xaxes(title_text="m", row=1, col=1)
    fig.update_xaxes(title_text="ℓ", range=[0.3, min(n, 12) + 0.7], row=1, col=2)
    fig.update_xaxes(title_text="R (log scale)", type="log", row=2, col=1)
    fig.update_xaxes(title_text="S", range=[-0.05, 1.05], row=2, col=2)
    for row, col, what in ((1, 1, "share"), (1, 2, "share of tokens"), (2, 1, "share"),
                           (2, 2, "share")):
        fig.update_yaxes(title_text=what, gridcolor="#e9ecef", row=row, col=col)
    fig.update_layout(
        width=1080, height=700, showlegend=False, plot_bgcolor="white", bargap=0.2,
        margin={"l": 60, "r": 20, "t": 80, "b": 50},
        title={"text": f"Uniform segmentations of a {n}-character word: {size:,} GRaMPa "
                       "samples (τ = 1, infinite vocabulary); black dashes: closed forms; hover "
                       "for values", "x": 0.01, "font": {"size": 13}})
    fig.update_annotations(font_size=12)
    return fig
