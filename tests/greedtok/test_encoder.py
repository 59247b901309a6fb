"""GreedTok's encoder (Alg. 4): the reference, byte fallback, batches, files, vocabularies."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import greedtok as naive

from workbench import Grampa, Vocabulary
from workbench.greedtok import GreedTokModel, train_greedtok
from workbench.greedtok.candidates import WORD_BYTES_MAX
from workbench.greedtok.encoder import byte_alphabet

abc_bytes = st.binary(min_size=2, max_size=5).map(lambda b: bytes(x % 3 + 97 for x in b))
token_lists = st.lists(abc_bytes, max_size=8, unique=True)
words = st.text(alphabet="abcé", min_size=1, max_size=12)


def test_ranked_ab_abx_ba_encodes_ababx_as_ab_abx():
    # training applies "ab" twice (ab|ab|x), then "abx" swallows the second "ab"; "ba" would cut
    model = GreedTokModel([b"ab", b"abx", b"ba"])
    assert model.encode("ababx") == [b"ab", b"abx"]
    assert naive.encode([b"ab", b"abx", b"ba"], b"ababx") == [b"ab", b"abx"]


@settings(max_examples=100, deadline=None)
@given(token_lists, st.lists(words, min_size=1, max_size=6))
def test_batch_encoder_equals_algorithm_4(tokens, ws):
    model = GreedTokModel(tokens)
    ids, offsets = model.encode_ids(ws)
    for j, w in enumerate(ws):
        got = [model.token_of(int(i)) for i in ids[offsets[j]:offsets[j + 1]]]
        assert got == naive.encode(tokens, w.encode())
        assert got == model.encode(w)
        assert model.decode(ids[offsets[j]:offsets[j + 1]]) == w


def test_byte_fallback_and_decoding():
    model = train_greedtok({"hello": 5, "help": 2}, 2, progress=False)
    pieces = model.encode("héllo🙂")
    assert b"".join(pieces).decode() == "héllo🙂"
    assert all(len(p) == 1 for p in pieces if p not in model.tokens)
    assert model.decode(pieces) == "héllo🙂"
    ids, offsets = model.encode_ids([])
    assert ids.size == 0 and offsets.tolist() == [0]
    assert model.decode([0xC3]) == "\ufffd" == model.decode([0xC3], errors="replace")
    with pytest.raises(UnicodeDecodeError):  # the one default of every decode: "replace"
        model.decode([0xC3], errors="strict")


def test_bad_encoder_input():
    model = GreedTokModel([b"ab"])
    with pytest.raises(TypeError):
        model.encode(3)
    with pytest.raises(ValueError, match="at most"):
        model.encode("a" * (WORD_BYTES_MAX + 1))
    with pytest.raises(ValueError):
        model.token_of(len(model))
    with pytest.raises(TypeError):
        GreedTokModel(["ab"])
    with pytest.raises(ValueError):
        GreedTokModel([b"a"])
    with pytest.raises(ValueError):
        GreedTokModel([b"ab", b"ab"])
    with pytest.raises(ValueError):
        GreedTokModel([b"ab"], gains=[1, 2])


def test_save_load_and_bad_files(tmp_path):
    model = GreedTokModel([b"\xff\x00", b"ab"], gains=[3, 1], max_token_length=16)
    path = tmp_path / "m.json"
    model.save(path)
    back = GreedTokModel.load(path)
    assert (back.tokens, back.gains, back.max_token_length) == (model.tokens, [3, 1], 16)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    with pytest.raises(ValueError, match="bad.json"):
        GreedTokModel.load(bad)
    with pytest.raises(ValueError, match="missing.json"):
        GreedTokModel.load(tmp_path / "missing.json")


def test_vocabulary_is_byte_level_and_grampa_samples_over_it():
    model = train_greedtok({" the": 9, " then": 3, " hé": 2}, 3, progress=False)
    vocab = model.to_vocabulary()
    assert isinstance(vocab, Vocabulary) and len(vocab) == len(model) == 259
    assert vocab.alphabet == "byte-level"
    probe = Vocabulary(["x"], alphabet="byte-level")
    for word in [" the", " hé", "\x00\x7f", "日本"]:  # same spelling as the Vocabulary's own
        assert vocab.to_alphabet(word) == probe.to_alphabet(word)
        assert "".join(byte_alphabet()[b] for b in word.encode()) == probe.to_alphabet(word)
    for tok in model.tokens:
        spelled = "".join(byte_alphabet()[b] for b in tok)
        assert vocab.id_of(spelled) == model.id_of(tok)
    g = Grampa(vocab, seed=0)
    sample = g.sample(vocab.to_alphabet(" then"))
    assert "".join(sample) == vocab.to_alphabet(" then")


@pytest.mark.skipif(importlib.util.find_spec("pcatt") is None,
                    reason="the greedtok package (pcatt) is not installed")
def test_reference_package_encoder_differs_on_ababx():
    from pcatt import greedy_encoder

    enc = greedy_encoder.GreedyTokenizer([b"ab", b"abx", b"ba"], {})
    theirs = enc.batch_tokenize_whole([b"ababx"])[0]
    ours = GreedTokModel([b"ab", b"abx", b"ba"]).encode("ababx")
    assert len(theirs) == 3 and len(ours) == 2  # theirs: [ab][ab][x]


@pytest.mark.skipif(importlib.util.find_spec("pcatt") is None,
                    reason="the greedtok package (pcatt) is not installed")
def test_reference_package_selects_the_same_tokens():
    from pcatt import pco_tokenizer

    rng = np.random.default_rng(3)
    counts = {"".join(rng.choice(list("abcd"), rng.integers(2, 9))): int(rng.integers(1, 9))
              for _ in range(60)}
    g = pco_tokenizer.build(counts, set(), verbose=False)
    g.initialize_graph(6, 1)  # exclusive bound: tokens of at most 5 bytes
    ranks, scores = g.solve_to_step(15)
    model = train_greedtok(counts, 15, max_token_length=5, progress=False)
    assert sum(model.gains) == sum(scores)
