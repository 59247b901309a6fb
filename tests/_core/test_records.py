"""workbench._core.records: read-only arrays, equality by value (arrays, NaN, nesting)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from workbench._core.records import ArrayRecord, same_value


@dataclass(frozen=True, eq=False)
class Pair(ArrayRecord):
    x: np.ndarray
    label: object


def test_arrays_become_read_only() -> None:
    r = Pair(np.arange(3), "a")
    with pytest.raises(ValueError, match="read-only"):
        r.x[0] = 1


@pytest.mark.parametrize("a,b,equal", [
    (Pair(np.array([1.0, np.nan]), "a"), Pair(np.array([1.0, np.nan]), "a"), True),
    (Pair(np.array([1.0]), "a"), Pair(np.array([2.0]), "a"), False),
    (Pair(np.array([1.0]), "a"), Pair(np.array([1.0, 1.0]), "a"), False),
    (Pair(np.array([1]), "a"), Pair(np.array([1]), "b"), False),
    (Pair(np.array([1]), {1: Pair(np.zeros(2), ())}),
     Pair(np.array([1]), {1: Pair(np.zeros(2), ())}), True),
    (Pair(np.array([1]), (1, 2)), Pair(np.array([1]), [1, 2]), False),
    (Pair(np.array([1]), float("nan")), Pair(np.array([1]), float("nan")), True),
])
def test_equality_by_value(a, b, equal) -> None:
    assert (a == b) is equal and (b == a) is equal


def test_other_types_and_hashing() -> None:
    r = Pair(np.array([1]), "a")
    assert r != (np.array([1]), "a")
    assert not same_value(np.array([1.0]), [1.0])
    with pytest.raises(TypeError):
        hash(r)
