"""Vocabulary file formats: plain token lists, JSON (ours, a saved GreedTok model, GPT-2's
``encoder.json``, HF ``tokenizer.json``), SentencePiece ``.model`` files (read by a small
protobuf reader, so ``sentencepiece`` is not needed), SentencePiece ``.vocab`` lists
(``piece<TAB>score``) and tiktoken rank files (``base64 rank``).

Every reader returns the keyword arguments of :class:`.vocabulary.Vocabulary` (tokens, ids,
alphabet, name, scores) or raises :class:`VocabularyFormatError` naming the file and the
place (line, or JSON path). A format this package cannot honour as a segmentation
vocabulary (HF WordPiece, whose ``##`` pieces exist only inside a word; BPE with a
continuing-subword prefix or end-of-word suffix) is refused by name, never read as garbage.
Files are checked before reading: a regular file (not ``/dev/zero``), within the size budget.

This module does not write files (``Vocabulary.save`` writes the JSON form) and does not
spell words.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
import stat
import struct
from collections.abc import Iterator
from pathlib import Path

from .alphabets import SP_SPACE, bytes_to_unicode

#: The largest vocabulary file read (bytes): far above any real vocabulary (GPT-4's
#: tiktoken file is 1.7 MB, a 256k SentencePiece model ~5 MB).
MAX_VOCABULARY_FILE = 1 << 30
_TIKTOKEN_LINE = re.compile(r"[A-Za-z0-9+/]+={0,2} [0-9]+")
_SP_CONTROL = frozenset({"<unk>", "<s>", "</s>", "<pad>", "<mask>", "<cls>", "<sep>"})
_BOM = "\ufeff"

_BYTE_PIECE = re.compile(r"<0x[0-9A-Fa-f]{2}>")


class VocabularyFormatError(ValueError):
    """A vocabulary file is unreadable or malformed; the message names the path (and line)."""


def _text(p: Path, raw: bytes) -> str:
    """UTF-8 text of a vocabulary file, without a byte-order mark."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise VocabularyFormatError(f"{p}, line {line}: not UTF-8 text ({err.reason} at byte "
                                    f"{err.start})") from None
    return text.removeprefix(_BOM)


def _lines(p: Path, text: str) -> list[str]:
    """Lines split at LF, CRLF or (for an old-Mac file with no LF at all) CR."""
    if "\n" not in text and "\r" in text:
        lines = text.split("\r")
    else:
        lines = [line.removesuffix("\r") for line in text.split("\n")]
        for lineno, line in enumerate(lines, start=1):
            if "\r" in line:
                raise VocabularyFormatError(f"{p}, line {lineno}: carriage return inside a "
                                            f"token (mixed line endings?)")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise VocabularyFormatError(f"{p}: the file holds no tokens (empty vocabulary)")
    return lines


def _load_plain(p: Path, raw: bytes) -> dict:
    lines = _lines(p, _text(p, raw))
    if all(_TIKTOKEN_LINE.fullmatch(line) for line in lines):
        return _from_tiktoken(p, lines)
    if p.suffix == ".vocab" or all(_is_sp_vocab_line(line) for line in lines):
        return _from_sp_vocab(p, lines)
    tokens = []
    seen: dict[str, int] = {}
    for lineno, tok in enumerate(lines, start=1):
        if tok == "":
            raise VocabularyFormatError(f"{p}, line {lineno}: empty token")
        if tok in seen:
            raise VocabularyFormatError(
                f"{p}, line {lineno}: duplicate token {tok!r} (first on line {seen[tok]})"
            )
        seen[tok] = lineno
        tokens.append(tok)
    return dict(tokens=tokens, name=p.stem)


def _is_sp_vocab_line(line: str) -> bool:
    piece, tab, score = line.rpartition("\t")
    if not tab or not piece:
        return False
    try:
        float(score)
    except ValueError:
        return False
    return True


def _from_sp_vocab(p: Path, lines: list[str]) -> dict:
    """SentencePiece's ``.vocab``: ``piece<TAB>score`` per line, id = line number - 1."""
    tokens, ids, scores = [], [], []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(lines, start=1):
        piece, tab, score = line.rpartition("\t")
        try:
            value = float(score) if tab else math.nan
        except ValueError:
            value = math.nan
        if not tab or not piece or not math.isfinite(value):
            raise VocabularyFormatError(f"{p}, line {lineno}: expected 'piece<TAB>score' with a "
                                        f"finite score (SentencePiece .vocab), got {line!r:.60}")
        if piece in _SP_CONTROL or _BYTE_PIECE.fullmatch(piece):
            continue  # control and byte-fallback pieces are not text
        if piece in seen:
            raise VocabularyFormatError(f"{p}, line {lineno}: duplicate piece {piece!r} (first "
                                        f"on line {seen[piece]})")
        seen[piece] = lineno
        tokens.append(piece)
        ids.append(lineno - 1)
        scores.append(value)
    if not tokens:
        raise VocabularyFormatError(f"{p}: no text pieces in this SentencePiece .vocab")
    return dict(tokens=tokens, ids=ids, alphabet="sentencepiece", name=p.stem, scores=scores)


def _from_tiktoken(p: Path, lines: list[str]) -> dict:
    """A tiktoken rank file: ``base64(token bytes) rank``; tokens spelled byte-level."""
    to_unicode = bytes_to_unicode()
    tokens, ids = [], []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(lines, start=1):
        encoded, rank = line.split(" ")
        try:
            raw = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError) as err:
            raise VocabularyFormatError(f"{p}, line {lineno}: bad base64 token ({err})") from None
        token = "".join(to_unicode[b] for b in raw)
        if not token:
            raise VocabularyFormatError(f"{p}, line {lineno}: empty token")
        if token in seen:
            raise VocabularyFormatError(f"{p}, line {lineno}: duplicate token (first on line "
                                        f"{seen[token]})")
        seen[token] = lineno
        tokens.append(token)
        ids.append(int(rank))
    return dict(tokens=tokens, ids=ids, alphabet="byte-level", name=p.stem)


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


class _DuplicateKey(ValueError):
    pass


def _load_json(p: Path, raw: bytes) -> dict:
    text = _text(p, raw)
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicate_keys,
                         parse_constant=_refuse_constant)
    except _DuplicateKey as err:
        raise VocabularyFormatError(f"{p}: key {err.args[0]!r:.60} appears twice in one JSON "
                                    f"object") from None
    except json.JSONDecodeError as err:
        raise VocabularyFormatError(f"{p}: malformed JSON at line {err.lineno}, column "
                                    f"{err.colno} ({err.msg})") from None
    except ValueError as err:  # NaN / Infinity constants
        raise VocabularyFormatError(f"{p}: {err}") from None
    except RecursionError:
        raise VocabularyFormatError(f"{p}: JSON nested too deeply to be a vocabulary") from None
    if isinstance(doc, dict) and doc.get("format") == "workbench-vocabulary":
        return _from_workbench(p, doc)
    if isinstance(doc, dict) and doc.get("format") == "workbench-greedtok":
        return _from_greedtok(doc, p)
    if isinstance(doc, dict) and isinstance(doc.get("model"), dict):
        return _from_hf_tokenizer(p, doc)
    if isinstance(doc, dict) and doc and all(type(v) is int for v in doc.values()):
        return dict(tokens=list(doc.keys()), ids=list(doc.values()), alphabet="byte-level",
                    name=p.stem)
    found = type(doc).__name__ if not isinstance(doc, dict) else (
        "an empty object" if not doc else f"an object with keys {sorted(doc)[:5]}")
    raise VocabularyFormatError(
        f"{p}: JSON is neither a tokenizer.json, an encoder.json nor a workbench vocabulary "
        f"(found {found})")


def _refuse_constant(name: str) -> None:
    raise ValueError(f"JSON constant {name} is not a number a vocabulary may hold")


def _from_workbench(p: Path, doc: dict) -> dict:
    """This package's own JSON (``Vocabulary.save``), version 1."""
    if doc.get("version") != 1:
        raise VocabularyFormatError(f"{p}: invalid vocabulary: workbench-vocabulary version "
                                    f"{doc.get('version')!r} is not supported (this package "
                                    f"reads version 1)")
    for key, kind in (("tokens", list), ("ids", list), ("alphabet", str)):
        if not isinstance(doc.get(key), kind):
            raise VocabularyFormatError(f"{p}: invalid vocabulary: $.{key} must be a "
                                        f"{kind.__name__}, got {type(doc.get(key)).__name__}")
    if doc.get("scores") is not None and not isinstance(doc["scores"], list):
        raise VocabularyFormatError(f"{p}: invalid vocabulary: $.scores must be a list or null")
    return dict(tokens=doc["tokens"], ids=doc["ids"], alphabet=doc["alphabet"],
                name=doc.get("name") if isinstance(doc.get("name"), str) else p.stem,
                scores=doc.get("scores"))


def _from_greedtok(doc: dict, p: Path) -> dict:
    """A saved GreedTok model (``GreedTokModel.save``): the 256 bytes (ids 0-255) and its
    hex tokens (id ``256 + rank``), spelled in the byte-level alphabet."""
    table = bytes_to_unicode()
    chars = [table[b] for b in range(256)]
    tokens = chars + ["".join(chars[b] for b in bytes.fromhex(t)) for t in doc["tokens"]]
    return dict(tokens=tokens, ids=list(range(len(tokens))), alphabet="byte-level",
                name=f"greedtok-{len(doc['tokens'])}")


def _from_hf_tokenizer(p: Path, doc: dict) -> dict:
    model = doc["model"]
    kind = model.get("type")
    if kind == "WordPiece" or model.get("continuing_subword_prefix") or \
            model.get("end_of_word_suffix"):
        marker = model.get("continuing_subword_prefix") or model.get("end_of_word_suffix")
        raise VocabularyFormatError(
            f"{p}: HF {kind or 'tokenizer'} model with a word-position marker ({marker!r}): its "
            f"pieces depend on where they stand in a word, so it is not a segmentation "
            f"vocabulary this package can honour")
    vocab = model.get("vocab")
    added = doc.get("added_tokens") or []
    if not isinstance(added, list) or not all(isinstance(t, dict) for t in added):
        raise VocabularyFormatError(f"{p}: $.added_tokens must be a list of objects")
    special = {t.get("content") for t in added if t.get("special")}
    if isinstance(vocab, dict):
        for t, i in vocab.items():
            if type(i) is not int:
                raise VocabularyFormatError(f"{p}: $.model.vocab[{t!r:.40}] must be an int id, "
                                            f"got {i!r:.40}")
        items = [(t, i, None) for t, i in vocab.items()]
    elif isinstance(vocab, list):  # Unigram: [[piece, score], ...]
        items = []
        for i, pair in enumerate(vocab):
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                    and type(pair[1]) in (int, float) and math.isfinite(pair[1])):
                raise VocabularyFormatError(f"{p}: $.model.vocab[{i}] must be [piece, finite "
                                            f"score], got {pair!r:.60}")
            items.append((pair[0], i, float(pair[1])))
    else:
        raise VocabularyFormatError(f"{p}: tokenizer.json has no model.vocab")
    items = [it for it in items if it[0] not in special and it[0] != ""]
    if model.get("byte_fallback"):  # <0x41>-style pieces stand for bytes, not for text
        items = [it for it in items if not _BYTE_PIECE.fullmatch(it[0])]
    kinds = "".join(json.dumps(doc.get(k), ensure_ascii=False)
                    for k in ("normalizer", "pre_tokenizer", "decoder"))
    alphabet = "identity"
    if '"ByteLevel"' in kinds:
        alphabet = "byte-level"
    elif '"Metaspace"' in kinds or SP_SPACE in kinds:  # Metaspace, or Llama's Replace(" ", ▁)
        alphabet = "sentencepiece"
    scores = [s for _, _, s in items] if all(s is not None for _, _, s in items) else None
    return dict(tokens=[t for t, _, _ in items], ids=[i for _, i, _ in items],
                      alphabet=alphabet, name=p.stem, scores=scores)


# SentencePiece ModelProto, read with a minimal protobuf decoder (no dependency):
# ModelProto.pieces = field 1 (repeated message SentencePiece{1: piece, 2: score, 3: type}).
_SP_NORMAL, _SP_USER_DEFINED = 1, 4


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise ValueError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


def _fields(buf: bytes) -> Iterator[tuple[int, int, object]]:
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        field, wire = key >> 3, key & 7
        if wire == 0:
            val, pos = _varint(buf, pos)
        elif wire == 1:
            val, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            size, pos = _varint(buf, pos)
            val, pos = buf[pos:pos + size], pos + size
        elif wire == 5:
            val, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        if pos > len(buf):
            raise ValueError("truncated field")
        yield field, wire, val


def _load_sentencepiece(p: Path, raw: bytes) -> dict:
    tokens, ids, scores = [], [], []
    try:
        index = 0
        for field, wire, val in _fields(raw):
            if field != 1 or wire != 2:
                continue
            piece, score, kind = "", 0.0, _SP_NORMAL
            for f, w, v in _fields(val):  # type: ignore[arg-type]
                if f == 1 and w == 2:
                    piece = v.decode("utf-8")  # type: ignore[union-attr]
                elif f == 2 and w == 5:
                    score = struct.unpack("<f", v)[0]  # type: ignore[arg-type]
                elif f == 3 and w == 0:
                    kind = v  # type: ignore[assignment]
            if kind in (_SP_NORMAL, _SP_USER_DEFINED) and piece and not math.isfinite(score):
                raise VocabularyFormatError(f"{p}: piece {index} ({piece!r:.40}) has score "
                                            f"{score}; scores must be finite")
            if kind in (_SP_NORMAL, _SP_USER_DEFINED) and piece:
                tokens.append(piece)
                ids.append(index)
                scores.append(score)
            index += 1
    except (ValueError, UnicodeDecodeError, struct.error, TypeError, AttributeError) as err:
        raise VocabularyFormatError(f"{p}: malformed SentencePiece model ({err})") from None
    if not tokens:
        raise VocabularyFormatError(f"{p}: no pieces found; is this a SentencePiece model?")
    return dict(tokens=tokens, ids=ids, alphabet="sentencepiece", name=p.stem, scores=scores)


def read_vocabulary_file(path: str | Path) -> dict:
    """Read a vocabulary file into ``Vocabulary`` keyword arguments; format by name/content.

    ``.model``: SentencePiece model; ``.json``: ours, HF ``tokenizer.json`` or ``encoder.json``;
    anything else is a text list: a tiktoken rank file (every line ``base64 rank``), a
    SentencePiece ``.vocab`` (suffix ``.vocab``, or every line ``piece<TAB>score``), or one
    token per line.

    Raises
    ------
    VocabularyFormatError
        Unreadable, special, oversized, malformed or unsupported files; the message names
        the file and the line (text) or JSON path.
    """
    p = Path(path)
    try:
        info = p.stat()
        if not stat.S_ISREG(info.st_mode):
            raise VocabularyFormatError(f"{p}: cannot read vocabulary file (not a regular "
                                        f"file)")
        if info.st_size > MAX_VOCABULARY_FILE:
            raise VocabularyFormatError(f"{p}: {info.st_size:,} bytes, over the "
                                        f"{MAX_VOCABULARY_FILE:,}-byte limit for a vocabulary")
        raw = p.read_bytes()
    except OSError as err:
        raise VocabularyFormatError(f"{p}: cannot read vocabulary file ({err})") from err
    return read_vocabulary_bytes(p, raw)


def read_vocabulary_bytes(name: str | Path, raw: bytes) -> dict:
    """Parse a vocabulary file's bytes, in memory, as :func:`read_vocabulary_file` would the
    file called ``name`` (format by name and content; errors name ``name``).

    >>> read_vocabulary_bytes("mine.txt", b"a\\nab\\n")["tokens"]
    ['a', 'ab']
    """
    p = Path(name)
    try:
        if p.suffix == ".model":
            return _load_sentencepiece(p, raw)
        if p.suffix == ".json":
            return _load_json(p, raw)
        return _load_plain(p, raw)
    except VocabularyFormatError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError,
            RecursionError) as err:  # a shape no reader expected: still name the file
        raise VocabularyFormatError(f"{p}: invalid vocabulary ({type(err).__name__}: "
                                    f"{err})") from None
