"""Plain-Python BPE references: recount every pair each step, merge the best (no package code).

Written from the BatchBPE paper (Morgan 2024, §3.3–3.6 and Code Block 1) and the usual BPE
definition, not from :mod:`workbench`. Tokens are Python ``bytes``-free integer ids: ``0..255``
are the bytes, merge ``k`` makes id ``256 + k``.

Tie-breaking, spelled out independently of the package: the highest count wins; ties go to
the smallest ``(rank(left), rank(right))`` where a byte's rank is its position when the 256
GPT-2 byte-level characters are sorted by code point, and merge ``k`` has rank ``256 + k``
(HuggingFace tokenizers' numbering).

Pair counting: ``"overlapping"`` counts every adjacent pair; ``"nonoverlapping"`` counts a
maximal run of ``L`` equal tokens as ``L // 2`` pairs of that token.
"""

from __future__ import annotations

import random


def _gpt2_chars() -> list[str]:
    keep = [b for b in range(256)
            if 33 <= b <= 126 or 161 <= b <= 172 or 174 <= b <= 255]
    chars, extra = {}, 0
    for b in range(256):
        if b in keep:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + extra)
            extra += 1
    return [chars[b] for b in range(256)]


_CHARS = _gpt2_chars()
_BYTE_RANK = {b: r for r, b in enumerate(sorted(range(256), key=lambda b: ord(_CHARS[b])))}


def rank(token: int) -> int:
    return _BYTE_RANK[token] if token < 256 else token


def pair_counts(seqs: list[tuple[list[int], int]], mode: str) -> dict[tuple[int, int], int]:
    """Count pairs over ``(sequence, weight)`` items from scratch."""
    stats: dict[tuple[int, int], int] = {}
    for seq, w in seqs:
        i = 0
        while i < len(seq) - 1:
            pair = (seq[i], seq[i + 1])
            if mode == "nonoverlapping" and seq[i] == seq[i + 1]:
                run = 1
                while i + run < len(seq) and seq[i + run] == seq[i]:
                    run += 1
                stats[pair] = stats.get(pair, 0) + (run // 2) * w
                i += run - 1  # continue at the last token of the run
                continue
            stats[pair] = stats.get(pair, 0) + w
            i += 1
    return stats


def merge_seq(seq: list[int], pair: tuple[int, int], new: int) -> list[int]:
    out, i = [], 0
    while i < len(seq):
        if i + 1 < len(seq) and (seq[i], seq[i + 1]) == pair:
            out.append(new)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


def _order(stats):
    return sorted(stats, key=lambda p: (-stats[p], rank(p[0]), rank(p[1])))


def _prepare(counts: dict[str, int]):
    return [(list(chunk.encode("utf-8")), n) for chunk, n in counts.items()]


def _spell(merges_ids):
    tokens = [bytes([b]) for b in range(256)]
    out = []
    for a, b in merges_ids:
        out.append((tokens[a], tokens[b]))
        tokens.append(tokens[a] + tokens[b])
    return out


def train_serial(counts: dict[str, int], n_merges: int, mode: str) -> list[tuple[bytes, bytes]]:
    """Serial BPE: each step recounts every pair and merges the best one everywhere."""
    seqs = _prepare(counts)
    merges = []
    for k in range(n_merges):
        stats = pair_counts(seqs, mode)
        stats = {p: c for p, c in stats.items() if c > 0}
        if not stats:
            break
        best = _order(stats)[0]
        merges.append(best)
        seqs = [(merge_seq(s, best, 256 + k), w) for s, w in seqs]
    return _spell(merges)


def train_batched(counts: dict[str, int], n_merges: int, mode: str, cap_divisor: int = 2,
                  max_batch_size: int = 0, n_stop: int = 0):
    """Code Block 1 literally; returns ``(merges, batch sizes)``."""
    seqs = _prepare(counts)
    merges: list[tuple[int, int]] = []
    sizes = []
    remaining = n_merges
    while remaining > 0:
        stats = {p: c for p, c in pair_counts(seqs, mode).items() if c > 0}
        if not stats:
            break
        vocab_len = 256 + n_stop + len(merges)
        num = min(remaining // cap_divisor, vocab_len,
                  max_batch_size if max_batch_size else remaining) or 1
        seen_first, seen_last, batch = set(), set(), []
        for first, last in _order(stats)[:num]:
            if first in seen_last or last in seen_first:
                seen_first.add(first)
                seen_last.add(last)
                continue
            seen_first.add(first)
            seen_last.add(last)
            batch.append((first, last))
        for pair in batch:  # safe pairs never overlap: one pass or one by one is the same
            new = 256 + len(merges)
            merges.append(pair)
            seqs = [(merge_seq(s, pair, new), w) for s, w in seqs]
        sizes.append(len(batch))
        remaining -= len(batch)
    return _spell(merges), sizes


def encode_chunk(chunk: bytes, merges: list[tuple[bytes, bytes]], dropout: float = 0.0,
                 rng: random.Random | None = None) -> list[bytes]:
    """Apply merges by rank (leftmost first) to one chunk; dropout skips each candidate
    occurrence with probability ``dropout`` at every step."""
    rank_of = {pair: k for k, pair in enumerate(merges)}
    toks = [bytes([b]) for b in chunk]
    while True:
        cands = [(rank_of[(toks[i], toks[i + 1])], i) for i in range(len(toks) - 1)
                 if (toks[i], toks[i + 1]) in rank_of]
        if dropout > 0:
            cands = [c for c in cands if rng.random() >= dropout]
        if not cands:
            return toks
        _, i = min(cands)
        toks[i:i + 2] = [toks[i] + toks[i + 1]]
