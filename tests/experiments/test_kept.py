"""workbench.experiments.kept: results kept on disk between processes (the callers' own
files are tested with them: test_greedtok.py, test_grampa_efficiency.py,
test_grampa_regularisation.py)."""

from __future__ import annotations

import pytest

from workbench.experiments import kept


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setattr(kept, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(kept, "_MEMO", {})
    return tmp_path


def _load(path):
    return int(path.read_text(encoding="utf-8"))


def _save(path, value):
    path.write_text(str(value), encoding="utf-8")


def test_made_once_then_read_from_the_file(store, monkeypatch) -> None:
    path = kept.kept_path(kept.__file__, "x", b"inputs", suffix=".txt")
    assert path.parent == store and path.name.startswith("kept_kept_x_")
    assert kept.kept(path, _load, lambda: 7, _save) == 7 and _load(path) == 7
    monkeypatch.setattr(kept, "_MEMO", {})          # a new process
    assert kept.kept(path, _load, lambda: pytest.fail("made again"), _save) == 7
    path.write_text("not a number", encoding="utf-8")  # unusable: made and written again
    monkeypatch.setattr(kept, "_MEMO", {})
    assert kept.kept(path, _load, lambda: 8, _save) == 8 and _load(path) == 8
    path.unlink()                                   # deleting costs only the time
    monkeypatch.setattr(kept, "_MEMO", {})
    assert kept.kept(path, _load, lambda: 9, _save) == 9


def test_the_file_is_named_by_inputs_and_name(store) -> None:
    a = kept.kept_path(kept.__file__, "x", b"inputs")
    assert a == kept.kept_path(kept.__file__, "x", b"inputs")
    assert a != kept.kept_path(kept.__file__, "x", b"other inputs")
    assert a != kept.kept_path(kept.__file__, "y", b"inputs")


def test_a_file_that_cannot_be_written_costs_only_the_time(store, monkeypatch) -> None:
    def refuse(path, value):
        raise PermissionError(path)

    path = kept.kept_path(kept.__file__, "x", b"i")
    assert kept.kept(path, _load, lambda: 5, refuse) == 5 and not path.exists()


def test_a_file_read_is_marked_used(store, monkeypatch) -> None:
    import os

    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    kept.kept(path, _load, lambda: 3, _save)
    os.utime(path, (1e9, 1e9))                      # long unused (what cachedir.prune reads)
    monkeypatch.setattr(kept, "_MEMO", {})
    assert kept.kept(path, _load, lambda: pytest.fail("made again"), _save) == 3
    assert path.stat().st_mtime > 1e9
