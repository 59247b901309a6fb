"""GRaMPa refuses requests over the memory budget before allocating (issue 11, item 5)."""

from __future__ import annotations

import time

import pytest

from workbench import Grampa, Vocabulary
from workbench._core.validate import BudgetError


def test_sample_many_and_lengths_refuse_huge_requests_promptly():
    g = Grampa(Vocabulary.infinite(), seed=0)
    start = time.perf_counter()
    with pytest.raises(BudgetError):
        g.sample_lengths("x" * 1000, 10**9)
    with pytest.raises(BudgetError):
        g.sample_many("x" * 100, 10**9)
    assert time.perf_counter() - start < 1.0
    assert len(g.sample_many("abc", 5)) == 5


def test_distribution_refusal_is_a_budget_error():
    with pytest.raises(BudgetError, match="limited"):
        Grampa(Vocabulary.infinite()).distribution("x" * 30)
