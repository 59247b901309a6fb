"""GPT-2's byte-level alphabet: every byte spelled as one printable character.

Byte-level BPE vocabularies (GPT-2, HuggingFace ``ByteLevel``) store tokens as strings over
256 printable characters, one per byte value: printable Latin-1 bytes stand for themselves,
the other 68 bytes map in increasing order to ``chr(256)``, ``chr(257)``, ... (so the space
0x20 is ``'Ġ'``). This module converts between token bytes and that spelling and records the
order in which HuggingFace ``tokenizers`` numbers the 256 byte tokens (by code point of their
spelling), which :mod:`workbench.bpe.train` uses to break ties as HF does.

It does not train or encode anything.

Example
-------
>>> to_bytelevel(b" h\\xc3\\xa9")
'ĠhÃ©'
>>> from_bytelevel('ĠhÃ©')
b' h\\xc3\\xa9'
>>> HF_BYTE_RANK[ord("!")], HF_BYTE_RANK[ord(" ")]
(0, 220)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

from .._core.errors import InvalidValueError
from ..vocab import bytes_to_unicode

#: ``BYTE_TO_CHAR[b]`` spells byte ``b`` (GPT-2's map, :func:`workbench.vocab.bytes_to_unicode`).
_SPELLING = bytes_to_unicode()
BYTE_TO_CHAR: tuple[str, ...] = tuple(_SPELLING[b] for b in range(256))
#: Inverse of :data:`BYTE_TO_CHAR`.
CHAR_TO_BYTE: dict[str, int] = {c: b for b, c in enumerate(BYTE_TO_CHAR)}
_BY_CODE_POINT = sorted(range(256), key=lambda b: ord(BYTE_TO_CHAR[b]))
#: ``HF_BYTE_RANK[b]``: the id HuggingFace's BPE trainer gives byte ``b`` (code-point order).
HF_BYTE_RANK: tuple[int, ...] = tuple(sorted(range(256), key=_BY_CODE_POINT.__getitem__))
#: ``str.translate`` table: each alphabet character to the Latin-1 character of its byte,
#: every other Latin-1 character to one that Latin-1 cannot encode (so it is refused).
_TO_LATIN1: dict[int, str] = {**{c: "\U0010ffff" for c in range(256)},
                              **{ord(ch): chr(b) for b, ch in enumerate(BYTE_TO_CHAR)}}


def to_bytelevel(token: bytes) -> str:
    """Spell ``token`` in the byte-level alphabet.

    >>> to_bytelevel(b"a b")
    'aĠb'
    """
    return "".join(BYTE_TO_CHAR[b] for b in token)


def from_bytelevel(text: str) -> bytes:
    """Bytes of a byte-level spelling; ``ValueError`` on a character outside the alphabet.

    >>> from_bytelevel("aĠb")
    b'a b'
    """
    try:
        return bytes(CHAR_TO_BYTE[c] for c in text)
    except KeyError as err:
        raise InvalidValueError(f"{err.args[0]!r} is not a byte-level character") from None


def from_bytelevel_many(texts: Sequence[str]) -> list[bytes]:
    """:func:`from_bytelevel` of every text, in one pass over their concatenation.

    Every character spells one byte, so the texts' bytes are slices of the concatenation's
    at their lengths (loading GPT-2's 150,000 spellings: one translation, not one call
    each). Raises what :func:`from_bytelevel` raises for the first bad text.

    >>> from_bytelevel_many(["aĠb", "", "Ã©"])
    [b'a b', b'', b'\\xc3\\xa9']
    """
    try:
        raw = "".join(texts).translate(_TO_LATIN1).encode("latin-1")
    except UnicodeEncodeError:
        for text in texts:  # the first bad one raises, with the usual message
            from_bytelevel(text)
        raise  # pragma: no cover  (some text above holds the bad character)
    ends = list(accumulate(map(len, texts)))
    return [raw[a:b] for a, b in zip([0, *ends], ends)]
