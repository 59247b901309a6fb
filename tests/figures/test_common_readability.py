"""workbench.figures.lint.readability_problems: each defect found, clean figures pass."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest
from matplotlib.figure import Figure

from workbench.figures.lint import GUIDE, readability_problems


def _ax(size=(4, 3)):
    fig = Figure(figsize=size, layout="constrained")
    return fig, fig.subplots()


def _clean() -> Figure:
    fig, ax = _ax()
    x = np.arange(5)
    ax.bar(x, [3, 1, 4, 1, 5], label="samples")
    ax.plot(x, [2, 2, 3, 2, 4], color="k", label="law")
    ax.axvline(2.5, linestyle=":", gid=GUIDE)
    ax.legend()
    ax.set(title="clean", xlabel="x", ylabel="count")
    return fig


def test_clean_figures_pass() -> None:
    assert readability_problems(_clean()) == []
    fig, ax = _ax()
    ax.plot([1, 2, 3], [1, 4, 9])  # one series needs no legend
    ax.text(1.5, 6, "one label")
    assert readability_problems(fig) == []
    fig, ax = _ax()
    ax.plot([0, 1], [0, 1], gid="a", label="a")
    ax.plot([0, 1], [1, 0], label="b")
    ax.text(0.8, 0.85, "a")  # labelled directly on the axis
    ax.text(0.8, 0.1, "b")
    assert readability_problems(fig) == []
    fig, ax = _ax()
    ax.bar([0, 1], [0.95, 0.97])
    ax.set(ylim=(0.9, 1.0), ylabel="share (zoomed)")
    assert readability_problems(fig) == []
    fig, ax = _ax()  # a log value axis has no 0: allowed
    ax.bar([0, 1], [10, 1000])
    ax.set_yscale("log")
    assert readability_problems(fig) == []
    fig, ax = _ax()  # a diagram: axis off, texts only
    ax.set_axis_off()
    ax.text(0.1, 0.5, "a diagram")
    assert readability_problems(fig) == []


def test_empty_axis() -> None:
    fig, ax = _ax()
    ax.plot([5, 6], [5, 6])
    ax.set(xlim=(0, 1), ylim=(0, 1))
    assert any("no visible data" in p for p in readability_problems(fig))
    fig, ax = _ax()
    ax.bar([0, 1, 2], [0, 0, 0])
    assert any("no visible data" in p for p in readability_problems(fig))
    fig, ax = _ax()  # nothing drawn at all
    assert any("no visible data" in p for p in readability_problems(fig))


def test_mass_in_one_bin_under_the_axis() -> None:
    """Figure 5's τ = −2 panel: every sample in span 0 of 10⁶, under the y-axis."""
    fig, ax = _ax((6, 3))
    freq = np.zeros(10**4)
    freq[0] = 1.0
    ax.stairs(freq, np.arange(10**4 + 1), fill=True, label="samples")
    ax.set(xlim=(0, 10**4), ylim=(0, 1.2))
    problems = readability_problems(fig)
    assert any("no visible data" in p for p in problems), problems
    # the same with a visible second series: the samples series is reported as hidden
    ax.stairs(np.full(10**4, 1e-4) * 5000, np.arange(10**4 + 1), label="uniform")
    ax.legend()
    problems = readability_problems(fig)
    assert any("'samples' draws nothing visible" in p for p in problems), problems
    # spread over the axis, the same series is seen
    fig, ax = _ax((6, 3))
    ax.stairs(np.ones(100), np.arange(101), fill=True)
    assert readability_problems(fig) == []


def test_missing_legend() -> None:
    fig, ax = _ax()
    ax.plot([0, 1], [0, 1], label="a")
    ax.axvline(0.5)  # an unlabelled mean line, not marked as a guide
    ax.legend()
    problems = readability_problems(fig)
    assert any("unlabelled Line2D" in p for p in problems), problems
    fig, ax = _ax()
    ax.plot([0, 1], [0, 1], label="a")
    ax.plot([0, 1], [1, 0], label="b")  # labelled, but no legend drawn
    problems = readability_problems(fig)
    assert any("'a' is not in a legend" in p for p in problems), problems
    ax.legend()
    assert readability_problems(fig) == []


def test_overlapping_tick_labels() -> None:
    fig, ax = _ax((2, 2))
    ax.bar(range(12), np.arange(1, 13))
    ax.set_xticks(range(12), [f"a long label {i}" for i in range(12)])
    problems = readability_problems(fig)
    assert any("x tick labels" in p and "overlap" in p for p in problems), problems
    ax.set_xticks(range(12), [f"a long label {i}" for i in range(12)], rotation=90, fontsize=4)
    assert not any("tick labels" in p for p in readability_problems(fig))


def test_bars_off_zero() -> None:
    fig, ax = _ax()
    ax.bar([0, 1], [0.7, 0.8])
    ax.set_ylim(0.65, 0.85)
    problems = readability_problems(fig)
    assert any("not from 0" in p for p in problems), problems
    ax.set_ylim(0, 0.85)
    assert readability_problems(fig) == []
    fig, ax = _ax()
    ax.barh([0, 1], [0.7, 0.8])
    ax.set_xlim(0.65, 0.85)
    assert any("not from 0" in p for p in readability_problems(fig))
    ax.set_title("zoomed in")
    assert readability_problems(fig) == []


def test_overlapping_texts() -> None:
    fig, ax = _ax()
    ax.plot([0, 1], [0, 1])
    ax.text(0.5, 0.5, "first label")
    ax.text(0.52, 0.5, "second label")
    problems = readability_problems(fig)
    assert any("'first label' and 'second label' overlap" in p for p in problems), problems
    fig, ax = _ax()
    ax.plot([0, 1], [0, 1])
    ax.text(0.1, 0.9, "first label")
    ax.text(0.6, 0.1, "second label")
    assert readability_problems(fig) == []


def test_plotly() -> None:
    clean = go.Figure([go.Bar(x=[0, 1], y=[1, 2], name="samples"),
                       go.Scatter(x=[0, 1], y=[1, 2], name="law")])
    assert readability_problems(clean) == []
    unnamed = go.Figure([go.Scatter(x=[0, 1], y=[1, 2], name="a"),
                         go.Scatter(x=[0, 1], y=[2, 1], showlegend=False)])
    assert any("no legend entry" in p for p in readability_problems(unnamed))
    guide = go.Figure([go.Scatter(x=[0, 1], y=[1, 2], name="a"),
                       go.Scatter(x=[0.5, 0.5], y=[0, 2], showlegend=False, meta=GUIDE)])
    assert readability_problems(guide) == []
    empty = go.Figure([go.Scatter(x=[], y=[], name="a")])
    assert any("no finite data" in p for p in readability_problems(empty))
    log = go.Figure([go.Scatter(x=[1, 10, 100], y=[1, 2, 3], name="a")])
    log.update_xaxes(type="log")
    assert any("log axis" in p for p in readability_problems(log))
    log.update_xaxes(tickvals=[1, 10, 100])
    assert readability_problems(log) == []
    bars = go.Figure([go.Bar(x=[0, 1], y=[0.7, 0.8], name="a")])
    bars.update_yaxes(range=[0.65, 0.85])
    assert any("not from 0" in p for p in readability_problems(bars))


def test_rejects_other_objects() -> None:
    with pytest.raises(TypeError):
        readability_problems("not a figure")


def test_plotly_direct_labels() -> None:
    """A trace may be explained by an annotation named like it (or like its legendgroup)."""
    fig = go.Figure([go.Scatter(x=[0, 1], y=[1, 2], name="R-mean", meta="vline"),
                     go.Scatter(x=[0, 1], y=[2, 1], name="R-law", legendgroup="key")],
                    layout={"showlegend": False})
    assert len(readability_problems(fig)) == 2
    fig.add_annotation(x=0, y=1, text="sample mean", name="R-mean")
    fig.add_annotation(x=1, y=1, text="dashes: closed forms", name="key")
    assert readability_problems(fig) == []


def test_plotly_diagram_needs_no_legend() -> None:
    fig = go.Figure([go.Scatter(x=[0, 1], y=[1, 2], name="arcs"),
                     go.Scatter(x=[0, 1], y=[2, 1], name="nodes", showlegend=False)])
    assert readability_problems(fig)
    fig.update_xaxes(visible=False)
    assert readability_problems(fig)  # one hidden axis is not a diagram
    fig.update_yaxes(visible=False)
    assert readability_problems(fig) == []


def test_parts_of_a_series_and_twin_axes() -> None:
    fig, ax = _ax()
    ax.plot([0, 1], [0, 1], gid="mean")
    ax.fill_between([0, 1], [0, 0.5], [0.5, 1], gid="mean/band")
    ax.scatter([0, 1], [0, 1], gid="mean/points")
    top = ax.twiny()  # carries ticks only
    top.set_xlim(0, 2)
    assert readability_problems(fig) == []
    ax.fill_between([0, 1], [0, 0.5], [0.5, 1])  # a band of no series: a second series
    assert any("no legend entry" in p for p in readability_problems(fig))
