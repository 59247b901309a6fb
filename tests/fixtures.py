"""Fixtures and small objects that test files in different folders share (``conftest.py``
imports the fixtures; test files import the objects: ``from fixtures import SMALL``).

A test file keeps what only it uses; what two files need lives here once. This module tests
nothing and holds no reference implementation (those are in ``naive/``).
"""

from __future__ import annotations

import pytest

from workbench import Vocabulary

#: A small scored vocabulary without score ties among segmentations of :data:`WORDS`.
TOKENS = ["a", "b", "c", "ab", "bc", "ca", "abc", "bca", "cab"]
SCORES = [-1.0, -1.3, -1.7, -2.1, -2.3, -2.9, -3.1, -3.7, -4.3]
SMALL = Vocabulary(TOKENS, scores=SCORES, name="small")
WORDS = ["abcab", "cabca", "bcabc", "abca", "ab", "c", "abcabca"]
TOL = 1e-9  # float round-off of sums of logs and products of probabilities

#: Figures 10–12 of GRaMPa §6.3 on a slice of the shipped Shakespeare.
EFFICIENCY_LINES = 400
SAMPLED_TOL = 0.02  # |sampled − exact| E_2.5 at ~2,500 occurrences (observed ≤ 0.005)


@pytest.fixture(scope="session")
def shipped() -> dict[str, Vocabulary]:
    """The shipped 8k BPE and ULM vocabularies (data/ ships with the repository)."""
    from workbench import datasets

    return {n: datasets.load_vocabulary(n) for n in ("bpe-8k", "ulm-8k")}


@pytest.fixture(scope="module", params=("bpe", "ulm"))
def efficiency_setup(request):
    """One of the two tokeniser families of Figures 10–12 (``grampa_efficiency.KINDS``)."""
    pytest.importorskip("sentencepiece")
    from workbench.experiments import grampa_efficiency

    assert request.param in grampa_efficiency.KINDS
    return grampa_efficiency.make_setup(request.param, max_lines=EFFICIENCY_LINES, bpe_size=320)


@pytest.fixture(scope="module")
def renyi_small():
    """Notebook 10's objects on 400 lines: lines, chunk counts, a 300-merge model, encoding."""
    from workbench.datasets.corpora import text_lines
    from workbench.experiments import renyi

    lines = text_lines(max_lines=400)
    chunks = renyi.gpt4_chunk_counts(lines)
    model = renyi.train_baseline(chunks, 300)
    return lines, chunks, model, renyi.encode_corpus(model, chunks, len(lines))
