"""The contracts of workbench.interfaces, checked on every sampler, segmenter and merge model.

One parametrised test per promise of a protocol: membership (``isinstance`` against the
runtime-checkable protocols) and behaviour (same seed same output, ``reseeded`` = a fresh
instance, tokens spell the word, ids match tokens, a batch = its words one by one).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from workbench import (
    BitRejectionSampler,
    BPEModel,
    BPESampler,
    DuplicationBPE,
    Grampa,
    MarkovRejectionSampler,
    MaxMatchSampler,
    Multiplexer,
    RandomDropBPE,
    ULMSampler,
    UnigramRejectionSampler,
    Vocabulary,
    datasets,
    train_bpe,
)
from workbench.bpe import split_text
from workbench.counterexamples import check_bpe_model, token_frequencies
from workbench.interfaces import LawSampler, MergeModel, Sampler, Segmenter, WordSampler
from workbench.lattice import code_points
from workbench.segmenters import DeterministicSegmenter, default_segmenter


@functools.cache
def vocab(name: str) -> Vocabulary:
    return datasets.load_vocabulary(name)


@functools.cache
def words_for(name: str) -> tuple[str, ...]:
    """Short real words spelled in the vocabulary's alphabet (cheap for bit rejection)."""
    v = vocab(name)
    spelled = [v.to_alphabet(" " + w) for w in datasets.english_words(400, min_length=3)]
    return tuple([w for w in spelled if len(w) <= 8][:80] + ["", v.to_alphabet(" a")])


#: every sampler of the package: name -> (vocabulary, factory seed -> sampler)
SAMPLERS = {
    "Grampa": ("ulm-8k", lambda s: Grampa(vocab("ulm-8k"), seed=s)),
    "Grampa-skewed-r2l": ("ulm-8k", lambda s: Grampa(vocab("ulm-8k"), tau=5.0, ell_min=2,
                                                     direction="r2l", seed=s)),
    "BPESampler": ("bpe-8k", lambda s: BPESampler(vocab("bpe-8k"), dropout=0.1, seed=s)),
    "ULMSampler": ("ulm-8k", lambda s: ULMSampler(vocab("ulm-8k"), nbest=4, alpha=0.2, seed=s)),
    "MaxMatchSampler": ("ulm-8k", lambda s: MaxMatchSampler(vocab("ulm-8k"), dropout=0.2,
                                                            seed=s)),
    "MarkovRejectionSampler": ("ulm-8k", lambda s: MarkovRejectionSampler(vocab("ulm-8k"),
                                                                          seed=s)),
    "MarkovRejectionSampler-safe": ("ulm-8k", lambda s: MarkovRejectionSampler(
        vocab("ulm-8k"), epsilon="safe", seed=s)),
    "BitRejectionSampler": ("ulm-8k", lambda s: BitRejectionSampler(vocab("ulm-8k"), p=0.5,
                                                                    seed=s)),
    "UnigramRejectionSampler": ("ulm-8k", lambda s: UnigramRejectionSampler(vocab("ulm-8k"),
                                                                            seed=s)),
}

#: every deterministic segmenter: name -> (vocabulary, factory)
SEGMENTERS = {
    "viterbi-ulm": ("ulm-8k", lambda: DeterministicSegmenter(vocab("ulm-8k"), "viterbi")),
    "longest-ulm": ("ulm-8k", lambda: DeterministicSegmenter(vocab("ulm-8k"), "longest")),
    "default-bpe": ("bpe-8k", lambda: default_segmenter(vocab("bpe-8k"))),
    "default-gpt2": ("gpt2", lambda: default_segmenter(vocab("gpt2"))),
}


def _calls(sampler: Sampler, words: tuple[str, ...]) -> list:
    """A fixed sequence of calls (each advancing the sampler's generator)."""
    ids, offs = sampler.encode(list(words))
    return [sampler.tokenize(list(words)), ids.tolist(), offs.tolist(),
            sampler.sample(words[0]), sampler.sample_many(words[1], 20)]


@pytest.fixture(params=sorted(SAMPLERS))
def case(request):
    name, make = SAMPLERS[request.param]
    return vocab(name), words_for(name), make


# --------------------------------------------------------------------------- samplers
def test_every_sampler_is_a_sampler(case):
    _, _, make = case
    s = make(0)
    assert isinstance(s, Sampler) and isinstance(s, WordSampler)
    assert isinstance(s.reseeded(1), Sampler) and type(s.reseeded(1)) is type(s)


def test_every_sampler_states_its_law(case):
    """law(word) (interfaces.LawSampler): sums to 1 − failure mass, holds every sample."""
    _, words, make = case
    s = make(2)
    assert isinstance(s, LawSampler)
    for word in words[:3] + words[-2:]:
        law = s.law(word)
        total = sum(map(float, law.probabilities().values())) + float(law.failure_mass)
        assert abs(total - 1.0) < 1e-9, word
        assert all(law.probability(seg) > 0 for seg in s.sample_many(word, 20)), word


def test_same_seed_same_samples(case):
    _, words, make = case
    assert _calls(make(7), words) == _calls(make(7), words)


def test_reseeded_equals_a_fresh_sampler_and_leaves_the_original(case):
    _, words, make = case
    original = make(3)
    twin = original.reseeded(11)
    assert _calls(twin, words) == _calls(make(11), words)
    assert _calls(original, words) == _calls(make(3), words)
    assert _calls(original.reseeded(np.random.default_rng(5)), words) == \
        _calls(make(np.random.default_rng(5)), words)


def test_tokens_spell_the_word(case):
    _, words, make = case
    s = make(1)
    for w, toks in zip(words, s.tokenize(list(words))):
        assert "".join(toks) == w and all(toks)
    assert all("".join(t) == words[0] for t in s.sample_many(words[0], 30))
    assert "".join(s.sample(words[2])) == words[2]


def test_encode_ids_match_tokens(case):
    v, words, make = case
    toks = make(4).tokenize(list(words))
    ids, offs = make(4).encode(list(words))
    assert ids.dtype == np.int32 and offs.dtype == np.int64 and offs.size == len(words) + 1
    assert offs[0] == 0 and offs[-1] == ids.size
    for w, t in enumerate(toks):
        assert ids[offs[w]:offs[w + 1]].tolist() == [v.id_of(x) for x in t]


def test_encode_code_points_equals_encode(case):
    _, words, make = case
    cps = code_points("".join(words))
    offsets = np.cumsum([0] + [len(w) for w in words])
    flat = make(6).encode_code_points(cps, offsets)
    ids, offs = make(6).encode(list(words))
    assert flat[0].tolist() == ids.tolist() and flat[1].tolist() == offs.tolist()


def test_batch_equals_its_words_one_by_one(case):
    """Word ``w`` of a call has its own stream: a batch's prefix is the prefix's batch, and
    ``sample(word)`` is ``tokenize([word])[0]``."""
    _, words, make = case
    whole = make(8).tokenize(list(words))
    assert make(8).tokenize(list(words[:10])) == whole[:10]
    assert make(2).sample(words[5]) == make(2).tokenize([words[5]])[0]


def test_batch_checks_are_shared(case):
    _, words, make = case
    s = make(0)
    with pytest.raises(TypeError):
        s.tokenize(words[0])
    with pytest.raises(TypeError):
        s.tokenize([words[0], 7])
    with pytest.raises(TypeError):
        s.encode(words[0])
    with pytest.raises(TypeError):
        s.sample(7)
    with pytest.raises(ValueError):
        s.sample_many(words[0], -1)
    assert s.sample_many(words[0], 0) == [] and s.tokenize([]) == []


def test_interface_shared_by_every_baseline():
    """Moved from tests/samplers/test_samplers.py (assertions unchanged)."""
    v = datasets.load_vocabulary("ulm-8k")
    for s in (ULMSampler(v, nbest=4, alpha=0.2, seed=1), MaxMatchSampler(v, dropout=0.2, seed=1)):
        many = s.sample_many("\u2581kingdom", 50)
        assert len(many) == 50 and all("".join(t) == "\u2581kingdom" for t in many)
        ids, offs = s.encode(["\u2581king", "\u2581dom"])
        assert offs[0] == 0 and offs[-1] == ids.size
        with pytest.raises(TypeError):
            s.tokenize("\u2581king")


# --------------------------------------------------------------------------- segmenters
@pytest.fixture(params=sorted(SEGMENTERS))
def seg_case(request):
    name, make = SEGMENTERS[request.param]
    return vocab(name), words_for(name), make


def test_every_segmenter_is_a_segmenter(seg_case):
    v, _, make = seg_case
    seg = make()
    assert isinstance(seg, Segmenter) and not isinstance(seg, Sampler) and seg.vocab is v
    assert isinstance(default_segmenter(Vocabulary.infinite()), Segmenter)


def test_segmenter_behaviour(seg_case):
    v, words, make = seg_case
    seg = make()
    one_by_one = [seg(w) for w in words]
    assert all("".join(t) == w and all(t) for w, t in zip(words, one_by_one))
    assert seg.tokenize(list(words)) == one_by_one == make().tokenize(list(words))
    ids, offs = seg.encode(list(words))
    assert offs.size == len(words) + 1 and offs[-1] == ids.size
    for w, t in enumerate(one_by_one):
        assert ids[offs[w]:offs[w + 1]].tolist() == [v.id_of(x) for x in t]
    flat = seg.encode_code_points(code_points("".join(words)),
                                  np.cumsum([0] + [len(w) for w in words]))
    assert flat[0].tolist() == ids.tolist() and flat[1].tolist() == offs.tolist()
    with pytest.raises(TypeError):
        seg.tokenize(words[0])


def test_infinite_segmenter_is_the_whole_word_without_ids():
    seg = default_segmenter(Vocabulary.infinite())
    assert seg.tokenize(["abc", ""]) == [["abc"], []]
    with pytest.raises(TypeError):
        seg.encode(["abc"])
    with pytest.raises(ValueError):
        DeterministicSegmenter(Vocabulary(["a"]), "viterbi")


def test_multiplexer_takes_any_sampler_and_segmenter(case):
    """Algorithm 3 through the contracts: the flat route equals the string route."""
    v, words, make = case
    seg = default_segmenter(v)
    toks = Multiplexer(seg, make(5), p=0.5, seed=6).tokenize(list(words))
    ids, offs = Multiplexer(seg, make(5), p=0.5, seed=6).encode_code_points(
        code_points("".join(words)), np.cumsum([0] + [len(w) for w in words]))
    assert [ids[offs[w]:offs[w + 1]].tolist() for w in range(len(words))] == \
        [[v.id_of(x) for x in t] for t in toks]


def test_multiplexer_states_the_mixture_law_of_every_sampler(case):
    """Multiplexer.law (a LawSampler, not a Sampler: no sample_many, encode or reseeded, so
    not in :data:`SAMPLERS`) over every sampler: sums to 1 − failure mass, holds every word
    :meth:`Multiplexer.tokenize` returns, measures regularisation against the segmenter."""
    v, words, make = case
    seg = default_segmenter(v)
    mux = Multiplexer(seg, make(2), p=0.5, seed=3)
    assert isinstance(mux, LawSampler) and not isinstance(mux, Sampler)
    for word in words[:3] + words[-2:]:
        law = mux.law(word)
        total = sum(map(float, law.probabilities().values())) + float(law.failure_mass)
        assert abs(total - 1.0) < 1e-9 and law.deterministic == tuple(seg(word)), word
        assert all(law.probability(t) > 0 for t in mux.tokenize([word] * 20)), word


# --------------------------------------------------------------------------- merge models
TEXT = ("the encoding of the code is encoded; decoding encodes nothing. "
        "coding, encoding, recoding: the coder codes the encoded codes. ") * 3


@functools.cache
def bpe_model() -> BPEModel:
    counts: dict[str, int] = {}
    for c in split_text(TEXT):
        counts[c] = counts.get(c, 0) + 1
    return train_bpe(counts, 280, batch=False, progress=False)


class CharPairs:
    """A hand-written MergeModel that is not BPE: fixed pairs of letters, greedily."""

    merges = [(b"a", b"b"), (b"c", b"d")]
    vocab = {0: b"a", 1: b"b", 2: b"c", 3: b"d", 4: b"ab", 5: b"cd", 6: b" "}

    def encode_chunks(self, chunks):
        ids = {v: k for k, v in self.vocab.items()}
        out = []
        for chunk in chunks:
            raw, i, row = chunk.encode(), 0, []
            while i < len(raw):
                if raw[i:i + 2] in (b"ab", b"cd"):
                    row.append(ids[raw[i:i + 2]])
                    i += 2
                else:
                    row.append(ids[raw[i:i + 1]])
                    i += 1
            out.append(row)
        return out

    def encode(self, text):
        return [i for row in self.encode_chunks(text.split(" ")) for i in row + [6]][:-1]

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode()

    def tokens(self, text):
        return [self.vocab[i] for i in self.encode(text)]


def _merge_models():
    base = bpe_model()
    freqs = token_frequencies(base, [TEXT], progress=False)
    return {
        "BPEModel": base,
        "RandomDropBPE": RandomDropBPE(base, freqs, n_top=20, k=5, seed=1),
        "DuplicationBPE": DuplicationBPE(base, freqs, n_top=10, k=3, seed=2),
    }


@pytest.mark.parametrize("name", ["BPEModel", "RandomDropBPE", "DuplicationBPE"])
def test_every_merge_model_is_a_merge_model(name):
    model = _merge_models()[name]
    assert isinstance(model, MergeModel) and check_bpe_model(model) is model
    for text in ["the encoded code", "decoding encodes", " héllo wörld ✓", ""]:
        chunks = split_text(text)
        if name == "DuplicationBPE":  # random copies: the same draws from the same seed
            ids = model.encode(text, seed=5)
            by_chunk = model.encode_chunks(chunks, seed=5)
            assert model.canonical(ids) == model.model.encode(text)
        else:
            ids = model.encode(text)
            by_chunk = model.encode_chunks(chunks)
        assert [i for row in by_chunk for i in row] == ids
        assert model.decode(ids) == text
        assert b"".join(model.tokens(text)) == text.encode()


def test_wrappers_take_a_merge_model_that_is_not_bpe():
    model = CharPairs()
    assert isinstance(model, MergeModel) and not isinstance(model, BPEModel)
    assert model.encode("abcd ab") == [4, 5, 6, 4]
    drop = RandomDropBPE(model, {4: 9, 5: 1}, n_top=1, k=1, seed=0)
    assert drop.dropped == {4}  # the only candidate: the most frequent merged token
    assert drop.encode("abcd ab") == [0, 1, 5, 6, 0, 1]
    assert drop.encode_chunks(["abcd", "ab"]) == [[0, 1, 5], [0, 1]]
    assert drop.decode(drop.encode("abcd ab")) == "abcd ab"
    dup = DuplicationBPE(model, {5: 4}, n_top=1, k=2, seed=0)
    ids = dup.encode("cdcdcd cd")
    assert set(ids) - {6} <= {5, 7} and dup.canonical(ids) == model.encode("cdcdcd cd")
    with pytest.raises(TypeError, match="BPE contract"):
        RandomDropBPE(object(), {}, n_top=1, k=1)
