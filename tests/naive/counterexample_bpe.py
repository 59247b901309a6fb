"""A tiny plain-Python byte-level BPE (train + Algorithm 1) and the counterexamples, naively.

Stand-in for ``workbench.bpe`` in the counterexample tests: ``NaiveBPE`` has the contract
(``merges``, ``vocab``, ``encode``, ``encode_chunks``, ``decode``, ``tokens``).
Pretokenisation: runs of non-spaces with their leading space (``" ?[^ ]+| +"``). Training
recounts every pair each step (ties: the lexicographically smallest pair). Encoding is
Algorithm 1 literally: apply each merge in order to the whole chunk.
Shares no code with the package.
"""

from __future__ import annotations

import re
from collections import Counter

_CHUNK = re.compile(r" ?[^ ]+| +")


def _apply(seq: list[bytes], left: bytes, right: bytes) -> list[bytes]:
    out, i = [], 0
    while i < len(seq):
        if i + 1 < len(seq) and seq[i] == left and seq[i + 1] == right:
            out.append(left + right)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


class NaiveBPE:
    def __init__(self, text: str, n_merges: int):
        words = Counter(_CHUNK.findall(text))
        seqs = {w: [bytes([b]) for b in w.encode("utf-8")] for w in words}
        self.merges: list[tuple[bytes, bytes]] = []
        self.vocab: dict[int, bytes] = {i: bytes([i]) for i in range(256)}
        for _ in range(n_merges):
            pairs: Counter = Counter()
            for w, seq in seqs.items():
                for a, b in zip(seq, seq[1:]):
                    pairs[(a, b)] += words[w]
            if not pairs:
                break
            best = max(pairs.items(), key=lambda kv: (kv[1], [-x for x in kv[0][0] + kv[0][1]]))
            left, right = best[0]
            self.merges.append((left, right))
            self.vocab[len(self.vocab)] = left + right
            seqs = {w: _apply(seq, left, right) for w, seq in seqs.items()}
        self.id_of = {b: i for i, b in sorted(self.vocab.items(), reverse=True)}

    def tokens(self, text: str) -> list[bytes]:
        out = []
        for chunk in _CHUNK.findall(text):
            seq = [bytes([b]) for b in chunk.encode("utf-8")]
            for left, right in self.merges:
                seq = _apply(seq, left, right)
            out.extend(seq)
        return out

    def encode(self, text: str) -> list[int]:
        return [self.id_of[t] for t in self.tokens(text)]

    def encode_chunks(self, chunks: list[str]) -> list[list[int]]:
        return [self.encode(c) for c in chunks]

    def decode(self, ids) -> str:
        return b"".join(self.vocab[i] for i in ids).decode("utf-8")


def dec(token: bytes, merges: list[tuple[bytes, bytes]], dropped: set[bytes]) -> list[bytes]:
    """Eq. 4 recursively on bytes: split a dropped token along its first merge."""
    if token in dropped:
        for left, right in merges:
            if left + right == token:
                return dec(left, merges, dropped) + dec(right, merges, dropped)
    return [token]


def random_drop_tokens(model: NaiveBPE, text: str, dropped: set[bytes]) -> list[bytes]:
    """Eq. 5: BPE first, then DEC on every token."""
    out = []
    for t in model.tokens(text):
        out.extend(dec(t, model.merges, dropped))
    return out
