"""tokenize_corpus reading files: a UTF-8 byte-order mark at the start of a file is not text.

A file that starts with ``EF BB BF`` once raised ``SegmentationError`` on ``'▁\\ufeff'`` (the
mark became the first character of the first line). The mark is dropped, exactly one, at the
start of each file; U+FEFF anywhere else (and in ``str`` sources, which are text) stays.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench import Grampa, datasets
from workbench.pretokenise import TextTokenizer, corpus, tokenize_corpus
from workbench.pretokenise.corpus import block_ranges, iter_blocks, tokenize_corpus_dask

BOM = "\ufeff"


@pytest.fixture(scope="module")
def tok():
    return TextTokenizer(Grampa(datasets.load_vocabulary("ulm-8k")), p=0.5)


def _same(a, b):
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_a_file_starting_with_a_bom_tokenises_as_without_it(tmp_path, tok):
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbfhello")
    (tmp_path / "plain.txt").write_bytes(b"hello")
    got = tokenize_corpus(Path(tmp_path / "bom.txt"), tok, progress=False)
    _same(got, tokenize_corpus(Path(tmp_path / "plain.txt"), tok, progress=False))
    _same(got, tokenize_corpus(["hello"], tok, progress=False))
    text = "the cat\nsat on\r\nthe mat\n"
    (tmp_path / "lines.txt").write_bytes((BOM + text).encode())
    for block_lines, threads in ((1, 1), (2, 2), (100, 1)):
        _same(tokenize_corpus([Path(tmp_path / "lines.txt")], tok, num_threads=threads,
                              block_lines=block_lines, progress=False),
              tokenize_corpus([text.replace("\r\n", "\n")], tok, num_threads=threads,
                              block_lines=block_lines, progress=False))


def test_the_dask_route_drops_the_same_bom(tmp_path, tok):
    pytest.importorskip("dask.bag")
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbfhello\nworld")
    _same(tokenize_corpus_dask([tmp_path / "bom.txt"], tok, block_lines=1),
          tokenize_corpus(["hello\nworld"], tok, block_lines=1, progress=False))


@pytest.mark.parametrize("scan_bytes", [1, 2, 3, 1 << 22])
def test_one_bom_at_the_start_only(tmp_path, monkeypatch, scan_bytes):
    monkeypatch.setattr(corpus, "_SCAN_BYTES", scan_bytes)
    path = tmp_path / "t.txt"
    path.write_bytes(f"{BOM}{BOM}a\n{BOM}b\nc".encode())
    assert block_ranges(path, 1)[0][1] == 3  # the text starts after the mark
    assert [lines for _, _, lines in iter_blocks([path], 2)] == [[f"{BOM}a", f"{BOM}b"], ["c"]]
    path.write_bytes(b"\xef\xbb\xbf")  # only a mark: one empty line, like an empty file
    assert [lines for _, _, lines in iter_blocks([path], 2)] == [[""]]
    path.write_bytes(b"\xef\xbb")  # not a whole mark: bytes that are not UTF-8
    with pytest.raises(ValueError, match=r"t\.txt, line 1: not UTF-8"):
        list(iter_blocks([path], 2))


def test_str_sources_are_text_and_keep_u_feff(tok):
    lines = [lines for _, _, lines in iter_blocks([f"{BOM}a\nb"], 5)]
    assert lines == [[f"{BOM}a", "b"]]


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(["a", "b", "\n", "\r", " ", "é", BOM]),
                    max_size=40),
       block_lines=st.integers(1, 4), bom=st.booleans())
def test_file_blocks_equal_the_text_after_one_leading_bom(tmp_path_factory, text, block_lines,
                                                          bom):
    path = tmp_path_factory.mktemp("bom") / "t.txt"
    content = (BOM if bom else "") + text
    path.write_bytes(content.encode())
    got = [lines for _, _, lines in iter_blocks([path], block_lines)]
    text = content.removeprefix(BOM)  # one mark, whichever part wrote it
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    assert got == [lines[i:i + block_lines] for i in range(0, len(lines), block_lines)]


def test_bad_utf8_after_a_bom_names_file_line_and_byte(tmp_path, tok):
    path = tmp_path / "bom_bad.txt"
    path.write_bytes(b"\xef\xbb\xbfok\nab\xffc\n")
    with pytest.raises(ValueError, match=r"bom_bad\.txt, line 2: not UTF-8 .* at byte 8\)"):
        tokenize_corpus(Path(path), tok, block_lines=1, progress=False)
