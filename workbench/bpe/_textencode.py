"""One numba pass from text to BPE ids: pretokenise, UTF-8, stop words, merges.

:class:`TextEncoder` holds the tables of one model (merge ranks, stop words, the model's id of
each kernel symbol) and encodes texts with the kernels of this module: the chunk matcher of
:mod:`workbench.bpe.split` cuts code points into chunks, each chunk is written out as UTF-8
byte symbols and merged by rank (lowest rank, leftmost occurrence first: the order of
:func:`workbench.bpe._encode.encode_chunks` and of tiktoken), ids go straight into an
``int32`` array.

**The chunk cache** skips the merges of frequent chunks; it never changes ids, only time. It
is direct-mapped, ``2 ** CACHE_BITS`` rows of 32 bytes, one per thread and call: a row holds
a chunk of at most ``CACHE_KEY`` UTF-8 bytes as two 64-bit words (compared exactly, never by
hash alone), its length, and up to ``CACHE_IDS`` ids of 24 bits (a model whose kernel ids do
not fit in 24 bits encodes without the cache). Chunks are cut ``_BATCH`` at a time before
their rows are read, so the reads of one batch overlap in memory instead of waiting one by
one (measured: about 8% of the kernel's time on 11 MB). Stop words are found on a cache miss
and cached like any chunk.

**Lists.** A list of ids is built by taking Python ``int`` objects from a table of the model's
ids (``objects[symbols].tolist()``), which shares one object per id instead of creating one
per position: 1.8x faster than ``ndarray.tolist`` on 3.1 M ids.

Streaming: a long text is encoded in windows of about ``WINDOW`` code points that end at
*safe cuts* (between a non-space and a space other than ``\\r``/``\\n``, where every chunk
of both patterns ends and the chunking of what follows does not depend on what precedes),
written straight into the caller's output array, so memory stays at the window's code points
plus the output ids. A text with no safe cut is one window. Batches of short texts are joined
into windows of the same size, so one kernel call encodes many texts;
:meth:`TextEncoder.encode_batch` runs windows on several threads (the kernel releases the
GIL).

This module does not do BPE-dropout (see :mod:`workbench.bpe._dropout`), does not train,
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
#: The per-call chunk cache has ``2 ** CACHE_BITS`` rows of 32 bytes (4 MiB).
CACHE_BITS = 17
#: Longest chunk (UTF-8 bytes) the cache keeps (two 64-bit words).
CACHE_KEY = 16
#: Most ids of a cached chunk.
CACHE_IDS = 4
#: Kernel ids the cache can hold (24 bits each).
CACHE_ID_LIMIT = 1 << 24
#: Chunks up to this many bytes are merged by linear scans, longer ones with a heap.
_SHORT = 96
#: Chunks cut before their cache rows are read.
_BATCH = 32
#: 64-bit words per cache row.
_ROW = 4

# Safe cuts (module docstring): between \S and whitespace that is not a line break.
_CUT = regex.compile(r"(?<=\S)(?=[^\S\r\n])")

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_FNV = np.uint64(0xCBF29CE484222325)
_FNV_P = np.uint64(0x100000001B3)
_ID = np.uint64(0xFFFFFF)


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
    cached: bool            # kernel ids fit the cache's 24 bits


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
    """Write the UTF-8 bytes of ``cps[a:b]`` into ``buf``; return the length (-1: a lone
    surrogate, which has none)."""
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
            if 0xD800 <= c <= 0xDFFF:
                return -1
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


@njit(**JIT_INLINE)
def _key(buf, length):
    """The first 16 bytes of ``buf[:length]`` as two little-endian 64-bit words."""
    k0 = np.uint64(0)
    k1 = np.uint64(0)
    for k in range(min(length, 8)):
        k0 |= np.uint64(buf[k]) << np.uint64(8 * k)
    for k in range(8, min(length, 16)):
        k1 |= np.uint64(buf[k]) << np.uint64(8 * (k - 8))
    return k0, k1


@njit(**JIT_INLINE)
def _keep(cache, slot, k0, k1, length, out, w, cnt):
    """Write the chunk ``(k0, k1, length)`` and its ids ``out[w:w + cnt]`` to its row."""
    v0 = np.uint64(out[w])
    v1 = np.uint64(out[w + 1]) if cnt > 1 else np.uint64(0)
    v2 = np.uint64(out[w + 2]) if cnt > 2 else np.uint64(0)
    v3 = np.uint64(out[w + 3]) if cnt > 3 else np.uint64(0)
    cache[slot] = k0
    cache[slot + 1] = k1
    cache[slot + 2] = (np.uint64(length) | (np.uint64(cnt) << np.uint64(5))
                       | (v0 << np.uint64(8)) | (v1 << np.uint64(32)))
    cache[slot + 3] = v2 | (v3 << np.uint64(24))


@njit(**JIT)
def encode_units(cps, starts, model, cache, out, w, id_starts):  # noqa: C901, PLR0915  (numba kernel)
    """Encode unit ``u`` = ``cps[starts[u]:starts[u + 1]]`` for every ``u`` into ``out[w:]``
    (no chunk crosses a unit boundary; ``out`` has room for one id per UTF-8 byte).

    Unit ``u``'s ids are ``out[id_starts[u]:id_starts[u + 1]]`` (``id_starts`` has ``m + 1``
    entries and is filled here). Returns ``(end, bad)``: the end of the ids written, and the
    index of the first lone surrogate (then the ids are incomplete), else -1. Ids ``>= 256``
    of merges are shifted by ``n_stop``; stop word ``s`` is ``256 + s``.
    """
    table, gpt4, ranks = model.table, model.gpt4, model.ranks
    n_stop, stop_table = model.n_stop, model.stop_table
    stop_flat, stop_offs = model.stop_flat, model.stop_offs
    bits = 0
    while (_ROW << bits) < cache.shape[0]:
        bits += 1
    shift = np.uint64(64 - bits)
    m = starts.shape[0] - 1
    buf = np.empty(max(64, 4 * _SHORT), dtype=np.int32)
    pr = np.empty(buf.shape[0], dtype=np.int64)
    at = np.empty(_BATCH + 1, dtype=np.int64)       # chunk q is cps[at[q]:at[q + 1]]
    lens = np.empty(_BATCH, dtype=np.int64)         # its UTF-8 length
    key0 = np.empty(_BATCH, dtype=np.uint64)        # its key words
    key1 = np.empty(_BATCH, dtype=np.uint64)
    slots = np.empty(_BATCH, dtype=np.int64)        # its cache row (-1: not cacheable)
    id_starts[0] = w
    for u in range(m):
        i = starts[u]
        stop = starts[u + 1]
        while i < stop:
            # Cut a batch of chunks, with their bytes' keys and rows.
            nb = 0
            at[0] = i
            while nb < _BATCH and i < stop:
                e = chunk_end(cps, i, stop, table, gpt4)
                if 4 * (e - i) > buf.shape[0]:
                    buf = np.empty(4 * (e - i), dtype=np.int32)
                length = _utf8(cps, i, e, buf)
                if length < 0:
                    for k in range(i, e):
                        if 0xD800 <= cps[k] <= 0xDFFF:
                            return w, k
                lens[nb] = length
                slots[nb] = -1
                if length <= CACHE_KEY and model.cached:
                    k0, k1 = _key(buf, length)
                    key0[nb] = k0
                    key1[nb] = k1
                    h = (k0 * _M1) ^ ((k1 ^ np.uint64(length)) * _M2)
                    slots[nb] = np.int64(h >> shift) * _ROW
                nb += 1
                i = e
                at[nb] = i
            # Their ids: from the cache, else stop words or merges (then cached).
            for q in range(nb):
                slot = slots[q]
                length = lens[q]
                if slot >= 0:  # a hit copies the row's ids (written out here: as an
                    meta = cache[slot + 2]  # inlined function it cost 14% of the kernel)
                    if (cache[slot] == key0[q] and cache[slot + 1] == key1[q]
                            and (meta & np.uint64(0x1F)) == np.uint64(length)):
                        cnt = np.int64((meta >> np.uint64(5)) & np.uint64(7))
                        out[w] = np.int32(np.int64((meta >> np.uint64(8)) & _ID))
                        if cnt > 1:
                            out[w + 1] = np.int32(np.int64((meta >> np.uint64(32)) & _ID))
                            if cnt > 2:
                                x = cache[slot + 3]
                                out[w + 2] = np.int32(np.int64(x & _ID))
                                if cnt > 3:
                                    out[w + 3] = np.int32(np.int64((x >> np.uint64(24)) & _ID))
                        w += cnt
                        continue
                _utf8(cps, at[q], at[q + 1], buf)
                s = -1
                if n_stop > 0:
                    s = _find_stop(stop_table, stop_flat, stop_offs, buf, length,
                                   _hash_bytes(buf, length))
                if s >= 0:
                    out[w] = 256 + s
                    cnt = 1
                else:
                    cnt = (_merge_short(buf, length, ranks, pr) if length <= _SHORT
                           else _encode_heap(buf, length, ranks))
                    for k in range(cnt):
                        x = buf[k]
                        out[w + k] = x + n_stop if x >= 256 else x
                if slot >= 0 and cnt <= CACHE_IDS:
                    _keep(cache, slot, key0[q], key1[q], length, out, w, cnt)
                w += cnt
        id_starts[u + 1] = w
    return w, np.int64(-1)


# --------------------------------------------------------------------------- driver
def new_cache(bits: int = CACHE_BITS) -> np.ndarray:
    """An empty chunk cache of ``2 ** bits`` rows (zeros: a row of length 0 matches no chunk),
    aligned to 64 bytes so no row straddles two cache lines."""
    words = (1 << bits) * _ROW
    raw = np.zeros(words + 8, dtype=np.uint64)
    skip = (-raw.ctypes.data % 64) // 8
    return raw[skip:skip + words]


def _capacity(text: str) -> int:
    """An upper bound on the ids of ``text`` (its UTF-8 bytes), in O(1)."""
    return len(text) if text.isascii() else 4 * len(text)


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
    ids : numpy.ndarray of int64, optional
        The model's id of each kernel symbol (bytes, stop words, merges in that order);
        None: the symbols are the ids.
    """

    def __init__(self, sym_merges: np.ndarray, stop_words: list[bytes], pattern: str,
                 ids: np.ndarray | None = None) -> None:
        self.gpt4 = pattern == "gpt4"
        self.table = class_table()
        self.ranks = build_merge_table(np.ascontiguousarray(sym_merges, dtype=np.int64))
        self.n_stop = len(stop_words)
        offs = np.zeros(len(stop_words) + 1, dtype=np.int64)
        np.cumsum([len(w) for w in stop_words], out=offs[1:])
        self.stop_flat = np.frombuffer(b"".join(stop_words), dtype=np.uint8).astype(np.int32)
        self.stop_offs = offs
        self.stop_table = _build_stop(self.stop_flat, offs)
        self.n_symbols = 256 + self.n_stop + len(sym_merges)
        self.model = Model(self.table, self.gpt4, self.ranks, self.n_stop, self.stop_table,
                           self.stop_flat, self.stop_offs, self.n_symbols <= CACHE_ID_LIMIT)
        self.ids = None if ids is None else np.asarray(ids, dtype=np.int64)
        self.cache_bits = CACHE_BITS
        self._objects: np.ndarray | None = None

    def _as_list(self, symbols: np.ndarray) -> list[int]:
        """Kernel symbols as a list of the model's ids (shared ``int`` objects)."""
        if self._objects is None:
            ids = self.ids if self.ids is not None else np.arange(self.n_symbols)
            objects = np.empty(ids.size, dtype=object)
            objects[:] = ids.tolist()
            self._objects = objects
        return self._objects[symbols].tolist()

    def _as_ids(self, symbols: np.ndarray) -> np.ndarray:
        """Kernel symbols as an ``int32`` array of the model's ids."""
        return symbols if self.ids is None else self.ids[symbols].astype(np.int32)

    def _run(self, pieces: list[str], cache: np.ndarray,
             origins: list[tuple[int | None, int]], out: np.ndarray | None = None, w: int = 0
             ) -> tuple[np.ndarray, int, np.ndarray]:
        """Encode ``pieces`` in one kernel call into ``out[w:]`` (None: a new array);
        ``origins[j]`` = (text or None, offset) of piece ``j``. Returns ``(out, end,
        id_starts)``."""
        joined = "".join(pieces)
        cps = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        starts = np.zeros(len(pieces) + 1, dtype=np.int64)
        np.cumsum([len(p) for p in pieces], out=starts[1:])
        if out is None:
            out = np.empty(_capacity(joined), dtype=np.int32)
        id_starts = np.empty(len(pieces) + 1, dtype=np.int64)
        end, bad = encode_units(cps, starts, self.model, cache, out, w, id_starts)
        if bad >= 0:
            j = int(np.searchsorted(starts, bad, side="right")) - 1
            text, offset = origins[j]
            where = "" if text is None else f" of text {text}"
            raise InvalidValueError(
                f"text holds a lone surrogate U+{int(cps[bad]):04X} at position "
                f"{int(bad - starts[j]) + offset}{where}; it has no UTF-8 bytes (encode it as "
                "text.encode('utf-8', 'surrogatepass') upstream or remove it)")
        return out, int(end), id_starts

    def _symbols(self, text: str, window: int) -> np.ndarray:
        """Kernel symbols of one text, streamed window by window into one array sized for the
        worst case (one id per UTF-8 byte; pages never written stay unallocated) and shrunk
        in place at the end."""
        cache = new_cache(self.cache_bits)
        out = np.empty(_capacity(text), dtype=np.int32)
        w = 0
        for piece, at in _pieces(text, window):
            w = self._run([piece], cache, [(None, at)], out, w)[1]
        out.resize((w,), refcheck=False)
        return out

    def encode_array(self, text: str, window: int = WINDOW) -> np.ndarray:
        """The model's ids of one text as ``int32`` (peak: the ids plus one window)."""
        check_budget(4 * _capacity(text) + 16 * min(len(text), window),
                     f"encoding {len(text):,} characters")
        return self._as_ids(self._symbols(text, window))

    def encode(self, text: str, window: int = WINDOW) -> list[int]:
        """The model's ids of one text as a list."""
        check_budget(4 * _capacity(text) + 16 * min(len(text), window) + 16 * len(text),
                     f"encoding {len(text):,} characters")
        return self._as_list(self._symbols(text, window))

    def encode_batch(self, texts: list[str], threads: int = 1,
                     window: int = WINDOW) -> list[list[int]]:
        """The model's ids of many texts; windows of joined texts run on ``threads``
        threads."""
        total = sum(len(t) for t in texts)
        check_budget(4 * sum(_capacity(t) for t in texts) + 16 * min(total, window) * threads
                     + 16 * total, f"encoding {total:,} characters")
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

        def work(share):
            cache = new_cache(self.cache_bits)
            return [self._run(g[0], cache, g[1]) for g in share]

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
        for (_, group_owners), (ids, end, id_starts) in zip(groups, results):
            flat = self._as_list(ids[:end])
            bounds = id_starts.tolist()
            for j, (k, _) in enumerate(group_owners):
                out[k].extend(flat[bounds[j]:bounds[j + 1]])
        return out
