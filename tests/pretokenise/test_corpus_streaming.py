"""Files are read by byte range (never whole), with the lines ``text.split`` would give.

Issue 19: ``tokenize_corpus`` read each file whole and each Dask task re-read the whole file;
a latin-1 file raised a bare UnicodeDecodeError; ``partitions=-1`` silently gave 0 ids;
``out=<a directory>`` wrote ``<dir>.npz`` beside it; ``client=5`` and a bare path string gave
AttributeErrors or iterated characters.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench import Grampa, datasets
from workbench.pretokenise import TextTokenizer, tokenize_corpus
from workbench.pretokenise.corpus import block_ranges, read_block, tokenize_corpus_dask


@pytest.fixture(scope="module")
def tok():
    return TextTokenizer(Grampa(datasets.load_vocabulary("ulm-8k"), tau=1.0), p=0.5)


def _blocks_of_file(path, block_lines):
    ranges = block_ranges(path, block_lines)
    return [read_block(path, first, start, stop, b == len(ranges) - 1)
            for b, (first, start, stop) in enumerate(ranges)]


def _reference_blocks(text, block_lines):
    """What the whole-file reader gave: universal newlines, then split on "\\n"."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [lines[i:i + block_lines] for i in range(0, len(lines), block_lines)]


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from("ab\n\r é"), max_size=60),
       block_lines=st.integers(1, 5))
def test_byte_range_blocks_equal_whole_file_split(tmp_path_factory, text, block_lines):
    path = tmp_path_factory.mktemp("blocks") / "t.txt"
    path.write_bytes(text.encode("utf-8"))
    assert _blocks_of_file(path, block_lines) == _reference_blocks(text, block_lines)


def test_cr_lf_split_across_scan_reads(tmp_path, monkeypatch):
    from workbench.pretokenise import corpus

    monkeypatch.setattr(corpus, "_SCAN_BYTES", 3)
    text = "ab\r\ncd\r\r\nef\rgh\r"
    path = tmp_path / "t.txt"
    path.write_bytes(text.encode())
    for block_lines in (1, 2, 3):
        assert _blocks_of_file(path, block_lines) == _reference_blocks(text, block_lines)


def test_file_equals_text_source(tok, tmp_path):
    text = "\n".join(datasets.load_text("shakespeare").split("\n")[:3000])
    path = tmp_path / "s.txt"
    path.write_text(text, encoding="utf-8")
    ids_file, offsets_file = tokenize_corpus(path, tok, seed=3, block_lines=256, progress=False)
    ids_text, offsets_text = tokenize_corpus([text], tok, seed=3, block_lines=256,
                                             progress=False)
    assert np.array_equal(ids_file, ids_text) and np.array_equal(offsets_file, offsets_text)


class _CountingFile:
    """A binary file that counts the bytes its ``read`` calls return."""

    def __init__(self, handle, tally):
        self._handle, self._tally = handle, tally

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._handle.close()

    def seek(self, *args):
        return self._handle.seek(*args)

    def read(self, *args):
        data = self._handle.read(*args)
        self._tally.append(len(data))
        return data


def test_first_lines_of_a_large_file_read_only_their_bytes(tmp_path, monkeypatch):
    """The first block of a 33 MB file reads that block's bytes, and no others.

    Counted at the file object (every ``read`` of the module goes through it), not as a
    ``tracemalloc`` peak: a peak also counts other threads' and first imports' allocations,
    so it measured the suite's history (issue 43).
    """
    import builtins

    from workbench.pretokenise import corpus

    path = tmp_path / "big.txt"
    line = "to be or not to be that is the question " * 4 + "\n"
    with open(path, "w", encoding="utf-8") as handle:
        for _ in range(200):
            handle.write(line * 1000)  # 33 MB in all
    ranges = block_ranges(path, 10)
    first, start, stop = ranges[0]
    tally: list[int] = []
    opened: list[str] = []

    def counting_open(file, mode="r", *args, **kwargs):
        opened.append(mode)
        return _CountingFile(builtins.open(file, mode, *args, **kwargs), tally)

    monkeypatch.setattr(corpus, "open", counting_open, raising=False)
    lines = read_block(path, first, start, stop, last=False)
    assert len(lines) == 10 and lines[0] == line[:-1]
    assert opened == ["rb"] and sum(tally) == stop - start == 10 * len(line)
    assert 10_000 * sum(tally) < path.stat().st_size  # 1,610 bytes of 32 MB


def test_latin1_file_names_file_and_line(tok, tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("first line\nsecond line\ncaf\xe9\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin1\.txt, line 3: not UTF-8"):
        tokenize_corpus(path, tok, progress=False)


def test_out_existing_directory_refused_before_work(tok, tmp_path):
    with pytest.raises(ValueError, match="is a directory"):
        tokenize_corpus(["a b"], tok, out=tmp_path, progress=False)
    assert list(tmp_path.parent.glob(tmp_path.name + ".npz")) == []


def test_out_dev_full_refused_before_work(tok):
    with pytest.raises(ValueError, match="not a regular file|does not exist|not writable"):
        tokenize_corpus(["a b"], tok, out="/dev/full", progress=False)


def test_out_unwritable_parent_refused_before_work(tok, tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        tokenize_corpus(["a b"], tok, out=tmp_path / "missing" / "x.npz", progress=False)


# ---------------------------------------------------------------- Dask
dask = pytest.importorskip("dask")


def test_dask_partitions_minus_one_refused(tok, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("a b\nc d\n", encoding="utf-8")
    with pytest.raises(ValueError, match="partitions must be >= 1"):
        tokenize_corpus_dask([path], tok, partitions=-1)


def test_dask_client_must_be_a_client(tok, tmp_path):
    pytest.importorskip("distributed")
    path = tmp_path / "t.txt"
    path.write_text("a b\n", encoding="utf-8")
    with pytest.raises(TypeError, match="distributed.Client"):
        tokenize_corpus_dask([path], tok, client=5)


@pytest.mark.slow  # starts a local dask cluster (6 s alone)
def test_dask_single_path_string_is_one_file(tok, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("a b\nc d\ne\n", encoding="utf-8")
    ids, offsets = tokenize_corpus_dask(str(path), tok, seed=1, block_lines=2)
    ref = tokenize_corpus(path, tok, seed=1, block_lines=2, progress=False)
    assert np.array_equal(ids, ref[0]) and np.array_equal(offsets, ref[1])


def test_dask_text_instead_of_path_is_a_clear_error(tok):
    with pytest.raises(FileNotFoundError, match="takes file paths"):
        tokenize_corpus_dask(["not a file at all"], tok)


@pytest.mark.slow  # three local dask runs over 1,200 lines (11 s alone)
@pytest.mark.parametrize("partitions", [1, 3, 100])
def test_dask_any_partitioning_same_as_local(tok, tmp_path, partitions):
    text = "\n".join(datasets.load_text("shakespeare").split("\n")[:1200]) + "\r\nend\r"
    path = tmp_path / "s.txt"
    path.write_bytes(text.encode("utf-8"))
    got = tokenize_corpus_dask([path, path], tok, seed=5, block_lines=100,
                               partitions=partitions)
    ref = tokenize_corpus([path, path], tok, seed=5, block_lines=100, progress=False)
    assert np.array_equal(got[0], ref[0]) and np.array_equal(got[1], ref[1])
