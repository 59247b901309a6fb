"""The cached GPT-2 model equals the one read from the shipped files; a bad cache is ignored.

Every test points :data:`workbench.bpe.gpt2cache.CACHE_DIR` at its ``tmp_path``.
"""

from __future__ import annotations

import numpy as np
import pytest

from workbench.bpe import BPEModel, gpt2cache, interop


@pytest.fixture(scope="module")
def from_files() -> BPEModel:
    return BPEModel(**interop.read_gpt2(*interop.shipped_gpt2_files()))


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(gpt2cache, "CACHE_DIR", tmp_path / "cache")
    return tmp_path / "cache"


def _same(a: BPEModel, b: BPEModel) -> None:
    assert a == b  # merges, stop words, pattern, ids, special tokens
    assert a.vocab == b.vocab and a.pattern == b.pattern == "gpt2"
    assert np.array_equal(a._sym_merges, b._sym_merges) and a._sym_merges.dtype == np.int64
    assert a._identity_ids == b._identity_ids is False
    assert a.encode(" 12345 hello world's") == b.encode(" 12345 hello world's")


def test_first_call_writes_the_cache_and_later_calls_read_it(cache_dir, from_files,
                                                             monkeypatch):
    first = BPEModel.from_gpt2()
    path = gpt2cache.cache_path()
    assert path.parent == cache_dir and path.is_file()
    assert sorted(p.name for p in cache_dir.iterdir()) == [path.name]  # no temporary left
    _same(first, from_files)
    monkeypatch.setattr(interop, "read_gpt2", lambda *a, **k: pytest.fail("files read"))
    again = BPEModel.from_gpt2()
    _same(again, from_files)
    assert again.special_tokens == {"<|endoftext|>": 50256} and len(again) == 50257


def test_the_name_follows_the_shipped_files(cache_dir, monkeypatch, tmp_path):
    name = gpt2cache.cache_path().name
    enc, merges = interop.shipped_gpt2_files()
    changed = tmp_path / "vocab.bpe.xz"
    changed.write_bytes(merges.read_bytes() + b"\0")
    monkeypatch.setattr(interop, "shipped_gpt2_files", lambda: (enc, changed))
    assert gpt2cache.cache_path().name != name


@pytest.mark.parametrize("damage", ["garbage", "empty", "shapes", "future_symbol", "dtype",
                                    "special"])
def test_a_damaged_cache_is_ignored_and_rewritten(cache_dir, from_files, damage):
    path = gpt2cache.cache_path()
    cache_dir.mkdir()
    sym, ids = from_files._sym_merges.copy(), from_files._ids.copy()
    special = np.array('{"<|endoftext|>": 50256}')
    if damage == "garbage":
        path.write_bytes(b"not a zip file at all")
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        if damage == "shapes":
            ids = ids[:-1]
        elif damage == "future_symbol":
            sym[10, 1] = 256 + 10  # merge 10 joining the symbol it makes
        elif damage == "dtype":
            sym = sym.astype(np.int32)
        else:
            special = np.array('["<|endoftext|>"]')
        np.savez(path, merge_symbols=sym, ids=ids, special=special)
    _same(BPEModel.from_gpt2(), from_files)
    _same(BPEModel.from_gpt2(), from_files)  # rewritten: now read from the cache
    assert gpt2cache._load(path) is not None


def test_an_unwritable_cache_costs_only_time(tmp_path, monkeypatch, from_files):
    blocker = tmp_path / "a file"
    blocker.write_text("x")
    monkeypatch.setattr(gpt2cache, "CACHE_DIR", blocker / "cache")  # cannot be made
    _same(BPEModel.from_gpt2(), from_files)
    assert not (blocker / "cache").exists()


def test_paths_given_are_read_not_cached(cache_dir, from_files):
    enc, merges = interop.shipped_gpt2_files()
    _same(BPEModel.from_gpt2(enc, merges), from_files)
    assert not cache_dir.exists()
