"""A corpus to ids, streamed, on both cores or on a Dask cluster, with the same result.

:func:`tokenize_corpus` reads texts (strings) or files line by line, cuts them into blocks of
``block_lines`` lines counted from the start of each source, and encodes every block with
:meth:`.pipeline.TextTokenizer.encode_lines` under the seed ``(seed, source index, block
index)``. A line's ids therefore depend only on the seed and the line's position (source,
line number): never on the number of workers, on how blocks are shipped to them, or on how a
Dask bag partitions the work (:func:`tokenize_corpus_dask`, optional ``[scale]`` extra). Blocks
are encoded in threads of this process (the numba kernels release the GIL, so there is no
process start-up, pickling or copying of the tokenizer) and collected in order, with a
progress bar.

This module does not pretokenise or sample itself (:mod:`.pipeline`).

Example
-------
>>> from workbench import Grampa, datasets
>>> from workbench.pretokenise import TextTokenizer
>>> tok = TextTokenizer(Grampa(datasets.load_vocabulary("ulm-8k")), p=0.0)
>>> ids, line_offsets = tokenize_corpus(["a b\\nc", "d"], tok, seed=0, workers=1,
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

from .._core.validate import check_int
from .pipeline import TextTokenizer

__all__ = ["encode_block", "iter_blocks", "tokenize_corpus", "tokenize_corpus_dask"]

DEFAULT_BLOCK_LINES = 2048


def _lines_of(source: str | os.PathLike) -> list[str]:
    if isinstance(source, os.PathLike):
        with open(source, encoding="utf-8") as f:
            return f.read().split("\n")
    if not isinstance(source, str):
        raise TypeError(f"a source must be str (text) or a path, not {type(source).__name__}")
    return source.split("\n")


def iter_blocks(sources: Iterable[str | os.PathLike], block_lines: int
                ) -> Iterator[tuple[int, int, list[str]]]:
    """``(source index, block index, lines)`` for every block, in order."""
    for s, source in enumerate(sources):
        lines = _lines_of(source)
        for b, first in enumerate(range(0, len(lines), block_lines)):
            yield s, b, lines[first:first + block_lines]


def encode_block(tokenizer: TextTokenizer, seed: int, source: int, block: int,
                 lines: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """One block's ``(ids, line offsets)`` under the seed ``(seed, source, block)``."""
    return tokenizer.encode_lines(lines, np.random.default_rng([seed, source, block]))


def _single_threaded_kernels() -> None:
    """Pool-thread initializer: this thread's numba kernels run on one thread (no nesting)."""
    import numba

    numba.set_num_threads(1)  # thread-local in numba: other threads keep their setting


def _encode_blocks(tasks: Iterator[tuple[int, int, list[str]]], tokenizer: TextTokenizer,
                   seed: int, workers: int, bar) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every block's ``(ids, offsets)`` in order, ``workers`` blocks at a time.

    Blocks run in threads of this process: the kernels release the GIL. At most ``2 *
    workers`` blocks are in flight, so a long corpus is not all read ahead. On any exception
    (``KeyboardInterrupt`` included) queued blocks are cancelled and running ones finish
    before the exception propagates: no thread outlives the call.
    """
    parts = []
    if workers == 1:
        for s, b, lines in tasks:
            parts.append(encode_block(tokenizer, seed, s, b, lines))
            bar.update()
        return parts
    pool = ThreadPoolExecutor(workers, thread_name_prefix="tokenize_corpus",
                              initializer=_single_threaded_kernels)
    pending: deque[Future] = deque()
    try:
        for task in tasks:
            pending.append(pool.submit(encode_block, tokenizer, seed, *task))
            if len(pending) >= 2 * workers:
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
        raise TypeError("tokenizer must be a workbench.pretokenise.TextTokenizer")
    return (check_int(seed, "seed", minimum=0),
            check_int(block_lines, "block_lines", minimum=1, maximum=10**7))


def tokenize_corpus(sources: Iterable[str | os.PathLike] | str, tokenizer: TextTokenizer, *,
                    seed: int = 0, workers: int = 2, block_lines: int = DEFAULT_BLOCK_LINES,
                    progress: bool | None = None, out: str | os.PathLike | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Encode every line of every source: ``(ids, line_offsets)``.

    Parameters
    ----------
    sources : str, path, or iterable of str / paths
        Texts (split on ``"\\n"``) or UTF-8 files; lines are numbered per source.
    tokenizer : TextTokenizer
    seed : int
    workers : int, default 2
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
    workers = check_int(workers, "workers", minimum=1, maximum=256)
    if isinstance(sources, (str, os.PathLike)):
        sources = [sources]
    tasks = iter_blocks(sources, block_lines)
    with tqdm(desc="blocks", unit="block", disable=progress is False,
              mininterval=0.5) as bar:
        parts = _encode_blocks(tasks, tokenizer, seed, workers, bar)
    ids, offsets = _join(parts)
    if out is not None:
        _save(Path(out), ids, offsets)
    return ids, offsets


def _save(path: Path, ids: np.ndarray, offsets: np.ndarray) -> None:
    """Write the ``.npz`` through a temporary file, so an interruption leaves no partial file."""
    if path.suffix != ".npz":
        path = path.with_name(path.name + ".npz")  # what numpy.savez would write
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            np.savez(f, ids=ids, line_offsets=offsets)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _dask_task(task: tuple[int, int, str, int, int], tokenizer: TextTokenizer, seed: int
               ) -> tuple[int, int, np.ndarray, np.ndarray]:
    s, b, path, first, stop = task
    lines = _lines_of(Path(path))[first:stop]
    ids, offsets = encode_block(tokenizer, seed, s, b, lines)
    return s, b, ids, offsets


def tokenize_corpus_dask(paths: Sequence[str | os.PathLike], tokenizer: TextTokenizer, *,
                         seed: int = 0, block_lines: int = DEFAULT_BLOCK_LINES,
                         partitions: int | None = None, client: object = None
                         ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`tokenize_corpus` as a Dask bag map over blocks of files (same result).

    Needs ``dask`` (``pip install tokenisation-workbench[scale]``). The bag holds one task
    per block ``(file, block)``; ``partitions`` groups them (any grouping gives the same
    output). Computed on ``client`` if given, else on Dask's default scheduler.
    """
    import dask.bag as db

    seed, block_lines = _check(tokenizer, seed, block_lines)
    tasks = []
    for s, path in enumerate(paths):
        n_lines = len(_lines_of(Path(path)))
        for b, first in enumerate(range(0, n_lines, block_lines)):
            tasks.append((s, b, os.fspath(path), first, min(n_lines, first + block_lines)))
    if not tasks:
        return _join([])
    bag = db.from_sequence(tasks, npartitions=partitions or min(len(tasks), 64))
    mapped = bag.map(_dask_task, tokenizer=tokenizer, seed=seed)
    results = client.compute(mapped).result() if client is not None else mapped.compute()
    results = sorted(results, key=lambda r: (r[0], r[1]))
    return _join([(r[2], r[3]) for r in results])
