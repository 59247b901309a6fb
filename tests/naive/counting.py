"""Plain-Python reference for chunk counting: the whole text at once, a dict and a loop.

The GPT-4 split pattern is spelled out here on its own (tiktoken's ``cl100k_base``), so a
change of the package's pattern shows up as a difference. Files are read whole and decoded
in one go. No code is shared with :mod:`workbench.bpe.counting`.
"""

from __future__ import annotations

import regex

GPT4 = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}|"""
        r""" ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+""")
# GPT-2's encoder.py pattern, spelled out here on its own as well.
GPT2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def chunks(text, pattern=GPT4):
    """The chunks of one text, in order (GPT-4 by default); with a pattern that leaves
    characters unmatched, each unmatched stretch is a chunk too (empty matches skipped).

    >>> chunks("Hello world's  end\\n\\n")
    ['Hello', ' world', "'s", ' ', ' end', '\\n\\n']
    >>> chunks("ab12c", r"\\d+")
    ['ab', '12', 'c']
    """
    out = []
    covered = 0
    for match in regex.finditer(pattern, text):
        if match.end() == match.start():
            continue
        if match.start() > covered:
            out.append(text[covered:match.start()])
        out.append(match.group())
        covered = match.end()
    if covered < len(text):
        out.append(text[covered:])
    return out


def count_texts(texts, freq_cutoff=1, pattern=GPT4):
    """Chunk -> count over several texts (no chunk spans two texts), count >= freq_cutoff."""
    table = {}
    for text in texts:
        for chunk in chunks(text, pattern):
            if chunk in table:
                table[chunk] += 1
            else:
                table[chunk] = 1
    return {chunk: n for chunk, n in table.items() if n >= freq_cutoff}


def count_files(paths, freq_cutoff=1, errors="strict", pattern=GPT4):
    """Read every file whole, decode it as UTF-8 and count as :func:`count_texts`."""
    texts = []
    for path in paths:
        with open(path, "rb") as handle:
            texts.append(handle.read().decode("utf-8", errors))
    return count_texts(texts, freq_cutoff, pattern)
