"""The text-level contract's one implementation: every verb of a text tokeniser from two.

The tokenisers of running text (:class:`workbench.bpe.BPEModel`,
:class:`workbench.GreedTokModel`, the Rényi counterexamples :class:`workbench.RandomDropBPE`
and :class:`workbench.DuplicationBPE`, and :class:`workbench.TextTokenizer`) derive from
:class:`TextLevelTokenizer`, which gives them one family of verbs, as tiktoken's
``Encoding`` and HF ``tokenizers`` name them:

=======================================  ===================================================
``encode(text) -> list[int]``            the token ids of one text
``encode_batch(texts, num_threads=)``    ``list[list[int]]``, one list per text
``encode_with_offsets(text)``            ``(ids, offsets)``: token ``j`` covers the
                                         characters ``text[offsets[j][0]:offsets[j][1]]``
``tokenize(text) -> list[str]``          the tokens spelled in the byte-level alphabet
                                         (GPT-2's ``Ġ``), as ``to_vocabulary()`` spells them
``convert_ids_to_tokens(ids)``           that spelling of any ids
``decode(ids, errors="replace")``        the text of ids (UTF-8, ``errors`` as ``bytes.decode``)
``decode_bytes(ids) -> bytes``           the tokens' bytes joined
``token_bytes``                          the id → bytes table (a read-only mapping; ids may
                                         have gaps, as a model imported from a peer has)
=======================================  ===================================================

A subclass implements :meth:`~TextLevelTokenizer.encode` and ``token_bytes``; it may
override :meth:`~TextLevelTokenizer.encode_batch` with a faster route (the same ids). The
tokens of these models concatenate to the text's UTF-8 bytes, so character offsets follow
from the tokens' lengths alone (:func:`char_offsets`): a token that ends inside a character
(a byte-level model may cut one) covers that whole character, as HF ``tokenizers`` reports
it, so two neighbouring offsets may overlap by one character.

:class:`TextSampler` adds what a stochastic one offers: a generator built from ``seed``,
``reseeded(seed)``, and one stream per text of a batch (text ``k`` of ``encode_batch`` draws
from stream ``k``, so ``encode(text)`` is ``encode_batch([text])[0]`` from the same state and
results do not depend on threads or chunking). A per-call ``seed=`` means one thing
everywhere: ``f(x, seed=s)`` equals ``reseeded(s).f(x)``, and ``self`` is left unchanged.

What it leaves out: special tokens (an id that encoding never produces, as tiktoken's
``encode_ordinary``), padding and truncation (the training bridge's business), and the
offsets of a tokeniser whose tokens do not spell the text (:class:`workbench.TextTokenizer`
under GRaMPa's P1/P2 rewrites it: NFKC, markers; it aligns them itself).

Example
-------
>>> class Bytes(TextLevelTokenizer):  # one token per byte
...     token_bytes = {b: bytes([b]) for b in range(256)}
...     def encode(self, text): return list(text.encode())
>>> t = Bytes()
>>> t.encode("é!"), t.tokenize("é!"), t.decode([195, 169, 33])
([195, 169, 33], ['Ã', '©', '!'], 'é!')
>>> t.encode_with_offsets("é!")
([195, 169, 33], [(0, 1), (0, 1), (1, 2)])
>>> t.decode([195])
'\ufffd'
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ._core.errors import ArgumentTypeError, InvalidValueError
from ._core.seeds import as_generator, base_seed
from ._core.validate import MAX_WORKERS, check_budget, check_workers
from .vocab.alphabets import bytes_to_unicode

__all__ = ["TextLevelTokenizer", "TextSampler", "as_texts", "char_offsets", "default_threads",
           "encode_each"]

#: Working bytes :func:`char_offsets` needs per UTF-8 byte of the text (the byte → character
#: table and its temporaries).
OFFSET_BYTES_PER_BYTE = 24
#: Bytes per token of the returned spans (a tuple of two ints in a list).
BYTES_PER_SPAN = 120

_BYTE_CHAR = [c for _, c in sorted(bytes_to_unicode().items())]
_DECODE_ERRORS = ("strict", "replace", "ignore", "backslashreplace", "surrogateescape")


def as_texts(texts: object) -> list[str]:
    """A list of str from a sequence of texts (a single ``str`` or ``bytes`` is refused).

    >>> as_texts(("a b", ""))
    ['a b', '']
    """
    if isinstance(texts, (str, bytes, bytearray)) or not isinstance(texts, Sequence):
        raise ArgumentTypeError(f"texts must be a sequence of str, not {type(texts).__name__}"
                                " (for one text use encode(text))")
    out = list(texts)
    for k, t in enumerate(out):
        if not isinstance(t, str):
            raise ArgumentTypeError(f"texts[{k}] must be str, not {type(t).__name__}")
    return out


def default_threads(num_threads: object = None) -> int:
    """``num_threads`` checked, or (``None``) the cores available to this process.

    >>> default_threads(3)
    3
    """
    if num_threads is None:
        try:
            num_threads = len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            num_threads = os.cpu_count() or 1
        num_threads = min(num_threads, MAX_WORKERS)
    return check_workers(num_threads, "num_threads")


def char_offsets(text: str, lengths: Sequence[int]) -> list[tuple[int, int]]:
    """Character spans of consecutive tokens of ``lengths`` bytes that spell ``text``'s UTF-8.

    Token ``j`` covers bytes ``[b, e)``; its span runs from the character holding byte ``b``
    to the one holding byte ``e - 1``, inclusive (a token that cuts a character covers all of
    it, as HF ``tokenizers`` reports byte-level offsets).

    Raises :class:`workbench.InvalidValueError` when the lengths do not add up to the text's
    UTF-8 length (the tokens do not spell the text), or a length is not positive.

    >>> char_offsets("aé", [1, 1, 1])
    [(0, 1), (1, 2), (1, 2)]
    """
    check_budget(len(text) * 4 * OFFSET_BYTES_PER_BYTE + len(lengths) * BYTES_PER_SPAN,
                 f"the offsets of a {len(text):,}-character text")
    raw = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    lens = np.asarray(lengths, dtype=np.int64)
    if lens.size and lens.min() <= 0:
        raise InvalidValueError("every token must have at least one byte")
    if int(lens.sum()) != raw.size:
        raise InvalidValueError(f"the tokens have {int(lens.sum()):,} bytes but the text has "
                                f"{raw.size:,}: they do not spell it")
    if not lens.size:
        return []
    char_of = np.cumsum((raw & 0xC0) != 0x80) - 1  # the character each byte belongs to
    ends = np.cumsum(lens)
    starts = char_of[ends - lens].tolist()
    stops = (char_of[ends - 1] + 1).tolist()
    return list(zip(starts, stops))


def encode_each(model: object, texts: Sequence[str], num_threads: int | None) -> list[list[int]]:
    """``model``'s ids of every text: its ``encode_batch`` on ``num_threads`` threads when it
    speaks the text-level contract, else its ``encode`` text by text (a bare
    :class:`workbench.interfaces.MergeModel`)."""
    from .interfaces import TextLevel

    texts = as_texts(texts)
    if isinstance(model, TextLevel):
        return model.encode_batch(texts, num_threads=num_threads)
    default_threads(num_threads)
    return [model.encode(t) for t in texts]  # type: ignore[attr-defined]


class TextLevelTokenizer:
    """Base of every text-level tokeniser: the verbs of the contract from ``encode``.

    A subclass implements :meth:`encode` and the ``token_bytes`` mapping; see the module
    docstring for the verbs and what they mean.
    """

    token_bytes: Mapping[int, bytes]

    # ------------------------------------------------------------------ encoding
    def encode(self, text: str) -> list[int]:  # pragma: no cover - every subclass has one
        """The token ids of ``text``."""
        raise NotImplementedError

    def encode_batch(self, texts: Sequence[str], *, num_threads: int | None = None
                     ) -> list[list[int]]:
        """One id list per text, in order (``encode`` of each; a single ``str`` is refused).

        ``num_threads`` (default: the cores available) is how many threads one call may
        use; a class without a parallel route encodes text by text on this thread.
        """
        texts = as_texts(texts)
        default_threads(num_threads)
        return [self.encode(t) for t in texts]

    def encode_with_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        """The ids of ``text`` and each token's character span ``(start, end)`` in it.

        ``text[start:end]`` is the token's text (a token that cuts a multi-byte character
        covers the whole character; see :func:`char_offsets`).
        """
        ids = self.encode(text)
        table = self.token_bytes
        return ids, char_offsets(text, [len(table[i]) for i in ids])

    def tokenize(self, text: str) -> list[str]:
        """The tokens of ``text`` spelled in the byte-level alphabet (``" the"`` is ``"Ġthe"``).

        ``convert_ids_to_tokens(encode(text))``: the spelling of ``to_vocabulary()`` and of
        HF's byte-level tokenizers.
        """
        return self.convert_ids_to_tokens(self.encode(text))

    # ------------------------------------------------------------------ ids back to text
    def convert_ids_to_tokens(self, ids: Sequence[int]) -> list[str]:
        """Each id's token spelled in the byte-level alphabet (HF's name for this verb)."""
        table = self.token_bytes
        return ["".join([_BYTE_CHAR[b] for b in table[i]]) for i in self._checked_ids(ids)]

    def decode_bytes(self, ids: Sequence[int]) -> bytes:
        """The tokens of ``ids`` joined as bytes (tiktoken's ``decode_bytes``)."""
        table = self.token_bytes
        return b"".join([table[i] for i in self._checked_ids(ids)])

    def decode(self, ids: Sequence[int], errors: str = "replace") -> str:
        """The text of ``ids``: their bytes decoded as UTF-8 with ``errors``.

        ``errors="replace"`` (tiktoken's default) shows a cut character as ``\\ufffd``;
        ``"strict"`` raises ``UnicodeDecodeError`` instead. An id outside the vocabulary
        raises :class:`workbench.InvalidValueError` naming it.
        """
        if errors not in _DECODE_ERRORS:
            raise InvalidValueError(f"errors must be one of {', '.join(_DECODE_ERRORS)}, "
                                    f"not {errors!r:.40}")
        return self.decode_bytes(ids).decode("utf-8", errors=errors)

    def _checked_ids(self, ids: object) -> list[int]:
        """``ids`` as a list of ints of ``token_bytes`` (the first bad one is named)."""
        if isinstance(ids, (str, bytes, bytearray)):
            raise ArgumentTypeError("ids must be a sequence of int, not a string")
        if isinstance(ids, np.ndarray):
            if ids.ndim != 1 or not (ids.size == 0 or np.issubdtype(ids.dtype, np.integer)):
                raise ArgumentTypeError(f"ids must be a 1-D integer array, not {ids.dtype} "
                                        f"of shape {ids.shape}")
            ids = ids.tolist()
        try:
            out = list(ids)  # type: ignore[call-overload]
        except TypeError:
            raise ArgumentTypeError(f"ids must be a sequence of int, not {type(ids).__name__}"
                                    ) from None
        table = self.token_bytes
        for k, i in enumerate(out):
            if type(i) is not int:
                if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
                    raise ArgumentTypeError(f"ids[{k}] must be an int, not {type(i).__name__} "
                                            f"({i!r:.30})")
                out[k] = i = int(i)
            if i not in table:
                raise InvalidValueError(f"id {i} (ids[{k}]) is not in the vocabulary of "
                                        f"{type(self).__name__} ({len(table):,} ids)")
        return out


class TextSampler(TextLevelTokenizer):
    """Base of every stochastic text-level tokeniser: one generator, one stream per text.

    Parameters
    ----------
    seed : int, numpy.random.Generator or None
        Every call draws what it needs from this generator.
    """

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        self._rng = as_generator(seed)

    def reseeded(self, seed: int | np.random.Generator | None) -> Any:
        """A copy whose randomness comes from ``seed`` (as a fresh one built with it).

        The copy shares this one's read-only tables; ``self`` is unchanged.
        """
        twin = copy.copy(self)
        twin._rng = as_generator(seed)
        return twin

    def _streams(self, n: int, seed: int | np.random.Generator | None = None
                 ) -> list[np.random.Generator]:
        """``n`` generators, text ``k``'s from stream ``k`` of one base seed drawn from this
        sampler's generator (or, given ``seed``, from a fresh one built with it)."""
        rng = self._rng if seed is None else as_generator(seed)
        base = int(base_seed(rng))
        return [np.random.default_rng([base, k]) for k in range(n)]
