"""workbench.experiments.grampa_rejection_words (GRaMPa App. A.1, A.5, B on real words, notebook
07) against enumeration and the closed forms.
"""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")


from fixtures import SCORES, SMALL, TOKENS, TOL  # noqa: E402
from naive import samplers as naive_samplers  # noqa: E402

from workbench import Vocabulary  # noqa: E402
from workbench.experiments import grampa_rejection_words as rw  # noqa: E402
from workbench.experiments.grampa_rejection_words import top_segmentations  # noqa: E402
from workbench.figures import rejection_words as rw_fig  # noqa: E402
from workbench.figures.common import figure_data  # noqa: E402
from workbench.stats import trial_tolerance  # noqa: E402


# --------------------------------------------------------------------------- App. A.1, B
def test_unigram_demo_against_enumeration() -> None:
    weights = {t: math.exp(s) for t, s in zip(TOKENS, SCORES)}
    d = rw.unigram_demo("abcab", SMALL, n_samples=4000, seed=0)
    joint = naive_samplers.joint_law("abcab", set(TOKENS), weights)
    for seg, j, m in zip(d["tokens"], d["joint"], d["markov"]):
        assert math.isclose(j, joint[seg], abs_tol=TOL)
        want = naive_samplers.markov_probability(seg, "abcab", set(TOKENS), weights)
        assert math.isclose(m, want, abs_tol=TOL)
    assert np.allclose(d["rejection"], d["joint"], atol=TOL)
    # ``order``: every segmentation, most probable first
    assert sorted(d["order"].tolist()) == list(range(len(d["tokens"])))
    assert np.all(np.diff(d["joint"][d["order"]]) <= 0)
    assert not d["joint"].flags.writeable                              # cached, read-only
    assert rw.unigram_demo("abcab", SMALL, 4000, 0)["joint"] is d["joint"]
    assert d["tv_markov"] > 0.02  # Appendix A.1: plain Markov is not the joint
    assert d["tv_sampled"] <= d["tv_bound"]  # Appendix B: the samples are (δ = 1e-6)
    law, expected = naive_samplers.unigram_rejection_law("abcab", set(TOKENS), weights)
    assert math.isclose(d["expected_trials"], expected, rel_tol=1e-9)
    shown = figure_data(rw_fig.plot_unigram_demo(d))
    order = np.argsort(-d["joint"], kind="stable")
    assert shown["sampled"].tolist() == d["sampled"][order].tolist()


def test_unigram_demo_errors() -> None:
    with pytest.raises(TypeError):
        rw.unigram_demo("abc", Vocabulary(["a", "b", "c"]))  # no scores
    with pytest.raises(ValueError):
        rw.unigram_demo("abc", SMALL, n_samples=0)


# --------------------------------------------------------------------------- rejection cost
def test_rejection_cost_on_words_matches_the_laws() -> None:
    vocab = Vocabulary(list("abcdefghijklmnopqrstuvwxyz") + ["th", "he", "the", "in", "an"])
    vocab_set = set(vocab.tokens)
    t = rw.rejection_cost_words(vocab, [3, 5, 7], words_per_length=3, n_samples=300, seed=0,
                                trial_budget=10**6)
    for i, words in enumerate(t["words"]):
        assert [len(w) for w in words] == [t["lengths"][i]] * 3
        for name, law in (("markov-tight", lambda w: naive_samplers.markov_rejection_law(
                              w, vocab_set, "tight")[1]),
                          ("markov-safe", lambda w: naive_samplers.markov_rejection_law(
                              w, vocab_set, "safe")[1]),
                          ("bit", lambda w: naive_samplers.bit_rejection_law(w, vocab_set,
                                                                             0.5)[1])):
            expected = [float(law(w)) for w in words]
            assert math.isclose(t[f"{name}_expected"][i], np.median(expected), rel_tol=1e-9)
            assert t[f"{name}_words_measured"][i] == 3
            mean = float(np.mean(expected))
            assert abs(t[f"{name}_measured"][i] - mean) <= trial_tolerance(
                max(expected), 900), (name, i)


def test_rejection_cost_infinite_vocabulary_closed_form() -> None:
    t = rw.rejection_cost_words(Vocabulary.infinite(), [4, 12], 2, 10, seed=0,
                                trial_budget=10**4)
    # Eq. 47: n!/2^(n-1); bit rejection never rejects under the infinite vocabulary
    assert t["markov-tight_expected"].tolist() == pytest.approx([3.0, math.factorial(12) / 2**11])
    assert t["bit_expected"].tolist() == pytest.approx([1.0, 1.0], abs=TOL)
    assert np.isnan(t["markov-safe_measured"][1])  # 10 · 2e5 trials exceed the budget
    shown = figure_data(rw_fig.plot_rejection_words(t))
    assert shown["grampa"].tolist() == [1.0, 1.0]


def test_rejection_cost_errors() -> None:
    with pytest.raises(ValueError):
        rw.rejection_cost_words(SMALL, [])
    with pytest.raises(ValueError):
        rw.rejection_cost_words(SMALL, [0])
    with pytest.raises(TypeError):
        rw.rejection_cost_words(SMALL, [3], words_per_length=1.5)
    with pytest.raises(ValueError):
        rw.rejection_cost_words(SMALL, [3], trial_budget=10**12)  # no unbounded runs


def test_top_segmentations() -> None:
    demo = {"joint": [0.1, 0.4, 0.1, 0.4]}
    assert top_segmentations(demo, 3).tolist() == [1, 3, 0]  # ties: enumeration order
    assert top_segmentations(demo, 10).tolist() == [1, 3, 0, 2]
    assert isinstance(top_segmentations(demo, 1), np.ndarray)
    with pytest.raises(ValueError):
        top_segmentations(demo, 0)
    with pytest.raises(TypeError):
        top_segmentations(demo, 1.5)
