"""The documents' maps of the package agree with the package: one description per module.

* **ARCHITECTURE.md's rank table** lists every component of ``workbench/`` (a folder or a
  top-level module, the package's ``__init__.py`` aside) exactly once, with the rank that
  ``tests/test_layering.py``'s ``RANKS`` enforces.
* **README.md's file map** (the ``workbench/`` part of its code block) is generated from the
  module docstrings: each line is the module's (or package's ``__init__``) docstring summary
  line, so a module is described once, in its docstring. :func:`render_file_map` keeps the
  README's order (reading order, chosen by hand) and appends new modules at the end of their
  package. After adding, renaming or redescribing a module, regenerate it with::

      python tests/robustness/test_architecture_map.py --write

* **Every module docstring starts with a one-line summary** (PEP 257): the line the map shows.
* **No module of ``figures/`` or ``experiments/`` is over 500 lines** (one concept per module),
  and only numba kernels are exempt from ruff's complexity rules.

This test reads files and writes none (``--write`` is for a contributor, never run by pytest).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "workbench"
README = ROOT / "README.md"
ARCHITECTURE = ROOT / "ARCHITECTURE.md"
#: The package folder's own line (its ``__init__.py`` has a line of its own, from its docstring).
ROOT_LINE = "the package in layers (ARCHITECTURE.md); a subpackage's line is its __init__'s"
#: The column where a description starts (a longer name is followed by two spaces).
COLUMN = 27


# --------------------------------------------------------------------------- the package
def _docstring(path: Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc, f"{path.relative_to(ROOT)} has no module docstring"
    return doc


def _summary(path: Path) -> str:
    """A module's docstring summary line as plain text (reST roles and literals unwrapped)."""
    line = _docstring(path).splitlines()[0].strip()
    line = re.sub(r":[a-z]+:`([^`]+)`", lambda m: _role_text(m.group(1)), line)
    line = line.replace("``", "`")
    return line.removesuffix(".")


def _role_text(target: str) -> str:
    """What a reST role shows: ``~a.b.C`` → ``C``, ``.x`` → ``x``, ``a.b`` → ``a.b``."""
    if target.startswith("~"):
        return target.rsplit(".", 1)[-1]
    return target.lstrip(".")


def _children(folder: Path) -> list[str]:
    """Names in a package folder as the map writes them: ``x.py`` and ``sub/``."""
    out = []
    for item in sorted(folder.iterdir()):
        if item.is_dir() and (item / "__init__.py").is_file():
            out.append(item.name + "/")
        elif item.suffix == ".py" and item.name != "__init__.py":
            out.append(item.name)
    return out


def _describe(folder: Path, name: str) -> str:
    return _summary(folder / name / "__init__.py" if name.endswith("/") else folder / name)


def components() -> list[str]:
    """The package's components: folders and top-level modules (``__init__`` aside)."""
    return [name.removesuffix("/").removesuffix(".py") for name in _children(PACKAGE)]


# --------------------------------------------------------------------------- README
def _file_map_block(text: str) -> tuple[int, int]:
    """Line range ``[start, end)`` of the ``workbench/`` part of README's file map."""
    lines = text.splitlines()
    head = lines.index("## File map")
    start = next(i for i in range(head, len(lines)) if lines[i].startswith("workbench/"))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith(" "))
    return start, end


def _order(lines: list[str]) -> dict[str, list[str]]:
    """The README's order of each package's children: folder path → names."""
    order: dict[str, list[str]] = {}
    stack: list[str] = []
    for line in lines:
        depth = (len(line) - len(line.lstrip(" "))) // 2
        names = re.split(r",\s*", re.split(r"\s{2,}", line.strip())[0])
        stack = stack[:depth - 1]
        parent = "/".join(stack)
        for name in names:
            if depth == 1 and name == "__init__.py":
                continue  # the root's own line, always first
            order.setdefault(parent, []).append(name)
        if names[-1].endswith("/"):
            stack.append(names[-1].removesuffix("/"))
    return order


def _line(depth: int, name: str, description: str) -> str:
    head = "  " * depth + name
    return head + " " * max(COLUMN - len(head), 2) + description


def render_file_map(readme: str) -> str:
    """README's text with the ``workbench/`` part of the file map generated from docstrings."""
    lines = readme.splitlines()
    start, end = _file_map_block(readme)
    order = _order(lines[start + 1:end])

    def walk(folder: Path, rel: str, depth: int) -> list[str]:
        present = _children(folder)
        known = [n for n in order.get(rel, []) if n in present]
        out = []
        for name in known + [n for n in present if n not in known]:
            out.append(_line(depth, name, _describe(folder, name)))
            if name.endswith("/"):
                sub = name.removesuffix("/")
                out += walk(folder / sub, f"{rel}/{sub}" if rel else sub, depth + 1)
        return out

    body = [_line(0, "workbench/", ROOT_LINE),
            _line(1, "__init__.py", _summary(PACKAGE / "__init__.py"))] + walk(PACKAGE, "", 1)
    return "\n".join(lines[:start] + body + lines[end:]) + "\n"


# --------------------------------------------------------------------------- ARCHITECTURE
def architecture_ranks(text: str) -> dict[str, list[int]]:
    """Component → every rank the rank table gives it (one entry per mention)."""
    found: dict[str, list[int]] = {}
    for row in text.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].isdigit():
            continue
        for name in re.findall(r"`([^`]+)`", cells[1]):
            found.setdefault(name.removesuffix("/").removesuffix(".py"), []).append(
                int(cells[0]))
    return found


def _layering_ranks() -> dict[str, int]:
    """``RANKS`` of the layering test, read without importing it (wherever it lives)."""
    [path] = list((ROOT / "tests").rglob("test_layering.py"))
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "RANKS":
            return ast.literal_eval(node.value)
    raise AssertionError(f"no RANKS in {path}")


# --------------------------------------------------------------------------- tests
def test_every_component_is_in_the_rank_table_once_with_its_rank():
    table = architecture_ranks(ARCHITECTURE.read_text(encoding="utf-8"))
    assert sorted(table) == sorted(components()), "ARCHITECTURE.md's table vs the package"
    twice = {name: ranks for name, ranks in table.items() if len(ranks) != 1}
    assert not twice, f"listed more than once: {twice}"
    assert {name: ranks[0] for name, ranks in table.items()} == _layering_ranks()


def test_every_module_docstring_opens_with_a_one_line_summary():
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        first = _docstring(path).split("\n\n")[0]
        if "\n" in first.strip():
            long.append(str(path.relative_to(ROOT)))
    assert not long, f"summary longer than one line (PEP 257): {long}"


def test_readme_file_map_is_generated_from_the_docstrings():
    readme = README.read_text(encoding="utf-8")
    assert render_file_map(readme) == readme, (
        "README's file map is out of date: python tests/robustness/test_architecture_map.py "
        "--write")


def test_the_generator_places_a_new_module_and_drops_a_gone_one():
    readme = README.read_text(encoding="utf-8")
    start, end = _file_map_block(readme)
    lines = readme.splitlines()
    at = next(i for i in range(start, end) if lines[i].strip().startswith("interpreted.py"))
    stale = lines[:at] + ["    gone.py                no longer exists",
                          lines[at].replace("plain Python", "stale words")] + lines[at + 1:]
    fixed = render_file_map("\n".join(stale) + "\n")
    assert fixed == render_file_map(readme)
    assert "gone.py" not in fixed and "stale words" not in fixed


#: Folders whose modules stay under :data:`MAX_LINES` (issue 26: one concept per module).
SHORT_FOLDERS = ("figures", "experiments")
MAX_LINES = 500


def test_no_module_in_figures_or_experiments_is_over_500_lines():
    long = {str(path.relative_to(ROOT)): n for folder in SHORT_FOLDERS
            for path in sorted((PACKAGE / folder).rglob("*.py"))
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"over {MAX_LINES} lines (split by concept): {long}"


def test_only_numba_kernels_are_exempt_from_the_complexity_rules():
    """pyproject.toml lets a function past C901 / PLR0915 only if it is a numba kernel,
    marked ``# noqa: ... (numba kernel)`` at its ``def``."""
    exempt, wrong = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            line = path.read_text(encoding="utf-8").splitlines()[node.lineno - 1]
            if "C901" in line or "PLR0915" in line:
                exempt.append(node.name)
                jitted = any("njit" in ast.unparse(d) for d in node.decorator_list)
                if not (jitted and "(numba kernel)" in line):
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert exempt, "no exemption found: the scan is broken"
    assert not wrong, f"exempt from the complexity rules but not a numba kernel: {wrong}"


def test_summaries_unwrap_rest_markup():
    assert _summary(PACKAGE / "bpe" / "export.py").startswith("Export a BPEModel as")
    assert "`python -m workbench warmup`" in _summary(PACKAGE / "warmup.py")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/robustness/test_architecture_map.py --write")
    README.write_text(render_file_map(README.read_text(encoding="utf-8")), encoding="utf-8")
