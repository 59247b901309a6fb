"""workbench.datasets.corpora.greedtok_chunk_counts: notebook 09's chunks keep their leading
spaces."""

from __future__ import annotations

from workbench.datasets.corpora import greedtok_chunk_counts


def test_chunk_counts_keep_leading_spaces():
    assert greedtok_chunk_counts("a b,  c\nd") == {"a": 1, " b": 1, ",": 1, " c": 1, "d": 1}
