"""Length-ordered composition keys (LOCKs) and bit keys for segmentations (Appendix C).

A segmentation of an ``n``-character string is a composition ``t`` of ``n`` (its token
lengths). Both keys map the ``2^(n-1)`` compositions bijectively onto ``0 … 2^(n-1)-1``:

* :func:`bit_key` (C.1): the ``n - 1`` boundary bits read as a binary number, the boundary
  after the first character being the most significant bit (``a/bcdef`` → ``10000₂``).
* :func:`lock_key` (C.2): ``f1 + f2 + f3`` (Eq. 62), ordering compositions by (1) token
  count ``m``, then (2) ``sort(t)`` ascending, compared left to right, then (3) the
  lexicographic rank ``g(t)`` of ``t`` among the distinct permutations of ``sort(t)``
  (Algorithm 5, :func:`multiset_rank`). Key 0 is the unsegmented word, key
  ``2^(n-1) - 1`` the character split.

``f1`` is a binomial sum (Eq. 59/63, also through ₂F₁: :func:`lock_f1_hyp2f1`). For ``f2``
the paper enumerates the lower partitions with Hindenburg's algorithm (Algorithm 4,
:func:`partitions_k`, and :func:`lock_f2_by_partitions`); :func:`lock_f2` instead counts
them in closed form, value by value (see its docstring), so that the batch kernel
:func:`lock_keys` does ``O(n log n + m k)`` work per key (``k`` distinct lengths).
:func:`lock_unrank` inverts the LOCK (not in the paper) with the same counts.

Exactness: the scalar functions use Python ints for any ``n <= MAX_LOCK_N``; the batch
kernel uses int64 and is exact for ``n <= 64``: every partial sum and product it forms is
a count of compositions of ``n`` (``< 2^63``), and in ``a * c / r`` the product is formed
first only for ``n <= 57`` (``2^(n-1) * n < 2^63``), the division first above.

This module does not sample segmentations, does not bin keys into histograms or plot
(notebooks do), and has no notion of a vocabulary: every composition is a valid key.

Example
-------
>>> lock_key([5]), lock_key([1, 4]), lock_key([4, 1]), lock_key([2, 3]), lock_key([1] * 5)
(0, 1, 2, 3, 15)
>>> lock_unrank(3, 5)
(2, 3)
>>> bit_key([1, 5]), bit_key([2, 1, 1, 1, 1])
(16, 15)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from math import comb
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ..._core.config import JIT, JIT_PARALLEL
from ..._core.errors import ArgumentTypeError, InvalidValueError, InvariantError
from ..._core.validate import check_int, check_lengths, check_n, check_work
from .combinatorics import (  # noqa: F401  (Algorithms 4-5, part of the LOCK's public story)
    _WHY_PART,
    MAX_PARTITION_N,
    _mn,
    _partitions_iter,
    _rank,
    multiset_permutation_count,
    multiset_rank,
    multiset_unrank,
    partition_count,
    partition_count_k,
    partitions_before,
    partitions_k,
    partitions_k_recursive,
)

MAX_LOCK_N = 4096
"""Largest string length for the exact (Python-int) scalar keys."""
MAX_KERNEL_N = 64
"""Largest string length for the int64 batch kernel :func:`lock_keys`."""

_WHY_LOCK = f" (exact LOCK keys are capped at n = {MAX_LOCK_N})"


# --------------------------------------------------------------------------- C.1 bit keys
def bit_key(lengths: Sequence[int]) -> int:
    """Bit-ordered key of a segmentation (Appendix C.1).

    Bit ``n-1-p`` is set iff there is a boundary after character ``p`` (``1 <= p <= n-1``),
    i.e. the first inter-character position is the most significant bit.

    Parameters
    ----------
    lengths : sequence of int
        Token lengths (a composition of ``n = sum(lengths)``).

    Returns
    -------
    int
        In ``0 … 2^(n-1) - 1``.

    Examples
    --------
    >>> bit_key([1, 5]), bit_key([2, 1, 1, 1, 1]), bit_key([6])
    (16, 15, 0)
    """
    t = check_lengths(lengths)
    n = sum(t)
    check_n(n, maximum=MAX_LOCK_N, why=_WHY_LOCK)
    key = 0
    pos = 0
    for length in t[:-1]:
        pos += length
        key |= 1 << (n - 1 - pos)
    return key


def bit_unrank(key: int, n: int) -> tuple[int, ...]:
    """Inverse of :func:`bit_key`: the token lengths whose boundary bits spell ``key``.

    Examples
    --------
    >>> bit_unrank(16, 6), bit_unrank(15, 6)
    ((1, 5), (2, 1, 1, 1, 1))
    """
    n = check_n(n, maximum=MAX_LOCK_N, why=_WHY_LOCK)
    key = check_int(key, "key", minimum=0, maximum=(1 << (n - 1)) - 1)
    out = []
    last = 0
    for pos in range(1, n):
        if key >> (n - 1 - pos) & 1:
            out.append(pos - last)
            last = pos
    out.append(n - last)
    return tuple(out)


# --------------------------------------------------------------------------- f1 (Eq. 59, 63)
def lock_f1(m: int, n: int) -> int:
    """``f1``: the number of compositions of ``n`` with fewer than ``m`` parts (Eq. 59/63).

    ``f1 = Σ_{j=1}^{m-1} C(n-1, j-1)``.

    Examples
    --------
    >>> [lock_f1(m, 5) for m in range(1, 6)]
    [0, 1, 5, 11, 15]
    """
    n = check_n(n, maximum=MAX_LOCK_N, why=_WHY_LOCK)
    m = check_int(m, "m", minimum=1, maximum=n)
    return _f1(m, n)


def _f1(m: int, n: int) -> int:
    return sum(comb(n - 1, j - 1) for j in range(1, m))


#: The largest string length the ``"scipy"`` backend of :func:`lock_f1_hyp2f1` takes
#: (``2**(n - 1)`` must be a float64).
SCIPY_MAX_N = 1024


def lock_f1_hyp2f1(m: int, n: int, backend: str = "mpmath") -> int | float:
    """``f1`` through the Gaussian hypergeometric closed form of Eq. 63.

    ``f1 = 2^(n-1) - C(n-1, m-1) · ₂F₁(1, m-n; m; -1)``. The series terminates
    (``m - n <= 0``).

    Parameters
    ----------
    m, n : int
        Token count ``1 <= m <= n`` and string length.
    backend : {"mpmath", "scipy"}
        ``"mpmath"`` evaluates ₂F₁ with ``n/3 + 20`` significant digits and rounds, which is
        exact (returns ``int``); ``"scipy"`` uses ``scipy.special.hyp2f1`` in float64 (returns
        ``float``, relative error ~1e-15).

    Examples
    --------
    >>> lock_f1_hyp2f1(3, 5), lock_f1_hyp2f1(3, 5, backend="scipy")
    (5, 5.0)
    """
    n = check_n(n, maximum=MAX_LOCK_N, why=_WHY_LOCK)
    m = check_int(m, "m", minimum=1, maximum=n)
    if backend == "mpmath":
        import mpmath

        with mpmath.workdps(n // 3 + 20):
            value = (mpmath.mpf(2) ** (n - 1)
                     - comb(n - 1, m - 1) * mpmath.hyp2f1(1, m - n, m, -1))
            return int(mpmath.nint(value))
    if backend == "scipy":
        from scipy.special import hyp2f1

        if n > SCIPY_MAX_N:
            raise InvalidValueError("backend='scipy' works in float64, where 2**(n - 1) exists "
                                    f"only for n <= {SCIPY_MAX_N}; got n = {n} (use "
                                    "backend='mpmath')")
        value = float(2.0 ** (n - 1) - float(comb(n - 1, m - 1)) * hyp2f1(1.0, m - n, m, -1.0))
        if not math.isfinite(value):
            raise InvalidValueError(f"backend='scipy' overflows float64 for m = {m}, n = {n} (use "
                                    "backend='mpmath')")
        return value
    raise InvalidValueError(f"backend must be 'mpmath' or 'scipy', got {backend!r}")


# --------------------------------------------------------------------------- f2
def _compositions_min(total: int, parts: int, low: int) -> int:
    """Compositions of ``total`` into ``parts`` parts, each ``>= low`` (``low >= 1``)."""
    if parts == 0:
        return 1 if total == 0 else 0
    free = total - parts * low
    if free < 0:
        return 0
    return comb(free + parts - 1, parts - 1)


def lock_f2(lengths: Sequence[int]) -> int:
    """``f2``: compositions with as many parts as ``t`` whose sorted form is lex-smaller (Eq. 60).

    Closed-form count (no partition enumeration). Compare sorted sequences value by value:
    ``sort(u) < sort(t)`` iff at the smallest value ``v`` where the multiplicities differ,
    ``u`` has *more* copies of ``v``. So, with ``K`` parts and sum ``S`` fixed by the values
    below ``v`` (placed in ``P = m! / (Π_{w<v} c_w! · (m-K)!)`` ways),

    ``f2 = Σ_v Σ_{j > c_v} P · C(m-K, j) · #compositions(n - S - j v, m - K - j, parts > v)``.

    Equal to :func:`lock_f2_by_partitions` (the paper's method), checked in
    :func:`workbench.checks.verify`.

    Examples
    --------
    >>> lock_f2([2, 3]), lock_f2([3, 2]), lock_f2([1, 4])
    (2, 2, 0)
    """
    t = check_lengths(lengths)
    n = check_n(sum(t), maximum=MAX_LOCK_N, why=_WHY_LOCK)
    return _f2(t, n)


def _f2(t: tuple[int, ...], n: int) -> int:
    m = len(t)
    ctr = Counter(t)
    placed, total, ways, f2 = 0, 0, 1, 0
    v = 1
    while placed < m:
        q = m - placed
        rest = n - total
        c = ctr.get(v, 0)
        for j in range(max(c + 1, q * (v + 1) - rest), min(q, rest // v) + 1):
            k = _compositions_min(rest - j * v, q - j, v + 1)
            if k:
                f2 += ways * comb(q, j) * k
        ways *= comb(q, c)
        placed += c
        total += c * v
        v += 1
    return f2


def lock_f2_by_partitions(lengths: Sequence[int]) -> int:
    """``f2`` the paper's way (C.2.2): sum ``MN(p)`` over the partitions ``p < sort(t)``.

    Enumerates :func:`partitions_k` up to ``sort(t)``; exponential-ish in ``sqrt(n)``, so
    ``n <= MAX_PARTITION_N``. Cost model: ``(r + 1)(k + 10)`` steps for the rank ``r`` of
    ``sort(t)`` (:func:`partitions_before`, exact) and ``k = len(t)``, at ~7e6 steps/s
    (measured: ``p(90, 30)`` partitions in 4.5 s); over the time budget it raises
    :class:`~workbench._core.validate.BudgetError` before enumerating (use :func:`lock_f2`).

    Examples
    --------
    >>> lock_f2_by_partitions([2, 3])
    2
    """
    t = check_lengths(lengths)
    n = check_int(sum(t), "n", maximum=MAX_PARTITION_N, why=_WHY_PART)
    target = tuple(sorted(t))
    check_work((partitions_before(target) + 1) * (len(t) + 10),
               f"lock_f2_by_partitions of a {len(t)}-part composition of n = {n}",
               rate=7e6, hint=" (lock_f2 computes the same number in closed form)")
    f2 = 0
    for p in _partitions_iter(n, len(t)):
        if p == target:
            return f2
        f2 += _mn(p)
    raise InvariantError("unreachable: sort(t) is a partition of n")  # pragma: no cover


# --------------------------------------------------------------------------- LOCK
def lock_key(lengths: Sequence[int]) -> int:
    """Length-ordered composition key of a segmentation (Appendix C.2, Eq. 62).

    ``f1(|t|) + f2(t) + g(t)``: ordered by token count, then by ``sort(t)`` ascending
    (compared left to right), then by the lexicographic permutation rank ``g``. Bijective
    onto ``0 … 2^(n-1) - 1`` for ``n = sum(lengths)``.

    Parameters
    ----------
    lengths : sequence of int
        Token lengths, positive, ``n = sum(lengths) <= MAX_LOCK_N``.

    Returns
    -------
    int

    Examples
    --------
    >>> [lock_key(t) for t in [(4,), (1, 3), (3, 1), (2, 2), (1, 1, 2)]]
    [0, 1, 2, 3, 4]
    """
    t = check_lengths(lengths)
    n = check_n(sum(t), maximum=MAX_LOCK_N, why=_WHY_LOCK)
    return _f1(len(t), n) + _f2(t, n) + _rank(t)


def lock_unrank(key: int, n: int) -> tuple[int, ...]:
    """Inverse of :func:`lock_key`: the composition of ``n`` with LOCK ``key`` (not in the paper).

    Finds ``m`` from the cumulative binomials, then the partition value by value (for each
    ``v``, blocks of compositions with ``j`` copies of ``v`` come in decreasing ``j``), then
    the permutation with :func:`multiset_unrank`.

    Examples
    --------
    >>> [lock_unrank(k, 4) for k in range(8)]
    [(4,), (1, 3), (3, 1), (2, 2), (1, 1, 2), (1, 2, 1), (2, 1, 1), (1, 1, 1, 1)]
    """
    n = check_n(n, maximum=MAX_LOCK_N, why=_WHY_LOCK)
    key = check_int(key, "key", minimum=0, maximum=(1 << (n - 1)) - 1)
    m = 1
    while key >= comb(n - 1, m - 1):
        key -= comb(n - 1, m - 1)
        m += 1
    parts: list[int] = []
    placed, total, ways = 0, 0, 1
    v = 1
    while placed < m:
        q = m - placed
        rest = n - total
        for j in range(min(q, rest // v), max(0, q * (v + 1) - rest) - 1, -1):
            block = ways * comb(q, j) * _compositions_min(rest - j * v, q - j, v + 1)
            if key < block:
                break
            key -= block
        else:  # pragma: no cover - key < C(n-1, m-1) guarantees a block is found
            raise InvariantError("lock_unrank: no block found")
        parts.extend([v] * j)
        ways *= comb(q, j)
        placed += j
        total += j * v
        v += 1
    return multiset_unrank(parts, key)


# --------------------------------------------------------------------------- batch kernel
def _binomial_table(size: int) -> np.ndarray:
    table = np.zeros((size + 1, size + 1), dtype=np.int64)
    for a in range(size + 1):
        for b in range(a + 1):
            table[a, b] = comb(a, b)
    return table


class _Tables(NamedTuple):
    """The batch kernel's constants for one ``n`` (flat: the parallel kernel carries it).

    ``binom[a, b] = C(a, b)``; ``f1[m]`` is Eq. 59's ``f1`` for ``m`` tokens; ``direct``
    (``n <= 57``) lets :func:`_mul_div` multiply before dividing.
    """

    n: int
    binom: np.ndarray
    f1: np.ndarray
    direct: bool


_BINOM = _binomial_table(MAX_KERNEL_N)
_CHUNK = 4096  # samples per parallel task


@njit(**JIT)
def _comp_min(binom, total, parts, low):
    if parts == 0:
        return np.int64(1) if total == 0 else np.int64(0)
    free = total - parts * low
    if free < 0:
        return np.int64(0)
    return binom[free + parts - 1, parts - 1]


@njit(**JIT)
def _mul_div(a, c, r, direct):
    """``a * c // r`` in int64 when the result is an integer and ``<= a``.

    ``direct`` (``n <= 57``): ``a * c < 2^63`` is guaranteed, one multiply and one divide.
    Otherwise divide first by ``r / gcd(c, r)``, which must divide ``a``.
    """
    if direct:
        return a * c // r
    g = c
    x = r
    while x:
        g, x = x, g % x
    return (a // (r // g)) * (c // g)


@njit(**JIT)
def _lock_one(lengths, a, b, tables, counts, index, cnt):
    """LOCK of ``lengths[a:b]``, or -1 if it is not a composition of ``tables.n``.

    ``counts`` (size ``n + 2``) must be all zero on entry and is all zero on exit.
    """
    n, binom, f1, direct = tables.n, tables.binom, tables.f1, tables.direct
    m = b - a
    if m < 1 or m > n:
        return np.int64(-1)
    total = 0
    for i in range(a, b):
        x = lengths[i]
        if x < 1 or x > n:
            for h in range(a, i):
                counts[lengths[h]] = 0
            return np.int64(-1)
        total += x
        counts[x] += 1
    if total != n:
        for i in range(a, b):
            counts[lengths[i]] = 0
        return np.int64(-1)
    key = f1[m]
    # f2, value by value; also number the distinct values for f3
    placed = 0
    tot = 0
    ways = np.int64(1)
    v = 1
    k = 0
    while placed < m:
        q = m - placed
        rest = n - tot
        c = counts[v]
        lo = max(c + 1, q * (v + 1) - rest)
        hi = min(q, rest // v)
        for j in range(lo, hi + 1):
            comp = _comp_min(binom, rest - j * v, q - j, v + 1)
            if comp:
                key += ways * binom[q, j] * comp
        if c:
            ways *= binom[q, c]
            cnt[k] = c
            index[v] = k
            k += 1
        placed += c
        tot += c * v
        v += 1
    # f3 = g(t), Algorithm 5: at each position, the permutations starting with a smaller
    # remaining value number MN * (remaining smaller elements) / r; ``ways`` is now MN(t).
    mn = ways
    r = m
    for i in range(a, b):
        ix = index[lengths[i]]
        below = 0
        for d in range(ix):
            below += cnt[d]
        if below:
            key += _mul_div(mn, below, r, direct)
        mn = _mul_div(mn, cnt[ix], r, direct)
        cnt[ix] -= 1
        r -= 1
    for i in range(a, b):
        counts[lengths[i]] = 0
    return key


@njit(**JIT_PARALLEL)
def _lock_keys_kernel(lengths, offsets, tables, out, chunk):
    """``out[s]`` = LOCK of sample ``s`` (-1 if invalid); samples in chunks over threads."""
    n = tables.n
    n_samples = offsets.shape[0] - 1
    n_chunks = (n_samples + chunk - 1) // chunk
    for c in prange(n_chunks):
        counts = np.zeros(n + 2, dtype=np.int64)
        index = np.zeros(n + 2, dtype=np.int64)
        cnt = np.zeros(n + 1, dtype=np.int64)
        stop = min(n_samples, (c + 1) * chunk)
        for s in range(c * chunk, stop):
            out[s] = _lock_one(lengths, offsets[s], offsets[s + 1], tables, counts, index,
                               cnt)


def lock_keys(lengths_flat: np.ndarray, offsets: np.ndarray, n: int) -> np.ndarray:
    """LOCKs of a batch of segmentations of one ``n``-character string (numba, int64).

    Parameters
    ----------
    lengths_flat : numpy.ndarray of int
        All token lengths, concatenated.
    offsets : numpy.ndarray of int
        ``len(samples) + 1`` non-decreasing offsets; sample ``k`` is
        ``lengths_flat[offsets[k]:offsets[k+1]]`` (the layout of
        ``Grampa.sample_lengths``).
    n : int
        String length, ``1 <= n <= MAX_KERNEL_N`` (64): every sample must sum to ``n``.

    Returns
    -------
    numpy.ndarray of int64
        ``keys[k] == lock_key(sample k)``.

    Raises
    ------
    ValueError
        On malformed offsets or a sample that is not a composition of ``n`` (the message
        names the first such sample).

    Examples
    --------
    >>> lock_keys(np.array([4, 1, 3, 3, 1, 1, 1, 1, 1]), np.array([0, 1, 3, 5, 9]), 4)
    array([0, 1, 2, 7])
    """
    n = check_n(n, maximum=MAX_KERNEL_N,
                why=" (int64 keys; use lock_key for longer strings)")
    lengths_flat = np.asarray(lengths_flat)
    offsets = np.asarray(offsets)
    for name, arr in (("lengths_flat", lengths_flat), ("offsets", offsets)):
        if arr.ndim != 1:
            raise InvalidValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
        if arr.size and not np.issubdtype(arr.dtype, np.integer):
            raise ArgumentTypeError(f"{name} must hold integers, not {arr.dtype}")
    if offsets.size == 0:
        raise InvalidValueError("offsets must have length (number of samples + 1) >= 1")
    offsets = offsets.astype(np.int64, copy=False)
    if (offsets[0] != 0 or offsets[-1] != lengths_flat.size
            or (offsets.size > 1 and np.any(np.diff(offsets) < 0))):
        raise InvalidValueError("offsets must be non-decreasing, start at 0 and end at "
                                f"len(lengths_flat) = {lengths_flat.size}")
    lengths_flat = np.ascontiguousarray(lengths_flat, dtype=np.int64)
    offsets = np.ascontiguousarray(offsets)
    f1 = np.zeros(n + 1, dtype=np.int64)
    for m in range(2, n + 1):
        f1[m] = f1[m - 1] + comb(n - 1, m - 2)
    out = np.empty(offsets.size - 1, dtype=np.int64)
    _lock_keys_kernel(lengths_flat, offsets, _Tables(n, _BINOM, f1, n <= 57), out, _CHUNK)
    invalid = np.flatnonzero(out < 0)
    if invalid.size:
        bad = int(invalid[0])
        sample = lengths_flat[offsets[bad]:offsets[bad + 1]].tolist()
        raise InvalidValueError(f"sample {bad} has token lengths {sample}, not a composition of n "
                                f"= {n}")
    return out
