"""The double-array trie: every (node, code) pair, including the 0 end-of-word code.

The kernels walk the trie with no bounds or end-of-word test (see ``workbench._core.trie``): they
rely on the array being padded so that ``base[s] + c`` is inside it for every node ``s``
and code ``0 <= c <= A``, and on no cell being a child along code 0. Numba does not check
bounds, so a gap in that padding would read past the array silently; here every pair is
tried with NumPy indexing, which raises instead.
"""

from __future__ import annotations

import numpy as np
import pytest
from hangguard import hang_guard

from workbench._core.trie import build_trie, child, step, word_codes


def _random_tokens(rng: np.random.Generator, alphabet: str, n_tokens: int, max_len: int):
    tokens = set()
    while len(tokens) < n_tokens:
        length = int(rng.integers(1, max_len + 1))
        tokens.add("".join(rng.choice(list(alphabet), size=length)))
    return sorted(tokens)


def _naive_children(tokens: list[str]) -> dict[str, set[str]]:
    """prefix -> the characters that extend it to another prefix of some token."""
    children: dict[str, set[str]] = {"": set()}
    for tok in tokens:
        for k in range(len(tok)):
            children.setdefault(tok[:k], set()).add(tok[k])
            children.setdefault(tok[: k + 1], set())
    return children


def _walk_all(trie, tokens, ids):
    """Visit every node by its prefix; compare every code's child with the naive trie."""
    base, check, terminal = trie.da
    size = base.shape[0]
    n_codes = int(trie.codes.max(initial=0))
    char_of = {int(trie.codes[ord(ch)]): ch for ch in {c for t in tokens for c in t}}
    id_of = dict(zip(tokens, ids))
    naive = _naive_children(tokens)
    stack = [("", 0)]
    seen = 0
    while stack:
        prefix, node = stack.pop()
        seen += 1
        assert int(terminal[node]) == id_of.get(prefix, -1)
        for c in range(n_codes + 1):
            t = int(base[node]) + c
            assert 0 <= t < size, f"node {node} code {c}: cell {t} is outside the array"
            is_child = int(check[t]) == node
            expected = c != 0 and char_of[c] in naive[prefix]
            assert is_child == expected, (prefix, c)
            assert int(child(base, check, node, c)) == (t if expected else -1)
            if expected:
                stack.append((prefix + char_of[c], t))
    assert seen == len(naive)


@pytest.mark.parametrize("seed", range(8))
def test_every_node_and_code_matches_a_naive_trie(seed):
    rng = np.random.default_rng(seed)
    alphabet = "abcdefgh"[: 2 + seed % 6]
    tokens = _random_tokens(rng, alphabet, n_tokens=int(rng.integers(1, 40)), max_len=6)
    ids = rng.permutation(1000)[: len(tokens)].tolist()
    _walk_all(build_trie(tokens, ids), tokens, ids)


def test_padding_covers_the_last_node_with_the_largest_code():
    """A lone deep token puts its leaf near the end of the array; base 0 of a leaf plus the
    largest code must still land inside (the padding rule, not the used size, decides)."""
    tokens = ["z", "abcdefghijklmnopqrstuvwxy"]
    _walk_all(build_trie(tokens, [0, 1]), tokens, [0, 1])


def test_single_character_and_empty_vocabularies():
    _walk_all(build_trie(["a"], [5]), ["a"], [5])
    empty = build_trie([], [])
    assert step(empty.da, empty.codes, 0, ord("a")) == -1


def test_word_codes_map_unknown_characters_to_zero_and_end_with_zero():
    trie = build_trie(["ab", "b"], [0, 1])
    cps = np.array([ord(c) for c in "xabé\U0001F600"], dtype=np.int32)
    out = np.full(cps.shape[0] + 1, 99, dtype=np.int32)
    word_codes(cps, 0, cps.shape[0], False, trie.codes, out)
    code = {ch: int(trie.codes[ord(ch)]) for ch in "ab"}
    assert out.tolist() == [0, code["a"], code["b"], 0, 0, 0]
    word_codes(cps, 1, 2, True, trie.codes, out)  # "ab" read backwards
    assert out[:3].tolist() == [code["b"], code["a"], 0]


@pytest.mark.slow  # a 270k-token build (~25 s)
def test_build_is_not_quadratic_over_a_large_alphabet():
    """Issue 19: holes in the dense prefix were rescanned by every node (270 k tokens over
    3,000 CJK characters: 47 s); the bounded first fit builds them in a few seconds, and
    every token is still found under its id."""
    rng = np.random.default_rng(0)
    lengths = rng.integers(1, 4, 400_000)
    tokens = sorted({"".join(chr(0x4E00 + int(c)) for c in rng.integers(0, 3000, n))
                     for n in lengths})
    with hang_guard(1.5, "a 270k-token trie over 3,000 characters"):
        trie = build_trie(tokens, np.arange(len(tokens)))
    for tid in range(0, len(tokens), 997):
        node = 0
        for ch in tokens[tid]:
            node = step(trie.da, trie.codes, node, ord(ch))
        assert int(trie.da[2, node]) == tid
