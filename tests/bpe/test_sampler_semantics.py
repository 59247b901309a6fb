"""BPESampler's four BPE-dropout semantics against the real packages, by G-tests.

Each test draws 10^5 segmentations from the installed package (HF ``tokenizers``,
``sentencepiece``, ``subword-nmt``) with the same merges or vocabulary, and from
:class:`workbench.BPESampler` with the matching ``semantics``, and compares both with the
exact law (:meth:`BPESampler.law`) by a G-test (cells of expected count < 5 lumped); a test
passes when p > :data:`P_MIN`, and the package's samples must reject the reference law
(p < :data:`P_MIN`), so the test can fail. Seeds are fixed, except HF's: ``tokenizers``
draws dropout coins from an unseedable thread RNG, so that test fails by chance with
probability at most :data:`P_MIN` per run.
"""

from __future__ import annotations

import io
import random
from collections import Counter

import numpy as np
import pytest
from scipy.special import chdtrc

from workbench import BPESampler, Vocabulary
from workbench.bpe import BPEModel
from workbench.datasets import load_gpt2_merges, resolve_vocabulary
from workbench.datasets.loaders import sentencepiece_model_path

P_MIN = 1e-4
N = 100_000


def g_test(counts: Counter, law) -> float:
    """p-value of the G-test of ``counts`` against ``law`` (expected < 5 lumped)."""
    probs = law.probabilities()
    assert set(counts) <= set(probs), set(counts) - set(probs)
    n = sum(counts.values())
    obs = np.array([counts[s] for s in probs], dtype=float)
    exp = np.array([float(p) for p in probs.values()]) * n
    small = exp < 5
    obs = np.append(obs[~small], obs[small].sum())
    exp = np.append(exp[~small], exp[small].sum())
    keep = exp > 0
    obs, exp = obs[keep], exp[keep]
    g = 2 * float(np.sum(obs[obs > 0] * np.log(obs[obs > 0] / exp[obs > 0])))
    return float(chdtrc(len(exp) - 1, g))


def _check(package_counts, sampler, word, wrong="reference"):
    law = sampler.law(word)
    assert g_test(package_counts, law) > P_MIN
    ours = Counter(map(tuple, sampler.sample_many(word, N)))
    assert g_test(ours, law) > P_MIN
    other = BPESampler(sampler.vocab, dropout=sampler.dropout, model=sampler.model,
                       semantics=wrong).law(word)
    assert g_test(package_counts, other) < P_MIN  # the test tells the semantics apart
    return law


@pytest.mark.slow  # N tokenizers samples against the law (8 s alone)
def test_hf_semantics_matches_tokenizers():
    tokenizers = pytest.importorskip("tokenizers")
    v = resolve_vocabulary("gpt2")
    vocab = {t: int(i) for t, i in zip(v.tokens, v.ids)}
    hf = tokenizers.Tokenizer(tokenizers.models.BPE(vocab, load_gpt2_merges(), dropout=0.1))
    word = "Ġlanguage"  # the model sees the byte-level string: no pre-tokeniser
    counts = Counter(tuple(e.tokens) for e in hf.encode_batch([word] * N,
                                                              add_special_tokens=False))
    s = BPESampler(v, dropout=0.1, model=BPEModel.from_gpt2(), seed=28, semantics="hf")
    law = _check(counts, s, word)
    assert float(law.probability(("Ġlanguage",))) == pytest.approx(0.9058, abs=1e-4)


def test_sentencepiece_semantics_matches_sentencepiece():
    spm = pytest.importorskip("sentencepiece")
    sp = spm.SentencePieceProcessor(model_file=str(sentencepiece_model_path("bpe-8k")))
    spm.set_random_generator_seed(28)
    draws = sp.encode(["understanding"] * N, out_type=str, enable_sampling=True, alpha=0.1,
                      num_threads=1)
    counts = Counter(map(tuple, draws))
    s = BPESampler(resolve_vocabulary("bpe-8k"), dropout=0.1, seed=28,
                   semantics="sentencepiece")
    law = _check(counts, s, "\u2581understanding")
    assert law.deterministic == ("\u2581understand", "ing")
    assert float(law.probability(law.deterministic)) == pytest.approx(0.4635, abs=1e-4)


def test_subword_nmt_semantics_matches_subword_nmt():
    apply_bpe = pytest.importorskip("subword_nmt.apply_bpe")
    merges = [("a", "b"), ("ab", "ab"), ("b", "a"), ("abab", "ab"), ("c", "ab")]
    codes = io.StringIO("#version: 0.1\n" + "".join(f"{a} {b}\n" for a, b in merges))
    bpe = apply_bpe.BPE(codes)
    word = "abababab"  # the pair (a, b) four times, (ab, ab) twice: merged together
    state = random.getstate()  # subword-nmt draws from the global generator: put it back
    try:
        random.seed(28)
        counts = Counter(tuple(t.removesuffix("@@") for t in bpe.segment_tokens([word],
                                                                                 dropout=0.3))
                         for _ in range(N))
    finally:
        random.setstate(state)
    v = Vocabulary(["a", "b", "c", "ab", "abab", "ba", "ababab", "cab"])
    s = BPESampler(v, dropout=0.3, merges=merges, seed=28, semantics="subword-nmt")
    _check(counts, s, word)


def test_semantics_argument():
    v = Vocabulary(["a", "b", "ab"])
    with pytest.raises(ValueError, match="semantics must be one of"):
        BPESampler(v, merges=[("a", "b")], semantics="HF")
    assert "semantics='hf'" in repr(BPESampler(v, merges=[("a", "b")], semantics="hf"))
    for sem in ("reference", "hf", "sentencepiece", "subword-nmt"):
        s = BPESampler(v, merges=[("a", "b")], semantics=sem, dropout=1.0, seed=1)
        assert s.tokenize_batch(["abab", "a", ""]) == [["a", "b", "a", "b"], ["a"], []]
        zero = BPESampler(v, merges=[("a", "b")], semantics=sem, seed=1)
        assert zero.tokenize_batch(["abab"]) == [["ab", "ab"]]
        half = BPESampler(v, merges=[("a", "b")], semantics=sem, dropout=0.5, seed=3)
        assert half.tokenize_batch(["abab"] * 5) == half.reseeded(3).tokenize_batch(["abab"] * 5)
