"""Notebook 12's computation: the laws side by side against enumeration, the knob solver,
entropy matching, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from naive import samplers as naive  # importable: tests/conftest.py puts tests/ on sys.path

from workbench.experiments import laws_compare as L

WORD = "▁token"
#: Float agreement of the laws with the naive enumeration (sums of a few hundred terms).
EXACT = 1e-12
#: Entropy (bits) within which a matched knob reproduces the target (bisection to 1e-4).
MATCH = 1e-2


@pytest.fixture(scope="module")
def comparison():
    return L.compare_laws(WORD, tau=2.0, alpha=0.5, p=0.2, q=0.3, m=10)


def test_segmentations_are_ordered_and_each_law_sums_to_one(comparison):
    segs = comparison.segmentations
    assert list(segs) == sorted(set(segs), key=lambda s: (len(s), s))
    assert all("".join(s) == WORD for s in segs)
    assert (np.diff(comparison.token_counts) >= 0).all()
    for name, sl in comparison.laws.items():
        probs = comparison.probabilities[name]
        assert probs.sum() + sl.failure_mass == pytest.approx(1.0, abs=EXACT)
        assert (probs > 0).sum() == sl.support
    assert set(comparison.laws) == set(L.SAMPLERS)


def test_ulm_is_the_softmax_of_alpha_times_score_over_every_segmentation(comparison):
    from workbench.datasets import load_vocabulary

    vocab = load_vocabulary(L.VOCABULARY["ulm"])
    score = dict(zip(vocab.tokens, vocab.scores.tolist()))
    segs = naive.segmentations(WORD, set(score))
    logits = np.array([0.5 * sum(score[t] for t in s) for s in segs])
    want = np.exp(logits - logits.max())
    want /= want.sum()
    law = comparison.laws["ulm"].law
    assert law.support_size == len(segs) == comparison.laws["ulm"].n_segmentations
    for s, p in zip(segs, want):
        assert float(law.probability(s)) == pytest.approx(p, abs=EXACT)
    assert comparison.laws["ulm"].entropy == pytest.approx(
        -sum(p * math.log2(p) for p in want), abs=1e-9)


def test_uniform_limits_agree():
    c = L.compare_laws(WORD, tau=1.0, alpha=0.0, p=0.0, q=0.0)
    n = c.laws["grampa"].n_segmentations
    assert c.laws["grampa"].entropy == pytest.approx(math.log2(n), abs=1e-9)
    np.testing.assert_allclose(c.probabilities["grampa"], c.probabilities["ulm"], atol=EXACT)
    for name in ("bpe-dropout", "maxmatch-dropout"):  # no dropout: one segmentation
        assert c.laws[name].support == 1 and c.laws[name].regularisation_rate == 0.0
        assert c.laws[name].expected_distinct == 1.0
    assert math.isnan(c.laws["grampa"].regularisation_rate)
    assert c.laws["grampa"].expected_distinct == pytest.approx(
        n * (1 - (1 - 1 / n) ** c.m), rel=1e-12)


def test_laws_are_cached_and_follow_their_knob():
    a = L.sampler_law("bpe-dropout", WORD, 0.2)
    assert L.sampler_law("bpe-dropout", WORD, 0.2) is a
    assert L.sampler_law("bpe-dropout", WORD, 0.3) is not a
    hf = L.sampler_law("bpe-dropout", WORD, 0.2, "hf")
    assert hf.regularisation_rate < a.regularisation_rate  # HF's extra lives


def test_solve_knob():
    s = L.solve_knob(lambda x: math.exp(-x), 0.5, 0.0, 5.0, tolerance=1e-6)
    assert s.reached and s.value == pytest.approx(math.log(2), abs=1e-6)
    hump = L.solve_knob(lambda x: x * (1 - x), 0.16, 0.0, 1.0, tolerance=1e-8)
    assert hump.value == pytest.approx(0.2, abs=1e-7)  # the smaller root
    miss = L.solve_knob(lambda x: x * (1 - x), 0.5, 0.0, 1.0)
    assert not miss.reached and miss.value == 0.5 and miss.achieved == 0.25
    assert L.solve_knob(lambda x: x, 0.0, 0.0, 1.0) == L.KnobSolution(0.0, 0.0, True)
    with pytest.raises(ValueError):
        L.solve_knob(lambda x: x, 0.5, 1.0, 0.0)
    with pytest.raises(ValueError):
        L.solve_knob(lambda x: math.nan, 0.5, 0.0, 1.0)
    with pytest.raises(ValueError):
        L.solve_knob(lambda x: x, 0.5, 0.0, 1.0, tolerance=0.0)


@pytest.mark.parametrize("tau", [5.0, -10.0])
def test_match_entropies_reaches_grampas_entropy(tau):
    mt = L.match_entropies(WORD, tau)
    target = L.sampler_law("grampa", WORD, tau).shannon_entropy()
    assert mt.target == target
    for name, sol in (("ulm", mt.alpha), ("bpe-dropout", mt.p)):
        if sol.reached:
            got = L.sampler_law(name, WORD, sol.value).shannon_entropy()
            assert got == pytest.approx(target, abs=MATCH), name


def test_match_entropies_says_when_bpe_dropout_cannot_spread_enough():
    mt = L.match_entropies(WORD, 1.0)  # uniform: the largest entropy there is
    assert mt.alpha.reached and mt.alpha.value == 0.0
    assert not mt.p.reached and mt.p.achieved < mt.target
    grid = [L.sampler_law("bpe-dropout", WORD, p).shannon_entropy()
            for p in np.linspace(0, 1, 21)]
    assert mt.p.achieved == pytest.approx(max(grid), abs=1e-12)


def test_errors():
    with pytest.raises(ValueError, match="sampler"):
        L.sampler_law("stochastok", WORD, 0.1)
    with pytest.raises(ValueError):
        L.compare_laws(WORD, alpha=-1.0)
    with pytest.raises(ValueError):
        L.compare_laws(WORD, p=1.5)
    with pytest.raises(ValueError):
        L.compare_laws(WORD, tau=0.0)
    with pytest.raises(ValueError, match="semantics"):
        L.compare_laws(WORD, semantics="nope")
    with pytest.raises(TypeError):
        L.compare_laws(123)
