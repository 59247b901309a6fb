"""Command-line interface: ``python -m workbench <subcommand>`` (also installed as ``workbench``).

Subcommands are registered in :data:`COMMANDS` (name → :class:`Command`); to add one,
write a ``configure(parser)`` and a ``run(args) -> int`` and add an entry. Heavy imports
happen inside ``run`` so that ``--help`` stays fast.

This module does no work itself; it only parses arguments and dispatches.

Example
-------
``python -m workbench verify`` prints the verification table of :mod:`workbench.theory`
and exits with status 1 if any check failed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """One subcommand: its help line, argument set-up and entry point (returns exit code)."""

    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# --------------------------------------------------------------------------- verify
def _configure_verify(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", metavar="TEXT", default=None,
                        help="run only the checks whose name contains TEXT (e.g. 'LOCK')")
    parser.add_argument("--format", choices=("table", "csv"), default="table",
                        help="output format (default: table)")
    parser.add_argument("--width", type=int, default=60,
                        help="cut table cells to this many characters (default: 60)")


def _run_verify(args: argparse.Namespace) -> int:
    from workbench.theory.verify import all_passed, format_table, to_frame, verify

    rows = verify(only=args.only)
    if args.format == "csv":
        print(to_frame(rows).to_csv(index=False), end="")
    else:
        print(format_table(rows, width=args.width))
    if not rows:
        print(f"no check matches --only {args.only!r}", file=sys.stderr)
        return 2
    return 0 if all_passed(rows) else 1


COMMANDS: dict[str, Command] = {
    "verify": Command(
        help="check every closed form of workbench.theory (symbolic, exact, statistical)",
        configure=_configure_verify,
        run=_run_verify,
    ),
}
"""Registered subcommands, name → :class:`Command`."""


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with one sub-parser per entry of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(prog="workbench",
                                     description="Tokenisation workbench command line.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, command in COMMANDS.items():
        command.configure(sub.add_parser(name, help=command.help, description=command.help))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default ``sys.argv[1:]``), run the subcommand, return its exit code."""
    args = build_parser().parse_args(argv)
    return COMMANDS[args.command].run(args)


if __name__ == "__main__":
    sys.exit(main())
