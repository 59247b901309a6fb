"""workbench.figures.baselines (notebook 07) against enumeration (tests/naive/baselines.py,
tests/naive/grampa.py, tests/naive/samplers.py) and closed forms."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from naive import baselines as naive  # noqa: E402
from naive import grampa as naive_grampa  # noqa: E402
from naive import samplers as naive_samplers  # noqa: E402

from workbench import Vocabulary  # noqa: E402
from workbench.datasets.corpora import letter_words, synthetic_words  # noqa: E402
from workbench.figures import baselines as bl  # noqa: E402
from workbench.figures import rejection_words as rw  # noqa: E402
from workbench.figures import vocabulary_shape as vs  # noqa: E402
from workbench.figures.common import figure_data  # noqa: E402
from workbench.stats import trial_tolerance  # noqa: E402

TOL = 1e-9  # float round-off of sums of logs and products of probabilities

# a small scored vocabulary without score ties among segmentations of the test words
TOKENS = ["a", "b", "c", "ab", "bc", "ca", "abc", "bca", "cab"]
SCORES = [-1.0, -1.3, -1.7, -2.1, -2.3, -2.9, -3.1, -3.7, -4.3]
SMALL = Vocabulary(TOKENS, scores=SCORES, name="small")
WORDS = ["abcab", "cabca", "bcabc", "abca", "ab", "c", "abcabca"]


@pytest.fixture(scope="module")
def shipped():
    from workbench import datasets

    try:
        return {n: datasets.load_vocabulary(n) for n in ("bpe-8k", "ulm-8k")}
    except FileNotFoundError:  # pragma: no cover - the data directory ships with the repo
        pytest.skip("shipped vocabularies not available")


# --------------------------------------------------------------------------- Figure 7
def test_length_distribution_matches_counting(shipped) -> None:
    for vocab in [SMALL, *shipped.values()]:
        d = vs.token_length_distribution(vocab)
        assert int(d["counts"].sum()) == len(vocab)
        assert math.isclose(float(d["share"].sum()), 1.0, abs_tol=TOL)
        want = naive.length_counts(vocab.tokens)
        got = {int(k): int(c) for k, c in zip(d["lengths"], d["counts"]) if c}
        assert got == want
    d = vs.token_length_distribution(shipped["ulm-8k"], without_marker=True)
    stripped = [t[1:] if t.startswith("\u2581") else t for t in shipped["ulm-8k"].tokens]
    assert {int(k): int(c) for k, c in zip(d["lengths"], d["counts"]) if c} == \
        naive.length_counts(stripped)


def test_length_distribution_errors() -> None:
    with pytest.raises(ValueError, match="infinite"):
        vs.token_length_distribution(Vocabulary.infinite())
    with pytest.raises(TypeError):
        vs.token_length_distribution(SMALL, without_marker=1)
    with pytest.raises(TypeError):
        vs.token_length_distribution(["a", "b"])


# --------------------------------------------------------------------------- Figure 9
def test_segmentation_fraction_matches_enumeration() -> None:
    scores = dict(zip(TOKENS, SCORES))
    sizes = [3, 4, 6, 9]
    r = vs.segmentation_fraction(SMALL, WORDS, sizes)
    assert r["sizes"].tolist() == sizes and r["skipped"] == 0
    for k, size in enumerate(sizes):
        a = [naive.fraction_of_vocab(w, TOKENS, scores, size) for w in WORDS]
        b = [naive.fraction_of_infinite(w, TOKENS, scores, size) for w in WORDS]
        a = [x for x in a if x is not None]
        b = [x for x in b if x is not None]
        assert r["words_a"] == len(a) and r["words_b"] == len(b)
        assert math.isclose(r["relative_to_vocab"][k], np.mean(a), abs_tol=TOL)
        assert math.isclose(r["relative_to_infinite"][k], np.mean(b), abs_tol=TOL)
    assert r["relative_to_vocab"][-1] == pytest.approx(1.0, abs=TOL)  # V' = V
    assert r["relative_to_vocab"][0] == 0.0  # characters only: one segmentation each
    per_word = [naive.fraction_of_infinite(w, TOKENS, scores, 9) for w in WORDS if len(w) > 1]
    assert np.allclose(r["fraction"], per_word, atol=TOL)


def test_segmentation_fraction_closed_forms() -> None:
    # infinite vocabulary: N = 2^(|s|-1), so the fraction is exactly 1
    r = vs.segmentation_fraction(Vocabulary.infinite(), ["ab", "abcdefgh", "x" * 40, "z"])
    assert r["fraction"].tolist() == [1.0, 1.0, 1.0] and r["lengths"].tolist() == [2, 8, 40]
    # a vocabulary holding every substring of the word: also every segmentation
    word = "abcdef"
    full = Vocabulary(sorted({word[i:j] for i in range(6) for j in range(i + 1, 7)}))
    assert vs.segmentation_fraction(full, [word])["fraction"].tolist() == [1.0]
    # an unsegmentable word is skipped; a word V' cannot segment counts as 0
    v = Vocabulary(["a", "bc"], scores=[0.0, -1.0])
    r = vs.segmentation_fraction(v, ["abc", "abd"], [1, 2])
    assert r["skipped"] == 1 and r["relative_to_infinite"].tolist() == [0.0, 0.0]


def test_segmentation_fraction_errors() -> None:
    with pytest.raises(ValueError):
        vs.segmentation_fraction(SMALL, WORDS, [2])  # fewer than the 3 characters
    with pytest.raises(ValueError):
        vs.segmentation_fraction(SMALL, WORDS, [10])
    with pytest.raises(TypeError):
        vs.segmentation_fraction(SMALL, "abc")
    with pytest.raises(ValueError):
        vs.segmentation_fraction(SMALL, [])


# --------------------------------------------------------------------------- Figure 6
def test_deterministic_samplers_have_rate_zero() -> None:
    for family in ("bpe-dropout", "maxmatch-dropout"):
        r = bl.regularisation_rate(family, SMALL, WORDS, [0.0], n_samples=5, seed=1)
        assert r["rate"].tolist() == [0.0] and r["high"].tolist() == [0.0]
    # MaxMatch-dropout at q = 1 takes single characters wherever a longer match exists
    r = bl.regularisation_rate("maxmatch-dropout", SMALL, ["abc"], [1.0], n_samples=3)
    assert r["rate"].tolist() == [1.0]


def test_grampa_exact_rate_matches_enumeration() -> None:
    vocab_set = set(TOKENS)
    taus = [1.0, 5.0, -10.0, math.inf, 0.5]
    r = bl.regularisation_rate("grampa", SMALL, WORDS, taus, n_samples=400, seed=3)
    ref = [naive_samplers.kbest(w, dict(zip(TOKENS, SCORES)), 1)[0][1] for w in WORDS]
    n = len(WORDS) * 400
    for k, tau in enumerate(taus):
        law = [naive_grampa.segmentation_distribution(w, vocab_set, tau) for w in WORDS]
        want = np.mean([1.0 - d.get(s, 0.0) for d, s in zip(law, ref)])
        assert math.isclose(r["exact"][k], want, abs_tol=TOL), tau
        # sampled against exact: 4 standard errors of a mean of n draws in [0, 1]
        assert abs(r["rate"][k] - want) <= 4 * math.sqrt(0.25 / n), tau


def test_ulm_exact_rate_matches_enumeration() -> None:
    scores = dict(zip(TOKENS, SCORES))
    alphas = [0.0, 0.3, 2.0]
    r = bl.regularisation_rate("ulm", SMALL, WORDS, alphas, n_samples=400, seed=5)
    n = len(WORDS) * 400
    for k, alpha in enumerate(alphas):
        want = np.mean([naive.ulm_regularisation_rate(w, scores, bl.ULM_NBEST, alpha)
                        for w in WORDS])
        assert math.isclose(r["exact"][k], want, abs_tol=TOL)
        assert abs(r["rate"][k] - want) <= 4 * math.sqrt(0.25 / n)
    assert r["exact"][0] > r["exact"][1] > r["exact"][2]  # smoothing α concentrates


def test_regularisation_rate_is_seeded() -> None:
    a = bl.regularisation_rate("bpe-dropout", SMALL, WORDS, [0.3, 0.6], n_samples=20, seed=7)
    b = bl.regularisation_rate("bpe-dropout", SMALL, WORDS, [0.3, 0.6], n_samples=20, seed=7)
    c = bl.regularisation_rate("bpe-dropout", SMALL, WORDS, [0.6], n_samples=20, seed=7)
    assert a["rate"].tolist() == b["rate"].tolist()
    g = [bl.regularisation_rate("grampa", SMALL, WORDS * 5, [1.0], n_samples=20, seed=s)["rate"]
         for s in (0, 1)]
    assert g[0][0] != g[1][0]  # a different seed gives different samples
    assert c["values"].tolist() == [0.6] and 0 <= c["rate"][0] <= 1


def test_regularisation_rate_errors() -> None:
    with pytest.raises(ValueError, match="family"):
        bl.regularisation_rate("bpe", SMALL, WORDS)
    with pytest.raises(ValueError, match="finite"):
        bl.regularisation_rate("grampa", Vocabulary.infinite(), WORDS)
    with pytest.raises(TypeError):
        bl.regularisation_rate("ulm", SMALL, "abc")
    with pytest.raises(ValueError):
        bl.regularisation_rate("ulm", SMALL, [])
    with pytest.raises(ValueError):
        bl.regularisation_rate("bpe-dropout", SMALL, WORDS, [1.5])
    with pytest.raises(ValueError):
        bl.regularisation_rate("ulm", SMALL, WORDS, [-0.1])
    with pytest.raises(ValueError):
        bl.regularisation_rate("ulm", SMALL, WORDS, [0.1], n_samples=0)
    with pytest.raises(ValueError):
        bl.regularisation_rate("grampa", SMALL, WORDS, [1.0], reference="grampa")


def test_regularisation_plot_shows_the_rates() -> None:
    curves = {f: bl.regularisation_rate(f, SMALL, WORDS, vals, n_samples=3)
              for f, vals in (("ulm", [0.0, 1.0]), ("grampa", [1.0, -2.0, math.inf]))}
    shown = figure_data(bl.plot_regularisation_rates(curves))
    assert shown["rr-ulm"].tolist() == curves["ulm"]["rate"].tolist()
    # GRaMPa drawn along −1/τ: τ = 1 (−1), ±inf (0), −2 (0.5)
    g = curves["grampa"]
    assert shown["rr-exact-grampa"].tolist() == [g["exact"][0], g["exact"][2], g["exact"][1]]


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
    assert d["tv_markov"] > 0.02  # Appendix A.1: plain Markov is not the joint
    assert d["tv_sampled"] <= d["tv_bound"]  # Appendix B: the samples are (δ = 1e-6)
    law, expected = naive_samplers.unigram_rejection_law("abcab", set(TOKENS), weights)
    assert math.isclose(d["expected_trials"], expected, rel_tol=1e-9)
    shown = figure_data(rw.plot_unigram_demo(d))
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
    shown = figure_data(rw.plot_rejection_words(t))
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


# --------------------------------------------------------------------------- words
def test_words_are_spelled_and_deterministic(shipped) -> None:
    ulm = shipped["ulm-8k"]
    words = letter_words(20, ulm, offset=5)
    assert all(w.startswith("\u2581") for w in words)
    assert [ulm.from_alphabet(w).strip() for w in words] == \
        letter_words(20, Vocabulary.infinite(), offset=5)
    a = synthetic_words(33, 4, ulm, seed=2)
    assert a == synthetic_words(33, 4, ulm, seed=2) and {len(w) for w in a} == {33}
    assert a != synthetic_words(33, 4, ulm, seed=3)
    with pytest.raises(ValueError):
        letter_words(0, ulm)


@pytest.mark.slow
def test_figure6_on_shipped_data_is_in_the_papers_range(shipped) -> None:
    curves = bl.figure6(n_words=100, n_samples=4, seed=0,
                        values={"bpe-dropout": [0.1], "ulm": [0.15], "grampa": [1.0]})
    # the paper: ≈ 0.11 for p_d = 0.1 (Figure 6a); ≈ 0.5 for ULM α = 0.15, k = 64 (§5.1);
    # wide margins: the corpus and vocabulary size differ
    assert 0.03 <= curves["bpe-dropout"]["rate"][0] <= 0.25
    assert 0.2 <= curves["ulm"]["exact"][0] <= 0.7
    assert curves["grampa"]["exact"][0] > curves["ulm"]["exact"][0]


def test_grampa_axis_ticks_are_labelled_and_apart() -> None:
    """Issue 21: Figure 6's GRaMPa axis names τ (placed at −1/τ) and has no crowded ticks."""
    taus = [0.25, 0.5, 1.0, 2.0, 5.0, 20.0, math.inf, -20.0, -5.0, -2.0, -1.0]
    curves = {"grampa": bl.regularisation_rate("grampa", SMALL, WORDS, taus, n_samples=2)}
    ax = bl.plot_regularisation_rates(curves).axes[0]
    ticks = ax.get_xticks()
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert all(labels) and "±∞" in labels and "τ" in ax.get_xlabel()
    assert np.diff(np.sort(ticks)).min() >= 0.09 * (max(ticks) - min(ticks)) - 1e-12
    for tick, label in zip(ticks, labels):  # each label is the τ at its −1/τ position
        tau = math.inf if label == "±∞" else float(label.replace("−", "-"))
        assert math.isclose(tick, 0.0 - 1.0 / tau, abs_tol=1e-12)


def test_length_axis_keeps_the_bulk_and_says_what_is_cut() -> None:
    """Issue 21: one very long token does not stretch Figure 7's axis; the cut is said."""
    from itertools import product

    short = ["".join(p) for n in (1, 2, 3) for p in product("abcdefg", repeat=n)]  # 399 types
    long_tail = Vocabulary(short + ["ab" * 40], name="tail")
    dists = [vs.token_length_distribution(SMALL), vs.token_length_distribution(long_tail)]
    fig = vs.plot_length_distributions(dists)
    ax = fig.axes[0]
    low, high = ax.get_xlim()
    assert high < 10 and low < 1  # lengths 1–3 in view, not the 80-character token
    assert "tail 1" in ax.get_title() and "longest 80" in ax.get_title()
    assert figure_data(fig)["lengths-1"].tolist() == dists[1]["share"].tolist()  # still drawn
