"""The one-pass P1 + P2 kernel against the regex rules and a plain-Python reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import pretokenise as naive

from workbench import Grampa, Vocabulary, datasets
from workbench.pretokenise import Pretokeniser
from workbench.pretokenise.scan import scan_lines
from workbench.segmenters.batch import encode_deterministic, encode_deterministic_code_points

ALPHABETS = ("sentencepiece", "byte-level", "identity")
# every class the rules treat differently: letters, decimal and non-decimal digits, "_",
# hyphen, apostrophes, contraction letters in both cases, punctuation, whitespace, NFKC
# changes (ligature, full-width, roman numeral), combining marks, astral characters
POOL = "aAsStTrReEvVmMlLdDx019_-'\u2019.,!( \t\n\u00a0\u2028" \
       "\ufb01\uff21\u216b\u0301é\u0663\u1369\u00b2\u00bd日\U0001f600"


def _grouped(s) -> list[list[list[str]]]:
    pieces = iter(s.pieces())
    sizes = iter(s.sizes.tolist())
    return [[[next(pieces) for _ in range(next(sizes))] for _ in range(n)]
            for n in s.per_line.tolist()]


@pytest.mark.parametrize("alphabet", ALPHABETS)
def test_scan_equals_flat_and_rules_on_real_text(alphabet):
    lines = (datasets.load_text("brown").split("\n")[::25]
             + datasets.load_text("shakespeare").split("\n")[::50]
             + ["l'amour 3-4 x_y don’t WE'LL ’tis '", "  ", "Ⅻ-ﬁ", "a\nb", "x'RE y'Ll ab’D"])
    s = scan_lines(lines, alphabet)
    pieces, sizes, per_line = Pretokeniser(alphabet).flat(lines)
    assert s.pieces() == pieces
    assert s.sizes.tolist() == sizes and s.per_line.tolist() == per_line
    assert _grouped(s) == [Pretokeniser(alphabet).pretokenise(line) for line in lines]
    assert _grouped(s) == [naive.pretokenise(line, alphabet) for line in lines]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(alphabet=POOL, max_size=24), max_size=6),
       st.sampled_from(ALPHABETS))
def test_scan_equals_reference_on_random_lines(lines, alphabet):
    assert _grouped(scan_lines(lines, alphabet)) == [naive.pretokenise(x, alphabet)
                                                     for x in lines]


@pytest.mark.parametrize("line, alphabet, expected", [
    # a pretoken of letters and non-decimal digits is one piece (as p2), in any line
    ("a-b \u1369", "sentencepiece", [["▁a", "-", "b"], ["▁\u1369"]]),
    # a non-ASCII decimal digit is isolated from the marker before spelling (as flat)
    ("x \u0663", "byte-level", [["Ġx"], ["Ġ", "Ù£"]]),
    ("x'RE ’tis 'd", "sentencepiece", [["▁x", "'RE"], ["▁’"], ["▁tis"], ["▁'"], ["▁d"]]),
    ("\U0001f600", "byte-level", [["ĠðŁĺĢ"]]),
])
def test_scan_documented_edge_cases(line, alphabet, expected):
    assert _grouped(scan_lines([line], alphabet)) == [expected]
    assert naive.pretokenise(line, alphabet) == expected


def test_scan_bad_input():
    with pytest.raises(TypeError, match="sequence of str"):
        scan_lines("one line", "identity")
    with pytest.raises(TypeError, match="line 1 is int"):
        scan_lines(["a", 3], "identity")
    with pytest.raises(ValueError, match="alphabet"):
        scan_lines(["a"], "latin-1")
    with pytest.raises(ValueError, match="line 1 holds a lone surrogate"):
        scan_lines(["ok", "a \ud800"], "byte-level")
    assert scan_lines(["a \ud800"], "identity").pieces() == ["a", "\ud800"]
    empty = scan_lines([], "byte-level")
    assert empty.pieces() == [] and empty.per_line.size == 0


def test_flat_entry_points_equal_string_ones():
    v = datasets.load_vocabulary("ulm-8k")
    words = ["▁the", "▁quick", "ness", "▁" + "ab" * 600, "", "▁x"]
    cps = np.array([ord(c) for c in "".join(words)], dtype=np.int64)
    offs = np.cumsum([0] + [len(w) for w in words])
    for tau in (1.0, -3.0):
        a = Grampa(v, tau=tau, seed=4).encode_flat(words)
        b = Grampa(v, tau=tau, seed=4).encode_code_points(cps, offs)
        assert all(np.array_equal(x, y) for x, y in zip(a, b))
    for method in ("viterbi", "longest"):
        a = encode_deterministic(words, v, method)
        b = encode_deterministic_code_points(cps, offs, v, method)
        assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_flat_entry_points_check_their_arrays():
    v = Vocabulary(["a", "b"], scores=[-1.0, -1.0])
    g = Grampa(v, seed=0)
    for call in (g.encode_code_points,
                 lambda c, o: encode_deterministic_code_points(c, o, v)):
        with pytest.raises(ValueError, match="offsets must start at 0"):
            call(np.array([97, 98]), np.array([0, 3]))
        with pytest.raises(ValueError, match="offsets must start at 0"):
            call(np.array([97, 98]), np.array([0, 2, 1, 2]))
        with pytest.raises(ValueError, match="code point"):
            call(np.array([97, -1]), np.array([0, 2]))
        with pytest.raises(TypeError, match="integers"):
            call(np.array([97.0]), np.array([0, 1]))
        with pytest.raises(TypeError):
            call("ab", np.array([0, 2]))
        with pytest.raises(ValueError, match="one-dimensional"):
            call(np.array([[97]]), np.array([0, 1]))
    with pytest.raises(Exception, match="'ac'"):
        g.encode_code_points(np.array([97, 99]), np.array([0, 2]))
    with pytest.raises(Exception, match="'ac'"):
        encode_deterministic_code_points(np.array([97, 99]), np.array([0, 2]), v)
