"""BPEModel: encoding against the naive encoder, round trips, dropout, files, HF export."""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest
from hangguard import hang_guard
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import bpe as naive

from workbench import Grampa, WorkbenchDeprecationWarning
from workbench.bpe import (
    BPEModel,
    BPEModelFormatError,
    dropout_chunks,
    export_hf,
    split_text,
    train_bpe,
)
from workbench.datasets import load_text

ROUND_TRIP = ["", "a", "é", "€", "🙂", "𝔘𝔫𝔦", "  ", "\n\n\t", "héllo wörld", "日本語のテキスト",
              "mixed: Ελληνικά, русский, עברית, العربية 123456 🙂👋🏽 !!", "a" * 300,
              " " * 50 + "x", "don't we'll THEY'RE", "e\u0301"]


@pytest.fixture(scope="module")
def text():
    return load_text("shakespeare")[:120_000]


@pytest.fixture(scope="module")
def table(text):
    return dict(Counter(split_text(text)))


@pytest.fixture(scope="module")
def model(table):
    return train_bpe(table, 600, stop_list_size=5, progress=False)


@pytest.mark.parametrize("s", ROUND_TRIP)
def test_round_trip(model, s):
    ids = model.encode(s)
    assert model.decode(ids) == s
    assert b"".join(model.tokens(s)) == s.encode("utf-8")
    assert all(0 <= i < len(model) for i in ids)


def test_empty_and_single():
    m = BPEModel([])
    assert m.encode("") == [] and m.decode([]) == ""
    assert m.encode("a") == [97]


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_round_trip_any_text(model, s):
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        with pytest.raises(ValueError, match="surrogate"):
            model.encode(s)
        return
    assert model.decode(model.encode(s)) == s


def test_lone_surrogate_is_a_clear_error(model):
    with pytest.raises(ValueError, match="lone surrogate U\\+D800 at position 1"):
        model.encode("a\ud800b")


def test_encode_equals_naive(model, text):
    stop = set(model.stop_words)
    for chunk in split_text(text[-5000:]) + split_text(" ".join(ROUND_TRIP)):
        got = model.tokens(chunk)
        if chunk in stop:
            assert got == [chunk.encode()]
        else:
            assert got == naive.encode_chunk(chunk.encode(), model.merges)


def test_training_chunks_encode_to_their_trained_form(table):
    m = train_bpe(table, 400, progress=False)
    # every merge's result, spelled as a chunk, encodes to at most as many tokens as pieces
    assert len(m.vocab) == 400 and len(set(m.merges)) == len(m.merges)


def test_stop_words_whole_chunk_only(model):
    # a stop word ending in a letter, so that word + "zzz" stays one chunk when pretokenised
    index, word = next((i, w) for i, w in enumerate(model.stop_words) if w[-1].isalpha())
    sid = 256 + index
    assert model.encode(word) == [sid]
    assert sid not in model.encode(word + "zzz")
    assert model.vocab[sid] == word.encode()


def _dropout(model, text, p, seed):
    return [i for ids in dropout_chunks(model, split_text(text), p, seed) for i in ids]


def test_dropout_extremes(model, text):
    sample = text[:3000]
    assert _dropout(model, sample, 0.0, 1) == model.encode(sample)
    stop = set(model.stop_words)
    byte_count = sum(1 if c in stop else len(c.encode()) for c in split_text(sample))
    assert len(_dropout(model, sample, 1.0, 3)) == byte_count
    a = _dropout(model, sample, 0.3, 7)
    assert a == _dropout(model, sample, 0.3, 7)
    assert model.decode(a) == sample


def test_dropout_keywords_of_the_model_are_deprecated(model, text):
    """A deterministic model stays deterministic: ``dropout=``/``seed=`` on its verbs warn
    for one release, naming the stochastic form, and still answer as before."""
    sample = text[:500]
    with pytest.warns(WorkbenchDeprecationWarning, match="BPESampler"):
        old = model.encode(sample, dropout=0.3, seed=7)
    assert old == _dropout(model, sample, 0.3, 7)
    with pytest.warns(WorkbenchDeprecationWarning, match="dropout_chunks"):
        chunks = model.encode_chunks(split_text(sample), dropout=0.3, seed=7)
    assert [i for ids in chunks for i in ids] == old
    with pytest.warns(WorkbenchDeprecationWarning, match="BPESampler"):
        assert model.tokens(sample, dropout=0.3, seed=7) == [model.vocab[i] for i in old]
    with pytest.warns(WorkbenchDeprecationWarning):
        assert model.encode(sample, seed=1) == model.encode(sample)  # seed alone: plain


def test_the_stochastic_form_of_text_bpe_is_bpe_sampler_through_text_tokenizer(model, text):
    """What the deprecation names: BPE-dropout of text with the same law per chunk (p = 1:
    bytes; p = 0: plain BPE's tokens; a stop word comes back under the id ``to_vocabulary``
    gives its string, its first merge's) and the text back on decode."""
    from workbench import BPESampler, TextTokenizer

    def text_dropout(p):
        sampler = BPESampler(model.to_vocabulary(), model=model, dropout=p)
        return TextTokenizer(sampler, p=1.0, pattern=model.pattern, seed=4)

    sample = text[:800]
    table = model.token_bytes
    plain = text_dropout(0.0).encode(sample)
    assert [table[i] for i in plain] == [table[i] for i in model.encode(sample)]
    assert len(text_dropout(1.0).encode(sample)) == len(_dropout(model, sample, 1.0, 0))
    ids = text_dropout(0.3).encode(sample)
    assert model.decode(ids) == sample and len(ids) > len(model.encode(sample))


def test_dropout_rate_matches_naive(model, text):
    # mean tokens per chunk under p = 0.1: kernel vs the naive sampler, 400 draws each over
    # 60 chunks; tolerance 4 standard errors of the difference
    chunks = [c for c in split_text(text[:2000]) if c not in set(model.stop_words)][:60]
    ours = [sum(len(x) for x in dropout_chunks(model, chunks, 0.1, s))
            for s in range(400)]
    rng = random.Random(0)
    ref = [sum(len(naive.encode_chunk(c.encode(), model.merges, 0.1, rng)) for c in chunks)
           for _ in range(400)]
    diff = abs(np.mean(ours) - np.mean(ref))
    se = np.sqrt(np.var(ours) / 400 + np.var(ref) / 400)
    assert diff < 4 * se + 1e-9, (np.mean(ours), np.mean(ref), se)
    base = sum(len(x) for x in model.encode_chunks(chunks))
    assert np.mean(ours) > base  # dropout lengthens


def test_save_load_round_trip(model, tmp_path, text):
    path = tmp_path / "m.json"
    model.save(path)
    back = BPEModel.load(path)
    assert back == model and back.vocab == model.vocab and back.stop_words == model.stop_words
    assert back.batches == model.batches and back.params == model.params
    sample = text[:5000]
    assert back.encode(sample) == model.encode(sample)


def test_load_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(BPEModelFormatError, match="bad.json"):
        BPEModel.load(bad)
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "something"}))
    with pytest.raises(BPEModelFormatError, match="other.json"):
        BPEModel.load(other)


def test_constructor_validates():
    with pytest.raises(ValueError, match="earlier merge"):
        BPEModel([(b"ab", b"c")])
    with pytest.raises(ValueError, match="repeats"):
        BPEModel([(b"a", b"b"), (b"a", b"b")])
    with pytest.raises(TypeError):
        BPEModel([("a", "b")])
    with pytest.raises(ValueError, match="decode|vocabulary"):
        BPEModel([]).decode([999])


def test_hf_export_encodes_identically(table, text, tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    # stop words with a space (",", "." would clash with byte-level spellings, see below)
    spaced = {c: n for c, n in table.items() if c[:1] == " " and c[1:].isalpha()}
    top = sorted(spaced, key=lambda c: -spaced[c])[:6]
    model = train_bpe({c: (n * 1000 if c in top else n) for c, n in table.items()}, 700,
                      stop_list_size=6, progress=False)
    assert set(model.stop_words) == set(top)
    path = export_hf(model, tmp_path / "tokenizer.json")
    hf = tokenizers.Tokenizer.from_file(str(path))
    def whole_chunks_only(s):  # HF matches added tokens anywhere; ours only as chunks
        n_chunks = sum(c in top for c in split_text(s))
        return n_chunks == sum(s.count(w) for w in top)

    paragraphs = (text[:20000] + text[-20000:]).split("\n\n")
    texts = [p for p in paragraphs if whole_chunks_only(p)] + ROUND_TRIP
    assert len(texts) > 200
    assert sum(any(i in range(256, 262) for i in model.encode(p)) for p in texts) > 50
    for s in texts:
        assert hf.encode(s).ids == model.encode(s), s[:40]
        assert hf.decode(model.encode(s)) == s


def test_hf_export_stop_word_inside_a_word_differs(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    m = BPEModel([(b"t", b"h")], stop_words=[" the"])
    hf = tokenizers.Tokenizer.from_file(str(export_hf(m, tmp_path / "t.json")))
    assert hf.encode(" the cat").ids == m.encode(" the cat")
    assert hf.encode(" theory").ids != m.encode(" theory")  # documented difference
    with pytest.raises(ValueError, match="spelled like byte-level"):
        export_hf(BPEModel([], stop_words=[","]), tmp_path / "u.json")


def test_to_vocabulary_feeds_grampa(model):
    vocab = model.to_vocabulary()
    assert vocab.alphabet == "byte-level"
    word = vocab.to_alphabet(" thereof")
    g = Grampa(vocab, seed=0)
    seg = g.sample(word)
    assert "".join(seg) == word and all(t in vocab for t in seg)
    # the model's own segmentation is one of GRaMPa's, with the same ids
    for tok, i in zip(model.tokens(" thereof"), model.encode(" thereof")):
        assert vocab.id_of(vocab.to_alphabet(tok.decode())) == i
    assert len(vocab) <= len(model)


# ---- the O(L log L) plain encoder (heap) against the naive one, where overlaps abound

def _small_alphabet_model(n_merges: int, seed: int) -> BPEModel:
    """Merges trained on random strings over {a, b}: pairs like (a, a) overlap everywhere."""
    rng = random.Random(seed)
    words = Counter("".join(rng.choice("ab") for _ in range(rng.randint(1, 12)))
                    for _ in range(300))
    return train_bpe(dict(words), 256 + n_merges, progress=False)


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet="ab", max_size=60), st.integers(0, 3))
def test_heap_encoder_overlapping_runs_equal_naive(s, seed):
    m = _small_alphabet_model(12, seed)
    got = m.encode_chunks([s])[0]
    assert [m.vocab[i] for i in got] == naive.encode_chunk(s.encode(), m.merges)


def test_long_run_of_one_letter_is_fast_and_right():
    """One 1 MB chunk through the heap encoder: fast, and the same as the naive encoder on a
    run where overlapping occurrences of one pair compete (the sweep encoder's worst case, many
    distinct merges over one long chunk, is timed in BENCHMARKS.md: 53 s → 0.74 s)."""
    m = BPEModel([(b"a", b"a"), (b"aa", b"aa"), (b"aaaa", b"a")])
    with hang_guard(0.3, "encoding a chunk of 1,000,001 characters"):
        ids = m.encode_chunks(["a" * 1_000_001])[0]
    assert b"".join(m.vocab[i] for i in ids) == b"a" * 1_000_001
    assert [m.vocab[i] for i in m.encode_chunks(["a" * 13])[0]] == naive.encode_chunk(
        b"a" * 13, m.merges)


def test_dropout_refuses_a_chunk_too_long_before_working(model):
    from workbench._core.validate import BudgetError
    from workbench.bpe.model import DROPOUT_MAX_CHUNK

    with pytest.raises(BudgetError, match="split chunks longer"):
        dropout_chunks(model, ["a" * (DROPOUT_MAX_CHUNK + 1)], 0.1, 0)
    assert len(model.encode_chunks(["a" * (DROPOUT_MAX_CHUNK + 1)])[0]) > 0  # plain BPE: fine


def test_encode_chunks_rejects_a_bare_string(model):
    with pytest.raises(TypeError, match="sequence of str"):
        model.encode_chunks("hello")


@pytest.mark.parametrize("stop_list_size", [5, 10, 20])
def test_export_hf_works_for_stop_lists_on_ordinary_text(table, text, tmp_path,
                                                         stop_list_size):
    """Issue 19: export refused every model trained with stop_list_size 5, 10 or 20."""
    tokenizers = pytest.importorskip("tokenizers")
    model = train_bpe(table, 700, stop_list_size=stop_list_size, progress=False)
    assert model.stop_words and all(len(w) > 1 for w in model.stop_words)
    hf = tokenizers.Tokenizer.from_file(str(export_hf(model, tmp_path / "t.json")))
    words = set(model.stop_words)
    checked = 0
    for paragraph in text[:30000].split("\n\n"):
        chunks = split_text(paragraph)
        if sum(c in words for c in chunks) == sum(paragraph.count(w) for w in words):
            assert hf.encode(paragraph).ids == model.encode(paragraph), paragraph[:40]
            checked += 1
    assert checked > 20


def test_stop_list_skips_one_character_and_bytelevel_spelled_chunks():
    table = {",": 50, "\n": 40, "the": 30, " the": 20, ".\n": 15, " of": 10, "x": 1}
    model = train_bpe(table, 261, stop_list_size=3, progress=False)
    assert list(model.stop_words) == [" the", ".\n", " of"]
