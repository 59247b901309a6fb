"""The numba scan of count tables (``_core.tsv``) reads exactly what ``csv`` reads, or declines.

The reference is Python's ``csv`` reader with the format's rules (two fields, a positive
count below 2⁶³, a non-empty chunk, no repeat). Property: whenever the scan returns a
table, the reference accepts the file and reads the same table in the same order; on what
``write_counts`` writes (chunks without NUL) it never declines.
"""

from __future__ import annotations

import csv
import io
import lzma

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench._core.tsv import scan_count_arrays, scan_counts
from workbench.counts import MAX_COUNT, read_counts, write_counts
from workbench.datasets import DATA_DIR


def _reference(data: bytes) -> dict[str, int] | None:
    """The table as csv reads it under the format's rules, or None if it breaks one."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    table: dict[str, int] = {}
    try:
        for row in csv.reader(io.StringIO(text, newline=""), delimiter="\t"):
            if len(row) != 2:
                return None
            chunk, count = row
            if not (chunk and count.isascii() and count.isdigit()) or len(count) > 19:
                return None
            if not 0 < int(count) <= MAX_COUNT or chunk in table:
                return None
            table[chunk] = int(count)
    except csv.Error:
        return None
    return table


chunks = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.dictionaries(chunks, st.integers(1, MAX_COUNT), max_size=25))
def test_what_write_counts_writes_is_scanned_as_csv_reads_it(tmp_path_factory, table):
    path = tmp_path_factory.mktemp("t") / "t.tsv"
    write_counts(table, path) if table else path.write_bytes(b"")
    data = path.read_bytes()
    got = scan_counts(data)
    if "\0" in "".join(table):  # csv.writer leaves NUL unquoted: the scan declines it
        assert got is None or got == table
        return
    ref = _reference(data)
    assert got == ref == table
    assert list(got) == list(ref)  # file order (write_counts sorts by count)


# near-misses of the format: every delimiter, quote and line end in odd places
_PIECES = ["a", "é", "b\u4e00", "\t", "\n", "\r", "\r\n", '"', '""', "0", "1", "7",
           "9223372036854775807", "9223372036854775808", "\0", "\ufeff", "\uffff"]


@pytest.mark.slow  # 1,500 hypothesis tables against csv (18 s alone)
@settings(max_examples=1500, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_PIECES), max_size=14))
def test_a_scanned_table_is_always_csvs_table(pieces):
    data = "".join(pieces).encode("utf-8")
    got = scan_counts(data)
    if got is not None:
        ref = _reference(data)
        assert got == ref and list(got) == list(ref)


_COUNTS = ["1", "42", "0", "", "01", "9223372036854775807", "9223372036854775808", "x"]


@pytest.mark.slow  # 1,500 hypothesis tables against csv (21 s alone)
@settings(max_examples=1500, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.text('ab"\t\r\n\0é', max_size=4), st.booleans(),
                          st.sampled_from(_COUNTS), st.sampled_from(["\n", "\r\n", "\t", ""])),
                max_size=6))
def test_rows_near_the_format_are_scanned_as_csv_reads_them_or_declined(rows):
    """Rows in the format's layout with odd chunks, counts and line ends (quoted or not)."""
    parts = []
    for chunk, quoted, count, end in rows:
        field = '"' + chunk.replace('"', '""') + '"' if quoted else chunk
        parts.append(f"{field}\t{count}{end}")
    data = "".join(parts).encode("utf-8")
    got = scan_counts(data)
    ref = _reference(data)
    if got is not None:
        assert got == ref and list(got) == list(ref)


@pytest.mark.parametrize("data", [
    b"a\t1\nb\t2\t3\n",                 # a third field
    b"a\t1\n\nb\t2\n",                  # a blank line
    b"a\t1\r\nb\t2\r\n",                # CR LF line ends (csv reads them; the scan declines)
    b'a"b\t1\n',                        # a quote inside an unquoted chunk
    b'"ab"c\t1\n',                      # text after a closing quote
    b"a\t0\n", b"a\t\n", b"\t4\n",      # zero, no count, empty chunk
    b"a\t9223372036854775808\n",        # 2^63
    b"a\t1\na\t2\n",                    # a repeat
    b"caf\xe9\t1\n",                    # not UTF-8
    b"a\xef\xbf\xbf\t1\nb\xef\xbf\xbe\t2\nc\xf4\x8f\xbf\xbf\t3\nd\xf4\x8f\xbf\xbe\t4\n",
])
def test_declines_what_it_does_not_read_exactly(data):
    """The last file holds every separator the scan could use: it declines, never guesses."""
    assert scan_counts(data) is None


def test_reads_quoted_chunks_and_the_largest_count():
    data = b'"a\tb"\t5\n"x\ny"\t9223372036854775807\n"say ""hi"""\t1\n"\r"\t2'
    assert scan_counts(data) == {"a\tb": 5, "x\ny": 2**63 - 1, 'say "hi"': 1, "\r": 2}


@pytest.mark.parametrize("name", ["un", "fineweb10"])
def test_the_shipped_tables_are_scanned_as_csv_reads_them(name):
    path = DATA_DIR / f"{name}.tsv.xz"
    data = lzma.decompress(path.read_bytes())
    scanned = scan_counts(data)
    assert scanned is not None  # the shipped tables are in the common shape
    ref = _reference(data)
    assert scanned == ref and list(scanned) == list(ref)
    assert read_counts(path) == scanned


def test_the_scan_is_budgeted_before_it_copies():
    from workbench._core.validate import BudgetError

    data = b"a\t1\n" * 1000
    assert scan_counts(data, budget=10**6) is None  # a repeated chunk: declined
    with pytest.raises(BudgetError, match="scanning a count table"):
        scan_counts(data, budget=10**4)


def _both_routes(path, monkeypatch) -> tuple[object, object]:
    """``read_counts(path)`` by the scan and by the csv reader: a table or the error class."""
    import workbench.counts as counts_module

    def run():
        try:
            return read_counts(path)
        except ValueError as err:
            return type(err)

    scanned = run()  # numba is loaded here: read_counts scans first
    with monkeypatch.context() as m:
        m.setattr(counts_module, "_scanned", lambda raw, budget: None)
        return scanned, run()


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=10))
def test_read_counts_gives_one_table_by_both_routes_after_a_bom(tmp_path_factory, pieces):
    """Issue 30: a leading BOM is dropped by both routes of ``read_counts`` alike, as the
    vocabulary loaders drop it; what follows is read as without it."""
    body = "".join(pieces).encode("utf-8")
    folder = tmp_path_factory.mktemp("bom")
    (folder / "bom.tsv").write_bytes(b"\xef\xbb\xbf" + body)
    (folder / "plain.tsv").write_bytes(body)
    with pytest.MonkeyPatch.context() as monkeypatch:
        with_bom = _both_routes(folder / "bom.tsv", monkeypatch)
        without = _both_routes(folder / "plain.tsv", monkeypatch)
    assert with_bom[0] == with_bom[1] and without[0] == without[1]
    if isinstance(with_bom[0], dict):
        assert list(with_bom[0]) == list(with_bom[1])
    if not body.startswith(b"\xef\xbb\xbf"):  # else "plain" starts with a BOM too
        assert with_bom[0] == without[0]
        if isinstance(with_bom[0], dict):
            assert list(with_bom[0]) == list(without[0])


def _as_table(arrays) -> dict[str, int]:
    joined, starts, counts = arrays
    text = [joined[a:b].decode("utf-8") for a, b in zip(starts[:-1], starts[1:])]
    assert len(set(text)) == len(text)
    return dict(zip(text, counts.tolist()))


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_PIECES), max_size=14))
def test_the_arrays_are_csvs_table_or_declined_as_the_dict_scan_declines(pieces):
    """scan_count_arrays reads what scan_counts reads (same chunks, counts, order) and
    declines what it declines, and the empty file."""
    data = "".join(pieces).encode("utf-8")
    got = scan_count_arrays(data)
    table = scan_counts(data)
    if got is None:
        assert not table
    else:
        ref = _reference(data)
        assert ref and _as_table(got) == ref and list(_as_table(got)) == list(ref)
        assert table is None or _as_table(got) == table


@pytest.mark.parametrize("data", [b"", b"a\t1\na\t2\n", b"ab\t1\nb\t2\nab\t3\n",
                                  b'a\t1\n"a"\t2\n', b"caf\xe9\t1\n", b"a\t1\r\n"])
def test_the_arrays_decline_repeats_bad_bytes_and_empty_files(data):
    assert scan_count_arrays(data) is None


@pytest.mark.parametrize("name", ["un", "fineweb10"])
def test_the_shipped_tables_read_into_arrays_are_the_dict(name):
    from workbench.counts import read_count_arrays

    path = DATA_DIR / f"{name}.tsv.xz"
    arrays = read_count_arrays(path)
    assert arrays is not None
    table = read_counts(path)
    assert _as_table(arrays) == table and list(_as_table(arrays)) == list(table)
