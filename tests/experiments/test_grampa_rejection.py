"""workbench.experiments.grampa_rejection (GRaMPa §3.2, App. A.5; notebook 05) against brute
force (tests/naive/theory.py) and measured trials."""

from __future__ import annotations

from fractions import Fraction
from math import factorial

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")


from naive import theory as naive  # noqa: E402

from workbench.experiments import grampa_rejection  # noqa: E402
from workbench.samplers.rejection import markov_rejection_samples  # noqa: E402
from workbench.stats import trial_tolerance  # noqa: E402


# --------------------------------------------------------------------------- §3.2, A.5
def test_rejection_cost_expected_matches_enumeration() -> None:
    ns = list(range(1, 11))
    t = grampa_rejection.rejection_cost_table(ns, n_samples=50, seed=0, max_token_length=2,
                                    trial_budget=10**3)
    for i, n in enumerate(ns):
        comps = naive.compositions(n)
        probs = [naive.markov_probability(u) for u in comps]
        assert sum(probs) == 1
        # acceptance per walk: Σ_paths P(path) · ε / P(path) = ε · #paths, ε = min P
        expected = 1 / (min(probs) * len(comps))
        assert expected == Fraction(factorial(n), 2 ** (n - 1))
        assert t["markov_expected"][i] == float(expected)
        n_valid = naive.bounded_count(n, 2)
        assert t["bit_n_valid"][i] == n_valid
        assert t["bit_expected"][i] == float(Fraction(2 ** (n - 1), n_valid))
    # the budget: min(n_samples, ⌊budget / E[T]⌋) samples, NaN when none
    assert t["markov_samples"].tolist() == [min(50, int(10**3 // Fraction(factorial(n),
                                                                          2 ** (n - 1))))
                                            for n in ns]
    none = t["markov_samples"] == 0
    assert none.any() and np.isnan(t["markov_mean"][none]).all()
    assert np.isfinite(t["markov_mean"][~none]).all()
    assert (t["grampa_passes"] == 1).all() and (t["grampa_valid"] == 1.0).all()


def test_rejection_cost_measured_trials() -> None:
    ns = list(range(1, 9))
    size = 4000
    for cap in (1, 2, 3):
        t = grampa_rejection.rejection_cost_table(ns, n_samples=size, seed=2, max_token_length=cap,
                                        trial_budget=10**7)
        for i in range(len(ns)):
            for name in ("markov", "bit"):
                e = t[f"{name}_expected"][i]
                assert t[f"{name}_samples"][i] == size
                assert abs(t[f"{name}_mean"][i] - e) <= trial_tolerance(e, size)
                assert t[f"{name}_max"][i] >= 1
        if cap == 1:  # only the character split is valid: E[T] = 2^(n-1)
            assert t["bit_expected"].tolist() == [2.0 ** (n - 1) for n in ns]
        assert (t["grampa_valid"] == 1.0).all()


def test_rejection_cost_rows_are_independent() -> None:
    a = grampa_rejection.rejection_cost_table([3, 6], n_samples=300, seed=4)
    b = grampa_rejection.rejection_cost_table([6], n_samples=300, seed=4)
    for key in ("markov_mean", "bit_mean", "markov_max", "bit_sem"):
        assert a[key][1] == b[key][0]
    with pytest.raises(ValueError):
        grampa_rejection.rejection_cost_table([], n_samples=10)
    with pytest.raises(ValueError):
        grampa_rejection.rejection_cost_table([3], max_token_length=0)
    with pytest.raises(ValueError):
        grampa_rejection.rejection_cost_table([grampa_rejection.MAX_COST_N + 1])


def test_sampler_timings_smoke() -> None:
    import numba

    before = numba.get_num_threads()
    s = grampa_rejection.sampler_timings([2, 5, 15], n_samples=50, trial_budget=10**4, repeat=1)
    assert numba.get_num_threads() == before
    assert s["ns"].tolist() == [2, 5, 15] and s["num_threads"] == 1
    for key in ("bit", "grampa_infinite", "grampa_bounded"):
        assert (s[key] > 0).all() and np.isfinite(s[key]).all()
    assert np.isfinite(s["markov"][:2]).all() and np.isnan(s["markov"][2])  # 15!/2^14 ≫ budget
    # per walk = per sample × samples / walks taken (the same seed gives the same walks)
    _, _, trials = markov_rejection_samples(5, 50, 0)
    assert s["markov_per_trial"][1] == pytest.approx(s["markov"][1] * 50 / trials.sum())


def test_rejection_cost_rows_are_cached_and_independent() -> None:
    """A slider over n_max or L recomputes only rows it has not seen: a row is the same in
    any table, a repeated call gives an equal table, and changing a returned table does not
    change the next one (the cache holds no array a caller gets)."""
    from workbench.experiments.grampa_rejection import rejection_cost_table

    small = rejection_cost_table(range(1, 9), n_samples=60, seed=3, max_token_length=2,
                                 trial_budget=2000)
    large = rejection_cost_table(range(1, 13), n_samples=60, seed=3, max_token_length=2,
                                 trial_budget=2000)
    for key, values in small.items():
        if isinstance(values, np.ndarray):
            np.testing.assert_array_equal(large[key][:8], values)
    small["markov_mean"][:] = -1.0
    again = rejection_cost_table(range(1, 9), n_samples=60, seed=3, max_token_length=2,
                                 trial_budget=2000)
    assert (again["markov_mean"] != -1.0).all()
    for key, values in rejection_cost_table(range(1, 9), 60, 3, 2, 2000).items():
        np.testing.assert_array_equal(again[key], values)
    other = rejection_cost_table(range(1, 9), n_samples=60, seed=3, max_token_length=3,
                                 trial_budget=2000)
    np.testing.assert_array_equal(other["markov_mean"], again["markov_mean"])  # no L in it
    assert not np.array_equal(other["bit_expected"], again["bit_expected"])
