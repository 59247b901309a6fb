"""The numba pretokeniser (workbench.bpe.split) equals ``regex.findall`` with the GPT-4 and
GPT-2 patterns: hypothesis-generated Unicode text, handpicked edge cases, held-out corpora.

The reference is the :mod:`regex` module itself, compiled here from the pattern strings.
"""

from __future__ import annotations

import numpy as np
import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.bpe.pattern import GPT2_PATTERN, GPT4_PATTERN
from workbench.bpe.split import class_table, code_points, split, split_offsets

REF = {"gpt4": regex.compile(GPT4_PATTERN), "gpt2": regex.compile(GPT2_PATTERN)}
BOTH = pytest.mark.parametrize("pattern", ["gpt4", "gpt2"])

# Characters that decide boundaries: contraction letters in both cases and their fold-alikes
# (long s, Kelvin sign), digits of several scripts, letter-numbers, punctuation, every kind
# of whitespace, combining marks, emoji, a lone surrogate, a private-use code point.
_ALPHABET = list("abSsTtLlVvEeDdRrMm'’1٣²Ⅻ.!,-\"é中ſK") + [
    " ", " ", " ", "\t", "\n", "\n", "\r", "\r\n", "\u2028", "\u2029", "\xa0", "\u3000",
    "\x0b", "\x0c", "\x1c", "\x85", "\u200b", "😀", "👍🏽", "\u0301", "\u0903", "\ud800",
    "\udfff", "\ue000", "\U0010ffff", "\x00"]
_SETTINGS = settings(max_examples=400, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])


@BOTH
@_SETTINGS
@given(st.lists(st.sampled_from(_ALPHABET), max_size=40).map("".join))
def test_equals_regex_on_tricky_alphabet(pattern, text):
    assert split(text, pattern) == REF[pattern].findall(text)


@BOTH
@_SETTINGS
@given(st.text(st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF),
               max_size=60))
def test_equals_regex_on_any_unicode(pattern, text):
    assert split(text, pattern) == REF[pattern].findall(text)


EDGE = [
    "", " ", "  ", "   x", "x   ", "x \n", " \n ", "\n\n\n", "\r\n\r\n", "\r \r\n \n x",
    "a\r\n\r\nb", "  \t\n  \t", "\t\t\tx", "\xa0\xa0word", "word\xa0", "\u3000\u3000x",
    "don't I'LL we'Ve THEY'RE he'D she'S it'M 'T", "'", "''", "'ss", "'lL", "'ve'", "'x",
    "'ſ", "'K", "'\u212a", "rock'n'roll", "’s", "1", "12", "123", "1234", "1234567",
    " 1234", "a1b22c333d4444", "٣٣٣٣", "Ⅻ Ⅻ", "x²³", "1.5e10", "$100,000.00", "...!!!",
    " ...\n", " !!\r\n\r\nx", "?!\n\n", "e\u0301", "\u0301\u0301x", " \u0301a", "😀😀 😀",
    "👍🏽x", "a\ud800b", "\udfff", " \ud800", "\x00\x00", "tab\tsep\tvalues\n",
    "end  ", "end \t", "trailing spaces   \n   ", "\u2028x\u2029", "\x85x",
]


@BOTH
@pytest.mark.parametrize("text", EDGE)
def test_equals_regex_on_edge_cases(pattern, text):
    assert split(text, pattern) == REF[pattern].findall(text)


def test_documented_difference_between_patterns():
    assert split("12345", "gpt4") == ["123", "45"]
    assert split(" 12345", "gpt2") == [" 12345"]
    assert split("WE'LL", "gpt4") == ["WE", "'LL"]
    assert split("WE'LL", "gpt2") == ["WE", "'", "LL"]
    assert split("a  \nb", "gpt4") == ["a", "  \n", "b"]
    assert split("a  \nb", "gpt2") == ["a", "  ", "\n", "b"]


def test_class_table_agrees_with_regex_per_code_point():
    table = class_table()
    assert table.shape == (0x110000,) and table.dtype == np.uint8
    rng = np.random.default_rng(0)
    for cp in rng.integers(0, 0x110000, 3000).tolist() + [0x20, 0xA0, 0x17F, 0x212A, 0xD800]:
        c = chr(cp)
        assert bool(table[cp] & 1) == bool(regex.match(r"\p{L}", c))
        assert bool(table[cp] & 2) == bool(regex.match(r"\p{N}", c))
        assert bool(table[cp] & 4) == bool(regex.match(r"\s", c))


def test_offsets_and_arguments():
    cps = code_points("ab  c")
    assert split_offsets(cps).tolist() == [0, 2, 3, 5]
    assert split_offsets(cps.astype(np.int64), "gpt2").tolist() == [0, 2, 3, 5]
    with pytest.raises(ValueError, match="pattern"):
        split("x", "gpt3")
    with pytest.raises(TypeError):
        split(b"x")
    with pytest.raises(ValueError):
        split_offsets(np.array([0x110000]))
    with pytest.raises(TypeError):
        split_offsets(np.array([1.5]))


# --------------------------------------------------------------------------- corpora
@BOTH
def test_shipped_shakespeare_equals_regex(pattern):
    from workbench.datasets import load_text

    text = load_text("shakespeare")
    assert split(text, pattern) == REF[pattern].findall(text)


@BOTH
@pytest.mark.parametrize("name", ["un", "fineweb10"])
def test_shipped_table_chunk_keys_equal_regex(pattern, name):
    from workbench.datasets import load_counts

    keys = list(load_counts(name))[:60_000]
    text = "".join(keys)  # chunks joined: boundaries move, both must agree anyway
    assert split(text, pattern) == REF[pattern].findall(text)
    for key in keys[:5_000]:
        assert split(key, pattern) == REF[pattern].findall(key)
