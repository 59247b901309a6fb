"""The paper's pretokenisers P1 and P2 (GRaMPa paper §5.2), composable.

* :func:`p1` — NFKC normalisation, split on (and remove) whitespace, isolate every
  punctuation character except the hyphen (an apostrophe between two word characters, as
  in ``don't``, stays inside its word so that P2 can isolate the contraction);
* :func:`p2` — on one P1 pretoken: isolate English contractions (``'s 't 're 've 'm 'll 'd``),
  spell the pieces in the vocabulary's alphabet (UTF-8 bytes as characters for
  ``"byte-level"``), prefix the first piece with the boundary marker (the alphabet's
  spelling of a space: ``Ġ``, ``▁``), and isolate digits and hyphens;
* :class:`Pretokeniser` — P1 followed by P2 per P1 pretoken, keeping the grouping (the unit
  of multiplexing, §5.2).

Punctuation here is any character that is neither a word character nor whitespace
(``[^\\w\\s]``), hyphen excepted. This module does not segment or tokenise.

Example
-------
>>> p1("Don't  stop—the 3-day   \\uff21rt!")
["Don't", 'stop', '—', 'the', '3-day', 'Art', '!']
>>> p2("Don't", "sentencepiece"), p2("3-day", "byte-level")
(['▁Don', "'t"], ['Ġ', '3', '-', 'day'])
"""

from __future__ import annotations

import re
import unicodedata

from .._core.errors import ArgumentTypeError
from .._core.validate import check_choice
from ..vocab.alphabets import ALPHABETS, SP_SPACE, spell

_P1 = re.compile(r"[\w-]+(?:['\u2019][\w-]+)*|[^\w\s]")
_P2_CONTRACTION = re.compile(r"(?i)['\u2019](?:s|t|re|ve|m|ll|d)$")
_P2_ISOLATE = re.compile(r"\d|-|[^\d-]+")
_SIMPLE = re.compile(r"[^\W\d_]+")  # letters only: P2 leaves such a pretoken whole
_HARD = re.compile(r"[\d_'\u2019-]")  # a line without these has one P2 piece per pretoken


def p1(text: str) -> list[str]:
    """P1: NFKC, split on whitespace (removed), isolate non-hyphen punctuation."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"text must be str, not {type(text).__name__}")
    return _P1.findall(unicodedata.normalize("NFKC", text))


def marker(alphabet: str) -> str:
    """The boundary marker of an alphabet: its spelling of a space (``""`` for identity)."""
    return "" if alphabet == "identity" else spell(alphabet, " ")


def p2(pretoken: str, alphabet: str = "byte-level") -> list[str]:
    """P2 on one P1 pretoken: contractions, alphabet spelling, boundary marker, digits/hyphens.

    The marker is glued to the first piece unless that piece is a digit or a hyphen, which
    are isolated after the marker is added (``"3-day"`` → ``Ġ``, ``3``, ``-``, ``day``).
    """
    alphabet = check_choice(alphabet, "alphabet", ALPHABETS)
    if not pretoken:
        return []
    mark = marker(alphabet)
    if _SIMPLE.fullmatch(pretoken):
        return [mark + spell(alphabet, pretoken)]
    head, tail = pretoken, ""
    found = _P2_CONTRACTION.search(pretoken)
    if found and found.start() > 0:
        head, tail = pretoken[:found.start()], found.group(0)
    pieces = _P2_ISOLATE.findall(head)
    out = [spell(alphabet, p) for p in pieces] + ([spell(alphabet, tail)] if tail else [])
    if mark:
        if out[0].isdigit() or out[0] == "-":
            out.insert(0, mark)
        else:
            out[0] = mark + out[0]
    return out


class Pretokeniser:
    """P1 then P2 per P1 pretoken, for one vocabulary alphabet.

    ``pretokenise(text)`` returns one list of P2 pieces per P1 pretoken (the unit a
    multiplexer flips its coin for); ``pieces(text)`` flattens it.

    >>> Pretokeniser("sentencepiece").pretokenise("It's 42.")
    [['▁It', "'s"], ['▁', '4', '2'], ['▁.']]
    """

    def __init__(self, alphabet: str = "byte-level") -> None:
        self.alphabet = check_choice(alphabet, "alphabet", ALPHABETS)

    def __repr__(self) -> str:
        return f"Pretokeniser({self.alphabet!r})"

    def pretokenise(self, text: str) -> list[list[str]]:
        """P2 pieces grouped by P1 pretoken."""
        return [p2(t, self.alphabet) for t in p1(text)]

    def flat(self, lines: list[str]) -> tuple[list[str], list[int], list[int]]:
        """Every line at once, flat: ``(pieces, pieces per P1 pretoken, pretokens per line)``.

        Equal to :meth:`pretokenise` line by line (letters-only pretokens and single
        punctuation characters skip the P2 regexes). The pipeline uses the faster
        :func:`.scan.scan_lines` instead (same pieces as flat code points, up to two corner
        cases of non-ASCII digits listed there).

        >>> Pretokeniser("sentencepiece").flat(["It's 42.", "", "a"])
        (['▁It', "'s", '▁', '4', '2', '▁.', '▁a'], [2, 3, 1, 1], [3, 0, 1])
        """
        mark = {"identity": "", "sentencepiece": SP_SPACE, "byte-level": " "}[self.alphabet]
        pieces: list[str] = []
        sizes: list[int] = []
        per_line: list[int] = []
        append, extend, size = pieces.append, pieces.extend, sizes.append
        for line in lines:
            line = unicodedata.normalize("NFKC", line)
            toks = _P1.findall(line)
            per_line.append(len(toks))
            if not _HARD.search(line):  # every pretoken is one piece
                extend([mark + t for t in toks])
                sizes += [1] * len(toks)
                continue
            for t in toks:
                if t.isalpha() or (len(t) == 1 and not t.isdigit() and t != "-"):
                    append(mark + t)
                    size(1)
                else:
                    group = p2(t, "identity")
                    if mark:
                        if group[0].isdigit() or group[0] == "-":
                            group.insert(0, mark)
                        else:
                            group[0] = mark + group[0]
                    extend(group)
                    size(len(group))
        if self.alphabet == "byte-level":
            pieces = [spell("byte-level", p) for p in pieces]
        return pieces, sizes, per_line

    def pieces(self, text: str) -> list[str]:
        """All P2 pieces of ``text`` in order."""
        return [p for group in self.pretokenise(text) for p in group]
