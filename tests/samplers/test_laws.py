"""Exact laws of the chain and rejection samplers (``law(word)``) against brute force and samples.

Brute force: :mod:`tests.naive.laws` walks every coin sequence / boundary mask (exact
Fractions for rational parameters). Sampling: fixed seeds, Pearson chi-square with the cells
of expected count < 5 lumped into one, passing when p > :data:`P_MIN`; every sample must lie
in the law's support.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction as F

import numpy as np
import pytest
from naive import grampa as naive_grampa
from naive import laws as naive

from workbench import (
    BitRejectionSampler,
    Grampa,
    MarkovRejectionSampler,
    MaxMatchSampler,
    SegmentationError,
    ULMSampler,
    UnigramRejectionSampler,
    Vocabulary,
)
from workbench._core.validate import BudgetError
from workbench.interfaces import LawSampler
from workbench.samplers.laws import maxmatch_law, weighted_law
from workbench.stats import chisquare_lumped

#: A sampling test fails when the chi-square p-value is below this (fixed seeds).
P_MIN = 1e-4
#: Float laws equal the brute force within this (relative).
REL = 1e-12

TOKENS = ["a", "b", "c", "ab", "bc", "ca", "abc", "bca", "abca", "cab"]
SCORES = [-1.0, -1.7, -2.1, -1.35, -2.45, -2.9, -3.3, -3.75, -4.6, -4.05]
SCORED = Vocabulary(TOKENS, scores=SCORES)
WORDS = ["abcabc", "abcab", "cabca", "bcabca", "abcabcab", "a", ""]


def _assert_close(law, ref, failure=0.0):
    probs, ref_probs = law.probabilities(), ref
    assert set(probs) == set(ref_probs)
    for s, p in ref_probs.items():
        assert float(probs[s]) == pytest.approx(float(p), rel=REL, abs=1e-15)
    assert float(law.failure_mass) == pytest.approx(float(failure), abs=1e-15)


# ------------------------------------------------------------------ MaxMatch-dropout
MM_VOCABS = [
    {"a", "ab", "abc", "d"},
    {"a", "b", "c", "ab", "abc", "bc", "ca"},
    {"a", "b", "ab", "abb", "ba", "bab"},
    {"ab", "abab", "b", "ba"},
]


@pytest.mark.parametrize("tokens", MM_VOCABS)
@pytest.mark.parametrize("q", [F(0), F(1, 3), F(1, 2), F(1)])
def test_maxmatch_law_equals_every_coin_sequence_exactly(tokens, q):
    for word in ["abcd", "abcabc", "ababab", "abba", "babab", "bcabd", "abab"]:
        if not set(word) <= set("".join(tokens)):
            continue
        law = maxmatch_law(word, frozenset(tokens), max(map(len, tokens)), q)
        ref, fail = naive.maxmatch_coins(word, tokens, q)
        assert law.exact and law.probabilities() == ref and law.failure_mass == fail, word
        assert sum(law.probabilities().values()) + law.failure_mass == 1


def test_maxmatch_dropout_failure_is_carried_and_raised():
    v = Vocabulary(["a", "ab", "abc", "d"])
    law = MaxMatchSampler(v, dropout=0.5).law("abcd")
    assert law.probabilities() == {("abc", "d"): 0.5} and law.failure_mass == 0.5
    assert law.deterministic == ("abc", "d") and law.regularisation_rate == 0.5
    s = MaxMatchSampler(v, dropout=0.5, seed=2026)
    fails = 0
    for _ in range(2000):
        try:
            assert s.sample("abcd") == ["abc", "d"]
        except SegmentationError as err:
            assert "stuck" in str(err)
            fails += 1
    assert abs(fails - 1000) < 4 * math.sqrt(2000 * 0.25)  # 4 sigma of Binomial(2000, 1/2)


def test_maxmatch_law_of_the_sampler_and_its_samples():
    v = Vocabulary(sorted(MM_VOCABS[1]))
    s = MaxMatchSampler(v, dropout=0.3, seed=7)
    law = s.law("abcabca")
    ref, fail = naive.maxmatch_coins("abcabca", MM_VOCABS[1], F(3, 10))
    _assert_close(law, ref, fail)
    assert law.failure_mass == 0 and law.deterministic == ("abc", "abc", "a")
    _sampling_test(s, "abcabca", law, 20000)


# ------------------------------------------------------------------ ULM
@pytest.mark.parametrize("word", WORDS[:5])
@pytest.mark.parametrize("k, alpha", [(1, 1.0), (3, 0.5), (5, 1.0), (1024, 0.2)])
def test_ulm_kbest_law_equals_brute_force(word, k, alpha):
    law = ULMSampler(SCORED, nbest=k, alpha=alpha).law(word)
    ref, _ = naive.kbest_law(word, dict(zip(TOKENS, SCORES)), k, alpha)
    _assert_close(law, ref)
    assert law.deterministic == next(iter(naive.kbest_law(word, dict(zip(TOKENS, SCORES)),
                                                          1, 1.0)[0]))
    assert law.n_segmentations == len(naive.boundary_law(word, set(TOKENS), lambda s: 1)[0])


@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("alpha", [0.0, 0.3, 1.0, -0.5])
def test_ulm_all_segmentations_law_equals_brute_force(word, alpha):
    score = dict(zip(TOKENS, SCORES))
    law = ULMSampler(SCORED, nbest=-1, alpha=alpha).law(word)
    ref, _ = naive.boundary_law(word, set(TOKENS),
                                lambda s: math.exp(alpha * sum(score[t] for t in s)))
    _assert_close(law, ref)


@pytest.mark.parametrize("word", WORDS)
def test_ulm_all_segmentations_law_when_ids_are_not_positions(word):
    """The bug this caught: the chain indexed ``vocab.scores`` (by position) with the arc
    table's token *ids*; ``ulm-8k``'s ids start at 1 (0 is ``<unk>``), so every token took
    its neighbour's score. Here the ids are a shuffle of the positions, shifted."""
    ids = [7 + 3 * k for k in reversed(range(len(TOKENS)))]
    shuffled = Vocabulary(TOKENS, ids=ids, scores=SCORES)
    score = dict(zip(TOKENS, SCORES))
    ulm = ULMSampler(shuffled, nbest=-1, alpha=0.7)
    ref, _ = naive.boundary_law(word, set(TOKENS),
                                lambda s: math.exp(0.7 * sum(score[t] for t in s)))
    _assert_close(ulm.law(word), ref)
    assert ulm.law(word).deterministic == next(iter(naive.kbest_law(word, score, 1, 1.0)[0]))


def test_ulm_alpha_zero_equals_grampa_tau_one_equals_uniform():
    word = "abcabcab"
    ulm = ULMSampler(SCORED, nbest=-1, alpha=0.0).law(word)
    grampa = Grampa(SCORED, tau=1.0).law(word)
    uniform = MarkovRejectionSampler(SCORED).law(word)
    n = uniform.n_segmentations
    assert uniform.exact and set(uniform.probabilities().values()) == {F(1, n)}
    for law in (ulm, grampa):
        _assert_close(law, uniform.probabilities())
        assert law.kl_to_uniform == pytest.approx(0.0, abs=1e-12)
        assert float(law.tv_to_uniform) == pytest.approx(0.0, abs=1e-12)


def test_ulm_all_segmentations_samples_follow_the_law():
    s = ULMSampler(SCORED, nbest=-1, alpha=1.0, seed=11)
    _sampling_test(s, "abcabca", s.law("abcabca"), 20000)
    assert s.reseeded(3).sample_many("abcab", 4) == s.reseeded(3).sample_many("abcab", 4)
    with pytest.raises(ValueError, match="nbest=-1"):
        s.kbest("abc")
    with pytest.raises(ValueError):
        ULMSampler(SCORED, nbest=0)
    with pytest.raises(SegmentationError):
        s.sample("abd")


def test_ulm_kbest_samples_follow_the_law():
    s = ULMSampler(SCORED, nbest=6, alpha=0.7, seed=5)
    _sampling_test(s, "abcabca", s.law("abcabca"), 20000)


# ------------------------------------------------------------------ rejection and GRaMPa
@pytest.mark.parametrize("word", WORDS)
def test_rejection_laws_equal_brute_force(word):
    n = len(word)
    uniform = MarkovRejectionSampler(SCORED).law(word)
    ref, _ = naive.boundary_law(word, set(TOKENS), lambda s: F(1))
    assert uniform.probabilities() == ref
    p = 0.3
    bits = BitRejectionSampler(SCORED, p=p).law(word)
    ref, _ = naive.boundary_law(word, set(TOKENS),
                                lambda s: p ** (len(s) - 1) * (1 - p) ** (n - len(s)))
    _assert_close(bits, ref)
    score = dict(zip(TOKENS, SCORES))
    uni = UnigramRejectionSampler(SCORED).law(word)
    ref, _ = naive.boundary_law(word, set(TOKENS),
                                lambda s: math.exp(sum(score[t] for t in s)))
    _assert_close(uni, ref)
    assert uni.probabilities() == pytest.approx(
        ULMSampler(SCORED, nbest=-1, alpha=1.0).law(word).probabilities(), rel=REL)


@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("tau, ell_min, direction", [(0.5, 1, "l2r"), (-2.0, 2, "r2l"),
                                                     (3.0, 2, "l2r")])
def test_grampa_law_equals_the_naive_walk(word, tau, ell_min, direction):
    law = Grampa(SCORED, tau=tau, ell_min=ell_min, direction=direction).law(word)
    ref = naive_grampa.segmentation_distribution(word, set(TOKENS), tau, ell_min, direction)
    _assert_close(law, {s: p for s, p in ref.items() if p})
    assert law.n_segmentations == len(naive.boundary_law(word, set(TOKENS), lambda s: 1)[0])


@pytest.mark.parametrize("word", WORDS[:5])
def test_bit_weights_give_an_exact_law(word):
    p, n = F(3, 10), len(word)

    def bits(seg):
        return p ** (len(seg) - 1) * (1 - p) ** (n - len(seg))

    law = weighted_law(word, SCORED, bits)
    assert law.exact and law.probabilities() == naive.boundary_law(word, set(TOKENS), bits)[0]


@pytest.mark.parametrize("tau", [1.0, 0.5, -2.0])
def test_grampa_law_is_its_distribution(tau):
    g = Grampa(SCORED, tau=tau, seed=1)
    law = g.law("abcabcab")
    assert law.probabilities() == pytest.approx(g.distribution("abcabcab"))
    assert law.deterministic is None
    with pytest.raises(ValueError, match="deterministic"):
        _ = law.regularisation_rate
    assert float(law.expected_tokens) == pytest.approx(
        sum(len(s) * q for s, q in g.distribution("abcabcab").items()), rel=1e-12)


@pytest.mark.parametrize("make", [
    lambda: Grampa(SCORED, tau=0.5, seed=3),
    lambda: BitRejectionSampler(SCORED, p=0.3, seed=3),
    lambda: UnigramRejectionSampler(SCORED, seed=3),
])
def test_samples_follow_the_law(make):
    s = make()
    _sampling_test(s, "abcabca", s.law("abcabca"), 20000)


def test_the_sampling_test_can_fail():
    s = ULMSampler(SCORED, nbest=-1, alpha=1.0, seed=11)
    with pytest.raises(AssertionError):
        _sampling_test(s, "abcabca", ULMSampler(SCORED, nbest=-1, alpha=0.8).law("abcabca"),
                       20000)


def _sampling_test(sampler, word, law, n):
    counts = Counter(map(tuple, sampler.sample_many(word, n)))
    support = law.probabilities()
    assert set(counts) <= set(support)
    probs = np.array([float(p) for p in support.values()])
    observed = np.array([counts[s] for s in support], dtype=float)
    _, pvalue, _ = chisquare_lumped(observed, probs / probs.sum())
    assert pvalue > P_MIN


# ------------------------------------------------------------------ contract and budgets
def test_every_sampler_states_a_law_and_refuses_big_words_at_once():
    samplers = [Grampa(SCORED), ULMSampler(SCORED, nbest=-1), ULMSampler(SCORED, nbest=3),
                MaxMatchSampler(SCORED, dropout=0.5), MarkovRejectionSampler(SCORED),
                BitRejectionSampler(SCORED), UnigramRejectionSampler(SCORED)]
    infinite = Vocabulary.infinite()
    for s in samplers:
        assert isinstance(s, LawSampler)
        with pytest.raises(TypeError):
            s.law(3)
    big = "abc" * 40  # ~10^13 segmentations
    for s in samplers[4:] + [MarkovRejectionSampler(infinite)]:
        with pytest.raises(BudgetError, match=r"needs (about |more than )?[\d,^]+"):
            s.law(big)
    # the chains answer their summaries at any length and refuse only the enumeration
    for law in [s.law(big) for s in samplers[:2] + samplers[3:4]] + [
            Grampa(infinite).law("a" * 40)]:
        assert law.shannon_entropy(math.e) > 0
        with pytest.raises(BudgetError, match=r"needs (about |more than )?[\d,^]+"):
            law.probabilities()
    with pytest.raises(SegmentationError):
        MarkovRejectionSampler(SCORED).law("abd")
    # the law of a word MaxMatch-dropout always fails on: all failure, no uniform law
    law = MaxMatchSampler(Vocabulary(["ab", "c"]), dropout=0.5).law("abd")
    assert law.failure_mass == 1 and law.n_segmentations is None


def test_an_enumerated_law_of_a_long_word_is_refused_at_once():
    """Issue 42: ``MarkovRejectionSampler(V).law("ab" * 250000)`` computed the exact count
    (integers of 75,000 digits, 32 s, then MemoryError on some machines) before refusing.
    The count is taken in log space first."""
    from hangguard import hang_guard

    from workbench import BudgetError
    from workbench.samplers.rejection import MarkovRejectionSampler

    sampler = MarkovRejectionSampler(SCORED)
    with hang_guard(0.3, "refusing the law of a 500,000-character word"), \
            pytest.raises(BudgetError, match=r"about 10\^\d+ segmentations, over the budget"):
        sampler.law("ab" * 250_000)
    assert sum(sampler.law("abcab").probabilities().values()) == pytest.approx(1.0)
