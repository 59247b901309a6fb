"""workbench.stats: the one TV distance, the one TV bound, the trial tolerance."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from workbench.stats import frequencies, trial_tolerance, tv_distance, tv_sampling_bound


def test_tv_distance_and_bound() -> None:
    assert tv_distance([0.2, 0.8], [0.2, 0.8]) == 0.0
    assert tv_distance([1, 0, 0], [0, 0, 1]) == 1.0
    with pytest.raises(ValueError):
        tv_distance([1.0], [0.5, 0.5])
    assert tv_sampling_bound(4, 100) == pytest.approx(0.5 * 0.2 + math.sqrt(math.log(1e6) / 200))
    assert tv_sampling_bound(10, 10**4) < tv_sampling_bound(10, 10**3) \
        < tv_sampling_bound(20, 10**3)
    for bad in ((0, 10), (3, 0)):
        with pytest.raises(ValueError):
            tv_sampling_bound(*bad)
    with pytest.raises(ValueError):
        tv_sampling_bound(3, 10, delta=1.0)


def test_tv_bound_holds_for_iid_draws() -> None:
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.ones(12))
    for size in (100, 1000, 20_000):
        for _ in range(20):
            freq = np.bincount(rng.choice(12, size=size, p=p), minlength=12) / size
            assert tv_distance(freq, p) < tv_sampling_bound(12, size)


def test_total_variation_of_counts() -> None:
    assert tv_distance(frequencies([3, 1]), [0.5, 0.5]) == 0.25
    assert tv_distance(frequencies([0, 5, 5], n_cells=4), [0.0, 0.5, 0.5, 0.0]) == 0.0  # padded
    assert tv_distance(frequencies([1, 0]), [0.0, 1.0]) == 1.0
    with pytest.raises(ValueError):
        frequencies([0, 0])


def test_trial_tolerance() -> None:
    assert trial_tolerance(1, 10) == 0.0
    # Geom(1/2): Var = 2, so 4 standard errors of 50 samples are 4 * sqrt(2/50) = 0.8
    assert trial_tolerance(Fraction(2), 50) == pytest.approx(0.8)
    with pytest.raises(ValueError):
        trial_tolerance(0.5, 10)
