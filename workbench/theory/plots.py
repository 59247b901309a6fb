"""Matplotlib figures for the theory notebooks, drawn from the dicts of :mod:`.panels`.

One function per figure, each taking a panel dict and returning a new
:class:`matplotlib.figure.Figure` (not registered with pyplot, so nothing accumulates):

* :func:`plot_uniform_laws` — Figure 2: ``m``, ``ℓ``, ``R``, ``S`` histograms against
  their laws (:func:`.panels.uniform_laws_panel`);
* :func:`plot_length_law_errors` — Eq. 27/28 minus Eq. 12 (:func:`.panels.length_law_errors`);
* :func:`plot_lock_order` — LOCK against bit key (:func:`.panels.lock_order_table`);
* :func:`plot_lock_histogram` / :func:`plot_lock_histograms` — Figure 5
  (:func:`.panels.lock_histogram`);
* :func:`plot_rejection_cost` — trials and seconds per sample against ``n``
  (:func:`.panels.rejection_cost_table`, :func:`.panels.sampler_timings`).

Every plotted data series carries a ``gid``; :func:`figure_data` reads them back, so a
notebook can check that a figure shows exactly the numbers of the panel it was drawn
from. :func:`interactive_panel` binds a panel function and a plot function to ipywidgets
(the result of the last call is ``panel.result``, its figure ``panel.last_figure``).

This module computes nothing: every number comes from the panel dict (the only arithmetic
is layout, plus the Eq. 48 extrapolation line of :func:`plot_rejection_cost`, which
scales the table's Eq. 47 column through the last measured time). It imports
matplotlib; ``workbench`` and ``workbench.theory`` do not import this module.

Example
-------
>>> from workbench.theory import panels
>>> fig = plot_uniform_laws(panels.uniform_laws_panel(5, n_samples=500, seed=0))
>>> shown = figure_data(fig)
>>> bool((shown["m-samples"] == panels.uniform_laws_panel(5, 500, 0)["m"]["freq"]).all())
True
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.patches import StepPatch

__all__ = [
    "figure_data",
    "interactive_panel",
    "panel_controls",
    "plot_length_law_errors",
    "plot_lock_histogram",
    "plot_lock_histograms",
    "plot_lock_order",
    "plot_rejection_cost",
    "plot_uniform_laws",
    "tau_label",
]

_SAMPLE = "#4c6ef5"  # sampled histograms
_LAW = "#212529"  # closed forms
_ACCENT = "#e8590c"  # approximations, limits
_OTHER = "#2b8a3e"


def tau_label(tau: float) -> str:
    """``"τ = 2"``, ``"τ = ∞"``, ``"τ = -0.5"``.

    >>> tau_label(float("inf")), tau_label(-10.0), tau_label(0.5)
    ('τ = ∞', 'τ = -10', 'τ = 0.5')
    """
    if math.isinf(tau):
        return "τ = ∞" if tau > 0 else "τ = -∞"
    return f"τ = {tau:g}"


# --------------------------------------------------------------------------- reading back
def figure_data(fig: Figure) -> dict[str, np.ndarray]:
    """The plotted values of every artist with a ``gid``, by gid.

    Bars (rectangles): their heights, in drawing order; step outlines (``ax.stairs``):
    their values; lines: their y data, except full-height vertical lines (``ax.axvline``),
    which give their x position; vertical-line collections (``ax.vlines``): the top of
    each segment; other collections (scatter): the y offsets.
    """
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


# --------------------------------------------------------------------------- Figure 2
def _law_markers(ax: Axes, x: np.ndarray, y: np.ndarray, gid: str, label: str) -> None:
    ax.plot(x, y, linestyle="none", marker="_", markersize=14, markeredgewidth=2,
            color=_LAW, label=label, gid=gid)


def plot_uniform_laws(panel: Mapping[str, Any]) -> Figure:
    """Figure 2 for one word: four histograms of :func:`.panels.uniform_laws_panel`.

    (a) token count ``m`` against ``1 + Binom(n-1, ½)``; (b) pooled token length ``ℓ``
    against Eq. 12 and the geometric limit Eq. 28; (c) ``R = n/m`` (log axis) with the
    sample mean and ``E[R]`` of Eq. 36; (d) segmentality ``S``.

    Gids: ``{m,ell,R,S}-samples`` (bars: sample frequencies), ``{m,ell,R,S}-law``
    (markers: closed form), ``ell-limit``, ``R-mean``, ``R-expected``.
    """
    n, size = panel["n"], panel["n_samples"]
    fig = Figure(figsize=(11, 7.2), layout="constrained")
    axes = fig.subplots(2, 2)
    fig.suptitle(f"Uniform segmentations of a {n}-character word: {size:,} GRaMPa samples "
                 "(τ = 1, infinite vocabulary)")

    m = panel["m"]
    ax = axes[0, 0]
    ax.bar(m["values"], m["freq"], width=0.8, color=_SAMPLE, alpha=0.6, label="samples",
           gid="m-samples")
    _law_markers(ax, m["values"], m["pmf"], "m-law", "1 + Binom(n-1, ½)")
    ax.set(title=f"(a) token count m   (TV = {m['tv']:.4f})", xlabel="m", ylabel="share")

    ell = panel["ell"]
    ax = axes[0, 1]
    ax.bar(ell["values"], ell["freq"], width=0.8, color=_SAMPLE, alpha=0.6,
           label="samples (all tokens)", gid="ell-samples")
    _law_markers(ax, ell["values"], ell["pmf"], "ell-law", "Eq. 12: M(ℓ,n) / (n+1)2ⁿ⁻²")
    ax.plot(ell["values"], ell["limit"], color=_ACCENT, linestyle="--", linewidth=1,
            label="Eq. 28: 2^-ℓ", gid="ell-limit")
    ax.set(title=f"(b) token length ℓ, pooled   (TV = {ell['tv']:.4f})", xlabel="ℓ",
           ylabel="share of tokens", xlim=(0.3, min(n, 12) + 0.7))

    r = panel["R"]
    ax = axes[1, 0]
    ax.vlines(r["values"], 0, r["freq"], color=_SAMPLE, linewidth=5, alpha=0.6,
              label="samples", gid="R-samples")
    _law_markers(ax, r["values"], r["pmf"], "R-law", "law of n/m")
    ax.axvline(r["mean"], color=_SAMPLE, linestyle=":", label=f"mean {r['mean']:.4f}",
               gid="R-mean")
    ax.axvline(r["expected_mean"], color=_ACCENT, linestyle="--",
               label=f"Eq. 36: 2(1 - 2⁻ⁿ) = {r['expected_mean']:.4f}", gid="R-expected")
    ax.set_xscale("log")
    ax.set(title="(c) characters per token R = n/m", xlabel="R (log scale)", ylabel="share")

    s = panel["S"]
    ax = axes[1, 1]
    ax.bar(s["values"], s["freq"], width=0.8 / (n - 1), color=_SAMPLE, alpha=0.6,
           label="samples", gid="S-samples")
    _law_markers(ax, s["values"], s["pmf"], "S-law", "Binom(n-1, ½)/(n-1)")
    ax.set(title="(d) segmentality S = (m-1)/(n-1)", xlabel="S", ylabel="share",
           xlim=(-0.05, 1.05))
    for ax in axes.flat:
        ax.legend(fontsize=8, loc="upper right")
    return fig


def plot_length_law_errors(errors: Mapping[str, Any],
                           ns: Sequence[int] = (4, 8, 16, 29)) -> Figure:
    """Errors of Eq. 27 and Eq. 28 against Eq. 12 (:func:`.panels.length_law_errors`).

    (a) the signed error of the limit ``2^-ℓ`` against ``ℓ`` for the word lengths ``ns``
    (lines), with the error of Eq. 27 as markers (zero except at ``ℓ = n``); (b) against
    ``n``, log scale: the largest ``|Eq. 28 - Eq. 12|``, the deficit of Eq. 27 at
    ``ℓ = n`` and the missing mass ``1 - Σ_ℓ Eq. 27``.

    Gids: ``err28-n{n}``, ``err27-n{n}``, ``max-err28``, ``deficit27``, ``shortfall27``.
    """
    n_max = int(errors["n"][-1])
    ns = [n for n in ns if 1 <= n <= n_max]
    fig = Figure(figsize=(11, 4.2), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    colours = [_SAMPLE, _OTHER, _ACCENT, "#ae3ec9", "#1098ad", _LAW]
    for k, n in enumerate(ns):
        colour = colours[k % len(colours)]
        ell = errors["ell"][:n]
        ax1.plot(ell, errors["err28"][n - 1, :n], color=colour, marker=".",
                 label=f"Eq. 28 - Eq. 12, n = {n}", gid=f"err28-n{n}")
        ax1.plot(ell, errors["err27"][n - 1, :n], color=colour, linestyle="none",
                 marker="x", markersize=7, label=f"Eq. 27 - Eq. 12, n = {n}",
                 gid=f"err27-n{n}")
    ax1.axhline(0, color=_LAW, linewidth=0.6)
    ax1.set(title="(a) approximation minus exact law, by token length",
            xlabel="ℓ", ylabel="P_approx(ℓ|n) - P(ℓ|n)",
            xlim=(0.5, min(n_max, max(ns, default=1)) + 0.5))
    ax1.legend(fontsize=7, ncol=2)
    n_axis = errors["n"]
    worst28 = np.nanmax(np.abs(errors["err28"]), axis=1)
    ax2.semilogy(n_axis, worst28, color=_ACCENT, marker=".",
                 label="max_ℓ |Eq. 28 - Eq. 12|", gid="max-err28")
    ax2.semilogy(n_axis, errors["deficit_at_n"], color=_SAMPLE, marker=".",
                 label="Eq. 12 - Eq. 27 at ℓ = n: 1/((n+1)2ⁿ)", gid="deficit27")
    ax2.semilogy(n_axis, errors["shortfall"], color=_LAW, linestyle=":",
                 label="1 - Σ_ℓ Eq. 27", gid="shortfall27")
    ax2.set(title="(b) size of the errors against word length", xlabel="n",
            ylabel="absolute error (log scale)")
    ax2.legend(fontsize=8)
    return fig


# --------------------------------------------------------------------------- App. C
def plot_lock_order(table: Mapping[str, Any]) -> Figure:
    """LOCK against bit key for every segmentation of :func:`.panels.lock_order_table`.

    One point per segmentation (x: LOCK, y: bit key), coloured by token count; LOCK
    blocks of equal ``m`` are separated by dotted lines. Gid ``bit-of-lock`` (the y
    values, in LOCK order).
    """
    cols = table["columns"]
    n = table["n"]
    fig = Figure(figsize=(5.6, 4.6), layout="constrained")
    ax = fig.subplots()
    points = ax.scatter(cols["key"], cols["lock_bit_key"], c=cols["m"], cmap="viridis",
                        s=max(6, 400 / len(cols["key"])), gid="bit-of-lock")
    fig.colorbar(points, ax=ax, label="token count m")
    starts = [k for k in range(1, len(cols["m"])) if cols["m"][k] != cols["m"][k - 1]]
    for k in starts:
        ax.axvline(k - 0.5, color=_LAW, linestyle=":", linewidth=0.7)
    ax.set(title=f"n = {n}: LOCK (App. C.2) against bit key (C.1)", xlabel="LOCK",
           ylabel="bit key")
    return fig


def plot_lock_histogram(hist: Mapping[str, Any], ax: Axes | None = None,
                        log: bool = True, label_blocks: int = 8) -> Figure:
    """One Figure 5 panel: sample shares per LOCK span, the uniform share, the m-blocks.

    ``log=True`` (default) uses a log share axis, on which the uniform histogram of τ = 1
    and the few spans the skewed temperatures fill are both visible; empty spans are
    then not drawn. Dotted lines separate the token-count blocks ``[f1(m), f1(m+1))``;
    the ``label_blocks`` widest are labelled.

    Gids: ``lock-samples`` (a filled step outline of ``freq``), ``lock-uniform`` (the
    share each span would get at τ = 1).
    """
    if ax is None:
        fig = Figure(figsize=(9, 3.4), layout="constrained")
        ax = fig.subplots()
    else:
        fig = ax.figure
    edges = np.asarray(hist["edges"], dtype=float)
    top = max(float(np.max(hist["freq"])), float(np.max(hist["uniform"])))
    if log:
        ax.set_yscale("log")
        floor = 0.5 / hist["n_samples"]
        label_y, ylim = top * 2.0, (floor, top * 8.0)
    else:
        floor = 0.0
        label_y, ylim = top * 1.08, (0.0, top * 1.2)
    # one filled step outline instead of one rectangle per span: fast at any number of spans
    ax.stairs(hist["freq"], edges, baseline=floor, fill=True, color=_SAMPLE, label="samples",
              gid="lock-samples")
    ax.stairs(hist["uniform"], edges, baseline=None, color=_ACCENT, linewidth=0.8,
              label="uniform", gid="lock-uniform")
    m_edges = np.asarray(hist["m_edges"], dtype=float)
    widest = set(np.argsort(np.diff(m_edges))[::-1][:label_blocks].tolist())
    for j, start in enumerate(m_edges[:-1]):
        if j:
            ax.axvline(start, color=_LAW, linestyle=":", linewidth=0.5)
        if j in widest:
            ax.text((start + m_edges[j + 1]) / 2, label_y, f"m={j + 1}", ha="center",
                    va="bottom", fontsize=6, color=_LAW)
    ax.set(xlim=(0, hist["n_keys"]), ylim=ylim, xlabel="LOCK",
           ylabel="share of samples" + (" (log)" if log else ""))
    ax.set_title(f"{tau_label(hist['tau'])}: {hist['n_samples']:,} samples, n = {hist['n']}, "
                 f"{hist['counts'].size} spans   (E[m] = {hist['expected_m']:.2f})",
                 fontsize=9)
    return fig


def plot_lock_histograms(hists: Iterable[Mapping[str, Any]], ncols: int = 2,
                         log: bool = True) -> Figure:
    """Figure 5: one :func:`plot_lock_histogram` panel per temperature, in a grid."""
    hists = list(hists)
    if not hists:
        raise ValueError("no histograms to plot")
    rows = -(-len(hists) // ncols)
    fig = Figure(figsize=(6 * ncols, 2.6 * rows), layout="constrained")
    axes = np.atleast_1d(fig.subplots(rows, ncols, squeeze=False)).ravel()
    for ax, hist in zip(axes, hists):
        plot_lock_histogram(hist, ax=ax, log=log)
    for ax in axes[len(hists):]:
        ax.set_visible(False)
    fig.suptitle("GRaMPa samples on the LOCK axis (Figure 5): fewer, longer tokens to the "
                 "left")
    return fig


# --------------------------------------------------------------------------- rejection
def _error_bars(table: Mapping[str, Any], name: str) -> np.ndarray:
    """± 2 standard errors, the lower bar clipped to stay above 0 on a log axis."""
    mean = np.asarray(table[f"{name}_mean"], dtype=float)
    two_sem = 2 * np.nan_to_num(np.asarray(table[f"{name}_sem"], dtype=float))
    return np.vstack([np.minimum(two_sem, 0.9 * np.nan_to_num(mean)), two_sem])


def plot_rejection_cost(table: Mapping[str, Any],
                        timings: Mapping[str, Any] | None = None) -> Figure:
    """Trials per accepted sample against ``n`` (log scale); optionally seconds per sample.

    Left: Eq. 47 ``n!/2^(n-1)`` and ``2^(n-1)/N_V`` as lines, the measured mean trials
    (± 2 standard errors) as points, GRaMPa's single pass at 1. Right (with ``timings``
    from :func:`.panels.sampler_timings`): measured seconds per sample; the Markov
    sampler's is extended beyond the measured ``n`` as ``E[T] · n`` (Eq. 48), scaled
    through its last measured point.

    Gids: ``markov-expected``, ``markov-measured``, ``bit-expected``, ``bit-measured``,
    ``grampa-passes``; ``time-markov``, ``time-bit``, ``time-grampa-infinite``,
    ``time-grampa-bounded``, ``time-markov-extrapolated``.
    """
    ns = np.asarray(table["ns"])
    cap = table["max_token_length"]
    fig = Figure(figsize=(11 if timings is not None else 6, 4.4), layout="constrained")
    axes = fig.subplots(1, 2 if timings is not None else 1, squeeze=False).ravel()
    ax = axes[0]
    ax.semilogy(ns, table["markov_expected"], color=_ACCENT,
                label="Markov rejection, Eq. 47: n!/2ⁿ⁻¹", gid="markov-expected")
    bars = ax.errorbar(ns, table["markov_mean"], yerr=_error_bars(table, "markov"),
                       color=_ACCENT, linestyle="none", marker="o",
                       markersize=4, label="  measured mean")
    bars.lines[0].set_gid("markov-measured")  # the points only, not the error bars
    ax.semilogy(ns, table["bit_expected"], color=_SAMPLE,
                label=f"bit-mask rejection, §3.2: 2ⁿ⁻¹/N_V (tokens ≤ {cap})",
                gid="bit-expected")
    bars = ax.errorbar(ns, table["bit_mean"], yerr=_error_bars(table, "bit"),
                       color=_SAMPLE, linestyle="none", marker="s",
                       markersize=3, label="  measured mean")
    bars.lines[0].set_gid("bit-measured")  # the points only, not the error bars
    ax.semilogy(ns, table["grampa_passes"], color=_OTHER, linewidth=2,
                label="GRaMPa: one pass, always valid", gid="grampa-passes")
    ax.set(title="Trials per accepted sample", xlabel="word length n",
           ylabel="trials (log scale)")
    ax.set_ylim(0.5, None)
    ax.legend(fontsize=8)
    if timings is not None:
        ax = axes[1]
        tn = np.asarray(timings["ns"])
        per_trial = np.asarray(timings["markov_per_trial"], dtype=float)
        measured = np.flatnonzero(np.isfinite(per_trial))
        ax.semilogy(tn, timings["markov"], color=_ACCENT, marker="o", markersize=4,
                    label="Markov rejection (infinite V)", gid="time-markov")
        if measured.size:  # Eq. 48: E[T] walks of O(n) steps, scaled from the longest run
            last = measured[-1]
            expected = np.interp(tn, ns, table["markov_expected"])
            ahead = slice(last, None)
            ax.semilogy(tn[ahead], (expected * per_trial[last] * tn / tn[last])[ahead],
                        color=_ACCENT, linestyle=":",
                        label="  Eq. 48: E[T]·O(n) beyond the last measured n",
                        gid="time-markov-extrapolated")
        ax.semilogy(tn, timings["bit"], color=_SAMPLE, marker="s", markersize=3,
                    label=f"bit-mask rejection (tokens ≤ {cap})", gid="time-bit")
        ax.semilogy(tn, timings["grampa_infinite"], color=_OTHER, marker=".",
                    label="GRaMPa (infinite V)", gid="time-grampa-infinite")
        ax.semilogy(tn, timings["grampa_bounded"], color=_OTHER, linestyle="--",
                    label=f"GRaMPa (tokens ≤ {cap})", gid="time-grampa-bounded")
        top = np.nanmax([np.nanmax(timings[k]) for k in
                         ("markov", "bit", "grampa_infinite", "grampa_bounded")])
        ax.set_ylim(None, top * 100)
        ax.set(title=f"Wall time per sample ({timings['threads'] or 'all'} thread(s))",
               xlabel="word length n", ylabel="seconds (log scale)")
        ax.legend(fontsize=8)
    return fig


# --------------------------------------------------------------------------- widgets
def interactive_panel(compute: Callable[..., Any], draw: Callable[[Any], Any],
                      **controls: Any) -> Any:
    """``ipywidgets.interactive`` showing ``draw(compute(**values))`` for the controls.

    ``controls`` maps argument names of ``compute`` to widgets (or ``ipywidgets.fixed``
    values). The returned panel's ``result`` is the last ``compute`` result and
    ``last_figure`` what ``draw`` made of it (a figure, or anything ``display`` shows,
    e.g. a ``pandas.DataFrame``), so a notebook can set widget values in code and check
    ``panels_equal(panel.result, compute(...))`` and the figure's :func:`figure_data`.
    """
    import ipywidgets
    from IPython.display import display

    params = inspect.signature(compute).parameters
    unknown = [name for name in controls if name not in params]
    if unknown:
        raise TypeError(f"{compute.__name__} has no argument(s) {unknown}")
    holder: list[Any] = []
    state: dict[str, Any] = {"figure": None}

    def show(**values: Any) -> Any:
        result = compute(**values)
        fig = draw(result)
        state["figure"] = fig
        if holder:
            holder[0].last_figure = fig
        display(fig)
        return result

    panel = ipywidgets.interactive(show, **controls)  # runs show() once
    holder.append(panel)
    panel.last_figure = state["figure"]
    return panel


def panel_controls(panel: Any) -> dict[str, Any]:
    """The control widgets of an ``ipywidgets.interactive`` panel, by argument name.

    Arguments bound with ``ipywidgets.fixed`` are not controls and are left out.
    """
    import ipywidgets

    return {getattr(w, "_kwarg", w.description): w for w in panel.kwargs_widgets
            if not isinstance(w, ipywidgets.fixed)}
