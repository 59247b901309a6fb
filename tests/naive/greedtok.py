"""Plain-Python GreedTok, GreedWMC and exact partition cover, written from the paper's text.

Nothing is imported from :mod:`workbench`. Words are ``bytes``; a word's *state* is a list of
booleans, one per adjacent pair (``marks[p]``: bytes ``p`` and ``p+1`` are in one token).
Every greedy step re-scores every remaining candidate from scratch on a copy of the state
(App. D.1, Alg. 1–3), so it is slow and obviously faithful.

Ties everywhere: the larger gain wins, then the shorter token, then the smaller bytes.
"""

from __future__ import annotations

from itertools import combinations


def to_bytes_table(counts, min_word_count=1):
    """``{word_bytes: count}`` of the words seen at least ``min_word_count`` times."""
    return {w.encode("utf-8"): c for w, c in counts.items() if c >= min_word_count}


def candidates(words, max_len):
    """Every substring of length 2..max_len of the words."""
    out = set()
    for w in words:
        for i in range(len(w)):
            for j in range(i + 2, min(len(w), i + max_len) + 1):
                out.add(w[i:j])
    return out


def positions(token, word):
    """Start of every (possibly overlapping) occurrence of ``token`` in ``word``."""
    return [i for i in range(len(word) - len(token) + 1) if word[i:i + len(token)] == token]


def can_cover(marks, i, length):
    """Alg. 2: the occurrence at ``i`` would not cut an existing token."""
    left_free = i == 0 or not marks[i - 1]
    right = i + length - 1
    right_free = right >= len(marks) or not marks[right]
    return left_free and right_free


def apply_token(token, word, marks):
    """Apply every valid occurrence left to right (mutates ``marks``); newly marked pairs."""
    gain = 0
    for i in positions(token, word):
        if can_cover(marks, i, len(token)):
            for p in range(i, i + len(token) - 1):
                if not marks[p]:
                    marks[p] = True
                    gain += 1
    return gain


def score(token, word, marks):
    """Alg. 3: the gain of ``token`` in ``word``, computed on a copy of the state."""
    return apply_token(token, word, list(marks))


def segmentation(word, marks):
    """Split ``word`` at the unmarked pairs."""
    pieces, start = [], 0
    for p in range(len(word) - 1):
        if not marks[p]:
            pieces.append(word[start:p + 1])
            start = p + 1
    pieces.append(word[start:])
    return pieces


def greedtok(counts, k, max_len=16, min_word_count=1):
    """GreedTok with exhaustive re-scoring. Returns (tokens, gains, {word: marks})."""
    table = to_bytes_table(counts, min_word_count)
    state = {w: [False] * (len(w) - 1) for w in table}
    remaining = candidates(table, max_len)
    tokens, gains = [], []
    while len(tokens) < k and remaining:
        scored = []
        for t in remaining:
            s = sum(c * score(t, w, state[w]) for w, c in table.items())
            scored.append((-s, len(t), t))
        neg, _, best = min(scored)
        if neg == 0:
            break
        total = sum(c * apply_token(best, w, state[w]) for w, c in table.items())
        assert total == -neg
        tokens.append(best)
        gains.append(total)
        remaining.discard(best)
    return tokens, gains, state


def encode(tokens, word):
    """Alg. 4: all occurrences sorted by (rank, position), each applied if valid."""
    occ = sorted((r, i) for r, t in enumerate(tokens) for i in positions(t, word))
    marks = [False] * (len(word) - 1)
    for r, i in occ:
        t = tokens[r]
        if can_cover(marks, i, len(t)):
            for p in range(i, i + len(t) - 1):
                marks[p] = True
    return segmentation(word, marks)


def greedwmc(counts, k, max_len=16, min_word_count=1):
    """Greedy weighted max coverage: elements (word, pair), sets = pairs any occurrence covers."""
    table = to_bytes_table(counts, min_word_count)
    sets = {}
    for t in candidates(table, max_len):
        sets[t] = {(w, p) for w in table for i in positions(t, w)
                   for p in range(i, i + len(t) - 1)}
    covered = set()
    tokens, gains = [], []
    while len(tokens) < k and sets:
        neg, _, best = min((-sum(table[w] for w, p in s - covered), len(t), t)
                           for t, s in sets.items())
        if neg == 0:
            break
        covered |= sets.pop(best)
        tokens.append(best)
        gains.append(-neg)
    return tokens, gains


def min_partition(word, tokens):
    """Fewest pieces from ``tokens`` ∪ single bytes that concatenate to ``word`` (DP)."""
    best = [0] + [len(word) + 1] * len(word)
    for j in range(1, len(word) + 1):
        for i in range(j):
            if j - i == 1 or word[i:j] in tokens:
                best[j] = min(best[j], best[i] + 1)
    return best[len(word)]


def optimum_cost(words, cands, k):
    """Min over token subsets ``S`` of ``cands`` with ``|S| <= k`` of Σ count·partition."""
    best = None
    for size in range(k + 1):
        for subset in combinations(sorted(cands), size):
            s = set(subset)
            cost = sum(c * min_partition(w, s) for w, c in words.items())
            best = cost if best is None else min(best, cost)
    return best
