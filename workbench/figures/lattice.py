"""Notebook 01: segmentation lattices, Figure 1 of the GRaMPa paper drawn (matplotlib).

:func:`draw_lattice` draws a lattice with matplotlib: nodes ``0..n`` on a line, the
characters between them, the path count of Algorithm 1 at each node and one curve per arc,
labelled by its token. :func:`node_count_labels` reads the counts back from a drawing.
:func:`lattice_panel` binds a view function (the notebook passes
:func:`workbench.experiments.grampa_lattice.lattice_view`) to ipywidgets through
:func:`workbench.figures.panel.interactive_panel` and shows its result with
:func:`workbench.figures.lattice_plotly.plotly_lattice` (this sketch past its size limit).

This module computes nothing: every number it shows comes from a
:class:`workbench.lattice.summary.LatticeSummary` (:meth:`workbench.Lattice.summary`), a
:class:`~workbench.experiments.grampa_lattice.LatticeView` or the caller (e.g.
:func:`workbench.grampa.arc_probabilities`); the only arithmetic here is layout. Labels are
:func:`workbench.figures.common.fraction_label` and :func:`~workbench.figures.common.count_label`;
Figure 1's vocabulary is :func:`workbench.datasets.figure1_vocabulary`.

Example
-------
>>> from workbench import Lattice, Vocabulary
>>> fig = draw_lattice(Lattice.build("abc", Vocabulary(["a", "b", "c", "ab", "bc"])))
>>> node_count_labels(fig)
{0: '3', 1: '2', 2: '1', 3: '1'}
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure, FigureBase

from .._core.errors import ArgumentTypeError, InvalidValueError
from ..datasets.catalog import vocabulary_options
from ..experiments.grampa_lattice import LatticeView
from ..lattice import Lattice, format_segmentation
from ..lattice.summary import LatticeSummary
from ..vocab import Vocabulary
from .common import GREEN, GREY, PINK, arc_height, arc_points, count_label, fraction_label
from .lattice_plotly import plotly_lattice
from .panel import add_vocabulary_upload, interactive_panel

__all__ = ["draw_lattice", "lattice_panel", "node_count_labels"]


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _parts(lattice: Lattice | LatticeSummary | LatticeView
           ) -> tuple[LatticeSummary | None, str | None]:
    """The summary to draw and the error to show."""
    if isinstance(lattice, Lattice):
        return lattice.summary(), None
    if isinstance(lattice, LatticeSummary):
        return lattice, None
    if isinstance(lattice, LatticeView):
        return lattice.lattice, lattice.error
    raise ArgumentTypeError("expected a Lattice, a LatticeSummary or a LatticeView, not "
                            f"{type(lattice).__name__}")


def draw_lattice(
    lattice: Lattice | LatticeSummary | LatticeView,
    arc_probabilities: Mapping[tuple[int, int], float | Fraction] | None = None,
    highlight: Iterable[tuple[int, int]] | None = None,
    ax: Axes | None = None,
    *,
    max_arc_labels: int = 120,
    max_label_chars: int = 40,
    max_node_labels: int = 61,
    max_arcs: int = 50_000,
    title: bool = True,
) -> FigureBase:
    """Draw a segmentation lattice: nodes ``0..n`` on a line, one curve per arc.

    Each node is labelled by its path count (:attr:`workbench.Lattice.path_counts`: paths
    to node 0 for ``"r2l"``, to node n for ``"l2r"``); the characters sit between the
    nodes; each arc ``i → j`` is a curve whose height grows with ``j - i``, labelled at its
    apex by the token ``word[i:j]``.

    Parameters
    ----------
    lattice : Lattice, LatticeSummary or LatticeView
        A :class:`workbench.Lattice`, its :meth:`~workbench.Lattice.summary`, or a
        :func:`~workbench.experiments.grampa_lattice.lattice_view` (its error is the title;
        a view without a lattice draws the error message only).
    arc_probabilities : dict {(i, j): float}, optional
        Drawn in green and labelled ``token`` + :func:`fraction_label` (e.g. ``"AM 2/7"``).
    highlight : list of (i, j), optional
        A path (or any arcs) drawn thick in pink, like the path taken in Figure 1.
    ax : matplotlib Axes, optional
        Draw into it; by default a new :class:`matplotlib.figure.Figure` (not managed by
        pyplot, so nothing is shown twice and nothing needs closing) sized to the word.
    max_arc_labels, max_label_chars, max_node_labels : int
        Beyond ``max_arc_labels`` arcs or ``max_label_chars`` characters (or when they
        would not fit the width), arc and character labels are omitted; beyond
        ``max_node_labels`` nodes, or where the counts would overlap, only every k-th node
        is labelled (always nodes 0 and n). The title says what was left out.
    max_arcs : int, default 50,000
        At most this many plain arcs are drawn (the shortest); highlighted arcs and arcs
        with probabilities are always drawn.
    title : bool, default True

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn into (``ax.figure`` when ``ax`` is given). Text artists carry
        gids: ``"count-k"`` (node k's count), ``"char-i"``, ``"arc-i-j"``.

    Raises
    ------
    ValueError
        If ``highlight`` or ``arc_probabilities`` name a node outside ``0..n``.
    """
    s, error = _parts(lattice)
    word = s.word if s is not None else None
    arcs = list(s.arcs) if s is not None else []
    counts = list(s.path_counts) if s is not None else []
    probs = dict(arc_probabilities or {})
    path = [tuple(a) for a in (highlight or [])]

    n = len(word) if word is not None else 0
    for i, j in list(probs) + path:
        if not (0 <= i < j <= n):
            raise InvalidValueError(f"arc ({i}, {j}) is not an arc of a word with {n} characters")

    fig, ax, unit = _lattice_axes(ax, word, n, arc_height(
        max((j - i for i, j in arcs + path), default=1)))
    if s is None:  # bad input: nothing to draw but the message
        ax.text(0.5, 0.5, error or "no lattice", transform=ax.transAxes, ha="center",
                va="center", wrap=True, parse_math=False, gid="error")
        return fig
    omitted = _draw_arcs(ax, arcs, probs, path, max_arcs)
    if len(arcs) <= max_arc_labels and n <= max_label_chars and unit >= 0.3:
        _draw_arc_labels(ax, word, arcs, probs, path)
    elif arcs:
        omitted.append(f"{len(arcs)} arc labels")
    if n <= max_label_chars and unit >= 0.15:  # the characters, between the nodes
        for i, ch in enumerate(word):
            ax.text(i + 0.5, -0.45, ch, ha="center", va="center", fontsize=11,
                    family="monospace", parse_math=False, gid=f"char-{i}")
    else:
        omitted.append("characters")
    omitted += _draw_nodes(ax, counts, n, unit, max_node_labels)
    if title:
        _set_title(ax, s, error, omitted)
    return fig


def _lattice_axes(ax: Axes | None, word: str | None, n: int, top: float
                  ) -> tuple[FigureBase, Axes, float]:
    """The figure and axes to draw in (a new figure sized to the word when ``ax`` is None)
    and the inches per character cell, which decide the labels that fit."""
    if ax is None:
        width = float(np.clip(0.8 * (n + 1.5), 4.0, 18.0))
        height = float(np.clip(width * (top + 1.6) / (n + 1.5), 2.2, 7.0))
        if word is None:
            width, height = 6.0, 1.5
        fig: FigureBase = Figure(figsize=(width, height), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    root = fig if isinstance(fig, Figure) else fig.figure  # a SubFigure's root figure
    axes_inches = ax.get_position().width * root.get_figwidth()
    unit = max(axes_inches, 0.5) / (n + 1.2)
    ax.set_axis_off()
    ax.set_xlim(-0.6, n + 0.6)
    ax.set_ylim(-0.75, top + 0.45)
    return fig, ax, unit


def _draw_arcs(ax: Axes, arcs: list, probs: dict, path: list, max_arcs: int) -> list[str]:
    """The arcs as curves: plain grey (at most ``max_arcs``), with probabilities green, the
    highlighted path pink. Returns what was omitted."""
    omitted = []
    npts = 25 if len(arcs) <= 2000 else 7
    plain = [a for a in arcs if a not in probs]
    if len(plain) > max_arcs:  # keep the shortest arcs; the picture is a sketch anyway
        omitted.append(f"{len(plain) - max_arcs} longest arcs")
        plain = sorted(plain, key=lambda a: (a[1] - a[0], a[0]))[:max_arcs]
    if plain:
        ax.add_collection(LineCollection([arc_points(i, j, npts) for i, j in plain],
                                         colors=GREY, linewidths=1.0, alpha=0.8,
                                         zorder=1))
    if probs:
        ax.add_collection(LineCollection([arc_points(i, j, 25) for i, j in probs],
                                         colors=GREEN, linewidths=2.0, zorder=2))
    if path:
        ax.add_collection(LineCollection([arc_points(i, j, 25) for i, j in path],
                                         colors=PINK, linewidths=3.0, zorder=3))
    return omitted


def _draw_arc_labels(ax: Axes, word: str, arcs: list, probs: dict, path: list) -> None:
    """Each arc's token (and probability) at the apex of its curve."""
    for i, j in sorted(set(arcs) | set(probs) | set(path)):
        label = word[i:j]
        colour = "#343a40"
        if (i, j) in probs:
            label += " " + fraction_label(probs[(i, j)])
            colour = GREEN
        if (i, j) in path:
            colour = PINK
        ax.text((i + j) / 2, arc_height(j - i), label, ha="center", va="center",
                fontsize=8, color=colour, family="monospace", parse_math=False,
                zorder=4, gid=f"arc-{i}-{j}",
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                      "alpha": 0.85})


def _draw_nodes(ax: Axes, counts: list, n: int, unit: float, max_node_labels: int
                ) -> list[str]:
    """The nodes with their path counts (every k-th where they would overlap, always 0 and
    n). Returns what was omitted."""
    widest = max((len(count_label(c)) for c in counts), default=1)
    step = max(math.ceil((0.08 * widest + 0.15) / unit),  # labels must not overlap
               math.ceil((n + 1) / max(max_node_labels, 2)))
    labelled = list(range(0, n + 1, step))
    if labelled[-1] != n:
        if len(labelled) > 1 and 2 * (n - labelled[-1]) < step:
            labelled.pop()  # too close to node n, which is always labelled
        labelled.append(n)
    omitted = []
    if step > 1:
        omitted.append(f"counts of {n + 1 - len(labelled)} nodes")
        ax.plot(range(n + 1), [0] * (n + 1), "o", ms=2, color="#343a40", zorder=4)
    for k in labelled:
        label = count_label(counts[k]) if k < len(counts) else "?"
        ax.text(k, 0, label, ha="center", va="center", fontsize=9, zorder=5,
                gid=f"count-{k}",
                bbox={"boxstyle": "round,pad=0.25", "fc": "#f1f3f5", "ec": "#343a40"})
    return omitted


def _set_title(ax: Axes, s: LatticeSummary, error: str | None, omitted: list[str]) -> None:
    """The word and its segmentation count (or the error), what node k counts, omissions."""
    n = s.n
    towards = "from node 0 to k" if s.direction == "r2l" else f"from k to node {n}"
    shown = repr(_shorten(s.word))
    head = f"{shown}: {count_label(s.count)} segmentations"
    if error:
        head = f"{shown}: {_shorten(error, 120)}"
    sub = f"node k: paths {towards} ({s.direction}, ell_min={s.ell_min})"
    if omitted:
        sub += "; omitted: " + ", ".join(omitted)
    ax.set_title(head + "\n" + sub, fontsize=9, loc="left", parse_math=False, wrap=True)


def node_count_labels(fig_or_ax: Any) -> dict[int, str]:
    """The path-count labels :func:`draw_lattice` (or
    :func:`workbench.figures.lattice_plotly.plotly_lattice`) wrote, as ``{node: text}``.

    For checking a drawn figure against the numbers it should show.
    """
    if not isinstance(fig_or_ax, (FigureBase, Axes)):  # a plotly figure: its "nodes" trace
        nodes = [t for t in getattr(fig_or_ax, "data", ()) if t.name == "nodes"]
        return {k: str(x) for k, x in enumerate(nodes[0].text)} if nodes else {}
    axes = fig_or_ax.axes if isinstance(fig_or_ax, FigureBase) else [fig_or_ax]
    found: dict[int, str] = {}
    for ax in axes:
        for text in ax.texts:
            gid = text.get_gid() or ""
            if gid.startswith("count-"):
                found[int(gid[len("count-"):])] = text.get_text()
    return found



def lattice_panel(
    view: Callable[..., LatticeView],
    options: Mapping[str, Callable[[], Vocabulary]] | None = None,
    word: str = "GRAMPA",
    vocabulary: str = "figure-1",
    direction: str = "r2l",
    ell_min: int = 1,
    max_list: int = 64,
) -> Any:
    """The interactive lattice: a word box, a vocabulary dropdown, direction and ``ell_min``.

    It shows the number of segmentations, (up to ``max_list``) the segmentations and the
    lattice of ``view(word, vocab, ell_min, direction, max_list)`` as an interactive plotly
    figure (:func:`workbench.figures.lattice_plotly.plotly_lattice`: hover an arc for
    its token, path counts and probability at τ = 1; past its size limit the static
    :func:`draw_lattice` sketch). ``panel.result`` is the view shown and
    ``panel.last_figure`` the figure, so that
    ``panel.result == lattice_view(word, vocab, ell_min, direction, max_list)``.

    Parameters
    ----------
    view : callable
        :func:`workbench.experiments.grampa_lattice.lattice_view` (the panel computes
        nothing itself: notebooks take data from ``experiments``, plots from ``figures``).
    options : dict {name: loader}, optional
        Default :func:`workbench.datasets.vocabulary_options`.
    word, vocabulary, direction, ell_min
        Initial values.
    max_list : int, default 64

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets

    opts = dict(options) if options is not None else vocabulary_options()
    if vocabulary not in opts:
        vocabulary = next(iter(opts))

    def summary(word: str, vocabulary: str, direction: str, ell_min: int) -> LatticeView:
        try:
            vocab = opts[vocabulary]()
        except (OSError, ValueError) as err:  # a shipped file that is missing or broken
            return LatticeView(None, ell_min, direction, None, None, None,
                               f"cannot load vocabulary {vocabulary!r}: {err}")
        return view(word, vocab, ell_min, direction, max_list)

    def draw(view: LatticeView) -> FigureBase:
        if view.error:
            print("error:", view.error)
        else:
            n = view.lattice.count
            print(f"{view.word!r} has {n:,} segmentation{'s' * (n != 1)}")
        if view.segmentations is not None:
            for seg in view.segmentations:
                print(format_segmentation(seg))
        elif not view.error:
            print(f"(more than {max_list} segmentations: not listed)")
        if view.lattice is None:  # nothing to draw but the message
            return draw_lattice(view)
        try:  # interactive: hover an arc for its token, path counts and probability at τ = 1
            return plotly_lattice(view)
        except ValueError as err:  # past a readable size: the static sketch
            print(f"(lattice sketched without hover: {err})")
            return draw_lattice(view)

    panel = interactive_panel(
        summary, draw,
        word=widgets.Text(value=word, description="word", continuous_update=False),
        vocabulary=widgets.Dropdown(options=list(opts), value=vocabulary,
                                    description="vocabulary"),
        direction=widgets.ToggleButtons(options=["r2l", "l2r"], value=direction,
                                        description="direction"),
        ell_min=widgets.IntSlider(value=ell_min, min=1, max=8, description="ell_min",
                                  continuous_update=False),
    )
    add_vocabulary_upload(panel, opts)
    return panel
