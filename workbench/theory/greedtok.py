"""Closed forms of the GreedTok paper (*A partition cover approach to tokenization*).

* Theorem 1 (NP-hardness, §3): in the instance built from a graph ``(V, E)`` every edge
  ``{u, v}`` is a word ``$u$v$``, which costs :data:`COVERED_EDGE_COST` (3) tokens if the
  token ``$u$`` or ``$v$`` is chosen and :data:`UNCOVERED_EDGE_COST` (5) otherwise;
  :func:`reduction_cost` is the total for a chosen vertex set, so the optimum reaches
  :func:`reduction_threshold` ``= 3|E|`` with ``k`` tokens iff ``G`` has a vertex cover of
  size ``k``;
* the relaxation (§4): greedy weighted maximum coverage (GreedWMC) is
  :func:`greedwmc_ratio` ``= 1 − 1/e``-approximate, so ``β(k) = GreedTok(k)/GreedWMC(k)``
  is at most :func:`beta_upper_bound` ``= e/(e − 1)``.

Pure functions of integers. This module builds no instance and trains nothing (see
:mod:`workbench.greedtok`); :mod:`workbench.checks.greedtok` checks these numbers against it.

Example
-------
>>> reduction_cost([(0, 1), (1, 2)], {1}), reduction_threshold(2)
(6, 6)
>>> round(greedwmc_ratio(), 4), round(beta_upper_bound(), 4)
(0.6321, 1.582)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable

from .._core.validate import check_int

COVERED_EDGE_COST = 3
"""Tokens of ``$u$v$`` when ``$u$`` or ``$v$`` is a token: ``$u$ + v + $`` (or mirrored)."""
UNCOVERED_EDGE_COST = 5
"""Tokens of ``$u$v$`` when neither ``$u$`` nor ``$v$`` is a token: its five characters."""


def reduction_cost(edges: Iterable[tuple[int, int]], chosen: Collection[int]) -> int:
    """Total tokens of Theorem 1's instance when the tokens of the vertices ``chosen`` are used.

    ``3`` per edge with an end in ``chosen``, ``5`` per other edge (both ends chosen still
    give 3: the two tokens share the middle ``$``).

    >>> reduction_cost([(0, 1), (2, 3)], set()), reduction_cost([(0, 1), (2, 3)], {0})
    (10, 8)
    """
    total = 0
    for u, v in edges:
        total += COVERED_EDGE_COST if (u in chosen or v in chosen) else UNCOVERED_EDGE_COST
    return total


def reduction_threshold(n_edges: int) -> int:
    """``3|E|``: the cost reachable with ``k`` tokens iff a vertex cover of size ``k`` exists."""
    return COVERED_EDGE_COST * check_int(n_edges, "n_edges", minimum=0)


def greedwmc_ratio() -> float:
    """``1 − 1/e``: the approximation ratio of greedy weighted maximum coverage [Hoc96]."""
    return 1.0 - 1.0 / math.e


def beta_upper_bound() -> float:
    """``e/(e − 1)``: GreedTok(k) ≤ OPT_Tok ≤ OPT_WMC ≤ GreedWMC(k)/(1 − 1/e)."""
    return 1.0 / greedwmc_ratio()
