"""GRaMPa refuses requests over the memory budget before allocating (issue 11, item 5)."""

from __future__ import annotations

import pytest
from hangguard import hang_guard

from workbench import Grampa, Vocabulary
from workbench._core.validate import BudgetError


def test_sample_many_and_lengths_refuse_huge_requests_promptly():
    g = Grampa(Vocabulary.infinite(), seed=0)
    with hang_guard(0.01, "refusing 10**9 samples twice"):
        with pytest.raises(BudgetError):
            g.sample_lengths("x" * 1000, 10**9)
        with pytest.raises(BudgetError):
            g.sample_many("x" * 100, 10**9)
    assert len(g.sample_many("abc", 5)) == 5


def test_distribution_refusal_is_a_budget_error():
    with pytest.raises(BudgetError, match="limited"):
        Grampa(Vocabulary.infinite()).distribution("x" * 30)
