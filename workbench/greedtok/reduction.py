"""NP-hardness of partition cover, executable: Theorem 1's reduction from vertex cover.

For a graph ``(V, E)`` the instance has the alphabet ``V ∪ {$}`` (each vertex one character),
one word ``$u$v$`` of count 1 per edge ``{u, v}``, the candidates ``{$v$ : v ∈ V}`` and the
budget ``k``. A word costs 3 tokens if ``$u$`` or ``$v$`` is chosen (both cannot be used: they
share the middle ``$``) and 5 otherwise, so total cost ``3|E|`` is reachable with ``k``
tokens iff ``G`` has a vertex cover of size ``k``.

:func:`check_reduction` verifies this on a graph by brute force on *both* sides: the
instance's optimum comes from an exhaustive search over token subsets with the exact
partition of :mod:`workbench.greedtok.objective` (no use of GreedTok, nor of the argument
above), the vertex cover from an exhaustive search over vertex subsets.
:func:`all_graphs` enumerates every labelled graph on ``n`` vertices.

This module only builds and solves small instances (exponential in ``|V|``).

Example
-------
>>> inst = vertex_cover_instance([(0, 1), (1, 2)], 1)
>>> inst.counts, inst.candidates
({'$a$b$': 1, '$b$c$': 1}, ['$a$', '$b$', '$c$'])
>>> optimum(inst)
(6, ('$b$',))
>>> check_reduction([(0, 1), (1, 2)], 1)
True
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError, InvariantError
from .._core.validate import check_int, check_work
from .objective import partition

#: Largest graph the exhaustive checks accept (2**|V| subsets).
MAX_VERTICES = 16


@dataclass(frozen=True)
class VertexCoverInstance:
    """Theorem 1's partition-cover instance of a graph."""

    counts: dict[str, int]  # one word "$u$v$" per edge
    candidates: list[str]  # "$v$" per vertex, in vertex order
    k: int
    vertices: list[Hashable]  # vertex order; vertex i is spelled letters[i]
    letters: list[str]
    edges: list[tuple[int, int]]  # as vertex indices, u < v


def _letter(i: int) -> str:
    return chr(ord("a") + i) if i < 26 else chr(0x3B1 + i - 26)


def _normalise(graph, vertices: Iterable[Hashable] | None = None
               ) -> tuple[list[Hashable], list[tuple[int, int]]]:
    """(vertices, edges as index pairs) from an edge list or a networkx-like graph."""
    vertices = [] if vertices is None else list(vertices)
    if hasattr(graph, "nodes") and hasattr(graph, "edges"):
        vertices += list(graph.nodes)
        edge_list = list(graph.edges)
    elif isinstance(graph, (str, bytes)) or not isinstance(graph, Iterable):
        raise ArgumentTypeError("graph must be an edge list or a graph, not "
                                f"{type(graph).__name__}")
    else:
        edge_list = list(graph)
    for e in edge_list:
        if isinstance(e, (str, bytes)) or not isinstance(e, Sequence) or len(e) != 2:
            raise ArgumentTypeError(f"every edge must be a pair of vertices, got {e!r}")
    seen = set(vertices)
    if len(seen) != len(vertices):
        raise InvalidValueError("repeated vertex")
    for u, v in edge_list:
        for x in (u, v):
            if x not in seen:
                seen.add(x)
                vertices.append(x)
    try:
        vertices = sorted(vertices)
    except TypeError:
        pass  # unorderable labels keep their first-seen order
    index = {v: i for i, v in enumerate(vertices)}
    edges = set()
    for u, v in edge_list:
        if u == v:
            raise InvalidValueError(f"self-loop at {u!r}: vertex cover graphs are simple")
        a, b = sorted((index[u], index[v]))
        edges.add((a, b))
    if len(vertices) > MAX_VERTICES:
        raise InvalidValueError(f"{len(vertices)} vertices; the exhaustive checks stop at "
                                f"{MAX_VERTICES}")
    return vertices, sorted(edges)


def vertex_cover_instance(graph, k: int, *,
                          vertices: Iterable[Hashable] | None = None) -> VertexCoverInstance:
    """Build Theorem 1's instance for ``graph`` and budget ``k``.

    Parameters
    ----------
    graph : iterable of vertex pairs, or a networkx-like graph (``.nodes``, ``.edges``)
        A simple undirected graph; vertices are any hashable labels (sorted if orderable).
    k : int
        Token budget (= cover size asked for).
    vertices : iterable, optional
        Extra (e.g. isolated) vertices.
    """
    vertices, edges = _normalise(graph, vertices)
    k = check_int(k, "k", minimum=0)
    letters = [_letter(i) for i in range(len(vertices))]
    counts = {f"${letters[u]}${letters[v]}$": 1 for u, v in edges}
    return VertexCoverInstance(counts, [f"${c}$" for c in letters], k, vertices, letters, edges)


def cost_table(inst: VertexCoverInstance) -> np.ndarray:
    """Total cost ``Σ partition(W, S)`` of every token subset ``S`` (bit i: candidate i).

    Each word's partition is computed exactly for each subset of the candidates occurring in
    it (the others cannot matter), then summed over the words for all ``2^|V|`` subsets.
    """
    m = len(inst.candidates)
    masks = np.arange(1 << m, dtype=np.int64)
    total = np.zeros(1 << m, dtype=np.int64)
    for word, count in inst.counts.items():
        inside = [i for i, t in enumerate(inst.candidates) if t in word]
        table = np.zeros(1 << len(inside), dtype=np.int64)
        for sub in range(1 << len(inside)):
            chosen = {inst.candidates[i] for j, i in enumerate(inside) if sub >> j & 1}
            table[sub] = partition(word, chosen)
        local = np.zeros(1 << m, dtype=np.int64)
        for j, i in enumerate(inside):
            local |= ((masks >> i) & 1) << j
        total += count * table[local]
    return total


def optimum(inst: VertexCoverInstance) -> tuple[int, tuple[str, ...]]:
    """Least total cost over token sets of size ≤ ``k``, and the first set attaining it."""
    costs = cost_table(inst)
    sizes = np.array([bin(s).count("1") for s in range(costs.shape[0])])
    allowed = np.flatnonzero(sizes <= inst.k)
    best = allowed[np.argmin(costs[allowed])]
    chosen = tuple(t for i, t in enumerate(inst.candidates) if best >> i & 1)
    return int(costs[best]), chosen


def has_vertex_cover(graph, k: int, *, vertices: Iterable[Hashable] | None = None) -> bool:
    """Brute force: does some set of at most ``k`` vertices touch every edge?

    >>> has_vertex_cover([(0, 1), (2, 3)], 1), has_vertex_cover([(0, 1), (2, 3)], 2)
    (False, True)
    """
    vertices, edges = _normalise(graph, vertices)
    k = check_int(k, "k", minimum=0)
    for size in range(min(k, len(vertices)) + 1):
        for cover in combinations(range(len(vertices)), size):
            chosen = set(cover)
            if all(u in chosen or v in chosen for u, v in edges):
                return True
    return False


def check_reduction(graph, k: int, *, vertices: Iterable[Hashable] | None = None) -> bool:
    """Theorem 1 on one graph: optimum cost ``== 3|E|`` iff a vertex cover of size ``k``."""
    inst = vertex_cover_instance(graph, k, vertices=vertices)
    cost, _ = optimum(inst)
    if cost < 3 * len(inst.edges):
        raise InvariantError(f"cost {cost} below 3|E| = {3 * len(inst.edges)}")
    return (cost == 3 * len(inst.edges)) == has_vertex_cover(graph, k, vertices=vertices)


def all_graphs(n: int) -> Iterator[list[tuple[int, int]]]:
    """Every labelled simple graph on vertices ``0 … n-1``, as its edge list.

    >>> sum(1 for _ in all_graphs(3))
    8
    """
    n = check_int(n, "n", minimum=0, maximum=7, why=" (2**21 graphs)")
    pairs = list(combinations(range(n), 2))
    for bits in range(1 << len(pairs)):
        yield [p for j, p in enumerate(pairs) if bits >> j & 1]


def verify_all_graphs(max_vertices: int) -> int:
    """Check the reduction on every graph with ≤ ``max_vertices`` vertices and every ``k``.

    Returns the number of (graph, k) pairs checked; raises ``AssertionError`` on the first
    counterexample (none exists).

    Time: ``2^C(n,2)`` graphs on ``n`` vertices, each costing about ``n + C(n,2)/2`` units
    (its vertices plus its mean edge count) at ~24,000 units per second (measured: all 32,768
    graphs on 6 vertices in 18 s), summed over ``n <= max_vertices``; ``max_vertices``
    is at most 7 (:func:`all_graphs`) and the estimate is checked against the time budget
    before any graph is built (7 vertices: ~25 minutes, refused;
    :class:`~workbench._core.validate.BudgetError`).

    >>> verify_all_graphs(3)  # 1·2 + 2·3 + 8·4 (graph, k) pairs
    40
    """
    max_vertices = check_int(max_vertices, "max_vertices", minimum=0, maximum=7,
                             why=" (2**21 graphs on 7 vertices; all_graphs stops there)")
    check_work(sum((1 << comb(n, 2)) * (n + comb(n, 2) / 2) for n in range(1, max_vertices + 1)),
               f"verify_all_graphs({max_vertices})", rate=2.4e4,
               hint=" (6 vertices take ~18 s)")
    checked = 0
    for n in range(1, max_vertices + 1):
        sizes = np.array([bin(s).count("1") for s in range(1 << n)])
        masks = np.arange(1 << n)
        for edges in all_graphs(n):
            inst = vertex_cover_instance(edges, 0, vertices=range(n))
            costs = cost_table(inst)
            covers = np.ones(1 << n, dtype=bool)  # independent brute force over vertex sets
            for u, v in edges:
                covers &= ((masks >> u) & 1 | (masks >> v) & 1).astype(bool)
            for k in range(n + 1):
                reach = costs[sizes <= k].min() == 3 * len(edges)
                if reach != bool(covers[sizes <= k].any()):
                    raise InvariantError(f"reduction fails on {edges} with k = {k}")
                checked += 1
    return checked
