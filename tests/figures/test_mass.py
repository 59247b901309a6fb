"""Notebook 12's figure draws what the comparison holds, readably."""

from __future__ import annotations

import numpy as np

from workbench.experiments.laws_compare import compare_laws
from workbench.figures.common import figure_data, readability_problems
from workbench.figures.mass import plot_mass, summary_table


def test_plot_mass_shows_log_probabilities_of_every_segmentation():
    c = compare_laws("▁token", tau=2.0, alpha=0.5, p=0.2, q=0.3)
    fig = plot_mass(c)
    data = figure_data(fig)
    assert list(data) == list(c.laws)
    for name, y in data.items():
        p = c.probabilities[name]
        assert np.isnan(y[p == 0]).all()
        np.testing.assert_allclose(10 ** y[p > 0], p[p > 0], rtol=1e-12)
    # one label per token count, a band for every other one
    assert [a.text for a in fig.layout.annotations] == [
        str(k) for k in sorted(set(c.token_counts.tolist()))]
    assert readability_problems(fig) == []


def test_summary_table_rows():
    c = compare_laws("▁token")
    t = summary_table(c)
    assert list(t.index) == list(c.laws)
    assert t.loc["grampa", "support"] == c.laws["grampa"].support
