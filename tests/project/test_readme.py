"""The README's claims stay true: every code block runs as written and its file map matches
the tree.

Each fenced block of README.md is, in document order, in one temporary directory (so a block
may read the files an earlier one wrote, and nothing is written into the checkout):

* ``python``: run as a script in a fresh interpreter (so each block must import what it uses);
* ``sh`` / ``bash``: run by ``bash -e``;
* ``console``: each ``$ command`` line run by ``bash``, its standard output compared with the
  lines that follow it, exactly;
* any block, or a block of another language, preceded by the line
  ``<!-- readme-test: illustrative (REASON) -->`` is not run; the reason must be given.

Commands find this checkout's package (``PYTHONPATH``) and this interpreter first on ``PATH``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
_ILLUSTRATIVE = re.compile(r"<!-- readme-test: illustrative \((.+)\) -->")
RUNNABLE = ("python", "sh", "bash", "console")


def readme_blocks(text: str = README) -> list[tuple[int, str, str, str | None]]:
    """(line, language, code, illustrative reason or None) of every fenced block, in order."""
    blocks = []
    for match in _FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marked = _ILLUSTRATIVE.fullmatch(before.strip())
        blocks.append((line, match.group(1), match.group(2), marked and marked.group(1)))
    return blocks


def test_every_block_runs_or_says_why_not():
    blocks = readme_blocks()
    assert len(blocks) >= 8
    unrunnable = [(line, lang) for line, lang, _, why in blocks
                  if why is None and lang not in RUNNABLE]
    assert not unrunnable, f"blocks neither runnable nor marked illustrative: {unrunnable}"


def test_the_block_parser_on_a_worked_example():
    text = ("x\n```python\nprint(1)\n```\n<!-- readme-test: illustrative (serves) -->\n"
            "```bash\nmake lab\n```\n")
    assert readme_blocks(text) == [(2, "python", "print(1)\n", None),
                                   (6, "bash", "make lab\n", "serves")]


def _env() -> dict[str, str]:
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return {**os.environ, "PYTHONPATH": str(ROOT), "PATH": path, "MPLBACKEND": "Agg"}


def _console(code: str) -> list[tuple[str, str]]:
    """(command, expected stdout) of each ``$ `` line of a console block."""
    pairs: list[tuple[str, list[str]]] = []
    for line in code.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        else:
            assert pairs, f"console block output before any command: {line!r}"
            pairs[-1][1].append(line)
    return [(command, "".join(out + "\n" for out in lines)) for command, lines in pairs]


@pytest.mark.slow  # every README block in a fresh interpreter (~11 s)
def test_every_block_runs_as_written(tmp_path):
    """All runnable blocks, in order, in one temporary directory (20-45 s on 2 cores)."""
    env = _env()
    for line, lang, code, why in readme_blocks():
        if why is not None:
            continue
        where = f"README.md, the {lang} block at line {line}"
        if lang == "python":
            proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                                  capture_output=True, text=True, timeout=600)
            assert proc.returncode == 0, f"{where}:\n{proc.stderr[-3000:]}"
        elif lang in ("sh", "bash"):
            proc = subprocess.run(["bash", "-e", "-c", code], cwd=tmp_path, env=env,
                                  capture_output=True, text=True, timeout=600)
            assert proc.returncode == 0, f"{where}:\n{proc.stderr[-3000:]}"
        else:
            for command, expected in _console(code):
                proc = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env,
                                      capture_output=True, text=True, timeout=600)
                assert proc.returncode == 0, f"{where}, `{command}`:\n{proc.stderr[-3000:]}"
                assert proc.stdout == expected, f"{where}, `{command}`"


def test_usage_snippets_do_what_the_comments_say(tmp_path, monkeypatch):
    """The first blocks' objects, in this process: samples spell the word, models round-trip."""
    monkeypatch.chdir(tmp_path)  # the blocks write small files into the current directory
    namespace: dict = {}
    usage = [code for _, lang, code, why in readme_blocks() if lang == "python" and why is None]
    for code in usage[:2]:  # "Using it" and the training block
        exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102
    assert "".join(namespace["g"].sample(namespace["word"])) == namespace["word"]
    assert namespace["bpe"].decode(namespace["bpe"].encode(" lowest")) == " lowest"
    assert b"".join(namespace["gt"].segment(" lowest")) == b" lowest"
    exec(compile(usage[2], "README.md", "exec"), namespace)  # the text level  # noqa: S102
    bpe, tok, text = namespace["bpe"], namespace["tok"], namespace["text"]
    assert bpe.tokenize(text) == ["Hello", "Ġw", "Ã¶r", "ld", "ĠðŁĳ", "ĭ"]
    assert bpe.encode_with_offsets(text)[1][:3] == [(0, 5), (5, 7), (7, 9)]
    assert bpe.decode(bpe.encode(text)[:5]) == "Hello wörld \ufffd"
    assert bpe.token_bytes[50256] == b"<|endoftext|>"
    assert tok.decode(namespace["ids"]) == text
    assert tok.encode(text, seed=1) == tok.reseeded(1).encode(text)


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
