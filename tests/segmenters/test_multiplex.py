"""Algorithm 3 (multiplexing): rates, extremes, reproducibility, bad input."""

from __future__ import annotations

from collections import Counter

import pytest
from scipy import stats

from workbench import Grampa, Multiplexer, Vocabulary

P_THRESHOLD = 1e-3  # statistical tests fail below this p-value (fixed seeds)
INF = Vocabulary.infinite()


def test_multiplexer_rates_and_extremes():
    vocab = Vocabulary(["a", "b", "ab"])
    det = lambda w: [w]  # noqa: E731
    words = ["ab"] * 4000
    assert Multiplexer(det, Grampa(vocab, seed=0), p=0.0, seed=1).tokenize(words) == [["ab"]] * 4000
    all_sto = Multiplexer(det, Grampa(vocab, seed=0), p=1.0, seed=1).tokenize(words)
    assert Counter(map(tuple, all_sto)).keys() == {("a", "b"), ("ab",)}
    # at p = 0.3, tokenisation "a b" comes only from the stochastic side with prob 1/2
    out = Multiplexer(det, Grampa(vocab, seed=0), p=0.3, seed=1).tokenize(words)
    k = sum(seg == ["a", "b"] for seg in out)
    assert stats.binomtest(k, 4000, 0.15).pvalue > P_THRESHOLD
    a = Multiplexer(det, Grampa(vocab, seed=5), p=0.5, seed=6).tokenize(words[:100])
    b = Multiplexer(det, Grampa(vocab, seed=5), p=0.5, seed=6).tokenize(words[:100])
    assert a == b


@pytest.mark.parametrize("p", [-0.1, 1.5, float("nan")])
def test_multiplexer_rejects_bad_p(p):
    with pytest.raises(ValueError):
        Multiplexer(list, Grampa(INF), p=p)
