"""workbench.figures.rejection_cost_plotly (notebook 05's panel): the plotly twin shows what
the matplotlib plot shows, and passes the readability linter."""

from __future__ import annotations

import matplotlib
import numpy as np

matplotlib.use("Agg")

from workbench.experiments import grampa_rejection  # noqa: E402
from workbench.figures import rejection_cost  # noqa: E402
from workbench.figures.common import figure_data  # noqa: E402
from workbench.figures.lint import readability_problems  # noqa: E402
from workbench.figures.rejection_cost_plotly import plotly_rejection_cost  # noqa: E402


def test_plotly_twin_shows_the_matplotlib_data() -> None:
    for cap in (1, 2):
        t = grampa_rejection.rejection_cost_table(range(1, 14), n_samples=100, seed=0,
                                                max_token_length=cap, trial_budget=10**4)
        fig = plotly_rejection_cost(t)
        shown, drawn = figure_data(fig), figure_data(rejection_cost.plot_rejection_cost(t))
        assert set(shown) == set(drawn)
        for name, values in drawn.items():
            np.testing.assert_array_equal(shown[name], values)
        assert np.isnan(shown["markov-measured"]).any()  # too few samples: not drawn
        assert readability_problems(fig) == []
        assert f"tokens ≤ {cap}" in " ".join(a.text for a in fig.layout.annotations)
