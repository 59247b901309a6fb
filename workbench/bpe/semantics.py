"""BPE-dropout's four semantics, and the exact law of the three that are not the kernel's.

"BPE-dropout with probability ``p``" names different procedures in different packages. The
choice is :class:`workbench.bpe.BPESampler`'s ``semantics`` (default ``"reference"``); each
was read in its source (the files below, at the commits named) and is checked against the
installed package by a G-test (``tests/bpe/test_sampler_semantics.py``).

``"reference"`` — Provilkov et al.'s code, the package's kernel (:mod:`workbench.bpe._encode`,
law in :mod:`workbench.bpe.laws`): at every step every pair occurrence draws a fresh coin,
the best surviving one (lowest rank, then leftmost) merges once; the word stops when every
occurrence is dropped. State: the segmentation.

``"hf"`` — HF ``tokenizers`` (``tokenizers/src/models/bpe/word.rs``, ``Word::merge_all``,
huggingface/tokenizers@3ba8ad0): a heap of ``(rank, position)`` entries; each pop draws
the coin first (``rng().random::<f32>() < dropout`` → held aside in ``skip``); a surviving
pop puts every held entry back and only *then* discards the entry if it is stale (its
position dead or last, or the pair there no longer makes the entry's token). A stale entry
that survives its coin therefore spends a step and gives the dropped pairs another draw —
extra lives: P(``Ġtoken|ization``) with GPT-2's merges at ``p = 0.1`` is 0.99 instead of
0.80. The word stops when the heap is empty with every entry held. Dropout bypasses the
cache (``BPE::tokenize`` in ``model.rs``) and the RNG is the unseedable thread RNG.
State: segmentation (with each symbol's start) and the heap as a multiset of
``(rank, start, token)`` entries, stale ones included.

``"sentencepiece"`` — SentencePiece (``src/bpe_model.cc``, ``Model::SampleEncode``,
google/sentencepiece@2734490): an agenda of adjacent pairs *whose concatenation is a piece*
(not only the merge list's pairs), best score first, then leftmost; stale entries are
discarded before any coin; a skipped entry is discarded (``if (skip_merge()) continue;``),
and the pair is queued again only when a neighbour merge changes it — a skipped pair is
gone for good. P(``Ġtoken|ization``) with GPT-2's vocabulary at ``p = 0.1`` is 0.577
(skipping on GPT-2's merge list alone, without the any-two-halves rule, would give 0.314:
the issue's "about 0.31"). Here a pair's priority is the rank of the first merge that
makes its concatenation. ``sentencepiece.set_random_generator_seed`` seeds the package.
State: segmentation and the set of blocked pairs (by left start).

``"subword-nmt"`` — subword-nmt (``subword_nmt/apply_bpe.py``, ``encode``,
rsennrich/subword-nmt@92d6139): every step draws a coin for every pair
(kept when ``random.random() > dropout``), takes the best kept pair type and merges *every
kept occurrence* of it left to right (``x x x`` → ``xx x``). Differs from the reference only on
words where a pair repeats. State: the segmentation (several merges per step).

Where two merges make the same token, HF compares token ids and the kernel compares merge
symbols (the ``"hf"`` law and sampler treat such an entry as stale); the packages' models
(GPT-2's included) have no such pairs. Initial symbols are the model's (bytes): for an
ASCII or byte-level word they are the packages' characters; a multi-byte character of
another alphabet is built by early merges that dropout can skip (:meth:`BPESampler.law`'s
failure mass), unlike in the packages.

Which semantics the papers used
-------------------------------
Both used HF ``tokenizers``, i.e. ``"hf"``:

* GRaMPa (Bauwens et al., 2025): its BPE-dropout baseline (``p_d = 0.1``) is model 1 of
  bauwenst/Experiments_GRaMPa@56fd6be ``scripts/experiments/tokenisers_instances.py``
  (``getTokeniserByModelId``: ``Factory_BPE(dropout=0.1)``); in TkTkT
  (bauwenst/TkTkT@20f603f, ``src/tktkt/factories/tokenisers.py``) ``Factory_BPE`` builds a
  ``HuggingFaceBPETokeniser``, which (``src/tktkt/models/huggingface/bpe.py``) is
  ``tokenizers.models.BPE(vocab, merges, dropout=...)``. The BPE side of its multiplexers
  (``Factory_SwitchyGrampa_BPE``) is the same. TkTkT's own Python ``BPEDropout``
  (``src/tktkt/models/bpe/dropout.py``: fresh coins each step, the best surviving merge
  once) is the reference semantics, but the paper's experiments do not use it.
* Cognetta, Zouhar & Okazaki (2024): mcognetta/distributional-properties-of-subword-
  regularization@87d337f, ``fairseq/examples/random_sampler/train_tokenizers.py``
  (``build_bpe_tokenizer``: a ``tokenizers`` ``BPE`` trained with ``BpeTrainer``;
  ``HfTokenizerWrapper`` sets ``tokenizer.model.dropout = p``), chosen for the ``bpe``
  tokenizer type in ``tokenize_corpus.py``.

HF's extra lives make its dropout much less regularising than the reference at the same
``p`` (``Ġtokenization``: 1 − 0.994 against 1 − 0.796), in line with GRaMPa's regularisation
rate of about 0.11 at ``p_d = 0.1`` (its Figure 6).

This module does not sample (:mod:`workbench.bpe._dropout`) and does not map words to
symbols (:meth:`workbench.bpe.BPESampler.law`).

Example
-------
>>> from fractions import Fraction as F
>>> ranks = {("a", "b"): (0, "ab"), ("b", "c"): (1, "bc"), ("ab", "c"): (2, "abc"),
...          ("a", "bc"): (2, "abc")}  # SentencePiece: any two halves of a piece
>>> law = sentencepiece_law(("a", "b", "c"), ranks, F(1, 2))
>>> law[("a", "b", "c")], law[("ab", "c")], law[("a", "bc")], law[("abc",)]
(Fraction(1, 4), Fraction(1, 4), Fraction(1, 8), Fraction(3, 8))
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from collections.abc import Hashable, Mapping, Sequence

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import BudgetError
from .laws import MAX_REPEATS, SATURATED, Prob, Ranks

SEMANTICS = ("reference", "hf", "sentencepiece", "subword-nmt")


#: States of each semantics' propagation per reachable segmentation, for the budget check
#: before any work. Measured with GPT-2's merges at p = 0.1: HF ``Ġinformation`` 359,366
#: states for 939 segmentations, ``Ġtokenization`` 498,270 for 1,566 (8 s and 12 s in
#: Python: stale heap entries multiply the states); SentencePiece ``Ġtokenization`` 0.04 s,
#: ``Ġinternationalization`` (232,530 segmentations) 12 s.
STATE_FACTOR = {"reference": 1, "hf": 400, "sentencepiece": 8, "subword-nmt": 1}
#: The same for the compiled routes (:func:`workbench.bpe.laws.fast_dropout_states`), where
#: spelling the final segmentations costs most: SentencePiece's kernel meets ~8 states per
#: segmentation (``Ġinternationalization``: 0.33 s of 2.2 s CPU on the loaded 2-core
#: machine), so it counts 4 (this also bounds its tables: ~8 × 500,000 states). HF's is
#: not a factor: :data:`HF_STATES`.
COMPILED_FACTOR = {"reference": 1, "sentencepiece": 4, "subword-nmt": 1}

#: HF's compiled kernel (:mod:`workbench.bpe._hfkernel`): its canonical states per
#: segmentation grow with the word (GPT-2's merges, p = 0.1: ``Ġprogram`` 5, ``Ġinformation``
#: 24, ``Ġtokenization`` 27, ``Ġunderstanding`` 59, ``Ġmisunderstanding`` 150,
#: ``Ġinternationalization`` 846 — 196,776,331 states for 232,530 segmentations). A fit of
#: 36 English words of 8-21 bytes, states ≈ ``a · N^b`` for ``N`` segmentations, is within
#: 0.66-1.83× of every one of them: the estimate before any work. The kernel also stops past
#: :data:`workbench.bpe.laws.MAX_STATES` states (a word the estimate let through).
HF_STATES = (0.35, 1.6)


def estimated_states(semantics: str, segmentations: int, compiled: bool) -> tuple[int, str]:
    """The states the law of a word with ``segmentations`` reachable segmentations needs
    under ``semantics`` (the compiled route's or Python's), and how that was estimated
    (empty: it is exact), for :func:`workbench.bpe.laws.check_states`."""
    if compiled and semantics == "hf":
        a, b = HF_STATES
        states = min(int(a * float(segmentations) ** b), SATURATED)
        return max(states, segmentations), (f"estimated from its {segmentations:,} reachable "
                                            f"segmentations as {a}·N^{b}")
    factor = (COMPILED_FACTOR if compiled else STATE_FACTOR)[semantics]
    how = (f"estimated as {segmentations:,} reachable segmentations × {factor}"
           if factor > 1 else "")
    return segmentations * factor, how


Law = dict[tuple[Hashable, ...], Prob]


def check_semantics(semantics: object) -> str:
    """``semantics`` if it is one of :data:`SEMANTICS`, else TypeError / ValueError."""
    if not isinstance(semantics, str):
        raise ArgumentTypeError(f"semantics must be str, not {type(semantics).__name__}")
    if semantics not in SEMANTICS:
        raise InvalidValueError(f"semantics must be one of {', '.join(map(repr, SEMANTICS))}, not "
                                f"{semantics!r}")
    return semantics


class PieceRanks(Mapping):
    """SentencePiece's pair table: ``(a, b)`` → ``(rank, c)`` when ``a`` + ``b`` spells ``c``.

    ``spell`` maps a symbol to its bytes; ``pieces`` maps bytes to ``(rank, symbol)`` (the
    first merge that makes them). Only :meth:`get` and ``[]`` are meant; iteration lists
    nothing.
    """

    def __init__(self, spell: Sequence[bytes], pieces: Mapping[bytes, tuple[int, Hashable]]):
        self._spell, self._pieces = spell, pieces

    def __getitem__(self, pair):
        hit = self._pieces.get(self._spell[pair[0]] + self._spell[pair[1]])
        if hit is None:
            raise KeyError(pair)
        return hit

    def get(self, pair, default=None):
        return self._pieces.get(self._spell[pair[0]] + self._spell[pair[1]], default)

    def __iter__(self):
        return iter(())

    def __len__(self) -> int:
        return 0


def _occurrences(syms, get):
    """``(rank, k, made)`` of every pair in the table, sorted."""
    return sorted((hit[0], k, hit[1]) for k, hit in enumerate(map(get, zip(syms, syms[1:])))
                  if hit is not None)


def hf_law(symbols: Sequence[Hashable], ranks: Ranks, p: Prob,
           max_states: int | None = None) -> Law:
    """Final symbols → probability under HF ``tokenizers``' procedure (exact).

    State: ``(symbols, starts, heap)`` with the heap the sorted tuple of its
    ``(rank, start, token)`` entries, stale ones included. Every transition either merges
    (fewer symbols) or discards a stale entry (same symbols, a smaller heap), so the states
    are processed by decreasing ``(len(symbols), len(heap))``. More than ``max_states``
    states (default: no limit) raise :class:`~workbench._core.validate.BudgetError`.
    """
    get, one = ranks.get, 1 + 0 * p
    syms = tuple(symbols)
    starts = tuple(range(len(syms)))
    heap0 = tuple(_occurrences(syms, get))
    buckets = {(len(syms), len(heap0)): {(syms, starts, heap0): one}}
    keys = [(-len(syms), -len(heap0))]
    final: Law = {}
    done = 0
    while keys:
        key = heapq.heappop(keys)
        bucket = buckets.pop((-key[0], -key[1]))
        done += len(bucket)
        if max_states is not None and done > max_states:
            raise BudgetError(f"HF's BPE-dropout law needs more than {max_states:,} states "
                              "(stale heap entries multiply them); sample it instead")
        for (syms, starts, heap), mass in bucket.items():
            share = mass
            for k, (_, pos, made) in enumerate(heap):
                if p != 1:
                    rest = heap[:k] + heap[k + 1:]
                    j = bisect_left(starts, pos)
                    hit = (get((syms[j], syms[j + 1])) if j < len(starts) - 1
                           and starts[j] == pos else None)
                    if hit is None or hit[1] != made:  # stale: discarded, coin spent
                        child = (syms, starts, rest)
                    else:
                        child = _merged(syms, starts, rest, j, made, get)
                    ckey = (len(child[0]), len(child[2]))
                    bucket = buckets.get(ckey)
                    if bucket is None:
                        bucket = buckets[ckey] = {}
                        heapq.heappush(keys, (-ckey[0], -ckey[1]))
                    bucket[child] = bucket.get(child, 0) + share * (1 - p)
                share = share * p
                if not share:
                    break
            if share:
                final[syms] = final.get(syms, 0) + share
    return final


def _merged(syms, starts, heap, j, made, get):
    """HF's state after merging symbols ``j``, ``j + 1`` (new pairs pushed)."""
    syms = syms[:j] + (made,) + syms[j + 2:]
    starts = starts[:j + 1] + starts[j + 2:]
    new = list(heap)
    if j > 0 and (hit := get((syms[j - 1], made))) is not None:
        new.append((hit[0], starts[j - 1], hit[1]))
    if j < len(syms) - 1 and (hit := get((made, syms[j + 1]))) is not None:
        new.append((hit[0], starts[j], hit[1]))
    return syms, starts, tuple(sorted(new))


def sentencepiece_law(symbols: Sequence[Hashable], ranks: Ranks, p: Prob) -> Law:
    """Final symbols → probability under SentencePiece's procedure (exact).

    ``ranks`` should be SentencePiece's pair table (:class:`PieceRanks`). State:
    ``(symbols, starts, blocked)``, ``blocked`` the starts of the pairs skipped since they
    were last formed. Every transition merges, so states go level by level.
    """
    get, one = ranks.get, 1 + 0 * p
    syms = tuple(symbols)
    level: dict = {(syms, tuple(range(len(syms))), frozenset()): one}
    final: Law = {}
    while level:
        nxt: dict = {}
        for (syms, starts, blocked), mass in level.items():
            live = [(r, k, made) for r, k, made in _occurrences(syms, get)
                    if starts[k] not in blocked]
            share = mass
            for i, (_, k, made) in enumerate(live):
                if p != 1:
                    skipped = blocked.union(starts[x[1]] for x in live[:i])
                    gone = {starts[k], starts[k + 1]} | ({starts[k - 1]} if k else set())
                    child = (syms[:k] + (made,) + syms[k + 2:], starts[:k + 1] + starts[k + 2:],
                             skipped - gone)
                    nxt[child] = nxt.get(child, 0) + share * (1 - p)
                share = share * p
                if not share:
                    break
            if share:
                final[syms] = final.get(syms, 0) + share
        level = nxt
    return final


def subword_nmt_law(symbols: Sequence[Hashable], ranks: Ranks, p: Prob) -> Law:
    """Final symbols → probability under subword-nmt's procedure (exact).

    State: the symbols. From a state whose pair occurrences of rank below ``r`` are all
    dropped (``p`` each), pair ``r`` merges each nonempty subset ``S`` of its occurrences
    with ``(1 − p)^|S| p^(n_r − |S|)``, left to right, passing over overlaps. States are
    processed by decreasing length.
    """
    get, one = ranks.get, 1 + 0 * p
    buckets: dict[int, Law] = {len(symbols): {tuple(symbols): one}}
    final: Law = {}
    while buckets:
        for syms, mass in buckets.pop(max(buckets)).items():
            groups: dict[int, list] = {}
            for r, k, made in _occurrences(syms, get):
                groups.setdefault(r, []).append((k, made))
            share = mass
            for r in sorted(groups):
                occ = groups[r]
                if p == 0:  # every occurrence merges: one child, no subsets to branch on
                    child = _merge_all(syms, [k for k, _ in occ], occ[0][1])
                    bucket = buckets.setdefault(len(child), {})
                    bucket[child] = bucket.get(child, 0) + share
                    share = 0 * share
                    break
                if p != 1 and len(occ) > MAX_REPEATS:
                    raise BudgetError(f"subword-nmt's law branches on 2^{len(occ)} subsets "
                                      f"of one pair's occurrences (at most "
                                      f"2^{MAX_REPEATS}); sample it instead")
                if p != 1:
                    for mask in range(1, 1 << len(occ)):
                        kept = [occ[b][0] for b in range(len(occ)) if mask >> b & 1]
                        child = _merge_all(syms, kept, occ[0][1])
                        w = share * (1 - p) ** len(kept) * p ** (len(occ) - len(kept))
                        bucket = buckets.setdefault(len(child), {})
                        bucket[child] = bucket.get(child, 0) + w
                share = share * p ** len(occ)
                if not share:
                    break
            if share:
                final[syms] = final.get(syms, 0) + share
    return final


def _merge_all(syms, kept, made):
    """``syms`` with the pairs at ``kept`` (ascending) merged, an overlapping one passed over."""
    out, i = [], 0
    for k in kept:
        if k < i:
            continue
        out.extend(syms[i:k])
        out.append(made)
        i = k + 2
    out.extend(syms[i:])
    return tuple(out)


LAWS = {"hf": hf_law, "sentencepiece": sentencepiece_law, "subword-nmt": subword_nmt_law}
