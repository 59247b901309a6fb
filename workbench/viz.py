"""Pictures and widgets for segmentation lattices: Figure 1 of the GRaMPa paper, made live.

:func:`lattice_summary` is the pure function the notebooks bind their widgets to: it calls
:meth:`workbench.Lattice.build`, :func:`workbench.enumerate_segmentations` and turns the
package's documented errors into a message. :func:`draw_lattice` draws a lattice (or such a
summary) with matplotlib: nodes ``0..n`` on a line, the characters between them, the path
count of Algorithm 1 at each node and one curve per arc, labelled by its token.
:func:`lattice_panel` wires both to ipywidgets.

This module does not sample, weight or count anything itself: every number it shows comes
from :mod:`workbench.lattice` (or from the caller, e.g. ``arc_probabilities``), and the
only arithmetic here is layout and label formatting. It does not train or download
vocabularies either; :func:`vocabulary_options` lists what :mod:`workbench.datasets` ships when
that module is present.

The last section (notebook 02) plots what :mod:`workbench.skew` computes: histograms of
the number of tokens and of token lengths with their exact laws, Figure 3's histograms per
temperature, Figures 4/8's segmentality against τ on the −1/τ axis, and the widget that
binds them (:func:`skew_summary`, :func:`skew_widget`). Samples come from
:func:`workbench.skew.skew_panel` with an explicit seed; nothing is sampled here.

Example
-------
>>> from workbench import Vocabulary
>>> s = lattice_summary("abc", Vocabulary(["a", "b", "c", "ab", "bc"]))
>>> s["count"], s["segmentations"], s["error"]
(3, [('a', 'b', 'c'), ('a', 'bc'), ('ab', 'c')], None)
>>> fraction_label(4 / 7)
'4/7'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure, FigureBase

from . import skew as _skew
from .lattice import Lattice, SegmentationError, enumerate_segmentations
from .vocab import Vocabulary

__all__ = [
    "FIGURE1_TOKENS",
    "PAPER_TAUS",
    "TAU_SLIDER_GRID",
    "count_label",
    "draw_lattice",
    "figure1_vocabulary",
    "fraction_label",
    "interactive_panel",
    "lattice_panel",
    "lattice_summary",
    "m_histograms_per_tau",
    "node_count_labels",
    "panel_controls",
    "plot_m_histograms_per_tau",
    "plot_segmentality_curve",
    "plot_skew_panel",
    "same_result",
    "set_panel_values",
    "skew_summary",
    "skew_widget",
    "tau_label",
    "total_variation",
    "vocabulary_options",
]

#: A vocabulary consistent with the caption of the paper's Figure 1 (``"GRAMPA"``): 16
#: segmentations, and with ``direction="r2l"`` the arcs M, AM, GRAM into node 4 leave nodes
#: with 4, 2 and 1 of node 4's 7 paths. The caption forces the first ten tokens; ``PA`` and
#: ``AMP`` are the first of the two smallest completions found by searching the other
#: substrings of the word (the other is ``PA``, ``AMPA``).
FIGURE1_TOKENS: tuple[str, ...] = (
    "G", "R", "A", "M", "P", "GR", "RA", "AM", "GRA", "GRAM", "PA", "AMP",
)

# colours: plain arcs, arcs given a probability (the caption's green), the taken path (pink)
_ARC_COLOUR = "#868e96"
_PROB_COLOUR = "#2b8a3e"
_PATH_COLOUR = "#d6336c"


def figure1_vocabulary() -> Vocabulary:
    """The small vocabulary of :data:`FIGURE1_TOKENS`, named ``"figure-1"``.

    >>> from workbench import count_segmentations
    >>> count_segmentations("GRAMPA", figure1_vocabulary())
    16
    """
    return Vocabulary(FIGURE1_TOKENS, name="figure-1")


# --------------------------------------------------------------------------- labels
def fraction_label(p: float | Fraction, max_den: int = 64) -> str:
    """A probability as a short label: a fraction if one with denominator <= ``max_den``
    matches it, else two decimals.

    Parameters
    ----------
    p : float or Fraction
    max_den : int, default 64

    Returns
    -------
    str

    Examples
    --------
    >>> fraction_label(4 / 7), fraction_label(Fraction(2, 7)), fraction_label(1.0)
    ('4/7', '2/7', '1')
    >>> fraction_label(0.123456), fraction_label(0)
    ('0.12', '0')
    """
    if isinstance(p, bool) or not isinstance(p, (int, float, Fraction, np.floating, np.integer)):
        raise TypeError(f"p must be a number, not {type(p).__name__}")
    if isinstance(p, (float, np.floating)) and not math.isfinite(p):
        return str(float(p))
    frac = Fraction(p).limit_denominator(max(1, int(max_den)))
    if abs(float(frac) - float(p)) <= 1e-9 * max(1.0, abs(float(p))):
        return str(frac)
    return f"{float(p):.2f}"


def count_label(c: int, max_digits: int = 6) -> str:
    """A path count as written on a node: exact up to ``max_digits`` digits, else
    ``"d.dde+k"`` (computed from the decimal string, so any Python int works).

    >>> count_label(16), count_label(2**199)
    ('16', '8.03e+59')
    """
    digits = str(int(c))
    sign = ""
    if digits.startswith("-"):
        sign, digits = "-", digits[1:]
    if len(digits) <= max_digits:
        return sign + digits
    lead = Fraction(int(digits[:4]), 1000)  # d.ddd, rounded to two decimals below
    mantissa, exponent = round(lead, 2), len(digits) - 1
    if mantissa >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{sign}{float(mantissa):.2f}e+{exponent}"


# --------------------------------------------------------------------------- summary
def lattice_summary(
    word: str,
    vocab: Vocabulary,
    ell_min: int = 1,
    direction: str = "l2r",
    max_list: int = 64,
) -> dict[str, Any]:
    """Everything the lattice panel shows for one word, as plain data.

    Parameters
    ----------
    word : str
        A plain word; it is spelled in the vocabulary's alphabet first
        (``vocab.to_alphabet(word)``, so ``" hello"`` becomes ``"Ġhello"`` for GPT-2).
    vocab : Vocabulary
    ell_min : int, default 1
    direction : {"l2r", "r2l"}, default "l2r"
    max_list : int, default 64
        List the segmentations only when there are at most this many.

    Returns
    -------
    dict
        ``word_in_alphabet`` (str or None), ``count`` (int), ``path_counts`` (list of int,
        :attr:`workbench.Lattice.path_counts`), ``arcs`` (list of (i, j)),
        ``segmentations`` (list of tuples of str, or None when there are more than
        ``max_list`` or none), ``error`` (str or None), and the ``ell_min`` and
        ``direction`` used. On an error the fields computed before it are kept: an
        unsegmentable word still has its arcs and path counts, with ``count`` 0.

    Notes
    -----
    Only :class:`workbench.SegmentationError`, ``ValueError`` and ``TypeError`` (the
    package's documented errors for bad words, vocabularies and parameters) become the
    ``error`` field; anything else propagates.

    Examples
    --------
    >>> lattice_summary("abd", Vocabulary(["a", "b", "ab"]))["error"]
    "no segmentation of 'abd': character 'd' (U+0064) at position 2 occurs in no token"
    """
    out: dict[str, Any] = {
        "word_in_alphabet": None,
        "count": 0,
        "path_counts": [],
        "arcs": [],
        "segmentations": None,
        "error": None,
        "ell_min": ell_min,
        "direction": direction,
    }
    try:
        if not isinstance(vocab, Vocabulary):
            raise TypeError(f"vocab must be a workbench.Vocabulary, not {type(vocab).__name__}")
        if isinstance(max_list, bool) or not isinstance(max_list, (int, np.integer)):
            raise TypeError(f"max_list must be an int, not {type(max_list).__name__}")
        spelled = vocab.to_alphabet(word)
        out["word_in_alphabet"] = spelled
        lattice = Lattice.build(spelled, vocab, ell_min, direction)
        out["arcs"] = [(int(i), int(j)) for i, j in lattice.arcs]
        out["path_counts"] = [int(c) for c in lattice.path_counts]
        out["count"] = int(lattice.count)
        lattice.require_segmentable()
        if out["count"] <= max_list:
            out["segmentations"] = enumerate_segmentations(
                spelled, vocab, limit=max(int(max_list), 0), ell_min=ell_min,
                direction=direction,
            )
    except (SegmentationError, ValueError, TypeError) as err:
        out["error"] = str(err)
    return out


# --------------------------------------------------------------------------- drawing
def _arc_height(length: int) -> float:
    return 0.3 + 0.4 * length**0.75


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _arc_points(i: int, j: int, npts: int) -> np.ndarray:
    """Points of the quadratic Bézier from ``(i, 0)`` over ``((i+j)/2, h)`` to ``(j, 0)``."""
    t = np.linspace(0.0, 1.0, npts)[:, None]
    p0 = np.array([i, 0.0])
    p1 = np.array([(i + j) / 2, 2 * _arc_height(j - i)])  # apex of the curve is at h
    p2 = np.array([j, 0.0])
    return (1 - t) ** 2 * p0 + 2 * (1 - t) * t * p1 + t**2 * p2


def _lattice_fields(lattice: Lattice | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(lattice, Lattice):
        return {
            "word": lattice.word,
            "arcs": list(lattice.arcs),
            "path_counts": list(lattice.path_counts),
            "count": lattice.count,
            "direction": lattice.direction,
            "ell_min": lattice.ell_min,
            "error": None,
        }
    if isinstance(lattice, Mapping):
        return {
            "word": lattice.get("word_in_alphabet"),
            "arcs": list(lattice.get("arcs") or []),
            "path_counts": list(lattice.get("path_counts") or []),
            "count": lattice.get("count", 0),
            "direction": lattice.get("direction", "l2r"),
            "ell_min": lattice.get("ell_min", 1),
            "error": lattice.get("error"),
        }
    raise TypeError(f"expected a Lattice or a lattice_summary dict, not {type(lattice).__name__}")


def draw_lattice(
    lattice: Lattice | Mapping[str, Any],
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
    lattice : Lattice or dict
        A :class:`workbench.Lattice`, or a :func:`lattice_summary` result (a summary with
        an error and no word draws the error message only).
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
    f = _lattice_fields(lattice)
    word, arcs, counts = f["word"], f["arcs"], f["path_counts"]
    probs = dict(arc_probabilities or {})
    path = [tuple(a) for a in (highlight or [])]

    n = len(word) if word is not None else 0
    for i, j in list(probs) + path:
        if not (0 <= i < j <= n):
            raise ValueError(f"arc ({i}, {j}) is not an arc of a word with {n} characters")

    longest = max((j - i for i, j in arcs + path), default=1)
    top = _arc_height(longest)
    if ax is None:
        width = float(np.clip(0.8 * (n + 1.5), 4.0, 18.0))
        height = float(np.clip(width * (top + 1.6) / (n + 1.5), 2.2, 7.0))
        if word is None:
            width, height = 6.0, 1.5
        fig: FigureBase = Figure(figsize=(width, height), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    # inches per character cell, to decide which labels fit
    root = fig if isinstance(fig, Figure) else fig.figure  # a SubFigure's root figure
    axes_inches = ax.get_position().width * root.get_figwidth()
    unit = max(axes_inches, 0.5) / (n + 1.2)
    ax.set_axis_off()
    ax.set_xlim(-0.6, n + 0.6)
    ax.set_ylim(-0.75, top + 0.45)

    if word is None:  # bad input: nothing to draw but the message
        ax.text(0.5, 0.5, f["error"] or "no lattice", transform=ax.transAxes, ha="center",
                va="center", wrap=True, parse_math=False, gid="error")
        return fig

    omitted = []
    npts = 25 if len(arcs) <= 2000 else 7
    plain = [a for a in arcs if a not in probs]
    if len(plain) > max_arcs:  # keep the shortest arcs; the picture is a sketch anyway
        omitted.append(f"{len(plain) - max_arcs} longest arcs")
        plain = sorted(plain, key=lambda a: (a[1] - a[0], a[0]))[:max_arcs]
    if plain:
        ax.add_collection(LineCollection([_arc_points(i, j, npts) for i, j in plain],
                                         colors=_ARC_COLOUR, linewidths=1.0, alpha=0.8,
                                         zorder=1))
    if probs:
        ax.add_collection(LineCollection([_arc_points(i, j, 25) for i, j in probs],
                                         colors=_PROB_COLOUR, linewidths=2.0, zorder=2))
    if path:
        ax.add_collection(LineCollection([_arc_points(i, j, 25) for i, j in path],
                                         colors=_PATH_COLOUR, linewidths=3.0, zorder=3))

    # arc labels at the apex of each curve
    if len(arcs) <= max_arc_labels and n <= max_label_chars and unit >= 0.3:
        for i, j in sorted(set(arcs) | set(probs) | set(path)):
            label = word[i:j]
            colour = "#343a40"
            if (i, j) in probs:
                label += " " + fraction_label(probs[(i, j)])
                colour = _PROB_COLOUR
            if (i, j) in path:
                colour = _PATH_COLOUR
            ax.text((i + j) / 2, _arc_height(j - i), label, ha="center", va="center",
                    fontsize=8, color=colour, family="monospace", parse_math=False,
                    zorder=4, gid=f"arc-{i}-{j}",
                    bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                          "alpha": 0.85})
    elif arcs:
        omitted.append(f"{len(arcs)} arc labels")

    # the characters, between the nodes
    if n <= max_label_chars and unit >= 0.15:
        for i, ch in enumerate(word):
            ax.text(i + 0.5, -0.45, ch, ha="center", va="center", fontsize=11,
                    family="monospace", parse_math=False, gid=f"char-{i}")
    else:
        omitted.append("characters")

    # the nodes, with their path counts
    widest = max((len(count_label(c)) for c in counts), default=1)
    step = max(math.ceil((0.08 * widest + 0.15) / unit),  # labels must not overlap
               math.ceil((n + 1) / max(max_node_labels, 2)))
    labelled = list(range(0, n + 1, step))
    if labelled[-1] != n:
        if len(labelled) > 1 and 2 * (n - labelled[-1]) < step:
            labelled.pop()  # too close to node n, which is always labelled
        labelled.append(n)
    if step > 1:
        omitted.append(f"counts of {n + 1 - len(labelled)} nodes")
        ax.plot(range(n + 1), [0] * (n + 1), "o", ms=2, color="#343a40", zorder=4)
    for k in labelled:
        label = count_label(counts[k]) if k < len(counts) else "?"
        ax.text(k, 0, label, ha="center", va="center", fontsize=9, zorder=5,
                gid=f"count-{k}",
                bbox={"boxstyle": "round,pad=0.25", "fc": "#f1f3f5", "ec": "#343a40"})

    if title:
        towards = "from node 0 to k" if f["direction"] == "r2l" else f"from k to node {n}"
        shown = repr(_shorten(word))
        head = f"{shown}: {count_label(f['count'])} segmentations"
        if f["error"]:
            head = f"{shown}: {_shorten(f['error'], 120)}"
        sub = f"node k: paths {towards} ({f['direction']}, ell_min={f['ell_min']})"
        if omitted:
            sub += "; omitted: " + ", ".join(omitted)
        ax.set_title(head + "\n" + sub, fontsize=9, loc="left", parse_math=False,
                     wrap=True)
    return fig


def node_count_labels(fig_or_ax: FigureBase | Axes) -> dict[int, str]:
    """The path-count labels :func:`draw_lattice` wrote, as ``{node: text}``.

    For checking a drawn figure against the numbers it should show.
    """
    axes = fig_or_ax.axes if isinstance(fig_or_ax, FigureBase) else [fig_or_ax]
    found: dict[int, str] = {}
    for ax in axes:
        for text in ax.texts:
            gid = text.get_gid() or ""
            if gid.startswith("count-"):
                found[int(gid[len("count-"):])] = text.get_text()
    return found


# --------------------------------------------------------------------------- widgets
def vocabulary_options(
    extra: Mapping[str, Vocabulary] | None = None,
) -> dict[str, Callable[[], Vocabulary]]:
    """Vocabularies for a dropdown, as ``{name: loader}`` (loaders cache what they load).

    The shipped vocabularies come first (``workbench.data.available_vocabularies()``,
    loaded lazily with ``workbench.data.load_vocabulary(name)``), then ``"infinite"``,
    ``"figure-1"`` and ``extra``. If :mod:`workbench.datasets` is missing or its files are not
    there, only the built-in entries are listed.
    """
    options: dict[str, Callable[[], Vocabulary]] = {}
    try:
        from . import datasets as data

        for name in data.available_vocabularies():
            options[str(name)] = lru_cache(maxsize=1)(
                lambda name=name: data.load_vocabulary(name)
            )
    except (ImportError, FileNotFoundError):
        pass
    options["infinite"] = Vocabulary.infinite
    options["figure-1"] = lru_cache(maxsize=1)(figure1_vocabulary)
    for name, vocab in (extra or {}).items():
        options[name] = lambda vocab=vocab: vocab
    return options


def interactive_panel(func: Callable[..., Any], **widgets: Any) -> Any:
    """``ipywidgets.interactive(func, **widgets)``: ``panel.result`` holds the last return
    value, so a notebook can set widget values in code and compare with a direct call."""
    import ipywidgets  # only needed in notebooks

    return ipywidgets.interactive(func, **widgets)


def panel_controls(panel: Any) -> dict[str, Any]:
    """The control widgets of an ``ipywidgets.interactive`` panel, by argument name."""
    return {getattr(w, "_kwarg", w.description): w for w in panel.kwargs_widgets}


def lattice_panel(
    options: Mapping[str, Callable[[], Vocabulary]] | None = None,
    word: str = "GRAMPA",
    vocabulary: str = "figure-1",
    direction: str = "r2l",
    ell_min: int = 1,
    max_list: int = 64,
) -> Any:
    """The interactive lattice: a word box, a vocabulary dropdown, direction and ``ell_min``.

    It shows :func:`draw_lattice` of :func:`lattice_summary`, the number of segmentations
    and (up to ``max_list``) the segmentations. ``panel.result`` is the summary shown and
    ``panel.last_figure`` the figure, so that
    ``panel.result == lattice_summary(word, vocab, ell_min, direction, max_list)``.

    Parameters
    ----------
    options : dict {name: loader}, optional
        Default :func:`vocabulary_options`.
    word, vocabulary, direction, ell_min
        Initial values.
    max_list : int, default 64

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    from IPython.display import display

    opts = dict(options) if options is not None else vocabulary_options()
    if vocabulary not in opts:
        vocabulary = next(iter(opts))
    state: dict[str, Any] = {"figure": None}
    holder: list[Any] = []

    def show(word: str, vocabulary: str, direction: str, ell_min: int) -> dict[str, Any]:
        try:
            vocab = opts[vocabulary]()
        except (OSError, ValueError) as err:  # a shipped file that is missing or broken
            summary = lattice_summary(word, None, ell_min, direction, max_list)  # type: ignore[arg-type]
            summary["error"] = f"cannot load vocabulary {vocabulary!r}: {err}"
        else:
            summary = lattice_summary(word, vocab, ell_min, direction, max_list)
        fig = draw_lattice(summary)
        state["figure"] = fig
        if holder:
            holder[0].last_figure = fig
        if summary["error"]:
            print("error:", summary["error"])
        else:
            print(f"{summary['word_in_alphabet']!r} has {summary['count']:,} segmentations")
        display(fig)
        if summary["segmentations"] is not None:
            for seg in summary["segmentations"]:
                print(" | ".join(seg))
        elif not summary["error"]:
            print(f"(more than {max_list} segmentations: not listed)")
        return summary

    controls = {
        "word": widgets.Text(value=word, description="word", continuous_update=False),
        "vocabulary": widgets.Dropdown(options=list(opts), value=vocabulary,
                                 description="vocabulary"),
        "direction": widgets.ToggleButtons(options=["r2l", "l2r"], value=direction,
                                     description="direction"),
        "ell_min": widgets.IntSlider(value=ell_min, min=1, max=8, description="ell_min",
                               continuous_update=False),
    }
    panel = widgets.interactive(show, **controls)  # calls show() once, before `holder` is filled
    holder.append(panel)
    panel.last_figure = state["figure"]
    return panel


# =========================================================================== skew (notebook 02)
# Plots and a widget for GRaMPa's temperature τ, soft minimum ℓ_min, direction and
# multiplexing rate p (§4.3–4.6). Every number drawn here comes from workbench.skew; this
# section only lays it out (and computes total-variation distances for titles and checks).

#: The temperatures of the paper's experiments and Figure 3: uniform, moderate, heavy skew.
PAPER_TAUS: tuple[float, ...] = (1.0, 5.0, -10.0)

#: τ values for a slider, in increasing skew towards longer tokens (footnote 10's order:
#: 0⁺ … 1 … +∞ ≡ −∞ … 0⁻), i.e. sorted by −1/τ, which runs from −4 to 4.
TAU_SLIDER_GRID: tuple[float, ...] = (
    0.25, 0.3, 0.4, 0.5, 0.6, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0,
    math.inf,
    -50.0, -20.0, -10.0, -5.0, -3.0, -2.0, -1.5, -1.25, -1.0, -0.75, -0.6, -0.5, -0.4, -0.3,
    -0.25,
)

_ASINH_WIDTH = 0.1  # linear width of the asinh axis for −1/τ (spreads τ = 5 … ∞ … −5)
_COORD_MIN, _COORD_MAX = -4.0, 4.0  # colour scale ends: τ = 0.25 and τ = −0.25


def tau_label(tau: float) -> str:
    """τ as a short label: ``"±∞"`` for either infinity, ``"−10"`` with a true minus sign.

    >>> [tau_label(t) for t in (0.25, 1.0, 5.0, float("inf"), float("-inf"), -10.0)]
    ['0.25', '1', '5', '±∞', '±∞', '−10']
    """
    tau = float(tau)
    if math.isinf(tau):
        return "±∞"
    return f"{tau:g}".replace("-", "−")


def _skew_position(tau: float) -> float:
    """asinh-spread −1/τ: the x position of τ on the skew axis."""
    return math.asinh(_skew.skew_coordinate(tau) / _ASINH_WIDTH)


def _skew_colour(tau: float) -> Any:
    """Black at τ = 1 (uniform); blues towards shorter tokens, reds towards longer ones."""
    from matplotlib import colormaps

    t = _skew_position(tau)
    centre = _skew_position(1.0)
    if abs(t - centre) < 1e-12:
        return "black"
    lo = math.asinh(_COORD_MIN / _ASINH_WIDTH)
    hi = math.asinh(_COORD_MAX / _ASINH_WIDTH)
    cmap = colormaps["coolwarm"]
    if t < centre:
        f = min(1.0, (centre - t) / (centre - lo))
        return cmap(0.35 - 0.3 * f)
    f = min(1.0, (t - centre) / (hi - centre))
    return cmap(0.65 + 0.3 * f)


def _rank_colours(taus: Sequence[float]) -> list[Any]:
    """Distinct colours for a few τ in skew order: black at τ = 1, blues below, reds above."""
    from matplotlib import colormaps

    centre = _skew.skew_coordinate(1.0)
    x = [_skew.skew_coordinate(t) for t in taus]
    below = sorted({c for c in x if c < centre})
    above = sorted({c for c in x if c > centre})
    out: list[Any] = []
    for c in x:
        if c == centre:
            out.append("black")
        elif c < centre:  # darkest blue for the least skew towards longer tokens
            k = below.index(c)
            out.append(colormaps["Blues"](0.95 - 0.45 * k / max(len(below) - 1, 1)))
        else:
            k = above.index(c)
            out.append(colormaps["Reds"](0.5 + 0.45 * k / max(len(above) - 1, 1)))
    return out


def total_variation(counts: Sequence[float] | np.ndarray, pmf: Sequence[float] | np.ndarray
                    ) -> float:
    """Total-variation distance between the empirical law of ``counts`` and ``pmf``.

    ``0.5 * sum |counts / counts.sum() - pmf|``, the shorter array padded with zeros.

    >>> total_variation([3, 1], [0.5, 0.5])
    0.25
    """
    c = np.asarray(counts, dtype=float)
    q = np.asarray(pmf, dtype=float)
    size = max(c.size, q.size)
    c = np.pad(c, (0, size - c.size))
    q = np.pad(q, (0, size - q.size))
    total = c.sum()
    if total <= 0:
        raise ValueError("counts must have a positive sum")
    return float(0.5 * np.abs(c / total - q).sum())


def _new_figure(ncols: int, width: float, height: float) -> tuple[Figure, list[Axes]]:
    # no layout engine: constrained layout costs a third of the drawing time, and notebooks
    # save with bbox_inches="tight" anyway; the gap between axes is set by hand
    fig = Figure(figsize=(width, height))
    fig.subplots_adjust(left=0.08, right=0.97, bottom=0.16, top=0.85, wspace=0.28)
    axes = [fig.add_subplot(1, ncols, k + 1) for k in range(ncols)]
    return fig, axes


def plot_skew_panel(
    panel: Mapping[str, Any],
    axes: Sequence[Axes] | None = None,
    title: str | None = None,
) -> FigureBase:
    """Histograms of m and of token length from a :func:`workbench.skew.skew_panel` result,
    each with its exact law overlaid.

    Parameters
    ----------
    panel : dict
        ``skew_panel(...)``: ``m_counts``, ``m_pmf``, ``length_counts``, ``length_pmf``,
        ``n_samples``.
    axes : pair of matplotlib Axes, optional
        Draw the m histogram into the first and the token lengths into the second; by
        default a new :class:`matplotlib.figure.Figure` with two axes.
    title : str, optional
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure
        Bars (patches) have gids ``"m-samples"`` / ``"length-samples"`` (one bar per value
        1..n, the sampled frequencies); the exact laws are lines with gids ``"m-pmf"`` /
        ``"length-pmf"`` whose y-data are ``panel["m_pmf"][1:]`` / ``panel["length_pmf"][1:]``
        (values 1..n; entry 0 is always 0).
    """
    if axes is None:
        fig, axes = _new_figure(2, 10.0, 3.4)
    else:
        axes = list(axes)
        if len(axes) != 2:
            raise ValueError("axes must be a pair of Axes (m, token length)")
        fig = axes[0].figure
    parts = (("m", "number of tokens m", panel["m_counts"], panel["m_pmf"]),
             ("length", "token length ℓ (all tokens pooled)", panel["length_counts"],
              panel["length_pmf"]))
    for ax, (key, xlabel, counts, pmf) in zip(axes, parts):
        counts = np.asarray(counts, dtype=float)
        pmf = np.asarray(pmf, dtype=float)
        total = counts.sum()
        freq = counts / total if total > 0 else np.zeros_like(counts)
        # values 1..n only: no segmentation has 0 tokens and no token has length 0
        ax.bar(np.arange(1, freq.size), freq[1:], width=0.8, color="#a5d8ff",
               edgecolor="#1c7ed6", linewidth=0.5, label="samples", gid=f"{key}-samples")
        ax.plot(np.arange(1, pmf.size), pmf[1:], "o-", color="#c92a2a", ms=4, lw=1.5,
                label="exact", gid=f"{key}-pmf")
        tv = total_variation(counts, pmf) if total > 0 else float("nan")
        what = "tokens" if key == "length" else "samples"
        ax.set_title(f"{int(total):,} {what}; TV(samples, exact) = {tv:.4f}", fontsize=9)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("probability")
        seen = np.flatnonzero(pmf > 0).tolist() + np.flatnonzero(freq > 0).tolist()
        lo, hi = (min(seen), max(seen)) if seen else (1, max(pmf.size - 1, 1))
        ax.set_xlim(lo - 0.6, hi + 0.6)
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.legend(fontsize=8, frameon=False)
    if title:
        fig.suptitle(title, fontsize=10)
    return fig


def m_histograms_per_tau(
    word: str,
    vocab: Vocabulary,
    taus: Sequence[float] = PAPER_TAUS,
    ell_min: int = 1,
    direction: str = "l2r",
    n_samples: int = 20_000,
    seed: int = 0,
) -> dict[float, dict[str, Any]]:
    """Figure 3's data for one word: ``{τ: skew_panel(word, vocab, τ, ..., p=1)}``.

    ``word`` is taken as given (already in the vocabulary's alphabet). ``n_samples=0``
    gives the exact laws only.
    """
    return {float(t): _skew.skew_panel(word, vocab, t, ell_min, direction, 1.0, n_samples,
                                       seed)
            for t in taus}


def plot_m_histograms_per_tau(
    per_tau: Mapping[float, Mapping[str, Any]],
    ax: Axes | None = None,
    samples: bool = True,
    title: str | None = None,
) -> FigureBase:
    """Figure 3: the law of the number of tokens m for several temperatures, on one axes.

    Parameters
    ----------
    per_tau : dict {τ: skew_panel result}
        E.g. :func:`m_histograms_per_tau`; drawn in skew order (footnote 10).
    ax : matplotlib Axes, optional
    samples : bool, default True
        Also draw the sampled frequencies as grouped bars (when there are samples).
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        One line per τ (gid ``"pmf-<τ label>"``, y-data ``m_pmf[1:]`` over m = 1..n):
        black for τ = 1, blues for less skew towards longer tokens, reds for more (as in
        Figure 8); and, when ``samples``, one group of bars per τ (patches with gid
        ``"samples-<τ label>"``, one per m = 1..n).
    """
    if ax is None:
        fig, (ax,) = _new_figure(1, 7.0, 3.6)
    else:
        fig = ax.figure
    taus = sorted(per_tau, key=_skew.skew_coordinate)
    colours = _rank_colours(taus)
    width = 0.8 / max(len(taus), 1)
    hi = 1
    for k, tau in enumerate(taus):
        panel = per_tau[tau]
        pmf = np.asarray(panel["m_pmf"], dtype=float)
        counts = np.asarray(panel["m_counts"], dtype=float)
        colour = colours[k]
        label = f"τ = {tau_label(tau)}"
        nonzero = np.flatnonzero(pmf > 0)
        if nonzero.size:
            hi = max(hi, int(nonzero.max()))
        if samples and counts.sum() > 0:
            offset = (k - (len(taus) - 1) / 2) * width
            ax.bar(np.arange(1, counts.size) + offset, counts[1:] / counts.sum(), width=width,
                   color=colour, alpha=0.35, linewidth=0, gid=f"samples-{tau_label(tau)}")
        ax.plot(np.arange(1, pmf.size), pmf[1:], "o-", color=colour, ms=3, lw=1.3,
                label=label, gid=f"pmf-{tau_label(tau)}")
    ax.set_xlim(0.4, hi + 0.6)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("number of tokens m")
    ax.set_ylabel("probability")
    ax.legend(fontsize=8, frameon=False, title="exact (lines), samples (bars)",
              title_fontsize=8)
    if title:
        ax.set_title(title, fontsize=9, loc="left")
    return fig


def plot_segmentality_curve(
    curve: Mapping[str, Any],
    ax: Axes | None = None,
    label: str | None = None,
    current_tau: float | None = None,
    title: str | None = None,
    colour: Any = None,
) -> FigureBase:
    """Figures 4 and 8: mean ± sd of segmentality S against τ, placed on the −1/τ axis.

    The x axis is −1/τ = −α (α the exponent of the power normalisation, Eq. 4), along
    which the skew towards longer tokens grows (footnote 10), drawn with an asinh scale so
    that τ = 5 … ±∞ … −5 do not pile up at 0. Tick labels are the τ values (``"±∞"`` at
    0); a secondary axis on top shows −1/τ; a colour strip at the bottom follows Figure 8
    (black at τ = 1, redder towards longer tokens). Call again with the same ``ax`` to
    overlay curves.

    Parameters
    ----------
    curve : dict
        :func:`workbench.skew.segmentality_curve` (``tau``, ``coordinate``, ``mean``,
        ``sd``) or any dict with those arrays.
    ax : matplotlib Axes, optional
    label : str, optional
        Legend entry.
    current_tau : float, optional
        Mark this τ with a vertical line (the slider's value).
    title : str, optional
    colour : matplotlib colour, optional
        Of the line and band (default: the next colour of the axes' cycle).

    Returns
    -------
    matplotlib.figure.Figure
        The mean is a line with gid ``"mean"`` (``"mean-<label>"`` if labelled) whose
        x-data are ``curve["coordinate"]`` and y-data ``curve["mean"]``.
    """
    from matplotlib.collections import PolyCollection
    from matplotlib.ticker import FormatStrFormatter, NullLocator

    fresh = ax is None or not getattr(ax, "_skew_axis", False)
    if ax is None:
        fig, (ax,) = _new_figure(1, 8.0, 3.8)
    else:
        fig = ax.figure
    tau = np.asarray(curve["tau"], dtype=float)
    x = np.asarray(curve["coordinate"], dtype=float)
    mean = np.asarray(curve["mean"], dtype=float)
    sd = np.asarray(curve["sd"], dtype=float)
    order = np.argsort(x, kind="stable")
    tau, x, mean, sd = tau[order], x[order], mean[order], sd[order]
    if fresh:
        ax.set_xscale("asinh", linear_width=_ASINH_WIDTH)
        ax._skew_axis = True  # type: ignore[attr-defined]
    gid = "mean" if label is None else f"mean-{label}"
    (line,) = ax.plot(x, mean, "-", lw=1.5, color=colour, label=label, gid=gid, zorder=3)
    c = line.get_color()
    ax.fill_between(x, mean - sd, mean + sd, color=c, alpha=0.15, lw=0, zorder=1)
    ax.scatter(x, mean, s=22, c=[_skew_colour(t) for t in tau], edgecolors=c,
               linewidths=0.6, zorder=4)
    # ticks: the τ values of every curve drawn so far, one per position
    ticks = dict(getattr(ax, "_skew_ticks", {}))
    for t, xi in zip(tau, x):
        ticks.setdefault(round(float(xi), 12), tau_label(t))
    ax._skew_ticks = ticks  # type: ignore[attr-defined]
    positions = sorted(ticks)
    ax.set_xticks(positions, [ticks[p] for p in positions], fontsize=8)
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlim(min(positions) - 0.02 * (1 + abs(min(positions))),
                max(positions) + 0.02 * (1 + abs(max(positions))))
    if getattr(ax, "_skew_top", None) is not None:
        ax._skew_top.set_xlim(ax.get_xlim())
    if fresh:
        ax.set_ylim(-0.05, 1.05)
        ax.set_xlabel("τ, placed at −1/τ = −α (skew towards longer tokens grows →)")
        ax.set_ylabel("segmentality S = (m−1)/(n−1)")
        ax.axvline(-1.0, color="#868e96", lw=0.8, ls=":", zorder=0)
        ax.text(-1.0, 1.0, " uniform", fontsize=7, color="#868e96", va="top",
                transform=ax.get_xaxis_transform())
        top = ax.twiny()  # the −1/τ values themselves, on the same asinh scale
        top.set_xscale("asinh", linear_width=_ASINH_WIDTH)
        top.set_xticks([-4, -2, -1, -0.5, -0.2, 0, 0.2, 0.5, 1, 2, 4])
        top.xaxis.set_major_formatter(FormatStrFormatter("%g"))
        top.xaxis.set_minor_locator(NullLocator())
        top.tick_params(labelsize=7)
        top.set_xlabel("−1/τ", fontsize=8)
        top.set_xlim(ax.get_xlim())
        ax._skew_top = top  # type: ignore[attr-defined]
        # Figure 8's colour strip along the bottom (x in data, y in axes coordinates)
        grid = np.sinh(np.linspace(math.asinh(_COORD_MIN / _ASINH_WIDTH),
                                   math.asinh(_COORD_MAX / _ASINH_WIDTH), 161)) * _ASINH_WIDTH
        cells = [[(a, 0.0), (b, 0.0), (b, 0.025), (a, 0.025)]
                 for a, b in zip(grid[:-1], grid[1:])]
        mids = 0.5 * (grid[:-1] + grid[1:])
        strip = PolyCollection(cells, transform=ax.get_xaxis_transform(), linewidths=0,
                               facecolors=[_skew_colour(math.inf if m == 0 else -1.0 / m)
                                           for m in mids], zorder=0, gid="skew-strip")
        ax.add_collection(strip, autolim=False)
    if current_tau is not None:
        ax.axvline(_skew.skew_coordinate(current_tau), color="#d6336c", lw=1.2, zorder=2,
                   gid="current-tau")
    if label is not None:
        ax.legend(fontsize=8, frameon=False)
    if title:
        ax.set_title(title, fontsize=9, loc="left")
    return fig


def same_result(a: Any, b: Any) -> bool:
    """Deep equality for results holding numpy arrays (``==`` on such dicts is ambiguous).

    >>> same_result({"x": np.arange(3), "y": [None, 1.5]}, {"x": np.arange(3), "y": [None, 1.5]})
    True
    """
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
                and a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=a.dtype.kind
                                                                 == "f")))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same_result(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(same_result(x, y) for x, y in zip(a, b)))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


def skew_summary(
    word: str,
    vocab: Vocabulary,
    tau: float = 1.0,
    ell_min: int = 1,
    direction: str = "l2r",
    p: float = 1.0,
    n_samples: int = 20_000,
    seed: int = 0,
    figure_taus: Sequence[float] = PAPER_TAUS,
    curve_taus: Sequence[float] = _skew.TAU_GRID,
) -> dict[str, Any]:
    """Everything the skew widget shows for one word, as plain data (a pure function).

    Parameters
    ----------
    word : str
        A plain word, spelled in the vocabulary's alphabet first (``vocab.to_alphabet``).
    vocab : Vocabulary
    tau, ell_min, direction, p, n_samples, seed
        As in :func:`workbench.skew.skew_panel`.
    figure_taus : sequence of float
        Temperatures of Figure 3 (default the paper's 1, 5, −10).
    curve_taus : sequence of float
        Temperatures of the segmentality curve (default :data:`workbench.skew.TAU_GRID`).

    Returns
    -------
    dict
        ``word_in_alphabet``; ``panel`` = ``skew_panel(spelled, vocab, tau, ell_min,
        direction, p, n_samples, seed)``; ``lattice`` = :func:`lattice_summary`;
        ``arc_probabilities`` = ``arc_probabilities(spelled, vocab, tau, ell_min,
        direction)``; ``per_tau`` = :func:`m_histograms_per_tau` (GRaMPa alone, p = 1);
        ``curve`` = ``segmentality_curve(spelled, vocab, curve_taus, ell_min, direction)``
        (None for words of one character); ``error`` (str or None) and the parameters.
        After an error the fields computed before it are kept, the others are None.
    """
    out: dict[str, Any] = {
        "word_in_alphabet": None, "tau": tau, "ell_min": ell_min, "direction": direction,
        "p": p, "n_samples": n_samples, "seed": seed, "panel": None, "lattice": None,
        "arc_probabilities": None, "per_tau": None, "curve": None, "error": None,
    }
    try:
        if not isinstance(vocab, Vocabulary):
            raise TypeError(f"vocab must be a workbench.Vocabulary, not {type(vocab).__name__}")
        spelled = vocab.to_alphabet(word)
        out["word_in_alphabet"] = spelled
        out["panel"] = _skew.skew_panel(spelled, vocab, tau, ell_min, direction, p, n_samples,
                                        seed)
        out["lattice"] = lattice_summary(word, vocab, ell_min, direction, max_list=0)
        out["arc_probabilities"] = _skew.arc_probabilities(spelled, vocab, tau, ell_min,
                                                           direction)
        out["per_tau"] = m_histograms_per_tau(spelled, vocab, figure_taus, ell_min, direction,
                                              n_samples, seed)
        if len(spelled) >= 2:
            out["curve"] = _skew.segmentality_curve(spelled, vocab, curve_taus, ell_min,
                                                    direction)
    except (SegmentationError, ValueError, TypeError) as err:
        out["error"] = str(err)
    return out


def _tau_options(grid: Sequence[float]) -> list[tuple[str, float]]:
    return [(tau_label(t), float(t)) for t in sorted(grid, key=_skew.skew_coordinate)]


def skew_widget(
    options: Mapping[str, Callable[[], Vocabulary]] | None = None,
    word: str = " tokenisation",
    vocabulary: str = "ulm-8k",
    tau: float = 1.0,
    ell_min: int = 1,
    direction: str = "l2r",
    p: float = 1.0,
    n_samples: int = 20_000,
    seed: int = 0,
    figure_taus: Sequence[float] = PAPER_TAUS,
    tau_grid: Sequence[float] = TAU_SLIDER_GRID,
    max_lattice_arcs: int = 300,
) -> Any:
    """The interactive skew panel: word, vocabulary, τ, ℓ_min, direction and p.

    τ is a selection slider over ``tau_grid`` in footnote 10's order (by −1/τ), so
    negative temperatures sit to the right of +∞. Each change shows the sampled m and
    token-length histograms with their exact laws (:func:`plot_skew_panel`), a few sampled
    segmentations (and the deterministic one when p < 1), the lattice with the current
    τ's arc probabilities (:func:`draw_lattice`, for at most ``max_lattice_arcs`` arcs),
    Figure 3 (:func:`plot_m_histograms_per_tau`) and Figures 4/8
    (:func:`plot_segmentality_curve`) for the word.

    ``panel.result`` is the :func:`skew_summary` shown, so after setting the controls,
    ``same_result(panel.result, skew_summary(word, vocab, tau, ell_min, direction, p,
    n_samples, seed, figure_taus))``; ``panel.last_figures`` holds the figures by name
    (``"histograms"``, ``"lattice"``, ``"per_tau"``, ``"curve"``).

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    from IPython.display import display

    opts = dict(options) if options is not None else vocabulary_options()
    if vocabulary not in opts:
        vocabulary = "infinite" if "infinite" in opts else next(iter(opts))
    tau_opts = _tau_options(tau_grid)
    if float(tau) not in [v for _, v in tau_opts]:
        raise ValueError(f"tau={tau} is not on the slider's grid")
    state: dict[str, Any] = {"figures": {}}
    holder: list[Any] = []

    def show(word: str, vocabulary: str, tau: float, ell_min: int, direction: str,
             p: float) -> dict[str, Any]:
        figures: dict[str, FigureBase] = {}
        try:
            vocab = opts[vocabulary]()
        except (OSError, ValueError) as err:
            summary = skew_summary(word, None, tau, ell_min, direction, p,  # type: ignore[arg-type]
                                   n_samples, seed, figure_taus)
            summary["error"] = f"cannot load vocabulary {vocabulary!r}: {err}"
        else:
            summary = skew_summary(word, vocab, tau, ell_min, direction, p, n_samples, seed,
                                   figure_taus)
        coord = _skew.skew_coordinate(tau)
        print(f"τ = {tau_label(tau)}  (−1/τ = {coord:+.3g}),  ℓ_min = {ell_min},  "
              f"{direction},  p = {p:g};  word {summary['word_in_alphabet']!r}")
        if summary["panel"] is not None:
            panel = summary["panel"]
            if panel["deterministic"] is not None:
                print("deterministic:", " | ".join(panel["deterministic"]))
            print("GRaMPa samples:")
            for seg in panel["examples"]:
                print("   ", " | ".join(seg))
            mean_m = float(np.dot(np.arange(panel["m_pmf"].size), panel["m_pmf"]))
            figures["histograms"] = plot_skew_panel(
                panel, title=f"{summary['word_in_alphabet']!r}, τ = {tau_label(tau)}, "
                             f"ℓ_min = {ell_min}, {direction}, p = {p:g}: E[m] = {mean_m:.3f}")
        if summary["error"]:
            print("error:", summary["error"])
        if summary["lattice"] is not None:
            lat = summary["lattice"]
            probs = summary["arc_probabilities"]
            if probs is not None and len(lat["arcs"]) <= max_lattice_arcs:
                figures["lattice"] = draw_lattice(lat, arc_probabilities=probs)
            else:
                figures["lattice"] = draw_lattice(lat)
                print(f"(lattice drawn without probabilities: {len(lat['arcs'])} arcs)")
        if summary["per_tau"] is not None:
            figures["per_tau"] = plot_m_histograms_per_tau(
                summary["per_tau"], title="Figure 3 for this word (GRaMPa alone, p = 1)")
        if summary["curve"] is not None:
            figures["curve"] = plot_segmentality_curve(
                summary["curve"], current_tau=tau,
                title="Figures 4 and 8 for this word: exact mean ± sd of S (p = 1)")
        for fig in figures.values():
            display(fig)
        state["figures"] = figures
        if holder:
            holder[0].last_figures = figures
        return summary

    controls = {
        "word": widgets.Text(value=word, description="word", continuous_update=False),
        "vocabulary": widgets.Dropdown(options=list(opts), value=vocabulary,
                                       description="vocabulary"),
        "tau": widgets.SelectionSlider(options=tau_opts, value=float(tau), description="τ",
                                       continuous_update=False),
        "ell_min": widgets.IntSlider(value=ell_min, min=1, max=8, description="ℓ_min",
                                     continuous_update=False),
        "direction": widgets.ToggleButtons(options=["l2r", "r2l"], value=direction,
                                           description="direction"),
        "p": widgets.FloatSlider(value=p, min=0.0, max=1.0, step=0.05, description="p",
                                 continuous_update=False),
    }
    panel = widgets.interactive(show, **controls)
    holder.append(panel)
    panel.last_figures = state["figures"]
    return panel


def set_panel_values(panel: Any, **values: Any) -> Any:
    """Set several controls of an ``ipywidgets.interactive`` panel, then run it once.

    Setting ``control.value`` one at a time re-runs the panel after each change (as a click
    would); this sets them all with the panel's observer detached and calls
    ``panel.update()`` once. Returns ``panel.result``.
    """
    controls = panel_controls(panel)
    unknown = set(values) - set(controls)
    if unknown:
        raise KeyError(f"no controls named {sorted(unknown)}; the panel has {sorted(controls)}")
    for name in values:
        controls[name].unobserve(panel.update, names="value")
    try:
        for name, value in values.items():
            controls[name].value = value
    finally:
        for name in values:
            controls[name].observe(panel.update, names="value")
    panel.update()
    return panel.result
