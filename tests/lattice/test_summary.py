"""A lattice's summaries: paths through each arc against enumeration, and the value record."""

from __future__ import annotations

import pytest

from workbench import Vocabulary
from workbench.lattice import Lattice, enumerate_segmentations
from workbench.lattice.summary import LatticeSummary, paths_through

VOCAB = Vocabulary(["a", "b", "c", "ab", "bc", "ca", "abc", "bca"])


def _uses(segmentation: tuple[str, ...], arc: tuple[int, int]) -> bool:
    ends, pos = set(), 0
    for token in segmentation:
        ends.add((pos, pos + len(token)))
        pos += len(token)
    return arc in ends


@pytest.mark.parametrize("direction", ["l2r", "r2l"])
@pytest.mark.parametrize("word", ["abcabca", "abcbca", "cab", "d", ""])
def test_paths_through_counts_the_segmentations_using_each_arc(word, direction) -> None:
    lat = Lattice.build(word, VOCAB, 1, direction)
    every = enumerate_segmentations(word, VOCAB, 1, direction) if lat.count else []
    assert lat.paths_through() == [sum(_uses(s, arc) for s in every) for arc in lat.arcs]
    s = lat.summary()
    assert isinstance(s, LatticeSummary) and s.through == tuple(lat.paths_through())
    assert s.count == len(every) and s.n == len(word)
    assert s.tokens == tuple(word[i:j] for i, j in lat.arcs)


def test_summaries_compare_by_value_and_hold_no_vocabulary() -> None:
    a = Lattice.build("abca", VOCAB).summary()
    b = Lattice.build("abca", Vocabulary(list(VOCAB.tokens) + ["zz"])).summary()
    assert a == b and hash(a) == hash(b) and "vocab" not in vars(a)
    assert a != Lattice.build("abca", VOCAB, direction="r2l").summary()


def test_paths_through_multiplies_the_two_counts() -> None:
    assert paths_through([(0, 2), (1, 3)], [1, 2, 3, 4], [5, 6, 7, 8]) == [7, 16]
    assert paths_through([], [1], [1]) == []
