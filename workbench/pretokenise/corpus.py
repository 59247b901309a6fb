"""A corpus to ids, streamed, on both cores or on a Dask cluster, with the same result.

:func:`tokenize_corpus` reads texts (``str``) or files (``Path``; a ``str`` that names an
existing file is refused, as :func:`tokenize_corpus_dask` would read it) block by block (a
file's blocks are byte ranges found by one streamed scan; no file is held whole), cuts them
into blocks of ``block_lines`` lines counted from the start of each source, and encodes
every block with :meth:`.pipeline.TextTokenizer.encode_lines` under the seed ``(seed,
source index, block index)``. A line's ids therefore depend only on the seed and the
line's position (source, line number): never on the number of workers, on how blocks are
shipped to them, or on how a Dask bag partitions the work (:func:`tokenize_corpus_dask`,
optional ``[scale]`` extra). Blocks are encoded in threads of this process (the numba
kernels release the GIL, so there is no process start-up, pickling or copying of the
tokenizer) and collected in order, with a progress bar.

This module does not pretokenise or sample itself (:mod:`.pipeline`).

Example
-------
>>> from workbench import Grampa, datasets
>>> from workbench.pretokenise import TextTokenizer
>>> tok = TextTokenizer(Grampa(datasets.load_vocabulary("ulm-8k")), p=0.0)
>>> ids, line_offsets = tokenize_corpus(["a b\\nc", "d"], tok, seed=0, num_threads=1,
...                                     progress=False)
>>> line_offsets.tolist()
[0, 2, 3, 4]
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np

from .._core.deprecation import renamed_keywords
from .._core.errors import ArgumentTypeError, InvalidValueError, MissingFileError
from .._core.io import atomic_write, check_output_path
from .._core.jsonfile import UTF8_BOM
from .._core.validate import MEMORY_BUDGET, check_budget, check_int, check_workers
from .pipeline import TextTokenizer

__all__ = ["block_ranges", "encode_block", "iter_blocks", "read_block", "tokenize_corpus",
           "tokenize_corpus_dask"]

DEFAULT_BLOCK_LINES = 2048
#: Bytes read at a time by the line-index scan of a file.
_SCAN_BYTES = 1 << 22


#: A str longer than this (or holding a line break) is never looked up as a file name.
_NAME_MAX = 4096


def _check_source(source: object) -> None:
    """A source of :func:`tokenize_corpus`: a str is text, a path-like a file. A str that
    names an existing file is refused, saying to pass a ``Path``: tokenised as its own
    characters it would silently differ from :func:`tokenize_corpus_dask`, which reads it."""
    if not isinstance(source, (str, os.PathLike)):
        raise ArgumentTypeError("a source must be str (text) or a path, not "
                                f"{type(source).__name__}")
    if isinstance(source, str):
        if len(source) <= _NAME_MAX and "\n" not in source and os.path.isfile(source):
            raise InvalidValueError(
                f"the str {source!r:.80} names an existing file, but a str is text here: pass "
                f"pathlib.Path({source!r:.80}) to read the file")
    elif not Path(source).is_file():  # not /dev/zero, not a dir
        raise MissingFileError(f"no text file at {source} (a source path must name a regular file)")


def block_ranges(path: str | os.PathLike, block_lines: int) -> list[tuple[int, int, int]]:
    """``(first line, start byte, stop byte)`` of every block of ``block_lines`` lines of a file.

    One streamed pass over the file's bytes (never held whole): lines end at ``\\n``,
    ``\\r\\n`` or a lone ``\\r`` (Python's universal newlines, as text mode reads them),
    and a file of ``k`` line breaks has ``k + 1`` lines (the last one possibly empty),
    exactly as ``text.split("\\n")`` numbers them. Memory is one entry per block. A UTF-8
    byte-order mark at the start of the file is not text: the first block starts after it
    (byte 3), so no line holds it (one mark, at the start only; U+FEFF elsewhere is text).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "t.txt")
    >>> _ = open(path, "wb").write(b"a\\nb\\r\\nc\\rd\\n")
    >>> block_ranges(path, 2)
    [(0, 0, 5), (2, 5, 9), (4, 9, 9)]
    >>> _ = open(path, "wb").write(b"\\xef\\xbb\\xbfa\\nb")
    >>> block_ranges(path, 1)
    [(0, 3, 5), (1, 5, 6)]
    """
    starts = [0]  # byte offset where each block's first line starts
    lines_done = 0  # line breaks seen so far
    position = 0
    pending_cr = False  # the previous read ended with "\r": is it "\r\n"?
    with open(path, "rb") as handle:
        if handle.read(len(UTF8_BOM)) == UTF8_BOM:
            starts[0] = len(UTF8_BOM)  # a byte-order mark: the text starts after it
        handle.seek(0)
        while True:
            chunk = handle.read(_SCAN_BYTES)
            if not chunk:
                break
            data = np.frombuffer(chunk, dtype=np.uint8)
            is_nl, is_cr = data == 10, data == 13
            ends = is_nl.copy()  # a break ends at "\n", or at "\r" not followed by "\n"
            ends[:-1] |= is_cr[:-1] & ~is_nl[1:]
            breaks = np.flatnonzero(ends) + position + 1  # byte offset after each break
            if pending_cr and not is_nl[0]:  # the previous chunk's final "\r" was a break
                breaks = np.concatenate(([position], breaks))
            pending_cr = bool(is_cr[-1])
            for index in range(breaks.size):
                if (lines_done + index + 1) % block_lines == 0:
                    starts.append(int(breaks[index]))
            lines_done += breaks.size
            position += data.size
    if pending_cr:
        lines_done += 1
        if lines_done % block_lines == 0:
            starts.append(position)
    n_lines = lines_done + 1
    return [(b * block_lines, start, starts[b + 1] if b + 1 < len(starts) else position)
            for b, start in enumerate(starts) if b * block_lines < n_lines]


def read_block(path: str | os.PathLike, first_line: int, start: int, stop: int, last: bool,
               *, budget: int = MEMORY_BUDGET) -> list[str]:
    """The lines of one block of a UTF-8 file: bytes ``start:stop`` only (see :func:`block_ranges`).

    Raises ``ValueError`` naming the file and the line for bytes that are not UTF-8.
    """
    check_budget((stop - start) * 6, f"a block of {stop - start:,} bytes of {path}",
                 budget=budget)
    with open(path, "rb") as handle:
        handle.seek(start)
        raw = handle.read(stop - start)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        head = raw[: err.start].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        line = first_line + head.count(b"\n") + 1
        raise InvalidValueError(f"{path}, line {line}: not UTF-8 ({err.reason} at byte "
                                f"{start + err.start})") from None
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not last:
        lines.pop()  # the block ends with a line break: no line after it here
    return lines


def iter_blocks(sources: Iterable[str | os.PathLike], block_lines: int
                ) -> Iterator[tuple[int, int, list[str]]]:
    """``(source index, block index, lines)`` for every block, in order.

    Files are read block by block (:func:`read_block`), never whole.
    """
    for s, source in enumerate(sources):
        _check_source(source)
        if isinstance(source, str):
            lines = source.split("\n")
            for b, first in enumerate(range(0, len(lines), block_lines)):
                yield s, b, lines[first:first + block_lines]
            continue
        ranges = block_ranges(source, block_lines)
        for b, (first, start, stop) in enumerate(ranges):
            yield s, b, read_block(source, first, start, stop, b == len(ranges) - 1)


def encode_block(tokenizer: TextTokenizer, seed: int, source: int, block: int,
                 lines: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """One block's ``(ids, line offsets)`` under the seed ``(seed, source, block)``."""
    return tokenizer.encode_lines(lines, np.random.default_rng([seed, source, block]))


def _single_threaded_kernels() -> None:
    """Pool-thread initializer: this thread's numba kernels run on one thread (no nesting)."""
    import numba

    numba.set_num_threads(1)  # thread-local in numba: other threads keep their setting


def _encode_blocks(tasks: Iterator[tuple[int, int, list[str]]], tokenizer: TextTokenizer,
                   seed: int, num_threads: int, bar) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every block's ``(ids, offsets)`` in order, ``num_threads`` blocks at a time.

    Blocks run in threads of this process: the kernels release the GIL. At most ``2 *
    num_threads`` blocks are in flight, so a long corpus is not all read ahead. On any exception
    (``KeyboardInterrupt`` included) queued blocks are cancelled and running ones finish
    before the exception propagates: no thread outlives the call.
    """
    parts = []
    if num_threads == 1:
        for s, b, lines in tasks:
            parts.append(encode_block(tokenizer, seed, s, b, lines))
            bar.update()
        return parts
    pool = ThreadPoolExecutor(num_threads, thread_name_prefix="tokenize_corpus",
                              initializer=_single_threaded_kernels)
    pending: deque[Future] = deque()
    try:
        for task in tasks:
            pending.append(pool.submit(encode_block, tokenizer, seed, *task))
            if len(pending) >= 2 * num_threads:
                parts.append(pending.popleft().result())
                bar.update()
        while pending:
            parts.append(pending.popleft().result())
            bar.update()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return parts


def _join(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.int32)
    sizes = np.concatenate([np.diff(p[1]) for p in parts]) if parts else np.zeros(0, np.int64)
    offsets = np.zeros(sizes.size + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    return ids, offsets


def _check(tokenizer: object, seed: object, block_lines: object) -> tuple[int, int]:
    if not isinstance(tokenizer, TextTokenizer):
        raise ArgumentTypeError("tokenizer must be a workbench.pretokenise.TextTokenizer")
    return (check_int(seed, "seed", minimum=0),
            check_int(block_lines, "block_lines", minimum=1, maximum=10**7))


@renamed_keywords(workers="num_threads")
def tokenize_corpus(sources: Iterable[str | os.PathLike] | str, tokenizer: TextTokenizer, *,
                    seed: int = 0, num_threads: int = 2, block_lines: int = DEFAULT_BLOCK_LINES,
                    progress: bool | None = None, out: str | os.PathLike | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Encode every line of every source: ``(ids, line_offsets)``.

    Parameters
    ----------
    sources : str, path, or iterable of str / paths
        Texts (split on ``"\\n"``) or UTF-8 files (a leading byte-order mark dropped);
        lines are numbered per source. A ``str`` is text, a path-like (``pathlib.Path``) a
        file. A ``str`` that names an existing file is refused (``ValueError``: pass
        ``Path(name)``): tokenised as its own characters it would silently differ from
        :func:`tokenize_corpus_dask`, which reads it.
    tokenizer : TextTokenizer
    seed : int
    num_threads : int, default 2
        Blocks encoded at once, each in a thread of this process with single-threaded
        kernels (the kernels release the GIL). 1: one block at a time in this thread, its
        batch kernels parallel over words on numba's threads.
    block_lines : int
        Lines per block (the unit of work and of randomness).
    progress : bool or None
        tqdm bar over blocks (None: when there are many).
    out : path, optional
        Also write ``ids`` and ``line_offsets`` to this ``.npz`` file.

    Returns
    -------
    ids : numpy.ndarray of int32
    line_offsets : numpy.ndarray of int64
        Line ``k`` (over all sources in order) has ids ``ids[line_offsets[k]:line_offsets[k+1]]``.
    """
    from tqdm.auto import tqdm

    seed, block_lines = _check(tokenizer, seed, block_lines)
    num_threads = check_workers(num_threads, "num_threads")
    target = None if out is None else _npz_path(out)  # checked before any work
    if isinstance(sources, (str, os.PathLike)):
        sources = [sources]
    if isinstance(sources, (bytes, dict)) or not isinstance(sources, Iterable):
        raise ArgumentTypeError(f"sources must be texts or paths, not {type(sources).__name__}")
    sources = list(sources)
    for source in sources:  # every source checked before any work
        _check_source(source)
    tasks = iter_blocks(sources, block_lines)
    with tqdm(desc="blocks", unit="block", disable=progress is False,
              mininterval=0.5) as bar:
        parts = _encode_blocks(tasks, tokenizer, seed, num_threads, bar)
    ids, offsets = _join(parts)
    if target is not None:
        _save(target, ids, offsets)
    return ids, offsets


def _npz_path(out: str | os.PathLike) -> Path:
    """The ``.npz`` file ``out`` names (``.npz`` appended as ``numpy.savez`` would), checked."""
    if not isinstance(out, (str, os.PathLike)):
        raise ArgumentTypeError(f"out must be a path, not {type(out).__name__}")
    path = Path(out)
    check_output_path(path)  # a directory or a special file (/dev/full) is refused as named
    if path.suffix != ".npz":
        path = path.with_name(path.name + ".npz")
    return check_output_path(path)


def _save(path: Path, ids: np.ndarray, offsets: np.ndarray) -> None:
    """Write the ``.npz`` atomically: an interruption leaves no partial file."""
    with atomic_write(path, "wb") as handle:
        np.savez(handle, ids=ids, line_offsets=offsets)


def _dask_task(task: tuple[int, int, str, int, int, int, bool], tokenizer: TextTokenizer,
               seed: int) -> tuple[int, int, np.ndarray, np.ndarray]:
    s, b, path, first, start, stop, last = task
    ids, offsets = encode_block(tokenizer, seed, s, b, read_block(path, first, start, stop, last))
    return s, b, ids, offsets


def tokenize_corpus_dask(paths: Sequence[str | os.PathLike] | str | os.PathLike,
                         tokenizer: TextTokenizer, *, seed: int = 0,
                         block_lines: int = DEFAULT_BLOCK_LINES, partitions: int | None = None,
                         client: object = None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`tokenize_corpus` as a Dask bag map over blocks of files (same result).

    Needs ``dask`` (``pip install tokenisation-workbench[scale]``). The bag holds one task
    per block ``(file, byte range)``: each task reads only its own bytes, so a worker's
    memory is bounded by the block, not the file. ``partitions`` (``1 ≤ partitions``; at
    most the number of blocks is used) groups them; any grouping gives the same output.
    Computed on ``client`` (a ``distributed.Client``) if given, else on Dask's default
    scheduler. ``paths`` is a file path or a sequence of them, a ``str`` included (as in
    ``count_chunks``); a ``str`` that names no file raises ``FileNotFoundError`` (texts go to
    :func:`tokenize_corpus`). So a ``str`` never means two things: one that names a file is
    read here and refused by :func:`tokenize_corpus` (which reads ``Path(name)``), one that
    names none is text there and refused here.
    """
    import dask.bag as db

    seed, block_lines = _check(tokenizer, seed, block_lines)
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = list(paths)
    for path in paths:
        if not isinstance(path, (str, os.PathLike)):
            raise ArgumentTypeError("every path must be str or os.PathLike, not "
                                    f"{type(path).__name__}")
        if not Path(path).is_file():
            raise MissingFileError(f"no file at {path} (tokenize_corpus_dask takes file paths; "
                                   "texts go to tokenize_corpus)")
    if partitions is not None:
        partitions = check_int(partitions, "partitions", minimum=1, maximum=10**6)
    if client is not None:
        from distributed import Client

        if not isinstance(client, Client):
            raise ArgumentTypeError("client must be a distributed.Client, not "
                                    f"{type(client).__name__}")
    tasks = []
    for s, path in enumerate(paths):
        ranges = block_ranges(path, block_lines)
        for b, (first, start, stop) in enumerate(ranges):
            tasks.append((s, b, os.fspath(path), first, start, stop, b == len(ranges) - 1))
    if not tasks:
        return _join([])
    bag = db.from_sequence(tasks, npartitions=min(partitions or 64, len(tasks)))
    mapped = bag.map(_dask_task, tokenizer=tokenizer, seed=seed)
    results = client.compute(mapped).result() if client is not None else mapped.compute()
    results = sorted(results, key=lambda r: (r[0], r[1]))
    return _join([(r[2], r[3]) for r in results])
