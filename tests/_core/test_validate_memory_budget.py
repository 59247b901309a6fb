"""The memory budget's message (:func:`check_budget`, :func:`check_size`): the need is
visibly over the budget, however close, and in a unit that fits the budget."""

from __future__ import annotations

import math
import re

import pytest

from workbench._core.validate import MEMORY_BUDGET, BudgetError, check_budget, check_size

GIB = 2**30


def _message(n_bytes, **kw) -> str:
    with pytest.raises(BudgetError) as err:
        check_budget(n_bytes, "a table", **kw)
    return str(err.value)


def test_a_need_just_over_the_budget_shows_the_exact_bytes():
    """It read "needs ~6.0 GiB, over the budget of 6.0 GiB": the need looked equal."""
    assert _message(MEMORY_BUDGET + 1) == (
        "a table needs ~6.0 GiB (6,442,450,945 bytes), over the budget of 6.0 GiB "
        "(6,442,450,944 bytes) per call")
    assert "(6,485,400,617 bytes)" in _message(6.04 * GIB)  # rounds to 6.0 too
    assert _message(0.5 + MEMORY_BUDGET).startswith("a table needs ~6.0 GiB (6,442,450,945")
    check_budget(MEMORY_BUDGET, "exactly the budget")  # not over: passes


@pytest.mark.parametrize("n_bytes, budget", [
    (MEMORY_BUDGET + 1, MEMORY_BUDGET), (6.06 * GIB, MEMORY_BUDGET), (10**12, MEMORY_BUDGET),
    (4097, 4096), (5000, 4096), (11, 10), (2**41 + 1, 2**41), (3 * 2**20 + 1, 3 * 2**20),
])
def test_the_need_as_shown_is_always_over_the_budget_as_shown(n_bytes, budget):
    msg = _message(n_bytes, budget=budget)
    need, limit = re.fullmatch(r"a table needs ~(.*), over the budget of (.*) per call",
                               msg).groups()
    assert need != limit
    exact = re.findall(r"\(([\d,]+) bytes\)", msg)
    if exact:  # the rounded figures agree: the exact counts tell them apart
        assert int(exact[0].replace(",", "")) > int(exact[1].replace(",", ""))
    else:
        assert float(need.split()[0]) > float(limit.split()[0])
        assert need.split()[1] == limit.split()[1]  # one unit for both


def test_small_budgets_are_written_in_a_unit_that_shows_them():
    """A budget of a few KiB (tests lower it) read "over the budget of 0.0 GiB"."""
    assert _message(5000, budget=4096) == ("a table needs ~4.9 KiB, over the budget of 4.0 KiB "
                                           "per call")
    assert _message(100, budget=10) == ("a table needs ~100.0 bytes, over the budget of "
                                        "10.0 bytes per call")
    assert "over the budget of 6.0 GiB per call" in _message(10**12)
    assert _message(10**12).startswith("a table needs ~931.3 GiB")


def test_astronomic_needs_are_named_not_overflowed():
    assert _message(10**400) == ("a table needs over 2^1328 bytes, over the budget of 6.0 GiB "
                                 "per call")
    assert _message(math.inf) == ("a table needs an unbounded amount, over the budget of "
                                  "6.0 GiB per call")
    assert _message(2**5000, hint=" (ask for less)").endswith("per call (ask for less)")


def test_check_size_names_the_argument_with_the_same_precision():
    with pytest.raises(BudgetError) as err:
        check_size(MEMORY_BUDGET // 8 + 1, "n_cells", item_bytes=8, what="a histogram")
    assert str(err.value) == (
        "n_cells = 805,306,369: a histogram needs ~6.0 GiB (6,442,450,952 bytes), over the "
        "budget of 6.0 GiB (6,442,450,944 bytes) per call")
    assert check_size(MEMORY_BUDGET // 8, "n_cells", item_bytes=8, what="a histogram") \
        == MEMORY_BUDGET // 8
