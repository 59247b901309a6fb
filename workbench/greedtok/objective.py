"""The partition-cover objective (Problem 1) computed exactly, and why greedy has no guarantee.

``partition(W, S)`` is the fewest tokens from ``S`` ∪ single characters that concatenate to
``W`` (a shortest path over the word's positions); ``cover(W, S) = |W| − partition(W, S)``
is the number of adjacent pairs glued inside tokens. The corpus objective maximises
``f(S) = Σ_W count(W)·cover(W, S)`` over ``|S| ≤ k``. Unlike GreedTok's ranked application,
``f`` uses the *best* segmentation for a set, so it is the function whose (non-)modularity
Table 1 of the paper discusses: :func:`find_modularity_witness` searches single-word corpora
for sets ``A ⊆ B`` and a token ``x`` breaking sub- or supermodularity.

Words and tokens are ``str`` (characters) or ``bytes``, consistently. Plain Python, meant for
small instances; this module trains nothing (see :mod:`workbench.greedtok.training`).

Example
-------
>>> partition("abcd", {"ab", "bcd"}), cover("abcd", {"ab", "bcd"})
(2, 2)
>>> corpus_cover({"abab": 2, "ba": 1}, {"ab"})
4
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations, product

from .._core.cost import SLICE_RATE, slice_units
from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import check_choice, check_int, check_work


def partition(word: str | bytes, tokens: Collection) -> int:
    """Fewest pieces from ``tokens`` ∪ single characters spelling ``word``.

    Time: one slice and lookup per position and token length ``>= 2``
    (:func:`workbench._core.cost.slice_units`), checked against the time budget before any
    work (:class:`~workbench._core.validate.BudgetError`).

    >>> partition("banana", {"ana", "ban"}), partition("banana", {"an"})
    (2, 4)
    """
    n = len(word)
    lookup, lengths = _checked_lengths(word, tokens, "partition")
    best = [0] + [n + 1] * n
    for j in range(1, n + 1):
        best[j] = best[j - 1] + 1
        for length in lengths:  # longest first, as the earlier start came first before
            i = j - length
            if i >= 0 and word[i:j] in lookup and best[i] + 1 < best[j]:
                best[j] = best[i] + 1
    return best[n]


def _checked_lengths(word: str | bytes, tokens: Collection, what: str
                     ) -> tuple[Collection, tuple[int, ...]]:
    """A set to look tokens up in, and their lengths ``2 .. len(word)`` longest first,
    after checking the time of the dynamic programme against the time budget."""
    lookup = tokens if isinstance(tokens, (set, frozenset, dict)) else set(tokens)
    n = len(word)
    lengths = tuple(sorted({len(t) for t in lookup if 2 <= len(t) <= n}, reverse=True))
    check_work(slice_units(n, lengths),
               f"{what} of a {n}-character word with tokens of {len(lengths)} lengths up to "
               f"{lengths[0] if lengths else 1}", rate=SLICE_RATE,
               hint=" (use shorter words or fewer token lengths)")
    return lookup, lengths


def segment(word: str | bytes, tokens: Collection) -> list:
    """One segmentation with :func:`partition`'s fewest pieces (the leftmost-longest first).

    >>> segment("$a$b$", {"$a$", "$b$"})
    ['$a$', 'b', '$']
    """
    n = len(word)
    lookup, lengths = _checked_lengths(word, tokens, "segment")
    best = [0] * (n + 1)  # best[i]: fewest pieces for word[i:]
    step = [1] * (n + 1)
    for i in range(n - 1, -1, -1):
        best[i] = n + 1
        for length in lengths:  # longest token first
            j = i + length
            if j <= n and word[i:j] in lookup and best[j] + 1 < best[i]:
                best[i], step[i] = best[j] + 1, j - i
        if best[i + 1] + 1 < best[i]:
            best[i], step[i] = best[i + 1] + 1, 1
    out, i = [], 0
    while i < n:
        out.append(word[i:i + step[i]])
        i += step[i]
    return out


def cover(word: str | bytes, tokens: Collection) -> int:
    """Adjacent pairs glued inside tokens by the best segmentation: ``|W| − partition``."""
    return len(word) - partition(word, tokens)


def corpus_cover(counts: Mapping, tokens: Collection) -> int:
    """``f(S) = Σ count(W)·cover(W, S)``: the objective GreedTok maximises greedily."""
    return sum(c * cover(w, tokens) for w, c in counts.items())


def corpus_cost(counts: Mapping, tokens: Collection) -> int:
    """``Σ count(W)·partition(W, S)``: total tokens of the best segmentations."""
    return sum(c * partition(w, tokens) for w, c in counts.items())


@dataclass(frozen=True)
class ModularityWitness:
    """Sets ``A ⊆ B`` and token ``x ∉ B`` on a one-word corpus with
    ``gain_b > gain_a`` (``kind="submodular"``: the function is not submodular) or
    ``gain_b < gain_a`` (``kind="supermodular"``: not supermodular), where
    ``gain_X = f(X ∪ {x}) − f(X)``."""

    kind: str
    word: str
    a: tuple[str, ...]
    b: tuple[str, ...]
    x: str
    gain_a: int
    gain_b: int

    def __str__(self) -> str:
        rel = ">" if self.gain_b > self.gain_a else "<"
        a, b = ("{" + ", ".join(map(repr, s)) + "}" for s in (self.a, self.b))
        return (f"not {self.kind} on the corpus {{{self.word!r}: 1}}: A = {a} ⊆ B = {b}, "
                f"x = {self.x!r}: f(B+x)-f(B) = {self.gain_b} {rel} f(A+x)-f(A) = {self.gain_a}")


#: The largest alphabet :func:`find_modularity_witness` enumerates over (the words grow as
#: ``len(alphabet) ** max_word_length``; witnesses need two letters).
MAX_WITNESS_ALPHABET = 26


def _words(alphabet: str, max_length: int) -> Iterator[str]:
    """Every word over ``alphabet`` by length, then in alphabet order, lazily (a large
    alphabet never materialises a level: the first witness comes after a few words)."""
    for length in range(1, max_length + 1):
        for letters in product(alphabet, repeat=length):
            yield "".join(letters)


def find_modularity_witness(kind: str, *, alphabet: str = "abc",
                            max_word_length: int = 5) -> ModularityWitness | None:
    """The first (shortest word, then smallest sets) witness that ``f`` is not ``kind``.

    Enumerates one-word corpora over ``alphabet``, candidate tokens = the word's substrings
    of length ≥ 2, ``A ⊆ B`` with ``|B| ≤ 2`` and ``x ∉ B``.

    >>> print(find_modularity_witness("submodular"))
    not submodular on the corpus {'aaba': 1}: A = {'ab'} ⊆ B = {'aa', 'ab'}, x = 'ba': \
f(B+x)-f(B) = 1 > f(A+x)-f(A) = 0
    >>> print(find_modularity_witness("supermodular"))
    not supermodular on the corpus {'aaa': 1}: A = {} ⊆ B = {'aa'}, x = 'aaa': \
f(B+x)-f(B) = 1 < f(A+x)-f(A) = 2
    """
    kind = check_choice(kind, "kind", ("submodular", "supermodular"))
    max_word_length = check_int(max_word_length, "max_word_length", minimum=2, maximum=8)
    if not isinstance(alphabet, str) or not alphabet:
        raise ArgumentTypeError(f"alphabet must be a non-empty str, got {alphabet!r:.40}")
    if len(set(alphabet)) != len(alphabet) or len(alphabet) > MAX_WITNESS_ALPHABET:
        raise InvalidValueError(f"alphabet must be 1 to {MAX_WITNESS_ALPHABET} distinct "
                                f"characters, got {len(alphabet):,} ({len(set(alphabet)):,} "
                                "distinct)")
    for word in _words(alphabet, max_word_length):
        cands = sorted({word[i:j] for i in range(len(word))
                        for j in range(i + 2, len(word) + 1)}, key=lambda t: (len(t), t))
        for size_b in range(1, 3):
            for b in combinations(cands, size_b):
                for size_a in range(size_b):
                    for a in combinations(b, size_a):
                        for x in cands:
                            if x in b:
                                continue
                            ga = cover(word, {*a, x}) - cover(word, set(a))
                            gb = cover(word, {*b, x}) - cover(word, set(b))
                            if (gb > ga) if kind == "submodular" else (gb < ga):
                                return ModularityWitness(kind, word, a, b, x, ga, gb)
    return None
