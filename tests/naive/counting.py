"""Plain-Python reference for chunk counting: the whole text at once, a dict and a loop.

The GPT-4 split pattern is spelled out here on its own (tiktoken's ``cl100k_base``), so a
change of the package's pattern shows up as a difference. Files are read whole and decoded
in one go. No code is shared with :mod:`workbench.bpe.counting`.
"""

from __future__ import annotations

import regex

GPT4 = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}|"""
        r""" ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+""")


def chunks(text):
    """The GPT-4 chunks of one text, in order.

    >>> chunks("Hello world's  end\\n\\n")
    ['Hello', ' world', "'s", ' ', ' end', '\\n\\n']
    """
    return regex.findall(GPT4, text)


def count_texts(texts, freq_cutoff=1):
    """Chunk -> count over several texts (no chunk spans two texts), count >= freq_cutoff."""
    table = {}
    for text in texts:
        for chunk in chunks(text):
            if chunk in table:
                table[chunk] += 1
            else:
                table[chunk] = 1
    return {chunk: n for chunk, n in table.items() if n >= freq_cutoff}


def count_files(paths, freq_cutoff=1, errors="strict"):
    """Read every file whole, decode it as UTF-8 and count as :func:`count_texts`."""
    texts = []
    for path in paths:
        with open(path, "rb") as handle:
            texts.append(handle.read().decode("utf-8", errors))
    return count_texts(texts, freq_cutoff)
