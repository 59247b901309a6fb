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

from ..vocab import bytes_to_unicode

#: ``BYTE_TO_CHAR[b]`` spells byte ``b`` (GPT-2's map, :func:`workbench.vocab.bytes_to_unicode`).
BYTE_TO_CHAR: tuple[str, ...] = tuple(bytes_to_unicode()[b] for b in range(256))
#: Inverse of :data:`BYTE_TO_CHAR`.
CHAR_TO_BYTE: dict[str, int] = {c: b for b, c in enumerate(BYTE_TO_CHAR)}
#: ``HF_BYTE_RANK[b]``: the id HuggingFace's BPE trainer gives byte ``b`` (code-point order).
HF_BYTE_RANK: tuple[int, ...] = tuple(
    sorted(range(256), key=lambda b: ord(BYTE_TO_CHAR[b])).index(b) for b in range(256))


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
        raise ValueError(f"{err.args[0]!r} is not a byte-level character") from None
