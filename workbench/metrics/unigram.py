"""Unigram count tables: count the tokens of tokenised text; validate a table into an array.

Every metric of :mod:`workbench.metrics` reads its unigram distribution through
:func:`count_array`, so they all accept the same inputs (a mapping token → count or a 1-D
array of counts) and refuse the same bad ones. Counts may be non-integer (an *expected*
count table is real-valued); zero counts are dropped (a type that never occurs is not part
of the observed distribution).

This module computes no metric and does not tokenise anything.

Example
-------
>>> unigram_counts([["a", "b"], ["b"]])
{'a': 1, 'b': 2}
>>> count_array({"a": 2, "b": 0, "c": 1.5})
array([2. , 1.5])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import check_real, check_sized_input

__all__ = ["count_array", "unigram_counts"]


def unigram_counts(sequences: Iterable[Sequence[Hashable]]) -> dict[Hashable, int]:
    """Count every token over tokenised sequences (lines, documents or words).

    Parameters
    ----------
    sequences : iterable of sequences
        Each item is one tokenised sequence: a list/tuple of hashable tokens (``bytes``,
        ``str``, ids) or a 1-D integer NumPy array of ids.

    Returns
    -------
    dict
        Token → number of occurrences, in order of first occurrence.

    Raises
    ------
    TypeError
        If an item is a ``str``/``bytes`` (a string is not a tokenised sequence) or not
        iterable.

    Examples
    --------
    >>> import numpy as np
    >>> unigram_counts([np.array([3, 1, 3])])
    {3: 2, 1: 1}
    """
    counter: Counter = Counter()
    for i, seq in enumerate(sequences):
        if isinstance(seq, (str, bytes)) or not isinstance(seq, (Iterable, np.ndarray)):
            raise ArgumentTypeError(f"sequences[{i}] must be a sequence of tokens, not "
                                    f"{type(seq).__name__}; wrap a single sequence in a list")
        if isinstance(seq, np.ndarray):
            counter.update(seq.tolist())
        else:
            counter.update(seq)
    return dict(counter)


def count_array(counts: Mapping[Hashable, float] | Sequence[float] | np.ndarray, *,
                name: str = "counts") -> np.ndarray:
    """Validate a unigram count table; return its positive counts as a float64 array.

    Parameters
    ----------
    counts : mapping or 1-D array-like
        Token → count, or the counts alone. Counts are real numbers ``>= 0``; zeros are
        dropped. Order is kept.
    name : str
        Argument name used in error messages.

    Returns
    -------
    numpy.ndarray
        The positive counts, ``float64``, 1-D, at least one entry.

    Raises
    ------
    TypeError
        A count that is not a real number (``True``, ``"3"``), a non-numeric array.
    ValueError
        An empty table, a table whose counts are all zero, a negative, NaN or infinite
        count, an array that is not 1-D.

    Examples
    --------
    >>> count_array([0, 0])
    Traceback (most recent call last):
    ...
    workbench.InvalidValueError: counts has no positive count (empty distribution)
    """
    if isinstance(counts, Mapping):
        values = [check_real(v, f"{name}[{k!r:.40}]", minimum=0.0) for k, v in counts.items()]
        arr = np.asarray(values, dtype=np.float64)
    else:
        if isinstance(counts, (str, bytes)):
            raise ArgumentTypeError(f"{name} must be a mapping token -> count or an array of "
                                    f"counts, not {type(counts).__name__}")
        check_sized_input(counts, name)
        try:
            raw = np.asarray(counts)
        except Exception as err:  # ragged input and the like
            raise InvalidValueError(f"{name} is not a 1-D array of counts ({err})") from None
        if raw.dtype == object:
            raw = np.asarray([check_real(v, f"{name}[{i}]") for i, v in
                              enumerate(raw.ravel())]).reshape(raw.shape)
        if raw.size and (raw.dtype == np.bool_ or not np.issubdtype(raw.dtype, np.number)
                         or np.issubdtype(raw.dtype, np.complexfloating)):
            raise ArgumentTypeError(f"{name} must hold real numbers, not {raw.dtype}")
        if raw.ndim != 1:
            raise InvalidValueError(f"{name} must be one-dimensional, got shape {raw.shape}")
        arr = raw.astype(np.float64)
        if np.isnan(arr).any():
            raise InvalidValueError(f"{name} holds NaN at index "
                                    f"{int(np.flatnonzero(np.isnan(arr))[0])}")
        if np.isinf(arr).any():
            raise InvalidValueError(f"{name} holds an infinite count at index "
                                    f"{int(np.flatnonzero(np.isinf(arr))[0])}")
        if (arr < 0).any():
            i = int(np.flatnonzero(arr < 0)[0])
            raise InvalidValueError(f"{name} must be >= 0, got {arr[i]} at index {i}")
    if arr.size == 0:
        raise InvalidValueError(f"{name} is empty: no distribution to measure")
    positive = arr[arr > 0]
    if positive.size == 0:
        raise InvalidValueError(f"{name} has no positive count (empty distribution)")
    return positive
