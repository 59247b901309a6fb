"""Character offsets of P1/P2 tokens in the text they came from.

P1 normalises the text (NFKC) and drops its whitespace; P2 adds a boundary marker before
every P1 pretoken and spells the pieces in the vocabulary's alphabet. So the tokens of
:class:`workbench.TextTokenizer` do not spell the text, and their offsets are found by
alignment: with the markers taken out, the pieces are, in order, the non-whitespace
stretches of the normalised text. A token's span runs from the original character its first
unit came from to the one its last unit came from (units: bytes for the ``byte-level``
alphabet, characters otherwise; a token that cuts a character covers all of it). A token
that is only the marker is an empty span where its pretoken starts; a marker glued to a piece
adds nothing to its span.

NFKC is mapped back cluster by cluster (a character with the combining marks, and Hangul
vowel and final jamo, that follow it): each cluster's normalised characters come from the
whole cluster. A text whose NFKC is not the concatenation of its clusters' is refused with
:class:`workbench.InvalidValueError` (none is known outside contrived input).

This module does not pretokenise (:mod:`.rules`, :mod:`.scan`) or sample.

Example
-------
>>> tokens = [["▁I", "t", "'s"], ["▁", "4", "2"], ["▁."]]  # per P1 pretoken
>>> p1p2_offsets("It's  42.", "sentencepiece", ["".join(t) for t in tokens],
...              [[len(t) for t in group] for group in tokens])
[(0, 1), (1, 2), (2, 4), (6, 6), (6, 7), (7, 8), (8, 9)]
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from .._core.errors import InvalidValueError
from .._core.validate import check_budget
from ..vocab.alphabets import spell
from .rules import marker

__all__ = ["BYTES_PER_CHARACTER", "nfkc_with_sources", "p1p2_offsets"]

#: Working bytes :func:`p1p2_offsets` needs per character of the text (NFKC's copy, two
#: source lists, the unit table of up to four bytes a character, and the spans).
BYTES_PER_CHARACTER = 400


def _joins_previous(ch: str) -> bool:
    """A character NFKC may compose with the one before it."""
    return unicodedata.combining(ch) != 0 or "\u1160" <= ch <= "\u11ff"


def nfkc_with_sources(text: str) -> tuple[str, list[int], list[int]]:
    """``NFKC(text)`` and, for each of its characters, the source span ``[start, end)`` in
    ``text`` (two lists).

    >>> nfkc_with_sources("ﬁ e\u0301")
    ('fi é', [0, 0, 1, 2], [1, 1, 2, 4])
    """
    normal = unicodedata.normalize("NFKC", text)
    if normal == text:
        return normal, list(range(len(text))), list(range(1, len(text) + 1))
    starts: list[int] = []
    ends: list[int] = []
    parts: list[str] = []
    i = 0
    while i < len(text):
        j = i + 1
        while j < len(text) and _joins_previous(text[j]):
            j += 1
        part = unicodedata.normalize("NFKC", text[i:j])
        parts.append(part)
        starts += [i] * len(part)
        ends += [j] * len(part)
        i = j
    if "".join(parts) != normal:
        raise InvalidValueError(f"the NFKC form of {text!r:.60} cannot be traced back to its "
                                "characters cluster by cluster; no offsets for it")
    return normal, starts, ends


def p1p2_offsets(text: str, alphabet: str, pretokens: Sequence[str],
                 token_units: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """Each token's character span ``(start, end)`` in ``text``.

    Parameters
    ----------
    text : str
        The text as given (before NFKC).
    alphabet : str
        The vocabulary's alphabet.
    pretokens : sequence of str
        The P1 pretokens of ``text``, each its P2 pieces joined: spelled, marker first.
    token_units : sequence of sequences of int
        For each pretoken, its tokens' lengths in characters of the spelling.

    Raises
    ------
    InvalidValueError
        If the pretokens are not the text's (a caller's mix-up) or NFKC cannot be traced.
    """
    check_budget(len(text) * BYTES_PER_CHARACTER, f"the offsets of a {len(text):,}-character "
                 "text")
    normal, src_start, src_end = nfkc_with_sources(text)
    if alphabet == "byte-level":  # units are bytes: each byte comes from its character
        unit_char = [k for k, ch in enumerate(normal) for _ in range(len(ch.encode("utf-8")))]
        units = spell("byte-level", normal)
    else:
        unit_char = list(range(len(normal)))
        units = normal
    mark = len(marker(alphabet))
    out: list[tuple[int, int]] = []
    pos = 0
    for k, (pretoken, lengths) in enumerate(zip(pretokens, token_units)):
        while pos < len(units) and normal[unit_char[pos]].isspace():  # P1 dropped it
            pos += 1
        if not units.startswith(pretoken[mark:], pos):
            raise InvalidValueError(f"pretoken {k} ({pretoken!r:.30}) is not where the text "
                                    "has it")
        left = mark
        for n in lengths:
            width = n - min(left, n)
            left = max(left - n, 0)
            if width == 0:  # only the marker: an empty span where the pretoken starts
                c = src_start[unit_char[pos]] if pos < len(units) else len(text)
                out.append((c, c))
                continue
            out.append((src_start[unit_char[pos]], src_end[unit_char[pos + width - 1]]))
            pos += width
    return out
