"""Shannon/Rényi entropy and efficiency against exact 60-digit references and hand values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import metrics as ref

from workbench.metrics import (
    count_array,
    renyi_efficiency,
    renyi_entropy,
    shannon_entropy,
    unigram_counts,
)

REL_TOL = 1e-12  # relative error allowed against the 60-digit reference
ABS_TOL = 1e-13  # for values that are (near) zero

counts_st = st.lists(st.integers(0, 10**6), min_size=1, max_size=30).filter(lambda c: any(c))
alpha_st = st.one_of(st.floats(0.0, 50.0), st.sampled_from([0.0, 0.5, 1.0, 2.0, 2.5, 3.0]),
                     st.floats(1 - 1e-6, 1 + 1e-6))


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)


# --------------------------------------------------------------------------- hand values
def test_hand_values():
    # uniform over 4: every order gives log2 4 = 2 bits
    for a in (0.0, 0.5, 1.0, 2.0, 3.0, math.inf):
        assert close(renyi_entropy([7, 7, 7, 7], a), 2.0)
    # (1/2, 1/4, 1/4): H = 1.5 bits, H_2 = -log2(3/8), H_0 = log2 3, H_inf = 1
    c = {"a": 2, "b": 1, "c": 1}
    assert close(shannon_entropy(c), 1.5)
    assert close(renyi_entropy(c, 2), -math.log2(0.375))
    assert close(renyi_entropy(c, 0), math.log2(3))
    assert close(renyi_entropy(c, math.inf), 1.0)
    assert close(shannon_entropy(c, base=math.e), 1.5 * math.log(2))
    # efficiency: base-free
    assert close(renyi_efficiency(c, 2), -math.log2(0.375) / math.log2(3))
    assert close(renyi_efficiency(c, 2, vocab_size=8), -math.log2(0.375) / 3)


def test_single_type_and_zero_counts():
    assert shannon_entropy([5]) == 0.0
    assert renyi_entropy({"x": 3, "y": 0}, 2.5) == 0.0
    assert renyi_entropy([5], math.inf) == 0.0
    assert renyi_efficiency([5, 0, 0], 3.0, vocab_size=10) == 0.0
    with pytest.raises(ValueError, match="at least 2 observed types"):
        renyi_efficiency([5, 0], 3.0)
    # zeros are ignored: same numbers as without them, and |V| counts observed types
    assert renyi_entropy([3, 0, 1, 0], 0.0) == renyi_entropy([3, 1], 0.0) == 1.0
    assert renyi_efficiency([3, 0, 1], 2.0) == renyi_efficiency([3, 1], 2.0)


@pytest.mark.parametrize("bad, err", [
    ([], ValueError), ({}, ValueError), ([0, 0], ValueError), ([1, -1], ValueError),
    ([1, float("nan")], ValueError), ([1, float("inf")], ValueError), ([[1, 2]], ValueError),
    ("ab", TypeError), ({"a": "3"}, TypeError), ({"a": True}, TypeError), ([True], TypeError),
])
def test_bad_counts(bad, err):
    with pytest.raises(err):
        renyi_entropy(bad, 2.0)
    with pytest.raises(err):
        shannon_entropy(bad)


def test_bad_alpha_base_vocab():
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        renyi_entropy([1, 2], -0.5)
    with pytest.raises(ValueError):
        renyi_entropy([1, 2], float("nan"))
    with pytest.raises(TypeError):
        renyi_entropy([1, 2], "3")
    for base in (1, 0, -2):
        with pytest.raises(ValueError):
            shannon_entropy([1, 2], base=base)
    with pytest.raises(ValueError, match="below the 3 observed"):
        renyi_efficiency([1, 2, 3], 2.0, vocab_size=2)
    with pytest.raises(TypeError):
        renyi_efficiency([1, 2, 3], 2.0, vocab_size=3.0)


def test_mapping_array_and_float_counts_agree():
    c = {"a": 3, "b": 5, "c": 0, "d": 1}
    assert renyi_entropy(c, 2.5) == renyi_entropy(np.array([3, 5, 0, 1]), 2.5)
    assert close(renyi_entropy(c, 2.5), renyi_entropy([0.3, 0.5, 0.0, 0.1], 2.5))
    assert count_array(c).tolist() == [3.0, 5.0, 1.0]
    assert unigram_counts([[b"a", b"b"], [b"a"]]) == {b"a": 2, b"b": 1}
    with pytest.raises(TypeError):
        unigram_counts(["abc"])


# --------------------------------------------------------------------------- references
@settings(max_examples=100, deadline=None)
@given(counts_st, alpha_st)
def test_renyi_against_reference(counts, alpha):
    assert math.isclose(renyi_entropy(counts, alpha), ref.renyi_entropy(counts, alpha),
                        rel_tol=REL_TOL, abs_tol=ABS_TOL)
    if sum(c > 0 for c in counts) >= 2:
        assert math.isclose(renyi_efficiency(counts, alpha),
                            ref.renyi_efficiency(counts, alpha), rel_tol=REL_TOL,
                            abs_tol=ABS_TOL)


@settings(max_examples=60, deadline=None)
@given(counts_st)
def test_shannon_against_reference(counts):
    assert math.isclose(shannon_entropy(counts), ref.shannon_entropy(counts),
                        rel_tol=REL_TOL, abs_tol=ABS_TOL)


@pytest.mark.parametrize("delta", [10.0 ** -e for e in range(1, 17)] + [1e-30, 1e-100, 1e-300])
def test_continuity_at_one(delta):
    """No cancellation: H_{1±δ} is exact to ~1e-13 relative for every δ (the naive float
    formula loses all digits below δ ≈ 1e-8, see the last assertion)."""
    counts = [1000, 200, 30, 7, 1, 1]
    for a in (1 + delta, 1 - delta):
        assert math.isclose(renyi_entropy(counts, a), ref.renyi_entropy(counts, a),
                            rel_tol=REL_TOL)
    h = shannon_entropy(counts)
    assert abs(renyi_entropy(counts, 1 + delta) - h) <= max(delta, 1e-15) * 10
    if delta <= 1e-12:  # the textbook formula is off by far more than our tolerance here
        p = np.array(counts) / sum(counts)
        textbook = math.log2(float((p ** (1 + delta)).sum())) / -delta
        assert not math.isclose(textbook, h, rel_tol=1e-6)


def test_monotone_in_alpha_and_limits():
    counts = [50, 20, 20, 5, 3, 1, 1]
    alphas = [0, 0.01, 0.5, 0.999, 1, 1.001, 2, 2.5, 3, 10, 100, 1e4, math.inf]
    h = [renyi_entropy(counts, a) for a in alphas]
    assert all(x >= y - 1e-15 for x, y in zip(h, h[1:]))
    assert math.isclose(renyi_entropy(counts, 1e-12), renyi_entropy(counts, 0), rel_tol=1e-9)
    assert math.isclose(renyi_entropy(counts, 1e6), renyi_entropy(counts, math.inf),
                        rel_tol=1e-4)


def test_extreme_counts_no_overflow():
    counts = [1e300, 1e-300, 1.0]
    for a in (0.0, 0.3, 1 - 1e-9, 1.0, 2.0, 1e3, math.inf):
        h = renyi_entropy(counts, a)
        assert math.isfinite(h) and h >= 0
    # p = (1, 1e-300, 1e-600) to double precision: H_0.5 = 2 log2(1 + 1e-150 + ...)
    # = 2e-150 / ln 2, which the textbook formula rounds to 0
    assert math.isclose(renyi_entropy(counts, 0.5), 2e-150 / math.log(2), rel_tol=1e-12)
