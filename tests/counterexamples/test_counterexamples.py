"""RANDOM-DROP and DUPLICATION BPE against the naive references, round trips, seeds."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive.counterexample_bpe import NaiveBPE, random_drop_tokens

from workbench.counterexamples import (
    DuplicationBPE,
    MergeTree,
    RandomDropBPE,
    check_bpe_model,
    token_frequencies,
    top_tokens,
)
from workbench.counterexamples.random_drop import expand_ids
from workbench.metrics import renyi_entropy, shannon_entropy, unigram_counts

TRAIN = ("the encoding of the code is encoded; decoding encodes nothing. "
         "coding, encoding, recoding: the coder codes the encoded codes. ") * 3
TEXTS = ["the encoded code", "decoding encodes", " héllo wörld ✓ 🙂", "", "   ",
         "encoding the coder's codes"]
P_THRESHOLD = 1e-3


@pytest.fixture(scope="module")
def bpe() -> NaiveBPE:
    return NaiveBPE(TRAIN, 40)


@pytest.fixture(scope="module")
def freqs(bpe) -> dict[int, int]:
    return token_frequencies(bpe, [TRAIN], progress=False)


def test_merge_tree_and_ranking(bpe, freqs):
    tree = MergeTree(bpe)
    seen = set()
    for left, right in bpe.merges:
        z = tree.id_of[left + right]
        if z not in seen:  # a token's merge is the first one that builds it
            assert tree.parts(z) == (tree.id_of[left], tree.id_of[right])
        seen.add(z)
    assert len(tree.merged_ids()) == len(bpe.merges) and not tree.is_merged(ord("a"))
    top = top_tokens(freqs, 5)
    assert [freqs[t] for t in top] == sorted(freqs.values(), reverse=True)[:5]
    with pytest.raises(TypeError, match="BPE contract"):
        check_bpe_model(object())


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n_top, k", [(5, 1), (10, 4), (40, 20), (100, 30)])
def test_random_drop_matches_naive(bpe, freqs, seed, n_top, k):
    rd = RandomDropBPE(bpe, freqs, n_top, k, seed=seed)
    assert len(rd.dropped) == k and rd.dropped <= set(rd.candidates)
    assert all(MergeTree(bpe).is_merged(t) for t in rd.dropped)
    dropped_bytes = {bpe.vocab[t] for t in rd.dropped}
    for text in TEXTS + [TRAIN]:
        toks = rd.tokens(text)
        assert toks == random_drop_tokens(bpe, text, dropped_bytes)
        assert not set(rd.encode(text)) & rd.dropped
        assert rd.decode(rd.encode(text)) == text
    assert len(rd.vocab) == len(bpe.vocab) - k
    # same seed, same D; D is drawn among the top-N merged tokens
    assert RandomDropBPE(bpe, freqs, n_top, k, seed=seed).dropped == rd.dropped


def test_random_drop_figure2():
    """Figure 2: D = {ENCOD, COD} gives EN -CO -D -ING; D = {ENCOD}: EN -COD -ING;
    D = {COD}: ENCOD -ING."""
    class Fig2:
        merges = [(b"C", b"O"), (b"CO", b"D"), (b"E", b"N"), (b"EN", b"COD"), (b"I", b"N"),
                  (b"IN", b"G")]
        vocab = {i: bytes([i]) for i in range(256)}
        for left, right in merges:
            vocab[len(vocab)] = left + right

        def tokens(self, text):
            return [b"ENCOD", b"ING"] if text == "ENCODING" else []

        def encode(self, text):
            ids = {b: i for i, b in self.vocab.items()}
            return [ids[t] for t in self.tokens(text)]

        def encode_chunks(self, chunks):
            return [self.encode(c) for c in chunks]

        def decode(self, ids):
            return b"".join(self.vocab[i] for i in ids).decode()

    m = Fig2()
    ids = {b: i for i, b in m.vocab.items()}
    want = {frozenset({b"ENCOD", b"COD"}): [b"EN", b"CO", b"D", b"ING"],
            frozenset({b"ENCOD"}): [b"EN", b"COD", b"ING"],
            frozenset({b"COD"}): [b"ENCOD", b"ING"]}
    for dropped, tokens in want.items():
        freqs = {ids[b]: 10 for b in dropped}
        rd = RandomDropBPE(m, freqs, n_top=len(dropped), k=len(dropped), seed=0)
        assert rd.dropped == {ids[b] for b in dropped}
        assert rd.tokens("ENCODING") == tokens and rd.decode(rd.encode("ENCODING")) == "ENCODING"


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=30), st.lists(st.integers(0, 3), min_size=6,
                                                          max_size=6))
def test_expand_ids_against_loop(ids, lengths):
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    flat = np.arange(int(offsets[-1])) * 10
    want = [int(x) for t in ids for x in flat[offsets[t]:offsets[t + 1]]]
    assert expand_ids(np.array(ids, dtype=np.int64), offsets, flat).tolist() == want


def test_random_drop_bad_input(bpe, freqs):
    with pytest.raises(ValueError):
        RandomDropBPE(bpe, freqs, 5, 6)
    with pytest.raises(ValueError):
        RandomDropBPE(bpe, freqs, 0, 1)
    with pytest.raises(TypeError):
        RandomDropBPE(bpe, freqs, 5, 1.0)
    with pytest.raises(TypeError):
        RandomDropBPE(object(), freqs, 5, 1)


@pytest.mark.parametrize("n_top, k", [(1, 2), (10, 3), (50, 10)])
def test_duplication_roundtrip_and_seeds(bpe, freqs, n_top, k):
    d = DuplicationBPE(bpe, freqs, n_top, k, seed=7)
    assert len(d.vocab) == len(bpe.vocab) + (k - 1) * n_top
    assert d.duplicated == tuple(top_tokens(freqs, n_top, among=bpe.vocab))
    for text in TEXTS + [TRAIN]:
        ids = d.encode(text)
        assert d.canonical(ids) == bpe.encode(text)
        assert d.decode(ids) == text
        assert d.tokens(text) == bpe.tokens(text)  # same surface forms
    # same seed → same ids (fresh objects, and per-call seeds)
    assert (DuplicationBPE(bpe, freqs, n_top, k, seed=3).encode(TRAIN)
            == DuplicationBPE(bpe, freqs, n_top, k, seed=3).encode(TRAIN))
    assert d.encode(TRAIN, seed=11) == d.encode(TRAIN, seed=11)
    with pytest.raises(ValueError):
        d.canonical([len(d.vocab) + 300])


def test_duplication_uniform_and_entropy(bpe, freqs):
    """Copies are uniform (chi-square, fixed seed, p > 1e-3), and over a long text Shannon
    entropy rises by ≈ Σ_x p_x log2 k (Theorem 4.2 in expectation, up to sampling noise)."""
    from scipy.stats import chisquare

    k = 4
    d = DuplicationBPE(bpe, freqs, 3, k, seed=2024)
    text = TRAIN * 20
    ids = d.encode(text)
    for t in d.duplicated:
        hist = Counter(i for i in ids if i in d.copies[t])
        observed = [hist[c] for c in d.copies[t]]
        assert chisquare(observed).pvalue > P_THRESHOLD
    base = unigram_counts([bpe.encode(text)])
    dup = unigram_counts([ids])
    total = sum(base.values())
    gain = sum(base[t] / total for t in d.duplicated) * math.log2(k)
    assert abs(shannon_entropy(dup) - shannon_entropy(base) - gain) < 0.01
    for a in (0.5, 2.5, 3.0):
        assert renyi_entropy(dup, a) > renyi_entropy(base, a)


def test_duplication_bad_input(bpe, freqs):
    with pytest.raises(ValueError):
        DuplicationBPE(bpe, freqs, 3, 1)
    with pytest.raises(ValueError):
        DuplicationBPE(bpe, freqs, 10**6, 2)
    d = DuplicationBPE(bpe, freqs, 3, 2, seed=0)
    with pytest.raises(ValueError):
        d.substitute([-1])
