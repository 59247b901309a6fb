"""train_bpe's trusted model construction equals the validated constructor, attribute by
attribute; train_bpe's ``pattern``; the fast paths of the table checks agree with the loop."""

from __future__ import annotations

import random
import warnings
from collections import Counter

import numpy as np
import pytest

from workbench.bpe import GPT2_PATTERN, BPEModel, train_bpe
from workbench.bpe.train import BPEExhaustedWarning
from workbench.counts import as_counts, check_pair_total

ALPHABET = "abcdeé €😀\n'"


def _table(seed: int, n: int = 400) -> dict[str, int]:
    rng = random.Random(seed)
    table: dict[str, int] = {}
    for _ in range(n):
        chunk = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 9)))
        table[chunk] = table.get(chunk, 0) + rng.randint(1, 50)
    return table


def _same(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
                and a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b))
    if isinstance(a, tuple) and isinstance(b, tuple):  # records such as the merge table
        return (type(a) is type(b) and len(a) == len(b)
                and all(_same(x, y) for x, y in zip(a, b)))
    return type(a) is type(b) and a == b


CASES = [dict(seed=s, vocab=v, batch=b, pair_counting=pc, stop_list_size=st, pattern=pat)
         for s, v, b, pc, st, pat in [
             (0, 300, True, "nonoverlapping", 0, "gpt4"),
             (1, 700, False, "overlapping", 3, "gpt4"),
             (2, 1200, True, "overlapping", 5, "gpt2"),
             (3, 900, False, "nonoverlapping", 0, r"\w+|\W"),
             (4, 5000, True, "nonoverlapping", 2, "gpt4"),  # runs out of pairs
         ]]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"seed{c['seed']}")
def test_trained_model_equals_validated_constructor(case):
    table = _table(case["seed"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BPEExhaustedWarning)
        model = train_bpe(table, case["vocab"], batch=case["batch"],
                          pair_counting=case["pair_counting"],
                          stop_list_size=case["stop_list_size"], pattern=case["pattern"],
                          progress=False)
    assert len(model.merges) > 10
    slow = BPEModel(list(model.merges), list(model.stop_words), batches=list(model.batches),
                    params=dict(model.params), merge_symbols=model._sym_merges.tolist(),
                    pattern=case["pattern"])
    fast, full = vars(model), vars(slow)
    assert sorted(fast) == sorted(full)
    for name in full:
        assert _same(fast[name], full[name]), name
    assert list(model.vocab) == list(slow.vocab)  # same insertion order too
    assert model == slow
    text = "".join(list(table)[:60]) + " ab'd\n"
    assert model.encode(text) == slow.encode(text)
    assert model.decode(model.encode(text)) == text


def test_trained_merges_spell_the_symbols():
    """Each merge's bytes are the bytes of the two symbols it joins (independent of
    either constructor: rebuilt here from the symbol pairs)."""
    model = train_bpe(_table(7), 800, progress=False)
    spelled = [bytes([b]) for b in range(256)]
    for (left, right), (a, b) in zip(model.merges, model._sym_merges.tolist()):
        assert (left, right) == (spelled[a], spelled[b])
        spelled.append(spelled[a] + spelled[b])
    assert sorted(model.vocab.values()) == sorted(spelled)


@pytest.mark.parametrize("pattern, name", [("gpt4", "gpt4"), ("gpt2", "gpt2"),
                                           (GPT2_PATTERN, "gpt2"), (r"\d+|\D+", r"\d+|\D+")])
def test_train_bpe_pattern(pattern, name):
    model = train_bpe({" low": 5, " lower": 2, "12345": 3}, 262, pattern=pattern,
                      progress=False)
    assert model.pattern == name
    assert train_bpe({"ab": 1}, 256, pattern=pattern, progress=False).pattern == name


def test_train_bpe_pattern_is_checked():
    with pytest.raises(TypeError):
        train_bpe({"ab": 1}, 300, pattern=None, progress=False)
    with pytest.raises(ValueError):
        train_bpe({"ab": 1}, 300, pattern="(", progress=False)


def test_gpt2_model_splits_like_gpt2():
    model = train_bpe({" 123": 4, "45": 3}, 260, pattern="gpt2", progress=False)
    assert model.split(" 12345 it's") == [" 12345", " it", "'s"]
    assert model.tokens(" 12345") == [b" 123", b"45"]


def _as_counts_loop(counts):
    """The per-entry check (the reference the fast path must agree with)."""
    out = {}
    for chunk, count in counts.items():
        if not isinstance(chunk, str):
            raise TypeError
        if not chunk:
            raise ValueError
        if isinstance(count, (bool, np.bool_)) or not isinstance(count, (int, np.integer)):
            raise TypeError
        if count <= 0 or count > 2**63 - 1:
            raise ValueError
        out[chunk] = int(count)
    return out


class Word(str):
    pass


@pytest.mark.parametrize("table", [
    {"a": 1, "bc": 2}, Counter({"x": 3, "y": 1}), {"a": np.int64(3), "b": 2},
    {Word("w"): 2}, {"a": 2**63 - 1}, {"a": 2**63}, {"a": 0, "b": 1}, {"a": 1, "": 2},
    {"a": 1, 2: 2}, {"a": 1.0}, {"a": True}, {"a": -3}, {"a": 1, "b": np.float64(2)},
])
def test_as_counts_fast_path_agrees_with_the_loop(table):
    try:
        want = _as_counts_loop(table)
    except (TypeError, ValueError) as err:
        with pytest.raises(type(err)):
            as_counts(table)
        return
    got = as_counts(table)
    assert got == want and type(got) is dict
    assert list(got) == list(want)
    assert all(type(v) is int for v in got.values())


def test_pair_total_bound_refuses_what_the_exact_check_refuses():
    big = {"a" * 17: 2**61, "bc": 1}
    with pytest.raises(ValueError, match="pair counts"):
        check_pair_total(big)
    with pytest.raises(ValueError, match="pair counts"):
        train_bpe(big, 300, progress=False)
    near = {"ab": 2**62, "c": 5}  # bound 2^62 * 7 overflows, exact total 2^62 fits
    assert check_pair_total(near) == 2**62
    assert train_bpe(near, 257, progress=False).merges == [(b"a", b"b")]
