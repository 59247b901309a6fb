"""The GPT-4 and GPT-2 split patterns: how running text is cut into chunks before BPE.

BPE never merges across chunk boundaries. Chunks are the matches of :data:`GPT4_PATTERN`
(``cl100k_base``'s pattern, the one BatchBPE and minbpe use) under the third-party
:mod:`regex` package (the pattern needs possessive quantifiers and ``\\p{..}`` classes).

This module only defines the patterns and a compiled splitter (the numba pretokeniser that
reproduces them is :mod:`workbench.bpe.split`). It does not count chunks (see
:mod:`workbench.bpe.counting`) and does not encode them (see :mod:`workbench.bpe.model`).

Example
-------
>>> split_text("Hello world's 12345 end!!\\n")
['Hello', ' world', "'s", ' ', '123', '45', ' end', '!!\\n']
"""

from __future__ import annotations

import regex

from .._core.errors import ArgumentTypeError

#: GPT-4 (``cl100k_base``) pretokenisation pattern.
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*"""
    r"""|\s*[\r\n]|\s+(?!\S)|\s+"""
)

#: :data:`GPT4_PATTERN` compiled once with :mod:`regex`.
GPT4_REGEX = regex.compile(GPT4_PATTERN)

#: GPT-2 (``r50k_base``) pretokenisation pattern (case-sensitive contractions, digit runs of
#: any length with an optional leading space).
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

#: :data:`GPT2_PATTERN` compiled once with :mod:`regex`.
GPT2_REGEX = regex.compile(GPT2_PATTERN)


def split_text(text: str) -> list[str]:
    """Cut ``text`` into GPT-4 chunks (their concatenation is ``text``).

    >>> split_text("  two spaces")
    [' ', ' two', ' spaces']
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"text must be str, not {type(text).__name__}")
    return GPT4_REGEX.findall(text)
