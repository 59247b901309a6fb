"""Brute-force laws of the samplers, for words of up to ~8 characters.

Each reference walks every coin sequence (or every boundary mask) of the sampler's own
procedure, written again from its description, and adds up exact ``Fraction`` masses:

* :func:`maxmatch_coins` — Hiraoka's MaxMatch-dropout as :mod:`workbench.samplers.maxmatch`
  runs it: candidates longest first, one coin per multi-character candidate, the shortest
  taken when all are skipped, a failure when no token starts;
* :func:`bpe_dropout_coins` — BPE-dropout as the package's kernel draws it (Provilkov's
  reference semantics): a left-to-right scan of the pairs, a coin for each pair that would
  beat the best surviving one so far, one merge per step, stop when none survives;
* :func:`boundary_law` — every one of the ``2^(n-1)`` boundary masks of a word, weighted,
  kept when every token is in the vocabulary (the rejection samplers, ULM over all
  segmentations, GRaMPa at τ = 1);
* :func:`kbest_law` — ULM's k best by score (ties: fewer tokens, then length order), softmax;
* :func:`hf_run`, :func:`sentencepiece_run` — BPE-dropout as HF ``tokenizers`` and
  SentencePiece run it (written from their sources), for :func:`every_coin_sequence`, which
  replays every coin sequence; :func:`subword_nmt_law` — subword-nmt's every coin vector.
* :func:`greedy_longest` — greedy left-to-right longest match (``None`` where it is stuck);
* :func:`multiplexed_coins` — Algorithm 3 (GRaMPa §4.6): its one coin, then the stochastic
  sampler's brute-force law or the deterministic segmentation.

Nothing here imports the package. A law is ``(dict segmentation -> probability, failure)``.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction


def maxmatch_coins(word, tokens, q):
    """MaxMatch-dropout's law by branching on every coin: ``(law, failure_mass)``."""
    law, fail = {}, [Fraction(0)]
    longest = max(map(len, tokens))

    def run(i, toks, mass):
        if i == len(word):
            law[toks] = law.get(toks, 0) + mass
            return
        cands = [j for j in range(min(len(word), i + longest), i, -1) if word[i:j] in tokens]
        if not cands:
            fail[0] += mass
            return

        def scan(k, mass):  # candidate k reached: it is taken, or skipped by a coin
            if k == len(cands):  # every candidate skipped: the shortest
                run(cands[-1], toks + (word[i:cands[-1]],), mass)
                return
            j = cands[k]
            if j - i > 1 and q > 0:
                scan(k + 1, mass * q)
                if q < 1:
                    run(j, toks + (word[i:j],), mass * (1 - q))
            else:
                run(j, toks + (word[i:j],), mass)

        scan(0, mass)

    run(0, (), Fraction(1))
    return {s: p for s, p in law.items() if p}, fail[0]


def bpe_dropout_coins(word, merges, p):
    """BPE-dropout's law by branching on every coin of the kernel's scan.

    ``merges`` is a list of ``(left, right)`` strings in rank order; symbols are strings
    (the characters of ``word`` at the start). Returns ``(law, 0)``.
    """
    rank = {pair: r for r, pair in enumerate(merges)}
    law = {}

    def step(sym, mass):
        # scan pairs left to right; state (i, best, best_at) branches on each coin
        def scan(i, best, at, mass):
            if i == len(sym) - 1 or len(sym) < 2:
                if best is None:
                    key = tuple(sym)
                    law[key] = law.get(key, 0) + mass
                else:
                    step(sym[:at] + [sym[at] + sym[at + 1]] + sym[at + 2:], mass)
                return
            r = rank.get((sym[i], sym[i + 1]))
            if r is None or (best is not None and r >= best):
                scan(i + 1, best, at, mass)
                return
            if p > 0:
                scan(i + 1, best, at, mass * p)  # dropped
            if p < 1:
                scan(i + 1, r, i, mass * (1 - p))  # survives: the new best

        scan(0, None, -1, mass)

    step(list(word), Fraction(1))
    return {s: m for s, m in law.items() if m}, Fraction(0)


def boundary_law(word, tokens, weight):
    """``P(x) ∝ weight(x)`` over the segmentations of ``word`` into ``tokens``, by masks."""
    n = len(word)
    weights = {}
    for mask in itertools.product((0, 1), repeat=max(n - 1, 0)):
        cuts = [0] + [k + 1 for k in range(n - 1) if mask[k]] + [n]
        seg = tuple(word[a:b] for a, b in zip(cuts, cuts[1:])) if n else ()
        if all(t in tokens for t in seg):
            weights[seg] = weight(seg)
    total = sum(weights.values())
    return {s: w / total for s, w in weights.items() if w}, 0


def kbest_law(word, scores, k, alpha):
    """ULM k-best: the k best segmentations by score, softmax(α · score) over them."""
    segs = boundary_law(word, set(scores), lambda s: 1)[0]
    ranked = sorted(segs, key=lambda s: (-sum(scores[t] for t in s), len(s),
                                         tuple(len(t) for t in s)))[:k]
    logits = [alpha * sum(scores[t] for t in s) for s in ranked]
    top = max(logits)
    w = [math.exp(x - top) for x in logits]
    return {s: x / sum(w) for s, x in zip(ranked, w)}, 0


class _MoreCoins(Exception):
    """The replayed coin prefix ran out: branch on the next coin."""


def every_coin_sequence(run, p):
    """``run(coin)``'s law over every sequence of coins (``coin()`` True = dropped, w.p. ``p``).

    Depth-first over coin prefixes: each prefix is replayed from scratch, and a run that asks
    for one coin more is branched both ways. Returns ``dict result -> Fraction``.
    """
    law, stack = {}, [((), Fraction(1))]
    while stack:
        prefix, mass = stack.pop()
        it = iter(prefix)

        def coin(it=it):
            try:
                return next(it)
            except StopIteration:
                raise _MoreCoins from None

        try:
            out = run(coin)
        except _MoreCoins:
            if p > 0:
                stack.append((prefix + (True,), mass * p))
            if p < 1:
                stack.append((prefix + (False,), mass * (1 - p)))
            continue
        law[out] = law.get(out, 0) + mass
    return {s: m for s, m in law.items() if m}


def hf_run(word, merges):
    """HF ``tokenizers``' ``Word::merge_all`` (dropout) as a function of a coin source."""
    table = {pair: (r, pair[0] + pair[1]) for r, pair in enumerate(merges)}

    def run(coin):
        sym = list(word)  # by original index; None once merged into the left neighbour
        heap = [(table[pair][0], i, table[pair][1])
                for i, pair in enumerate(zip(word, word[1:])) if pair in table]
        skip = []
        while heap:
            top = min(heap)
            heap.remove(top)
            if coin():
                skip.append(top)
                continue
            heap.extend(skip)
            skip = []
            _, pos, new = top
            nxt = next((j for j in range(pos + 1, len(sym)) if sym[j] is not None), None)
            if sym[pos] is None or nxt is None or table.get((sym[pos], sym[nxt]),
                                                            (0, None))[1] != new:
                continue  # stale
            sym[pos], sym[nxt] = new, None
            prv = next((j for j in range(pos - 1, -1, -1) if sym[j] is not None), None)
            after = next((j for j in range(pos + 1, len(sym)) if sym[j] is not None), None)
            if prv is not None and (sym[prv], new) in table:
                heap.append((table[(sym[prv], new)][0], prv, table[(sym[prv], new)][1]))
            if after is not None and (new, sym[after]) in table:
                heap.append((table[(new, sym[after])][0], pos, table[(new, sym[after])][1]))
        return tuple(s for s in sym if s is not None)

    return run


def sentencepiece_run(word, merges):
    """SentencePiece's ``bpe::Model::SampleEncode``: pieces are the merges' products, a pair
    is any two adjacent symbols spelling a piece (score: its first merge), a skipped entry
    is dropped."""
    score = {}
    for r, (a, b) in enumerate(merges):
        score.setdefault(a + b, r)

    def run(coin):
        sym = list(word)
        agenda = []

        def push(left, right):
            if left is not None and right is not None and sym[left] + sym[right] in score:
                agenda.append((score[sym[left] + sym[right]], left, right,
                               len(sym[left] + sym[right])))

        def alive(i, step):
            while 0 <= i < len(sym) and sym[i] == "":
                i += step
            return i if 0 <= i < len(sym) else None

        for i in range(1, len(sym)):
            push(i - 1, i)
        while agenda:
            top = min(agenda)
            agenda.remove(top)
            _, left, right, size = top
            if not sym[left] or not sym[right] or len(sym[left]) + len(sym[right]) != size:
                continue
            if coin():
                continue
            sym[left], sym[right] = sym[left] + sym[right], ""
            push(alive(left - 1, -1), left)
            push(left, alive(left + 1, 1))
        return tuple(s for s in sym if s)

    return run


def subword_nmt_law(word, merges, p):
    """subword-nmt's ``encode`` (dropout): every coin vector of every step, exact.

    The state is the symbol sequence alone, so the law of each one is kept (memoised).
    """
    codes = {pair: r for r, pair in enumerate(merges)}
    memo = {}

    def law_of(w):
        if w in memo:
            return memo[w]
        pairs = [(i, pair) for i, pair in enumerate(zip(w, w[1:])) if pair in codes]
        out = {}
        for kept in itertools.product((False, True), repeat=len(pairs)):
            mass = Fraction(1)
            for k in kept:
                mass *= (1 - p) if k else p
            if not mass:
                continue
            alive = [(codes[pair], i, pair) for (i, pair), k in zip(pairs, kept) if k]
            if not alive:
                out[w] = out.get(w, 0) + mass
                continue
            bigram = min(alive)[2]
            new, i = [], 0
            for j in [i for _, i, pair in alive if pair == bigram]:
                if j < i:
                    continue
                new.extend(w[i:j])
                new.append(bigram[0] + bigram[1])
                i = j + 2
            new.extend(w[i:])
            for seg, m in law_of(tuple(new)).items():
                out[seg] = out.get(seg, 0) + mass * m
        memo[w] = out
        return out

    return {s: m for s, m in law_of(tuple(word)).items() if m}


def greedy_longest(word, tokens):
    """Greedy left-to-right longest match; ``None`` when no token starts where it stands."""
    out, i = [], 0
    while i < len(word):
        ends = [j for j in range(len(word), i, -1) if word[i:j] in tokens]
        if not ends:
            return None
        out.append(word[i:ends[0]])
        i = ends[0]
    return tuple(out)


def multiplexed_coins(word, p, stochastic, deterministic):
    """Algorithm 3's law by branching on its coin: ``(law, failure_mass)``.

    Heads (mass ``p``): every outcome of ``stochastic(word)``, a brute-force ``(law,
    failure)`` of the stochastic sampler. Tails (mass ``1 − p``): ``deterministic(word)``, a
    tuple of tokens, or ``None`` when the deterministic tokeniser fails (a failure).
    """
    law, fail = {}, 0
    heads, heads_fail = stochastic(word)
    for seg, mass in heads.items():
        law[seg] = law.get(seg, 0) + p * mass
    fail += p * heads_fail
    tails = deterministic(word)
    if tails is None:
        fail += 1 - p
    else:
        law[tails] = law.get(tails, 0) + (1 - p)
    return {s: m for s, m in law.items() if m}, fail
