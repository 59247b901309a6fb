"""workbench.figures.rejection_cost (notebook 05): the rejection samplers' cost drawn, and its
tables."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")


from workbench.experiments import grampa_rejection  # noqa: E402
from workbench.figures import rejection_cost  # noqa: E402
from workbench.figures.common import figure_data  # noqa: E402


def test_plot_rejection_cost() -> None:
    t = grampa_rejection.rejection_cost_table(range(1, 12), n_samples=100, trial_budget=10**4)
    s = grampa_rejection.sampler_timings(range(1, 12), n_samples=50, trial_budget=10**4, repeat=1)
    for timings in (None, s):
        d = figure_data(rejection_cost.plot_rejection_cost(t, timings))
        assert d["markov-expected"] == pytest.approx(t["markov_expected"])
        for name in ("markov", "bit"):  # means of too few samples are not drawn
            enough = t[f"{name}_samples"] >= rejection_cost.MIN_MEASURED
            np.testing.assert_array_equal(d[f"{name}-measured"],
                                          np.where(enough, t[f"{name}_mean"], np.nan))
        assert (t["markov_samples"] < rejection_cost.MIN_MEASURED).any()  # some are dropped
        few = t["markov_samples"] < rejection_cost.MIN_MEASURED
        assert np.isnan(d["markov-measured"][few]).all()
        assert d["grampa-passes"].tolist() == [1.0] * 11
    assert d["time-grampa-infinite"] == pytest.approx(s["grampa_infinite"])
    assert "time-markov-extrapolated" in d
    labels = [text.get_text() for text in d_fig_legend(t)]
    assert len(labels) == len(set(labels)), labels  # no two identical legend entries


def d_fig_legend(t):
    fig = rejection_cost.plot_rejection_cost(t)
    return fig.axes[0].get_legend().get_texts()


def test_cost_frame_and_time_summary() -> None:
    """Readable headings, "—" for what was not measured, the prose's numbers from the timings."""
    import numpy as np

    from workbench.figures import rejection_cost as rc

    table = grampa_rejection.rejection_cost_table(range(1, 7), 50, 0, 2, 10**3)
    timings = {"ns": np.arange(1, 7), "num_threads": 1,
               "markov": np.array([1e-6, 2e-6, 4e-6, 8e-6, np.nan, np.nan]),
               "markov_per_trial": np.array([1e-6, 1e-6, 1e-6, 1e-6, np.nan, np.nan]),
               "grampa_infinite": np.full(6, 2e-7)}
    frame = rc.cost_frame(table, timings, rows=[1, 6])
    assert list(frame.index) == [1, 6] and "Markov E[T] (Eq. 47)" in frame.columns
    assert not any(c.startswith(("markov_", "bit_")) for c in frame.columns)
    assert frame.loc[6, "Markov µs/sample"] == "—" and not frame.isna().any().any()
    text = rc.time_summary(table, timings, extrapolate=[6])
    assert "n = 4" in text and "× 40" in text  # 8 µs / 0.2 µs, at the last timed n
    walks = 6 * 5 * 4 * 3 * 2 / 2**5  # Eq. 47 at n = 6: 22.5 walks of 6 steps at 0.25 µs
    assert f"{walks:.3g} walks" in text and f"{walks * 0.25e-6 * 6:.3g} s" in text
