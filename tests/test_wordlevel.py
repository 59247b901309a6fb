"""workbench.wordlevel: every verb of the word-level contract derived from ``tokenize_batch``.

A minimal subclass (one token per character) shows what the base gives a new tokeniser; the
package's own classes are checked against the contract in ``tests/test_interfaces.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from workbench import (
    ArgumentTypeError,
    InvalidValueError,
    Vocabulary,
    WorkbenchDeprecationWarning,
)
from workbench.wordlevel import TokenSampler, WordTokenizer, as_words, split_flat

V = Vocabulary(["a", "b", "c", "ab", "abc"])


class Chars(WordTokenizer):
    """One token per character: deterministic, every verb from ``tokenize_batch``."""

    def __init__(self, vocab):
        self.vocab = vocab

    def tokenize_batch(self, words):
        return [list(w) for w in as_words(words)]


class Coin(TokenSampler):
    """Each word whole or in characters, by a coin of the sampler's generator."""

    def tokenize_batch(self, words):
        words = as_words(words)
        heads = self._rng.random(len(words)) < 0.5
        return [[w] if h or not w else list(w) for w, h in zip(words, heads)]


def test_the_verbs_from_tokenize_batch():
    t = Chars(V)
    assert t.tokenize("abc") == ["a", "b", "c"] and t.tokenize("") == []
    assert t.encode("cab") == [2, 0, 1] and all(type(i) is int for i in t.encode("cab"))
    assert t.encode_batch(["ab", "", "c"]) == [[0, 1], [], [2]]
    ids, offsets = t.encode_flat(["ab", "", "c"])
    assert ids.dtype == np.int32 and offsets.dtype == np.int64
    assert ids.tolist() == [0, 1, 2] and offsets.tolist() == [0, 2, 2, 3]
    flat = t.encode_code_points(np.array([97, 98, 99]), np.array([0, 2, 2, 3]))
    assert flat[0].tolist() == ids.tolist() and flat[1].tolist() == offsets.tolist()
    assert t.decode([2, 0, 1]) == "cab" and t.decode([]) == ""


def test_one_word_is_the_batch_of_that_word():
    """``tokenize(word)`` and ``sample(word)`` are ``tokenize_batch([word])[0]`` and
    ``encode(word)`` the ids of ``encode_flat([word])``, from the same generator state."""
    for seed in range(20):
        assert Coin(V, seed).tokenize("abc") == Coin(V, seed).tokenize_batch(["abc"])[0]
        assert Coin(V, seed).sample("abc") == Coin(V, seed).tokenize("abc")
        assert Coin(V, seed).encode("abc") == Coin(V, seed).encode_flat(["abc"])[0].tolist()
    seen = {tuple(Coin(V, seed).tokenize("abc")) for seed in range(20)}
    assert seen == {("abc",), ("a", "b", "c")}, "both sides of the coin, else nothing is tested"


def test_reseeded_is_a_fresh_sampler():
    s = Coin(V, 1)
    assert s.reseeded(7).tokenize_batch(["ab"] * 30) == Coin(V, 7).tokenize_batch(["ab"] * 30)
    assert s.tokenize_batch(["ab"] * 30) == Coin(V, 1).tokenize_batch(["ab"] * 30)
    assert Coin(V, 2).sample_many("ab", 3) == Coin(V, 2).tokenize_batch(["ab"] * 3)


def test_old_spellings_warn_and_answer_as_the_new():
    t = Chars(V)
    with pytest.warns(WorkbenchDeprecationWarning,
                      match=r"Chars.tokenize\(words\) .* use Chars.tokenize_batch\(words\)"):
        assert t.tokenize(["ab", "c"]) == [["a", "b"], ["c"]]
    with pytest.warns(WorkbenchDeprecationWarning, match=r"use Chars.encode_flat\(words\)"):
        ids, offsets = t.encode(("ab", "c"))
    assert ids.tolist() == [0, 1, 2] and offsets.tolist() == [0, 2, 3]
    assert issubclass(WorkbenchDeprecationWarning, DeprecationWarning)


@pytest.mark.parametrize("bad", [b"ab", 3, 2.5, None])
def test_a_word_that_is_not_a_str_is_refused(bad):
    t = Chars(V)
    for verb in (t.tokenize, t.encode):
        with pytest.raises(ArgumentTypeError, match="word must be str"):
            verb(bad)


def test_batches_refuse_a_single_str_and_non_str_items():
    t = Chars(V)
    with pytest.raises(ArgumentTypeError, match="for one word use tokenize"):
        t.tokenize_batch("ab")
    with pytest.raises(ArgumentTypeError, match="word 1 is int"):
        t.encode_batch(["a", 1])
    with pytest.raises(ArgumentTypeError, match="sequence of str, not int"):
        t.encode_flat(5)


def test_ids_need_a_finite_vocabulary_and_known_ids():
    inf = Chars(Vocabulary.infinite())
    assert inf.tokenize("xyz") == ["x", "y", "z"]
    for call in (lambda: inf.encode("x"), lambda: inf.encode_batch(["x"]),
                 lambda: inf.decode([0])):
        with pytest.raises(ArgumentTypeError, match="Chars has no ids"):
            call()
    with pytest.raises(InvalidValueError):
        Chars(V).decode([0, 5])


def test_split_flat():
    assert split_flat(np.zeros(0, np.int32), np.array([0])) == []
    assert split_flat(np.array([5, 6]), np.array([0, 0, 2])) == [[], [5, 6]]
