"""The segmentation lattice as an interactive plotly figure: hover shows the numbers.

:func:`plotly_lattice` draws an :class:`~workbench.experiments.grampa_lattice.ArcTable`
(for every arc: the token, Algorithm 1's path counts at its two ends, the number of
segmentations that use it and its transition probability) or a
:class:`~workbench.experiments.grampa_lattice.LatticeView` holding one: nodes ``0..n`` on a
line, one curve per arc, labels as in :func:`workbench.figures.lattice.draw_lattice`, and a
hover box on every arc and node. The figure grows with the word (its width is proportional
to the length) and refuses words past a readable size (:data:`MAX_CHARS`, :data:`MAX_ARCS`)
with a message pointing to the static sketch.

This module computes nothing: the counts are :meth:`workbench.Lattice.summary`'s, the
probabilities :func:`workbench.experiments.grampa_lattice.arc_table`'s; the only arithmetic
here is the layout. The matplotlib drawing for paper figures and ``python -m workbench
figures`` stays :func:`workbench.figures.lattice.draw_lattice`; this module does not import
:mod:`.lattice` (which imports it for the panel): the curves and labels are :mod:`.common`'s.

Example
-------
>>> from workbench import Lattice, Vocabulary
>>> from workbench.experiments.grampa_lattice import arc_table
>>> lat = Lattice.build("ab", Vocabulary(["a", "b", "ab"]), direction="r2l")
>>> fig = plotly_lattice(arc_table(lat))
>>> fig.layout.meta["through"], fig.layout.meta["exact"]
(['1', '1', '1'], ['1', '1/2', '1/2'])
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from .._core.errors import ArgumentTypeError, InvalidValueError
from ..experiments.grampa_lattice import TABLE_MAX_ARCS, ArcTable, LatticeView
from .common import (
    GREEN,
    GREY,
    PINK,
    arc_height,
    arc_points,
    count_label,
    fraction_label,
    plotly_figure,
)

__all__ = ["MAX_ARCS", "MAX_CHARS", "plotly_lattice"]

MAX_CHARS = 60
"""Longest word :func:`plotly_lattice` draws (72 px per character: a wide scroll)."""

MAX_ARCS = TABLE_MAX_ARCS
"""Most arcs :func:`plotly_lattice` draws; beyond, the curves are a hairball (and
:func:`~workbench.experiments.grampa_lattice.lattice_view` computes no arc table)."""

_ARC_LABELS = 150  # beyond this many arcs the tokens are shown on hover only
_PX_PER_CHAR = 72
_HALO = "0 0 2px white, 0 0 2px white, 0 0 3px white"  # CSS text-shadow behind a token


def _ends(table: ArcTable) -> tuple[Sequence[int], Sequence[int]]:
    """Paths from node 0 to each node, and from each node to node n."""
    s = table.lattice
    return ((s.path_counts, s.other_counts) if s.direction == "r2l"
            else (s.other_counts, s.path_counts))


def _probability_text(table: ArcTable, k: int) -> str:
    i, j = table.lattice.arcs[k]
    p, q = table.probability[k], table.exact[k]
    if table.lattice.direction == "r2l":
        event = f"P(arrive from node {i} | at node {j})"
    else:
        event = f"P(go on to node {j} | at node {i})"
    tau = table.tau
    at = "τ = 1" if tau is None else f"τ = {tau:g}" if math.isfinite(tau) else "τ = ±∞"
    if q is not None and (p is None or abs(float(q) - p) <= 1e-9):
        return f"{event} = {q} ≈ {float(q):.4g} at {at}"
    if p is not None:
        return f"{event} = {p:.4g} at {at}"
    return f"{event}: not walked at {at}" if table.probability.count(None) < len(
        table.lattice.arcs) else f"{event}: not given"


def _arc_hover(table: ArcTable, k: int) -> str:
    s = table.lattice
    i, j = s.arcs[k]
    from0, to_n = _ends(table)
    return (f"token <b>{_escape(s.word[i:j])}</b>  (arc {i} → {j}, length {j - i})<br>"
            f"paths 0 → {i}: {from0[i]:,};  paths {j} → {s.n}: {to_n[j]:,}<br>"
            f"segmentations using it: {s.through[k]:,} of {s.count:,}<br>"
            + _probability_text(table, k))


def _node_hover(table: ArcTable, k: int) -> str:
    s = table.lattice
    word, n, c = s.word, s.n, s.path_counts
    from0, to_n = _ends(table)
    before = _escape(repr(word[:k][-12:])) if k > 0 else "start"
    after = _escape(repr(word[k:][:12])) if k < n else "end"
    counter = "0 → k" if s.direction == "r2l" else f"k → {n}"
    return (f"node {k} of {n}: between {before} and {after}<br>"
            f"paths 0 → {k}: {from0[k]:,};  paths {k} → {n}: {to_n[k]:,}<br>"
            f"Algorithm 1's counter ({s.direction}, paths {counter}): {c[k]:,}")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def plotly_lattice(
    table: ArcTable | LatticeView,
    *,
    highlight: Iterable[tuple[int, int]] | None = None,
    title: bool = True,
    max_chars: int = MAX_CHARS,
    max_arcs: int = MAX_ARCS,
) -> Any:
    """An interactive lattice: hover an arc for its token, path counts and probability.

    Parameters
    ----------
    table : ArcTable or LatticeView
        :func:`~workbench.experiments.grampa_lattice.arc_table` (arcs with probabilities
        are drawn green and labelled ``"AM 2/7"``, as in ``draw_lattice``; without them the
        hover shows τ = 1's exact probabilities), or a
        :func:`~workbench.experiments.grampa_lattice.lattice_view` (its error is the title).
    highlight : list of (i, j), optional
        A path drawn thick in pink.
    title : bool, default True
    max_chars, max_arcs : int
        Refuse larger lattices (:data:`MAX_CHARS`, :data:`MAX_ARCS`).

    Returns
    -------
    plotly.graph_objects.Figure
        Traces named ``"arcs"`` (curves; hover per arc), ``"arc labels"`` (one point per arc
        at its apex, ``customdata`` rows ``[i, j]``), ``"nodes"`` (``text`` the path count
        as :func:`~workbench.figures.common.count_label` writes it), ``"characters"`` and,
        with ``highlight``, ``"path"``. ``layout.meta`` is the table as JSON (``arcs``,
        ``tokens``, ``path_counts``, ``other_counts``, ``through``, ``count``,
        ``probability``, ``exact``, …; big integers and fractions as strings).

    Raises
    ------
    ValueError
        If the word is longer than ``max_chars`` or has more than ``max_arcs`` arcs (the
        message says so; ``draw_lattice`` sketches such lattices), or if a view has no
        lattice or no table, or if ``highlight`` names a node outside ``0..n``.
    """

    error = None
    if isinstance(table, LatticeView):
        error = table.error
        if table.lattice is None:
            raise InvalidValueError(f"no lattice to show: {error or 'no word'}")
        _check_size(len(table.lattice.word), len(table.lattice.arcs), max_chars, max_arcs)
        if table.table is None:
            raise InvalidValueError("the view has no arc table (its lattice is past "
                                    f"{TABLE_MAX_ARCS:,} arcs)")
        table = table.table
    elif not isinstance(table, ArcTable):
        raise ArgumentTypeError("expected an ArcTable or a LatticeView, not "
                                f"{type(table).__name__}")
    _check_size(table.lattice.n, len(table.lattice.arcs), max_chars, max_arcs)
    n = table.lattice.n
    path = [tuple(a) for a in (highlight or [])]
    for i, j in path:
        if not (0 <= i < j <= n):
            raise InvalidValueError(f"arc ({i}, {j}) is not an arc of a word with {n} characters")
    # traces and layout as plain dicts, made a figure once (add_trace one by one took a
    # third of a slider step)
    traces = _arc_traces(table, path) + _node_traces(table)
    layout = _layout(table, error, title)
    return plotly_figure({"data": traces, "layout": layout})


def _check_size(n_chars: int, n_arcs: int, max_chars: int, max_arcs: int) -> None:
    """Refuse a lattice too large to draw interactively (the message says what to use)."""
    if n_chars > max_chars:
        raise InvalidValueError(f"the word has {n_chars} characters: the interactive lattice draws "
                                f"at most {max_chars} (draw_lattice sketches longer words)")
    if n_arcs > max_arcs:
        raise InvalidValueError(f"the lattice has {n_arcs:,} arcs: the interactive lattice draws "
                                f"at most {max_arcs:,} (draw_lattice sketches it)")


def _curves(arcs: Sequence[tuple[int, int]], hover: Sequence[str] | None = None
            ) -> tuple[list[float | None], list[float | None], list[str | None]]:
    """The arcs as one polyline broken by ``None`` (and each point's hover text, if any)."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    texts: list[str | None] = []
    for k, (i, j) in enumerate(arcs):
        ax, ay = arc_points(i, j, 11).T.tolist()
        xs += [*ax, None]
        ys += [*ay, None]
        if hover is not None:
            texts += [hover[k]] * len(ax) + [None]
    return xs, ys, texts


def _arc_traces(table: ArcTable, path: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """The traces "arcs", "path" (with a highlight) and "arc labels" (a point at each arc's
    apex, with its hover; on small lattices also its token written there)."""
    arcs = table.lattice.arcs
    has_probs = any(p is not None for p in table.probability)
    arc_hover = [_arc_hover(table, k) for k in range(len(arcs))]
    hover_lines = len(arcs) <= _ARC_LABELS  # else hover on the apex markers only (size)
    xs, ys, hover = _curves(arcs, arc_hover if hover_lines else None)
    traces: list[dict[str, Any]] = [
        {"type": "scatter", "x": xs, "y": ys, "mode": "lines", "name": "arcs",
         "hovertext": hover if hover_lines else None,
         "hoverinfo": "text" if hover_lines else "skip",
         "line": {"color": GREEN if has_probs else GREY, "width": 2 if has_probs else 1.2}}]
    if path:
        px, py, _ = _curves(path)
        traces.append({"type": "scatter", "x": px, "y": py, "mode": "lines", "name": "path",
                       "hoverinfo": "skip", "line": {"color": PINK, "width": 4}})
    labels = []
    for k in range(len(arcs)):
        label = table.lattice.tokens[k]
        p = table.probability[k]
        if p is not None:
            label += " " + fraction_label(p)
        labels.append(label)
    apex_x = [(i + j) / 2 for i, j in arcs]
    apex_y = [arc_height(j - i) for i, j in arcs]
    trace: dict[str, Any] = {
        "type": "scatter", "x": apex_x, "y": apex_y, "mode": "markers", "name": "arc labels",
        "text": labels, "marker": {"size": 16, "color": "rgba(255,255,255,0.01)"},
        "customdata": [[i, j] for i, j in arcs], "hovertext": arc_hover, "hoverinfo": "text"}
    if len(arcs) <= _ARC_LABELS:
        # tokens written at the apexes on a white halo, as text of this trace: one SVG text
        # each, where an annotation per token (a group, a box and a measured text) made
        # most of the page's redraw of the lattice
        trace["mode"] = "markers+text"
        trace["text"] = [_escape(label) for label in labels]
        trace["textposition"] = "middle center"
        trace["textfont"] = {"family": "monospace", "size": 11,
                             "color": "#2b8a3e" if has_probs else "#343a40",
                             "shadow": _HALO}
    traces.append(trace)
    return traces


def _node_traces(table: ArcTable) -> list[dict[str, Any]]:
    """The traces "characters" (between the nodes) and "nodes" (path counts, hover)."""
    word, n = table.lattice.word, table.lattice.n
    return [
        {"type": "scatter", "x": [k + 0.5 for k in range(n)], "y": [-0.45] * n,
         "mode": "text", "name": "characters", "text": list(word),
         "textfont": {"family": "monospace", "size": 15}, "hoverinfo": "skip"},
        {"type": "scatter", "x": list(range(n + 1)), "y": [0.0] * (n + 1),
         "mode": "markers+text", "name": "nodes",
         "text": [count_label(x) for x in table.lattice.path_counts],
         "textposition": "middle center", "textfont": {"size": 10},
         "marker": {"size": 26, "color": "#f1f3f5", "line": {"color": "#343a40", "width": 1}},
         "hovertext": [_node_hover(table, k) for k in range(n + 1)], "hoverinfo": "text"}]


def _layout(table: ArcTable, error: str | None, title: bool) -> dict[str, Any]:
    """Size, axes, hover font, the title and ``meta`` (the hover table)."""
    s = table.lattice
    word, n = s.word, s.n
    top = arc_height(max((j - i for i, j in s.arcs), default=1))
    width = int(min(max(_PX_PER_CHAR * (n + 1.5) + 80, 420), _PX_PER_CHAR * (MAX_CHARS + 3)))
    height = int(min(max(85 * (top + 1.5), 280), 680)) + (40 if title else 0)
    layout = {
        "width": width, "height": height, "showlegend": False, "plot_bgcolor": "white",
        "margin": {"l": 10, "r": 10, "t": 60 if title else 10, "b": 10},
        "xaxis": {"visible": False, "range": [-0.6, n + 0.6], "fixedrange": False},
        "yaxis": {"visible": False, "range": [-0.8, top + 0.45]},
        "hoverlabel": {"font": {"family": "monospace", "size": 12}, "align": "left"},
        "meta": _jsonable(table, error),
    }
    if title:
        towards = "from node 0 to k" if s.direction == "r2l" else f"from k to node {n}"
        shown = word if len(word) <= 40 else word[:39] + "…"
        head = f"{_escape(repr(shown))}: {count_label(s.count)} segmentations"
        if error:
            head = f"{_escape(repr(shown))}: {_escape(error[:120])}"
        head += (f"<br><sup>node k: paths {towards} ({s.direction}, "
                 f"ell_min={s.ell_min}); hover an arc or a node</sup>")
        layout["title"] = {"text": head, "x": 0.01, "font": {"size": 13}}
    return layout


def _jsonable(table: ArcTable, error: str | None) -> dict[str, Any]:
    """The table as JSON, exact ints and fractions as strings (plotly's JSON has no bigints)."""
    s = table.lattice
    return {
        "word": s.word, "n": s.n, "direction": s.direction, "ell_min": s.ell_min,
        "tau": table.tau, "error": error, "count": str(s.count),
        "path_counts": [str(x) for x in s.path_counts],
        "other_counts": [str(x) for x in s.other_counts],
        "arcs": [list(a) for a in s.arcs], "tokens": list(s.tokens),
        "through": [str(x) for x in s.through], "probability": list(table.probability),
        "exact": [None if q is None else str(q) for q in table.exact],
    }
