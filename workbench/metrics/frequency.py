"""Frequency-based tokenisation metrics: percentile frequency and mean sequence length.

* **Percentile frequency** ``F_{γ1,γ2}`` (Gowda and May 2020; Cognetta et al. 2024, Eq. 1): rank
  the observed types by decreasing count (``|V|`` of them, ranks ``0 … |V|-1``) and sum the
  probability of the ranks ``⌊γ1·|V|⌋ ≤ r < ⌊γ2·|V|⌋``. Higher is "better" under the
  hypothesis. Ties do not matter (tied types have equal probability). This matches
  ``tokenization-scorer``'s ``percentile_freq`` for ``|V| >= 6``; for smaller tables that
  package clips the upper index to ``|V|-1`` and widens an empty range by one rank, which
  we do not do.
* **Sequence length** (the paper's ``SEQ``, lower is "better"): the mean number of tokens per
  sequence (line). ``tokenization-scorer`` returns its negative.

This module does not compute entropies (see :mod:`workbench.metrics.entropy`).

Example
-------
>>> percentile_frequency([5, 4, 3, 2, 1], start=0.2, end=0.8)
0.6
>>> sequence_length([["a", "b"], ["c"], ["d", "e", "f"]])
2.0
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import check_real
from .unigram import count_array

__all__ = ["percentile_frequency", "sequence_length"]


def percentile_frequency(counts: Mapping[Hashable, float] | Sequence[float] | np.ndarray,
                         start: float = 0.03, end: float = 0.83) -> float:
    """Probability mass of the types ranked between the ``start`` and ``end`` quantiles.

    Parameters
    ----------
    counts : mapping token → count, or 1-D array of counts
        Unigram counts (zeros ignored, so ``|V|`` is the number of observed types).
    start, end : float
        ``0 <= start <= end <= 1``: the rank window ``[⌊start·|V|⌋, ⌊end·|V|⌋)`` of the types
        sorted by decreasing count (the paper's ``F_{0.03, 0.83}`` by default).

    Returns
    -------
    float
        In ``[0, 1]``; 0 when the window is empty.

    Raises
    ------
    ValueError
        ``start``/``end`` outside ``[0, 1]`` or ``start > end``; bad counts.

    Examples
    --------
    >>> percentile_frequency({"a": 3, "b": 1}, start=0.5, end=1.0)
    0.25
    """
    s = check_real(start, "start", minimum=0.0, maximum=1.0)
    e = check_real(end, "end", minimum=0.0, maximum=1.0)
    if s > e:
        raise InvalidValueError(f"start = {s} must not exceed end = {e}")
    c = np.sort(count_array(counts))[::-1]
    lo, hi = int(c.size * s), int(c.size * e)
    if hi <= lo:
        return 0.0
    if not c[0] > 0:
        raise InvalidValueError("counts must have a positive total")
    c = c / c[0]  # scale-invariant: 1e308-sized counts do not overflow the sums
    return float(math.fsum(c[lo:hi].tolist()) / math.fsum(c.tolist()))


def sequence_length(sequences: Iterable[Sequence[Hashable]] | np.ndarray) -> float:
    """Mean number of tokens per sequence.

    Parameters
    ----------
    sequences : iterable of token sequences, or 1-D integer array of lengths
        Tokenised lines (lists/tuples/arrays of tokens), or their lengths directly as a NumPy
        integer array.

    Raises
    ------
    TypeError
        An item that is a ``str``/``bytes`` or not a sequence; a non-integer lengths array.
    ValueError
        No sequence at all; a negative length.

    Examples
    --------
    >>> import numpy as np
    >>> sequence_length(np.array([3, 4, 5]))
    4.0
    """
    if isinstance(sequences, np.ndarray):
        if sequences.ndim != 1:
            raise InvalidValueError(f"a lengths array must be 1-D, got shape {sequences.shape}")
        if sequences.size and not np.issubdtype(sequences.dtype, np.integer):
            raise ArgumentTypeError(f"a lengths array must hold integers, not {sequences.dtype}")
        if (sequences < 0).any():
            raise InvalidValueError("sequence lengths must be >= 0")
        lengths = sequences.astype(np.int64).tolist()
    else:
        lengths = []
        for i, seq in enumerate(sequences):
            if isinstance(seq, (str, bytes)) or not hasattr(seq, "__len__"):
                raise ArgumentTypeError(f"sequences[{i}] must be a sequence of tokens, not "
                                        f"{type(seq).__name__}")
            lengths.append(len(seq))
    if not lengths:
        raise InvalidValueError("sequence_length needs at least one sequence")
    return sum(lengths) / len(lengths)
