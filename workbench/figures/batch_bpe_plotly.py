"""Notebook 08's slider panel in plotly: stop words and frequency cut-off against length.

:func:`plotly_stop_cutoff` is the plotly twin of
:func:`workbench.figures.batch_bpe.plot_stop_cutoff`, with traces named like the matplotlib
gids (``encoded-length``, ``length-change``) so that
:func:`workbench.figures.common.figure_data` reads either. The browser draws it, so a slider
step renders no PNG in the kernel; the matplotlib version stays for static use.

This module computes nothing: every number comes from the result it is given.

Example
-------
>>> r = {"stop_list_size": 2, "freq_cutoff": 3, "stop_words": ["the", "and"],
...      "chunks_kept": 10, "base_length": 100, "length": 98, "change_percent": -2.0}
>>> [t.name for t in plotly_stop_cutoff(r).data]
stop words (2): 'the', 'and'; 10 chunks kept by freq_cutoff=3
['encoded-length', 'length-stem', 'length-change']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .common import GUIDE, plotly_figure

__all__ = ["plotly_stop_cutoff"]


def plotly_stop_cutoff(result: Mapping[str, Any]) -> Any:
    """Held-out encoded length under ``(0, 1)`` and under the chosen setting (left: bars from
    zero) and the percent change between them (right: one stem on an axis around zero). The
    stop words (at most 12) are printed above the figure.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces ``encoded-length`` (y = the two lengths) and ``length-change`` (y = the
        change in percent); the stem is a guide.
    """
    stop, cut = result["stop_list_size"], result["freq_cutoff"]
    words = result["stop_words"]
    shown = ", ".join(repr(w) for w in words[:12]) + (" …" if len(words) > 12 else "")
    print(f"stop words ({len(words)}): {shown or 'none'}; "
          f"{result['chunks_kept']:,} chunks kept by freq_cutoff={cut}")
    labels = ["(0, 1) baseline", f"({stop}, {cut}) chosen"]
    lengths = [result["base_length"], result["length"]]
    change = float(result["change_percent"])
    colour = "#e8590c" if change > 0 else "#2b8a3e"
    lim = max(2.0, 1.3 * abs(change))
    traces = [
        {"type": "bar", "x": labels, "y": lengths, "name": "encoded-length",
         "marker": {"color": ["#868e96", "#4c6ef5"]}, "text": [f"{v:,.0f}" for v in lengths],
         "textposition": "outside", "cliponaxis": False, "xaxis": "x", "yaxis": "y",
         "hovertemplate": "%{x}: %{y:,} tokens<extra></extra>"},
        {"type": "scatter", "x": [labels[1], labels[1]], "y": [0.0, change], "mode": "lines",
         "name": "length-stem", "meta": GUIDE, "line": {"color": colour, "width": 6},
         "xaxis": "x2", "yaxis": "y2", "hoverinfo": "skip"},
        {"type": "scatter", "x": [labels[1]], "y": [change], "mode": "markers+text",
         "name": "length-change", "text": [f"{change:+.2f} %"], "textposition": "middle right",
         "marker": {"color": colour, "size": 10, "symbol": "diamond"}, "xaxis": "x2",
         "yaxis": "y2", "hovertemplate": "change: %{y:+.3f} %<extra></extra>"},
    ]
    layout = {
        "width": 760, "height": 340, "showlegend": False, "plot_bgcolor": "white",
        "margin": {"l": 70, "r": 20, "t": 50, "b": 60},
        "title": {"text": f"encoded length {change:+.3f}% against (0, 1)", "x": 0.01,
                  "font": {"size": 13}},
        "xaxis": {"domain": [0, 0.6], "title": {"text": "(stop_list_size, freq_cutoff)"}},
        "yaxis": {"range": [0, 1.15 * max(lengths)],
                  "title": {"text": "tokens in the held-out text"}},
        "xaxis2": {"domain": [0.72, 1], "anchor": "y2"},
        "yaxis2": {"range": [-lim, lim], "anchor": "x2", "zeroline": True,
                   "zerolinecolor": "black", "title": {"text": "change against (0, 1), %"}},
    }
    return plotly_figure({"data": traces, "layout": layout})
