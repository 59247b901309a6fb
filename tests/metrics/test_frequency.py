"""Percentile frequency and sequence length against exact references and hand values."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import metrics as ref

from workbench.metrics import percentile_frequency, sequence_length

REL_TOL = 1e-12


def test_percentile_hand_values():
    # 10 types, decreasing 10..1, total 55; window [0, 8) at (0.03, 0.83): 10+…+3 = 52
    counts = list(range(1, 11))
    assert math.isclose(percentile_frequency(counts), 52 / 55, rel_tol=REL_TOL)
    # 100 equal types: ranks 3..82 = 80 of them
    assert math.isclose(percentile_frequency([1] * 100), 0.8, rel_tol=REL_TOL)
    assert percentile_frequency([4, 1], start=0.5, end=0.5) == 0.0
    assert percentile_frequency([4, 1], start=0.0, end=1.0) == 1.0
    # ties do not matter and zeros are not types
    assert percentile_frequency({"a": 2, "b": 2, "c": 1, "z": 0}, 0.0, 0.34) == 0.4


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 1000), min_size=1, max_size=60).filter(any),
       st.floats(0, 1), st.floats(0, 1))
def test_percentile_against_reference(counts, a, b):
    start, end = min(a, b), max(a, b)
    assert math.isclose(percentile_frequency(counts, start, end),
                        float(ref.percentile_frequency(counts, start, end)),
                        rel_tol=REL_TOL, abs_tol=1e-15)


def test_percentile_bad_input():
    with pytest.raises(ValueError, match="must not exceed"):
        percentile_frequency([1, 2], 0.5, 0.2)
    with pytest.raises(ValueError):
        percentile_frequency([1, 2], -0.1, 0.2)
    with pytest.raises(ValueError):
        percentile_frequency([], 0.1, 0.2)


def test_sequence_length():
    lines = [["a", "b", "c"], [], [1, 2]]
    assert sequence_length(lines) == float(ref.sequence_length(lines)) == 5 / 3
    assert sequence_length(np.array([2, 0, 4])) == 2.0
    assert sequence_length(np.arange(n) for n in (1, 2)) == 1.5
    assert Fraction(sequence_length([[1]] * 3)) == 1
    with pytest.raises(ValueError):
        sequence_length([])
    with pytest.raises(TypeError):
        sequence_length(["abc"])
    with pytest.raises(TypeError):
        sequence_length(np.array([1.5]))
    with pytest.raises(ValueError):
        sequence_length(np.array([-1]))
