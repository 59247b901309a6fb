"""The corpus as flat bytes and the candidate tokens of GreedTok as an index over it.

A training corpus (word → count) is packed into one ``uint8`` buffer with word offsets and
counts (:class:`Corpus`). Every substring of length ``2 … max_token_length`` bytes of a word
is a *candidate token*. :func:`build_candidates` gives every distinct substring a node id (a
trie over all word suffixes, cut at ``max_token_length``; nodes ``0 … 255`` are the single
bytes, candidates are the nodes from 256 on) and builds two indexes (:class:`Candidates`):

* forward: for each word, its occurrences in a fixed order — start ``i`` ascending, then
  length ``2, 3, …`` — each naming a *slot*: one slot per distinct candidate of a word;
* inverted: for each candidate node, the slots (hence the words) holding it.

It also ranks the candidates for tie-breaking: shorter first, then by bytes (lexicographic),
so the result of training never depends on the order of the words in the table.

This module selects nothing (see :mod:`workbench.greedtok.training` and
:mod:`workbench.greedtok.relaxation`) and does not encode (see
:mod:`workbench.greedtok.encoder`).

Example
-------
>>> corpus = pack_words({"abab": 2, "ba": 1})
>>> cands = build_candidates(corpus, 3)
>>> sorted(node_bytes(corpus, cands, v) for v in range(256, cands.n_nodes))
[b'ab', b'aba', b'ba', b'bab']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
from numba import njit

from .._core.config import JIT, JIT_INLINE
from .._core.errors import InvalidValueError
from .._core.validate import check_budget, check_int

#: Longest word (in UTF-8 bytes) the kernels accept: encoder records keep positions in 16 bits.
WORD_BYTES_MAX = 65_535
#: Longest token (in bytes): node lengths are kept in 8 bits.
TOKEN_BYTES_MAX = 255
#: Resident bytes per substring occurrence while the index is built (hash table included).
BYTES_PER_OCCURRENCE = 96


class Corpus(NamedTuple):
    """Words as flat UTF-8 bytes: word ``w`` is ``buf[woff[w]:woff[w + 1]]``, seen ``count[w]``
    times."""

    buf: np.ndarray  # uint8
    woff: np.ndarray  # int64, n_words + 1
    count: np.ndarray  # int64, n_words


class Candidates(NamedTuple):
    """Candidate nodes and the forward / inverted indexes over a :class:`Corpus`."""

    max_len: int  # longest candidate, bytes
    n_nodes: int  # nodes 0..255 are bytes, 256.. are candidates
    node_len: np.ndarray  # int32 per node
    node_first: np.ndarray  # int64 per node: buf position of one occurrence
    node_rank: np.ndarray  # int64 per node: tie-break rank, (length, bytes) ascending
    occ_off: np.ndarray  # int64, n_words + 1: word w's occurrences
    occ_slot: np.ndarray  # int32 per occurrence (start asc, then length asc)
    slot_off: np.ndarray  # int64, n_words + 1: word w's slots
    slot_node: np.ndarray  # int32 per slot
    slot_word: np.ndarray  # int32 per slot
    inv_off: np.ndarray  # int64, n_nodes + 1: node v's slots
    inv_slot: np.ndarray  # int32: slots, grouped by node, word ascending


class ChildMap(NamedTuple):
    """A trie's edges as an open-addressing map ``parent * 256 + byte -> child`` node.

    Slot :func:`hash_slot` ``(key, shift, keys.shape[0] - 1)`` first, then linear probing;
    ``keys[h] == -1`` marks an empty slot. Nodes ``0 … 255`` are the single bytes.
    """

    keys: np.ndarray  # int64, a power of two
    vals: np.ndarray  # int32 child node per key
    shift: int  # 64 - log2(keys.shape[0])


class NewNodes(NamedTuple):
    """Per node (written by :func:`_build_nodes`): parent node, length, one occurrence."""

    parent: np.ndarray  # int64
    length: np.ndarray  # int32
    first: np.ndarray  # int64 buf position


def pack_words(counts: Mapping[str, int], min_word_count: int = 1) -> Corpus:
    """Pack a validated table (see :func:`workbench.counts.as_counts`) into a :class:`Corpus`.

    Words seen fewer than ``min_word_count`` times are dropped. Each word is taken as its
    UTF-8 bytes.

    Raises
    ------
    ValueError
        A word that is not valid UTF-8 text (a lone surrogate) or longer than
        :data:`WORD_BYTES_MAX` bytes; total counts that would overflow 64-bit sums.

    >>> c = pack_words({"hé": 3, "a": 1}, min_word_count=2)
    >>> bytes(c.buf), c.woff.tolist(), c.count.tolist()
    (b'h\\xc3\\xa9', [0, 3], [3])
    """
    min_word_count = check_int(min_word_count, "min_word_count", minimum=1)
    raws: list[bytes] = []
    cnts: list[int] = []
    for word, cnt in counts.items():
        if cnt < min_word_count:
            continue
        try:
            raw = word.encode("utf-8")
        except UnicodeEncodeError as err:
            raise InvalidValueError(f"word {word!r:.40} is not valid text: {err.reason} at "
                                    f"position {err.start}") from None
        if len(raw) > WORD_BYTES_MAX:
            raise InvalidValueError(f"word {word[:20]!r}... has {len(raw)} bytes; the kernels "
                                    f"support words of at most {WORD_BYTES_MAX} bytes")
        raws.append(raw)
        cnts.append(cnt)
    lengths = np.fromiter((len(r) for r in raws), dtype=np.int64, count=len(raws))
    total = sum(c * len(r) for c, r in zip(cnts, raws))
    if total >= 2**62:
        raise InvalidValueError(f"counts too large: count-weighted bytes {total} overflow 64-bit "
                                "sums")
    woff = np.zeros(len(raws) + 1, dtype=np.int64)
    np.cumsum(lengths, out=woff[1:])
    buf = np.frombuffer(b"".join(raws), dtype=np.uint8).copy()
    return Corpus(buf, woff, np.asarray(cnts, dtype=np.int64).reshape(len(cnts)))


def occurrence_counts(lengths: np.ndarray, max_len: int) -> np.ndarray:
    """Substrings of length ``2 … max_len`` of a word of each length (``int64``).

    >>> occurrence_counts(np.array([1, 2, 3, 5]), 3).tolist()
    [0, 1, 3, 7]
    """
    n = np.asarray(lengths, dtype=np.int64)
    m = np.minimum(n, max_len)
    out = (m - 1) * (n + 1) - (m * (m + 1) // 2 - 1)
    return np.where(m >= 2, out, 0)


@njit(**JIT_INLINE)
def hash_slot(key, shift, mask):
    """Open-addressing start slot of a non-negative ``key`` (Fibonacci hashing)."""
    h = (np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(shift)
    return np.int64(h) & mask


@njit(**JIT)
def _build_nodes(corpus, max_len, children, nodes, occ_node):
    """Give every distinct substring (length 2..max_len) a node id; ``occ_node`` in order.

    ``children`` (a :class:`ChildMap`, empty on entry) receives the trie's edges, ``nodes``
    (a :class:`NewNodes`) each new node's parent, length and first occurrence.
    """
    buf, woff = corpus.buf, corpus.woff
    keys, vals, shift = children.keys, children.vals, children.shift
    node_parent, node_len, node_first = nodes.parent, nodes.length, nodes.first
    mask = keys.shape[0] - 1
    n_nodes = 256
    o = 0
    for w in range(woff.shape[0] - 1):
        base = woff[w]
        n = woff[w + 1] - base
        for i in range(n):
            m = min(max_len, n - i)
            node = np.int64(buf[base + i])
            for ell in range(2, m + 1):
                key = node * 256 + np.int64(buf[base + i + ell - 1])
                h = hash_slot(key, shift, mask)
                while True:
                    k = keys[h]
                    if k == key:
                        node = np.int64(vals[h])
                        break
                    if k == -1:
                        keys[h] = key
                        vals[h] = n_nodes
                        node_parent[n_nodes] = node
                        node_len[n_nodes] = ell
                        node_first[n_nodes] = base + i
                        node = np.int64(n_nodes)
                        n_nodes += 1
                        break
                    h = (h + 1) & mask
                occ_node[o] = node
                o += 1
    return n_nodes


@njit(**JIT)
def _assign_slots(occ_off, occ, n_nodes, slot_node, slot_word, slot_off):
    """Turn ``occ`` (node per occurrence) into slot ids in place; one slot per word and node."""
    seen_word = np.full(n_nodes, -1, dtype=np.int64)
    seen_slot = np.zeros(n_nodes, dtype=np.int32)
    n_slots = 0
    n_words = occ_off.shape[0] - 1
    for w in range(n_words):
        slot_off[w] = n_slots
        for o in range(occ_off[w], occ_off[w + 1]):
            node = occ[o]
            if seen_word[node] != w:
                seen_word[node] = w
                seen_slot[node] = n_slots
                slot_node[n_slots] = node
                slot_word[n_slots] = w
                n_slots += 1
            occ[o] = seen_slot[node]
    slot_off[n_words] = n_slots
    return n_slots


@njit(**JIT)
def _invert(slot_node, n_nodes, inv_off, inv_slot):
    """Counting sort of the slots by node (stable: words stay ascending)."""
    for s in range(slot_node.shape[0]):
        inv_off[slot_node[s] + 1] += 1
    for v in range(n_nodes):
        inv_off[v + 1] += inv_off[v]
    fill = inv_off[:-1].copy()
    for s in range(slot_node.shape[0]):
        v = slot_node[s]
        inv_slot[fill[v]] = s
        fill[v] += 1


def _node_ranks(buf: np.ndarray, node_parent: np.ndarray, node_len: np.ndarray,
                node_first: np.ndarray) -> np.ndarray:
    """Rank of every node by (length, bytes); equal lengths compare by (parent rank, last byte)."""
    n_nodes = node_len.shape[0]
    last = np.arange(n_nodes, dtype=np.int64)
    last[256:] = buf[node_first[256:] + node_len[256:] - 1]
    rank = np.empty(n_nodes, dtype=np.int64)
    rank[:256] = np.arange(256)
    order = np.argsort(node_len, kind="stable")
    bounds = np.searchsorted(node_len[order], np.arange(1, int(node_len.max(initial=1)) + 2))
    for d in range(2, len(bounds)):
        group = order[bounds[d - 1]:bounds[d]]
        keys = rank[node_parent[group]] * 256 + last[group]
        rank[group[np.argsort(keys)]] = bounds[d - 1] + np.arange(group.shape[0])
    return rank


def build_candidates(corpus: Corpus, max_token_length: int) -> Candidates:
    """Index every substring of length ``2 … max_token_length`` of the corpus words.

    Raises
    ------
    BudgetError
        If the index would exceed the memory budget (checked before allocating).
    """
    max_len = check_int(max_token_length, "max_token_length", minimum=2,
                        maximum=TOKEN_BYTES_MAX, why=" (token lengths are kept in 8 bits)")
    lengths = np.diff(corpus.woff)
    per_word = occurrence_counts(lengths, max_len)
    n_occ = int(per_word.sum())
    check_budget(n_occ * BYTES_PER_OCCURRENCE, f"the candidate index ({n_occ:,} substrings)")
    if n_occ >= 2**31 - 256:
        raise InvalidValueError(f"{n_occ:,} substring occurrences exceed the 32-bit node ids")
    occ_off = np.zeros(lengths.shape[0] + 1, dtype=np.int64)
    np.cumsum(per_word, out=occ_off[1:])
    cap_nodes = 256 + n_occ
    bits = max(4, int(np.ceil(np.log2(1.5 * cap_nodes + 1))))
    keys = np.full(1 << bits, -1, dtype=np.int64)
    vals = np.empty(1 << bits, dtype=np.int32)
    node_parent = np.zeros(cap_nodes, dtype=np.int64)
    node_len = np.ones(cap_nodes, dtype=np.int32)
    node_first = np.zeros(cap_nodes, dtype=np.int64)
    occ = np.empty(n_occ, dtype=np.int32)
    n_nodes = int(_build_nodes(corpus, max_len, ChildMap(keys, vals, 64 - bits),
                               NewNodes(node_parent, node_len, node_first), occ))
    del keys, vals
    node_parent = node_parent[:n_nodes].copy()
    node_len = node_len[:n_nodes].copy()
    node_first = node_first[:n_nodes].copy()
    slot_node = np.empty(n_occ, dtype=np.int32)
    slot_word = np.empty(n_occ, dtype=np.int32)
    slot_off = np.empty(lengths.shape[0] + 1, dtype=np.int64)
    n_slots = int(_assign_slots(occ_off, occ, n_nodes, slot_node, slot_word, slot_off))
    slot_node = slot_node[:n_slots].copy()
    slot_word = slot_word[:n_slots].copy()
    inv_off = np.zeros(n_nodes + 1, dtype=np.int64)
    inv_slot = np.empty(n_slots, dtype=np.int32)
    _invert(slot_node, n_nodes, inv_off, inv_slot)
    rank = _node_ranks(corpus.buf, node_parent, node_len, node_first)
    return Candidates(max_len, n_nodes, node_len, node_first, rank, occ_off, occ, slot_off,
                      slot_node, slot_word, inv_off, inv_slot)


def node_bytes(corpus: Corpus, cands: Candidates, node: int) -> bytes:
    """The bytes a node spells (a single byte for ``node < 256``).

    >>> corpus = pack_words({"xyz": 1})
    >>> node_bytes(corpus, build_candidates(corpus, 3), 257)
    b'xyz'
    """
    if node < 256:
        return bytes([node])
    start = int(cands.node_first[node])
    return corpus.buf[start:start + int(cands.node_len[node])].tobytes()
