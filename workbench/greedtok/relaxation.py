"""GreedWMC: the weighted-maximum-coverage relaxation of partition cover, and the ratio β.

Dropping the constraint that tokens of one word may not overlap turns the problem into
weighted maximum coverage: the elements are the (word, pair) positions, weighted by the word's
count, and token ``T`` covers every pair inside any of its occurrences. The greedy algorithm
(lazy: a stale gain is an upper bound, since coverage is submodular) is
``(1 − 1/e)``-approximate, and the optimum of the relaxation bounds the one of the original
problem from above, so ``β(k) = GreedTok(k) / GreedWMC(k) ≤ e / (e − 1)`` for every ``k``;
the paper reports ``β`` close to 1.

The greedy engine and tie-breaking (shorter, then smaller bytes) are shared with
:mod:`workbench.greedtok.training`. This module does not encode text.

Example
-------
>>> wmc = train_greedwmc({"ayaya": 1}, 2, max_token_length=3, progress=False)
>>> wmc.tokens, wmc.gains  # both occurrences of "aya" count: all four pairs at once
([b'aya'], [4])
>>> curve = beta_curve({"ayaya": 1}, 2, max_token_length=3, progress=False)
>>> curve.greedtok.tolist(), curve.greedwmc.tolist(), curve.beta.tolist()
([2, 3], [4, 4], [0.5, 0.75])
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from .._core.validate import check_int, check_size
from ..counts import as_counts
from .candidates import build_candidates, node_bytes, pack_words
from .training import greedy_select


class WMCResult(NamedTuple):
    """GreedWMC's tokens (selection order) and gains (newly covered count-weighted pairs)."""

    tokens: list[bytes]
    gains: list[int]


class BetaCurve(NamedTuple):
    """Cumulative objectives of both greedy algorithms and their ratio, for ``k = 1 … K``."""

    k: np.ndarray  # int64, 1..K
    greedtok: np.ndarray  # int64: Σ of GreedTok's first k gains
    greedwmc: np.ndarray  # int64: Σ of GreedWMC's first k gains
    beta: np.ndarray  # float64: greedtok / greedwmc


def train_greedwmc(counts: Mapping[str, int] | str | os.PathLike, k: int, *,
                   max_token_length: int = 16, min_word_count: int = 1,
                   progress: bool | None = None) -> WMCResult:
    """Greedy weighted maximum coverage over the same candidates as GreedTok.

    Parameters are those of :func:`workbench.greedtok.train_greedtok`. Stops early (without
    a warning) once every pair is covered.
    """
    table = as_counts(counts)
    k = check_int(k, "k", minimum=0)
    corpus = pack_words(table, min_word_count)
    cands = build_candidates(corpus, max_token_length)
    sel = greedy_select(corpus, cands, k, relaxed=True, progress=progress, desc="GreedWMC")
    return WMCResult([node_bytes(corpus, cands, int(v)) for v in sel.nodes],
                     [int(g) for g in sel.gains])


def beta_curve(counts: Mapping[str, int] | str | os.PathLike, k: int, *,
               max_token_length: int = 16, min_word_count: int = 1,
               progress: bool | None = None) -> BetaCurve:
    """β(k) = objective(GreedTok) / objective(GreedWMC) for every ``k = 1 … K``.

    Both run on one candidate index. Where a run stops early its objective stays constant.
    """
    table = as_counts(counts)
    k = check_int(k, "k", minimum=1)
    check_size(k, "k", item_bytes=6 * 8, what="the β curve (k steps, six arrays)")
    corpus = pack_words(table, min_word_count)
    cands = build_candidates(corpus, max_token_length)
    curves = []
    for relaxed, desc in ((False, "GreedTok"), (True, "GreedWMC")):
        gains = greedy_select(corpus, cands, k, relaxed=relaxed, progress=progress,
                              desc=desc).gains
        full = np.zeros(k, dtype=np.int64)
        full[:gains.shape[0]] = gains
        curves.append(np.cumsum(full))
    tok, wmc = curves
    with np.errstate(invalid="ignore", divide="ignore"):
        beta = np.where(wmc > 0, tok / np.maximum(wmc, 1), 1.0)
    return BetaCurve(np.arange(1, k + 1), tok, wmc, beta)
