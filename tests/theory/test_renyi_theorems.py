"""Theorems 4.1–4.3 and Example 2 (workbench.theory.renyi) against exact references."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import metrics as ref

from workbench import checks
from workbench.metrics import renyi_entropy, shannon_entropy
from workbench.theory.renyi import (
    EXAMPLE2_PRINTED,
    duplicate_counts,
    duplication_renyi_gain,
    duplication_shannon_gain,
    example2_table,
    random_drop_condition,
    random_drop_counts,
)

tables = st.lists(st.integers(1, 500), min_size=3, max_size=12)


@settings(max_examples=100, deadline=None)
@given(tables, st.data(), st.sampled_from([2, 3, 4]))
def test_condition_iff_exact_rise(values, data, alpha):
    """Eq. 15 holds exactly when H_α rises (integer α, exact Fractions): sufficient, and —
    as every step of the paper's proof is an equivalence — necessary too."""
    counts = dict(enumerate(values))
    x, y, z = data.draw(st.permutations(range(len(values))))[:3]
    if data.draw(st.booleans()):
        z = y
    assert random_drop_condition(counts, x, y, z, alpha) == ref.drop_raises_renyi(
        counts, x, y, z, alpha)


def test_condition_known_cases_and_scale():
    # dropping a frequent token whose parts are rare flattens the distribution
    c = {"x": 100, "y": 1, "z": 1, "w": 100}
    assert random_drop_condition(c, "x", "y", "z", 3.0)
    # dropping a rare token into two frequent parts sharpens it
    c = {"x": 1, "y": 100, "z": 100}
    assert not random_drop_condition(c, "x", "y", "z", 3.0)
    # scale-free: counts ×1e6 give the same answer (and no overflow at α = 60)
    c = {"x": 30, "y": 2, "z": 5, "w": 40}
    big = {k: v * 10**6 for k, v in c.items()}
    for a in (1.5, 3.0, 60.0):
        assert random_drop_condition(c, "x", "y", "z", a) == random_drop_condition(
            big, "x", "y", "z", a)


def test_condition_bad_input():
    c = {"x": 3, "y": 1, "z": 1}
    with pytest.raises(ValueError, match="alpha must be > 1"):
        random_drop_condition(c, "x", "y", "z", 1.0)
    with pytest.raises(ValueError, match="not a token"):
        random_drop_condition(c, "q", "y", "z", 2.0)
    with pytest.raises(ValueError, match="must differ"):
        random_drop_condition(c, "x", "x", "z", 2.0)
    with pytest.raises(TypeError):
        random_drop_condition([3, 1, 1], 0, 1, 2, 2.0)


def test_drop_and_duplicate_counts():
    assert random_drop_counts({"ab": 2, "a": 1, "b": 3, "c": 4}, "ab", "a", "b") == {
        "a": 3, "b": 5, "c": 4}
    dup = duplicate_counts({"a": 6, "b": 1}, "a", 3)
    assert dup == {"b": 1, ("a", 1): 2.0, ("a", 2): 2.0, ("a", 3): 2.0}


@settings(max_examples=60, deadline=None)
@given(tables, st.integers(0, 2), st.integers(2, 9),
       st.sampled_from([0.3, 0.7, 0.999, 1.0, 1.001, 2.0, 2.5, 3.0, 7.0]))
def test_duplication_gains(values, x, k, alpha):
    counts = dict(enumerate(values))
    dup = duplicate_counts(counts, x, k)
    p_x = counts[x] / sum(values)
    assert math.isclose(shannon_entropy(dup) - shannon_entropy(counts),
                        duplication_shannon_gain(p_x, k), rel_tol=1e-9)
    gain = duplication_renyi_gain(counts, x, k, alpha)
    assert gain > 0  # Theorem 4.3 (and 4.2 at α = 1)
    exact = ref.renyi_entropy(list(dup.values()), alpha) - ref.renyi_entropy(values, alpha)
    assert math.isclose(gain, exact, rel_tol=1e-9, abs_tol=1e-13)
    assert math.isclose(renyi_entropy(dup, alpha) - renyi_entropy(counts, alpha), gain,
                        rel_tol=1e-6, abs_tol=1e-12)


def test_example2_reproduced():
    table = example2_table()
    for k, printed in EXAMPLE2_PRINTED.items():
        assert [round(v, 2) for v in table[k]] == list(printed)
    # with one base throughout the efficiencies are the printed ones / log2(e), all <= 1
    bits = example2_table("bits")
    for k in table:
        for i in range(3, 6):
            assert math.isclose(bits[k][i] * math.log2(math.e), table[k][i], rel_tol=1e-12)
            assert bits[k][i] <= 1
    with pytest.raises(ValueError):
        example2_table("nats")


RENYI_CHECKS = [(name, kind, fn) for name, (kind, fn) in checks.CHECKS.items()
                if fn.__module__ == "workbench.checks.renyi"]


def test_verify_runs_the_new_checks():
    names = {name for name, _, _ in RENYI_CHECKS}
    assert len(names) == 4 and names <= set(checks.CHECKS)
    rows = checks.verify(only="Example 2")
    assert rows and all(r.status == "pass" for r in rows)


@pytest.mark.slow
def test_all_renyi_checks_pass():
    for _, _, fn in RENYI_CHECKS:
        for row in fn():
            assert row.status == "pass", row
