"""``Multiplexer.law``: the exact law of Algorithm 3's mixture against brute force and samples.

Brute force: :func:`naive.laws.multiplexed_coins` branches on the multiplexer's coin and then
on every coin of the stochastic sampler (:mod:`naive.laws`), in exact Fractions; the law must
equal it exactly when the stochastic law and ``p`` are rational, within :data:`REL` for
floats. Sampling: fixed seeds, Pearson chi-square with the cells of expected count < 5 lumped,
passing when p > :data:`P_MIN` (and a wrong rate must fail it). Identities: ``p = 0`` is the
deterministic segmentation, ``p = 1`` the stochastic law, and the summaries the four callers
compute without the law (E[#tokens], entropy, P(deterministic), expected counts) equal the
law's.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction as F

import numpy as np
import pytest
from naive import laws as naive
from scipy import stats

from workbench import (
    Grampa,
    MarkovRejectionSampler,
    MaxMatchSampler,
    Multiplexer,
    SegmentationError,
    Vocabulary,
)
from workbench._core.validate import BudgetError
from workbench.grampa import expected_token_counts
from workbench.interfaces import LawSampler
from workbench.laws import SegmentationLaw
from workbench.samplers.laws import maxmatch_law
from workbench.segmenters import default_segmenter
from workbench.stats import chisquare_lumped
from workbench.theory.grampa.mixture import mix, mixture_entropy, mixture_law

#: A sampling test fails when the chi-square p-value is below this (fixed seeds).
P_MIN = 1e-4
#: Float laws equal the brute force within this (relative).
REL = 1e-12
SAMPLES = 20_000

TOKENS = ["a", "b", "c", "ab", "bc", "ca", "abc", "bca", "abca", "cab"]
SCORES = [-1.0, -1.7, -2.1, -1.35, -2.45, -2.9, -3.3, -3.75, -4.6, -4.05]
SCORED = Vocabulary(TOKENS, scores=SCORES)
PLAIN = Vocabulary(TOKENS)  # no scores: the default segmenter is greedy longest match
WORDS = ["abcabc", "abcab", "cabca", "bcabca", "abcabcab", "a", ""]
#: (tokens, words): MaxMatch-dropout fails on "abcd" ({a, ab, abc, d}); longest match is
#: stuck on "abc" ({a, ab, bc}) though "a|bc" exists.
MM_CASES = [({"a", "ab", "abc", "d"}, ["abcd", "abd", "aabcd"]),
            ({"a", "ab", "bc"}, ["abc", "abcabc", "aab"]),
            ({"a", "b", "ab", "abb", "ba", "bab"}, ["abbab", "babab", "ababb"])]


class ExactMaxMatch:
    """MaxMatch-dropout's law with a Fraction rate (the package's sampler keeps a float)."""

    def __init__(self, tokens, q):
        self.tokens, self.q = frozenset(tokens), q

    def sample(self, word):
        raise NotImplementedError("a law-only test double")

    def law(self, word):
        return maxmatch_law(word, self.tokens, max(map(len, self.tokens)), self.q)


def _close(law, ref, failure):
    assert set(law.probabilities()) == set(ref)
    for seg, p in ref.items():
        assert float(law.probability(seg)) == pytest.approx(float(p), rel=REL, abs=1e-15)
    assert float(law.failure_mass) == pytest.approx(float(failure), abs=1e-15)


# ------------------------------------------------------------------ brute force
@pytest.mark.parametrize("p", [F(0), F(1, 3), F(1, 2), F(1), 0, 1])
@pytest.mark.parametrize("word", WORDS)
def test_uniform_mixture_equals_brute_force_exactly(word, p):
    mux = Multiplexer(default_segmenter(PLAIN), MarkovRejectionSampler(PLAIN), p=p)
    law = mux.law(word)
    ref, fail = naive.multiplexed_coins(
        word, F(p), lambda w: naive.boundary_law(w, set(TOKENS), lambda s: F(1)),
        lambda w: naive.greedy_longest(w, set(TOKENS)))
    assert law.exact and law.probabilities() == ref and law.failure_mass == fail
    assert law.deterministic == naive.greedy_longest(word, set(TOKENS))


@pytest.mark.parametrize("q,p", [(F(1, 2), F(2, 5)), (F(1, 3), F(3, 4)), (F(0), F(1, 2))])
@pytest.mark.parametrize("tokens,words", MM_CASES)
def test_maxmatch_mixture_with_failures_equals_brute_force_exactly(tokens, words, q, p):
    """Both halves may fail: MaxMatch-dropout's failures weigh p, longest match's 1 − p."""
    mux = Multiplexer(default_segmenter(Vocabulary(sorted(tokens))), ExactMaxMatch(tokens, q),
                      p=p)
    for word in words:
        law = mux.law(word)
        ref, fail = naive.multiplexed_coins(
            word, p, lambda w: naive.maxmatch_coins(w, tokens, q),
            lambda w: naive.greedy_longest(w, tokens))
        assert law.exact and law.probabilities() == ref and law.failure_mass == fail, word


def test_the_failures_are_carried():
    law = Multiplexer(default_segmenter(Vocabulary(["a", "ab", "bc"])),
                      ExactMaxMatch({"a", "ab", "bc"}, F(1, 2)), p=F(1, 4)).law("abc")
    # heads 1/4: MaxMatch skips "ab" (1/2) -> a|bc, else fails; tails 3/4: longest match stuck
    assert law.probabilities() == {("a", "bc"): F(1, 8)}
    assert law.failure_mass == F(7, 8) and law.deterministic is None


def test_a_half_that_cannot_segment_fails_with_its_weight():
    """'d' is no token of SCORED: GRaMPa fails on "abd" (weight p), the whole-word tokeniser
    does not; as the multiplexer itself does, call by call."""
    whole = lambda w: [w]  # noqa: E731
    law = Multiplexer(whole, MarkovRejectionSampler(SCORED), p=F(3, 10)).law("abd")
    assert law.probabilities() == {("abd",): F(7, 10)} and law.failure_mass == F(3, 10)
    assert Multiplexer(whole, Grampa(SCORED), p=0.0).law("abd").probabilities() == \
        {("abd",): 1.0}
    with pytest.raises(SegmentationError):  # p = 1: only the stochastic half is used
        Multiplexer(whole, Grampa(SCORED), p=1.0).law("abd")
    with pytest.raises(SegmentationError):  # p = 0: only the deterministic half is used
        Multiplexer(default_segmenter(PLAIN), Grampa(SCORED), p=0.0).law("abd")
    mux = Multiplexer(whole, Grampa(SCORED, seed=1), p=0.3, seed=2)
    failed = 0
    for _ in range(4000):
        try:
            assert mux("abd") == ["abd"]
        except SegmentationError:
            failed += 1
    assert stats.binomtest(failed, 4000, 0.3).pvalue > P_MIN


def _maxmatch_brute_force(word, tokens, q, p):
    """MaxMatch-dropout (rate ``q``) multiplexed with longest match at ``p``: every coin, in
    Fractions (of the floats' exact values)."""
    return naive.multiplexed_coins(word, F(p), lambda w: naive.maxmatch_coins(w, tokens, F(q)),
                                   lambda w: naive.greedy_longest(w, tokens))


@pytest.mark.parametrize("q,p", [(0.3, 0.4), (0.5, 0.9)])
@pytest.mark.parametrize("tokens,words", MM_CASES)
def test_float_maxmatch_mixture_equals_brute_force(tokens, words, q, p):
    v = Vocabulary(sorted(tokens))
    mux = Multiplexer(default_segmenter(v), MaxMatchSampler(v, dropout=q), p=p)
    for word in words:
        ref, fail = _maxmatch_brute_force(word, tokens, q, p)
        law = mux.law(word)
        assert not law.exact
        _close(law, ref, fail)


# ------------------------------------------------------------------ samples
def _pvalue(mux, word, law):
    counts = Counter(map(tuple, mux.tokenize_batch([word] * SAMPLES)))
    support = law.probabilities()
    assert set(counts) <= set(support)
    probs = np.array([float(p) for p in support.values()])
    observed = np.array([counts[s] for s in support], dtype=float)
    return chisquare_lumped(observed, probs / probs.sum())[1]


@pytest.mark.parametrize("make", [
    lambda: Grampa(SCORED, tau=0.5, seed=3),
    lambda: MaxMatchSampler(SCORED, dropout=0.3, seed=3),
    lambda: MarkovRejectionSampler(SCORED, seed=3),
])
def test_samples_follow_the_law(make):
    mux = Multiplexer(default_segmenter(SCORED), make(), p=0.3, seed=4)
    assert _pvalue(mux, "abcabca", mux.law("abcabca")) > P_MIN


def test_the_sampling_test_can_fail():
    seg, word = default_segmenter(SCORED), "abcabca"
    mux = Multiplexer(seg, Grampa(SCORED, tau=0.5, seed=3), p=0.3, seed=4)
    wrong = Multiplexer(seg, Grampa(SCORED, tau=0.5), p=0.4).law(word)
    assert _pvalue(mux, word, wrong) < P_MIN


# ------------------------------------------------------------------ identities
@pytest.mark.parametrize("make", [
    lambda: Grampa(SCORED, tau=-2.0), lambda: MaxMatchSampler(SCORED, dropout=0.3),
    lambda: MarkovRejectionSampler(SCORED),
])
@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("ends", [(0, 1), (0.0, 1.0)])
def test_p0_is_the_deterministic_and_p1_the_stochastic_law(make, word, ends):
    """Exactly (``==``); a float rate turns an exact law into floats, so compare as floats."""
    seg, s = default_segmenter(SCORED), make()
    det = tuple(seg(word))
    as_given = (lambda x: x) if isinstance(ends[1], int) else float
    zero = Multiplexer(seg, s, p=ends[0]).law(word)
    assert zero.probabilities() == {det: 1} and zero.failure_mass == 0
    assert zero.regularisation_rate == 0
    one, alone = Multiplexer(seg, s, p=ends[1]).law(word), s.law(word)
    assert one.probabilities() == {x: as_given(q) for x, q in alone.probabilities().items()}
    assert one.failure_mass == alone.failure_mass and one.exact == (alone.exact and
                                                                     as_given is not float)
    assert one.n_segmentations == alone.n_segmentations and one.deterministic == det


def test_p1_needs_no_working_deterministic_tokeniser():
    def stuck(word):
        raise SegmentationError("stuck")

    law = Multiplexer(stuck, Grampa(SCORED, tau=0.5), p=1.0).law("abcab")
    assert law.probabilities() == Grampa(SCORED, tau=0.5).law("abcab").probabilities()
    assert law.failure_mass == 0 and law.deterministic is None
    half = Multiplexer(stuck, Grampa(SCORED, tau=0.5), p=0.5).law("abcab")
    assert half.failure_mass == 0.5


@pytest.mark.parametrize("p", [0.0, 0.3, 0.5, 1.0])
@pytest.mark.parametrize("tau", [1.0, 0.5, -2.0])
def test_summaries_without_the_law_equal_the_laws(tau, p):
    """The callers' arithmetic (mix, mixture_entropy, expected counts) against the law."""
    word, seg = "abcabcab", default_segmenter(SCORED)
    g = Grampa(SCORED, tau=tau)
    law, alone, det = Multiplexer(seg, g, p=p).law(word), g.law(word), tuple(seg(word))
    assert float(law.expected_tokens) == pytest.approx(
        mix(p, float(alone.expected_tokens), len(det)), rel=REL)
    alone_pmf = alone.token_count_pmf()
    pmf = mix(p, np.array([alone_pmf.get(k, 0.0) for k in range(len(word) + 1)]),
              np.bincount([len(det)], minlength=len(word) + 1))
    assert [float(law.token_count_pmf().get(k, 0.0)) for k in range(pmf.size)] == \
        pytest.approx(pmf.tolist(), rel=REL, abs=1e-15)
    p_det = float(alone.probability(det))
    assert float(law.probability(det)) == pytest.approx(mix(p, p_det, 1.0), rel=REL)
    assert law.shannon_entropy(math.e) == pytest.approx(
        mixture_entropy(p, alone.shannon_entropy(math.e), p_det, unit="nats"), rel=REL, abs=1e-15)
    counts = expected_token_counts({word: 1}, SCORED, tau=tau, p=p, deterministic=seg)
    from_law = np.zeros_like(counts)
    for s, q in law.probabilities().items():
        for t in s:
            from_law[SCORED.id_of(t)] += float(q)
    assert counts == pytest.approx(from_law, rel=REL, abs=1e-15)


def test_n_segmentations_is_dropped_when_the_deterministic_one_is_outside():
    v = Vocabulary(["a", "b", "c", "ab"])
    law = Multiplexer(lambda w: [w], Grampa(v), p=0.5).law("abc")  # "abc" is no token of v
    assert law.n_segmentations is None and law.probability(("abc",)) == 0.5
    inside = Multiplexer(default_segmenter(v), Grampa(v), p=0.5).law("abc")
    assert inside.n_segmentations == 2


def test_the_multiplexer_is_a_law_sampler():
    assert isinstance(Multiplexer(list, Grampa(SCORED), p=0.5), LawSampler)


# ------------------------------------------------------------------ bad input
class NoLaw:
    def sample(self, word):
        return [word]


class WrongLaw(NoLaw):
    def law(self, word):
        return {(word,): 1.0}


def test_bad_input_gets_a_clear_error():
    with pytest.raises(TypeError, match="states no law"):
        Multiplexer(list, NoLaw(), p=0.5).law("ab")
    with pytest.raises(TypeError, match="not a SegmentationLaw"):
        Multiplexer(list, WrongLaw(), p=0.5).law("ab")
    mux = Multiplexer(default_segmenter(SCORED), Grampa(SCORED), p=0.5)
    for bad in (7, None, b"ab", ["ab"]):
        with pytest.raises(TypeError):
            mux.law(bad)
    with pytest.raises(SegmentationError):
        mux.law("abd")
    with pytest.raises(BudgetError, match="refused before any work"):
        mux.law("abc" * 300).probabilities()  # the summaries need no enumeration
    with pytest.raises(ValueError, match="does not spell"):
        Multiplexer(lambda w: ["x"], Grampa(SCORED), p=0.5).law("ab")


def test_a_law_of_a_float_rate_is_float_and_exact_rates_survive_a_changed_p():
    mux = Multiplexer(default_segmenter(PLAIN), MarkovRejectionSampler(PLAIN), p=F(1, 3))
    assert mux.p == 1 / 3 and mux.law("abc").exact
    mux.p = 0.25  # a rate set afterwards wins over the Fraction given at construction
    law = mux.law("abc")
    assert not law.exact and isinstance(law.failure_mass, float)
    assert law.probability(("abc",)) == pytest.approx(0.25 / 4 + 0.75)


# ------------------------------------------------------------------ chain-backed mixtures
def _summaries(law):
    """Every summary a chain-backed law answers without enumerating (floats)."""
    mode = law.mode  # exact ties: the chain's rule (shorter tokens first) is not the
    out = {"failure": float(law.failure_mass), "support": law.support_size,  # table's
           "mode": None if mode is None else float(law.probability(mode)),
           "n": law.n_segmentations}
    if law.success_mass > 0:
        out.update(entropy=law.shannon_entropy(math.e), tokens=float(law.expected_tokens),
                   pmf={k: float(v) for k, v in law.token_count_pmf().items()})
        if law.n_segmentations is not None:
            out["kl"] = law.kl_to_uniform
    if law.deterministic is not None:
        out["reg"] = float(law.regularisation_rate)
    return out


def _exact_summaries(word, ref, fail, det, n_segs):
    """The same summaries of a Fraction law (brute force), as floats."""
    probs = {s: q for s, q in ref.items() if q}
    success = 1 - fail
    out = {"failure": float(fail), "support": len(probs), "n": n_segs,
           "mode": float(max(probs.values())) if probs else None}
    if success > 0:
        cond = {s: q / success for s, q in probs.items()}
        out["entropy"] = -sum(float(q) * math.log(q) for q in cond.values())
        out["tokens"] = float(sum(len(s) * q for s, q in cond.items()))
        pmf = {}
        for s, q in cond.items():
            pmf[len(s)] = pmf.get(len(s), 0) + q
        out["pmf"] = {k: float(v) for k, v in sorted(pmf.items())}
        if n_segs is not None:
            out["kl"] = math.log(n_segs) - out["entropy"]
    if det is not None:
        out["reg"] = float(1 - probs.get(det, 0))
    return out


def _same(got, want):
    assert got.keys() == want.keys()
    for key, value in want.items():
        if key == "pmf":
            assert got[key].keys() == value.keys()
            for k in value:
                assert got[key][k] == pytest.approx(value[k], rel=REL, abs=1e-15)
        elif isinstance(value, float):
            assert got[key] == pytest.approx(value, rel=REL, abs=1e-14), key
        else:
            assert got[key] == value, key


@pytest.mark.parametrize("q,p", [(0.3, 0.4), (0.5, 0.9), (0.2, 1.0), (0.4, 0.0)])
@pytest.mark.parametrize("tokens,words", MM_CASES)
def test_chain_mixture_summaries_equal_the_exact_brute_force(tokens, words, q, p):
    """MaxMatch-dropout's chain law mixed with longest match (both halves may fail): every
    summary without enumerating equals the Fraction brute force's."""
    v = Vocabulary(sorted(tokens))
    mux = Multiplexer(default_segmenter(v), MaxMatchSampler(v, dropout=q), p=p)
    for word in words:
        ref, fail = _maxmatch_brute_force(word, tokens, q, p)
        try:
            law = mux.law(word)
        except SegmentationError:
            assert sum(ref.values()) == 0
            continue
        assert law.chain is not None and not law.exact
        n_segs = MaxMatchSampler(v, dropout=q).law(word).n_segmentations
        det = law.deterministic
        if n_segs is not None and sum(1 for x in ref.values() if x) > n_segs:
            n_segs = None
        _same(_summaries(law), _exact_summaries(word, ref, fail, det, n_segs))
        for seg, m in ref.items():
            assert law.probability(seg) == pytest.approx(float(m), rel=REL, abs=1e-15)


@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
@pytest.mark.parametrize("det", ["longest", "whole"])
@pytest.mark.parametrize("tau", [1.0, 0.5, -2.0])
def test_chain_mixture_equals_the_enumerated_mixture(tau, det, p):
    """GRaMPa's chain-backed mixture against the mixture of its enumerated law."""
    seg = default_segmenter(SCORED) if det == "longest" else (lambda w: [w])
    g = Grampa(SCORED, tau=tau)
    for word in WORDS[:-1]:
        law = Multiplexer(seg, g, p=p).law(word)
        alone = g.law(word)
        flat = SegmentationLaw(word, alone.probabilities(), failure_mass=alone.failure_mass,
                               n_segmentations=alone.n_segmentations)
        ref = mixture_law(flat, tuple(seg(word)), p)
        assert law.chain is not None and ref.chain is None
        _same(_summaries(law), _summaries(ref))
        for s, m in ref.probabilities().items():
            assert law.probability(s) == pytest.approx(m, rel=REL)
        enumerated = law.probabilities()
        assert enumerated.keys() == ref.probabilities().keys()


def test_a_long_word_has_its_summaries_without_enumeration():
    word, seg = "abc" * 300, default_segmenter(SCORED)
    g, p = Grampa(SCORED, tau=0.5), 0.3
    law, alone, det = Multiplexer(seg, g, p=p).law(word), g.law(word), tuple(seg(word))
    p_det = alone.probability(det)
    nats = mixture_entropy(p, alone.shannon_entropy(math.e), p_det, "nats")
    assert law.shannon_entropy(math.e) == pytest.approx(nats, rel=1e-9)
    assert float(law.expected_tokens) == pytest.approx(
        mix(p, alone.expected_tokens, len(det)), rel=1e-12)
    assert law.probability(det) == pytest.approx(mix(p, p_det, 1.0), rel=1e-12)
    assert law.regularisation_rate == pytest.approx(1 - mix(p, p_det, 1.0), rel=1e-12)
    assert law.mode == det and law.support_size == alone.support_size
    pmf = law.token_count_pmf()
    assert sum(pmf.values()) == pytest.approx(1.0)
    assert pmf[len(det)] >= (1 - p) * (1 - 1e-12)
    log_n = math.log(alone.n_segmentations)
    assert law.kl_to_uniform == pytest.approx(log_n - law.shannon_entropy(math.e), rel=1e-9)
    with pytest.raises(BudgetError):
        law.probabilities()


def test_a_deterministic_tokeniser_returning_one_str_is_refused_not_split():
    """A callable that returns ``"ab"`` for ``["ab"]`` was split into ``["a", "b"]`` by
    ``tokenize`` and ``law``; it is refused, naming what returned it."""
    from workbench import ArgumentTypeError

    mux = Multiplexer(lambda w: w, Grampa(SCORED, seed=0), p=0.0, seed=0)
    with pytest.raises(ArgumentTypeError, match="deterministic tokeniser's result"):
        mux.tokenize_batch(["abc"])
    with pytest.raises(ArgumentTypeError, match="deterministic tokeniser's result"):
        mux.law("abc")
    ok = Multiplexer(lambda w: [w], Grampa(SCORED, seed=0), p=0.0, seed=0)
    assert ok.tokenize_batch(["abc"]) == [["abc"]]
