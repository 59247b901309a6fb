"""GreedTok models out: HF ``tokenizer.json`` when Alg. 4 is a BPE, a clear refusal when no HF
model type can express it, and our JSON loadable as a :class:`workbench.Vocabulary`."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import greedtok as naive

from workbench import Vocabulary
from workbench.bpe import BPEModel, NotExpressibleError, export_hf, split_text
from workbench.greedtok import GreedTokModel, train_greedtok


@st.composite
def consistent_tokens(draw):
    """Ranked GreedTok tokens over 'abc' in which each token joins two earlier tokens and
    is reached by BPE of its bytes over the earlier ranks (BPE-consistent)."""
    pool = [b"a", b"b", b"c"]
    toks: list[bytes] = []
    for _ in range(draw(st.integers(1, 8))):
        x, y = draw(st.sampled_from(pool)), draw(st.sampled_from(pool))
        if x + y in toks or len(x + y) > 6:
            continue
        try:
            BPEModel.from_greedtok(GreedTokModel(toks + [x + y]))
        except NotExpressibleError:
            continue
        toks.append(x + y)
        pool.append(x + y)
    return toks


@settings(max_examples=150, deadline=None)
@given(consistent_tokens(), st.lists(st.text(alphabet="abc", min_size=1, max_size=14),
                                     min_size=1, max_size=5))
def test_consistent_greedtok_is_the_bpe_of_its_merges(tokens, words):
    gt = GreedTokModel(tokens)
    bpe = BPEModel.from_greedtok(gt)
    ids, offsets = gt.encode_ids(words)
    for j, w in enumerate(words):
        assert bpe.encode_chunks([w])[0] == ids[offsets[j]:offsets[j + 1]].tolist()
        assert bpe.tokens(w) == naive.encode(tokens, w.encode())


def test_consistent_greedtok_exports_to_hf(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    gt = GreedTokModel([b"aa", b"ba", b"th", b"the", b" the", b"baa"])
    hf = tokenizers.Tokenizer.from_file(str(export_hf(gt, tmp_path / "gt.json")))
    text = "the baaa bath aaaa thethe"
    words = split_text(text)
    ids, _ = gt.encode_ids(words)
    assert hf.encode(text).ids == ids.tolist()


# The counterexample: {"aa", "ba", "bcd"} (ranks 0, 1, 2). Each HF model type fails on it.
COUNTER = [b"aa", b"ba", b"bcd"]


def test_counterexample_alg4_outputs():
    gt = GreedTokModel(COUNTER)
    assert gt.segment("bcd") == [b"bcd"]
    assert gt.segment("ba") == [b"ba"]
    assert gt.segment("baaa") == [b"b", b"aa", b"a"]  # "aa" (rank 0) blocks "ba"


def test_counterexample_no_bpe():
    # BPE makes a token only by joining two tokens; no split of "bcd" is two tokens here
    vocab = {bytes([b]) for b in range(256)} | set(COUNTER)
    assert not any(b"bcd"[:i] in vocab and b"bcd"[i:] in vocab for i in (1, 2))


def test_counterexample_no_unigram():
    # a Unigram model picks the segmentation with the largest sum of scores. Alg. 4 picks
    # S1 over A1 on "ba" and S2 over A2 on "baaa", and S1 + S2 = A1 + A2 as multisets, so no
    # scores make both choices strict (summing the two inequalities gives 0 > 0).
    s1, a1 = GreedTokModel(COUNTER).segment("ba"), [b"b", b"a"]
    s2, a2 = GreedTokModel(COUNTER).segment("baaa"), [b"ba", b"aa"]
    assert b"".join(a1) == b"ba" and b"".join(a2) == b"baaa" and s1 != a1 and s2 != a2
    assert Counter(s1) + Counter(s2) == Counter(a1) + Counter(a2)


def test_counterexample_no_wordpiece():
    tokenizers = pytest.importorskip("tokenizers")
    vocab = {"[UNK]": 0, **{chr(c): c for c in range(97, 123)}, "aa": 200, "ba": 201,
             "bcd": 202}
    wp = tokenizers.Tokenizer(tokenizers.models.WordPiece(
        vocab, unk_token="[UNK]", continuing_subword_prefix=""))
    assert wp.encode("baaa").tokens == ["ba", "aa"]  # leftmost longest
    assert GreedTokModel(COUNTER).segment("baaa") != [b"ba", b"aa"]


def test_export_refuses_clearly_and_never_with_type_error(tmp_path):
    gt = GreedTokModel(COUNTER)
    with pytest.raises(NotExpressibleError, match="b'bcd'.*no list of BPE merges"):
        export_hf(gt, tmp_path / "x.json")
    assert not (tmp_path / "x.json").exists()
    # a reorderable but inconsistent model: named, with the other reason
    with pytest.raises(NotExpressibleError, match="BPE in rank order cannot"):
        export_hf(GreedTokModel([b"abc", b"ab"]), tmp_path / "y.json")


def test_trained_greedtok_export_is_refused_with_a_value_error(tmp_path):
    from workbench.datasets import load_text

    table = dict(Counter(split_text(load_text("shakespeare")[:50_000])))
    gt = train_greedtok(table, 60)
    with pytest.raises(ValueError, match="GreedTokModel.save"):
        export_hf(gt, tmp_path / "t.json")
    gt.save(tmp_path / "gt.json")
    v = Vocabulary.load(tmp_path / "gt.json")
    w = gt.to_vocabulary()
    assert v.tokens == w.tokens and v.ids.tolist() == w.ids.tolist()
    assert v.alphabet == "byte-level" and len(v) == len(gt)


def test_export_pattern_argument():
    gt = GreedTokModel([b"ab"])
    bpe = BPEModel.from_greedtok(gt, pattern="gpt2")
    assert bpe.pattern == "gpt2" and bpe.encode("ab") == [256]
    with pytest.raises(ValueError, match="only for GreedTok"):
        export_hf(BPEModel([]), "unused.json", pattern="gpt2")
    with pytest.raises(TypeError, match="GreedTokModel"):
        BPEModel.from_greedtok([b"ab"])
