"""P1/P2 token offsets against a reference that finds the pretokens in the text itself."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from workbench import WorkbenchError
from workbench.pretokenise.offsets import nfkc_with_sources, p1p2_offsets
from workbench.pretokenise.rules import Pretokeniser, marker
from workbench.vocab.alphabets import spell

_P1 = re.compile(r"[\w-]+(?:['\u2019][\w-]+)*|[^\w\s]")  # rules.p1's regex, on the raw text


def naive_offsets(text, alphabet, cuts_of):
    """Pretoken spans from the regex on ``text`` (NFKC leaves it unchanged); each pretoken cut
    into tokens at the units ``cuts_of(k, n)`` gives; spans by walking characters."""
    mark = marker(alphabet)
    pretokens, lengths, spans = [], [], []
    for k, m in enumerate(_P1.finditer(text)):
        spelled = mark + spell(alphabet, m.group())
        cuts = [0, *cuts_of(k, len(spelled)), len(spelled)]
        lengths.append([b - a for a, b in zip(cuts[:-1], cuts[1:])])
        pretokens.append(spelled)
        char_of_unit = [None] * len(mark) + [
            m.start() + c for c, ch in enumerate(m.group())
            for _ in range(len(spell(alphabet, ch)))]
        for a, b in zip(cuts[:-1], cuts[1:]):
            inside = [c for c in char_of_unit[a:b] if c is not None]
            spans.append((inside[0], inside[-1] + 1) if inside else (m.start(), m.start()))
    return pretokens, lengths, spans


texts = st.text(alphabet="ab c'-,.é👋\t\n1", max_size=25)


@settings(max_examples=300, deadline=None)
@given(texts, st.sampled_from(["sentencepiece", "byte-level", "identity"]),
       st.randoms(use_true_random=False))
def test_offsets_equal_the_reference(text, alphabet, rnd):
    assume(unicodedata.normalize("NFKC", text) == text)
    cut_sets: dict[int, list[int]] = {}

    def cuts_of(k, n):
        return cut_sets.setdefault(k, sorted(rnd.sample(range(1, n), rnd.randint(0, n - 1))))

    pretokens, lengths, expected = naive_offsets(text, alphabet, cuts_of)
    joined = ["".join(group) for group in Pretokeniser(alphabet).pretokenise(text)]
    assert joined == pretokens  # the reference's pretokens are P1/P2's
    assert p1p2_offsets(text, alphabet, pretokens, lengths) == expected


def test_normalised_characters_point_at_their_source():
    assert nfkc_with_sources("ﬁ e\u0301") == ("fi é", [0, 0, 1, 2], [1, 1, 2, 4])
    assert nfkc_with_sources("abc") == ("abc", [0, 1, 2], [1, 2, 3])
    text = "ﬁne e\u0301"
    pretokens = ["▁fine", "▁é"]
    assert p1p2_offsets(text, "sentencepiece", pretokens, [[3, 2], [1, 1]]) == [
        (0, 1), (1, 3), (4, 4), (4, 6)]  # "fi" comes from the ligature; é from e + accent
    assert p1p2_offsets(text, "byte-level", ["Ġfine", "ĠÃ©"], [[2, 3], [2, 1]]) == [
        (0, 1), (0, 3), (4, 6), (4, 6)]  # "ine" starts in the ligature; é's bytes: e + accent


def test_pretokens_that_are_not_the_texts_are_refused():
    with pytest.raises(WorkbenchError, match="not where the text has it"):
        p1p2_offsets("ab cd", "sentencepiece", ["▁ab", "▁ce"], [[3], [3]])


def test_offsets_are_budgeted_before_any_work():
    from workbench import BudgetError

    class Huge(str):
        def __len__(self):
            return 10**12

    with pytest.raises(BudgetError, match="1,000,000,000,000-character"):
        p1p2_offsets(Huge("ab"), "sentencepiece", ["▁ab"], [[3]])
