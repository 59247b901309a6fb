"""StochasTok (Sims et al. 2025): its exact law against every random choice and samples.

Brute force: :func:`naive.stochastok.every_choice` (exact Fractions). Sampling: a fixed
seed, Pearson chi-square with cells of expected count < 5 lumped, passing when
p > :data:`P_MIN`; the same test rejects a wrong law (one attempt more), so it can fail.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from naive import stochastok as naive

from workbench import Vocabulary
from workbench._core.validate import BudgetError
from workbench.interfaces import LawSampler, Sampler
from workbench.samplers.stochastok import StochasTokSampler
from workbench.stats import chisquare_lumped

P_MIN = 1e-4
TOKENS = ["a", "b", "c", "ab", "bc", "ca", "abc", "bca", "abca", "cab"]
V = Vocabulary(TOKENS)


@pytest.mark.parametrize("word", ["abca", "abcabc", "cabca", "abcab", "a"])
@pytest.mark.parametrize("attempts", [0, 1, 2, 4])
@pytest.mark.parametrize("max_splits", [None, 1])
def test_law_equals_every_random_choice_exactly(word, attempts, max_splits):
    s = StochasTokSampler(V, attempts=attempts, max_splits=max_splits)
    law = s.law(word, exact=True)
    assert law.exact
    assert law.probabilities() == dict(sorted(
        naive.every_choice(s.base(word), set(TOKENS), attempts, max_splits).items(),
        key=lambda sp: (-sp[1], len(sp[0]), sp[0])))
    assert law.deterministic == s.base(word)
    if attempts == 0:
        assert law.probabilities() == {s.base(word): 1}


def test_rate_gives_int_m_rate_attempts_and_float_law_agrees():
    s = StochasTokSampler(V, rate=0.7)  # the paper's expand_prop
    word = "abcabcabca"
    m = len(s.base(word))
    assert s.n_attempts(m) == int(m * 0.7) >= 1
    exact, floats = s.law(word, exact=True), s.law(word)
    ref = StochasTokSampler(V, attempts=int(m * 0.7)).law(word, exact=True)
    assert exact.probabilities() == ref.probabilities()
    for seg, p in exact.probabilities().items():
        assert floats.probability(seg) == pytest.approx(float(p), rel=1e-12)
    assert StochasTokSampler(V).rate == 0.1


def _pvalue(law, counts):
    support = law.probabilities()
    probs = np.array([float(p) for p in support.values()])
    observed = np.array([counts[s] for s in support], dtype=float)
    return chisquare_lumped(observed, probs / probs.sum())[1]


def test_samples_follow_the_law_and_the_test_can_fail():
    word, n = "abcabcab", 20_000
    s = StochasTokSampler(V, attempts=3, seed=2025)
    counts = Counter(map(tuple, s.sample_many(word, n)))
    law = s.law(word)
    assert set(counts) <= set(law.probabilities())
    assert _pvalue(law, counts) > P_MIN
    wrong = StochasTokSampler(V, attempts=4).law(word)  # one attempt more
    assert set(counts) <= set(wrong.probabilities())
    assert _pvalue(wrong, counts) < P_MIN


def test_same_seed_same_samples_and_base_is_checked():
    a = StochasTokSampler(V, attempts=5, seed=1).tokenize_batch(["abcabc", "cab"])
    assert a == StochasTokSampler(V, attempts=5, seed=1).tokenize_batch(["abcabc", "cab"])
    assert all("".join(t) == w for t, w in zip(a, ["abcabc", "cab"]))
    s = StochasTokSampler(V, attempts=2, base=lambda w: [w[:2], w[2:]])
    assert s.law("abca").deterministic == ("ab", "ca")
    with pytest.raises(ValueError, match="spell the word"):
        StochasTokSampler(V, base=lambda w: ["x"]).sample("ab")


@pytest.mark.parametrize("kw, err", [
    (dict(attempts=-1), ValueError), (dict(attempts=1.5), TypeError),
    (dict(attempts=1, rate=0.1), ValueError), (dict(rate=float("nan")), ValueError),
    (dict(rate=-0.1), ValueError), (dict(max_splits=-1), ValueError),
    (dict(base=3), TypeError), (dict(attempts=10**9), ValueError)])
def test_bad_arguments_are_refused(kw, err):
    with pytest.raises(err):
        StochasTokSampler(V, **kw)


def test_bad_input_and_budget():
    s = StochasTokSampler(V, attempts=3)
    assert isinstance(s, LawSampler) and isinstance(s.reseeded(1), Sampler)
    with pytest.raises(TypeError):
        s.law(3)
    with pytest.raises(TypeError):
        s.law("ab", exact=1)
    with pytest.raises(TypeError):
        StochasTokSampler(Vocabulary.infinite())
    with pytest.raises(BudgetError, match="refinements"):
        StochasTokSampler(V, attempts=3).law("abca" * 30)


def test_the_empty_word_is_not_split():
    """No base token to pick: the empty segmentation, with probability 1 (the law divided
    by zero and the sampler indexed an empty list before)."""
    s = StochasTokSampler(V, attempts=3, seed=0)
    assert s.tokenize("") == [] and s.tokenize_batch(["", "cab", ""])[0::2] == [[], []]
    assert s.law("").probabilities() == {(): 1.0}
    assert s.law("", exact=True).probabilities() == {(): 1}
