"""Notebook 02's matplotlib figures: the histograms of a skew panel, Figure 3, Figures 4/8.

:func:`plot_skew_panel` (histograms of m and token length with their exact laws),
:func:`plot_m_histograms_per_tau` (Figure 3) and :func:`plot_segmentality_curve` (Figures 4
and 8, on the −1/τ axis spread by :func:`skew_position`). They draw results of
:mod:`workbench.experiments.grampa_skew` (``SkewPanel``, ``m_histograms_per_tau``,
``SegmentalityCurve``) and are what
``python -m workbench figures`` saves; the interactive twins are in :mod:`.skew_plotly`.

This module computes nothing but the sampled shares (counts over their total); every law
and TV distance comes from :mod:`workbench.experiments.grampa_skew`, which calls
:class:`workbench.Grampa`.

Example
-------
>>> [round(skew_position(t), 3) for t in (1.0, float("inf"), -10.0)]
[-2.998, 0.0, 0.881]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure, FigureBase

from .._core.errors import InvalidValueError
from ..experiments.grampa_skew import SegmentalityCurve, SkewPanel, skew_coordinate
from .common import GREY, GUIDE, PINK, tau_label

__all__ = [
    "ASINH_WIDTH",
    "plot_m_histograms_per_tau",
    "plot_segmentality_curve",
    "plot_skew_panel",
    "skew_position",
]

ASINH_WIDTH = 0.1
"""Linear width of the asinh axis for −1/τ (spreads τ = 5 … ±∞ … −5)."""

_COORD_MIN, _COORD_MAX = -4.0, 4.0  # colour scale ends: τ = 0.25 and τ = −0.25


def skew_position(tau: float) -> float:
    """asinh-spread −1/τ, ``asinh(−1/τ / ASINH_WIDTH)``: where τ sits on the skew axis of
    the plots (so that τ = 5 … ±∞ … −5 do not pile up at 0)."""
    return math.asinh(skew_coordinate(tau) / ASINH_WIDTH)


def _skew_colour(tau: float) -> Any:
    """Black at τ = 1 (uniform); blues towards shorter tokens, reds towards longer ones."""
    from matplotlib import colormaps

    t = skew_position(tau)
    centre = skew_position(1.0)
    if abs(t - centre) < 1e-12:
        return "black"
    lo = math.asinh(_COORD_MIN / ASINH_WIDTH)
    hi = math.asinh(_COORD_MAX / ASINH_WIDTH)
    cmap = colormaps["coolwarm"]
    if t < centre:
        f = min(1.0, (centre - t) / (centre - lo))
        return cmap(0.35 - 0.3 * f)
    f = min(1.0, (t - centre) / (hi - centre))
    return cmap(0.65 + 0.3 * f)


def _rank_colours(taus: Sequence[float]) -> list[Any]:
    """Distinct colours for a few τ in skew order: black at τ = 1, blues below, reds above."""
    from matplotlib import colormaps

    centre = skew_coordinate(1.0)
    x = [skew_coordinate(t) for t in taus]
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


def _new_figure(ncols: int, width: float, height: float) -> tuple[Figure, list[Axes]]:
    # no layout engine: constrained layout costs a third of the drawing time, and notebooks
    # save with bbox_inches="tight" anyway; the gap between axes is set by hand
    fig = Figure(figsize=(width, height))
    fig.subplots_adjust(left=0.08, right=0.97, bottom=0.16, top=0.85, wspace=0.28)
    axes = [fig.add_subplot(1, ncols, k + 1) for k in range(ncols)]
    return fig, axes


def plot_skew_panel(
    panel: SkewPanel,
    axes: Sequence[Axes] | None = None,
    title: str | None = None,
) -> FigureBase:
    """Histograms of m and of token length from a :func:`skew_panel` result,
    each with its exact law overlaid.

    Parameters
    ----------
    panel : SkewPanel
        :func:`~workbench.experiments.grampa_skew.skew_panel`.
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
        ``"length-pmf"`` whose y-data are ``panel.m_pmf[1:]`` / ``panel.length_pmf[1:]``
        (values 1..n; entry 0 is always 0).
    """
    if axes is None:
        fig, axes = _new_figure(2, 10.0, 3.4)
    else:
        axes = list(axes)
        if len(axes) != 2:
            raise InvalidValueError("axes must be a pair of Axes (m, token length)")
        fig = axes[0].figure
    parts = (("m", "number of tokens m", panel.m_counts, panel.m_pmf, panel.m_tv),
             ("length", "token length ℓ (all tokens pooled)", panel.length_counts,
              panel.length_pmf, panel.length_tv))
    for ax, (key, xlabel, counts, pmf, tv) in zip(axes, parts):
        counts = np.asarray(counts, dtype=float)
        pmf = np.asarray(pmf, dtype=float)
        total = counts.sum()
        freq = counts / total if total > 0 else np.zeros_like(counts)
        # values 1..n only: no segmentation has 0 tokens and no token has length 0
        ax.bar(np.arange(1, freq.size), freq[1:], width=0.8, color="#a5d8ff",
               edgecolor="#1c7ed6", linewidth=0.5, label="samples", gid=f"{key}-samples")
        ax.plot(np.arange(1, pmf.size), pmf[1:], "o-", color="#c92a2a", ms=4, lw=1.5,
                label="exact", gid=f"{key}-pmf")
        what = "tokens" if key == "length" else "samples"
        ax.set_title(f"{int(total):,} {what}; TV(samples, exact) = {tv:.4f}", fontsize=9)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("probability")
        seen = np.flatnonzero(pmf > 0).tolist() + np.flatnonzero(freq > 0).tolist()
        lo, hi = (min(seen), max(seen)) if seen else (1, max(pmf.size - 1, 1))
        # one value of zero probability either side (where there is one), so that the law's
        # line comes down to 0 inside the axis instead of running out of it (p < 1 puts a
        # spike next to an empty value)
        lo, hi = max(lo - 1, 1), min(hi + 1, max(pmf.size - 1, 1))
        ax.set_xlim(lo - 0.6, hi + 0.6)
        top = max(float(np.max(freq[1:], initial=0.0)), float(np.max(pmf[1:], initial=0.0)))
        ax.set_ylim(0.0, 1.15 * top if top > 0 else 1.0)
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.legend(fontsize=8, frameon=False)
    if title:
        fig.suptitle(title, fontsize=10)
    return fig



def plot_m_histograms_per_tau(
    per_tau: Mapping[float, SkewPanel],
    ax: Axes | None = None,
    samples: bool = True,
    title: str | None = None,
) -> FigureBase:
    """Figure 3: the law of the number of tokens m for several temperatures, on one axes.

    Parameters
    ----------
    per_tau : dict {τ: SkewPanel}
        E.g. :func:`~workbench.experiments.grampa_skew.m_histograms_per_tau`; drawn in skew
        order (footnote 10).
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
    taus = sorted(per_tau, key=skew_coordinate)
    colours = _rank_colours(taus)
    width = 0.8 / max(len(taus), 1)
    hi = 1
    for k, tau in enumerate(taus):
        panel = per_tau[tau]
        pmf = np.asarray(panel.m_pmf, dtype=float)
        counts = np.asarray(panel.m_counts, dtype=float)
        colour = colours[k]
        label = tau_label(tau, prefix=True)
        nonzero = np.flatnonzero(pmf > 0)
        if nonzero.size:
            hi = max(hi, int(nonzero.max()))
        if samples and counts.sum() > 0:
            offset = (k - (len(taus) - 1) / 2) * width
            ax.bar(np.arange(1, counts.size) + offset, counts[1:] / counts.sum(), width=width,
                   color=colour, alpha=0.35, linewidth=0, gid=f"samples-{tau_label(tau)}",
                   label=label)  # the line's legend entry (same τ, same colour) names it
        ax.plot(np.arange(1, pmf.size), pmf[1:], "o-", color=colour, ms=3, lw=1.3,
                label=label, gid=f"pmf-{tau_label(tau)}")
    ax.set_xlim(0.4, hi + 0.6)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("number of tokens m")
    ax.set_ylabel("probability")
    ax.legend(handles=ax.lines, fontsize=8, frameon=False,
              title="exact (lines), samples (bars)", title_fontsize=8)
    if title:
        ax.set_title(title, fontsize=9, loc="left")
    return fig


def plot_segmentality_curve(
    curve: SegmentalityCurve,
    ax: Axes | None = None,
    label: str | None = None,
    current_tau: float | None = None,
    title: str | None = None,
    colour: Any = None,
) -> FigureBase:
    """Figures 4 and 8: mean ± sd of segmentality S against τ, placed on the −1/τ axis.

    The x axis is −1/τ (1/τ the exponent of the power normalisation, Eq. 4), along
    which the skew towards longer tokens grows (footnote 10), drawn with an asinh scale so
    that τ = 5 … ±∞ … −5 do not pile up at 0. Tick labels are the τ values (``"±∞"`` at
    0); a secondary axis on top shows −1/τ; a colour strip at the bottom follows Figure 8
    (black at τ = 1, redder towards longer tokens). Call again with the same ``ax`` to
    overlay curves.

    Parameters
    ----------
    curve : SegmentalityCurve
        :func:`~workbench.experiments.grampa_skew.segmentality_curve` (or
        :func:`~workbench.experiments.grampa_skew.pooled_curve`).
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
        x-data are ``curve.coordinate`` and y-data ``curve.mean``.
    """
    fresh = ax is None or not getattr(ax, "_skew_axis", False)
    if ax is None:
        fig, (ax,) = _new_figure(1, 8.0, 3.8)
    else:
        fig = ax.figure
    tau = np.asarray(curve.tau, dtype=float)
    x = np.asarray(curve.coordinate, dtype=float)
    mean = np.asarray(curve.mean, dtype=float)
    sd = np.asarray(curve.sd, dtype=float)
    order = np.argsort(x, kind="stable")
    tau, x, mean, sd = tau[order], x[order], mean[order], sd[order]
    if fresh:
        ax.set_xscale("asinh", linear_width=ASINH_WIDTH)
        ax._skew_axis = True  # type: ignore[attr-defined]
    gid = "mean" if label is None else f"mean-{label}"
    (line,) = ax.plot(x, mean, "-", lw=1.5, color=colour, label=label, gid=gid, zorder=3)
    c = line.get_color()
    # the band and the points belong to the line: gids "<gid>/band", "<gid>/points"
    ax.fill_between(x, mean - sd, mean + sd, color=c, alpha=0.15, lw=0, zorder=1,
                    gid=f"{gid}/band")
    ax.scatter(x, mean, s=22, c=[_skew_colour(t) for t in tau], edgecolors=c,
               linewidths=0.6, zorder=4, gid=f"{gid}/points")
    _skew_ticks(ax, tau, x)
    if fresh:
        _skew_axes(ax)
    if current_tau is not None:
        _mark_tau(ax, current_tau)
    if label is not None:
        ax.legend(handles=[ln for ln in ax.lines if ln.get_gid().startswith("mean")],
                  fontsize=8, frameon=False)
    if title:
        ax.set_title(title, fontsize=9, loc="left")
    return fig


def _skew_ticks(ax: Axes, tau: np.ndarray, x: np.ndarray) -> None:
    """Tick labels: the τ values of every curve drawn so far, one per position."""
    from matplotlib.ticker import NullLocator

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


def _skew_axes(ax: Axes) -> None:
    """A fresh axis' labels, the uniform guide, the −1/τ axis on top, Figure 8's strip."""
    from matplotlib.collections import PolyCollection
    from matplotlib.ticker import FormatStrFormatter, NullLocator

    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel("τ, placed at −1/τ (skew towards longer tokens grows →)")
    ax.set_ylabel("segmentality S = (m−1)/(n−1)")
    ax.axvline(-1.0, color=GREY, lw=0.8, ls=":", zorder=0, gid=GUIDE)
    ax.text(-1.0, 1.0, " uniform", fontsize=7, color=GREY, va="top",
            transform=ax.get_xaxis_transform())
    top = ax.twiny()  # the −1/τ values themselves, on the same asinh scale
    top.set_xscale("asinh", linear_width=ASINH_WIDTH)
    top.set_xticks([-4, -2, -1, -0.5, -0.2, 0, 0.2, 0.5, 1, 2, 4])
    top.xaxis.set_major_formatter(FormatStrFormatter("%g"))
    top.xaxis.set_minor_locator(NullLocator())
    top.tick_params(labelsize=7)
    top.set_xlabel("−1/τ", fontsize=8)
    top.set_xlim(ax.get_xlim())
    ax._skew_top = top  # type: ignore[attr-defined]
    # Figure 8's colour strip along the bottom (x in data, y in axes coordinates)
    grid = np.sinh(np.linspace(math.asinh(_COORD_MIN / ASINH_WIDTH),
                               math.asinh(_COORD_MAX / ASINH_WIDTH), 161)) * ASINH_WIDTH
    cells = [[(a, 0.0), (b, 0.0), (b, 0.025), (a, 0.025)]
             for a, b in zip(grid[:-1], grid[1:])]
    mids = 0.5 * (grid[:-1] + grid[1:])
    strip = PolyCollection(cells, transform=ax.get_xaxis_transform(), linewidths=0,
                           facecolors=[_skew_colour(math.inf if m == 0 else -1.0 / m)
                                       for m in mids], zorder=0, gid=f"{GUIDE}-skew-strip")
    ax.add_collection(strip, autolim=False)


def _mark_tau(ax: Axes, current_tau: float) -> None:
    """The slider's τ as a vertical line (the axis always includes it)."""
    xc = skew_coordinate(current_tau)
    lo, hi = ax.get_xlim()
    pad = 0.05 * (1 + abs(xc))
    ax.set_xlim(min(lo, xc - pad), max(hi, xc + pad))
    if getattr(ax, "_skew_top", None) is not None:
        ax._skew_top.set_xlim(ax.get_xlim())
    ax.axvline(xc, color=PINK, lw=1.2, zorder=2, gid="current-tau",
               label=f"τ = {tau_label(current_tau)}")  # labelled by the text beside it
    ax.text(xc, 0.97, f" τ = {tau_label(current_tau)}", color=PINK, fontsize=7, va="top",
            transform=ax.get_xaxis_transform())
