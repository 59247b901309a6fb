"""workbench.experiments.grampa_uniform_laws (GRaMPa §3.1, Figure 2; notebook 03) against brute
force (tests/naive/theory.py)."""

from __future__ import annotations

from fractions import Fraction

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")


from naive import theory as naive  # noqa: E402

from workbench.datasets.corpora import demo_word  # noqa: E402
from workbench.experiments import grampa_uniform_laws  # noqa: E402
from workbench.figures import uniform_laws  # noqa: E402
from workbench.figures.panel import same_result  # noqa: E402
from workbench.stats import tv_distance, tv_sampling_bound  # noqa: E402


# --------------------------------------------------------------------------- Figure 2
@pytest.mark.parametrize("n", [2, 3, 5, 8, 10])
def test_uniform_laws_closed_forms_match_enumeration(n: int) -> None:
    p = grampa_uniform_laws.uniform_laws_panel(n, n_samples=500, seed=1)
    support = list(range(1, n + 1))
    assert p["m"]["values"].tolist() == support == p["ell"]["values"].tolist()
    m_law = naive.token_count_pmf(n)
    assert p["m"]["pmf"].tolist() == [float(m_law[m]) for m in support]
    ell_law = naive.token_length_pmf(n)
    assert p["ell"]["pmf"].tolist() == [float(ell_law[x]) for x in support]
    s_law = naive.segmentality_pmf(n)
    assert p["S"]["values"].tolist() == [float(s) for s in s_law]
    assert p["S"]["pmf"].tolist() == [float(q) for q in s_law.values()]
    # R = n/m ascending, carrying the law of m
    assert p["R"]["values"].tolist() == sorted(n / m for m in support)
    mean_r = sum(v * q for v, q in zip(p["R"]["values"], p["R"]["pmf"]))
    assert mean_r == pytest.approx(float(naive.mean_chars_per_token(n)), rel=1e-12)
    assert p["R"]["expected_mean"] == float(naive.mean_chars_per_token(n))
    # the geometric limit and Eq. 27
    assert p["ell"]["limit"].tolist() == [2.0 ** -x for x in support]
    assert p["ell"]["eq27"] == pytest.approx([(1 - (x - 2) / (n + 1)) * 2.0 ** -x
                                              for x in support], rel=1e-14)


@pytest.mark.parametrize("n,seed", [(2, 0), (4, 3), (12, 0), (29, 0), (29, 7), (64, 1)])
def test_uniform_laws_samples(n: int, seed: int) -> None:
    size = 40_000
    p = grampa_uniform_laws.uniform_laws_panel(n, n_samples=size, seed=seed)
    assert (p["n"], p["n_samples"], p["seed"], p["word"]) == (n, size, seed,
                                                             demo_word(n))
    m, ell = p["m"], p["ell"]
    assert m["counts"].sum() == size
    # every sample's tokens add up to n: Σ_ℓ ℓ·count(ℓ) = n · samples
    assert int((ell["values"] * ell["counts"]).sum()) == n * size
    # total tokens = Σ_m m · count(m)
    assert int(ell["counts"].sum()) == int((m["values"] * m["counts"]).sum())
    assert m["freq"] == pytest.approx(m["counts"] / size)
    assert m["tv"] == pytest.approx(tv_distance(m["freq"], m["pmf"]))
    assert m["tv"] < m["bound"] == tv_sampling_bound(n, size)
    assert ell["tv"] < ell["bound"]
    assert p["R"]["tv"] == p["S"]["tv"] == m["tv"]
    assert p["R"]["counts"].tolist() == m["counts"][::-1].tolist()
    assert abs(p["R"]["mean"] - p["R"]["expected_mean"]) < 4 * p["R"]["sem"]


def test_uniform_laws_is_deterministic_and_validates() -> None:
    a = grampa_uniform_laws.uniform_laws_panel(9, 2000, seed=5)
    assert same_result(a, grampa_uniform_laws.uniform_laws_panel(9, 2000, seed=5))
    assert not same_result(a, grampa_uniform_laws.uniform_laws_panel(9, 2000, seed=6))
    for bad in ({"n": 1}, {"n": uniform_laws.MAX_PANEL_N + 1}, {"n_samples": 0},
                {"seed": -1}):
        with pytest.raises(ValueError):
            grampa_uniform_laws.uniform_laws_panel(**{"n": 5, "n_samples": 10, **bad})
    with pytest.raises(TypeError):
        grampa_uniform_laws.uniform_laws_panel(5.0, 10)


def test_length_law_errors() -> None:
    e = grampa_uniform_laws.length_law_errors(14)
    assert e["n"].tolist() == e["ell"].tolist() == list(range(1, 15))
    for n in range(1, 15):
        law = naive.token_length_pmf(n)
        row = n - 1
        assert np.isnan(e["exact"][row, n:]).all() and np.isnan(e["err27"][row, n:]).all()
        for ell in range(1, n + 1):
            exact = law[ell]
            eq27 = (1 - Fraction(ell - 2, n + 1)) * Fraction(1, 2**ell)
            assert e["exact"][row, ell - 1] == float(exact)
            assert e["err27"][row, ell - 1] == float(eq27 - exact)
            assert e["err28"][row, ell - 1] == float(Fraction(1, 2**ell) - exact)
            if ell < n:  # Eq. 27 is exact below the diagonal; Eq. 28 is off by (ℓ-2)/(n+1)/2^ℓ
                assert e["err27"][row, ell - 1] == 0.0
                assert e["err28"][row, ell - 1] == float(Fraction(ell - 2, (n + 1) * 2**ell))
        deficit = Fraction(1, (n + 1) * 2**n)
        assert e["deficit_at_n"][row] == float(deficit) == -e["err27"][row, row]
        assert e["shortfall"][row] == float(deficit)
        assert e["rel27"][row, row] == -0.25
    with pytest.raises(ValueError):
        grampa_uniform_laws.length_law_errors(0)


def test_uniform_laws_panel_is_cached_and_safe_to_change() -> None:
    """Equal arguments give the cached result's arrays (read-only) in fresh dicts: a caller
    changing its copy changes no later result."""
    first = grampa_uniform_laws.uniform_laws_panel(6, n_samples=500, seed=3)
    second = grampa_uniform_laws.uniform_laws_panel(6, n_samples=500, seed=3)
    assert same_result(first, second) and first is not second and first["m"] is not second["m"]
    assert first["m"]["counts"] is second["m"]["counts"]
    assert not first["m"]["counts"].flags.writeable
    first["m"]["tv"] = -1.0
    assert grampa_uniform_laws.uniform_laws_panel(6, n_samples=500, seed=3)["m"]["tv"] >= 0
