"""Exact expected unigram counts of GRaMPa over a word-count table, and their Rényi efficiency.

For one word, Algorithm 2 is a Markov chain over the nodes of the walked graph: it starts in
the construction's end node ``n`` and takes the arc of length ``l`` into node ``j`` with
probability ``probs[j, l]`` (:func:`.logspace.probability_table`). The expected number of
times a token occurs in a sampled segmentation is the sum of the *marginal probabilities* of
the arcs that spell it, and an arc's marginal is ``visit[j] * probs[j, l]``, where
``visit[j]`` is the probability that the walk passes node ``j``.

It is a forward–backward computation in which the backward pass is Algorithm 1 itself: the
path counts ``c`` (the backward messages of the uniform chain) define the transition
probabilities, and because every kept arc leaves a node from which the start is reachable,
the chain reaches node 0 surely — the backward message of the skewed chain is 1 everywhere.
What remains is one forward pass from node ``n`` to node 0 accumulating ``visit``; nodes are
finished in decreasing order, so no ``(n + 1) × span`` table is ever stored. Over a table of
words with counts ``c_w`` the expected count of token ``t`` is
``Σ_w c_w Σ_{arcs of w spelling t} visit[j] probs[j, l]``.

Multiplexing (Algorithm 3) is linear in the counts: with rate ``p`` the expectation is
``p · E_GRaMPa + (1 − p) · D`` where ``D`` counts the deterministic tokeniser's tokens
(:func:`workbench.theory.grampa.mixture.mix`).

This module samples nothing; it computes what the empirical unigram distribution of a
sampled corpus converges to, so Rényi efficiency against τ, ℓ_min or ``p`` becomes a smooth
curve without sampling noise. It needs a finite vocabulary (tokens are counted by id).

Example
-------
>>> from workbench import Vocabulary
>>> v = Vocabulary(["a", "b", "ab"])
>>> expected_token_counts({"ab": 10}, v).tolist()   # ('a', 'b') or ('ab',), each 1/2
[5.0, 5.0, 5.0]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence

import numpy as np
from numba import njit

from .._core.config import JIT
from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import check_budget, check_probability
from ..counts import as_counts
from ..lattice import (
    MAX_WORD_LENGTH,
    Lattice,
    SegmentationError,
    check_direction,
    check_ell_min,
    check_vocab,
    code_points,
)
from ..metrics import renyi_efficiency
from ..theory.grampa.mixture import mix
from ..vocab import Vocabulary
from .logspace import arc_weights, count_paths, workspace
from .params import Graph, Walk, Words, check_tau, make_walk

_BLOCK = 1 << 14  # words per kernel call: the progress bar's step, the interrupt granularity

__all__ = ["expected_efficiency", "expected_token_counts"]


@njit(**JIT)
def _word_marginals(graph, walk, weight, row, visit, out):
    """Add ``weight`` × the expected count of every token of one word to ``out[id]``.

    Forward pass of the backward walk: ``visit[j]`` is complete when node ``j`` is reached
    (every arc into a node comes from a higher node), so each node's arcs are weighted once.
    Returns the total expected number of tokens of the word (for checks).

    ``graph`` is the word's :class:`.params.Graph` (:func:`.logspace.count_paths`, on the word
    in construction order); ``row`` and ``visit`` are workspaces.
    """
    n, span, logc, sel, table = graph.n, graph.span, graph.logc, graph.sel, graph.table
    visit[: n + 1] = 0.0
    visit[n] = 1.0
    tokens = 0.0
    for j in range(n, 0, -1):
        v = visit[j]
        if v == 0.0:
            continue
        total = arc_weights(j, span, walk, logc, sel, row)
        for length in range(1, min(j, span) + 1):
            w = row[length]
            if w > 0.0:
                m = v * (w / total)
                visit[j - length] += m
                out[table[j, length]] += weight * m
                tokens += m
    return tokens


@njit(**JIT)
def _table_marginals(words, weights, walk, out):
    """Expected token counts of the :class:`.params.Words` ``words``, weighted, into ``out``.

    Returns the index of the first word without a segmentation (``out`` then holds the
    words before it), or -1.
    """
    cps, offsets = words.cps, words.offsets
    n_words = offsets.shape[0] - 1
    longest = 0
    for w in range(n_words):
        longest = max(longest, offsets[w + 1] - offsets[w])
    table, sel, reach, logc = workspace(longest, walk)
    row = np.zeros(walk.max_len + 1)
    visit = np.zeros(longest + 1)
    work = np.empty(longest, dtype=np.int32)
    for w in range(n_words):
        start = offsets[w]
        n = offsets[w + 1] - start
        for k in range(n):
            work[k] = cps[start + n - 1 - k] if walk.mirror else cps[start + k]
        span = count_paths(work[:n], walk, table, sel, reach, logc)
        if logc[n] == -np.inf:
            return w
        _word_marginals(Graph(n, span, logc, sel, table), walk, weights[w], row, visit, out)
    return -1


def _grampa_counts(words: list[str], weights: np.ndarray, vocab: Vocabulary, walk: Walk,
                   ell_min: int, direction: str, out: np.ndarray,
                   progress: bool | None) -> None:
    """Blocks of words through :func:`_table_marginals` (a tqdm bar, interruptible between)."""
    from tqdm.auto import tqdm

    show = progress if progress is not None else len(words) > 20 * _BLOCK
    with tqdm(total=len(words), unit="word", disable=not show, leave=False,
              desc="expected counts") as bar:
        for lo in range(0, len(words), _BLOCK):
            block = words[lo:lo + _BLOCK]
            offsets = np.zeros(len(block) + 1, dtype=np.int64)
            np.cumsum([len(w) for w in block], out=offsets[1:])
            bad = _table_marginals(Words(code_points("".join(block)), offsets),
                                   weights[lo:lo + _BLOCK], walk, out)
            if bad >= 0:
                Lattice.build(block[bad], vocab, ell_min, direction).require_segmentable()
                raise SegmentationError(f"no segmentation of {block[bad]!r}")  # pragma: no cover
            bar.update(len(block))


def _deterministic_counts(words: list[str], weights: np.ndarray, vocab: Vocabulary,
                          deterministic: Callable[[str], Sequence[str]],
                          out: np.ndarray) -> None:
    """Add ``weight`` × the deterministic tokeniser's token counts of every word to ``out``."""
    index = dict(zip(vocab.tokens, vocab.ids.tolist()))
    for word, weight in zip(words, weights.tolist()):
        tokens = list(deterministic(word))
        if "".join(tokens) != word or not all(isinstance(t, str) and t for t in tokens):
            raise InvalidValueError(f"deterministic({word!r}) returned {tokens!r:.80}, which is "
                                    "not a list of non-empty str concatenating to the word")
        for t in tokens:
            tid = index.get(t)
            if tid is None:
                raise InvalidValueError(f"deterministic({word!r}) returned {t!r}, which is not a "
                                        "token of the vocabulary")
            out[tid] += weight


def expected_token_counts(
    word_counts: Mapping[str, int] | str | os.PathLike,
    vocab: Vocabulary,
    tau: float = 1.0,
    ell_min: int = 1,
    direction: str = "l2r",
    *,
    p: float = 1.0,
    deterministic: Callable[[str], Sequence[str]] | None = None,
    progress: bool | None = None,
) -> np.ndarray:
    """Expected unigram count of every token when GRaMPa segments each word occurrence.

    Exact (up to float rounding): the arc marginals of Algorithm 2's Markov chain, one
    forward pass per distinct word, weighted by the word's count — what the unigram counts of
    a corpus with these word counts, each occurrence sampled independently, average to.

    Parameters
    ----------
    word_counts : mapping str → int, or path of a ``word<TAB>count`` file
        Words spelled in the vocabulary's alphabet (see :meth:`Vocabulary.to_alphabet`), with
        positive integer counts (validated by :func:`workbench.counts.as_counts`). An empty
        mapping gives all zeros.
    vocab : Vocabulary
        A finite vocabulary.
    tau, ell_min, direction
        As for :class:`workbench.Grampa`.
    p : float, default 1.0
        Multiplexing rate (Algorithm 3): each occurrence is sampled by GRaMPa with
        probability ``p``, else segmented by ``deterministic``.
    deterministic : callable str → list of str, optional
        The deterministic tokeniser (tokens in the vocabulary), e.g.
        ``workbench.segmenters.default_segmenter(vocab)``. Required when ``p < 1``.
    progress : bool, optional
        tqdm bar over words (None: only for tables of more than 300k words).

    Returns
    -------
    numpy.ndarray
        ``float64``, ``expected[id]`` for ids ``0 .. max(vocab.ids)`` (ids the vocabulary
        lacks stay 0). ``dict(zip(vocab.tokens, expected[vocab.ids]))`` keys it by token.

    Raises
    ------
    TypeError
        The infinite vocabulary, a non-callable ``deterministic``, bad types.
    ValueError
        Bad ``tau``/``ell_min``/``direction``/``p``; ``p < 1`` without ``deterministic``;
        a deterministic output that is not a segmentation into tokens of ``vocab``.
    workbench.SegmentationError
        A word without segmentation under ``vocab`` (the message says where it is stuck).
    workbench._core.validate.BudgetError
        If the arrays would exceed the memory budget (checked before allocating).

    Examples
    --------
    >>> from workbench import Vocabulary
    >>> v = Vocabulary(["a", "b", "c", "ab", "bc"])
    >>> e = expected_token_counts({"abc": 3}, v)        # a|b|c, a|bc, ab|c, each 1/3
    >>> [round(float(x), 12) for x in e]
    [2.0, 1.0, 2.0, 1.0, 1.0]
    >>> e = expected_token_counts({"abc": 3}, v, p=0.5, deterministic=lambda w: [w[:2], w[2:]])
    >>> [round(float(x), 12) for x in e]
    [1.0, 0.5, 2.5, 2.0, 0.5]
    """
    vocab = check_vocab(vocab)
    if vocab.is_infinite:
        raise ArgumentTypeError("expected_token_counts needs a finite vocabulary (tokens are "
                                "counted by id; the infinite vocabulary has none)")
    alpha = check_tau(tau)
    ell_min = check_ell_min(ell_min)
    direction = check_direction(direction)
    p = check_probability(p, "p")
    if deterministic is not None and not callable(deterministic):
        raise ArgumentTypeError("deterministic must be a callable str -> list[str]")
    if p < 1.0 and deterministic is None:
        raise InvalidValueError(f"p = {p} < 1 needs a deterministic tokeniser (deterministic=...)")
    table = {} if isinstance(word_counts, Mapping) and not word_counts else \
        as_counts(word_counts, name="word_counts")
    size = int(vocab.ids.max()) + 1 if len(vocab) else 0
    words = list(table)
    longest = max(map(len, words), default=0)
    if longest > MAX_WORD_LENGTH:
        raise InvalidValueError(f"a word has {longest:,} characters, over the limit of "
                                f"{MAX_WORD_LENGTH:,}")
    block_chars = min(sum(map(len, words)), _BLOCK * longest)
    check_budget(40 * size + 12 * block_chars + 16 * len(words)
                 + (longest + 1) * ((vocab.max_token_length or 0) + 1) * 5 + 16 * longest,
                 "expected_token_counts (GRaMPa's, the deterministic and the mixed counts by "
                 "id, code points, per-word workspace)")
    weights = np.fromiter(table.values(), dtype=np.float64, count=len(words))
    grampa, det = np.zeros(size), np.zeros(size)
    if p > 0.0 and words:
        _grampa_counts(words, weights, vocab, make_walk(vocab, alpha, ell_min, direction),
                       ell_min, direction, grampa, progress)
    if p < 1.0 and words:
        _deterministic_counts(words, weights, vocab, deterministic, det)  # type: ignore[arg-type]
    return mix(p, grampa, det)


def expected_efficiency(
    word_counts: Mapping[str, int] | str | os.PathLike,
    vocab: Vocabulary,
    alpha: float = 2.5,
    tau: float = 1.0,
    ell_min: int = 1,
    direction: str = "l2r",
    *,
    p: float = 1.0,
    deterministic: Callable[[str], Sequence[str]] | None = None,
    vocab_size: int | None = None,
) -> float:
    """Rényi efficiency (:func:`workbench.metrics.renyi_efficiency`) of the expected counts.

    ``vocab_size`` defaults to ``len(vocab)``, not to the number of tokens with a positive
    expected count: the support of an expectation includes tokens so rare that no finite
    sample shows them, so normalising by it would not be what sampled corpora converge to.

    >>> from workbench import Vocabulary
    >>> v = Vocabulary(["a", "b", "c", "ab", "bc"])
    >>> round(expected_efficiency({"abc": 3}, v, alpha=1.0, vocab_size=5), 6)
    0.962961
    """
    counts = expected_token_counts(word_counts, vocab, tau, ell_min, direction, p=p,
                                   deterministic=deterministic)
    return renyi_efficiency(counts, alpha, len(vocab) if vocab_size is None else vocab_size)
