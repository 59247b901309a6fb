"""GreedTok's encoder (Alg. 4): the reference, byte fallback, batches, files, vocabularies."""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import greedtok as naive

from workbench import Grampa, Vocabulary
from workbench.bpe import split_text
from workbench.greedtok import GreedTokModel, train_greedtok
from workbench.greedtok.candidates import WORD_BYTES_MAX
from workbench.greedtok.encoder import byte_alphabet

abc_bytes = st.binary(min_size=2, max_size=5).map(lambda b: bytes(x % 3 + 97 for x in b))
token_lists = st.lists(abc_bytes, max_size=8, unique=True)
words = st.text(alphabet="abcé", min_size=1, max_size=12)


def test_ranked_ab_abx_ba_encodes_ababx_as_ab_abx():
    # training applies "ab" twice (ab|ab|x), then "abx" swallows the second "ab"; "ba" would cut
    model = GreedTokModel([b"ab", b"abx", b"ba"])
    assert model.segment("ababx") == [b"ab", b"abx"]
    assert naive.encode([b"ab", b"abx", b"ba"], b"ababx") == [b"ab", b"abx"]


@settings(max_examples=100, deadline=None)
@given(token_lists, st.lists(words, min_size=1, max_size=6))
def test_batch_encoder_equals_algorithm_4(tokens, ws):
    model = GreedTokModel(tokens)
    ids, offsets = model.encode_ids(ws)
    for j, w in enumerate(ws):
        got = [model.token_of(int(i)) for i in ids[offsets[j]:offsets[j + 1]]]
        assert got == naive.encode(tokens, w.encode())
        assert got == model.segment(w)
        assert model.decode(ids[offsets[j]:offsets[j + 1]]) == w


def test_byte_fallback_and_decoding():
    model = train_greedtok({"hello": 5, "help": 2}, 2, progress=False)
    pieces = model.segment("héllo🙂")
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
    ours = GreedTokModel([b"ab", b"abx", b"ba"]).segment("ababx")
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


# --------------------------------------------------------------------------- text level
def test_text_is_split_by_the_pattern_then_each_chunk_by_algorithm_4():
    model = train_greedtok({" the": 9, " then": 4, "the": 3, " 123": 2}, 4, progress=False)
    text = "the then 12345, then!\n  the"
    chunks = model.split(text)
    assert "".join(chunks) == text and chunks == split_text(text)
    ids, offsets = model.encode_ids(chunks)
    assert model.encode(text) == ids.tolist()
    assert model.encode_batch([text, "", "then"], num_threads=1) == [
        model.encode(text), [], model.encode("then")]
    assert model.decode(model.encode(text)) == text
    got, spans = model.encode_with_offsets(text)
    assert got == ids.tolist() and [text[a:b] for a, b in spans] == [
        model.token_of(i).decode() for i in got]  # ASCII: every token is whole characters
    gpt2 = GreedTokModel(model.tokens, pattern="gpt2")
    assert gpt2.split("12345") == ["12345"] and model.split("12345") == ["123", "45"]


def test_the_pattern_is_saved_and_old_files_read_as_gpt4(tmp_path):
    model = GreedTokModel([b"ab", b" a"], pattern="gpt2")
    model.save(tmp_path / "m.json")
    back = GreedTokModel.load(tmp_path / "m.json")
    assert back.pattern == "gpt2" and back.tokens == model.tokens
    doc = json.loads((tmp_path / "m.json").read_text())
    del doc["pattern"]  # a file written before the pattern was saved
    (tmp_path / "old.json").write_text(json.dumps(doc))
    assert GreedTokModel.load(tmp_path / "old.json").pattern == "gpt4"
    doc["pattern"] = "(unclosed"
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=r"bad\.json.*pattern"):
        GreedTokModel.load(tmp_path / "bad.json")
