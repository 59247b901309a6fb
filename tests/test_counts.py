"""chunk<TAB>count tables: round trips through the TSV format and clear errors."""

from __future__ import annotations

import lzma

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
