"""Numba kernels of BPE training: incremental pair counts, serial and batched merges.

The corpus is a table of distinct chunks with counts. Chunk ``c`` owns the segment
``sp[start : start + length]`` of one flat array of positions, ``(start, length, count) =
ch[c, :3]`` (one record, so a visit touches one cache line of it); a merge rewrites the
segment in place and shortens ``length``. A position holds its symbol ``sp[i, 0]`` and the
pid of the pair that starts there, ``sp[i, 1]`` (meaningless at a chunk's last position), side
by side. Symbols ``0..255`` are bytes, symbol ``256 + k`` is the token made by merge ``k``
(stop words never enter training).

Pair bookkeeping: the pair table ``P`` and the pool ``occ`` of every pair's chunk list, see
:mod:`workbench.bpe._pairpool`. Pairs are found by their position's pid, never looked up: at
the start through a dense table of the 65,536 byte pairs, later through ``zt``, where a merge
that makes ``z`` finds its new pairs ``(x, z)`` and ``(z, y)`` by their other symbol (a pair
arises only when the later of its symbols is made). Counts of existing pairs only ever fall.

``heap``: a binary max-heap of ``(count, tie_key, pid)`` with lazy invalidation: a popped entry
whose count differs from ``P[C_COUNT, pid]`` is pushed back with the true count. As counts
only fall, a stored count is an upper bound and the first valid pop is the maximum. Pairs a
batch examined but found unsafe wait in a sorted side list until the next batch (see
:func:`train_steps`) instead of going back through the heap.

A merge visits only the chunks on the merged pair's list; in each it subtracts the counts of
the pairs in a window around the merge sites (one symbol either side, widened to whole runs
of equal symbols in non-overlapping mode, where a run's count depends on its length),
rewrites the chunk (a position keeps its pid unless its pair changed) and adds the window's
pairs back. Every visit that finds the pair shortens the chunk, so the total work of a
training run is bounded by the corpus' symbols times chunk length, never a recount per merge.

Ordering ("best pair"): highest count; ties go to the smallest ``(rank[left], rank[right])``.
``rank`` is chosen by the caller (:mod:`workbench.bpe.train` passes HuggingFace tokenizers'
ids). Batches follow Code Block 1 of the BatchBPE paper.

This module has no argument checks (see :mod:`workbench.bpe.train`) and no encoder (see
:mod:`workbench.bpe._encode`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .._core.config import JIT, JIT_INLINE
from ._pairpool import (
    C_COUNT,
    C_LEFT,
    C_NOCC,
    C_PICKED,
    C_RIGHT,
    C_START,
    P_ROWS,
    S_NOCC,
    S_NPAIRS,
    S_NSCR,
    grow_pairs,
    grow_rows,
    list_chunk,
    new_pair,
    sort_lists,
)

# Slots of the counter array ``TrainState.sc`` (scalars the kernels update in place); the
# first three are :mod:`._pairpool`'s.
_S_HEAPN, _S_NMERGES, _S_NBATCHES, _S_EXHAUSTED = 3, 4, 5, 6
_S_LEN = 7
assert (S_NPAIRS, S_NOCC, S_NSCR) == (0, 1, 2)
# Columns of a chunk record ``TrainState.ch`` and of a position ``TrainState.sp``.
_CH_START, _CH_LEN, _CH_COUNT = 0, 1, 2
_SYM, _PID = 0, 1


class TrainConfig(NamedTuple):
    """The constants of one training run, as the kernels see them."""

    batch: bool  # safe batches (Code Block 1) rather than one merge per step
    nonoverlap: bool  # a run of L equal symbols holds L // 2 pairs (else L - 1)
    cap_divisor: int  # at most remaining // cap_divisor pairs examined per batch (§3.5)
    max_batch_size: int  # hard cap on pairs examined per batch; 0: none
    target: int  # merges to make
    base_vocab: int  # 256 bytes + stop words


class TrainState(NamedTuple):
    """Everything a training run mutates (arrays that grow are replaced, so kernels return it).

    ``sp``, ``ch``: positions and chunk records (see the module docstring); ``P``, ``occ``,
    ``scr``: the pair table, pool and scratch of :mod:`._pairpool`; ``zt``: ``zt[0, x]`` is
    the pid of ``(x, z)`` and ``zt[0, n + y]`` that of ``(z, y)`` made by the merge that wrote
    ``z`` into ``zt[1, ·]``, ``n > z`` (grown as merges make symbols); ``heap``; ``sc``: the
    counters (pairs, pool entries, scratch entries, heap size, merges, batches, exhausted).
    """

    sp: np.ndarray  # int32 (positions, 2): symbol, pid of the pair starting there
    ch: np.ndarray  # int64 (chunks, 4): start, length, count, unused
    P: np.ndarray  # int64 (P_ROWS, pairs)
    occ: np.ndarray  # int32 pool of chunk ids, one segment per pair
    scr: np.ndarray  # int32 (entries, 2): (pid, chunk) listed at the current moment
    zt: np.ndarray  # int64 (2, 2 * n): a merge's new pairs by their other symbol
    heap: np.ndarray  # int64 (entries, 3): count, tie key, pid
    sc: np.ndarray  # int64 counters, _S_LEN


def progress(state: TrainState) -> tuple[int, int, bool]:
    """``(merges, batches, exhausted)`` of a state, as Python values."""
    sc = state.sc
    return int(sc[_S_NMERGES]), int(sc[_S_NBATCHES]), bool(sc[_S_EXHAUSTED])


# --------------------------------------------------------------------------- heap
@njit(**JIT_INLINE)
def _better(heap, i, j):
    """Entry ``i`` outranks entry ``j``: larger count, then smaller tie key."""
    return heap[i, 0] > heap[j, 0] or (heap[i, 0] == heap[j, 0] and heap[i, 1] < heap[j, 1])


@njit(**JIT)
def _heap_push(heap, n, count, key, pid):
    """Push ``(count, key, pid)`` onto the heap of size ``n``; return the (grown) heap.

    Sift-up with a hole: parents that rank below the new entry move down one level and the
    entry is written once, where the swap-based sift would have left it (same layout).
    """
    heap = grow_rows(heap, n + 1)
    i = n
    while i > 0:
        parent = (i - 1) >> 1
        pc = heap[parent, 0]
        if not (count > pc or (count == pc and key < heap[parent, 1])):
            break
        heap[i, 0] = pc
        heap[i, 1] = heap[parent, 1]
        heap[i, 2] = heap[parent, 2]
        i = parent
    heap[i, 0] = count
    heap[i, 1] = key
    heap[i, 2] = pid
    return heap


@njit(**JIT)
def _heap_pop(heap, n):
    """Remove the top of a heap of size ``n`` (> 0); return ``(count, key, pid)``.

    Sift-down of the last entry with a hole (children that outrank it move up; it is
    written once): the same layout as swapping it down level by level.
    """
    count, key, pid = heap[0, 0], heap[0, 1], heap[0, 2]
    n -= 1
    xc, xk, xp = heap[n, 0], heap[n, 1], heap[n, 2]
    i = 0
    while True:
        left = 2 * i + 1
        if left >= n:
            break
        best = left
        if left + 1 < n and _better(heap, left + 1, left):
            best = left + 1
        bc = heap[best, 0]
        if not (bc > xc or (bc == xc and heap[best, 1] < xk)):
            break
        heap[i, 0] = bc
        heap[i, 1] = heap[best, 1]
        heap[i, 2] = heap[best, 2]
        i = best
    heap[i, 0] = xc
    heap[i, 1] = xk
    heap[i, 2] = xp
    return count, key, pid


# --------------------------------------------------------------------------- pairs of a chunk
@njit(**JIT_INLINE)
def _counted(sp, i, nonoverlap, prev_self_counted):
    """Whether the pair at position ``i`` counts (non-overlapping: every other pair of a run)."""
    if not nonoverlap or sp[i, _SYM] != sp[i + 1, _SYM]:
        return True
    return not prev_self_counted


@njit(**JIT_INLINE)
def _subtract_window(sp, lo, hi, w, nonoverlap, P):
    """Subtract ``w`` for every counted pair of the positions ``lo .. hi - 1`` (a run of four
    equal symbols counts 2 pairs non-overlapping, 3 overlapping); each pair's id is the one
    stored at its position, so nothing is looked up."""
    prev_self = False
    for i in range(lo, hi - 1):
        if _counted(sp, i, nonoverlap, prev_self):
            P[C_COUNT, sp[i, _PID]] -= w
            prev_self = sp[i, _SYM] == sp[i + 1, _SYM]
        else:
            prev_self = False


# --------------------------------------------------------------------------- initial counts
@njit(**JIT)
def init_state(sym, cstart, ccnt, rank, nonoverlap):
    """Count every pair of every chunk; build the positions, pair table, lists and heap.

    ``sym`` holds bytes (``0..255``), chunk ``c`` at ``sym[cstart[c] : cstart[c + 1]]``, seen
    ``ccnt[c]`` times. Returns the :class:`TrainState` consumed by :func:`train_steps`.
    """
    n_chunks = ccnt.shape[0]
    n_pos = sym.shape[0]
    sp = np.empty((n_pos, 2), dtype=np.int32)
    for k in range(n_pos):
        sp[k, _SYM] = sym[k]
        sp[k, _PID] = -1
    ch = np.zeros((n_chunks, 4), dtype=np.int64)
    for c in range(n_chunks):
        ch[c, _CH_START] = cstart[c]
        ch[c, _CH_LEN] = cstart[c + 1] - cstart[c]
        ch[c, _CH_COUNT] = ccnt[c]
    # at most one distinct pair per position and 65,536 byte pairs: the table starts small
    # and cache-resident; merges grow it
    P = np.full((P_ROWS, max(min(n_pos, 65536), 16)), -1, dtype=np.int64)
    scr = np.empty((max(n_pos, 16), 2), dtype=np.int32)  # at most one entry per position
    occ = np.empty(16, dtype=np.int32)
    D = np.full(256 * 256, -1, dtype=np.int32)  # pid of the byte pair (a, b) at a * 256 + b
    sc = np.zeros(_S_LEN, dtype=np.int64)
    for c in range(n_chunks):
        s = cstart[c]
        w = ccnt[c]
        prev_self = False
        for i in range(s, cstart[c + 1] - 1):
            a = sp[i, _SYM]
            b = sp[i + 1, _SYM]
            if _counted(sp, i, nonoverlap, prev_self):
                pid = np.int64(D[a * 256 + b])
                if pid == -1:
                    pid = new_pair(a, b, P, sc)
                    D[a * 256 + b] = pid
                P[C_COUNT, pid] += w
                list_chunk(pid, c, P, scr, sc)
                sp[i, _PID] = pid
                prev_self = a == b
            else:  # the second pair of a run (a, a): the one before it
                sp[i, _PID] = sp[i - 1, _PID]
                prev_self = False
    occ = sort_lists(P, occ, scr, sc, 0)
    zt = np.full((2, 2 * min(rank.shape[0], 1024)), -1, dtype=np.int64)
    heap = np.empty((max(sc[S_NPAIRS], 16), 3), dtype=np.int64)
    n = 0
    for pid in range(sc[S_NPAIRS]):
        if P[C_COUNT, pid] > 0:
            key = (rank[P[C_LEFT, pid]] << 32) | rank[P[C_RIGHT, pid]]
            heap = _heap_push(heap, n, P[C_COUNT, pid], key, pid)
            n += 1
    sc[_S_HEAPN] = n
    return TrainState(sp, ch, P, occ, scr, zt, heap, sc)


# --------------------------------------------------------------------------- one merge
@njit(**JIT)
def _merge(state, pid, z, rank, nonoverlap):  # noqa: C901, PLR0915  (numba kernel)
    """Replace every occurrence of pair ``pid`` by symbol ``z`` and update counts.

    Returns the (possibly grown) state; pushes the pairs that involve ``z`` on the heap.
    Those are exactly the pairs this merge creates (pids from ``first_new`` on): ``z`` is
    new, and every other pair of a window was next to the same symbol before the merge.
    """
    sp, ch, P, occ, scr, zt, heap, sc = state
    if z >= zt.shape[1] >> 1:  # entries of earlier merges are stale anyway: no copy
        zt = np.full((2, 2 * max(zt.shape[1], z + 1)), -1, dtype=np.int64)
    n_sym = zt.shape[1] >> 1
    first_new = sc[S_NPAIRS]
    start = P[C_START, pid]
    stop = start + P[C_NOCC, pid]
    P[C_NOCC, pid] = 0
    for e in range(start, stop):
        c = occ[e]
        s = ch[c, _CH_START]
        end = s + ch[c, _CH_LEN]
        first = -1
        last = -1
        n_sites = 0
        i = s
        while i < end - 1:
            if sp[i, _PID] == pid:
                if first < 0:
                    first = i
                last = i
                n_sites += 1
                i += 2
            else:
                i += 1
        if first < 0:  # the pair went to an earlier merge of this chunk
            continue
        # Only pairs in the window [lo, hi) change: one symbol either side of the merge
        # sites, widened to whole runs when runs are counted non-overlapping.
        lo = first - 1 if first > s else s
        hi = min(last + 3, end)
        if nonoverlap:
            while lo > s and sp[lo - 1, _SYM] == sp[lo, _SYM]:
                lo -= 1
            while hi < end and sp[hi, _SYM] == sp[hi - 1, _SYM]:
                hi += 1
        w = ch[c, _CH_COUNT]
        _subtract_window(sp, lo, hi, w, nonoverlap, P)
        # rewrite; a copied position keeps its pid (its pair changes only if the next
        # position starts a site, and then it is in the window and renewed below)
        j = first
        i = first
        while i < end:
            if i < end - 1 and sp[i, _PID] == pid:
                sp[j, _SYM] = z
                i += 2
            else:
                sp[j, _SYM] = sp[i, _SYM]
                sp[j, _PID] = sp[i, _PID]
                i += 1
            j += 1
        ch[c, _CH_LEN] = j - s
        new_hi = hi - n_sites
        # reserve room for the new pairs before adding
        room = new_hi - lo
        if sc[S_NPAIRS] + room > P.shape[1]:
            P = grow_pairs(P, sc[S_NPAIRS] + room)
        if sc[S_NSCR] + room > scr.shape[0]:
            scr = grow_rows(scr, sc[S_NSCR] + room)
        prev_self = False
        for i in range(lo, new_hi - 1):
            x = sp[i, _SYM]
            y = sp[i + 1, _SYM]
            if _counted(sp, i, nonoverlap, prev_self):
                if x == z or y == z:  # a pair of this merge: found by its other symbol
                    slot = x if y == z else n_sym + y
                    if zt[1, slot] != z:
                        zt[0, slot] = new_pair(x, y, P, sc)
                        zt[1, slot] = z
                    q = zt[0, slot]
                    sp[i, _PID] = q
                    P[C_COUNT, q] += w
                    list_chunk(q, c, P, scr, sc)
                else:  # an older pair, next to the same symbol before the merge
                    P[C_COUNT, sp[i, _PID]] += w
                prev_self = x == y
            else:  # the second pair of a run: the one before it
                sp[i, _PID] = sp[i - 1, _PID]
                prev_self = False
    occ = sort_lists(P, occ, scr, sc, first_new)
    n = sc[_S_HEAPN]
    for q in range(first_new, sc[S_NPAIRS]):
        if P[C_COUNT, q] > 0:
            key = (rank[P[C_LEFT, q]] << 32) | rank[P[C_RIGHT, q]]
            heap = _heap_push(heap, n, P[C_COUNT, q], key, q)
            n += 1
    sc[_S_HEAPN] = n
    return TrainState(sp, ch, P, occ, scr, zt, heap, sc)


# --------------------------------------------------------------------------- the loop
@njit(**JIT_INLINE)
def _with_heap(state, heap):
    """``state`` with its heap replaced (grown)."""
    return TrainState(state.sp, state.ch, state.P, state.occ, state.scr, state.zt, heap,
                      state.sc)


@njit(**JIT)
def train_steps(state, rank, cfg, merges_out, batches_out, seen, n_steps):  # noqa: C901, PLR0915  (numba kernel)
    """Run up to ``n_steps`` batches (serial mode: merges); return the grown state.

    ``state`` is a :class:`TrainState`, ``cfg`` a :class:`TrainConfig`.
    ``merges_out[k] = (left, right)`` of merge ``k`` (symbols; merge ``k`` makes ``256 + k``).
    ``batches_out[t] = (size, searched)`` of batch ``t``. ``seen`` is an ``int64[2, V]``
    scratch for the two seen sets of Code Block 1 (stamped with the batch number). Sets
    ``sc[_S_EXHAUSTED]`` when no pair is left.
    """
    sc = state.sc
    nonoverlap = cfg.nonoverlap
    target = cfg.target
    # Pairs a batch found unsafe wait in ``side[sh:sn]`` rather than in the heap: they were
    # popped in order, so they are sorted (count descending, tie key ascending) and at least
    # as good as anything left unpopped; the next batch takes the better of the heap's top
    # and the side list's head. The stored entries are the same multiset as if they had been
    # pushed back, so every pop (and every merge) is the same; only the heap work is saved.
    # (Entries of equal count and tie key are the same pair: the tie key is its rank pair.)
    side = np.empty((0, 3), dtype=np.int64)
    sh = 0
    sn = 0
    for _ in range(n_steps):
        remaining = target - sc[_S_NMERGES]
        if remaining <= 0 or sc[_S_EXHAUSTED] != 0:
            break
        num = 1
        if cfg.batch:
            num = min(remaining // cfg.cap_divisor, cfg.base_vocab + sc[_S_NMERGES])
            if cfg.max_batch_size > 0:
                num = min(num, cfg.max_batch_size)
            if num <= 0:
                num = 1
        batch_no = sc[_S_NBATCHES]
        P = state.P
        heap = state.heap
        top = np.empty(num, dtype=np.int64)
        k = 0
        while k < num and (sc[_S_HEAPN] > 0 or sh < sn):
            from_side = sh < sn
            if from_side and sc[_S_HEAPN] > 0:
                hc = heap[0, 0]
                from_side = side[sh, 0] > hc or (side[sh, 0] == hc and side[sh, 1] <= heap[0, 1])
            if from_side:
                count, key, pid = side[sh, 0], side[sh, 1], side[sh, 2]
                sh += 1
            else:
                count, key, pid = _heap_pop(heap, sc[_S_HEAPN])
                sc[_S_HEAPN] -= 1
            actual = P[C_COUNT, pid]
            if actual <= 0 or P[C_PICKED, pid] == batch_no:
                continue
            if actual != count:
                heap = _heap_push(heap, sc[_S_HEAPN], actual, key, pid)
                sc[_S_HEAPN] += 1
                continue
            P[C_PICKED, pid] = batch_no
            top[k] = pid
            k += 1
        state = _with_heap(state, heap)
        if k == 0:
            sc[_S_EXHAUSTED] = 1
            break
        # Code Block 1, lines 9-18: position-sensitive safety, keep searching after a skip.
        accept = np.empty(k, dtype=np.int64)
        n_acc = 0
        waiting = np.empty((k + sn - sh, 3), dtype=np.int64)  # the next side list
        n_wait = 0
        for t in range(k):
            pid = top[t]
            first = P[C_LEFT, pid]
            last = P[C_RIGHT, pid]
            unsafe = seen[1, first] == batch_no or seen[0, last] == batch_no
            seen[0, first] = batch_no
            seen[1, last] = batch_no
            if unsafe:
                waiting[n_wait, 0] = P[C_COUNT, pid]
                waiting[n_wait, 1] = (rank[first] << 32) | rank[last]
                waiting[n_wait, 2] = pid
                n_wait += 1
            else:
                accept[n_acc] = pid
                n_acc += 1
        for t in range(sh, sn):  # what this batch did not reach ranks below all it popped
            waiting[n_wait, 0] = side[t, 0]
            waiting[n_wait, 1] = side[t, 1]
            waiting[n_wait, 2] = side[t, 2]
            n_wait += 1
        side = waiting
        sh = 0
        sn = n_wait
        for t in range(n_acc):
            pid = accept[t]
            m = sc[_S_NMERGES]
            merges_out[m, 0] = P[C_LEFT, pid]
            merges_out[m, 1] = P[C_RIGHT, pid]
            state = _merge(state, pid, 256 + m, rank, nonoverlap)
            P = state.P
            sc[_S_NMERGES] += 1
        batches_out[batch_no, 0] = n_acc
        batches_out[batch_no, 1] = k
        sc[_S_NBATCHES] += 1
    heap = state.heap
    for t in range(sh, sn):  # the side list goes back into the heap between calls
        heap = _heap_push(heap, sc[_S_HEAPN], side[t, 0], side[t, 1], side[t, 2])
        sc[_S_HEAPN] += 1
    return _with_heap(state, heap)
