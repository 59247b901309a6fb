"""GRaMPa Figure 1 made live (notebook 01): one word's lattice, its arcs' numbers, as data.

* :func:`lattice_view` — what the lattice panel shows for a word typed by a reader: the word
  spelled in the vocabulary's alphabet, :meth:`workbench.Lattice.summary`, up to
  ``max_list`` segmentations, the arc table and the package's documented errors as a
  message (a :class:`LatticeView`);
* :func:`arc_table` — per arc: its transition probability at a τ
  (:func:`workbench.grampa.arc_probabilities`) and, at τ = 1, the same as an exact fraction
  of path counts (an :class:`ArcTable`).

This module draws nothing (:mod:`workbench.figures.lattice` and
:mod:`workbench.figures.lattice_plotly` do) and counts nothing itself: the counts are
:class:`workbench.Lattice`'s, the probabilities :mod:`workbench.grampa`'s.

Example
-------
>>> from workbench import Vocabulary
>>> v = lattice_view("abc", Vocabulary(["a", "b", "c", "ab", "bc"]))
>>> v.lattice.count, v.segmentations, v.error
(3, (('a', 'b', 'c'), ('a', 'bc'), ('ab', 'c')), None)
>>> [str(q) for q in v.table.exact]
['2/3', '1/3', '1/2', '1/2', '1']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from ..grampa import arc_probabilities
from ..lattice import Lattice, SegmentationError, enumerate_segmentations
from ..lattice.summary import LatticeSummary
from ..vocab import Vocabulary

__all__ = ["EXACT_MAX_DENOMINATOR", "TABLE_MAX_ARCS", "ArcTable", "LatticeView", "arc_table",
           "lattice_view"]

EXACT_MAX_DENOMINATOR = 10**6
"""At τ = 1 a probability is also given as an exact fraction up to this denominator."""

TABLE_MAX_ARCS = 1200
""":func:`lattice_view` computes the arc table of lattices with at most this many arcs
(what an interactive figure can show; beyond, a drawing is a sketch)."""


@dataclass(frozen=True)
class ArcTable:
    """Per arc of a lattice, in its order: probability at τ and the exact one at τ = 1.

    Attributes
    ----------
    lattice : LatticeSummary
    tau : float or None
        The τ of ``probability`` (None: none given).
    probability : tuple of (float or None)
        GRaMPa's transition probability of each arc at ``tau`` (None where not walked or
        not given).
    exact : tuple of (Fraction or None)
        At τ = 1 (or without τ), the probability as a fraction of path counts — standing in
        node j for ``"r2l"`` it is ``c_i / c_j``, in node i for ``"l2r"`` ``c_j / c_i`` —
        None when τ ≠ 1, the denominator exceeds :data:`EXACT_MAX_DENOMINATOR` or the node
        is unreachable.
    """

    lattice: LatticeSummary
    tau: float | None
    probability: tuple[float | None, ...]
    exact: tuple[Fraction | None, ...]


@dataclass(frozen=True)
class LatticeView:
    """What the lattice panel shows for one word (:func:`lattice_view`).

    Attributes
    ----------
    word : str or None
        The word in the vocabulary's alphabet (None if it could not be spelled).
    ell_min, direction
        As asked.
    lattice : LatticeSummary or None
        None when the lattice could not be built (``error`` says why); an unsegmentable word
        has its lattice, with count 0.
    segmentations : tuple of tuple of str, or None
        Listed when there are at most ``max_list`` (None otherwise, and on an error).
    table : ArcTable or None
        The arc table at ``tau`` (None on an error or past :data:`TABLE_MAX_ARCS`).
    error : str or None
    """

    word: str | None
    ell_min: int
    direction: str
    lattice: LatticeSummary | None
    segmentations: tuple[tuple[str, ...], ...] | None
    table: ArcTable | None
    error: str | None


def arc_table(lattice: Lattice | LatticeSummary, tau: float | None = None,
              probabilities: Mapping[tuple[int, int], float] | None = None) -> ArcTable:
    """The arcs' probabilities at ``tau`` (given, or computed from a :class:`Lattice`).

    Parameters
    ----------
    lattice : Lattice or LatticeSummary
    tau : float, optional
        With a :class:`workbench.Lattice` and no ``probabilities``:
        ``arc_probabilities(word, lattice.vocab, tau, ell_min, direction)``.
    probabilities : dict {(i, j): float}, optional

    Raises
    ------
    ValueError
        If ``tau`` is given with a summary and no ``probabilities`` (a summary carries no
        vocabulary).
    """
    probs = dict(probabilities) if probabilities is not None else None
    if probs is None and tau is not None:
        if not isinstance(lattice, Lattice):
            raise InvalidValueError("a LatticeSummary carries no vocabulary: pass the "
                                    "probabilities computed at this tau")
        probs = arc_probabilities(lattice.word, lattice.vocab, tau, lattice.ell_min,
                                  lattice.direction)
    s = lattice.summary() if isinstance(lattice, Lattice) else lattice
    c = s.path_counts
    exact: list[Fraction | None] = []
    uniform = tau is None or tau == 1.0
    for i, j in s.arcs:
        stand, come = (j, i) if s.direction == "r2l" else (i, j)
        q = Fraction(c[come], c[stand]) if uniform and c[stand] > 0 else None
        exact.append(q if q is not None and q.denominator <= EXACT_MAX_DENOMINATOR else None)
    return ArcTable(lattice=s, tau=tau,
                    probability=tuple(None if probs is None else probs.get(a) for a in s.arcs),
                    exact=tuple(exact))


def lattice_view(
    word: str,
    vocab: Vocabulary,
    ell_min: int = 1,
    direction: str = "l2r",
    max_list: int = 64,
    tau: float | None = None,
) -> LatticeView:
    """Everything the lattice panel shows for one word typed by a reader.

    Parameters
    ----------
    word : str
        A plain word; it is spelled in the vocabulary's alphabet first
        (``vocab.to_alphabet(word)``, so ``" hello"`` becomes ``"Ġhello"`` for GPT-2).
    vocab : Vocabulary
    ell_min : int, default 1
    direction : {"l2r", "r2l"}, default "l2r"
    max_list : int, default 64
        List the segmentations only when there are at most this many.
    tau : float, optional
        The τ of the arc table's probabilities (default none: the exact ones at τ = 1).

    Returns
    -------
    LatticeView
        Only :class:`workbench.SegmentationError`, ``ValueError`` and ``TypeError`` (the
        package's documented errors) become its ``error``; anything else propagates. Fields
        computed before an error are kept.

    Examples
    --------
    >>> lattice_view("abd", Vocabulary(["a", "b", "ab"])).error
    "no segmentation of 'abd': character 'd' (U+0064) at position 2 occurs in no token"
    """
    spelled: str | None = None
    summary: LatticeSummary | None = None
    segmentations = table = None
    try:
        if not isinstance(vocab, Vocabulary):
            raise ArgumentTypeError("vocab must be a workbench.Vocabulary, not "
                                    f"{type(vocab).__name__}")
        if isinstance(max_list, bool) or not isinstance(max_list, (int, np.integer)):
            raise ArgumentTypeError(f"max_list must be an int, not {type(max_list).__name__}")
        spelled = vocab.to_alphabet(word)
        lattice = Lattice.build(spelled, vocab, ell_min, direction)
        summary = lattice.summary()
        if len(summary.arcs) <= TABLE_MAX_ARCS:
            table = arc_table(lattice, tau)
        lattice.require_segmentable()
        if summary.count <= max_list:
            segmentations = tuple(enumerate_segmentations(
                spelled, vocab, limit=max(int(max_list), 0), ell_min=ell_min,
                direction=direction))
    except (SegmentationError, ValueError, TypeError) as err:
        return LatticeView(spelled, ell_min, direction, summary, None, table, str(err))
    return LatticeView(spelled, ell_min, direction, summary, segmentations, table, None)
