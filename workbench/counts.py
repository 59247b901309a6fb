"""Chunk→count tables: the corpus form every trainer of the workbench reads.

A *count table* maps a chunk (a pretokenised word, e.g. ``" the"``) to how often it occurs.
On disk it is a TSV: one ``chunk<TAB>count`` per line, written by Python's :mod:`csv` with
``delimiter="\\t"``, so a chunk holding a tab, newline or quote is quoted csv-style; no
header; xz-compressed when the name ends in ``.xz`` (``NAME.tsv.xz``, as the tables shipped in
``data/``, which :func:`workbench.datasets.load_counts` reads by name): the writer compresses
such a name, the reader decompresses every stream of it (as ``xz -d`` does). Other
compressions (``.gz``, ``.bz2``, …) are not written: :func:`write_counts` refuses the name.

A leading UTF-8 byte-order mark is dropped, as by every text reader of the package
(``_core.jsonfile.decode_text``): exactly one, at the start of the file (after
decompression), never elsewhere. So that a chunk that really starts with U+FEFF survives a
round trip, :func:`write_counts` quotes it (``"\\ufeff…"``, csv-style): a written file never
starts with a byte-order mark.

This module reads, writes and validates such tables, and holds the one reader of ``.xz``
files of the package (:func:`iter_xz`: all streams, bounded pieces, named errors). It does
not pretokenise text (see :mod:`workbench.bpe.counting`) and does not train anything.

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
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import BinaryIO

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
#: Compressed bytes :func:`iter_xz` reads at a time, and the most it decompresses per piece.
_XZ_READ = 1 << 20
_XZ_PIECE = 8 << 20
#: Names the writer refuses (a compression it does not write), with the magic bytes by which
#: the reader recognises such a file (a plain table under such a name is still read).
_OTHER_COMPRESSIONS = {".gz": ("gzip", b"\x1f\x8b"), ".bz2": ("bzip2", b"BZh"),
                       ".zst": ("zstd", b"\x28\xb5\x2f\xfd"), ".lz4": ("lz4", b"\x04\x22\x4d\x18"),
                       ".zip": ("zip", b"PK\x03\x04"), ".7z": ("7-Zip", b"7z\xbc\xaf\x27\x1c")}

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
    after a leading UTF-8 byte-order mark (exactly one, at the start of the file, dropped as
    the vocabulary loaders drop it).

    Parameters
    ----------
    path : str or os.PathLike
        The file; a name ending in ``.xz`` is decompressed (in memory) first, every stream of
        it, as ``xz -d`` reads it (:func:`iter_xz`).
    budget : int
        Memory budget in bytes (an int ``>= 0``); a file whose table would exceed it is
        refused before reading (an xz file as soon as its decompressed bytes pass what the
        budget allows). A budget larger than any table means no limit.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    BudgetError
        If the table would exceed ``budget``.
    CountsFormatError
        On a line without exactly two fields, a non-integer or non-positive count, an empty
        chunk, a repeated chunk, or bytes that are not UTF-8 (the message names the file and
        the line number); on an ``.xz`` file that is truncated, corrupt or followed by bytes
        that are not an xz stream, and on a gzip (bzip2, …) file (the message names the file).
    """
    path = Path(path)
    budget = _checked_budget(budget)
    raw, size = _table_bytes(path, budget)
    if "numba" in sys.modules or size > _SCAN_MIN_BYTES:  # the kernel's start is paid
        scanned = _scanned(strip_bom(raw), budget)
        if scanned is not None:
            return scanned
    text = decode_text(path, raw, error=CountsFormatError)  # drops the BOM (one)
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

    budget = _checked_budget(budget)
    return scan_count_arrays(strip_bom(_table_bytes(Path(path), budget)[0]), budget=budget)


def _checked_budget(budget: object) -> int:
    """``budget`` as an int ``>= 0`` (any size: one above every table means no limit)."""
    if isinstance(budget, (bool, np.bool_)) or not isinstance(budget, (int, np.integer)):
        raise ArgumentTypeError(f"budget must be an int (bytes), not {type(budget).__name__} "
                                f"({budget!r:.40})")
    budget = int(budget)
    if budget < 0:
        raise InvalidValueError(f"budget must be >= 0 bytes, got {budget}")
    return budget


def _is_xz(path: Path) -> bool:
    """Whether ``path`` names an xz-compressed table (the writer's and the reader's rule)."""
    return path.suffix.lower() == ".xz"


def _table_bytes(path: Path, budget: int) -> tuple[bytes, int]:
    """A count table's bytes (decompressed; a leading BOM is still there: each reader drops
    it, once) and its size, after checking that the file exists and that its entries fit
    the memory budget."""
    if not path.is_file():
        raise MissingFileError(f"no count table at {path}")
    # A line is at least 4 bytes ("a\t1\n"); the estimate is generous on purpose.
    data = _decompressed(path, budget) if _is_xz(path) else None
    size = path.stat().st_size if data is None else len(data)
    check_budget(size // 4 * _BYTES_PER_ENTRY, f"reading {path}", budget=budget)
    if data is None:
        data = path.read_bytes()
        kind, magic = _OTHER_COMPRESSIONS.get(path.suffix.lower(), (None, None))
        if kind is not None and data.startswith(magic):
            raise CountsFormatError(f"{path}: a {kind}-compressed file; count tables are plain "
                                    "TSV or xz-compressed (.xz): decompress it first")
    return data, size


def _decompressed(path: Path, budget: int) -> bytes:
    """The bytes of an xz-compressed table (every stream), refused (``BudgetError``) as soon
    as they pass what ``budget`` allows a table file, so a small archive of a huge file is
    never expanded."""
    pieces = []
    size = 0
    for piece in iter_xz(path):
        size += len(piece)
        check_budget(size // 4 * _BYTES_PER_ENTRY, f"reading {path}", budget=budget)
        pieces.append(piece)
    return b"".join(pieces)


def iter_xz(path: str | os.PathLike, *, error: type[ValueError] = CountsFormatError,
            file: BinaryIO | None = None) -> Iterator[bytes]:
    """The decompressed bytes of an ``.xz`` file, every stream of it, in pieces.

    Reads as ``xz -d`` does: streams one after another, each optionally followed by stream
    padding (zero bytes, a multiple of 4). A truncated or corrupt stream, bytes after a
    stream that are not a stream (trailing garbage) and an empty file raise ``error`` naming
    the file (and the stream). Memory stays bounded: 1 MiB of compressed input is read at a
    time and each piece is at most 8 MiB, so a caller that stops iterating (a budget
    exceeded) never holds more than what it kept.

    Parameters
    ----------
    path : str or os.PathLike
        The file, read and named in messages.
    error : ValueError subclass
        The caller's error class (a :class:`workbench.WorkbenchError`); also raised, naming
        the file, when it cannot be read (``OSError``).
    file : binary file, optional
        Read the compressed bytes from this open file instead (``path`` then only names it).

    Yields
    ------
    bytes
        Consecutive pieces of the decompressed data (none empty).

    Examples
    --------
    >>> import io, lzma
    >>> data = lzma.compress(b"ab") + lzma.compress(b"cd")
    >>> b"".join(iter_xz("two.xz", file=io.BytesIO(data)))
    b'abcd'
    >>> b"".join(iter_xz("junk.xz", file=io.BytesIO(data + b"junk" * 4)))
    Traceback (most recent call last):
    ...
    workbench.CountsFormatError: junk.xz: not a readable xz file: stream 3 ...
    """
    name = Path(path)
    try:
        if file is not None:
            yield from _xz_pieces(name, file, error)
            return
        with open(name, "rb") as handle:
            yield from _xz_pieces(name, handle, error)
    except OSError as err:
        raise error(f"{name}: cannot read the xz file ({err.strerror or err})") from None


def _xz_pieces(name: Path, handle: BinaryIO, error: type[ValueError]) -> Iterator[bytes]:
    """:func:`iter_xz` on an open file: one decompressor per stream, padding skipped."""
    streams = 0  # streams started
    padding = 0  # zero bytes seen since the last stream ended
    decompressor = None  # the current stream's, None between streams
    data = b""  # compressed bytes read and not yet given to a decompressor
    at_end = False
    while True:
        if decompressor is None:  # between streams: skip padding, start the next one
            if streams:
                rest = data.lstrip(b"\0")
                padding += len(data) - len(rest)
                data = rest
            if not data:
                if at_end:
                    break
                data = handle.read(_XZ_READ)
                at_end = not data
                continue
            if padding % 4:
                raise error(f"{name}: not a readable xz file: {padding} zero byte(s) after "
                            f"stream {streams} (stream padding is a multiple of 4 bytes)")
            decompressor, padding = lzma.LZMADecompressor(lzma.FORMAT_XZ), 0
            streams += 1
        elif decompressor.needs_input and not data:
            if at_end:
                also = "" if streams == 1 else (", or the file ends with bytes that are not an "
                                                "xz stream")
                raise error(f"{name}: the xz stream is truncated (stream {streams} ends "
                            f"early{also})")
            data = handle.read(_XZ_READ)
            at_end = not data
            continue
        try:
            piece = decompressor.decompress(data, max_length=_XZ_PIECE)
        except lzma.LZMAError as err:
            where = "" if streams == 1 else (
                f": stream {streams} (after {streams - 1} complete stream(s)) is corrupt, or the "
                "file ends with bytes that are not an xz stream")
            raise error(f"{name}: not a readable xz file{where} ({err})") from None
        data = b""
        if piece:
            yield piece
        if decompressor.eof:
            data, decompressor = decompressor.unused_data, None
    if streams == 0:
        raise error(f"{name}: not a readable xz file (it is empty)")
    if padding % 4:
        raise error(f"{name}: not a readable xz file: {padding} zero byte(s) after stream "
                    f"{streams} (stream padding is a multiple of 4 bytes)")


def _scanned(raw: bytes, budget: int) -> dict[str, int] | None:
    """The table in a file's bytes ``raw`` by :func:`workbench._core.tsv.scan_counts` (one
    numba pass), or None for a file outside its common shape (then the row-by-row reader
    reads it and names errors)."""
    from ._core.tsv import scan_counts

    return scan_counts(raw, budget=budget)


def check_counts_path(path: str | os.PathLike) -> Path:
    """``path`` as the file :func:`write_counts` will write, checked before any work: a
    writable place (:func:`workbench._core.io.check_output_path`) whose name does not promise
    a compression other than xz (``.gz``, ``.bz2``, ``.zst``, ``.lz4``, ``.zip``, ``.7z``).

    Raises
    ------
    TypeError, ValueError
        A path that cannot be written, or that names another compression.
    """
    check_output_path(path)
    target = Path(path)
    if target.suffix.lower() in _OTHER_COMPRESSIONS:
        kind = _OTHER_COMPRESSIONS[target.suffix.lower()][0]
        raise InvalidValueError(f"out: {target} names a {kind} file, but count tables are "
                                "written as plain TSV or xz-compressed: name it .tsv or .tsv.xz")
    return target


def write_counts(counts: Mapping[str, int], path: str | os.PathLike) -> None:
    """Write a table as ``chunk<TAB>count`` TSV (csv-quoted where needed), most common first.

    Ties keep the mapping's order. The table is validated first (see :func:`as_counts`) and
    the path checked before anything is written; the file is written atomically (a reader
    sees the old file or the whole new one). A chunk holding a carriage return, and one
    starting with U+FEFF (which at the start of the file would read as a byte-order mark and
    be dropped), is always quoted, so :func:`read_counts` reads back exactly what was written.

    Parameters
    ----------
    counts : Mapping[str, int]
        Chunk → positive integer count.
    path : str or os.PathLike
        The file. A name ending in ``.xz`` is written xz-compressed (one stream); any other
        is plain UTF-8 text, and a name that promises another compression (``.gz``,
        ``.bz2``, ``.zst``, ``.lz4``, ``.zip``, ``.7z``) is refused.

    Raises
    ------
    TypeError, ValueError
        An invalid table (see :func:`as_counts`), a chunk that is not valid UTF-8 (a lone
        surrogate), an output path that cannot be written or names another compression.
    """
    target = check_counts_path(path)
    table = as_counts(counts)
    for chunk in table:
        try:
            chunk.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidValueError(f"counts: chunk {chunk!r:.40} holds a lone surrogate and "
                                    "cannot be written as UTF-8") from None
    order = sorted(table.items(), key=lambda kv: -kv[1])
    if not _is_xz(target):
        with atomic_write(target, newline="") as handle:
            _write_rows(handle, order)
        return
    with atomic_write(target, "wb") as raw, \
            lzma.LZMAFile(raw, "wb", format=lzma.FORMAT_XZ) as packed, \
            io.TextIOWrapper(packed, encoding="utf-8", newline="") as handle:
        _write_rows(handle, order)


def _write_rows(handle: io.TextIOBase, order: list[tuple[str, int]]) -> None:
    """The rows of :func:`write_counts` to a text handle (UTF-8, ``newline=""``)."""
    plain = csv.writer(handle, delimiter="\t", lineterminator="\n")
    # csv quotes only around the line terminator "\n"; a lone "\r" must be quoted too, and a
    # leading U+FEFF, which at the start of the file readers drop as a byte-order mark
    quoted = csv.writer(handle, delimiter="\t", lineterminator="\n",
                        quoting=csv.QUOTE_NONNUMERIC)
    for chunk, count in order:
        (quoted if "\r" in chunk or chunk[0] == "\ufeff" else plain).writerow((chunk, count))


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
