"""Integer partitions and multiset permutations: the combinatorics under LOCK keys (App. C).

* Algorithm 4 (Hindenburg): :func:`partitions_k` lists the partitions of ``n`` into ``k`` parts
  in lexicographic order (also :func:`partitions_k_recursive`, the literal recursion);
  :func:`partition_count` and :func:`partition_count_k` count them exactly without listing
  them, and :func:`partitions_before` gives a partition's rank in that order;
* Algorithm 5: :func:`multiset_rank` is the lexicographic rank ``g(t)`` of a sequence among
  the distinct permutations of its multiset (:func:`multiset_permutation_count` of them), and
  :func:`multiset_unrank` its inverse.

This module knows nothing of keys or segmentations; :mod:`.lock` builds the LOCK from these.

Example
-------
>>> list(partitions_k(5, 2)), partition_count(37)
([(1, 4), (2, 3)], 21637)
>>> multiset_rank([2, 1, 1]), multiset_unrank([1, 1, 2], 2)
(2, (2, 1, 1))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from math import factorial

from ..._core.validate import check_int, check_lengths

MAX_PARTITION_N = 128
"""Largest ``n`` for enumerating partitions (their number grows like ``exp(sqrt(n))``)."""
_WHY_PART = f" (partition enumeration grows like exp(sqrt(n)); the cap is {MAX_PARTITION_N})"


# --------------------------------------------------------------------------- partitions (Alg. 4)
def partitions_k(n: int, k: int) -> Iterator[tuple[int, ...]]:
    """The partitions of ``n`` into exactly ``k`` parts, ascending, in lexicographic order.

    Same output and order as the paper's recursive Algorithm 4 (Hindenburg 1779; Knuth
    7.2.1.4 Algorithm H), generated iteratively: from ``a``, the next partition raises the
    rightmost part ``a[i]`` (``i < k-1``) that can be raised, sets ``a[i:k-1]`` to the new
    value and puts the remainder in the last part.

    Parameters
    ----------
    n : int
        The integer, ``0 <= n <= MAX_PARTITION_N``.
    k : int
        Number of parts, ``k >= 0``. Yields nothing when ``k > n``; ``(n, k) = (0, 0)``
        yields the empty partition.

    Yields
    ------
    tuple of int
        ``a[0] <= a[1] <= … <= a[k-1]``, ``sum(a) == n``.

    Examples
    --------
    >>> list(partitions_k(8, 3))
    [(1, 1, 6), (1, 2, 5), (1, 3, 4), (2, 2, 4), (2, 3, 3)]
    """
    n = check_int(n, "n", minimum=0, maximum=MAX_PARTITION_N, why=_WHY_PART)
    k = check_int(k, "k", minimum=0)
    return _partitions_iter(n, k)


def _partitions_iter(n: int, k: int) -> Iterator[tuple[int, ...]]:
    if k == 0:
        if n == 0:
            yield ()
        return
    if k > n:
        return
    a = [1] * (k - 1) + [n - k + 1]
    while True:
        yield tuple(a)
        # find the rightmost i < k-1 whose raise a[i]+1 still leaves room: the suffix
        # a[i:] must hold (k - i) parts >= a[i] + 1
        suffix = a[k - 1]
        i = k - 2
        while i >= 0:
            suffix += a[i]
            if suffix >= (k - i) * (a[i] + 1):
                break
            i -= 1
        if i < 0:
            return
        v = a[i] + 1
        for j in range(i, k - 1):
            a[j] = v
        a[k - 1] = suffix - (k - 1 - i) * v


def partitions_k_recursive(n: int, k: int, prefix: tuple[int, ...] = ()
                           ) -> Iterator[tuple[int, ...]]:
    """Algorithm 4 of the paper, transcribed literally (recursive generator).

    Kept as the reference for :func:`partitions_k` and for timing the paper's claim; it
    recurses ``k`` deep. Inputs are not validated. On degenerate input the literal algorithm
    differs from :func:`partitions_k`: it yields ``()`` for ``k = 0`` and any ``n``, and
    ``(0,)`` for ``(n, k) = (0, 1)``.

    Examples
    --------
    >>> list(partitions_k_recursive(6, 2))
    [(1, 5), (2, 4), (3, 3)]
    """
    if k == 0:
        yield prefix
        return
    if k == 1:
        low = n
    elif prefix:
        low = prefix[-1]
    else:
        low = 1
    high = n // k
    for s in range(low, high + 1):
        yield from partitions_k_recursive(n - s, k - 1, prefix + (s,))


def partition_count(n: int) -> int:
    """``p(n)``: the number of integer partitions of ``n`` (exact).

    Counted, not enumerated: ``p(n) = sum_k p(n, k)`` with the partitions into exactly
    ``k`` parts from the recurrence ``p(m, q) = p(m-1, q-1) + p(m-q, q)`` (``O(n^2)``
    additions; :func:`partition_count_k`). Enumerating :func:`partitions_k` took 27 s at
    ``n = 90`` and grew ×3.6 per +10; this takes microseconds up to ``MAX_PARTITION_N``.

    Examples
    --------
    >>> partition_count(5)
    7
    """
    n = check_int(n, "n", minimum=0, maximum=MAX_PARTITION_N, why=_WHY_PART)
    return sum(_partition_table()[n])


def partition_count_k(n: int, k: int) -> int:
    """``p(n, k)``: how many partitions :func:`partitions_k` ``(n, k)`` yields (exact).

    Examples
    --------
    >>> partition_count_k(8, 3), len(list(partitions_k(8, 3)))
    (5, 5)
    """
    n = check_int(n, "n", minimum=0, maximum=MAX_PARTITION_N, why=_WHY_PART)
    k = check_int(k, "k", minimum=0)
    return _partition_table()[n][k] if k <= n else 0


@lru_cache(maxsize=1)
def _partition_table() -> tuple[tuple[int, ...], ...]:
    """``T[m][q] = p(m, q)`` for ``0 <= q <= m <= MAX_PARTITION_N``."""
    size = MAX_PARTITION_N + 1
    t = [[0] * size for _ in range(size)]
    t[0][0] = 1
    for m in range(1, size):
        for q in range(1, m + 1):
            t[m][q] = t[m - 1][q - 1] + t[m - q][q]
    return tuple(tuple(row[:m + 1]) for m, row in enumerate(t))


def partitions_before(target: Sequence[int]) -> int:
    """How many partitions :func:`partitions_k` yields before ``target`` (its lexicographic rank).

    ``target`` ascending, summing to ``n <= MAX_PARTITION_N``. Counted position by position:
    with the prefix ``target[:i]`` fixed, those whose part ``i`` is a smaller ``v`` end in
    ``q = k-i-1`` parts ``>= v`` summing to ``rest - v``: ``p(rest - v - q(v-1), q)`` of them.
    Used to budget the enumeration of :func:`lock_f2_by_partitions`.

    Examples
    --------
    >>> list(partitions_k(8, 3)).index((2, 2, 4)), partitions_before((2, 2, 4))
    (3, 3)
    """
    t = tuple(sorted(check_lengths(target)))
    n = check_int(sum(t), "n", minimum=0, maximum=MAX_PARTITION_N, why=_WHY_PART)
    table, k = _partition_table(), len(t)
    rank, rest, low = 0, n, 1
    for i, part in enumerate(t):
        q = k - i - 1  # parts after position i
        for v in range(low, part):
            m = rest - v - q * (v - 1)  # the q later parts, each >= v, shifted to >= 1
            if m >= q:
                rank += table[m][q]
        rest -= part
        low = part
    return rank


# --------------------------------------------------------------------------- multisets (Alg. 5)
def multiset_permutation_count(t: Sequence[int]) -> int:
    """``MN(t) = |t|! / (c_1! … c_k!)``: distinct permutations of the multiset ``t`` (Eq. 58).

    Examples
    --------
    >>> multiset_permutation_count([1, 1, 2, 3])
    12
    """
    return _mn(check_lengths(t))


def _mn(t: Sequence[int]) -> int:
    out = factorial(len(t))
    for c in Counter(t).values():
        out //= factorial(c)
    return out


def multiset_rank(t: Sequence[int]) -> int:
    """``g(t)``: the rank of ``t`` among the distinct permutations of ``sort(t)`` (Algorithm 5).

    Lexicographic order, starting at 0; a bijection onto ``0 … MN(t) - 1`` within each
    multiset. Implements Algorithm 5 with the multinomial updated incrementally
    (``MN`` with ``a`` removed ``= MN · c_a / r`` for ``r`` remaining elements).

    Examples
    --------
    >>> [multiset_rank(p) for p in [(1, 1, 2), (1, 2, 1), (2, 1, 1)]]
    [0, 1, 2]
    """
    return _rank(check_lengths(t))


def _rank(t: tuple[int, ...]) -> int:
    ctr = Counter(t)
    values = sorted(ctr)
    r = len(t)
    mn = _mn(t)
    g = 0
    for x in t:
        for a in values:
            if a >= x:
                break
            if ctr[a]:
                g += mn * ctr[a] // r
        mn = mn * ctr[x] // r
        ctr[x] -= 1
        r -= 1
    return g


def multiset_unrank(values: Sequence[int], rank: int) -> tuple[int, ...]:
    """Inverse of :func:`multiset_rank`: the ``rank``-th distinct permutation of ``values``.

    Examples
    --------
    >>> multiset_unrank([2, 1, 1], 1)
    (1, 2, 1)
    """
    t = check_lengths(values)
    mn = _mn(t)
    rank = check_int(rank, "rank", minimum=0, maximum=mn - 1)
    ctr = Counter(t)
    distinct = sorted(ctr)
    r = len(t)
    out = []
    for _ in range(len(t)):
        for a in distinct:
            if not ctr[a]:
                continue
            block = mn * ctr[a] // r
            if rank < block:
                out.append(a)
                mn = block
                ctr[a] -= 1
                r -= 1
                break
            rank -= block
    return tuple(out)
