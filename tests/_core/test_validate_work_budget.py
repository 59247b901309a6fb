"""The time budget (issue 19): :func:`check_work` refuses before any work, naming the cost."""

from __future__ import annotations

import math

import pytest
from hangguard import hang_guard

from workbench._core import validate
from workbench._core.validate import WORK_BUDGET_SECONDS, BudgetError, check_work


def test_under_the_budget_passes_silently():
    assert check_work(10, "tiny", rate=1.0) is None
    assert check_work(WORK_BUDGET_SECONDS * 1e6, "exactly the budget", rate=1e6) is None


def test_over_the_budget_is_refused_with_what_seconds_budget_and_hint():
    with pytest.raises(BudgetError) as info:
        check_work(3e9, "sample_many(n=3000000000)", rate=1e7, hint=" (ask for fewer samples)")
    msg = str(info.value)
    assert msg.startswith("sample_many(n=3000000000) would take ~3e+02 s")
    assert f"time budget of {WORK_BUDGET_SECONDS:g} s" in msg
    assert msg.endswith("(ask for fewer samples)")
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("units", [2**5000, math.inf])
def test_astronomic_work_is_refused_not_overflowed(units):
    with pytest.raises(BudgetError, match="time budget"):
        check_work(units, "astronomic", rate=1e9)


def test_explicit_budget_and_module_default_read_at_call_time(monkeypatch):
    with pytest.raises(BudgetError, match="budget of 1 s"):
        check_work(2, "two seconds", rate=1.0, budget_seconds=1.0)
    check_work(2, "two seconds", rate=1.0)
    monkeypatch.setattr(validate, "WORK_BUDGET_SECONDS", 1.0)
    with pytest.raises(BudgetError, match="budget of 1 s"):
        check_work(2, "two seconds", rate=1.0)


def test_sized_inputs_are_budgeted_before_numpy_converts_them():
    """Fixture named after the probe: ``stats.frequencies(range(10**9))`` ran out of memory
    converting its lazy input; now refused by name before any allocation."""
    from workbench import metrics, stats
    from workbench._core.validate import BudgetError

    for call in (lambda: stats.frequencies(range(10**9)),
                 lambda: metrics.shannon_entropy(range(10**9))):
        with hang_guard(0.01, "refusing 10**9 counts"), \
                pytest.raises(BudgetError, match=r"len\(counts\) = 1,000,000,000"):
            call()
    assert stats.frequencies(range(1, 4)).tolist() == [1 / 6, 2 / 6, 3 / 6]
