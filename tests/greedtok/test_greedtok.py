"""Exact objective, Table 1 witnesses, GreedWMC and β, and Theorem 1's reduction."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import greedtok as naive

from workbench.greedtok import (
    beta_curve,
    check_reduction,
    find_modularity_witness,
    has_vertex_cover,
    optimum,
    partition,
    train_greedtok,
    train_greedwmc,
    verify_all_graphs,
    vertex_cover_instance,
)

corpora = st.dictionaries(st.text(alphabet="abc", min_size=1, max_size=9),
                          st.integers(1, 5), min_size=1, max_size=6)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="ab", min_size=1, max_size=10),
       st.sets(st.text(alphabet="ab", min_size=2, max_size=4), max_size=5))
def test_partition_equals_reference(word, tokens):
    assert partition(word, tokens) == naive.min_partition(word, tokens)


@pytest.mark.parametrize("kind", ["submodular", "supermodular"])
def test_table1_witnesses(kind):
    w = find_modularity_witness(kind)
    print(w)  # the paper's Table 1, found by search
    assert set(w.a) <= set(w.b) and w.x not in w.b

    def f(s):
        return len(w.word) - naive.min_partition(w.word, set(s))

    ga = f({*w.a, w.x}) - f(w.a)
    gb = f({*w.b, w.x}) - f(w.b)
    assert (ga, gb) == (w.gain_a, w.gain_b)
    assert gb > ga if kind == "submodular" else gb < ga


@settings(max_examples=60, deadline=None)
@given(corpora, st.integers(1, 8), st.integers(2, 5))
def test_greedwmc_equals_reference(counts, k, max_len):
    res = train_greedwmc(counts, k, max_token_length=max_len, progress=False)
    assert (res.tokens, res.gains) == naive.greedwmc(counts, k, max_len)


@settings(max_examples=40, deadline=None)
@given(corpora, st.integers(1, 8))
def test_beta_curve_is_the_ratio_and_bounded(counts, k):
    curve = beta_curve(counts, k, max_token_length=5, progress=False)
    _, tok_gains, _ = naive.greedtok(counts, k, 5)
    _, wmc_gains = naive.greedwmc(counts, k, 5)
    for j in range(k):
        tok, wmc = sum(tok_gains[:j + 1]), sum(wmc_gains[:j + 1])
        assert (curve.greedtok[j], curve.greedwmc[j]) == (tok, wmc)
        assert curve.beta[j] == pytest.approx(tok / wmc if wmc else 1.0, rel=1e-12)
        assert curve.beta[j] <= math.e / (math.e - 1) + 1e-12  # OPT_WMC >= OPT >= GreedTok


def test_reduction_instance_shape():
    inst = vertex_cover_instance([("x", "y"), ("y", "z"), ("z", "x")], 2)
    assert inst.counts == {"$a$b$": 1, "$a$c$": 1, "$b$c$": 1}
    assert inst.candidates == ["$a$", "$b$", "$c$"] and inst.vertices == ["x", "y", "z"]
    cost, chosen = optimum(inst)
    assert cost == 9 and len(chosen) == 2
    # the exhaustive optimum agrees with the plain reference's own exhaustive search
    assert cost == naive.optimum_cost(inst.counts, set(inst.candidates), 2)
    assert optimum(vertex_cover_instance([("x", "y"), ("y", "z"), ("z", "x")], 1))[0] == 11


def test_reduction_on_every_graph_up_to_5_vertices():
    assert verify_all_graphs(5) == 2 + 6 + 32 + 320 + 6144


@pytest.mark.slow
def test_reduction_on_every_graph_with_6_vertices():
    assert verify_all_graphs(6) == 6504 + 7 * 2**15


def test_reduction_on_random_larger_graphs():
    rng = random.Random(10)
    for _ in range(12):
        n = rng.randint(7, 9)
        p = rng.choice([0.2, 0.4, 0.6])
        edges = [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < p]
        for k in range(n + 1):
            assert check_reduction(edges, k, vertices=range(n))


def test_reduction_cross_checked_with_reference_on_small_graphs():
    rng = random.Random(4)
    for _ in range(6):
        edges = [(u, v) for u in range(4) for v in range(u + 1, 4) if rng.random() < 0.5]
        for k in range(3):
            inst = vertex_cover_instance(edges, k, vertices=range(4))
            ref = naive.optimum_cost(inst.counts, set(inst.candidates), k)
            assert optimum(inst)[0] == ref
            assert (ref == 3 * len(edges)) == has_vertex_cover(edges, k, vertices=range(4))


def test_greedtok_on_the_instance_reaches_a_cover_on_a_star():
    # GreedTok (over all substrings) picks "$c$" first on a star centred at c
    inst = vertex_cover_instance([(2, 0), (2, 1), (2, 3)], 1)
    model = train_greedtok(inst.counts, 1, progress=False)
    assert model.tokens == [b"$c$"]


@pytest.mark.parametrize("graph, error", [
    ([(0, 0)], ValueError),
    ([(0, 1, 2)], TypeError),
    (["ab"], TypeError),
    (5, TypeError),
    ([(i, i + 1) for i in range(17)], ValueError),
])
def test_reduction_bad_graphs(graph, error):
    with pytest.raises(error):
        vertex_cover_instance(graph, 1)


def test_modularity_witness_checks_its_alphabet_and_enumerates_lazily():
    """Probe named in the time-budget work: the alphabet went unchecked, and each word length
    was built whole (a large alphabet materialised len(alphabet)**4 words before the first)."""
    import string

    from workbench.greedtok.objective import find_modularity_witness

    for bad, err in (("", TypeError), (5, TypeError), ("aa", ValueError),
                     (string.printable, ValueError)):
        with pytest.raises(err, match="alphabet"):
            find_modularity_witness("submodular", alphabet=bad)
    # the witness over the full lower-case alphabet is the one over "ab" (words in order)
    assert find_modularity_witness("submodular", alphabet="ab", max_word_length=4).word == "aaba"
    assert find_modularity_witness("supermodular", alphabet=string.ascii_lowercase).word == "aaa"
