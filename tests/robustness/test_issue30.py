"""Issue 30's edges, one test (or more) each, named after the bug it caught.

1. ``read_counts`` kept a UTF-8 byte-order mark in the first chunk (both routes: numba scan, csv).
2. ``Vocabulary.save(.txt)`` lost characters silently (a BOM at the start of the first token;
   lists that read back as another text format).
3. ``tokenize_corpus("corpus.txt")`` tokenised the name as text while
   ``tokenize_corpus_dask("corpus.txt")`` read the file.
4. Byte-level vocabularies (``encoder.json``, ``tokenizer.json`` with ``ByteLevel``) accepted
   tokens outside the byte-level alphabet.
5. ``tokenizer.json`` with ``"vocab": {}`` gave a 0-token vocabulary; a ``""`` key was dropped.
6. Bare ``KeyError`` / ``IndexError`` / ``OverflowError`` from ``table8``, ``table7``,
   ``lattice.counts_from_arcs`` and ``Vocabulary.decode_ids``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench.counts as counts_module
from workbench import Vocabulary, datasets
from workbench.counts import CountsFormatError, read_counts
from workbench.lattice import counts_from_arcs
from workbench.metrics.segmentation import distribution_stats, table7, table8
from workbench.vocab.formats import VocabularyFormatError

BOM = "\ufeff"


# ---------------------------------------------------------------- 1. BOM in count tables
@pytest.fixture(params=["scan", "csv"])
def counts_route(request, monkeypatch):
    """Run ``read_counts`` through the numba scan or force the row-by-row csv reader."""
    if request.param == "scan":
        from workbench._core.tsv import scan_counts  # numba loaded: read_counts scans
        assert scan_counts(b"a\t1\n") == {"a": 1}
    else:
        monkeypatch.setattr(counts_module, "_scanned", lambda raw, budget: None)
    return request.param


@pytest.mark.parametrize("body", [" the\t3\nb\t1\n", "\"q\t\"\t2\n", " the\t3\r\nb\t1\r\n"])
def test_read_counts_drops_a_leading_bom_like_the_vocabulary_loaders(tmp_path, counts_route,
                                                                    body):
    path = tmp_path / "bom.tsv"
    path.write_bytes((BOM + body).encode("utf-8"))
    plain = tmp_path / "plain.tsv"
    plain.write_bytes(body.encode("utf-8"))
    got = read_counts(path)
    assert not any(BOM in chunk for chunk in got), got
    assert got == read_counts(plain) and list(got) == list(read_counts(plain))


def test_read_counts_keeps_a_bom_that_is_not_at_the_start(tmp_path, counts_route):
    path = tmp_path / "inner.tsv"
    path.write_bytes(f"a\t1\n{BOM}b\t2\n".encode())
    assert read_counts(path) == {"a": 1, f"{BOM}b": 2}


def test_read_counts_names_the_line_of_bad_utf8_after_a_bom(tmp_path, counts_route):
    path = tmp_path / "latin.tsv"
    path.write_bytes(BOM.encode() + b"a\t1\ncaf\xe9\t2\n")
    with pytest.raises(CountsFormatError, match=r"latin\.tsv, line 2: not UTF-8"):
        read_counts(path)


# ---------------------------------------------------------------- 2. plain lists round-trip
@pytest.mark.parametrize("tokens, shown", [
    ([f"{BOM}a", "b"], r"'\\ufeffa'.*byte-order mark"),      # the BOM readers drop
    (["a\t1", "b\t2"], r"'a\\t1'.*another text format"),      # reads as a SentencePiece .vocab
    (["YQ== 0", "Yg== 1"], r"'YQ== 0'.*another text format"),  # reads as a tiktoken file
    (["a\nb"], r"line break"),
    (["a\rb"], r"line break"),
    (["a\u2028b"], r"line break"),
    (["a\ud800"], r"'a\\ud800'.*UTF-8"),
])
def test_vocabulary_txt_save_refuses_tokens_it_would_lose(tmp_path, tokens, shown):
    v = Vocabulary(tokens)
    path = tmp_path / "v.txt"
    with pytest.raises(ValueError, match=shown) as err:
        v.save(path)
    assert ".json" in str(err.value)
    assert not path.exists()
    if "\ud800" not in tokens[0]:
        v.save(tmp_path / "v.json")  # the JSON form keeps them
        assert Vocabulary.load(tmp_path / "v.json").tokens == v.tokens


def test_vocabulary_txt_save_refuses_suffixes_read_as_other_formats(tmp_path):
    with pytest.raises(ValueError, match=r"\.model.*save to \.json"):
        Vocabulary(["a", "b"]).save(tmp_path / "v.model")


def test_vocabulary_txt_keeps_tabs_and_inner_boms(tmp_path):
    v = Vocabulary(["a\tb", "c", f"d{BOM}", f"{BOM}e"])  # one tab-line is not a .vocab
    v.save(tmp_path / "v.txt")
    assert Vocabulary.load(tmp_path / "v.txt").tokens == v.tokens


_TOKENS = st.lists(st.sampled_from(["a", "b", "\t", " ", "=", "0", "1", BOM, "\r", "\n",
                                    "\x85", "<unk>", "Q"]), min_size=1, max_size=6).map("".join)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.lists(_TOKENS, min_size=1, max_size=5, unique=True))
def test_vocabulary_txt_round_trips_every_token_or_refuses(tmp_path_factory, tokens):
    v = Vocabulary(tokens)
    path = tmp_path_factory.mktemp("v") / "v.txt"
    try:
        v.save(path)
    except ValueError as err:
        assert "save to .json" in str(err)
        return
    assert Vocabulary.load(path).tokens == v.tokens


# ---------------------------------------------------------------- 3. one meaning of a str
@pytest.fixture(scope="module")
def tok():
    from workbench import Grampa
    from workbench.pretokenise import TextTokenizer

    return TextTokenizer(Grampa(datasets.load_vocabulary("ulm-8k")), p=0.0)


def test_tokenize_corpus_refuses_a_str_naming_a_file_the_dask_api_would_read(tmp_path, tok):
    from workbench.pretokenise import tokenize_corpus

    path = tmp_path / "corpus.txt"
    path.write_text("hello world\nsecond line", encoding="utf-8")
    for sources in (str(path), [str(path)], ["some text", str(path)]):
        with pytest.raises(ValueError, match=r"names an existing file.*pathlib\.Path"):
            tokenize_corpus(sources, tok, progress=False)
    by_path = tokenize_corpus(path, tok, progress=False, num_threads=1)
    as_text = tokenize_corpus("hello world\nsecond line", tok, progress=False, num_threads=1)
    assert all(np.array_equal(a, b) for a, b in zip(by_path, as_text))
    # a str that names no file is text, as documented
    assert tokenize_corpus(str(tmp_path / "absent.txt"), tok, progress=False)[1].size == 2


def test_tokenize_corpus_dask_reads_what_tokenize_corpus_reads_or_refuses(tmp_path, tok):
    """The same argument never gives two results: equal ids, or one API refuses."""
    distributed = pytest.importorskip("distributed")
    from workbench.pretokenise import tokenize_corpus, tokenize_corpus_dask

    path = tmp_path / "corpus.txt"
    path.write_text("hello world\nsecond line\n", encoding="utf-8")
    with pytest.raises(FileNotFoundError, match="texts go to tokenize_corpus"):
        tokenize_corpus_dask("hello world", tok)
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        for arg in (str(path), path):
            remote = tokenize_corpus_dask(arg, tok, seed=1, client=client)
            try:
                local = tokenize_corpus(arg, tok, seed=1, progress=False, num_threads=1)
            except ValueError as err:
                assert isinstance(arg, str) and "pathlib.Path" in str(err)
                continue
            assert all(np.array_equal(a, b) for a, b in zip(local, remote))


# ---------------------------------------------------------------- 4. byte-level alphabets
@pytest.mark.parametrize("token", ["a\u0000b", "\ud800", "a b", "日本"])
def test_encoder_json_refuses_tokens_outside_the_byte_level_alphabet(tmp_path, token):
    path = tmp_path / "encoder.json"
    path.write_text(json.dumps({"a": 0, token: 1}), encoding="utf-8")
    with pytest.raises(VocabularyFormatError) as err:
        Vocabulary.load(path)
    msg = str(err.value)
    assert "encoder.json" in msg and repr(token)[:20] in msg and "byte-level" in msg


def test_tokenizer_json_bytelevel_refuses_tokens_outside_the_alphabet(tmp_path):
    doc = {"model": {"type": "BPE", "vocab": {"a": 0, "Ġb": 1, "a\u0000b": 2}, "merges": []},
           "pre_tokenizer": {"type": "ByteLevel"}}
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(VocabularyFormatError, match=r"tokenizer\.json: \$\.model\.vocab\["
                       r"'a\\x00b'\].*byte-level"):
        Vocabulary.load(path)
    doc["added_tokens"] = [{"id": 2, "content": "a\u0000b", "special": False}]
    path.write_text(json.dumps(doc), encoding="utf-8")
    # an added token is matched whole in the raw text, never a piece of a spelled word: left
    # out (a byte-level Vocabulary refuses a token outside the alphabet)
    v = Vocabulary.load(path)
    assert "a\u0000b" not in v and v.tokens == ("a", "Ġb")


def test_byte_level_vocabularies_in_the_alphabet_still_load(tmp_path):
    path = tmp_path / "encoder.json"
    path.write_text(json.dumps({"Ġh": 0, "ÃŃ": 1, "<|endoftext|>": 2}), encoding="utf-8")
    v = Vocabulary.load(path)
    assert v.alphabet == "byte-level" and len(v) == 3


# ---------------------------------------------------------------- 5. empty tokenizer.json
def _tokenizer_json(tmp_path: Path, vocab, **extra) -> Path:
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps({"model": {"type": "BPE", "vocab": vocab}, **extra}),
                    encoding="utf-8")
    return path


def test_tokenizer_json_with_an_empty_vocab_is_refused(tmp_path):
    with pytest.raises(VocabularyFormatError, match=r"tokenizer\.json: \$\.model\.vocab is "
                       r"empty"):
        Vocabulary.load(_tokenizer_json(tmp_path, {}))
    with pytest.raises(VocabularyFormatError, match=r"tokenizer\.json: \$\.model\.vocab is "
                       r"empty"):
        Vocabulary.load(_tokenizer_json(tmp_path, []))
    only_special = _tokenizer_json(tmp_path, {"<s>": 0},
                                   added_tokens=[{"id": 0, "content": "<s>", "special": True}])
    with pytest.raises(VocabularyFormatError, match="only special tokens"):
        Vocabulary.load(only_special)


def test_tokenizer_json_with_an_empty_token_is_refused_not_dropped(tmp_path):
    with pytest.raises(VocabularyFormatError,
                       match=re.escape("tokenizer.json: $.model.vocab['']")):
        Vocabulary.load(_tokenizer_json(tmp_path, {"a": 0, "": 1}))
    with pytest.raises(VocabularyFormatError,
                       match=re.escape("tokenizer.json: $.model.vocab[1][0]")):
        Vocabulary.load(_tokenizer_json(tmp_path, [["a", -1.0], ["", -2.0]]))
    encoder = tmp_path / "encoder.json"
    encoder.write_text('{"a": 0, "": 1}', encoding="utf-8")
    with pytest.raises(VocabularyFormatError, match=re.escape("encoder.json: invalid "
                                                              "vocabulary: $['']")):
        Vocabulary.load(encoder)


# ---------------------------------------------------------------- 6. clear errors
def test_table8_names_the_missing_statistic_instead_of_a_bare_keyerror():
    with pytest.raises(ValueError, match=r"per_word\[0\] lacks the statistic\(s\) H1pr_H0pr"):
        table8([{"x": 1}])
    good = distribution_stats([(1, 1), (2,)], 2)
    with pytest.raises(ValueError, match=r"per_word\[1\] lacks the statistic\(s\) RR"):
        table8([good, {k: v for k, v in good.items() if k != "RR"}])
    with pytest.raises(TypeError, match=r"per_word\[0\] must be a dict"):
        table8([5])
    with pytest.raises(ValueError, match=r"per_word\[0\]\['U'\] must be finite"):
        table8([{**good, "U": 10**400}])
    assert table8([good])["words"] == 1


def test_table7_names_the_bad_segmentation_instead_of_an_overflow():
    with pytest.raises(ValueError, match=r"segmentations\[1\]: every token length must be <="):
        table7([[1, 2], [10**400]])
    with pytest.raises(TypeError, match=r"segmentations\[0\]"):
        table7([5])
    with pytest.raises(TypeError, match="segmentations must be an iterable"):
        table7(5)


@pytest.mark.parametrize("n, arcs, direction, shown", [
    (3, [(0, 5)], "l2r", r"arcs\[0\] = \(0, 5\) is not an arc.*0\.\.3"),
    (3, [(0, 1), (2, 2)], "r2l", r"arcs\[1\] = \(2, 2\)"),
    (3, [(-1, 1)], "r2l", r"arcs\[0\] = \(-1, 1\)"),
    (-1, [], "l2r", r"n must be >= 0, got -1"),
    (2, [(0, 1, 2)], "l2r", r"arcs\[0\] must be a pair"),
    (2, [(0, 1)], "up", r"direction must be one of"),
])
def test_counts_from_arcs_names_the_bad_node_instead_of_an_indexerror(n, arcs, direction,
                                                                       shown):
    with pytest.raises(ValueError, match=shown):
        counts_from_arcs(n, arcs, direction)


def test_decode_ids_names_the_id_out_of_range_instead_of_a_keyerror():
    v = Vocabulary(["a", "b", "ab"], ids=[3, 4, 7])
    with pytest.raises(ValueError, match=r"ids\[0\] = -1 is not an id.*3 tokens, ids 3\.\.7"):
        v.decode_ids([-1])
    with pytest.raises(ValueError, match=r"ids\[2\] = 5 "):
        v.decode_ids(np.array([3, 7, 5]))
    with pytest.raises(TypeError, match=r"ids\[0\] must be an int, not float"):
        v.decode_ids([3.0])
    assert v.decode_ids(np.array([7, 3], dtype=np.int32)) == ["ab", "a"]
