"""Argument validation shared by :mod:`workbench.theory` (ints, string lengths, token lengths).

This module does no mathematics; it only turns bad input into clear ``TypeError`` /
``ValueError`` messages before any exact or exponential computation starts.

Example
-------
>>> check_n(5)
5
>>> check_lengths([2, 1, 3])
(2, 1, 3)
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


def check_int(value: object, name: str, *, minimum: int | None = None,
              maximum: int | None = None, why: str = "") -> int:
    """Return ``value`` as a Python ``int``; refuse bools, floats and out-of-range values.

    Parameters
    ----------
    value : object
        The candidate (``int`` or NumPy integer).
    name : str
        Argument name used in error messages.
    minimum, maximum : int, optional
        Inclusive bounds.
    why : str
        Appended to the error message when ``maximum`` is exceeded (e.g. why a cap exists).

    Raises
    ------
    TypeError
        If ``value`` is not an integer (``True``, ``3.0`` and ``"3"`` are refused).
    ValueError
        If ``value`` is out of range.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__} ({value!r})")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}{why}")
    return value


def check_n(n: object, *, minimum: int = 1, maximum: int | None = None, why: str = "") -> int:
    """Validate a string length ``n`` (an int ``>= minimum``, default 1)."""
    return check_int(n, "n", minimum=minimum, maximum=maximum, why=why)


def check_lengths(lengths: Iterable[object], n: int | None = None) -> tuple[int, ...]:
    """Validate a composition: a non-empty sequence of positive ints (summing to ``n`` if given).

    Returns the lengths as a tuple of Python ints.

    Raises
    ------
    TypeError
        If ``lengths`` is not a sequence of ints (a ``str`` is refused).
    ValueError
        If it is empty, has a non-positive entry, or does not sum to ``n``.
    """
    if type(lengths) in (tuple, list) and all(type(x) is int for x in lengths):
        out = tuple(lengths)  # fast path: plain ints need no per-element conversion
        if out and min(out) >= 1 and (n is None or sum(out) == n):
            return out
    if isinstance(lengths, (str, bytes)) or not isinstance(lengths, (Iterable, np.ndarray)):
        raise TypeError(f"lengths must be a sequence of ints, not {type(lengths).__name__}")
    if isinstance(lengths, np.ndarray):
        if lengths.ndim != 1:
            raise ValueError(f"lengths must be one-dimensional, got shape {lengths.shape}")
        if lengths.size and not np.issubdtype(lengths.dtype, np.integer):
            raise TypeError(f"lengths must hold integers, not {lengths.dtype}")
    out = tuple(check_int(x, "every token length") for x in lengths)
    if not out:
        raise ValueError("lengths must contain at least one token length")
    if min(out) < 1:
        raise ValueError(f"token lengths must be positive, got {list(out)}")
    if n is not None and sum(out) != n:
        raise ValueError(f"token lengths {list(out)} sum to {sum(out)}, not n = {n}")
    return out
