"""A vocabulary's size is bounded before it is read whole (issue 19)."""

import numpy as np
import pytest
from hangguard import hang_guard

from workbench import Vocabulary
from workbench._core.validate import BudgetError
from workbench.vocab.vocabulary import MAX_TOKENS


def test_endless_token_stream_is_refused_after_max_tokens():
    """Fixture named after the probe: ``Vocabulary(map(str, range(10**8)))`` ran past 30 s."""
    with hang_guard(0.3, "refusing an endless token stream"), \
            pytest.raises(BudgetError, match="MAX_TOKENS = 2,000,000"):
        Vocabulary(map(str, range(10**8)))


def test_max_tokens_itself_is_allowed():
    assert MAX_TOKENS == 2_000_000
    v = Vocabulary(map(str, range(MAX_TOKENS)))
    assert len(v) == MAX_TOKENS and v.id_of("1999999") == 1_999_999


def test_ids_are_bounded_at_construction():
    """An id of 10**12 is refused by name, before any per-id table could be asked for."""
    with pytest.raises(ValueError, match=r"below 2\*\*31 - 1, got 1000000000000"):
        Vocabulary(["a"], ids=[10**12], scores=[-1.0])


def test_scores_by_id_refuses_sparse_ids_over_the_budget():
    """The largest allowed id would need a 16 GiB table: a BudgetError, not a MemoryError."""
    v = Vocabulary(["a", "b"], ids=[0, 2**31 - 2], scores=[-1.0, -2.0])
    with hang_guard(0.01, "refusing a 16 GiB score table"), \
            pytest.raises(BudgetError, match=r"scores by id .*2,147,483,646.*over the budget"):
        v.scores_by_id()
    assert Vocabulary(["a"]).scores_by_id() is None  # no scores: nothing allocated


def test_scores_by_id_within_the_budget_is_allowed():
    v = Vocabulary(["a", "b"], ids=[0, 10**6], scores=[-1.0, -2.0])
    out = v.scores_by_id(-np.inf)
    assert out.shape == (10**6 + 1,) and out[10**6] == -2.0 and out[1] == -np.inf
