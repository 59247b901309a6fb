"""workbench.experiments.grampa_lock (GRaMPa App. C, Figure 5; notebook 04) against brute force
(tests/naive/theory.py) and exact distributions."""

from __future__ import annotations

import math
from fractions import Fraction

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")


from naive import theory as naive  # noqa: E402

from workbench import Grampa, Vocabulary  # noqa: E402
from workbench.datasets.corpora import demo_word  # noqa: E402
from workbench.experiments import grampa_lock  # noqa: E402
from workbench.stats import tv_distance, tv_sampling_bound  # noqa: E402


# --------------------------------------------------------------------------- App. C
@pytest.mark.parametrize("n", range(1, 9))
def test_lock_order_table_matches_brute_force(n: int) -> None:
    t = grampa_lock.lock_order_table(n)
    c = t["columns"]
    size = 2 ** (n - 1)
    assert t["word"] == demo_word(n)
    assert {len(v) for v in c.values()} == {size}
    assert c["key"] == list(range(size)) == c["lock"]
    assert sorted(c["bit_lock_key"]) == list(range(size))  # bijection onto 0 .. 2^(n-1)-1
    order = naive.lock_order(n)
    comps = naive.compositions(n)
    assert list(c["lock_lengths"]) == order
    assert list(c["bit_lengths"]) == comps
    assert c["bit"] == [naive.bit_key(u) for u in comps] == list(range(size))
    assert c["lock_bit_key"] == [naive.bit_key(u) for u in order]
    assert c["bit_lock_key"] == [order.index(u) for u in comps]
    assert c["bits"] == [format(b, f"0{n - 1}b") if n > 1 else "" for b in range(size)]
    for k, u in enumerate(order):
        same_m = [v for v in comps if len(v) == len(u)]
        assert c["m"][k] == len(u)
        assert c["sorted"][k] == tuple(sorted(u))
        assert c["f1"][k] == naive.fewer_parts(len(u), n)
        assert c["f2"][k] == sum(1 for v in same_m if sorted(v) < sorted(u))
        assert c["f3"][k] == naive.permutation_rank(u)
        assert c["f1"][k] + c["f2"][k] + c["f3"][k] == k
        assert c["lock_segmentation"][k].replace("/", "") == t["word"]
        assert [len(x) for x in c["lock_segmentation"][k].split("/")] == list(u)
    # the three ordering rules of C.2 between consecutive rows
    keys = [(m, s, f3) for m, s, f3 in zip(c["m"], c["sorted"], c["f3"])]
    assert keys == sorted(keys)


def test_lock_order_table_paper_example_and_limits() -> None:
    c = grampa_lock.lock_order_table(6)["columns"]
    # App. C.1: a/bcdef = 10000₂ = 16 and ab/c/d/e/f = 01111₂ = 15 are bit-order neighbours
    assert c["bit_segmentation"][16] == "a/bcdef" and c["bit_segmentation"][15] == "ab/c/d/e/f"
    assert c["lock_segmentation"][0] == "abcdef" and c["lock_segmentation"][-1] == "a/b/c/d/e/f"
    with pytest.raises(ValueError):
        grampa_lock.lock_order_table(grampa_lock.MAX_TABLE_N + 1)
    with pytest.raises(ValueError):
        grampa_lock.lock_order_table(0)


def test_lock_histogram_uniform() -> None:
    size = 50_000
    h = grampa_lock.lock_histogram(29, tau=1.0, n_samples=size, bins=512, seed=0)
    assert h["n_keys"] == 2**28 and h["edges"][0] == 0 and h["edges"][-1] == 2**28
    assert h["edges"].size == 513 and (np.diff(h["edges"]) == 2**19).all()
    assert h["counts"].sum() == size and h["counts"].size == 512
    assert h["uniform"] == pytest.approx(np.full(512, 1 / 512))
    assert h["tv_uniform"] < h["bound"] == tv_sampling_bound(512, size)
    assert h["m_counts"].tolist() == h["m_counts_from_keys"].tolist()
    assert h["m_counts"].sum() == size
    assert h["m_edges"].tolist() == [naive_f1 for naive_f1 in
                                     [sum(math.comb(28, j - 1) for j in range(1, m))
                                      for m in range(1, 30)]] + [2**28]
    assert h["m_pmf"] == pytest.approx([float(q) for q in naive_binomial_law(29)], abs=1e-12)
    assert h["tv_m"] < h["m_bound"]
    assert h["expected_m"] == pytest.approx(15.0)


def naive_binomial_law(n: int) -> list[Fraction]:
    return [Fraction(math.comb(n - 1, m - 1), 2 ** (n - 1)) for m in range(1, n + 1)]


@pytest.mark.parametrize("tau", [0.5, 2.0, math.inf, -2.0])
def test_lock_histogram_against_exact_distribution(tau: float) -> None:
    """n = 6 and one bin per key: the histogram is GRaMPa's law in LOCK order."""
    n, size = 6, 20_000
    h = grampa_lock.lock_histogram(n, tau=tau, n_samples=size, bins=32, seed=3)
    assert h["edges"].tolist() == list(range(33))
    g = Grampa(Vocabulary.infinite(), tau=tau, seed=0)
    law = g.distribution(demo_word(n))
    order = naive.lock_order(n)
    probs = np.zeros(32)
    for seg, q in law.items():
        probs[order.index(tuple(len(x) for x in seg))] = q
    assert probs.sum() == pytest.approx(1.0)
    assert tv_distance(h["freq"], probs) < tv_sampling_bound(32, size)
    # the m-blocks of the LOCK axis carry the exact token-count law
    block = [probs[h["m_edges"][m]:h["m_edges"][m + 1]].sum() for m in range(n)]
    assert h["m_pmf"] == pytest.approx(block, abs=1e-12)


def test_lock_histogram_skew_is_progressive() -> None:
    """Along FIGURE5_TAUS (decreasing α = 1/τ) the exact E[m] falls at every step."""
    means = [grampa_lock.lock_histogram(29, tau=t, n_samples=200, bins=16, seed=0)["expected_m"]
             for t in grampa_lock.FIGURE5_TAUS]
    assert all(a > b for a, b in zip(means, means[1:]))
    assert means[1] == pytest.approx(15.0)


def test_lock_histogram_validates() -> None:
    with pytest.raises(ValueError):
        grampa_lock.lock_histogram(5, tau=0.0, n_samples=10, bins=4)
    with pytest.raises(ValueError):
        grampa_lock.lock_histogram(5, tau=float("nan"), n_samples=10, bins=4)
    with pytest.raises(ValueError):
        grampa_lock.lock_histogram(5, n_samples=10, bins=17)
    with pytest.raises(ValueError):
        grampa_lock.lock_histogram(grampa_lock.MAX_HISTOGRAM_N + 1, n_samples=10, bins=4)
    h = grampa_lock.lock_histogram(1, n_samples=10, bins=1)
    assert h["counts"].tolist() == [10] and h["m_counts"].tolist() == [10]


@pytest.mark.parametrize("n, bins", [(5, 3), (9, 7), (12, 1 << 11), (29, 512), (29, 2048),
                                     (62, 5), (62, 1 << 10)])
def test_lock_histogram_spans_are_the_edges_searched(n, bins) -> None:
    """A key's span, computed as ((k+1)·B − 1) // N (or, past int64, by searching the edges),
    is the span whose edges hold it: counts equal a search of the edges, key by key."""
    h = grampa_lock.lock_histogram(n, tau=2.0, n_samples=3000, bins=bins, seed=1)
    keys, _, _ = grampa_lock._lock_sample(n, 2.0, 3000, 1)
    spans = np.searchsorted(h["edges"], keys, side="right") - 1
    assert np.array_equal(h["counts"], np.bincount(spans, minlength=bins))
    assert np.all(h["edges"][spans] <= keys) and np.all(keys < h["edges"][spans + 1])
