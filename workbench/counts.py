"""Chunk→count tables: the corpus form every trainer of the workbench reads.

A *count table* maps a chunk (a pretokenised word, e.g. ``" the"``) to how often it occurs.
On disk it is a TSV: one ``chunk<TAB>count`` per line, written by Python's :mod:`csv` with
``delimiter="\\t"``, so a chunk holding a tab, newline or quote is quoted csv-style; no
header; optionally xz-compressed (``NAME.tsv.xz``, as the tables shipped in ``data/``, which
:func:`workbench.datasets.load_counts` reads by name). A leading UTF-8 byte-order mark is
dropped, as by every text reader of the package (``_core.jsonfile.decode_text``).

This module reads, writes and validates such tables. It does not pretokenise text (see
:mod:`workbench.bpe.counting`) and does not train anything.

Example
-------
>>> import io, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "t.tsv")
>>> write_counts({" the": 3, 'say "hi"\\t': 1}, path)
>>> read_counts(path)
{' the': 3, 'say "hi"\\t': 1}
>>> as_counts({"ab": 2})
{'ab': 2}
"""

from __future__ import annotations

import csv
import io
import lzma
import os
import sys
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ._core.errors import ArgumentTypeError, InvalidValueError, MissingFileError, public
from ._core.io import atomic_write, check_output_path
from ._core.jsonfile import decode_text, strip_bom
from ._core.validate import MEMORY_BUDGET, check_budget

#: Rough resident bytes per table entry (dict slot, str, int) when a TSV is loaded.
_BYTES_PER_ENTRY = 200
#: Counts are int64 in every kernel: a count (or a table total) must stay below this.
MAX_COUNT = 2**63 - 1
#: Files above this size take the numba scan even before numba is loaded (its start-up,
#: ~0.5 s, is then smaller than what the scan saves over csv: ~0.6 µs per row).
_SCAN_MIN_BYTES = 16 << 20

# csv's default field limit (131,072 characters) would refuse long chunks this module writes.
csv.field_size_limit(max(csv.field_size_limit(), 2**31 - 1))


@public
class CountsFormatError(InvalidValueError):
    """A malformed count-table file; the message names the file and the line."""


def read_counts(path: str | os.PathLike, *, budget: int = MEMORY_BUDGET) -> dict[str, int]:
    """Read a ``chunk<TAB>count`` TSV (or its xz-compressed ``.xz``) into a dict (file order).

    A file in the shape ``csv.writer`` produces is read by one numba pass
    (:mod:`workbench._core.tsv`) once numba is loaded or when it is over 16 MB; any other
    file by ``csv`` row by row, which names the first bad line. Both read the same table,
    after a leading UTF-8 byte-order mark (dropped, as the vocabulary loaders drop it).

    Parameters
    ----------
    path : str or os.PathLike
        The file; a name ending in ``.xz`` is decompressed (in memory) first.
    budget : int
        Memory budget in bytes; a file whose table would exceed it is refused before reading
        (an xz file as soon as its decompressed bytes pass what the budget allows).

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    CountsFormatError
        On a line without exactly two fields, a non-integer or non-positive count, an empty
        chunk, a repeated chunk, or bytes that are not UTF-8; the message names the file and
        the line number.
    """
    path = Path(path)
    raw, size = _table_bytes(path, budget)
    if "numba" in sys.modules or size > _SCAN_MIN_BYTES:  # the kernel's start is paid
        scanned = _scanned(raw, budget)
        if scanned is not None:
            return scanned
    text = decode_text(path, raw, error=CountsFormatError)
    del raw
    out: dict[str, int] = {}
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t")
    try:
        for row in reader:
            line = reader.line_num
            if len(row) != 2:
                raise CountsFormatError(
                    f"{path}, line {line}: expected 'chunk<TAB>count', got {len(row)} "
                    f"field(s): {row!r:.80}")
            chunk, count = row
            if not (count.isascii() and count.isdigit()):
                raise CountsFormatError(
                    f"{path}, line {line}: count {count!r:.40} is not a positive integer")
            value = int(count) if len(count) <= 19 else MAX_COUNT + 1  # int() caps digits
            if value > MAX_COUNT:
                raise CountsFormatError(f"{path}, line {line}: count {count:.30} is over "
                                        f"2^63 - 1 (counts are int64)")
            if value <= 0:
                raise CountsFormatError(f"{path}, line {line}: count must be positive, got 0")
            if not chunk:
                raise CountsFormatError(f"{path}, line {line}: empty chunk")
            if chunk in out:
                raise CountsFormatError(f"{path}, line {line}: chunk {chunk!r:.40} repeated")
            out[chunk] = value
    except csv.Error as err:
        raise CountsFormatError(f"{path}, line {reader.line_num}: {err}") from None
    return out


def read_count_arrays(path: str | os.PathLike, *, budget: int = MEMORY_BUDGET
                      ) -> tuple[bytes, np.ndarray, np.ndarray] | None:
    """The table of a TSV (or ``.xz``) as arrays, without a ``str`` or dict entry per chunk.

    Returns ``(joined, starts, counts)`` (chunk ``r`` is the UTF-8 ``joined[starts[r] :
    starts[r + 1]]``, seen ``counts[r]`` times, file order: the table :func:`read_counts`
    reads) by one numba pass (:func:`workbench._core.tsv.scan_count_arrays`), or None for a
    file outside its common shape or an empty one; :func:`read_counts` then reads it and
    names what is wrong. Same checks before reading as :func:`read_counts`.
    """
    from ._core.tsv import scan_count_arrays

    return scan_count_arrays(_table_bytes(Path(path), budget)[0], budget=budget)


def _table_bytes(path: Path, budget: int) -> tuple[bytes, int]:
    """A count table's bytes (decompressed, without a BOM) and its size, after checking
    that the file exists and that its entries fit the memory budget."""
    if not path.is_file():
        raise MissingFileError(f"no count table at {path}")
    # A line is at least 4 bytes ("a\t1\n"); the estimate is generous on purpose.
    data = _decompressed(path, budget) if path.suffix == ".xz" else None
    size = path.stat().st_size if data is None else len(data)
    check_budget(size // 4 * _BYTES_PER_ENTRY, f"reading {path}", budget=budget)
    return strip_bom(path.read_bytes() if data is None else data), size


def _decompressed(path: Path, budget: int) -> bytes:
    """The bytes of an xz-compressed table, refused (``BudgetError``) as soon as they pass
    what ``budget`` allows a table file, so a small archive of a huge file is never expanded."""
    limit = max(budget // _BYTES_PER_ENTRY * 4 + 3, 0)  # the largest size the budget accepts
    decompressor = lzma.LZMADecompressor()
    try:
        data = decompressor.decompress(path.read_bytes(), max_length=limit + 1)
    except lzma.LZMAError as err:
        raise CountsFormatError(f"{path}: not a readable xz file ({err})") from None
    check_budget(len(data) // 4 * _BYTES_PER_ENTRY, f"reading {path}", budget=budget)
    if not decompressor.eof:
        raise CountsFormatError(f"{path}: the xz stream is truncated")
    return data


def _scanned(raw: bytes, budget: int) -> dict[str, int] | None:
    """The table in a file's bytes ``raw`` by :func:`workbench._core.tsv.scan_counts` (one
    numba pass), or None for a file outside its common shape (then the row-by-row reader
    reads it and names errors)."""
    from ._core.tsv import scan_counts

    return scan_counts(raw, budget=budget)


def write_counts(counts: Mapping[str, int], path: str | os.PathLike) -> None:
    """Write a table as ``chunk<TAB>count`` TSV (csv-quoted where needed), most common first.

    Ties keep the mapping's order. The table is validated first (see :func:`as_counts`) and
    the path checked before anything is written; the file is written atomically (a reader
    sees the old file or the whole new one). A chunk holding a carriage return is always
    quoted, so :func:`read_counts` reads back exactly what was written.
    """
    check_output_path(path)
    table = as_counts(counts)
    for chunk in table:
        try:
            chunk.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidValueError(f"counts: chunk {chunk!r:.40} holds a lone surrogate and "
                                    "cannot be written as UTF-8") from None
    order = sorted(table.items(), key=lambda kv: -kv[1])
    with atomic_write(path, newline="") as handle:
        plain = csv.writer(handle, delimiter="\t", lineterminator="\n")
        # csv quotes only around the line terminator "\n"; a lone "\r" must be quoted too
        quoted = csv.writer(handle, delimiter="\t", lineterminator="\n",
                            quoting=csv.QUOTE_NONNUMERIC)
        for chunk, count in order:
            (quoted if "\r" in chunk else plain).writerow((chunk, count))


def as_counts(counts: Mapping[str, int] | str | os.PathLike, *,
              name: str = "counts") -> dict[str, int]:
    """Validate a count table given as a mapping or as a path to a TSV; return a plain dict.

    Parameters
    ----------
    counts : Mapping[str, int] or str or os.PathLike
        Chunk → positive integer count, or the path of a ``chunk<TAB>count`` file.
    name : str
        Argument name used in error messages.

    Raises
    ------
    TypeError
        A key that is not a ``str``, a count that is not an integer (``2.0``, ``True``).
    ValueError
        An empty table, an empty chunk, a count ``<= 0``.

    Examples
    --------
    >>> as_counts({"a": 0})
    Traceback (most recent call last):
    ...
    workbench.InvalidValueError: counts: count of 'a' must be positive, got 0
    """
    if isinstance(counts, (str, os.PathLike)):
        table = read_counts(counts)
        if not table:
            raise InvalidValueError(f"{name}: the file {counts} holds no chunks (empty corpus)")
        return table
    if not isinstance(counts, Mapping):
        raise ArgumentTypeError(f"{name} must be a mapping chunk -> count or a path to a TSV, not "
                                f"{type(counts).__name__}")
    if not counts:
        raise InvalidValueError(f"{name} is empty: nothing to learn from (empty corpus)")
    values = counts.values()
    # Fast path, one C-level pass per check: plain str keys, plain int counts in range. Any
    # other table (np.integer counts, subclasses, a bad entry) takes the loop below, which
    # accepts or names the first bad entry exactly as before.
    if ({*map(type, counts)} == {str} and {*map(type, values)} == {int} and "" not in counts
            and 0 < min(values) and max(values) <= MAX_COUNT):
        return dict(counts.items())
    out: dict[str, int] = {}
    for chunk, count in counts.items():
        if not isinstance(chunk, str):
            raise ArgumentTypeError(f"{name}: every chunk must be a str, got "
                                    f"{type(chunk).__name__} {chunk!r:.40}")
        if not chunk:
            raise InvalidValueError(f"{name}: the empty string is not a chunk")
        if isinstance(count, (bool, np.bool_)) or not isinstance(count, (int, np.integer)):
            raise ArgumentTypeError(f"{name}: count of {chunk!r:.40} must be an int, got "
                                    f"{type(count).__name__} {count!r}")
        if count <= 0:
            raise InvalidValueError(f"{name}: count of {chunk!r:.40} must be positive, got {count}")
        if count > MAX_COUNT:
            raise InvalidValueError(f"{name}: count of {chunk!r:.40} is over 2^63 - 1 (counts are "
                                    f"int64), got {count}")
        out[chunk] = int(count)
    return out


def check_pair_total(table: Mapping[str, int], *, name: str = "counts") -> int:
    """Refuse a table whose adjacent-byte pair counts could overflow int64; return the bound.

    Every pair count a BPE trainer keeps is at most ``Σ count · (bytes(chunk) − 1)`` (each
    occurrence of a chunk holds that many adjacent pairs, and merges only lower it), so the
    table is accepted exactly when that sum, computed with Python ints, is below ``2^63``.

    >>> check_pair_total({"abc": 2, "d": 9})
    4
    >>> try:
    ...     check_pair_total({"a" * 17: 2**61, "bc": 1})
    ... except ValueError as err:
    ...     print(str(err)[:52])
    counts: pair counts could reach 36893488147419103233
    """
    total = 0
    for chunk, count in table.items():
        total += count * max(len(chunk.encode("utf-8", "surrogatepass")) - 1, 0)
    if total > MAX_COUNT:
        raise InvalidValueError(f"{name}: pair counts could reach {total}, over 2^63 - 1 (int64); "
                                "scale the counts down")
    return total
