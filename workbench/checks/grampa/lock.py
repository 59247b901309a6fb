"""Checks of LOCK keys (GRaMPa App. C): bijection, order, kernel, Algorithm 4, Eq. 58–63."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np

from ...theory.grampa.lock import (
    bit_key,
    bit_unrank,
    lock_f1,
    lock_f1_hyp2f1,
    lock_f2,
    lock_f2_by_partitions,
    lock_key,
    lock_keys,
    lock_unrank,
    multiset_permutation_count,
    multiset_rank,
    partition_count,
    partitions_k,
    partitions_k_recursive,
)
from ..registry import CheckResult, register, row
from ._enumerate import (
    LOCK_EXHAUSTIVE_MAX_N,
    _compositions,
    _enumerate_lengths,
    _lock_keys_python,
)


@register("LOCK exhaustive", "numeric")
def check_lock_exhaustive() -> list[CheckResult]:
    bad_bij, bad_order, bad_inv, total = [], [], [], 0
    for n in range(1, LOCK_EXHAUSTIVE_MAX_N + 1):
        comps = _compositions(n)
        total += len(comps)
        keys = _lock_keys_python(n)
        if sorted(keys) != list(range(1 << (n - 1))):
            bad_bij.append(n)
        key_of = dict(zip(comps, keys))
        ranked = sorted(comps, key=lambda t: (len(t), sorted(t), multiset_rank(t)))
        if [key_of[t] for t in ranked] != list(range(len(comps))):
            bad_order.append(n)
        if any(lock_unrank(k, n) != t for k, t in zip(keys, comps)):
            bad_inv.append(n)
    return [
        row(f"LOCK bijective onto 0..2^(n-1)-1, n<={LOCK_EXHAUSTIVE_MAX_N}", "Eq. 62",
             f"{total:,} compositions; failures at n in {bad_bij}", "bijection", not bad_bij),
        row(f"LOCK order = (m, sort(t) lex, g(t)), n<={LOCK_EXHAUSTIVE_MAX_N}", "C.2 rules 1-3",
             f"failures at n in {bad_order}", "keys ascend along the 3-tier sort", not bad_order),
        row(f"lock_unrank inverts lock_key, n<={LOCK_EXHAUSTIVE_MAX_N}", "(not in paper)",
             f"failures at n in {bad_inv}", "identity", not bad_inv),
    ]


@register("LOCK kernel", "numeric")
def check_lock_kernel(seed: int = 0) -> list[CheckResult]:
    rng = np.random.default_rng(seed)
    bad = []
    for n in range(1, LOCK_EXHAUSTIVE_MAX_N + 1):
        lengths, offsets = _enumerate_lengths(n)
        if tuple(lock_keys(lengths, offsets, n).tolist()) != _lock_keys_python(n):
            bad.append(n)
    for n in (20, 29, 40, 57, 58, 63, 64):
        cuts = rng.random((300, n - 1)) < rng.random((300, 1))
        comps = [tuple(np.diff(np.flatnonzero(np.r_[True, c, True])).tolist()) for c in cuts]
        comps += [(n,), (1,) * n, (1,) * (n - 2) + (2,), (n // 2, n - n // 2)]
        flat = np.array([x for t in comps for x in t], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum([len(t) for t in comps])])
        if lock_keys(flat, offsets, n).tolist() != [lock_key(t) for t in comps]:
            bad.append(n)
    edge = (lock_key((1,) * 64) == 2 ** 63 - 1 and lock_key((64,)) == 0
            and lock_unrank(2 ** 63 - 1, 64) == (1,) * 64)
    return [row("int64 kernel lock_keys = Python-int lock_key (all n<=14; random n<=64)",
                 "Eq. 62", f"failures at n in {bad}; key(1^64) = 2^63-1: {edge}",
                 "identical keys", not bad and edge)]


@register("LOCK parts", "numeric")
def check_lock_parts() -> list[CheckResult]:
    return [_f2_row(), _f1_row(), _algorithm4_row(), _multiset_rank_row(), _bit_key_row()]


def _f2_row() -> CheckResult:
    """f2 by the closed count against Σ MN(p) in Algorithm 4's order (Eqs. 58, 60)."""
    bad_f2 = []
    for n in range(1, 25):
        for k in range(1, n + 1):
            below = 0  # Σ MN(p) over the partitions enumerated so far (Algorithm 4's order)
            for part in partitions_k(n, k):
                for t in {part, part[::-1]}:
                    if lock_f2(t) != below or (n <= 12 and lock_f2_by_partitions(t) != below):
                        bad_f2.append(t)
                below += multiset_permutation_count(part)
            if below != comb(n - 1, k - 1):
                bad_f2.append((n, k))
    return row("f2 by closed count = Σ MN(p) over lower partitions (Alg. 4), n<=24",
               "Eq. 60, 58", f"{len(bad_f2)} mismatches", "equal", not bad_f2)


def _f1_row() -> CheckResult:
    """f1 in closed form against 2F1, exactly (mpmath) and in floats (scipy) (Eqs. 59, 63)."""
    bad_f1 = []
    worst = 0.0
    for n in range(1, 65):
        for m in range(1, n + 1):
            s = lock_f1(m, n)
            if s != lock_f1_hyp2f1(m, n) or s != sum(comb(n - 1, j - 1) for j in range(1, m)):
                bad_f1.append((m, n))
            worst = max(worst, abs(lock_f1_hyp2f1(m, n, backend="scipy") - s) / 2 ** (n - 1))
    return row("f1: Σ C(n-1,m-1) = 2^(n-1) - C(n-1,|t|-1) 2F1(1,|t|-n;|t|;-1), n<=64",
               "Eq. 59, 63", f"mpmath exact: {len(bad_f1)} mismatches; scipy max "
               f"err/2^(n-1) = {worst:.1e}", "equal (scipy within 1e-13)",
               not bad_f1 and worst < 1e-13)


def _algorithm4_row() -> CheckResult:
    """Algorithm 4's partition order: iterative = recursive = sorted brute force; p(37)."""
    bad_alg4 = []
    for n in range(0, 31):
        for k in range(0, n + 1):
            it = list(partitions_k(n, k))
            # the literal Algorithm 4 also yields () for k = 0 < n; compare k >= 1 there
            if (k or not n) and it != list(partitions_k_recursive(n, k)):
                bad_alg4.append((n, k))
    for n in range(1, LOCK_EXHAUSTIVE_MAX_N + 1):
        classes: dict[int, set[tuple[int, ...]]] = {}
        for t in _compositions(n):
            classes.setdefault(len(t), set()).add(tuple(sorted(t)))
        for k in range(1, n + 1):
            if list(partitions_k(n, k)) != sorted(classes[k]):
                bad_alg4.append((n, k))
    p37 = partition_count(37)
    return row("Algorithm 4 order: iterative = recursive (n<=30) = sorted brute force "
               f"(n<={LOCK_EXHAUSTIVE_MAX_N}); "
               "p(37)", "Alg. 4, fn. 17", f"{len(bad_alg4)} mismatches; p(37) = {p37:,}",
               "lexicographic; p(37) = 21,637", not bad_alg4 and p37 == 21637)


def _multiset_rank_row() -> CheckResult:
    """g(t): the rank among sorted distinct permutations, MN(t) of them (Alg. 5)."""
    bad_g = []
    for size in range(1, 8):
        for multiset in itertools.combinations_with_replacement(range(1, 4), size):
            perms = sorted(set(itertools.permutations(multiset)))
            if ([multiset_rank(p) for p in perms] != list(range(len(perms)))
                    or len(perms) != multiset_permutation_count(multiset)):
                bad_g.append(multiset)
    return row("g(t): rank among sorted distinct permutations; MN(t) of them", "Alg. 5, "
               "Eq. 58", f"{len(bad_g)} mismatches", "0..MN(t)-1 in lex order", not bad_g)


def _bit_key_row() -> CheckResult:
    """Bit keys: the paper's two examples; bijective onto 0..2^(n-1)-1 for n <= 12 (C.1)."""
    ok_bits = bit_key([1, 5]) == 16 and bit_key([2, 1, 1, 1, 1]) == 15
    for n in range(1, 13):
        comps = _compositions(n)
        keys = [bit_key(t) for t in comps]
        ok_bits = (ok_bits and keys == list(range(1 << (n - 1)))
                   and all(bit_unrank(k, n) == t for k, t in zip(keys, comps)))
    return row("bit key: a/bcdef = 16, ab/c/d/e/f = 15; bijective, n<=12", "C.1",
               f"{bit_key([1, 5])}, {bit_key([2, 1, 1, 1, 1])}", "16, 15", ok_bits)
