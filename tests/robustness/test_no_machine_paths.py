"""No tracked file names a folder outside the repository or a path of one machine.

A clone has only itself: a command, a docstring or a test that reads ``../shared/data``, a
home directory or a fixed ``/tmp`` file works on the machine it was written on and nowhere
else. Every tracked text file (prose, code, notebooks, BENCHMARKS.md included) is searched
for the prefixes in ``FORBIDDEN``.

What is not flagged: temporary files made at run time (``tempfile``, pytest's ``tmp_path``,
``mktemp -d``), which name no fixed path, and ``~/`` in a command (the reader's own home).
Binary files (the ``.xz`` archives, SentencePiece models) and this file (its examples) are not
searched.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Fixed paths no file of the project may name (written split so this file does not match).
FORBIDDEN = ("../" + "shared", "shared" + "/data", "/" + "work/", "/" + "root/", "/" + "home/",
             "/" + "tmp/")
#: A prefix counts only where a path starts: not inside a URL or a longer word
#: (``github.com/x/work/``), so the character before it is none, a space, a quote, ``(``,
#: ``=``, ``:``, a backtick or ``[``.
_PATTERN = re.compile("(?:^|(?<=[\\s\"'`(=:\\[]))(?:" + "|".join(map(re.escape, FORBIDDEN)) + ")")


def _tracked_files() -> list[Path]:
    try:
        listing = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                                 check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git work tree (a source distribution has no file list to check)",
                    allow_module_level=True)
    return [ROOT / name for name in listing.decode("utf-8", "surrogateescape").split("\0") if name]


def _text(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except OSError:  # listed but absent (a sparse or partial checkout)
        return None
    if b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", "replace")


def offending_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every line naming a forbidden path."""
    return [(number, line.strip()[:120]) for number, line in enumerate(text.splitlines(), 1)
            if _PATTERN.search(line)]


@pytest.mark.parametrize("line,flagged", [
    ("see `../shared/data/un.tsv`", True),
    ("WORKBENCH_SHARED_DATA=/work/shared/data python bench.py", True),
    ("flock /tmp/heavy.lock python x.py", True),
    ('Path("/home/me/corpus")', True),
    ("cd /root/project", True),
    ("the `shared/data/` folder", True),
    ("shared machine hits all of them alike", False),
    ("with tempfile.TemporaryDirectory() as tmp:", False),
    ("https://example.org/work/index.html", False),
    ('RAW=$(mktemp -d) && cd "$RAW"', False),
    ("python3 -m venv ~/venvs/bench", False),
])
def test_the_pattern_flags_fixed_paths_only(line, flagged):
    assert bool(offending_lines(line)) is flagged


def test_no_tracked_file_names_a_path_outside_the_repository():
    found = []
    for path in _tracked_files():
        if path == Path(__file__).resolve():  # its examples name such paths on purpose
            continue
        text = _text(path)
        if text is None:
            continue
        found += [f"{path.relative_to(ROOT)}:{n}: {line}" for n, line in offending_lines(text)]
    assert not found, "\n".join(found)
