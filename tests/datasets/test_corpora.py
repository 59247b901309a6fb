"""workbench.datasets.corpora: each recipe makes the cut its name says, checked from first
principles (plain loops over the shipped text, hand-written expectations)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from workbench import Vocabulary
from workbench.bpe import split_text
from workbench.datasets import corpora, load_text
from workbench.pretokenise import Pretokeniser


def test_text_lines_are_the_non_blank_lines_in_order():
    raw = load_text("shakespeare").split("\n")
    expect = [line for line in raw if line.strip() != ""][:50]
    assert corpora.text_lines(max_lines=50) == expect
    assert corpora.text_lines(max_lines=0) == []
    with pytest.raises(ValueError):
        corpora.text_lines(max_lines=-1)


def test_whitespace_word_counts_add_up_to_the_words_of_the_lines():
    lines = corpora.text_lines(max_lines=120)
    table = corpora.whitespace_word_counts(max_lines=120)
    assert sum(table.values()) == sum(len(line.split()) for line in lines)
    first = lines[0].split()[0]
    assert table[first] == sum(line.split().count(first) for line in lines)


def test_first_words_joins_the_leading_words():
    words = load_text("shakespeare").split()
    assert corpora.first_words(7) == " ".join(words[:7])
    with pytest.raises(ValueError):
        corpora.first_words(0)


def test_split_words_cuts_each_word_and_drops_empty_ones():
    assert corpora.split_words("ab  c", list) == [("a", "b"), ("c",)]
    assert corpora.split_words("ab c d", lambda w: [] if w == "c" else [w]) == [("ab",), ("d",)]
    assert corpora.split_words("a b c", list, limit=2) == [("a",), ("b",)]
    with pytest.raises(TypeError):
        corpora.split_words(b"ab", list)


def test_split_words_with_the_pretokeniser_are_p1_p2_pieces():
    pre = Pretokeniser("sentencepiece")
    text = "Hello, world! It's 2024."
    assert corpora.split_words(text, pre.pieces) == [
        tuple(pre.pieces(w)) for w in text.split() if tuple(pre.pieces(w))]


def test_split_chunk_counts_with_the_gpt4_split():
    lines = ["Hello world", "hello  world!!"]
    expect: Counter = Counter()
    for line in lines:
        for chunk in split_text(line):
            expect[chunk] += 1
    assert corpora.split_chunk_counts(lines, split_text) == dict(expect)
    assert corpora.split_chunk_counts(lines, split_text)[" world"] == 2
    with pytest.raises(TypeError):
        corpora.split_chunk_counts("one string", split_text)


def test_greedtok_chunks_differ_from_gpt4_chunks():
    text = "It's 12345 end!!\n  x"
    assert corpora.greedtok_chunk_counts(text) == {
        "It": 1, "'": 1, "s": 1, " 12345": 1, " end": 1, "!!": 1, " x": 1}
    gpt4 = Counter(split_text(text))
    assert "'s" in gpt4 and "'s" not in corpora.greedtok_chunk_counts(text)


def test_greedtok_text_chunk_counts_read_the_shipped_text():
    text = load_text("shakespeare")[:5000]
    assert corpora.greedtok_text_chunk_counts(5000) == corpora.greedtok_chunk_counts(text)


def test_letter_words_are_ascii_letter_runs_after_the_title_page():
    text = load_text("shakespeare")
    runs = re.findall(r"[A-Za-z]+", text[:200_000])
    inf = Vocabulary.infinite()
    assert corpora.letter_words(10, inf, offset=3) == runs[2003:2013]
    spelled = corpora.letter_words(4, Vocabulary(["a"], alphabet="sentencepiece"))
    assert spelled == ["▁" + w for w in runs[2000:2004]]
    with pytest.raises(ValueError):
        corpora.letter_words(0, inf)
    with pytest.raises(TypeError):
        corpora.letter_words(3, "gpt2")


def test_synthetic_words_have_the_length_and_are_seeded():
    inf = Vocabulary.infinite()
    a = corpora.synthetic_words(25, 5, inf, seed=4)
    assert [len(w) for w in a] == [25] * 5 and all(w.isalpha() for w in a)
    assert a == corpora.synthetic_words(25, 5, inf, seed=4)
    assert a != corpora.synthetic_words(25, 5, inf, seed=5)


def test_check_words():
    assert corpora.check_words(("ab", "c")) == ["ab", "c"]
    with pytest.raises(TypeError):
        corpora.check_words("ab")
    with pytest.raises(ValueError):
        corpora.check_words([])
