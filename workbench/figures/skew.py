"""Notebook 02: what τ, ℓ_min, direction and multiplexing do to one word (§4.3–4.6).

Pure functions (samples use an explicit seed), so a notebook can bind sliders to them and a
test can call them directly and compare:

- :func:`skew_coordinate`: −1/τ, the axis along which skew towards longer tokens grows
  monotonically (footnote 10 / Figure 8: 0⁺ … 1 … +∞ ≡ −∞ … 0⁻);
- :func:`segmentality_moments`, :func:`segmentality_curve`: exact mean and standard deviation
  of S = (m−1)/(n−1), per τ (Figures 4 and 8 for one word);
- :func:`skew_panel`: samples and exact laws of m and token length, optionally multiplexed
  with a deterministic segmenter through :class:`workbench.Multiplexer` (Algorithm 3);
- :func:`m_histograms_per_tau`: Figure 3's data; :func:`skew_summary`: everything the
  widget shows.

Plots: :func:`plot_skew_panel` (histograms with their exact laws),
:func:`plot_m_histograms_per_tau` (Figure 3), :func:`plot_segmentality_curve` (Figures 4/8);
the widget :func:`skew_widget`. GRaMPa's arc probabilities are
:func:`workbench.grampa.arc_probabilities`; this module only lays them out.

Example
-------
>>> [round(skew_coordinate(t), 2) for t in (0.5, 1.0, 5.0, float("inf"), -10.0)]
[-2.0, -1.0, -0.2, 0.0, 0.1]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure, FigureBase

from .._core.rng import as_generator
from ..grampa import Grampa, check_tau
from ..lattice import check_word, tokens_from_lengths
from ..segmenters import Multiplexer, default_segmenter
from ..stats import frequencies, tv_distance
from ..vocab import Vocabulary
from .common import GREY, PINK, tau_label

__all__ = [
    "PAPER_TAUS",
    "TAU_GRID",
    "TAU_SLIDER_GRID",
    "m_histograms_per_tau",
    "plot_m_histograms_per_tau",
    "plot_segmentality_curve",
    "plot_skew_panel",
    "segmentality_curve",
    "segmentality_moments",
    "skew_coordinate",
    "skew_panel",
    "skew_position",
]

#: τ values in increasing skew towards longer tokens (footnote 10's order).
TAU_GRID = (0.25, 0.5, 1.0, 2.0, 5.0, 20.0, math.inf, -20.0, -10.0, -5.0, -2.0, -1.0)

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


def skew_coordinate(tau: float) -> float:
    """−1/τ (−α): increases with the skew towards longer tokens; ±inf both map to 0."""
    return 0.0 - check_tau(tau)  # 0.0 - 0.0 is +0.0 (plain negation would give -0.0)


def segmentality_moments(
    word: str, vocab: Vocabulary, tau: float = 1.0, ell_min: int = 1, direction: str = "l2r"
) -> tuple[float, float]:
    """Exact mean and standard deviation of segmentality S = (m − 1)/(n − 1) (n ≥ 2)."""
    word = check_word(word)
    n = len(word)
    if n < 2:
        raise ValueError("segmentality needs a word of at least 2 characters")
    pmf = Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction).token_count_pmf(word)
    s = (np.arange(pmf.size) - 1) / (n - 1)
    mean = float(np.dot(pmf, s))
    var = float(np.dot(pmf, (s - mean) ** 2))
    return mean, math.sqrt(max(var, 0.0))


def segmentality_curve(
    word: str,
    vocab: Vocabulary,
    taus: Sequence[float] = TAU_GRID,
    ell_min: int = 1,
    direction: str = "l2r",
) -> dict[str, np.ndarray]:
    """Figure 4/8 for one word: exact mean and sd of S for each τ, in skew order.

    Returns arrays ``tau``, ``coordinate`` (−1/τ, sorted ascending), ``mean``, ``sd``.
    """
    ordered = sorted(taus, key=skew_coordinate)
    moments = [segmentality_moments(word, vocab, t, ell_min, direction) for t in ordered]
    return {
        "tau": np.array(ordered, dtype=float),
        "coordinate": np.array([skew_coordinate(t) for t in ordered]),
        "mean": np.array([m for m, _ in moments]),
        "sd": np.array([s for _, s in moments]),
    }


def skew_panel(
    word: str,
    vocab: Vocabulary,
    tau: float = 1.0,
    ell_min: int = 1,
    direction: str = "l2r",
    p: float = 1.0,
    n_samples: int = 20_000,
    seed: int = 0,
    deterministic: Callable[[str], list[str]] | None = None,
    n_examples: int = 5,
) -> dict:
    """Samples and exact laws of the number of tokens m and of token lengths for one word.

    With multiplexing rate ``p`` < 1, each sample is GRaMPa's with probability ``p`` and
    ``deterministic(word)`` otherwise (default: :func:`workbench.segmenters.default_segmenter`):
    the coins are :meth:`workbench.Multiplexer.coins` (Algorithm 3), drawn from the same
    generator as GRaMPa's seed, and the exact laws are the corresponding mixtures.

    Returns
    -------
    dict
        ``m_counts``, ``m_pmf`` (length n + 1), ``length_counts``, ``length_pmf`` (pooled
        share of tokens of each length, length n + 1), ``examples`` (a few sampled
        segmentations), ``deterministic`` (its segmentation or None), ``n_samples``.
    """
    word = check_word(word)
    if word == "":
        raise ValueError("pick a non-empty word")
    n = len(word)
    rng = as_generator(seed)  # one stream: the coins first, then GRaMPa's base seed
    g = Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction, seed=rng)
    mux = Multiplexer(deterministic or default_segmenter(vocab), g, p, seed=rng)
    m_pmf = g.token_count_pmf(word)
    expected_len = g.token_length_pmf(word) * g.expected_token_count(word)
    n_heads = int(mux.coins(n_samples).sum())
    lengths, offsets = g.sample_lengths(word, n_heads)
    m_samples = np.diff(offsets)
    length_counts = np.bincount(lengths, minlength=n + 1)
    det = None
    if mux.p < 1.0:  # the exact laws are the mixtures of Algorithm 3
        det = list(mux.deterministic(word))
        det_lengths = np.bincount([len(t) for t in det], minlength=n + 1)
        m_pmf = mux.p * m_pmf
        m_pmf[len(det)] += 1.0 - mux.p
        expected_len = mux.p * expected_len + (1.0 - mux.p) * det_lengths
        length_counts = length_counts + (n_samples - n_heads) * det_lengths
        m_samples = np.concatenate([m_samples, np.full(n_samples - n_heads, len(det))])
    examples = [tokens_from_lengths(word, lengths[offsets[s]:offsets[s + 1]].tolist())
                for s in range(min(n_examples, n_heads))]
    return {
        "m_counts": np.bincount(m_samples, minlength=n + 1),
        "m_pmf": m_pmf,
        "length_counts": length_counts,
        "length_pmf": expected_len / expected_len.sum(),
        "examples": examples,
        "deterministic": det,
        "n_samples": n_samples,
    }


# --------------------------------------------------------------------------- plots

def skew_position(tau: float) -> float:
    """asinh-spread −1/τ, ``asinh(−1/τ / 0.1)``: where τ sits on the skew axis of the plots
    (so that τ = 5 … ±∞ … −5 do not pile up at 0).

    >>> [round(skew_position(t), 3) for t in (1.0, float("inf"), -10.0)]
    [-2.998, 0.0, 0.881]
    """
    return math.asinh(skew_coordinate(tau) / _ASINH_WIDTH)


def _skew_colour(tau: float) -> Any:
    """Black at τ = 1 (uniform); blues towards shorter tokens, reds towards longer ones."""
    from matplotlib import colormaps

    t = skew_position(tau)
    centre = skew_position(1.0)
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
    panel: Mapping[str, Any],
    axes: Sequence[Axes] | None = None,
    title: str | None = None,
) -> FigureBase:
    """Histograms of m and of token length from a :func:`skew_panel` result,
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
        tv = tv_distance(frequencies(counts), pmf) if total > 0 else float("nan")
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
    return {float(t): skew_panel(word, vocab, t, ell_min, direction, 1.0, n_samples,
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
    taus = sorted(per_tau, key=skew_coordinate)
    colours = _rank_colours(taus)
    width = 0.8 / max(len(taus), 1)
    hi = 1
    for k, tau in enumerate(taus):
        panel = per_tau[tau]
        pmf = np.asarray(panel["m_pmf"], dtype=float)
        counts = np.asarray(panel["m_counts"], dtype=float)
        colour = colours[k]
        label = tau_label(tau, prefix=True)
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
        :func:`segmentality_curve` (``tau``, ``coordinate``, ``mean``,
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
        ax.axvline(-1.0, color=GREY, lw=0.8, ls=":", zorder=0)
        ax.text(-1.0, 1.0, " uniform", fontsize=7, color=GREY, va="top",
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
    if current_tau is not None:  # the axis always includes the slider's value
        xc = skew_coordinate(current_tau)
        lo, hi = ax.get_xlim()
        pad = 0.05 * (1 + abs(xc))
        ax.set_xlim(min(lo, xc - pad), max(hi, xc + pad))
        if getattr(ax, "_skew_top", None) is not None:
            ax._skew_top.set_xlim(ax.get_xlim())
        ax.axvline(xc, color=PINK, lw=1.2, zorder=2, gid="current-tau")
        ax.text(xc, 0.97, f" τ = {tau_label(current_tau)}", color=PINK, fontsize=7, va="top",
                transform=ax.get_xaxis_transform())
    if label is not None:
        ax.legend(fontsize=8, frameon=False)
    if title:
        ax.set_title(title, fontsize=9, loc="left")
    return fig
