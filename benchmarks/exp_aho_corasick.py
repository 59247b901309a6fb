"""Experiment (dropped): Algorithm 1 over an Aho–Corasick automaton, not a trie walk per start.

The kept fused kernel (:func:`workbench.grampa._short_word`) finds the arcs of a word's
lattice by walking the token trie from every start position: about 30 dependent trie reads
per GPT-2 word. This script tries the classic alternative. One pass over the word follows
Aho–Corasick goto/failure links, so there is one state per position; each state carries a
64-bit mask of the lengths of the tokens that end there (every token suffix of the state's
string), and the arc ids sit in one flat array indexed by the state's offset plus the rank
of the length among the mask's bits. The path counts are then a branch-free masked sum
over a window of the last eight counts (kept in registers), and the per-node prefix sums
of the arc weights for sampling are stored in the same pass, so a sampling step is one
uniform and eight compares. Arcs longer than eight, the ℓ_min fallback, huge path counts
and tokens longer than 63 take slower, exact paths.

It draws exactly the same samples as the kept kernel for the same seed (checked below on
every benchmark word, all six (τ, ℓ_min) cells, both vocabularies), but it was not faster
where it mattered. Recorded in BENCHMARKS.md; kept here so the numbers can be reproduced.

Usage::

    python benchmarks/exp_aho_corasick.py [--words N] [--repeats R]

Prints, per (vocabulary, τ, ℓ_min), the minimum over R calls of the kept kernel and of the
automaton kernel on the N most frequent English words (one thread, kernels only: no Python
wrapper), the automaton's build time, and whether both returned identical ids and lengths.
This script is not part of the package or the tests, and it is not imported by either.
"""

from __future__ import annotations

import argparse
import time
from functools import partial

import numba
import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros

from workbench import datasets as data
from workbench._core.rng import next_double, stream_state
from workbench._core.trie import word_codes
from workbench.grampa import Grampa, _reverse_span, _short_chunk
from workbench.lattice import code_points

ONE = np.uint64(1)
LONG = np.uint64(1) << np.uint64(63)  # mask flag: the state has a token longer than 63
PAD = 64  # zero counts before node 0, so the window may read "before" the word


@njit(cache=True)
def _automaton(da, n_codes):
    base, check, terminal = da[0], da[1], da[2]
    size = da.shape[1]
    fail = np.zeros(size, np.int32)
    depth = np.zeros(size, np.int32)
    mask = np.zeros(size, np.uint64)
    nout = np.zeros(size, np.int64)
    order = np.empty(size, np.int64)
    order[0] = 0
    head, tail = 0, 1
    while head < tail:
        s = order[head]
        head += 1
        b = np.int64(base[s])
        for c in range(1, n_codes + 1):
            t = b + c
            if check[t] != s:
                continue
            depth[t] = depth[s] + 1
            f = np.int64(0)
            if s != 0:
                f = np.int64(fail[s])
                while True:
                    u = np.int64(base[f]) + c
                    if check[u] == f:
                        f = u
                        break
                    if f == 0:
                        break
                    f = np.int64(fail[f])
            fail[t] = f
            m = mask[f]
            k = nout[f]
            if terminal[t] >= 0:
                d = depth[t]
                if d <= 63:
                    m |= ONE << np.uint64(d - 1)
                    k += 1
                else:
                    m |= LONG
            mask[t] = m
            nout[t] = k
            order[tail] = t
            tail += 1
    off = np.zeros(size + 1, np.int64)
    for s in range(size):
        off[s + 1] = off[s] + nout[s]
    out = np.empty(off[size], np.int32)
    for q in range(tail):
        t = order[q]
        o = off[t]
        if terminal[t] >= 0 and depth[t] <= 63:
            out[o] = terminal[t]
            o += 1
        f = fail[t]
        for r in range(nout[f]):
            out[o + r] = out[off[f] + r]
    rec = np.empty((size, 2), np.uint64)  # per state: suffix-token length mask, output offset
    rec[:, 0] = mask
    for s in range(size):
        rec[s, 1] = np.uint64(off[s])
    return fail, rec, out




@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))




@njit(cache=True, inline="always")
def _weight(c, alpha, powers):
    if alpha == 1.0:
        return c
    if alpha == 0.0:
        return np.float64(c != 0.0)
    return powers[int(c)]




@njit(cache=True, inline="always")
def _ac_word(wc, n, base, check, fail, rec, outids, ell_min, alpha, powers, reverse,
            state, cnt, st, slow, P, lens, row, out_len, out_id, start, bits):
    n_powers = powers.shape[0]
    low = (ONE << np.uint64(ell_min - 1)) - ONE  # lengths < ell_min
    high = ~low & ~LONG
    cnt[PAD] = 1.0
    tabulated = True
    s = np.int64(0)
    c1 = 1.0
    c2 = c3 = c4 = c5 = c6 = c7 = c8 = 0.0
    v1 = _weight(1.0, alpha, powers) if n_powers > 1 or alpha == 1.0 or alpha == 0.0 else 0.0
    v2 = v3 = v4 = v5 = v6 = v7 = v8 = 0.0
    for j in range(1, n + 1):
        c = np.int64(wc[j - 1])
        while True:
            t = np.int64(base[s]) + c
            if check[t] == s:
                s = t
                break
            if s == 0:
                break
            s = np.int64(fail[s])
        full = rec[s, 0]
        st[j] = s
        if full & LONG:
            return -2, state
        m = full & high
        by = np.int64(m & np.uint64(255))
        b1 = bits[by, 0]
        b2 = bits[by, 1]
        b3 = bits[by, 2]
        b4 = bits[by, 3]
        b5 = bits[by, 4]
        b6 = bits[by, 5]
        b7 = bits[by, 6]
        b8 = bits[by, 7]
        cj = (((c1 * b1 + c2 * b2) + (c3 * b3 + c4 * b4))
              + ((c5 * b5 + c6 * b6) + (c7 * b7 + c8 * b8)))
        acc = v8 * b8
        P[j, 0] = acc
        acc += v7 * b7
        P[j, 1] = acc
        acc += v6 * b6
        P[j, 2] = acc
        acc += v5 * b5
        P[j, 3] = acc
        acc += v4 * b4
        P[j, 4] = acc
        acc += v3 * b3
        P[j, 5] = acc
        acc += v2 * b2
        P[j, 6] = acc
        acc += v1 * b1
        P[j, 7] = acc
        slow[j] = False
        rest = m >> np.uint64(8)
        if rest:
            slow[j] = True
            b = 8
            while rest:
                if rest & ONE:
                    cj += cnt[PAD + j - b - 1]
                rest >>= ONE
                b += 1
        if cj == 0.0 and full & low:
            slow[j] = True
            short = full & low
            while short:
                b = np.uint64(63 - leading_zeros(short))
                short ^= ONE << b
                v = cnt[PAD + j - np.int64(b) - 1]
                if v != 0.0:
                    cj = v
                    break
        cnt[PAD + j] = cj
        if alpha == 1.0:
            vj = cj
        elif alpha == 0.0:
            vj = np.float64(cj != 0.0)
        elif cj < n_powers:
            vj = powers[int(cj)]
        else:
            vj = 0.0
            if j < n:
                tabulated = False
        c8 = c7
        c7 = c6
        c6 = c5
        c5 = c4
        c4 = c3
        c3 = c2
        c2 = c1
        c1 = cj
        v8 = v7
        v7 = v6
        v6 = v5
        v5 = v4
        v4 = v3
        v3 = v2
        v2 = v1
        v1 = vj
    if cnt[PAD + n] == 0.0:
        return -1, state
    if n_powers <= 1 and alpha != 1.0 and alpha != 0.0:
        tabulated = False
    j = n
    k = 0
    while j > 0:
        u, state = next_double(state)
        s = st[j]
        if tabulated and not slow[j]:
            total = P[j, 7]
            threshold = total - u * total
            below = 0
            for q in range(8):
                below += P[j, q] < threshold
            length = 8 - below
        else:
            full = rec[s, 0]
            m = full & high
            mm = 0
            while m:
                b = np.uint64(63 - leading_zeros(m))
                m ^= ONE << b
                ell = np.int64(b) + 1
                if cnt[PAD + j - ell] != 0.0:
                    lens[mm] = ell
                    mm += 1
            if mm == 0:
                m = full & low
                while m:
                    b = np.uint64(63 - leading_zeros(m))
                    m ^= ONE << b
                    ell = np.int64(b) + 1
                    if cnt[PAD + j - ell] != 0.0:
                        lens[0] = ell
                        mm = 1
                        break
            pick = mm - 1
            if mm > 1:
                if tabulated:
                    total = 0.0
                    for a in range(mm):
                        total += _weight(cnt[PAD + j - lens[a]], alpha, powers)
                        row[a] = total
                    threshold = total - u * total
                    pick = 0
                    for a in range(mm - 1):
                        pick += row[a] < threshold
                else:
                    ref = cnt[PAD + j - lens[0]]
                    for a in range(1, mm):
                        v = cnt[PAD + j - lens[a]]
                        if (alpha > 0.0 and v > ref) or (alpha < 0.0 and v < ref):
                            ref = v
                    total = 0.0
                    for a in range(mm):
                        w = (cnt[PAD + j - lens[a]] / ref) ** alpha
                        row[a] = w
                        total += w
                    target = u * total
                    acc = 0.0
                    for a in range(mm - 1, -1, -1):
                        if row[a] > 0.0:
                            acc += row[a]
                            pick = a
                            if acc > target:
                                break
            length = lens[pick]
        out_len[start + k] = length
        r = _popcount((rec[s, 0] & ~LONG) >> np.uint64(length))
        out_id[start + k] = outids[np.int64(rec[s, 1]) + r]
        k += 1
        j -= length
    if not reverse:
        _reverse_span(out_len, start, k)
        _reverse_span(out_id, start, k)
    return k, state




@njit(cache=True)
def _ac_chunk(cps, offsets, lo, hi, reverse, da, codes, fail, rec, outids, ell_min, alpha,
              powers, seed, out_len, out_id, ntok):
    longest = 0
    for w in range(lo, hi):
        longest = max(longest, offsets[w + 1] - offsets[w])
    wc = np.empty(longest + 1, dtype=np.int32)
    cnt = np.zeros(longest + 1 + PAD)
    st = np.empty(longest + 1, np.int64)
    slow = np.empty(longest + 1, np.bool_)
    P = np.empty((longest + 1, 8))
    lens = np.empty(64, np.int64)
    row = np.empty(64)
    base, check = da[0], da[1]
    bits = np.empty((256, 8))  # bits[x, q] = bit q of byte x, as a float
    for x in range(256):
        for q in range(8):
            bits[x, q] = (x >> q) & 1
    for w in range(lo, hi):
        start = offsets[w]
        n = offsets[w + 1] - start
        word_codes(cps, start, n, reverse, codes, wc)
        k, _ = _ac_word(wc, n, base, check, fail, rec, outids, ell_min, alpha, powers,
                       reverse, stream_state(seed, w), cnt, st, slow, P, lens,
                       row, out_len, out_id, start, bits)
        ntok[w] = k




def _time(fn, repeats: int) -> float:
    fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--words", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    numba.set_num_threads(1)
    plain = data.english_words()[: args.words]
    print("vocab   tau  ell_min  build ms  kept ns/word  automaton ns/word  ratio  same")
    for name in ("gpt2", "ulm-8k"):
        vocab = data.load_vocabulary(name)
        words = [vocab.to_alphabet(" " + w) for w in plain]
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        offsets = np.zeros(len(words) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        cps = code_points("".join(words))
        total = int(offsets[-1])
        for tau in (1.0, 5.0, -10.0):
            for ell_min in (1, 2):
                g = Grampa(vocab, tau=tau, ell_min=ell_min)
                da, codes, max_len = g._trie
                t0 = time.perf_counter()
                fail, rec, outids = _automaton(da, int(codes.max()))
                build = time.perf_counter() - t0
                powers = g._powers.copy()
                if powers.size:
                    powers[0] = 0.0  # unreachable nodes weigh nothing (0 ** α = inf if α < 0)
                seed = np.uint64(12345)
                outs = []
                for kind in ("kept", "automaton"):
                    out_len = np.zeros(total, np.int32)
                    out_id = np.full(total, -1, np.int32)
                    ntok = np.zeros(len(words), np.int64)
                    if kind == "kept":
                        run = partial(_short_chunk, cps, offsets, 0, len(words), g._reverse,
                                      da, codes, max_len, ell_min, g.alpha, g._powers, seed,
                                      out_len, out_id, ntok)
                    else:
                        run = partial(_ac_chunk, cps, offsets, 0, len(words), g._reverse, da,
                                      codes, fail, rec, outids, ell_min, g.alpha, powers, seed,
                                      out_len, out_id, ntok)
                    best = _time(run, args.repeats)
                    outs.append((best, out_len, out_id, ntok))
                (t_kept, *a), (t_ac, *b) = outs
                same = all(np.array_equal(x, y) for x, y in zip(a, b))
                per = 1e9 / len(words)
                print(f"{name:7} {tau:5g}  {ell_min:7d}  {build * 1e3:8.0f}  {t_kept * per:12.0f}"
                      f"  {t_ac * per:17.0f}  {t_kept / t_ac:5.2f}  {same}", flush=True)


if __name__ == "__main__":
    main()
