"""BPEModel interop: split patterns, GPT-2's files, tiktoken ranks in and out, HF export.

Peers are built OFFLINE from the shipped GPT-2 files (``data/``); nothing is downloaded.
"""

from __future__ import annotations

import json
import lzma
import sys
from collections import Counter

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.bpe import (
    GPT2_PATTERN,
    GPT4_PATTERN,
    BPEModel,
    BPEModelFormatError,
    NotExpressibleError,
    export_hf,
    split_text,
    train_bpe,
)
from workbench.bpe.bytelevel import from_bytelevel
from workbench.bpe.interop import recover_merges, shipped_gpt2_files
from workbench.datasets import load_gpt2_merges, load_text

HELD_OUT = 200_000


@pytest.fixture(scope="module")
def gpt2():
    return BPEModel.from_gpt2()


@pytest.fixture(scope="module")
def held_out():
    return load_text("shakespeare")[:HELD_OUT]


@pytest.fixture(scope="module")
def gpt2_ranks():
    """GPT-2's ``mergeable_ranks`` read straight from the shipped encoder.json."""
    enc_path, _ = shipped_gpt2_files()
    enc = json.loads(lzma.decompress(enc_path.read_bytes()))
    return {from_bytelevel(k): v for k, v in enc.items() if k != "<|endoftext|>"}


@pytest.fixture(scope="module")
def tiktoken_gpt2(gpt2_ranks):
    tiktoken = pytest.importorskip("tiktoken")
    return tiktoken.Encoding(name="gpt2", pat_str=GPT2_PATTERN, mergeable_ranks=gpt2_ranks,
                             special_tokens={"<|endoftext|>": 50256})


# ---------------------------------------------------------------- GPT-2
def test_gpt2_shape_and_digits(gpt2):
    assert len(gpt2) == 50257 and len(gpt2.merges) == 50000 and gpt2.pattern == "gpt2"
    assert gpt2.tokens(" 12345") == [b" 123", b"45"]  # the GPT-4 split gives ' ', '123', '45'
    assert gpt2.special_tokens == {"<|endoftext|>": 50256}
    assert gpt2.decode([50256]) == "<|endoftext|>"
    # encode never produces the special token (tiktoken's encode_ordinary)
    assert 50256 not in gpt2.encode("a<|endoftext|>b")


def test_gpt2_equals_tiktoken_on_held_out_text(gpt2, held_out, tiktoken_gpt2):
    ours = gpt2.encode(held_out)
    assert ours == tiktoken_gpt2.encode_ordinary(held_out)
    assert len(ours) == 62_396  # measured; the GPT-4 split gave 60,654


def test_gpt2_equals_hf_loading_the_same_files(gpt2, held_out, tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    enc_path, bpe_path = shipped_gpt2_files()
    (tmp_path / "vocab.json").write_bytes(lzma.decompress(enc_path.read_bytes()))
    (tmp_path / "merges.txt").write_bytes(lzma.decompress(bpe_path.read_bytes()))
    hf = tokenizers.Tokenizer(tokenizers.models.BPE.from_file(
        str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt")))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    assert hf.encode(held_out).ids == gpt2.encode(held_out)


def test_gpt2_merges_recovered_from_encoder_json_equal_vocab_bpe(gpt2, gpt2_ranks):
    merges, ids = recover_merges(gpt2_ranks)
    assert merges == [(from_bytelevel(a), from_bytelevel(b)) for a, b in load_gpt2_merges()]
    enc_path, _ = shipped_gpt2_files()
    assert BPEModel.from_gpt2(enc_path, None) == gpt2


def test_gpt2_round_trips_through_our_json(gpt2, held_out, tmp_path):
    gpt2.save(tmp_path / "gpt2.json")
    back = BPEModel.load(tmp_path / "gpt2.json")
    assert back == gpt2 and back.pattern == "gpt2"
    assert back.encode(held_out[:20_000]) == gpt2.encode(held_out[:20_000])


def test_gpt2_hf_export_equals_ours(gpt2, held_out, tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    doc_path = export_hf(gpt2, tmp_path / "tokenizer.json")
    doc = json.loads(doc_path.read_text(encoding="utf-8"))
    assert doc["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] == GPT2_PATTERN
    hf = tokenizers.Tokenizer.from_file(str(doc_path))
    assert hf.encode(held_out).ids == gpt2.encode(held_out)
    assert hf.token_to_id("<|endoftext|>") == 50256


def test_gpt2_files_errors_name_the_file(tmp_path):
    bad = tmp_path / "encoder.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ValueError, match="encoder.json"):
        BPEModel.from_gpt2(bad, None)
    enc_path, _ = shipped_gpt2_files()
    merges = tmp_path / "vocab.bpe"
    merges.write_text("#version: 0.2\nĠ t\nthis is three\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 3"):
        BPEModel.from_gpt2(enc_path, merges)


# ---------------------------------------------------------------- tiktoken
def test_tiktoken_round_trip_of_gpt2(gpt2, gpt2_ranks, held_out, tiktoken_gpt2):
    ranks, pat = gpt2.to_tiktoken()
    assert ranks == gpt2_ranks and pat == GPT2_PATTERN
    back = BPEModel.from_tiktoken(ranks, "gpt2", special_tokens={"<|endoftext|>": 50256})
    assert back == gpt2
    enc = gpt2.to_tiktoken_encoding()
    assert enc.encode_ordinary(held_out) == tiktoken_gpt2.encode_ordinary(held_out)


def test_trained_model_exports_to_tiktoken_exactly(held_out):
    tiktoken = pytest.importorskip("tiktoken")
    table = dict(Counter(split_text(held_out[:100_000])))
    model = train_bpe(table, 1500, progress=False)
    ranks, pat = model.to_tiktoken()
    assert pat == GPT4_PATTERN
    enc = tiktoken.Encoding(name="ours", pat_str=pat, mergeable_ranks=ranks, special_tokens={})
    later = held_out[100_000:]
    assert enc.encode_ordinary(later) == model.encode(later)
    assert BPEModel.from_tiktoken(ranks) == model


def test_to_tiktoken_refuses_a_merge_tiktoken_would_build_otherwise():
    # merges ab, bc, then abc = a + bc. tiktoken merges any adjacent pair whose
    # concatenation is a token: "abc" -> a b c -> ab c -> abc; the merge list stops at ab|c.
    model = BPEModel([(b"a", b"b"), (b"b", b"c"), (b"a", b"bc")])
    assert model.tokens("abc") == [b"ab", b"c"]
    with pytest.raises(NotExpressibleError, match="merge 2 joins"):
        model.to_tiktoken()
    tiktoken = pytest.importorskip("tiktoken")
    ranks = {**{bytes([b]): b for b in range(256)}, b"ab": 256, b"bc": 257, b"abc": 258}
    enc = tiktoken.Encoding(name="x", pat_str=r"\S+|\s+", mergeable_ranks=ranks,
                            special_tokens={})
    assert enc.encode_ordinary("abc") == [258]  # so tiktoken really differs here


def test_to_tiktoken_refuses_stop_words_and_unordered_ids():
    with pytest.raises(NotExpressibleError, match="stop words"):
        BPEModel([(b"a", b"b")], stop_words=[" the"]).to_tiktoken()
    ids = list(range(256)) + [300, 299]
    with pytest.raises(NotExpressibleError, match="increase"):
        BPEModel([(b"a", b"b"), (b"c", b"d")], ids=ids).to_tiktoken()


def test_from_tiktoken_refuses_ranks_that_are_not_a_bpe():
    ranks = {**{bytes([b]): b for b in range(256)}, b"abc": 256}
    with pytest.raises(ValueError, match="not the merge of two tokens"):
        BPEModel.from_tiktoken(ranks)
    with pytest.raises(ValueError, match="single byte"):
        BPEModel.from_tiktoken({b"a": 0})
    with pytest.raises(TypeError):
        BPEModel.from_tiktoken({"a": 0})


def test_to_tiktoken_encoding_says_what_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "tiktoken", None)
    with pytest.raises(ImportError, match="pip install tiktoken"):
        BPEModel([]).to_tiktoken_encoding()


@st.composite
def consistent_ranks(draw):
    """Random BPE-consistent ranks over 'abc' (merges of existing tokens, kept if the
    recovery gives them back) — the class for which the claim says pair rule = tiktoken."""
    toks = [b"a", b"b", b"c"]
    ranks = {bytes([b]): b for b in range(256)}
    for _ in range(draw(st.integers(1, 8))):
        x, y = draw(st.sampled_from(toks)), draw(st.sampled_from(toks))
        if x + y in ranks or len(x + y) > 6:
            continue
        ranks[x + y] = len(ranks)  # the next rank
        toks.append(x + y)
        try:
            recover_merges(ranks)
        except ValueError:
            del ranks[x + y]
            toks.pop()
    return ranks


@settings(max_examples=150, deadline=None)
@given(consistent_ranks(), st.lists(st.text(alphabet="abc ", max_size=14), min_size=1,
                                    max_size=4))
def test_pair_rule_equals_tiktoken_on_consistent_ranks(ranks, texts):
    tiktoken = pytest.importorskip("tiktoken")
    pat = r"[abc]+| +"  # a user pattern (routed through regex)
    model = BPEModel.from_tiktoken(ranks, pat)
    enc = tiktoken.Encoding(name="r", pat_str=pat, mergeable_ranks=ranks, special_tokens={})
    for t in texts:
        assert model.encode(t) == enc.encode_ordinary(t)


# ---------------------------------------------------------------- patterns
@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_named_patterns_split_like_regex(s):
    gpt2 = BPEModel([], pattern="gpt2")
    gpt4 = BPEModel([])
    assert gpt2.split(s) == regex.findall(GPT2_PATTERN, s)
    assert gpt4.split(s) == regex.findall(GPT4_PATTERN, s)
    assert "".join(gpt2.split(s)) == s


def test_pattern_names_and_errors():
    assert BPEModel([], pattern=GPT2_PATTERN).pattern == "gpt2"
    assert BPEModel([]).pattern == "gpt4" and BPEModel([]).pattern_regex == GPT4_PATTERN
    with pytest.raises(TypeError, match="pattern"):
        BPEModel([], pattern=None)
    with pytest.raises(ValueError, match="does not compile"):
        BPEModel([], pattern="(")
    with pytest.raises(ValueError, match="empty"):
        BPEModel([], pattern="")
    assert BPEModel([], pattern="gpt2") != BPEModel([])


def test_user_pattern_keeps_unmatched_text_and_matches_hf(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    model = BPEModel([(b"a", b"b"), (b"ab", b"c")], pattern=r"[a-z]+")
    text = "abc de!!abc\n é"
    assert model.split(text) == ["abc", " ", "de", "!!", "abc", "\n é"]
    assert model.decode(model.encode(text)) == text
    hf = tokenizers.Tokenizer.from_file(str(export_hf(model, tmp_path / "u.json")))
    assert hf.encode(text).ids == model.encode(text)
    model.save(tmp_path / "u_model.json")
    back = BPEModel.load(tmp_path / "u_model.json")
    assert back == model and back.pattern == r"[a-z]+"


def test_version_1_file_loads_as_gpt4(tmp_path):
    model = BPEModel([(b"a", b"b")], stop_words=[" the"])
    model.save(tmp_path / "m.json")
    doc = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert doc["version"] == 2 and doc["pattern"] == "gpt4" and "ids" not in doc
    for key in ("pattern", "special_tokens"):
        del doc[key]
    doc["version"] = 1
    (tmp_path / "v1.json").write_text(json.dumps(doc), encoding="utf-8")
    back = BPEModel.load(tmp_path / "v1.json")
    assert back == model and back.pattern == "gpt4"
    doc["version"] = 3
    (tmp_path / "v3.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(BPEModelFormatError, match="version 3"):
        BPEModel.load(tmp_path / "v3.json")


def test_ids_and_special_tokens_are_checked():
    with pytest.raises(ValueError, match="257 symbols"):
        BPEModel([(b"a", b"b")], ids=list(range(256)))
    with pytest.raises(ValueError, match="distinct"):
        BPEModel([(b"a", b"b")], ids=[0] * 257)
    with pytest.raises(TypeError, match="integers"):
        BPEModel([(b"a", b"b")], ids=[0.5] * 257)
    with pytest.raises(ValueError, match="clashes"):
        BPEModel([(b"a", b"b")], special_tokens={"<s>": 256})
    m = BPEModel([(b"a", b"b")], ids=[1000 + i for i in range(257)], special_tokens={"<s>": 5})
    assert m.encode("ab a") == [1256, 1032, 1097]
    assert m.merge_ids == [(1097, 1098)] and m.decode([5, 1256]) == "<s>ab"
    assert m.to_vocabulary().id_of("ab") == 1256 and "<s>" not in m.to_vocabulary()


R50K_PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab1é \n\t'!ｓ٣\u2003sdlvrem"), max_size=30))
def test_gpt2_pattern_chunks_equal_tiktoken_r50k_spelling(s):
    # tiktoken's r50k_base writes GPT-2's pattern with possessive quantifiers; same chunks
    assert regex.findall(GPT2_PATTERN, s) == regex.findall(R50K_PAT, s)


# ---------------------------------------------------------------- .xz files: every stream
def _two_streams(data: bytes) -> bytes:
    half = len(data) // 2
    return lzma.compress(data[:half]) + bytes(4) + lzma.compress(data[half:])


def test_gpt2_files_in_several_xz_streams_read_whole(tmp_path):
    from workbench.bpe.interop import _read_raw

    for path, what in zip(shipped_gpt2_files(), ("encoder.json", "vocab.bpe")):
        whole = lzma.decompress(path.read_bytes())
        (tmp_path / path.name).write_bytes(_two_streams(whole))
        assert _read_raw(tmp_path / path.name, what) == whole


@pytest.mark.parametrize("tail", [b"garbage after the stream", b"\xfd7zXZ\x00junk", b"\0"])
def test_gpt2_xz_files_with_trailing_garbage_are_refused_naming_the_file(tmp_path, tail):
    enc, merges = shipped_gpt2_files()
    bad = tmp_path / "vocab.bpe.xz"
    bad.write_bytes(merges.read_bytes() + tail)
    with pytest.raises(ValueError, match=r"vocab\.bpe\.xz: cannot read GPT-2's vocab\.bpe"):
        BPEModel.from_gpt2(enc, bad)
