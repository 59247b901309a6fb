"""Grampa.arc_probabilities (the table notebooks 01–02 draw) against the naive reference."""

from __future__ import annotations

import math

import matplotlib
import pytest

matplotlib.use("Agg")


from naive import grampa as naive  # noqa: E402

from workbench import Vocabulary  # noqa: E402
from workbench.grampa import arc_probabilities  # noqa: E402

PROB_RTOL = 1e-9


@pytest.mark.parametrize("direction", ["l2r", "r2l"])
@pytest.mark.parametrize("tau,ell_min", [(1.0, 1), (5.0, 2), (-10.0, 1), (math.inf, 3)])
def test_arc_probabilities_match_naive(tau, ell_min, direction):
    for word, vocab in naive.small_cases(1):
        ref = naive.transition_probabilities(word, set(vocab), tau, ell_min, direction)
        comp = arc_probabilities(word, Vocabulary(vocab), tau, ell_min, direction)
        ref = {k: v for k, v in ref.items() if v > 0}
        assert comp.keys() == ref.keys()
        for k in ref:
            assert comp[k] == pytest.approx(ref[k], rel=PROB_RTOL)
