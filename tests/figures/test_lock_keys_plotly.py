"""workbench.figures.lock_keys_plotly (notebook 04's panel): the plotly twin shows what the
matplotlib panel shows, zooms like it, and passes the readability linter."""

from __future__ import annotations

import math

import matplotlib
import numpy as np

matplotlib.use("Agg")

from workbench.experiments.grampa_lock import lock_histogram  # noqa: E402
from workbench.figures import lock_keys  # noqa: E402
from workbench.figures.common import figure_data  # noqa: E402
from workbench.figures.lint import readability_problems  # noqa: E402
from workbench.figures.lock_keys_plotly import plotly_lock_histogram  # noqa: E402


def test_plotly_twin_shows_the_matplotlib_data() -> None:
    for tau, bins in ((1.0, 64), (-2.0, 512), (math.inf, 16)):
        hist = lock_histogram(12, tau=tau, n_samples=3000, bins=bins, seed=1)
        fig = plotly_lock_histogram(hist)
        shown = figure_data(fig)
        drawn = figure_data(lock_keys.plot_lock_histogram(hist))
        for name in ("lock-samples", "lock-uniform"):
            np.testing.assert_array_equal(shown[name], drawn[name])
        np.testing.assert_array_equal(shown["lock-samples"], hist["freq"])
        first, stop = lock_keys.lock_view(hist)
        assert list(fig.layout.xaxis.range) == [hist["edges"][first], hist["edges"][stop]]
        assert ("zoomed" in fig.layout.xaxis.title.text) == ((first, stop) != (0, bins))
        assert readability_problems(fig) == []


def test_lock_histogram_cached_sample_is_shared_read_only() -> None:
    """A second call (another ``bins``) reuses the samples: same keys, same law; the arrays
    a caller gets from the cache cannot be changed."""
    a = lock_histogram(10, tau=2.0, n_samples=2000, bins=8, seed=3)
    b = lock_histogram(10, tau=2.0, n_samples=2000, bins=64, seed=3)
    assert a["counts"].sum() == b["counts"].sum() == 2000
    np.testing.assert_array_equal(a["m_counts"], b["m_counts"])
    np.testing.assert_array_equal(a["counts"], b["counts"].reshape(8, 8).sum(axis=1))
    assert not a["m_pmf"].flags.writeable
