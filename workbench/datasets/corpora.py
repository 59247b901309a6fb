"""Corpus recipes: the one home of every text → lines / words / chunks cut of the shipped texts.

Each recipe has a name that says which cut it makes, because the experiments use different
ones on purpose:

* :func:`text_lines` — the non-blank lines of a shipped text (Rényi counterexamples,
  efficiency);
* :func:`whitespace_word_counts` — whitespace-separated word → count over those lines
  (GRaMPa Figures 10–12);
* :func:`first_words` — the first whitespace-separated words, space-joined (notebook 06);
* :func:`letter_words` — runs of ASCII letters in running order after the title page,
  spelled in a vocabulary's alphabet (GRaMPa Figures 6 and 9, notebook 07);
* :func:`synthetic_words` — long made-up words glued from frequent English words, spelled;
  :func:`demo_word` — the ``n``-character word the theory notebooks segment (the alphabet,
  repeated);
* :func:`spell_words` — plain words spelled with the leading space of a word in a sentence;
  :func:`check_words` — a word list's checks (type, count, memory budget);
* :func:`greedtok_chunk_counts` — GreedTok's cut: space-prefixed letter runs, digit runs and
  symbol runs, other whitespace dropped (notebook 09, ``benchmarks/bench_greedtok.py``);
* :func:`split_chunk_counts` — chunk → count under a given splitter: with
  :func:`workbench.bpe.split_text` these are the *GPT-4 chunk counts* of the Rényi
  experiments (the splitter lives in ``bpe``, a layer above this one, so it is passed in);
* :func:`split_words` — whitespace-separated words, each cut into pieces by a given
  function: with ``Pretokeniser(alphabet).pieces`` these are the *pretokenised words* (P1 +
  P2) of GRaMPa's Tables 7–8.

This module reads the shipped data through :mod:`.loaders`; it trains nothing and does not
pretokenise by itself (the P1 + P2 rules and the GPT-4 pattern live in ``pretokenise`` and
``bpe``).

Example
-------
>>> greedtok_chunk_counts("To be, or not to be")
{'To': 1, ' be': 2, ',': 1, ' or': 1, ' not': 1, ' to': 1}
>>> split_chunk_counts(["a b", "b"], str.split)
{'a': 1, 'b': 2}
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import check_budget, check_int
from ..lattice import check_vocab, check_word
from ..vocab import Vocabulary
from .loaders import english_words, load_text

__all__ = [
    "MAX_WORDS",
    "check_words",
    "demo_word",
    "first_words",
    "greedtok_chunk_counts",
    "greedtok_text_chunk_counts",
    "letter_words",
    "spell_words",
    "split_chunk_counts",
    "split_words",
    "synthetic_words",
    "text_lines",
    "whitespace_word_counts",
]

MAX_WORDS = 100_000
"""Largest number of words :func:`letter_words` and :func:`synthetic_words` make and
:func:`check_words` accepts."""

_ALPHABET = "abcdefghijklmnopqrstuvwxyz"
_LETTERS = re.compile(r"[A-Za-z]+")
_GREEDTOK_CHUNK = re.compile(r" ?[^\W\d_]+| ?\d+| ?[^\w\s]+|\s+(?!\S)|\s+")
_SPACED = ("sentencepiece", "byte-level")
_TEXT_SKIP = 2_000  # the first words of the shipped text are a title page and a cast list


def _check_text(text: object, name: str = "text") -> str:
    if not isinstance(text, str):
        raise ArgumentTypeError(f"{name} must be str, not {type(text).__name__}")
    return text


# --------------------------------------------------------------------------- lines and words
def text_lines(name: str = "shakespeare", max_lines: int | None = None) -> list[str]:
    """Non-blank lines of a shipped text (:func:`~.loaders.load_text`), at most ``max_lines``.

    >>> len(text_lines(max_lines=3))
    3
    """
    if max_lines is not None:
        max_lines = check_int(max_lines, "max_lines", minimum=0)
    lines = [line for line in load_text(name).split("\n") if line.strip()]
    return lines if max_lines is None else lines[:max_lines]


def whitespace_word_counts(name: str = "shakespeare", max_lines: int | None = None
                           ) -> dict[str, int]:
    """Whitespace-separated word → count over the first ``max_lines`` non-blank lines.

    >>> table = whitespace_word_counts(max_lines=3)
    >>> all(isinstance(c, int) and c > 0 for c in table.values())
    True
    """
    counts: Counter = Counter()
    for line in text_lines(name, max_lines):
        counts.update(line.split())
    return dict(counts)


def first_words(n_words: int = 1500, name: str = "shakespeare") -> str:
    """The first ``n_words`` whitespace-separated words of a shipped text, space-joined.

    >>> first_words(3)
    "ALL'S WELL THAT"
    """
    n_words = check_int(n_words, "n_words", minimum=1)
    return " ".join(load_text(name).split()[:n_words])


def split_words(text: str, pieces: Callable[[str], Iterable[str]], limit: int | None = None
                ) -> list[tuple[str, ...]]:
    """The whitespace-separated words of ``text`` in order, each as ``tuple(pieces(word))``.

    Words with no piece are left out; at most ``limit`` words. With
    ``workbench.pretokenise.Pretokeniser(alphabet).pieces`` these are P1 + P2 pretokenised
    words (GRaMPa Tables 7–8).

    >>> split_words("ab c", list, limit=1)
    [('a', 'b')]
    """
    text = _check_text(text)
    if limit is not None:
        limit = check_int(limit, "limit", minimum=0)
    out: list[tuple[str, ...]] = []
    for w in text.split():
        if limit is not None and len(out) >= limit:
            break
        cut = tuple(pieces(w))
        if cut:
            out.append(cut)
    return out


# --------------------------------------------------------------------------- spelled words
def spell_words(words: Iterable[str], vocab: Vocabulary) -> list[str]:
    """Plain words in ``vocab``'s alphabet, with a leading space under the ``sentencepiece``
    and ``byte-level`` alphabets (the space a word has inside a sentence).

    >>> spell_words(["ab"], Vocabulary(["a", "b"]))
    ['ab']
    """
    prefix = " " if vocab.alphabet in _SPACED else ""
    return [vocab.to_alphabet(prefix + w) for w in words]


@lru_cache(maxsize=1)
def _letter_runs() -> tuple[str, ...]:
    text = load_text("shakespeare")
    return tuple(m.group() for m in _LETTERS.finditer(text, 0, min(len(text), 2_000_000)))


def letter_words(n_words: int, vocab: Vocabulary, *, offset: int = 0) -> list[str]:
    """``n_words`` consecutive words of the shipped Shakespeare text, spelled for ``vocab``.

    Words are the runs of ASCII letters (``[A-Za-z]+``), in running order (so frequent
    words repeat, as in the paper's validation set), starting ``offset`` words after the
    title page. Under the ``sentencepiece`` and ``byte-level`` alphabets each word gets the
    leading space a word has inside a sentence (``"▁knows"``).

    >>> letter_words(3, Vocabulary.infinite())
    ['me', 'But', 'my']
    """
    n_words = check_int(n_words, "n_words", minimum=1, maximum=MAX_WORDS)
    offset = check_int(offset, "offset", minimum=0, maximum=MAX_WORDS)
    vocab = check_vocab(vocab)
    words = _letter_runs()[_TEXT_SKIP + offset:_TEXT_SKIP + offset + n_words]
    return spell_words(words, vocab)


def check_words(words: object, vocab: Vocabulary | None = None) -> list[str]:
    """A non-empty sequence of at most :data:`MAX_WORDS` words (``str``) within the memory
    budget, as a list (``vocab`` is not used; it keeps the call beside the recipes' calls).

    >>> check_words(["ab", "b"])
    ['ab', 'b']
    """
    if isinstance(words, str):
        raise ArgumentTypeError("words must be a sequence of str, not one str")
    out = [check_word(w) for w in words]  # type: ignore[union-attr]
    if not out:
        raise InvalidValueError("words must not be empty")
    if len(out) > MAX_WORDS:
        raise InvalidValueError(f"at most {MAX_WORDS:,} words, got {len(out):,}")
    check_budget(sum(map(len, out)) * 64, f"{len(out):,} words")
    return out


def synthetic_words(length: int, count: int, vocab: Vocabulary, *, seed: int = 0) -> list[str]:
    """``count`` made-up words of exactly ``length`` characters (spelled, marker included).

    Frequent English words (the 2,000 most frequent, letters only) are glued together at
    random and cut to length: long, realistic letter sequences where real words run out.
    Deterministic for a seed.

    >>> [len(w) for w in synthetic_words(30, 2, Vocabulary.infinite())]
    [30, 30]
    """
    length = check_int(length, "length", minimum=1, maximum=4096)
    count = check_int(count, "count", minimum=1, maximum=MAX_WORDS)
    seed = check_int(seed, "seed", minimum=0)
    vocab = check_vocab(vocab)
    pool = [w for w in english_words(3000) if w.isascii() and w.isalpha()][:2000]
    rng = np.random.default_rng([seed, length])
    marker = len(spell_words([""], vocab)[0])
    out = []
    for _ in range(count):
        body = ""
        while len(body) < length - marker:
            body += pool[int(rng.integers(len(pool)))]
        out.append(spell_words([body[:max(length - marker, 0)]], vocab)[0][:length])
    return out


def demo_word(n: int) -> str:
    """The ``n``-character word the theory panels segment: the alphabet, repeated.

    Under the infinite vocabulary every word of the same length has the same
    segmentations, so the letters only make tables readable.

    Examples
    --------
    >>> demo_word(3), len(demo_word(29))
    ('abc', 29)
    """
    n = check_int(n, "n", minimum=0)
    return (_ALPHABET * (n // len(_ALPHABET) + 1))[:n]


# --------------------------------------------------------------------------- chunks
def greedtok_chunk_counts(text: str) -> dict[str, int]:
    """GreedTok's chunks: ``text`` cut into space-prefixed letter runs, digit runs and symbol
    runs, with their counts.

    Whitespace other than the single leading space is dropped (as in the paper's
    space-delimited words). Not the GPT-4 split (:func:`split_chunk_counts` with
    :func:`workbench.bpe.split_text`).

    >>> greedtok_chunk_counts("  x1")
    {' x': 1, '1': 1}
    """
    text = _check_text(text)
    return dict(Counter(c for c in _GREEDTOK_CHUNK.findall(text) if not c.isspace()))


def greedtok_text_chunk_counts(max_chars: int | None = 1_000_000, name: str = "shakespeare"
                               ) -> dict[str, int]:
    """:func:`greedtok_chunk_counts` of a shipped text (its first ``max_chars`` characters)."""
    if max_chars is not None:
        max_chars = check_int(max_chars, "max_chars", minimum=0)
    text = load_text(name)
    return greedtok_chunk_counts(text if max_chars is None else text[:max_chars])


def split_chunk_counts(lines: Sequence[str], split: Callable[[str], Iterable[str]]
                       ) -> dict[str, int]:
    """Chunk → count over ``lines``, each line cut by ``split`` (first occurrence order).

    With :func:`workbench.bpe.split_text` these are the GPT-4 chunk counts BPE trains on.
    """
    if isinstance(lines, str):
        raise ArgumentTypeError("lines must be a sequence of str, not one str")
    counts: Counter = Counter()
    for line in lines:
        counts.update(split(_check_text(line, "line")))
    return dict(counts)
