"""A character trie compiled into flat NumPy arrays for numba kernels.

Edges live in an open-addressing hash table keyed on ``(parent_node << 21) | code_point``
(code points are below 2**21), so a walk from node 0 along a word costs one probe per
character. ``terminal[node]`` is the id of the token spelled by the path to ``node``, or -1.

This module knows nothing about alphabets, files or sampling; :mod:`workbench.vocabulary`
builds tries (one forward, one over reversed tokens) and :mod:`workbench.lattice` walks them.

Example
-------
>>> t = build_trie(["ab", "a"], [7, 3])
>>> import numpy as np
>>> int(t.terminal[step(t.keys, t.vals, t.mask, t.root, 0, ord("a"))])
3
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ._config import JIT


class Trie(NamedTuple):
    keys: np.ndarray  # int64[capacity], -1 = empty slot
    vals: np.ndarray  # int32[capacity], child node of the edge
    mask: np.int64  # capacity - 1 (capacity is a power of two)
    terminal: np.ndarray  # int32[n_nodes], token id or -1
    max_len: int  # longest token, in code points
    root: np.ndarray  # int32[R]: child of the root along code point cp < R, or -1


_ROOT_MAX = 1 << 16  # the root's direct table covers the Basic Multilingual Plane at most
_FIB = np.uint64(0x9E3779B97F4A7C15)


@njit(**JIT)
def _slot(key: np.int64, mask: np.int64) -> np.int64:
    # Fibonacci hashing: one multiply; the high bits are the well-mixed ones
    return np.int64(((np.uint64(key) * _FIB) >> np.uint64(32)) & np.uint64(mask))


@njit(**JIT)
def child(keys, vals, mask, node, cp) -> np.int64:
    """Child of ``node`` along code point ``cp``, or -1."""
    key = (np.int64(node) << 21) | np.int64(cp)
    h = _slot(key, mask)
    while True:
        k = keys[h]
        if k == key:
            return np.int64(vals[h])
        if k == -1:
            return np.int64(-1)
        h = (h + 1) & mask


@njit(**JIT)
def step(keys, vals, mask, root, node, cp) -> np.int64:
    """:func:`child`, with the root's children read from a direct table when possible."""
    if node == 0 and cp < root.shape[0]:
        return np.int64(root[cp])
    return child(keys, vals, mask, node, cp)


@njit(**JIT)
def _fill(edge_keys, edge_vals, keys, vals, mask):
    for e in range(edge_keys.shape[0]):
        key = edge_keys[e]
        h = _slot(key, mask)
        while keys[h] != -1:
            h = (h + 1) & mask
        keys[h] = key
        vals[h] = edge_vals[e]


def build_trie(tokens: list[str], ids: list[int] | np.ndarray) -> Trie:
    """Compile ``tokens`` (with their ``ids``) into a :class:`Trie`."""
    edges: dict[int, int] = {}
    terminal = [-1]
    max_len = 0
    for tok, tid in zip(tokens, ids):
        node = 0
        for ch in tok:
            key = (node << 21) | ord(ch)
            nxt = edges.get(key)
            if nxt is None:
                nxt = len(terminal)
                edges[key] = nxt
                terminal.append(-1)
            node = nxt
        terminal[node] = int(tid)
        max_len = max(max_len, len(tok))
    capacity = 1 << max(4, (2 * len(edges) + 1).bit_length())
    keys = np.full(capacity, -1, dtype=np.int64)
    vals = np.zeros(capacity, dtype=np.int32)
    mask = np.int64(capacity - 1)
    if edges:
        _fill(
            np.fromiter(edges.keys(), dtype=np.int64, count=len(edges)),
            np.fromiter(edges.values(), dtype=np.int32, count=len(edges)),
            keys,
            vals,
            mask,
        )
    root_cps = [key & 0x1FFFFF for key in edges if key >> 21 == 0]
    root = np.full(min(max(root_cps, default=-1) + 1, _ROOT_MAX), -1, dtype=np.int32)
    for cp in root_cps:
        if cp < root.shape[0]:
            root[cp] = edges[cp]
    return Trie(keys, vals, mask, np.asarray(terminal, dtype=np.int32), max_len, root)
