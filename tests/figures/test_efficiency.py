"""workbench.figures.efficiency: Figures 10–12 of GRaMPa §6.3 drawn from a small slice of
Shakespeare."""

from __future__ import annotations

import numpy as np
import pytest
from fixtures import SAMPLED_TOL  # noqa: E402

from workbench.experiments import grampa_efficiency as E
from workbench.figures import efficiency as F
from workbench.figures.common import figure_data

pytest.importorskip("sentencepiece")


def test_multiplex_curve_ends(efficiency_setup):
    setup = efficiency_setup
    data = E.compute_multiplex(setup, seeds=(0,), ps=(0.0, 0.5, 1.0), n_curve=11)
    det = E.efficiency(setup.deterministic_counts, setup)
    grampa = E.efficiency(E.expected_counts(setup, 1.0, 2), setup)
    assert data["exact"][0] == det and data["sampled"][0, 0] == det  # p = 0: no sampling
    assert data["exact"][-1] == grampa
    assert abs(data["sampled"][0, -1] - grampa) < SAMPLED_TOL
    assert data["argmax_p"] in data["curve_p"]
    assert data["curve"].max() == E.efficiency(
        data["argmax_p"] * E.expected_counts(setup, 1.0, 2)
        + (1 - data["argmax_p"]) * setup.deterministic_counts, setup)
    shown = figure_data(F.plot_multiplex(data))
    np.testing.assert_array_equal(shown["exact"], data["curve"])


def test_regulariser(efficiency_setup):
    setup = efficiency_setup
    params = (0.0, 0.2) if setup.kind == "bpe" else (0.1, 1.0)
    data = E.compute_regulariser(setup, seeds=(0, 1), params=params)
    assert data["sampled"].shape == (2, 2)
    if setup.kind == "bpe":  # p_d = 0 is deterministic BPE
        assert (data["sampled"][:, 0] == data["deterministic"]).all()
    assert np.ptp(data["sampled"][:, 1]) > 0  # the seeds differ
    again = E.sampled_regulariser.__wrapped__(setup, params[1], 1)
    assert E.efficiency(again, setup) == data["sampled"][1, 1]  # seeded
    shown = figure_data(F.plot_regulariser(data))
    assert shown["deterministic"].size and np.isfinite(shown["sampled"]).all()


@pytest.mark.parametrize("ys,words", [
    ([0.3, 0.4, 0.5], ["rises monotonically", "0.3000 at 0.1", "0.5000 at 1"]),
    ([0.5, 0.4, 0.4], ["falls monotonically"]),
    ([0.3, 0.6, 0.45], ["peak of 0.6000 at 0.3", "falls to 0.4500 at 1", "not monotone"]),
    ([0.5, 0.2, 0.45], ["trough of 0.2000 at 0.3", "rises to 0.4500", "not monotone"]),
])
def test_describe_regulariser_says_what_the_points_do(ys, words):
    """Issue 21: Figure 11's sentence is computed from its points (seed means)."""
    data = {"kind": "ulm", "param": np.array([0.1, 0.3, 1.0]), "deterministic": 0.45,
            "sampled": np.array([ys, ys])}
    text = F.describe_regulariser(data)
    assert all(w in text for w in words), text
