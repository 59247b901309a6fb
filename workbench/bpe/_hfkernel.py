"""Numba kernel of BPE-dropout's exact law under HF ``tokenizers``' semantics.

HF's merge loop (:mod:`workbench.bpe.semantics`, ``"hf"``) pops a heap of merge entries,
one per *place* (a triplet ``trip[e] = (i, m, j, rank)``: spans ``i:m`` and ``m:j`` merged
into ``i:j``; sorted by (rank, i), so the heap's pop order is the order of the triplet
ids), each pushed once, when the later of its two pieces is made. A state is a
segmentation and its *stale* entries (places whose pieces are gone), a set of bits of one
int64 (at most :data:`MAX_PLACES` places), in canonical form (:func:`_canonical`).

How the kernel goes (9-11× faster than the kernel it replaced, which hashed every state
of a level by a key of three int64 in one table; the same states):

* a segmentation is a dense id: its rank among the segmentations into built spans,
  ``Σ term[c_t, c_t+1]`` over its pieces, so a merge at place ``e`` adds ``delta[e]`` to it
  (:func:`_ids`); per id: the boundary mask, the live places and the stale entries'
  states of the level;
* level by level (a level: the number of merges), each segmentation *pulls* its incoming
  mass from its parents (one per piece that a place splits), whose states of the previous
  level are stored by id: a parent state ``(S', w)`` sends ``w (1 − p) p^k`` through its
  place ``e`` (``k``: the heap entries before ``e``); then the segmentation's own states
  are expanded by decreasing number of stale entries (a run of stale entries that pops
  one after another, surviving, removes one of them: one transition), in a small local
  hash table keyed by the stale bits (Fibonacci hashing; reset by a stamp);
* the probabilities stay float64 (sums in another order than the Python law's: equal to
  rounding, not bit for bit).

This module does not build the rank cube, spell tokens, count segmentations or check budgets
(:func:`workbench.bpe.laws.fast_dropout_states` does), and holds no Fraction path.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.core.typing import signature
from numba.cpython.unsafe.numbers import leading_zeros
from numba.extending import intrinsic

from .._core.config import JIT, JIT_INLINE
from ._lawkernels import _cuts_of, _full_mask, _slot

#: Most places the kernel takes: a state's stale entries are bits 0-62 of one int64.
MAX_PLACES = 63
#: Most segmentations it takes (ids index arrays; a caller checks the budget long before).
MAX_SEGMENTATIONS = 1 << 32


class Places(NamedTuple):
    """A chunk's merge places as :func:`hf_mask_law` takes them (from :func:`hf_places`)."""

    tid: np.ndarray  # tid[i, j]: the place making i:j (-1: none)
    trip: np.ndarray  # trip[e] = (i, m, j, rank), sorted by (rank, i)
    delta: np.ndarray  # a merge at place e adds delta[e] to a segmentation's id
    first: int  # the id of the single symbols
    segmentations: int  # how many segmentations into the built spans


class Buffers(NamedTuple):
    """:func:`hf_mask_law`'s first buffer sizes (they grow) and its state cap."""

    room: int  # states one level holds at first
    local: int  # states one segmentation holds at first
    max_states: int  # status 3 past this many states


def hf_places(n: int, span_sym: Mapping[tuple[int, int], Hashable], rank: np.ndarray
              ) -> Places | None:
    """:class:`Places` ``(tid, trip, delta, first, segmentations)`` for a chunk of
    ``n`` symbols whose spans ``span_sym`` are built and ``rank[i, m, j]`` merge; None
    where a span has two splits that merge (HF then compares tokens, not places), there
    are over :data:`MAX_PLACES` places or over :data:`MAX_SEGMENTATIONS` segmentations."""
    places = np.argwhere(rank >= 0)
    places = places[np.lexsort((places[:, 0], rank[rank >= 0]))]  # by (rank, start)
    if len(places) > MAX_PLACES:
        return None
    tid = np.full((n + 1, n + 1), -1, dtype=np.int64)
    trip = np.empty((len(places), 4), dtype=np.int64)
    for e, (i, m, j) in enumerate(places.tolist()):
        if tid[i, j] >= 0:
            return None
        tid[i, j] = e
        trip[e] = (i, m, j, rank[i, m, j])
    built = np.zeros((n + 1, n + 1), dtype=np.bool_)
    for i, j in span_sym:
        built[i, j] = True
    ids = _ids(n, built, trip)
    return None if ids is None else Places(tid, trip, *ids)


def _ids(n, built, trip):
    """``(delta, id of the single symbols, segmentations)`` (None: over
    :data:`MAX_SEGMENTATIONS`): a merge at place ``e`` adds
    ``delta[e]`` to a segmentation's id (its lexicographic rank among the segmentations
    into the spans ``built[i, j]``: ``Σ term[c_t, c_t+1]`` over its pieces)."""
    ways = [0] * n + [1]  # segmentations of j:n
    for j in range(n - 1, -1, -1):
        ways[j] = sum(ways[k] for k in range(j + 1, n + 1) if built[j, k])
    if ways[0] > MAX_SEGMENTATIONS:
        return None
    term = {}
    for i in range(n):
        below = 0
        for j in range(i + 1, n + 1):
            if built[i, j]:
                term[i, j] = below
                below += ways[j]
    delta = np.array([term[i, j] - term[i, m] - term[m, j] for i, m, j, _ in trip.tolist()],
                     dtype=np.int64)
    return delta, sum(term[i, i + 1] for i in range(n)), ways[0]


@intrinsic
def _popcount(typingctx, x):
    """Set bits of the integer ``x`` (LLVM's ``ctpop``: one instruction where the CPU has it;
    15-19% faster than a bit-twiddled count here)."""
    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])
    return signature(x, x), codegen


@njit(**JIT_INLINE)
def _top(x):
    """The highest set bit of ``x`` > 0."""
    return np.int64(1) << (63 - leading_zeros(x))


@njit(**JIT_INLINE)
def _canonical(may, stale):
    """The canonical form of stale bits ``stale`` in a segmentation whose may-live places
    are ``may`` (:func:`_may_live`).

    A stale entry is never valid again and acts only when popped (its coin; a survivor
    flushes the held entries back and is discarded), so two stale entries between the same
    two may-live places in pop order are interchangeable now and later: each gap between
    may-live places keeps its count, on its first bits. Stale entries before the first
    may-live place are dropped: one that survives its coin ends the round before any live
    entry has drawn, so the live entries' rounds are those of the state without it."""
    out = np.int64(0)
    rem = stale
    while rem != 0:
        b = rem & -rem
        above = may & ~((b << 1) - 1)
        a = above & -above
        gap = a - 1 if a != 0 else np.int64(-1)  # bits below the next may-live place
        below = may & (b - 1)
        if below != 0:
            start = _top(below) << 1
            gap &= ~(start - 1)
            out |= start * ((np.int64(1) << _popcount(rem & gap)) - 1)
        rem &= ~gap
    return out


@njit(**JIT_INLINE)
def _piece(mask, n, a, b):
    """Whether ``a:b`` is a piece of boundary mask ``mask``."""
    if (a > 0 and not (mask >> a) & 1) or (b < n and not (mask >> b) & 1):
        return False
    return (mask >> (a + 1)) & ((np.int64(1) << (b - a - 1)) - 1) == 0


@njit(**JIT_INLINE)
def _may_live(mask, n, trip, by_width, made):
    """The places that are or may become live entries of a segmentation with boundaries
    ``mask`` (both halves are pieces, or can be built from pieces: boundaries only go).
    ``by_width``: the places by width; ``made``: an (n + 1, n + 1) scratch."""
    for x in range(by_width.shape[0]):
        e = by_width[x]
        made[trip[e, 0], trip[e, 2]] = False
    may = np.int64(0)
    for x in range(by_width.shape[0]):
        e = by_width[x]
        i, m, j = trip[e, 0], trip[e, 1], trip[e, 2]
        if (made[i, m] or _piece(mask, n, i, m)) and (made[m, j] or _piece(mask, n, m, j)):
            may |= np.int64(1) << e
            made[i, j] = True
    return may


@njit(**JIT_INLINE)
def _live(mask, n, rank, tid, cuts):
    """The live places of boundary mask ``mask`` (two adjacent pieces a place merges)."""
    m = _cuts_of(mask, n, cuts)
    live = np.int64(0)
    for q in range(m - 1):
        if rank[cuts[q], cuts[q + 1], cuts[q + 2]] >= 0:
            live |= np.int64(1) << tid[cuts[q], cuts[q + 2]]
    return live


class Local(NamedTuple):
    """One segmentation's states: stale bits -> mass, open addressing (a slot is in use
    where ``stamp`` is the segmentation's id), each key on the list of its number of bits."""

    keys: np.ndarray
    vals: np.ndarray
    nxt: np.ndarray  # next key with as many bits (-1: last)
    head: np.ndarray  # number of bits -> last key added (-1: none)
    slots: np.ndarray
    stamp: np.ndarray
    shift: int  # 64 - log2(slots)


@njit(**JIT)
def _local(capacity, places):
    """An empty :class:`Local` for ``capacity`` states."""
    bits = 1
    while (1 << bits) < 2 * capacity:
        bits += 1
    return Local(np.empty(capacity, dtype=np.int64), np.empty(capacity),
                 np.empty(capacity, dtype=np.int64), np.full(places + 1, -1, dtype=np.int64),
                 np.empty(1 << bits, dtype=np.int64), np.full(1 << bits, -1, dtype=np.int64),
                 64 - bits)


@njit(**JIT_INLINE)
def _insert(t, mark, size, stale, amount):
    """``vals[stale] += amount`` in :class:`Local` ``t`` (segmentation ``mark``); returns
    the size (-1: full)."""
    h = _slot(stale, t.shift)
    while t.stamp[h] == mark:
        s = t.slots[h]
        if t.keys[s] == stale:
            t.vals[s] += amount
            return size
        h = (h + 1) & (t.slots.shape[0] - 1)
    if size >= t.keys.shape[0]:
        return -1
    t.stamp[h] = mark
    t.slots[h] = size
    t.keys[size] = stale
    t.vals[size] = amount
    c = _popcount(stale)
    t.nxt[size] = t.head[c]
    t.head[c] = size
    return size + 1


class Word(NamedTuple):
    """What the kernel looks up: ``rank``, ``tid``, ``trip``, ``delta`` (see
    :func:`hf_mask_law`), the places by width, ``p^k``, ``p`` and scratch."""

    rank: np.ndarray
    tid: np.ndarray
    trip: np.ndarray
    delta: np.ndarray
    by_width: np.ndarray
    ppow: np.ndarray
    p: float
    made: np.ndarray  # (n + 1, n + 1) scratch of _may_live
    cuts: np.ndarray


class Levels(NamedTuple):
    """Per segmentation id: its mask, live places, the level that listed it and its states'
    range in that level's buffers; the buffers of two levels; the ids to do, level by
    level."""

    mask: np.ndarray
    live: np.ndarray
    seen: np.ndarray
    at: np.ndarray
    count: np.ndarray
    stale: np.ndarray  # (2, room)
    mass: np.ndarray  # (2, room)
    todo: np.ndarray


@njit(**JIT_INLINE)
def _pull(w, lv, t, g, level, may, n):
    """Into :class:`Local` ``t``: the mass segmentation ``g`` (mask and live places set)
    receives from its parents' states of the previous level; returns the size (-1: full)."""
    size = 0
    cur = level & 1
    live = lv.live[g]
    m = _cuts_of(lv.mask[g], n, w.cuts)
    q = 1.0 - w.p
    for x in range(m):  # parents: a piece that a place splits
        e = w.tid[w.cuts[x], w.cuts[x + 1]]
        if e < 0:
            continue
        parent = g - w.delta[e]
        if lv.seen[parent] != level - 1:
            continue
        bit = np.int64(1) << e
        plive = lv.live[parent]
        staled = plive & ~live & ~bit
        base = lv.at[parent]
        for k in range(base, base + lv.count[parent]):
            old = lv.stale[1 - cur, k]
            amount = lv.mass[1 - cur, k] * q * w.ppow[_popcount((plive | old) & (bit - 1))]
            if amount != 0.0:
                size = _insert(t, g, size, _canonical(may, old | staled), amount)
                if size < 0:
                    return size
    return size


@njit(**JIT_INLINE)
def _expand(w, lv, t, g, level, size, fill):
    """Expand segmentation ``g``'s states in :class:`Local` ``t`` by decreasing number of
    stale entries (a surviving stale entry: a child in ``t``; a live one: its child pulls
    the mass), keeping those with a live entry in the level's buffers from ``fill``.
    Returns ``(fill, stopped mass, states)``; fill -1: a buffer is full."""
    cur = level & 1
    live = lv.live[g]
    q = 1.0 - w.p
    stop, done = 0.0, 0
    for c in range(t.head.shape[0] - 1, -1, -1):
        s = t.head[c]
        t.head[c] = -1
        while s >= 0:
            stale, share = t.keys[s], t.vals[s]
            done += 1
            if live != 0:
                if fill >= lv.stale.shape[1]:
                    return -1, stop, done
                lv.stale[cur, fill] = stale
                lv.mass[cur, fill] = share
                fill += 1
            rest, below = stale, np.int64(0)  # stale bits to do; the bits passed
            while rest != 0 and share != 0.0:  # each run of stale entries: one child
                b = rest & -rest
                share *= w.ppow[_popcount(live & (b - 1) & ~below)]  # live entries before
                run = ((stale + b) ^ stale) & stale
                held = w.ppow[_popcount(run)]
                if q != 0.0 and share != 0.0:
                    size = _insert(t, g, size, stale & ~_top(run), share * (1.0 - held))
                    if size < 0:
                        return -1, stop, done
                share *= held
                rest &= ~run
                below = (_top(run) << 1) - 1
            stop += share * w.ppow[_popcount(live & ~below)]  # every entry held
            s = t.nxt[s]
    return fill, stop, done


@njit(**JIT_INLINE)
def _list_children(w, lv, g, level, nhi):
    """List the children of segmentation ``g`` (one per live place) for the next level;
    returns the new end of the list."""
    rest = lv.live[g]
    while rest != 0:
        b = rest & -rest
        rest ^= b
        e = _popcount(b - 1)
        child = g + w.delta[e]
        if lv.seen[child] != level + 1:
            lv.seen[child] = level + 1
            lv.mask[child] = lv.mask[g] & ~(np.int64(1) << w.trip[e, 1])
            lv.todo[nhi] = child
            nhi += 1
    return nhi


@njit(**JIT)
def _word(rank, tid, trip, delta, p, n):
    """The :class:`Word` of the arguments."""
    ppow = np.empty(trip.shape[0] + 2)
    ppow[0] = 1.0
    for k in range(1, ppow.shape[0]):
        ppow[k] = ppow[k - 1] * p
    return Word(rank, tid, trip, delta, np.argsort(trip[:, 2] - trip[:, 0], kind="mergesort"),
                ppow, p, np.zeros((n + 1, n + 1), dtype=np.bool_),
                np.empty(n + 1, dtype=np.int64))


@njit(**JIT)
def _levels(segmentations, room):
    """An empty :class:`Levels`."""
    return Levels(np.empty(segmentations, dtype=np.int64),
                  np.empty(segmentations, dtype=np.int64),
                  np.full(segmentations, -2, dtype=np.int64),
                  np.zeros(segmentations, dtype=np.int64),
                  np.zeros(segmentations, dtype=np.int64),
                  np.empty((2, room), dtype=np.int64), np.empty((2, room)),
                  np.empty(segmentations, dtype=np.int64))


@njit(**JIT)
def _grown(lv, room):
    """:class:`Levels` ``lv`` with buffers of ``room`` states (the states kept)."""
    stale, mass = np.empty((2, room), dtype=np.int64), np.empty((2, room))
    stale[:, :lv.stale.shape[1]] = lv.stale
    mass[:, :lv.mass.shape[1]] = lv.mass
    return Levels(lv.mask, lv.live, lv.seen, lv.at, lv.count, stale, mass, lv.todo)


@njit(**JIT)
def hf_mask_law(n, rank, places, p, buffers):
    """HF ``tokenizers``' law over boundary masks, exact up to float rounding (the law of
    :func:`workbench.bpe.semantics.hf_law`, summed in another order).

    ``rank[i, m, j]``: the rank of the merge of ``i:m`` and ``m:j`` (-1: none);
    ``places``: the chunk's :class:`Places` from :func:`hf_places` (at most
    :data:`MAX_PLACES`); ``buffers``: :class:`Buffers` (first sizes; the buffers grow).
    Returns ``(masks, masses, starts, status, states)``: level ``l``'s final states are
    ``starts[l]:starts[l + 1]``; status 0, or 3 (more than ``buffers.max_states`` states).
    """
    tid, trip, delta, first, segmentations = places
    room, local, max_states = buffers
    w = _word(rank, tid, trip, delta, p, n)
    lv = _levels(segmentations, room)
    t = _local(local, trip.shape[0])
    masks, masses = np.empty(segmentations, dtype=np.int64), np.empty(segmentations)
    starts = np.zeros(n + 1, dtype=np.int64)
    lv.todo[0] = first
    lv.mask[first] = _full_mask(n)
    lv.seen[first] = 0
    lo, hi, out, done = 0, 1, 0, 0
    for level in range(n):
        starts[level] = out
        fill, nhi = 0, hi
        for x in range(lo, hi):
            g = lv.todo[x]
            lv.live[g] = _live(lv.mask[g], n, rank, tid, w.cuts)
            may = _may_live(lv.mask[g], n, trip, w.by_width, w.made)
            lv.at[g] = fill
            while True:  # a full local table: a larger one, and this segmentation again
                if lv.stale.shape[1] - fill < t.keys.shape[0]:
                    lv = _grown(lv, 2 * lv.stale.shape[1] + t.keys.shape[0])
                size = _pull(w, lv, t, g, level, may, n)
                if level == 0 and size >= 0:
                    size = _insert(t, g, size, 0, 1.0)
                if size >= 0:
                    end, stop, more = _expand(w, lv, t, g, level, size, fill)
                    if end >= 0:
                        break
                t = _local(4 * t.keys.shape[0], trip.shape[0])
            fill = end
            done += more
            if done > max_states:
                return masks[:0], masses[:0], starts, 3, done
            lv.count[g] = fill - lv.at[g]
            if stop != 0.0:
                masks[out], masses[out] = lv.mask[g], stop
                out += 1
            if lv.count[g] > 0 and p != 1.0:
                nhi = _list_children(w, lv, g, level, nhi)
        lo, hi = hi, nhi
    starts[n] = out
    return masks[:out].copy(), masses[:out].copy(), starts, 0, done
