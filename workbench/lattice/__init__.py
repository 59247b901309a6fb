"""The segmentation lattice of a word under a vocabulary, and exact path counts.

For a word ``s`` (``n`` code points) and vocabulary ``V``, node ``i`` sits before character
``i`` and there is an arc ``i → j`` whenever ``s[i:j] ∈ V``. Paths from node 0 to node ``n``
are exactly the segmentations of ``s``.

The *walked graph* is the subgraph GRaMPa's Algorithm 1 keeps for a soft minimum length
``ell_min``: an arc shorter than ``ell_min`` is kept only where its end node would otherwise
have no incoming arc, and then only the longest such arc. Arcs that leave a node no path
reaches carry no paths and are never kept (the reference implementation keeps them, which
blocks the fallback and divides by zero for ``{ab, bc, c}``, ``"abc"``, ``ell_min=2``).
With ``direction="l2r"`` the graph is built on the mirrored word: l2r(s, V) mirrors
r2l(reverse(s), reverse(V)).

This module counts and lists paths exactly (Python ints) and words them for people: one
segmentation as a line (:func:`format_segmentation`; the empty word's one segmentation is
:data:`EMPTY_SEGMENTATION`) and why a word has none (:func:`no_segmentation_reason`), the
wording the CLI and the notebook panels share. It does not sample or weight paths (see
:mod:`workbench.grampa`), nor summarise a lattice for drawings and tables (the paths through
each arc and :class:`~workbench.lattice.summary.LatticeSummary` are :mod:`.summary`'s).

Example
-------
>>> from workbench.vocab import Vocabulary
>>> count_segmentations("abc", Vocabulary(["a", "b", "c", "ab", "bc"]))
3
>>> enumerate_segmentations("abc", Vocabulary(["a", "b", "c", "ab", "bc"]))
[('a', 'b', 'c'), ('a', 'bc'), ('ab', 'c')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .._core.bigint import about_count
from .._core.errors import ArgumentTypeError, InvalidValueError, public
from .._core.validate import check_budget, check_choice, check_int, check_work
from ..vocab import Vocabulary
from . import interpreted
from .rules import to_word_arc
from .summary import LatticeSummary, paths_through

DIRECTIONS = ("l2r", "r2l")
MAX_WORD_LENGTH = 1_000_000  # code points; longer inputs are refused, not attempted


@public
class SegmentationError(InvalidValueError):
    """The word has no segmentation under the vocabulary (message says where it is stuck)."""


# --------------------------------------------------------------------------- helpers
def check_word(word: object, what: str = "word") -> str:
    """Validate a word argument: a ``str`` of at most :data:`MAX_WORD_LENGTH` code points."""
    if not isinstance(word, str):
        raise ArgumentTypeError(f"{what} must be str, not {type(word).__name__}")
    if len(word) > MAX_WORD_LENGTH:
        raise InvalidValueError(f"{what} has {len(word):,} characters; the limit is "
                                f"{MAX_WORD_LENGTH:,}")
    return word


#: Units per second of :func:`check_walk`'s model (measured on its worst case, "a" * n
#: against the token "a" * n: count_segmentations at n = 20,000 in 8.5 s, 4.7e7 units/s;
#: Grampa's batch at n = 40,000 in 24 s, 6.7e7 units/s).
WALK_RATE = 4e7
#: Words up to this length are never checked (at most ~2.5e4 units per character).
_WALK_FREE = 1000


def check_walk(lengths: Sequence[int] | np.ndarray, vocab: Vocabulary, what: str) -> None:
    """Refuse trie walks whose estimated time exceeds the time budget (before walking).

    A word of ``n`` characters is walked from every position to depth ``min(n, L)`` at most
    (``L`` the longest token; ``n`` for the infinite vocabulary), so a batch costs
    ``sum over words of n · min(n, L)`` units at :data:`WALK_RATE` per second. Only long
    words can explode, so batches whose words all have at most 1,000 characters pass
    without arithmetic. Raises :class:`~workbench._core.validate.BudgetError`.

    >>> check_walk([5, 3], Vocabulary(["a"]), "two words")
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    if lengths.size == 0 or int(lengths.max()) <= _WALK_FREE:
        return
    top = int(lengths.max()) if vocab.is_infinite else (vocab.max_token_length or 0)
    reach = np.minimum(lengths, top).astype(np.float64)
    check_work(float(np.dot(lengths.astype(np.float64), reach)),
               f"{what} (longest word {int(lengths.max()):,} characters, longest token "
               f"{top:,})", rate=WALK_RATE,
               hint=" (split long words, or drop the vocabulary's longest tokens)")


def check_ell_min(ell_min: object) -> int:
    """Validate ``ell_min``: an int >= 1."""
    return check_int(ell_min, "ell_min", minimum=1)


def check_direction(direction: object) -> str:
    """Validate ``direction``: ``"l2r"`` or ``"r2l"``."""
    return check_choice(direction, "direction", DIRECTIONS)


def check_vocab(vocab: object) -> Vocabulary:
    """Validate a vocabulary argument (a :class:`workbench.Vocabulary`)."""
    if not isinstance(vocab, Vocabulary):
        raise ArgumentTypeError(f"vocab must be a workbench.Vocabulary, not {type(vocab).__name__}")
    return vocab


def code_points(word: str) -> np.ndarray:
    """The word's code points as an int32 array (no normalisation)."""
    raw = word.encode("utf-32-le", "surrogatepass")  # lone surrogates are code points too
    return np.frombuffer(raw, dtype=np.uint32).astype(np.int32)


def arc_table(word: str, vocab: Vocabulary, *, reverse: bool = False) -> np.ndarray:
    """Every arc of ``word``'s lattice: ``table[j, l]`` = token id of ``word[j-l:j]`` or -1.

    With ``reverse=True`` the table is that of ``word[::-1]`` under the reversed vocabulary.
    Finite vocabularies only (shape ``(n + 1, max_token_length + 1)``).
    """
    check_vocab(vocab)
    if vocab.is_infinite:
        raise ArgumentTypeError("the infinite vocabulary has no arc table (every arc exists)")
    check_word(word)
    check_walk([len(word)], vocab, "the arc table of one word")
    trie = vocab.reversed_trie if reverse else vocab.trie
    cps = code_points(word[::-1] if reverse else word)
    table = np.empty((len(cps) + 1, trie.max_len + 1), dtype=np.int32)
    from .kernels import fill_arc_table

    fill_arc_table(cps, trie.da, trie.codes, trie.max_len, table)
    return table


def walked_arcs(word: str, vocab: Vocabulary, ell_min: int = 1, direction: str = "l2r"):
    """The arcs of the walked graph in the *word's own* coordinates.

    Returns
    -------
    arcs : list of (i, j)
        Kept arcs ``i → j`` (``word[i:j]`` is the token), sorted.
    reach : numpy.ndarray of bool
        ``reach[k]``: some path of the walked graph joins node ``k`` to the node the
        construction starts from (node 0 for r2l, node n for l2r).
    """
    word = check_word(word)
    check_vocab(vocab)
    ell_min = check_ell_min(ell_min)
    direction = check_direction(direction)
    n = len(word)
    if not vocab.is_infinite:
        check_walk([n], vocab, "the lattice of one word")
    rev = direction == "l2r"
    if vocab.is_infinite and n > 4096:
        raise InvalidValueError("listing arcs of the infinite vocabulary is limited to 4096 chars")
    if interpreted.applies(n, vocab):  # a small first call: plain Python, the same graph
        kept, reached = interpreted.select_arcs(word, vocab, ell_min, rev)
        arcs = sorted(to_word_arc(n, j, length, rev) for j, length in kept)
        return arcs, np.array(reached[::-1] if rev else reached, dtype=np.bool_)
    if vocab.is_infinite:
        table = np.zeros((n + 1, n + 1), dtype=np.int32)
        for j in range(n + 1):
            table[j, j + 1:] = -1
        table[:, 0] = -1
        max_len = n
    else:
        table = arc_table(word, vocab, reverse=rev)
        max_len = table.shape[1] - 1
    sel = np.zeros(table.shape, dtype=np.bool_)
    reach = np.zeros(n + 1, dtype=np.bool_)
    from .kernels import select_arcs

    select_arcs(table, n, max_len, ell_min, sel, reach)
    js, ls = np.nonzero(sel)
    arcs = sorted(to_word_arc(n, int(j), int(length), rev) for j, length in zip(js, ls))
    if rev:
        reach = reach[::-1].copy()
    return arcs, reach


def _explain(word: str, vocab: Vocabulary, reach: np.ndarray, direction: str,
             hint_alphabet: bool = True) -> str:
    if not vocab.is_infinite:
        for pos, ch in enumerate(word):
            if ch not in vocab.characters:
                hint = ""
                if hint_alphabet and vocab.alphabet != "identity":
                    hint = f" (words must be in the {vocab.alphabet} alphabet: use to_alphabet)"
                return (f"no segmentation of {word!r}: character {ch!r} (U+{ord(ch):04X}) at "
                        f"position {pos} occurs in no token{hint}")
    if direction == "r2l":
        pos = int(np.flatnonzero(reach).max())
        return (f"no segmentation of {word!r}: no token sequence from the start gets past "
                f"character {word[pos]!r} at position {pos}")
    pos = int(np.flatnonzero(reach).min()) - 1
    return (f"no segmentation of {word!r}: no token sequence from the end gets past "
            f"character {word[pos]!r} at position {pos}")


def counts_from_arcs(n: int, arcs: list[tuple[int, int]], direction: str,
                     cap: int | None = None) -> list[int]:
    """Exact path counts per node, from the construction's start node.

    ``direction="r2l"`` builds the counts left to right (paths from node 0 to each node),
    ``"l2r"`` right to left (paths from each node to node ``n``), over the given arcs.
    With ``cap``, every count saturates at ``cap + 1`` ("more than cap"): no huge integers
    for a long word when only a comparison with ``cap`` is needed.

    Raises ``ValueError`` naming the bad value: ``n < 0``, an unknown direction, a negative
    ``cap``, or an arc that is not a pair ``(i, j)`` of nodes ``0 <= i < j <= n``.

    >>> arcs = [(0, 1), (0, 2), (1, 2)]
    >>> counts_from_arcs(2, arcs, "r2l"), counts_from_arcs(2, arcs, "l2r")
    ([1, 1, 2], [2, 1, 1])
    """
    n = check_int(n, "n", minimum=0)
    check_budget((n + 1) * 80, f"path counts of a lattice of {n:,} nodes")
    direction = check_direction(direction)
    if cap is not None:
        cap = check_int(cap, "cap", minimum=0)
    arcs = _checked_arcs(n, arcs)
    c = [0] * (n + 1)
    if direction == "r2l":
        c[0] = 1
        into: list[list[int]] = [[] for _ in range(n + 1)]
        for i, j in arcs:
            into[j].append(i)
        for j in range(1, n + 1):
            c[j] = sum(c[i] for i in into[j])
            if cap is not None and c[j] > cap:
                c[j] = cap + 1
    else:
        c[n] = 1
        out: list[list[int]] = [[] for _ in range(n + 1)]
        for i, j in arcs:
            out[i].append(j)
        for i in range(n - 1, -1, -1):
            c[i] = sum(c[j] for j in out[i])
            if cap is not None and c[i] > cap:
                c[i] = cap + 1
    return c


def _checked_arcs(n: int, arcs: object) -> list[tuple[int, int]]:
    """``arcs`` as ``(i, j)`` int pairs with ``0 <= i < j <= n``; the first bad one is named."""
    if isinstance(arcs, (str, bytes)) or not isinstance(arcs, (Sequence, np.ndarray)):
        raise ArgumentTypeError("arcs must be a sequence of (i, j) pairs, not "
                                f"{type(arcs).__name__}")
    out = []
    for k, arc in enumerate(arcs):
        if isinstance(arc, (str, bytes)) or not isinstance(arc, (Sequence, np.ndarray)) \
                or len(arc) != 2:
            raise InvalidValueError(f"arcs[{k}] must be a pair (i, j) of nodes, got {arc!r:.40}")
        i = check_int(arc[0], f"arcs[{k}][0]")
        j = check_int(arc[1], f"arcs[{k}][1]")
        if not 0 <= i < j <= n:
            raise InvalidValueError(f"arcs[{k}] = ({i}, {j}) is not an arc of a lattice with nodes "
                                    f"0..{n}: it needs 0 <= i < j <= {n}")
        out.append((i, j))
    return out


def _infinite_count(n: int, ell_min: int) -> int:
    if n == 0:
        return 1
    if ell_min == 1:
        return 1 << (n - 1)
    # c_j = sum_{i <= j - ell_min} c_i for j >= ell_min, else 1 (the single arc 0 → j)
    c = [1] * (n + 1)
    prefix = [1] * (n + 1)
    for j in range(1, n + 1):
        c[j] = prefix[j - ell_min] if j >= ell_min else 1
        prefix[j] = prefix[j - 1] + c[j]
    return c[n]


# --------------------------------------------------------------------------- public API
def tokens_from_lengths(word: str, lengths) -> list[str]:
    """Cut ``word`` into consecutive tokens of the given lengths (in word order).

    The one place where a sampled length sequence becomes tokens.

    >>> tokens_from_lengths("grampa", [2, 1, 3])
    ['gr', 'a', 'mpa']
    """
    out, pos = [], 0
    for length in lengths:
        out.append(word[pos:pos + length])
        pos += length
    if pos != len(word):
        raise InvalidValueError(f"token lengths sum to {pos}, not len(word) = {len(word)}")
    return out


def count_segmentations(
    word: str, vocab: Vocabulary, ell_min: int = 1, direction: str = "l2r"
) -> int:
    """The exact number of segmentations of ``word`` in the walked graph.

    With ``ell_min=1`` this is the number of ways to write ``word`` as a concatenation of
    tokens of ``vocab`` (direction does not matter); for ``ell_min > 1`` it is the number
    of paths in the graph that :class:`workbench.Grampa` samples from.

    Parameters
    ----------
    word : str
        In the vocabulary's alphabet; the empty word has exactly one (empty) segmentation.
    vocab : Vocabulary
    ell_min : int, default 1
    direction : {"l2r", "r2l"}, default "l2r"

    Returns
    -------
    int
        Exact, as a Python int (no overflow at any length); 0 if there is no segmentation.

    Examples
    --------
    >>> count_segmentations("abcd", Vocabulary.infinite())
    8
    """
    word = check_word(word)
    check_vocab(vocab)
    ell_min = check_ell_min(ell_min)
    direction = check_direction(direction)
    n = len(word)
    if vocab.is_infinite:
        return _infinite_count(n, ell_min)
    arcs, _ = walked_arcs(word, vocab, ell_min, direction)
    c = counts_from_arcs(n, arcs, direction)
    return c[n] if direction == "r2l" else c[0]


def enumerate_segmentations(
    word: str,
    vocab: Vocabulary,
    ell_min: int = 1,
    direction: str = "l2r",
    *,
    limit: int = 10_000,
) -> list[tuple[str, ...]]:
    """Every segmentation of ``word`` in the walked graph, in lexicographic order of lengths.

    Raises ``ValueError`` if there are more than ``limit`` of them (check
    :func:`count_segmentations` first for long words).

    >>> enumerate_segmentations("ab", Vocabulary.infinite())
    [('a', 'b'), ('ab',)]
    """
    limit = check_int(limit, "limit", minimum=0)
    word = check_word(word)
    check_vocab(vocab)
    ell_min = check_ell_min(ell_min)
    direction = check_direction(direction)
    n = len(word)
    shown = f"{word[:40]!r}{'…' if n > 40 else ''} (length {n:,})"
    if vocab.is_infinite:
        total = _infinite_count(n, ell_min)
        if total > limit:
            raise InvalidValueError(f"{shown} has {about_count(total)} segmentations, more than "
                                    f"limit={limit:,}")
    if n == 0:
        return [()]
    arcs, _ = walked_arcs(word, vocab, ell_min, direction)
    # saturating count: a long word is refused without exact (huge) integers
    c = counts_from_arcs(n, arcs, direction, cap=limit)
    total = c[n] if direction == "r2l" else c[0]
    if total > limit:
        raise InvalidValueError(f"{shown} has more than limit={limit:,} segmentations "
                                "(count_segmentations gives the exact number)")
    # the output: at most n tokens per segmentation, ~64 bytes each (str + tuple slot)
    check_budget(64 * total * n, f"enumerate_segmentations: {total:,} segmentations of {shown}")
    out_of: list[list[int]] = [[] for _ in range(n + 1)]
    for i, j in arcs:
        out_of[i].append(j)
    # only nodes that lie on a complete path matter
    alive = [False] * (n + 1)
    alive[n] = True
    for i in range(n - 1, -1, -1):
        alive[i] = any(alive[j] for j in out_of[i])
    # depth-first over live nodes with one shared path (a prefix tuple per step would copy
    # O(n) per token: quadratic for a long word with one segmentation, the fixture that
    # caught it: 'a' * 100_000 over a vocabulary whose only 'a'-token is 'a')
    result: list[tuple[str, ...]] = []
    path: list[str] = []
    nexts = [sorted(j for j in out_of[i] if alive[j]) for i in range(n + 1)]
    stack: list[tuple[int, int]] = [(0, 0)]  # (node, index of the next arc to follow)
    while stack:
        i, k = stack[-1]
        if i == n:
            result.append(tuple(path))
            stack.pop()
            if path:
                path.pop()
            continue
        if k == len(nexts[i]):
            stack.pop()
            if path:
                path.pop()
            continue
        stack[-1] = (i, k + 1)
        j = nexts[i][k]
        path.append(word[i:j])
        stack.append((j, 0))
    return result


@dataclass(frozen=True, eq=False)
class Lattice:
    """The walked graph of one word, with exact path counts (for inspection and plots).

    Lattices compare (and hash) by identity.

    Attributes
    ----------
    word, vocab, ell_min, direction
        As given.
    arcs : list of (i, j)
        Kept arcs in the word's coordinates; the token is ``word[i:j]``.

    Examples
    --------
    >>> lat = Lattice.build("ab", Vocabulary(["a", "b", "ab"]), direction="r2l")
    >>> lat.arcs, lat.path_counts, lat.count
    ([(0, 1), (0, 2), (1, 2)], [1, 1, 2], 2)
    """

    word: str
    vocab: Vocabulary
    ell_min: int
    direction: str
    arcs: list[tuple[int, int]]
    reach: np.ndarray

    @classmethod
    def build(
        cls, word: str, vocab: Vocabulary, ell_min: int = 1, direction: str = "l2r"
    ) -> Lattice:
        """Build the walked graph of ``word`` (see :func:`walked_arcs`)."""
        arcs, reach = walked_arcs(word, vocab, ell_min, direction)
        return cls(word, vocab, check_ell_min(ell_min), direction, arcs, reach)

    @property
    def n(self) -> int:
        return len(self.word)

    @cached_property
    def path_counts(self) -> list[int]:
        """``c[k]``: paths between node k and the construction's start (node 0 for r2l,
        node n for l2r), exactly as Algorithm 1's counters."""
        return counts_from_arcs(self.n, self.arcs, self.direction)

    @property
    def count(self) -> int:
        """Number of segmentations (paths through the whole walked graph)."""
        return self.path_counts[self.n] if self.direction == "r2l" else self.path_counts[0]

    def tokens(self) -> list[tuple[int, int, str]]:
        """Arcs as ``(i, j, token)`` triples."""
        return [(i, j, self.word[i:j]) for i, j in self.arcs]

    def require_segmentable(self) -> None:
        """Raise :class:`SegmentationError` (naming character and position) if count is 0."""
        if self.count == 0:
            raise SegmentationError(_explain(self.word, self.vocab, self.reach, self.direction))

    @cached_property
    def other_counts(self) -> list[int]:
        """``c'[k]``: paths between node k and the *other* end (node n for r2l, node 0 for
        l2r): Algorithm 1's recurrence run the other way over the same arcs."""
        return counts_from_arcs(self.n, self.arcs, "l2r" if self.direction == "r2l" else "r2l")

    def paths_through(self) -> list[int]:
        """Per arc ``(i, j)``, in :attr:`arcs` order, the number of segmentations using it:
        paths from node 0 to i times paths from j to node n.

        >>> Lattice.build("abc", Vocabulary(["a", "b", "c", "bc"])).paths_through()
        [2, 1, 1, 1]
        """
        from0, to_n = ((self.path_counts, self.other_counts) if self.direction == "r2l"
                       else (self.other_counts, self.path_counts))
        return paths_through(self.arcs, from0, to_n)

    def summary(self) -> LatticeSummary:
        """The lattice as plain, comparable data (no vocabulary): what a drawing shows
        (a :class:`workbench.lattice.summary.LatticeSummary`)."""
        return LatticeSummary(
            word=self.word, ell_min=self.ell_min, direction=self.direction,
            arcs=tuple((int(i), int(j)) for i, j in self.arcs),
            path_counts=tuple(int(c) for c in self.path_counts),
            other_counts=tuple(int(c) for c in self.other_counts),
            through=tuple(self.paths_through()), count=int(self.count))


# --------------------------------------------------------------------------- as text
EMPTY_SEGMENTATION = "∅"
"""How the one segmentation of the empty word (no tokens) is written, everywhere."""

EMPTY_WORD_NOTE = ("the empty word has exactly one segmentation, the empty one (∅): "
                   "nothing to sample or draw")
"""What a sampling panel says for the empty word (the CLI prints ∅, counts give 1)."""


def format_segmentation(tokens: Sequence[str]) -> str:
    """Tokens joined by ``" | "``; the empty segmentation is :data:`EMPTY_SEGMENTATION`.

    The empty word has exactly one segmentation, with no tokens (the library counts 1 and
    samples ``[]``); the panels and the CLI print it as ``∅`` rather than a blank line.

    Parameters
    ----------
    tokens : sequence of str

    Returns
    -------
    str

    >>> format_segmentation(["ab", "c"]), format_segmentation([])
    ('ab | c', '∅')
    """
    return " | ".join(tokens) if len(tokens) else EMPTY_SEGMENTATION


def no_segmentation_reason(word: str, vocab: Vocabulary, ell_min: int = 1,
                           direction: str = "l2r", *, spelled: bool = False) -> str | None:
    """Why ``word`` has no segmentation under ``vocab`` (None if it has one).

    The message is :class:`SegmentationError`'s. ``spelled=True`` says the caller already
    spelled the word in the vocabulary's alphabet (as the CLI and the panels do), so the
    hint "use to_alphabet" is left out.

    Parameters
    ----------
    word : str
    vocab : Vocabulary
    ell_min : int, default 1
    direction : {"l2r", "r2l"}, default "l2r"
    spelled : bool, default False

    Returns
    -------
    str or None

    Raises
    ------
    TypeError, ValueError
        As :meth:`Lattice.build`, for a bad word, vocabulary, ``ell_min`` or direction.

    >>> no_segmentation_reason("abd", Vocabulary(["a", "b"]))
    "no segmentation of 'abd': character 'd' (U+0064) at position 2 occurs in no token"
    >>> no_segmentation_reason("", Vocabulary(["a"])) is None  # one, empty, segmentation
    True
    """
    lattice = Lattice.build(word, vocab, ell_min, direction)
    if lattice.count:
        return None
    return _explain(lattice.word, vocab, lattice.reach, lattice.direction,
                    hint_alphabet=not spelled)
