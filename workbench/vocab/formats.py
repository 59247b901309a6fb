"""Vocabulary file formats: plain token lists, JSON (ours, a saved GreedTok model, GPT-2's
``encoder.json``, HF ``tokenizer.json``) and SentencePiece ``.model`` files (read by a small
protobuf reader, so ``sentencepiece`` is not needed).

Every reader returns the keyword arguments of :class:`.vocabulary.Vocabulary` (tokens, ids,
alphabet, name, scores) or raises :class:`VocabularyFormatError` naming the file (and the
line, for text formats). This module
does not write files (``Vocabulary.save`` writes the JSON form) and does not spell words.
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Iterator
from pathlib import Path

from .alphabets import SP_SPACE, bytes_to_unicode

_BYTE_PIECE = re.compile(r"<0x[0-9A-Fa-f]{2}>")


class VocabularyFormatError(ValueError):
    """A vocabulary file is unreadable or malformed; the message names the path (and line)."""


def _load_plain(p: Path, raw: bytes) -> dict:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise VocabularyFormatError(f"{p}: not UTF-8 text ({err})") from err
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    tokens = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(lines, start=1):
        tok = line[:-1] if line.endswith("\r") else line
        if tok == "":
            raise VocabularyFormatError(f"{p}, line {lineno}: empty token")
        if tok in seen:
            raise VocabularyFormatError(
                f"{p}, line {lineno}: duplicate token {tok!r} (first on line {seen[tok]})"
            )
        seen[tok] = lineno
        tokens.append(tok)
    return dict(tokens=tokens, name=p.stem)


def _load_json(p: Path, raw: bytes) -> dict:
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise VocabularyFormatError(f"{p}: malformed JSON ({err})") from err
    try:
        if isinstance(doc, dict) and doc.get("format") == "workbench-vocabulary":
            return dict(tokens=doc["tokens"], ids=doc["ids"], alphabet=doc["alphabet"],
                        name=doc.get("name"), scores=doc.get("scores"))
        if isinstance(doc, dict) and doc.get("format") == "workbench-greedtok":
            return _from_greedtok(doc, p)
        if isinstance(doc, dict) and isinstance(doc.get("model"), dict):
            return _from_hf_tokenizer(p, doc)
        if isinstance(doc, dict) and doc and all(isinstance(v, int) for v in doc.values()):
            return dict(tokens=list(doc.keys()), ids=list(doc.values()), alphabet="byte-level",
                        name=p.stem)
    except VocabularyFormatError:
        raise
    except (TypeError, ValueError, KeyError) as err:
        raise VocabularyFormatError(f"{p}: invalid vocabulary ({err})") from err
    raise VocabularyFormatError(
        f"{p}: JSON is neither a tokenizer.json, an encoder.json nor a workbench vocabulary"
    )


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
    vocab = model.get("vocab")
    special = {t.get("content") for t in doc.get("added_tokens") or [] if t.get("special")}
    if isinstance(vocab, dict):
        items = [(t, i, None) for t, i in vocab.items()]
    elif isinstance(vocab, list):  # Unigram: [[piece, score], ...]
        items = [(pair[0], i, float(pair[1])) for i, pair in enumerate(vocab)]
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
            if kind in (_SP_NORMAL, _SP_USER_DEFINED) and piece:
                tokens.append(piece)
                ids.append(index)
                scores.append(score)
            index += 1
    except (ValueError, UnicodeDecodeError) as err:
        raise VocabularyFormatError(f"{p}: malformed SentencePiece model ({err})") from err
    if not tokens:
        raise VocabularyFormatError(f"{p}: no pieces found; is this a SentencePiece model?")
    return dict(tokens=tokens, ids=ids, alphabet="sentencepiece", name=p.stem, scores=scores)


def read_vocabulary_file(path: str | Path) -> dict:
    """Read a vocabulary file into ``Vocabulary`` keyword arguments; format by name/content."""
    p = Path(path)
    try:
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
    if p.suffix == ".model":
        return _load_sentencepiece(p, raw)
    if p.suffix == ".json":
        return _load_json(p, raw)
    return _load_plain(p, raw)
