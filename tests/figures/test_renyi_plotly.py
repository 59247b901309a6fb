"""workbench.figures.renyi_plotly: notebook 10's panels in plotly draw what the matplotlib
figures draw (same data under the same names) and are readable."""

from __future__ import annotations

import numpy as np

from workbench.experiments import renyi as R
from workbench.figures import renyi as F
from workbench.figures.common import figure_data, readability_problems
from workbench.figures.renyi_plotly import plotly_condition_grid, plotly_live_table


def test_live_table_twin(renyi_small):
    *_, model, enc = renyi_small
    for n, k in ((20, 4), (2, 5)):                      # (2, 5): random-drop not allowed
        table = R.compute_live_table(model, enc, n, k, 3.0)
        got, want = plotly_live_table(table, readable=True), F.plot_live_table(table, readable=True)
        assert got["table"].equals(want["table"])
        for name in ("efficiency", "efficiency-change"):
            assert np.array_equal(figure_data(got["efficiency"])[name],
                                  figure_data(want["efficiency"])[name]), name
        assert readability_problems(got["efficiency"]) == []
    assert "not allowed" in got["efficiency"].data[0].text


def test_condition_grid_twin():
    grid = np.geomspace(1, 2000, 12)
    cond, delta = R.compute_condition_grid([400, 300, 200, 100], grid, grid, 50.0, 3.0)
    fig = plotly_condition_grid(cond, delta, grid, grid, 50.0, 3.0)
    assert np.array_equal(np.asarray(fig.data[0].z, float), delta)
    assert len(fig.data[1].x) == int(cond.sum()) > 0
    assert readability_problems(fig) == []
