"""workbench.greedtok.objective.segment: a best segmentation under a token set (notebook 09)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from naive import greedtok as naive

from workbench.greedtok import partition, segment


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet="ab", min_size=1, max_size=10),
       st.sets(st.text(alphabet="ab", min_size=2, max_size=4), max_size=5))
def test_segment_is_a_best_segmentation(word, tokens):
    pieces = segment(word, tokens)
    assert "".join(pieces) == word
    assert all(len(p) == 1 or p in tokens for p in pieces)
    assert len(pieces) == partition(word, tokens) == naive.min_partition(word, tokens)
