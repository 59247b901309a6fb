"""Notebook 02's panel: the plotly views of a skew summary bound to controls.

:func:`skew_widget` binds a summary function (the notebook passes
:func:`workbench.experiments.grampa_skew.skew_summary`: everything the panel shows for one
word, cached by what each part depends on) to controls and draws
its result with plotly (hover shows the numbers; the browser draws them): the histograms,
the lattice, the segmentality curve and Figure 3 (which does not depend on τ or p: drawn
once per word and setting, the same figure shown again); a lattice past its readable size is
a static matplotlib sketch.

This module computes no law and draws no figure itself; those are in
:mod:`workbench.experiments.grampa_skew`, :mod:`.skew_plotly`, :mod:`.lattice`
 and :mod:`.lattice_plotly`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .._core.errors import InvalidValueError
from ..datasets.catalog import vocabulary_options
from ..experiments.grampa_skew import PAPER_TAUS, TAU_SLIDER_GRID, SkewSummary, skew_coordinate
from ..vocab import Vocabulary
from .common import tau_label
from .lattice import draw_lattice
from .lattice_plotly import plotly_lattice
from .panel import add_vocabulary_upload, interactive_panel
from .panel_neighbours import warm_neighbours
from .skew_plotly import (
    plotly_m_histograms_per_tau,
    plotly_segmentality_curve,
    plotly_skew_panel,
)

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
    warm: bool = False,
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
    sketch past its size limit) and Figure 3 (:func:`~.skew_plotly.plotly_m_histograms_per_tau`:
    it does not change with τ or p, so the same figure is shown again).

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
    warm : bool, default False
        Also compute the summaries one step of one control away
        (:func:`~.panel_neighbours.warm_neighbours`: a neighbouring vocabulary loaded, its
        tries built, the laws and samples cached, the figures drawn and serialised), so
        that the first move of any control only updates what is shown. A reader's panel
        warms; a panel made for checks need not.

    Returns
    -------
    ipywidgets.interactive
    """
    opts = dict(options) if options is not None else vocabulary_options()
    if vocabulary not in opts:
        vocabulary = "infinite" if "infinite" in opts else next(iter(opts))
    tau_opts = _tau_options(tau_grid)
    if float(tau) not in [v for _, v in tau_opts]:
        raise InvalidValueError(f"tau={tau} is not on the slider's grid")

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

    memo = _FigureMemo()

    def figures(result: SkewSummary) -> dict[str, Any]:
        return _skew_figures(result, memo)

    panel = interactive_panel(
        summary, figures,
        **_controls(opts, word, vocabulary, tau_opts, tau, ell_min, direction, p))
    add_vocabulary_upload(panel, opts)
    if warm:
        warm_neighbours(panel, summary, panel.draw)  # figures drawn and serialised
    return panel


_KEPT = 64  # figures kept per panel (settings a reader goes back to)


class _FigureMemo:
    """The figures a panel drew, by the identity of the cached, read-only data each was
    drawn from (and the scalars it shows): a figure whose data did not change with the
    control moved is the same object again, which the panel's view leaves untouched. Each
    entry keeps its data, so the identities in the keys stay taken."""

    def __init__(self) -> None:
        self.entries: dict[tuple[Any, ...], tuple[Any, Any]] = {}

    def get(self, key: tuple[Any, ...], data: Any, make: Callable[[], Any]) -> Any:
        if key not in self.entries:
            if len(self.entries) >= _KEPT:
                del self.entries[next(iter(self.entries))]
            self.entries[key] = (data, make())
        return self.entries[key][1]


def _skew_figures(summary: SkewSummary, memo: _FigureMemo) -> dict[str, Any]:
    """Print the header and samples of a skew summary; its figures by name, in display
    order. The parts of a summary are cached (the same objects for the same setting), so
    each figure is drawn once per part it shows (``memo``): a p step redraws the
    histograms only, Figure 3 is drawn once per word and setting."""
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
        title = (f"{s.word!r}, τ = {tau_label(tau)}, ℓ_min = {s.ell_min}, {s.direction}, "
                 f"p = {s.p:g}: E[m] = {panel.expected_m:.3f}")
        figures["histograms"] = memo.get(("histograms", id(panel), title), panel,
                                         lambda: plotly_skew_panel(panel, title=title))
    if s.error:
        print("error:", s.error)
    if s.lattice is not None:
        lattice = s.lattice
        try:  # interactive: hover an arc for its token, counts and probability at τ
            figures["lattice"] = memo.get(("lattice", id(lattice)), lattice,
                                          lambda: plotly_lattice(lattice))
        except ValueError as err:  # too large to read: a static sketch instead
            print(f"(lattice sketched without hover: {err})")
            figures["lattice"] = memo.get(("sketch", id(lattice)), lattice,
                                          lambda: draw_lattice(lattice))
    if s.per_tau is not None:  # independent of τ and p: drawn once per word and setting
        per_tau = s.per_tau
        figures["per_tau"] = memo.get(
            ("per_tau", *(id(panel) for panel in per_tau.values())), per_tau,
            lambda: plotly_m_histograms_per_tau(
                per_tau, title="Figure 3 for this word (GRaMPa alone, p = 1)"))
    if s.curve is not None:
        curve, current = s.curve, s.current
        figures["curve"] = memo.get(
            ("curve", id(curve), tau, current), curve,
            lambda: plotly_segmentality_curve(
                curve, current_tau=tau, current=current,
                title="Figures 4 and 8 for this word: exact mean ± sd of S (p = 1); "
                      "hover the points"))
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
