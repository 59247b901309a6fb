"""Vocabulary file formats: token lists, JSON, SentencePiece ``.model`` / ``.vocab``, tiktoken.

Plain token lists, JSON (ours, a saved GreedTok model, GPT-2's ``encoder.json``, HF
``tokenizer.json``), SentencePiece ``.model`` files (read by a small protobuf reader, so
``sentencepiece`` is not needed), SentencePiece ``.vocab`` lists (``piece<TAB>score``) and
tiktoken rank files (``base64 rank``).

Every reader returns the keyword arguments of :class:`.vocabulary.Vocabulary` (tokens, ids,
alphabet, name, scores) or raises :class:`VocabularyFormatError` naming the file and the
place (line, or JSON path). A format this package cannot honour as a segmentation
vocabulary (HF WordPiece, whose ``##`` pieces exist only inside a word; BPE with a
continuing-subword prefix or end-of-word suffix) is refused by name, never read as garbage;
so is a token its alphabet cannot spell (a byte-level token outside GPT-2's 256 characters,
a SentencePiece token with a plain space), except that a ``tokenizer.json``'s special tokens,
and its added tokens the alphabet cannot spell (matched whole in the raw text, never a piece
of a spelled word), are left out, as are a SentencePiece model's user-defined symbols with a
plain space (SentencePiece never outputs them).
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
import struct
from collections.abc import Iterator
from pathlib import Path

from .._core.errors import InvalidValueError, public
from .._core.jsonfile import Node, decode_text, parse_json, read_bytes
from .alphabets import SP_SPACE, bytes_to_unicode, outside_alphabet

#: The largest vocabulary file read (bytes): far above any real vocabulary (GPT-4's
#: tiktoken file is 1.7 MB, a 256k SentencePiece model ~5 MB).
MAX_VOCABULARY_FILE = 1 << 30
_TIKTOKEN_LINE = re.compile(r"[A-Za-z0-9+/]+={0,2} [0-9]+")
_SP_CONTROL = frozenset({"<unk>", "<s>", "</s>", "<pad>", "<mask>", "<cls>", "<sep>"})

_BYTE_PIECE = re.compile(r"<0x[0-9A-Fa-f]{2}>")


@public
class VocabularyFormatError(InvalidValueError):
    """A vocabulary file is unreadable or malformed; the message names the path (and line)."""


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
    lines = _lines(p, decode_text(p, raw, error=VocabularyFormatError))  # BOM dropped
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


def _load_json(p: Path, raw: bytes) -> dict:
    root = parse_json(p, raw, what="vocabulary", error=VocabularyFormatError)
    doc = root.value
    if isinstance(doc, dict) and doc.get("format") == "workbench-vocabulary":
        return _from_workbench(root)
    if isinstance(doc, dict) and doc.get("format") == "workbench-greedtok":
        return _from_greedtok(root)
    if isinstance(doc, dict) and isinstance(doc.get("model"), dict):
        return _from_hf_tokenizer(p, doc)
    if isinstance(doc, dict) and doc and all(type(v) is int for v in doc.values()):
        return _from_encoder(root)
    found = type(doc).__name__ if not isinstance(doc, dict) else (
        "an empty object" if not doc else f"an object with keys {sorted(doc)[:5]}")
    raise VocabularyFormatError(
        f"{p}: JSON is neither a tokenizer.json, an encoder.json nor a workbench vocabulary "
        f"(found {found})")


_ALPHABET_RULE = {"byte-level": "the byte-level alphabet (GPT-2's 256 characters for bytes)",
                  "sentencepiece": "the sentencepiece alphabet (a space is spelled '\u2581')"}


def _refuse_outside(where: str, alphabet: str, token: str) -> None:
    """Raise unless ``token`` keeps ``alphabet``'s rule (:func:`.alphabets.outside_alphabet`;
    ``where``: file and JSON path); such a token could never match a spelled word."""
    c = outside_alphabet(alphabet, token)
    if c is not None:
        raise VocabularyFormatError(
            f"{where}: token {token!r:.60} holds {c!r} (U+{ord(c):04X}), which is not in "
            f"{_ALPHABET_RULE[alphabet]}, so it can never match")


def _from_encoder(root: Node) -> dict:
    """GPT-2's ``encoder.json``: byte-level token → id; a token outside the alphabet (or
    empty) is refused, naming it."""
    tokens, ids = [], []
    for token, node in root.items():
        if token == "":
            node.fail("is the empty string, which is not a token")
        _refuse_outside(f"{root.file}: {node.path}", "byte-level", token)
        tokens.append(token)
        ids.append(node.int(minimum=0))
    return dict(tokens=tokens, ids=ids, alphabet="byte-level", name=root.file.stem)


def _from_workbench(root: Node) -> dict:
    """This package's own JSON (``Vocabulary.save``), version 1."""
    version = root.get("version", None)
    if version.value != 1 or type(version.value) is not int:
        version.fail(f"= {version.value!r:.20}: workbench-vocabulary version "
                     f"{version.value!r:.20} is not supported (this package reads version 1)")
    tokens = [t.str() for t in root.get("tokens").list()]
    ids = [i.int(minimum=0) for i in root.get("ids").list()]
    scores = root.get("scores", None).optional()
    if scores is not None:
        scores = [x.real() for x in scores.list()]
    name = root.get("name", None).value
    return dict(tokens=tokens, ids=ids, alphabet=root.get("alphabet").str(),
                name=name if isinstance(name, str) else root.file.stem, scores=scores)


def _from_greedtok(root: Node) -> dict:
    """A saved GreedTok model (``GreedTokModel.save``): the 256 bytes (ids 0-255) and its
    hex tokens (id ``256 + rank``), spelled in the byte-level alphabet."""
    table = bytes_to_unicode()
    chars = [table[b] for b in range(256)]
    tokens = list(chars)
    for t in root.get("tokens").list():
        with t.blame():
            tokens.append("".join(chars[b] for b in bytes.fromhex(t.str())))
    return dict(tokens=tokens, ids=list(range(len(tokens))), alphabet="byte-level",
                name=f"greedtok-{len(tokens) - 256}")


def _hf_vocab_items(p: Path, vocab: object) -> tuple[list[tuple], list[str]]:
    """``model.vocab`` of a tokenizer.json as ``(token, id, score or None)`` items and the JSON
    path of each, every entry checked (an int id, a finite score, never the empty string)."""
    if isinstance(vocab, dict):
        for t, i in vocab.items():
            if type(i) is not int:
                raise VocabularyFormatError(f"{p}: $.model.vocab[{t!r:.40}] must be an int id, "
                                            f"got {i!r:.40}")
            if t == "":
                raise VocabularyFormatError(f"{p}: $.model.vocab[''] is the empty string, "
                                            f"which is not a token")
        return [(t, i, None) for t, i in vocab.items()], [f"$.model.vocab[{t!r:.40}]"
                                                          for t in vocab]
    if isinstance(vocab, list):  # Unigram: [[piece, score], ...]
        items = []
        for i, pair in enumerate(vocab):
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                    and type(pair[1]) in (int, float) and math.isfinite(pair[1])):
                raise VocabularyFormatError(f"{p}: $.model.vocab[{i}] must be [piece, finite "
                                            f"score], got {pair!r:.60}")
            if pair[0] == "":
                raise VocabularyFormatError(f"{p}: $.model.vocab[{i}][0] is the empty string, "
                                            f"which is not a token")
            items.append((pair[0], i, float(pair[1])))
        return items, [f"$.model.vocab[{i}][0]" for i in range(len(vocab))]
    raise VocabularyFormatError(f"{p}: tokenizer.json has no model.vocab")


def _hf_added_tokens(p: Path, doc: dict) -> tuple[set, set]:
    """The special and all declared ``added_tokens`` of a tokenizer.json (checked)."""
    added = doc.get("added_tokens") or []
    if not isinstance(added, list) or not all(isinstance(t, dict) for t in added):
        raise VocabularyFormatError(f"{p}: $.added_tokens must be a list of objects")
    special = {t.get("content") for t in added if t.get("special")}
    declared = {t.get("content") for t in added}  # matched before pre-tokenisation
    return special, declared


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
    special, declared = _hf_added_tokens(p, doc)
    items, where = _hf_vocab_items(p, model.get("vocab"))
    if not items:
        raise VocabularyFormatError(f"{p}: $.model.vocab is empty: a tokenizer.json with no "
                                    f"tokens is not a vocabulary")
    keep = [k for k, it in enumerate(items) if it[0] not in special]
    if model.get("byte_fallback"):  # <0x41>-style pieces stand for bytes, not for text
        keep = [k for k in keep if not _BYTE_PIECE.fullmatch(items[k][0])]
    if not keep:
        raise VocabularyFormatError(f"{p}: $.model.vocab holds only special tokens "
                                    f"($.added_tokens) and byte pieces: no text token")
    kinds = "".join(json.dumps(doc.get(k), ensure_ascii=False)
                    for k in ("normalizer", "pre_tokenizer", "decoder"))
    alphabet = "identity"
    if '"ByteLevel"' in kinds:
        alphabet = "byte-level"
    elif '"Metaspace"' in kinds or SP_SPACE in kinds:  # Metaspace, or Llama's Replace(" ", ▁)
        alphabet = "sentencepiece"
    if alphabet != "identity":
        # An added token is matched whole in the raw text, before any spelling: one the
        # alphabet cannot spell (" the" with a plain space) is no piece of a spelled word, so
        # it is left out like the special tokens; any other such token is refused.
        keep = [k for k in keep if items[k][0] not in declared
                or outside_alphabet(alphabet, items[k][0]) is None]
        for k in keep:
            _refuse_outside(f"{p}: {where[k]}", alphabet, items[k][0])
        if not keep:
            raise VocabularyFormatError(f"{p}: $.model.vocab holds only added tokens the "
                                        f"{alphabet} alphabet cannot spell: no text token")
    items = [items[k] for k in keep]
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
            raise InvalidValueError("truncated varint")
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
            raise InvalidValueError(f"unsupported wire type {wire}")
        if pos > len(buf):
            raise InvalidValueError("truncated field")
        yield field, wire, val


def _usual_piece(v: bytes) -> tuple[bytes, bytes, int] | None:
    """``(piece, score bytes, type)`` of a SentencePiece message laid out as SentencePiece
    writes it (field 1, 2, then 3 if not NORMAL, each once, short), else None.

    What :func:`_fields` would find in such a message, without a generator per piece (the
    8k-piece models load twice as fast); any other layout takes :func:`_fields`.
    """
    if len(v) < 7 or v[0] != 0x0A or v[1] >= 0x80:
        return None
    end = 2 + v[1]
    if len(v) < end + 5 or v[end] != 0x15:
        return None
    rest = len(v) - end - 5
    if rest == 0:
        return v[2:end], v[end + 1:end + 5], _SP_NORMAL
    if rest == 2 and v[end + 5] == 0x18 and v[end + 6] < 0x80:
        return v[2:end], v[end + 1:end + 5], v[end + 6]
    return None


def _load_sentencepiece(p: Path, raw: bytes) -> dict:
    tokens, ids, scores = [], [], []
    try:
        index = 0
        for field, wire, val in _fields(raw):
            if field != 1 or wire != 2:
                continue
            piece, score, kind = "", 0.0, _SP_NORMAL
            usual = _usual_piece(val)  # type: ignore[arg-type]
            if usual is not None:
                piece = usual[0].decode("utf-8")
                score = struct.unpack("<f", usual[1])[0]
                kind = usual[2]
            else:
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
            # a user-defined symbol with a plain space never matches (SentencePiece spells
            # spaces "▁" first): left out, as the sentencepiece alphabet has no plain space
            dead = kind == _SP_USER_DEFINED and " " in piece
            if kind in (_SP_NORMAL, _SP_USER_DEFINED) and piece and not dead:
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
    raw = read_bytes(p, what="vocabulary file", error=VocabularyFormatError,
                     max_bytes=MAX_VOCABULARY_FILE)
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
