"""Rejection samplers against the plain references: exact laws, chi-square, the trial guard."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hangguard import hang_guard
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import samplers as naive

from workbench import SegmentationError, Vocabulary
from workbench.samplers import (
    BitRejectionSampler,
    MarkovRejectionSampler,
    RejectionLimitError,
    UnigramRejectionSampler,
)
from workbench.samplers.joint import unigram_laws
from workbench.stats import chisquare_test

REL_TOL = 1e-9  # float kernels against Fraction references
P_THRESHOLD = 1e-4  # chi-square tests fail below this p-value (fixed seeds)
N_SAMPLES = 20_000


@st.composite
def cases(draw, n_max=8):
    alphabet = "abc"[: draw(st.integers(2, 3))]
    word = draw(st.text(alphabet, min_size=1, max_size=n_max))
    subs = sorted({word[i:j] for i in range(len(word)) for j in range(i + 1, len(word) + 1)})
    keep = draw(st.lists(st.booleans(), min_size=len(subs), max_size=len(subs)))
    vocab = {s for s, k in zip(subs, keep) if k or len(s) == 1}
    if draw(st.booleans()):
        vocab.discard(draw(st.sampled_from(sorted(set(word)))))
    return word, sorted(vocab)


def _hist(samples, support):
    c = Counter(tuple(s) for s in samples)
    assert set(c) <= set(support)
    return np.array([c[s] for s in support])


@settings(max_examples=80, deadline=None)
@given(cases(), st.sampled_from(["safe", "tight"]))
def test_markov_expected_trials_match_reference(case, kind):
    word, vocab = case
    sampler = MarkovRejectionSampler(Vocabulary(vocab), epsilon=kind, seed=0)
    if not naive.segmentations(word, set(vocab)):
        assert math.isinf(sampler.expected_trials(word))
        with pytest.raises(SegmentationError):
            sampler.sample(word)
        return
    law, expected = naive.markov_rejection_law(word, set(vocab), kind)
    assert set(law.values()) == {Fraction(1, len(law))}
    assert sampler.expected_trials(word) == pytest.approx(float(expected), rel=REL_TOL)
    assert "".join(sampler.sample(word)) == word


@settings(max_examples=60, deadline=None)
@given(cases(), st.sampled_from([0.5, 0.25, 0.9]))
def test_bit_expected_trials_match_reference(case, p):
    word, vocab = case
    if not naive.segmentations(word, set(vocab)):
        return
    _, expected = naive.bit_rejection_law(word, set(vocab), p)
    got = BitRejectionSampler(Vocabulary(vocab), p=p, seed=0).expected_trials(word)
    assert got == pytest.approx(float(expected), rel=REL_TOL)


@pytest.mark.parametrize("kind", ["safe", "tight"])
def test_markov_rejection_uniform_chi_square(kind):
    vocab = {"a", "b", "ab", "ba", "aba", "bab", "abab"}
    word = "abababa"
    support = sorted(naive.segmentations(word, vocab))
    s = MarkovRejectionSampler(Vocabulary(sorted(vocab)), epsilon=kind, seed=11)
    counts = _hist(s.sample_many(word, N_SAMPLES), support)
    assert chisquare_test(counts, [1.0] * len(support))[1] > P_THRESHOLD
    # the batch route (one word per stream) gives the same law
    counts = _hist(s.tokenize_batch([word] * N_SAMPLES), support)
    assert chisquare_test(counts, [1.0] * len(support))[1] > P_THRESHOLD
    # the measured mean number of trials agrees with the exact expectation (4 s.e.)
    e = s.expected_trials(word)
    assert abs(s.last_trials.mean() - e) < 4 * math.sqrt((e * e - e) / N_SAMPLES) + 1e-9


def test_markov_safe_epsilon_costs_more_when_it_is_loose():
    v = Vocabulary(["a", "b", "c", "ab", "bc", "abc"])
    safe = MarkovRejectionSampler(v, epsilon="safe").expected_trials("abcab")
    tight = MarkovRejectionSampler(v, epsilon="tight").expected_trials("abcab")
    assert safe == pytest.approx(float(naive.markov_rejection_law("abcab", set(v), "safe")[1]))
    assert tight == pytest.approx(float(naive.markov_rejection_law("abcab", set(v), "tight")[1]))
    assert safe > tight


def test_infinite_vocabulary_matches_closed_form():
    s = MarkovRejectionSampler(Vocabulary.infinite(), seed=3)
    for n in range(1, 9):  # E[T] = n! / 2^(n-1) (Eq. 47)
        assert s.expected_trials("x" * n) == pytest.approx(math.factorial(n) / 2 ** (n - 1))
    support = sorted(naive.segmentations("abcde", naive.INFINITE))
    counts = _hist(s.sample_many("abcde", N_SAMPLES), support)
    assert chisquare_test(counts, [1.0] * len(support))[1] > P_THRESHOLD
    with pytest.raises(TypeError):
        s.encode_flat(["ab"])


@pytest.mark.parametrize("p", [0.5, 0.2])
def test_bit_rejection_law_chi_square(p):
    vocab = {"a", "b", "ab", "ba", "aba", "bb"}
    word = "ababba"
    law, _ = naive.bit_rejection_law(word, vocab, p)
    support = sorted(law)
    s = BitRejectionSampler(Vocabulary(sorted(vocab)), p=p, seed=5)
    counts = _hist(s.sample_many(word, N_SAMPLES), support)
    assert chisquare_test(counts, [float(law[k]) for k in support])[1] > P_THRESHOLD


def test_unigram_rejection_is_joint_proportional():
    tokens = ["a", "b", "ab", "ba", "aba", "bab"]
    scores = [-1.0, -2.0, -1.5, -3.0, -2.5, -4.0]
    v = Vocabulary(tokens, scores=scores)
    weights = {t: math.exp(s) for t, s in zip(tokens, scores)}
    word = "ababab"
    law, expected = naive.unigram_rejection_law(word, set(tokens), weights)
    joint = naive.joint_law(word, set(tokens), weights)
    for k in joint:
        assert law[k] == pytest.approx(joint[k], rel=REL_TOL)
    s = UnigramRejectionSampler(v, seed=2)
    assert s.expected_trials(word) == pytest.approx(expected, rel=REL_TOL)
    support = sorted(joint)
    counts = _hist(s.sample_many(word, N_SAMPLES), support)
    assert chisquare_test(counts, [joint[k] for k in support])[1] > P_THRESHOLD


def test_appendix_a1_markov_differs_from_joint():
    tokens = ["a", "b", "ab", "ba", "aba", "bab"]
    scores = [-1.0, -2.0, -1.5, -3.0, -2.5, -4.0]
    v = Vocabulary(tokens, scores=scores)
    weights = {t: math.exp(s) for t, s in zip(tokens, scores)}
    rows = unigram_laws("ababab", v)
    joint = naive.joint_law("ababab", set(tokens), weights)
    for r in rows:
        assert r["joint"] == pytest.approx(joint[r["tokens"]], rel=REL_TOL)
        assert r["rejection"] == pytest.approx(joint[r["tokens"]], rel=REL_TOL)
        ref = naive.markov_probability(r["tokens"], "ababab", set(tokens), weights)
        assert r["markov"] == pytest.approx(ref, rel=REL_TOL)
    assert max(abs(r["markov"] - r["joint"]) for r in rows) > 0.01


def test_guard_refuses_adversarial_words_promptly():
    with hang_guard(0.01, "three refusals of adversarial words"):
        with pytest.raises(RejectionLimitError, match="refused before sampling"):
            BitRejectionSampler(Vocabulary(["a", "b"])).sample("ab" * 500)
        with pytest.raises(RejectionLimitError, match="refused before sampling"):
            MarkovRejectionSampler(Vocabulary.infinite()).sample("x" * 40)
        with pytest.raises(RejectionLimitError, match="refused"):
            MarkovRejectionSampler(Vocabulary.infinite(), max_trials=10).tokenize_batch(
                ["ab", "x" * 9])


def test_guard_stops_an_unlucky_sample_and_reports_trials():
    # E[T] = 7!/2^6 = 78.75 <= max_trials = 80, so sampling starts; 1000 samples hit the cap
    s = MarkovRejectionSampler(Vocabulary.infinite(), max_trials=80, seed=0)
    with pytest.raises(RejectionLimitError, match="gave up .* after 80 trials"):
        s.sample_many("abcdefg", 1000)


def test_same_seed_same_samples_and_ids():
    v = Vocabulary(["a", "b", "ab", "ba", "aba"])
    words = ["abab", "ba", "", "aba"] * 200
    one = MarkovRejectionSampler(v, seed=9).encode_flat(words)
    two = MarkovRejectionSampler(v, seed=9).encode_flat(words)
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
    toks = MarkovRejectionSampler(v, seed=9).tokenize_batch(words)
    ids, offs = one
    for w, t in enumerate(toks):
        assert [v.id_of(x) for x in t] == ids[offs[w]:offs[w + 1]].tolist()


def test_argument_errors():
    v = Vocabulary(["a"])
    with pytest.raises(ValueError):
        MarkovRejectionSampler(v, epsilon="loose")
    with pytest.raises(TypeError):
        MarkovRejectionSampler(["a"])
    with pytest.raises(ValueError):
        BitRejectionSampler(v, p=1.5)
    with pytest.raises(TypeError):
        UnigramRejectionSampler(v)
    with pytest.raises(ValueError):
        MarkovRejectionSampler(v, max_trials=0)
    with pytest.raises(TypeError):
        MarkovRejectionSampler(v).tokenize_batch("aaa")


def test_a_tiny_proclivity_is_a_law_not_no_segmentation():
    """Issue 42: ``BitRejectionSampler(V, p=1e-300).law(word)`` said "no segmentation has
    positive probability": ``p^(m-1)`` underflowed to 0 for every segmentation. The weights
    are logs now: the fewest-token segmentation takes the mass; ``p = 0`` (no boundary at
    all) is still a refusal when the word is not a token."""
    from workbench import SegmentationError, Vocabulary
    from workbench.samplers.rejection import BitRejectionSampler

    v = Vocabulary(["a", "b", "ab", "ba", "aba"])
    law = BitRejectionSampler(v, p=1e-300).law("ababa")
    probs = law.probabilities()
    assert law.mode == ("aba", "ba") or law.mode == ("ab", "aba")
    assert sum(probs.values()) == pytest.approx(1.0)
    fewest = min(len(s) for s in probs)
    assert sum(p for s, p in probs.items() if len(s) == fewest) == pytest.approx(1.0)
    with pytest.raises(SegmentationError):
        BitRejectionSampler(v, p=0.0).law("ababa")
    assert BitRejectionSampler(v, p=0.0).law("aba").probabilities() == {("aba",): 1.0}
    one = BitRejectionSampler(v, p=1.0).law("ababa").probabilities()
    assert one == {tuple("ababa"): 1.0}
    half = BitRejectionSampler(v, p=0.5).law("ababa")
    assert all(q == pytest.approx(1 / half.n_segmentations) for q in half.probabilities().values())
