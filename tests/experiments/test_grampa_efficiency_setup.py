"""workbench.experiments.grampa_efficiency_setup: the memory budget of the count arrays by id
(the setups of the shipped text are tested with the figure, in ``test_grampa_efficiency.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from workbench import Vocabulary
from workbench._core.validate import MEMORY_BUDGET, BudgetError
from workbench.experiments.grampa_efficiency_setup import BYTES_PER_ID, Setup


def _setup(ids: list[int]) -> Setup:
    vocab = Vocabulary(["a", "b", "ab"], ids=ids)
    return Setup("bpe", vocab, ("ab",), ("ab",), np.array([3], np.int64), (("ab",),),
                 model=None)


def test_a_sparse_huge_id_is_refused_before_any_array() -> None:
    largest = 2**31 - 2  # one slot per id up to it: ~48 GiB of count arrays
    with pytest.raises(BudgetError, match=r"2,147,483,646, for 3 tokens.*renumber"):
        _setup([0, 1, largest])
    just_over = MEMORY_BUDGET // BYTES_PER_ID + 1  # size = largest + 1 slots
    with pytest.raises(BudgetError, match="over the budget"):
        _setup([0, 1, just_over])


def test_ids_within_the_budget_size_the_count_arrays() -> None:
    setup = _setup([0, 1, 7])
    assert setup.size == 8
    assert setup.deterministic_counts.tolist() == [0, 0, 0, 0, 0, 0, 0, 3]
    largest = MEMORY_BUDGET // BYTES_PER_ID - 1  # exactly the budget: made, nothing allocated
    assert _setup([0, 1, largest]).size == largest + 1
