"""Exact laws of the baseline samplers on one word, as :class:`workbench.laws.SegmentationLaw`.

* :func:`weighted_law` — a law proportional to a weight of each segmentation, over every
  segmentation of the word (the rejection samplers: uniform, boundary bits, joint unigram;
  ULM over all segmentations, ``nbest=-1``), enumerated within :data:`MAX_ENUMERATED`;
* :func:`maxmatch_law` — MaxMatch-dropout's chain: at each position the ``k``-th longest
  matching token is taken with probability ``(1 − q) q^(k−1)``, the shortest with the rest
  ``q^(K−1)``; a position where no token starts is a failure (its mass is the law's
  ``failure_mass``).
* :func:`ulm_chain`, :func:`maxmatch_chain` — the same two laws (ULM: ``nbest=-1``) as
  chains (:class:`workbench.lattice.chain.Chain`), for words of any length: summaries by
  dynamic programming, enumeration (the two functions above) only when asked.

The enumerations count what they will enumerate first (exact integers, ``O(n·L)``) and
refuse a word over the budget at once, saying how many segmentations it would need. The
weights may be :class:`fractions.Fraction` (then the law is exact). This module samples
nothing and knows nothing of GRaMPa (:meth:`workbench.Grampa.law`) or BPE
(:mod:`workbench.bpe.laws`).

Example
-------
>>> from fractions import Fraction as F
>>> law = maxmatch_law("abcd", frozenset({"a", "ab", "abc", "d"}), 3, F(1, 2))
>>> law.probabilities(), law.failure_mass
({('abc', 'd'): Fraction(1, 2)}, Fraction(1, 2))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from fractions import Fraction

import numpy as np

from .._core.cost import SLICE_RATE, slice_units
from .._core.validate import BudgetError, check_budget, check_work
from ..lattice import (
    SegmentationError,
    about_count,
    arc_table,
    count_segmentations,
    enumerate_segmentations,
    tokens_from_lengths,
)
from ..lattice.chain import MODE_TIE_TOLERANCE, Chain
from ..laws import SegmentationLaw
from ..vocab import Vocabulary

#: Largest number of segmentations (or MaxMatch paths) a law enumerates.
MAX_ENUMERATED = 200_000
#: Units per second of :func:`maxmatch_law`'s enumeration (``paths × (n + 1)`` units: each
#: complete path is spelled once; conservative, the 200,000-path cap comes first for words
#: of fewer than ~300 characters). The token matching before it is checked by the slice
#: cost model (:mod:`workbench._core.cost`).
PATH_RATE = 2e6

Weight = Fraction | float


def _refuse(what: str, count: int, word: str) -> None:
    if count > MAX_ENUMERATED:
        raise BudgetError(f"the law of {word!r:.60} needs {about_count(count)} {what}, over "
                          f"the budget of {MAX_ENUMERATED:,} (refused before any work)")


def check_enumerable(word: str, vocab: Vocabulary) -> int:
    """The number of segmentations of ``word``; BudgetError past :data:`MAX_ENUMERATED`.

    A finite vocabulary's count is first taken in log space by the compiled chain kernel
    (0.1 s for 500,000 characters): a word far past the budget is refused from that, before
    the exact count, whose integers grow to thousands of digits (32 s for that word).
    """
    if word and not vocab.is_infinite:
        from ..lattice.chain_kernels import log_count

        arcs = _chain_arcs(word, vocab)
        logs = float(log_count(arcs, len(word), arcs.shape[1] - 1))
        if logs > math.log(MAX_ENUMERATED) + 1e-6:  # the exact count below decides the edge
            raise BudgetError(f"the law of {word!r:.60} needs about "
                              f"10^{round(logs / math.log(10))} segmentations, over the budget "
                              f"of {MAX_ENUMERATED:,} (refused before any work)")
    n_segs = count_segmentations(word, vocab)
    _refuse("segmentations", n_segs, word)
    return n_segs


def weighted_law(word: str, vocab: Vocabulary,
                 weight: Callable[[tuple[str, ...]], Weight], *, log: bool = False,
                 scale: float = 1.0,
                 deterministic: tuple[str, ...] | None = None) -> SegmentationLaw:
    """``P(x) = weight(x) / Σ_y weight(y)`` over every segmentation ``y`` of ``word``.

    ``log=True``: ``P(x) ∝ exp(scale · weight(x))`` for finite float ``weight``s, computed
    as ``exp(scale · (weight(x) − ref))`` with ``ref`` the largest weight (the smallest if
    ``scale < 0``): no term overflows for any finite ``scale``, and a ``scale`` so large
    that ``scale · weight`` itself would overflow gives its limit (the best segmentations
    share the mass). Raises :class:`SegmentationError` if the word has no segmentation (or
    every weight is 0), :class:`BudgetError` if it has more than :data:`MAX_ENUMERATED`.
    """
    n_segs = check_enumerable(word, vocab)
    segs = enumerate_segmentations(word, vocab, limit=MAX_ENUMERATED)
    weights = [weight(s) for s in segs]
    if log and weights:
        finite = [w for w in weights if w > -math.inf]  # -inf: a weight of 0
        ref = (max(finite) if scale >= 0 else min(finite)) if finite else 0.0
        weights = [0.0 if w == -math.inf else math.exp(scale * (w - ref)) if scale != 0
                   else 1.0 for w in weights]
    total = sum(weights)
    if not segs or total == 0:
        raise SegmentationError(f"no segmentation of {word!r:.60} has positive probability "
                                "under this sampler")
    return SegmentationLaw(word, {s: w / total for s, w in zip(segs, weights)},
                           n_segmentations=n_segs, deterministic=deterministic)


def _matches(word: str, i: int, tokens: Collection[str], longest: int) -> list[int]:
    """Ends ``j`` of the tokens ``word[i:j]``, longest first."""
    return [j for j in range(min(len(word), i + longest), i, -1) if word[i:j] in tokens]


def maxmatch_law(word: str, tokens: Collection[str], longest: int, q: Weight
                 ) -> SegmentationLaw:
    """The exact law of MaxMatch-dropout with dropout ``q`` on ``word``.

    The candidates at a position are its matching tokens, longest first; each longer than
    one character is skipped with probability ``q``, a one-character token never, and the
    shortest is taken when all others are skipped. So the ``k``-th of ``K`` candidates is
    taken with ``(1 − q) q^(k−1)`` for ``k < K`` and the last with ``q^(K−1)``.
    ``deterministic`` is MaxMatch's segmentation (``None`` if MaxMatch fails on the word);
    ``n_segmentations`` counts every segmentation of the word into ``tokens``.
    """
    n = len(word)
    check_work(slice_units(n, range(1, longest + 1)), f"matching every token at every "
               f"position of a {n:,}-character word", rate=SLICE_RATE, hint=" (split the word)")
    ends = [_matches(word, i, tokens, longest) for i in range(n)]
    paths = [0] * (n + 1)  # paths from i that end at n or at a dead end
    paths[n] = 1
    for i in range(n - 1, -1, -1):  # saturating: "more than the budget" is all we need
        paths[i] = min(sum(paths[j] for j in ends[i]), MAX_ENUMERATED + 1) if ends[i] else 1
    if paths[0] > MAX_ENUMERATED:
        raise BudgetError(f"the law of {word!r:.60} needs more than {MAX_ENUMERATED:,} "
                          "MaxMatch-dropout paths, over the budget (refused before any work)")
    check_work(paths[0] * (n + 1), f"the MaxMatch-dropout law of a {n:,}-character word "
               f"({paths[0]:,} paths)", rate=PATH_RATE, hint=" (sample it instead)")
    out: dict[tuple[str, ...], Weight] = {}
    fail: Weight = 0 * q
    # a path is a linked list (start, parent): no tuple is copied on the way down
    stack: list[tuple[int, object, Weight]] = [(0, None, 1 + 0 * q)]
    while stack:
        i, node, mass = stack.pop()
        if i == n:
            toks = []
            while node is not None:
                start, node = node  # type: ignore[misc]
                toks.append(word[start:i])
                i = start
            key = tuple(toks[::-1])
            out[key] = out.get(key, 0) + mass
            continue
        cand = ends[i]
        if not cand:
            fail += mass
            continue
        for k, j in enumerate(cand):
            share = q ** k if k == len(cand) - 1 else (1 - q) * q ** k
            if share:
                stack.append((j, (i, node), mass * share))
    det: list[str] = []
    i = 0
    while i < n and ends[i]:
        det.append(word[i:ends[i][0]])
        i = ends[i][0]
    n_segs = _count_paths(ends, n) or None  # None: no uniform law to compare
    return SegmentationLaw(word, out, failure_mass=fail, n_segmentations=n_segs,
                           deterministic=tuple(det) if i == n else None)


def _count_paths(ends: list[list[int]], n: int) -> int:
    """Segmentations of the word whose tokens at ``i`` end at ``ends[i]``."""
    c = [0] * (n + 1)
    c[n] = 1
    for i in range(n - 1, -1, -1):
        c[i] = sum(c[j] for j in ends[i])
    return c[0]


def _chain_arcs(word: str, vocab: Vocabulary) -> np.ndarray:
    """The word's arc table, its chain table's memory checked first."""
    n, span = len(word), vocab.max_token_length or 0
    check_budget((n + 1) * (span + 1) * 12, f"the chain tables of a {n:,}-character word")
    return arc_table(word, vocab)


def ulm_chain(word: str, vocab: Vocabulary, alpha: float,
              enumerate: Callable[[], tuple[dict, float]]
              ) -> tuple[Chain, tuple[str, ...]]:
    """ULM over every segmentation (P ∝ exp(α · score)) as a chain, and the Viterbi
    segmentation (largest score; ties within :data:`workbench.lattice.chain.MODE_TIE_TOLERANCE`:
    fewer tokens, then shorter tokens first); any length.

    Raises :class:`SegmentationError` if the word has no segmentation. ``enumerate`` is the
    law's enumeration, used only when its mapping is asked for.
    """
    from ..lattice.chain_kernels import log_count, viterbi_lengths, weighted_table

    arcs, n = _chain_arcs(word, vocab), len(word)
    span = arcs.shape[1] - 1
    probs = np.zeros((n + 1, span + 1))
    scores = vocab.scores_by_id(-np.inf)  # the arc table holds ids, not positions
    if weighted_table(arcs, scores, float(alpha), n, span, probs) == -np.inf:
        raise SegmentationError(f"no segmentation of {word!r:.60} has positive probability "
                                "under this sampler")
    lengths = np.zeros(n + 1, dtype=np.int64)
    k = viterbi_lengths(arcs, scores, n, MODE_TIE_TOLERANCE, lengths)
    det = tuple(tokens_from_lengths(word, lengths[:k].tolist()))
    return (Chain(word, probs, False, enumerate=enumerate,
                  count=lambda: count_segmentations(word, vocab),
                  log_count=lambda: float(log_count(arcs, n, span))), det)


def maxmatch_chain(word: str, vocab: Vocabulary, q: float
                   ) -> tuple[Chain, tuple[str, ...] | None]:
    """MaxMatch-dropout with dropout ``q`` as a chain (failures kept), and MaxMatch's
    segmentation (``None`` where MaxMatch is stuck); any length. The chain enumerates with
    :func:`maxmatch_law`."""
    from ..lattice.chain_kernels import log_count, longest_match_lengths, maxmatch_table

    arcs, n = _chain_arcs(word, vocab), len(word)
    span = arcs.shape[1] - 1
    probs = np.zeros((n + 1, span + 1))
    maxmatch_table(arcs, n, span, float(q), probs)
    lengths = np.zeros(n + 1, dtype=np.int64)
    k = longest_match_lengths(arcs, n, lengths)
    det = None if k < 0 else tuple(tokens_from_lengths(word, lengths[:k].tolist()))

    def enumerate() -> tuple[dict, float]:
        law = maxmatch_law(word, frozenset(vocab.tokens), span, q)
        return law.probabilities(), float(law.failure_mass)

    return (Chain(word, probs, True, enumerate=enumerate, can_fail=True,
                  count=lambda: count_segmentations(word, vocab),
                  log_count=lambda: float(log_count(arcs, n, span))),
            det)
