"""Vocabulary: construction, ids, container protocol, alphabets and every file format."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from workbench import InvalidValueError, Vocabulary, VocabularyFormatError
from workbench.vocab import SP_SPACE, bytes_to_unicode, spell

# --------------------------------------------------------------------------- construction


def test_default_ids_are_positions():
    v = Vocabulary(["a", "b", "ab"])
    assert v.tokens == ("a", "b", "ab")
    assert v.ids.tolist() == [0, 1, 2]
    assert [v.id_of(t) for t in ["a", "b", "ab"]] == [0, 1, 2]
    assert [v.token_of(i) for i in range(3)] == ["a", "b", "ab"]
    assert v.decode_ids([2, 0, 1]) == ["ab", "a", "b"]
    assert v.alphabet == "identity"
    assert v.scores is None


def test_explicit_ids_scores_and_name():
    v = Vocabulary(["x", "y", "xy"], ids=[10, 11, 12], name="toy", scores=[-1.0, -2.0, -0.5])
    assert v.id_of("xy") == 12
    assert v.token_of(11) == "y"
    assert v.token_of(np.int64(10)) == "x"
    assert v.name == "toy"
    assert v.scores.tolist() == [-1.0, -2.0, -0.5]
    assert "toy" in repr(v)
    with pytest.raises(KeyError):
        v.id_of("z")
    with pytest.raises(KeyError):
        v.token_of(0)


def test_container_protocol():
    toks = ["ab", "a", "b", "日本", "e\u0301"]
    v = Vocabulary(toks)
    assert len(v) == 5
    assert list(v) == toks
    assert sorted(v) == sorted(toks)
    for t in toks:
        assert t in v
    assert "abc" not in v
    assert "" not in v
    assert 1 not in v
    assert None not in v
    assert b"ab" not in v


def test_max_token_length_and_characters():
    assert Vocabulary(["a", "abc", "日本"]).max_token_length == 3
    assert Vocabulary(["😀", "e\u0301"]).max_token_length == 2  # code points, not bytes
    assert Vocabulary([]).max_token_length == 0
    assert Vocabulary(["ab", "bc"]).characters == frozenset("abc")


def test_arrays_are_read_only():
    v = Vocabulary(["a", "b"], scores=[0.0, 1.0])
    with pytest.raises(ValueError):
        v.ids[0] = 5
    with pytest.raises(ValueError):
        v.scores[0] = 5.0


def test_equality_and_hash():
    a = Vocabulary(["a", "b"])
    assert a == Vocabulary(["a", "b"])
    assert hash(a) == hash(Vocabulary(["a", "b"]))
    assert a != Vocabulary(["b", "a"])
    assert a != Vocabulary(["a", "b"], ids=[0, 5])
    assert a != Vocabulary(["a", "b"], alphabet="byte-level")
    assert a != ["a", "b"]


def test_iterable_of_tokens_may_be_a_generator():
    assert Vocabulary(t for t in "abc").tokens == ("a", "b", "c")


def test_duplicate_token_rejected():
    with pytest.raises(ValueError, match=r"duplicate token 'ab' at positions 1 and 3"):
        Vocabulary(["a", "ab", "b", "ab"])


def test_empty_token_rejected():
    with pytest.raises(ValueError, match=r"position 1 is the empty string"):
        Vocabulary(["a", "", "b"])


@pytest.mark.parametrize("bad", [1, None, b"ab", ("a",)])
def test_non_str_token_rejected(bad):
    with pytest.raises(TypeError, match=r"position 1"):
        Vocabulary(["a", bad])


def test_single_string_rejected():
    with pytest.raises(TypeError, match="single string"):
        Vocabulary("abc")


def test_unknown_alphabet_rejected():
    with pytest.raises(ValueError, match="alphabet"):
        Vocabulary(["a"], alphabet="utf-8")


@pytest.mark.parametrize(
    "ids, message",
    [
        ([0], "1 ids for 2 tokens"),
        ([0, -1], "non-negative"),
        ([0, True], "non-negative"),
        ([0, 1.0], "non-negative"),
        ([3, 3], "distinct"),
        ([0, 2**31 - 1], "below"),
    ],
)
def test_bad_ids_rejected(ids, message):
    with pytest.raises(ValueError, match=message):
        Vocabulary(["a", "b"], ids=ids)


def test_bad_scores_rejected():
    with pytest.raises(ValueError, match="scores"):
        Vocabulary(["a", "b"], scores=[1.0])


# --------------------------------------------------------------------------- infinite


def test_infinite_vocabulary():
    inf = Vocabulary.infinite()
    assert inf.is_infinite
    assert not Vocabulary(["a"]).is_infinite
    assert "anything at all" in inf
    assert "日本" in inf
    assert "" not in inf
    assert 3 not in inf
    assert inf.max_token_length is None
    assert repr(inf) == "Vocabulary.infinite()"
    with pytest.raises(TypeError):
        len(inf)
    with pytest.raises(TypeError):
        iter(inf)
    with pytest.raises(KeyError):
        inf.id_of("a")
    with pytest.raises(TypeError):
        inf.trie  # noqa: B018
    with pytest.raises(ValueError, match="cannot be saved"):
        inf.save("never-written.txt")
    assert inf == Vocabulary.infinite()
    assert inf != Vocabulary([])
    assert Vocabulary.infinite("byte-level").to_alphabet(" a") == "Ġa"


# --------------------------------------------------------------------------- save / load

ROUND_TRIP_TOKENS = ["a", "b", "ab", " a", "a ", "Ġ", "日本", "😀", "e\u0301", "\t", "#"]


def test_plain_list_round_trip(tmp_path):
    v = Vocabulary(ROUND_TRIP_TOKENS)
    path = tmp_path / "vocab.txt"
    v.save(path)
    assert path.read_text(encoding="utf-8") == "".join(t + "\n" for t in ROUND_TRIP_TOKENS)
    back = Vocabulary.load(path)
    assert back == v
    assert back.tokens == v.tokens
    assert back.name == "vocab"
    assert back.alphabet == "identity"


def test_plain_list_alphabet_override(tmp_path):
    path = tmp_path / "vocab.txt"
    Vocabulary(["Ġ", "a"]).save(path)
    back = Vocabulary.load(path, alphabet="byte-level")
    assert back.alphabet == "byte-level"
    assert back.tokens == ("Ġ", "a")
    assert back.name == "vocab" and Vocabulary.load(path, name="mine").name == "mine"


def test_plain_list_crlf_and_no_final_newline(tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"a\r\nb\r\nab")
    assert Vocabulary.load(path).tokens == ("a", "b", "ab")


def test_plain_list_refuses_unsaveable(tmp_path):
    with pytest.raises(ValueError, match="ids 0..N-1"):
        Vocabulary(["a", "b"], ids=[1, 0]).save(tmp_path / "v.txt")
    with pytest.raises(ValueError, match="line break"):
        Vocabulary(["a\nb"]).save(tmp_path / "v.txt")
    with pytest.raises(ValueError, match="line break"):
        Vocabulary(["a\u2028b"]).save(tmp_path / "v.txt")


@pytest.mark.parametrize("alphabet", ["identity", "byte-level"])
def test_json_round_trip_keeps_everything(tmp_path, alphabet):
    tokens = ROUND_TRIP_TOKENS + ["a\nb"]
    if alphabet == "byte-level":  # the same tokens spelled in the alphabet (raw " " is not)
        tokens = [spell(alphabet, t) for t in tokens]
    v = Vocabulary(
        tokens,
        ids=[5 * k + 1 for k in range(len(tokens))],
        alphabet=alphabet,
        name="mine",
        scores=[float(-k) for k in range(len(tokens))],
    )
    path = tmp_path / "vocab.json"
    v.save(path)
    back = Vocabulary.load(path)
    assert back == v
    assert back.tokens == v.tokens
    assert back.ids.tolist() == v.ids.tolist()
    assert back.alphabet == alphabet
    assert back.name == "mine"
    assert back.scores.tolist() == v.scores.tolist()


def test_json_round_trip_without_scores(tmp_path):
    v = Vocabulary(["x", "y"])
    v.save(tmp_path / "v.json")
    back = Vocabulary.load(tmp_path / "v.json")
    assert back == v and back.scores is None


def test_gpt2_encoder_json(tmp_path):
    enc = {"!": 0, "a": 1, "Ġ": 2, "Ġa": 3, "ĠhÃ©": 4, "æĹ¥æľ¬": 7}
    path = tmp_path / "encoder.json"
    path.write_text(json.dumps(enc, ensure_ascii=False), encoding="utf-8")
    v = Vocabulary.load(path)
    assert v.alphabet == "byte-level"
    assert dict(zip(v.tokens, v.ids.tolist())) == enc
    assert v.from_alphabet("ĠhÃ©") == " hé"
    assert v.from_alphabet("æĹ¥æľ¬") == "日本"


# --------------------------------------------------------------------------- HuggingFace


def _hf_vocab(v: Vocabulary) -> dict[str, int]:
    return dict(zip(v.tokens, v.ids.tolist()))


def test_hf_tokenizer_json_bpe_byte_level(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import decoders, models, pre_tokenizers, trainers

    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(["hello world, héllo wörld 日本 😀 hello"] * 20, trainer=trainer)
    path = tmp_path / "tokenizer.json"
    tok.save(str(path))
    v = Vocabulary.load(path)
    expected = {t: i for t, i in tok.get_vocab().items() if t != "<|endoftext|>"}
    assert _hf_vocab(v) == expected
    assert v.alphabet == "byte-level"
    assert v.name == "tokenizer"
    # the loaded vocabulary spells words the way the HF pre-tokenizer does
    pre = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    for word in [" hello", "héllo wörld", "日本", "😀"]:
        assert v.to_alphabet(word) == pre.pre_tokenize_str(word)[0][0]
    assert "Ġhello" in v


def test_hf_tokenizer_json_unigram_metaspace(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import decoders, models, pre_tokenizers

    pieces = [("<unk>", 0.0), ("▁a", -1.0), ("b", -2.0), ("a", -1.5), ("▁", -3.0)]
    tok = tokenizers.Tokenizer(models.Unigram(pieces, unk_id=0))
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    tok.add_special_tokens(["<unk>"])
    path = tmp_path / "tokenizer.json"
    tok.save(str(path))
    v = Vocabulary.load(path)
    assert v.alphabet == "sentencepiece"
    assert _hf_vocab(v) == {t: i for t, i in tok.get_vocab().items() if t != "<unk>"}
    assert v.scores.tolist() == [-1.0, -2.0, -1.5, -3.0]
    assert v.to_alphabet(" a b") == "▁a▁b"


def test_hf_tokenizer_json_llama_style_is_sentencepiece(tmp_path):
    """Llama-2/Mistral tokenizer.json files spell spaces as "▁" with a Replace normaliser
    and decoder (no Metaspace pre-tokenizer); the vocabulary is in the sentencepiece
    alphabet all the same."""
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import decoders, models, normalizers

    vocab = {"<unk>": 0, "<0x41>": 1, "▁": 2, "h": 3, "i": 4, "▁h": 5, "▁hi": 6, "hi": 7}
    merges = [("▁", "h"), ("▁h", "i"), ("h", "i")]
    tok = tokenizers.Tokenizer(models.BPE(vocab, merges, unk_token="<unk>", byte_fallback=True))
    tok.normalizer = normalizers.Sequence(
        [normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")]
    )
    tok.decoder = decoders.Sequence(
        [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(),
         decoders.Strip(" ", 1, 0)]
    )
    tok.add_special_tokens(["<unk>"])
    assert tok.encode("hi hi").tokens == ["▁hi", "▁hi"]
    path = tmp_path / "tokenizer.json"
    tok.save(str(path))
    v = Vocabulary.load(path)
    # byte-fallback pieces stand for bytes, not text: dropped, as in the .model loader
    assert _hf_vocab(v) == {t: i for t, i in vocab.items() if t not in ("<unk>", "<0x41>")}
    assert v.alphabet == "sentencepiece"
    assert v.to_alphabet(" hi") == "▁hi"


def test_hf_tokenizer_json_wordlevel_identity(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import models, pre_tokenizers

    tok = tokenizers.Tokenizer(
        models.WordLevel({"[UNK]": 0, "hello": 1, "world": 2, "日本": 3}, unk_token="[UNK]")
    )
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.add_special_tokens(["[UNK]"])
    path = tmp_path / "tokenizer.json"
    tok.save(str(path))
    v = Vocabulary.load(path)
    assert v.alphabet == "identity"
    assert _hf_vocab(v) == {"hello": 1, "world": 2, "日本": 3}


# --------------------------------------------------------------------------- SentencePiece


def _train_sentencepiece(tmp_path, spm, **kwargs):
    rng = random.Random(0)
    letters = "abcdefghijklmnoprstuvwéö日"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 8))) for _ in range(200)]
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(
        "\n".join(" ".join(rng.choice(words) for _ in range(10)) for _ in range(400)),
        encoding="utf-8",
    )
    prefix = tmp_path / "sp"
    spm.SentencePieceTrainer.train(
        input=str(corpus), model_prefix=str(prefix), minloglevel=2, **kwargs
    )
    path = tmp_path / "sp.model"
    return path, spm.SentencePieceProcessor(model_file=str(path))


@pytest.mark.parametrize("model_type", ["unigram", "bpe"])
def test_sentencepiece_model(tmp_path, model_type):
    spm = pytest.importorskip("sentencepiece")
    path, sp = _train_sentencepiece(
        tmp_path, spm, vocab_size=80, model_type=model_type, user_defined_symbols=["<sep>"]
    )
    v = Vocabulary.load(path)
    assert v.alphabet == "sentencepiece"
    assert v.name == "sp"
    expected = {
        sp.id_to_piece(i): i
        for i in range(sp.get_piece_size())
        if not (sp.is_control(i) or sp.is_unknown(i) or sp.is_unused(i) or sp.is_byte(i))
    }
    assert _hf_vocab(v) == expected
    assert "<sep>" in v  # user-defined symbols are tokens
    assert "<unk>" not in v and "<s>" not in v
    assert v.scores == pytest.approx([sp.get_score(i) for i in v.ids.tolist()])
    # every piece the model produces for a word is a vocabulary token
    pieces = sp.encode("ab ré", out_type=str)
    assert all(p in v for p in pieces)
    assert "".join(pieces).replace(SP_SPACE, " ").strip() == "ab ré"


def test_sentencepiece_user_symbol_with_a_space_is_left_out(tmp_path):
    """SentencePiece spells spaces "▁" before matching, so a user-defined symbol "a b" is
    never output: not a token (the sentencepiece alphabet holds no plain space)."""
    spm = pytest.importorskip("sentencepiece")
    path, sp = _train_sentencepiece(tmp_path, spm, vocab_size=80, user_defined_symbols=["a b"])
    assert "a b" not in sp.encode("xa b", out_type=str)
    v = Vocabulary.load(path)
    assert "a b" not in v and len(v) == sp.get_piece_size() - 4  # <unk>, <s>, </s>, "a b"


def test_sentencepiece_byte_fallback_pieces_are_not_tokens(tmp_path):
    spm = pytest.importorskip("sentencepiece")
    path, sp = _train_sentencepiece(tmp_path, spm, vocab_size=320, byte_fallback=True)
    v = Vocabulary.load(path)
    byte_ids = [i for i in range(sp.get_piece_size()) if sp.is_byte(i)]
    assert len(byte_ids) == 256
    assert not any(sp.id_to_piece(i) in v for i in byte_ids)
    assert len(v) == sp.get_piece_size() - 256 - 3  # minus bytes, <unk>, <s>, </s>


# --------------------------------------------------------------------------- bad files


def test_missing_file_names_path(tmp_path):
    path = tmp_path / "nope.txt"
    with pytest.raises(VocabularyFormatError, match="nope.txt") as err:
        Vocabulary.load(path)
    assert str(path) in str(err.value)


def test_directory_is_unreadable(tmp_path):
    with pytest.raises(VocabularyFormatError, match="cannot read"):
        Vocabulary.load(tmp_path)


def test_plain_list_empty_line_names_path_and_line(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text("a\nb\n\nc\n", encoding="utf-8")
    with pytest.raises(VocabularyFormatError) as err:
        Vocabulary.load(path)
    assert str(path) in str(err.value)
    assert "line 3" in str(err.value)
    assert "empty" in str(err.value)


def test_plain_list_trailing_blank_line_is_an_error(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text("a\nb\n\n", encoding="utf-8")
    with pytest.raises(VocabularyFormatError, match="line 3"):
        Vocabulary.load(path)


def test_plain_list_duplicate_names_both_lines(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text("a\nb\nab\nb\n", encoding="utf-8")
    with pytest.raises(VocabularyFormatError) as err:
        Vocabulary.load(path)
    msg = str(err.value)
    assert str(path) in msg
    assert "line 4" in msg and "line 2" in msg and "'b'" in msg


def test_plain_list_not_utf8(tmp_path):
    path = tmp_path / "v.txt"
    path.write_bytes(b"a\n\xff\xfe\n")
    with pytest.raises(VocabularyFormatError, match="UTF-8") as err:
        Vocabulary.load(path)
    assert str(path) in str(err.value)


def test_format_error_is_a_value_error():
    assert issubclass(VocabularyFormatError, ValueError)


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "malformed JSON"),
        ("[1, 2, 3]", "neither"),
        ("{}", "neither"),
        ('{"a": "b"}', "neither"),
        ('{"a": 0, "b": 0}', "invalid vocabulary"),  # encoder.json with duplicate ids
        ('{"a": 0, "": 1}', "invalid vocabulary"),  # empty token
        ('{"model": {"type": "BPE"}}', "no model.vocab"),
        ('{"format": "workbench-vocabulary", "tokens": ["a"]}', "invalid vocabulary"),
    ],
)
def test_malformed_json_names_path(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(VocabularyFormatError, match=message) as err:
        Vocabulary.load(path)
    assert str(path) in str(err.value)


@pytest.mark.parametrize("content", [b"", b"\x0a\x05hello", b"garbage that is not protobuf"])
def test_malformed_sentencepiece_model_names_path(tmp_path, content):
    path = tmp_path / "bad.model"
    path.write_bytes(content)
    with pytest.raises(VocabularyFormatError) as err:
        Vocabulary.load(path)
    assert str(path) in str(err.value)


def test_truncated_sentencepiece_model(tmp_path):
    spm = pytest.importorskip("sentencepiece")
    path, _ = _train_sentencepiece(tmp_path, spm, vocab_size=60)
    cut = tmp_path / "cut.model"
    cut.write_bytes(path.read_bytes()[:101])
    with pytest.raises(VocabularyFormatError) as err:
        Vocabulary.load(cut)
    assert str(cut) in str(err.value)


# --------------------------------------------------------------------------- alphabets


def test_bytes_to_unicode_is_gpt2s_table():
    table = bytes_to_unicode()
    assert len(table) == 256 and len(set(table.values())) == 256
    assert table[ord(" ")] == "Ġ"
    assert table[ord("\n")] == "Ċ"
    assert table[ord("a")] == "a"
    assert table[0] == chr(256)
    tokenizers = pytest.importorskip("tokenizers")
    assert set(table.values()) == set(tokenizers.pre_tokenizers.ByteLevel.alphabet())


@pytest.mark.parametrize(
    "word, spelled",
    [
        (" hello", "Ġhello"),
        ("héllo wörld", "hÃ©lloĠwÃ¶rld"),
        ("日本", "æĹ¥æľ¬"),
        ("😀", "ðŁĺĢ"),
        ("e\u0301", "eÌģ"),
        ("", ""),
    ],
)
def test_byte_level_alphabet(word, spelled):
    v = Vocabulary(["a"], alphabet="byte-level")
    assert v.to_alphabet(word) == spelled
    assert len(v.to_alphabet(word)) == len(word.encode("utf-8"))
    assert v.from_alphabet(spelled) == word


def test_byte_level_round_trips_every_byte_sequence_of_valid_text():
    v = Vocabulary(["a"], alphabet="byte-level")
    text = "".join(chr(c) for c in range(0, 0x800)) + "\U0010ffff\U0001f600"
    assert v.from_alphabet(v.to_alphabet(text)) == text


def test_byte_level_from_alphabet_rejects_foreign_characters():
    v = Vocabulary(["a"], alphabet="byte-level")
    with pytest.raises(ValueError, match="byte-level"):
        v.from_alphabet(" ")  # a raw space is not a byte-level character


@pytest.mark.parametrize("token, char", [
    ("你好", "你"), ("a b", " "), ("ab\x00", "\x00"), ("Ġ\u0144", "\u0144"), ("\ud800", "\ud800"),
])
def test_byte_level_vocabulary_refuses_a_token_outside_the_alphabet(token, char):
    """GPT-2's alphabet is 256 characters (U+0143 "Ń" is the last, U+0144 is out): a token
    with any other character could never match a spelled word; refused, naming both."""
    with pytest.raises(ValueError, match="byte-level alphabet") as err:
        Vocabulary(["a", token], alphabet="byte-level")
    assert isinstance(err.value, InvalidValueError)
    msg = str(err.value)
    assert "position 1" in msg and repr(token) in msg
    assert repr(char) in msg and f"U+{ord(char):04X}" in msg
    assert Vocabulary(["a", token]).tokens == ("a", token)  # identity: any character


def test_byte_level_vocabulary_takes_all_256_characters_and_spelled_words():
    chars = list(bytes_to_unicode().values())
    assert len(Vocabulary(chars, alphabet="byte-level")) == 256
    words = ["你好", " hé", "\x00\n", "😀"]
    v = Vocabulary([spell("byte-level", w) for w in words], alphabet="byte-level")
    assert [v.from_alphabet(t) for t in v] == words
    assert Vocabulary.infinite("byte-level").is_infinite


def test_sentencepiece_vocabulary_refuses_a_plain_space():
    with pytest.raises(InvalidValueError, match=r"token at position 1 'a b' holds ' ' "
                       r"\(U\+0020\).*sentencepiece alphabet"):
        Vocabulary(["▁a", "a b"], alphabet="sentencepiece")
    # only U+0020 is spelled "▁": other blanks are characters of the alphabet
    assert len(Vocabulary(["▁a", "a\tb", "\u3000"], alphabet="sentencepiece")) == 3


def test_vocabulary_load_refuses_a_token_its_alphabet_cannot_spell(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text("a\n你好\n", encoding="utf-8")
    assert len(Vocabulary.load(path)) == 2  # identity
    with pytest.raises(VocabularyFormatError, match=r"v\.txt.*'你好' holds '你'.*byte-level"):
        Vocabulary.load(path, alphabet="byte-level")


@pytest.mark.parametrize("name", ["gpt2", "bpe-8k", "ulm-8k"])
def test_shipped_vocabularies_keep_their_alphabets(name):
    from workbench.datasets import load_vocabulary

    v = load_vocabulary(name)
    assert len(v) > 8000 and v.to_alphabet(" king") in v


def test_hf_tokenizer_json_leaves_out_added_tokens_the_alphabet_cannot_spell(tmp_path):
    """An added token is matched whole in the raw text, before any spelling: one with a
    plain space (this package's own export writes its stop words so) is no piece of a
    spelled word and is left out; a model token outside the alphabet is still refused."""
    for pre, vocab in [("ByteLevel", {"a": 0, "Ġthe": 1, " the": 2}),
                       ("Metaspace", {"a": 0, "▁the": 1, " the": 2})]:
        doc = {"added_tokens": [{"id": 2, "content": " the", "special": False}],
               "pre_tokenizer": {"type": pre},
               "model": {"type": "BPE", "vocab": vocab, "merges": []}}
        path = tmp_path / "tokenizer.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        v = Vocabulary.load(path)
        assert v.tokens == tuple(vocab)[:2] and " the" not in v
        doc["added_tokens"] = []
        path.write_text(json.dumps(doc), encoding="utf-8")
        with pytest.raises(VocabularyFormatError, match=r"\$\.model\.vocab\[' the'\]: "
                           r"token ' the' holds ' '"):
            Vocabulary.load(path)


def test_sentencepiece_alphabet():
    v = Vocabulary(["▁a"], alphabet="sentencepiece")
    assert v.to_alphabet(" hello world") == "▁hello▁world"
    assert v.from_alphabet("▁hello▁world") == " hello world"
    assert v.to_alphabet("日本") == "日本"


def test_identity_alphabet_and_no_normalisation():
    v = Vocabulary(["é"])
    assert v.to_alphabet(" héllo") == " héllo"
    decomposed = "e\u0301"
    assert v.to_alphabet(decomposed) == decomposed
    assert len(v.to_alphabet(decomposed)) == 2
    assert decomposed not in v  # "é" is the precomposed U+00E9; nothing is normalised
    assert Vocabulary([decomposed]).tokens[0] == decomposed


def test_to_alphabet_rejects_non_str():
    with pytest.raises(TypeError):
        Vocabulary(["a"], alphabet="byte-level").to_alphabet(b"a")
