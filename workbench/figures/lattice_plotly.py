"""The segmentation lattice as an interactive plotly figure: hover shows the numbers.

:func:`lattice_hover_table` gathers, for every arc of a lattice, the token, Algorithm 1's
path counts at its two ends, the number of segmentations that use it and its transition
probability (under a given τ, from :func:`workbench.grampa.arc_probabilities`; at τ = 1 also
as an exact fraction of path counts). :func:`plotly_lattice` draws that table: nodes ``0..n``
on a line, one curve per arc, labels as in :func:`workbench.figures.lattice.draw_lattice`,
and a hover box on every arc and node. The figure grows with the word (its width is
proportional to the length) and refuses words past a readable size (:data:`MAX_CHARS`,
:data:`MAX_ARCS`) with a message pointing to the static sketch.

This module does not sample and does not compute GRaMPa's probabilities itself (they come
from :mod:`workbench.grampa`); the only arithmetic here is the path count from each node to
the *other* end of the lattice (the same recurrence as Algorithm 1, run the other way over
the same arcs), products of counts, and the layout. The matplotlib drawing for paper figures
and ``python -m workbench figures`` stays :func:`workbench.figures.lattice.draw_lattice`;
this module does not import :mod:`.lattice` (which imports it for the panel): the labels
are :mod:`.common`'s.

Example
-------
>>> from workbench import Lattice, Vocabulary
>>> t = lattice_hover_table(Lattice.build("ab", Vocabulary(["a", "b", "ab"]), direction="r2l"))
>>> t["arcs"], t["through"], [str(f) for f in t["exact"]]
([(0, 1), (0, 2), (1, 2)], [1, 1, 1], ['1', '1/2', '1/2'])
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..grampa import arc_probabilities as grampa_arc_probabilities
from ..lattice import Lattice, counts_from_arcs
from .common import GREEN, GREY, PINK, count_label, fraction_label

__all__ = [
    "EXACT_MAX_DENOMINATOR",
    "MAX_ARCS",
    "MAX_CHARS",
    "lattice_hover_table",
    "plotly_lattice",
]

MAX_CHARS = 60
"""Longest word :func:`plotly_lattice` draws (72 px per character: a wide scroll)."""

MAX_ARCS = 1200
"""Most arcs :func:`plotly_lattice` draws; beyond, the curves are a hairball."""

EXACT_MAX_DENOMINATOR = 10**6
"""At τ = 1 a probability is also printed as an exact fraction up to this denominator."""

_ARC_LABELS = 150  # beyond this many arcs the tokens are shown on hover only
_PX_PER_CHAR = 72


def _fields(lattice: Lattice | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(lattice, Lattice):
        return {"word": lattice.word, "arcs": [tuple(a) for a in lattice.arcs],
                "path_counts": list(lattice.path_counts), "direction": lattice.direction,
                "ell_min": lattice.ell_min, "error": None}
    if isinstance(lattice, Mapping):  # a lattice_summary result
        return {"word": lattice.get("word_in_alphabet"),
                "arcs": [tuple(a) for a in lattice.get("arcs") or []],
                "path_counts": list(lattice.get("path_counts") or []),
                "direction": lattice.get("direction", "l2r"),
                "ell_min": lattice.get("ell_min", 1), "error": lattice.get("error")}
    raise TypeError(f"expected a Lattice or a lattice_summary dict, not {type(lattice).__name__}")


def lattice_hover_table(
    lattice: Lattice | Mapping[str, Any],
    tau: float | None = None,
    arc_probabilities: Mapping[tuple[int, int], float] | None = None,
) -> dict[str, Any]:
    """Everything the hover boxes of :func:`plotly_lattice` show, as plain data.

    Parameters
    ----------
    lattice : Lattice or dict
        A :class:`workbench.Lattice` or a :func:`workbench.figures.lattice.lattice_summary`.
    tau : float, optional
        GRaMPa's temperature. With a :class:`~workbench.Lattice` and no
        ``arc_probabilities``, the probabilities are
        ``arc_probabilities(word, lattice.vocab, tau, ell_min, direction)``.
    arc_probabilities : dict {(i, j): float}, optional
        The probabilities to show (e.g. a summary's, computed at ``tau``).

    Returns
    -------
    dict
        ``word``, ``n``, ``direction``, ``ell_min``, ``tau``, ``error``; ``count`` (number of
        segmentations); ``path_counts`` (Algorithm 1's counters: paths between node k and
        node 0 for ``"r2l"``, node n for ``"l2r"``) and ``other_counts`` (paths to the other
        end); per arc, in the lattice's order: ``arcs`` ((i, j)), ``tokens``, ``through``
        (segmentations using the arc: paths 0 → i times paths j → n), ``probability`` (float,
        or None where none was given / the arc is not walked) and ``exact`` (the probability
        at τ = 1 as a :class:`~fractions.Fraction` of path counts — standing in node j for
        ``"r2l"`` it is ``c_i / c_j``, standing in node i for ``"l2r"`` ``c_j / c_i`` — or
        None when τ ≠ 1, the denominator exceeds :data:`EXACT_MAX_DENOMINATOR` or the node
        is unreachable).

    Raises
    ------
    ValueError
        If the summary has no word (its ``error`` says why) or ``tau`` needs a vocabulary
        that a summary does not carry.
    """
    f = _fields(lattice)
    word = f["word"]
    if word is None:
        raise ValueError(f"no lattice to show: {f['error'] or 'no word'}")
    n, arcs, c, direction = len(word), f["arcs"], f["path_counts"], f["direction"]
    probs = dict(arc_probabilities) if arc_probabilities is not None else None
    if probs is None and tau is not None:
        if not isinstance(lattice, Lattice):
            raise ValueError("a lattice_summary carries no vocabulary: pass arc_probabilities "
                             "computed at this tau")
        probs = grampa_arc_probabilities(word, lattice.vocab, tau, f["ell_min"], direction)
    other = counts_from_arcs(n, arcs, "l2r" if direction == "r2l" else "r2l")  # the other end
    from0, to_n = (c, other) if direction == "r2l" else (other, c)
    uniform = tau is None or tau == 1.0
    exact: list[Fraction | None] = []
    for i, j in arcs:
        stand, come = (j, i) if direction == "r2l" else (i, j)
        q = Fraction(c[come], c[stand]) if uniform and c[stand] > 0 else None
        exact.append(q if q is not None and q.denominator <= EXACT_MAX_DENOMINATOR else None)
    return {
        "word": word, "n": n, "direction": direction, "ell_min": f["ell_min"], "tau": tau,
        "error": f["error"], "count": (c[n] if direction == "r2l" else c[0]) if c else 0,
        "path_counts": c, "other_counts": other, "arcs": arcs,
        "tokens": [word[i:j] for i, j in arcs],
        "through": [from0[i] * to_n[j] for i, j in arcs],
        "probability": [None if probs is None else probs.get((i, j)) for i, j in arcs],
        "exact": exact,
    }


# --------------------------------------------------------------------------- drawing
def _arc_height(length: int) -> float:
    return 0.3 + 0.4 * length**0.75


def _arc_xy(i: int, j: int, npts: int) -> tuple[list[float], list[float]]:
    """Points of the quadratic Bézier from ``(i, 0)`` over an apex at ``_arc_height`` to
    ``(j, 0)``."""
    h = 2 * _arc_height(j - i)
    ts = [k / (npts - 1) for k in range(npts)]
    xs = [(1 - t) ** 2 * i + 2 * (1 - t) * t * (i + j) / 2 + t**2 * j for t in ts]
    ys = [2 * (1 - t) * t * h for t in ts]
    return xs, ys


def _probability_text(table: Mapping[str, Any], k: int) -> str:
    i, j = table["arcs"][k]
    p, q = table["probability"][k], table["exact"][k]
    if table["direction"] == "r2l":
        event = f"P(arrive from node {i} | at node {j})"
    else:
        event = f"P(go on to node {j} | at node {i})"
    tau = table["tau"]
    at = "τ = 1" if tau is None else f"τ = {tau:g}" if math.isfinite(tau) else "τ = ±∞"
    if q is not None and (p is None or abs(float(q) - p) <= 1e-9):
        return f"{event} = {q} ≈ {float(q):.4g} at {at}"
    if p is not None:
        return f"{event} = {p:.4g} at {at}"
    return f"{event}: not walked at {at}" if table["probability"].count(None) < len(
        table["arcs"]) else f"{event}: not given"


def _arc_hover(table: Mapping[str, Any], k: int) -> str:
    i, j = table["arcs"][k]
    n, c, other = table["n"], table["path_counts"], table["other_counts"]
    from0, to_n = (c, other) if table["direction"] == "r2l" else (other, c)
    return (f"token <b>{_escape(table['tokens'][k])}</b>  (arc {i} → {j}, length {j - i})<br>"
            f"paths 0 → {i}: {from0[i]:,};  paths {j} → {n}: {to_n[j]:,}<br>"
            f"segmentations using it: {table['through'][k]:,} of {table['count']:,}<br>"
            + _probability_text(table, k))


def _node_hover(table: Mapping[str, Any], k: int) -> str:
    word, n, c = table["word"], table["n"], table["path_counts"]
    other = table["other_counts"]
    from0, to_n = (c, other) if table["direction"] == "r2l" else (other, c)
    before = _escape(repr(word[:k][-12:])) if k > 0 else "start"
    after = _escape(repr(word[k:][:12])) if k < n else "end"
    counter = "0 → k" if table["direction"] == "r2l" else f"k → {n}"
    return (f"node {k} of {n}: between {before} and {after}<br>"
            f"paths 0 → {k}: {from0[k]:,};  paths {k} → {n}: {to_n[k]:,}<br>"
            f"Algorithm 1's counter ({table['direction']}, paths {counter}): {c[k]:,}")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def plotly_lattice(
    lattice: Lattice | Mapping[str, Any],
    tau: float | None = None,
    ell_min: int | None = None,
    direction: str | None = None,
    *,
    arc_probabilities: Mapping[tuple[int, int], float] | None = None,
    highlight: Iterable[tuple[int, int]] | None = None,
    title: bool = True,
    max_chars: int = MAX_CHARS,
    max_arcs: int = MAX_ARCS,
) -> Any:
    """An interactive lattice: hover an arc for its token, path counts and probability.

    Parameters
    ----------
    lattice : Lattice or dict
        A :class:`workbench.Lattice` or a :func:`~workbench.figures.lattice.lattice_summary`.
    tau : float, optional
        Show GRaMPa's transition probabilities at this τ (see :func:`lattice_hover_table`;
        with a summary pass ``arc_probabilities`` too). Without ``tau`` and
        ``arc_probabilities`` the hover shows τ = 1's exact probabilities (ratios of path
        counts: uniform over segmentations).
    ell_min, direction : optional
        With a :class:`~workbench.Lattice`, rebuild it with these (default: its own).
    arc_probabilities : dict {(i, j): float}, optional
        Drawn green and written after the token (``"AM 2/7"``), as in ``draw_lattice``.
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
        with ``highlight``, ``"path"``. ``layout.meta`` is the :func:`lattice_hover_table`.

    Raises
    ------
    ValueError
        If the word is longer than ``max_chars`` or has more than ``max_arcs`` arcs (the
        message says so; ``draw_lattice`` sketches such lattices), if a summary has no word,
        or if ``highlight`` names a node outside ``0..n``.
    """
    import plotly.graph_objects as go

    if isinstance(lattice, Lattice) and (
            (ell_min is not None and ell_min != lattice.ell_min)
            or (direction is not None and direction != lattice.direction)):
        lattice = Lattice.build(lattice.word, lattice.vocab,
                                lattice.ell_min if ell_min is None else ell_min,
                                lattice.direction if direction is None else direction)
    _check_size(_fields(lattice), max_chars, max_arcs)
    table = lattice_hover_table(lattice, tau, arc_probabilities)
    n = table["n"]
    path = [tuple(a) for a in (highlight or [])]
    for i, j in path:
        if not (0 <= i < j <= n):
            raise ValueError(f"arc ({i}, {j}) is not an arc of a word with {n} characters")
    # traces and layout as plain dicts, validated once by go.Figure (add_trace and
    # add_annotation one by one took a third of a slider step)
    traces, annotations = _arc_traces(table, path)
    traces += _node_traces(table)
    layout = _layout(table, title)
    layout["annotations"] = annotations
    return go.Figure({"data": traces, "layout": layout})


def _check_size(f: Mapping[str, Any], max_chars: int, max_arcs: int) -> None:
    """Refuse a lattice too large to draw interactively (the message says what to use)."""
    if f["word"] is None:
        return
    n_chars, n_arcs = len(f["word"]), len(f["arcs"])
    if n_chars > max_chars:
        raise ValueError(f"the word has {n_chars} characters: the interactive lattice "
                         f"draws at most {max_chars} (draw_lattice sketches longer words)")
    if n_arcs > max_arcs:
        raise ValueError(f"the lattice has {n_arcs:,} arcs: the interactive lattice draws "
                         f"at most {max_arcs:,} (draw_lattice sketches it)")


def _curves(arcs: Sequence[tuple[int, int]], hover: Sequence[str] | None = None
            ) -> tuple[list[float | None], list[float | None], list[str | None]]:
    """The arcs as one polyline broken by ``None`` (and each point's hover text, if any)."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    texts: list[str | None] = []
    for k, (i, j) in enumerate(arcs):
        ax, ay = _arc_xy(i, j, 11)
        xs += [*ax, None]
        ys += [*ay, None]
        if hover is not None:
            texts += [hover[k]] * len(ax) + [None]
    return xs, ys, texts


def _arc_traces(table: Mapping[str, Any], path: list[tuple[int, int]]
                ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The traces "arcs", "path" (with a highlight) and "arc labels", and the annotations
    writing each token at its apex (small lattices only)."""
    arcs = table["arcs"]
    has_probs = any(p is not None for p in table["probability"])
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
        label = table["tokens"][k]
        p = table["probability"][k]
        if p is not None:
            label += " " + fraction_label(p)
        labels.append(label)
    apex_x = [(i + j) / 2 for i, j in arcs]
    apex_y = [_arc_height(j - i) for i, j in arcs]
    traces.append({"type": "scatter", "x": apex_x, "y": apex_y, "mode": "markers",
                   "name": "arc labels", "text": labels,
                   "marker": {"size": 16, "color": "rgba(255,255,255,0.01)"},
                   "customdata": [[i, j] for i, j in arcs], "hovertext": arc_hover,
                   "hoverinfo": "text"})
    annotations = []
    if len(arcs) <= _ARC_LABELS:  # tokens written at the apexes, on a white box
        font = {"family": "monospace", "size": 11,
                "color": "#2b8a3e" if has_probs else "#343a40"}
        annotations = [{"x": x, "y": y, "text": _escape(label), "showarrow": False,
                        "bgcolor": "rgba(255,255,255,0.85)", "font": font}
                       for x, y, label in zip(apex_x, apex_y, labels)]
    return traces, annotations


def _node_traces(table: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The traces "characters" (between the nodes) and "nodes" (path counts, hover)."""
    word, n = table["word"], table["n"]
    return [
        {"type": "scatter", "x": [k + 0.5 for k in range(n)], "y": [-0.45] * n,
         "mode": "text", "name": "characters", "text": list(word),
         "textfont": {"family": "monospace", "size": 15}, "hoverinfo": "skip"},
        {"type": "scatter", "x": list(range(n + 1)), "y": [0.0] * (n + 1),
         "mode": "markers+text", "name": "nodes",
         "text": [count_label(x) for x in table["path_counts"]],
         "textposition": "middle center", "textfont": {"size": 10},
         "marker": {"size": 26, "color": "#f1f3f5", "line": {"color": "#343a40", "width": 1}},
         "hovertext": [_node_hover(table, k) for k in range(n + 1)], "hoverinfo": "text"}]


def _layout(table: Mapping[str, Any], title: bool) -> dict[str, Any]:
    """Size, axes, hover font, the title and ``meta`` (the hover table)."""
    word, n = table["word"], table["n"]
    top = _arc_height(max((j - i for i, j in table["arcs"]), default=1))
    width = int(min(max(_PX_PER_CHAR * (n + 1.5) + 80, 420), _PX_PER_CHAR * (MAX_CHARS + 3)))
    height = int(min(max(85 * (top + 1.5), 280), 680)) + (40 if title else 0)
    layout = {
        "width": width, "height": height, "showlegend": False, "plot_bgcolor": "white",
        "margin": {"l": 10, "r": 10, "t": 60 if title else 10, "b": 10},
        "xaxis": {"visible": False, "range": [-0.6, n + 0.6], "fixedrange": False},
        "yaxis": {"visible": False, "range": [-0.8, top + 0.45]},
        "hoverlabel": {"font": {"family": "monospace", "size": 12}, "align": "left"},
        "annotations": [], "meta": _jsonable(table),
    }
    if title:
        towards = "from node 0 to k" if table["direction"] == "r2l" else f"from k to node {n}"
        shown = word if len(word) <= 40 else word[:39] + "…"
        head = f"{_escape(repr(shown))}: {count_label(table['count'])} segmentations"
        if table["error"]:
            head = f"{_escape(repr(shown))}: {_escape(table['error'][:120])}"
        head += (f"<br><sup>node k: paths {towards} ({table['direction']}, "
                 f"ell_min={table['ell_min']}); hover an arc or a node</sup>")
        layout["title"] = {"text": head, "x": 0.01, "font": {"size": 13}}
    return layout


def _jsonable(table: Mapping[str, Any]) -> dict[str, Any]:
    """The table with exact ints and fractions as strings (plotly's JSON has no bigints)."""
    out = dict(table)
    for key in ("path_counts", "other_counts", "through"):
        out[key] = [str(x) for x in table[key]]
    out["count"] = str(table["count"])
    out["exact"] = [None if q is None else str(q) for q in table["exact"]]
    out["arcs"] = [list(a) for a in table["arcs"]]
    return out
