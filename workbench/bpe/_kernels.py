"""Numba kernels of BPE training: incremental pair counts, serial and batched merges.

The corpus is a table of distinct chunks with counts. Chunk ``c`` owns the segment
``sym[cstart[c] : cstart[c] + clen[c]]`` of one flat ``int32`` symbol array; a merge rewrites
the segment in place and shortens ``clen[c]``. Symbols ``0..255`` are bytes, symbol
``256 + k`` is the token made by merge ``k`` (stop words never enter training).

Pair bookkeeping (all rows grow by doubling):

* ``D``, ``H``: pair ``(x, y)`` → pair id ``pid``: a dense table at ``x * T + y`` when both
  symbols are below ``T`` (:data:`_DENSE_MAX`: every byte pair and the early merges', the
  most frequent), else an open-addressing hash map (linear probing, keys and values
  interleaved) from the packed pair ``x << 32 | y``;
* ``P[pid]``: ``count, left, right, occ_start, occ_len, picked, last_chunk`` (see ``_C_*``);
* ``occ``: a pool of chunk ids where pair ``pid`` owns the contiguous, ascending segment
  ``occ[occ_start : occ_start + occ_len]``, each chunk that holds (or once held) the pair
  listed once. All of a pair's occurrences arise at one moment, at the start or in the merge
  that makes the later of its two symbols (a merge creates adjacencies only next to its new
  symbol), so a segment is written once, by a counting sort of that moment's
  ``(pid, chunk)`` entries gathered in the scratch ``scr``, and never appended to. Chunks
  that lost the pair to another merge stay listed and are skipped when scanned;
* ``heap``: a binary max-heap of ``(count, tie_key, pid)`` with lazy invalidation: a popped
  entry whose count differs from ``P[pid, count]`` is pushed back with the true count. Counts
  of existing pairs only ever fall (new occurrences only arise next to a new token, and those
  pairs are new), so a stored count is an upper bound and the first valid pop is the maximum.
  Pairs a batch examined but found unsafe wait in a sorted side list until the next batch
  (see :func:`train_steps`) instead of going back through the heap.

A merge visits only the chunks on the merged pair's list; in each it subtracts the counts of
the pairs in a window around the merge sites (one symbol either side, widened to whole runs
of equal symbols in non-overlapping mode, where a run's count depends on its length),
rewrites the chunk, and adds the window's pairs back (the new ones, with the new symbol, are
found by their other symbol in ``zt``). Every visit that finds the pair shortens the chunk, so
the total work of a training run is bounded by the corpus' symbols times chunk length, never
a recount per merge.

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

# Columns of the pair table P.
_C_COUNT, _C_LEFT, _C_RIGHT, _C_START, _C_NOCC, _C_PICKED, _C_LASTCHUNK = range(7)
_P_COLS = 7
# Slots of the counter array ``TrainState.sc`` (scalars the kernels update in place).
(_S_NPAIRS, _S_NOCC, _S_HEAPN, _S_NMERGES, _S_NBATCHES, _S_EXHAUSTED, _S_NSCR, _S_DENSE,
 _S_NHASH) = range(9)
_S_LEN = 9
#: Pairs of two symbols below this are found in a dense table (``TrainState.D``) rather than
#: the hash map: all byte pairs and the early merges', which are the most frequent.
_DENSE_MAX = 512


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

    ``sym``, ``clen``, ``ccnt``, ``cstart``: the chunk table (see the module docstring);
    ``H``, ``P``, ``occ``, ``scr``, ``zt``, ``heap``: the pair bookkeeping (``zt[0, x]``: the
    pid of ``(x, z)`` and ``zt[0, n + y]`` that of ``(z, y)`` made by the merge that wrote
    ``z`` into ``zt[1, ·]``, ``n > z``, grown as merges make symbols); ``sc``: the counters
    ``_S_*`` (pairs, pool entries, heap size, merges, batches, exhausted flag, scratch
    entries, ``T``, pairs in ``H``). A pair of two symbols below ``T`` is in ``D``, any
    other in ``H``.
    """

    sym: np.ndarray  # int32, rewritten in place
    pp: np.ndarray  # int32 per position: pid of the pair starting there (chunk ends: unused)
    clen: np.ndarray  # int32 per chunk
    ccnt: np.ndarray  # int64 per chunk
    cstart: np.ndarray  # int64, n_chunks + 1
    P: np.ndarray  # int64 (pairs, _P_COLS)
    occ: np.ndarray  # int32 pool of chunk ids, one segment per pair
    scr: np.ndarray  # int32 (entries, 2): (pid, chunk) listed in the current phase
    zt: np.ndarray  # int64 (2, 2 * n): a merge's new pairs by their other symbol
    heap: np.ndarray  # int64 (entries, 3): count, tie key, pid
    sc: np.ndarray  # int64 counters, _S_LEN


def progress(state: TrainState) -> tuple[int, int, bool]:
    """``(merges, batches, exhausted)`` of a state, as Python values."""
    sc = state.sc
    return int(sc[_S_NMERGES]), int(sc[_S_NBATCHES]), bool(sc[_S_EXHAUSTED])


# --------------------------------------------------------------------------- growth
@njit(**JIT)
def _grow_rows(arr, need):
    """Return ``arr`` with at least ``need`` rows (doubling; new rows filled with -1)."""
    rows = arr.shape[0]
    if need <= rows:
        return arr
    new_rows = max(need, 2 * rows, 16)
    out = np.full((new_rows, arr.shape[1]), -1, dtype=arr.dtype)
    out[:rows] = arr
    return out


@njit(**JIT_INLINE)
def hash_slot(H, key):
    """Slot of ``key`` in the map ``H`` (the one holding it, or the empty one to fill).

    ``H`` is one ``int64`` array of ``2 * capacity``: slot ``i`` keeps its key at ``H[2i]``
    (-1 when empty) and its value at ``H[2i + 1]``, so a probe touches one cache line.
    """
    mask = (H.shape[0] >> 1) - 1
    h = (np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(20)
    i = np.int64(h) & mask
    while H[2 * i] != key and H[2 * i] != -1:
        i = (i + 1) & mask
    return i


@njit(**JIT)
def hash_new(need):
    """An empty map (see :func:`hash_slot`) for ``need`` entries at load factor <= 1/2."""
    cap = 16
    while 2 * need > cap:
        cap *= 2
    return np.full(2 * cap, -1, dtype=np.int64)


@njit(**JIT)
def hash_grow(H, need):
    """``H`` grown so that ``need`` entries keep the load factor at most 1/2."""
    if 4 * need <= H.shape[0]:
        return H
    out = hash_new(need)
    for j in range(H.shape[0] >> 1):
        if H[2 * j] != -1:
            i = hash_slot(out, H[2 * j])
            out[2 * i] = H[2 * j]
            out[2 * i + 1] = H[2 * j + 1]
    return out


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
    heap = _grow_rows(heap, n + 1)
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
def _counted(sym, s, i, nonoverlap, prev_self_counted):
    """Whether the pair at ``s + i`` counts (non-overlapping: every other pair of a run)."""
    if not nonoverlap or sym[s + i] != sym[s + i + 1]:
        return True
    return not prev_self_counted


@njit(**JIT_INLINE)
def _subtract_chunk(sym, pp, s, length, w, nonoverlap, P):
    """Subtract ``w`` for every counted pair of the chunk segment ``sym[s : s + length]``
    (a run of four equal symbols counts 2 pairs non-overlapping, 3 overlapping); each
    pair's id is the one stored at its position in ``pp``, so nothing is looked up."""
    prev_self = False
    for i in range(length - 1):
        if _counted(sym, s, i, nonoverlap, prev_self):
            P[pp[s + i], _C_COUNT] -= w
            prev_self = sym[s + i] == sym[s + i + 1]
        else:
            prev_self = False


@njit(**JIT_INLINE)
def _new_pair(a, b, P, sc):
    """Append pair ``(a, b)`` to ``P`` (count 0, no chunks); return its pid."""
    pid = sc[_S_NPAIRS]
    sc[_S_NPAIRS] += 1
    P[pid, _C_COUNT] = 0
    P[pid, _C_LEFT] = a
    P[pid, _C_RIGHT] = b
    P[pid, _C_START] = 0
    P[pid, _C_NOCC] = 0
    P[pid, _C_PICKED] = -1
    P[pid, _C_LASTCHUNK] = -1
    return pid


@njit(**JIT_INLINE)
def _list_chunk(pid, c, P, scr, sc):
    """List chunk ``c`` for a pair of the current phase in the scratch, once per chunk (a
    phase adds a chunk's pairs consecutively)."""
    if P[pid, _C_LASTCHUNK] != c:
        e = sc[_S_NSCR]
        sc[_S_NSCR] += 1
        scr[e, 0] = pid
        scr[e, 1] = c
        P[pid, _C_NOCC] += 1
        P[pid, _C_LASTCHUNK] = c


@njit(**JIT_INLINE)
def _add_pair(a, b, w, c, maps, scr, sc):
    """Add ``w`` to pair ``(a, b)`` of chunk ``c`` at the start, creating it (in ``P`` and
    ``D`` or ``H``; ``maps`` is ``(H, D, T, P)``) as needed and listing ``c``. Capacity (rows
    of ``P``, ``scr`` and hash slots) must have been reserved."""
    H, D, T, P = maps
    if a < T and b < T:
        pid = np.int64(D[a * T + b])
        if pid == -1:
            pid = _new_pair(a, b, P, sc)
            D[a * T + b] = pid
    else:
        key = (np.int64(a) << 32) | np.int64(b)
        i = hash_slot(H, key)
        if H[2 * i] == -1:
            pid = _new_pair(a, b, P, sc)
            H[2 * i] = key
            H[2 * i + 1] = pid
            sc[_S_NHASH] += 1
        else:
            pid = H[2 * i + 1]
    P[pid, _C_COUNT] += w
    _list_chunk(pid, c, P, scr, sc)
    return pid


@njit(**JIT)
def _sort_lists(P, occ, scr, sc, first_new):
    """Give every pair created in this phase its segment of the pool; return the pool.

    A counting sort of the scratch by pid (stable, so each segment keeps the order in which
    the chunks were listed: ascending, as the phase visits chunks in ascending order).
    """
    n_scr = sc[_S_NSCR]
    need = sc[_S_NOCC] + n_scr
    if need > occ.shape[0]:
        grown = np.empty(max(need, 2 * occ.shape[0]), dtype=occ.dtype)
        grown[:sc[_S_NOCC]] = occ[:sc[_S_NOCC]]
        occ = grown
    pos = sc[_S_NOCC]
    for q in range(first_new, sc[_S_NPAIRS]):
        P[q, _C_START] = pos
        P[q, _C_LASTCHUNK] = pos  # the fill cursor (no chunk is listed for q any more)
        pos += P[q, _C_NOCC]
    for e in range(n_scr):
        q = scr[e, 0]
        occ[P[q, _C_LASTCHUNK]] = scr[e, 1]
        P[q, _C_LASTCHUNK] += 1
    sc[_S_NOCC] = need
    sc[_S_NSCR] = 0
    return occ


# --------------------------------------------------------------------------- initial counts
@njit(**JIT)
def init_state(sym, cstart, ccnt, rank, nonoverlap):
    """Count every pair of every chunk; build the hash map, pair table, lists and heap.

    Returns the :class:`TrainState` consumed by :func:`train_steps` (``sym`` is the caller's
    array, rewritten in place).
    """
    n_chunks = ccnt.shape[0]
    n_pos = sym.shape[0]
    clen = np.empty(n_chunks, dtype=np.int32)
    for c in range(n_chunks):
        clen[c] = cstart[c + 1] - cstart[c]
    # distinct pairs: at most one per position and at most alphabet² (65,536 for bytes), so
    # the pair table and hash map start small and cache-resident; merges grow them
    alphabet = 1
    for k in range(n_pos):
        alphabet = max(alphabet, sym[k] + 1)
    pairs = max(min(n_pos, alphabet * alphabet), 16)
    P = np.full((pairs, _P_COLS), -1, dtype=np.int64)
    scr = np.empty((max(n_pos, 16), 2), dtype=np.int32)  # at most one entry per position
    occ = np.empty(16, dtype=np.int32)
    T = min(rank.shape[0], _DENSE_MAX)
    H = hash_new(pairs if alphabet > T else 16)
    D = np.full(T * T, -1, dtype=np.int32)
    pp = np.full(n_pos, -1, dtype=np.int32)
    sc = np.zeros(_S_LEN, dtype=np.int64)
    sc[_S_DENSE] = T
    for c in range(n_chunks):
        s = cstart[c]
        prev_self = False
        for i in range(clen[c] - 1):
            a = sym[s + i]
            b = sym[s + i + 1]
            if _counted(sym, s, i, nonoverlap, prev_self):
                pp[s + i] = _add_pair(a, b, ccnt[c], c, (H, D, T, P), scr, sc)
                prev_self = a == b
            else:  # the second pair of a run (a, a): the one before it
                pp[s + i] = pp[s + i - 1]
                prev_self = False
    occ = _sort_lists(P, occ, scr, sc, 0)
    zt = np.full((2, 2 * min(rank.shape[0], 1024)), -1, dtype=np.int64)
    heap = np.empty((max(sc[_S_NPAIRS], 16), 3), dtype=np.int64)
    n = 0
    for pid in range(sc[_S_NPAIRS]):
        if P[pid, _C_COUNT] > 0:
            key = (rank[P[pid, _C_LEFT]] << 32) | rank[P[pid, _C_RIGHT]]
            heap = _heap_push(heap, n, P[pid, _C_COUNT], key, pid)
            n += 1
    sc[_S_HEAPN] = n
    return TrainState(sym, pp, clen, ccnt, cstart, P, occ, scr, zt, heap, sc)


# --------------------------------------------------------------------------- one merge
@njit(**JIT)
def _merge(state, pid, z, rank, nonoverlap):  # noqa: C901, PLR0915  (numba kernel)
    """Replace every occurrence of pair ``pid`` by symbol ``z`` and update counts.

    Returns the (possibly grown) state; pushes the pairs that involve ``z`` on the heap.
    Those are exactly the pairs this merge creates (pids from ``first_new`` on): ``z`` is
    new, and every other pair of a window was next to the same symbol before the merge.
    """
    sym, pp, clen, ccnt, cstart, P, occ, scr, zt, heap, sc = state
    if z >= zt.shape[1] >> 1:  # entries of earlier merges are stale anyway: no copy
        zt = np.full((2, 2 * max(zt.shape[1], z + 1)), -1, dtype=np.int64)
    n_sym = zt.shape[1] >> 1
    a = P[pid, _C_LEFT]
    b = P[pid, _C_RIGHT]
    first_new = sc[_S_NPAIRS]
    start = P[pid, _C_START]
    stop = start + P[pid, _C_NOCC]
    P[pid, _C_NOCC] = 0
    for e in range(start, stop):
        c = occ[e]
        s = cstart[c]
        length = clen[c]
        first = -1
        last = -1
        n_sites = 0
        i = 0
        while i < length - 1:
            if pp[s + i] == pid:
                if first < 0:
                    first = i
                last = i
                n_sites += 1
                i += 2
            else:
                i += 1
        if first < 0:
            continue
        # Only pairs in the window [lo, hi) change: one symbol either side of the merge
        # sites, widened to whole runs when runs are counted non-overlapping.
        lo = first - 1 if first > 0 else 0
        hi = min(last + 3, length)
        if nonoverlap:
            while lo > 0 and sym[s + lo - 1] == sym[s + lo]:
                lo -= 1
            while hi < length and sym[s + hi] == sym[s + hi - 1]:
                hi += 1
        w = ccnt[c]
        _subtract_chunk(sym, pp, s + lo, hi - lo, w, nonoverlap, P)
        # rewrite; a copied position keeps its pair id (its pair changes only if the next
        # position starts a site, and then it is in the window and renewed below)
        j = first
        i = first
        while i < length:
            if i < length - 1 and pp[s + i] == pid:
                sym[s + j] = z
                i += 2
            else:
                sym[s + j] = sym[s + i]
                pp[s + j] = pp[s + i]
                i += 1
            j += 1
        clen[c] = j
        new_hi = hi - n_sites
        # reserve room for the new pairs before adding
        room = new_hi - lo
        if sc[_S_NPAIRS] + room > P.shape[0]:
            P = _grow_rows(P, sc[_S_NPAIRS] + room)
        if sc[_S_NSCR] + room > scr.shape[0]:
            scr = _grow_rows(scr, sc[_S_NSCR] + room)
        prev_self = False
        for i in range(lo, new_hi - 1):
            x = sym[s + i]
            y = sym[s + i + 1]
            if _counted(sym, s, i, nonoverlap, prev_self):
                if x == z or y == z:  # a pair of this merge: found by its other symbol
                    slot = x if y == z else n_sym + y
                    if zt[1, slot] != z:
                        zt[0, slot] = _new_pair(x, y, P, sc)
                        zt[1, slot] = z
                    q = zt[0, slot]
                    pp[s + i] = q
                    P[q, _C_COUNT] += w
                    _list_chunk(q, c, P, scr, sc)
                else:  # an older pair, next to the same symbol before the merge
                    P[pp[s + i], _C_COUNT] += w
                prev_self = x == y
            else:  # the second pair of a run: the one before it
                pp[s + i] = pp[s + i - 1]
                prev_self = False
    occ = _sort_lists(P, occ, scr, sc, first_new)
    n = sc[_S_HEAPN]
    for q in range(first_new, sc[_S_NPAIRS]):
        if P[q, _C_COUNT] > 0:
            key = (rank[P[q, _C_LEFT]] << 32) | rank[P[q, _C_RIGHT]]
            heap = _heap_push(heap, n, P[q, _C_COUNT], key, q)
            n += 1
    sc[_S_HEAPN] = n
    return TrainState(sym, pp, clen, ccnt, cstart, P, occ, scr, zt, heap, sc)


# --------------------------------------------------------------------------- the loop
@njit(**JIT_INLINE)
def _with_heap(state, heap):
    """``state`` with its heap replaced (grown)."""
    return TrainState(state.sym, state.pp, state.clen, state.ccnt, state.cstart, state.P,
                      state.occ, state.scr, state.zt, heap, state.sc)


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
            actual = P[pid, _C_COUNT]
            if actual <= 0 or P[pid, _C_PICKED] == batch_no:
                continue
            if actual != count:
                heap = _heap_push(heap, sc[_S_HEAPN], actual, key, pid)
                sc[_S_HEAPN] += 1
                continue
            P[pid, _C_PICKED] = batch_no
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
            first = P[pid, _C_LEFT]
            last = P[pid, _C_RIGHT]
            unsafe = seen[1, first] == batch_no or seen[0, last] == batch_no
            seen[0, first] = batch_no
            seen[1, last] = batch_no
            if unsafe:
                waiting[n_wait, 0] = P[pid, _C_COUNT]
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
            merges_out[m, 0] = P[pid, _C_LEFT]
            merges_out[m, 1] = P[pid, _C_RIGHT]
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
