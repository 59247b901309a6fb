"""P1 + P2 over a whole block of lines in one numba pass, straight to code points.

:func:`scan_lines` gives exactly what :meth:`.rules.Pretokeniser.pretokenise` gives line by
line (NFKC; whitespace split; punctuation isolated; contractions, marker, digits and hyphens
isolated; the alphabet's spelling), but as flat arrays that the batch samplers take without
building one Python string per piece: the pieces' code points, their offsets, the number of
pieces of every P1 pretoken (the multiplexing unit) and of P1 pretokens per line.

Character classes (``\\w``, ``\\s``, ``\\d``, ``str.isdigit`` and the case-insensitive
matches of the contraction letters) are taken from Python's own ``re`` and ``str`` for every
code point that occurs, once, and cached in a table, so the kernel follows the regexes of
:mod:`.rules` exactly. NFKC stays in Python (``unicodedata``), on non-ASCII lines only.

Two corner cases, where :func:`.rules.p2` and :meth:`.rules.Pretokeniser.flat` disagree,
are settled the way that does not depend on the rest of the line or on the spelling: a
pretoken of letters and non-decimal digits (``"\u1369"``, Ethiopic one; NFKC leaves it) is
one piece with the marker glued, as in ``p2`` (``flat`` isolated the marker when another
pretoken of the line held a digit, hyphen, ``_`` or apostrophe); a first piece made of
digits is judged before spelling, as in ``flat`` (``p2`` glued the byte-level marker to
``"\u0663"``, Arabic-Indic three, whose bytes are not digits). ASCII text is unaffected.

This module does not sample or segment (:mod:`.pipeline`), and it does not read files.

Example
-------
>>> s = scan_lines(["It's 42.", "", "a"], "sentencepiece")
>>> s.pieces()
['▁It', "'s", '▁', '4', '2', '▁.', '▁a']
>>> s.sizes.tolist(), s.per_line.tolist()
([2, 3, 1, 1], [3, 0, 1])
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import njit

from .._core.config import JIT
from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import check_budget, check_choice
from ..vocab.alphabets import ALPHABETS, SP_SPACE, bytes_to_unicode

__all__ = ["Scanned", "scan_lines"]

# class bits of a code point (low byte); the high byte holds the contraction letter it
# matches under re.IGNORECASE (one of "strevmld"), or 0
WORD, SPACE, DECIMAL, DIGIT, KNOWN = 1, 2, 4, 8, 16
_LETTERS = "strevmld"
_HYPHEN, _UNDERSCORE, _APOS, _RSQUO = ord("-"), ord("_"), ord("'"), ord("\u2019")
_MAX_CP = 0x110000

_TABLE = np.zeros(_MAX_CP, dtype=np.uint16)  # filled on demand; KNOWN marks filled entries
_TABLE_LOCK = threading.Lock()
_BYTE_MAP = np.array([ord(c) for _, c in sorted(bytes_to_unicode().items())], dtype=np.int32)
_W, _S, _D = re.compile(r"\w"), re.compile(r"\s"), re.compile(r"\d")
_FOLD = [(ord(c), re.compile(f"(?i){c}")) for c in _LETTERS]


def _classify(cp: int) -> int:
    ch = chr(cp)
    bits = KNOWN
    bits |= WORD if _W.fullmatch(ch) else 0
    bits |= SPACE if _S.fullmatch(ch) else 0
    bits |= DECIMAL if _D.fullmatch(ch) else 0
    bits |= DIGIT if ch.isdigit() else 0
    for letter, pattern in _FOLD:
        if pattern.fullmatch(ch):
            bits |= letter << 8
            break
    return bits


def _fill_table(cps: np.ndarray) -> None:
    """Classify every code point of ``cps`` not yet in the table (ASCII is always there)."""
    high = cps[cps >= 128]
    if high.size == 0:
        return
    new = np.unique(high)
    new = new[(_TABLE[new] & KNOWN) == 0]
    if new.size:
        with _TABLE_LOCK:
            _TABLE[new] = [_classify(int(cp)) for cp in new]


_TABLE[:128] = [_classify(cp) for cp in range(128)]


class Scanned(NamedTuple):
    """A block after P1 + P2: piece ``k`` is ``code_points[offsets[k]:offsets[k+1]]``."""

    code_points: np.ndarray  #: int32, every piece spelled in the alphabet, marker included
    offsets: np.ndarray  #: int64, pieces + 1
    sizes: np.ndarray  #: int64, pieces of every P1 pretoken
    per_line: np.ndarray  #: int64, P1 pretokens of every line

    def pieces(self) -> list[str]:
        """The pieces as Python strings (for samplers that take words)."""
        text = self.code_points.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
        cuts = self.offsets.tolist()
        return [text[a:b] for a, b in zip(cuts[:-1], cuts[1:])]


class _Spelling(NamedTuple):
    """The kernels' constants: class table, marker (``-1``: none) and byte map (empty: none)."""

    table: np.ndarray
    mark: int
    byte_map: np.ndarray


class _Buffers(NamedTuple):
    """The kernels' outputs, as :class:`Scanned` before trimming."""

    out: np.ndarray
    off: np.ndarray
    sizes: np.ndarray
    per_line: np.ndarray


@njit(**JIT)
def _word_char(cp, table):
    return (table[cp] & 1) != 0 or cp == 45  # \w or "-"


@njit(**JIT)
def _emit(cps, a, b, mark, byte_map, out, n_out):
    """Append code points ``cps[a:b]`` (marker first if ``mark >= 0``), spelled."""
    if mark >= 0:
        if byte_map.shape[0] > 0:
            out[n_out] = byte_map[mark]
        else:
            out[n_out] = mark
        n_out += 1
    if byte_map.shape[0] == 0:
        for i in range(a, b):
            out[n_out] = cps[i]
            n_out += 1
        return n_out
    for i in range(a, b):
        cp = cps[i]
        if cp < 0x80:
            out[n_out] = byte_map[cp]
            n_out += 1
        elif cp < 0x800:
            out[n_out] = byte_map[0xC0 | (cp >> 6)]
            out[n_out + 1] = byte_map[0x80 | (cp & 0x3F)]
            n_out += 2
        elif cp < 0x10000:
            out[n_out] = byte_map[0xE0 | (cp >> 12)]
            out[n_out + 1] = byte_map[0x80 | ((cp >> 6) & 0x3F)]
            out[n_out + 2] = byte_map[0x80 | (cp & 0x3F)]
            n_out += 3
        else:
            out[n_out] = byte_map[0xF0 | (cp >> 18)]
            out[n_out + 1] = byte_map[0x80 | ((cp >> 12) & 0x3F)]
            out[n_out + 2] = byte_map[0x80 | ((cp >> 6) & 0x3F)]
            out[n_out + 3] = byte_map[0x80 | (cp & 0x3F)]
            n_out += 4
    return n_out


@njit(**JIT)
def _contraction_start(cps, a, b, table):
    """Start of P2's contraction suffix of ``cps[a:b]`` (``b`` if none): leftmost match."""
    n = b - a
    if n >= 3 and (cps[b - 3] == 39 or cps[b - 3] == 0x2019):
        f1, f2 = table[cps[b - 2]] >> 8, table[cps[b - 1]] >> 8
        if (f1 == 114 and f2 == 101) or (f1 == 118 and f2 == 101) or (f1 == 108 and f2 == 108):
            return b - 3 if b - 3 > a else b  # "re", "ve", "ll"
    if n >= 2 and (cps[b - 2] == 39 or cps[b - 2] == 0x2019):
        f = table[cps[b - 1]] >> 8
        if f == 115 or f == 116 or f == 109 or f == 100:  # "s", "t", "m", "d"
            return b - 2 if b - 2 > a else b
    return b


@njit(**JIT)
def _p2(cps, a, b, spell, buf, n_out, n_piece):
    """P2 on the P1 pretoken ``cps[a:b]``; returns (n_out, n_piece, pieces added)."""
    table, mark, byte_map = spell.table, spell.mark, spell.byte_map
    out, off = buf.out, buf.off
    simple = True
    for i in range(a, b):
        cl = table[cps[i]]
        if (cl & 1) == 0 or (cl & 4) != 0 or cps[i] == 95:
            simple = False
            break
    if simple:
        n_out = _emit(cps, a, b, mark, byte_map, out, n_out)
        n_piece += 1
        off[n_piece] = n_out
        return n_out, n_piece, 1
    head = _contraction_start(cps, a, b, table)
    first = n_piece
    i = a
    while i < head:
        j = i + 1
        if (table[cps[i]] & 4) == 0 and cps[i] != 45:
            while j < head and (table[cps[j]] & 4) == 0 and cps[j] != 45:
                j += 1
        glue = -1
        if n_piece == first and mark >= 0:
            alldigit = True
            for k in range(i, j):
                if (table[cps[k]] & 8) == 0:
                    alldigit = False
                    break
            if alldigit or cps[i] == 45:  # the marker stands alone before a digit/hyphen
                n_out = _emit(cps, i, i, mark, byte_map, out, n_out)
                n_piece += 1
                off[n_piece] = n_out
            else:
                glue = mark
        n_out = _emit(cps, i, j, glue, byte_map, out, n_out)
        n_piece += 1
        off[n_piece] = n_out
        i = j
    if head < b:
        n_out = _emit(cps, head, b, -1, byte_map, out, n_out)
        n_piece += 1
        off[n_piece] = n_out
    return n_out, n_piece, n_piece - first


@njit(**JIT)
def _scan(cps, line_len, spell, buf):
    """P1 then P2 over every line; returns (code points out, pieces, pretokens)."""
    table = spell.table
    off, sizes, per_line = buf.off, buf.sizes, buf.per_line
    n_out = 0
    n_piece = 0
    n_tok = 0
    start = 0
    off[0] = 0
    for line in range(line_len.shape[0]):
        end = start + line_len[line]
        count = 0
        i = start
        while i < end:
            cp = cps[i]
            if (table[cp] & 2) != 0:
                i += 1
                continue
            j = i + 1
            if _word_char(cp, table):
                while j < end and _word_char(cps[j], table):
                    j += 1
                while (j + 1 < end and (cps[j] == 39 or cps[j] == 0x2019)
                       and _word_char(cps[j + 1], table)):
                    j += 2
                    while j < end and _word_char(cps[j], table):
                        j += 1
            n_out, n_piece, added = _p2(cps, i, j, spell, buf, n_out, n_piece)
            sizes[n_tok] = added
            n_tok += 1
            count += 1
            i = j
        per_line[line] = count
        start = end
    return n_out, n_piece, n_tok


def scan_lines(lines: Sequence[str], alphabet: str = "byte-level") -> Scanned:
    """P1 + P2 of every line, flat (equal to ``Pretokeniser(alphabet).pretokenise`` per line).

    Parameters
    ----------
    lines : sequence of str
        Lines of raw text (a line may contain any whitespace, newlines included).
    alphabet : {"identity", "byte-level", "sentencepiece"}

    Returns
    -------
    Scanned

    Raises
    ------
    TypeError
        If ``lines`` is a str or holds a non-str.
    ValueError
        If a byte-level piece holds a lone surrogate (it has no UTF-8 bytes).
    """
    alphabet = check_choice(alphabet, "alphabet", ALPHABETS)
    if isinstance(lines, str):
        raise ArgumentTypeError("lines must be a sequence of str, not one str")
    try:
        text = "".join(lines)
    except TypeError:
        bad = next(k for k, line in enumerate(lines) if not isinstance(line, str))
        raise ArgumentTypeError(f"line {bad} is {type(lines[bad]).__name__}, not str") from None
    if not text.isascii():
        lines = [line if line.isascii() else unicodedata.normalize("NFKC", line)
                 for line in lines]
        text = "".join(lines)
    line_len = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    n = len(text)
    byte_level = alphabet == "byte-level"
    check_budget(n * (4 + 8 + 8 + 4 * (5 if byte_level else 2)) + len(lines) * 16,
                 f"pretokenising {len(lines):,} lines ({n:,} characters)")
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.int32)
    _fill_table(cps)
    if byte_level and cps.size and ((cps >= 0xD800) & (cps <= 0xDFFF)).any():
        k = int(np.argmax((cps >= 0xD800) & (cps <= 0xDFFF)))
        line = int(np.searchsorted(np.cumsum(line_len), k, side="right"))
        raise InvalidValueError(f"line {line} holds a lone surrogate (U+{int(cps[k]):04X}), which "
                                "cannot be spelled in bytes")
    mark = {"identity": -1, "sentencepiece": ord(SP_SPACE), "byte-level": ord(" ")}[alphabet]
    byte_map = _BYTE_MAP if byte_level else np.zeros(0, dtype=np.int32)
    out = np.empty(max(n * (5 if byte_level else 2), 1), dtype=np.int32)
    off = np.empty(2 * n + 1, dtype=np.int64)
    sizes = np.empty(max(n, 1), dtype=np.int64)
    per_line = np.empty(len(lines), dtype=np.int64)
    n_out, n_piece, n_tok = _scan(cps, line_len, _Spelling(_TABLE, mark, byte_map),
                                  _Buffers(out, off, sizes, per_line))
    return Scanned(out[:n_out], off[:n_piece + 1], sizes[:n_tok], per_line)
