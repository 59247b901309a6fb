"""Chain-backed laws (issue 28): the DP kernels against enumeration and a plain-Python chain.

* exact: the plain-Python chain (:mod:`naive.chains`, Fractions) equals the brute force over
  every coin / boundary mask (:mod:`naive.laws`) for MaxMatch-dropout and ULM over every
  segmentation with rational weights;
* floats: on random small vocabularies and words of up to 8 characters, every summary of a
  chain-backed law (GRaMPa both directions, τ, ℓ_min; ULM ``nbest=-1``; MaxMatch-dropout with
  failures) equals the law's own enumeration and the plain-Python chain within :data:`TOL`;
* long words (120–200 characters) are answered without enumerating, with closed forms
  (uniform laws: entropy = log N; the infinite vocabulary: E[#tokens] = (n + 1)/2);
* budgets: the enumeration is refused with the count, the (n + 1)² pmf table before it is
  allocated.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import chains as naive
from naive import laws as brute

from workbench import Grampa, MaxMatchSampler, SegmentationError, ULMSampler, Vocabulary
from workbench._core.validate import BudgetError
from workbench.laws import SegmentationLaw

#: Chain summaries (floats) equal the enumeration / the plain-Python chain within this.
TOL = 1e-9


def _enumerated(law):
    """The same law rebuilt from its enumeration (summaries by the mapping, not the DP)."""
    return SegmentationLaw(law.word, law.probabilities(), failure_mass=law.failure_mass,
                           n_segmentations=law.n_segmentations, deterministic=law.deterministic)


def _assert_summaries(law, ref):
    """``law`` (chain-backed) against ``ref`` (enumerated, or the naive dict)."""
    assert law._chain is not None  # the summaries below come from the DP
    if isinstance(ref, SegmentationLaw):
        assert law.failure_mass == pytest.approx(float(ref.failure_mass), abs=TOL)
        assert law.support_size == ref.support_size
        if ref.success_mass == 0:
            assert law.mode is None
            return
        assert law.shannon_entropy(math.e) == pytest.approx(ref.shannon_entropy(math.e), abs=TOL)
        assert law.expected_tokens == pytest.approx(float(ref.expected_tokens), abs=TOL)
        pmf, ref_pmf = law.token_count_pmf(), ref.token_count_pmf()
        assert set(pmf) == set(ref_pmf)
        assert all(pmf[k] == pytest.approx(float(v), abs=TOL) for k, v in ref_pmf.items())
        top = max(ref.probabilities().values())
        assert law.probability(law.mode) == pytest.approx(float(top), abs=TOL)
        assert float(ref.probability(law.mode)) == pytest.approx(float(top), abs=TOL)
        if ref.n_segmentations is not None:
            assert law.kl_to_uniform == pytest.approx(ref.kl_to_uniform, abs=TOL)
        if ref.deterministic is not None:
            assert law.regularisation_rate == pytest.approx(
                float(ref.regularisation_rate), abs=TOL)
        for seg, p in ref.probabilities().items():
            assert law.probability(seg) == pytest.approx(float(p), abs=TOL)
        return
    assert law.failure_mass == pytest.approx(float(ref["failure"]), abs=TOL)
    assert law.support_size == ref["support"]
    if "entropy" in ref:
        assert law.shannon_entropy(math.e) == pytest.approx(ref["entropy"], abs=TOL)
        assert law.expected_tokens == pytest.approx(float(ref["tokens"]), abs=TOL)
        assert law.token_count_pmf() == pytest.approx({k: float(v) for k, v in
                                                       ref["pmf"].items()}, abs=TOL)
        assert law.probability(law.mode) == pytest.approx(float(ref["max_p"]), abs=TOL)


# ------------------------------------------------------------------ exact references
MM_VOCABS = [{"a", "ab", "abc", "d"}, {"a", "b", "c", "ab", "abc", "bc", "ca"},
             {"ab", "abab", "b", "ba"}]


@pytest.mark.parametrize("tokens", MM_VOCABS)
@pytest.mark.parametrize("q", [F(0), F(1, 3), F(1, 2), F(1)])
@pytest.mark.parametrize("word", ["abcd", "abcabca", "ababab", "abab"])
def test_naive_maxmatch_chain_is_the_coin_brute_force_exactly(tokens, q, word):
    law, fail = brute.maxmatch_coins(word, tokens, q)
    ref = naive.chain_law(*naive.maxmatch_steps(word, tokens, q))
    assert ref["failure"] == fail and ref["support"] == len(law)
    for seg, p in law.items():
        assert naive.path_probability(seg, 0, naive.maxmatch_steps(word, tokens, q)[2]) == p
    if fail < 1:
        cond = {s: p / (1 - fail) for s, p in law.items()}
        pmf = {}
        for s, p in cond.items():
            pmf[len(s)] = pmf.get(len(s), 0) + p
        assert ref["pmf"] == dict(sorted(pmf.items()))
        assert ref["tokens"] == sum(len(s) * p for s, p in cond.items())
        assert ref["max_p"] == max(law.values())
        assert ref["entropy"] == pytest.approx(-sum(float(p) * math.log(p)
                                                    for p in cond.values()), abs=1e-12)


@pytest.mark.parametrize("word", ["abcabc", "abcab", "cabca", "bcabca", "abcabcab", "a"])
def test_naive_weighted_chain_is_the_mask_brute_force_exactly(word):
    weights = {"a": F(1, 2), "b": F(1, 3), "c": F(2, 7), "ab": F(1, 5), "bc": F(1, 11),
               "ca": F(3, 13), "abc": F(1, 17), "cab": F(2, 19)}
    law, _ = brute.boundary_law(word, set(weights), lambda s: math.prod(map(weights.get, s)))
    start, end, step = naive.weighted_steps(word, set(weights), weights.get)
    ref = naive.chain_law(start, end, step)
    assert ref["failure"] == 0 and ref["support"] == len(law)
    assert ref["max_p"] == max(law.values())
    assert ref["tokens"] == sum(len(s) * p for s, p in law.items())
    for seg, p in law.items():
        assert naive.path_probability(seg, start, step) == p


# ------------------------------------------------------------------ kernels == references
@st.composite
def _cases(draw):
    extra = draw(st.lists(st.text("abc", min_size=2, max_size=4), max_size=7))
    singles = draw(st.sampled_from([["a", "b", "c"], ["a", "b", "c"], ["a", "b"]]))
    tokens = sorted(set(singles + extra))
    scores = [-draw(st.integers(1, 40)) / 8 for _ in tokens]
    word = draw(st.text("abc", min_size=0, max_size=8))
    kind = draw(st.sampled_from(["grampa", "ulm", "maxmatch"]))
    params = {"grampa": dict(tau=draw(st.sampled_from([0.3, 1.0, 2.5, -1.5])),
                             ell_min=draw(st.integers(1, 3)),
                             direction=draw(st.sampled_from(["l2r", "r2l"]))),
              "ulm": dict(alpha=draw(st.sampled_from([0.0, 0.4, 1.0, -0.7]))),
              "maxmatch": dict(dropout=draw(st.sampled_from([0.0, 0.25, 0.5, 0.875, 1.0])))}
    return Vocabulary(tokens, scores=scores), word, kind, params[kind]


def _sampler(vocab, kind, params):
    if kind == "grampa":
        return Grampa(vocab, **params)
    if kind == "ulm":
        return ULMSampler(vocab, nbest=-1, **params)
    return MaxMatchSampler(vocab, **params)


def _naive(vocab, word, kind, params, sampler):
    tokens = set(vocab.tokens)
    if kind == "maxmatch":
        return naive.chain_law(*naive.maxmatch_steps(word, tokens, F(params["dropout"])))
    if kind == "ulm":
        score = dict(zip(vocab.tokens, vocab.scores.tolist()))
        return naive.chain_law(*naive.weighted_steps(
            word, tokens, lambda t: math.exp(params["alpha"] * score[t])))
    return naive.chain_law(*naive.arc_steps(len(word), sampler.arc_probabilities(word),
                                            params["direction"]))


@settings(max_examples=150, deadline=None)
@given(case=_cases())
def test_chain_law_equals_enumeration_and_the_naive_chain(case):
    vocab, word, kind, params = case
    sampler = _sampler(vocab, kind, params)
    try:
        law = sampler.law(word)
    except SegmentationError:
        assert kind != "maxmatch"
        return
    _assert_summaries(law, _naive(vocab, word, kind, params, sampler))
    _assert_summaries(law, _enumerated(sampler.law(word)))


def test_maxmatch_failure_mass_is_exactly_zero_without_dead_ends():
    law = MaxMatchSampler(Vocabulary(["a", "b", "ab", "abb"]), dropout=0.3).law("abbab" * 9)
    assert law.failure_mass == 0.0
    law = MaxMatchSampler(Vocabulary(["a", "ab", "abc", "d"]), dropout=0.5).law("abcd")
    assert law.failure_mass == 0.5 and law.probability(("abc", "d")) == 0.5


# ------------------------------------------------------------------ long words
def _no_enumeration(law, monkeypatch, calls):
    """``law`` whose enumerations are recorded in ``calls`` (then run as before)."""
    original = law._chain._enumerate

    def recorded():
        calls.append(law.word)
        return original()

    monkeypatch.setattr(law._chain, "_enumerate", recorded)
    return law


def test_long_words_are_answered_without_enumeration(monkeypatch):
    calls = []
    v = Vocabulary(["a", "b", "ab", "ba", "aba", "bab"], scores=[-1, -1.5, -2, -2.2, -3, -3.1])
    word = "abbab" * 40  # 200 characters, ~10^25 segmentations
    n_segs = Grampa(v).law(word).n_segmentations
    assert n_segs > 10**20
    for s in [Grampa(v, tau=1.0), Grampa(v, tau=1.0, direction="r2l"),
              ULMSampler(v, nbest=-1, alpha=0.0)]:  # uniform: entropy = log N
        law = _no_enumeration(s.law(word), monkeypatch, calls)
        assert law.shannon_entropy(math.e) == pytest.approx(math.log(n_segs), rel=1e-12)
        assert abs(law.kl_to_uniform) < 1e-9
        assert sum(law.token_count_pmf().values()) == pytest.approx(1.0, abs=1e-12)
    for s in [Grampa(v, tau=0.4, ell_min=2), ULMSampler(v, nbest=-1, alpha=1.0),
              MaxMatchSampler(v, dropout=0.3)]:
        law = _no_enumeration(s.law(word), monkeypatch, calls)
        assert 0 < law.shannon_entropy(math.e) < math.log(n_segs) and law.support_size <= n_segs
        assert "".join(law.mode) == word and law.probability(law.mode) > 0
        pmf = law.token_count_pmf()
        assert sum(k * p for k, p in pmf.items()) == pytest.approx(law.expected_tokens,
                                                                    rel=1e-12)
        assert calls == []  # every summary above by DP
        with pytest.raises(BudgetError, match=r"needs (about |more than )?[\d,^]+"):
            law.probabilities()
        assert law.summary()["top"][0]["tokens"] == list(law.mode)
        assert calls == [word, word]  # probabilities() and summary() tried, and were refused
        calls.clear()
    mm = _no_enumeration(MaxMatchSampler(v, dropout=0.0).law(word), monkeypatch, calls)
    assert mm.shannon_entropy() == 0 and mm.mode == mm.deterministic
    assert mm.regularisation_rate == 0
    ulm = _no_enumeration(ULMSampler(v, nbest=-1, alpha=50.0).law(word), monkeypatch, calls)
    assert ulm.mode == ulm.deterministic  # large α: the Viterbi segmentation dominates
    n = 120  # the infinite vocabulary at τ = 1: uniform over the 2^(n−1) compositions
    law = _no_enumeration(Grampa(Vocabulary.infinite()).law("a" * n), monkeypatch, calls)
    assert law.shannon_entropy(math.e) == pytest.approx((n - 1) * math.log(2), rel=1e-12)
    assert law.expected_tokens == pytest.approx((n + 1) / 2, rel=1e-12)
    assert calls == []


def test_budgets_are_checked_before_allocating():
    law = Grampa(Vocabulary(["a", "aa"])).law("a" * 40_000)
    assert law.shannon_entropy(math.e) > 0  # O(n·L): fine at any length
    with pytest.raises(BudgetError, match=r"\(n \+ 1\)² table"):
        law.token_count_pmf()  # 40,001² floats: ~12 GiB, refused before allocating
    with pytest.raises(BudgetError, match=r"needs about 10\^\d+ segmentations"):
        law.probabilities()


def test_a_word_no_path_reaches_fails_exactly():
    """Issue 42 item 8: MaxMatch-dropout on a word with no segmentation reported failure mass
    1 − 2e-16, a success mass of rounding error and an entropy of 0.0. No path reaches the end:
    the failure mass is exactly 1, and every summary given success is refused."""
    law = MaxMatchSampler(Vocabulary(["▁", "c", "a", "f", "ca", "▁ca"]), dropout=0.3).law("▁café")
    assert law.failure_mass == 1.0 and law.success_mass == 0.0 and law.support_size == 0
    summary = law.summary()
    assert "entropy_bits" not in summary and "expected_tokens" not in summary
    with pytest.raises(ValueError, match="always fails"):
        law.shannon_entropy()


def test_a_tiny_success_mass_is_kept_not_rounded_away():
    """MaxMatch takes ``ab`` and is stuck at ``c`` unless it drops ``ab`` (probability
    q = 1e-20): 1 − failure_mass rounds to 0, the chain's own success mass does not."""
    law = MaxMatchSampler(Vocabulary(["ab", "a", "bc"]), dropout=1e-20).law("abc")
    assert law.success_mass == pytest.approx(1e-20, rel=1e-12)
    assert law.probabilities() == {("a", "bc"): pytest.approx(1e-20, rel=1e-12)}
    assert law.shannon_entropy() == 0.0 and law.expected_tokens == 2.0


def test_probability_and_log_probability_refuse_one_str():
    """A segmentation given as one str was read as its characters: ``"ab"`` as ``("a",
    "b")``; refused, any sequence of str read."""
    from workbench import ArgumentTypeError

    chain = Grampa(Vocabulary(["a", "b", "ab"])).law("ab").chain
    for method in (chain.probability, chain.log_probability):
        with pytest.raises(ArgumentTypeError, match=r"tokens must be a sequence of tokens "
                           r"\(a tuple of str\), not one str 'ab'"):
            method("ab")
    p = chain.probability(("a", "b"))
    assert p > 0.0 and p == pytest.approx(math.exp(chain.log_probability(["a", "b"])))
