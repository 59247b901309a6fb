"""A numba scan of well-formed ``chunk<TAB>count`` tables, the common case of ``read_counts``.

Python's ``csv`` reader costs about a microsecond per row; a chunk → count table of
``data/`` (``un``, ``fineweb10``) has 10⁵–10⁶ rows. :func:`scan_counts` reads the same
format in one pass over the file's UTF-8 bytes (tab, LF, CR and quote never occur inside a
multi-byte character), for files in the shape ``csv.writer`` produces: a chunk field, quoted
(``"…"`` with ``""`` for a quote, any character inside) or not (no quote, tab, CR, LF or
NUL), a tab, 1 to 19 ASCII digits of a positive count below 2⁶³, LF or the end. The chunks
are copied, joined by a separator that occurs nowhere in the file, decoded once and split.
Anything else (a CR line end, a blank line, a third field, an empty chunk, a stray quote, a
repeated chunk, bytes that are not UTF-8) makes it return None, and the caller's row-by-row
``csv`` reader reads the file and names the line: this module never decides that a file is
malformed.

:func:`scan_count_arrays` reads the same shape straight into arrays (the chunks' UTF-8 bytes
joined, their offsets, their counts) for a trainer that wants no ``str`` per chunk; it
declines what :func:`scan_counts` declines (a repeated chunk found by a hash of the bytes)
and an empty file, and needs no separator (it also reads a file holding all four).

It does not open files (``workbench.counts.read_counts`` does) and validates nothing else.

Example
-------
>>> scan_counts('ab\\t3\\n"a""\\tb"\\t12\\n'.encode())
{'ab': 3, 'a"\\tb': 12}
>>> scan_counts(b"ab\\t3\\n\\n") is None  # a blank line: csv names it
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .config import JIT
from .validate import MEMORY_BUDGET, check_budget

_TAB, _LF, _CR, _QUOTE = 9, 10, 13, 34
_LAST = 922337203685477580  # (2**63 - 1) // 10: a count above this times 10 overflows int64
#: Chunk separators tried in turn (UTF-8): the first that occurs nowhere in the file is used.
#: Bytes the scan holds per input byte (the copy, separators, counts and the table's strings).
_BYTES_PER_BYTE = 40
_SEPARATORS = ("\uffff", "\ufffe", "\U0010ffff", "\U0010fffe")


@njit(**JIT)
def _scan(data, sep, out, counts, ends):  # noqa: C901  (numba kernel)
    """Rows of ``data`` (bytes) into ``out`` (the chunks, unescaped, each followed by
    ``sep``), ``counts`` and ``ends`` (where each chunk's bytes end in ``out``); returns
    ``(rows, bytes written)``, or ``(-1, 0)`` for anything outside the shape of the module
    docstring."""
    n = data.shape[0]
    width = sep.shape[0]
    pos = 0
    o = 0
    r = 0
    while pos < n:
        start = o
        if data[pos] == _QUOTE:
            pos += 1
            while True:
                if pos >= n:
                    return -1, 0
                c = data[pos]
                if c == _QUOTE:
                    if pos + 1 < n and data[pos + 1] == _QUOTE:
                        out[o] = _QUOTE
                        o += 1
                        pos += 2
                        continue
                    pos += 1
                    break
                if c == 0:
                    return -1, 0
                out[o] = c
                o += 1
                pos += 1
        else:
            while pos < n and data[pos] != _TAB:
                c = data[pos]
                if c == _QUOTE or c == _LF or c == _CR or c == 0:
                    return -1, 0
                out[o] = c
                o += 1
                pos += 1
        if pos >= n or data[pos] != _TAB or o == start:
            return -1, 0
        pos += 1
        value = 0
        digits = 0
        while pos < n and data[pos] != _LF:
            d = np.int64(data[pos]) - 48
            if d < 0 or d > 9 or digits == 19:
                return -1, 0
            if value > _LAST or (value == _LAST and d > 7):
                return -1, 0
            value = value * 10 + d
            digits += 1
            pos += 1
        if value == 0:  # no digit, or a zero count
            return -1, 0
        ends[r] = o
        for k in range(width):
            out[o] = sep[k]
            o += 1
        counts[r] = value
        r += 1
        pos += 1  # the LF (or past the end)
    return r, o


def scan_counts(data: bytes, *, budget: int = MEMORY_BUDGET) -> dict[str, int] | None:
    """The table in the file contents ``data`` (file order), or None if it is not in the
    common shape (or not UTF-8). Refused (BudgetError) before copying when its memory
    estimate exceeds ``budget`` bytes."""
    check_budget(len(data) * _BYTES_PER_BYTE, "scanning a count table", budget=budget)
    sep = next((s for s in _SEPARATORS if s.encode() not in data), None)
    if sep is None:
        return None
    raw = np.frombuffer(data, dtype=np.uint8)
    sep_bytes = np.frombuffer(sep.encode(), dtype=np.uint8)
    rows = data.count(b"\n") + 1
    out = np.empty(raw.shape[0] + rows * sep_bytes.shape[0], dtype=np.uint8)
    counts = np.empty(rows, dtype=np.int64)
    n, used = _scan(raw, sep_bytes, out, counts, np.empty(rows, dtype=np.int64))
    if n < 0:
        return None
    try:
        chunks = out[:used].tobytes().decode("utf-8").split(sep)
    except UnicodeDecodeError:
        return None
    table = dict(zip(chunks, counts[:n].tolist()))  # the split's last piece is empty
    return table if len(table) == n else None


@njit(**JIT)
def _has_repeat(out, starts):
    """Whether two of the chunks ``out[starts[r] : starts[r + 1]]`` are equal (FNV-1a hash
    of the bytes, open addressing, bytes compared on equal hashes)."""
    n = starts.shape[0] - 1
    cap = 16
    while cap < 2 * n:
        cap *= 2
    slots = np.full(cap, -1, dtype=np.int64)
    hashes = np.empty(n, dtype=np.uint64)
    for r in range(n):
        h = np.uint64(0xCBF29CE484222325)
        for k in range(starts[r], starts[r + 1]):
            h = (h ^ np.uint64(out[k])) * np.uint64(0x100000001B3)
        hashes[r] = h
        i = np.int64(h >> np.uint64(1)) & (cap - 1)
        while slots[i] != -1:
            q = slots[i]
            length = starts[r + 1] - starts[r]
            if hashes[q] == h and starts[q + 1] - starts[q] == length:
                same = True
                for k in range(length):
                    if out[starts[q] + k] != out[starts[r] + k]:
                        same = False
                        break
                if same:
                    return True
            i = (i + 1) & (cap - 1)
        slots[i] = r
    return False


def scan_count_arrays(data: bytes, *, budget: int = MEMORY_BUDGET
                      ) -> tuple[bytes, np.ndarray, np.ndarray] | None:
    """The table in the file contents ``data`` as ``(joined, starts, counts)``: chunk ``r``
    is ``joined[starts[r] : starts[r + 1]]`` (UTF-8), seen ``counts[r]`` times, in file
    order; or None where :func:`scan_counts` declines the file, and for a repeated chunk or
    an empty table. Refused (BudgetError) before copying when over ``budget`` bytes.

    >>> scan_count_arrays('ab\\t3\\n"a""\\tb"\\t12\\n'.encode())
    (b'aba"\\tb', array([0, 2, 6]), array([ 3, 12]))
    """
    check_budget(len(data) * _BYTES_PER_BYTE, "scanning a count table", budget=budget)
    raw = np.frombuffer(data, dtype=np.uint8)
    rows = data.count(b"\n") + 1
    out = np.empty(raw.shape[0], dtype=np.uint8)
    counts = np.empty(rows, dtype=np.int64)
    ends = np.empty(rows, dtype=np.int64)
    n, used = _scan(raw, np.empty(0, dtype=np.uint8), out, counts, ends)
    if n <= 0:
        return None
    joined = out[:used].tobytes()
    try:
        joined.decode("utf-8")
    except UnicodeDecodeError:
        return None
    starts = np.zeros(n + 1, dtype=np.int64)
    starts[1:] = ends[:n]
    if _has_repeat(out, starts):
        return None
    return joined, starts, counts[:n].copy()
