"""workbench.experiments.kept: results kept on disk between processes (the callers' own
files are tested with them: test_greedtok.py, test_grampa_efficiency.py,
test_grampa_regularisation.py)."""

from __future__ import annotations

import hashlib
import os
import threading
import warnings

import pytest

from workbench.experiments import kept


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setattr(kept, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(kept, "_MEMO", {})
    return tmp_path


def _load(raw):
    return int(raw.decode("ascii"))


def _save(value):
    return str(value).encode("ascii")


def _fail():
    pytest.fail("made again")


def _new_process(monkeypatch):
    monkeypatch.setattr(kept, "_MEMO", {})


def _envelope(path, payload: bytes) -> bytes:
    """What a kept file holding ``payload`` at ``path`` is (the module's docstring)."""
    digest = hashlib.sha256(os.fsencode(path.name) + b"\n" + payload).hexdigest()
    return b"workbench-kept v2 sha256=" + digest.encode() + b"\n" + payload


def test_made_once_then_read_from_the_file(store, monkeypatch) -> None:
    path = kept.kept_path(kept.__file__, "x", b"inputs", suffix=".txt")
    assert path.parent == store and path.name.startswith("kept_kept_x_")
    assert kept.kept(path, _load, lambda: 7, _save) == 7
    assert path.read_bytes() == _envelope(path, b"7")    # the documented file
    _new_process(monkeypatch)
    assert kept.kept(path, _load, _fail, _save) == 7
    path.write_text("not a number", encoding="utf-8")  # unusable: made and written again
    _new_process(monkeypatch)
    assert kept.kept(path, _load, lambda: 8, _save) == 8
    path.unlink()                                   # deleting costs only the time
    _new_process(monkeypatch)
    assert kept.kept(path, _load, lambda: 9, _save) == 9


def test_the_file_is_named_by_inputs_and_name(store) -> None:
    a = kept.kept_path(kept.__file__, "x", b"inputs")
    assert a == kept.kept_path(kept.__file__, "x", b"inputs")
    assert a != kept.kept_path(kept.__file__, "x", b"other inputs")
    assert a != kept.kept_path(kept.__file__, "y", b"inputs")


def test_a_file_read_is_marked_used(store, monkeypatch) -> None:
    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    kept.kept(path, _load, lambda: 3, _save)
    os.utime(path, (1e9, 1e9))                      # long unused (what cachedir.prune reads)
    _new_process(monkeypatch)
    assert kept.kept(path, _load, _fail, _save) == 3
    assert path.stat().st_mtime > 1e9


# --------------------------------------------------------------------------- 1. integrity
def test_a_well_formed_edit_fails_the_check_and_is_made_again(store, monkeypatch) -> None:
    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    kept.kept(path, _load, lambda: 70, _save)
    raw = path.read_bytes()
    path.write_bytes(raw[:-2] + b"71")              # one digit: still a number
    _new_process(monkeypatch)
    assert kept.kept(path, _load, lambda: 70, _save) == 70
    assert path.read_bytes() == raw                 # written again (and checked next time)
    _new_process(monkeypatch)
    assert kept.kept(path, _load, _fail, _save) == 70


def test_a_file_of_another_result_fails_the_check(store, monkeypatch) -> None:
    a = kept.kept_path(kept.__file__, "x", b"a", suffix=".txt")
    b = kept.kept_path(kept.__file__, "x", b"b", suffix=".txt")
    kept.kept(a, _load, lambda: 1, _save)
    b.write_bytes(a.read_bytes())                   # a whole valid file, of other inputs
    _new_process(monkeypatch)
    assert kept.kept(b, _load, lambda: 2, _save) == 2


@pytest.mark.parametrize("damage", [b"", b"workbench-kept v2 sha256=", b"7", b"\n7"])
def test_empty_cut_or_headless_files_are_made_again(store, monkeypatch, damage) -> None:
    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    path.write_bytes(damage)
    assert kept.kept(path, _load, lambda: 5, _save) == 5
    _new_process(monkeypatch)
    assert kept.kept(path, _load, _fail, _save) == 5


# --------------------------------------------------------------------------- 2. regular files
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_not_opened(store, monkeypatch) -> None:
    """A FIFO at the path would block a reader until a writer came: refused unopened (and
    not written over: a warning)."""
    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    os.mkfifo(path)
    got: list = []

    def read() -> None:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            got.append(kept.kept(path, _load, lambda: 4, _save))
        got.append([w.category for w in said if str(path) in str(w.message)])

    reader = threading.Thread(target=read)
    reader.start()
    reader.join(60)
    blocked = reader.is_alive()
    if blocked:                                     # unblock the reader: a writer comes, goes
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(60)
    assert not blocked and got == [4, [kept.KeptWriteWarning]]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_link_to_a_device_is_not_read(store, device) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    os.symlink(device, path)
    with pytest.warns(kept.KeptWriteWarning, match="not a regular file"):
        assert kept.kept(path, _load, lambda: 6, _save) == 6
    assert path.is_symlink()                        # left alone, as the device


def test_a_link_to_a_kept_file_is_refused_and_replaced(store, monkeypatch) -> None:
    """The package writes no links: even one to a valid file is not read (and is replaced by
    a file, the file it pointed to left as it was)."""
    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    kept.kept(path, _load, lambda: 3, _save)
    other = store / "elsewhere.txt"
    path.rename(other)
    os.symlink(other, path)
    _new_process(monkeypatch)
    assert kept.kept(path, _load, lambda: 3, _save) == 3
    assert not path.is_symlink() and path.read_bytes() == other.read_bytes()


def test_a_file_over_the_size_limit_is_not_read(store, monkeypatch) -> None:
    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    kept.kept(path, _load, lambda: 123456, _save)   # six bytes of payload
    _new_process(monkeypatch)
    assert kept.kept(path, _load, _fail, _save, max_bytes=6) == 123456
    _new_process(monkeypatch)
    with pytest.warns(kept.KeptWriteWarning, match="over the 5-byte limit"):
        assert kept.kept(path, _load, lambda: 123456, _save, max_bytes=5) == 123456


def test_a_directory_is_not_read(store) -> None:
    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    path.mkdir()
    with pytest.warns(kept.KeptWriteWarning):
        assert kept.kept(path, _load, lambda: 1, _save) == 1


# --------------------------------------------------------------------------- 3. any failure
def _raises(err: BaseException):
    def load(raw):
        raise err
    return load


@pytest.mark.parametrize("err", [EOFError(), AttributeError("x"), RecursionError(),
                                 MemoryError(), ValueError("x"), KeyError("x"), TypeError("x"),
                                 IndexError(), UnicodeDecodeError("utf-8", b"", 0, 1, "x")])
def test_any_failure_to_read_means_made_again(store, monkeypatch, err) -> None:
    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    kept.kept(path, _load, lambda: 1, _save)
    _new_process(monkeypatch)
    assert kept.kept(path, _raises(err), lambda: 2, _save) == 2


def test_load_returning_none_means_made_again(store, monkeypatch) -> None:
    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    kept.kept(path, _load, lambda: 1, _save)
    _new_process(monkeypatch)
    assert kept.kept(path, lambda raw: None, lambda: 2, _save) == 2


def test_what_make_raises_propagates_and_nothing_is_written(store) -> None:
    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    with pytest.raises(ZeroDivisionError):
        kept.kept(path, _load, lambda: 1 // 0, _save)
    assert not path.exists()


# --------------------------------------------------------------------------- 4. writing
def test_a_directory_at_the_path_costs_only_the_time(store, monkeypatch) -> None:
    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    path.mkdir()
    made = []
    with pytest.warns(kept.KeptWriteWarning, match=path.name) as said:
        assert kept.kept(path, _load, lambda: made.append(1) or 5, _save) == 5
    assert made == [1] and "could not keep" in str(said[0].message)
    assert path.is_dir() and list(store.iterdir()) == [path]   # no temporary left


def test_an_unwritable_directory_costs_only_the_time(tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setattr(kept, "CACHE_DIR", blocker / "cache")   # cannot be made
    monkeypatch.setattr(kept, "_MEMO", {})
    path = kept.kept_path(kept.__file__, "x", b"i")
    with pytest.warns(kept.KeptWriteWarning, match="could not keep"):
        assert kept.kept(path, _load, lambda: 5, _save) == 5
    assert kept.kept(path, _load, _fail, _save) == 5      # remembered in this process


def test_a_failing_save_costs_only_the_time(store) -> None:
    def refuse(value):
        raise TypeError("not serialisable")

    path = kept.kept_path(kept.__file__, "x", b"i")
    with pytest.warns(kept.KeptWriteWarning, match="not serialisable"):
        assert kept.kept(path, _load, lambda: 5, refuse) == 5
    assert not path.exists()


def test_a_write_is_atomic(store, monkeypatch) -> None:
    """A write that fails at the last step leaves the old file whole (and no temporary)."""
    path = kept.kept_path(kept.__file__, "x", b"i", suffix=".txt")
    kept.kept(path, _load, lambda: 1, _save)
    before = path.read_bytes()
    path.write_bytes(before[:-1] + b"2")            # fails the check: made and written again

    def crash(src, dst):
        raise OSError(28, "No space left on device")

    _new_process(monkeypatch)
    with monkeypatch.context() as patch, pytest.warns(kept.KeptWriteWarning,
                                                      match="No space left"):
        patch.setattr(os, "replace", crash)
        assert kept.kept(path, _load, lambda: 1, _save) == 1
    assert path.read_bytes() == before[:-1] + b"2" and list(store.iterdir()) == [path]
