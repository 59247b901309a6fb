"""Named split patterns (``"gpt4"``, ``"gpt2"``) and user regexes, resolved for a BPE model.

A :class:`~workbench.bpe.model.BPEModel` cuts text into chunks before merging; which cut is
part of the model. This module names the two standard cuts and turns a model's ``pattern``
argument (a name or a user regex string) into the regex text and a compiled :mod:`regex`
object, and splits text with a user pattern without losing characters.

* ``"gpt4"``: :data:`workbench.bpe.pattern.GPT4_PATTERN` (``cl100k_base``).
* ``"gpt2"``: :data:`workbench.bpe.pattern.GPT2_PATTERN`, the pattern of OpenAI's GPT-2
  ``encoder.py`` (also the regex of HuggingFace's ``ByteLevel`` pre-tokenizer).
  ``tiktoken``'s ``r50k_base`` writes it with possessive quantifiers and
  ``\\s++$|...|\\s``; the chunks are the same.
* any other string: a user regex, compiled with :mod:`regex`.

The two named patterns match every character of every text (their chunks concatenate to the
text). A user pattern need not: :func:`split_with_gaps` keeps the unmatched stretches as
chunks of their own (as HuggingFace's ``Split(..., "isolated")`` does), so encoding stays
lossless; ``tiktoken`` drops them, so ids equal ``tiktoken``'s only for covering patterns.
Empty matches are skipped.

This module does not encode, count or run a numba pretokeniser (see
:mod:`workbench.bpe.pattern`).

Example
-------
>>> name, pat, rx = resolve_pattern("gpt2")
>>> name, rx.findall("12345 it's")
('gpt2', ['12345', ' it', "'s"])
>>> split_with_gaps(resolve_pattern(r"\\d+")[2], "ab12c")
['ab', '12', 'c']
"""

from __future__ import annotations

import regex

from .._core.errors import ArgumentTypeError, InvalidValueError
from .pattern import GPT2_PATTERN, GPT4_PATTERN

#: The named patterns a model may give as ``pattern``.
NAMED_PATTERNS: dict[str, str] = {"gpt4": GPT4_PATTERN, "gpt2": GPT2_PATTERN}

_COMPILED: dict[str, regex.Pattern] = {}


def resolve_pattern(pattern: object) -> tuple[str, str, regex.Pattern]:
    """``(name_or_regex, regex_text, compiled)`` of a model's ``pattern`` argument.

    A name (``"gpt4"``, ``"gpt2"``) or a regex string spelled exactly like a named pattern
    resolves to the name; any other string is a user regex.

    Raises
    ------
    TypeError
        If ``pattern`` is not a str.
    ValueError
        If it is empty or does not compile with :mod:`regex`.
    """
    if not isinstance(pattern, str):
        raise ArgumentTypeError("pattern must be a str ('gpt4', 'gpt2' or a regex), not "
                                f"{type(pattern).__name__}")
    if not pattern:
        raise InvalidValueError("pattern must not be empty (use 'gpt4', 'gpt2' or a regex)")
    for name, text in NAMED_PATTERNS.items():
        if pattern in (name, text):
            pattern = name
            break
    text = NAMED_PATTERNS.get(pattern, pattern)
    compiled = _COMPILED.get(text)
    if compiled is None:
        try:
            compiled = regex.compile(text)
        except regex.error as err:
            raise InvalidValueError(f"pattern {text!r:.80} does not compile with `regex`: {err}"
                             ) from None
        _COMPILED[text] = compiled
    return pattern, text, compiled


def split_with_gaps(compiled: regex.Pattern, text: str) -> list[str]:
    """The non-empty matches of ``compiled`` in ``text``, with unmatched stretches kept.

    >>> split_with_gaps(regex.compile(r"a+"), "baab")
    ['b', 'aa', 'b']
    """
    out: list[str] = []
    at = 0
    for m in compiled.finditer(text):
        s, e = m.span()
        if s == e:
            continue
        if s > at:
            out.append(text[at:s])
        out.append(text[s:e])
        at = e
    if at < len(text):
        out.append(text[at:])
    return out


def split_by(pattern: str, compiled: regex.Pattern, text: str) -> list[str]:
    """The chunks of ``text`` under a resolved pattern (:func:`resolve_pattern`'s name and
    compiled regex): a named pattern runs the numba pretokeniser (:mod:`.split`, equal to
    ``regex.findall``), a user regex :func:`split_with_gaps`. Their concatenation is ``text``.

    >>> split_by(*resolve_pattern(r"\\d+")[::2], "ab12c")
    ['ab', '12', 'c']
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"text must be str, not {type(text).__name__}")
    if pattern in NAMED_PATTERNS:
        from .split import split as fast_split

        return fast_split(text, pattern)
    return split_with_gaps(compiled, text)
