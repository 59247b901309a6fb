"""Notebook 02's figures in plotly, with hover: Figures 4/8, Figure 3 and the histograms.

:func:`plotly_segmentality_curve` draws a
:func:`workbench.experiments.grampa_skew.segmentality_curve` (exact mean ± sd of
segmentality S per τ) on the same axis as its matplotlib twin
:func:`workbench.figures.skew_plots.plot_segmentality_curve`: τ placed at −1/τ, spread by
:func:`workbench.figures.skew_plots.skew_position`, tick labels the τ values. Hovering a
point shows τ, −1/τ and E[S] ± sd; the current τ (the slider's value) is a pink line with its
own hover, and the axis always includes it.

:func:`plotly_skew_panel` and :func:`plotly_m_histograms_per_tau` are the plotly twins of
:func:`workbench.figures.skew_plots.plot_skew_panel` and
:func:`workbench.figures.skew_plots.plot_m_histograms_per_tau` (traces named like their gids); the
panel of notebook 02 uses them because plotly figures are drawn by the browser, which keeps a
slider step short.

This module computes nothing but the sampled shares (as the matplotlib twins do): the laws,
TV distances and moments come from :mod:`workbench.experiments.grampa_skew` (which calls
:class:`workbench.Grampa`); the figure only lays them out. The matplotlib version stays the
one for paper figures and ``python -m workbench figures``.

Example
-------
>>> from workbench import Vocabulary
>>> from workbench.experiments.grampa_skew import segmentality_curve
>>> fig = plotly_segmentality_curve(segmentality_curve("abcd", Vocabulary.infinite()), 5.0)
>>> [t.name for t in fig.data]
['sd band', 'mean', 'current τ']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..experiments.grampa_skew import SegmentalityCurve, SkewPanel, skew_coordinate
from .common import PINK, plotly_figure, tau_label
from .skew_plots import skew_position

__all__ = ["plotly_m_histograms_per_tau", "plotly_segmentality_curve", "plotly_skew_panel"]


def plotly_segmentality_curve(
    curve: SegmentalityCurve,
    current_tau: float | None = None,
    current: tuple[float, float] | None = None,
    title: str | None = None,
    label: str = "E[S] (exact)",
) -> Any:
    """Mean ± sd of segmentality S against τ, on the −1/τ axis, with hover.

    Parameters
    ----------
    curve : SegmentalityCurve
        :func:`workbench.experiments.grampa_skew.segmentality_curve` (``tau``, ``coordinate``,
        ``mean``, ``sd``).
    current_tau : float, optional
        The slider's τ: a pink vertical line; the x range always includes it.
    current : (mean, sd), optional
        E[S] and its sd at ``current_tau`` (e.g.
        :func:`workbench.experiments.grampa_skew.segmentality_moments`), shown on the line's hover
        and as a pink point. Without it the hover of the line says only τ.
    title : str, optional
    label : str, default "E[S] (exact)"

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``"sd band"`` (mean − sd … mean + sd), ``"mean"`` (x = :func:`skew_position`
        of each τ, y = ``curve.mean``, ``customdata`` rows ``[τ, −1/τ, mean, sd]``, in
        ascending −1/τ) and, with ``current_tau``, ``"current τ"``.
    """

    tau = np.asarray(curve.tau, dtype=float)
    mean = np.asarray(curve.mean, dtype=float)
    sd = np.asarray(curve.sd, dtype=float)
    order = np.argsort(np.asarray(curve.coordinate, dtype=float), kind="stable")
    tau, mean, sd = tau[order], mean[order], sd[order]
    x = [skew_position(t) for t in tau]
    labels = [tau_label(t) for t in tau]

    # traces, shapes and annotations as plain dicts, made a figure once (adding them one
    # by one, add_vline included, took most of a slider step)
    traces: list[dict[str, Any]] = [
        {"type": "scatter", "x": [*x, *x[::-1]], "y": [*(mean + sd), *(mean - sd)[::-1]],
         "fill": "toself", "fillcolor": "rgba(28,126,214,0.15)", "line": {"width": 0},
         "name": "sd band", "legendgroup": "key", "hoverinfo": "skip"},
        {"type": "scatter", "x": x, "y": mean, "mode": "lines+markers", "name": "mean",
         "line": {"color": "#1c7ed6"}, "legendgroup": "key",
         "marker": {"size": 8, "color": ["black" if t == 1.0 else "#1c7ed6" for t in tau]},
         "customdata": [[float(t), skew_coordinate(t), float(m), float(s)]
                        for t, m, s in zip(tau, mean, sd)],
         "hovertext": [f"τ = {lab}  (−1/τ = {skew_coordinate(t) + 0.0:+.3g})<br>"
                       f"E[S] = {m:.4f} ± {s:.4f} (sd)" for lab, t, m, s in
                       zip(labels, tau, mean, sd)],
         "hoverinfo": "text"}]
    shapes: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
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
        traces.append({"type": "scatter", "x": [xc], "y": ys, "mode": "markers",
                       "name": "current τ", "hovertext": [head], "hoverinfo": "text",
                       "customdata": [[float(current_tau)]],
                       "marker": {"size": 12 if current is not None else 1, "color": PINK,
                                  "symbol": "diamond"}})
        shapes.append(_vline(xc, {"color": PINK, "width": 2}))
        # the same words at every τ (the tick below names the τ): a τ step then only moves
        # the line, the label and the point, which the page does without a redraw
        # (:mod:`.plotly_view`)
        annotations.append({"x": xc, "y": 1.04, "text": "current τ",
                            "showarrow": False, "font": {"color": PINK, "size": 11},
                            "xanchor": "left", "name": "current τ"})
    pad = 0.04 * (hi - lo) + 0.1
    annotations.append({"name": "key", "showarrow": False,
                        "text": "line: exact mean E[S] · band: ± 1 sd · black: τ = 1",
                        "x": 0.0, "y": 1.0, "xref": "paper", "yref": "paper",
                        "xanchor": "left", "yanchor": "bottom",
                        "font": {"size": 11, "color": "#1c7ed6"}})
    if x:  # the uniform τ = 1, dotted
        shapes.append(_vline(skew_position(1.0), {"color": "#adb5bd", "width": 1,
                                                  "dash": "dot"}))
    layout = {
        "width": 820, "height": 380, "showlegend": False, "plot_bgcolor": "white",
        "margin": {"l": 60, "r": 20, "t": 50 if title else 20, "b": 60},
        "xaxis": {"tickvals": x, "ticktext": labels, "range": [lo - pad, hi + pad],
                  "title": {"text": "τ, placed at −1/τ (skew towards longer tokens grows →)"},
                  "showgrid": False, "zeroline": False},
        "yaxis": {"range": [-0.05, 1.08],
                  "title": {"text": "segmentality S = (m−1)/(n−1)"}, "gridcolor": "#e9ecef"},
        "hoverlabel": {"align": "left"}, "annotations": annotations,
    }
    if shapes:  # (plotly drops an empty list)
        layout["shapes"] = shapes
    if title:
        layout["title"] = {"text": title, "x": 0.01, "font": {"size": 13}}
    return plotly_figure({"data": traces, "layout": layout})


def _vline(x: float, line: dict[str, Any]) -> dict[str, Any]:
    """A vertical line over the whole plot height at ``x`` (what ``add_vline`` adds)."""
    return {"type": "line", "x0": x, "x1": x, "xref": "x", "y0": 0, "y1": 1,
            "yref": "y domain", "line": line}


def plotly_skew_panel(panel: SkewPanel, title: str | None = None) -> Any:
    """Histograms of m and of token length (a :func:`workbench.experiments.grampa_skew.skew_panel`
    result) with their exact laws, with hover: the plotly twin of
    :func:`workbench.figures.skew_plots.plot_skew_panel`.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces named as the matplotlib gids: ``"m-samples"``, ``"length-samples"`` (bars,
        y = sampled frequencies of the values 1..n) and ``"m-pmf"``, ``"length-pmf"`` (y =
        ``panel.m_pmf[1:]`` / ``panel.length_pmf[1:]``); each subplot title gives the
        number of draws and TV(samples, exact).
    """

    parts = (("m", "number of tokens m", panel.m_counts, panel.m_pmf, "samples", panel.m_tv),
             ("length", "token length ℓ (all tokens pooled)", panel.length_counts,
              panel.length_pmf, "tokens", panel.length_tv))
    # two x axes side by side, laid out by hand (make_subplots costs ~0.1 s per call)
    domains = ([0.0, 0.45], [0.55, 1.0])
    traces: list[dict[str, Any]] = []
    layout: dict[str, Any] = {"annotations": []}
    for col, (key, xlabel, counts, pmf, what, tv) in enumerate(parts):
        counts = np.asarray(counts, dtype=float)
        pmf = np.asarray(pmf, dtype=float)
        total = counts.sum()
        freq = counts / total if total > 0 else np.zeros_like(counts)
        values = np.arange(1, freq.size)
        ax = "" if col == 0 else "2"
        traces.append({"type": "bar", "x": values, "y": freq[1:], "name": f"{key}-samples",
                       "legendgroup": "key", "xaxis": f"x{ax}", "yaxis": f"y{ax}",
                       "marker": {"color": "#a5d8ff", "line": {"color": "#1c7ed6",
                                                               "width": 0.5}},
                       "hovertemplate": f"{key} = %{{x}}: sampled share %{{y:.4f}}"
                                        "<extra></extra>"})
        traces.append({"type": "scatter", "x": values, "y": pmf[1:], "mode": "lines+markers",
                       "name": f"{key}-pmf", "legendgroup": "key",
                       "xaxis": f"x{ax}", "yaxis": f"y{ax}",
                       "line": {"color": "#c92a2a"}, "marker": {"size": 6},
                       "hovertemplate": f"{key} = %{{x}}: exact %{{y:.4f}}<extra></extra>"})
        seen = np.flatnonzero(pmf > 0).tolist() + np.flatnonzero(freq > 0).tolist()
        lo, hi = (min(seen), max(seen)) if seen else (1, max(pmf.size - 1, 1))
        # one empty value either side: the law's line comes down to 0 inside the axis
        lo, hi = max(lo - 1, 1), min(hi + 1, max(pmf.size - 1, 1))
        layout[f"xaxis{ax}"] = {"domain": domains[col], "anchor": f"y{ax}",
                                "title": {"text": xlabel}, "range": [lo - 0.6, hi + 0.6],
                                "dtick": 1 if hi - lo <= 20 else None}
        layout[f"yaxis{ax}"] = {"anchor": f"x{ax}", "title": {"text": "probability"},
                                "gridcolor": "#e9ecef"}
        layout["annotations"].append({
            "text": f"{int(total):,} {what}; TV(samples, exact) = {tv:.4f}",
            "x": sum(domains[col]) / 2, "y": 1.0, "xref": "paper", "yref": "paper",
            "xanchor": "center", "yanchor": "bottom", "showarrow": False,
            "font": {"size": 12}})
    layout["annotations"].append({
        "name": "key", "text": "bars: samples · red: exact law", "x": 1.0, "y": 1.12,
        "xref": "paper", "yref": "paper", "xanchor": "right", "yanchor": "bottom",
        "showarrow": False, "font": {"size": 11, "color": "#c92a2a"}})
    layout.update(width=980, height=360, showlegend=False, plot_bgcolor="white", bargap=0.2,
                  margin={"l": 60, "r": 20, "t": 70 if title else 40, "b": 50})
    if title:
        layout["title"] = {"text": title, "x": 0.01, "font": {"size": 13}}
    return plotly_figure({"data": traces, "layout": layout})


def plotly_m_histograms_per_tau(per_tau: Mapping[float, SkewPanel],
                                title: str | None = None) -> Any:
    """Figure 3 for one word with hover: the law of m for several τ (lines, exact) and
    their samples (bars); the plotly twin of
    :func:`workbench.figures.skew_plots.plot_m_histograms_per_tau`.

    Returns
    -------
    plotly.graph_objects.Figure
        Per τ, in skew order: a trace ``"pmf-<τ label>"`` (y = ``m_pmf[1:]``, m = 1..n) and,
        when there are samples, ``"samples-<τ label>"`` (sampled frequencies).
    """
    taus = sorted(per_tau, key=skew_coordinate)
    palette = ["#1c7ed6", "black", "#e8590c", "#c92a2a", "#862e9c", "#2b8a3e"]
    centre = skew_coordinate(1.0)
    # traces as plain dicts, made a figure once (adding traces one by one is slow)
    traces: list[dict[str, Any]] = []
    hi = 1
    for k, tau in enumerate(taus):
        panel = per_tau[tau]
        pmf = np.asarray(panel.m_pmf, dtype=float)
        counts = np.asarray(panel.m_counts, dtype=float)
        colour = "black" if skew_coordinate(tau) == centre else palette[k % len(palette)]
        label = tau_label(tau)
        nonzero = np.flatnonzero(pmf > 0)
        if nonzero.size:
            hi = max(hi, int(nonzero.max()))
        values = np.arange(1, pmf.size)
        if counts.sum() > 0:
            traces.append({
                "type": "bar", "x": values, "y": counts[1:] / counts.sum(),
                "name": f"samples-{label}", "marker": {"color": colour, "opacity": 0.3},
                "showlegend": False, "legendgroup": "samples",
                "hovertemplate": f"τ = {label}, m = %{{x}}: sampled %{{y:.4f}}<extra></extra>"})
        # legend entries read "τ = 5" for the exact laws
        traces.append({
            "type": "scatter", "x": values, "y": pmf[1:], "mode": "lines+markers",
            "name": f"pmf-{label}", "legendgroup": f"pmf-{label}", "line": {"color": colour},
            "marker": {"size": 5},
            "hovertemplate": f"τ = {label}, m = %{{x}}: exact %{{y:.4f}}<extra></extra>"})
    layout: dict[str, Any] = {
        "width": 760, "height": 360, "barmode": "group", "plot_bgcolor": "white",
        "legend": {"title": {"text": "exact (lines), samples (bars)"}},
        "margin": {"l": 60, "r": 20, "t": 50 if title else 20, "b": 50},
        "xaxis": {"title": {"text": "number of tokens m"}, "range": [0.4, hi + 0.6]},
        "yaxis": {"title": {"text": "probability"}, "gridcolor": "#e9ecef"}}
    if any(trace["type"] == "bar" for trace in traces):  # the bars' key, a direct label
        layout["annotations"] = [{
            "name": "samples", "text": "bars: samples, in the colour of their τ", "x": 1.0,
            "y": 1.0, "xref": "paper", "yref": "paper", "xanchor": "right",
            "yanchor": "bottom", "showarrow": False, "font": {"size": 11}}]
    if title:
        layout["title"] = {"text": title, "x": 0.01, "font": {"size": 13}}
    return plotly_figure({"data": traces, "layout": layout})
