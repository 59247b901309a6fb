"""workbench.datasets.corpora: the word lists spelled in a vocabulary (letter words,
synthetic words)."""

from __future__ import annotations

import matplotlib
import pytest

matplotlib.use("Agg")


from workbench import Vocabulary  # noqa: E402
from workbench.datasets.corpora import letter_words, synthetic_words  # noqa: E402


# --------------------------------------------------------------------------- words
def test_words_are_spelled_and_deterministic(shipped) -> None:
    ulm = shipped["ulm-8k"]
    words = letter_words(20, ulm, offset=5)
    assert all(w.startswith("\u2581") for w in words)
    assert [ulm.from_alphabet(w).strip() for w in words] == \
        letter_words(20, Vocabulary.infinite(), offset=5)
    a = synthetic_words(33, 4, ulm, seed=2)
    assert a == synthetic_words(33, 4, ulm, seed=2) and {len(w) for w in a} == {33}
    assert a != synthetic_words(33, 4, ulm, seed=3)
    with pytest.raises(ValueError):
        letter_words(0, ulm)
