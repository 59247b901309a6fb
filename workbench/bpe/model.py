"""A trained byte-level BPE model: merges, vocabulary, encode/decode, dropout, save/load.

Ids: ``0..255`` are the bytes, then one id per stop word (whole-chunk tokens, §2.1 of
BatchBPE), then one id per merge in merge order. Text is cut into chunks by the GPT-4
pattern (:mod:`workbench.bpe.pattern`); a chunk equal to a stop word is that token,
every other chunk is encoded from its UTF-8 bytes by applying merges in rank order
(:mod:`workbench.bpe._encode`). Encoding is lossless for any string that has UTF-8 bytes;
a lone surrogate raises ``ValueError``.

Files: :meth:`BPEModel.save` writes JSON (tokens spelled in GPT-2's byte-level alphabet,
merges as id pairs, stop words as text, batches); :meth:`BPEModel.load` reads it back.
HuggingFace export lives in :mod:`workbench.bpe.export`.

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

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .._core.rng import as_generator, base_seed
from .._core.validate import BudgetError, check_budget, check_int, check_probability
from . import _encode
from ._textencode import TextEncoder
from .bytelevel import from_bytelevel, to_bytelevel
from .split import split

FORMAT = "workbench-bpe"

DROPOUT_MAX_CHUNK = 1 << 14
"""Longest chunk (bytes) BPE-dropout encodes: its cost is quadratic in the chunk length
(fresh draws at every merge step), ~1 s at this length. Plain BPE has no such limit."""

BYTES_PER_INPUT_BYTE = 64
"""Memory estimate of :meth:`BPEModel.encode_chunks` per input byte (arrays and id lists)."""


class Batch(NamedTuple):
    """One training batch: merges made (``size``), pairs examined, and the merges."""

    size: int
    searched: int
    merges: tuple[tuple[bytes, bytes], ...]


class BPEModelFormatError(ValueError):
    """A malformed model file; the message names the file."""


def _text_bytes(text: str, what: str = "text") -> bytes:
    if not isinstance(text, str):
        raise TypeError(f"{what} must be str, not {type(text).__name__}")
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise ValueError(f"{what} holds a lone surrogate U+{ord(text[err.start]):04X} at "
                         f"position {err.start}; it has no UTF-8 bytes (encode it as "
                         f"text.encode('utf-8', 'surrogatepass') upstream or remove it)"
                         ) from None


class BPEModel:
    """A byte-level BPE model (see the module docstring for ids and encoding).

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
    """

    def __init__(self, merges: Iterable[tuple[bytes, bytes]], stop_words: Iterable[str] = (),
                 *, batches: Sequence[Batch] | None = None, params: dict | None = None,
                 merge_symbols: Sequence[tuple[int, int]] | None = None) -> None:
        stop = list(stop_words)
        for w in stop:
            _text_bytes(w, "stop word")
            if not w:
                raise ValueError("a stop word cannot be empty")
        if len(set(stop)) != len(stop):
            raise ValueError("stop words must be distinct")
        self.stop_words: list[str] = stop
        self._stop_ids = {w: 256 + i for i, w in enumerate(stop)}
        latest: dict[bytes, int] = {bytes([b]): b for b in range(256)}  # bytes -> symbol
        made: list[bytes] = [bytes([b]) for b in range(256)]  # symbol -> bytes
        given = None if merge_symbols is None else [tuple(map(int, p)) for p in merge_symbols]
        sym_pairs = []
        seen_pairs = set()
        self.merges: list[tuple[bytes, bytes]] = []
        for k, pair in enumerate(merges):
            if (not isinstance(pair, tuple) or len(pair) != 2
                    or not all(isinstance(x, bytes) for x in pair)):
                raise TypeError(f"merge {k} must be a pair of bytes, got {pair!r:.60}")
            left, right = pair
            if left not in latest or right not in latest:
                raise ValueError(f"merge {k} {pair!r:.60} uses a token that no earlier merge "
                                 "made")
            ids = (latest[left], latest[right])
            if given is not None:
                if k >= len(given) or not all(0 <= x < 256 + k for x in given[k]) or (
                        made[given[k][0]], made[given[k][1]]) != (left, right):
                    raise ValueError(f"merge_symbols[{k}] does not spell merge {k}")
                ids = given[k]
            if ids in seen_pairs:
                raise ValueError(f"merge {k} {pair!r:.60} repeats an earlier merge")
            seen_pairs.add(ids)
            sym_pairs.append(ids)
            latest[left + right] = 256 + k
            made.append(left + right)
            self.merges.append((left, right))
        if given is not None and len(given) != len(self.merges):
            raise ValueError(f"got {len(given)} merge_symbols for {len(self.merges)} merges")
        self._sym_merges = np.array(sym_pairs, dtype=np.int64).reshape(-1, 2)
        s = len(stop)
        self.vocab: dict[int, bytes] = {b: bytes([b]) for b in range(256)}
        for w, i in self._stop_ids.items():
            self.vocab[i] = w.encode("utf-8")
        for k, (left, right) in enumerate(self.merges):
            self.vocab[256 + s + k] = left + right
        self.batches: list[Batch] = list(batches) if batches is not None else []
        self.params: dict = dict(params or {})
        self._table = _encode.build_merge_table(self._sym_merges)
        self._encoder: TextEncoder | None = None  # built by _text_encoder on first use

    # ---- basics
    def __len__(self) -> int:
        return len(self.vocab)

    def __repr__(self) -> str:
        return (f"<BPEModel: {len(self.vocab)} tokens = 256 bytes + {len(self.stop_words)} "
                f"stop words + {len(self.merges)} merges>")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BPEModel):
            return NotImplemented
        return self.merges == other.merges and self.stop_words == other.stop_words

    __hash__ = None  # type: ignore[assignment]

    @property
    def merge_ids(self) -> list[tuple[int, int]]:
        """Each merge as the pair of ids it joins."""
        s = len(self.stop_words)
        return [(int(a) + (s if a >= 256 else 0), int(b) + (s if b >= 256 else 0))
                for a, b in self._sym_merges]

    # ---- encoding
    def encode_chunks(self, chunks: Sequence[str], *, dropout: float = 0.0,
                      seed: int | np.random.Generator | None = None) -> list[list[int]]:
        """Encode pretokenised chunks (one id list per chunk; stop words matched whole).

        Parameters
        ----------
        chunks : sequence of str
        dropout : float
            BPE-dropout probability ``p`` in ``[0, 1]``.
        seed : int or numpy.random.Generator, optional
            Randomness for dropout (chunk ``i`` uses stream ``i`` of the seed).

        Raises
        ------
        BudgetError
            If the output could exceed the memory budget, or with ``dropout > 0`` a chunk is
            longer than :data:`DROPOUT_MAX_CHUNK` bytes (checked before any work).
        """
        p = check_probability(dropout, "dropout")
        if isinstance(chunks, (str, bytes)):
            raise TypeError("chunks must be a sequence of str, not a single string")
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
            ids, offs = _encode.encode_chunks(sym, offsets, self._table, p, seed64)
            ids = ids.astype(np.int64)
            ids[ids >= 256] += len(self.stop_words)
            flat = ids.tolist()
            bounds = offs.tolist()
            for j, i in enumerate(where):
                out[i] = flat[bounds[j]:bounds[j + 1]]
        return out  # type: ignore[return-value]

    def encode(self, text: str, *, dropout: float = 0.0,
               seed: int | np.random.Generator | None = None) -> list[int]:
        """Token ids of ``text`` (GPT-4 chunks, stop words whole, merges by rank).

        Plain BPE (``dropout=0``) runs in one numba pass, streamed in windows
        (:mod:`workbench.bpe._textencode`); BPE-dropout splits with the pretokeniser and
        encodes the chunks with :meth:`encode_chunks`. Raises ``ValueError`` on a lone
        surrogate.
        """
        p = check_probability(dropout, "dropout")
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        if p == 0.0:
            return self._text_encoder().encode(text)
        _text_bytes(text)
        return [i for ids in self.encode_chunks(split(text, "gpt4"), dropout=dropout,
                                                seed=seed) for i in ids]

    def encode_array(self, text: str) -> np.ndarray:
        """Plain-BPE ids of ``text`` as an ``int32`` array (streamed: the memory is the ids
        plus one window, not a Python list).

        Raises ``ValueError`` on a lone surrogate.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        return self._text_encoder().encode_array(text)

    def encode_batch(self, texts: Sequence[str], *, threads: int | None = None
                     ) -> list[list[int]]:
        """Plain-BPE ids of many texts (one list per text), on ``threads`` threads.

        Parameters
        ----------
        texts : sequence of str
        threads : int, optional
            Threads encoding at once (default: the cores available to this process).
            Texts are joined into windows of about 262,144 characters; each window is
            one numba call that releases the GIL.

        Raises
        ------
        ValueError
            On a lone surrogate (the message names the text).
        """
        if isinstance(texts, (str, bytes)) or not isinstance(texts, Sequence):
            raise TypeError("texts must be a sequence of str, not "
                            f"{type(texts).__name__}")
        for k, t in enumerate(texts):
            if not isinstance(t, str):
                raise TypeError(f"texts[{k}] must be str, not {type(t).__name__}")
        if threads is None:
            try:
                threads = len(os.sched_getaffinity(0))
            except AttributeError:  # not on Linux
                threads = os.cpu_count() or 1
        threads = check_int(threads, "threads", minimum=1)
        return self._text_encoder().encode_batch(list(texts), threads)

    def _text_encoder(self) -> TextEncoder:
        """The fused text encoder of this model (built on first use)."""
        if self._encoder is None:
            self._encoder = TextEncoder(self._sym_merges,
                                        [w.encode("utf-8") for w in self.stop_words], "gpt4")
        return self._encoder

    def tokens(self, text: str, *, dropout: float = 0.0,
               seed: int | np.random.Generator | None = None) -> list[bytes]:
        """The tokens of ``text`` as bytes (their concatenation is ``text``'s UTF-8)."""
        return [self.vocab[i] for i in self.encode(text, dropout=dropout, seed=seed)]

    def decode(self, ids: Iterable[int], errors: str = "replace") -> str:
        """Text of a sequence of ids (bytes decoded as UTF-8 with ``errors``)."""
        try:
            raw = b"".join(self.vocab[int(i)] for i in ids)
        except KeyError as err:
            raise ValueError(f"id {err.args[0]} is not in the vocabulary (0.."
                             f"{len(self.vocab) - 1})") from None
        return raw.decode("utf-8", errors=errors)

    # ---- other views
    def to_vocabulary(self):
        """The model's tokens as a byte-level :class:`workbench.Vocabulary` (same ids).

        A string made both as a stop word and by merges (or by two merges) appears once,
        with its smallest merge-made id (the one usable inside words). GRaMPa can sample
        over it: spell words with ``vocab.to_alphabet(" word")``.
        """
        from .. import Vocabulary

        first: dict[str, int] = {}
        s = len(self.stop_words)
        order = list(range(256)) + list(range(256 + s, len(self.vocab))) + list(range(256, 256 + s))
        for i in order:
            first.setdefault(to_bytelevel(self.vocab[i]), i)
        items = sorted(first.items(), key=lambda kv: kv[1])
        return Vocabulary([t for t, _ in items], ids=[i for _, i in items],
                          alphabet="byte-level", name="bpe")

    # ---- files
    def save(self, path: str | os.PathLike) -> None:
        """Write the model as JSON (merges, stop words, batches, parameters)."""
        doc = {
            "format": FORMAT,
            "version": 1,
            "params": self.params,
            "stop_words": self.stop_words,
            "merges": [[to_bytelevel(a), to_bytelevel(b)] for a, b in self.merges],
            "merge_symbols": self._sym_merges.tolist(),
            "batches": [[b.size, b.searched] for b in self.batches],
        }
        Path(path).write_text(json.dumps(doc, ensure_ascii=False, indent=0), encoding="utf-8")

    @classmethod
    def load(cls, path: str | os.PathLike) -> BPEModel:
        """Read a model written by :meth:`save`; ``BPEModelFormatError`` names the file."""
        p = Path(path)
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise BPEModelFormatError(f"{p}: cannot read a BPE model ({err})") from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise BPEModelFormatError(f"{p}: not a {FORMAT} file")
        try:
            merges = [(from_bytelevel(a), from_bytelevel(b)) for a, b in doc["merges"]]
            model = cls(merges, doc["stop_words"], params=doc.get("params"),
                        merge_symbols=doc.get("merge_symbols"))
            batches, first = [], 0
            for size, searched in doc.get("batches", []):
                batches.append(Batch(int(size), int(searched),
                                     tuple(model.merges[first:first + size])))
                first += size
            model.batches = batches
        except (KeyError, TypeError, ValueError) as err:
            raise BPEModelFormatError(f"{p}: malformed BPE model ({err})") from None
        return model
