"""Notebook 02's panel: skew_summary (pure) and skew_widget (the plotly views and controls).

Everything it shows for one word (:func:`skew_summary`) and the widget that binds it to
controls (:func:`skew_widget`).

:func:`skew_summary` is a pure function of its arguments (samples use an explicit seed): it
calls :func:`workbench.figures.skew.skew_panel`, :func:`workbench.grampa.arc_probabilities`,
:func:`workbench.figures.skew.m_histograms_per_tau`,
:func:`workbench.figures.skew.segmentality_curve` and
:func:`workbench.figures.lattice.lattice_summary`, and turns the package's documented errors
into a message. :func:`skew_widget` draws its result with plotly (hover shows the numbers;
the browser draws them): the histograms, the lattice and the segmentality curve; Figure 3,
which does not depend on τ or p, is a matplotlib picture drawn once per word and setting; a
lattice past its readable size is a static matplotlib sketch.

This module computes no law and draws no figure itself; those are in :mod:`.skew`,
:mod:`.skew_plotly`, :mod:`.lattice` and :mod:`.lattice_plotly`.

Example
-------
>>> from workbench import Vocabulary
>>> s = skew_summary("ab", Vocabulary(["a", "b", "ab"]), n_samples=100)
>>> s["error"], s["word_in_alphabet"], s["arc_probabilities"]
(None, 'ab', {(0, 1): 0.5, (0, 2): 0.5, (1, 2): 1.0})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..datasets.catalog import vocabulary_options
from ..grampa import arc_probabilities
from ..lattice import EMPTY_WORD_NOTE, SegmentationError
from ..vocab import Vocabulary
from .common import tau_label
from .lattice import draw_lattice, lattice_summary
from .lattice_plotly import plotly_lattice
from .panel import add_vocabulary_upload, interactive_panel, same_result
from .skew import (
    PAPER_TAUS,
    TAU_GRID,
    TAU_SLIDER_GRID,
    m_histograms_per_tau,
    segmentality_curve,
    segmentality_moments,
    skew_coordinate,
    skew_panel,
)
from .skew_plotly import plotly_segmentality_curve, plotly_skew_panel
from .skew_plots import plot_m_histograms_per_tau

__all__ = ["skew_summary", "skew_widget"]


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
    curve_taus: Sequence[float] = TAU_GRID,
) -> dict[str, Any]:
    """Everything the skew widget shows for one word, as plain data (a pure function).

    Parameters
    ----------
    word : str
        A plain word, spelled in the vocabulary's alphabet first (``vocab.to_alphabet``).
    vocab : Vocabulary
    tau, ell_min, direction, p, n_samples, seed
        As in :func:`skew_panel`.
    figure_taus : sequence of float
        Temperatures of Figure 3 (default the paper's 1, 5, −10).
    curve_taus : sequence of float
        Temperatures of the segmentality curve (default :data:`TAU_GRID`).

    Returns
    -------
    dict
        ``word_in_alphabet``; ``panel`` = ``skew_panel(spelled, vocab, tau, ell_min,
        direction, p, n_samples, seed)``; ``lattice`` = :func:`lattice_summary`;
        ``arc_probabilities`` = ``arc_probabilities(spelled, vocab, tau, ell_min,
        direction)``; ``per_tau`` = :func:`m_histograms_per_tau` (GRaMPa alone, p = 1);
        ``curve`` = ``segmentality_curve(spelled, vocab, curve_taus, ell_min, direction)``
        and ``current`` = ``segmentality_moments(spelled, vocab, tau, ell_min, direction)``
        (both None for words of one character); ``error`` (str or None) and the parameters.
        After an error the fields computed before it are kept, the others are None.
    """
    out: dict[str, Any] = {
        "word_in_alphabet": None, "tau": tau, "ell_min": ell_min, "direction": direction,
        "p": p, "n_samples": n_samples, "seed": seed, "panel": None, "lattice": None,
        "arc_probabilities": None, "per_tau": None, "curve": None, "current": None,
        "error": None,
    }
    try:
        if not isinstance(vocab, Vocabulary):
            raise TypeError(f"vocab must be a workbench.Vocabulary, not {type(vocab).__name__}")
        spelled = vocab.to_alphabet(word)
        out["word_in_alphabet"] = spelled
        if spelled == "":
            raise ValueError(EMPTY_WORD_NOTE)
        out["panel"] = skew_panel(spelled, vocab, tau, ell_min, direction, p, n_samples,
                                        seed)
        out["lattice"] = lattice_summary(word, vocab, ell_min, direction, max_list=0)
        out["arc_probabilities"] = arc_probabilities(spelled, vocab, tau, ell_min,
                                                           direction)
        out["per_tau"] = m_histograms_per_tau(spelled, vocab, figure_taus, ell_min, direction,
                                              n_samples, seed)
        if len(spelled) >= 2:
            out["curve"] = segmentality_curve(spelled, vocab, curve_taus, ell_min,
                                                    direction)
            out["current"] = segmentality_moments(spelled, vocab, tau, ell_min, direction)
    except (SegmentationError, ValueError, TypeError) as err:
        out["error"] = str(err)
    return out


def _tau_options(grid: Sequence[float]) -> list[tuple[str, float]]:
    return [(tau_label(t), float(t)) for t in sorted(grid, key=skew_coordinate)]


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
) -> Any:
    """The interactive skew panel: word, vocabulary, τ, ℓ_min, direction and p.

    τ is a selection slider over ``tau_grid`` in footnote 10's order (by −1/τ), so
    negative temperatures sit to the right of +∞. Each change shows, in this order (the
    figure carrying the current τ's marker first, right under the τ slider): a few sampled
    segmentations (and the deterministic one when p < 1), Figures 4/8
    (:func:`~.skew_plotly.plotly_segmentality_curve`, with hover), the sampled m and
    token-length histograms with their exact laws (:func:`~.skew_plotly.plotly_skew_panel`),
    the lattice with the current τ's arc probabilities
    (:func:`~.lattice_plotly.plotly_lattice`, with hover; a static :func:`draw_lattice`
    sketch past its size limit) and Figure 3 (:func:`plot_m_histograms_per_tau`, a picture:
    it does not change with τ or p).

    ``panel.result`` is the :func:`skew_summary` shown, so after setting the controls,
    ``same_result(panel.result, skew_summary(word, vocab, tau, ell_min, direction, p,
    n_samples, seed, figure_taus))``; ``panel.last_figures`` holds the figures by name
    (``"histograms"``, ``"lattice"``, ``"per_tau"``, ``"curve"``).

    Returns
    -------
    ipywidgets.interactive
    """
    opts = dict(options) if options is not None else vocabulary_options()
    if vocabulary not in opts:
        vocabulary = "infinite" if "infinite" in opts else next(iter(opts))
    tau_opts = _tau_options(tau_grid)
    if float(tau) not in [v for _, v in tau_opts]:
        raise ValueError(f"tau={tau} is not on the slider's grid")

    def summary(word: str, vocabulary: str, tau: float, ell_min: int, direction: str,
                p: float) -> dict[str, Any]:
        try:
            vocab = opts[vocabulary]()
        except (OSError, ValueError) as err:
            out = skew_summary(word, None, tau, ell_min, direction, p,  # type: ignore[arg-type]
                               n_samples, seed, figure_taus)
            out["error"] = f"cannot load vocabulary {vocabulary!r}: {err}"
            return out
        return skew_summary(word, vocab, tau, ell_min, direction, p, n_samples, seed,
                            figure_taus)

    memo: list[Any] = []  # [per_tau, its figure]
    panel = interactive_panel(
        summary, lambda result: _skew_figures(result, memo),
        **_controls(opts, word, vocabulary, tau_opts, tau, ell_min, direction, p))
    add_vocabulary_upload(panel, opts)
    return panel


def _skew_figures(summary: dict[str, Any], memo: list[Any]) -> dict[str, Any]:
    """Print the header and samples of a :func:`skew_summary`; its figures by name, in
    display order. ``memo`` keeps ``[per_tau, its figure]`` (Figure 3 is drawn once per
    word and setting)."""
    figures: dict[str, Any] = {}
    tau, ell_min, direction, p = (summary[k] for k in ("tau", "ell_min", "direction", "p"))
    print(f"τ = {tau_label(tau)}  (−1/τ = {skew_coordinate(tau):+.3g}),  ℓ_min = {ell_min},  "
          f"{direction},  p = {p:g};  word {summary['word_in_alphabet']!r}")
    if summary["panel"] is not None:
        panel = summary["panel"]
        if panel["deterministic"] is not None:
            print("deterministic:", " | ".join(panel["deterministic"]))
        print("GRaMPa samples:")
        for seg in panel["examples"]:
            print("   ", " | ".join(seg))
        mean_m = float(np.dot(np.arange(panel["m_pmf"].size), panel["m_pmf"]))
        figures["histograms"] = plotly_skew_panel(
            panel, title=f"{summary['word_in_alphabet']!r}, τ = {tau_label(tau)}, "
                         f"ℓ_min = {ell_min}, {direction}, p = {p:g}: E[m] = {mean_m:.3f}")
    if summary["error"]:
        print("error:", summary["error"])
    if summary["lattice"] is not None:
        lat = summary["lattice"]
        probs = summary["arc_probabilities"]
        try:  # interactive: hover an arc for its token, counts and probability at τ
            figures["lattice"] = plotly_lattice(lat, tau, arc_probabilities=probs)
        except ValueError as err:  # too large to read: a static sketch instead
            print(f"(lattice sketched without hover: {err})")
            figures["lattice"] = draw_lattice(lat)
    if summary["per_tau"] is not None:  # independent of τ and p: drawn once per word
        # and setting, as a picture (cheap in the browser; the PNG is kept, see
        # workbench.figures.panel.render_outputs)
        if not (memo and same_result(memo[0], summary["per_tau"])):
            memo[:] = [summary["per_tau"], plot_m_histograms_per_tau(
                summary["per_tau"], title="Figure 3 for this word (GRaMPa alone, p = 1)")]
        figures["per_tau"] = memo[1]
    if summary["curve"] is not None:
        figures["curve"] = plotly_segmentality_curve(
            summary["curve"], current_tau=tau, current=summary["current"],
            title="Figures 4 and 8 for this word: exact mean ± sd of S (p = 1); "
                  "hover the points")
    # the curve with the current τ's marker first, right under the τ slider; then the
    # histograms it moves, the lattice and Figure 3 (which τ does not change)
    order = ("curve", "histograms", "lattice", "per_tau")
    return {name: figures[name] for name in order if name in figures}


def _controls(opts: Mapping[str, Any], word: str, vocabulary: str,
              tau_opts: list[tuple[str, float]], tau: float, ell_min: int,
              direction: str, p: float) -> dict[str, Any]:
    """The panel's widgets, by the name of the argument each one sets."""
    import ipywidgets as widgets

    return dict(
        word=widgets.Text(value=word, description="word", continuous_update=False),
        vocabulary=widgets.Dropdown(options=list(opts), value=vocabulary,
                                    description="vocabulary"),
        tau=widgets.SelectionSlider(options=tau_opts, value=float(tau), description="τ",
                                    continuous_update=False),
        ell_min=widgets.IntSlider(value=ell_min, min=1, max=8, description="ℓ_min",
                                  continuous_update=False),
        direction=widgets.ToggleButtons(options=["l2r", "r2l"], value=direction,
                                        description="direction"),
        p=widgets.FloatSlider(value=p, min=0.0, max=1.0, step=0.05, description="p",
                              continuous_update=False),
    )
