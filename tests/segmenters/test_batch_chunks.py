"""The batch deterministic kernel (scratch per chunk of words) against the per-word segmenters."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench import SegmentationError, Vocabulary
from workbench.segmenters import longest_match, unigram_viterbi
from workbench.segmenters.batch import encode_deterministic, encode_deterministic_code_points

VOCAB = Vocabulary(["a", "b", "c", "ab", "bc", "abc", "ca", "cab", "bcab"],
                   scores=[-2.0, -2.5, -3.0, -3.5, -3.0, -4.0, -4.5, -5.0, -6.5])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="abc", max_size=40), min_size=0, max_size=700),
       st.sampled_from(["viterbi", "longest"]))
def test_batch_equals_per_word_across_chunks(words, method):
    per_word = unigram_viterbi if method == "viterbi" else longest_match
    expected = []
    try:
        expected = [per_word(w, VOCAB) if w else [] for w in words]
    except SegmentationError:  # longest match can strand itself; the batch must raise too
        with pytest.raises(SegmentationError):
            encode_deterministic(words, VOCAB, method)
        return
    ids, offsets = encode_deterministic(words, VOCAB, method)
    got = [VOCAB.decode_ids(ids[offsets[k]:offsets[k + 1]]) for k in range(len(words))]
    assert got == expected
    cps = np.array([ord(c) for c in "".join(words)], dtype=np.int32)
    flat = encode_deterministic_code_points(cps, np.cumsum([0] + [len(w) for w in words]),
                                            VOCAB, method)
    assert np.array_equal(flat[0], ids) and np.array_equal(flat[1], offsets)


def test_batch_names_the_unsegmentable_word_after_a_chunk_boundary():
    words = ["ab"] * 300 + ["abd"] + ["c"] * 10
    with pytest.raises(SegmentationError, match="'abd'"):
        encode_deterministic(words, VOCAB, "viterbi")
