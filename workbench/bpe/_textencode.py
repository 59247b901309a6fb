"""One numba pass from text to BPE ids: pretokenise, UTF-8, stop words, merges.

:class:`TextEncoder` holds the tables of one model (merge ranks, stop words) and encodes
texts with the kernels of this module: the chunk matcher of :mod:`workbench.bpe.split` cuts
code points into chunks, each chunk is written out as UTF-8 byte symbols and merged by
rank (lowest rank, leftmost occurrence first: the order of
:func:`workbench.bpe._encode.encode_chunks` and of tiktoken), ids go straight into an
``int32`` array. A direct-mapped cache of recent short chunks (``CACHE_SLOTS`` slots,
chunks of at most ``CACHE_KEY`` bytes) skips the merges of frequent words; it never
changes ids, only time.

Streaming: a long text is encoded in windows of about ``WINDOW`` code points that end at
*safe cuts* (between a non-space and a space other than ``\\r``/``\\n``, where every chunk
of both patterns ends and the chunking of what follows does not depend on what precedes),
so memory stays at the window's code points plus the output ids. A text with no safe cut
is one window. Batches of short texts are joined into windows of the same size, so one
kernel call encodes many texts; :meth:`TextEncoder.encode_batch` runs windows on several
threads (the kernel releases the GIL).

This module does not do BPE-dropout (see :mod:`workbench.bpe._encode`), does not train,
and does not check arguments beyond what its callers in :mod:`workbench.bpe.model` pass.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np
import regex
from numba import njit

from .._core.config import JIT, JIT_INLINE
from .._core.errors import InvalidValueError
from .._core.validate import check_budget
from ._encode import _encode_heap, _rank, build_merge_table
from .split import chunk_end, class_table

#: Code points per window (streaming unit and unit of parallel work).
WINDOW = 1 << 18
#: Slots of the per-call chunk cache (a power of two).
CACHE_SLOTS = 1 << 16
#: Longest chunk (UTF-8 bytes) the cache keeps.
CACHE_KEY = 24
#: Most ids of a cached chunk.
CACHE_IDS = 8
#: Chunks up to this many bytes are merged by linear scans, longer ones with a heap.
_SHORT = 96

# Safe cuts (module docstring): between \S and whitespace that is not a line break.
_CUT = regex.compile(r"(?<=\S)(?=[^\S\r\n])")

_MUL = np.uint64(0x9E3779B97F4A7C15)
_FNV = np.uint64(0xCBF29CE484222325)
_FNV_P = np.uint64(0x100000001B3)


# --------------------------------------------------------------------------- records
class Model(NamedTuple):
    """One model's encoding tables, as the kernel takes them."""

    table: np.ndarray       # code point -> class (workbench.bpe.split.class_table)
    gpt4: bool              # the GPT-4 pattern (else GPT-2)
    ranks: np.ndarray       # merge ranks (_encode.build_merge_table)
    n_stop: int             # stop words (ids 256 .. 256 + n_stop - 1)
    stop_table: np.ndarray  # stop words by hash (_build_stop)
    stop_flat: np.ndarray   # stop words' bytes, concatenated
    stop_offs: np.ndarray   # offsets into stop_flat


class ChunkCache(NamedTuple):
    """A direct-mapped cache of recent short chunks (per thread, per call)."""

    hashes: np.ndarray  # uint64 hash of each slot's chunk
    lengths: np.ndarray  # the chunk's bytes (-1: empty slot)
    keys: np.ndarray    # the chunk's bytes
    ids: np.ndarray     # its ids
    n_ids: np.ndarray   # how many ids


# --------------------------------------------------------------------------- tables
@njit(**JIT_INLINE)
def _hash_bytes(buf, length):
    h = _FNV
    for k in range(length):
        h = (h ^ np.uint64(buf[k])) * _FNV_P
    return h


@njit(**JIT)
def _build_stop(flat, offsets):
    """Open-addressing table ``hash -> stop index`` (``int64[2 * cap]``, -1 empty)."""
    n = offsets.shape[0] - 1
    cap = 16
    while cap < 2 * (n + 1):
        cap *= 2
    table = np.full(2 * cap, -1, dtype=np.int64)
    mask = cap - 1
    for s in range(n):
        length = offsets[s + 1] - offsets[s]
        h = _hash_bytes(flat[offsets[s]:], length)
        i = np.int64(h >> np.uint64(8)) & mask
        while table[2 * i] != -1:
            i = (i + 1) & mask
        table[2 * i] = np.int64(h >> np.uint64(1))
        table[2 * i + 1] = s
    return table


@njit(**JIT_INLINE)
def _find_stop(table, flat, offsets, buf, length, h):
    mask = (table.shape[0] >> 1) - 1
    key = np.int64(h >> np.uint64(1))
    i = np.int64(h >> np.uint64(8)) & mask
    while table[2 * i] != -1:
        if table[2 * i] == key:
            s = table[2 * i + 1]
            a = offsets[s]
            if offsets[s + 1] - a == length:
                same = True
                for k in range(length):
                    if flat[a + k] != buf[k]:
                        same = False
                        break
                if same:
                    return s
        i = (i + 1) & mask
    return -1


# --------------------------------------------------------------------------- merging
@njit(**JIT_INLINE)
def _merge_short(buf, length, ranks, pr):
    """Lowest rank, leftmost first, in ``O(L^2)`` scans without hashing per scan."""
    if length < 2:
        return length
    for i in range(length - 1):
        pr[i] = _rank(ranks, buf[i], buf[i + 1])
    while length > 1:
        best = np.int64(-1)
        at = -1
        for i in range(length - 1):
            r = pr[i]
            if r >= 0 and (at < 0 or r < best):
                best = r
                at = i
        if at < 0:
            break
        buf[at] = 256 + best
        for i in range(at + 1, length - 1):
            buf[i] = buf[i + 1]
            pr[i] = pr[i + 1]
        length -= 1
        if at + 1 < length:
            pr[at] = _rank(ranks, buf[at], buf[at + 1])
        if at > 0:
            pr[at - 1] = _rank(ranks, buf[at - 1], buf[at])
    return length


@njit(**JIT_INLINE)
def _utf8(cps, a, b, buf):
    """Write the UTF-8 bytes of ``cps[a:b]`` into ``buf``; return the length."""
    w = 0
    for i in range(a, b):
        c = cps[i]
        if c < 0x80:
            buf[w] = c
            w += 1
        elif c < 0x800:
            buf[w] = 0xC0 | (c >> 6)
            buf[w + 1] = 0x80 | (c & 0x3F)
            w += 2
        elif c < 0x10000:
            buf[w] = 0xE0 | (c >> 12)
            buf[w + 1] = 0x80 | ((c >> 6) & 0x3F)
            buf[w + 2] = 0x80 | (c & 0x3F)
            w += 3
        else:
            buf[w] = 0xF0 | (c >> 18)
            buf[w + 1] = 0x80 | ((c >> 12) & 0x3F)
            buf[w + 2] = 0x80 | ((c >> 6) & 0x3F)
            buf[w + 3] = 0x80 | (c & 0x3F)
            w += 4
    return w


@njit(**JIT)
def encode_units(cps, starts, model, cache):  # noqa: C901, PLR0915  (numba kernel)
    """Encode unit ``u`` = ``cps[starts[u]:starts[u + 1]]`` for every ``u`` (no chunk crosses
    a unit boundary).

    Returns ``(ids, id_starts, bad)``: unit ``u``'s ids are ``ids[id_starts[u]:id_starts[u+1]]``;
    ``bad`` is the index of the first lone surrogate (then nothing is encoded), else -1. Ids
    ``>= 256`` of merges are shifted by ``n_stop``; stop word ``s`` is ``256 + s``.
    """
    table, gpt4, ranks = model.table, model.gpt4, model.ranks
    n_stop, stop_table = model.n_stop, model.stop_table
    stop_flat, stop_offs = model.stop_flat, model.stop_offs
    c_hash, c_len, c_key, c_ids, c_n = cache.hashes, cache.lengths, cache.keys, cache.ids, \
        cache.n_ids
    n = cps.shape[0]
    m = starts.shape[0] - 1
    id_starts = np.zeros(m + 1, dtype=np.int64)
    n_bytes = 0
    for i in range(n):
        c = cps[i]
        if 0xD800 <= c <= 0xDFFF:
            return np.zeros(0, dtype=np.int32), id_starts, i
        n_bytes += 1 if c < 0x80 else (2 if c < 0x800 else (3 if c < 0x10000 else 4))
    out = np.empty(n_bytes, dtype=np.int32)
    buf = np.empty(max(64, 4 * _SHORT), dtype=np.int32)
    pr = np.empty(buf.shape[0], dtype=np.int64)
    slot_mask = np.uint64(c_len.shape[0] - 1)
    key_max = c_key.shape[1]
    ids_max = c_ids.shape[1]
    w = 0
    for u in range(m):
        i = starts[u]
        stop = starts[u + 1]
        while i < stop:
            e = chunk_end(cps, i, stop, table, gpt4)
            if 4 * (e - i) > buf.shape[0]:
                buf = np.empty(4 * (e - i), dtype=np.int32)
            length = _utf8(cps, i, e, buf)
            i = e
            h = _hash_bytes(buf, length)
            if n_stop > 0:
                s = _find_stop(stop_table, stop_flat, stop_offs, buf, length, h)
                if s >= 0:
                    out[w] = 256 + s
                    w += 1
                    continue
            cacheable = length <= key_max
            slot = np.int64(0)
            key_len = length
            if cacheable:
                slot = np.int64((h * _MUL) >> np.uint64(40) & slot_mask)
                if c_len[slot] == length and c_hash[slot] == h:
                    same = True
                    for k in range(length):
                        if c_key[slot, k] != buf[k]:
                            same = False
                            break
                    if same:
                        for k in range(c_n[slot]):
                            out[w + k] = c_ids[slot, k]
                        w += c_n[slot]
                        continue
                for k in range(length):
                    c_key[slot, k] = buf[k]
            if length <= _SHORT:
                length = _merge_short(buf, length, ranks, pr)
            else:
                length = _encode_heap(buf, length, ranks)
            for k in range(length):
                x = buf[k]
                out[w + k] = x + n_stop if x >= 256 else x
            if cacheable:
                if length <= ids_max:
                    c_hash[slot] = h
                    c_len[slot] = key_len
                    c_n[slot] = length
                    for k in range(length):
                        c_ids[slot, k] = out[w + k]
                else:
                    c_len[slot] = -1
            w += length
        id_starts[u + 1] = w
    return out[:w].copy(), id_starts, np.int64(-1)


# --------------------------------------------------------------------------- driver
def _new_cache() -> ChunkCache:
    return ChunkCache(np.zeros(CACHE_SLOTS, dtype=np.uint64),
                      np.full(CACHE_SLOTS, -1, dtype=np.int64),
                      np.empty((CACHE_SLOTS, CACHE_KEY), dtype=np.uint8),
                      np.empty((CACHE_SLOTS, CACHE_IDS), dtype=np.int32),
                      np.zeros(CACHE_SLOTS, dtype=np.int64))


def _pieces(text: str, window: int) -> Iterator[tuple[str, int]]:
    """``text`` cut at safe cuts into pieces of about ``window`` code points (or more), each
    with its offset in ``text``; lazily, so only one piece is copied at a time."""
    start = 0
    while len(text) - start > window:
        match = _CUT.search(text, start + window)
        if match is None:
            break
        yield text[start:match.start()], start
        start = match.start()
    yield (text[start:], start) if start else (text, 0)


class TextEncoder:
    """Encode text with one model's merges and stop words (see the module docstring).

    Parameters
    ----------
    sym_merges : numpy.ndarray of int64, shape (k, 2)
        The symbols merge ``j`` joins (bytes ``0..255``, merge ``j`` makes ``256 + j``).
    stop_words : list of bytes
        Whole-chunk tokens (id ``256 + i``); merge ids are shifted past them.
    pattern : {"gpt4", "gpt2"}
        The split pattern.
    """

    def __init__(self, sym_merges: np.ndarray, stop_words: list[bytes], pattern: str) -> None:
        self.gpt4 = pattern == "gpt4"
        self.table = class_table()
        self.ranks = build_merge_table(np.ascontiguousarray(sym_merges, dtype=np.int64))
        self.n_stop = len(stop_words)
        offs = np.zeros(len(stop_words) + 1, dtype=np.int64)
        np.cumsum([len(w) for w in stop_words], out=offs[1:])
        self.stop_flat = np.frombuffer(b"".join(stop_words), dtype=np.uint8).astype(np.int32)
        self.stop_offs = offs
        self.stop_table = _build_stop(self.stop_flat, offs)
        self.model = Model(self.table, self.gpt4, self.ranks, self.n_stop, self.stop_table,
                           self.stop_flat, self.stop_offs)

    def _run(self, pieces: list[str], cache, origins: list[tuple[int, int]] | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
        """Encode ``pieces`` in one kernel call; ``origins[j]`` = (text, offset) of piece ``j``
        (None: one text)."""
        joined = "".join(pieces)
        cps = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        starts = np.zeros(len(pieces) + 1, dtype=np.int64)
        np.cumsum([len(p) for p in pieces], out=starts[1:])
        ids, id_starts, bad = encode_units(cps, starts, self.model, cache)
        if bad >= 0:
            j = int(np.searchsorted(starts, bad, side="right")) - 1
            text, offset = origins[j] if origins is not None else (None, 0)
            where = "" if text is None else f" of text {text}"
            raise InvalidValueError(
                f"text holds a lone surrogate U+{int(cps[bad]):04X} at position "
                f"{int(bad - starts[j]) + offset}{where}; it has no UTF-8 bytes (encode it as "
                "text.encode('utf-8', 'surrogatepass') upstream or remove it)")
        return ids, id_starts

    def encode_array(self, text: str, window: int = WINDOW) -> np.ndarray:
        """Ids of one text as ``int32``, streamed window by window.

        The result is written into one array sized for the worst case (one id per UTF-8
        byte; pages never written stay unallocated) and shrunk in place at the end, so the
        peak is the ids plus one window, not two copies of the ids.
        """
        cap = len(text) if text.isascii() else 4 * len(text)  # >= UTF-8 bytes >= ids
        check_budget(4 * cap + 16 * min(len(text), window), f"encoding {len(text):,} "
                     "characters")
        cache = _new_cache()
        out = np.empty(cap, dtype=np.int32)
        w = 0
        for piece, at in _pieces(text, window):
            ids = self._run([piece], cache, [(None, at)])[0]
            out[w:w + ids.size] = ids
            w += ids.size
            del ids
        out.resize((w,), refcheck=False)
        return out

    def encode(self, text: str, window: int = WINDOW) -> list[int]:
        """Ids of one text as a list, streamed window by window."""
        check_budget(8 * min(len(text), window) + 4 * len(text), f"encoding {len(text):,} "
                     "characters")
        cache = _new_cache()
        out: list[int] = []
        for piece, at in _pieces(text, window):
            out.extend(self._run([piece], cache, [(None, at)])[0].tolist())
        return out

    def encode_batch(self, texts: list[str], threads: int = 1,
                     window: int = WINDOW) -> list[list[int]]:
        """Ids of many texts; windows of joined texts run on ``threads`` threads."""
        total = sum(len(t) for t in texts)
        check_budget(8 * min(total, window) * threads + 4 * total,
                     f"encoding {total:,} characters")
        groups: list[tuple[list[str], list[tuple[int, int]]]] = []
        pieces: list[str] = []
        owners: list[tuple[int, int]] = []
        size = 0
        for k, text in enumerate(texts):
            for piece, at in _pieces(text, window):
                pieces.append(piece)
                owners.append((k, at))
                size += len(piece)
                if size >= window:
                    groups.append((pieces, owners))
                    pieces, owners, size = [], [], 0
        if pieces:
            groups.append((pieces, owners))
        out: list[list[int]] = [[] for _ in texts]

        def work(chunk_of_groups):
            cache = _new_cache()
            return [self._run(g[0], cache, g[1]) for g in chunk_of_groups]

        if threads <= 1 or len(groups) <= 1:
            results = work(groups)
        else:
            # Round-robin groups over the threads, each with its own cache.
            shares = [groups[t::threads] for t in range(threads)]
            with ThreadPoolExecutor(threads) as pool:
                parts = list(pool.map(work, shares))
            results = [None] * len(groups)
            for t, part in enumerate(parts):
                results[t::threads] = part
        for (_, group_owners), (ids, id_starts) in zip(groups, results):
            flat = ids.tolist()
            bounds = id_starts.tolist()
            for j, (k, _) in enumerate(group_owners):
                out[k].extend(flat[bounds[j]:bounds[j + 1]])
        return out
