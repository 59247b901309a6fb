"""workbench.figures.batch_bpe_plotly: notebook 08's panel in plotly draws what the matplotlib
figure draws (same data under the same names) and is readable."""

from __future__ import annotations

import pytest

from workbench.datasets import load_text
from workbench.experiments import batch_bpe as BB
from workbench.figures import batch_bpe as fig
from workbench.figures.batch_bpe_plotly import plotly_stop_cutoff
from workbench.figures.common import figure_data, readability_problems


@pytest.fixture(scope="module")
def result():
    table = BB.compute_table(load_text("shakespeare")[:60_000])
    return BB.compute_stop_cutoff(table, load_text("brown")[:5_000], 300, 4, 2)


def test_stop_cutoff_twin(result, capsys) -> None:
    got, want = figure_data(plotly_stop_cutoff(result)), figure_data(fig.plot_stop_cutoff(result))
    for name in ("encoded-length", "length-change"):
        assert got[name].tolist() == want[name].tolist(), name
    assert repr(result["stop_words"][0]) in capsys.readouterr().out
    figure = plotly_stop_cutoff(result)
    low, high = figure.layout.yaxis2.range
    assert low < 0 < high and low <= result["change_percent"] <= high
    assert figure.layout.yaxis.range[0] == 0
    assert readability_problems(figure) == []
