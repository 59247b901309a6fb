"""The exact law of BPE-dropout on one chunk (the kernel's semantics; compiled: all four).

The kernel (:mod:`workbench.bpe._encode`, Provilkov et al.'s reference code) repeats: scan
the adjacent pairs left to right, drop each merge occurrence with probability ``p``, apply
the best surviving one (lowest rank, then leftmost); stop when every occurrence is dropped.
Its coins are drawn lazily, which does not change the law: with the ``K`` occurrences of a
state ordered by (rank, position), the ``k``-th is applied with probability
``(1 − p) p^(k−1)`` and the chunk stops there with ``p^K``. Each merge removes one symbol,
so :func:`dropout_law` propagates the mass level by level over the reachable states,
exactly (Fractions stay Fractions).

The reachable states are the segmentations of the chunk into spans BPE can build (for
``0 < p < 1`` every one is reached): :func:`count_states` counts them in ``O(n · L²)``
before any propagation, so a word over the budget is refused at once with that number.

For float ``p``, :func:`fast_dropout_states` runs the same propagation compiled
(:mod:`workbench.bpe._lawkernels`: a state is a mask of boundaries in one int64), for this
semantics and for SentencePiece's and subword-nmt's (whose exact Python laws, the reference
for these kernels, are in :mod:`workbench.bpe.semantics`); the masses are summed in the same
order, so the floats are the same bit for bit; HF ``tokenizers``' too, whose states also
carry the stale heap entries (in a canonical form: about 27 states per segmentation on
GPT-2's words). :meth:`MaskStates.arrays` hands the final states to
:meth:`workbench.laws.SegmentationLaw.from_arrays` as arrays (no tuple per state);
:meth:`MaskStates.split_law` spells them as tuples a level at a time, sorted as
:class:`workbench.laws.SegmentationLaw` sorts them, where a state may not spell the word.
(HF's kernel merges equivalent states, so its floats equal the Python law's up to rounding,
not bit for bit.)

This module knows symbols and merges only: :meth:`workbench.bpe.BPESampler.law` maps a word
to the model's symbols and the states to tokens. It samples nothing.

Example
-------
>>> from fractions import Fraction as F
>>> ranks = {("a", "b"): (0, "ab"), ("ab", "c"): (1, "abc")}
>>> law = dropout_law(("a", "b", "c"), ranks, F(1, 2))
>>> law[("abc",)], law[("ab", "c")], law[("a", "b", "c")]
(Fraction(1, 4), Fraction(1, 4), Fraction(1, 2))
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, ItemsView, Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from operator import itemgetter

import numpy as np

from .._core.validate import BudgetError, check_work
from . import _hfkernel, _lawkernels

#: Units per second of a BPE-dropout law (``states × (symbols + 8)`` units: propagation,
#: spelling and the law's dict), measured with GPT-2's merges on the 2-core machine under
#: heavy load (load average 6-9; process CPU seconds, the wall clock was 2-4× that), compiled
#: route, ``BPESampler.law`` end to end: ``Ġinternationalization``, 232,530 states of 21
#: symbols, 6.7e6 units in 1.8-2.3 s (2.9e6-3.7e6 units/s; the kernel 0.13 s of it,
#: ``SegmentationLaw``'s checks and sort ~1.1 s); ``Ġcounterrevolutionaries``, 691,072
#: states, 2.1e7 units in 8.0-8.4 s (2.6e6). The rate is set below the slowest. Since the
#: states reach the law as arrays (:meth:`MaskStates.arrays`, session 12, load ~1) the same
#: words take 0.35-0.5 s and 1.9 s (1.1e7-1.9e7 units/s); the rate is kept, a margin.
LAW_RATE = 2e6
#: Largest number of reachable states :func:`dropout_law` accepts (memory: one dict entry
#: per state of two adjacent levels, and the final law).
MAX_STATES = 2_000_000

#: subword-nmt's law branches on every subset of one pair type's kept occurrences: a word
#: with more occurrences of one pair than this is refused.
MAX_REPEATS = 16

#: :func:`count_states` reports at most this (any count past the budgets is refused alike).
SATURATED = 10**30

Prob = Fraction | float
Ranks = Mapping[tuple[Hashable, Hashable], tuple[int, Hashable]]


def count_states(symbols: Sequence[Hashable], ranks: Ranks, longest: int,
                 stop_above: int | None = None) -> int:
    """Number of symbol sequences BPE-dropout can reach from ``symbols`` (exact up to
    :data:`SATURATED`).

    A span can be one symbol if it is one initial symbol, or the merge of two adjacent
    spans' symbols; ``longest`` bounds a span (in initial symbols). The count is the number
    of ways to cut the chunk into such spans, each spelled by one of its symbols. It never
    falls as the chunk grows (a prefix's cuts extend by the next symbol alone), so with
    ``stop_above`` the count stops at the first prefix past it and returns that prefix's
    count, a lower bound: a word far over the budget is refused after a few bytes, not after
    counting all of them.
    """
    n = len(symbols)
    ways = [1] + [0] * n
    built: dict[tuple[int, int], set] = {}
    for j in range(1, n + 1):
        _build_spans_ending(built, symbols, ranks, longest, j)
        # saturating far past any budget: no huge integers
        ways[j] = min(sum(ways[i] * len(built.get((i, j), ()))
                          for i in range(max(0, j - longest), j)), SATURATED)
        if stop_above is not None and ways[j] > stop_above:
            return ways[j]
    return ways[n]


def _build_spans_ending(built: dict[tuple[int, int], set], symbols: Sequence[Hashable],
                        ranks: Ranks, longest: int, j: int) -> None:
    """Add to ``built`` the spans ``(i, j)`` merges can make (shortest first: each needs
    only spans that end at or before ``j`` and are shorter)."""
    built[(j - 1, j)] = {symbols[j - 1]}
    for i in range(j - 2, max(-1, j - longest - 1), -1):
        made = set()
        for m in range(i + 1, j):
            for a in built.get((i, m), ()):
                for b in built.get((m, j), ()):
                    hit = ranks.get((a, b))
                    if hit is not None:
                        made.add(hit[1])
        if made:
            built[(i, j)] = made


def built_spans(symbols: Sequence[Hashable], ranks: Ranks, longest: int
                ) -> dict[tuple[int, int], set]:
    """``(i, j)`` → the symbols merges can make of ``symbols[i:j]`` (spans with any)."""
    built: dict[tuple[int, int], set] = {}
    for j in range(1, len(symbols) + 1):
        _build_spans_ending(built, symbols, ranks, longest, j)
    return built


def check_states(states: int, what: str, n_symbols: int, how: str = "",
                 at_least: bool = False) -> None:
    """Refuse a propagation over ``states`` states, saying how many (before any work).

    ``how``: how ``states`` was estimated (empty: an exact count; else the refusal says
    so, e.g. :func:`workbench.bpe.semantics.estimated_states`); ``at_least``: ``states`` is
    a lower bound (:func:`count_states` stopped early)."""
    if states > MAX_STATES:
        many = (f"more than {SATURATED:.0e}" if states >= SATURATED
                else f"at least {states:,}" if at_least else f"{states:,}")
        guess = f"; {how}" if how else ""
        raise BudgetError(f"the BPE-dropout law of {what} needs {many} states, over "
                          f"the budget of {MAX_STATES:,} (sample it instead{guess})")
    check_work(states * (n_symbols + 8), f"the BPE-dropout law of {what} ({states:,} states)",
               rate=LAW_RATE, hint=" (sample it instead)")


def dropout_law(symbols: Sequence[Hashable], ranks: Ranks, p: Prob
                ) -> dict[tuple[Hashable, ...], Prob]:
    """Final symbol sequence → probability, by exact propagation (no budget check here).

    ``ranks[(a, b)] = (rank, merged symbol)``; ``p`` is the dropout probability (a Fraction
    gives Fractions).
    """
    one, get = 1 + 0 * p, ranks.get
    level: dict[tuple[Hashable, ...], Prob] = {tuple(symbols): one}
    final: dict[tuple[Hashable, ...], Prob] = {}
    while level:
        nxt: dict[tuple[Hashable, ...], Prob] = {}
        for state, mass in level.items():
            occ = [(hit[0], k, hit[1]) for k, hit in enumerate(map(get, zip(state, state[1:])))
                   if hit is not None]
            occ.sort()
            share = mass
            for _, k, made in occ:
                if p != 1:
                    new = state[:k] + (made,) + state[k + 2:]
                    nxt[new] = nxt.get(new, 0) + share * (1 - p)
                share = share * p
                if not share:
                    break
            if share:
                final[state] = final.get(state, 0) + share
        level = nxt
    return final


#: Longest chunk (in initial symbols) the compiled route takes: a state is a mask of its
#: ``n - 1`` possible boundaries in one int64.
MAX_MASK_SYMBOLS = 63


def fast_dropout_law(symbols: Sequence[Hashable], ranks: Ranks, p: float, longest: int,
                     label: Callable[[Hashable], Hashable] | None = None
                     ) -> dict[tuple[Hashable, ...], float] | None:
    """:func:`dropout_law` for float ``p`` by the compiled kernel, or None where it cannot.

    It needs every span to have at most one symbol (true of BPE models whose merges make
    distinct tokens, GPT-2's included) and at most :data:`MAX_MASK_SYMBOLS` symbols; then a
    state is the mask of its boundaries. Same law as :func:`dropout_law`, bit for bit (the
    masses are summed in the same order; tested). The keys are tuples of ``label(symbol)``
    (default: the symbols).
    """
    states = fast_dropout_states(symbols, ranks, p, longest)
    return None if states is None else states.law(label)


class MaskStates:
    """The final states of the compiled route: masks, masses and the symbol of each span.

    Level ``l`` (``l`` merges done, ``n − l`` pieces) is ``masks[starts[l]:starts[l + 1]]``;
    a span ``i:j`` has id ``i·(n + 1) + j``.
    """

    def __init__(self, n: int, span_sym: dict[tuple[int, int], Hashable], masks: np.ndarray,
                 masses: np.ndarray, starts: np.ndarray) -> None:
        self.n, self.span_sym = n, span_sym
        self.masks, self.masses, self.starts = masks, masses, starts

    def pieces(self) -> list[tuple[int, int, np.ndarray]]:
        """``(first state, last state + 1, span ids)`` per nonempty level, ids of shape
        ``(states, pieces)``."""
        n, starts = self.n, self.starts.tolist()
        flat = _lawkernels.piece_spans(self.masks, self.starts, n)
        out, at = [], 0
        for level in range(n):
            a, b = starts[level], starts[level + 1]
            if b > a:
                width = n - level
                out.append((a, b, flat[at:at + (b - a) * width].reshape(b - a, width)))
                at += (b - a) * width
        return out

    def arrays(self, label: Callable[[Hashable], str], suspect: Iterable[tuple[int, int]] = ()
               ) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray] | None:
        """The final states as :meth:`workbench.laws.SegmentationLaw.from_arrays` takes them:
        ``(labels, pieces, offsets, masses)``, state by state in level order (spans spelled
        alike share a label); None when a state holds a ``suspect`` span (then
        :meth:`split_law`)."""
        n, side = self.n, self.n + 1
        flat = _lawkernels.piece_spans(self.masks, self.starts, n)
        bad = np.zeros(side * side, dtype=np.bool_)
        for i, j in suspect:
            bad[i * side + j] = True
        if bad.any() and bad[flat].any():
            return None
        index: dict[str, int] = {}
        of_span = np.full(side * side, -1, dtype=np.int64)
        for (i, j), sym in self.span_sym.items():
            of_span[i * side + j] = index.setdefault(label(sym), len(index))
        width = np.repeat(n - np.arange(n, dtype=np.int64), np.diff(self.starts[:n + 1]))
        offsets = np.zeros(width.size + 1, dtype=np.int64)
        np.cumsum(width, out=offsets[1:])
        return list(index), of_span[flat], offsets, self.masses

    def law(self, label: Callable[[Hashable], Hashable] | None = None
            ) -> dict[tuple[Hashable, ...], float]:
        """Final state (tuple of ``label(symbol)``) → mass."""
        return self.split_law(label)[0].to_dict()

    def split_law(self, label: Callable[[Hashable], Hashable] | None = None,
                  suspect: Iterable[tuple[int, int]] = ()
                  ) -> tuple[ItemList, dict[tuple[Hashable, ...], float], set]:
        """``(law of the states without a suspect span, law of those with one, labels
        of the first's spans)`` (keys: tuples of ``label(symbol)``; the first in
        :class:`~workbench.laws.SegmentationLaw`'s order, as an :class:`ItemList`)."""
        n = self.n
        names = np.empty((n + 1) * (n + 1), dtype=object)
        for (i, j), sym in self.span_sym.items():
            names[i * (n + 1) + j] = sym if label is None else label(sym)
        bad = np.zeros((n + 1) * (n + 1), dtype=np.bool_)
        for i, j in suspect:
            bad[i * (n + 1) + j] = True
        masses = self.masses.tolist()
        keys: list[tuple[Hashable, ...]] = []
        kept: list[float] = []
        width: list[int] = []
        odd: dict[tuple[Hashable, ...], float] = {}
        seen = np.zeros(names.size, dtype=np.bool_)  # spans of the clean states
        for a, b, ids in self.pieces():  # one level: zip builds its tuples in C
            rows = bad[ids].any(axis=1) if bad.any() else None
            if rows is not None and rows.any():
                for r in np.flatnonzero(rows).tolist():  # bytes may spell alike: add up
                    seg = tuple(names[ids[r]].tolist())
                    odd[seg] = odd.get(seg, 0.0) + masses[a + r]
                keep = np.flatnonzero(~rows)
                ids, sub = ids[keep], [masses[a + r] for r in keep.tolist()]
            else:
                sub = masses[a:b]
            keys.extend(zip(*names[ids.T].tolist()))
            kept.extend(sub)
            width.extend([ids.shape[1]] * ids.shape[0])
            seen[ids.ravel()] = True
        used = set(names[np.flatnonzero(seen)].tolist())
        order = _law_order(keys, np.array(kept), np.array(width, dtype=np.int64))
        if len(order) < 2:
            return ItemList(keys, kept), odd, used
        pick = itemgetter(*order)  # tuples in C
        return ItemList(list(pick(keys)), list(pick(kept))), odd, used


class ItemList(Mapping):
    """A read-only mapping over parallel lists of distinct keys and values, in their order.

    :meth:`items` zips the lists (no hashing: a law of 10^5 segmentations is handed to
    :class:`~workbench.laws.SegmentationLaw` without building a dict it would build again);
    a lookup builds the dict once. :meth:`to_dict` gives a plain dict.
    """

    def __init__(self, keys: list, values: list) -> None:
        self._keys, self._values = keys, values

    @cached_property
    def _dict(self) -> dict:
        return dict(zip(self._keys, self._values))

    def __getitem__(self, key):
        return self._dict[key]

    def __iter__(self):
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def items(self) -> ItemsView:
        return _ZippedItems(self)

    def to_dict(self) -> dict:
        """The mapping as a dict (in the same order)."""
        return dict(self._dict)


class _ZippedItems(ItemsView):
    """:meth:`ItemList.items`: iterates the two lists side by side."""

    def __iter__(self):
        m = self._mapping
        return zip(m._keys, m._values)


def _law_order(keys: list[tuple], masses: np.ndarray, width: np.ndarray) -> list[int]:
    """Indices by decreasing mass, then fewer pieces, then ``keys`` order: the order of
    :class:`workbench.laws.SegmentationLaw` (whose sort then meets a sorted list)."""
    order = np.lexsort((width, -masses))
    if order.size < 2:
        return order.tolist()
    m, w = masses[order], width[order]
    tie = (m[1:] == m[:-1]) & (w[1:] == w[:-1])
    out = order.tolist()
    if tie.any():  # runs of equal (mass, width): by the keys themselves
        edges = np.flatnonzero(np.diff(np.concatenate(([0], tie.astype(np.int8), [0]))))
        for a, b in zip(edges[::2].tolist(), edges[1::2].tolist()):  # run a .. b inclusive
            out[a:b + 1] = sorted(out[a:b + 1], key=keys.__getitem__)
    return out


def compiled_route(semantics: str, n: int) -> bool:
    """Whether :func:`fast_dropout_states` takes a chunk of ``n`` symbols under ``semantics``
    (by length; it still declines a chunk where a span can be two symbols)."""
    if semantics == "sentencepiece":
        return 2 <= n <= MAX_MASK_SYMBOLS // 2
    return semantics in ("reference", "subword-nmt", "hf") and 2 <= n <= MAX_MASK_SYMBOLS


def _hf_states(n, span_sym, rank, p):
    """HF's law by the compiled kernel (:mod:`workbench.bpe._hfkernel`), or None where
    :func:`workbench.bpe._hfkernel.hf_places` declines the chunk."""
    places = _hfkernel.hf_places(n, span_sym, rank)
    if places is None:
        return None
    buffers = _hfkernel.Buffers(4 * places.segmentations + 1024, 256, MAX_STATES)
    masks, masses, starts, status, _ = _hfkernel.hf_mask_law(n, rank, places, float(p), buffers)
    if status == 3:
        raise BudgetError(f"HF's BPE-dropout law needs more than {MAX_STATES:,} states "
                          "(stale heap entries multiply them); sample it instead")
    return MaskStates(n, span_sym, masks, masses, starts)


def _count(n: int, spans: Iterable[tuple[int, int]]) -> int:
    """Segmentations of ``0:n`` into ``spans`` (each one symbol)."""
    ways, ends = [1] + [0] * n, {}
    for i, j in spans:
        ends.setdefault(j, []).append(i)
    for j in range(1, n + 1):
        ways[j] = sum(ways[i] for i in ends.get(j, ()))
    return ways[n]


def fast_dropout_states(symbols: Sequence[Hashable], ranks: Ranks, p: float, longest: int,
                        semantics: str = "reference") -> MaskStates | None:
    """The compiled route's final states (see :func:`fast_dropout_law`), or None.

    ``semantics`` is ``"reference"``, ``"subword-nmt"`` (same states, several merges a
    step; a pair repeating more than :data:`MAX_REPEATS` times raises BudgetError) or
    ``"sentencepiece"`` (``ranks``: its pair table; states carry the blocked pairs, so at
    most :data:`MAX_MASK_SYMBOLS` // 2 symbols) or ``"hf"`` (states carry the stale heap
    entries; more than :data:`MAX_STATES` raise BudgetError).
    """
    n = len(symbols)
    if not compiled_route(semantics, n):
        return None
    built = built_spans(symbols, ranks, longest)
    if any(len(made) > 1 for made in built.values()):
        return None
    span_sym = {span: next(iter(made)) for span, made in built.items()}
    rank = np.full((n + 1, n + 1, n + 1), -1, dtype=np.int64)
    for (i, j), sym in span_sym.items():
        for m in range(i + 1, j):
            a, b = span_sym.get((i, m)), span_sym.get((m, j))
            hit = None if a is None or b is None else ranks.get((a, b))
            if hit is not None and hit[1] == sym:
                rank[i, m, j] = hit[0]
    capacity = _count(n, span_sym)  # every state is a segmentation into built spans
    if semantics == "reference":
        masks, masses, starts = _lawkernels.mask_law(n, rank, float(p), capacity)
    elif semantics == "hf":
        return _hf_states(n, span_sym, rank, p)
    elif semantics == "sentencepiece":
        room, status = 8 * capacity + 64, 2
        while status == 2:  # states per segmentation: a few blocked sets each
            masks, masses, starts, status = _lawkernels.sentencepiece_mask_law(
                n, rank, float(p), room, capacity)
            room *= 4
    else:
        masks, masses, starts, status = _lawkernels.subword_nmt_mask_law(
            n, rank, float(p), capacity, MAX_REPEATS)
        if status == 1:
            raise BudgetError(f"subword-nmt's law branches on the subsets of one pair's "
                              f"occurrences (at most 2^{MAX_REPEATS}); sample it instead")
    return MaskStates(n, span_sym, masks, masses, starts)
