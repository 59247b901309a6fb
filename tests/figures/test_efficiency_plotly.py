"""Notebook 11's plotly figures draw what the data say, under the matplotlib gids."""

from __future__ import annotations

import numpy as np

from workbench.figures.common import figure_data
from workbench.figures.efficiency_plotly import plotly_multiplex, plotly_regulariser, plotly_tau
from workbench.figures.lint import readability_problems

SAMPLED = np.array([[0.40, 0.45, 0.50], [0.41, 0.44, 0.52]])


def test_tau_draws_the_curve_and_every_sampled_point() -> None:
    d = {"curve_x": np.linspace(-2, 2, 5), "curve": np.array([0.3, 0.35, 0.4, 0.45, 0.5]),
         "tau": np.array([0.5, 1.0, -1.0]), "x": np.array([-2.0, -1.0, 1.0]),
         "sampled": SAMPLED, "seeds": np.array([0, 1])}
    fig = plotly_tau(d)
    data = figure_data(fig)
    np.testing.assert_array_equal(data["exact"], d["curve"])
    np.testing.assert_array_equal(data["sampled"], SAMPLED.ravel())
    assert list(fig.layout.xaxis.ticktext) == ["0.5", "1", "−1"]
    assert readability_problems(fig) == []


def test_regulariser_levels_and_multiplex_argmax() -> None:
    reg = {"kind": "ulm", "param": np.array([0.1, 0.3, 1.0]), "sampled": SAMPLED,
           "deterministic": 0.45, "grampa_uniform": 0.6, "seeds": np.array([0, 1])}
    data = figure_data(plotly_regulariser(reg))
    assert list(data["deterministic"]) == [0.45, 0.45] and list(data["grampa-uniform"]) == [0.6] * 2
    mux = {"kind": "bpe", "curve_p": np.linspace(0, 1, 5), "curve": np.array([.4, .5, .6, .5, .4]),
           "p": np.array([0.0, 0.5, 1.0]), "sampled": SAMPLED, "seeds": np.array([0, 1]),
           "argmax_p": 0.5}
    fig = plotly_multiplex(mux)
    assert figure_data(fig)["argmax"].tolist() == [0.5]
    for f in (plotly_regulariser(reg), fig):
        assert readability_problems(f) == []
