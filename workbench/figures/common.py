"""What the notebooks' figures share: colours, the one τ label, reading figures back, the demo word.

* colours: :data:`SAMPLE` (sampled histograms), :data:`LAW` (closed forms), :data:`ACCENT`
  (approximations, limits), :data:`GREEN` (probabilities, GRaMPa), :data:`GREY` (plain
  arcs, guides), :data:`PINK` (a taken path, the current value);
* :func:`tau_label` — the one way a temperature is written in every notebook;
  :func:`fraction_label` and :func:`count_label` — a probability and a path count as the
  lattice drawings (matplotlib and plotly) write them;
* :func:`arc_height`, :func:`arc_points` — the curve of a lattice arc, as both lattice
  drawings (matplotlib and plotly) lay it out;
* :func:`plotly_figure` — a plotly figure from a plain ``{"data", "layout"}`` dict, built
  without plotly's per-property validation on a slider step (:data:`PLOTLY_VALIDATE`; the
  tests build every figure validated too);
* :func:`figure_data` — the numbers a figure shows, by artist ``gid``, for checking a
  figure against the data it was drawn from;
* :func:`readability_problems`, :data:`GUIDE`, :data:`ZOOMED` — the figure linter, re-exported
  from :mod:`.lint` (what makes a figure hard to read and the two marks it honours).

This module samples nothing, checks no argument (beyond the figure's type) and draws nothing
itself; it does not judge a figure's readability (that is :mod:`.lint`).

Example
-------
>>> [tau_label(t) for t in (0.5, float("inf"), -10.0)], tau_label(2.0, prefix=True)
(['0.5', '±∞', '−10'], 'τ = 2')
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.figure import FigureBase
from matplotlib.patches import StepPatch

from .._core.errors import ArgumentTypeError
from .lint import GUIDE, ZOOMED, readability_problems

__all__ = [
    "ACCENT",
    "GREEN",
    "GREY",
    "GUIDE",
    "LAW",
    "PINK",
    "SAMPLE",
    "ZOOMED",
    "arc_height",
    "arc_points",
    "count_label",
    "PLOTLY_VALIDATE",
    "figure_data",
    "plotly_figure",
    "fraction_label",
    "readability_problems",
    "tau_label",
]

SAMPLE = "#4c6ef5"
LAW = "#212529"
ACCENT = "#e8590c"
GREEN = "#2b8a3e"
GREY = "#868e96"
PINK = "#d6336c"


def tau_label(tau: float, *, prefix: bool = False) -> str:
    """τ as a short label: ``"±∞"`` for either infinity, ``"−10"`` with a true minus sign.

    Both infinities are written ``"±∞"``: they give ``α = 1/τ = 0``, the same sampler
    (every arc into a node equally likely), and the same point ``−1/τ = 0`` of the skew axis.

    Parameters
    ----------
    tau : float
    prefix : bool, default False
        Write ``"τ = …"``.

    Examples
    --------
    >>> [tau_label(t) for t in (0.25, 1.0, 5.0, float("inf"), float("-inf"), -10.0)]
    ['0.25', '1', '5', '±∞', '±∞', '−10']
    >>> tau_label(-0.5, prefix=True)
    'τ = −0.5'
    """
    tau = float(tau)
    label = "±∞" if math.isinf(tau) else f"{tau:g}".replace("-", "−")
    return f"τ = {label}" if prefix else label


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
        raise ArgumentTypeError(f"p must be a number, not {type(p).__name__}")
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


def arc_height(length: int) -> float:
    """Height of the apex of a lattice arc spanning ``length`` characters."""
    return 0.3 + 0.4 * length**0.75


def arc_points(i: int, j: int, npts: int) -> np.ndarray:
    """``npts`` points (rows x, y) of the quadratic Bézier from ``(i, 0)`` over an apex at
    :func:`arc_height` to ``(j, 0)``: the curve of the lattice arc ``i → j``.

    >>> arc_points(0, 2, 3).round(3).tolist()
    [[0.0, 0.0], [1.0, 0.973], [2.0, 0.0]]
    """
    t = np.linspace(0.0, 1.0, npts)[:, None]
    p0 = np.array([i, 0.0])
    p1 = np.array([(i + j) / 2, 2 * arc_height(j - i)])  # the curve's apex is at the height
    p2 = np.array([j, 0.0])
    return (1 - t) ** 2 * p0 + 2 * (1 - t) * t * p1 + t**2 * p2


PLOTLY_VALIDATE = False
"""Whether :func:`plotly_figure` validates every property (about 6× slower: most of a slider
step). The figure modules' tests set it and compare the figures (``tests/figures``)."""


def plotly_figure(spec: dict) -> Any:
    """``plotly.graph_objects.Figure(spec)``, validated only when :data:`PLOTLY_VALIDATE`.

    >>> plotly_figure({"data": [{"type": "bar", "x": [1], "y": [2]}], "layout": {}}).data[0].x
    (1,)
    """
    import plotly.graph_objects as go

    return go.Figure(spec, _validate=PLOTLY_VALIDATE)


def figure_data(fig: FigureBase) -> dict[str, np.ndarray]:
    """The plotted values of every artist with a ``gid``, by gid.

    Bars (rectangles): their heights, in drawing order; step outlines (``ax.stairs``):
    their values; lines: their y data, except full-height vertical lines (``ax.axvline``),
    which give their x position; vertical-line collections (``ax.vlines``): the top of
    each segment; other collections (scatter): the y offsets. A plotly figure gives the y
    data of every named trace (its name plays the gid), except traces whose ``meta`` is
    ``"vline"``, which give their x position.
    """
    if not isinstance(fig, FigureBase):  # a plotly figure
        return {t.name: (np.asarray(t.x[:1], dtype=float) if t.meta == "vline"
                         else np.asarray(t.y, dtype=float))
                for t in getattr(fig, "data", ()) if t.name}
    found: dict[str, list[float]] = {}
    for ax in fig.axes:
        for patch in ax.patches:
            gid = patch.get_gid()
            if not gid:
                continue
            if isinstance(patch, StepPatch):
                found.setdefault(gid, []).extend(np.asarray(patch.get_data().values, float))
            else:
                found.setdefault(gid, []).append(patch.get_height())
        for line in ax.lines:
            gid = line.get_gid()
            if not gid:
                continue
            x = np.asarray(line.get_xdata(), float)
            y = np.asarray(line.get_ydata(), float)
            if x.size == 2 and x[0] == x[1] and list(y) == [0.0, 1.0]:  # axvline
                found.setdefault(gid, []).append(float(x[0]))
            else:
                found.setdefault(gid, []).extend(y)
        for coll in ax.collections:
            gid = coll.get_gid()
            if not gid:
                continue
            if isinstance(coll, LineCollection):
                values = [max(seg[:, 1]) for seg in coll.get_segments()]
            else:
                values = list(np.asarray(coll.get_offsets(), float)[:, 1])
            found.setdefault(gid, []).extend(values)
    return {gid: np.asarray(v, dtype=float) for gid, v in found.items()}
