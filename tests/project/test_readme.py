"""The README's claims stay true: its code runs and its file map matches the tree."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_usage_snippet_runs():
    namespace: dict = {}
    for code in re.findall(r"```python\n(.*?)```", README, re.S):  # every block, in order
        exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102
    assert "".join(namespace["g"].sample(namespace["word"])) == namespace["word"]
    assert namespace["bpe"].decode(namespace["bpe"].encode(" lowest")) == " lowest"
    assert b"".join(namespace["gt"].encode(" lowest")) == b" lowest"


def _file_map() -> list[str]:
    block = README.split("## File map", 1)[1].split("```", 2)[1]
    paths, parents = [], []
    for line in block.splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        name = line.split()[0].rstrip(",")
        depth = indent // 2
        parents = parents[:depth]
        if name.endswith("/"):
            parents.append(name)
        for part in line.strip().split("  ")[0].split(", "):  # "a.py, b.py" lists two
            paths.append("".join(parents[: depth]) + part.strip())
    return paths


def test_file_map_entries_exist():
    missing = []
    for entry in _file_map():
        path = ROOT / entry
        stem_matches = list(path.parent.glob(path.name + ".*"))  # notebooks listed by stem
        if not (path.exists() or stem_matches):
            missing.append(entry)
    assert not missing, missing


def test_every_package_module_is_in_the_file_map():
    listed = set(_file_map())
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "workbench").rglob("*.py")
               if not p.name.startswith("_") or p.name in ("__init__.py", "__main__.py")}
    # a subpackage's __init__.py is covered by its folder's line
    modules = {m for m in modules if not (m.endswith("/__init__.py") and m.count("/") > 1
                                          and m.rsplit("/", 1)[0] + "/" in listed)}
    assert modules <= listed, sorted(modules - listed)


def test_listed_notebooks_exist():
    listed = re.findall(r"`(notebooks/[\w.-]+\.ipynb)`", README)
    assert len(listed) >= 7, listed
    missing = [p for p in listed if not (ROOT / p).exists()]
    assert not missing, missing
