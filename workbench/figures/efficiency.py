"""Notebook 11's figures: Rényi efficiency against τ, p_d, ULM α and p (GRaMPa Figs 10–12).

The data come from :mod:`workbench.experiments.grampa_efficiency` (setups, cached count
arrays, ``compute_*``), which the notebook imports; this module only draws them
(``plot_*``), words what a figure shows (:func:`describe_regulariser`) and saves them
(:func:`save_figures`, which ``python -m workbench experiments`` passes to the runner).
It computes, trains and checks nothing itself.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from .._core.io import atomic_write
from ..experiments.grampa_efficiency import (
    ALPHA,
    KINDS,
    REGULARISER_NAME,
    Setup,
)
from .common import ACCENT, GREEN, GREY, GUIDE, LAW, SAMPLE, tau_label

__all__ = [
    "ALPHA",
    "KINDS",
    "Setup",
    "describe_regulariser",
    "plot_multiplex",
    "plot_regulariser",
    "plot_tau",
    "save_figures",
]


def _points(ax, x, sampled, colour, gid, label):
    mean = sampled.mean(axis=0)
    lo, hi = sampled.min(axis=0), sampled.max(axis=0)
    yerr = np.maximum(0.0, [mean - lo, hi - mean])  # equal seeds: rounding may give −0
    bars = ax.errorbar(x, mean, yerr=yerr, fmt="none", ecolor=colour, capsize=3,
                       lw=1, zorder=3)
    bars.set_label("range over the seeds")
    rows = np.atleast_2d(sampled)
    ax.scatter(np.tile(np.asarray(x, float), len(rows)), rows.ravel(), s=12, color=colour,
               alpha=0.6, zorder=4, gid=gid, label=label)




def plot_tau(data: dict, *, title: str | None = None, ax=None) -> Figure:
    """Figure 10: exact E_α (line, gid ``"exact"``) and sampled points (gid ``"sampled"``).

    The x axis is the skew coordinate −1/τ (longer tokens to the right), labelled with τ.
    """
    if ax is None:
        fig = Figure(figsize=(7.0, 3.6), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    ax.plot(data["curve_x"], data["curve"], color=LAW, lw=1.6, gid="exact",
            label="exact (expected counts)")
    _points(ax, data["x"], data["sampled"], SAMPLE, "sampled",
            f"sampled corpus ({len(data['seeds'])} seeds)")
    ax.axvline(-1.0, color=GREY, lw=0.8, ls=":", zorder=0, gid=f"{GUIDE}-uniform")  # τ = 1
    ax.set_xticks(data["x"], [tau_label(t) for t in data["tau"]])
    ax.set_xlabel("GRaMPa temperature τ (axis: −1/τ; skew towards longer tokens →)")
    ax.set_ylabel("Rényi efficiency E_α")
    ax.legend(loc="best", fontsize=8)
    ax.set_title(title or "E_α against τ (p = 1)")
    return fig




def plot_regulariser(data: dict, *, title: str | None = None, ax=None) -> Figure:
    """Figure 11a/b: sampled points (gid ``"sampled"``), deterministic baseline (dashed)."""
    if ax is None:
        fig = Figure(figsize=(5.0, 3.4), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    _points(ax, data["param"], data["sampled"], SAMPLE, "sampled",
            f"sampled corpus ({len(data['seeds'])} seeds)")
    ax.axhline(data["deterministic"], color=ACCENT, ls="--", lw=1.2, gid="deterministic",
               label="deterministic")
    ax.axhline(data["grampa_uniform"], color=GREEN, ls=":", lw=1.2, gid="grampa-uniform",
               label="GRaMPa τ = 1 (exact)")
    ax.set_xlabel(REGULARISER_NAME[data["kind"]])
    ax.set_ylabel("Rényi efficiency E_α")
    ax.legend(loc="best", fontsize=8)
    ax.set_title(title or ("BPE-dropout" if data["kind"] == "bpe" else "stochastic ULM"))
    return fig




def describe_regulariser(data: dict) -> str:
    """Markdown saying how Figure 11's sampled points move with the hyperparameter, from
    ``data`` (:func:`compute_regulariser`): monotone, or up to a peak and back, against the
    deterministic level.

    >>> d = {"kind": "ulm", "param": np.array([0.1, 0.3, 1.0]), "deterministic": 0.45,
    ...      "sampled": np.array([[0.40, 0.46, 0.45]])}
    >>> "rises from 0.4000 at 0.1 to a peak of 0.4600 at 0.3" in describe_regulariser(d)
    True
    """
    name = REGULARISER_NAME[data["kind"]]
    x, y = np.asarray(data["param"], float), np.asarray(data["sampled"], float).mean(axis=0)
    det = float(data["deterministic"])
    steps = np.diff(y)
    if (steps >= 0).all() or (steps <= 0).all():
        verb = "rises" if y[-1] > y[0] else "falls"
        return (f"{name}: E_α {verb} monotonically from {y[0]:.4f} at {x[0]:g} to {y[-1]:.4f} "
                f"at {x[-1]:g} (deterministic: {det:.4f}).")
    k = int(np.argmax(y)) if y.max() - max(y[0], y[-1]) >= min(y[0], y[-1]) - y.min() \
        else int(np.argmin(y))
    turn = "peak" if k == int(np.argmax(y)) else "trough"
    first, second = ("rises", "falls") if turn == "peak" else ("falls", "rises")
    return (f"{name}: E_α {first} from {y[0]:.4f} at {x[0]:g} to a {turn} of {y[k]:.4f} at "
            f"{x[k]:g}, then {second} to {y[-1]:.4f} at {x[-1]:g} (deterministic: {det:.4f}): "
            f"not monotone.")


def plot_multiplex(data: dict, *, title: str | None = None, ax=None) -> Figure:
    """Figure 12a/b: exact E_α against p (gid ``"exact"``) and sampled points."""
    if ax is None:
        fig = Figure(figsize=(5.0, 3.4), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    ax.plot(data["curve_p"], data["curve"], color=LAW, lw=1.6, gid="exact",
            label="exact (expected counts)")
    _points(ax, data["p"], data["sampled"], SAMPLE, "sampled",
            f"sampled corpus ({len(data['seeds'])} seeds)")
    ax.axvline(data["argmax_p"], color=ACCENT, ls="--", lw=1, gid="argmax",
               label=f"max at p = {data['argmax_p']:.2f}")
    ax.set_xlabel("multiplexing rate p (share of words sampled by GRaMPa)")
    ax.set_ylabel("Rényi efficiency E_α")
    ax.legend(loc="best", fontsize=8)
    other = "BPE" if data["kind"] == "bpe" else "ULM (k = 1)"
    ax.set_title(title or f"GRaMPa multiplexed with {other}")
    return fig


def save_figures(out: Path, sub: str, kind: str, fig10: dict, fig11: dict, fig12: dict
                 ) -> None:
    """Write ``fig10{sub}_{kind}.png``, ``fig11…`` and ``fig12…`` into ``out`` (110 dpi)."""
    for name, data, plot in [("fig10", fig10, plot_tau), ("fig11", fig11, plot_regulariser),
                             ("fig12", fig12, plot_multiplex)]:
        with atomic_write(Path(out) / f"{name}{sub}_{kind}.png", "wb") as handle:
            plot(data).savefig(handle, format="png", dpi=110)
