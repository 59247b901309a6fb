"""Slow, obviously-correct references that every kernel is tested against.

Everything here is written from the text of the GRaMPa paper (Bauwens et al., §4.1–4.5,
Algorithms 1–2, Eq. 2 and Eq. 4), *not* from :mod:`workbench`: nothing is imported from the
package. The code uses plain loops, string slicing and set lookups, exact Python ``int``
path counts and :class:`fractions.Fraction` where an exact answer is wanted. It is meant
for words of a few dozen characters; speed is not a goal, readability is.

Conventions
-----------
``word`` is a ``str`` with ``n`` code points; node ``k`` sits before character ``k``, so
an arc ``(i, j)`` with ``0 <= i < j <= n`` spells the token ``word[i:j]``.

``vocab_set`` is a Python set (or any container) of ``str`` tokens, or the string
``"infinite"``, meaning every non-empty string is a token.

``direction`` is ``"r2l"`` (the paper's order: build counts from the left, sample from the
right end backwards) or ``"l2r"`` (the exact mirror: build from the right, sample from the
left end forwards). ``l2r`` is always computed *literally* as the mirror: reverse the word
and every token, run ``r2l`` and map arcs back with ``(i, j) -> (n - j, n - i)``.

``tau`` is the temperature of power normalisation ``PN_alpha`` with ``alpha = 1 / tau``
(Eq. 4); ``tau = ±inf`` means ``alpha = 0`` (uniform over the arcs of a node).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

INFINITE = "infinite"
DIRECTIONS = ("l2r", "r2l")

# A vocabulary consistent with the caption of the paper's Figure 1, found by an exhaustive
# search over subsets of the substrings of GRAMPA that contain M, AM, GRAM, P and A but
# not RAM: 16 segmentations; in direction r2l the arcs M, AM, GRAM into node 4 come from
# nodes 3, 2, 0 with path counts 4, 2, 1 of the 7 at node 4 (all counts: 1 1 2 4 7 9 16).
FIGURE1_WORD = "GRAMPA"
FIGURE1_VOCAB = ("A", "G", "M", "P", "R", "AM", "GR", "PA", "RA", "AMP", "GRA", "GRAM")


# --------------------------------------------------------------------------- basics
def in_vocab(token: str, vocab_set) -> bool:
    """Is ``token`` a token of ``vocab_set`` (every non-empty string if ``"infinite"``)?"""
    if isinstance(vocab_set, str):
        if vocab_set != INFINITE:
            raise ValueError(f"vocab_set must be a set of str or 'infinite', got {vocab_set!r}")
        return len(token) > 0
    return token in vocab_set


def reverse_vocab(vocab_set):
    """Every token spelled backwards (``"infinite"`` stays ``"infinite"``)."""
    if isinstance(vocab_set, str):
        in_vocab("", vocab_set)  # validates the string
        return vocab_set
    return {t[::-1] for t in vocab_set}


def arcs(word: str, vocab_set) -> list[tuple[int, int]]:
    """All ``(i, j)`` with ``word[i:j]`` in the vocabulary, sorted."""
    n = len(word)
    out = []
    for i in range(n):
        for j in range(i + 1, n + 1):
            if in_vocab(word[i:j], vocab_set):
                out.append((i, j))
    return out


def count_segmentations(word: str, vocab_set) -> int:
    """Number of ways to write ``word`` as a concatenation of tokens (exact; 1 for "")."""
    n = len(word)
    memo: dict[int, int] = {}

    def ways_from(i: int) -> int:
        # number of segmentations of word[i:]
        if i == n:
            return 1
        if i not in memo:
            memo[i] = sum(
                ways_from(j) for j in range(i + 1, n + 1) if in_vocab(word[i:j], vocab_set)
            )
        return memo[i]

    return ways_from(0)


def enumerate_segmentations(word: str, vocab_set) -> list[tuple[str, ...]]:
    """Every segmentation of ``word`` as a tuple of tokens (``[()]`` for the empty word)."""
    if word == "":
        return [()]
    result = []
    for j in range(1, len(word) + 1):
        head = word[:j]
        if in_vocab(head, vocab_set):
            for rest in enumerate_segmentations(word[j:], vocab_set):
                result.append((head,) + rest)
    return result


# --------------------------------------------------------------------------- walked graph
def _check(ell_min: int, direction: str) -> None:
    if isinstance(ell_min, bool) or not isinstance(ell_min, int) or ell_min < 1:
        raise ValueError(f"ell_min must be an int >= 1, got {ell_min!r}")
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be 'l2r' or 'r2l', got {direction!r}")


def _walked_graph_r2l(word: str, vocab_set, ell_min: int) -> list[tuple[int, int]]:
    """Algorithm 1's arc selection, plus: only arcs leaving reachable nodes are kept."""
    n = len(word)
    kept: list[tuple[int, int]] = []

    def has_kept_arc_into(k: int) -> bool:
        return any(b == k for _, b in kept)

    def reachable(k: int) -> bool:
        # node 0 is the start; any other node is reachable iff a kept arc arrives in it
        # (kept arcs only ever leave reachable nodes, so this is reachability from 0)
        return k == 0 or has_kept_arc_into(k)

    for i in range(n):
        for j in range(i + 1, n + 1):
            if not in_vocab(word[i:j], vocab_set):
                continue
            if not reachable(i):
                continue
            if j - i >= ell_min or not has_kept_arc_into(j):
                kept.append((i, j))
    return sorted(kept)


def walked_graph(word: str, vocab_set, ell_min: int = 1, direction: str = "l2r"):
    """The arcs GRaMPa's construction keeps, in the word's own coordinates, sorted.

    ``r2l``: loop ``i = 0..n-1``, ``j = i+1..n``; arc ``i -> j`` (a token) is kept iff node
    ``i`` is reachable from node 0 through kept arcs and (``j - i >= ell_min`` or node ``j``
    has no kept incoming arc yet). ``l2r`` is the mirror of ``r2l`` on the reversed word and
    the reversed vocabulary.
    """
    _check(ell_min, direction)
    if direction == "r2l":
        return _walked_graph_r2l(word, vocab_set, ell_min)
    n = len(word)
    rev = _walked_graph_r2l(word[::-1], reverse_vocab(vocab_set), ell_min)
    return sorted((n - j, n - i) for i, j in rev)


def count_paths(n: int, arc_list, start: int = 0, end: int | None = None) -> int:
    """Number of paths from node ``start`` to node ``end`` (default ``n``) using ``arc_list``."""
    end = n if end is None else end
    out_of: dict[int, list[int]] = {}
    for i, j in arc_list:
        out_of.setdefault(i, []).append(j)
    memo: dict[int, int] = {}

    def paths_from(k: int) -> int:
        if k == end:
            return 1
        if k not in memo:
            memo[k] = sum(paths_from(j) for j in out_of.get(k, []))
        return memo[k]

    return paths_from(start)


def count_walked_paths(word: str, vocab_set, ell_min: int = 1, direction: str = "l2r") -> int:
    """Number of complete paths (node 0 to node n) through :func:`walked_graph`."""
    return count_paths(len(word), walked_graph(word, vocab_set, ell_min, direction))


def enumerate_walked_paths(
    word: str, vocab_set, ell_min: int = 1, direction: str = "l2r"
) -> list[tuple[str, ...]]:
    """Every complete path through :func:`walked_graph`, as a tuple of tokens."""
    n = len(word)
    graph = walked_graph(word, vocab_set, ell_min, direction)

    def paths_from(k: int) -> list[tuple[str, ...]]:
        if k == n:
            return [()]
        out = []
        for i, j in graph:
            if i == k:
                for rest in paths_from(j):
                    out.append((word[i:j],) + rest)
        return out

    return paths_from(0)


def path_counts(word: str, vocab_set, ell_min: int = 1, direction: str = "l2r") -> list[int]:
    """Algorithm 1's counters ``c``: ``c[k]`` = number of walked-graph paths between node
    ``k`` and the node the construction starts from (node 0 for r2l, node n for l2r)."""
    n = len(word)
    graph = walked_graph(word, vocab_set, ell_min, direction)
    if direction == "r2l":
        return [count_paths(n, graph, start=0, end=k) for k in range(n + 1)]
    return [count_paths(n, graph, start=k, end=n) for k in range(n + 1)]


def reachable(word: str, vocab_set, ell_min: int = 1, direction: str = "l2r") -> list[bool]:
    """``[c_k > 0 for each node k]``: nodes the construction reaches from its start node."""
    return [c > 0 for c in path_counts(word, vocab_set, ell_min, direction)]


# --------------------------------------------------------------------------- probabilities
def _alpha(tau) -> float:
    if tau == 0:
        raise ValueError("tau must be non-zero")
    if isinstance(tau, float) and math.isinf(tau):
        return 0.0
    return 1.0 / float(tau)


def _exact_alpha(tau) -> int:
    if isinstance(tau, float) and math.isinf(tau):
        return 0
    if tau == 0:
        raise ValueError("tau must be non-zero")
    alpha = 1 / Fraction(tau)
    if alpha.denominator != 1:
        raise ValueError(f"exact probabilities need 1/tau to be an integer, got tau={tau!r}")
    return int(alpha)


def _r2l_incoming_ratios(word: str, vocab_set, ell_min: int) -> dict[int, list]:
    """For each node j: ``[(i, c_i, c_j), ...]`` over the kept arcs ``i -> j`` (Eq. 2)."""
    graph = walked_graph(word, vocab_set, ell_min, "r2l")
    c = path_counts(word, vocab_set, ell_min, "r2l")
    into: dict[int, list] = {}
    for i, j in graph:
        into.setdefault(j, []).append((i, c[i], c[j]))
    return into


def _mirror_arcs(n: int, probs: dict) -> dict:
    return {(n - j, n - i): p for (i, j), p in probs.items()}


def transition_probabilities(
    word: str, vocab_set, tau=1.0, ell_min: int = 1, direction: str = "l2r"
) -> dict[tuple[int, int], float]:
    """Sampling probability of every walked-graph arc, as Python floats.

    ``r2l``: arc ``(i, j)`` is chosen, when the sampler stands in node ``j``, with
    ``PN_alpha(p)`` where ``p = c_i / c_j`` over the kept arcs into ``j`` and
    ``alpha = 1 / tau``. ``l2r``: the mirror; arc ``(i, j)`` is chosen, when the sampler
    stands in node ``i`` walking right, with the probability of the mirrored arc.
    """
    _check(ell_min, direction)
    alpha = _alpha(tau)
    if direction == "l2r":
        n = len(word)
        rev = transition_probabilities(word[::-1], reverse_vocab(vocab_set), tau, ell_min,
                                       "r2l")
        return _mirror_arcs(n, rev)
    probs: dict[tuple[int, int], float] = {}
    for j, incoming in _r2l_incoming_ratios(word, vocab_set, ell_min).items():
        # p = c_i / c_j > 0; p ** alpha computed as exp(alpha * log p), shifted by the
        # largest exponent so that neither huge counts nor negative alpha overflow
        exponents = [alpha * (math.log(ci) - math.log(cj)) for _, ci, cj in incoming]
        top = max(exponents)
        weights = [math.exp(e - top) for e in exponents]
        total = sum(weights)
        for (i, _, _), w in zip(incoming, weights):
            probs[(i, j)] = w / total
    return probs


def transition_probabilities_exact(
    word: str, vocab_set, tau=1, ell_min: int = 1, direction: str = "l2r"
) -> dict[tuple[int, int], Fraction]:
    """:func:`transition_probabilities` as exact Fractions.

    Exact only where ``alpha = 1 / tau`` is an integer: ``tau = 1`` (the paper's uniform
    sampler, ``p = c_i / c_j``), ``tau = -1``, ``tau = ±inf`` (``alpha = 0``), ``tau = 1/2``...
    """
    _check(ell_min, direction)
    alpha = _exact_alpha(tau)
    if direction == "l2r":
        n = len(word)
        rev = transition_probabilities_exact(word[::-1], reverse_vocab(vocab_set), tau,
                                             ell_min, "r2l")
        return _mirror_arcs(n, rev)
    probs: dict[tuple[int, int], Fraction] = {}
    for j, incoming in _r2l_incoming_ratios(word, vocab_set, ell_min).items():
        weights = [Fraction(ci, cj) ** alpha for _, ci, cj in incoming]
        total = sum(weights)
        for (i, _, _), w in zip(incoming, weights):
            probs[(i, j)] = w / total
    return probs


def _distribution(word: str, vocab_set, ell_min: int, direction: str, probs: dict, one):
    n = len(word)
    graph = walked_graph(word, vocab_set, ell_min, direction)
    dist: dict[tuple[str, ...], object] = {}

    def walk(k: int, tokens: tuple[str, ...], prob) -> None:
        # every complete path 0 -> n; probability = product of its arcs' probabilities
        if k == n:
            dist[tokens] = dist.get(tokens, 0) + prob
            return
        for i, j in graph:
            if i == k:
                walk(j, tokens + (word[i:j],), prob * probs[(i, j)])

    walk(0, (), one)
    return dist


def segmentation_distribution(
    word: str, vocab_set, tau=1.0, ell_min: int = 1, direction: str = "l2r"
) -> dict[tuple[str, ...], float]:
    """Probability of every segmentation the sampler can return (floats).

    The sampler is a Markov chain over nodes: r2l starts in node ``n`` and walks backwards
    choosing incoming arcs, l2r starts in node 0 and walks forwards choosing outgoing arcs;
    a segmentation's probability is the product of its arcs' transition probabilities.
    Empty if the word cannot be segmented; ``{(): 1.0}`` for the empty word.
    """
    probs = transition_probabilities(word, vocab_set, tau, ell_min, direction)
    return _distribution(word, vocab_set, ell_min, direction, probs, 1.0)


def segmentation_distribution_exact(
    word: str, vocab_set, tau=1, ell_min: int = 1, direction: str = "l2r"
) -> dict[tuple[str, ...], Fraction]:
    """:func:`segmentation_distribution` as exact Fractions (``1/tau`` an integer)."""
    probs = transition_probabilities_exact(word, vocab_set, tau, ell_min, direction)
    return _distribution(word, vocab_set, ell_min, direction, probs, Fraction(1))


def sample_path_probability(
    segmentation, word: str, vocab_set, tau=1.0, ell_min: int = 1, direction: str = "l2r"
) -> float:
    """Probability that the sampler returns ``segmentation`` (0 if it cannot)."""
    return segmentation_distribution(word, vocab_set, tau, ell_min, direction).get(
        tuple(segmentation), 0.0
    )


def sample(
    word: str, vocab_set, tau=1.0, ell_min: int = 1, direction: str = "l2r",
    rng: random.Random | None = None,
) -> tuple[str, ...]:
    """One segmentation drawn as Algorithm 2 does (for r2l; the mirror for l2r).

    Raises ``ValueError`` if the word has no segmentation.
    """
    rng = random.Random(0) if rng is None else rng
    n = len(word)
    probs = transition_probabilities(word, vocab_set, tau, ell_min, direction)
    if n > 0 and count_walked_paths(word, vocab_set, ell_min, direction) == 0:
        raise ValueError(f"{word!r} has no segmentation")
    tokens: list[str] = []
    if direction == "r2l":
        j = n
        while j != 0:
            choices = [(i, p) for (i, jj), p in sorted(probs.items()) if jj == j]
            i = rng.choices([a for a, _ in choices], weights=[p for _, p in choices])[0]
            tokens.insert(0, word[i:j])
            j = i
    else:
        i = 0
        while i != n:
            choices = [(j, p) for (ii, j), p in sorted(probs.items()) if ii == i]
            j = rng.choices([b for b, _ in choices], weights=[p for _, p in choices])[0]
            tokens.append(word[i:j])
            i = j
    return tuple(tokens)


# --------------------------------------------------------------------------- statistics
def token_count_pmf(distribution: dict, n: int) -> list:
    """``[P(m = k) for k in 0..n]``, ``m`` the number of tokens (Fractions stay exact)."""
    pmf = [0] * (n + 1)
    for tokens, prob in distribution.items():
        pmf[len(tokens)] += prob
    return pmf


def token_length_pmf(distribution: dict, n: int) -> list:
    """Pooled share of tokens of each length ``l = 0..n``: ``E[#tokens of length l] / E[m]``.

    Index 0 is always 0; all zeros if ``E[m] = 0`` (the empty word).
    """
    expected = [0] * (n + 1)
    for tokens, prob in distribution.items():
        for t in tokens:
            expected[len(t)] += prob
    mean_m = sum(expected)
    if mean_m == 0:
        return expected
    return [e / mean_m for e in expected]


def expected_token_count(distribution: dict):
    """``E[m]`` under ``distribution``."""
    return sum(prob * len(tokens) for tokens, prob in distribution.items())


def small_cases(seed: int, k: int = 15):
    """``k`` random (word, token list) pairs: words of 2–9 letters over ``a``, ``b`` and
    vocabularies of ``a``, ``b`` plus about half of the word's substrings of length 2–4."""
    import numpy as np

    rng = np.random.default_rng(seed)
    for _ in range(k):
        n = int(rng.integers(2, 10))
        word = "".join(rng.choice(list("ab"), size=n))
        subs = sorted({word[i:j] for i in range(n) for j in range(i + 2, min(n, i + 4) + 1)})
        vocab = ["a", "b"] + [s for s in subs if rng.random() < 0.5]
        yield word, vocab
