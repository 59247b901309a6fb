"""Notebook 07's slider panels in plotly: Figure 6's rate at one value, Figures 7 and 9, App. B.

The plotly twins of :func:`workbench.figures.baselines.plot_regularisation_rates`,
:func:`workbench.figures.vocabulary_shape.plot_length_distributions` and
``plot_segmentation_fraction``, and :func:`workbench.figures.rejection_words.plot_unigram_demo`
and ``plot_rejection_words``, with traces named like the matplotlib gids so that
:func:`workbench.figures.common.figure_data` reads either. The browser draws them, so a slider
step renders no PNG in the kernel; the static figures stay matplotlib.

This module computes nothing: every number comes from the results it is given.

Example
-------
>>> from workbench.figures.common import figure_data
>>> fig = plotly_rejection_words({"name": "toy", "lengths": [2, 3],
...     **{f"{n}_{k}": [1.0, 2.0] for n in ("markov-safe", "markov-tight", "bit")
...        for k in ("expected", "expected_max", "measured")}})
>>> figure_data(fig)["grampa"].tolist()
[1.0, 1.0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..experiments.grampa_regularisation import ULM_NBEST
from ..experiments.grampa_rejection_words import REJECTION_SAMPLERS
from .common import ACCENT, GREEN, GREY, LAW, PINK, SAMPLE, plotly_figure
from .vocabulary_shape import covering_length

__all__ = ["plotly_length_distributions", "plotly_regularisation_rates",
           "plotly_rejection_words", "plotly_segmentation_fraction", "plotly_unigram_demo"]

_XLABEL = {"bpe-dropout": "dropout p_d", "ulm": f"ULM smoothing α (k = {ULM_NBEST})",
           "maxmatch-dropout": "dropout q", "grampa": "temperature τ, placed at −1/τ"}
_COLOURS = [SAMPLE, ACCENT, GREEN, PINK, GREY]
_LAYOUT = {"plot_bgcolor": "white", "margin": {"l": 60, "r": 20, "t": 60, "b": 50}}


def _axes(n: int, gap: float = 0.08) -> list[dict[str, Any]]:
    """``n`` side-by-side axis pairs: layout entries and the trace's axis names."""
    width = (1 - gap * (n - 1)) / n
    out = []
    for k in range(n):
        suffix = "" if k == 0 else str(k + 1)
        out.append({"x": f"x{suffix}", "y": f"y{suffix}", "xaxis": f"xaxis{suffix}",
                    "yaxis": f"yaxis{suffix}",
                    "domain": [k * (width + gap), k * (width + gap) + width]})
    return out


def _rr_x(family: str, values: Any) -> np.ndarray:
    x = np.asarray(values, dtype=float)
    return np.array([0.0 - 1.0 / v if v != 0 else 0.0 for v in x]) if family == "grampa" else x


def plotly_regularisation_rates(curves: Mapping[str, Mapping[str, Any]],
                                point: Mapping[str, Any] | None = None) -> Any:
    """Figure 6, one panel per family: the sampled rate (points, ± 2 standard errors as
    error bars), the exact rate (a line), 50 % (dotted) and ``point`` on its family's panel.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``rr-<family>``, ``rr-exact-<family>`` (where an exact law exists) and
        ``rr-point``, y = the rates in the order of ``−1/τ`` (GRaMPa) or of the value.
    """
    traces: list[dict] = []
    axes = _axes(max(len(curves), 1))
    layout: dict[str, Any] = {**_LAYOUT, "height": 400, "width": max(460, 380 * len(curves)),
                              "showlegend": False, "margin": {"l": 60, "r": 20, "t": 70, "b": 50}}
    for ax, (family, c) in zip(axes, curves.items()):
        x = _rr_x(family, c["values"])
        order = np.argsort(x, kind="stable")
        rate = np.asarray(c["rate"], dtype=float)[order]
        where = {"xaxis": ax["x"], "yaxis": ax["y"]}
        traces.append({"type": "scatter", "x": x[order].tolist(), "y": rate.tolist(),
                       "mode": "lines+markers", "name": f"rr-{family}", **where,
                       "legendgroup": "sampled", "marker": {"color": SAMPLE, "size": 6},
                       "line": {"color": SAMPLE},
                       "error_y": {"type": "data", "color": SAMPLE, "symmetric": False,
                                   "array": (np.asarray(c["high"])[order] - rate).tolist(),
                                   "arrayminus": (rate - np.asarray(c["low"])[order]).tolist()},
                       "hovertemplate": "%{x:.3g}: RR %{y:.3f}<extra>sampled</extra>"})
        exact = np.asarray(c["exact"], dtype=float)[order]
        if np.isfinite(exact).any():
            traces.append({"type": "scatter", "x": x[order].tolist(), "y": exact.tolist(),
                           "mode": "lines", "name": f"rr-exact-{family}", **where,
                           "legendgroup": "exact", "line": {"color": LAW, "width": 1.5},
                           "hovertemplate": "%{x:.3g}: RR %{y:.4f}<extra>exact</extra>"})
        if point is not None and point["family"] == family:
            traces.append({"type": "scatter", "x": _rr_x(family, point["values"][:1]).tolist(),
                           "y": [float(point["rate"][0])], "mode": "markers", "name": "rr-point",
                           **where, "legendgroup": "point",
                           "marker": {"color": PINK, "symbol": "diamond", "size": 12},
                           "hovertemplate": "this value: RR %{y:.3f}<extra></extra>"})
        name = c.get("vocabulary") or ""
        layout[ax["xaxis"]] = {"domain": ax["domain"], "anchor": ax["y"],
                               "title": {"text": f"{family} ({name}): {_XLABEL[family]}"}}
        layout[ax["yaxis"]] = {"anchor": ax["x"], "range": [-0.02, 1.02],
                               "title": {"text": f"regularisation rate vs {c['reference']}"}}
    layout["shapes"] = [{"type": "line", "xref": f"{ax['x']} domain", "yref": ax["y"], "x0": 0,
                         "x1": 1, "y0": 0.5, "y1": 0.5,
                         "line": {"color": GREY, "dash": "dot", "width": 1}}
                        for ax in axes[:len(curves)]]
    c = next(iter(curves.values()), None)
    keys = [("sampled", SAMPLE, "points: sampled" + (f" ({c['words']} words × {c['n_samples']}),"
                                                     if c else ",") + " ± 2 standard errors"),
            ("exact", LAW, "line: exact")]
    if point is not None:
        keys.append(("point", PINK, f"diamond: this value, RR = {float(point['rate'][0]):.3f}"))
    layout["annotations"] = [{"name": group, "text": text, "x": k / len(keys), "y": 1.02,
                              "xref": "paper", "yref": "paper", "xanchor": "left",
                              "yanchor": "bottom", "showarrow": False,
                              "font": {"size": 11, "color": colour}}
                             for k, (group, colour, text) in enumerate(keys)]
    return plotly_figure({"data": traces, "layout": layout})


def plotly_length_distributions(dists: Sequence[Mapping[str, Any]]) -> Any:
    """Figure 7: grouped bars, share of types per token length, the x axis cut where
    :data:`workbench.figures.vocabulary_shape.COVERED` of every vocabulary's types lie.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``lengths-<k>`` (y = ``share``) for the ``k``-th distribution.
    """
    traces = [{"type": "bar", "x": np.asarray(d["lengths"]).tolist(),
               "y": np.asarray(d["share"], dtype=float).tolist(), "name": f"lengths-{k}",
               "marker": {"color": _COLOURS[k % len(_COLOURS)], "line": {"width": 0}},
               "hovertemplate": f"{d['name']}: " + "length %{x}: %{y:.3f}<extra></extra>"}
              for k, d in enumerate(dists)]
    end = covering_length(dists)
    marker = " (marker not counted)" if dists and dists[0]["without_marker"] else ""
    annotations = [{"name": f"lengths-{k}", "text": f"{d['name']} (|V| = {d['size']:,}, mean "
                    f"{d['mean']:.2f})", "x": 1.0, "y": 1.0 - 0.08 * k, "xref": "paper",
                    "yref": "paper", "xanchor": "right", "yanchor": "top", "showarrow": False,
                    "font": {"size": 11, "color": _COLOURS[k % len(_COLOURS)]}}
                   for k, d in enumerate(dists)]
    layout = {**_LAYOUT, "width": 760, "height": 380, "barmode": "group", "showlegend": False,
              "annotations": annotations,
              "title": {"text": "Figure 7: token lengths of the vocabulary", "x": 0.01},
              "xaxis": {"title": {"text": f"token length in characters{marker}"}, "dtick": 1,
                        **({"range": [0.4, end + 0.6]} if end is not None else {})},
              "yaxis": {"title": {"text": "share of types"}, "rangemode": "tozero"}}
    return plotly_figure({"data": traces, "layout": layout})


def plotly_segmentation_fraction(results: Sequence[Mapping[str, Any]]) -> Any:
    """Figure 9 (a), (b) against ``|V'|`` (log axis) and the per-word fraction against ``|s|``.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``fraction-a-<k>``, ``fraction-b-<k>``, ``fraction-words-<k>`` and
        ``fraction-mean-<k>`` for the ``k``-th result (y as the matplotlib figure's).
    """
    a, b, w = _axes(3)
    traces = []
    for k, r in enumerate(results):
        col, group = _COLOURS[k % len(_COLOURS)], str(r["name"])
        common = {"legendgroup": group, "showlegend": False}
        if len(r["sizes"]):
            for key, ax in (("relative_to_vocab", a), ("relative_to_infinite", b)):
                traces.append({"type": "scatter", "x": np.asarray(r["sizes"]).tolist(),
                               "y": np.asarray(r[key], dtype=float).tolist(),
                               "mode": "lines+markers", "xaxis": ax["x"], "yaxis": ax["y"],
                               "name": f"fraction-{'a' if ax is a else 'b'}-{k}", **common,
                               "marker": {"color": col, "size": 4}, "line": {"color": col}})
        lengths, frac = np.asarray(r["lengths"]), np.asarray(r["fraction"], dtype=float)
        traces.append({"type": "scatter", "x": lengths.tolist(), "y": frac.tolist(),
                       "mode": "markers", "xaxis": w["x"], "yaxis": w["y"], **common,
                       "name": f"fraction-words-{k}", "opacity": 0.35,
                       "marker": {"color": col, "size": 4}})
        ls = np.unique(lengths)
        if ls.size:
            traces.append({"type": "scatter", "x": ls.tolist(),
                           "y": [float(frac[lengths == x].mean()) for x in ls],
                           "mode": "lines", "xaxis": w["x"], "yaxis": w["y"],
                           "name": f"fraction-mean-{k}", **common, "line": {"color": col}})
    annotations = [{"name": str(r["name"]), "text": f"{r['name']}: points one word, line the "
                    "mean per length", "x": 1.0, "y": 1.08 + 0.07 * k, "xref": "paper",
                    "yref": "paper", "xanchor": "right", "showarrow": False,
                    "font": {"size": 11, "color": _COLOURS[k % len(_COLOURS)]}}
                   for k, r in enumerate(results)]
    layout = {**_LAYOUT, "width": 1100, "height": 400, "showlegend": False,
              "annotations": annotations, "margin": {"l": 60, "r": 20, "t": 90, "b": 50}}
    for ax, xlabel, ylabel, log in (
            (a, "|V'| — (a) relative to the full vocabulary", "mean log N_V'(s) / log N_V(s)", 1),
            (b, "|V'| — (b) relative to the infinite vocabulary",
             "mean log N_V'(s) / log 2^(|s|−1)", 1),
            (w, "|s| (characters as spelled) — per word, V' = V", "log N_V(s) / log 2^(|s|−1)",
             0)):
        layout[ax["xaxis"]] = {"domain": ax["domain"], "anchor": ax["y"],
                               "title": {"text": xlabel, "font": {"size": 11}},
                               **({"type": "log", "dtick": 1} if log else {})}
        layout[ax["yaxis"]] = {"anchor": ax["x"], "range": [0, 1.05],
                               "title": {"text": ylabel, "font": {"size": 11}}}
    return plotly_figure({"data": traces, "layout": layout})


def plotly_unigram_demo(demo: Mapping[str, Any], top: int = 16) -> Any:
    """The ``top`` most probable segmentations (by the joint, ``demo["order"]``): three bars
    each, the joint law, the plain Markov walk and App. B's samples.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``joint``, ``markov``, ``sampled`` (bar heights, in the plotted order).
    """
    order = np.asarray(demo["order"])[:top]
    labels = [" | ".join(demo["tokens"][k]) for k in order]
    traces = [{"type": "bar", "x": labels, "y": np.asarray(demo[key], dtype=float)[order].tolist(),
               "name": key, "marker": {"color": colour, "line": {"width": 0}},
               "hovertemplate": "%{x}: %{y:.4f}<extra>" + key + "</extra>"}
              for key, colour in (("joint", LAW), ("markov", ACCENT), ("sampled", SAMPLE))]
    texts = {"joint": "joint unigram law Π P(t) (ULM)",
             "markov": f"plain Markov walk (A.1), TV = {demo['tv_markov']:.3f}",
             "sampled": f"App. B rejection, {demo['n_samples']:,} samples, "
                        f"TV = {demo['tv_sampled']:.3f}"}
    annotations = [{"name": key, "text": text, "x": 1.0, "y": 1.0 - 0.08 * k, "xref": "paper",
                    "yref": "paper", "xanchor": "right", "yanchor": "top", "showarrow": False,
                    "font": {"size": 11, "color": (LAW, ACCENT, SAMPLE)[k]}}
                   for k, (key, text) in enumerate(texts.items())]
    layout = {**_LAYOUT, "width": max(600, 40 * len(labels) + 200), "height": 440,
              "barmode": "group", "showlegend": False, "annotations": annotations,
              "title": {"text": f"Segmentations of {demo['word']!r}", "x": 0.01},
              "xaxis": {"tickangle": -90, "tickfont": {"size": 9}},
              "yaxis": {"title": {"text": "probability"}, "rangemode": "tozero"},
              "margin": {"l": 60, "r": 20, "t": 60, "b": 140}}
    return plotly_figure({"data": traces, "layout": layout})


def plotly_rejection_words(table: Mapping[str, Any]) -> Any:
    """Expected trials per sample (median over words; the worst word dotted) and measured
    ones against ``|s|``, log axis; GRaMPa's single pass at 1.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``expected-<name>``, ``expected-max-<name>``, ``measured-<name>``, ``grampa``.
    """
    x = np.asarray(table["lengths"]).tolist()
    traces = []
    for name, colour in zip(REJECTION_SAMPLERS, (ACCENT, PINK, SAMPLE)):
        for key, label, style in (
                ("expected", "expected (median over words)", {"mode": "lines"}),
                ("expected-max", "worst word", {"mode": "lines",
                                                "line": {"dash": "dot", "width": 1}}),
                ("measured", "measured", {"mode": "markers", "marker": {"size": 6}})):
            trace = {"type": "scatter", "x": x, "name": f"{key}-{name}",
                     "y": np.asarray(table[f"{name}_{key.replace('-', '_')}"], float).tolist(),
                     "legendgroup": name, **style,
                     "hovertemplate": "|s| = %{x}: %{y:.4g}<extra>" + f"{name}: {label}</extra>"}
            trace.setdefault("line", {}).setdefault("color", colour)
            trace.setdefault("marker", {}).setdefault("color", colour)
            traces.append(trace)
    traces.append({"type": "scatter", "x": x, "y": [1.0] * len(x), "mode": "lines",
                   "name": "grampa", "line": {"color": GREEN, "width": 3},
                   "hovertemplate": "GRaMPa: one pass<extra></extra>"})
    annotations = [{"name": name, "text": f"{name}: line expected (median; dotted: worst word), "
                    "points measured", "x": 0.0, "y": 1.0 - 0.07 * k, "xref": "paper",
                    "yref": "paper", "xanchor": "left", "yanchor": "top", "showarrow": False,
                    "font": {"size": 10, "color": colour}}
                   for k, (name, colour) in enumerate(zip(REJECTION_SAMPLERS,
                                                          (ACCENT, PINK, SAMPLE)))]
    annotations.append({"name": "grampa", "text": "GRaMPa: one pass", "x": 1.0, "y": 0.02,
                        "xref": "paper", "yref": "paper", "xanchor": "right",
                        "showarrow": False, "font": {"size": 10, "color": GREEN}})
    finite = [v for t in traces for v in t["y"] if np.isfinite(v) and v > 0]
    top = max(finite) if finite else 10.0
    layout = {**_LAYOUT, "width": 760, "height": 440, "showlegend": False,
              "annotations": annotations,
              "title": {"text": f"Rejection cost on real words ({table['name']})", "x": 0.01},
              "xaxis": {"title": {"text": "|s| (characters as spelled)"}},
              "yaxis": {"title": {"text": "trials per sample (log scale)"}, "type": "log",
                        "dtick": 1, "exponentformat": "power",
                        "range": [np.log10(0.5), np.log10(top) + 0.3]}}
    return plotly_figure({"data": traces, "layout": layout})

