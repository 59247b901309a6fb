"""Single-threaded GRaMPa throughput against TkTkT's GRaMPa and SentencePiece's sampler.

What is timed (each call on a whole list of words, after a warm-up call that compiles the
numba kernels and checks that every tokeniser's output spells the word back):

* ``workbench encode``   -- ``Grampa(vocab, tau, ell_min).encode_flat(words)`` -> (ids, offsets),
  the array form (no Python object per token);
* ``workbench tokenize`` -- ``Grampa.tokenize_batch(words)`` -> list of lists of str;
* ``TkTkT GRaMPa``       -- ``tktkt.models.random.grampa.GRaMPa(...).tokenise(word)`` for
  each word (pure Python; timed on an evenly spaced subset of the same words);
* ``SentencePiece``      -- ``sp.encode(words, out_type=int, enable_sampling=True,
  alpha=0.0, nbest_size=-1, num_threads=1)`` on the 8k ULM model. With ``alpha = 0`` every
  segmentation of the unigram lattice is equally likely: the same law as GRaMPa with
  τ = 1, ℓ_min = 1 on the same vocabulary.

Words are the most frequent English words (``workbench.datasets.english_words``), spelled as
each tokeniser expects them: ``vocab.to_alphabet(" " + w)`` (``"▁word"`` for the ULM
vocabulary, ``"Ġword"`` for GPT-2's) for workbench and TkTkT; the plain word ``w`` for
SentencePiece, which normalises it and adds ``"▁"`` itself (inside the timed call).

All tokenisers run on one thread (``numba.set_num_threads(1)``, ``num_threads=1``). The
cases are interleaved: every repeat round times every case once, so a load change on a
shared machine hits all of them alike. Reported: the median over the rounds of wall-clock
and process CPU time; ratios are of median wall-clock words/s.

"Slider latency" is the time an interactive slider needs to redraw: build a sampler under
the infinite vocabulary, draw 10^5 samples of a 29-character word with
``sample_lengths`` and histogram the token counts m with ``np.bincount(np.diff(offsets))``.

TkTkT and SentencePiece are optional: when they cannot be imported the script says so and
leaves them out (see benchmarks/README.md for installing them).

Usage::

    python benchmarks/bench_grampa.py [--words N] [--tktkt-words N] [--repeats R] [--quick]
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib.metadata
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np

from workbench import Vocabulary
from workbench import datasets as data
from workbench.grampa import Grampa

VOCABS = ("ulm-8k", "gpt2")
TAUS = (1.0, 5.0, -10.0)
ELL_MINS = (1, 2)
SLIDER_WORD = "antidisestablishmentarianisms"
TARGET_VS_TKTKT = 200.0
TARGET_VS_SENTENCEPIECE = 10.0
TARGET_SLIDER_MS = 100.0

WB_ENCODE = "workbench encode"
WB_TOKENIZE = "workbench tokenize"
TKTKT = "TkTkT GRaMPa"
SENTENCEPIECE = "SentencePiece"


# =========================================================================== timing
@dataclass
class Case:
    """One timed call: ``run()`` handles ``n_words`` words; ``count(result)`` its tokens."""

    tokeniser: str
    vocab: str
    tau: float | None
    ell_min: int | None
    n_words: int
    run: Callable[[], object]
    count: Callable[[object], int]
    check: Callable[[object], None] | None = None
    tokens_per_word: float = float("nan")
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def warm_up(self) -> None:
        result = self.run()
        if self.check is not None:
            self.check(result)
        self.tokens_per_word = self.count(result) / max(self.n_words, 1)

    def time_once(self) -> None:
        wall, cpu = timed(self.run)
        self.wall.append(wall)
        self.cpu.append(cpu)

    @property
    def words_per_s(self) -> float:
        return self.n_words / statistics.median(self.wall)

    @property
    def cpu_words_per_s(self) -> float:
        return self.n_words / statistics.median(self.cpu)


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, process CPU seconds) of one call, with the garbage collector off."""
    gc.collect()
    gc.disable()
    try:
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        return time.perf_counter() - t0, time.process_time() - c0
    finally:
        gc.enable()


def run_rounds(cases: list[Case], repeats: int) -> None:
    for r in range(repeats):
        t0 = time.perf_counter()
        for case in cases:
            case.time_once()
        print(f"  round {r + 1}/{repeats}: {time.perf_counter() - t0:.1f} s", flush=True)


def spells_back(words: list[str]) -> Callable[[object], None]:
    """A check that a list of token lists concatenates to ``words``."""

    def check(result: object) -> None:
        for w, toks in zip(words, result):  # type: ignore[call-overload]
            if "".join(toks) != w:
                raise AssertionError(f"{toks!r} does not spell {w!r}")

    return check


# =========================================================================== peers
def workbench_cases(name: str, vocab: Vocabulary, words: list[str]) -> list[Case]:
    """Our array form (encode) and string form (tokenize) for every (τ, ℓ_min)."""
    cases = []
    for tau in TAUS:
        for ell_min in ELL_MINS:
            g = Grampa(vocab, tau=tau, ell_min=ell_min, seed=0)

            def check_ids(result):
                ids, offsets = result
                for w in range(min(len(words), 200)):
                    toks = vocab.decode_ids(ids[offsets[w]:offsets[w + 1]])
                    if "".join(toks) != words[w]:
                        raise AssertionError(f"{toks!r} does not spell {words[w]!r}")

            cases.append(Case(WB_ENCODE, name, tau, ell_min, len(words),
                              run=lambda g=g: g.encode_flat(words),
                              count=lambda res: len(res[0]), check=check_ids))
            cases.append(Case(WB_TOKENIZE, name, tau, ell_min, len(words),
                              run=lambda g=g: g.tokenize_batch(words),
                              count=lambda res: sum(map(len, res)),
                              check=spells_back(words)))
    return cases


def tktkt_cases(name: str, vocab: Vocabulary, words: list[str]) -> list[Case]:
    """TkTkT's pure-Python GRaMPa (decode_backwards=False is its l2r, our default)."""
    try:
        from tktkt.models.random.grampa import GRaMPa, PowerNormalisation
    except ImportError as err:
        if name == VOCABS[0]:
            print(f"  TkTkT skipped ({err}); see benchmarks/README.md")
        return []
    # TkTkT only tests membership (`t in vocab`); give it the same tokens and ids as ours.
    as_dict = {tok: int(i) for tok, i in zip(vocab.tokens, vocab.ids)}
    cases = []
    for tau in TAUS:
        for ell_min in ELL_MINS:
            tk = GRaMPa(preprocessor=None, vocab=as_dict,
                        probabilities_to_probabilities=PowerNormalisation(temperature=tau),
                        minimal_token_length=ell_min, decode_backwards=False)
            cases.append(Case(TKTKT, name, tau, ell_min, len(words),
                              run=lambda tk=tk: [tk.tokenise(w) for w in words],
                              count=lambda res: sum(map(len, res)),
                              check=spells_back(words)))
    return cases


def sentencepiece_cases(plain_words: list[str]) -> list[Case]:
    """SentencePiece's lattice sampler on the shipped 8k ULM model (plain words in)."""
    try:
        import sentencepiece as spm
    except ImportError as err:
        print(f"  SentencePiece skipped ({err}); see benchmarks/README.md")
        return []
    sp = spm.SentencePieceProcessor(model_file=str(data.sentencepiece_model_path("ulm-8k")))

    def run():
        return sp.encode(plain_words, out_type=int, enable_sampling=True, alpha=0.0,
                         nbest_size=-1, num_threads=1)

    def check(result):
        for w, ids in zip(plain_words, result):
            if sp.decode(ids) != w:
                raise AssertionError(f"SentencePiece ids {ids} do not spell {w!r}")

    return [Case(SENTENCEPIECE, "ulm-8k", None, None, len(plain_words), run=run,
                 count=lambda res: sum(map(len, res)), check=check)]


# =========================================================================== slider
@dataclass
class SliderResult:
    tau: float
    ell_min: int
    threads: int
    ms: list[float]
    hist: np.ndarray
    expected_m: float


def slider(word: str, n_samples: int, repeats: int, num_threads: int) -> list[SliderResult]:
    """Rebuild + ``sample_lengths(word, n_samples)`` + bincount, per (τ, ℓ_min)."""
    numba.set_num_threads(num_threads)
    infinite = Vocabulary.infinite()
    Grampa(infinite, seed=0).sample_lengths("warmup", 10)  # compile
    results = []
    for tau in TAUS:
        for ell_min in ELL_MINS:
            hist = None

            def redraw(tau=tau, ell_min=ell_min):
                nonlocal hist
                g = Grampa(infinite, tau=tau, ell_min=ell_min, seed=0)
                _, offsets = g.sample_lengths(word, n_samples)
                hist = np.bincount(np.diff(offsets))

            ms = [timed(redraw)[0] * 1e3 for _ in range(repeats)]
            exact = float(Grampa(infinite, tau=tau, ell_min=ell_min).law(word).expected_tokens)
            results.append(SliderResult(tau, ell_min, num_threads, ms, hist, exact))
    numba.set_num_threads(1)
    return results


# =========================================================================== report
def machine_info() -> list[tuple[str, str]]:
    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 0

    def version(dist: str) -> str:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    repo = Path(__file__).resolve().parent.parent
    try:
        rev = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--",
                                "workbench"], capture_output=True, text=True).stdout.strip()
        rev += " (workbench/ has uncommitted changes)" if dirty else ""
    except (OSError, subprocess.CalledProcessError):
        rev = "?"
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    return [
        ("date", datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")),
        ("CPU", cpu),
        ("cores", f"{os.cpu_count()} logical, {usable} usable; benchmark runs on 1 thread"),
        ("Python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("numba", f"{numba.__version__} (threading layer: {numba.threading_layer()})"),
        ("numpy", np.__version__),
        ("sentencepiece", version("sentencepiece")),
        ("tktkt", version("tktkt")),
        ("workbench commit", rev),
        ("load average (1/5/15 min)", load),
    ]


def fmt_rate(x: float) -> str:
    return f"{x:,.0f}"


def fmt_ratio(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x:,.0f}×" if x >= 100 else f"{x:,.1f}×"


def fmt_tau(tau: float | None) -> str:
    return "—" if tau is None else f"{tau:g}"


def results_table(cases: list[Case]) -> tuple[list[str], dict[tuple[str, str], list[float]]]:
    """Markdown rows, plus the ratios of the array form against each peer, by clock."""
    tk = {(c.vocab, c.tau, c.ell_min): c for c in cases if c.tokeniser == TKTKT}
    sp = next((c for c in cases if c.tokeniser == SENTENCEPIECE), None)
    ratios: dict[tuple[str, str], list[float]] = {
        (peer, clock): [] for peer in ("tktkt", "sentencepiece") for clock in ("wall", "cpu")
    }
    rows = [
        "| vocabulary | τ | ℓ_min | tokeniser | words timed | words/s (wall) "
        "| words/s (CPU) | tokens/word | × TkTkT | × SentencePiece |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    order = {WB_ENCODE: 0, WB_TOKENIZE: 1, TKTKT: 2, SENTENCEPIECE: 3}
    key = lambda c: (VOCABS.index(c.vocab), c.tau is None,  # noqa: E731
                     TAUS.index(c.tau) if c.tau is not None else 0, c.ell_min or 0,
                     order[c.tokeniser])
    for c in sorted(cases, key=key):
        vs_tk = vs_sp = None
        if c.tokeniser in (WB_ENCODE, WB_TOKENIZE):
            peers = {"tktkt": tk.get((c.vocab, c.tau, c.ell_min)),
                     "sentencepiece": sp if sp is not None and sp.vocab == c.vocab else None}
            for name, peer in peers.items():
                if peer is None:
                    continue
                wall = c.words_per_s / peer.words_per_s
                if name == "tktkt":
                    vs_tk = wall
                else:
                    vs_sp = wall
                if c.tokeniser == WB_ENCODE:
                    ratios[(name, "wall")].append(wall)
                    ratios[(name, "cpu")].append(c.cpu_words_per_s / peer.cpu_words_per_s)
        label = c.tokeniser
        if c.tokeniser == SENTENCEPIECE:
            label += " (α=0, nbest=−1; plain word in)"
        rows.append(
            f"| {c.vocab} | {fmt_tau(c.tau)} | {c.ell_min or '—'} | {label} | {c.n_words:,} "
            f"| {fmt_rate(c.words_per_s)} | {fmt_rate(c.cpu_words_per_s)} "
            f"| {c.tokens_per_word:.2f} | {fmt_ratio(vs_tk)} | {fmt_ratio(vs_sp)} |"
        )
    return rows, ratios


def slider_table(results: list[SliderResult], n_samples: int) -> list[str]:
    rows = [
        f"| τ | ℓ_min | numba threads | median ms ({n_samples:,} samples + bincount) "
        "| min ms | mean m (sampled) | E[m] (exact) |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        mean_m = float(np.dot(np.arange(r.hist.size), r.hist) / r.hist.sum())
        rows.append(f"| {r.tau:g} | {r.ell_min} | {r.threads} | {statistics.median(r.ms):.1f} "
                    f"| {min(r.ms):.1f} | {mean_m:.3f} | {r.expected_m:.3f} |")
    return rows


def verdict(name: str, values: list[float], target: float, higher: bool = True,
            cpu: list[float] | None = None) -> str:
    if not values:
        return f"- {name}: not measured (peer not installed)"
    worst, best = (min(values), max(values)) if higher else (max(values), min(values))
    ok = worst >= target if higher else worst < target
    sign = "≥" if higher else "<"
    line = f"- {name}: worst {worst:,.1f}, best {best:,.1f}"
    if cpu:
        line += f" (by CPU time: worst {min(cpu):,.1f}, best {max(cpu):,.1f})"
    return line + f"; target {sign} {target:g} — {'MET' if ok else 'MISSED'}"


# =========================================================================== main
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--words", type=int, default=20_000,
                   help="most frequent English words timed for workbench and SentencePiece")
    p.add_argument("--tktkt-words", type=int, default=2_000,
                   help="evenly spaced subset of those words timed for TkTkT")
    p.add_argument("--repeats", type=int, default=7, help="timed rounds (median reported)")
    p.add_argument("--slider-samples", type=int, default=100_000)
    p.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    args = p.parse_args(argv)
    if args.quick:
        args.words, args.tktkt_words, args.repeats = 300, 30, 2
        args.slider_samples = 2_000
    args.tktkt_words = min(args.tktkt_words, args.words)
    if min(args.words, args.tktkt_words, args.repeats, args.slider_samples) < 1:
        p.error("sizes and repeats must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    numba.set_num_threads(1)
    assert len(SLIDER_WORD) == 29

    plain = data.english_words(args.words)
    step = max(1, len(plain) // args.tktkt_words)
    subset = plain[::step][: args.tktkt_words]
    print(f"{len(plain):,} most frequent English words (mean length "
          f"{np.mean([len(w) for w in plain]):.2f}); TkTkT on every {step}th: {len(subset):,} "
          f"words (mean length {np.mean([len(w) for w in subset]):.2f})")

    cases: list[Case] = []
    for name in VOCABS:
        vocab = data.load_vocabulary(name)
        spelled = [vocab.to_alphabet(" " + w) for w in plain]
        print(f"{name}: {len(vocab):,} tokens, e.g. {spelled[0]!r}")
        cases += workbench_cases(name, vocab, spelled)
        cases += tktkt_cases(name, vocab, [vocab.to_alphabet(" " + w) for w in subset])
    cases += sentencepiece_cases(plain)

    print(f"warming up {len(cases)} cases (JIT compilation, output checks) ...", flush=True)
    for case in cases:
        case.warm_up()
    gc.freeze()  # setup objects out of the collector's way: gc.collect() before a call is cheap
    print(f"timing: {args.repeats} interleaved rounds", flush=True)
    run_rounds(cases, args.repeats)

    print(f"slider: {args.slider_samples:,} samples of {SLIDER_WORD!r} "
          f"({len(SLIDER_WORD)} chars), infinite vocabulary", flush=True)
    all_threads = numba.config.NUMBA_NUM_THREADS
    sliders = slider(SLIDER_WORD, args.slider_samples, args.repeats, num_threads=1)
    if all_threads > 1:
        sliders += slider(SLIDER_WORD, args.slider_samples, args.repeats, num_threads=all_threads)
    hist = sliders[0].hist

    rows, ratios = results_table(cases)
    out = ["", "## GRaMPa throughput (single thread)", ""]
    out += [f"- {k}: {v}" for k, v in machine_info()]
    out += [f"- words: the {len(plain):,} most frequent English words "
            f"(`workbench.datasets.english_words`), `vocab.to_alphabet(' ' + w)` for workbench and "
            f"TkTkT, plain `w` for SentencePiece (it adds `▁` itself); TkTkT on "
            f"{len(subset):,} of them (every {step}th)",
            f"- medians of {args.repeats} interleaved rounds after a warm-up call; "
            f"ratios are of wall-clock words/s; CPU = process CPU time",
            ""]
    out += rows
    out += ["", f"### Slider latency: `sample_lengths({SLIDER_WORD!r}, "
            f"{args.slider_samples:,})` + `np.bincount(np.diff(offsets))`, "
            "infinite vocabulary", ""]
    out += slider_table(sliders, args.slider_samples)
    out += ["", "Histogram of m at τ = 1, ℓ_min = 1 (m: count): "
            + ", ".join(f"{m}: {c}" for m, c in enumerate(hist.tolist()) if c), ""]
    out += ["### Targets (array form `Grampa.encode_flat`; ratios of wall-clock words/s)", ""]
    out.append(verdict("× TkTkT, both vocabularies, all (τ, ℓ_min)", ratios[("tktkt", "wall")],
                       TARGET_VS_TKTKT, cpu=ratios[("tktkt", "cpu")]))
    out.append(verdict("× SentencePiece, ulm-8k, all (τ, ℓ_min)",
                       ratios[("sentencepiece", "wall")], TARGET_VS_SENTENCEPIECE,
                       cpu=ratios[("sentencepiece", "cpu")]))
    out.append(verdict("slider latency in ms, 1 thread",
                       [statistics.median(r.ms) for r in sliders if r.threads == 1],
                       TARGET_SLIDER_MS, higher=False))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
