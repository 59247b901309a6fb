"""The GreedTok model: ranked tokens, the exact encoder (App. D.2, Alg. 4), decoding, files.

Encoding a word (Alg. 4): list every occurrence of every chosen token in the word's UTF-8
bytes, sort them by (rank, position) and apply each one that is valid at its turn — pairs
``i-1`` and ``i+|T|-1`` unmarked; a later, longer token may swallow earlier smaller ones. The
marks give the segmentation; bytes covered by no token are single-byte tokens (byte fallback:
every byte is in the vocabulary). Because training applies each chosen token to every word
left to right in exactly this order, this reproduces the training-time segmentation of every
training word. (The ``greedtok`` package's C++ encoder does not always: it tells tokens
apart by rank only, so two adjacent ``ab`` look like one run and block ``abx`` in ``ababx``.)

Text goes through a pretokeniser first: the model's split ``pattern`` (``"gpt4"``, the
default, as for :class:`workbench.bpe.BPEModel` and the shipped chunk tables; ``"gpt2"``; or
a regex) cuts it into chunks, and each chunk is a word for Alg. 4. So the model speaks the
text-level contract (:class:`workbench.textlevel.TextLevelTokenizer`: ``encode(text)``,
``encode_batch``, ``encode_with_offsets``, ``tokenize``, ``decode``, ``token_bytes``), and
:meth:`GreedTokModel.encode_ids` is the word-level form (words given, no pretokeniser).

Ids: byte ``b`` is id ``b`` (0–255), the token of rank ``r`` is id ``256 + r``.

This module does not train (see :mod:`workbench.greedtok.training`).

Example
-------
>>> m = GreedTokModel([b"ab", b"abx", b"ba"])
>>> m.encode("ababx bay"), m.tokenize("ababx bay")
([256, 257, 32, 258, 121], ['ab', 'abx', 'Ġ', 'ba', 'y'])
>>> ids, offsets = m.encode_ids(["ababx", "bay"])
>>> ids.tolist(), offsets.tolist()
([256, 257, 258, 121], [0, 2, 4])
>>> m.decode(ids[:2])
'ababx'
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from types import MappingProxyType

import numba
import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError, public
from .._core.io import write_atomic
from .._core.jsonfile import read_json
from .._core.validate import check_budget, check_int
from ..bpe.split_patterns import resolve_pattern, split_by
from ..textlevel import TextLevelTokenizer, as_texts, default_threads
from ..vocab import bytes_to_unicode
from .candidates import TOKEN_BYTES_MAX, WORD_BYTES_MAX, ChildMap
from .encode_kernels import TokenTrie, build_trie, compact, encode_words

FORMAT = "workbench-greedtok"


def byte_alphabet() -> list[str]:
    """GPT-2's printable character for each byte value (the ``byte-level`` alphabet).

    Printable Latin-1 bytes map to themselves, the other 68 to ``chr(256)``, ``chr(257)``, …
    in increasing order (so the space is ``'Ġ'``), as in :class:`workbench.Vocabulary`.

    >>> byte_alphabet()[ord(" ")], byte_alphabet()[ord("a")]
    ('Ġ', 'a')
    """
    table = bytes_to_unicode()
    return [table[b] for b in range(256)]


# --------------------------------------------------------------------------- the model
def _as_word_bytes(word: object, what: str = "word") -> bytes:
    if isinstance(word, str):
        try:
            raw = word.encode("utf-8")
        except UnicodeEncodeError as err:
            raise InvalidValueError(f"{what} {word!r:.40} is not valid text: "
                                    f"{err.reason}") from None
    elif isinstance(word, (bytes, bytearray)):
        raw = bytes(word)
    else:
        raise ArgumentTypeError(f"{what} must be a str (or bytes), not {type(word).__name__}")
    if len(raw) > WORD_BYTES_MAX:
        raise InvalidValueError(f"{what} has {len(raw)} bytes; the encoder supports words of at "
                                f"most {WORD_BYTES_MAX} bytes")
    return raw


@public
class GreedTokModelFormatError(InvalidValueError):
    """A malformed GreedTok model file; the message names the file and the JSON path."""


class GreedTokModel(TextLevelTokenizer):
    """A GreedTok tokeniser: ranked tokens (``bytes``) plus the 256 single bytes.

    Parameters
    ----------
    tokens : sequence of bytes
        The chosen tokens in selection order (rank 0 first); each 2…255 bytes, distinct.
    gains : sequence of int, optional
        Each step's count-weighted gain (as returned by training).
    max_token_length : int, optional
        The training limit (kept for reference; defaults to the longest token).
    stats : dict, optional
        Training statistics (words, candidates, total_bytes, cover, seconds).
    pattern : str
        The pretokeniser that cuts text into words: ``"gpt4"`` (default), ``"gpt2"`` or a
        regex (:mod:`workbench.bpe.split_patterns`).

    Attributes
    ----------
    tokens : list of bytes
    gains : list of int or None
    pattern : str
    """

    def __init__(self, tokens: Sequence[bytes], *, gains: Sequence[int] | None = None,
                 max_token_length: int | None = None, stats: dict | None = None,
                 pattern: str = "gpt4") -> None:
        self.pattern, self.pattern_regex, self._split = resolve_pattern(pattern)
        if isinstance(tokens, (str, bytes)):
            raise ArgumentTypeError("tokens must be a sequence of bytes, not a single string")
        toks = list(tokens)
        seen: dict[bytes, int] = {}
        for r, tok in enumerate(toks):
            if not isinstance(tok, bytes):
                raise ArgumentTypeError(f"token {r} is {type(tok).__name__}, not bytes")
            if not 2 <= len(tok) <= TOKEN_BYTES_MAX:
                raise InvalidValueError(f"token {r} ({tok!r:.30}) must have 2..{TOKEN_BYTES_MAX} "
                                        "bytes")
            if tok in seen:
                raise InvalidValueError(f"token {tok!r} repeated at ranks {seen[tok]} and {r}")
            seen[tok] = r
        if gains is not None:
            gains = [check_int(g, "every gain", minimum=0) for g in gains]
            if len(gains) != len(toks):
                raise InvalidValueError(f"got {len(gains)} gains for {len(toks)} tokens")
        longest = max((len(t) for t in toks), default=2)
        if max_token_length is None:
            max_token_length = longest
        max_token_length = check_int(max_token_length, "max_token_length", minimum=longest)
        self.tokens: list[bytes] = toks
        self.gains: list[int] | None = gains
        self.max_token_length = max_token_length
        self.stats = dict(stats or {})
        self._rank = seen
        self._compile()

    def _compile(self) -> None:
        toks = self.tokens
        tok_buf = np.frombuffer(b"".join(toks) or b"\0", dtype=np.uint8)
        tok_off = np.zeros(len(toks) + 1, dtype=np.int64)
        np.cumsum([len(t) for t in toks], out=tok_off[1:])
        cap = 256 + int(tok_off[-1])
        bits = max(4, int(np.ceil(np.log2(2 * cap))))
        children = ChildMap(np.full(1 << bits, -1, dtype=np.int64),
                            np.zeros(1 << bits, dtype=np.int32), 64 - bits)
        node_rank = np.full(cap, -1, dtype=np.int64)
        n_nodes = build_trie(tok_buf, tok_off, children.keys, children.vals, children.shift,
                              node_rank)
        self._trie = TokenTrie(*children, node_rank[:n_nodes].copy(),
                               np.diff(tok_off).astype(np.int64),
                               max((len(t) for t in toks), default=2))

    # ---- sizes and ids
    def __len__(self) -> int:
        """Vocabulary size: 256 bytes plus the chosen tokens."""
        return 256 + len(self.tokens)

    def __repr__(self) -> str:
        return f"GreedTokModel({len(self.tokens)} tokens + 256 bytes)"

    def id_of(self, token: bytes) -> int:
        """Id of a token or single byte (``KeyError`` if not in the vocabulary)."""
        if isinstance(token, bytes) and len(token) == 1:
            return token[0]
        return 256 + self._rank[token]

    def token_of(self, id_: int) -> bytes:
        """The bytes of id ``id_``."""
        id_ = check_int(id_, "id", minimum=0, maximum=len(self) - 1)
        return bytes([id_]) if id_ < 256 else self.tokens[id_ - 256]

    # ---- encoding
    def encode_ids(self, words: Iterable[str] | str) -> tuple[np.ndarray, np.ndarray]:
        """Encode many words at once (numba, parallel over words).

        Returns
        -------
        ids : numpy.ndarray of int32
            All words' token ids, concatenated.
        offsets : numpy.ndarray of int64
            Word ``w``'s ids are ``ids[offsets[w]:offsets[w + 1]]``.

        Raises
        ------
        BudgetError
            If the arrays for these words would exceed the memory budget (before allocating).
        """
        if isinstance(words, (str, bytes)):
            words = [words]
        raws = [_as_word_bytes(w) for w in words]
        total = sum(len(r) for r in raws)
        check_budget(total * 24 + len(raws) * 24, f"encoding {len(raws):,} words "
                     f"({total:,} bytes)")
        woff = np.zeros(len(raws) + 1, dtype=np.int64)
        np.cumsum([len(r) for r in raws], out=woff[1:])
        buf = np.frombuffer(b"".join(raws) + b"\0", dtype=np.uint8)
        out = np.empty(int(woff[-1]) + 1, dtype=np.int32)
        n_tok = np.zeros(len(raws), dtype=np.int64)
        if raws:
            encode_words(buf, woff, self._trie, out, n_tok)
        offsets = np.zeros(len(raws) + 1, dtype=np.int64)
        ids = np.empty(int(n_tok.sum()), dtype=np.int32)
        compact(out, woff, n_tok, ids, offsets)
        return ids, offsets

    def split(self, text: str) -> list[str]:
        """The chunks (words) of ``text`` under the model's pattern; they concatenate to it."""
        return split_by(self.pattern, self._split, text)

    def encode(self, text: str) -> list[int]:
        """The token ids of ``text``: its chunks (:meth:`split`), each by Algorithm 4.

        A chunk longer than 65,535 bytes raises :class:`workbench.InvalidValueError`.

        >>> GreedTokModel([b"ay", b"aya"]).encode("ayaya")
        [256, 257]
        """
        ids, _ = self.encode_ids(self.split(text))
        return ids.tolist()

    def encode_batch(self, texts: Sequence[str], *, num_threads: int | None = None
                     ) -> list[list[int]]:
        """One id list per text: every text's chunks in one parallel kernel call over words,
        on at most ``num_threads`` threads (default: the cores available)."""
        texts = as_texts(texts)
        threads = min(default_threads(num_threads), numba.config.NUMBA_NUM_THREADS)
        chunks = [self.split(t) for t in texts]
        previous = numba.get_num_threads()
        numba.set_num_threads(threads)  # thread-local: other threads keep their setting
        try:
            ids, offsets = self.encode_ids([c for cs in chunks for c in cs])
        finally:
            numba.set_num_threads(previous)
        flat, cuts = ids.tolist(), offsets.tolist()
        out, first = [], 0
        for cs in chunks:
            out.append(flat[cuts[first]:cuts[first + len(cs)]])
            first += len(cs)
        return out

    def segment(self, word: str) -> list[bytes]:
        """One word's tokens by Algorithm 4, as ``bytes`` (no pretokeniser: the word whole).

        >>> GreedTokModel([b"ay", b"aya"]).segment("ayaya")
        [b'ay', b'aya']
        """
        if not isinstance(word, str):
            raise ArgumentTypeError(f"word must be str, not {type(word).__name__}")
        ids, _ = self.encode_ids([word])
        table = self.token_bytes
        return [table[i] for i in ids.tolist()]

    @property
    def token_bytes(self) -> Mapping[int, bytes]:  # type: ignore[override]
        """Every id's bytes: the 256 single bytes, then the tokens by rank (read-only)."""
        return MappingProxyType(self._token_table)

    @cached_property
    def _token_table(self) -> dict[int, bytes]:
        return {**{b: bytes([b]) for b in range(256)},
                **{256 + r: t for r, t in enumerate(self.tokens)}}

    def decode(self, tokens: Iterable[int | bytes], errors: str = "replace") -> str:
        """Concatenate tokens (ids or ``bytes``) and decode the bytes as UTF-8 with ``errors``.

        ``errors="replace"`` by default, as every ``decode`` of the package (and tiktoken's):
        a cut UTF-8 sequence shows ``\ufffd``; ``errors="strict"`` raises instead.

        >>> GreedTokModel([b"h\\xc3"]).decode([256, 0xA9])
        'hé'
        """
        parts = []
        for t in tokens:
            if isinstance(t, bytes):
                parts.append(t)
            else:
                parts.append(self.token_of(t))
        return b"".join(parts).decode("utf-8", errors=errors)

    # ---- files and vocabularies
    def save(self, path: str | os.PathLike) -> None:
        """Write the model as JSON (tokens hex-encoded, in rank order).

        ``workbench.Vocabulary.load`` reads the file as the model's vocabulary (ids as here).
        A HuggingFace ``tokenizer.json`` exists only when Alg. 4 is a BPE
        (``workbench.bpe.export_hf`` writes it, or says why not).
        """
        doc = {"format": FORMAT, "version": 1, "max_token_length": self.max_token_length,
               "pattern": self.pattern, "tokens": [t.hex() for t in self.tokens],
               "gains": self.gains, "stats": self.stats}
        write_atomic(path, json.dumps(doc, indent=1), name="path")

    @classmethod
    def load(cls, path: str | os.PathLike) -> GreedTokModel:
        """Read a model written by :meth:`save`.

        Raises
        ------
        GreedTokModelFormatError
            A ``ValueError`` naming the file and, for a malformed part, its JSON path.
        """
        root = read_json(path, what="GreedTok model", error=GreedTokModelFormatError)
        if root.get("format", None).value != FORMAT:
            root.fail(f"is not a {FORMAT} file (no \"format\": \"{FORMAT}\")")
        version = root.get("version", 1)
        if version.value != 1 or type(version.value) is not int:
            version.fail(f"= {version.value!r:.20}: format version {version.value!r:.20} is "
                         "not supported (this code reads 1)")
        tokens = []
        for t in root.get("tokens").list():
            with t.blame():
                tokens.append(bytes.fromhex(t.str()))
        gains = root.get("gains", None).optional()
        if gains is not None:
            gains = [g.int(minimum=0) for g in gains.list()]
        stats = root.get("stats", None).optional()
        longest = root.get("max_token_length")
        pattern = root.get("pattern", "gpt4")  # files before the pattern was saved: GPT-4's
        with pattern.blame():
            pattern_text = pattern.str()
            resolve_pattern(pattern_text)
        with root.blame():
            return cls(tokens, gains=gains, max_token_length=longest.int(minimum=2),
                       stats=None if stats is None else stats.dict(), pattern=pattern_text)

    def to_vocabulary(self):
        """A :class:`workbench.Vocabulary` of the 256 bytes and the tokens, ids as here.

        It is spelled in the ``byte-level`` alphabet (GPT-2's printable byte characters), so
        ``vocab.to_alphabet(word)`` gives the word in the vocabulary's characters, and e.g.
        :class:`workbench.Grampa` can sample segmentations over it.

        >>> v = GreedTokModel([b" t", b"he"]).to_vocabulary()
        >>> len(v), v.id_of("Ġt"), v.to_alphabet(" the")
        (258, 256, 'Ġthe')
        """
        from ..vocab import Vocabulary

        chars = byte_alphabet()
        spelled = chars + ["".join(chars[b] for b in t) for t in self.tokens]
        return Vocabulary(spelled, alphabet="byte-level", name=f"greedtok-{len(self.tokens)}")
