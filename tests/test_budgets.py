"""Public calls whose memory grows with an argument refuse before allocating (BudgetError).

Each test lowers the budget of one module's check to a few kilobytes and asks for more.
"""

from __future__ import annotations

import pytest

from workbench import MarkovRejectionSampler, Vocabulary, train_greedtok
from workbench._core import validate
from workbench._core.validate import BudgetError
from workbench.greedtok import candidates
from workbench.samplers import interface


def _tiny_budget(n_bytes, what, **kwargs):
    return validate.check_budget(n_bytes, what, budget=4096)


def test_greedtok_candidate_index_is_budgeted(monkeypatch):
    monkeypatch.setattr(candidates, "check_budget", _tiny_budget)
    with pytest.raises(BudgetError, match="candidate index"):
        train_greedtok({"abcdefghij" * 20: 3, "klmnopqrst" * 20: 2}, 5)


def test_sampler_batches_are_budgeted(monkeypatch):
    monkeypatch.setattr(interface, "check_budget", _tiny_budget)
    sampler = MarkovRejectionSampler(Vocabulary.infinite(), seed=0)
    with pytest.raises(BudgetError):
        sampler.tokenize(["ab"] * 5000)
