"""Chunk counting: text → chunk→count table with a split pattern, at any scale.

:func:`count_chunks` splits text into *chunks* with the GPT-4 pretokenisation pattern
(:data:`workbench.bpe.pattern.GPT4_PATTERN`, the default) or GPT-2's (``pattern="gpt2"``)
— the numba pretokeniser of :mod:`workbench.bpe.split`, equal to ``regex.findall`` — and
counts them in one numba pass per block (a hash table of distinct chunks; Python strings
are made only for distinct chunks). A user regex (``pattern=r"..."``) is counted with
:mod:`regex` instead, one whole text or file per unit of work (see *User patterns*).
The same counting runs three ways, with identical results (same dict, same order):

* in the calling thread (``num_threads=1``);
* over the cores of one machine (``num_threads=None``: all of them): worker threads of one
  pool kept for the whole session (the counting kernel releases the GIL);
* as a map/reduce on a **Dask** cluster (``client=``, needs the ``[scale]`` extra): one task
  per block of input, partial tables summed by a tree of reduce tasks on the cluster.

Files are streamed, never read whole: each task reads one byte range of one file line by
line and counts it in blocks of at most ``block_size`` characters, so memory stays bounded
whatever the file size. A UTF-8 byte-order mark at the start of a file is dropped (one, at
the start of each file: it never becomes a chunk or part of one), as every text reader of
the package drops it; anywhere else, and in in-memory texts, U+FEFF is text. In-memory
texts (a list of ``str``) are cut into blocks the same way. Where a block may end (GPT-4's
and GPT-2's safe cuts, and the caveat for texts without one), how a byte range is read, and
how undecodable bytes are reported (:class:`TextDecodeError`): :mod:`workbench.bpe.blocks`.

**User patterns.** For any other regex nothing guarantees a safe cut, so each text and
each file is one unit of work, split by :func:`workbench.bpe.split_patterns.split_with_gaps`
(the matches, and the stretches the pattern leaves unmatched as chunks of their own, as
:meth:`BPEModel.split <workbench.bpe.model.BPEModel.split>` cuts text). A file is then
read whole (streamed in pieces, joined before splitting): memory grows with the largest
file. Several files or texts still run in parallel.

On a Dask cluster (``pip install "tokenisation-workbench[scale]"``; every worker needs
``workbench`` installed and must see the files under the same paths)::

    from distributed import Client
    with Client("tcp://scheduler:8786") as client:
        table = count_chunks(sorted(Path("corpus").glob("*.txt")), client=client,
                             block_size=64 << 20, freq_cutoff=2, out="counts.tsv")

This module does not train anything, does not pick stop words (the trainer takes the
``stop_list_size`` most common chunks of the table) and does not normalise Unicode.

Example
-------
>>> count_chunks(texts=["The cat's hat, the cat.\\n"])
{' cat': 2, ' hat': 1, ' the': 1, "'s": 1, ',': 1, '.\\n': 1, 'The': 1}
>>> count_chunks(texts=["a a a b"], freq_cutoff=2)
{' a': 2}
"""

from __future__ import annotations

import os
import threading
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from operator import itemgetter
from pathlib import Path

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from .._core.config import JIT
from .._core.deprecation import renamed_keywords
from .._core.errors import ArgumentTypeError, InvalidValueError, MissingFileError
from .._core.jsonfile import UTF8_BOM
from .._core.validate import check_choice, check_int, check_workers
from ..counts import as_counts, check_counts_path, write_counts
from .blocks import _CUT, _CUT_GPT2, TextDecodeError, _range_text, _safe_blocks
from .split import chunk_end, class_table, code_points
from .split_patterns import NAMED_PATTERNS, resolve_pattern, split_with_gaps

__all__ = ["DEFAULT_BLOCK_SIZE", "TextDecodeError", "apply_freq_cutoff", "count_chunks"]

#: Default size of one unit of work: bytes of a file per task, characters of a text per task.
DEFAULT_BLOCK_SIZE = 1 << 20

#: Inputs at least this large (bytes/characters) show a progress bar when ``progress=None``.
_PROGRESS_MIN = 4 << 20
#: Partial tables merged by one reduce task on a Dask cluster.
_FAN_IN = 8
#: Tasks in flight per worker thread (bounds the memory of queued blocks).
_IN_FLIGHT = 2
_ERRORS = ("strict", "replace", "ignore")

def _count_task(task: tuple, counter: Counter[str] | None = None) -> Counter[str]:
    """Count one unit of work into ``counter`` (a new one by default) and return it.

    ``task`` is ``("text", str, size, pattern)`` or ``("file", path, start, stop, errors,
    size, pattern)``; ``pattern`` is ``"gpt4"``, ``"gpt2"`` or a user regex (then the task
    is a whole text or file, split with :mod:`regex`). Module-level so that worker
    processes and Dask can pickle it by name.

    >>> dict(_count_task(("text", "to be, or not to be", 4, "gpt4")))
    {'to': 1, ' be': 2, ',': 1, ' or': 1, ' not': 1, ' to': 1}
    >>> dict(_count_task(("text", "to be, or", 4, r"\\w+")))
    {'to': 1, ' ': 1, 'be': 1, ', ': 1, 'or': 1}
    """
    if task[0] == "text":
        _, text, size, pattern = task
        pieces: Iterable[str] = (text,)
    else:
        _, path, start, stop, errors, size, pattern = task
        pieces = _range_text(path, start, stop, errors)
        if start == 0:
            pieces = _without_bom(path, pieces)
    if counter is None:
        counter = Counter()
    if pattern not in NAMED_PATTERNS:
        counter.update(split_with_gaps(resolve_pattern(pattern)[2], "".join(pieces)))
        return counter
    table = class_table()
    gpt4 = pattern == "gpt4"
    for block in _safe_blocks(pieces, size, _CUT if gpt4 else _CUT_GPT2):
        starts, ends, counts = _count_block(code_points(block), table, gpt4)
        counter.update(dict(zip([block[a:b] for a, b in zip(starts.tolist(), ends.tolist())],
                                counts.tolist())))
    return counter


def _without_bom(path: str, pieces: Iterator[str]) -> Iterator[str]:
    """The pieces of a file read from its start, without a leading UTF-8 byte-order mark:
    exactly one, and only where the file's first three bytes are one (the first piece, whole
    lines, then starts with U+FEFF whatever ``errors`` is). Reads 3 bytes more."""
    with open(path, "rb") as handle:
        bom = handle.read(len(UTF8_BOM)) == UTF8_BOM
    first = next(pieces, None)
    if first is None:
        return
    yield first[1:] if bom and first[:1] == "\ufeff" else first
    yield from pieces


_MUL = np.uint64(0x9E3779B97F4A7C15)
_FNV = np.uint64(0xCBF29CE484222325)
_FNV_P = np.uint64(0x100000001B3)


@njit(**JIT)
def _count_block(cps, table, gpt4):  # noqa: PLR0915  (numba kernel)
    """Distinct chunks (GPT-4 pattern if ``gpt4`` else GPT-2) of ``cps`` with counts:
    ``(starts, ends, counts)`` of their first occurrences, in order of first occurrence.

    Open addressing on an FNV-1a hash of the code points; a slot is one 32-byte row
    ``hash, start, end, count`` (one cache line per probe), chunks compared code point by
    code point when hashes agree.
    """
    n = cps.shape[0]
    cap = 1 << 12
    rows = np.zeros((cap, 4), dtype=np.int64)  # count 0: empty
    m = 0
    i = 0
    while i < n:
        e = chunk_end(cps, i, n, table, gpt4)
        h = _FNV
        for k in range(i, e):
            h = (h ^ np.uint64(cps[k])) * _FNV_P
        key = np.int64(h >> np.uint64(1))
        mask = cap - 1
        s = np.int64((np.uint64(key) * _MUL) >> np.uint64(32)) & mask
        while True:
            if rows[s, 3] == 0:
                rows[s, 0] = key
                rows[s, 1] = i
                rows[s, 2] = e
                rows[s, 3] = 1
                m += 1
                break
            if rows[s, 0] == key and rows[s, 2] - rows[s, 1] == e - i:
                a = rows[s, 1]
                same = True
                for k in range(e - i):
                    if cps[a + k] != cps[i + k]:
                        same = False
                        break
                if same:
                    rows[s, 3] += 1
                    break
            s = (s + 1) & mask
        if 2 * m >= cap:  # grow: rehash the rows
            old = rows
            cap *= 2
            rows = np.zeros((cap, 4), dtype=np.int64)
            mask = cap - 1
            for r in range(old.shape[0]):
                if old[r, 3] != 0:
                    s = np.int64((np.uint64(old[r, 0]) * _MUL) >> np.uint64(32)) & mask
                    while rows[s, 3] != 0:
                        s = (s + 1) & mask
                    rows[s, :] = old[r, :]
        i = e
    starts = np.empty(m, dtype=np.int64)
    ends = np.empty(m, dtype=np.int64)
    counts = np.empty(m, dtype=np.int64)
    w = 0
    for r in range(cap):
        if rows[r, 3] != 0:
            starts[w] = rows[r, 1]
            ends[w] = rows[r, 2]
            counts[w] = rows[r, 3]
            w += 1
    order = np.argsort(starts)  # first-occurrence order, as a Counter fed chunk by chunk
    return starts[order], ends[order], counts[order]


def _merge_parts(*parts: Mapping[str, int]) -> Counter[str]:
    """Sum partial tables (the reduce step).

    >>> dict(_merge_parts({"a": 1, "b": 2}, {"b": 3}))
    {'a': 1, 'b': 5}
    """
    total: Counter[str] = Counter()
    for part in parts:
        total.update(part)
    return total


# --------------------------------------------------------------------------- planning
def _check_paths(paths: object) -> list[str]:
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    if isinstance(paths, (bytes, Mapping)) or not isinstance(paths, Iterable):
        raise ArgumentTypeError("paths must be a path or a list of paths, not "
                                f"{type(paths).__name__}")
    out = []
    for path in paths:
        if not isinstance(path, (str, os.PathLike)):
            raise ArgumentTypeError("every path must be a str or os.PathLike, not "
                                    f"{type(path).__name__} ({path!r:.60})")
        if not Path(path).is_file():
            raise MissingFileError(f"no text file at {path}")
        out.append(os.fspath(Path(path).resolve()))
    return out


def _check_texts(texts: object) -> list[str]:
    if texts is None:
        return []
    if isinstance(texts, str) or not isinstance(texts, Iterable):
        raise ArgumentTypeError(
            f"texts must be a list of str, not {type(texts).__name__}"
            + (" (wrap a single text in a list)" if isinstance(texts, str) else ""))
    texts = list(texts)
    for text in texts:
        if not isinstance(text, str):
            raise ArgumentTypeError(f"every text must be a str, not {type(text).__name__} "
                                    f"({text!r:.60})")
    return texts


def _plan(paths: list[str], texts: list[str], block_size: int, errors: str,
          pattern: str = "gpt4") -> tuple[int, Iterator[tuple[tuple, int]]]:
    """Total input size and a lazy stream of ``(task, size)`` units of work (whole texts
    and files for a user pattern, which has no proven safe cut; whole files for GPT-2,
    whose byte ranges would need cuts after ``\\S\\n``, see the module docstring)."""
    sizes = [os.path.getsize(path) for path in paths]
    total = sum(sizes) + sum(len(text) for text in texts)
    scan = min(block_size, DEFAULT_BLOCK_SIZE)
    whole = pattern not in NAMED_PATTERNS
    cut = _CUT if pattern == "gpt4" else _CUT_GPT2

    def tasks() -> Iterator[tuple[tuple, int]]:
        for path, size in zip(paths, sizes):
            starts = [0] if pattern != "gpt4" else (list(range(0, size, block_size)) or [0])
            for i, start in enumerate(starts):
                stop = starts[i + 1] if i + 1 < len(starts) else None
                yield ("file", path, start, stop, errors, scan, pattern), (stop or size) - start
        for text in texts:
            for block in ((text,) if whole else _safe_blocks((text,), block_size, cut)):
                yield ("text", block, scan, pattern), len(block)

    return total, tasks()


# --------------------------------------------------------------------------- executors
def _run_serial(tasks: Iterator[tuple[tuple, int]], bar: tqdm) -> Counter[str]:
    total: Counter[str] = Counter()
    for task, size in tasks:
        _count_task(task, total)
        bar.update(size)
    return total


_POOLS: dict[int, ThreadPoolExecutor] = {}
_POOL_LOCK = threading.Lock()


def _pool(threads: int) -> ThreadPoolExecutor:
    """The session's pool of ``threads`` worker threads (created on first use, then kept;
    never shut down under a caller, so concurrent calls may share it)."""
    with _POOL_LOCK:
        pool = _POOLS.get(threads)
        if pool is None:
            pool = _POOLS[threads] = ThreadPoolExecutor(threads,
                                                        thread_name_prefix="workbench-count")
        return pool


def _run_pool(tasks: Iterator[tuple[tuple, int]], pool: ThreadPoolExecutor, num_threads: int,
              bar: tqdm) -> Counter[str]:
    """Feed ``pool`` with a bounded number of tasks in flight; sum their tables."""
    total: Counter[str] = Counter()
    pending: deque = deque()
    try:
        for task, size in tasks:
            pending.append((pool.submit(_count_task, task), size))
            while len(pending) >= _IN_FLIGHT * num_threads:
                result, done = pending.popleft()
                total.update(result.result())
                bar.update(done)
        while pending:
            result, done = pending.popleft()
            total.update(result.result())
            bar.update(done)
    except BaseException:  # an error or Ctrl-C: drop the queued tasks
        for result, _ in pending:
            result.cancel()
        raise
    return total


def _run_dask(tasks: Iterator[tuple[tuple, int]], client: object, bar: tqdm) -> Mapping[str, int]:
    """Map every task on the cluster, reduce by a tree of ``_FAN_IN``-way merges there."""
    from distributed import as_completed

    work = list(tasks)
    futures = client.map(_count_task, [task for task, _ in work], pure=False)
    sizes = {future.key: size for future, (_, size) in zip(futures, work)}
    del work
    level = list(futures)
    every = list(futures)
    try:
        while len(level) > 1:
            level = [client.submit(_merge_parts, *level[i:i + _FAN_IN], pure=False)
                     for i in range(0, len(level), _FAN_IN)]
            every += level
        for future in as_completed(futures):
            if future.status == "error":
                future.result()  # raises the worker's exception here
            bar.update(sizes[future.key])
        return level[0].result() if level else {}
    except BaseException:
        client.cancel(every)
        raise


# --------------------------------------------------------------------------- public
@renamed_keywords(processes="num_threads")
def count_chunks(paths: str | os.PathLike | Iterable[str | os.PathLike] = (), *,
                 texts: Iterable[str] | None = None, freq_cutoff: int = 1,
                 num_threads: int | None = None, block_size: int = DEFAULT_BLOCK_SIZE,
                 errors: str = "strict", client: object | None = None,
                 progress: bool | None = None,
                 out: str | os.PathLike | None = None,
                 pattern: str = "gpt4") -> dict[str, int]:
    """Count the chunks (GPT-4 pattern by default) of text files and/or in-memory texts.

    Parameters
    ----------
    paths : path or iterable of paths
        UTF-8 text files, streamed by byte ranges of ``block_size`` bytes (never read whole).
        Each file is a separate text: no chunk spans two files. A leading byte-order mark
        is dropped.
    texts : iterable of str, optional
        In-memory texts, each a separate text (a single ``str`` is refused: wrap it in a list).
    freq_cutoff : int
        Keep only chunks occurring at least this often in the whole input (BatchBPE §2.2;
        1 keeps everything). Applied after all partial tables are summed.
    num_threads : int, optional
        Worker threads on this machine (default: every core available to this process; 1
        counts in the calling thread). The threads are kept for later calls. Ignored when
        ``client`` is given.
    block_size : int
        Bytes of a file (characters of a text) per unit of work; blocks are moved to the next
        safe cut (module docstring). The result does not depend on it.
    errors : {"strict", "replace", "ignore"}
        What to do with bytes that are not UTF-8 (module docstring).
    client : distributed.Client, optional
        Run as a map/reduce on this Dask cluster instead (``pip install
        tokenisation-workbench[scale]``). Its workers must import ``workbench`` and see the
        files under the same paths (a shared file system); in-memory texts are shipped.
    progress : bool, optional
        Show a tqdm progress bar (bytes done). ``None``: only for inputs of 4 MiB or more.
    out : path, optional
        Also write the table there as ``chunk<TAB>count`` TSV (:func:`workbench.counts.
        write_counts`; an empty table is refused).
    pattern : str
        The split pattern: ``"gpt4"`` (default), ``"gpt2"`` (numba pretokeniser, equal to
        ``regex.findall``) or a user regex (:mod:`regex`; one unit of work per text or
        file, unmatched stretches kept as chunks, see the module docstring). Train with
        the same pattern: ``train_bpe(table, ..., pattern=pattern)``.

    Returns
    -------
    dict of str to int
        Chunk → count, most common first, ties in code-point order of the chunk; identical
        for every ``num_threads``, ``block_size`` and cluster.

    Raises
    ------
    TypeError
        Wrong argument types.
    ValueError
        Bad values (``freq_cutoff < 1``, ``block_size < 1``, unknown ``errors``, a
        ``pattern`` that does not compile), or neither ``paths`` nor ``texts`` given.
    FileNotFoundError
        A path that is not a file.
    TextDecodeError
        Invalid UTF-8 with ``errors="strict"`` (a :class:`UnicodeDecodeError`); the message
        names the file and line.

    Examples
    --------
    >>> count_chunks(texts=["See you at 12:30.", "See you!"], num_threads=1)
    {' you': 2, 'See': 2, ' ': 1, ' at': 1, '!': 1, '.': 1, '12': 1, '30': 1, ':': 1}
    >>> count_chunks(texts=["year 12345"], pattern="gpt2", num_threads=1)
    {' 12345': 1, 'year': 1}
    """
    freq_cutoff = check_int(freq_cutoff, "freq_cutoff", minimum=1)
    pattern = resolve_pattern(pattern)[0]
    block_size = check_int(block_size, "block_size", minimum=1)
    errors = check_choice(errors, "errors", _ERRORS)
    if num_threads is not None:
        num_threads = check_workers(num_threads, "num_threads")
    if progress is not None and not isinstance(progress, bool):
        raise ArgumentTypeError("progress must be True, False or None, not "
                                f"{type(progress).__name__}")
    if client is not None and not (hasattr(client, "map") and hasattr(client, "submit")):
        raise ArgumentTypeError(f"client must be a distributed.Client, not {type(client).__name__}")
    path_list = _check_paths(paths)
    text_list = _check_texts(texts)
    if not path_list and texts is None:
        raise InvalidValueError("nothing to count: give paths and/or texts=[...]")
    if out is not None:
        check_counts_path(out)  # before the counting, not after it

    total, tasks = _plan(path_list, text_list, block_size, errors, pattern)
    if num_threads is None:
        num_threads = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
            else (os.cpu_count() or 1)
    disable = (not progress) if progress is not None else (total < _PROGRESS_MIN or None)
    use_pool = client is None and num_threads > 1 and total > block_size
    pool = _pool(num_threads) if use_pool else None
    with tqdm(total=total, unit="B", unit_scale=True, desc="counting chunks",
              disable=disable) as bar:
        if client is not None:
            table: Mapping[str, int] = _run_dask(tasks, client, bar)
        elif pool is not None:
            table = _run_pool(tasks, pool, num_threads, bar)
        else:
            table = _run_serial(tasks, bar)
    result = _ordered(table, freq_cutoff)
    if out is not None:
        write_counts(result, out)
    return result


def _ordered(table: Mapping[str, int], freq_cutoff: int) -> dict[str, int]:
    """Entries with count >= freq_cutoff, most common first, ties by chunk."""
    kept = [(chunk, n) for chunk, n in table.items() if n >= freq_cutoff]
    kept.sort(key=itemgetter(0))
    kept.sort(key=itemgetter(1), reverse=True)  # stable: ties stay in chunk order
    return dict(kept)


def apply_freq_cutoff(counts: Mapping[str, int] | str | os.PathLike,
                      freq_cutoff: int) -> dict[str, int]:
    """Keep the chunks of a table that occur at least ``freq_cutoff`` times (BatchBPE §2.2).

    Parameters
    ----------
    counts : Mapping[str, int] or path
        A chunk→count table or the path of a TSV (validated by
        :func:`workbench.counts.as_counts`).
    freq_cutoff : int
        The threshold (``>= 1``; 1 keeps everything).

    Returns
    -------
    dict of str to int
        The kept entries, in the table's order (may be empty).

    Examples
    --------
    >>> apply_freq_cutoff({" the": 10, " cat": 2, " zyx": 1}, 2)
    {' the': 10, ' cat': 2}
    """
    freq_cutoff = check_int(freq_cutoff, "freq_cutoff", minimum=1)
    return {chunk: n for chunk, n in as_counts(counts).items() if n >= freq_cutoff}
