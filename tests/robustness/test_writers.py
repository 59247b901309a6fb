"""Every writer: what it writes its reader reads back; a bad path is refused before any
work; an interruption leaves the old file whole and no temporary file behind (issue 19).
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np
import pytest

from workbench import BPEModel, Vocabulary, train_bpe, train_greedtok
from workbench._core import io
from workbench.counts import read_counts, write_counts
from workbench.greedtok import GreedTokModel

TABLE = {" low": 5, " lower": 2, " newest": 6, " widest": 3}


def _bpe():
    return train_bpe(TABLE, 262, progress=False)


def _greedtok():
    return train_greedtok(TABLE, 3, progress=False)


#: name → (write(path), read(path) → comparable, the value written, comparable)
WRITERS: dict[str, tuple[Callable, Callable, object]] = {
    "counts": (lambda p: write_counts(TABLE, p), read_counts, TABLE),
    "vocabulary-json": (lambda p: Vocabulary(["a", "ab"], scores=[-1.0, -2.0]).save(p),
                        lambda p: Vocabulary.load(p).tokens, ("a", "ab")),
    "vocabulary-txt": (lambda p: Vocabulary(["a", "ab"]).save(p),
                       lambda p: Vocabulary.load(p).tokens, ("a", "ab")),
    "bpe-model": (lambda p: _bpe().save(p), lambda p: BPEModel.load(p).merges,
                  None),
    "greedtok-model": (lambda p: _greedtok().save(p),
                       lambda p: GreedTokModel.load(p).tokens, None),
}
SUFFIX = {"counts": ".tsv", "vocabulary-json": ".json", "vocabulary-txt": ".txt",
          "bpe-model": ".json", "greedtok-model": ".json"}
EXPECTED = {"bpe-model": lambda: _bpe().merges, "greedtok-model": lambda: _greedtok().tokens}


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_writer_round_trip(name, tmp_path):
    write, read, value = WRITERS[name]
    path = tmp_path / f"out{SUFFIX[name]}"
    write(path)
    expected = EXPECTED[name]() if value is None else value
    assert read(path) == expected
    assert sorted(os.listdir(tmp_path)) == [path.name]


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_writer_refuses_a_directory_before_writing(name, tmp_path):
    write, _, _ = WRITERS[name]
    target = tmp_path / f"dir{SUFFIX[name]}"
    target.mkdir()
    with pytest.raises(ValueError, match="is a directory"):
        write(target)
    assert os.listdir(target) == [] and sorted(os.listdir(tmp_path)) == [target.name]


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_writer_interrupted_at_the_rename_keeps_the_old_file(name, tmp_path, monkeypatch):
    write, _, _ = WRITERS[name]
    path = tmp_path / f"out{SUFFIX[name]}"
    path.write_bytes(b"old contents")

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(io.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write(path)
    assert path.read_bytes() == b"old contents"
    assert sorted(os.listdir(tmp_path)) == [path.name]


def test_export_hf_round_trip_and_directory_refused(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    from workbench.bpe import export_hf

    model = _bpe()
    path = export_hf(model, tmp_path / "tokenizer.json")
    hf = tokenizers.Tokenizer.from_file(str(path))
    assert hf.encode(" lowest newer").ids == model.encode(" lowest newer")
    with pytest.raises(ValueError, match="is a directory"):
        export_hf(model, tmp_path)


def test_tokenize_corpus_npz_round_trip(tmp_path):
    from workbench import Grampa, datasets
    from workbench.pretokenise import TextTokenizer, tokenize_corpus

    tok = TextTokenizer(Grampa(datasets.load_vocabulary("ulm-8k")), p=0.5)
    ids, offsets = tokenize_corpus(["a b\nc d"], tok, seed=1, progress=False,
                                   out=tmp_path / "out")
    saved = np.load(tmp_path / "out.npz")
    assert np.array_equal(saved["ids"], ids) and np.array_equal(saved["line_offsets"], offsets)
