"""Peer formats of byte-level BPE: GPT-2's files, ``tiktoken`` ranks, GreedTok token lists.

The functions here turn a peer's description into the keyword arguments of
:class:`~workbench.bpe.model.BPEModel` (``merges``, ``ids``, ``special_tokens``,
``pattern``) and back; the model's classmethods :meth:`~BPEModel.from_gpt2`,
:meth:`~BPEModel.from_tiktoken`, :meth:`~BPEModel.to_tiktoken` and
:meth:`~BPEModel.from_greedtok` are thin wrappers around them.

**Ranks and merges.** ``tiktoken`` stores a BPE as ``mergeable_ranks: bytes -> rank``; the
rank is both the token's id and its merge priority, and its encoder merges the adjacent pair
whose *concatenation* has the lowest rank (leftmost first), whatever the two parts are. A
merge list (ours, GPT-2's ``vocab.bpe``, HF) merges only the listed *pair*. The merge of a
token ``T`` of rank ``r`` is recovered the standard way (the reasoning behind
``tiktoken.load.data_gym_to_mergeable_bpe_ranks`` and minbpe's ``recover_merges``): encode
``T``'s bytes with the ranks below ``r``; the ranks are *BPE-consistent* when this always
ends in exactly two parts, and those two parts are ``T``'s merge.

*Claim.* For BPE-consistent ranks the two encoders give the same tokens on every text.
(1) The concatenation encoder merges ranks in non-decreasing order: if it merged ``T``
(rank ``r``) and then ``U = T + z`` with rank ``u < r``, then inside ``U``'s span the pieces
evolved as in encoding ``U`` alone (no piece ever crossed its ends), and encoding ``U``
alone merges only ranks ``< u`` until its two recovered parts (consistency) — never ``T``.
(2) So whenever it joins two pieces into ``T``, those pieces are the result of encoding
``T`` alone with ranks ``< r``: ``T``'s recovered merge. Every merge it makes is a listed
pair, and the pair encoder (a subset of its candidates, same ranks, same leftmost rule) makes
the same choice at every step. Ranks that are not BPE-consistent are refused (``ValueError``
naming the token); GPT-2's and ``cl100k``'s are consistent (GPT-2's recovered merges equal
its ``vocab.bpe`` line for line, tested).

**GreedTok** (App. D.2, Alg. 4) applies a token at an occurrence when neither end cuts an
applied token, swallowing whatever lies inside. If its ranked tokens are BPE-consistent,
Alg. 4 equals BPE with the recovered merges in rank order: by induction over ranks both
states are the same segmentation; an occurrence of ``T`` whose ends are boundaries holds,
inside, the result of encoding ``T`` alone with ranks ``< r`` (as above) — exactly two pieces
that BPE joins — and conversely; both take the occurrences left to right, and an occurrence
once blocked stays blocked. Otherwise no HuggingFace model type reproduces Alg. 4 in general:
``BPE`` cannot make a token whose bytes do not reach two pieces (``{"bcd"}``: Alg. 4 gives
``["bcd"]``, BPE ``["b","c","d"]`` whatever merges are listed), ``WordPiece`` is leftmost
longest match (``{"aa","ba"}`` on ``"baaa"``: Alg. 4 ``b|aa|a``, WordPiece ``ba|aa``),
``Unigram`` maximises a sum of scores and no scores fit ``{"aa","ba"}``: ``"ba" -> [ba]``
needs ``s(ba) > s(b) + s(a)`` while ``"baaa" -> [b, aa, a]`` needs ``s(b) + s(aa) + s(a) >
s(ba) + s(aa)``; ``WordLevel`` looks up whole words. :func:`greedtok_merges` then raises
:class:`NotExpressibleError` naming the token.

This module does not encode text, write ``tokenizer.json`` (see :mod:`workbench.bpe.export`)
or import ``tiktoken`` (only :meth:`BPEModel.to_tiktoken_encoding` does).

Example
-------
>>> merges, ids = recover_merges({**{bytes([b]): b for b in range(256)}, b"bc": 256,
...                                b"abc": 257})
>>> merges, ids[256:]
([(b'b', b'c'), (b'a', b'bc')], [256, 257])
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from .._core.errors import ArgumentTypeError, InvalidValueError, public
from .._core.jsonfile import MAX_JSON_FILE, parse_json, read_bytes
from ..counts import iter_xz
from .bytelevel import from_bytelevel_many

#: GPT-2's one special token and its id.
GPT2_SPECIAL_TOKENS: tuple[str, ...] = ("<|endoftext|>",)


@public
class NotExpressibleError(InvalidValueError):
    """A model cannot be written in a peer format without changing its tokens."""


def _encode_below(token: bytes, ranks: Mapping[bytes, int], limit: int) -> list[bytes]:
    """Concatenation-rule BPE of ``token`` using only ranks ``< limit`` (leftmost lowest)."""
    parts = [token[i:i + 1] for i in range(len(token))]
    while len(parts) > 1:
        best, at = limit, -1
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and r < best:
                best, at = r, i
        if at < 0:
            break
        parts[at:at + 2] = [parts[at] + parts[at + 1]]
    return parts


def check_ranks(ranks: object) -> dict[bytes, int]:
    """``ranks`` as a dict after checking it is ``bytes -> distinct non-negative int``.

    Raises ``TypeError`` for a wrong type and ``ValueError`` for repeated ranks, an empty
    token or a missing single byte (byte-level BPE needs all 256).
    """
    if not isinstance(ranks, Mapping):
        raise ArgumentTypeError("mergeable_ranks must be a dict bytes -> int, not "
                                f"{type(ranks).__name__}")
    out: dict[bytes, int] = {}
    seen: dict[int, bytes] = {}
    for tok, r in ranks.items():
        if not isinstance(tok, bytes) or isinstance(r, bool) or not isinstance(r, int):
            raise ArgumentTypeError(f"mergeable_ranks must map bytes to int; got {tok!r:.40} -> "
                                    f"{r!r:.20}")
        if not tok:
            raise InvalidValueError("mergeable_ranks holds the empty token")
        if r < 0:
            raise InvalidValueError(f"rank of {tok!r:.40} is negative ({r})")
        if r in seen:
            raise InvalidValueError(f"{seen[r]!r:.40} and {tok!r:.40} share rank {r}")
        seen[r] = tok
        out[tok] = r
    missing = [b for b in range(256) if bytes([b]) not in out]
    if missing:
        raise InvalidValueError(f"mergeable_ranks lacks {len(missing)} single byte(s) (first: "
                                f"{bytes([missing[0]])!r}); a byte-level BPE needs all 256")
    return out


def recover_merges(ranks: Mapping[bytes, int]) -> tuple[list[tuple[bytes, bytes]], list[int]]:
    """The merges behind ``tiktoken``-style ranks, in rank order, and the 256 + n ids.

    Returns ``(merges, ids)``: ``ids[b]`` is byte ``b``'s rank, ``ids[256 + k]`` the rank of
    merge ``k``'s token (the order :class:`BPEModel` numbers its symbols in).

    Raises
    ------
    ValueError
        If the ranks are not BPE-consistent (see the module docstring): the message names
        the token and the parts its bytes reach.
    """
    ranks = check_ranks(ranks)
    merges: list[tuple[bytes, bytes]] = []
    ids = [ranks[bytes([b])] for b in range(256)]
    for tok, r in sorted(((t, q) for t, q in ranks.items() if len(t) > 1), key=lambda x: x[1]):
        parts = _encode_below(tok, ranks, r)
        if len(parts) != 2:
            raise InvalidValueError(f"token {tok!r:.60} (rank {r}) is not the merge of two tokens "
                                    f"of lower rank: its bytes reach {len(parts)} parts "
                                    f"{parts[:6]!r:.120}; these ranks are not a BPE")
        merges.append((parts[0], parts[1]))
        ids.append(r)
    return merges, ids


def tiktoken_ranks(merges: Sequence[tuple[bytes, bytes]], ids: Sequence[int],
                   stop_words: Sequence[str]) -> dict[bytes, int]:
    """``mergeable_ranks`` of a model given by its merges and ids (see :meth:`to_tiktoken`).

    Raises
    ------
    NotExpressibleError
        If the model has stop words, two tokens with the same bytes, merge ids that do not
        increase with merge order, or a merge that ``tiktoken``'s rule would make from other
        parts (the message names it).
    """
    if stop_words:
        raise NotExpressibleError(f"the model has {len(stop_words)} stop words (whole-chunk "
                                  "tokens); tiktoken has no such tokens")
    s = len(stop_words)
    ranks: dict[bytes, int] = {bytes([b]): int(ids[b]) for b in range(256)}
    last = -1
    for k, (a, b) in enumerate(merges):
        tok, r = a + b, int(ids[256 + s + k])
        if tok in ranks:
            raise NotExpressibleError(f"merge {k} makes {tok!r:.40}, which an earlier token "
                                      "already is; mergeable_ranks maps bytes to one rank")
        if r <= last:
            raise NotExpressibleError(f"merge {k} has id {r} after a merge with id {last}; in "
                                      "tiktoken the id is the merge priority, so ids must "
                                      "increase with merge order")
        ranks[tok] = last = r
    try:
        rebuilt, _ = recover_merges(ranks)
    except ValueError as err:
        raise NotExpressibleError(f"tiktoken's rule (merge any adjacent pair whose "
                                  f"concatenation is a token) cannot rebuild this model: {err}"
                                  ) from None
    for k, (pair, got) in enumerate(zip(merges, rebuilt)):
        if pair != got:
            raise NotExpressibleError(
                f"merge {k} joins {pair!r:.60}, but tiktoken's rule (merge any adjacent pair "
                f"whose concatenation is a token, lowest rank first) would build "
                f"{pair[0] + pair[1]!r:.40} from {got!r:.60}, so some texts would encode "
                "differently")
    return ranks


def _read_raw(path: str | os.PathLike, what: str) -> bytes:
    """The bytes of a regular file (``.xz``: decompressed, every stream, as ``xz -d`` reads
    it: :func:`workbench.counts.iter_xz`), within the JSON size budget."""
    p = Path(path)
    raw = read_bytes(p, what=f"GPT-2 {what}")
    if p.suffix != ".xz":
        return raw
    pieces, size = [], 0
    try:
        for piece in iter_xz(p, error=InvalidValueError, file=io.BytesIO(raw)):
            size += len(piece)
            if size > MAX_JSON_FILE:  # refused before the rest is expanded
                break
            pieces.append(piece)
    except InvalidValueError as err:
        raise InvalidValueError(f"{p}: cannot read GPT-2's {what} "
                                f"({str(err).removeprefix(f'{p}: ')})") from None
    if size > MAX_JSON_FILE:
        raise InvalidValueError(f"{p}: GPT-2's {what} decompresses past {MAX_JSON_FILE:,} "
                                "bytes")
    return b"".join(pieces)


def _read_text(path: str | os.PathLike, what: str) -> str:
    raw = _read_raw(path, what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise InvalidValueError(f"{Path(path)}, line {line}: GPT-2's {what} is not UTF-8 "
                                f"({err.reason})") from None


def shipped_gpt2_files() -> tuple[Path, Path]:
    """Paths of the shipped GPT-2 ``encoder.json.xz`` and ``vocab.bpe.xz`` (``data/``)."""
    from ..datasets import DATA_DIR
    from ..datasets.loaders import GPT2_ENCODER_FILE, GPT2_MERGES_FILE

    return DATA_DIR / GPT2_ENCODER_FILE, DATA_DIR / GPT2_MERGES_FILE


def read_gpt2(encoder_json: str | os.PathLike, vocab_bpe: str | os.PathLike | None,
              special_tokens: Iterable[str] = GPT2_SPECIAL_TOKENS) -> dict:
    """:class:`BPEModel` keyword arguments (``merges``, ``ids``, ``special_tokens``,
    ``pattern="gpt2"``) from GPT-2's ``encoder.json`` and ``vocab.bpe`` (``.xz`` allowed).

    With ``vocab_bpe=None`` the merges are recovered from the ids of ``encoder.json``
    (:func:`recover_merges`). Entries named in ``special_tokens`` become special tokens.

    Raises
    ------
    ValueError
        If a file is unreadable or the two files disagree (the message names the file).
    """
    enc_path = Path(encoder_json)
    encoder = parse_json(enc_path, _read_raw(enc_path, "encoder.json"),
                         what="encoder.json").value
    if not isinstance(encoder, dict) or not all(  # JSON numbers: exactly int, or not one
            type(v) is int for v in encoder.values()):
        raise InvalidValueError(f"{enc_path}: not an encoder.json (a JSON object token -> id)")
    specials = {}
    for t in special_tokens:
        if t not in encoder:
            raise InvalidValueError(f"{enc_path}: special token {t!r} is not in the file")
        specials[t] = encoder[t]
    try:
        plain = [k for k in encoder if k not in specials]
        ranks = dict(zip(from_bytelevel_many(plain), [encoder[k] for k in plain]))
    except ValueError as err:
        raise InvalidValueError(f"{enc_path}: {err} (not a byte-level encoder.json)") from None
    if len(ranks) != len(encoder) - len(specials):
        raise InvalidValueError(f"{enc_path}: two entries spell the same bytes")
    if vocab_bpe is None:
        merges, ids = recover_merges(ranks)
    else:
        bpe_path = Path(vocab_bpe)
        merges = _read_merges(bpe_path)
        check_ranks(ranks)
        ids = [ranks[bytes([b])] for b in range(256)]
        for k, (a, b) in enumerate(merges):
            if a + b not in ranks:
                raise InvalidValueError(f"{bpe_path}: merge {k} makes {a + b!r:.40}, which "
                                        f"{enc_path.name} lacks")
            ids.append(ranks[a + b])
        if len(ids) != len(ranks):
            raise InvalidValueError(f"{enc_path} has {len(ranks)} tokens, {bpe_path} makes "
                                    f"{len(ids)} (256 bytes + merges)")
    return dict(merges=merges, ids=ids, special_tokens=specials, pattern="gpt2")


def _read_merges(bpe_path: Path) -> list[tuple[bytes, bytes]]:
    """The merges of GPT-2's ``vocab.bpe`` (errors name the file and line)."""
    lines = _read_text(bpe_path, "vocab.bpe").split("\n")
    numbered = [(lineno, line) for lineno, line in enumerate(lines, 1)
                if line and not (lineno == 1 and line.startswith("#version"))]
    parts: list[str] = []
    for lineno, line in numbered:
        pair = line.split(" ")
        if len(pair) != 2:
            raise InvalidValueError(f"{bpe_path}, line {lineno}: not two tokens: {line!r:.60}")
        parts += pair
    try:
        spelled = from_bytelevel_many(parts)
    except ValueError:
        for lineno, line in numbered:  # the first bad line, named
            try:
                from_bytelevel_many(line.split(" "))
            except ValueError as err:
                raise InvalidValueError(f"{bpe_path}, line {lineno}: {err}") from None
        raise  # pragma: no cover  (some line above is bad)
    return list(zip(spelled[::2], spelled[1::2]))


def greedtok_merges(tokens: Sequence[bytes]) -> list[tuple[bytes, bytes]]:
    """The BPE merges equal to GreedTok's Alg. 4 over ``tokens`` (rank order), if any.

    Token ``r`` gets id ``256 + r`` both ways, so a :class:`BPEModel` built from these
    merges gives a GreedTok model's ids.

    Raises
    ------
    NotExpressibleError
        If the ranked tokens are not BPE-consistent; the message names the token and says
        why no HuggingFace model type (BPE, WordPiece, Unigram, WordLevel) reproduces
        Alg. 4 (see the module docstring).
    """
    ranks = {bytes([b]): b for b in range(256)}
    ranks.update({t: 256 + r for r, t in enumerate(tokens)})
    merges = []
    for r, tok in enumerate(tokens):
        parts = _encode_below(tok, ranks, 256 + r)
        if len(parts) != 2:
            split = any(tok[:i] in ranks and tok[i:] in ranks for i in range(1, len(tok)))
            why = ("BPE in rank order cannot (only BPE-consistent GreedTok models are "
                   "exported)" if split else "no list of BPE merges over these tokens can "
                   "(no two tokens make it)")
            raise NotExpressibleError(
                f"GreedTok token {tok!r:.40} (rank {r}) is not made of two tokens of lower "
                f"rank (its bytes reach {parts[:6]!r:.80}): Alg. 4 gives the word "
                f"{tok!r:.40} as one token, which {why}; WordPiece (leftmost longest), "
                "Unigram (sum of scores) and WordLevel cannot express Alg. 4 in general "
                "either (see workbench.bpe.interop). Keep the model as our JSON "
                "(GreedTokModel.save; Vocabulary.load reads it) instead")
        merges.append((parts[0], parts[1]))
    return merges
