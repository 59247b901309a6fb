"""How a plain word is spelled in a vocabulary's alphabet, and back.

Three alphabets: ``"identity"`` (as given), ``"byte-level"`` (GPT-2: UTF-8 bytes mapped to
printable characters, so a space is ``Ġ``) and ``"sentencepiece"`` (a space is ``▁``).

Two of them constrain how a token may be spelled, and :func:`outside_alphabet` says where a
token breaks the rule (a :class:`~workbench.Vocabulary` refuses such a token, since no
spelled word could ever contain it): a byte-level token holds only the 256 characters of
:func:`bytes_to_unicode`; a SentencePiece token holds no plain space (U+0020, spelled
``▁``). Identity tokens may hold any character.

Spelling is never guessed: a function that takes a word either documents that the word is
already spelled (segmentation, sampling) or takes a plain word and spells it once. Spelling
twice changes a byte-level word (``Ġ`` is itself two bytes), so no function here checks
whether a word "looks spelled".

This module knows nothing of tokens, ids or files.

Example
-------
>>> spell("byte-level", " hé"), unspell("byte-level", "ĠhÃ©")
('ĠhÃ©', ' hé')
"""

from __future__ import annotations

import bisect
import itertools
import re

from .._core.errors import ArgumentTypeError, InvalidValueError

ALPHABETS = ("identity", "byte-level", "sentencepiece")
SP_SPACE = "\u2581"  # ▁, SentencePiece's whitespace marker


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's reversible map from the 256 byte values to printable characters.

    Bytes that are already printable Latin-1 characters (``!``..``~``, ``¡``..``¬``,
    ``®``..``ÿ``) map to themselves; the remaining 68 bytes map, in increasing order, to
    ``chr(256)``, ``chr(257)``, ... . So the space byte 0x20 becomes ``'Ġ'`` (U+0120).

    >>> bytes_to_unicode()[ord(" ")]
    'Ġ'
    """
    printable = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    table = {b: chr(b) for b in printable}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return table


_BYTE_TO_CHAR = bytes_to_unicode()
_CHAR_TO_BYTE = {c: b for b, c in _BYTE_TO_CHAR.items()}
#: The first character a token spelled in each alphabet cannot hold (one C-level scan).
_FORBIDDEN = {
    "byte-level": re.compile("[^" + "".join(map(re.escape, sorted(_CHAR_TO_BYTE))) + "]"),
    "sentencepiece": re.compile(" "),
}
_RULE = {
    "byte-level": "the byte-level alphabet (GPT-2's 256 characters for bytes; spell a plain "
                  "word with to_alphabet)",
    "sentencepiece": "the sentencepiece alphabet (a space is spelled '\u2581'; spell a plain "
                     "word with to_alphabet)",
}


def _check(alphabet: object, text: object, name: str) -> None:
    if not isinstance(alphabet, str) or alphabet not in ALPHABETS:
        raise InvalidValueError(f"alphabet must be one of {', '.join(map(repr, ALPHABETS))}, got "
                                f"{alphabet!r:.40}")
    if not isinstance(text, str):
        raise ArgumentTypeError(f"{name} must be str, not {type(text).__name__}")


def outside_alphabet(alphabet: str, token: str) -> str | None:
    """The first character of ``token`` that a token spelled in ``alphabet`` cannot hold, or
    None if ``token`` keeps the alphabet's rule (see the module docstring).

    >>> outside_alphabet("byte-level", "Ġh你"), outside_alphabet("byte-level", "ĠhÃ©")
    ('你', None)
    >>> outside_alphabet("sentencepiece", "a b"), outside_alphabet("identity", "a b")
    (' ', None)
    """
    _check(alphabet, token, "token")
    pattern = _FORBIDDEN.get(alphabet)
    found = None if pattern is None else pattern.search(token)
    return None if found is None else found.group()


def check_spelled(alphabet: str, token: str, where: str = "token") -> str:
    """Return ``token`` if it keeps ``alphabet``'s rule, else raise ``InvalidValueError``
    naming the token (``where`` says which, e.g. ``"token at position 3"``), the character
    and the alphabet.

    >>> check_spelled("byte-level", "你好")
    Traceback (most recent call last):
    ...
    workbench.InvalidValueError: token '你好' holds '你' (U+4F60), which is not in the byte-level \
alphabet (GPT-2's 256 characters for bytes; spell a plain word with to_alphabet)
    """
    c = outside_alphabet(alphabet, token)
    if c is not None:
        raise InvalidValueError(f"{where} {token!r:.60} holds {c!r} (U+{ord(c):04X}), which is "
                                f"not in {_RULE[alphabet]}")
    return token


def first_outside(alphabet: str, tokens: list[str]) -> int | None:
    """The position of the first token of ``tokens`` (checked str) that breaks ``alphabet``'s
    rule (:func:`outside_alphabet`), or None: one scan of them all, for a whole vocabulary.

    >>> first_outside("byte-level", ["a", "Ġb", "c d"]), first_outside("identity", ["c d"])
    (2, None)
    """
    pattern = _FORBIDDEN.get(alphabet)
    found = None if pattern is None else pattern.search("".join(tokens))
    if found is None:
        return None
    return bisect.bisect_right(list(itertools.accumulate(map(len, tokens))), found.start())


def spell(alphabet: str, word: str) -> str:
    """A plain word spelled in ``alphabet`` (raises ``ValueError`` for lone surrogates).

    ``alphabet`` is one of :data:`ALPHABETS` (anything else: ``ValueError``).
    """
    _check(alphabet, word, "word")
    if alphabet == "identity":
        return word
    if alphabet == "byte-level":
        try:
            raw = word.encode("utf-8")
        except UnicodeEncodeError as err:
            raise InvalidValueError(f"{word!r} cannot be spelled in bytes: {err.reason} at "
                                    f"position {err.start}") from None
        return "".join(_BYTE_TO_CHAR[b] for b in raw)
    return word.replace(" ", SP_SPACE)


def unspell(alphabet: str, text: str) -> str:
    """Inverse of :func:`spell` (invalid UTF-8 from byte-level text becomes U+FFFD)."""
    _check(alphabet, text, "text")
    if alphabet == "identity":
        return text
    if alphabet == "byte-level":
        try:
            raw = bytes(_CHAR_TO_BYTE[c] for c in text)
        except KeyError as err:
            raise InvalidValueError(f"{err.args[0]!r} is not a byte-level character") from None
        return raw.decode("utf-8", errors="replace")
    return text.replace(SP_SPACE, " ")


def spelled_bytes(alphabet: str, token: str) -> bytes:
    """The bytes a token spelled in ``alphabet`` stands for (:func:`spell`'s inverse, as bytes).

    Byte-level characters are their bytes (a token may hold part of a character); the
    SentencePiece marker ``▁`` is a space; identity tokens are their UTF-8.

    >>> spelled_bytes("byte-level", "ĠÃ"), spelled_bytes("sentencepiece", "▁a")
    (b' \\xc3', b' a')
    """
    _check(alphabet, token, "token")
    if alphabet == "byte-level":
        try:
            return bytes(_CHAR_TO_BYTE[c] for c in token)
        except KeyError as err:
            raise InvalidValueError(f"{err.args[0]!r} is not a byte-level character") from None
    if alphabet == "sentencepiece":
        token = token.replace(SP_SPACE, " ")
    try:
        return token.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InvalidValueError(f"token {token!r:.30} has no UTF-8 bytes: {err.reason}") from None
