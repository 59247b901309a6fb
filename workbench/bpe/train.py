"""Training byte-level BPE from a chunk→count table: :func:`train_bpe`.

The table (a mapping or a TSV path, see :mod:`workbench.counts`) is filtered by the
frequency cut-off (BatchBPE §2.2: chunks seen fewer than ``freq_cutoff`` times are dropped),
its ``stop_list_size`` most common chunks become whole-chunk tokens kept out of merging
(§2.1), and the rest is trained by the numba kernels of :mod:`workbench.bpe._kernels`
(a table given as a TSV path is read straight into arrays when nothing is cut or stopped):
serially (one merge per step) or in safe batches (Code Block 1, §3.3–3.5).

Tie-breaking (deterministic, documented): the pair with the highest count wins; among equal
counts the smallest ``(id(left), id(right))`` under HuggingFace ``tokenizers``' numbering
wins — its BPE trainer numbers the 256 byte tokens by the code point of their GPT-2
byte-level spelling (``!`` = 0, …, ``Ġ`` (space) = 220, …) and merged tokens in creation
order after them, and breaks ties exactly so. With ``pair_counting="overlapping"`` the serial
merge list therefore equals HF's (tested). rustbpe breaks ties the same way but numbers bytes
by value, so it may order tied byte pairs differently. The BatchBPE reference keeps
``heapq.nlargest``'s first-seen order, which depends on its data order.

This module does not count chunks in text (see :mod:`workbench.bpe.counting`) and does not
encode (see :mod:`workbench.bpe.model`).

Example
-------
>>> m = train_bpe({"aaabdaaabac": 1}, 259, batch=False, pair_counting="overlapping",
...               progress=False)
>>> m.merges
[(b'a', b'a'), (b'a', b'b'), (b'aa', b'ab')]
"""

from __future__ import annotations

import heapq
import os
import sys
import warnings
from collections.abc import Mapping

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import MEMORY_BUDGET, check_budget, check_choice, check_int
from ..counts import MAX_COUNT, as_counts, check_pair_total, read_count_arrays
from . import _kernels as K
from .bytelevel import HF_BYTE_RANK, to_bytelevel
from .model import Batch, BPEModel
from .split_patterns import resolve_pattern

PAIR_COUNTING = ("nonoverlapping", "overlapping")
#: Rough bytes of kernel state per symbol of the training table (positions, pairs, lists, heap).
_BYTES_PER_SYMBOL = 160
#: Merges (serial) or batches (batched) per kernel call between progress updates.
_SERIAL_STEPS, _BATCH_STEPS = 2048, 16


class BPEExhaustedWarning(UserWarning):
    """Training ran out of pairs before reaching ``vocab_size``."""


def select_chunks(table: Mapping[str, int], stop_list_size: int, freq_cutoff: int
                  ) -> tuple[list[str], dict[str, int]]:
    """Apply the frequency cut-off, then split off up to ``stop_list_size`` stop words.

    BatchBPE's rule (Morgan 2024, §2.1, as its reference code does it): look at the
    ``2 · stop_list_size`` most common chunks and keep, in that order, those of more than
    one character, at most ``stop_list_size`` of them. A one-character chunk (``","``,
    ``"\\n"``, a space) is a single byte or code point already: as a stop word it would be a
    second token for the same text, which no exported tokenizer could express. One more
    rule of ours, so that every trained model exports (:mod:`workbench.bpe.export`): a
    chunk spelled in GPT-2's byte-level alphabet exactly as it is written (``"the"``,
    ``"),"``: no space, newline or non-ASCII letter) is skipped too, because a
    ``tokenizer.json`` vocabulary would give it the id of the merged token of the same
    spelling. Ordinary text's most common chunks start with a space or hold a newline, so
    this rarely bites; the list may be shorter than ``stop_list_size``. Ordered by count
    (descending), ties by the chunk's code points. Returns ``(stop_words,
    remaining_table)``.

    >>> select_chunks({" the": 9, " a": 9, "x": 1, "yz": 3}, 1, 2)
    ([' a'], {' the': 9, 'yz': 3})
    >>> select_chunks({",": 20, "\\n": 15, " the": 9, ".": 8, " a": 5}, 2, 1)[0]
    [' the']
    """
    kept = dict(table) if freq_cutoff <= 1 else {c: n for c, n in table.items()
                                                 if n >= freq_cutoff}
    if not kept:
        raise InvalidValueError(f"freq_cutoff={freq_cutoff} removes every chunk (the most common "
                                f"occurs {max(table.values())} times): nothing to learn from")
    if stop_list_size > len(kept):
        raise InvalidValueError(f"stop_list_size={stop_list_size} exceeds the {len(kept)} chunks "
                                f"left after freq_cutoff={freq_cutoff}")
    candidates = heapq.nsmallest(2 * stop_list_size, kept, key=lambda c: (-kept[c], c))
    stop = [c for c in candidates if len(c) > 1 and not _spelled_as_bytelevel(c)]
    stop = stop[:stop_list_size]
    for c in stop:
        del kept[c]
    if not kept:
        raise InvalidValueError(f"stop_list_size={stop_list_size} leaves no chunk to learn merges "
                                "from")
    return stop, kept


def _spelled_as_bytelevel(chunk: str) -> bool:
    """Whether ``chunk`` reads the same in GPT-2's byte-level alphabet (``"the"``: yes).

    >>> _spelled_as_bytelevel("the"), _spelled_as_bytelevel(" the"), _spelled_as_bytelevel("é")
    (True, False, False)
    """
    try:
        return to_bytelevel(chunk.encode("utf-8")) == chunk
    except UnicodeEncodeError:  # a lone surrogate: refused later with the chunk named
        return False


def _chunk_bytes(chunk: str) -> bytes:
    try:
        return chunk.encode("utf-8")
    except UnicodeEncodeError as err:
        code = ord(chunk[err.start])
        raise InvalidValueError(f"chunk {chunk!r:.60} holds a lone surrogate (U+{code:04X} at "
                                f"position {err.start}); it has no UTF-8 bytes") from None


def _check_pair_total(table: dict[str, int]) -> None:
    """:func:`workbench.counts.check_pair_total`, skipped when a cheap bound settles it.

    A chunk of ``c`` characters has at most ``4c`` UTF-8 bytes, so
    ``Σ count · (bytes − 1) <= Σ count · (4 · longest − 1)``; when that bound fits in int64
    the exact sum does too (same verdict, without encoding every chunk).
    """
    if sum(table.values()) * (4 * max(map(len, table)) - 1) > MAX_COUNT:
        check_pair_total(table)


def _show_progress(progress: bool | None, target: int) -> bool:
    if progress is None:
        return target >= 4096 and sys.stderr.isatty()
    if not isinstance(progress, bool):
        raise ArgumentTypeError(f"progress must be True, False or None, not {progress!r}")
    return progress


def train_bpe(
    counts: Mapping[str, int] | str | os.PathLike,
    vocab_size: int,
    *,
    batch: bool = True,
    cap_divisor: int = 2,
    max_batch_size: int = 0,
    pair_counting: str = "nonoverlapping",
    stop_list_size: int = 0,
    freq_cutoff: int = 1,
    progress: bool | None = None,
    pattern: str = "gpt4",
) -> BPEModel:
    """Train a byte-level BPE model on a chunk→count table.

    Parameters
    ----------
    counts : Mapping[str, int] or path
        Chunk → positive integer count, or the path of a ``chunk<TAB>count`` TSV.
    vocab_size : int
        Final vocabulary size: 256 bytes + stop words + merges.
    batch : bool
        Merge in safe batches (BatchBPE, Code Block 1) or one pair at a time.
    cap_divisor : int
        At most ``remaining // cap_divisor`` pairs are examined per batch (§3.5), >= 1.
    max_batch_size : int
        Hard cap on pairs examined per batch; 0 means no cap.
    pair_counting : {"nonoverlapping", "overlapping"}
        A run of ``L`` equal tokens holds ``L // 2`` pairs (BatchBPE's BatchTokenizer) or
        ``L - 1`` (minbpe, HF tokenizers, rustbpe).
    stop_list_size : int
        The most common chunks that become whole-chunk tokens kept out of merging (§2.1).
    freq_cutoff : int
        Chunks occurring fewer times are dropped before training (§2.2); 1 keeps all.
    progress : bool or None
        tqdm progress bar; ``None`` shows it for long runs on a terminal.
    pattern : str
        The split pattern of the returned model: ``"gpt4"`` (default), ``"gpt2"`` or a
        user regex (:mod:`workbench.bpe.split_patterns`). Use the pattern the table was
        counted with (:func:`~workbench.bpe.counting.count_chunks` takes the same
        argument): training only sees the chunks, encoding cuts text with this pattern.

    Returns
    -------
    BPEModel
        Built by the trusted constructor path (``BPEModel._from_trained``: the merges
        come from the kernel, so the constructor's per-merge checks are skipped; the
        model equals the one the public constructor builds from the same merges).

    Raises
    ------
    TypeError, ValueError
        Bad arguments or table (``vocab_size < 256 + stop_list_size``, empty corpus,
        a count <= 0 or not an int, a chunk with a lone surrogate).
    BudgetError
        If the kernel state would exceed the memory budget (raised before allocating).

    Warns
    -----
    BPEExhaustedWarning
        When no pair is left before ``vocab_size`` is reached; the model is returned with
        the merges made so far.
    """
    params = _check_params(vocab_size, batch, cap_divisor, max_batch_size, pair_counting,
                           stop_list_size, freq_cutoff)
    pattern = resolve_pattern(pattern)[0]
    arrays = None
    if isinstance(counts, (str, os.PathLike)) and stop_list_size == 0 and freq_cutoff == 1:
        arrays = read_count_arrays(counts)  # None: the dict route reads it, names errors
    if arrays is None:
        stop, data, cstart, ccnt = _from_table(as_counts(counts), stop_list_size, freq_cutoff)
    else:
        stop = []
        data, cstart, ccnt = arrays
        _check_array_pair_total(cstart, ccnt)
    target = vocab_size - 256 - len(stop)
    n_pos = len(data)
    check_budget(n_pos * _BYTES_PER_SYMBOL + target * 64, "BPE training state",
                 budget=MEMORY_BUDGET, hint=" (raise freq_cutoff to train on fewer chunks)")
    if target == 0:
        return BPEModel([], stop, batches=[], params=params, pattern=pattern)
    if int(np.max(np.diff(cstart))) < 2:
        warnings.warn("no chunk of two or more bytes: no pair to merge, no merges made",
                      BPEExhaustedWarning, stacklevel=2)
        return BPEModel([], stop, batches=[], params=params, pattern=pattern)
    sym = np.frombuffer(data, dtype=np.uint8)
    rank = np.arange(256 + target, dtype=np.int64)
    rank[:256] = HF_BYTE_RANK
    nonoverlap = pair_counting == "nonoverlapping"
    cfg = K.TrainConfig(batch, nonoverlap, int(cap_divisor), int(max_batch_size), target,
                        256 + len(stop))
    merges_out = np.zeros((target, 2), dtype=np.int64)
    batches_out = np.zeros((target, 2), dtype=np.int64)
    seen = np.full((2, 256 + target), -1, dtype=np.int64)
    state = K.init_state(sym, cstart, ccnt, rank, nonoverlap)
    n_merges, n_batches = _run(state, rank, cfg, merges_out, batches_out, seen,
                               _show_progress(progress, target))
    if n_merges < target:
        warnings.warn(f"ran out of pairs after {n_merges} merges: vocabulary has "
                      f"{256 + len(stop) + n_merges} tokens, not vocab_size={vocab_size}",
                      BPEExhaustedWarning, stacklevel=2)
    model = BPEModel._from_trained(merges_out[:n_merges], stop, params=params,
                                   pattern=pattern)
    batches, first = [], 0
    for size, searched in batches_out[:n_batches].tolist():
        batches.append(Batch(size, searched, tuple(model.merges[first:first + size])))
        first += size
    model.batches = batches
    return model


def _from_table(table: dict[str, int], stop_list_size: int, freq_cutoff: int
                ) -> tuple[list[str], bytes, np.ndarray, np.ndarray]:
    """A checked table's stop words and training chunks: ``(stop, data, cstart, ccnt)``,
    the chunks' UTF-8 bytes joined, their byte offsets (and the end) and their counts."""
    _check_pair_total(table)
    stop, kept = select_chunks(table, stop_list_size, freq_cutoff)
    for w in stop:
        _chunk_bytes(w)
    keys = list(kept)
    try:
        data = "".join(keys).encode("utf-8")
    except UnicodeEncodeError:
        for c in keys:
            _chunk_bytes(c)
        raise
    ccnt = np.fromiter(kept.values(), dtype=np.int64, count=len(keys))
    return stop, data, _chunk_starts(data, keys), ccnt


def _check_array_pair_total(cstart: np.ndarray, ccnt: np.ndarray) -> None:
    """:func:`_check_pair_total` for a table read into arrays (exact bytes per chunk)."""
    pairs = np.maximum(np.diff(cstart) - 1, 0)
    if float(ccnt.sum(dtype=np.float64)) * float(pairs.max()) < 2.0**62:
        return
    total = sum(int(n) * int(p) for n, p in zip(ccnt.tolist(), pairs.tolist()))
    if total > MAX_COUNT:
        raise InvalidValueError(f"counts: pair counts could reach {total}, over 2^63 - 1 (int64); "
                                "scale the counts down")


def _check_params(vocab_size: int, batch: bool, cap_divisor: int, max_batch_size: int,
                  pair_counting: str, stop_list_size: int, freq_cutoff: int) -> dict:
    """Check :func:`train_bpe`'s settings; return them as the model's ``params``."""
    check_choice(pair_counting, "pair_counting", PAIR_COUNTING)
    if not isinstance(batch, bool):
        raise ArgumentTypeError(f"batch must be a bool, not {type(batch).__name__}")
    check_int(cap_divisor, "cap_divisor", minimum=1)
    check_int(max_batch_size, "max_batch_size", minimum=0)
    check_int(stop_list_size, "stop_list_size", minimum=0)
    check_int(freq_cutoff, "freq_cutoff", minimum=1)
    check_int(vocab_size, "vocab_size", minimum=256 + stop_list_size,
              maximum=2**30, why=" (ids are int32)")
    return {"batch": batch, "cap_divisor": cap_divisor, "max_batch_size": max_batch_size,
            "pair_counting": pair_counting, "stop_list_size": stop_list_size,
            "freq_cutoff": freq_cutoff, "vocab_size": vocab_size}


def _chunk_starts(data: bytes, keys: list[str]) -> np.ndarray:
    """Byte offset of every chunk in ``data`` (the chunks ``keys`` joined, UTF-8) and the
    end, vectorised: a chunk ends where the character after its last one starts, and a
    character starts at every byte that is not a continuation byte (``0b10xxxxxx``)."""
    u8 = np.frombuffer(data, dtype=np.uint8)
    char_starts = np.append(np.flatnonzero((u8 & 0xC0) != 0x80), len(data))
    char_ends = np.cumsum(np.fromiter(map(len, keys), dtype=np.int64, count=len(keys)))
    cstart = np.zeros(len(keys) + 1, dtype=np.int64)
    cstart[1:] = char_starts[char_ends]
    return cstart


def _run(state, rank: np.ndarray, cfg, merges_out: np.ndarray, batches_out: np.ndarray,
         seen: np.ndarray, show: bool) -> tuple[int, int]:
    """The kernel loop, a slice of steps at a time (so a progress bar can follow) until
    the target or no pair is left. Returns the merges and batches made."""
    target = cfg.target
    steps = _BATCH_STEPS if cfg.batch else _SERIAL_STEPS
    bar = None
    if show:
        from tqdm.auto import tqdm
        bar = tqdm(total=target, unit="merge", desc="BPE batches" if cfg.batch else "BPE merges")
    try:
        done = 0
        while True:
            state = K.train_steps(state, rank, cfg, merges_out, batches_out, seen, steps)
            n_merges, n_batches, exhausted = K.progress(state)
            if bar is not None:
                bar.update(n_merges - done)
            done = n_merges
            if done >= target or exhausted:
                break
    finally:
        if bar is not None:
            bar.close()
    return n_merges, n_batches
