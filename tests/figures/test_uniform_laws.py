"""workbench.figures.uniform_laws (notebook 03): Figure 2 against §3.1's laws, drawn, readable."""

from __future__ import annotations

import matplotlib
import pytest

matplotlib.use("Agg")


from workbench.experiments.grampa_uniform_laws import length_law_errors, uniform_laws_panel  # noqa: E402
from workbench.figures import uniform_laws  # noqa: E402
from workbench.figures.common import figure_data  # noqa: E402


def test_plot_uniform_laws_shows_the_panel() -> None:
    p = uniform_laws_panel(11, n_samples=3000, seed=0)
    d = figure_data(uniform_laws.plot_uniform_laws(p))
    for view in ("m", "ell", "R", "S"):
        assert d[f"{view}-samples"] == pytest.approx(p[view]["freq"])
        assert d[f"{view}-law"] == pytest.approx(p[view]["pmf"])
    assert d["ell-limit"] == pytest.approx(p["ell"]["limit"])
    assert d["R-mean"].tolist() == [p["R"]["mean"]]
    assert d["R-expected"].tolist() == [p["R"]["expected_mean"]]


def test_plot_length_law_errors() -> None:
    e = length_law_errors(20)
    d = figure_data(uniform_laws.plot_length_law_errors(e, ns=(4, 16, 99)))
    assert d["err28-n4"] == pytest.approx(e["err28"][3, :4])
    assert d["err27-n16"] == pytest.approx(e["err27"][15, :16])
    assert "err28-n99" not in d
    assert d["deficit27"] == pytest.approx(e["deficit_at_n"])


def test_default_figures_are_readable() -> None:
    """Issue 21 item 3: panel (c) has explicit log ticks and labels its two lines."""
    from workbench.figures import uniform_laws as ul
    from workbench.figures.common import readability_problems
    from workbench.figures.uniform_laws_plotly import plotly_uniform_laws

    for n in (2, 29):
        panel = uniform_laws_panel(n, 2_000, 0)
        fig = plotly_uniform_laws(panel)
        assert readability_problems(fig) == []
        assert fig.layout.xaxis3.tickvals and max(fig.layout.xaxis3.tickvals) <= n
        labels = {a.name: a.text for a in fig.layout.annotations if a.name}
        assert labels["R-mean"] == "sample mean" and "Eq. 36" in labels["R-expected"]
    assert readability_problems(ul.plot_uniform_laws(uniform_laws_panel(29, 2_000, 0))) == []
