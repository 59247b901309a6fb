"""Public calls whose memory grows with an argument refuse before allocating (BudgetError).

Each test lowers the budget of one module's check to a few kilobytes and asks for more.
"""

from __future__ import annotations

import pytest

from workbench import MarkovRejectionSampler, Vocabulary, train_greedtok, wordlevel
from workbench._core import validate
from workbench._core.validate import BudgetError
from workbench.greedtok import candidates


def _tiny_budget(n_bytes, what, **kwargs):
    return validate.check_budget(n_bytes, what, budget=4096)


def test_greedtok_candidate_index_is_budgeted(monkeypatch):
    monkeypatch.setattr(candidates, "check_budget", _tiny_budget)
    with pytest.raises(BudgetError, match="candidate index"):
        train_greedtok({"abcdefghij" * 20: 3, "klmnopqrst" * 20: 2}, 5)


def test_sampler_batches_are_budgeted(monkeypatch):
    monkeypatch.setattr(wordlevel, "check_budget", _tiny_budget)
    sampler = MarkovRejectionSampler(Vocabulary.infinite(), seed=0)
    with pytest.raises(BudgetError):
        sampler.tokenize_batch(["ab"] * 5000)


def test_greedtok_encode_ids_is_budgeted(monkeypatch):
    from workbench.greedtok import encoder

    model = train_greedtok({"abcabc": 3, "abab": 2}, 3)
    monkeypatch.setattr(encoder, "check_budget", _tiny_budget)
    with pytest.raises(BudgetError, match="encoding 1,000 words"):
        model.encode_ids(["abcabc"] * 1000)
    assert model.encode_ids(["abc"])[0].size > 0


def test_bpe_encode_chunks_is_budgeted(monkeypatch):
    from workbench.bpe import BPEModel, model

    m = BPEModel([(b"a", b"b")])
    monkeypatch.setattr(model, "check_budget", _tiny_budget)
    with pytest.raises(BudgetError, match="encoding 1,000 bytes"):
        m.encode_chunks(["ab"] * 500)
    assert m.encode_chunks(["ab"]) == [[256]]


def test_pretokeniser_scan_is_budgeted(monkeypatch):
    from workbench.pretokenise import scan, scan_lines

    monkeypatch.setattr(scan, "check_budget", _tiny_budget)
    with pytest.raises(BudgetError, match="pretokenising 100 lines"):
        scan_lines(["to be or not to be"] * 100, "sentencepiece")
    assert scan_lines(["a"], "sentencepiece") is not None


def test_grampa_flat_code_points_are_budgeted(monkeypatch):
    import numpy as np

    from workbench import Grampa
    from workbench.grampa import sampler

    g = Grampa(Vocabulary(["a", "b", "ab"]), seed=0)
    cps = np.array([ord(c) for c in "ab" * 1000], dtype=np.int32)
    offsets = np.arange(0, cps.size + 1, 2, dtype=np.int64)
    monkeypatch.setattr(sampler, "check_budget", _tiny_budget)
    with pytest.raises(BudgetError, match="a batch of 1,000 words"):
        g.encode_code_points(cps, offsets)
    assert g.encode_code_points(cps[:2], offsets[:2])[0].size > 0
