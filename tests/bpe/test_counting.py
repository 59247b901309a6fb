"""Chunk counting (workbench.bpe.counting) against the whole-text reference in naive/counting.py.

Exact dict equality everywhere (and equal order where two package runs are compared): the
table must not depend on block size, process count, files vs. texts, or Dask.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive import counting as naive

from workbench.bpe import counting
from workbench.bpe.counting import apply_freq_cutoff, count_chunks
from workbench.counts import read_counts, write_counts

# Characters that decide chunk boundaries: letters (incl. the contraction letters), digits,
# punctuation, a combining mark, every kind of whitespace the pattern treats specially.
_ALPHABET = list("abSstlvedrmé中123'.!,") + [
    " ", " ", " ", "\t", "\n", "\n", "\r", "\u2028", "\xa0", "\x0b", "\x1c", "😀", "\u0301"]
texts_st = st.text(alphabet=st.sampled_from(_ALPHABET), max_size=80)
_SETTINGS = settings(max_examples=100, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def sample_text() -> str:
    """About 400 kB of the shipped Shakespeare + Brown text (mixed line layouts)."""
    from workbench.datasets import load_text

    return load_text("shakespeare")[:250_000] + "\n\n" + load_text("brown")[:150_000]


@pytest.fixture(scope="module")
def sample_file(sample_text, tmp_path_factory):
    path = tmp_path_factory.mktemp("counting") / "sample.txt"
    path.write_bytes(sample_text.encode("utf-8"))
    return path


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """A directory of this module's files (tests write only under pytest's temporary
    directories; hypothesis tests cannot take the function-scoped ``tmp_path``)."""
    return tmp_path_factory.mktemp("counting-files")


def _write(data: bytes, directory) -> str:
    handle = tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False, dir=directory)
    with handle:
        handle.write(data)
    return handle.name


# --------------------------------------------------------------------------- vs the reference
def test_shipped_text_equals_reference(sample_text, sample_file):
    ref = naive.count_texts([sample_text])
    assert len(ref) > 10_000
    for block in (997, 65_536):
        assert count_chunks(texts=[sample_text], block_size=block, num_threads=1) == ref
        assert count_chunks(sample_file, block_size=block, num_threads=1) == ref


@given(texts=st.lists(texts_st, max_size=4), block=st.integers(1, 40),
       cutoff=st.integers(1, 3))
@_SETTINGS
def test_random_texts_equal_reference(texts, block, cutoff):
    got = count_chunks(texts=texts, block_size=block, num_threads=1, freq_cutoff=cutoff)
    assert got == naive.count_texts(texts, cutoff)


@given(text=texts_st, block=st.integers(1, 40))
@_SETTINGS
def test_random_files_equal_reference(scratch, text, block):
    path = _write(text.encode("utf-8"), scratch)
    try:
        assert count_chunks(path, block_size=block, num_threads=1) == naive.count_files([path])
    finally:
        os.unlink(path)


@given(data=st.lists(st.sampled_from([b"a", b" ", b"\n", b"\t", b"\xff", b"\xe2\x82",
                                       b"\xe2\x82\xac", b"\xc3", b"\xa9", b"x1"]),
                     max_size=40),
       block=st.integers(1, 20), errors=st.sampled_from(["replace", "ignore"]))
@_SETTINGS
def test_undecodable_bytes_follow_bytes_decode(scratch, data, block, errors):
    path = _write(b"".join(data), scratch)
    try:
        got = count_chunks(path, block_size=block, num_threads=1, errors=errors)
        assert got == naive.count_files([path], errors=errors)
    finally:
        os.unlink(path)


def test_result_is_ordered_by_count_then_chunk():
    got = count_chunks(texts=["b a b a c c c"])
    assert list(got.items()) == [(" c", 3), (" a", 2), (" b", 1), ("b", 1)]


# --------------------------------------------------------------------------- independence
def test_independent_of_block_size_and_processes(sample_text, sample_file):
    ref = list(count_chunks(sample_file, num_threads=1).items())
    for processes, block in ((1, 4093), (2, 50_000), (2, 1 << 20)):
        assert list(count_chunks(sample_file, num_threads=processes,
                                 block_size=block).items()) == ref
    parts = [sample_text[:123_457], sample_text[123_457:]]  # a cut mid-text: two texts
    two = count_chunks(texts=parts, num_threads=2, block_size=30_000)
    assert two == naive.count_texts(parts)
    assert multiprocessing.active_children() == []


def test_files_without_cut_points_are_one_block(tmp_path):
    """Every line starts with whitespace and holds one word: no safe cut anywhere."""
    text = "".join(f"\t{w}\n" for w in ("alpha", "beta", "gamma") * 200)
    path = _write(text.encode(), tmp_path)
    try:
        assert count_chunks(path, block_size=16, num_threads=1) == naive.count_texts([text])
        assert list(counting._safe_blocks([text], 16)) == [text]
    finally:
        os.unlink(path)


def test_several_files_are_separate_texts(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("end of a", encoding="utf-8")
    b.write_text("word", encoding="utf-8")  # no chunk " aword" across the files
    assert count_chunks([a, b]) == naive.count_texts(["end of a", "word"])


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("processes", [1, 2])
def test_invalid_utf8_names_file_and_line(tmp_path, processes):
    path = tmp_path / "bad.txt"
    lines = [b"fine line %d\n" % i for i in range(4000)]
    lines[3210] = b"broken \xff byte\n"
    path.write_bytes(b"".join(lines))
    with pytest.raises(counting.TextDecodeError, match=r"bad\.txt, line 3211, byte 7"):
        count_chunks(path, block_size=4096, num_threads=processes)
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"texts": "a text"}, TypeError, "wrap a single text"),
    ({"texts": ["ok", b"bytes"]}, TypeError, "every text must be a str"),
    ({"texts": ["a"], "freq_cutoff": 0}, ValueError, "freq_cutoff must be >= 1"),
    ({"texts": ["a"], "freq_cutoff": 2.0}, TypeError, "freq_cutoff must be an int"),
    ({"texts": ["a"], "block_size": 0}, ValueError, "block_size must be >= 1"),
    ({"texts": ["a"], "num_threads": 0}, ValueError, "num_threads must be >= 1"),
    ({"texts": ["a"], "errors": "surrogateescape"}, ValueError, "errors must be one of"),
    ({"texts": ["a"], "client": object()}, TypeError, "distributed.Client"),
    ({"texts": ["a"], "progress": "yes"}, TypeError, "progress must be"),
    ({}, ValueError, "nothing to count"),
])
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        count_chunks(**kwargs)


def test_bad_paths(tmp_path):
    with pytest.raises(FileNotFoundError, match="no text file"):
        count_chunks(tmp_path / "missing.txt")
    with pytest.raises(FileNotFoundError, match="no text file"):
        count_chunks(tmp_path)  # a directory
    with pytest.raises(TypeError, match="every path"):
        count_chunks([__file__, 3])
    with pytest.raises(TypeError, match="paths must be"):
        count_chunks(b"bytes.txt")


def test_empty_input_gives_empty_table(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert count_chunks(empty) == {}
    assert count_chunks(texts=["", ""]) == {}
    assert count_chunks(texts=[]) == {}
    with pytest.raises(ValueError, match="empty"):
        count_chunks(texts=[""], out=tmp_path / "t.tsv")


# --------------------------------------------------------------------------- TSV and cutoff
def test_tsv_round_trip_and_cutoff(tmp_path):
    texts = ['a "quoted"\tchunk\n\nline', "a a b\r\n"]
    out = tmp_path / "t.tsv"
    table = count_chunks(texts=texts, out=out)
    assert read_counts(out) == table == naive.count_texts(texts)
    assert apply_freq_cutoff(out, 2) == naive.count_texts(texts, 2) == {"a": 2}
    assert apply_freq_cutoff(table, 1) == table
    write_counts({"x": 5, "y": 1}, tmp_path / "u.tsv")
    assert apply_freq_cutoff(tmp_path / "u.tsv", 2) == {"x": 5}
    with pytest.raises(ValueError, match="freq_cutoff must be >= 1"):
        apply_freq_cutoff(table, 0)


def test_an_output_path_is_checked_before_the_counting(tmp_path, monkeypatch):
    """``out`` naming another compression (or an unwritable place) is refused before a
    byte is counted, not after the work (issue 42)."""
    def no_counting(*args, **kwargs):
        raise AssertionError("counted before the output path was checked")

    monkeypatch.setattr(counting, "_plan", no_counting)
    for bad in (tmp_path / "t.tsv.gz", tmp_path / "t.bz2", tmp_path):
        with pytest.raises(ValueError):
            count_chunks(texts=["a b"], out=bad)


# --------------------------------------------------------------------------- progress, Ctrl-C
def test_progress_bar_switch(capsys):
    count_chunks(texts=["some text"], progress=True)
    assert "counting chunks" in capsys.readouterr().err
    count_chunks(texts=["some text"], progress=False)
    count_chunks(texts=["some text"])  # auto: small input, no bar
    assert capsys.readouterr().err == ""


def test_interrupt_stops_the_workers(sample_file, monkeypatch):
    """Ctrl-C while the pool runs: KeyboardInterrupt reaches the caller, no worker survives."""

    class Interrupted(counting.tqdm):
        def update(self, n=1):
            raise KeyboardInterrupt

    monkeypatch.setattr(counting, "tqdm", Interrupted)
    with pytest.raises(KeyboardInterrupt):
        count_chunks(sample_file, num_threads=2, block_size=20_000, progress=False)
    assert multiprocessing.active_children() == []


# --------------------------------------------------------------------------- Dask
@pytest.mark.slow
def test_dask_local_cluster_equals_local(sample_text, sample_file):
    distributed = pytest.importorskip("distributed")
    local = list(count_chunks(sample_file, texts=[sample_text[:50_000]], num_threads=1).items())
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = count_chunks(sample_file, texts=[sample_text[:50_000]], client=client,
                           block_size=40_000)
        assert list(got.items()) == local
        bad = sample_file.parent / "bad_dask.txt"
        bad.write_bytes(b"ok\n" * 5000 + b"\xff\n")
        with pytest.raises(UnicodeDecodeError, match="bad_dask.txt, line 5001"):
            count_chunks(bad, client=client, block_size=4096)


def test_worker_threads_are_reused(sample_text):
    """Two parallel calls share one pool of worker threads (no pool started per call)."""
    import threading

    count_chunks(texts=[sample_text[:200_000]], num_threads=2, block_size=50_000)
    before = {t.ident for t in threading.enumerate() if t.name.startswith("workbench-count")}
    count_chunks(texts=[sample_text[:200_000]], num_threads=2, block_size=50_000)
    after = {t.ident for t in threading.enumerate() if t.name.startswith("workbench-count")}
    assert before and after == before
    assert counting._pool(2) is counting._pool(2)


# --------------------------------------------------------------------------- byte-order mark
BOM = "\ufeff"


@pytest.mark.parametrize("pattern", ["gpt4", "gpt2", r"\w+|\s+"])
@pytest.mark.parametrize("num_threads, block_size", [(1, 1 << 20), (1, 2), (2, 3)])
def test_a_bom_at_the_start_of_a_file_is_not_text(tmp_path, pattern, num_threads, block_size):
    """One mark, at the start of each file, dropped; U+FEFF anywhere else is text."""
    kw = {"num_threads": num_threads, "block_size": block_size, "pattern": pattern}
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbfhello")
    assert count_chunks([tmp_path / "bom.txt"], **kw) == {"hello": 1}
    body = f"hello {BOM}x\nworld\n{BOM}y z\n" * 3
    (tmp_path / "a.txt").write_bytes((BOM + body).encode())
    (tmp_path / "b.txt").write_bytes((BOM + BOM + body).encode())  # the second one is text
    want = count_chunks(texts=[body, BOM + body], **kw)
    assert count_chunks([tmp_path / "a.txt", tmp_path / "b.txt"], **kw) == want
    # in-memory texts are text, not files: nothing is dropped
    assert BOM in "".join(count_chunks(texts=[BOM + "hello"], **kw))


@pytest.mark.parametrize("errors", ["strict", "replace", "ignore"])
def test_only_the_files_first_three_bytes_make_a_bom(tmp_path, errors):
    """Bytes dropped by ``errors="ignore"`` before a U+FEFF do not make it a leading mark."""
    (tmp_path / "t.txt").write_bytes(b"\xef\xbb\xbfa \xef\xbb\xbfb\n")
    got = count_chunks(tmp_path / "t.txt", errors=errors, num_threads=1)
    assert got == count_chunks(texts=[f"a {BOM}b\n"], num_threads=1) and BOM in "".join(got)
    if errors != "strict":
        data = b"\xff\xef\xbb\xbfab"
        (tmp_path / "u.txt").write_bytes(data)
        assert count_chunks(tmp_path / "u.txt", errors=errors, num_threads=1) == \
            count_chunks(texts=[data.decode("utf-8", errors)], num_threads=1)


@given(text=texts_st, block=st.integers(1, 40), bom=st.booleans())
@_SETTINGS
def test_random_files_with_a_bom_count_as_their_text_without_it(tmp_path_factory, text, block,
                                                                 bom):
    path = tmp_path_factory.mktemp("bom") / "t.txt"
    path.write_bytes((BOM if bom else "").encode() + text.encode("utf-8"))
    assert count_chunks(path, block_size=block, num_threads=1) == naive.count_texts([text])


@pytest.mark.parametrize("num_threads", [1, 2])
def test_bad_utf8_after_a_bom_still_names_file_line_and_byte(tmp_path, num_threads):
    path = tmp_path / "bom_bad.txt"
    path.write_bytes(b"\xef\xbb\xbfok\n" + b"fine line\n" * 3 + b"ab\xffc\n")
    with pytest.raises(UnicodeDecodeError, match=r"bom_bad\.txt, line 5, byte 2 of the line"):
        count_chunks(path, num_threads=num_threads, block_size=8)
