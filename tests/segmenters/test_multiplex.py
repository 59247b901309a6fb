"""Algorithm 3 (multiplexing): rates, extremes, reproducibility, bad input."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from scipy import stats

from workbench import Grampa, Multiplexer, Vocabulary
from workbench.segmenters import default_segmenter

P_THRESHOLD = 1e-3  # statistical tests fail below this p-value (fixed seeds)
INF = Vocabulary.infinite()


def test_multiplexer_rates_and_extremes():
    vocab = Vocabulary(["a", "b", "ab"])
    det = lambda w: [w]  # noqa: E731
    words = ["ab"] * 4000
    none = Multiplexer(det, Grampa(vocab, seed=0), p=0.0, seed=1).tokenize_batch(words)
    assert none == [["ab"]] * 4000
    all_sto = Multiplexer(det, Grampa(vocab, seed=0), p=1.0, seed=1).tokenize_batch(words)
    assert Counter(map(tuple, all_sto)).keys() == {("a", "b"), ("ab",)}
    # at p = 0.3, tokenisation "a b" comes only from the stochastic side with prob 1/2
    out = Multiplexer(det, Grampa(vocab, seed=0), p=0.3, seed=1).tokenize_batch(words)
    k = sum(seg == ["a", "b"] for seg in out)
    assert stats.binomtest(k, 4000, 0.15).pvalue > P_THRESHOLD
    a = Multiplexer(det, Grampa(vocab, seed=5), p=0.5, seed=6).tokenize_batch(words[:100])
    b = Multiplexer(det, Grampa(vocab, seed=5), p=0.5, seed=6).tokenize_batch(words[:100])
    assert a == b


@pytest.mark.parametrize("p", [-0.1, 1.5, float("nan")])
def test_multiplexer_rejects_bad_p(p):
    with pytest.raises(ValueError):
        Multiplexer(list, Grampa(INF), p=p)


def _flat(words):
    cps = np.array([ord(c) for w in words for c in w], dtype=np.int32)
    return cps, np.cumsum([0] + [len(w) for w in words])


def test_flat_route_shares_one_coin_per_group():
    vocab = Vocabulary(["a", "b", "ab"], scores=[-1.0, -1.0, -0.5])
    det = default_segmenter(vocab)  # Viterbi: always "ab"
    groups = np.array([3, 0, 1, 2] * 250)
    words = ["ab"] * int(groups.sum())
    ids, offs = Multiplexer(det, Grampa(vocab, seed=2), p=0.5, seed=3).encode_code_points(
        *_flat(words), groups=groups)
    heads = np.random.default_rng(3).random(groups.size) < 0.5  # the coins, drawn alike
    assert offs.size == groups.size + 1 and offs[-1] == ids.size
    split = 0
    for g, size in enumerate(groups.tolist()):
        got = vocab.decode_ids(ids[offs[g]:offs[g + 1]])
        assert "".join(got) == "ab" * size
        if not heads[g]:
            assert got == ["ab"] * size  # tails: the deterministic segmenter for all
        split += got.count("a")
    # heads: Grampa at τ = 1 splits each "ab" with probability 1/2
    n_heads = int((groups * heads).sum())
    assert stats.binomtest(split, n_heads, 0.5).pvalue > P_THRESHOLD


def test_flat_route_equals_the_word_route():
    vocab = Vocabulary(["a", "b", "ab", "ba", "bab"], scores=[-1.0, -1.2, -1.5, -2.0, -2.5])
    words = ["abab", "bab", "", "ab", "babab", "a"] * 50
    det = default_segmenter(vocab)
    toks = Multiplexer(det, Grampa(vocab, seed=7), p=0.4, seed=8).tokenize_batch(words)
    ids, offs = Multiplexer(det, Grampa(vocab, seed=7), p=0.4, seed=8).encode_code_points(
        *_flat(words))
    assert [vocab.decode_ids(ids[offs[w]:offs[w + 1]]) for w in range(len(words))] == toks


def test_flat_route_bad_input():
    vocab = Vocabulary(["a", "b", "ab"])
    mux = Multiplexer(default_segmenter(vocab), Grampa(vocab), p=0.5)
    cps, offs = _flat(["ab", "a"])
    with pytest.raises(ValueError):
        mux.encode_code_points(cps, offs, groups=[1, 2])
    with pytest.raises(ValueError):
        mux.encode_code_points(cps, offs, groups=[3, -1])
    with pytest.raises(TypeError):
        mux.encode_code_points(cps, offs, groups=[1.0, 1.0])
    with pytest.raises(TypeError):  # a plain callable has no batch route to ids
        Multiplexer(list, Grampa(vocab), p=0.5).encode_code_points(cps, offs)
    with pytest.raises(TypeError):
        Multiplexer(list, object(), p=0.5)
