"""Deterministic segmenters (Algorithm 3's T) against naive references."""

from __future__ import annotations

import numpy as np
import pytest
from naive import grampa as naive

from workbench import SegmentationError, Vocabulary
from workbench.segmenters import default_segmenter, longest_match, unigram_viterbi


def test_unigram_viterbi_is_the_best_scoring_segmentation():
    rng = np.random.default_rng(4)
    for word, vocab in naive.small_cases(5, 25):
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
    for word, vocab in naive.small_cases(6, 25):
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
