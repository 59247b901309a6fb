"""Figures 4 and 8 for one word as an interactive plotly figure: hover shows the numbers.

:func:`plotly_segmentality_curve` draws a :func:`workbench.figures.skew.segmentality_curve`
(exact mean ± sd of segmentality S per τ) on the same axis as its matplotlib twin
:func:`workbench.figures.skew.plot_segmentality_curve`: τ placed at −1/τ, spread by
:func:`workbench.figures.skew.skew_position`, tick labels the τ values. Hovering a point shows
τ, −1/τ and E[S] ± sd; the current τ (the slider's value) is a pink line with its own hover,
and the axis always includes it.

This module computes nothing: the moments come from :mod:`.skew` (which calls
:class:`workbench.Grampa`); the figure only lays them out. The matplotlib version stays the
one for paper figures and ``python -m workbench figures``.

Example
-------
>>> from workbench import Vocabulary
>>> from workbench.figures.skew import segmentality_curve
>>> fig = plotly_segmentality_curve(segmentality_curve("abcd", Vocabulary.infinite()), 5.0)
>>> [t.name for t in fig.data]
['sd band', 'mean', 'current τ']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .common import PINK, tau_label
from .skew import skew_coordinate, skew_position

__all__ = ["plotly_segmentality_curve"]


def plotly_segmentality_curve(
    curve: Mapping[str, Any],
    current_tau: float | None = None,
    current: tuple[float, float] | None = None,
    title: str | None = None,
    label: str = "E[S] (exact)",
) -> Any:
    """Mean ± sd of segmentality S against τ, on the −1/τ axis, with hover.

    Parameters
    ----------
    curve : dict
        :func:`workbench.figures.skew.segmentality_curve` (``tau``, ``coordinate``,
        ``mean``, ``sd``).
    current_tau : float, optional
        The slider's τ: a pink vertical line; the x range always includes it.
    current : (mean, sd), optional
        E[S] and its sd at ``current_tau`` (e.g.
        :func:`workbench.figures.skew.segmentality_moments`), shown on the line's hover
        and as a pink point. Without it the hover of the line says only τ.
    title : str, optional
    label : str, default "E[S] (exact)"

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``"sd band"`` (mean − sd … mean + sd), ``"mean"`` (x = :func:`skew_position`
        of each τ, y = ``curve["mean"]``, ``customdata`` rows ``[τ, −1/τ, mean, sd]``, in
        ascending −1/τ) and, with ``current_tau``, ``"current τ"``.
    """
    import plotly.graph_objects as go

    tau = np.asarray(curve["tau"], dtype=float)
    mean = np.asarray(curve["mean"], dtype=float)
    sd = np.asarray(curve["sd"], dtype=float)
    order = np.argsort(np.asarray(curve["coordinate"], dtype=float), kind="stable")
    tau, mean, sd = tau[order], mean[order], sd[order]
    x = [skew_position(t) for t in tau]
    labels = [tau_label(t) for t in tau]

    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=[*x, *x[::-1]], y=[*(mean + sd), *(mean - sd)[::-1]], fill="toself",
        fillcolor="rgba(28,126,214,0.15)", line={"width": 0}, name="sd band",
        hoverinfo="skip"))
    fig.add_trace(go.Scatter(
        x=x, y=mean, mode="lines+markers", name="mean", line={"color": "#1c7ed6"},
        marker={"size": 8, "color": ["black" if t == 1.0 else "#1c7ed6" for t in tau]},
        customdata=[[float(t), skew_coordinate(t), float(m), float(s)]
                    for t, m, s in zip(tau, mean, sd)],
        hovertext=[f"τ = {lab}  (−1/τ = {skew_coordinate(t) + 0.0:+.3g})<br>"
                   f"E[S] = {m:.4f} ± {s:.4f} (sd)" for lab, t, m, s in
                   zip(labels, tau, mean, sd)],
        hoverinfo="text"))
    lo, hi = (min(x), max(x)) if x else (-1.0, 1.0)
    if current_tau is not None:
        xc = skew_position(current_tau)
        lo, hi = min(lo, xc), max(hi, xc)
        head = (f"current τ = {tau_label(current_tau)}  "
                f"(−1/τ = {skew_coordinate(current_tau) + 0.0:+.3g})")
        if current is not None:
            cm, cs = (float(v) for v in current)
            head += f"<br>E[S] = {cm:.4f} ± {cs:.4f} (sd)"
            ys = [cm]
        else:
            ys = [0.5]
        fig.add_trace(go.Scatter(
            x=[xc], y=ys, mode="markers", name="current τ", hovertext=[head],
            hoverinfo="text", customdata=[[float(current_tau)]],
            marker={"size": 12 if current is not None else 1, "color": PINK,
                    "symbol": "diamond"}))
        fig.add_vline(x=xc, line={"color": PINK, "width": 2})
        fig.add_annotation(x=xc, y=1.04, text=f"τ = {tau_label(current_tau)}",
                           showarrow=False, font={"color": PINK, "size": 11},
                           xanchor="left")
    pad = 0.04 * (hi - lo) + 0.1
    fig.update_layout(
        width=820, height=380, showlegend=False, plot_bgcolor="white",
        margin={"l": 60, "r": 20, "t": 50 if title else 20, "b": 60},
        title={"text": title, "x": 0.01, "font": {"size": 13}} if title else None,
        xaxis={"tickvals": x, "ticktext": labels, "range": [lo - pad, hi + pad],
               "title": "τ, placed at −1/τ (skew towards longer tokens grows →)",
               "showgrid": False, "zeroline": False},
        yaxis={"range": [-0.05, 1.08], "title": "segmentality S = (m−1)/(n−1)",
               "gridcolor": "#e9ecef"},
        hoverlabel={"align": "left"},
    )
    if x:  # the uniform τ = 1, dotted
        fig.add_vline(x=skew_position(1.0), line={"color": "#adb5bd", "width": 1,
                                                  "dash": "dot"})
    return fig
