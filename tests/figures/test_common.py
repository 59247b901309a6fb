"""workbench.figures.common: the one τ label and the demo word."""

from __future__ import annotations

import math

from workbench.experiments.grampa_skew import TAU_GRID
from workbench.figures.common import demo_word, tau_label

FOOTNOTE_10 = ["0.25", "0.5", "1", "2", "5", "20", "±∞", "−20", "−10", "−5", "−2", "−1"]


def test_tau_label() -> None:
    assert [tau_label(t) for t in TAU_GRID] == FOOTNOTE_10
    assert tau_label(-math.inf) == "±∞" and tau_label(0.3) == "0.3"
    assert [tau_label(t, prefix=True) for t in (0.5, -10.0)] == ["τ = 0.5", "τ = −10"]


def test_demo_word() -> None:
    assert demo_word(0) == ""
    assert demo_word(28) == "abcdefghijklmnopqrstuvwxyzab"
