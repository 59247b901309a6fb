"""A lattice's summaries: the segmentations through each arc, and its numbers as plain data.

:func:`paths_through` multiplies, per arc ``(i, j)``, the paths from node 0 to ``i`` by the
paths from ``j`` to node ``n``: the number of segmentations that use the arc.
:class:`LatticeSummary` is what :meth:`workbench.lattice.Lattice.summary` returns: the
word, the walked graph's arcs and every count a drawing or a table shows, compared by value
and without the vocabulary (the figures and the notebook panels take it).

This module does not build lattices, choose arcs or count paths (:mod:`workbench.lattice`
does: the counts come in as arguments), and draws nothing (:mod:`workbench.figures.lattice`).

Example
-------
>>> paths_through([(0, 1), (0, 2), (1, 2)], from_start=[1, 1, 2], to_end=[2, 1, 1])
[1, 1, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def paths_through(arcs: Sequence[tuple[int, int]], from_start: Sequence[int],
                  to_end: Sequence[int]) -> list[int]:
    """Per arc ``(i, j)``, in the given order, the number of segmentations that use it.

    Parameters
    ----------
    arcs : sequence of (i, j)
        The lattice's arcs (nodes ``0..n``).
    from_start : sequence of int
        ``from_start[k]``: paths from node 0 to node ``k``.
    to_end : sequence of int
        ``to_end[k]``: paths from node ``k`` to node ``n``.

    Returns
    -------
    list of int
        ``from_start[i] * to_end[j]`` per arc, exact.

    >>> paths_through([(0, 1), (1, 2)], [1, 1, 1], [1, 1, 1])
    [1, 1]
    """
    return [from_start[i] * to_end[j] for i, j in arcs]


@dataclass(frozen=True)
class LatticeSummary:
    """A lattice's numbers (:meth:`workbench.lattice.Lattice.summary`): compares by value,
    holds no vocabulary.

    Attributes
    ----------
    word : str
    ell_min : int
    direction : {"l2r", "r2l"}
    arcs : tuple of (i, j)
        The walked graph's arcs, in :attr:`workbench.lattice.Lattice.arcs` order.
    path_counts : tuple of int
        :attr:`workbench.lattice.Lattice.path_counts` (Algorithm 1's counters).
    other_counts : tuple of int
        :attr:`workbench.lattice.Lattice.other_counts` (paths to the other end).
    through : tuple of int
        :meth:`workbench.lattice.Lattice.paths_through`, per arc.
    count : int
        Number of segmentations.

    >>> s = LatticeSummary("ab", 1, "r2l", ((0, 1), (1, 2)), (1, 1, 1), (1, 1, 1), (1, 1), 1)
    >>> s.n, s.tokens
    (2, ('a', 'b'))
    """

    word: str
    ell_min: int
    direction: str
    arcs: tuple[tuple[int, int], ...]
    path_counts: tuple[int, ...]
    other_counts: tuple[int, ...]
    through: tuple[int, ...]
    count: int

    @property
    def n(self) -> int:
        return len(self.word)

    @property
    def tokens(self) -> tuple[str, ...]:
        """Each arc's token ``word[i:j]``."""
        return tuple(self.word[i:j] for i, j in self.arcs)
