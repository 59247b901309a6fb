"""workbench.figures.baselines: Figure 6's drawing (regularisation rate against each knob).
"""

from __future__ import annotations

import math

import matplotlib
import numpy as np

matplotlib.use("Agg")


from fixtures import SMALL, WORDS  # noqa: E402

from workbench.experiments.grampa_regularisation import regularisation_rate  # noqa: E402
from workbench.figures import baselines as bl  # noqa: E402
from workbench.figures.common import figure_data  # noqa: E402


def test_regularisation_plot_shows_the_rates() -> None:
    curves = {f: regularisation_rate(f, SMALL, WORDS, vals, n_samples=3)
              for f, vals in (("ulm", [0.0, 1.0]), ("grampa", [1.0, -2.0, math.inf]))}
    shown = figure_data(bl.plot_regularisation_rates(curves))
    assert shown["rr-ulm"].tolist() == curves["ulm"]["rate"].tolist()
    # GRaMPa drawn along −1/τ: τ = 1 (−1), ±inf (0), −2 (0.5)
    g = curves["grampa"]
    assert shown["rr-exact-grampa"].tolist() == [g["exact"][0], g["exact"][2], g["exact"][1]]


def test_grampa_axis_ticks_are_labelled_and_apart() -> None:
    """Issue 21: Figure 6's GRaMPa axis names τ (placed at −1/τ) and has no crowded ticks."""
    taus = [0.25, 0.5, 1.0, 2.0, 5.0, 20.0, math.inf, -20.0, -5.0, -2.0, -1.0]
    curves = {"grampa": regularisation_rate("grampa", SMALL, WORDS, taus, n_samples=2)}
    ax = bl.plot_regularisation_rates(curves).axes[0]
    ticks = ax.get_xticks()
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert all(labels) and "±∞" in labels and "τ" in ax.get_xlabel()
    assert np.diff(np.sort(ticks)).min() >= 0.09 * (max(ticks) - min(ticks)) - 1e-12
    for tick, label in zip(ticks, labels):  # each label is the τ at its −1/τ position
        tau = math.inf if label == "±∞" else float(label.replace("−", "-"))
        assert math.isclose(tick, 0.0 - 1.0 / tau, abs_tol=1e-12)
