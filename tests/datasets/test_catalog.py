"""workbench.datasets.catalog: vocabularies by name, resolution, uploads parsed in memory."""

from __future__ import annotations

import json
import os
import tempfile

import pytest

from workbench import Vocabulary, count_segmentations
from workbench.datasets import catalog, loaders
from workbench.vocab import VocabularyFormatError

SMALL = Vocabulary(["a", "b", "ab", "abc"], name="small")


def _files(tmp_path) -> dict[str, bytes]:
    """One file per supported format, written next to each other, as {name: bytes}."""
    SMALL.save(tmp_path / "ours.json")
    (tmp_path / "list.txt").write_bytes(b"a\nb\nab\nabc\n")
    (tmp_path / "encoder.json").write_text(json.dumps({"a": 0, "b": 1, "Ġa": 2}))
    hf = {"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "<s>": 3}},
          "added_tokens": [{"content": "<s>", "special": True}],
          "pre_tokenizer": {"type": "ByteLevel"}}
    (tmp_path / "tokenizer.json").write_text(json.dumps(hf))
    out = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    try:
        model = loaders.sentencepiece_model_path("ulm-8k")
        out["sp.model"] = model.read_bytes()
        (tmp_path / "sp.model").write_bytes(out["sp.model"])
    except (FileNotFoundError, OSError):
        pass
    return out


def test_upload_equals_loading_the_same_file(tmp_path) -> None:
    files = _files(tmp_path)
    assert len(files) >= 4
    for name, raw in files.items():
        from_bytes = catalog.vocabulary_from_bytes(name, raw)
        from_file = Vocabulary.load(tmp_path / name)
        assert from_bytes == from_file, name
        assert (from_bytes.alphabet, from_bytes.name) == (from_file.alphabet, from_file.name)
    # memoryview, as ipywidgets' FileUpload hands the content over
    assert catalog.vocabulary_from_bytes("list.txt", memoryview(files["list.txt"])).tokens == (
        "a", "b", "ab", "abc")


def test_upload_writes_no_temporary_file(tmp_path, monkeypatch) -> None:
    (tmp_path / "src").mkdir()
    files = _files(tmp_path / "src")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    for name in ("NamedTemporaryFile", "TemporaryDirectory", "mkstemp", "mkdtemp"):
        monkeypatch.setattr(tempfile, name, lambda *a, _n=name, **k: pytest.fail(f"{_n} used"))
    for name, raw in files.items():
        catalog.vocabulary_from_bytes(name, raw)
    with pytest.raises(VocabularyFormatError):
        catalog.vocabulary_from_bytes("broken.json", b"{not json")
    assert os.listdir(scratch) == []


@pytest.mark.parametrize("name,raw,match", [
    ("broken.json", b"{not json", r"^broken\.json: malformed JSON"),
    ("bad.model", b"xyz", r"^bad\.model: "),
    ("dup.txt", b"a\nb\na\n", r"^dup\.txt, line 3: duplicate token 'a'"),
    ("empty.txt", b"a\n\nb\n", r"^empty\.txt, line 2: empty token"),
    ("ids.json", json.dumps({"format": "workbench-vocabulary", "tokens": ["a", "b"],
                              "ids": [0], "alphabet": "identity"}).encode(),
     r"^ids\.json: invalid vocabulary"),
])
def test_upload_errors_name_the_upload(name, raw, match) -> None:
    with pytest.raises(VocabularyFormatError, match=match) as info:
        catalog.vocabulary_from_bytes(name, raw)
    assert tempfile.gettempdir() not in str(info.value)


def test_nameless_upload_reads_as_a_token_list() -> None:
    assert catalog.vocabulary_from_bytes("", b"x\ny\n").tokens == ("x", "y")


def test_figure1_vocabulary_is_in_the_catalog() -> None:
    v = catalog.figure1_vocabulary()
    assert v.tokens == catalog.FIGURE1_TOKENS and v.name == "figure-1"
    assert count_segmentations("GRAMPA", v) == 16
    assert catalog.resolve_vocabulary("figure-1") == v


def test_options_order_and_resolution(tmp_path) -> None:
    opts = catalog.vocabulary_options({"small": SMALL})
    shipped = loaders.available_vocabularies()
    assert list(opts) == [*shipped, "infinite", "figure-1", "small"]
    assert catalog.resolve_vocabulary("small", opts) is SMALL
    SMALL.save(tmp_path / "v.json")
    assert catalog.resolve_vocabulary(str(tmp_path / "v.json"), opts) == SMALL
    with pytest.raises(ValueError, match="valid names: .*small$"):
        catalog.resolve_vocabulary(str(tmp_path / "missing.json"), opts)
    with pytest.raises(TypeError):
        catalog.resolve_vocabulary(3, opts)  # type: ignore[arg-type]


def test_pasted_tokens() -> None:
    assert catalog.vocabulary_from_text("b\na\n\nb\n").tokens == ("b", "a")
    with pytest.raises(TypeError):
        catalog.vocabulary_from_text(b"a")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no tokens"):
        catalog.vocabulary_from_text("")
