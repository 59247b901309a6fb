"""The pair table and chunk pool of BPE training (numba): pairs, their chunk lists, the sort.

A training run (:mod:`workbench.bpe._kernels`) numbers every pair ``(left, right)`` it meets
with a pair id ``pid`` in order of appearance and keeps, per pair, one column entry of the
table ``P`` (column-major, ``P[column, pid]``, so the counts the merge loop reads and writes
at random are one dense ``int64`` row): ``count, left, right, start, nocc, picked, cursor``
(the ``C_*`` constants).

Each pair owns one contiguous, ascending segment ``occ[start : start + nocc]`` of a pool of
chunk ids: every chunk that holds (or once held) the pair, listed once. All of a pair's
occurrences arise at one moment, at the start or in the merge that makes the later of its
two symbols (a merge creates adjacencies only next to its new symbol), so a segment is
written once, by a counting sort (:func:`sort_lists`) of that moment's ``(pid, chunk)``
entries gathered in a scratch ``scr`` (:func:`list_chunk`), and never appended to. Chunks that
lost the pair to a later merge stay listed; the merge loop skips them when it scans.

``sc`` is the caller's counter array; this module reads and writes its slots ``S_NPAIRS``
(pairs so far), ``S_NOCC`` (pool entries written) and ``S_NSCR`` (scratch entries pending).

This module does not count pairs, find the best one or merge (see
:mod:`workbench.bpe._kernels`), and checks no arguments.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._core.config import JIT, JIT_INLINE

#: Rows of the pair table ``P`` (indexed ``P[C_*, pid]``).
C_COUNT, C_LEFT, C_RIGHT, C_START, C_NOCC, C_PICKED, C_CURSOR = range(7)
P_ROWS = 7
#: Slots of the counter array ``sc`` this module uses.
S_NPAIRS, S_NOCC, S_NSCR = 0, 1, 2


@njit(**JIT)
def grow_rows(arr, need):
    """Return ``arr`` with at least ``need`` rows (doubling; new rows filled with -1)."""
    rows = arr.shape[0]
    if need <= rows:
        return arr
    new_rows = max(need, 2 * rows, 16)
    out = np.full((new_rows, arr.shape[1]), -1, dtype=arr.dtype)
    out[:rows] = arr
    return out


@njit(**JIT)
def grow_pairs(P, need):
    """Return the pair table ``P`` with room for at least ``need`` pairs (doubling)."""
    cols = P.shape[1]
    if need <= cols:
        return P
    out = np.full((P.shape[0], max(need, 2 * cols, 16)), -1, dtype=P.dtype)
    out[:, :cols] = P
    return out


@njit(**JIT_INLINE)
def new_pair(a, b, P, sc):
    """Append pair ``(a, b)`` to ``P`` (count 0, no chunks; room reserved); return its pid."""
    pid = sc[S_NPAIRS]
    sc[S_NPAIRS] += 1
    P[C_COUNT, pid] = 0
    P[C_LEFT, pid] = a
    P[C_RIGHT, pid] = b
    P[C_START, pid] = 0
    P[C_NOCC, pid] = 0
    P[C_PICKED, pid] = -1
    P[C_CURSOR, pid] = -1
    return pid


@njit(**JIT_INLINE)
def list_chunk(pid, c, P, scr, sc):
    """List chunk ``c`` for a pair of the current moment in the scratch, once per chunk (a
    moment adds a chunk's pairs consecutively, so the last chunk listed is the one to check)."""
    if P[C_CURSOR, pid] != c:
        e = sc[S_NSCR]
        sc[S_NSCR] += 1
        scr[e, 0] = pid
        scr[e, 1] = c
        P[C_NOCC, pid] += 1
        P[C_CURSOR, pid] = c


@njit(**JIT)
def sort_lists(P, occ, scr, sc, first_new):
    """Give every pair created at this moment (pids from ``first_new`` on) its segment of
    the pool; return the (grown) pool.

    A counting sort of the scratch by pid (stable, so each segment keeps the order in which
    the chunks were listed: ascending, as the chunks are visited in ascending order).
    """
    n_scr = sc[S_NSCR]
    need = sc[S_NOCC] + n_scr
    if need > occ.shape[0]:
        grown = np.empty(max(need, 2 * occ.shape[0]), dtype=occ.dtype)
        grown[:sc[S_NOCC]] = occ[:sc[S_NOCC]]
        occ = grown
    pos = sc[S_NOCC]
    for q in range(first_new, sc[S_NPAIRS]):
        P[C_START, q] = pos
        P[C_CURSOR, q] = pos  # the fill cursor (no chunk is listed for q any more)
        pos += P[C_NOCC, q]
    for e in range(n_scr):
        q = scr[e, 0]
        occ[P[C_CURSOR, q]] = scr[e, 1]
        P[C_CURSOR, q] += 1
    sc[S_NOCC] = need
    sc[S_NSCR] = 0
    return occ
