"""A vocabulary's size is bounded before it is read whole (issue 19)."""

import time

import pytest

from workbench import Vocabulary
from workbench._core.validate import BudgetError
from workbench.vocab.vocabulary import MAX_TOKENS


def test_endless_token_stream_is_refused_after_max_tokens():
    """Fixture named after the probe: ``Vocabulary(map(str, range(10**8)))`` ran past 30 s."""
    t0 = time.perf_counter()
    with pytest.raises(BudgetError, match="MAX_TOKENS = 2,000,000"):
        Vocabulary(map(str, range(10**8)))
    assert time.perf_counter() - t0 < 10.0


def test_max_tokens_itself_is_allowed():
    assert MAX_TOKENS == 2_000_000
    v = Vocabulary(map(str, range(MAX_TOKENS)))
    assert len(v) == MAX_TOKENS and v.id_of("1999999") == 1_999_999
