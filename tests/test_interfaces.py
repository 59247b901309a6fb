"""The contracts of workbench.interfaces, checked on every sampler, segmenter and merge model.

One parametrised test per promise of a protocol: membership (``isinstance`` against the
runtime-checkable protocols) and behaviour (same seed same output, ``reseeded`` = a fresh
instance, tokens spell the word, ids match tokens, a batch = its words one by one).

The conformance section (issue 37 item 7) finds every tokeniser class through
``workbench.__all__`` (a class with any verb of the contract), so a new exported class
without a row here fails :func:`test_every_exported_tokeniser_is_checked`; every word-level
one is checked for the verbs' members and return types, ``decode(encode(word)) == word``,
``encode_batch`` against a loop of ``encode`` and the old spellings' warnings.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pytest

import workbench as wb
from workbench import (
    BitRejectionSampler,
    BPEModel,
    BPESampler,
    DuplicationBPE,
    Grampa,
    GreedTokModel,
    MarkovRejectionSampler,
    MaxMatchSampler,
    Multiplexer,
    RandomDropBPE,
    StochasTokSampler,
    TextTokenizer,
    ULMSampler,
    UnigramRejectionSampler,
    Vocabulary,
    WorkbenchDeprecationWarning,
    datasets,
    train_bpe,
    train_greedtok,
)
from workbench.bpe import split_text
from workbench.counterexamples import check_bpe_model, token_frequencies
from workbench.interfaces import (
    LawSampler,
    MergeModel,
    Sampler,
    Segmenter,
    TextLevel,
    WordLevel,
    WordSampler,
)
from workbench.lattice import code_points
from workbench.segmenters import DeterministicSegmenter, default_segmenter
from workbench.vocab.alphabets import spelled_bytes


@functools.cache
def vocab(name: str) -> Vocabulary:
    return datasets.load_vocabulary(name)


@functools.cache
def words_for(name: str) -> tuple[str, ...]:
    """Short real words spelled in the vocabulary's alphabet (cheap for bit rejection)."""
    v = vocab(name)
    spelled = [v.to_alphabet(" " + w) for w in datasets.english_words(400, min_length=3)]
    return tuple([w for w in spelled if len(w) <= 8][:80] + ["", v.to_alphabet(" a")])


def _multiplexer(seed):
    """Algorithm 3 over ULM's Viterbi and GRaMPa, built as ``Multiplexer.reseeded`` builds it:
    the coins from ``seed``, GRaMPa from that generator's first spawned child."""
    coins = np.random.default_rng(seed)
    return Multiplexer(default_segmenter(vocab("ulm-8k")),
                       Grampa(vocab("ulm-8k"), seed=coins.spawn(1)[0]), p=0.5, seed=coins)


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
    "StochasTokSampler": ("ulm-8k", lambda s: StochasTokSampler(vocab("ulm-8k"), attempts=3,
                                                                seed=s)),
    "Multiplexer": ("ulm-8k", _multiplexer),
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
    ids, offs = sampler.encode_flat(list(words))
    return [sampler.tokenize_batch(list(words)), ids.tolist(), offs.tolist(),
            sampler.sample(words[0]), sampler.sample_many(words[1], 20),
            sampler.tokenize(words[2]), sampler.encode(words[3]),
            sampler.encode_batch(list(words[:5]))]


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
    for w, toks in zip(words, s.tokenize_batch(list(words))):
        assert "".join(toks) == w and all(toks)
    assert all("".join(t) == words[0] for t in s.sample_many(words[0], 30))
    assert "".join(s.sample(words[2])) == words[2]


def test_encode_ids_match_tokens(case):
    v, words, make = case
    toks = make(4).tokenize_batch(list(words))
    ids, offs = make(4).encode_flat(list(words))
    assert ids.dtype == np.int32 and offs.dtype == np.int64 and offs.size == len(words) + 1
    assert offs[0] == 0 and offs[-1] == ids.size
    for w, t in enumerate(toks):
        assert ids[offs[w]:offs[w + 1]].tolist() == [v.id_of(x) for x in t]


def test_encode_code_points_equals_encode(case):
    _, words, make = case
    cps = code_points("".join(words))
    offsets = np.cumsum([0] + [len(w) for w in words])
    flat = make(6).encode_code_points(cps, offsets)
    ids, offs = make(6).encode_flat(list(words))
    assert flat[0].tolist() == ids.tolist() and flat[1].tolist() == offs.tolist()


def test_batch_equals_its_words_one_by_one(case):
    """Word ``w`` of a call has its own stream: a batch's prefix is the prefix's batch, and
    ``sample(word)`` is ``tokenize([word])[0]``."""
    _, words, make = case
    whole = make(8).tokenize_batch(list(words))
    assert make(8).tokenize_batch(list(words[:10])) == whole[:10]
    assert make(2).sample(words[5]) == make(2).tokenize_batch([words[5]])[0]


def test_batch_checks_are_shared(case):
    _, words, make = case
    s = make(0)
    with pytest.raises(TypeError):
        s.tokenize_batch(words[0])
    with pytest.raises(TypeError):
        s.tokenize_batch([words[0], 7])
    with pytest.raises(TypeError):
        s.encode_flat(words[0])
    with pytest.raises(TypeError):
        s.sample(7)
    with pytest.raises(ValueError):
        s.sample_many(words[0], -1)
    assert s.sample_many(words[0], 0) == [] and s.tokenize_batch([]) == []


def test_interface_shared_by_every_baseline():
    """Moved from tests/samplers/test_samplers.py (assertions unchanged)."""
    v = datasets.load_vocabulary("ulm-8k")
    for s in (ULMSampler(v, nbest=4, alpha=0.2, seed=1), MaxMatchSampler(v, dropout=0.2, seed=1)):
        many = s.sample_many("\u2581kingdom", 50)
        assert len(many) == 50 and all("".join(t) == "\u2581kingdom" for t in many)
        ids, offs = s.encode_flat(["\u2581king", "\u2581dom"])
        assert offs[0] == 0 and offs[-1] == ids.size
        with pytest.raises(TypeError):
            s.tokenize_batch("\u2581king")


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
    assert seg.tokenize_batch(list(words)) == one_by_one == make().tokenize_batch(list(words))
    ids, offs = seg.encode_flat(list(words))
    assert offs.size == len(words) + 1 and offs[-1] == ids.size
    for w, t in enumerate(one_by_one):
        assert ids[offs[w]:offs[w + 1]].tolist() == [v.id_of(x) for x in t]
    flat = seg.encode_code_points(code_points("".join(words)),
                                  np.cumsum([0] + [len(w) for w in words]))
    assert flat[0].tolist() == ids.tolist() and flat[1].tolist() == offs.tolist()
    with pytest.raises(TypeError):
        seg.tokenize_batch(words[0])


def test_infinite_segmenter_is_the_whole_word_without_ids():
    seg = default_segmenter(Vocabulary.infinite())
    assert seg.tokenize_batch(["abc", ""]) == [["abc"], []]
    with pytest.raises(TypeError):
        seg.encode_flat(["abc"])
    with pytest.raises(ValueError):
        DeterministicSegmenter(Vocabulary(["a"]), "viterbi")


def test_multiplexer_takes_any_sampler_and_segmenter(case):
    """Algorithm 3 through the contracts: the flat route equals the string route."""
    v, words, make = case
    seg = default_segmenter(v)
    toks = Multiplexer(seg, make(5), p=0.5, seed=6).tokenize_batch(list(words))
    ids, offs = Multiplexer(seg, make(5), p=0.5, seed=6).encode_code_points(
        code_points("".join(words)), np.cumsum([0] + [len(w) for w in words]))
    assert [ids[offs[w]:offs[w + 1]].tolist() for w in range(len(words))] == \
        [[v.id_of(x) for x in t] for t in toks]


def test_multiplexer_states_the_mixture_law_of_every_sampler(case):
    """Multiplexer.law over every sampler: sums to 1 − failure mass, holds every word
    :meth:`Multiplexer.tokenize_batch` returns, measures regularisation against the
    segmenter."""
    v, words, make = case
    seg = default_segmenter(v)
    mux = Multiplexer(seg, make(2), p=0.5, seed=3)
    assert isinstance(mux, LawSampler) and isinstance(mux, Sampler)
    for word in words[:3] + words[-2:]:
        law = mux.law(word)
        total = sum(map(float, law.probabilities().values())) + float(law.failure_mass)
        assert abs(total - 1.0) < 1e-9 and law.deterministic == tuple(seg(word)), word
        assert all(law.probability(t) > 0 for t in mux.tokenize_batch([word] * 20)), word


# --------------------------------------------------------------------------- conformance
#: The verbs that make a class a tokeniser (any one of them).
VERBS = {"tokenize", "encode", "sample", "decode", "encode_batch", "encode_with_offsets"}
#: Word-level classes: checked below through :data:`SAMPLERS` and :data:`SEGMENTERS`.
WORD_LEVEL = {"BPESampler", "BitRejectionSampler", "DeterministicSegmenter", "Grampa",
              "MarkovRejectionSampler", "MaxMatchSampler", "Multiplexer", "StochasTokSampler",
              "ULMSampler", "UnigramRejectionSampler"}
#: Text-level classes of the contract: checked below through :func:`_merge_models`.
TEXT_CONTRACT = {"BPEModel", "DuplicationBPE", "GreedTokModel", "RandomDropBPE",
                 "TextTokenizer"}
TEXT_LEVEL = TEXT_CONTRACT


def test_every_exported_tokeniser_is_checked():
    """Every class of ``workbench.__all__`` with a verb of the contract has a row here."""
    exported = {name: getattr(wb, name) for name in wb.__all__}
    tokenisers = {name for name, obj in exported.items()
                  if isinstance(obj, type) and VERBS & set(dir(obj))}
    assert tokenisers == WORD_LEVEL | TEXT_LEVEL
    built = {type(make(0)).__name__ for _, make in SAMPLERS.values()}
    built |= {type(make()).__name__ for _, make in SEGMENTERS.values()}
    assert built == WORD_LEVEL


def test_one_seed_default_everywhere():
    """Every exported tokeniser that takes a ``seed`` when built defaults it to None (fresh
    entropy, numpy's convention): a run that wants to be reproduced says its seed, and no two
    workers silently replay one default stream."""
    import inspect

    defaults = {}
    for name in sorted(WORD_LEVEL | TEXT_LEVEL):
        params = inspect.signature(getattr(wb, name)).parameters
        if "seed" in params:
            defaults[name] = params["seed"].default
    assert set(defaults) >= WORD_LEVEL - {"DeterministicSegmenter"}
    assert set(defaults.values()) == {None}, defaults


#: every word-level tokeniser: name -> (vocabulary, factory seed -> tokeniser, stochastic?)
WORD = {**{k: (v, f, True) for k, (v, f) in SAMPLERS.items()},
        **{k: (v, (lambda s, f=f: f()), False) for k, (v, f) in SEGMENTERS.items()}}


@pytest.fixture(params=sorted(WORD))
def word_case(request):
    name, make, stochastic = WORD[request.param]
    return vocab(name), words_for(name), make, stochastic


def _is_ids(x) -> bool:
    return type(x) is list and all(type(i) is int for i in x)


def test_word_level_members_and_return_types(word_case):
    v, words, make, stochastic = word_case
    t = make(0)
    assert isinstance(t, WordLevel) and t.vocab is v
    assert isinstance(t, Sampler) if stochastic else isinstance(t, Segmenter)
    toks = t.tokenize(words[0])
    assert type(toks) is list and all(type(x) is str and x for x in toks)
    assert "".join(toks) == words[0]
    assert _is_ids(t.encode(words[1]))
    batch = t.tokenize_batch(list(words))
    assert type(batch) is list and len(batch) == len(words)
    assert all(type(b) is list and all(type(x) is str for x in b) for b in batch)
    ids_batch = t.encode_batch(list(words))
    assert type(ids_batch) is list and len(ids_batch) == len(words)
    assert all(map(_is_ids, ids_batch))
    ids, offs = t.encode_flat(list(words))
    assert ids.dtype == np.int32 and offs.dtype == np.int64 and offs.size == len(words) + 1
    assert type(t.decode(ids_batch[0])) is str


def test_decode_inverts_encode(word_case):
    """Word level is lossless: every id list decodes to its word."""
    _, words, make, _ = word_case
    t = make(1)
    assert all(t.decode(t.encode(w)) == w for w in words)
    assert [t.decode(ids) for ids in t.encode_batch(list(words))] == list(words)
    with pytest.raises(ValueError, match="id"):
        t.decode([len(t.vocab) + 5])


def test_encode_batch_is_a_loop_of_encode(word_case):
    """Deterministic: exactly the loop. Stochastic: word ``w`` of a batch has its own stream,
    so one word's call is the batch of that word, and the batch's ids are the ids of the
    batch's tokens (both from the same state)."""
    v, words, make, stochastic = word_case
    ws = list(words)
    if not stochastic:
        t = make(0)
        assert t.encode_batch(ws) == [t.encode(w) for w in ws]
        assert t.tokenize_batch(ws) == [t.tokenize(w) for w in ws]
        return
    for k in (0, 3, len(ws) - 1):
        assert make(k).encode(ws[k]) == make(k).encode_batch([ws[k]])[0]
        assert make(k).tokenize(ws[k]) == make(k).tokenize_batch([ws[k]])[0]
    assert make(5).encode_batch(ws) == [[v.id_of(x) for x in toks]
                                        for toks in make(5).tokenize_batch(ws)]
    assert make(5).encode_batch(ws)[:7] == make(5).encode_batch(ws[:7])


def test_old_batch_spellings_warn_and_still_answer(word_case):
    """``tokenize(words)`` and ``encode(words)`` with a list: one release, with a warning
    naming the new call, the new call's result."""
    _, words, make, _ = word_case
    ws = list(words)
    with pytest.warns(WorkbenchDeprecationWarning, match=r"tokenize_batch\(words\)"):
        old = make(3).tokenize(ws)
    assert old == make(3).tokenize_batch(ws)
    with pytest.warns(WorkbenchDeprecationWarning, match=r"encode_flat\(words\)"):
        old_ids, old_offs = make(3).encode(ws)
    ids, offs = make(3).encode_flat(ws)
    assert old_ids.tolist() == ids.tolist() and old_offs.tolist() == offs.tolist()
    with pytest.raises(TypeError):
        make(3).tokenize(b"ab")


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


# --------------------------------------------------------------------------- text level
TEXTS = [TEXT[:90], "the encoded code", " héllo wörld ✓ 👋🏽", "", "  \n\tcoding\r\n"]
#: texts whose every character the ``ulm-8k`` vocabulary has (for P1/P2 over it)
PLAIN_TEXTS = [TEXT[:90], "the encoded code", "", "  \n\tcoding, don't 42-day\r\n"]


@functools.cache
def greedtok_model() -> GreedTokModel:
    counts: dict[str, int] = {}
    for c in split_text(TEXT):
        counts[c] = counts.get(c, 0) + 1
    return train_greedtok(counts, 12, progress=False)


def _text_tokenizer(vocab_name: str, pattern, seed):
    return TextTokenizer(Grampa(vocab(vocab_name), tau=2.0), p=0.5, pattern=pattern, seed=seed)


class TextCase(NamedTuple):
    make: Callable[[int], object]  # seed -> tokeniser
    stochastic: bool
    lossless: bool  # decode(encode(text)) == text
    alphabet: str  # how tokenize spells tokens
    texts: list[str]


#: every text-level tokeniser of the contract, in each of its modes
TEXT_CASES = {
    "BPEModel": TextCase(lambda s: _merge_models()["BPEModel"], False, True, "byte-level",
                         TEXTS),
    "RandomDropBPE": TextCase(lambda s: _merge_models()["RandomDropBPE"], False, True,
                              "byte-level", TEXTS),
    "DuplicationBPE": TextCase(lambda s: _merge_models()["DuplicationBPE"].reseeded(s), True,
                               True, "byte-level", TEXTS),
    "GreedTokModel": TextCase(lambda s: greedtok_model(), False, True, "byte-level", TEXTS),
    "TextTokenizer(gpt2, pattern='gpt2')": TextCase(
        lambda s: _text_tokenizer("gpt2", "gpt2", s), True, True, "byte-level", TEXTS),
    "TextTokenizer(ulm-8k, P1/P2)": TextCase(
        lambda s: _text_tokenizer("ulm-8k", None, s), True, False, "sentencepiece",
        PLAIN_TEXTS),
}


def test_the_text_contract_covers_every_text_level_class():
    assert {name.split("(")[0] for name in TEXT_CASES} == TEXT_CONTRACT


@pytest.fixture(params=sorted(TEXT_CASES))
def text_case(request):
    return TEXT_CASES[request.param]


def test_text_level_members_and_return_types(text_case):
    t = text_case.make(0)
    assert isinstance(t, TextLevel)
    for text in text_case.texts:
        ids = t.encode(text)
        assert _is_ids(ids)
        toks = t.tokenize(text)
        assert type(toks) is list and all(type(x) is str and x for x in toks)
        with_offsets = t.encode_with_offsets(text)
        assert type(with_offsets) is tuple and _is_ids(with_offsets[0])
        assert all(type(o) is tuple and len(o) == 2 for o in with_offsets[1])
        assert type(t.decode(ids)) is str and type(t.decode_bytes(ids)) is bytes
    batch = t.encode_batch(text_case.texts, num_threads=2)
    assert type(batch) is list and len(batch) == len(text_case.texts)
    assert all(map(_is_ids, batch))
    table = t.token_bytes
    assert all(type(k) is int and type(v) is bytes for k, v in table.items())
    with pytest.raises(TypeError):
        table[0] = b"x"  # read-only


def test_text_level_decodes_and_spells_what_it_encodes(text_case):
    """Tokens are ``token_bytes`` spelled in the alphabet; the lossless ones decode to the
    text, and each token's offsets cover exactly the characters its bytes hold; every one's
    offsets are ordered spans of the text whose characters the token spells."""
    t = text_case.make(1)
    for text in text_case.texts:
        ids, offsets = t.encode_with_offsets(text)
        assert len(offsets) == len(ids)
        assert [spelled_bytes(text_case.alphabet, x) for x in t.convert_ids_to_tokens(ids)] \
            == [t.token_bytes[i] for i in ids]
        assert all(0 <= a <= b <= len(text) for a, b in offsets)
        assert [a for a, _ in offsets] == sorted(a for a, _ in offsets)
        if not text_case.lossless:  # P1/P2: each span's text, NFKC'd, holds the token's
            for i, (a, b) in zip(ids, offsets):
                raw = t.token_bytes[i].strip()
                assert raw in unicodedata.normalize("NFKC", text[a:b]).encode()
            continue
        assert t.decode(ids) == text and t.decode_bytes(ids) == text.encode()
        at = 0  # the token's first byte
        for i, (a, b) in zip(ids, offsets):
            last = at + len(t.token_bytes[i]) - 1
            assert len(text[:a].encode()) <= at < len(text[:a + 1].encode())  # char a holds it
            assert len(text[:b - 1].encode()) <= last < len(text[:b].encode())
            at = last + 1
        if offsets:
            assert offsets[0][0] == 0 and offsets[-1][1] == len(text)
    if text_case.alphabet == "byte-level":
        cut = next(i for i, b in t.token_bytes.items() if b == b"\xc3")
        assert t.decode([cut]) == "\ufffd"  # errors="replace" by default
        with pytest.raises(UnicodeDecodeError):
            t.decode([cut], errors="strict")
    with pytest.raises(ValueError, match="id"):
        t.decode([max(t.token_bytes) + 5])


def test_text_encode_batch_is_a_loop_of_encode(text_case):
    """Deterministic: exactly the loop, on any thread count. Stochastic: text ``k`` has its
    own stream, so one text's call is the batch of that text, a batch's prefix is the
    prefix's batch, and a per-call ``seed`` is ``reseeded(seed)`` (the object untouched)."""
    texts, make = text_case.texts, text_case.make
    if not text_case.stochastic:
        t = make(0)
        loop = [t.encode(x) for x in texts]
        assert t.encode_batch(texts) == loop == t.encode_batch(texts, num_threads=1)
        assert [t.tokenize(x) for x in texts] == [t.convert_ids_to_tokens(i) for i in loop]
        return
    batch = make(5).encode_batch(texts)
    assert make(5).encode_batch(texts, num_threads=1) == batch
    assert make(5).encode(texts[0]) == batch[0]
    assert make(5).encode_with_offsets(texts[0])[0] == batch[0]
    assert make(5).encode_batch(texts[:2]) == batch[:2]
    assert make(6).encode_batch(texts) != batch
    t = make(7)
    assert t.encode_batch(texts, seed=5) == batch and t.encode(texts[0], seed=5) == batch[0]
    assert t.reseeded(5).encode_batch(texts) == batch
    assert t.encode_batch(texts) == make(7).encode_batch(texts)


def test_text_level_tokenisers_pickle(text_case):
    """Worker processes (``datasets.map``, a ``DataLoader``, Dask) get a pickled copy: it
    encodes as the original does from the same state, tables and generator included."""
    import pickle

    t = text_case.make(3)
    _ = t.token_bytes, t.encode(text_case.texts[0])  # caches filled before pickling
    twin = pickle.loads(pickle.dumps(t))
    assert twin.encode_batch(text_case.texts) == t.encode_batch(text_case.texts)
