"""Plain BPE of a short text in plain Python, for a process's first :meth:`BPEModel.encode`.

A fresh process that calls a numba kernel first pays for numba itself (importing it and
loading the cached kernels: about half a second on two cores), a thousand times what
encoding ``"hello world"`` costs. So while numba is not loaded in the process,
:meth:`workbench.bpe.BPEModel.encode` runs a small text (:func:`applies`) here: the text
is cut by the model's compiled pattern (:func:`.split_patterns.split_with_gaps`, which is
``regex.findall`` for the named patterns, what the numba pretokeniser returns), a chunk
equal to a stop word is that word, and every other chunk's UTF-8 bytes are merged as
:func:`._encode._encode_heap` merges them: a heap of ``(rank, position)`` with lazy
deletion over a linked list, lowest rank first, leftmost first. Same ids, bit for bit
(``tests/bpe/test_interpreted.py`` compares both routes on generated models and texts,
and a fresh process on GPT-2).

What this module does not do: decide for the caller (:func:`applies` is the rule, the model
applies it), BPE-dropout, user patterns, validate arguments (the model does).

Example
-------
>>> import numpy as np
>>> ranks = pair_ranks(np.array([[97, 98], [256, 99]]))  # a+b -> 256, ab+c -> 257
>>> merge_chunk(b"abcab", ranks)
[257, 256]
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Sequence

import numpy as np

#: Largest text (in characters) encoded here: at most ~4 UTF-8 bytes each, a few µs of
#: Python per byte, so well under what loading numba costs.
MAX_CHARS = 10_000


def applies(text: str) -> bool:
    """Should this text be encoded here? (numba not loaded, at most :data:`MAX_CHARS`).

    >>> applies("hello world") == ("numba" not in sys.modules)
    True
    """
    return "numba" not in sys.modules and len(text) <= MAX_CHARS


def pair_ranks(sym_merges: np.ndarray) -> dict[int, int]:
    """``left << 32 | right -> k`` for merge ``k`` joining symbols ``left`` and ``right``.

    ``sym_merges`` is the model's ``(n, 2)`` symbol array: byte ``b`` is ``b``, merge ``k``
    makes ``256 + k`` (the packed key of the kernels' merge table).
    """
    sym = np.asarray(sym_merges, dtype=np.int64).reshape(-1, 2)
    return dict(zip(((sym[:, 0] << 32) | sym[:, 1]).tolist(), range(sym.shape[0])))


def merge_chunk(chunk: bytes, ranks: dict[int, int]) -> list[int]:
    """The symbols of one chunk after plain BPE (``_encode_heap``'s order, in Python)."""
    buf = list(chunk)
    length = len(buf)
    if length < 2:
        return buf
    nxt = list(range(1, length + 1))
    nxt[-1] = -1
    prv = list(range(-1, length - 1))
    get = ranks.get
    heap = []
    for i in range(length - 1):
        r = get(buf[i] << 32 | buf[i + 1])
        if r is not None:
            heap.append((r, i))
    heapq.heapify(heap)
    while heap:
        r, i = heapq.heappop(heap)
        j = nxt[i]
        if buf[i] < 0 or j < 0 or get(buf[i] << 32 | buf[j]) != r:
            continue  # stale: a neighbour changed since this pair was pushed
        buf[i] = 256 + r
        buf[j] = -1
        k = nxt[j]
        nxt[i] = k
        if k >= 0:
            prv[k] = i
            r2 = get(buf[i] << 32 | buf[k])
            if r2 is not None:
                heapq.heappush(heap, (r2, i))
        h = prv[i]
        if h >= 0:
            r2 = get(buf[h] << 32 | buf[i])
            if r2 is not None:
                heapq.heappush(heap, (r2, h))
    return [s for s in buf if s >= 0]


def encode_chunks(chunks: Sequence[str], ranks: dict[int, int],
                  stop: dict[bytes, int]) -> list[int]:
    """Kernel symbols of the chunks, in order: a stop word's bytes give ``256 + s`` (its
    index), merge symbols ``>= 256`` are shifted past the stop words, as
    :func:`._textencode.encode_units` writes them. Chunks must have UTF-8 bytes."""
    n_stop = len(stop)
    out: list[int] = []
    for chunk in chunks:
        raw = chunk.encode("utf-8")
        s = stop.get(raw)
        if s is not None:
            out.append(256 + s)
            continue
        out.extend(x + n_stop if x >= 256 else x for x in merge_chunk(raw, ranks))
    return out
