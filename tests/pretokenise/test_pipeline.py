"""P1/P2 golden examples, LD1 typos, the multiplexed pipeline and partition-invariant corpora."""

from __future__ import annotations

import numpy as np
import pytest

from workbench import Grampa, datasets
from workbench.pretokenise import (
    Pretokeniser,
    TextTokenizer,
    p1,
    p2,
    perturb,
    tokenize_corpus,
    tokenize_corpus_dask,
)
from workbench.segmenters import unigram_viterbi


@pytest.mark.parametrize("text, expected", [
    ("Hello,  world!", ["Hello", ",", "world", "!"]),
    ("don't stop-gap 'quoted'", ["don't", "stop-gap", "'", "quoted", "'"]),
    ("ﬁne Ⅻ\u00a0x", ["fine", "XII", "x"]),  # NFKC: ligature, roman numeral, nbsp
    ("(a)...b", ["(", "a", ")", ".", ".", ".", "b"]),
    ("", []),
])
def test_p1_golden(text, expected):
    assert p1(text) == expected


@pytest.mark.parametrize("pretoken, alphabet, expected", [
    ("don't", "sentencepiece", ["\u2581don", "'t"]),
    ("we'll", "byte-level", ["Ġwe", "'ll"]),
    ("1984", "byte-level", ["Ġ", "1", "9", "8", "4"]),
    ("stop-gap", "sentencepiece", ["\u2581stop", "-", "gap"]),
    ("café", "byte-level", ["ĠcafÃ©"]),
    ("x2y", "identity", ["x", "2", "y"]),
])
def test_p2_golden(pretoken, alphabet, expected):
    assert p2(pretoken, alphabet) == expected


def test_flat_equals_grouped_on_real_text():
    lines = (datasets.load_text("brown").split("\n")[::40]
             + ["l'amour 3-4 x_y don’t", "  ", "Ⅻ-ﬁ"])
    for alphabet in ("sentencepiece", "byte-level", "identity"):
        pre = Pretokeniser(alphabet)
        pieces, sizes, per_line = pre.flat(lines)
        groups = [pre.pretokenise(line) for line in lines]
        assert per_line == [len(g) for g in groups]
        assert sizes == [len(x) for g in groups for x in g]
        assert pieces == [p for g in groups for x in g for p in x]


def test_typos_golden_and_rate():
    assert perturb("the quick brown fox", rate=1.0, seed=0) == "tho wquick brjwn fonx"
    assert perturb("a b", rate=0.0, seed=1) == "a b"
    words = ["abcdef"] * 20_000
    out = perturb(" ".join(words), rate=0.15, seed=3).split(" ")
    changed = np.array([w != "abcdef" for w in out])
    assert abs(changed.mean() - 0.15) < 0.01  # ~6 s.e.; substitutions by the same letter stay
    lengths = np.array([len(w) for w in out])[changed]
    shares = [np.mean(lengths == k) for k in (5, 6, 7)]
    assert all(abs(s - 1 / 3) < 0.04 for s in shares)


def test_pipeline_deterministic_half_is_viterbi_and_coins_are_per_pretoken():
    v = datasets.load_vocabulary("ulm-8k")
    lines = datasets.load_text("shakespeare").split("\n")[1000:1400]
    ids, offs = TextTokenizer(Grampa(v), p=0.0).encode_lines(lines, seed=0)
    pre = Pretokeniser("sentencepiece")
    for k, line in enumerate(lines):
        expected = [t for p in pre.pieces(line) for t in unigram_viterbi(p, v)]
        assert v.decode_ids(ids[offs[k]:offs[k + 1]]) == expected
    ids, offs = TextTokenizer(Grampa(v), p=1.0).encode_lines(lines, seed=0)
    for k, line in enumerate(lines):
        assert "".join(v.decode_ids(ids[offs[k]:offs[k + 1]])) == "".join(pre.pieces(line))
    one = TextTokenizer(Grampa(v), p=0.5, typo_rate=0.15).encode_lines(lines, seed=5)
    two = TextTokenizer(Grampa(v, seed=123), p=0.5, typo_rate=0.15).encode_lines(lines, seed=5)
    assert all(np.array_equal(a, b) for a, b in zip(one, two))


def test_pipeline_takes_any_sampler_of_the_contract():
    """Any workbench.interfaces.Sampler multiplexes, reseeded per call from the call's seed."""
    from workbench import MaxMatchSampler, ULMSampler
    from workbench.segmenters import longest_match

    v = datasets.load_vocabulary("ulm-8k")
    lines = datasets.load_text("shakespeare").split("\n")[2000:2200]
    pre = Pretokeniser("sentencepiece")
    ids, offs = TextTokenizer(MaxMatchSampler(v), p=1.0).encode_lines(lines, seed=0)
    for k, line in enumerate(lines):  # MaxMatch without dropout is the longest match
        expected = [t for p in pre.pieces(line) for t in longest_match(p, v)]
        assert v.decode_ids(ids[offs[k]:offs[k + 1]]) == expected
    tok = TextTokenizer(ULMSampler(v, nbest=8, alpha=0.1, seed=1), p=0.5)
    one, two = tok.encode_lines(lines, seed=4), tok.encode_lines(lines, seed=4)
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
    assert not np.array_equal(tok.encode_lines(lines, seed=5)[0], one[0])
    for k, line in enumerate(lines):
        assert "".join(v.decode_ids(one[0][one[1][k]:one[1][k + 1]])) == "".join(pre.pieces(line))
    with pytest.raises(TypeError):
        TextTokenizer(object())


def test_a_split_pattern_loses_nothing_and_its_chunks_are_the_pretokens():
    from workbench.bpe import split_text
    from workbench.segmenters import DeterministicSegmenter

    g = datasets.load_vocabulary("gpt2")
    lines = datasets.load_text("shakespeare").split("\n")[500:700] + ["héllo 👋 — 12345"]
    tok = TextTokenizer(Grampa(g, tau=2.0), p=0.5, pattern="gpt4", seed=2)
    for line, ids in zip(lines, tok.encode_batch(lines)):
        assert tok.decode(ids) == line
    seg = DeterministicSegmenter(g, "longest")
    plain = TextTokenizer(Grampa(g), p=0.0, deterministic="longest", pattern="gpt4", seed=0)
    for line in lines[:50]:  # p = 0: every chunk is the segmenter's
        expected = [t for c in split_text(line) for t in seg(g.to_alphabet(c))]
        assert plain.tokenize(line) == expected
        ids, spans = plain.encode_with_offsets(line)
        assert "".join(line[a:b] for a, b in spans) == line  # ASCII: spans tile the line


def test_the_tokenizer_holds_the_randomness():
    v = datasets.load_vocabulary("ulm-8k")
    lines = datasets.load_text("shakespeare").split("\n")[3000:3100]
    one = TextTokenizer(Grampa(v), p=0.5, seed=3).encode_lines(lines)
    two = TextTokenizer(Grampa(v), p=0.5, seed=3).encode_lines(lines)
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
    tok = TextTokenizer(Grampa(v), p=0.5, seed=3)
    assert not np.array_equal(tok.encode_lines(lines)[0], tok.encode_lines(lines)[0])
    typos = TextTokenizer(Grampa(v), p=0.5, typo_rate=0.1, seed=3)
    assert typos.encode("to be or not") and typos.tokenize("to be or not")
    with pytest.raises(ValueError, match="typo_rate"):
        typos.encode_with_offsets("to be or not")


def _corpus_sources(tmp_path):
    text = datasets.load_text("shakespeare").split("\n")
    paths = []
    for k, (a, b) in enumerate([(0, 3000), (3000, 3500), (3500, 7100)]):
        path = tmp_path / f"part{k}.txt"
        path.write_text("\n".join(text[a:b]), encoding="utf-8")
        paths.append(path)
    return paths


def test_tokenize_corpus_is_invariant_to_workers_and_blocks_are_fixed(tmp_path):
    v = datasets.load_vocabulary("ulm-8k")
    tok = TextTokenizer(Grampa(v, tau=5.0), p=0.5)
    paths = _corpus_sources(tmp_path)
    serial = tokenize_corpus(paths, tok, seed=7, num_threads=1, block_lines=500, progress=False)
    parallel = tokenize_corpus(paths, tok, seed=7, num_threads=2, block_lines=500, progress=False,
                               out=tmp_path / "out.npz")
    assert all(np.array_equal(a, b) for a, b in zip(serial, parallel))
    saved = np.load(tmp_path / "out.npz")
    assert np.array_equal(saved["ids"], serial[0])
    assert serial[1].size == sum(len(p.read_text().split("\n")) for p in paths) + 1
    other = tokenize_corpus(paths, tok, seed=8, num_threads=1, block_lines=500, progress=False)
    assert not np.array_equal(other[0], serial[0])


@pytest.mark.slow
def test_tokenize_corpus_dask_local_cluster_identical(tmp_path):
    distributed = pytest.importorskip("distributed")
    v = datasets.load_vocabulary("ulm-8k")
    tok = TextTokenizer(Grampa(v, tau=-10.0, ell_min=2), p=0.5)
    paths = _corpus_sources(tmp_path)
    local = tokenize_corpus(paths, tok, seed=3, num_threads=1, block_lines=700, progress=False)
    bag = tokenize_corpus_dask(paths, tok, seed=3, block_lines=700, partitions=3)
    assert all(np.array_equal(a, b) for a, b in zip(local, bag))
    with distributed.LocalCluster(n_workers=2, processes=True, host="127.0.0.1",
                                  dashboard_address=None, threads_per_worker=1) as cluster, \
            distributed.Client(cluster) as client:
        remote = tokenize_corpus_dask(paths, tok, seed=3, block_lines=700, partitions=5,
                                      client=client)
    assert all(np.array_equal(a, b) for a, b in zip(local, remote))
