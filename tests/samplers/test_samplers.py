"""BPE(-dropout), ULM k-best and MaxMatch(-dropout) samplers: references, SentencePiece, laws."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from naive import samplers as naive

from workbench import SegmentationError, Vocabulary, datasets
from workbench.bpe.sampler import BPESampler, merges_from_vocabulary
from workbench.samplers.maxmatch import MaxMatchSampler
from workbench.samplers.ulm import ULMSampler
from workbench.stats import chisquare_test

P_THRESHOLD = 1e-4
N_SAMPLES = 20_000
SCORE_TOL = 1e-9


def _shakespeare_words(k: int) -> list[str]:
    words = sorted(set(datasets.load_text("shakespeare").split()))
    rng = np.random.default_rng(0)
    return [words[i] for i in rng.choice(len(words), size=k, replace=False)]


def test_bpe_matches_sentencepiece_bpe():
    spm = pytest.importorskip("sentencepiece")
    sp = spm.SentencePieceProcessor(model_file=str(datasets.sentencepiece_model_path("bpe-8k")))
    v = datasets.load_vocabulary("bpe-8k")
    words = _shakespeare_words(3000)
    ours = BPESampler(v, seed=0).tokenize_batch(["\u2581" + w for w in words])
    assert ours == sp.encode(words, out_type=str)


def test_bpe_dropout_bounds_and_ids():
    v = datasets.load_vocabulary("bpe-8k")
    words = ["\u2581" + w for w in _shakespeare_words(200)]
    full = BPESampler(v, dropout=1.0, seed=0).tokenize_batch(words)
    assert all(toks == list(w) for toks, w in zip(full, words))  # p_d = 1: characters
    s = BPESampler(v, dropout=0.1, seed=4)
    ids, offs = s.encode_flat(words)
    again = BPESampler(v, dropout=0.1, seed=4).tokenize_batch(words)
    for w, toks in enumerate(again):
        assert "".join(toks) == words[w]
        assert v.decode_ids(ids[offs[w]:offs[w + 1]]) == toks
    base = BPESampler(v).tokenize_batch(words)
    changed = np.mean([a != b for a, b in zip(again, base)])
    assert 0.02 < changed < 0.6  # dropout 0.1 regularises some words, not most


def test_merges_from_small_vocabulary():
    v = Vocabulary(["a", "b", "ab", "abb", "bb"], scores=[-9.0, -9.0, 0.0, -1.0, -2.0])
    assert merges_from_vocabulary(v) == [("a", "b"), ("ab", "b"), ("b", "b")]
    assert BPESampler(v).sample("abbab") == ["abb", "ab"]
    with pytest.raises(TypeError):
        BPESampler(Vocabulary.infinite())


@pytest.mark.parametrize("k", [1, 3, 8])
def test_ulm_kbest_matches_enumeration(k):
    tokens = ["a", "b", "c", "ab", "bc", "abc", "ca"]
    scores = [-1.0, -1.2, -0.7, -1.9, -2.2, -3.1, -1.4]
    v = Vocabulary(tokens, scores=scores)
    ref = naive.kbest("abcabca", dict(zip(tokens, scores)), k)
    segs, probs = ULMSampler(v, nbest=k, alpha=0.5).kbest("abcabca")
    got = [sum(dict(zip(tokens, scores))[t] for t in s) for s in segs]
    assert got == pytest.approx([sc for sc, _ in ref], abs=SCORE_TOL)
    w = [math.exp(0.5 * s) for s in got]
    assert probs == pytest.approx([x / sum(w) for x in w], rel=1e-12)


def test_ulm_matches_sentencepiece():
    spm = pytest.importorskip("sentencepiece")
    path = datasets.sentencepiece_model_path("ulm-8k")
    sp = spm.SentencePieceProcessor(model_file=str(path))
    v = datasets.load_vocabulary("ulm-8k")
    words = _shakespeare_words(1000)
    assert ULMSampler(v).tokenize_batch(["\u2581" + w for w in words]) == \
        sp.encode(words, out_type=str)
    plain, via_sp = ULMSampler(v, nbest=16), ULMSampler(v, nbest=16, model_path=path)
    for w in words[:300]:
        a, b = plain.kbest("\u2581" + w)[0], via_sp.kbest("\u2581" + w)[0]
        assert sorted(a) == sorted(b)


def test_ulm_sentencepiece_route_bare_marker_falls_back():
    """SentencePiece lists nothing for the empty string: the bare "▁" piece (P2 puts it before
    digits) used to raise SegmentationError on the model_path route."""
    pytest.importorskip("sentencepiece")
    v = datasets.load_vocabulary("ulm-8k")
    path = datasets.sentencepiece_model_path("ulm-8k")
    via_sp = ULMSampler(v, nbest=64, alpha=0.15, model_path=path, seed=0)
    assert via_sp.kbest("\u2581") == ULMSampler(v, nbest=64, alpha=0.15).kbest("\u2581")
    assert via_sp.tokenize_batch(["\u2581", "\u2581the"])[0] == ["\u2581"]


def test_ulm_sampling_law_chi_square():
    tokens = ["a", "b", "c", "ab", "bc", "abc", "ca"]
    scores = [-1.0, -1.2, -0.7, -1.9, -2.2, -3.1, -1.4]
    s = ULMSampler(Vocabulary(tokens, scores=scores), nbest=5, alpha=0.7, seed=3)
    segs, probs = s.kbest("abcab")
    c = Counter(tuple(x) for x in s.tokenize_batch(["abcab"] * N_SAMPLES))
    assert set(c) <= set(segs)
    assert chisquare_test(np.array([c[x] for x in segs]), probs)[1] > P_THRESHOLD


@pytest.mark.parametrize("q", [0.0, 0.3, 0.8])
def test_maxmatch_dropout_law(q):
    vocab = {"a", "b", "ab", "ba", "aba", "abab", "bab"}
    word = "ababab"
    law = naive.maxmatch_dropout_law(word, vocab, q)
    s = MaxMatchSampler(Vocabulary(sorted(vocab)), dropout=q, seed=7)
    samples = s.tokenize_batch([word] * N_SAMPLES)
    c = Counter(tuple(x) for x in samples)
    support = sorted(k for k, p in law.items() if p > 0)
    assert set(c) <= set(support)
    if len(support) > 1:
        assert chisquare_test(np.array([c[x] for x in support]),
                              [float(law[x]) for x in support])[1] > P_THRESHOLD


def test_maxmatch_is_longest_match_and_refuses_gaps():
    from workbench.segmenters import longest_match

    v = datasets.load_vocabulary("ulm-8k")
    words = ["\u2581" + w for w in _shakespeare_words(300)]
    assert MaxMatchSampler(v).tokenize_batch(words) == [longest_match(w, v) for w in words]
    with pytest.raises(SegmentationError):
        MaxMatchSampler(Vocabulary(["a"]), dropout=0.5).sample("ab")
