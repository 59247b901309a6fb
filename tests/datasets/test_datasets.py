"""Tests for workbench.datasets: shipped files match data/README.md, loaders, retraining."""

from __future__ import annotations

import hashlib
import lzma
import re
import shutil

import pytest

from workbench.datasets import build as data_build
from workbench.datasets import loaders as data
from workbench.vocab import Vocabulary

README = data.DATA_DIR / "README.md"
_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|.*`([0-9a-f]{64})`\s*\|\s*$")


def readme_checksums() -> dict[str, str]:
    """{file name relative to data/: sha256} from the rows of README's tables."""
    rows = (_ROW.match(line) for line in README.read_text(encoding="utf-8").splitlines())
    return {m.group(1): m.group(2) for m in rows if m}


# --------------------------------------------------------------------------- shipped files
def test_readme_lists_every_shipped_file_with_its_sha256():
    listed = readme_checksums()
    assert len(listed) >= 11
    for name, expected in listed.items():
        path = data.DATA_DIR / name
        assert path.is_file(), f"{name} is listed in data/README.md but missing"
        assert hashlib.sha256(path.read_bytes()).hexdigest() == expected, name
    shipped = {
        p.relative_to(data.DATA_DIR).as_posix()
        for p in data.DATA_DIR.rglob("*")
        if p.is_file() and p.name != "README.md"
    }
    assert shipped == set(listed), "data/ and data/README.md disagree"


# --------------------------------------------------------------------------- word counts
def test_word_counts_match_the_raw_table():
    raw = lzma.decompress((data.DATA_DIR / data.WORD_COUNTS_FILE).read_bytes()).decode()
    lines = [line for line in raw.split("\n") if line]
    counts = data.load_word_counts()
    assert len(counts) == len(lines) == 82_834  # the file name says 82,765; it has more
    assert list(counts)[:3] == ["the", "of", "and"]
    assert all(w == w.lower() and c > 0 for w, c in counts.items())
    counts["the"] = -1  # a fresh dict each call
    assert data.load_word_counts()["the"] > 0


def test_english_words_are_ranked_by_count_then_alphabetically():
    counts = data.load_word_counts()
    words = data.english_words()
    assert len(words) == len(counts)
    keys = [(-counts[w], w) for w in words]
    assert keys == sorted(keys)
    assert data.english_words(5) == ["the", "of", "and", "to", "a"]
    long_words = data.english_words(100, min_length=6)
    assert len(long_words) == 100 and min(map(len, long_words)) >= 6
    assert data.english_words(0) == []
    with pytest.raises(ValueError):
        data.english_words(-1)


# --------------------------------------------------------------------------- vocabularies
def test_available_vocabularies():
    assert data.available_vocabularies() == ["ulm-8k", "bpe-8k", "gpt2"]


def test_gpt2_vocabulary():
    vocab = data.load_vocabulary("gpt2")
    assert len(vocab) == 50_257
    assert vocab.alphabet == "byte-level"
    assert sorted(vocab.ids.tolist()) == list(range(50_257))
    assert vocab.id_of("<|endoftext|>") == 50_256
    spelled = vocab.to_alphabet(" hello")
    assert spelled == "Ġhello" and spelled in vocab
    assert set(spelled) <= vocab.characters
    assert data.load_vocabulary("gpt2") is vocab  # cached


def test_gpt2_merges_build_vocabulary_tokens():
    merges = data.load_gpt2_merges()
    vocab = data.load_vocabulary("gpt2")
    assert len(merges) == 50_000
    assert merges[0] == ("Ġ", "t")
    assert all(a + b in vocab for a, b in merges)


@pytest.mark.parametrize("name", ["ulm-8k", "bpe-8k"])
def test_sentencepiece_vocabulary_shape(name):
    vocab = data.load_vocabulary(name)
    assert 8_000 <= len(vocab) < 8_192
    assert vocab.alphabet == "sentencepiece"
    assert vocab.name == name
    assert vocab.to_alphabet(" the") in vocab
    assert set(vocab.to_alphabet(" hello")) <= vocab.characters
    assert data.sentencepiece_model_path(name).suffix == ".model"


@pytest.mark.parametrize("name", ["ulm-8k", "bpe-8k"])
def test_sentencepiece_vocabulary_matches_sentencepiece(name):
    spm = pytest.importorskip("sentencepiece")
    sp = spm.SentencePieceProcessor(model_file=str(data.sentencepiece_model_path(name)))
    normal = [
        (sp.id_to_piece(i), i)
        for i in range(sp.get_piece_size())
        if not (sp.is_control(i) or sp.is_unknown(i) or sp.is_byte(i) or sp.is_unused(i))
    ]
    assert sp.get_piece_size() == 8_192
    vocab = Vocabulary.load(data.sentencepiece_model_path(name))
    assert list(zip(vocab.tokens, vocab.ids.tolist(), strict=True)) == normal
    assert data.load_vocabulary(name) == vocab
    for token in vocab.tokens[::97]:
        assert sp.piece_to_id(token) == vocab.id_of(token)


# --------------------------------------------------------------------------- texts
def test_shakespeare():
    docs = data.load_documents("shakespeare")
    assert len(docs) == 42 and "hamlet_gut" in docs
    text = data.load_text()
    assert text == "\n\n".join(docs.values())
    assert "To be, or not to be" in docs["hamlet_gut"]
    assert text.isascii() and 4_900_000 < len(text) < 5_100_000


def test_brown():
    docs = data.load_documents("brown")
    assert len(docs) == 500 and list(docs)[:2] == ["ca01", "ca02"]
    assert docs["ca01"].startswith("The Fulton County Grand Jury said Friday an investigation")
    assert "/at" not in docs["ca01"]
    assert data.load_text("brown") == "\n\n".join(docs.values())
    tagged = data.load_brown_tagged()
    assert len(tagged) == 57_340  # sentences, as in NLTK's copy of the corpus
    assert sum(map(len, tagged)) == 1_161_192
    assert tagged[0][:2] == [("The", "at"), ("Fulton", "np-tl")]


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "call",
    [
        lambda: data.load_vocabulary("gpt-2"),
        lambda: data.load_vocabulary("ulm-16k"),
        lambda: data.sentencepiece_model_path("gpt2"),
        lambda: data.load_text("gutenberg"),
        lambda: data.load_documents("Brown"),
        lambda: data_build.train_sentencepiece("a b", "unused.model", model_type="word"),
    ],
)
def test_unknown_names_raise_value_error(call):
    with pytest.raises(ValueError, match="available"):
        call()


def test_missing_files_say_how_to_rebuild(tmp_path, monkeypatch):
    monkeypatch.setattr(data, "DATA_DIR", tmp_path)
    assert data.available_vocabularies() == []
    with pytest.raises(FileNotFoundError, match="python -m workbench.datasets.build"):
        data.sentencepiece_model_path("ulm-8k")
    with pytest.raises(FileNotFoundError, match="python -m workbench.datasets.build"):
        data.load_gpt2_merges()


# --------------------------------------------------------------------------- retraining
@pytest.mark.parametrize("model_type", ["unigram", "bpe"])
def test_train_small_model_is_loadable_and_deterministic(tmp_path, model_type):
    spm = pytest.importorskip("sentencepiece")
    text = data.load_text()[:100_000]
    first = data_build.train_sentencepiece(text, tmp_path / "a.model", model_type=model_type,
                                     vocab_size=200)
    second = data_build.train_sentencepiece(text, tmp_path / "b.model", model_type=model_type,
                                      vocab_size=200)
    assert first.read_bytes() == second.read_bytes()
    vocab = Vocabulary.load(first)
    assert len(vocab) == 199 and vocab.alphabet == "sentencepiece"
    sp = spm.SentencePieceProcessor(model_file=str(first))
    assert not any(sp.is_byte(i) for i in range(sp.get_piece_size()))
    assert sp.encode("hello world", out_type=str)  # usable by sentencepiece itself


def test_build_cli_retrains_into_out_dir(tmp_path, capsys):
    pytest.importorskip("sentencepiece")
    shutil.copy(data.DATA_DIR / data.SHAKESPEARE_FILE, tmp_path)
    argv = ["--out-dir", str(tmp_path), "--vocab-size", "300", "--model-types", "bpe"]
    assert data_build.main(argv) == 0
    model = tmp_path / "sp_bpe_300.model"
    assert len(Vocabulary.load(model)) == 299
    assert "sp_bpe_300.model" in capsys.readouterr().out
    assert not (tmp_path / "sp_ulm_300.model").exists()


# --------------------------------------------------------------------------- .xz files
def test_xz_data_files_are_read_stream_by_stream_and_garbage_is_refused(tmp_path,
                                                                         monkeypatch):
    import io
    import tarfile

    from workbench import WorkbenchError

    monkeypatch.setattr(data, "DATA_DIR", tmp_path)
    (tmp_path / "two.txt.xz").write_bytes(lzma.compress(b"the 5\n") + lzma.compress(b"cat 3\n"))
    assert data._read_xz("two.txt.xz") == b"the 5\ncat 3\n"
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, body in (("a.txt", b"alpha"), ("b.txt", b"beta")):
            info = tarfile.TarInfo(name)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    raw = buf.getvalue()
    (tmp_path / "t.tar.xz").write_bytes(lzma.compress(raw[:700]) + lzma.compress(raw[700:]))
    assert data._read_tar_xz("t.tar.xz") == (("a.txt", "alpha"), ("b.txt", "beta"))
    packed = lzma.compress(b"the 5\n")
    for bad, content in (("junk.txt.xz", packed + b"trailing garbage"),
                         ("cut.txt.xz", packed + packed[:-4]),
                         ("junk.tar.xz", lzma.compress(raw) + b"trailing garbage")):
        (tmp_path / bad).write_bytes(content)
        read = data._read_tar_xz if bad.endswith(".tar.xz") else data._read_xz
        with pytest.raises(WorkbenchError, match=bad.replace(".", r"\.")):
            read(bad)
