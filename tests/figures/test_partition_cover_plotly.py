"""workbench.figures.partition_cover_plotly: notebook 09's panels in plotly show the cover
steps and the reduction's graph (same data as the matplotlib figures) and are readable."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.datasets.corpora import greedtok_text_chunk_counts
from workbench.experiments import greedtok as GT
from workbench.figures.common import readability_problems
from workbench.figures.partition_cover_plotly import plotly_cover_steps, plotly_reduction
from workbench.greedtok import train_greedtok


@pytest.mark.parametrize("name", list(GT.GRAPHS))
def test_reduction_twin(name):
    result = GT.compute_reduction(name)
    fig = plotly_reduction(result)
    edges, vertices = fig.data
    assert list(vertices.text) == list(result.letters)
    filled = [c == "orange" for c in vertices.marker.color]
    assert [letter for letter, f in zip(result.letters, filled) if f] == sorted(
        {t[1] for t in result.tokens}, key=list(result.letters).index)
    assert len(edges.x) == 3 * len(result.edges)
    assert len(fig.layout.annotations) >= len(result.edges)
    assert readability_problems(fig) == []


def test_cover_steps_twin():
    counts = greedtok_text_chunk_counts(30_000)
    model = train_greedtok(counts, 60, progress=False)
    word = GT.cover_demo_words(model, counts, n=1, min_steps=2)[0]
    steps = GT.compute_cover_steps(model, word)
    fig = plotly_cover_steps(steps)
    marks = np.array([s.marks for s in steps], float)
    assert np.array_equal(np.asarray(fig.data[0].z, float), marks)
    assert len(fig.layout.annotations) == len(steps)
    assert readability_problems(fig) == []
