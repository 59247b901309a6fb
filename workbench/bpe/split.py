"""A numba pretokeniser for the GPT-4 (``cl100k``) and GPT-2 split patterns.

:func:`split` returns exactly ``regex.findall(pattern, text)`` for
:data:`~workbench.bpe.pattern.GPT4_PATTERN` and :data:`~workbench.bpe.pattern.GPT2_PATTERN`,
without running a regular expression: a hand-written matcher walks the code points of the
text and decides, alternative by alternative, where each chunk ends.

The Unicode classes the patterns use (``\\p{L}``, ``\\p{N}``, ``\\s`` and the letters that
``(?i:...)`` folds onto ``s d m t l v r e``) come from a table of one byte per code point
(``0 .. 0x10FFFF``, surrogates included) computed once *with the* :mod:`regex` *module
itself* (so both agree on the Unicode version) and cached as a ``.npy`` file next to the
numba cache (marked used when read; ``python -m workbench warmup`` removes the tables of
other :mod:`regex` versions once unused for a while: :func:`workbench._core.cachedir.prune`).
Building it takes about 0.1 s.

Boundaries are offsets in code points (:func:`split_offsets`) on a ``uint32`` array of code
points (``np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)``); the
kernel helpers (``chunk_end``) are reused by the fused encoder
(:mod:`workbench.bpe._textencode`) and by counting (:mod:`workbench.bpe.counting`).

This module does not handle other patterns (use :mod:`regex` with your pattern), does not
normalise text, and does not encode or count chunks.

Example
-------
>>> split("Hello world's 12345 end!!\\n")
['Hello', ' world', "'s", ' ', '123', '45', ' end', '!!\\n']
>>> split("Hello world's 12345", pattern="gpt2")
['Hello', ' world', "'s", ' 12345']
"""

from __future__ import annotations

import os

import numpy as np
import regex
from numba import njit

from .._core.cachedir import mark_used
from .._core.config import CACHE_ROOT, JIT, JIT_INLINE
from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import check_budget, check_choice

__all__ = ["PATTERNS", "class_table", "code_points", "split", "split_offsets"]

#: Names of the patterns this module implements.
PATTERNS = ("gpt4", "gpt2")

# Class bits of one code point.
L_BIT = 1  # \p{L}
N_BIT = 2  # \p{N}
S_BIT = 4  # \s
# Bits 3..6: 1 + index in _FOLD of the letter that (?i:..) maps the code point onto, or 0.
_FOLD = "sdmtlvre"
_TABLE_VERSION = 1

_table: np.ndarray | None = None


def _build_table() -> np.ndarray:
    """One byte per code point, from :mod:`regex` over a string of every code point."""
    every = np.arange(0x110000, dtype=np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    table = np.zeros(0x110000, dtype=np.uint8)
    for bit, cls in ((L_BIT, r"\p{L}+"), (N_BIT, r"\p{N}+"), (S_BIT, r"\s+")):
        for m in regex.finditer(cls, every):
            table[m.start():m.end()] |= bit
    for k, letter in enumerate(_FOLD):
        for m in regex.finditer(f"(?i:{letter})", every):
            table[m.start()] |= (k + 1) << 3
    return table


def _table_path() -> str:
    base = str(CACHE_ROOT)
    tag = regex.__version__.replace(".", "_")
    return os.path.join(base, f"split_classes_v{_TABLE_VERSION}_regex{tag}.npy")


def class_table() -> np.ndarray:
    """The per-code-point class table (``uint8[0x110000]``), built once and cached.

    Bit 0: ``\\p{L}``; bit 1: ``\\p{N}``; bit 2: ``\\s``; bits 3..6: ``1 + i`` when
    ``(?i:c)`` matches the code point for ``c = "sdmtlvre"[i]``, else 0 (all as the
    :mod:`regex` module decides them).
    """
    global _table
    if _table is None:
        path = _table_path()
        table = None
        try:
            table = np.load(path)
            if table.shape != (0x110000,) or table.dtype != np.uint8:
                table = None
            else:
                mark_used(path)  # in use: cachedir.prune keeps it
        except (OSError, ValueError):
            table = None
        if table is None:
            table = _build_table()
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                tmp = f"{path}.{os.getpid()}.tmp.npy"
                np.save(tmp, table)
                os.replace(tmp, path)
            except OSError:
                pass  # a read-only cache: rebuild next time
        table.setflags(write=False)
        _table = table
    return _table


def code_points(text: str) -> np.ndarray:
    """The code points of ``text`` as ``uint32`` (lone surrogates kept)."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"text must be str, not {type(text).__name__}")
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


# --------------------------------------------------------------------------- kernels
@njit(**JIT_INLINE)
def _cls(table, cps, i):
    return table[cps[i]]


@njit(**JIT_INLINE)
def _space_end(cps, i, n, table):
    """End of the run of ``\\s`` starting at ``i``."""
    while i < n and table[cps[i]] & S_BIT:
        i += 1
    return i


@njit(**JIT_INLINE)
def _space_chunk(cps, i, n, table, gpt4):
    """``\\s*[\\r\\n]`` (GPT-4 only) | ``\\s+(?!\\S)`` | ``\\s+`` at ``i`` (a ``\\s``)."""
    j = _space_end(cps, i, n, table)
    if gpt4:
        k = j - 1
        while k >= i:
            c = cps[k]
            if c == 10 or c == 13:
                return k + 1
            k -= 1
    if j == n or j - i < 2:
        return j
    return j - 1


@njit(**JIT_INLINE)
def _fold(table, cps, i, letter):
    return (table[cps[i]] >> 3) == letter + 1


@njit(**JIT_INLINE)
def chunk_end(cps, i, n, table, gpt4):  # noqa: C901  (numba kernel)
    """End of the chunk starting at ``i < n`` (GPT-4 pattern if ``gpt4`` else GPT-2)."""
    c = cps[i]
    t = table[c]
    if c == 39:  # apostrophe: contractions
        if i + 1 < n:
            if gpt4:
                f = table[cps[i + 1]] >> 3
                if 1 <= f <= 4:  # s d m t
                    return i + 2
                if i + 2 < n:
                    g = table[cps[i + 2]] >> 3
                    if (f == 5 and g == 5) or (f == 6 and g == 8) or (f == 7 and g == 8):
                        return i + 3  # ll ve re
            else:
                d = cps[i + 1]
                if d == 115 or d == 116 or d == 109 or d == 100:  # s t m d
                    return i + 2
                if i + 2 < n:
                    e = cps[i + 2]
                    if (d == 114 and e == 101) or (d == 118 and e == 101) or (
                            d == 108 and e == 108):  # re ve ll
                        return i + 3
    if gpt4:
        # [^\r\n\p{L}\p{N}]?+\p{L}+
        j = i
        if not (t & (L_BIT | N_BIT)) and c != 10 and c != 13:
            j = i + 1
        if j < n and table[cps[j]] & L_BIT:
            j += 1
            while j < n and table[cps[j]] & L_BIT:
                j += 1
            return j
        # \p{N}{1,3}
        if t & N_BIT:
            j = i + 1
            while j < n and j < i + 3 and table[cps[j]] & N_BIT:
                j += 1
            return j
        #  ?[^\s\p{L}\p{N}]++[\r\n]*
        j = i + 1 if c == 32 else i
        if j < n and not (table[cps[j]] & (L_BIT | N_BIT | S_BIT)):
            j += 1
            while j < n and not (table[cps[j]] & (L_BIT | N_BIT | S_BIT)):
                j += 1
            while j < n and (cps[j] == 10 or cps[j] == 13):
                j += 1
            return j
        return _space_chunk(cps, i, n, table, True)
    # GPT-2:  ?\p{L}+ |  ?\p{N}+ |  ?[^\s\p{L}\p{N}]+ | \s+(?!\S) | \s+
    j = i + 1 if (c == 32 and i + 1 < n) else i
    u = table[cps[j]]
    if u & L_BIT:
        bit = L_BIT
    elif u & N_BIT:
        bit = N_BIT
    elif not (u & S_BIT):
        j += 1
        while j < n and not (table[cps[j]] & (L_BIT | N_BIT | S_BIT)):
            j += 1
        return j
    else:
        return _space_chunk(cps, i, n, table, False)
    j += 1
    while j < n and table[cps[j]] & bit:
        j += 1
    return j


@njit(**JIT)
def _offsets(cps, table, gpt4):
    n = cps.shape[0]
    out = np.empty(n + 1, dtype=np.int64)
    out[0] = 0
    k = 0
    i = 0
    while i < n:
        i = chunk_end(cps, i, n, table, gpt4)
        k += 1
        out[k] = i
    return out[:k + 1].copy()


# --------------------------------------------------------------------------- public
def split_offsets(cps: np.ndarray, pattern: str = "gpt4") -> np.ndarray:
    """Chunk boundaries of an array of code points: ``int64[k + 1]`` from 0 to ``len(cps)``.

    Parameters
    ----------
    cps : numpy.ndarray of uint32
        Code points (e.g. :func:`code_points` of a text).
    pattern : {"gpt4", "gpt2"}
        The split pattern.

    Returns
    -------
    numpy.ndarray of int64
        Chunk ``i`` is ``cps[out[i]:out[i + 1]]``.
    """
    pattern = check_choice(pattern, "pattern", PATTERNS)
    if not isinstance(cps, np.ndarray) or cps.ndim != 1:
        raise ArgumentTypeError("cps must be a 1-d numpy array of code points")
    if cps.dtype != np.uint32:
        if cps.dtype.kind not in "iu":
            raise ArgumentTypeError(f"cps must hold integers, not {cps.dtype}")
        if cps.size and (cps.min() < 0 or cps.max() > 0x10FFFF):
            raise InvalidValueError("code points must lie in 0..0x10FFFF")
        cps = cps.astype(np.uint32)
    elif cps.size and cps.max() > 0x10FFFF:
        raise InvalidValueError("code points must lie in 0..0x10FFFF")
    check_budget(8 * (cps.size + 1), f"chunk offsets of {cps.size:,} code points")
    return _offsets(np.ascontiguousarray(cps), class_table(), pattern == "gpt4")


def split(text: str, pattern: str = "gpt4") -> list[str]:
    """Cut ``text`` into chunks: exactly ``regex.findall(PATTERN, text)``.

    Parameters
    ----------
    text : str
        Any string (lone surrogates are allowed, as in :mod:`regex`).
    pattern : {"gpt4", "gpt2"}
        :data:`~workbench.bpe.pattern.GPT4_PATTERN` or
        :data:`~workbench.bpe.pattern.GPT2_PATTERN`.

    Returns
    -------
    list of str
        The chunks; their concatenation is ``text``.

    Examples
    --------
    >>> split("  two spaces\\r\\n\\n x")
    [' ', ' two', ' spaces', '\\r\\n\\n', ' x']
    """
    pattern = check_choice(pattern, "pattern", PATTERNS)
    cps = code_points(text)
    offs = split_offsets(cps, pattern).tolist()
    return [text[a:b] for a, b in zip(offs, offs[1:])]
