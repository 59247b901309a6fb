"""Notebook 09's pure functions (the notebook itself runs in tests/test_notebooks.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import greedtok as naive

from workbench.datasets.corpora import greedtok_chunk_counts
from workbench.experiments import greedtok as pc
from workbench.greedtok import partition, segment, train_greedtok


def test_chunk_counts_keep_leading_spaces():
    assert greedtok_chunk_counts("a b,  c\nd") == {"a": 1, " b": 1, ",": 1, " c": 1, "d": 1}


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet="ab", min_size=1, max_size=10),
       st.sets(st.text(alphabet="ab", min_size=2, max_size=4), max_size=5))
def test_segment_is_a_best_segmentation(word, tokens):
    pieces = segment(word, tokens)
    assert "".join(pieces) == word
    assert all(len(p) == 1 or p in tokens for p in pieces)
    assert len(pieces) == partition(word, tokens) == naive.min_partition(word, tokens)


@pytest.mark.parametrize("name", list(pc.GRAPHS))
def test_reduction_panel_agrees_with_theorem_1(name):
    result = pc.compute_reduction(name)
    assert pc.reduction_agrees(result)
    assert all(len(s) == 3 for s in result.segmentations.values())


def test_cover_steps_replay_training():
    counts = {" understand": 3, " under": 4, " stand": 2, " and": 5}
    model = train_greedtok(counts, 6, progress=False)
    steps = pc.compute_cover_steps(model, " understand")
    assert steps[0].rank == -1 and len(steps[0].pieces) == len(" understand")
    assert steps[-1].pieces == model.encode(" understand")
    for s in steps:
        assert sum(s.marks) == len(" understand") - len(s.pieces)
    # the state after rank r is what the reference trainer holds after r + 1 steps
    r = steps[1].rank
    _, _, state = naive.greedtok(counts, r + 1)
    assert steps[1].pieces == naive.segmentation(b" understand", state[b" understand"])


def test_overlap_and_unknown_graph():
    assert pc.compute_overlap({"A": {1}, "B": {1, 2}}) == {"A": 1, "B": 2, "A ∩ B": 1}
    with pytest.raises(ValueError, match="unknown graph"):
        pc.compute_reduction("no such graph")


def test_cover_demo_words_show_a_cover():
    """Issue 21: the cover panel's words are lower-case, end in several tokens and change
    several times; capitalised names that become one token are left out."""
    counts = {"CLEOPATRA": 50, " understand": 3, " under": 4, " stand": 2, " and": 5,
              " Understand": 9}
    model = train_greedtok(counts, 6, progress=False)
    got = pc.cover_demo_words(model, counts, min_bytes=6, min_steps=2)
    assert "CLEOPATRA" not in got and " Understand" not in got
    for word in got:
        assert word.strip().islower() and len(model.encode(word)) >= 2
        assert len(pc.compute_cover_steps(model, word)) - 1 >= 2
    expected = [w for w in sorted(counts, key=lambda w: -counts[w])
                if w.strip().isalpha() and w.strip().islower() and len(w.encode()) >= 6
                and len(model.encode(w)) >= 2 and len(pc.compute_cover_steps(model, w)) >= 3]
    assert got == expected
    with pytest.raises(ValueError):
        pc.cover_demo_words(model, counts, n=0)


@pytest.mark.parametrize("name", list(pc.GRAPHS))
def test_reduction_drawing_has_no_overlapping_labels(name):
    """Issue 21: the edge labels (or numbers) of the reduction's drawing never overlap."""
    import matplotlib

    matplotlib.use("Agg")
    from workbench.figures.partition_cover import plot_reduction

    fig = plot_reduction(pc.compute_reduction(name))
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    boxes = [t.get_window_extent(renderer) for t in ax.texts if "\n" not in t.get_text()]
    assert len(boxes) >= len(pc.GRAPHS[name])
    overlaps = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:] if a.overlaps(b)]
    assert overlaps == []
    assert "$" not in ax.get_title().replace(r"\$", "")  # every $ escaped: no mathtext
    from workbench.figures.common import readability_problems

    assert readability_problems(fig) == []
