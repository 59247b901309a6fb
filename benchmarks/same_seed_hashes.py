"""Same seed, same samples: hash the outputs of every sampler, trainer and the pipeline.

Run before and after a refactor and compare: every line must be equal (issue 18 used it:
71 of 71 equal across the refactor). Not a test and not timed: it prints JSON, one short
hash per output, to stdout. Uses the shipped ``un`` count table (``load_counts("un")``) for the
trainers.

Usage::

    python benchmarks/same_seed_hashes.py > before.json   # then after.json; diff them
"""

from __future__ import annotations

import hashlib
import json
import sys

import numpy as np

import workbench as wb
from workbench import datasets


def digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def samplers(out: dict[str, str]) -> None:
    plain = datasets.english_words(300)
    for name in ("ulm-8k", "gpt2"):
        vocab = datasets.load_vocabulary(name)
        words = [vocab.to_alphabet(" " + w) for w in plain]
        for tau in (1.0, 5.0, -10.0):
            for ell_min in (1, 2):
                for direction in ("l2r", "r2l"):
                    key = f"grampa {name} {tau} {ell_min} {direction}"
                    g = wb.Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction, seed=7)
                    ids, offsets = g.encode_flat(words)
                    out[f"{key} encode"] = digest((ids.tolist(), offsets.tolist()))
                    g = wb.Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction, seed=7)
                    out[f"{key} tokenize"] = digest(g.tokenize_batch(words[:50]))
        out[f"grampa {name} sample_many"] = digest(
            wb.Grampa(vocab, seed=3).sample_many(words[5], 20))
        counts = {w: 1 + i for i, w in enumerate(words[:40])}
        out[f"grampa {name} expected_token_counts"] = digest(
            np.round(wb.expected_token_counts(counts, vocab, tau=2.0), 12).tolist())
        short = [w for w in words[:60] if len(w) <= 9]
        for label, make, batch in [
            ("bpe", lambda v: wb.BPESampler(v, seed=11), words[:100]),
            ("maxmatch", lambda v: wb.MaxMatchSampler(v, seed=11), words[:100]),
            ("ulm", lambda v: wb.ULMSampler(v, seed=11), words[:100]),
            ("markov", lambda v: wb.MarkovRejectionSampler(v, seed=11), short),
            ("bit", lambda v: wb.BitRejectionSampler(v, seed=11), short),
            ("unigram", lambda v: wb.UnigramRejectionSampler(v, seed=11), short),
        ]:
            try:
                out[f"{label} {name} tokenize"] = digest(make(vocab).tokenize_batch(batch))
            except (TypeError, ValueError) as err:  # a sampler that needs scores
                out[f"{label} {name} tokenize"] = f"refused: {type(err).__name__}"


def trainers(out: dict[str, str]) -> None:
    table = datasets.load_counts("un")
    table = dict(sorted(table.items(), key=lambda kv: -kv[1])[:20_000])
    text = " the United Nations General Assembly 2024 resolution"
    for batch in (False, True):
        model = wb.train_bpe(table, 1024, batch=batch, progress=False)
        out[f"bpe train batch={batch}"] = digest(model.merges)
        out[f"bpe encode batch={batch}"] = digest(model.encode(text))
    gt = wb.train_greedtok(dict(list(table.items())[:3000]), 200, progress=False)
    out["greedtok tokens"] = digest(gt.tokens)
    out["greedtok encode"] = digest(gt.encode(text))


def pipeline(out: dict[str, str]) -> None:
    vocab = datasets.load_vocabulary("ulm-8k")
    tok = wb.TextTokenizer(wb.Grampa(vocab, tau=5.0, seed=1), p=0.5)
    lines = datasets.load_text("shakespeare")[:200_000].splitlines()[:2000]
    ids, offsets = tok.encode_lines(lines, seed=5)
    out["pipeline"] = digest([np.asarray(ids).tolist(), np.asarray(offsets).tolist()])


def main() -> int:
    out: dict[str, str] = {}
    samplers(out)
    trainers(out)
    pipeline(out)
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
