"""workbench.figures.partition_cover: notebook 09's reduction drawing is readable."""

from __future__ import annotations

import pytest

from workbench.experiments import greedtok as pc


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
