"""chunk<TAB>count tables: round trips through the TSV format and clear errors."""

from __future__ import annotations

import lzma

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench._core.errors import InvalidValueError
from workbench._core.validate import BudgetError
from workbench.counts import CountsFormatError, as_counts, read_counts, write_counts
from workbench.datasets import load_counts


def test_round_trip_keeps_tabs_newlines_and_quotes(tmp_path):
    table = {" the": 5, "a\tb": 3, "line\nbreak": 2, 'say "hi"': 1, "\n": 4}
    path = tmp_path / "t.tsv"
    write_counts(table, path)
    assert read_counts(path) == table
    assert list(read_counts(path)) == [" the", "\n", "a\tb", "line\nbreak", 'say "hi"']


@pytest.mark.parametrize("text, where", [
    ("a\t1\nb\n", "line 2"),            # one field
    ("a\t1\nb\t2\t3\n", "line 2"),      # three fields
    ("a\t1\nb\tx\n", "line 2"),         # not a number
    ("a\t1\nb\t0\n", "line 2"),         # zero
    ("a\t1\nb\t-4\n", "line 2"),        # negative
    ("a\t1\nb\t\u00b2\n", "line 2"),    # a Unicode digit that int() refuses
    ("a\t1\na\t2\n", "line 2"),         # repeated chunk
    ("a\t1\n\t2\n", "line 2"),          # empty chunk
])
def test_malformed_lines_name_file_and_line(tmp_path, text, where):
    path = tmp_path / "bad.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CountsFormatError, match=rf"bad\.tsv, {where}"):
        read_counts(path)


def test_not_utf8_and_missing_files(tmp_path):
    path = tmp_path / "latin.tsv"
    path.write_bytes(b"caf\xe9\t1\n")
    with pytest.raises(CountsFormatError, match="not UTF-8"):
        read_counts(path)
    with pytest.raises(FileNotFoundError):
        read_counts(tmp_path / "absent.tsv")


def test_as_counts_validates_mappings_and_empty_corpora(tmp_path):
    assert as_counts({"ab": 2}) == {"ab": 2}
    with pytest.raises(ValueError, match="empty"):
        as_counts({})
    empty = tmp_path / "empty.tsv"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="empty corpus"):
        as_counts(empty)
    for bad, error in (({"a": 0}, ValueError), ({"a": -1}, ValueError), ({"a": 2.0}, TypeError),
                       ({"a": True}, TypeError), ({1: 2}, TypeError), ({"": 2}, ValueError),
                       ([("a", 1)], TypeError)):
        with pytest.raises(error):
            as_counts(bad)


def _csv_reference(path) -> dict[str, int]:
    """The table as Python's ``csv`` reads it, row by row (the format's definition)."""
    import csv

    with open(path, encoding="utf-8", newline="") as handle:
        return {chunk: int(count) for chunk, count in csv.reader(handle, delimiter="\t")}


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.dictionaries(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1,
                               max_size=6),
                       st.integers(1, 2**63 - 1), min_size=1, max_size=30))
def test_read_counts_equals_csv_row_by_row(tmp_path_factory, table):
    """What ``write_counts`` writes, ``read_counts`` reads as csv does, in file order (quotes,
    tabs, CR and LF inside chunks included)."""
    path = tmp_path_factory.mktemp("t") / "t.tsv"
    write_counts(table, path)
    got = read_counts(path)
    assert got == _csv_reference(path) == table
    assert list(got) == list(_csv_reference(path))


@pytest.mark.parametrize("text, where", [
    ("a\t1\nb\t2\t3\nc\n", "line 2"),        # tab counts sum to one per line, rows do not
    ("a\t1\n\nb\t2\n", "line 2"),            # blank line
    ("a\t1\nb\t99999999999999999999\n", "line 2"),  # 20 digits: over 2^63 - 1
    ("a\t1\nb\t" + "9" * 5000 + "\n", "line 2"),    # more digits than int() takes
])
def test_bad_rows_with_many_digits_or_misplaced_tabs_are_named(tmp_path, text, where):
    path = tmp_path / "bad.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CountsFormatError, match=rf"bad\.tsv, {where}"):
        read_counts(path)


def test_xz_tables_read_as_their_plain_file(tmp_path):
    table = {" the": 3, 'say "hi"\t': 2, "a\nb": 1}
    write_counts(table, tmp_path / "t.tsv")
    (tmp_path / "t.tsv.xz").write_bytes(lzma.compress((tmp_path / "t.tsv").read_bytes()))
    assert read_counts(tmp_path / "t.tsv.xz") == read_counts(tmp_path / "t.tsv") == table
    (tmp_path / "cut.tsv.xz").write_bytes((tmp_path / "t.tsv.xz").read_bytes()[:-20])
    with pytest.raises(CountsFormatError, match="cut.tsv.xz"):
        read_counts(tmp_path / "cut.tsv.xz")
    (tmp_path / "bad.tsv.xz").write_bytes(b"not xz at all")
    with pytest.raises(CountsFormatError, match="not a readable xz file"):
        read_counts(tmp_path / "bad.tsv.xz")
    (tmp_path / "row.tsv.xz").write_bytes(lzma.compress(b"a\t1\nb\tx\n"))
    with pytest.raises(CountsFormatError, match="line 2"):
        read_counts(tmp_path / "row.tsv.xz")


def test_an_xz_table_over_the_budget_is_refused_before_it_is_expanded(tmp_path):
    (tmp_path / "big.tsv.xz").write_bytes(lzma.compress(b"a\t1\n" * 1_000_000))  # ~600 bytes
    with pytest.raises(BudgetError, match="big.tsv.xz"):
        read_counts(tmp_path / "big.tsv.xz", budget=10**6)


def test_the_shipped_tables_load_by_name():
    un = load_counts("un")
    assert (len(un), sum(un.values())) == (105_505, 36_985_645)
    assert list(un)[:3] == ["It", " gives", " me"] and un[" the"] == 2_464_379  # file order
    fineweb = load_counts("fineweb10")
    assert (len(fineweb), sum(fineweb.values())) == (228_384, 205_513_708)
    assert min(fineweb.values()) >= 10
    with pytest.raises(ValueError, match="available: un, fineweb10"):
        load_counts("wiki")


# ------------------------------------------------ xz: every stream, nothing after them
_TWO_STREAMS = lzma.compress(b" the\t5\n cat\t3\n") + lzma.compress(b"ab\t2\n")


@pytest.fixture(params=["scan", "csv"])
def route(request, monkeypatch):
    """``read_counts`` through the numba scan, or forced through the row-by-row csv reader."""
    import workbench.counts as counts_module

    if request.param == "scan":
        from workbench._core.tsv import scan_counts  # numba loaded: read_counts scans

        assert scan_counts(b"a\t1\n") == {"a": 1}
    else:
        monkeypatch.setattr(counts_module, "_scanned", lambda raw, budget: None)
    return request.param


def test_a_multi_stream_xz_is_read_whole_as_xz_d_reads_it(tmp_path, route):
    path = tmp_path / "two.tsv.xz"
    path.write_bytes(_TWO_STREAMS)
    assert read_counts(path) == {" the": 5, " cat": 3, "ab": 2}
    # stream padding (zero bytes, a multiple of 4) between and after streams is allowed
    padded = tmp_path / "padded.tsv.xz"
    padded.write_bytes(lzma.compress(b"a\t1\n") + bytes(8) + lzma.compress(b"b\t2\n") + bytes(4))
    assert read_counts(padded) == {"a": 1, "b": 2}
    # a stream may end inside a row: the streams are one byte sequence
    split = tmp_path / "split.tsv.xz"
    split.write_bytes(lzma.compress(b"a\t1\nbc") + lzma.compress(b"d\t22\n"))
    assert read_counts(split) == {"a": 1, "bcd": 22}


def _corrupt_second_stream() -> bytes:
    second = bytearray(lzma.compress(b"ab\t2\n" * 100))
    second[30] ^= 0xFF
    return lzma.compress(b" the\t5\n") + bytes(second)


@pytest.mark.parametrize("data, why", [
    (_TWO_STREAMS + b"junk", "truncated"),                        # shorter than a header
    (_TWO_STREAMS + b"trailing garbage, not xz", "not an xz stream"),
    (_corrupt_second_stream(), "stream 2"),
    (_TWO_STREAMS[:-7], "truncated"),                              # the last stream cut
    (_TWO_STREAMS + bytes(3), "multiple of 4"),                    # not stream padding
    (b"", "empty"),
    (bytes(16), "not a readable xz file"),
], ids=["short-junk", "junk", "corrupt-2nd", "cut-2nd", "bad-padding", "empty", "zeros"])
def test_xz_trailing_garbage_or_a_bad_later_stream_is_refused_naming_the_file(tmp_path, data,
                                                                              why):
    path = tmp_path / "bad.tsv.xz"
    path.write_bytes(data)
    with pytest.raises(CountsFormatError, match=rf"bad\.tsv\.xz: .*{why}"):
        read_counts(path)
    from workbench.counts import read_count_arrays

    with pytest.raises(CountsFormatError, match=r"bad\.tsv\.xz"):
        read_count_arrays(path)


def test_a_malformed_row_of_a_later_stream_names_its_line(tmp_path, route):
    path = tmp_path / "rows.tsv.xz"
    path.write_bytes(lzma.compress(b"a\t1\nb\t2\n") + lzma.compress(b"c\t3\nd\tx\n"))
    with pytest.raises(CountsFormatError, match=r"rows\.tsv\.xz, line 4"):
        read_counts(path)


def test_refusing_an_xz_file_holds_bounded_memory(tmp_path, monkeypatch):
    """Over the budget: refused after at most one piece past the limit, in any stream.
    Garbage after a stream: refused after at most one read past the valid stream."""
    import io

    import workbench.counts as counts_module
    from workbench.counts import iter_xz

    monkeypatch.setattr(counts_module, "_XZ_PIECE", 4096)
    path = tmp_path / "big.tsv.xz"
    path.write_bytes(lzma.compress(b"a\t1\n") + lzma.compress(b"b\t1\n" * 2_000_000))
    seen = []
    real = counts_module.iter_xz

    def spy(*args, **kwargs):
        for piece in real(*args, **kwargs):
            seen.append(len(piece))
            yield piece

    monkeypatch.setattr(counts_module, "iter_xz", spy)
    with pytest.raises(BudgetError, match=r"big\.tsv\.xz"):
        read_counts(path, budget=10**6)  # allows ~20 kB of table
    assert 20_000 <= sum(seen) <= 20_004 + 4096 and max(seen) <= 4096

    class Reads(io.BytesIO):
        total = 0

        def read(self, size=-1):
            assert size > 0  # never "the rest of the file"
            out = super().read(size)
            Reads.total += len(out)
            return out

    good = lzma.compress(b"a\t1\n")
    monkeypatch.setattr(counts_module, "_XZ_READ", 64)
    handle = Reads(good + b"\xfd7zXZ\x00 garbage" + bytes(1 << 20))
    with pytest.raises(CountsFormatError, match="junk.xz"):
        b"".join(iter_xz("junk.xz", file=handle))
    assert Reads.total <= len(good) + 2 * 64


# ------------------------------------------------ writers honour the suffix readers read
def test_write_counts_to_an_xz_name_writes_xz_that_read_counts_reads(tmp_path, route):
    table = {" the": 5, "a\tb": 3, "line\nbreak": 2, 'say "hi"': 1, "cr\r": 1, "\ufeffx": 4}
    write_counts(table, tmp_path / "t.tsv")
    write_counts(table, tmp_path / "t.tsv.xz")
    packed = (tmp_path / "t.tsv.xz").read_bytes()
    assert packed.startswith(b"\xfd7zXZ\x00")
    assert lzma.decompress(packed) == (tmp_path / "t.tsv").read_bytes()
    assert read_counts(tmp_path / "t.tsv.xz") == table
    assert list(read_counts(tmp_path / "t.tsv.xz")) == list(read_counts(tmp_path / "t.tsv"))
    write_counts(table, tmp_path / "T.TSV.XZ")  # the rule ignores case, as the reader's does
    assert read_counts(tmp_path / "T.TSV.XZ") == table


def test_writing_an_xz_table_is_atomic(tmp_path, monkeypatch):
    import workbench.counts as counts_module

    path = tmp_path / "t.tsv.xz"
    write_counts({"old": 1}, path)
    before = path.read_bytes()

    def fail(handle, order):
        handle.write("half\t1\n")
        raise KeyboardInterrupt

    monkeypatch.setattr(counts_module, "_write_rows", fail)
    with pytest.raises(KeyboardInterrupt):
        write_counts({"new": 2}, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.tsv.xz"]


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".zst", ".GZ"])
def test_write_counts_refuses_a_compression_it_does_not_write(tmp_path, suffix):
    path = tmp_path / f"t.tsv{suffix}"
    with pytest.raises(InvalidValueError, match=rf"t\.tsv\{suffix}.*\.tsv\.xz"):
        write_counts({"a": 1}, path)
    assert not path.exists()


def test_read_counts_names_a_gzip_or_bzip2_file_and_reads_a_plain_one_so_named(tmp_path):
    import bz2
    import gzip

    (tmp_path / "t.tsv.gz").write_bytes(gzip.compress(b"a\t1\n"))
    with pytest.raises(CountsFormatError, match=r"t\.tsv\.gz: a gzip-compressed file"):
        read_counts(tmp_path / "t.tsv.gz")
    (tmp_path / "t.tsv.bz2").write_bytes(bz2.compress(b"a\t1\n"))
    with pytest.raises(CountsFormatError, match=r"t\.tsv\.bz2: a bzip2-compressed file"):
        read_counts(tmp_path / "t.tsv.bz2")
    (tmp_path / "old.tsv.gz").write_bytes(b"a\t1\n")  # what write_counts once wrote there
    assert read_counts(tmp_path / "old.tsv.gz") == {"a": 1}


# ------------------------------------------------ a byte-order mark: one, at the file start
@pytest.mark.parametrize("name", ["t.tsv", "t.tsv.xz"])
def test_a_chunk_starting_with_u_feff_round_trips(tmp_path, route, name):
    path = tmp_path / name
    for table in ({"\ufeffx": 9, "y": 1}, {"\ufeff": 3, "\ufeff\ufeff": 2, "x\ufeff": 1},
                  {"a": 5, "\ufeffb": 1}):
        write_counts(table, path)
        raw = lzma.decompress(path.read_bytes()) if name.endswith(".xz") else path.read_bytes()
        assert not raw.startswith(b"\xef\xbb\xbf")  # a written file never starts with a BOM
        assert read_counts(path) == table and list(read_counts(path)) == list(table)


def test_exactly_one_leading_bom_is_dropped_and_only_at_the_start_of_the_file(tmp_path, route):
    bom = b"\xef\xbb\xbf"
    (tmp_path / "two.tsv").write_bytes(bom + bom + b"x\t1\n")
    assert read_counts(tmp_path / "two.tsv") == {"\ufeffx": 1}
    (tmp_path / "one.tsv.xz").write_bytes(lzma.compress(bom + b"x\t1\n"))
    assert read_counts(tmp_path / "one.tsv.xz") == {"x": 1}
    # a second stream's first bytes are not the start of the file
    later = lzma.compress(b"a\t1\n") + lzma.compress(bom + b"b\t2\n")
    (tmp_path / "later.tsv.xz").write_bytes(later)
    assert read_counts(tmp_path / "later.tsv.xz") == {"a": 1, "\ufeffb": 2}


# ------------------------------------------------ budget
@pytest.mark.parametrize("name", ["t.tsv", "t.tsv.xz"])
def test_a_budget_above_every_table_means_no_limit(tmp_path, name):
    from workbench.counts import read_count_arrays

    path = tmp_path / name
    write_counts({" the": 5, "ab": 2}, path)
    for budget in (10**30, 2**64, 10**400):
        assert read_counts(path, budget=budget) == {" the": 5, "ab": 2}
        joined, starts, counts = read_count_arrays(path, budget=budget)
        assert joined == b" theab" and counts.tolist() == [5, 2]


@pytest.mark.parametrize("budget, error, match", [
    (-1, ValueError, r"budget must be >= 0 bytes, got -1"),
    (1.5, TypeError, r"budget must be an int"),
    (True, TypeError, r"budget must be an int"),
    ("6G", TypeError, r"budget must be an int"),
])
def test_a_budget_that_is_not_a_byte_count_is_refused_by_name(tmp_path, budget, error, match):
    from workbench import WorkbenchError
    from workbench.counts import read_count_arrays

    path = tmp_path / "t.tsv"
    write_counts({"a": 1}, path)
    for read in (read_counts, read_count_arrays):
        with pytest.raises(error, match=match) as caught:
            read(path, budget=budget)
        assert isinstance(caught.value, WorkbenchError)
