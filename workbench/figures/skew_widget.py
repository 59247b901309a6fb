"""Notebook 02's panel: the plotly views of a skew summary bound to controls.

:func:`skew_widget` binds a summary function (the notebook passes
:func:`workbench.experiments.grampa_skew.skew_summary`: everything the panel shows for one
word, cached by what each part depends on) to controls and draws
its result with plotly (hover shows the numbers; the browser draws them): the histograms,
the lattice and the segmentality curve; Figure 3, which does not depend on τ or p, is a
matplotlib picture drawn once per word and setting; a lattice past its readable size is a
static matplotlib sketch.

This module computes no law and draws no figure itself; those are in
:mod:`workbench.experiments.grampa_skew`, :mod:`.skew_plotly`, :mod:`.skew_plots`,
:mod:`.lattice` and :mod:`.lattice_plotly`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..datasets.catalog import vocabulary_options
from ..experiments.grampa_skew import PAPER_TAUS, TAU_SLIDER_GRID, SkewSummary, skew_coordinate
from ..vocab import Vocabulary
from .common import tau_label
from .lattice import draw_lattice
from .lattice_plotly import plotly_lattice
from .panel import add_vocabulary_upload, interactive_panel
from .skew_plotly import plotly_segmentality_curve, plotly_skew_panel
from .skew_plots import plot_m_histograms_per_tau

__all__ = ["skew_widget"]


def _tau_options(grid: Sequence[float]) -> list[tuple[str, float]]:
    return [(tau_label(t), float(t)) for t in sorted(grid, key=skew_coordinate)]


def skew_widget(
    summarise: Callable[..., SkewSummary],
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

    ``panel.result`` is the :func:`~workbench.experiments.grampa_skew.skew_summary` shown,
    so after setting the controls, ``panel.result == skew_summary(word, vocab, tau, ell_min,
    direction, p, n_samples, seed, figure_taus)``; ``panel.last_figures`` holds the figures by name
    (``"histograms"``, ``"lattice"``, ``"per_tau"``, ``"curve"``).

    Parameters
    ----------
    summarise : callable
        :func:`workbench.experiments.grampa_skew.skew_summary` (the panel computes nothing
        itself: notebooks take data from ``experiments``, plots from ``figures``).
    options : dict {name: loader}, optional
        Default :func:`workbench.datasets.vocabulary_options`.
    word, vocabulary, tau, ell_min, direction, p
        Initial values (``tau`` on ``tau_grid``).
    n_samples, seed, figure_taus
        Passed to ``summarise``.
    tau_grid : sequence of float
        The τ slider's values (put in footnote 10's order).

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
                p: float) -> SkewSummary:
        try:
            vocab = opts[vocabulary]()
        except (OSError, ValueError) as err:
            return SkewSummary(None, tau, ell_min, direction, p, n_samples, seed, None, None,
                               None, None, None, None,
                               f"cannot load vocabulary {vocabulary!r}: {err}")
        return summarise(word, vocab, tau, ell_min, direction, p, n_samples, seed,
                         figure_taus)

    memo: dict[tuple[int, ...], tuple[Any, Any]] = {}  # Figure 3 by its panels: (data, figure)
    panel = interactive_panel(
        summary, lambda result: _skew_figures(result, memo),
        **_controls(opts, word, vocabulary, tau_opts, tau, ell_min, direction, p))
    add_vocabulary_upload(panel, opts)
    return panel


_FIGURE3_KEPT = 8  # Figure 3 drawings kept per panel (words and settings a reader goes back to)


def _skew_figures(summary: SkewSummary, memo: dict[tuple[int, ...], tuple[Any, Any]]
                  ) -> dict[str, Any]:
    """Print the header and samples of a skew summary; its figures by name, in display
    order. ``memo`` keeps the last Figure 3 drawings by the identity of their cached,
    read-only panels, each with its data so that the identities stay taken: Figure 3 is
    drawn once per word and setting (the cached summary hands back the same panels)."""
    figures: dict[str, Any] = {}
    s = summary
    tau = s.tau
    print(f"τ = {tau_label(tau)}  (−1/τ = {skew_coordinate(tau):+.3g}),  ℓ_min = {s.ell_min},  "
          f"{s.direction},  p = {s.p:g};  word {s.word!r}")
    if s.panel is not None:
        panel = s.panel
        if panel.deterministic is not None:
            print("deterministic:", " | ".join(panel.deterministic))
        print("GRaMPa samples:")
        for seg in panel.examples:
            print("   ", " | ".join(seg))
        figures["histograms"] = plotly_skew_panel(
            panel, title=f"{s.word!r}, τ = {tau_label(tau)}, ℓ_min = {s.ell_min}, "
                         f"{s.direction}, p = {s.p:g}: E[m] = {panel.expected_m:.3f}")
    if s.error:
        print("error:", s.error)
    if s.lattice is not None:
        try:  # interactive: hover an arc for its token, counts and probability at τ
            figures["lattice"] = plotly_lattice(s.lattice)
        except ValueError as err:  # too large to read: a static sketch instead
            print(f"(lattice sketched without hover: {err})")
            figures["lattice"] = draw_lattice(s.lattice)
    if s.per_tau is not None:  # independent of τ and p: drawn once per word
        # and setting, as a picture (cheap in the browser; the PNG is kept, see
        # workbench.figures.panel.render_outputs)
        key = tuple(id(panel) for panel in s.per_tau.values())
        if key not in memo:
            if len(memo) >= _FIGURE3_KEPT:
                del memo[next(iter(memo))]
            memo[key] = (s.per_tau, plot_m_histograms_per_tau(
                s.per_tau, title="Figure 3 for this word (GRaMPa alone, p = 1)"))
        figures["per_tau"] = memo[key][1]
    if s.curve is not None:
        figures["curve"] = plotly_segmentality_curve(
            s.curve, current_tau=tau, current=s.current,
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
