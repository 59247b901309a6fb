"""Notebook 12's figures: where each sampler puts its mass on one word (plotly).

:func:`plot_mass` draws a :class:`workbench.experiments.laws_compare.LawsComparison`: one
marker per segmentation a law can return, at its position in the order by token count (x)
and its log10 probability (y), one trace per sampler (named like the sampler, so
:func:`workbench.figures.common.figure_data` reads the values back; the log of 0 is a gap),
with grey bands for every other token count. :func:`summary_table` lays the laws' summaries
out as a table.

This module computes no law (the laws, their summaries and the order come with the
comparison) and binds no widget (notebook 12 binds :func:`plot_mass` through
:func:`workbench.figures.panel.interactive_panel`).

Example
-------
>>> from workbench.experiments.laws_compare import compare_laws
>>> fig = plot_mass(compare_laws("▁token"))
>>> [t.name for t in fig.data]
['grampa', 'ulm', 'bpe-dropout', 'maxmatch-dropout']
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .common import ACCENT, GREEN, GREY, SAMPLE, tau_label

__all__ = ["COLOURS", "LABELS", "plot_mass", "summary_table"]

#: Colour of each sampler's markers.
COLOURS = {"grampa": GREEN, "ulm": SAMPLE, "bpe-dropout": ACCENT, "maxmatch-dropout": "#7048e8"}
#: How each sampler and its knob are written.
LABELS = {"grampa": "GRaMPa τ", "ulm": "ULM (all) α", "bpe-dropout": "BPE-dropout p",
          "maxmatch-dropout": "MaxMatch-dropout q"}


def _legend(name: str, value: float) -> str:
    shown = tau_label(value) if name == "grampa" else f"{value:g}"
    return f"{LABELS[name]} = {shown}"


def plot_mass(comparison: Any, *, title: str | None = None) -> Any:
    """log10 P of every segmentation, ordered by token count, one trace per sampler.

    Hovering a marker shows the segmentation (tokens joined by ``|``) and its probability.
    The markers are WebGL (``scattergl``): a slider step redraws thousands of them.
    The x axis is the segmentation's rank in the order (token count, then the tokens); the
    grey bands mark every other token count, labelled with it at the top.
    """
    import plotly.graph_objects as go

    segs = comparison.segmentations
    counts = comparison.token_counts
    text = np.array(["|".join(s) for s in segs])  # an array: plotly checks no string one by one
    x = np.arange(len(segs))
    kinds = sorted(set(counts.tolist()))
    first = {k: int(np.searchsorted(counts, k, "left")) for k in kinds}
    last = {k: int(np.searchsorted(counts, k, "right")) - 1 for k in kinds}
    shapes = [{"type": "rect", "xref": "x", "yref": "paper", "x0": first[k] - 0.5,
               "x1": last[k] + 0.5, "y0": 0, "y1": 1, "fillcolor": GREY, "opacity": 0.12,
               "line": {"width": 0}, "layer": "below"} for k in kinds[::2]]
    notes = [{"x": (first[k] + last[k]) / 2, "y": 1.0, "xref": "x", "yref": "paper",
              "yanchor": "bottom", "text": str(k), "showarrow": False,
              "font": {"size": 10, "color": GREY}} for k in kinds]
    traces = []
    for name in comparison.laws:
        p = comparison.probabilities[name]
        y = np.full(p.shape, np.nan)
        y[p > 0] = np.log10(p[p > 0])
        traces.append(go.Scattergl(  # WebGL: ~4x quicker to redraw than SVG markers
            x=x, y=y, mode="markers", name=name,
            marker={"color": COLOURS[name], "size": 5, "opacity": 0.75},
            customdata=p, text=text,
            hovertemplate="%{text}<br>P = %{customdata:.3g}<extra>" + name + "</extra>"))
    knobs = ", ".join(_legend(n, sl.value) for n, sl in comparison.laws.items())
    return go.Figure(data=traces, layout={
        "title": {"text": title or f"Where the mass goes on {comparison.word!r}<br>"
                  f"<sup>{knobs}</sup>"},
        "xaxis": {"title": {"text": "segmentations, ordered by number of tokens "
                                    "(the number on top)"}},
        "yaxis": {"title": {"text": "log10 P(segmentation)"}},
        "height": 480, "margin": {"t": 90}, "legend": {"orientation": "h", "y": -0.2},
        "shapes": shapes, "annotations": notes})


def summary_table(comparison: Any) -> Any:
    """The laws' summaries, one row per sampler (a ``pandas.DataFrame``; entropies in bits)."""
    import pandas as pd

    rows = []
    for name, sl in comparison.laws.items():
        rows.append({"sampler": name, "knob": f"{sl.knob} = {sl.value:g}",
                     "vocabulary": sl.vocabulary, "entropy (bits)": round(sl.entropy, 3),
                     "E[#tokens]": round(sl.expected_tokens, 3), "support": sl.support,
                     "segmentations": sl.n_segmentations,
                     "regularisation rate": round(sl.regularisation_rate, 4),
                     f"distinct in {comparison.m} samples": round(sl.expected_distinct, 2)})
    return pd.DataFrame(rows).set_index("sampler")
