"""Renamed keywords keep working for one release, with a warning naming the new call (issue 37
items 3 and 6): ``num_threads`` for every count of threads, ``dropout`` on the CLI."""

from __future__ import annotations

import inspect
import warnings

import pytest

from workbench import ArgumentTypeError, BPEModel, TextTokenizer, WorkbenchDeprecationWarning
from workbench.__main__ import main
from workbench._core.deprecation import renamed_keywords, warn_deprecated
from workbench.bpe.counting import count_chunks
from workbench.pretokenise import tokenize_corpus


@renamed_keywords(old="new")
def _f(*, new: int = 0) -> int:
    """A function whose keyword ``old`` was renamed ``new``."""
    return new


def test_the_old_keyword_warns_and_passes_its_value() -> None:
    with pytest.warns(DeprecationWarning, match=r"_f\(old=\.\.\.\) is deprecated .* _f\(new="):
        assert _f(old=3) == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _f(new=4) == 4  # the new name: no warning


def test_the_warning_is_the_packages_own_deprecation_and_names_the_caller() -> None:
    """A ``DeprecationWarning`` subclass (``except DeprecationWarning`` code still sees it)
    that the suite turns into an error; the warning points at the line that used the old
    spelling, not at the package."""
    assert issubclass(WorkbenchDeprecationWarning, DeprecationWarning)

    def old_verb() -> None:
        warn_deprecated("old_verb()", "new_verb()")

    with pytest.warns(WorkbenchDeprecationWarning) as caught:
        old_verb()
        _f(old=1)
    assert [w.filename for w in caught] == [__file__, __file__]
    assert str(caught[0].message) == ("old_verb() is deprecated and goes in the next release: "
                                      "use new_verb()")
    with pytest.raises(WorkbenchDeprecationWarning):  # pyproject.toml: an error in the tests
        old_verb()


def test_both_names_are_refused_and_the_signature_shows_the_new() -> None:
    with pytest.raises(ArgumentTypeError, match="give new= alone"):
        _f(old=1, new=2)
    assert list(inspect.signature(_f).parameters) == ["new"]


TEXTS = ["See you at 12:30.", "See you!"]


@pytest.mark.parametrize(("call", "old", "new"), [
    (lambda **k: count_chunks(texts=TEXTS, **k), {"processes": 1}, {"num_threads": 1}),
    (lambda **k: BPEModel.from_gpt2().encode_batch(TEXTS, **k), {"threads": 1},
     {"num_threads": 1}),
], ids=["count_chunks(processes=)", "BPEModel.encode_batch(threads=)"])
def test_each_renamed_thread_count_still_works(call, old, new) -> None:
    with pytest.warns(DeprecationWarning, match="num_threads="):
        before = call(**old)
    assert before == call(**new)


def test_tokenize_corpus_workers_still_works() -> None:
    from workbench import Grampa, datasets

    tok = TextTokenizer(Grampa(datasets.load_vocabulary("ulm-8k")), p=0.5)
    with pytest.warns(DeprecationWarning, match=r"tokenize_corpus\(num_threads="):
        ids, offsets = tokenize_corpus(["a b\nc"], tok, workers=1, progress=False)
    again, _ = tokenize_corpus(["a b\nc"], tok, num_threads=1, progress=False)
    assert ids.tolist() == again.tolist()


def test_the_cli_takes_dropout_and_still_reads_p(capsys) -> None:
    args = ["law", "--vocab", "ulm-8k", "--space", "--sampler", "maxmatch-dropout", "--json"]
    assert main([*args, "--dropout", "0.3", "hello"]) == 0
    new = capsys.readouterr()
    assert main([*args, "--p", "0.3", "hello"]) == 0
    old = capsys.readouterr()
    assert old.out == new.out and "--p for --sampler maxmatch-dropout is deprecated" in old.err
    assert "deprecated" not in new.err
    assert main([*args, "--p", "0.3", "--dropout", "0.3", "hello"]) != 0
