"""GreedTok training (App. D.1, Alg. 1–3): greedy selection of tokens for partition cover.

State per word: one mark per adjacent byte pair; a run of marked pairs is one token. An
occurrence of token ``T`` at ``i`` covers pairs ``i … i+|T|-2`` and may be applied only if
pairs ``i-1`` and ``i+|T|-1`` are unmarked (else it would cut an existing token); marked pairs
inside are fine (the new token swallows the smaller ones). The *gain* of a candidate is the
number of pairs its valid, non-overlapping occurrences would newly mark (scanned left to right,
so ``aya`` counts once in ``ayaya``), weighted by word counts. Each step adds the candidate of
largest gain and applies it to every word.

**Tie-breaking**: among candidates of equal gain the *shorter* one wins, then the one whose
bytes sort first (lexicographically). Ties therefore never depend on the order of the table.
Training stops early (with a warning) when no candidate has a positive gain left: from then
on no token could change any word.

How it is fast: every candidate's gain is kept exactly, per word (one *slot* per word and
candidate, :mod:`workbench.greedtok.candidates`). Applying the chosen token changes only the
words that contain it; only those words' slots are re-scored and the score differences are
added to the candidates' totals. The best candidate comes from a max-heap of possibly stale
entries: a decreased score is fixed lazily when its entry reaches the top (the stale score is
an upper bound), an increased score gets a fresh entry. The same engine with ``relaxed=True``
runs GreedWMC (overlaps ignored; see :mod:`workbench.greedtok.relaxation`).

This module does not encode new words (see :mod:`workbench.greedtok.encoder`) and does not
compute exact optima (see :mod:`workbench.greedtok.objective`).

Example
-------
>>> model = train_greedtok({"ababx": 1, "ab": 3}, 2, progress=False)
>>> model.tokens, model.gains
([b'ab', b'ababx'], [5, 2])
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
from numba import njit

from .._core.config import JIT, JIT_INLINE
from .._core.errors import InvariantError
from .._core.validate import check_int
from ..counts import as_counts
from .candidates import Candidates, Corpus, build_candidates, node_bytes, pack_words
from .encoder import GreedTokModel


class GreedyState(NamedTuple):
    """Mutable arrays of the greedy engine (see :func:`greedy_select`)."""

    marks: np.ndarray  # uint8 per buf position: pair p of word w at woff[w] + p
    slot_gain: np.ndarray  # int64 per slot: the slot's gain in its word (count-free)
    score: np.ndarray  # int64 per node: count-weighted gain
    selected: np.ndarray  # uint8 per node


class Problem(NamedTuple):
    """What the greedy engine runs on: the corpus, its candidate index and the objective."""

    corpus: Corpus
    cands: Candidates
    relaxed: bool  # GreedWMC (overlaps ignored) instead of GreedTok's partition cover


class Heap(NamedTuple):
    """A max-heap of possibly stale ``(score, node)`` entries: the first ``size`` of the arrays.

    Kernels that push may grow the arrays, so they return the heap.
    """

    score: np.ndarray  # int64
    node: np.ndarray  # int64
    size: int


class WordWork(NamedTuple):
    """Per-word workspaces of the gain kernels, one entry per slot / byte of the longest word."""

    acc: np.ndarray  # int64: the slot's gain
    aux: np.ndarray  # int64: end of the slot's last applied / counted occurrence
    prefix: np.ndarray  # int64: unmarked pairs before each position (GreedWMC)


class Selection(NamedTuple):
    """What :func:`greedy_select` returns: chosen nodes, their gains, the final state."""

    nodes: np.ndarray  # int64, selection order
    gains: np.ndarray  # int64
    state: GreedyState
    exhausted: bool  # stopped early: no candidate with a positive gain


# --------------------------------------------------------------------------- per-word kernels
@njit(**JIT_INLINE)
def _gains_partition(w, corpus, cands, marks, acc, aux):
    """``acc[j]``: gain of the word's slot ``j`` under partition cover (valid, non-overlapping)."""
    base = corpus.woff[w]
    n = corpus.woff[w + 1] - base
    s0 = cands.slot_off[w]
    for j in range(cands.slot_off[w + 1] - s0):
        acc[j] = 0
        aux[j] = 0  # end (exclusive, in bytes) of the slot's last applied occurrence
    o = cands.occ_off[w]
    for i in range(n):
        m = min(cands.max_len, n - i)
        if m < 2:
            break
        if i > 0 and marks[base + i - 1] != 0:
            o += m - 1
            continue
        unmarked = 0
        for ell in range(2, m + 1):
            loc = cands.occ_slot[o] - s0
            o += 1
            if marks[base + i + ell - 2] == 0:
                unmarked += 1
            if marks[base + i + ell - 1] != 0 or i < aux[loc]:
                continue  # would cut a token / overlaps an applied occurrence of itself
            aux[loc] = i + ell
            acc[loc] += unmarked


@njit(**JIT_INLINE)
def _gains_coverage(w, corpus, cands, marks, acc, aux, prefix):
    """``acc[j]``: uncovered pairs in the union of slot ``j``'s occurrences (GreedWMC)."""
    base = corpus.woff[w]
    n = corpus.woff[w + 1] - base
    s0 = cands.slot_off[w]
    for j in range(cands.slot_off[w + 1] - s0):
        acc[j] = 0
        aux[j] = 0  # pairs < aux[j] already counted for this slot
    prefix[0] = 0
    for p in range(n):  # prefix[p + 1] = unmarked pairs among 0..p (pad slot n-1 is unmarked)
        prefix[p + 1] = prefix[p] + (1 if marks[base + p] == 0 else 0)
    o = cands.occ_off[w]
    for i in range(n):
        m = min(cands.max_len, n - i)
        if m < 2:
            break
        for ell in range(2, m + 1):
            loc = cands.occ_slot[o] - s0
            o += 1
            lo = max(i, aux[loc])
            hi = i + ell - 1  # pairs i .. i+ell-2
            if hi > lo:
                acc[loc] += prefix[hi] - prefix[lo]
                aux[loc] = hi


@njit(**JIT_INLINE)
def _apply(w, slot, corpus, cands, marks, relaxed):
    """Apply the token of ``slot`` to word ``w`` left to right; return newly marked pairs."""
    base = corpus.woff[w]
    n = corpus.woff[w + 1] - base
    o = cands.occ_off[w]
    gain = 0
    for i in range(n):
        m = min(cands.max_len, n - i)
        if m < 2:
            break
        for ell in range(2, m + 1):
            s = cands.occ_slot[o]
            o += 1
            if s != slot:
                continue
            if not relaxed and ((i > 0 and marks[base + i - 1] != 0)
                                or marks[base + i + ell - 1] != 0):
                continue
            for p in range(base + i, base + i + ell - 1):
                if marks[p] == 0:
                    marks[p] = 1
                    gain += 1
    return gain


# --------------------------------------------------------------------------- the heap
@njit(**JIT_INLINE)
def _above(hs, hn, a, b, rank):
    """Entry ``a`` comes out before entry ``b``: higher score, then lower tie rank."""
    return hs[a] > hs[b] or (hs[a] == hs[b] and rank[hn[a]] < rank[hn[b]])


@njit(**JIT)
def _sift_down(hs, hn, size, i, rank):
    while True:
        best = i
        left = 2 * i + 1
        if left < size and _above(hs, hn, left, best, rank):
            best = left
        if left + 1 < size and _above(hs, hn, left + 1, best, rank):
            best = left + 1
        if best == i:
            return
        hs[i], hs[best] = hs[best], hs[i]
        hn[i], hn[best] = hn[best], hn[i]
        i = best


@njit(**JIT)
def _push(heap, score, node, rank):
    """Push an entry (growing the arrays if full); returns the new :class:`Heap`."""
    hs, hn, size = heap.score, heap.node, heap.size
    if size == hs.shape[0]:
        hs2 = np.empty(2 * size + 16, dtype=np.int64)
        hn2 = np.empty(2 * size + 16, dtype=np.int64)
        hs2[:size] = hs[:size]
        hn2[:size] = hn[:size]
        hs, hn = hs2, hn2
    i = size
    hs[i] = score
    hn[i] = node
    while i > 0:
        parent = (i - 1) // 2
        if not _above(hs, hn, i, parent, rank):
            break
        hs[i], hs[parent] = hs[parent], hs[i]
        hn[i], hn[parent] = hn[parent], hn[i]
        i = parent
    return Heap(hs, hn, size + 1)


@njit(**JIT)
def _pop(heap, rank):
    """Remove the top entry; returns the shrunk :class:`Heap` (same arrays)."""
    hs, hn = heap.score, heap.node
    size = heap.size - 1
    hs[0] = hs[size]
    hn[0] = hn[size]
    _sift_down(hs, hn, size, 0, rank)
    return Heap(hs, hn, size)


# --------------------------------------------------------------------------- the engine
@njit(**JIT)
def _rescore_word(w, problem, state, work, heap):
    """Recompute word ``w``'s slot gains; add the differences to the scores; push increases.

    ``work`` is a :class:`WordWork`; returns the heap.
    """
    corpus, cands = problem.corpus, problem.cands
    acc, aux, prefix = work.acc, work.aux, work.prefix
    if problem.relaxed:
        _gains_coverage(w, corpus, cands, state.marks, acc, aux, prefix)
    else:
        _gains_partition(w, corpus, cands, state.marks, acc, aux)
    s0 = cands.slot_off[w]
    cnt = corpus.count[w]
    rank = cands.node_rank
    for j in range(cands.slot_off[w + 1] - s0):
        s = s0 + j
        old = state.slot_gain[s]
        if acc[j] != old:
            v = cands.slot_node[s]
            state.slot_gain[s] = acc[j]
            state.score[v] += (acc[j] - old) * cnt
            if acc[j] > old and state.selected[v] == 0:
                heap = _push(heap, state.score[v], v, rank)
    return heap


@njit(**JIT)
def _initialise(problem, state):
    """Scores of every candidate on unmarked words, and a heap of all positive ones.

    Returns ``(heap, longest)``: the :class:`Heap` and the size of the per-word workspaces.
    """
    corpus, cands, relaxed = problem.corpus, problem.cands, problem.relaxed
    n_words = corpus.woff.shape[0] - 1
    longest = 1
    for w in range(n_words):
        longest = max(longest, corpus.woff[w + 1] - corpus.woff[w],
                      cands.slot_off[w + 1] - cands.slot_off[w])
    acc = np.zeros(longest + 1, dtype=np.int64)
    aux = np.zeros(longest + 1, dtype=np.int64)
    prefix = np.zeros(longest + 1, dtype=np.int64)
    for w in range(n_words):
        if relaxed:
            _gains_coverage(w, corpus, cands, state.marks, acc, aux, prefix)
        else:
            _gains_partition(w, corpus, cands, state.marks, acc, aux)
        s0 = cands.slot_off[w]
        for j in range(cands.slot_off[w + 1] - s0):
            state.slot_gain[s0 + j] = acc[j]
            state.score[cands.slot_node[s0 + j]] += acc[j] * corpus.count[w]
    size = 0
    for v in range(256, cands.n_nodes):
        if state.score[v] > 0:
            size += 1
    hs = np.empty(size + size // 4 + 16, dtype=np.int64)
    hn = np.empty(size + size // 4 + 16, dtype=np.int64)
    size = 0
    for v in range(256, cands.n_nodes):
        if state.score[v] > 0:
            hs[size] = state.score[v]
            hn[size] = v
            size += 1
    for i in range(size // 2 - 1, -1, -1):
        _sift_down(hs, hn, size, i, cands.node_rank)
    return Heap(hs, hn, size), longest


@njit(**JIT)
def _run(problem, state, heap, longest, n_steps, out_node, out_gain, done):
    """Up to ``n_steps`` greedy steps. Returns (heap, done, status).

    status 0: ran ``n_steps``; 1: no candidate with a positive gain left; 2: internal
    inconsistency (applied gain differs from the kept score; never expected).
    """
    corpus, cands, relaxed = problem.corpus, problem.cands, problem.relaxed
    rank = cands.node_rank
    work = WordWork(np.zeros(longest + 1, dtype=np.int64), np.zeros(longest + 1, dtype=np.int64),
                    np.zeros(longest + 1, dtype=np.int64))
    changed = np.empty(corpus.count.shape[0], dtype=np.int64)
    for _ in range(n_steps):
        while heap.size > 0:  # find the true best: fix stale entries lazily
            sc = heap.score[0]
            v = heap.node[0]
            cur = state.score[v]
            if state.selected[v] != 0 or sc < cur:
                heap = _pop(heap, rank)  # done, or a fresher entry exists
            elif sc > cur:
                heap = _pop(heap, rank)
                if cur > 0:
                    heap = _push(heap, cur, v, rank)
            else:
                break
        if heap.size == 0 or heap.score[0] <= 0:
            return heap, done, 1
        v = heap.node[0]
        best = heap.score[0]
        heap = _pop(heap, rank)
        state.selected[v] = 1
        total = 0
        n_changed = 0
        for j in range(cands.inv_off[v], cands.inv_off[v + 1]):
            s = cands.inv_slot[j]
            w = cands.slot_word[s]
            g = _apply(w, s, corpus, cands, state.marks, relaxed)
            if g > 0:
                total += g * corpus.count[w]
                changed[n_changed] = w
                n_changed += 1
        for j in range(n_changed):
            heap = _rescore_word(changed[j], problem, state, work, heap)
        out_node[done] = v
        out_gain[done] = total
        done += 1
        if total != best:
            return heap, done, 2
    return heap, done, 0


def _progress_bar(progress: bool | None, total: int, desc: str):
    from tqdm.auto import tqdm

    if progress is None:
        disable = None if total >= 200 else True  # None: tqdm shows it on a terminal only
    else:
        disable = not progress
    return tqdm(total=total, desc=desc, unit="tok", disable=disable, leave=False)


def greedy_select(corpus: Corpus, cands: Candidates, k: int, *, relaxed: bool = False,
                  progress: bool | None = None, desc: str = "GreedTok") -> Selection:
    """Run ``k`` greedy steps of GreedTok (``relaxed=False``) or GreedWMC (``relaxed=True``).

    Lower-level than :func:`train_greedtok`: takes a packed corpus and its candidate index,
    returns node ids. Stops early (``exhausted=True``, no warning) when no candidate has a
    positive gain. Interrupting it (``KeyboardInterrupt``) leaves no partial result behind.

    >>> corpus = pack_words({"ayaya": 1})
    >>> sel = greedy_select(corpus, build_candidates(corpus, 3), 5, progress=False)
    >>> [node_bytes(corpus, build_candidates(corpus, 3), v) for v in sel.nodes], sel.gains
    ([b'ay', b'aya'], array([2, 1]))
    """
    k = check_int(k, "k", minimum=0)
    steps = min(k, cands.n_nodes)  # each candidate is selected at most once: no more steps
    n_slots = cands.slot_node.shape[0]
    state = GreedyState(np.zeros(corpus.buf.shape[0] + 1, dtype=np.uint8),
                        np.zeros(n_slots, dtype=np.int64),
                        np.zeros(cands.n_nodes, dtype=np.int64),
                        np.zeros(cands.n_nodes, dtype=np.uint8))
    problem = Problem(corpus, cands, bool(relaxed))
    heap, longest = _initialise(problem, state)
    out_node = np.zeros(steps, dtype=np.int64)
    out_gain = np.zeros(steps, dtype=np.int64)
    done = 0
    status = 0
    chunk = max(1, min(64, steps // 100))
    with _progress_bar(progress, steps, desc) as bar:
        while done < steps:
            before = done
            heap, done, status = _run(problem, state, heap, longest, min(chunk, steps - done),
                                      out_node, out_gain, done)
            bar.update(done - before)
            if status == 2:
                raise InvariantError("internal error: applied gain differs from the kept score at "
                                     f"step {done}")
            if status == 1:
                break
    return Selection(out_node[:done].copy(), out_gain[:done].copy(), state,
                     status == 1 or done < k)


class TrainingRun(NamedTuple):
    """A trained model with the packed corpus and its final cover marks (for inspection)."""

    model: GreedTokModel
    corpus: Corpus
    marks: np.ndarray  # uint8: pair p of word w marked at corpus.woff[w] + p


def train_greedtok_run(counts: Mapping[str, int] | str | os.PathLike, k: int, *,
                       max_token_length: int = 16, min_word_count: int = 1,
                       progress: bool | None = None) -> TrainingRun:
    """:func:`train_greedtok`, also returning the packed corpus and its final marks.

    The marks give the training-time segmentation of every training word (a run of marked
    pairs is one token), which :meth:`GreedTokModel.encode` reproduces exactly.
    """
    table = as_counts(counts)
    k = check_int(k, "k", minimum=0)
    max_token_length = check_int(max_token_length, "max_token_length", minimum=2)
    t0 = time.perf_counter()
    corpus = pack_words(table, min_word_count)
    cands = build_candidates(corpus, max_token_length)
    sel = greedy_select(corpus, cands, k, progress=progress)
    tokens = [node_bytes(corpus, cands, int(v)) for v in sel.nodes]
    if sel.exhausted:
        warnings.warn(f"no candidate token (of {cands.n_nodes - 256}) has a positive gain after "
                      f"{len(tokens)} steps; stopped at {len(tokens)} < k = {k} tokens",
                      stacklevel=3)
    total_bytes = int(np.dot(np.diff(corpus.woff), corpus.count))
    stats = {"words": int(corpus.count.shape[0]), "candidates": int(cands.n_nodes - 256),
             "total_bytes": total_bytes, "cover": int(sel.gains.sum()),
             "seconds": time.perf_counter() - t0}
    model = GreedTokModel(tokens, gains=[int(g) for g in sel.gains],
                          max_token_length=max_token_length, stats=stats)
    return TrainingRun(model, corpus, sel.state.marks[:-1])


def train_greedtok(counts: Mapping[str, int] | str | os.PathLike, k: int, *,
                   max_token_length: int = 16, min_word_count: int = 1,
                   progress: bool | None = None) -> GreedTokModel:
    """Train GreedTok: choose up to ``k`` tokens greedily for partition cover.

    Parameters
    ----------
    counts : Mapping[str, int] or path
        Word → positive int count, or a ``chunk<TAB>count`` TSV (see
        :func:`workbench.counts.as_counts`). Words are taken as their UTF-8 bytes.
    k : int
        Number of tokens to choose (besides the 256 single bytes, always available).
    max_token_length : int
        Longest candidate in bytes (candidates are all substrings of length ``2 …`` this).
    min_word_count : int
        Words seen fewer times are left out of training altogether.
    progress : bool or None
        Progress bar: ``None`` shows it on a terminal for long runs, ``False`` never.

    Returns
    -------
    GreedTokModel
        ``tokens`` (``bytes``, in selection order) and ``gains`` (count-weighted newly covered
        pairs per step; their sum is total bytes minus total tokens of the training corpus).

    Warns
    -----
    UserWarning
        When fewer than ``k`` candidates have a positive gain (training stops there).

    Notes
    -----
    Ties: the shorter candidate wins, then the lexicographically smaller bytes (see the module
    docstring). The ``greedtok`` package (PreferredAI/pcatt) counts ``max_len`` exclusively:
    its ``initialize_graph(17, …)`` corresponds to ``max_token_length=16`` here.
    """
    return train_greedtok_run(counts, k, max_token_length=max_token_length,
                              min_word_count=min_word_count, progress=progress).model
