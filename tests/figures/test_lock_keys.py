"""workbench.figures.lock_keys (notebook 04): Figure 5 and the LOCK order drawn, readable."""

from __future__ import annotations

import math

import matplotlib
import pytest

matplotlib.use("Agg")


from workbench.experiments.grampa_lock import lock_histogram, lock_order_table  # noqa: E402
from workbench.figures import lock_keys  # noqa: E402
from workbench.figures.common import figure_data, tau_label  # noqa: E402


def test_plot_lock_order_and_histograms() -> None:
    t = lock_order_table(5)
    d = figure_data(lock_keys.plot_lock_order(t))
    assert d["bit-of-lock"].tolist() == t["columns"]["lock_bit_key"]
    hists = [lock_histogram(12, tau=tau, n_samples=500, bins=64, seed=0)
             for tau in (1.0, math.inf, -2.0)]
    for log in (True, False):
        fig = lock_keys.plot_lock_histograms(hists, ncols=2, log=log)
        assert len([ax for ax in fig.axes if ax.get_visible()]) == 3
    d = figure_data(lock_keys.plot_lock_histogram(hists[1]))
    assert d["lock-samples"] == pytest.approx(hists[1]["freq"])
    assert d["lock-uniform"] == pytest.approx(hists[1]["uniform"])
    with pytest.raises(ValueError):
        lock_keys.plot_lock_histograms([])
    # the one τ label (theory.plots wrote "τ = -∞"; both infinities are the same sampler)
    assert tau_label(-math.inf, prefix=True) == "τ = ±∞"
    title = lock_keys.plot_lock_histogram(hists[1]).axes[0].get_title()
    assert title.startswith(tau_label(math.inf, prefix=True) + ":")


def test_figure5_default_is_readable_and_zooms_where_the_samples_are() -> None:
    """Issue 21 item 3: τ = −2 puts every sample in span 0, a 512th of the axis."""
    import numpy as np

    from workbench.figures import lock_keys as lk
    from workbench.figures.common import readability_problems

    hists = [lock_histogram(29, t, 20_000, 512, 0) for t in lk.FIGURE5_TAUS]
    views = {h["tau"]: lk.lock_view(h) for h in hists}
    assert views[1.0] == (0, 512) and views[-2.0] == (0, lk.MIN_VIEW_SPANS)
    for h in hists:
        first, stop = views[h["tau"]]
        kept = np.asarray(h["counts"])[first:stop].sum() / np.sum(h["counts"])
        assert kept >= lk.ZOOM_SHARE - 1e-12
    fig = lk.plot_lock_histograms(hists)
    assert readability_problems(fig) == []
    zoomed = [ax.get_xlabel() for ax in fig.axes if "zoomed" in ax.get_xlabel()]
    assert len(zoomed) == sum(v != (0, 512) for v in views.values())
    caption = lk.figure5_caption(hists)
    assert "τ = −2: zoomed to spans 0–15 of 512; 100.0% of the samples in span 0" in caption
