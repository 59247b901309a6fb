"""A trained byte-level BPE model: merges, vocabulary, encode/decode, dropout, save/load.

Ids: by default ``0..255`` are the bytes, then one id per stop word (whole-chunk tokens,
§2.1 of BatchBPE), then one id per merge in merge order; a model imported from a peer
(``ids=``, e.g. GPT-2, whose byte ids are permuted) maps these symbols to its own ids.
Special tokens (``<|endoftext|>``) have ids and decode, but encoding never produces them
(as ``tiktoken``'s ``encode_ordinary``). Text is cut into chunks by the model's split
pattern (``pattern="gpt4"``, the default, ``"gpt2"`` or a user regex;
:mod:`workbench.bpe.split_patterns`); a chunk equal to a stop word is that token,
every other chunk is encoded from its UTF-8 bytes by applying merges in rank order
(:mod:`workbench.bpe._encode`). Encoding is lossless for any string that has UTF-8 bytes;
a lone surrogate raises ``ValueError``.

Files: :meth:`BPEModel.save` writes JSON and :meth:`BPEModel.load` reads it back (the
format: :mod:`workbench.bpe.modelfile`). HuggingFace export
lives in :mod:`workbench.bpe.export`; GPT-2's files, ``tiktoken`` ranks and GreedTok models
convert through :mod:`workbench.bpe.interop` (:meth:`BPEModel.from_gpt2`,
:meth:`~BPEModel.from_tiktoken`, :meth:`~BPEModel.to_tiktoken`,
:meth:`~BPEModel.from_greedtok`).

This module does not train (see :mod:`workbench.bpe.train`).

Example
-------
>>> m = BPEModel([(b"a", b"b"), (b"ab", b"c")], stop_words=[" the"])
>>> m.encode("abc the abx")
[258, 256, 32, 257, 120]
>>> m.tokens("abc the")
[b'abc', b' the']
>>> m.decode(m.encode("héllo 👋"))
'héllo 👋'
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .._core.deprecation import renamed_keywords, warn_deprecated
from .._core.errors import ArgumentTypeError, InvalidValueError, MissingDependencyError
from .._core.gcpause import gc_paused
from .._core.io import write_atomic
from .._core.seeds import as_generator, base_seed
from .._core.validate import BudgetError, check_budget, check_probability
from ..textlevel import TextLevelTokenizer, as_texts, default_threads
from . import interop, interpreted, modelfile
from .bytelevel import to_bytelevel
from .modelcheck import _check_ids, _check_specials, _text_bytes
from .split_patterns import NAMED_PATTERNS, resolve_pattern, split_by, split_with_gaps

if TYPE_CHECKING:  # the kernels load numba: imported where they run
    from ._textencode import TextEncoder

DROPOUT_MAX_CHUNK = 1 << 14
"""Longest chunk (bytes) BPE-dropout encodes: its cost is quadratic in the chunk length
(fresh draws at every merge step), ~1 s at this length. Plain BPE has no such limit."""

BYTES_PER_INPUT_BYTE = 64
"""Memory estimate of :meth:`BPEModel.encode_chunks` per input byte (arrays and id lists)."""


_TEXT_DROPOUT = ("TextTokenizer(BPESampler(model.to_vocabulary(), model=model, dropout=p), "
                 "p=1.0, pattern=model.pattern, seed=s).encode(text)")


class Batch(NamedTuple):
    """One training batch: merges made (``size``), pairs examined, and the merges."""

    size: int
    searched: int
    merges: tuple[tuple[bytes, bytes], ...]


class BPEModel(TextLevelTokenizer):
    """A byte-level BPE model (see the module docstring for ids and encoding).

    It speaks the text-level contract (:class:`workbench.textlevel.TextLevelTokenizer`):
    ``encode``, ``encode_batch``, ``encode_with_offsets``, ``tokenize``, ``decode`` and
    ``token_bytes``; ``tokens(text)`` gives the tokens as ``bytes``.

    Parameters
    ----------
    merges : sequence of (bytes, bytes)
        The merges in order. Each part must be a byte or an earlier merge's result; a part
        spelled like several earlier tokens means the most recent one.
    stop_words : sequence of str
        Whole-chunk tokens (ids ``256 ..``), never merged into.
    batches : sequence of Batch, optional
        Training record (sizes of the batches and their merges).
    params : dict, optional
        Training parameters, kept for display and saved with the model.
    merge_symbols : sequence of (int, int), optional
        The symbols each merge joins (byte ``b`` is ``b``, merge ``k`` makes ``256 + k``),
        which settles which token is meant when two merges made the same bytes.
    pattern : str
        The split pattern: ``"gpt4"`` (default), ``"gpt2"`` or a regex (:mod:`regex`
        syntax; text it does not match becomes chunks of its own, see
        :mod:`workbench.bpe.split_patterns`).
    ids : sequence of int, optional
        The id of each symbol in the default order (256 bytes, stop words, merges): distinct,
        non-negative. Default: that order itself.
    special_tokens : dict of str to int, optional
        Tokens with an id that decode to their text but are never produced by encoding.

    Attributes
    ----------
    pattern : str
        ``"gpt4"``, ``"gpt2"`` or the user regex.
    pattern_regex : str
        The regex text of the pattern.
    special_tokens : dict of str to int
    """

    def __init__(self, merges: Iterable[tuple[bytes, bytes]], stop_words: Iterable[str] = (),
                 *, batches: Sequence[Batch] | None = None, params: dict | None = None,
                 merge_symbols: Sequence[tuple[int, int]] | None = None,
                 pattern: str = "gpt4", ids: Sequence[int] | None = None,
                 special_tokens: dict[str, int] | None = None) -> None:
        self.pattern, self.pattern_regex, self._split = resolve_pattern(pattern)
        token_ids = ids  # ``ids`` names each merge's symbol pair below
        if isinstance(stop_words, (str, bytes)):
            raise ArgumentTypeError(
                f"stop_words must be a sequence of str, not one {type(stop_words).__name__} (wrap "
                "a single stop word in a list)")
        stop = list(stop_words)
        for w in stop:
            _text_bytes(w, "stop word")
            if not w:
                raise InvalidValueError("a stop word cannot be empty")
        if len(set(stop)) != len(stop):
            raise InvalidValueError("stop words must be distinct")
        self.stop_words: list[str] = stop
        latest: dict[bytes, int] = {bytes([b]): b for b in range(256)}  # bytes -> symbol
        made: list[bytes] = [bytes([b]) for b in range(256)]  # symbol -> bytes
        given = None if merge_symbols is None else [tuple(map(int, p)) for p in merge_symbols]
        sym_pairs = []
        seen_pairs = set()
        checked: list[tuple[bytes, bytes]] = []
        self.merges = checked
        with gc_paused():  # ~100k lasting objects for GPT-2: no collection can free any
            for k, pair in enumerate(merges):
                if not (type(pair) is tuple and len(pair) == 2 and type(pair[0]) is bytes
                        and type(pair[1]) is bytes) and (
                        not isinstance(pair, tuple) or len(pair) != 2
                        or not all(isinstance(x, bytes) for x in pair)):
                    raise ArgumentTypeError(f"merge {k} must be a pair of bytes, got {pair!r:.60}")
                left, right = pair
                a, b = latest.get(left), latest.get(right)
                if a is None or b is None:
                    raise InvalidValueError(f"merge {k} {pair!r:.60} uses a token that no earlier "
                                            "merge made")
                ids = (a, b)
                if given is not None:
                    if k >= len(given) or not all(0 <= x < 256 + k for x in given[k]) or (
                            made[given[k][0]], made[given[k][1]]) != (left, right):
                        raise InvalidValueError(f"merge_symbols[{k}] does not spell merge {k}")
                    ids = given[k]
                if ids in seen_pairs:
                    raise InvalidValueError(f"merge {k} {pair!r:.60} repeats an earlier merge")
                seen_pairs.add(ids)
                sym_pairs.append(ids)
                joined = left + right
                latest[joined] = 256 + k
                made.append(joined)
                checked.append((left, right))
        if given is not None and len(given) != len(self.merges):
            raise InvalidValueError(f"got {len(given)} merge_symbols for {len(self.merges)} merges")
        self._finish(made, np.array(sym_pairs, dtype=np.int64).reshape(-1, 2), token_ids,
                     special_tokens, batches, params)

    @classmethod
    def _from_trained(cls, merge_symbols: np.ndarray, stop_words: list[str], *,
                      batches: Sequence[Batch] | None = None, params: dict | None = None,
                      pattern: str = "gpt4", ids: Sequence[int] | None = None,
                      special_tokens: dict[str, int] | None = None) -> BPEModel:
        """The model a trainer just made, built without re-checking it (trusted path).

        ``merge_symbols`` is the trainer's ``(n, 2)`` int array (byte ``b`` is ``b``, merge
        ``k`` makes ``256 + k``); the stop words are distinct non-empty strings with UTF-8
        bytes and the pairs are distinct (the kernels never merge a pair twice). The result
        equals ``BPEModel(merges, stop_words, merge_symbols=merge_symbols, ...)`` attribute
        by attribute (tested); this path only skips the per-merge Python checks of the
        constructor, which cost ~0.3 s for 32,512 merges. ``ids`` and ``special_tokens``
        (default: none) are checked as by the constructor; :mod:`.gpt2cache` rebuilds
        GPT-2's checked model this way.
        """
        self = cls.__new__(cls)
        self.pattern, self.pattern_regex, self._split = resolve_pattern(pattern)
        self.stop_words = list(stop_words)
        sym = np.array(merge_symbols, dtype=np.int64).reshape(-1, 2)
        made: list[bytes] = [bytes([b]) for b in range(256)]
        merges: list[tuple[bytes, bytes]] = []
        append_made, append_merge = made.append, merges.append
        with gc_paused():  # ~100k new objects, all kept: no collection can free any
            for left, right in sym.tolist():
                pair = (made[left], made[right])
                append_merge(pair)
                append_made(pair[0] + pair[1])
            self.merges = merges
            self._finish(made, sym, ids, special_tokens, batches, params)
        return self

    def _finish(self, made: list[bytes], sym_merges: np.ndarray,
                token_ids: Sequence[int] | None, special_tokens: dict[str, int] | None,
                batches: Sequence[Batch] | None, params: dict | None) -> None:
        """The attributes that follow from checked merges: ids, vocabulary, tables.

        ``made`` spells every symbol (256 bytes, then one per merge, in merge order).
        """
        stop = self.stop_words
        s = len(stop)
        self._sym_merges = sym_merges
        self._ids = _check_ids(token_ids, 256 + s + len(self.merges))
        self._identity_ids = bool(np.array_equal(self._ids, np.arange(self._ids.size)))
        self._sym_ids = np.concatenate([self._ids[:256], self._ids[256 + s:]])
        ids = self._ids.tolist()
        self._stop_ids = dict(zip(stop, ids[256:256 + s]))
        vocab: dict[int, bytes] = dict(zip(ids[:256], made[:256]))
        vocab.update(zip(ids[256:256 + s], [w.encode("utf-8") for w in stop]))
        vocab.update(zip(ids[256 + s:], made[256:]))
        self.vocab = vocab
        self.special_tokens: dict[str, int] = _check_specials(special_tokens, self.vocab,
                                                              self._stop_ids)
        for w, i in self.special_tokens.items():
            self.vocab[i] = w.encode("utf-8")
        self.batches: list[Batch] = list(batches) if batches is not None else []
        if params is not None and not isinstance(params, dict):
            raise ArgumentTypeError(f"params must be a dict, not {type(params).__name__}")
        self.params: dict = dict(params or {})
        self._encoder: TextEncoder | None = None  # built by _text_encoder on first use

    @cached_property
    def _table(self) -> np.ndarray:
        """The kernels' merge table (built on first use: it loads numba)."""
        from . import _encode

        return _encode.build_merge_table(self._sym_merges)

    @cached_property
    def _pair_ranks(self) -> dict[int, int]:
        """``left << 32 | right -> rank`` of the merges, for :mod:`.interpreted`."""
        return interpreted.pair_ranks(self._sym_merges)

    # ---- basics
    def __len__(self) -> int:
        return len(self.vocab)

    def __repr__(self) -> str:
        return (f"<BPEModel: {len(self.vocab)} tokens = 256 bytes + {len(self.stop_words)} "
                f"stop words + {len(self.merges)} merges>")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BPEModel):
            return NotImplemented
        return (self.merges == other.merges and self.stop_words == other.stop_words
                and self.pattern_regex == other.pattern_regex
                and np.array_equal(self._ids, other._ids)
                and self.special_tokens == other.special_tokens)

    __hash__ = None  # type: ignore[assignment]

    @property
    def merge_ids(self) -> list[tuple[int, int]]:
        """Each merge as the pair of ids it joins."""
        m = self._sym_ids
        return [(int(m[a]), int(m[b])) for a, b in self._sym_merges]

    def split(self, text: str) -> list[str]:
        """The chunks of ``text`` under the model's pattern (their concatenation is ``text``).

        >>> BPEModel([], pattern="gpt2").split("12345 it's")
        ['12345', ' it', "'s"]
        """
        return split_by(self.pattern, self._split, text)

    # ---- encoding
    def encode_chunks(self, chunks: Sequence[str], *, dropout: float | None = None,
                      seed: int | np.random.Generator | None = None) -> list[list[int]]:
        """Encode pretokenised chunks (one id list per chunk; stop words matched whole).

        ``dropout=`` and ``seed=`` are deprecated (a deterministic model stays
        deterministic): BPE-dropout is :class:`workbench.BPESampler`, whose kernel is
        :func:`dropout_chunks`.

        Raises
        ------
        BudgetError
            If the output could exceed the memory budget (checked before any work).
        """
        if dropout is not None or seed is not None:
            warn_deprecated("BPEModel.encode_chunks(chunks, dropout=..., seed=...)",
                            "workbench.bpe.dropout_chunks(model, chunks, dropout, seed), or "
                            "BPESampler(model.to_vocabulary(), model=model, dropout=..., "
                            "seed=...)")
            return dropout_chunks(self, chunks, 0.0 if dropout is None else dropout, seed)
        return self._encode_chunks(chunks, 0.0, None)

    def _encode_chunks(self, chunks: Sequence[str], p: float,
                       seed: int | np.random.Generator | None) -> list[list[int]]:
        """:meth:`encode_chunks` with BPE-dropout probability ``p`` (checked)."""
        if isinstance(chunks, (str, bytes)):
            raise ArgumentTypeError("chunks must be a sequence of str, not a single string")
        seed64 = np.uint64(base_seed(as_generator(seed))) if p > 0 else np.uint64(0)
        stop = self._stop_ids
        raw, where, out = [], [], [None] * len(chunks)
        for i, c in enumerate(chunks):
            if c in stop:
                out[i] = [stop[c]]
            else:
                raw.append(_text_bytes(c, f"chunk {i}"))
                where.append(i)
        if raw:
            total = sum(len(b) for b in raw)
            check_budget(total * BYTES_PER_INPUT_BYTE, f"encoding {total:,} bytes")
            longest = max(len(b) for b in raw)
            if p > 0 and longest > DROPOUT_MAX_CHUNK:
                raise BudgetError(f"BPE-dropout of a {longest:,}-byte chunk is quadratic in its "
                                  f"length; split chunks longer than {DROPOUT_MAX_CHUNK:,} bytes")
            sym = np.frombuffer(b"".join(raw), dtype=np.uint8).astype(np.int32)
            offsets = np.zeros(len(raw) + 1, dtype=np.int64)
            np.cumsum([len(b) for b in raw], out=offsets[1:])
            from . import _encode

            ids, offs = _encode.encode_chunks(sym, offsets, self._table, p, seed64)
            flat = self._sym_ids[ids].tolist()  # kernel symbols -> the model's ids
            bounds = offs.tolist()
            for j, i in enumerate(where):
                out[i] = flat[bounds[j]:bounds[j + 1]]
        return out  # type: ignore[return-value]

    def encode(self, text: str, *, dropout: float | None = None,
               seed: int | np.random.Generator | None = None) -> list[int]:
        """Token ids of ``text`` (the pattern's chunks, stop words whole, merges by rank).

        Under the GPT-4 or GPT-2 pattern it runs in one numba pass, streamed in windows
        (:mod:`workbench.bpe._textencode`), or for a short text in a process that has not
        loaded numba, in plain Python (:mod:`workbench.bpe.interpreted`, the same ids); a
        user regex splits the text first (:meth:`split`) and encodes the chunks. Raises
        ``ValueError`` on a lone surrogate.

        ``dropout=`` and ``seed=`` are deprecated: BPE-dropout of text is
        ``TextTokenizer(BPESampler(model.to_vocabulary(), model=model, dropout=p),
        p=1.0, pattern=model.pattern, seed=s)``.
        """
        if dropout is not None or seed is not None:
            warn_deprecated("BPEModel.encode(text, dropout=..., seed=...)", _TEXT_DROPOUT)
            return self._dropout_text(text, dropout, seed)
        if not isinstance(text, str):
            raise ArgumentTypeError(f"text must be str, not {type(text).__name__}")
        if self.pattern in NAMED_PATTERNS:
            if interpreted.applies(text):  # a small first call: plain Python, same ids
                return self._interpreted(text)
            return self._text_encoder().encode(text)
        _text_bytes(text)
        return [i for ids in self._encode_chunks(self.split(text), 0.0, None) for i in ids]

    def _dropout_text(self, text: str, dropout: float | None,
                      seed: int | np.random.Generator | None) -> list[int]:
        """The deprecated ``encode(text, dropout=, seed=)``: chunk ``i`` on stream ``i``."""
        p = check_probability(0.0 if dropout is None else dropout, "dropout")
        if not isinstance(text, str):
            raise ArgumentTypeError(f"text must be str, not {type(text).__name__}")
        _text_bytes(text)
        return [i for ids in self._encode_chunks(self.split(text), p, seed) for i in ids]

    def encode_array(self, text: str) -> np.ndarray:
        """Plain-BPE ids of ``text`` as an ``int32`` array (streamed: the memory is the ids
        plus one window, not a Python list).

        Raises ``ValueError`` on a lone surrogate.
        """
        if not isinstance(text, str):
            raise ArgumentTypeError(f"text must be str, not {type(text).__name__}")
        if self.pattern not in NAMED_PATTERNS:
            return np.asarray(self.encode(text), dtype=np.int32)
        return self._text_encoder().encode_array(text)

    @renamed_keywords(threads="num_threads")
    def encode_batch(self, texts: Sequence[str], *, num_threads: int | None = None
                     ) -> list[list[int]]:
        """Plain-BPE ids of many texts (one list per text), on ``num_threads`` threads.

        Parameters
        ----------
        texts : sequence of str
        num_threads : int, optional
            Threads encoding at once (default: the cores available to this process).
            Texts are joined into windows of about 262,144 characters; each window is
            one numba call that releases the GIL. A user-regex pattern encodes text by
            text on this thread.

        Raises
        ------
        ValueError
            On a lone surrogate (the message names the text).
        """
        texts = as_texts(texts)
        num_threads = default_threads(num_threads)
        if self.pattern not in NAMED_PATTERNS:
            return [self.encode(t) for t in texts]
        return self._text_encoder().encode_batch(list(texts), num_threads)

    def _interpreted(self, text: str) -> list[int]:
        """Plain-BPE ids of a short text by :mod:`.interpreted` (no numba)."""
        _text_bytes(text)  # a lone surrogate: the kernels' ValueError
        stop = {w.encode("utf-8"): s for s, w in enumerate(self.stop_words)}
        symbols = interpreted.encode_chunks(split_with_gaps(self._split, text),
                                            self._pair_ranks, stop)
        if self._identity_ids:
            return symbols
        ids = self._ids
        return [int(ids[x]) for x in symbols]

    def _text_encoder(self) -> TextEncoder:
        """The fused text encoder of this model (built on first use; GPT-4 / GPT-2 only)."""
        if self._encoder is None:
            from ._textencode import TextEncoder

            self._encoder = TextEncoder(self._sym_merges,
                                        [w.encode("utf-8") for w in self.stop_words],
                                        self.pattern,
                                        None if self._identity_ids else self._ids)
        return self._encoder

    def tokens(self, text: str, *, dropout: float | None = None,
               seed: int | np.random.Generator | None = None) -> list[bytes]:
        """The tokens of ``text`` as bytes (their concatenation is ``text``'s UTF-8).

        ``dropout=`` and ``seed=`` are deprecated, as for :meth:`encode`.
        """
        if dropout is not None or seed is not None:
            warn_deprecated("BPEModel.tokens(text, dropout=..., seed=...)", _TEXT_DROPOUT)
            return [self.vocab[i] for i in self._dropout_text(text, dropout, seed)]
        return [self.vocab[i] for i in self.encode(text)]

    @property
    def token_bytes(self) -> Mapping[int, bytes]:
        """Every id's bytes, special tokens included (read-only; ids may have gaps, as
        GPT-2's do not but a peer's may)."""
        return MappingProxyType(self.vocab)

    # ---- other views
    def to_vocabulary(self):
        """The model's tokens as a byte-level :class:`workbench.Vocabulary` (same ids).

        A string made both as a stop word and by merges (or by two merges) appears once,
        with the id of its first merge (the one usable inside words). Special tokens are
        left out. GRaMPa can sample over it: spell words with ``vocab.to_alphabet(" word")``.
        """
        from ..vocab import Vocabulary

        first: dict[str, int] = {}
        s = len(self.stop_words)
        n = len(self._ids)
        order = list(range(256)) + list(range(256 + s, n)) + list(range(256, 256 + s))
        for sym in order:
            i = int(self._ids[sym])
            first.setdefault(to_bytelevel(self.vocab[i]), i)
        items = sorted(first.items(), key=lambda kv: kv[1])
        return Vocabulary([t for t, _ in items], ids=[i for _, i in items],
                          alphabet="byte-level", name="bpe")

    # ---- files
    def save(self, path: str | os.PathLike) -> None:
        """Write the model as JSON (merges, stop words, batches, parameters;
        :mod:`workbench.bpe.modelfile`)."""
        ids = None if np.array_equal(self._ids, np.arange(len(self._ids))) else self._ids
        write_atomic(path, modelfile.model_json(
            pattern=self.pattern, params=self.params, stop_words=self.stop_words,
            merges=self.merges, merge_symbols=self._sym_merges,
            batches=[(b.size, b.searched) for b in self.batches],
            special_tokens=self.special_tokens, ids=ids), name="path")

    @classmethod
    def load(cls, path: str | os.PathLike) -> BPEModel:
        """Read a model written by :meth:`save`.

        Raises
        ------
        BPEModelFormatError
            A ``ValueError`` naming the file and, for a malformed part, its JSON path
            (``$.merges[3][0]``).
        """
        model, batches = modelfile.read_model(path, cls)
        first = 0
        for size, searched in batches:
            model.batches.append(Batch(size, searched, tuple(model.merges[first:first + size])))
            first += size
        return model

    # ---- peer formats (the conversions live in workbench.bpe.interop)
    @classmethod
    def from_gpt2(cls, encoder_json: str | os.PathLike | None = None,
                  vocab_bpe: str | os.PathLike | None = None) -> BPEModel:
        """GPT-2's tokenizer from its ``encoder.json`` and ``vocab.bpe`` (``.xz`` allowed).

        Ids, merges and the ``"gpt2"`` split are GPT-2's; ``<|endoftext|>`` (50256) is a
        special token. Without arguments the shipped copies in ``data/`` are read. Given an
        ``encoder_json`` and ``vocab_bpe=None``, the merges are recovered from its ids (the
        same 50,000 merges as ``vocab.bpe``, tested).

        >>> m = BPEModel.from_gpt2()
        >>> m.encode(" 12345 hello"), len(m)
        ([17031, 2231, 23748], 50257)
        """
        if encoder_json is None and vocab_bpe is None:  # the shipped files: cached, checked
            from . import gpt2cache

            return gpt2cache.shipped_model(cls)
        if encoder_json is None:
            encoder_json = interop.shipped_gpt2_files()[0]
        return cls(**interop.read_gpt2(encoder_json, vocab_bpe))

    @classmethod
    def from_tiktoken(cls, mergeable_ranks: dict[bytes, int], pattern: str = "gpt4",
                      special_tokens: dict[str, int] | None = None) -> BPEModel:
        """The model of ``tiktoken`` ranks (``Encoding._mergeable_ranks``) and its pattern.

        Ids are the ranks; merges are recovered from them (see :mod:`workbench.bpe.interop`,
        which also shows the encoders then agree on every text). ``ValueError`` if the ranks
        are not those of a BPE.
        """
        merges, ids = interop.recover_merges(mergeable_ranks)
        return cls(merges, pattern=pattern, ids=ids, special_tokens=special_tokens)

    @classmethod
    def from_greedtok(cls, model, pattern: str = "gpt4") -> BPEModel:
        """A GreedTok model as BPE, when Alg. 4 is a BPE (same ids, same tokens).

        Raises :class:`~workbench.bpe.interop.NotExpressibleError` (a ``ValueError``) when
        its ranked tokens are not BPE-consistent (see :mod:`workbench.bpe.interop`).
        """
        from ..greedtok import GreedTokModel

        if not isinstance(model, GreedTokModel):
            raise ArgumentTypeError(f"model must be a GreedTokModel, not {type(model).__name__}")
        return cls(interop.greedtok_merges(model.tokens), pattern=pattern)

    def to_tiktoken(self) -> tuple[dict[bytes, int], str]:
        """``(mergeable_ranks, pat_str)`` for ``tiktoken.Encoding`` (same ids on every text).

        Raises :class:`~workbench.bpe.interop.NotExpressibleError` for stop words, merge ids
        not increasing with merge order, or merges ``tiktoken``'s rule would make from
        other parts. User patterns that leave characters unmatched: ``tiktoken`` drops them.
        """
        return (interop.tiktoken_ranks(self.merges, self._ids.tolist(), self.stop_words),
                self.pattern_regex)

    def to_tiktoken_encoding(self, name: str = "workbench-bpe"):
        """A ``tiktoken.Encoding`` of this model (needs ``tiktoken``; special tokens kept)."""
        try:
            import tiktoken
        except ImportError:
            raise MissingDependencyError(
                "to_tiktoken_encoding needs the tiktoken package (pip install tiktoken); "
                "to_tiktoken() gives the ranks and pattern without it") from None
        ranks, pat = self.to_tiktoken()
        return tiktoken.Encoding(name=name, pat_str=pat, mergeable_ranks=ranks,
                                 special_tokens=dict(self.special_tokens))


def dropout_chunks(model: BPEModel, chunks: Sequence[str], dropout: float,
                   seed: int | np.random.Generator | None) -> list[list[int]]:
    """BPE-dropout (Provilkov et al., 2020) of pretokenised chunks: the kernel behind
    :class:`workbench.BPESampler` (a model stays deterministic; its dropout lives here).

    Chunk ``i`` draws from stream ``i`` of one base seed from ``seed``, so a chunk's ids do
    not depend on the other chunks' lengths or on threads. Stop words stay whole.

    Raises
    ------
    BudgetError
        If the output could exceed the memory budget, or with ``dropout > 0`` a chunk is
        longer than :data:`DROPOUT_MAX_CHUNK` bytes (checked before any work).

    >>> m = BPEModel([(b"a", b"b")])
    >>> dropout_chunks(m, ["ab", "ab"], 1.0, seed=0), dropout_chunks(m, ["ab"], 0.0, None)
    ([[97, 98], [97, 98]], [[256]])
    """
    if not isinstance(model, BPEModel):
        raise ArgumentTypeError(f"model must be a BPEModel, not {type(model).__name__}")
    return model._encode_chunks(chunks, check_probability(dropout, "dropout"), seed)
