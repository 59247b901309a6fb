"""Text cut into blocks that no chunk crosses: in-memory texts, and files by byte range.

Counting block by block (:mod:`workbench.bpe.counting`) equals counting the whole text only
if no chunk of the split pattern crosses a block boundary. This module says where such cuts
are (:func:`_safe_blocks`), reads one byte range of a file moved to safe cuts, streamed in
pieces (:func:`_range_text`), and names file, line and byte when the bytes are not UTF-8
(:class:`TextDecodeError`). It does not split or count anything.

**Block cuts.** A block may only end where the pattern itself always ends a chunk and the
chunking of what follows does not depend on what precedes (the pattern has no look-behind).
For the GPT-4 pattern two kinds of positions qualify, and blocks are cut only there:

* after a ``"\\n"`` that is followed by a non-whitespace character (the chunk holding the
  newline always ends there), and
* between a non-whitespace character and a whitespace character other than ``\\r``/``\\n``
  (``"word| next"``: a chunk never runs from ``\\S`` into such whitespace).

Byte ranges of files (the unit of parallel work) start and end only at the first kind of
position, found from the range's nominal offsets by each task on its own, so neighbouring
tasks agree on the cut without talking to each other. A text with no such position (a
single line without spaces, a file whose every line starts with whitespace) is counted as
one block: correct, but not split.

**GPT-2 cuts.** GPT-2's ``\\s+(?!\\S)`` leaves the last whitespace character of a run
before ``\\S`` to a chunk of its own (``"\\n\\nA"`` → ``"\\n"``, ``"\\n"``, ``"A"``), so a
block may not end after a run of two or more whitespace characters (GPT-4's
``\\s*[\\r\\n]`` keeps ``"\\n\\n"`` whole, hence its first kind of cut). With
``pattern="gpt2"`` blocks are cut only between ``\\S`` and non-line-break whitespace, or
after a ``"\\n"`` that follows ``\\S`` and precedes ``\\S``; and a file is one unit of
work (still streamed in blocks, memory bounded, but not split across threads: several
files run in parallel).

**Undecodable bytes.** Files are read as UTF-8 with no newline translation (``"\\r\\n"``
stays two characters); a byte range is read as it is, and the caller drops a file's leading
byte-order mark (:func:`workbench.bpe.counting.count_chunks` does, once per file). With
``errors="strict"`` (the default) an invalid byte sequence raises
:class:`UnicodeDecodeError` whose message names the file, the line number and the byte
offset within the line; ``errors="replace"`` substitutes U+FFFD (the table then holds
chunks with ``"\\ufffd"``) and ``errors="ignore"`` drops the bytes, exactly as
``bytes.decode`` does on the whole file. (:class:`TextDecodeError` is the
:class:`UnicodeDecodeError` raised.)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import regex

from .._core.errors import WorkbenchError, public

#: Bytes read from a file at a time (then cut back to the last newline).
_READ = 1 << 20

# Positions where a block may be cut (see the module docstring): after "\n" before \S, or
# between \S and whitespace that is not a line break.
_CUT = regex.compile(r"(?<=\n)(?=\S)|(?<=\S)(?=[^\S\r\n])")
# The same for GPT-2: a "\n" cut only after \S (see "GPT-2 cuts" in the module docstring).
_CUT_GPT2 = regex.compile(r"(?<=\S\n)(?=\S)|(?<=\S)(?=[^\S\r\n])")
_NON_SPACE = regex.compile(r"\S")


@public
class TextDecodeError(WorkbenchError, UnicodeDecodeError):
    """Invalid UTF-8 in a text file; the message names the file, the line and the byte.

    A :class:`UnicodeDecodeError` (hence a ``ValueError``) that survives the trip back from a
    worker process or a Dask worker with its message intact.
    """

    def __reduce__(self):
        return (type(self), (self.encoding, bytes(self.object), self.start, self.end,
                             self.reason))


def _safe_blocks(pieces: Iterable[str], size: int, cut: regex.Pattern = _CUT
                 ) -> Iterator[str]:
    """Concatenate ``pieces`` and cut the text again into blocks of about ``size`` characters.

    Every block but the last has at least ``size`` characters and ends at a safe cut
    (``cut``: GPT-4's by default, ``_CUT_GPT2`` for GPT-2), so counting block by block
    equals counting the whole text.

    >>> list(_safe_blocks(["ab c", "d\\n", " e\\nf"], 2))
    ['ab', ' cd\\n e\\n', 'f']
    """
    parts: list[str] = []
    length = 0
    searched = size  # first position of the buffer not yet searched for a cut
    check_at = size  # join and search once the buffer is longer than this
    for piece in pieces:
        parts.append(piece)
        length += len(piece)
        if length <= check_at:
            continue
        text = "".join(parts)
        start = 0
        while (match := cut.search(text, searched)) is not None:
            yield text[start:match.start()]
            start = match.start()
            searched = start + size
        parts = [text[start:]] if start < len(text) else []
        length = len(text) - start
        found = start > 0
        searched = max(searched - start, length)  # the end may become a cut with more text
        # Without a cut, wait for 25% more text: joins stay linear in total.
        check_at = searched if found else max(searched, length + length // 4)
    if length:
        yield "".join(parts)


def _decode(raw: bytes, errors: str, path: str, offset: int) -> str:
    """Decode whole lines (``raw`` starts at byte ``offset`` of ``path``) or name where it fails.

    UTF-8 never uses the byte ``\\n`` inside a character, so decoding line by line, block by
    block or the whole file at once give the same text for every ``errors``.
    """
    try:
        return raw.decode("utf-8", errors)
    except UnicodeDecodeError as err:
        line_start = raw.rfind(b"\n", 0, err.start) + 1
        line = _line_number(path, offset + line_start)
        at = err.start - line_start
        raise TextDecodeError(
            "utf-8", raw[line_start:raw.find(b"\n", err.start) % (len(raw) + 1)],
            at, at + err.end - err.start,
            f"{err.reason} ({path}, line {line}, byte {at} of the line; pass "
            f"errors='replace' or 'ignore' to count it anyway)") from None


def _line_number(path: str, offset: int) -> int:
    """1-based number of the line that starts at byte ``offset`` (read in 1 MiB pieces)."""
    newlines = 0
    with open(path, "rb") as handle:
        while offset > 0:
            piece = handle.read(min(offset, 1 << 20))
            if not piece:
                break
            newlines += piece.count(b"\n")
            offset -= len(piece)
    return newlines + 1


def _range_text(path: str, start: int, stop: int | None, errors: str) -> Iterator[str]:
    """Decoded text of the byte range ``[start, stop)`` moved to line cuts, in pieces.

    The range really begins at the first line start ``q >= start`` whose line begins with a
    non-whitespace character (``q = 0`` always qualifies) and ends at the first such line start
    ``>= stop`` (or at the end of the file when ``stop`` is None), so consecutive ranges tile
    the file at safe cuts. The bulk is read in pieces of ``_READ`` bytes ending at a newline;
    only the lines around the two ends are read one by one.
    """
    with open(path, "rb") as handle:
        offset = 0
        if start > 0:
            handle.seek(start - 1)
            handle.readline()  # to the first line start >= start
            offset = handle.tell()
            for raw in iter(handle.readline, b""):
                text = _decode(raw, errors, path, offset)
                if _NON_SPACE.match(text) is not None:
                    if stop is not None and offset >= stop:
                        return  # the range holds no cut: the previous one reads on
                    offset += len(raw)
                    yield text
                    break
                offset += len(raw)  # still the previous range's text
            else:
                return
        rest = b""  # an incomplete line carried into the next read
        while stop is None or offset + len(rest) < stop:
            data = handle.read(_READ if stop is None else min(_READ, stop - offset - len(rest)))
            if not data:
                break
            data = rest + data
            end = data.rfind(b"\n") + 1
            rest = data[end:]
            if end:
                yield _decode(data[:end], errors, path, offset)
                offset += end
        if rest or stop is None:  # finish the line that crosses stop (or the last line)
            rest += handle.readline()
            if rest:
                yield _decode(rest, errors, path, offset)
                offset += len(rest)
        for raw in iter(handle.readline, b""):  # lines starting at or after stop
            text = _decode(raw, errors, path, offset)
            if _NON_SPACE.match(text) is not None:
                return
            offset += len(raw)
            yield text
