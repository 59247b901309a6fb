"""Plain-Python P1 + P2 (GRaMPa §5.2), character by character, for checking the scan kernel.

No regexes and nothing from the package: word characters are ``str.isalnum()`` or ``_``
(Python's ``\\w``), whitespace is ``str.isspace()``, digits to isolate are
``str.isdecimal()`` (``\\d``); GPT-2's byte map is rebuilt here. One list of pieces per P1
pretoken, spelled in the alphabet with the boundary marker.
"""

from __future__ import annotations

import unicodedata

MARKS = {"identity": "", "sentencepiece": "\u2581", "byte-level": " "}
APOSTROPHES = "'\u2019"


def gpt2_byte_map() -> dict[int, str]:
    keep = [*range(33, 127), *range(161, 173), *range(174, 256)]
    table, extra = {}, 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


_BYTES = gpt2_byte_map()


def spell(piece: str, alphabet: str) -> str:
    if alphabet == "byte-level":
        return "".join(_BYTES[b] for b in piece.encode("utf-8"))
    return piece


def _word(c: str) -> bool:
    return c.isalnum() or c == "_" or c == "-"


def p1(line: str) -> list[str]:
    line = unicodedata.normalize("NFKC", line)
    tokens, i = [], 0
    while i < len(line):
        if line[i].isspace():
            i += 1
            continue
        j = i + 1
        if _word(line[i]):
            while j < len(line) and _word(line[j]):
                j += 1
            while j + 1 < len(line) and line[j] in APOSTROPHES and _word(line[j + 1]):
                j += 2
                while j < len(line) and _word(line[j]):
                    j += 1
        tokens.append(line[i:j])
        i = j
    return tokens


def p2(token: str, alphabet: str) -> list[str]:
    mark = MARKS[alphabet]
    if all((c.isalnum() and not c.isdecimal()) for c in token):  # letters: one piece
        return [spell(mark + token, alphabet)]
    head, tail = token, ""
    for k, suffixes in ((3, ("re", "ve", "ll")), (2, ("s", "t", "m", "d"))):
        if len(token) >= k and token[-k] in APOSTROPHES and token[1 - k:].lower() in suffixes:
            if len(token) > k:  # the apostrophe may not start the pretoken
                head, tail = token[:-k], token[-k:]
            break
    pieces: list[str] = []
    for c in head:
        if c.isdecimal() or c == "-" or not pieces or pieces[-1][-1].isdecimal() \
                or pieces[-1] == "-":
            pieces.append(c)
        else:
            pieces[-1] += c
    if mark:
        if all(c.isdigit() for c in pieces[0]) or pieces[0] == "-":
            pieces.insert(0, mark)
        else:
            pieces[0] = mark + pieces[0]
    pieces += [tail] if tail else []
    return [spell(p, alphabet) for p in pieces]


def pretokenise(line: str, alphabet: str) -> list[list[str]]:
    """P2 pieces grouped by P1 pretoken."""
    return [p2(t, alphabet) for t in p1(line)]
