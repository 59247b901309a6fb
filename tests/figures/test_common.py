"""workbench.figures.common: the one τ label and the demo word."""

from __future__ import annotations

import math

from workbench.datasets.corpora import demo_word
from workbench.experiments.grampa_skew import TAU_GRID
from workbench.figures.common import tau_label

FOOTNOTE_10 = ["0.25", "0.5", "1", "2", "5", "20", "±∞", "−20", "−10", "−5", "−2", "−1"]


def test_tau_label() -> None:
    assert [tau_label(t) for t in TAU_GRID] == FOOTNOTE_10
    assert tau_label(-math.inf) == "±∞" and tau_label(0.3) == "0.3"
    assert [tau_label(t, prefix=True) for t in (0.5, -10.0)] == ["τ = 0.5", "τ = −10"]


def test_demo_word() -> None:
    assert demo_word(0) == ""
    assert demo_word(28) == "abcdefghijklmnopqrstuvwxyzab"


def test_unvalidated_plotly_figures_are_valid(monkeypatch) -> None:
    """The slider's figures are built without plotly's validation: built with it, every
    property is accepted and the figures are the same."""
    import math

    from workbench import Lattice, Vocabulary
    from workbench.experiments import grampa_skew
    from workbench.experiments.grampa_lattice import arc_table, lattice_view
    from workbench.figures import common
    from workbench.figures.lattice_plotly import plotly_lattice
    from workbench.figures.skew_plotly import plotly_segmentality_curve, plotly_skew_panel

    small = Vocabulary(["a", "b", "c", "ab", "bc", "abc", "ca"])

    def figures() -> list:
        s = grampa_skew.skew_summary("abcabca", small, -10.0, 2, "r2l", 0.5, 300, 0)
        return [plotly_lattice(s.lattice, highlight=[(0, 1)]),
                plotly_lattice(arc_table(Lattice.build("abd", small))),
                plotly_lattice(lattice_view("abd", small)),
                plotly_skew_panel(s.panel, title="t"), plotly_skew_panel(s.panel),
                plotly_segmentality_curve(s.curve, math.inf, s.current, title="t"),
                plotly_segmentality_curve(s.curve)]

    assert common.PLOTLY_VALIDATE is False
    fast = [f.to_plotly_json() for f in figures()]
    monkeypatch.setattr(common, "PLOTLY_VALIDATE", True)
    assert [f.to_plotly_json() for f in figures()] == fast
