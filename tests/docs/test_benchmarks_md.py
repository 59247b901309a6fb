"""BENCHMARKS.md is a reference: one table of every path up top, then a section per path.

The table's rows link to their section, name a command whose script exists, the machine and
the date measured. (That no line names a path of one machine or outside the repository is
checked for every tracked file by ``tests/robustness/test_no_machine_paths.py``.)
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")
COLUMNS = ["path", "ours", "peer", "ratio", "command", "machine", "measured"]


def _top_table() -> list[list[str]]:
    section = TEXT.split("\n## ", 2)[1]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    # cells split at unescaped pipes: ``\|s\|`` is text inside a cell
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip()[1:-1])]
            for line in lines]


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_top_table_gives_every_path_its_figure_command_machine_and_date():
    header, rule, *rows = _top_table()
    assert [c.lower() for c in header] == COLUMNS
    assert set(rule) == {"---", "---:"}
    assert len(rows) >= 20
    anchors = {_slug(h) for h in re.findall(r"^## (.+)$", TEXT, re.M)}
    for row in rows:
        assert len(row) == len(COLUMNS), row
        cell = dict(zip(COLUMNS, row, strict=True))
        assert cell["ours"] and cell["peer"] and cell["ratio"], row
        assert "2 cores" in cell["machine"], row
        assert re.search(r"\b2026-\d\d-\d\d\b", cell["measured"]), row
        assert cell["command"] == "same" or cell["command"].startswith("`"), row
        for link in re.findall(r"\]\(#([^)]+)\)", cell["path"]):
            assert link in anchors, (link, sorted(anchors))


def test_commands_name_scripts_that_exist():
    scripts = set(re.findall(r"benchmarks/[\w]+\.py", TEXT))
    assert scripts, "no benchmark script named"
    missing = sorted(s for s in scripts if not (ROOT / s).is_file())
    assert not missing, missing
