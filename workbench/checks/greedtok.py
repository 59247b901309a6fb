"""GreedTok's claims checked against :mod:`workbench.greedtok` (``python -m workbench verify``).

* Theorem 1 on every labelled graph with at most :data:`MAX_VERTICES` vertices: the instance's
  cost of every vertex set, by the exact partition of :mod:`workbench.greedtok.objective`,
  is :func:`workbench.theory.greedtok.reduction_cost` (3 per covered edge, 5 per other), and
  the optimum with ``k`` tokens is ``3|E|`` iff a vertex cover of size ``k`` exists
  (:func:`workbench.greedtok.verify_all_graphs`, brute force on both sides);
* Table 1: the objective is neither submodular nor supermodular — the witnesses that
  :func:`workbench.greedtok.find_modularity_witness` finds, re-evaluated here with
  :func:`workbench.greedtok.corpus_cover`;
* the training invariant: a model trained on real word counts (the shipped
  ``word_counts``) has ``Σ gains = bytes − tokens`` of its own encoding of the training
  words (gains need not decrease: the objective is not submodular).

This module implements nothing of GreedTok and does not time it.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ..datasets import load_word_counts
from ..greedtok import (
    corpus_cover,
    find_modularity_witness,
    train_greedtok,
    verify_all_graphs,
)
from ..greedtok.reduction import all_graphs, cost_table, vertex_cover_instance
from ..theory.greedtok import reduction_cost, reduction_threshold
from .registry import CheckResult, register, row

MAX_VERTICES = 5
"""Theorem 1 is checked on every labelled graph with up to this many vertices (1,024 at 5)."""
N_WORDS = 2000
"""The invariant's training table: the most frequent shipped words."""
K_TOKENS = 300


@register("GreedTok Thm 1", "numeric")
def check_theorem1() -> list[CheckResult]:
    graphs = mismatches = 0
    for n in range(1, MAX_VERTICES + 1):
        subsets = [set(c) for size in range(n + 1) for c in combinations(range(n), size)]
        for edges in all_graphs(n):
            graphs += 1
            costs = cost_table(vertex_cover_instance(edges, 0, vertices=range(n)))
            for chosen in subsets:
                mask = sum(1 << v for v in chosen)
                mismatches += int(costs[mask]) != reduction_cost(edges, chosen)
    pairs = verify_all_graphs(MAX_VERTICES)  # raises AssertionError on a counterexample
    return [
        row(f"Theorem 1 instance: tokens = 3 per covered edge, 5 per other, for every vertex "
            f"set (all {graphs:,} graphs, |V| <= {MAX_VERTICES})", "Thm 1 (§3)",
            f"{mismatches} mismatches", "0 (exact partition vs reduction_cost)", mismatches == 0),
        row(f"Theorem 1: optimum with k tokens = 3|E| iff a vertex cover of size k (brute force "
            f"both sides, |V| <= {MAX_VERTICES})", "Thm 1 (§3)",
            f"{pairs:,} (graph, k) pairs agree",
            f"reachable iff cover (3|E| = {reduction_threshold(1)} per edge)",
            pairs > 0),
    ]


@register("GreedTok Table 1", "numeric")
def check_table1() -> list[CheckResult]:
    rows = []
    for kind in ("submodular", "supermodular"):
        w = find_modularity_witness(kind)
        if w is None:
            rows.append(row(f"objective is not {kind}", "Table 1", "no witness found",
                            "a witness", False))
            continue
        corpus = {w.word: 1}
        gain_a = corpus_cover(corpus, {*w.a, w.x}) - corpus_cover(corpus, set(w.a))
        gain_b = corpus_cover(corpus, {*w.b, w.x}) - corpus_cover(corpus, set(w.b))
        broken = gain_b > gain_a if kind == "submodular" else gain_b < gain_a
        ok = broken and set(w.a) <= set(w.b) and w.x not in w.b
        rows.append(row(f"partition-cover objective f is not {kind}: A ⊆ B, x ∉ B on "
                        f"{{{w.word!r}: 1}}", "Table 1",
                        f"f(B+x)-f(B) = {gain_b}, f(A+x)-f(A) = {gain_a}",
                        ("f(B+x)-f(B) > f(A+x)-f(A)" if kind == "submodular"
                         else "f(B+x)-f(B) < f(A+x)-f(A)"), ok))
    return rows


@register("GreedTok gains", "numeric")
def check_gain_invariant() -> list[CheckResult]:
    counts = dict(list(load_word_counts().items())[:N_WORDS])
    model = train_greedtok(counts, K_TOKENS, progress=False)
    total_bytes = sum(c * len(w.encode("utf-8")) for w, c in counts.items())
    _, offsets = model.encode_ids(list(counts))  # the words themselves, no pretokeniser
    total_tokens = sum(c * int(n) for c, n in zip(counts.values(), np.diff(offsets)))
    gains = model.gains or []
    return [
        row(f"Σ gains = bytes − tokens of the model's own encoding ({N_WORDS:,} most frequent "
            f"shipped words, k = {K_TOKENS})", "Problem 1, App. D",
            f"Σ gains = {sum(gains):,}", f"bytes − tokens = {total_bytes - total_tokens:,}",
            sum(gains) == total_bytes - total_tokens and len(gains) == K_TOKENS),
    ]
