"""Vocabularies: immutable sets of string tokens with ids, their alphabets and file formats.

A :class:`Vocabulary` is what every segmentation kernel consumes. It holds tokens and ids,
knows how a plain word is spelled in its alphabet (identity, GPT-2's byte-level alphabet,
or SentencePiece's ``▁`` word-boundary marker) and compiles itself once into the flat trie
arrays of :mod:`workbench._core.trie`. Alphabets are :mod:`.alphabets`; file formats
:mod:`.formats`.

This module does not segment anything (see :mod:`workbench.lattice`), does not apply
Unicode normalisation (words are segmented exactly as given, NFC or not), and does not
train vocabularies (see :mod:`workbench.datasets`).

Example
-------
>>> v = Vocabulary(["a", "b", "ab"])
>>> len(v), "ab" in v, v.id_of("ab"), v.max_token_length
(3, True, 2, 2)
>>> gpt2_like = Vocabulary(["Ġ", "h", "Ġh"], alphabet="byte-level")
>>> gpt2_like.to_alphabet(" h")
'Ġh'
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterable, Iterator
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError, UnknownNameError
from .._core.io import check_output_path, write_atomic
from .._core.validate import BudgetError, check_budget
from .alphabets import ALPHABETS, check_spelled, first_outside, spell, unspell
from .formats import VocabularyFormatError, read_vocabulary_bytes, read_vocabulary_file

if TYPE_CHECKING:  # the trie module loads numba: imported where a trie is built
    from .._core.trie import Trie

#: The most tokens one vocabulary may hold: 10x the largest vocabularies in use (GPT-4o's
#: ~200k), and what builds (index + trie) well inside the 30 s time budget on 2 cores;
#: ``Vocabulary(map(str, range(10**8)))`` is refused after reading this many, not minutes later.
MAX_TOKENS = 2_000_000


class Vocabulary:
    """An immutable set of non-empty string tokens, each with an integer id.

    Parameters
    ----------
    tokens : iterable of str
        The tokens, spelled in the vocabulary's alphabet. Non-strings raise ``TypeError``;
        the empty string and duplicates raise ``ValueError``, and so does a token the
        alphabet cannot spell, naming it and its character: a byte-level token holds only
        GPT-2's 256 byte characters (``"你好"`` is spelled ``"ä½łå¥½"``), a SentencePiece
        token no plain space (it is spelled ``▁``); see :func:`.alphabets.outside_alphabet`.
    ids : iterable of int, optional
        One non-negative, distinct id below ``2**31 - 1`` per token (larger ids raise
        ``ValueError``); by default ``0, 1, 2, ...`` in order.
    alphabet : {"identity", "byte-level", "sentencepiece"}
        How a plain word is spelled in this vocabulary (see :meth:`to_alphabet`).
    name : str, optional
        A label for plots and error messages.
    scores : iterable of float, optional
        Per-token scores (e.g. a unigram model's log-probabilities), kept for later use.

    Notes
    -----
    Segmentation functions take words already in the vocabulary's alphabet: call
    ``vocab.to_alphabet(" hello")`` to get ``"Ġhello"`` for GPT-2. No Unicode normalisation
    is applied anywhere; a non-NFC word is segmented code point by code point as given.

    Examples
    --------
    >>> v = Vocabulary(["x", "y", "xy"], ids=[10, 11, 12])
    >>> v.id_of("xy"), v.token_of(11), sorted(v)
    (12, 'y', ['x', 'xy', 'y'])
    """

    __slots__ = ("_tokens", "_ids", "_index", "_alphabet", "_name", "_scores", "_infinite",
                 "__dict__")

    def __init__(
        self,
        tokens: Iterable[str],
        *,
        ids: Iterable[int] | None = None,
        alphabet: str = "identity",
        name: str | None = None,
        scores: Iterable[float] | None = None,
    ) -> None:
        if isinstance(tokens, (str, bytes)):
            raise ArgumentTypeError("tokens must be an iterable of str, not a single string")
        if alphabet not in ALPHABETS:
            raise InvalidValueError(f"alphabet must be one of {ALPHABETS}, got {alphabet!r}")
        toks = _checked_tokens(tokens, alphabet)
        id_arr = _checked_ids(ids, len(toks))
        score_arr = None if scores is None else _checked_scores(scores, toks)
        id_arr.setflags(write=False)
        self._tokens = tuple(toks)
        self._ids = id_arr
        self._index = {tok: int(i) for tok, i in zip(toks, id_arr)}
        self._alphabet = alphabet
        self._name = name
        self._scores = score_arr
        self._infinite = False

    # ---- constructors
    @classmethod
    def infinite(cls, alphabet: str = "identity") -> Vocabulary:
        """The vocabulary in which every non-empty string is a token.

        It has no ids, no length and cannot be iterated; ``in`` is true for any non-empty
        string and :attr:`max_token_length` is ``None``.

        >>> inf = Vocabulary.infinite()
        >>> "anything at all" in inf, inf.is_infinite
        (True, True)
        """
        v = cls([], alphabet=alphabet, name="infinite")
        v._infinite = True
        return v

    @classmethod
    def load(cls, path: str | os.PathLike, *, alphabet: str | None = None,
             name: str | None = None) -> Vocabulary:
        """Read a vocabulary file; the format is detected from its name and content.

        Supported: a plain list (one token per line, ids = line numbers), a SentencePiece
        ``.model``, a HuggingFace ``tokenizer.json``, a GPT-2 style ``encoder.json`` and this
        package's own ``.json`` (written by :meth:`save`).

        Parameters
        ----------
        path : path-like
        alphabet : str, optional
            Overrides the alphabet inferred from the file.
        name : str, optional
            Overrides the name read from the file (if any).

        Raises
        ------
        VocabularyFormatError
            If the file cannot be read or is malformed; the message names the path and,
            for text formats, the line.
        """
        spec = read_vocabulary_file(path)
        if alphabet is not None:
            spec["alphabet"] = alphabet
        if name is not None:
            spec["name"] = name
        try:
            return cls(**spec)
        except VocabularyFormatError:
            raise
        except (TypeError, ValueError) as err:
            raise VocabularyFormatError(f"{Path(path)}: invalid vocabulary ({err})") from err

    def save(self, path: str | os.PathLike) -> None:
        """Write the vocabulary: ``.json`` keeps everything, any other suffix a plain list.

        A plain list stores tokens only, one per line, so it needs ids ``0..N-1`` and does not
        record the alphabet. It is written only if :meth:`load` reads back exactly these
        tokens; a token it would lose or change is refused with a ``ValueError`` naming it
        (save to ``.json`` instead): a line break inside a token, a byte-order mark at the
        start of the first token (readers drop it), a lone surrogate (not UTF-8), or a list
        that reads as another text format (every line ``piece<TAB>score``: a SentencePiece
        ``.vocab``; every line ``base64 rank``: a tiktoken file; the suffixes ``.vocab`` and
        ``.model``).

        Raises
        ------
        ValueError
            As above; also for the infinite vocabulary.
        """
        if self._infinite:
            raise InvalidValueError("the infinite vocabulary cannot be saved")
        p = check_output_path(path, "path")
        if p.suffix == ".json":
            doc = {
                "format": "workbench-vocabulary",
                "version": 1,
                "name": self._name,
                "alphabet": self._alphabet,
                "tokens": list(self._tokens),
                "ids": self._ids.tolist(),
                "scores": None if self._scores is None else self._scores.tolist(),
            }
            write_atomic(p, json.dumps(doc, ensure_ascii=False), name="path")
            return
        write_atomic(p, self._plain_list(p), name="path")

    def _plain_list(self, p: Path) -> str:
        """The plain-list text of :meth:`save`, checked to read back as these tokens."""
        if not np.array_equal(self._ids, np.arange(len(self._tokens))):
            raise InvalidValueError("a plain list needs ids 0..N-1 in order; save to .json instead")
        for tok in self._tokens:
            if any(c in tok for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"):
                raise InvalidValueError(f"token {tok!r} has a line break; save to .json instead")
        text = "".join(t + "\n" for t in self._tokens)
        try:
            raw = text.encode("utf-8")
        except UnicodeEncodeError as err:
            bad = self._tokens[text.count("\n", 0, err.start)]
            raise InvalidValueError(f"token {bad!r:.60} cannot be written as UTF-8 ({err.reason}); "
                                    "save to .json instead") from None
        try:
            back = read_vocabulary_bytes(p, raw)["tokens"]
        except VocabularyFormatError as err:
            raise InvalidValueError(f"{p}: a plain list of these tokens would not read back as "
                                    f"this vocabulary ({err}); save to .json instead") from None
        if list(back) != list(self._tokens):
            pos = next((k for k, (a, b) in enumerate(zip(self._tokens, back)) if a != b),
                       min(len(back), len(self._tokens)))
            tok = self._tokens[pos] if pos < len(self._tokens) else self._tokens[-1]
            got = repr(back[pos])[:60] if pos < len(back) else "nothing"
            raise InvalidValueError(
                f"token {tok!r:.60} (id {pos}) would be read back from the plain list {p.name} as "
                f"{got}{_why(tok, pos)}; save to .json instead")
        return text

    # ---- container protocol
    def __len__(self) -> int:
        if self._infinite:
            raise ArgumentTypeError("the infinite vocabulary has no length")
        return len(self._tokens)

    def __contains__(self, token: object) -> bool:
        if not isinstance(token, str):
            return False
        if self._infinite:
            return token != ""
        return token in self._index

    def __iter__(self) -> Iterator[str]:
        if self._infinite:
            raise ArgumentTypeError("the infinite vocabulary cannot be iterated")
        return iter(self._tokens)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Vocabulary):
            return NotImplemented
        return (
            self._infinite == other._infinite
            and self._alphabet == other._alphabet
            and self._tokens == other._tokens
            and np.array_equal(self._ids, other._ids)
        )

    def __hash__(self) -> int:
        return hash((self._infinite, self._alphabet, self._tokens))

    def __repr__(self) -> str:
        if self._infinite:
            return "Vocabulary.infinite()"
        label = f" {self._name!r}" if self._name else ""
        return f"<Vocabulary{label}: {len(self._tokens)} tokens, alphabet={self._alphabet}>"

    # ---- properties
    @property
    def is_infinite(self) -> bool:
        """True for :meth:`infinite` vocabularies."""
        return self._infinite

    @property
    def tokens(self) -> tuple[str, ...]:
        """The tokens, in the order given."""
        return self._tokens

    @property
    def ids(self) -> np.ndarray:
        """The ids (read-only int64 array), aligned with :attr:`tokens`."""
        return self._ids

    @property
    def scores(self) -> np.ndarray | None:
        """Per-token scores aligned with :attr:`tokens`, or None.

        Indexed by a token's position in :attr:`tokens`, which is not its id when the ids
        come from a model file (``ulm-8k``: id 0 is ``<unk>``, so ``scores[id_of(t)]`` is the
        next token's score): use ``dict(zip(vocab.tokens, vocab.scores))``.
        """
        return self._scores

    def scores_by_id(self, missing: float = 0.0) -> np.ndarray | None:
        """The scores indexed by token id (what kernels index with the ids of an arc table or
        a trie), ``missing`` for ids no token has; None without scores.

        The array has one float64 slot per id up to the largest (ids are below 2**31 - 1,
        so up to 16 GiB): sparse ids over the memory budget raise
        :class:`~workbench._core.validate.BudgetError` before anything is allocated.

        >>> v = Vocabulary(["a", "b"], ids=[1, 3], scores=[-1.0, -2.0])
        >>> v.scores_by_id().tolist(), v.scores_by_id(-np.inf).tolist()
        ([0.0, -1.0, 0.0, -2.0], [-inf, -1.0, -inf, -2.0])
        """
        if self._scores is None:
            return None
        size = int(self.ids.max(initial=-1)) + 1
        check_budget(8 * size, f"scores by id (one slot per id up to the largest, {size - 1:,}, "
                     f"for {len(self._tokens):,} tokens)",
                     hint="; renumber the ids densely (ids=range(len(tokens)))")
        out = np.full(size, float(missing))
        out[self.ids] = self._scores
        return out

    @property
    def alphabet(self) -> str:
        """One of ``"identity"``, ``"byte-level"``, ``"sentencepiece"``."""
        return self._alphabet

    @property
    def name(self) -> str | None:
        return self._name

    @cached_property
    def max_token_length(self) -> int | None:
        """Longest token in code points (0 for an empty vocabulary, None if infinite)."""
        if self._infinite:
            return None
        return max((len(t) for t in self._tokens), default=0)

    @cached_property
    def token_lengths(self) -> tuple[int, ...]:
        """The distinct token lengths in code points, ascending (``()`` if infinite or empty).

        Plain-Python segmenters try only these lengths at each position, and their time
        budgets are estimated from them.
        """
        if self._infinite:
            return ()
        return tuple(sorted({len(t) for t in self._tokens}))

    @cached_property
    def characters(self) -> frozenset[str]:
        """Every character that occurs in some token."""
        return frozenset("".join(self._tokens))

    def id_of(self, token: str) -> int:
        """The id of ``token``; :class:`~workbench.UnknownNameError` (a ``KeyError``) if absent,
        and for the infinite vocabulary."""
        if self._infinite:
            raise UnknownNameError("the infinite vocabulary has no ids")
        try:
            return self._index[token]
        except (KeyError, TypeError):
            raise UnknownNameError(f"{token!r:.60} is not a token of this vocabulary") from None

    @cached_property
    def _by_id(self) -> dict[int, str]:
        return {int(i): t for t, i in zip(self._tokens, self._ids)}

    def token_of(self, id_: int) -> str:
        """The token with id ``id_``; ``KeyError`` if there is none."""
        return self._by_id[int(id_)]

    def decode_ids(self, ids: Iterable[int]) -> list[str]:
        """Tokens for a sequence of ids.

        Raises
        ------
        TypeError
            If ``ids`` is not an iterable of ints (``True``, ``2.0`` are refused), or the
            vocabulary is infinite.
        ValueError
            If an id is not one of this vocabulary's; the message names it and its position.
        """
        if self._infinite:
            raise ArgumentTypeError("the infinite vocabulary has no ids")
        if isinstance(ids, (str, bytes)) or not isinstance(ids, (Iterable, np.ndarray)):
            raise ArgumentTypeError(f"ids must be an iterable of ints, not {type(ids).__name__}")
        if isinstance(ids, np.ndarray) and ids.dtype.kind in "iu":
            ids = ids.tolist()  # Python ints: one dict probe each
        by_id = self._by_id
        out = []
        for pos, i in enumerate(ids):
            token = by_id.get(i) if isinstance(i, (int, np.integer)) and not isinstance(
                i, (bool, np.bool_)) else None
            if token is None:
                raise self._bad_id(i, pos)
            out.append(token)
        return out

    def _bad_id(self, i: object, pos: int) -> Exception:
        """The error for ``ids[pos] = i`` in :meth:`decode_ids`."""
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
            return ArgumentTypeError(f"ids[{pos}] must be an int, not {type(i).__name__} "
                                     f"({i!r:.40})")
        span = (f"ids {int(self._ids.min())}..{int(self._ids.max())}" if self._ids.size
                else "no ids")
        return InvalidValueError(f"ids[{pos}] = {i} is not an id of this vocabulary "
                                 f"({len(self._tokens):,} tokens, {span})")

    # ---- alphabet
    def to_alphabet(self, word: str) -> str:
        """Spell a plain word in this vocabulary's alphabet.

        ``identity`` returns it unchanged; ``byte-level`` maps its UTF-8 bytes through
        :func:`bytes_to_unicode` (``" hé"`` → ``"ĠhÃ©"``); ``sentencepiece`` replaces each
        space by ``▁`` (``" hello"`` → ``"▁hello"``).
        """
        if not isinstance(word, str):
            raise ArgumentTypeError(f"word must be str, not {type(word).__name__}")
        return spell(self._alphabet, word)

    def from_alphabet(self, text: str) -> str:
        """Inverse of :meth:`to_alphabet` (for display)."""
        return unspell(self._alphabet, text)

    # ---- compiled forms
    @cached_property
    def trie(self) -> Trie:
        """The forward trie (compiled once, reused by every kernel)."""
        if self._infinite:
            raise ArgumentTypeError("the infinite vocabulary has no trie")
        from .._core.trie import build_trie

        return build_trie(list(self._tokens), self._ids)

    @cached_property
    def reversed_trie(self) -> Trie:
        """Trie of the reversed tokens, for right-to-left walks (same ids)."""
        if self._infinite:
            raise ArgumentTypeError("the infinite vocabulary has no trie")
        from .._core.trie import build_trie

        return build_trie([t[::-1] for t in self._tokens], self._ids)


def _why(token: str, pos: int) -> str:
    """Why a plain list changes ``token`` at position ``pos`` (for :meth:`Vocabulary.save`)."""
    if pos == 0 and token.startswith("\ufeff"):
        return " (a byte-order mark at the start of a file is dropped by every reader)"
    return " (the list reads as another text format)"


# --------------------------------------------------------------------------- loaders


def _checked_tokens(tokens: Iterable[str], alphabet: str) -> list[str]:
    """The tokens as a list: at most MAX_TOKENS non-empty, distinct strings, each spelled in
    ``alphabet`` (:func:`.alphabets.outside_alphabet`)."""
    toks = list(itertools.islice(tokens, MAX_TOKENS + 1))
    if len(toks) > MAX_TOKENS:
        raise BudgetError(f"tokens: more than MAX_TOKENS = {MAX_TOKENS:,} tokens; a vocabulary "
                          "this large is refused (memory and the trie's build time)")
    index: dict[str, int] = {}
    for pos, tok in enumerate(toks):
        if not isinstance(tok, str):
            raise ArgumentTypeError(f"token at position {pos} is {type(tok).__name__}, not str")
        if tok == "":
            raise InvalidValueError(f"token at position {pos} is the empty string")
        if tok in index:
            raise InvalidValueError(f"duplicate token {tok!r} at positions {index[tok]} and {pos}")
        index[tok] = pos
    pos = first_outside(alphabet, toks)
    if pos is not None:
        check_spelled(alphabet, toks[pos], f"token at position {pos}")
    return toks


def _checked_ids(ids: Iterable[int] | None, n: int) -> np.ndarray:
    """The ids as int64 (``0..n-1`` by default): ``n`` distinct ints in ``[0, 2**31 - 1)``."""
    if ids is None:
        id_arr = np.arange(n, dtype=np.int64)
    else:
        id_list = list(ids)
        if len(id_list) != n:
            raise InvalidValueError(f"got {len(id_list)} ids for {n} tokens")
        for pos, i in enumerate(id_list):
            if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or i < 0:
                raise InvalidValueError(f"id at position {pos} must be a non-negative int: {i!r}")
            if i >= 2**31 - 1:
                raise InvalidValueError(f"id at position {pos} must be below 2**31 - 1, got {i}")
        id_arr = np.asarray(id_list, dtype=np.int64)
        if len(np.unique(id_arr)) != len(id_arr):
            raise InvalidValueError("ids must be distinct")
    if id_arr.size and id_arr.max() >= 2**31 - 1:
        raise InvalidValueError("ids must be below 2**31 - 1")
    return id_arr


def _checked_scores(scores: Iterable[float], toks: list[str]) -> np.ndarray:
    """The scores as a read-only float64 array: one finite real number per token."""
    score_list = list(scores)
    for pos, value in enumerate(score_list):
        if isinstance(value, (bool, np.bool_, str, bytes)) or not isinstance(
                value, (int, float, np.integer, np.floating)):
            raise ArgumentTypeError(f"score at position {pos} must be a real number, got "
                                    f"{value!r:.40}")
    try:
        score_arr = np.asarray(score_list, dtype=np.float64)
    except OverflowError:
        raise InvalidValueError("scores must be finite: an integer score is past the float "
                                "range") from None
    if score_arr.shape != (len(toks),):
        raise InvalidValueError(f"got {score_arr.size} scores for {len(toks)} tokens")
    bad = np.flatnonzero(~np.isfinite(score_arr))
    if bad.size:
        raise InvalidValueError(f"scores must be finite: token {toks[bad[0]]!r:.40} (position "
                                f"{bad[0]}) has score {score_arr[bad[0]]}")
    score_arr.setflags(write=False)
    return score_arr
