"""workbench.stats: the one TV distance, the one TV bound, the trial tolerance."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from workbench import ArgumentTypeError, InvalidValueError
from workbench.stats import (
    DISTRIBUTION_TOLERANCE,
    frequencies,
    trial_tolerance,
    tv_distance,
    tv_sampling_bound,
)


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


@pytest.mark.parametrize("p, q, name, why", [
    ([5, 0], [0.5, 0.5], "p", r"p is not a probability distribution: its entries sum to 5, "
     r"not 1 \(within 1e-06\)"),  # returned 2.5
    ([0.5, 0.5], [9, 0], "q", "q is not a probability distribution: its entries sum to 9"),
    ([0.5, 0.5], [-1.0, 2.0], "q", r"q\[0\] = -1 is negative"),  # sums to 1, returned 1.5
    ([0.3, 0.3], [0.5, 0.5], "p", "sum to 0.6, not 1"),
    ([1e308, 1e308], [0.5, 0.5], "p", "sum to inf, not 1"),  # no OverflowError
    ([0.5, 0.5], [1.0, 0.0, 0.0], "p and q", r"len\(p\) = 2 and len\(q\) = 3"),
    ([], [], "p", "p is empty"),
    ([0.5, np.nan], [0.5, 0.5], "p", "p holds NaN or infinite values"),
    ([0.5, 0.5], [np.inf, 0.0], "q", "q holds NaN or infinite values"),
])
def test_tv_distance_refuses_what_is_no_distribution(p, q, name, why) -> None:
    with pytest.raises(InvalidValueError, match=why) as err:
        tv_distance(p, q)
    assert str(err.value).startswith(name)


def test_tv_distance_takes_distributions_within_the_stated_tolerance() -> None:
    assert DISTRIBUTION_TOLERANCE == 1e-6
    rounded = [0.1] * 10  # sums to 0.9999999999999999
    assert tv_distance(rounded, frequencies([1] * 10)) == pytest.approx(0.0, abs=1e-15)
    assert tv_distance([0.5, 0.5 + 0.9e-6], [0.5, 0.5]) == pytest.approx(0.45e-6)
    with pytest.raises(InvalidValueError, match="sum to 1.0000011"):
        tv_distance([0.5, 0.5 + 1.1e-6], [0.5, 0.5])
    assert 0.0 <= tv_distance([1.0, 0.0], [0.0, 1.0 + 0.9e-6]) <= 1.0
    with pytest.raises(ArgumentTypeError, match="q must be an array of real numbers"):
        tv_distance([1.0], ["x"])


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
