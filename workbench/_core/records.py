"""Frozen result records that hold numpy arrays: read-only arrays, equality by value.

A frozen dataclass compares its fields as a tuple, which is ambiguous for numpy arrays
(``==`` is elementwise). :class:`ArrayRecord` is a mixin for ``@dataclass(frozen=True,
eq=False)`` results: it makes every array field read-only (a cached result cannot be
changed by a caller) and compares records field by field, arrays by shape and value (NaN
equal to NaN), nested records, dicts, lists and tuples recursively.

This module knows no result type and computes nothing; the records are the experiments'.

Example
-------
>>> from dataclasses import dataclass
>>> import numpy as np
>>> @dataclass(frozen=True, eq=False)
... class R(ArrayRecord):
...     x: np.ndarray
>>> R(np.array([1.0, np.nan])) == R(np.array([1.0, np.nan])), R(np.array([1.0])).x.flags.writeable
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

import numpy as np

__all__ = ["ArrayRecord", "same_value"]


def same_value(a: Any, b: Any) -> bool:
    """Deep equality: arrays by shape and values (NaN equals NaN), mappings, lists and
    tuples (of the same type) recursively, NaN floats equal; anything else by ``==``."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape
                and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")))
    if isinstance(a, Mapping) or isinstance(b, Mapping):
        return (isinstance(a, Mapping) and isinstance(b, Mapping) and a.keys() == b.keys()
                and all(same_value(a[k], b[k]) for k in a))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(same_value(x, y) for x, y in zip(a, b)))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


class ArrayRecord:
    """Mixin for ``@dataclass(frozen=True, eq=False)`` results holding numpy arrays."""

    def __post_init__(self) -> None:
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if isinstance(value, np.ndarray):
                value.flags.writeable = False

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(same_value(getattr(self, f.name), getattr(other, f.name))
                   for f in fields(self))  # type: ignore[arg-type]

    __hash__ = None  # type: ignore[assignment]  # mutable-looking contents: not hashable
