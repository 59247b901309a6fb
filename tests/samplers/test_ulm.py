"""ULM's smoothing α at the ends of the floats (issue 42 item 6): ``exp(α · score)`` is
computed as ``exp(α · (score − best))``, so no finite α overflows.

At ``alpha=1.7e308`` the k-best probabilities used to be NaN (and sampling always returned
the k-th best); over every segmentation the forward sums underflowed to "no segmentation".
Now a huge α is the law's limit: the best segmentation (the worst for α < 0) has all the mass.
"""

from __future__ import annotations

import math

import pytest

from workbench import Vocabulary
from workbench.samplers.ulm import ULMSampler

TOKENS = ["a", "b", "c", "ab", "bc", "ca", "abc", "bca"]
SCORES = [-2.0, -2.5, -3.0, -3.5, -4.0, -4.5, -5.0, -6.5]
V = Vocabulary(TOKENS, scores=SCORES)
WORD = "abcabca"
HUGE = 1.7e308


def _score(seg):
    return sum(SCORES[TOKENS.index(t)] for t in seg)


@pytest.mark.parametrize("nbest", [4, -1])
@pytest.mark.parametrize("alpha", [HUGE, -HUGE, 1e306, -1e306, 1e3])
def test_a_huge_alpha_is_the_limit_of_the_law(nbest, alpha):
    sampler = ULMSampler(V, nbest=nbest, alpha=alpha, seed=0)
    law = sampler.law(WORD)
    probs = law.probabilities()
    assert all(math.isfinite(p) for p in probs.values())
    assert sum(probs.values()) == pytest.approx(1.0, abs=1e-12)
    support = [s for s, p in probs.items() if p > 0]
    listed = sampler.kbest(WORD)[0] if nbest > 0 else list(probs)
    scores = [_score(s) for s in listed]
    target = max(scores) if alpha > 0 else min(scores)
    assert support == [s for s in listed if _score(s) == target]  # ties share the mass
    assert all(probs[s] == pytest.approx(1 / len(support)) for s in support)
    assert {tuple(s) for s in sampler.sample_many(WORD, 50)} <= set(support)
    assert law.shannon_entropy() == pytest.approx(math.log2(len(support)), abs=1e-12)


@pytest.mark.parametrize("alpha", [0.3, -0.7, 25.0])
def test_the_chain_and_the_enumeration_agree(alpha):
    """nbest=-1: the chain kernel (summaries) and the enumerated law (probabilities) are the
    same law, computed two ways, for ordinary α too."""
    law = ULMSampler(V, nbest=-1, alpha=alpha).law(WORD)
    probs = law.probabilities()
    z = sum(math.exp(alpha * _score(s)) for s in probs)
    for s, p in probs.items():
        assert p == pytest.approx(math.exp(alpha * _score(s)) / z, rel=1e-9)
    assert law.expected_tokens == pytest.approx(sum(len(s) * p for s, p in probs.items()),
                                                rel=1e-12)
    assert law.shannon_entropy(math.e) == pytest.approx(
        -sum(p * math.log(p) for p in probs.values() if p > 0), rel=1e-9, abs=1e-12)


def test_alpha_zero_is_uniform_over_the_segmentations():
    law = ULMSampler(V, nbest=-1, alpha=0.0).law(WORD)
    n = law.n_segmentations
    assert all(p == pytest.approx(1 / n) for p in law.probabilities().values())


def test_a_long_word_over_every_segmentation_does_not_overflow():
    """The forward sums grow to log(number of segmentations): summed from their largest term
    (a plain exp of a 4,000-character word's sum is inf). At α = 0 the law is uniform, so its
    entropy is log2 of the count."""
    word = "abc" * 1400
    sampler = ULMSampler(V, nbest=-1, alpha=0.0, seed=1)
    law = sampler.law(word)
    n_bits = math.log2(law.n_segmentations)
    assert n_bits > 1024  # exp(the forward sum in nats) is past the floats
    assert law.shannon_entropy() == pytest.approx(n_bits, rel=1e-9)
    assert "".join(sampler.sample(word)) == word
