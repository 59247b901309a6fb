"""The text-level base: offsets against a byte-by-byte reference, ids checked, streams."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive.bpe import merge_seq

from workbench import WorkbenchError
from workbench.interfaces import TextLevel
from workbench.textlevel import (
    TextLevelTokenizer,
    TextSampler,
    as_texts,
    char_offsets,
    default_threads,
)


def naive_char_offsets(text: str, lengths: list[int]) -> list[tuple[int, int]]:
    """Walk the characters: token ``j`` spans from the character holding its first byte to
    the one holding its last byte, inclusive."""
    owner = []  # byte -> character index
    for c, ch in enumerate(text):
        owner.extend([c] * len(ch.encode("utf-8")))
    out, at = [], 0
    for n in lengths:
        out.append((owner[at], owner[at + n - 1] + 1))
        at += n
    return out


class Bytes(TextLevelTokenizer):
    """One token per byte, plus one two-byte token for "ab" (id 256)."""

    token_bytes = {**{b: bytes([b]) for b in range(256)}, 256: b"ab"}

    def encode(self, text):
        return merge_seq(list(text.encode("utf-8")), (97, 98), 256)


class Coins(TextSampler):
    """Each byte's id, or (a coin) the byte plus 1000 meaning the same byte."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self.token_bytes = {**{b: bytes([b]) for b in range(256)},
                            **{1000 + b: bytes([b]) for b in range(256)}}

    def encode(self, text, seed=None):
        return self.encode_batch([text], seed=seed)[0]

    def encode_batch(self, texts, *, num_threads=None, seed=None):
        texts = as_texts(texts)
        return [[b + 1000 * int(rng.integers(2)) for b in t.encode()]
                for t, rng in zip(texts, self._streams(len(texts), seed))]


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=0, max_size=30), st.randoms(use_true_random=False))
def test_char_offsets_match_the_byte_walk(text, rnd):
    raw = len(text.encode("utf-8"))
    cuts = sorted(rnd.sample(range(1, raw), k=rnd.randint(0, max(raw - 1, 0)))) if raw else []
    bounds = [0, *cuts, raw] if raw else [0]
    lengths = [b - a for a, b in zip(bounds[:-1], bounds[1:])]
    assert char_offsets(text, lengths) == naive_char_offsets(text, lengths)


def test_char_offsets_refuse_tokens_that_do_not_spell_the_text():
    with pytest.raises(WorkbenchError, match="do not spell"):
        char_offsets("abc", [1, 1])
    with pytest.raises(ValueError, match="at least one byte"):
        char_offsets("ab", [2, 0])
    assert char_offsets("", []) == []


def test_the_verbs_derive_from_encode():
    t = Bytes()
    text = "xab é"
    assert isinstance(t, TextLevel)
    assert t.encode(text) == [120, 256, 32, 195, 169]
    assert t.tokenize(text) == ["x", "ab", "Ġ", "Ã", "©"]
    assert t.encode_with_offsets(text) == ([120, 256, 32, 195, 169],
                                           [(0, 1), (1, 3), (3, 4), (4, 5), (4, 5)])
    assert t.decode(t.encode(text)) == text and t.decode_bytes([256]) == b"ab"
    assert t.encode_batch([text, ""], num_threads=1) == [t.encode(text), []]
    assert t.decode([195]) == "\ufffd" and t.decode([195], errors="ignore") == ""
    with pytest.raises(UnicodeDecodeError):
        t.decode([195], errors="strict")
    assert t.decode(np.array([97, 98], dtype=np.int64)) == "ab"


@pytest.mark.parametrize("ids, error, match", [
    ([97, 300], ValueError, r"id 300 \(ids\[1\]\) is not in the vocabulary of Bytes"),
    ([97, 2.0], TypeError, r"ids\[1\] must be an int"),
    ([True], TypeError, r"ids\[0\] must be an int"),
    ("ab", TypeError, "not a string"),
    (np.array([1.5]), TypeError, "integer array"),
    (5, TypeError, "sequence of int"),
])
def test_bad_ids_are_named(ids, error, match):
    with pytest.raises(error, match=match):
        Bytes().decode(ids)
    with pytest.raises(WorkbenchError):
        Bytes().convert_ids_to_tokens(ids)


def test_bad_arguments():
    t = Bytes()
    with pytest.raises(TypeError, match="sequence of str"):
        t.encode_batch("ab")
    with pytest.raises(TypeError, match=r"texts\[1\]"):
        t.encode_batch(["a", b"b"])
    with pytest.raises(ValueError, match="num_threads"):
        t.encode_batch(["a"], num_threads=0)
    with pytest.raises(ValueError, match="errors must be one of"):
        t.decode([97], errors="nonsense")
    assert default_threads(2) == 2 and default_threads() >= 1


def test_a_sampler_draws_one_stream_per_text():
    texts = ["hello", "world", "", "again and again"]
    batch = Coins(seed=4).encode_batch(texts)
    assert Coins(seed=4).encode_batch(texts) == batch  # same seed, same ids
    assert Coins(seed=4).encode(texts[0]) == batch[0]  # text k draws from stream k
    assert Coins(seed=4).encode_batch(texts[:2]) == batch[:2]  # a prefix is the prefix's batch
    assert Coins(seed=5).encode_batch(texts) != batch
    c = Coins(seed=9)
    assert c.encode_batch(texts, seed=4) == batch  # a per-call seed is reseeded(seed)
    assert c.reseeded(4).encode_batch(texts) == batch
    assert c.encode_batch(texts) == Coins(seed=9).encode_batch(texts)  # c was not touched
    assert all(Coins(seed=4).decode(ids) == t for ids, t in zip(batch, texts))


class _Huge(str):
    """A text that says it has 10¹² characters: a budget refuses it before any work."""

    def __len__(self):
        return 10**12


def test_offsets_are_budgeted_before_any_work():
    from workbench import BudgetError

    with pytest.raises(BudgetError, match="offsets of a 1,000,000,000,000-character text"):
        char_offsets(_Huge("ab"), [1, 1])


def test_encode_each_uses_the_batch_of_a_text_level_model_else_encode():
    from workbench.textlevel import encode_each

    class Bare:  # a MergeModel without encode_batch
        def encode(self, text):
            return list(text.encode())

    assert encode_each(Bytes(), ["ab", "c"], 1) == [[256], [99]]
    assert encode_each(Bare(), ["ab"], None) == [[97, 98]]
    with pytest.raises(ValueError, match="num_threads"):
        encode_each(Bare(), ["ab"], 0)
