"""BatchBPE's claims (Morgan 2024) checked against :func:`workbench.bpe.train_bpe`.

* Code Block 1 safety (§3.3–3.6): with ``max_batch_size=1`` batched training *is* serial
  training (§3.5); safe batches make the same merges as serial training on a seeded random
  table; §3.6's repeated-token chain costs nothing when it completes before the end (same
  merges, other order) and exactly one merge when the final batch cuts it; every batch obeys
  line 6's search limit (:func:`workbench.theory.bpe.pairs_searched`) and the safety rule.
* Stop words (§2.1) and the frequency cut-off (§2.2), on the shipped Shakespeare text cut by
  the GPT-4 pattern: the most common multi-character chunks (BatchBPE's rule: of the 2X most
  common) become whole-chunk tokens that no other chunk uses; the cut-off is training on the
  smaller table, and changes the merges.

This module implements nothing of BatchBPE and does not time it.
"""

from __future__ import annotations

import warnings
from collections import Counter
from functools import cache

import numpy as np

from ..bpe import BPEExhaustedWarning, split_text, train_bpe
from ..bpe.bytelevel import to_bytelevel
from ..datasets import load_text
from ..theory.bpe import merge_count, pairs_searched
from .registry import CheckResult, register, row

SEED = 0
RANDOM_CHUNKS, RANDOM_VOCAB = 300, 400
"""The seeded random table: 300 chunks over 10 letters, counts uniform in 1 … 10^6."""
SECTION_3_6 = {"a" * 32: 10, "zy": 15}
"""§3.6 in miniature: runs of a's whose pair chain (a,a) → (aa,aa) → … outranks (z,y)."""
TEXT_VOCAB, STOP_WORDS, CUTOFF = 1000, 20, 2


def _random_table(seed: int = SEED) -> dict[str, int]:
    rng = np.random.default_rng(seed)
    letters = list("abcdefghij")
    table: dict[str, int] = {}
    for _ in range(RANDOM_CHUNKS):
        chunk = " " + "".join(rng.choice(letters, int(rng.integers(2, 9))))
        table[chunk] = table.get(chunk, 0) + int(rng.integers(1, 10**6))
    return table


@cache
def _text_table() -> tuple[tuple[str, int], ...]:
    return tuple(Counter(split_text(load_text("shakespeare"))).items())


def _train(table, vocab_size, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BPEExhaustedWarning)
        return train_bpe(table, vocab_size, progress=False, **kw)


def _batches_obey_code_block_1(model, cap_divisor: int = 2) -> tuple[int, int]:
    """(batches whose search size is not line 6's, batches with a member chained to an
    earlier member: first token = an earlier last token or last = an earlier first)."""
    target = len(model.merges)
    base = 256 + len(model.stop_words)
    done = bad_size = unsafe = 0
    for b in model.batches:
        limit = pairs_searched(target - done, base + done, cap_divisor, 0)
        bad_size += b.searched != limit or b.size > b.searched
        firsts, lasts = set(), set()
        for first, last in b.merges:
            unsafe += first in lasts or last in firsts
            firsts.add(first)
            lasts.add(last)
        done += b.size
    return bad_size, unsafe


@register("BatchBPE Code Block 1", "numeric")
def check_code_block_1() -> list[CheckResult]:
    rows = []
    table = _random_table()
    serial = _train(table, RANDOM_VOCAB, batch=False)
    batched = _train(table, RANDOM_VOCAB)
    one = _train(table, RANDOM_VOCAB, max_batch_size=1)
    chain_serial = _train(SECTION_3_6, 260, batch=False)
    chain_one = _train(SECTION_3_6, 260, max_batch_size=1)
    rows.append(row("max_batch_size = 1 makes Code Block 1 serial training (same merges, same "
                    "order; random table and §3.6 table)", "§3.5, CB 1 l. 6",
                    f"{one.merges == serial.merges}, {chain_one.merges == chain_serial.merges}",
                    "True, True", one.merges == serial.merges
                    and chain_one.merges == chain_serial.merges))
    diff = len(set(batched.merges) ^ set(serial.merges))
    rows.append(row(f"safe batches = serial training on a seeded random table "
                    f"({RANDOM_CHUNKS} chunks, {merge_count(RANDOM_VOCAB)} merges, "
                    f"{len(batched.batches)} batches)", "§3.3–3.4, CB 1",
                    f"{diff} merges differ", "0 (same merges, as a set)", diff == 0))
    bad_size, unsafe = _batches_obey_code_block_1(batched)
    rows.append(row("every batch searches min(remaining // 2, |vocab|) pairs and holds no "
                    "chained members (random table)", "CB 1 l. 6–16",
                    f"{bad_size} wrong sizes, {unsafe} unsafe", "0, 0",
                    bad_size == 0 and unsafe == 0))
    done = []
    for vocab in (261, 262):
        s, b = _train(SECTION_3_6, vocab, batch=False), _train(SECTION_3_6, vocab)
        done.append(set(s.merges) == set(b.merges) and s.merges != b.merges)
    rows.append(row("§3.6 repeated pairs (a,a) → (aa,aa) → …: a chain that completes costs "
                    "nothing (same merges as serial, later batches)", "§3.6",
                    f"vocab 261, 262: {done}", "[True, True]", all(done)))
    s, b = chain_serial, _train(SECTION_3_6, 260)
    only_b, only_s = set(b.merges) - set(s.merges), set(s.merges) - set(b.merges)
    want_b, want_s = {(b"z", b"y")}, {(b"a" * 8, b"a" * 8)}
    rows.append(row("§3.6: only a chain cut by the final batch differs from serial, by one "
                    "merge (vocab 260)", "§3.6",
                    f"batched +{sorted(only_b)}, serial +{sorted(only_s)}",
                    f"+{sorted(want_b)}, +{sorted(want_s)}",
                    only_b == want_b and only_s == want_s))
    return rows


@register("BatchBPE stop words and cut-off", "numeric")
def check_stop_words_and_cutoff() -> list[CheckResult]:
    table = dict(_text_table())
    plain = _train(table, TEXT_VOCAB)
    stopped = _train(table, TEXT_VOCAB, stop_list_size=STOP_WORDS)
    # BatchBPE's rule: of the 2X most common chunks, the first X longer than one character
    # (ours also skips chunks spelled alike in the byte-level alphabet, so export works)
    ranked = sorted(table, key=lambda c: (-table[c], c))[:2 * STOP_WORDS]
    common = [c for c in ranked if len(c) > 1
              and to_bytelevel(c.encode("utf-8")) != c][:STOP_WORDS]
    stop_ids = {256 + i for i in range(len(common))}
    whole = all(stopped.encode(w) == [256 + i] for i, w in enumerate(stopped.stop_words))
    others = [c for c in table if c not in common]
    leaks = sum(1 for ids in stopped.encode_chunks(others) if stop_ids & set(ids))
    prefixed = sum(1 for c in others if any(c.startswith(w) for w in common))
    same_bytes = sorted(w for w in stopped.stop_words
                        if w.encode("utf-8") in {a + b for a, b in stopped.merges})
    rows = [
        row(f"stop_list_size = {STOP_WORDS}: the most common multi-character chunks (of the "
            f"{2 * STOP_WORDS} most common) become whole-chunk tokens 256…{255 + len(common)} "
            "(Shakespeare, GPT-4 split)", "§2.1",
            f"{list(stopped.stop_words) == common and whole}", "True",
            list(stopped.stop_words) == common and whole
            and len(stopped.merges) == merge_count(TEXT_VOCAB, len(common))),
        row("no other chunk uses a stop-word token (\" the\" is not available to \" theory\")",
            "§2.1", f"{leaks} of {len(others):,} chunks ({prefixed:,} start with "
            "a stop word)", "0", leaks == 0 and prefixed > 0),
        row("a stop-word token and a merged token can spell the same characters", "§2.1",
            f"{len(same_bytes)} stop words also merged, e.g. {same_bytes[:3]}", ">= 1",
            len(same_bytes) >= 1),
    ]
    cut = _train(table, TEXT_VOCAB, freq_cutoff=CUTOFF)
    smaller = _train({c: n for c, n in table.items() if n >= CUTOFF}, TEXT_VOCAB)
    kept = sum(1 for n in table.values() if n >= CUTOFF)
    changed = len(set(cut.merges) - set(plain.merges))
    rows += [
        row(f"freq_cutoff = {CUTOFF} is training on the smaller table (chunks seen >= "
            f"{CUTOFF} times: {kept:,} of {len(table):,})", "§2.2",
            f"{cut.merges == smaller.merges}", "True (same merges)",
            cut.merges == smaller.merges),
        row(f"the cut-off changes the vocabulary (\"not identical\"), vocab {TEXT_VOCAB}",
            "§2.2", f"{changed} of {len(cut.merges)} merges differ", ">= 1", changed >= 1),
    ]
    return rows
