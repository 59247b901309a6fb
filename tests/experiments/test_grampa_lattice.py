"""workbench.experiments.grampa_lattice (notebook 01): the lattice view and the arc table,
against workbench.Lattice and independent path counts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from workbench import (
    Lattice,
    SegmentationError,
    Vocabulary,
    count_segmentations,
    enumerate_segmentations,
)
from workbench.datasets import figure1_vocabulary
from workbench.experiments.grampa_lattice import (
    TABLE_MAX_ARCS,
    ArcTable,
    LatticeView,
    arc_table,
    lattice_view,
)
from workbench.grampa import arc_probabilities

FIG1 = figure1_vocabulary()
SMALL = Vocabulary(["a", "b", "c", "ab", "bc", "abc", "ca"], name="small")


# --------------------------------------------------------------------------- summary
@pytest.mark.parametrize("direction", ["l2r", "r2l"])
@pytest.mark.parametrize("ell_min", [1, 2, 3])
@pytest.mark.parametrize("word,vocab", [
    ("GRAMPA", FIG1), ("abcabc", SMALL), ("abca", SMALL), ("abcdefg", Vocabulary.infinite()),
    ("", SMALL),
])
def test_summary_agrees_with_lattice_module(word, vocab, ell_min, direction) -> None:
    s = lattice_view(word, vocab, ell_min, direction)
    lat = Lattice.build(word, vocab, ell_min, direction)
    assert s.error is None
    assert s.word == word
    assert s.lattice.count == count_segmentations(word, vocab, ell_min, direction) == lat.count
    assert list(s.lattice.path_counts) == lat.path_counts
    assert list(s.lattice.arcs) == lat.arcs
    assert list(s.segmentations) == enumerate_segmentations(word, vocab, ell_min=ell_min,
                                                            direction=direction)
    assert (s.ell_min, s.direction) == (ell_min, direction)
    assert s == lattice_view(word, vocab, ell_min, direction)  # compares by value


def test_summary_lists_only_up_to_max_list() -> None:
    inf = Vocabulary.infinite()
    assert len(lattice_view("abcdefg", inf, max_list=64).segmentations) == 64
    s = lattice_view("abcdefgh", inf, max_list=64)
    assert s.lattice.count == 128 and s.segmentations is None and s.error is None


def test_summary_spells_the_word_in_the_alphabet() -> None:
    gpt2_like = Vocabulary(["Ġ", "h", "i", "Ġh", "hi"], alphabet="byte-level")
    s = lattice_view(" hi", gpt2_like)
    assert s.word == "Ġhi"
    assert list(s.segmentations) == enumerate_segmentations("Ġhi", gpt2_like)
    sp_like = Vocabulary(["▁", "x", "▁x"], alphabet="sentencepiece")
    assert lattice_view(" x", sp_like).lattice.count == 2


def test_summary_reports_unsegmentable_words() -> None:
    s = lattice_view("abd", SMALL)
    lat = Lattice.build("abd", SMALL)
    with pytest.raises(SegmentationError) as err:
        lat.require_segmentable()
    assert s.error == str(err.value)
    assert s.lattice.count == 0 and s.segmentations is None
    assert list(s.lattice.path_counts) == lat.path_counts and list(s.lattice.arcs) == lat.arcs


@pytest.mark.parametrize("word,vocab,kwargs,fragment", [
    (3, SMALL, {}, "word must be str"),
    ("ab", ["a", "b"], {}, "vocab must be a workbench.Vocabulary"),
    ("ab", SMALL, {"ell_min": 0}, "ell_min must be >= 1"),
    ("ab", SMALL, {"ell_min": 1.5}, "ell_min must be an int"),
    ("ab", SMALL, {"direction": "up"}, "direction must be"),
    ("ab", SMALL, {"max_list": "many"}, "max_list must be an int"),
])
def test_summary_turns_bad_input_into_an_error(word, vocab, kwargs, fragment) -> None:
    s = lattice_view(word, vocab, **kwargs)
    assert fragment in s.error
    assert s.segmentations is None and s.table is None
    assert s.lattice is None or s.lattice.count == 0




# --------------------------------------------------------------------------- the arc table
def _paths(n: int, arcs: list[tuple[int, int]], start: int, end: int) -> int:
    """Paths from node start to node end over the arcs, by plain recursion."""
    if start == end:
        return 1
    return sum(_paths(n, arcs, j, end) for i, j in arcs if i == start)


@pytest.mark.parametrize("direction", ["l2r", "r2l"])
@pytest.mark.parametrize("ell_min", [1, 2])
@pytest.mark.parametrize("word,vocab", [("GRAMPA", FIG1), ("abcabca", SMALL)])
def test_arc_table_counts_paths_through_each_arc(word, vocab, ell_min, direction) -> None:
    lat = Lattice.build(word, vocab, ell_min, direction)
    n, arcs = len(word), lat.arcs
    s = lat.summary()
    assert s.through == tuple(_paths(n, arcs, 0, i) * _paths(n, arcs, j, n) for i, j in arcs)
    assert sum(t for (i, _), t in zip(arcs, s.through) if i == 0) == s.count
    for tau in (None, 1.0, 5.0, -10.0):
        table = arc_table(lat, tau)
        assert isinstance(table, ArcTable) and table.lattice == s
        walked = arc_probabilities(word, vocab, 1.0 if tau is None else tau, ell_min, direction)
        if tau is None:
            assert set(table.probability) == {None}
        else:
            assert table.probability == tuple(walked.get(a) for a in arcs)
        if tau in (None, 1.0):  # exact: a ratio of path counts, equal to the float
            assert all(q is not None and abs(float(q) - walked[a]) < 1e-12
                       for q, a in zip(table.exact, arcs))
        else:
            assert set(table.exact) == {None}


def test_figure1_arc_table_is_the_caption() -> None:
    table = lattice_view("GRAMPA", FIG1, 1, "r2l").table
    exact = dict(zip(table.lattice.arcs, table.exact))
    assert (exact[(3, 4)], exact[(2, 4)], exact[(0, 4)]) == (
        Fraction(4, 7), Fraction(2, 7), Fraction(1, 7))


def test_arc_table_needs_probabilities_for_a_summary() -> None:
    s = Lattice.build("GRAMPA", FIG1, 2, "l2r").summary()
    with pytest.raises(ValueError, match="no vocabulary"):
        arc_table(s, 5.0)
    probs = arc_probabilities("GRAMPA", FIG1, 5.0, 2, "l2r")
    assert arc_table(s, 5.0, probs).probability == tuple(probs.get(a) for a in s.arcs)


def test_view_has_no_table_past_its_size() -> None:
    v = lattice_view("x" * 60, Vocabulary.infinite(), max_list=0)
    assert len(v.lattice.arcs) > TABLE_MAX_ARCS and v.table is None and v.error is None
    assert isinstance(v, LatticeView)


def test_big_counts_stay_exact() -> None:
    s = lattice_view("x" * 40, Vocabulary.infinite(), max_list=0).lattice
    assert s.count == 2**39 and s.through[0] == 2**38
