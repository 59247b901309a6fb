"""Command-line interface: ``python -m workbench <subcommand>`` (also installed as ``workbench``).

Subcommands are registered in :data:`COMMANDS` (name → :class:`Command`); to add one,
write a ``configure(parser)`` and a ``run(args) -> int`` and add an entry. Heavy imports
happen inside ``run`` so that ``--help`` stays fast.

This module does no work itself; it only parses arguments and dispatches.

Examples
--------
``python -m workbench sample --vocab gpt2 --space --tau 5 -n 3 tokenisation`` prints three
GRaMPa segmentations of " tokenisation" (with several words, each line starts with its word
and a tab); ``python -m workbench count --vocab infinite abcd`` prints ``abcd<tab>8``;
``python -m workbench law --sampler bpe-dropout --dropout 0.1 --vocab gpt2 --space tokenization``
prints the exact law of BPE-dropout on " tokenization"; ``python -m workbench verify`` prints
the verification table (each paper's claims checked against the code) and exits with status 1
if any check failed. ``sample``, ``count``, ``law`` and ``verify`` take ``--json`` for scripts.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from workbench import cli_words as words

from ._core.errors import InvalidValueError


def _positive_int(text: str) -> int:
    """argparse type: an integer >= 1 (``-n 0`` or ``--width -5`` is a usage error)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _pyproject_version() -> str | None:
    """The ``version`` of ``[project]`` in the pyproject.toml beside the package, if any.

    Read line by line (no TOML parser: ``tomllib`` is Python >= 3.11), for a source tree
    that is on ``sys.path`` but not installed.
    """
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "pyproject.toml"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    section = None
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("["):
            section = stripped
        elif section == "[project]" and stripped.startswith("version"):
            key, _, value = stripped.partition("=")
            if key.strip() == "version":
                return value.strip().strip("\"'")
    return None


def package_version() -> str:
    """The installed version (:mod:`importlib.metadata`), else pyproject.toml's, else unknown."""
    from importlib import metadata

    try:
        return metadata.version("tokenisation-workbench")
    except metadata.PackageNotFoundError:
        return _pyproject_version() or "unknown"


class _VersionAction(argparse.Action):
    """``--version``: print ``workbench <version>`` and exit; the version is looked up only then."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0,
                         help=help)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"{parser.prog} {package_version()}")
        parser.exit()


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Adds "(default: X)" to an option's help only where the help does not already say its
    default and X means something (not None, not a flag's False)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text or action.default in (None, False, argparse.SUPPRESS):
            return text
        return super()._get_help_string(action)


def _print_json(value: object) -> None:
    """``value`` as JSON that ``json.loads`` reads back with its defaults: an int past its
    4,300 digits (a segmentation count) is written as a string of its digits."""
    print(json.dumps(_readable(value), ensure_ascii=False, indent=1, default=str))


def _readable(value: object) -> object:
    from workbench._core.bigint import json_int

    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return json_int(value)
    if isinstance(value, dict):
        return {k: _readable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_readable(v) for v in value]
    return value


@dataclass(frozen=True)
class Command:
    """One subcommand: its help line, argument set-up and entry point (returns exit code)."""

    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# --------------------------------------------------------------------------- verify
def _configure_verify(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", metavar="TEXT", default=None,
                        help="run only the checks with a word of their name starting with TEXT "
                             "(case-insensitive; 'LOCK' runs the LOCK checks, not 'Code "
                             "Block'; default: all)")
    parser.add_argument("--format", choices=("table", "csv"), default="table",
                        help="output format")
    parser.add_argument("--json", action="store_true",
                        help="print the rows as JSON (a list of objects), overrides --format")
    parser.add_argument("--width", type=_positive_int, default=60,
                        help="cut table cells to this many characters")


def _run_verify(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from workbench.checks import all_passed, format_table, to_frame, verify

    rows = verify(only=args.only)
    if args.json:
        _print_json([asdict(row) for row in rows])
    elif args.format == "csv":
        print(to_frame(rows).to_csv(index=False), end="")
    else:
        print(format_table(rows, width=args.width))
    if not rows:
        print(f"no check matches --only {args.only!r}", file=sys.stderr)
        return 2
    return 0 if all_passed(rows) else 1


# --------------------------------------------------------------------------- sample, count
# The input policy is the panels' (workbench.datasets.catalog): a vocabulary is a name or a file (an
# unknown name lists the valid ones); the empty word has one segmentation, the empty one,
# printed as ∅; a word without segmentation is explained on stderr (exit status 1).
def _configure_segmenting(parser: argparse.ArgumentParser, sampling: bool) -> None:
    parser.add_argument("words", nargs="+",
                        help="plain words, spelled in the vocabulary's alphabet before "
                             "segmenting (e.g. ' hi' -> 'Ġhi' for gpt2); without --space a "
                             "word is segmented as a word-interior string; '' is the empty "
                             "word")
    parser.add_argument("--vocab", default="ulm-8k",
                        help="ulm-8k, bpe-8k, gpt2, infinite, figure-1 (the 12 uppercase "
                             "tokens of GRaMPa's Figure 1, for 'GRAMPA') or a vocabulary file "
                             "(tokenizer.json, SentencePiece .model, encoder.json, tiktoken "
                             "file, token list)")
    parser.add_argument("--ell-min", type=int, default=1, help="soft minimum token length")
    parser.add_argument("--direction", choices=("l2r", "r2l"), default="l2r",
                        help="direction of GRaMPa's construction")
    parser.add_argument("--space", action="store_true",
                        help="prefix each word with a space: the word as it appears after a "
                             "space in text ('Ġword' for gpt2, '▁word' for SentencePiece)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object (vocabulary, words as spelled, results)")
    if sampling:
        parser.add_argument("--tau", type=float, default=1.0, help="temperature (not 0)")
        parser.add_argument("-n", type=_positive_int, default=5, help="samples per word")
        parser.add_argument("--seed", type=int, default=0, help="random seed")


def _run_sample(args: argparse.Namespace) -> int:
    from workbench import Grampa
    from workbench._core.validate import BudgetError
    from workbench.datasets import resolve_vocabulary
    from workbench.lattice import SegmentationError, format_segmentation

    vocab = resolve_vocabulary(args.vocab)
    g = Grampa(vocab, tau=args.tau, ell_min=args.ell_min, direction=args.direction,
               seed=args.seed)
    several = len(args.words) > 1
    status = 0
    out = []
    for typed, word in zip(args.words, words.spelled(args, vocab)):
        note = words.spelling_note(args, vocab, typed, word)
        entry = {"word": typed, "spelled": word, "note": note, "segmentations": []}
        out.append(entry)
        if note and not args.json:
            print(f"workbench sample: {note}", file=sys.stderr)
        try:  # the reason is worded only for a word that has no segmentation
            segs = g.sample_many(word, args.n)
        except SegmentationError:
            entry["error"] = words.reason(args, vocab, word)
            if not args.json:
                print(f"workbench sample: {entry['error']}", file=sys.stderr)
            status = 1
            continue
        except BudgetError as err:
            raise BudgetError(f"{err}; lower -n (samples per word, now {args.n:,})") from None
        entry["segmentations"] = [list(seg) for seg in segs]
        if not args.json:
            for seg in segs:
                line = format_segmentation(seg)
                print(f"{words.label(word)}\t{line}" if several else line)
    if args.json:
        _print_json({"vocab": words.vocab_label(args, vocab), "alphabet": vocab.alphabet,
                     "words": out})
    return status


def _run_count(args: argparse.Namespace) -> int:
    from workbench import count_segmentations
    from workbench._core.bigint import exact_digits
    from workbench.datasets import resolve_vocabulary

    vocab = resolve_vocabulary(args.vocab)
    status = 0
    out = []
    for typed, word in zip(args.words, words.spelled(args, vocab)):
        note = words.spelling_note(args, vocab, typed, word)
        n = count_segmentations(word, vocab, args.ell_min, args.direction)
        # counts of long words have thousands of digits: printed whole; in JSON a count past
        # the 4,300 digits json.loads reads by default is a string of its digits
        entry = {"word": typed, "spelled": word, "note": note, "count": n}
        out.append(entry)
        if not args.json:
            if note:
                print(f"workbench count: {note}", file=sys.stderr)
            print(f"{words.label(word)}\t{exact_digits(n)}")
        if n == 0:
            entry["error"] = words.reason(args, vocab, word)
            if not args.json:
                print(f"workbench count: {entry['error']}", file=sys.stderr)
            status = 1
    if args.json:
        _print_json({"vocab": words.vocab_label(args, vocab), "alphabet": vocab.alphabet,
                     "words": out})
    return status


# --------------------------------------------------------------------------- figures
def _configure_figures(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default=None,
                        help="output directory (default results/figures; with --fast a new "
                             "temporary directory, printed, so a fast run never replaces the "
                             "full figures)")
    parser.add_argument("--fast", action="store_true",
                        help="fewer samples and words: noisier figures, for a smoke test "
                             "(the full run takes about 15 s on 2 cores once the kernels are "
                             "compiled)")
    parser.add_argument("--only", metavar="TEXT", default=None,
                        help="only the figures whose name contains TEXT (e.g. 'fig3')")


def _run_figures(args: argparse.Namespace) -> int:
    import matplotlib

    matplotlib.use("Agg")
    from workbench.figures.paper_figures import write_figures

    out = args.out or (_quick_dir("figures") if args.fast else "results/figures")
    for path in write_figures(out, fast=args.fast, only=args.only):
        print(path)
    return 0


# --------------------------------------------------------------------------- experiments
EXPERIMENTS = ("renyi", "efficiency")
_QUICK = {
    "renyi": ["--max-lines", "3000", "--vocab-sizes", "512", "--seeds", "0", "--drops", "10"],
    "efficiency": ["--max-lines", "2000", "--seeds", "0", "--bpe-size", "1024"],
}


def _quick_dir(command: str) -> str:
    """A new temporary directory for a quick run's output, announced on stderr."""
    path = tempfile.mkdtemp(prefix=f"workbench-{command}-quick-")
    print(f"workbench {command}: quick run, writing to {path} (give --out to choose)",
          file=sys.stderr)
    return path


def _configure_experiments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default=None,
                        help="parent directory of the result folders (default results; with "
                             "--quick a new temporary directory, printed, so a smoke test "
                             "never overwrites the committed results)")
    parser.add_argument("--only", choices=EXPERIMENTS, default=None,
                        help="run one experiment (default: all)")
    parser.add_argument("--quick", action="store_true",
                        help="a small slice of the text and one seed (a smoke test)")


def _run_experiments(args: argparse.Namespace) -> int:
    import importlib.util
    from pathlib import Path

    missing = [m for m in ("sentencepiece",) if importlib.util.find_spec(m) is None]
    if missing:  # before any work: the efficiency experiment trains SentencePiece ULMs
        print(f"workbench experiments: error: needs the optional package(s) "
              f"{', '.join(missing)}: pip install {' '.join(missing)} (or the [dev] extra)",
              file=sys.stderr)
        return 2

    import matplotlib

    matplotlib.use("Agg")
    from workbench.experiments import grampa_efficiency, renyi
    from workbench.figures.efficiency import save_figures

    runners = {"renyi": renyi.main,
               "efficiency": lambda argv: grampa_efficiency.main(argv, draw=save_figures)}
    status = 0
    parent = args.out or (_quick_dir("experiments") if args.quick else "results")
    for name in EXPERIMENTS:
        if args.only and name != args.only:
            continue
        argv = ["--out", str(Path(parent) / name)] + (_QUICK[name] if args.quick else [])
        status = max(status, runners[name](argv))
    return status


# --------------------------------------------------------------------------- tables
def _configure_tables(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default=None,
                        help="output directory (default results/tables, or "
                             "results/tables-quick with --quick, so a smoke test never "
                             "overwrites the committed tables)")
    parser.add_argument("--quick", action="store_true",
                        help="a small slice of the text and M = 20 (seconds instead of minutes)")
    parser.add_argument("--seed", type=int, default=0, help="random seed")


def _run_tables(args: argparse.Namespace) -> int:
    from workbench.experiments import grampa_tables as tables

    argv = ["--seed", str(args.seed)] + (["--quick"] if args.quick else [])
    if args.out is not None:
        argv += ["--out", str(args.out)]
    return tables.main(argv)


# --------------------------------------------------------------------------- law
LAW_SAMPLERS = ("grampa", "ulm", "maxmatch-dropout", "bpe-dropout", "uniform", "bits",
                "unigram", "stochastok")
DEFAULT_DROPOUT = 0.1  # --dropout of maxmatch-dropout and bpe-dropout
DEFAULT_BIT_P = 0.1  # --p of the boundary-bit rejection sampler


def _dropout(args: argparse.Namespace) -> float:
    """``--dropout``, or the deprecated ``--p`` for a dropout sampler (with a warning)."""
    if args.p is None:
        return DEFAULT_DROPOUT if args.dropout is None else args.dropout
    if args.dropout is not None:
        raise InvalidValueError("give --dropout alone (--p is its old spelling)")
    print(f"warning: --p for --sampler {args.sampler} is deprecated and goes in the next "
          "release: use --dropout", file=sys.stderr)
    return args.p


def _configure_law(parser: argparse.ArgumentParser) -> None:
    _configure_segmenting(parser, sampling=False)
    parser.add_argument("--sampler", choices=LAW_SAMPLERS, default="grampa",
                        help="whose law: GRaMPa (--tau), ULM (--alpha, --nbest), "
                             "MaxMatch-/BPE-dropout (--dropout), the uniform, boundary-bit (--p) "
                             "or unigram rejection sampler, StochasTok (--attempts or "
                             "--rate, --max-splits)")
    parser.add_argument("--dropout", type=float, default=None,
                        help="the drop probability of maxmatch-dropout and bpe-dropout "
                             f"(default {DEFAULT_DROPOUT})")
    parser.add_argument("--p", type=float, default=None,
                        help=f"the bit proclivity of bits (default {DEFAULT_BIT_P}); for a dropout "
                             "sampler, the old spelling of --dropout (deprecated)")
    parser.add_argument("--tau", type=float, default=1.0, help="GRaMPa's temperature (not 0)")
    parser.add_argument("--alpha", type=float, default=1.0, help="ULM's smoothing α")
    parser.add_argument("--nbest", type=int, default=-1,
                        help="ULM's k (-1: every segmentation, SentencePiece's nbest_size=-1)")
    parser.add_argument("--attempts", type=int, default=None,
                        help="StochasTok's split attempts per word (default: --rate)")
    parser.add_argument("--rate", type=float, default=None,
                        help="StochasTok's attempts per base token, the paper's expand_prop "
                             "(default 0.1)")
    parser.add_argument("--max-splits", type=int, default=None,
                        help="StochasTok stops after this many splits")
    parser.add_argument("--top", type=int, default=10, help="segmentations listed")


def _law_sampler(args: argparse.Namespace, vocab):
    """The sampler ``--sampler`` names, over ``vocab`` (GPT-2's own merges for gpt2)."""
    from workbench import (
        BitRejectionSampler,
        BPEModel,
        BPESampler,
        Grampa,
        MarkovRejectionSampler,
        MaxMatchSampler,
        ULMSampler,
        UnigramRejectionSampler,
    )

    name = args.sampler
    if name == "grampa":
        return Grampa(vocab, tau=args.tau, ell_min=args.ell_min, direction=args.direction)
    if name == "ulm":
        return ULMSampler(vocab, nbest=args.nbest, alpha=args.alpha)
    if name == "maxmatch-dropout":
        return MaxMatchSampler(vocab, dropout=_dropout(args))
    if name == "bpe-dropout":
        model = BPEModel.from_gpt2() if args.vocab == "gpt2" else None
        return BPESampler(vocab, dropout=_dropout(args), model=model)
    if name == "bits":
        return BitRejectionSampler(vocab, p=DEFAULT_BIT_P if args.p is None else args.p)
    if name == "stochastok":  # the paper splits GPT-2's BPE tokens; MaxMatch's elsewhere
        from workbench.samplers import StochasTokSampler

        base = (BPESampler(vocab, model=BPEModel.from_gpt2()).sample
                if args.vocab == "gpt2" else None)
        return StochasTokSampler(vocab, attempts=args.attempts, rate=args.rate,
                                 max_splits=args.max_splits, base=base)
    return MarkovRejectionSampler(vocab) if name == "uniform" else UnigramRejectionSampler(vocab)


def _run_law(args: argparse.Namespace) -> int:
    import json

    from workbench.datasets import resolve_vocabulary
    from workbench.lattice import SegmentationError, format_segmentation, no_segmentation_reason

    if args.top < 0:
        raise InvalidValueError(f"--top must be >= 0, got {args.top}")
    vocab = resolve_vocabulary(args.vocab)
    sampler = _law_sampler(args, vocab)
    status = 0
    for typed, word in zip(args.words, words.spelled(args, vocab)):
        marker = vocab.to_alphabet(" ")
        if marker != " " and marker in typed and word != typed:  # 'Ġtokenization' copied
            note = words.spelling_note(args, vocab, typed, word)
            print(f"workbench law: {note}", file=sys.stderr)
        try:
            law = sampler.law(word)
        except SegmentationError as err:
            reason = no_segmentation_reason(word, vocab, spelled=True) or str(err)
            print(f"workbench law: {reason}", file=sys.stderr)
            status = 1
            continue
        summary = {"sampler": repr(sampler), **law.summary(top=args.top)}
        if args.json:
            print(json.dumps(summary, ensure_ascii=False))
            continue
        for key, value in summary.items():
            if key not in ("top", "word"):
                print(f"{key}\t{value}")
        print(f"top {len(summary['top'])} of {law.support_size:,} segmentations of "
              f"{words.label(word)}:")
        for item in summary["top"]:
            print(f"{item['probability']:.6g}\t{format_segmentation(item['tokens'])}")
    return status


# --------------------------------------------------------------------------- warmup
def _run_warmup(args: argparse.Namespace) -> int:
    from workbench.warmup import warmup

    report = warmup(lambda line: print(line, file=sys.stderr, flush=True),
                    kept=not args.no_kept)
    print(f"{len(report.compiled)} of {len(report.kernels)} kernels compiled and cached")
    for name in report.missing:
        print(f"not reached by the warm-up workload: {name}", file=sys.stderr)
    return 0


COMMANDS: dict[str, Command] = {
    "sample": Command(
        help="sample GRaMPa segmentations of words",
        configure=lambda p: _configure_segmenting(p, sampling=True),
        run=_run_sample,
    ),
    "count": Command(
        help="exact number of segmentations of words (in the walked graph for --ell-min)",
        configure=lambda p: _configure_segmenting(p, sampling=False),
        run=_run_count,
    ),
    "figures": Command(
        help="regenerate every reproduced paper figure (SVG, PNG) with captions.md",
        configure=_configure_figures,
        run=_run_figures,
    ),
    "experiments": Command(
        help="regenerate the Rényi counterexample tables and Figures 10-12 into results/",
        configure=_configure_experiments,
        run=_run_experiments,
    ),
    "tables": Command(
        help="GRaMPa Tables 7 and 8 (segmentation statistics, 16 tokenisers) into results/tables",
        configure=_configure_tables,
        run=_run_tables,
    ),
    "law": Command(
        help="the exact segmentation law of a sampler on words: summary and top segmentations",
        configure=_configure_law,
        run=_run_law,
    ),
    "warmup": Command(
        help="compile every numba kernel once into the cache and fill the course's kept "
             "results (make runs it after installing)",
        configure=lambda p: p.add_argument(
            "--no-kept", action="store_true",
            help="only the kernels: do not fill the kept results of notebooks 07, 09, 11"),
        run=_run_warmup,
    ),
    "verify": Command(
        help="check each paper's claims against the code: the closed forms of "
             "workbench.theory (symbolic, exact, statistical) and trained models (BatchBPE, "
             "GreedTok)",
        configure=_configure_verify,
        run=_run_verify,
    ),
}
"""Registered subcommands, name → :class:`Command`."""


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with one sub-parser per entry of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(prog="workbench",
                                     description="Tokenisation workbench command line.",
                                     formatter_class=_HelpFormatter)
    parser.add_argument("--version", action=_VersionAction,
                        help="print the installed version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, command in COMMANDS.items():
        command.configure(sub.add_parser(
            name, help=command.help, description=command.help,
            formatter_class=_HelpFormatter))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default ``sys.argv[1:]``), run the subcommand, return its exit code."""
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command].run(args)
    except (ValueError, TypeError, OSError) as err:  # bad input: a message, not a traceback
        print(f"workbench {args.command}: error: {err}", file=sys.stderr)
        return 2


def _exit(code: int) -> None:
    """Exit with ``code``, sparing the interpreter's last full garbage collection.

    A process that loaded numba kernels holds ~110k GC-tracked objects of numba's typing
    and target contexts; the collections of interpreter shutdown walk them all and cost
    0.1-0.2 s, more than a small command's own work. The CLI owns its process and has
    closed every file it wrote (``_core.io``), so it moves the survivors to the permanent
    generation (:func:`gc.freeze`) first: they are still released by reference counting,
    only the cyclic collector skips them. The library never does this to its caller.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    _exit(main())
