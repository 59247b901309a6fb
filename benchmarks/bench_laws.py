"""Exact laws: how long ``sampler.law(word)`` takes, and the law against sampling.

Times (median and minimum of ``--repeats`` runs, wall clock and process CPU time):

* the chain laws (GRaMPa τ = 1, ULM ``nbest=-1``, MaxMatch-dropout p = 0.1) on words of
  5, 10, ..., 30 characters (frequent English words of that length, or frequent words glued
  together and cut) on ``ulm-8k`` and ``gpt2``, the law and then its :meth:`summary`;
* BPE-dropout's law (GPT-2's merges, p = 0.1) under each semantics on ``Ġtokenization``
  and the 21-character ``Ġinternationalization`` (a refusal is timed too, with its whole
  message: the number of states and how it was estimated), then its :meth:`summary`;
* the exact law of the 12-character ``Ġinformation`` under each semantics against drawing
  10⁴ samples of it with HF ``tokenizers``' own BPE-dropout (GPT-2 vocabulary and merges, p = 0.1,
  ``encode_batch`` as the package runs it, on its thread pool), and the ratio.

Run: ``python benchmarks/bench_laws.py`` (about a minute on a quiet machine; ``--quick``
runs one repeat and fewer words; ``--only bpe --only hf`` runs those parts; ``--json``
prints the rows as JSON instead of Markdown).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable

from workbench import BPESampler, Grampa, MaxMatchSampler, ULMSampler
from workbench._core.validate import BudgetError
from workbench.bpe import BPEModel
from workbench.datasets import english_words, load_gpt2_merges, resolve_vocabulary

LENGTHS = (5, 10, 15, 20, 25, 30)
BPE_WORDS = ("Ġtokenization", "Ġinternationalization")
HF_WORD = "Ġinformation"
HF_SAMPLES = 10_000


def timed(fn: Callable[[], object], repeats: int) -> dict:
    """Median / min wall and CPU seconds of ``fn()``; a refusal (BudgetError,
    ValueError) is timed once and its message kept."""
    wall, cpu, result = [], [], None
    for _ in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        try:
            result = fn()
        except (BudgetError, ValueError) as e:
            return {"refused": str(e)[:300], "wall_s": time.perf_counter() - t,
                    "cpu_s": time.process_time() - c}
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return {"wall_s": statistics.median(wall), "wall_min_s": min(wall),
            "cpu_s": statistics.median(cpu), "cpu_min_s": min(cpu), "result": result}


def words_of(length: int, count: int) -> list[str]:
    """``count`` frequent words of ``length`` characters (glued and cut when too few)."""
    pool = english_words(20_000)
    out = [w for w in pool if len(w) == length][:count]
    glue = iter(pool)
    while len(out) < count:
        w = ""
        while len(w) < length:
            w += next(glue)
        out.append(w[:length])
    return out


def chain_rows(repeats: int, per_length: int) -> list[dict]:
    rows = []
    for vname in ("ulm-8k", "gpt2"):
        vocab = resolve_vocabulary(vname)
        samplers = {"GRaMPa": Grampa(vocab),
                    "MaxMatch-dropout": MaxMatchSampler(vocab, dropout=0.1)}
        try:
            samplers["ULM nbest=-1"] = ULMSampler(vocab, nbest=-1)
        except TypeError as e:  # a vocabulary without scores
            rows.append({"vocab": vname, "sampler": "ULM nbest=-1", "refused": str(e)})
        for name, sampler in samplers.items():
            sampler.law(vocab.to_alphabet(" the"))  # compile
            for length in LENGTHS:
                for w in words_of(length, per_length):
                    word = vocab.to_alphabet(" " + w)[:length]
                    row = {"vocab": vname, "sampler": name, "word": word, "chars": len(word)}
                    law = timed(lambda s=sampler, x=word: s.law(x), repeats)
                    result = law.pop("result", None)
                    row.update(law)
                    if result is not None:
                        row["support"] = result.support_size
                        summ = timed(result.summary, repeats)
                        summ.pop("result", None)
                        row["summary_s"] = summ.get("wall_s")
                    rows.append(row)
    return rows


def bpe_rows(repeats: int) -> list[dict]:
    vocab, model = resolve_vocabulary("gpt2"), BPEModel.from_gpt2()
    rows = []
    for semantics in ("reference", "hf", "sentencepiece", "subword-nmt"):
        s = BPESampler(vocab, dropout=0.1, model=model, semantics=semantics)
        s.law("Ġthe")  # compile
        for word in BPE_WORDS:
            row = {"semantics": semantics, "word": word}
            out = timed(lambda x=word, s=s: s.law(x), repeats)  # every semantics alike
            result = out.pop("result", None)
            row.update(out)
            if result is not None:
                row["support"] = result.support_size
                summ = timed(result.summary, repeats)
                summ.pop("result", None)
                row["summary_s"] = summ.get("wall_s")
            rows.append(row)
    return rows


def hf_rows(repeats: int) -> list[dict]:
    try:
        import tokenizers
    except ImportError:
        return [{"skipped": "tokenizers is not installed"}]
    vocab, model = resolve_vocabulary("gpt2"), BPEModel.from_gpt2()
    ids = {t: int(i) for t, i in zip(vocab.tokens, vocab.ids)}
    hf = tokenizers.Tokenizer(tokenizers.models.BPE(ids, load_gpt2_merges(), dropout=0.1))
    batch = [HF_WORD] * HF_SAMPLES
    hf.encode_batch(batch[:10], add_special_tokens=False)
    sample = timed(lambda: hf.encode_batch(batch, add_special_tokens=False), repeats)
    sample.pop("result")
    rows = [{"what": f"tokenizers: {HF_SAMPLES:,} dropout samples", **sample}]
    for semantics in ("reference", "hf", "sentencepiece", "subword-nmt"):  # every one
        s = BPESampler(vocab, dropout=0.1, model=model, semantics=semantics)
        s.law("Ġthe")
        law = timed(lambda s=s: s.law(HF_WORD), repeats)
        result = law.pop("result", None)
        row = {"what": f"exact law ({semantics})", **law}
        if result is not None:
            row["support"] = result.support_size
            row["ratio_to_sampling"] = law["wall_s"] / sample["wall_s"]
        rows.append(row)
    return rows


def _ms(x: float | None) -> str:
    return "" if x is None else f"{1e3 * x:.1f}"


def markdown(report: dict) -> str:
    lines = [f"load average at start: {report['load']}", "",
             "| vocab | sampler | chars | word | law ms (median / min) | CPU ms | summary ms |"
             " support |", "|---|---|---|---|---|---|---|---|"]
    for r in report["chain"]:
        if "refused" in r:
            lines.append(f"| {r['vocab']} | {r['sampler']} | {r.get('chars', '')} | "
                         f"{r.get('word', '')} | refused in {_ms(r.get('wall_s'))} ms: "
                         f"{r['refused'][:80]} | | | |")
            continue
        lines.append(f"| {r['vocab']} | {r['sampler']} | {r['chars']} | {r['word']} | "
                     f"{_ms(r['wall_s'])} / {_ms(r['wall_min_s'])} | {_ms(r['cpu_s'])} | "
                     f"{_ms(r.get('summary_s'))} | {r.get('support', '')} |")
    lines += ["", "| semantics | word | law ms (median / min) | CPU ms (median / min) | "
              "summary ms | support |", "|---|---|---|---|---|---|"]
    for r in report["bpe"]:
        if "refused" in r:
            lines.append(f"| {r['semantics']} | {r['word']} | refused in {_ms(r['wall_s'])} "
                         f"ms: {r['refused']} | | | |")  # whole: the count and its estimate
        else:
            lines.append(f"| {r['semantics']} | {r['word']} | {_ms(r['wall_s'])} / "
                         f"{_ms(r['wall_min_s'])} | {_ms(r['cpu_s'])} / {_ms(r['cpu_min_s'])} | "
                         f"{_ms(r.get('summary_s'))} | {r['support']:,} |")
    lines += ["", f"| {HF_WORD} | ms (median / min) | CPU ms | law / sampling |",
              "|---|---|---|---|"]
    for r in report["hf"]:
        if "skipped" in r:
            lines.append(f"| {r['skipped']} | | | |")
        elif "refused" in r:
            lines.append(f"| {r['what']} | refused: {r['refused'][:100]} | | |")
        else:
            ratio = r.get("ratio_to_sampling")
            lines.append(f"| {r['what']} | {_ms(r['wall_s'])} / {_ms(r['wall_min_s'])} | "
                         f"{_ms(r['cpu_s'])} | {'' if ratio is None else f'{ratio:.3g}'} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--words", type=int, default=2, help="chain-law words per length")
    ap.add_argument("--quick", action="store_true", help="one repeat, one word per length")
    ap.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    ap.add_argument("--only", choices=("chain", "bpe", "hf"), action="append",
                    help="run only these parts (repeatable; default: all)")
    args = ap.parse_args()
    repeats, per_length = (1, 1) if args.quick else (args.repeats, args.words)
    parts = set(args.only or ("chain", "bpe", "hf"))
    report = {"load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
              "chain": chain_rows(repeats, per_length) if "chain" in parts else [],
              "bpe": bpe_rows(repeats) if "bpe" in parts else [],
              "hf": hf_rows(repeats) if "hf" in parts else []}
    print(json.dumps(report, indent=1, ensure_ascii=False) if args.json else markdown(report))


if __name__ == "__main__":
    main()
