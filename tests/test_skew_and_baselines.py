"""Notebook-02 helpers (skew) and deterministic baselines against naive references."""

from __future__ import annotations

import math

import numpy as np
import pytest
from naive import grampa as naive

from workbench import SegmentationError, Vocabulary
from workbench.segmenters import default_segmenter, longest_match, unigram_viterbi
from workbench.skew import (
    TAU_GRID,
    arc_probabilities,
    segmentality_curve,
    segmentality_moments,
    skew_coordinate,
    skew_panel,
)

PROB_RTOL = 1e-9
TV_MAX = 0.02  # at 20,000 samples


def _cases(seed: int, k: int = 15):
    rng = np.random.default_rng(seed)
    for _ in range(k):
        n = int(rng.integers(2, 10))
        word = "".join(rng.choice(list("ab"), size=n))
        subs = sorted({word[i:j] for i in range(n) for j in range(i + 2, min(n, i + 4) + 1)})
        vocab = ["a", "b"] + [s for s in subs if rng.random() < 0.5]
        yield word, vocab


@pytest.mark.parametrize("direction", ["l2r", "r2l"])
@pytest.mark.parametrize("tau,ell_min", [(1.0, 1), (5.0, 2), (-10.0, 1), (math.inf, 3)])
def test_arc_probabilities_match_naive(tau, ell_min, direction):
    for word, vocab in _cases(1):
        ref = naive.transition_probabilities(word, set(vocab), tau, ell_min, direction)
        comp = arc_probabilities(word, Vocabulary(vocab), tau, ell_min, direction)
        ref = {k: v for k, v in ref.items() if v > 0}
        assert comp.keys() == ref.keys()
        for k in ref:
            assert comp[k] == pytest.approx(ref[k], rel=PROB_RTOL)


def test_segmentality_moments_match_naive_distribution():
    for word, vocab in _cases(2):
        for tau in (1.0, -10.0):
            dist = naive.segmentation_distribution(word, set(vocab), tau, 1, "l2r")
            n = len(word)
            mean = sum(p * (len(s) - 1) / (n - 1) for s, p in dist.items())
            var = sum(p * ((len(s) - 1) / (n - 1) - mean) ** 2 for s, p in dist.items())
            comp = segmentality_moments(word, Vocabulary(vocab), tau)
            assert comp[0] == pytest.approx(mean, rel=PROB_RTOL)
            assert comp[1] == pytest.approx(math.sqrt(var), rel=1e-6, abs=1e-12)


def test_skew_order_follows_footnote_10():
    """Mean segmentality falls (longer tokens) along 0+ ... +inf = -inf ... 0-."""
    curve = segmentality_curve("x" * 12, Vocabulary.infinite())
    assert np.all(np.diff(curve["coordinate"]) > 0)
    assert np.all(np.diff(curve["mean"]) < 0)
    assert skew_coordinate(math.inf) == skew_coordinate(-math.inf) == 0.0
    assert list(curve["tau"]) == sorted(TAU_GRID, key=skew_coordinate)


@pytest.mark.parametrize("p", [1.0, 0.4, 0.0])
def test_skew_panel_samples_match_exact_laws(p):
    vocab = Vocabulary(["a", "b", "ab", "ba", "aba", "bab"], scores=[-2, -2, -1, -1, -1.5, -3])
    out = skew_panel("abababab", vocab, tau=5.0, ell_min=1, p=p, n_samples=20_000, seed=3)
    assert out["m_counts"].sum() == 20_000
    assert out["m_pmf"].sum() == pytest.approx(1.0)
    assert 0.5 * np.abs(out["m_counts"] / 20_000 - out["m_pmf"]).sum() < TV_MAX
    share = out["length_counts"] / out["length_counts"].sum()
    assert 0.5 * np.abs(share - out["length_pmf"]).sum() < TV_MAX
    if p == 0.0:
        det = unigram_viterbi("abababab", vocab)
        assert out["m_pmf"][len(det)] == 1.0 and out["deterministic"] == det
    for seg in out["examples"]:
        assert "".join(seg) == "abababab"
    again = skew_panel("abababab", vocab, tau=5.0, ell_min=1, p=p, n_samples=20_000, seed=3)
    assert np.array_equal(again["m_counts"], out["m_counts"])


def test_unigram_viterbi_is_the_best_scoring_segmentation():
    rng = np.random.default_rng(4)
    for word, vocab in _cases(5, 25):
        scores = rng.normal(size=len(vocab)).tolist()
        v = Vocabulary(vocab, scores=scores)
        table = dict(zip(vocab, scores))

        def key(seg, table=table):
            return (sum(table[t] for t in seg), -len(seg))

        ref = max(map(key, naive.enumerate_segmentations(word, set(vocab))))
        comp = unigram_viterbi(word, v)
        assert "".join(comp) == word
        assert key(comp) == pytest.approx(ref, rel=1e-12)  # ties may differ in order


def test_longest_match_takes_the_longest_prefix_each_time():
    for word, vocab in _cases(6, 25):
        v = Vocabulary(vocab)
        seg = longest_match(word, v)
        assert "".join(seg) == word
        pos = 0
        for tok in seg:
            longest = max(j for j in range(pos + 1, len(word) + 1) if word[pos:j] in set(vocab))
            assert pos + len(tok) == longest
            pos += len(tok)


def test_baselines_bad_input():
    with pytest.raises(ValueError):
        unigram_viterbi("ab", Vocabulary(["a", "b"]))
    with pytest.raises(SegmentationError):
        unigram_viterbi("ac", Vocabulary(["a", "b"], scores=[0.0, 0.0]))
    with pytest.raises(SegmentationError, match="position 1"):
        longest_match("ac", Vocabulary(["a", "b"]))
    with pytest.raises(TypeError):
        longest_match("ab", Vocabulary.infinite())
    assert default_segmenter(Vocabulary.infinite())("abc") == ["abc"]
    with pytest.raises(ValueError):
        skew_panel("ab", Vocabulary(["a", "b"]), p=1.5)
