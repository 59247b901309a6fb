"""The CLI's free-text arguments (issue 42 item 2): any string given to a numeric option is
either a clear refusal (argparse's usage error, or ``workbench <command>: ...``; exit code 1
or 2, no traceback) or a value that round-trips: the command prints exactly what it
prints for the value's canonical spelling (``repr(float(s))`` / ``str(int(s))``)."""

from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.__main__ import main

#: (option, its type, the rest of the command line); one word of ulm-8k, printed as JSON
OPTIONS = [
    ("--tau", float, ["law", "--sampler", "grampa"]),
    ("--ell-min", int, ["law", "--sampler", "grampa"]),
    ("--alpha", float, ["law", "--sampler", "ulm", "--nbest", "4"]),
    ("--nbest", int, ["law", "--sampler", "ulm"]),
    ("--dropout", float, ["law", "--sampler", "maxmatch-dropout"]),
    ("--p", float, ["law", "--sampler", "bits"]),
    ("--rate", float, ["law", "--sampler", "stochastok"]),
    ("--attempts", int, ["law", "--sampler", "stochastok"]),
    ("--max-splits", int, ["law", "--sampler", "stochastok", "--attempts", "2"]),
    ("--top", int, ["law", "--sampler", "grampa"]),
    ("--tau", float, ["sample", "-n", "3"]),
    ("-n", int, ["sample"]),
    ("--seed", int, ["sample", "-n", "2"]),
    ("--ell-min", int, ["count"]),
]
WORD = ["--vocab", "ulm-8k", "--space", "--json", "tokenise"]

NUMBERISH = st.sampled_from([
    "0", "-0", "0.0", "-0.0", "1", "-1", "2", "0.5", "1e-310", "-1e-310", "5e-324", "1e308",
    "1e309", "-1e309", "inf", "-inf", "nan", "NaN", "1e400", "1e99999999", "0x10", "1_000",
    " 3 ", "3\n", "\u0663", "\uff13", "1,5", "1.5.5", "", "-", "e", "9" * 5000,
    str(2**63), str(-(2**63) - 1), str(10**400), "--tau", "\x00", "\ud800",
])


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's usage error
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def _canonical(text: str, kind: type) -> str | None:
    try:
        value = kind(text)
    except (ValueError, OverflowError):
        return None
    return repr(value) if kind is float else str(value)


@pytest.mark.parametrize(("option", "kind", "command"), OPTIONS,
                         ids=[f"{c[0]} {o}" for o, _, c in OPTIONS])
@settings(max_examples=25, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(text=st.one_of(NUMBERISH, st.text(max_size=12)))
def test_any_string_is_a_clear_refusal_or_round_trips(option, kind, command, text):
    argv = [*command, f"{option}={text}", *WORD]  # '=': a value starting with '-' is a value
    code, out, err = _run(argv)
    assert "Traceback" not in err + out, err[-2000:]
    if code != 0:
        assert code in (1, 2) and err.strip(), (argv, code, err)
        # argparse's usage error, or the command's own one-line refusal
        assert err.lstrip().startswith(("usage:", "workbench")), err[-500:]
        return
    canonical = _canonical(text, kind)
    assert canonical is not None, f"{argv} was accepted but {kind.__name__}({text!r}) is not"
    again = _run([*command, f"{option}={canonical}", *WORD])
    assert again == (0, out, err), f"{text!r} and {canonical!r} differ"
