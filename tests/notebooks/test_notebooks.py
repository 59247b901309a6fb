"""Every notebook in ``notebooks/`` runs headless, top to bottom, and is committed clean.

The notebooks are executed in memory with nbclient (their ``assert`` cells are the checks),
in a kernel started from *this* interpreter: the test writes a throw-away kernelspec whose
``argv`` is ``sys.executable -m ipykernel_launcher`` into a temporary directory, so it does
not depend on any kernelspec installed on the machine. The working directory of the kernel
is ``notebooks/`` (for relative paths); nothing is written back to the working tree.

With ``WORKBENCH_RECORD_RUN_TIMES=1`` each notebook's measured time is written into
``notebooks/run_times.json`` (notebook 00's run-time column); otherwise a time far from the
recorded one fails the test (``workbench.figures.start_here.run_time_disagrees``).

Waiting for kernel replies is done in short slices (``workbench/course/kernelpoll.py``, as
every Voilà and ``make site`` do): with ipywidgets in a notebook, the asyncio poll of a zmq channel
sometimes misses the reply (jupyter/nbclient#312), which would stall a cell forever.
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK_DIR = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
KERNEL_NAME = "workbench-tests-python"
CELL_TIMEOUT = 600  # seconds per cell
#: Seconds a cell's outputs are waited for after its reply: every Voilà's (app/voila.json and
#: app/voila.py, which say why: nbclient's 4 s lost outputs on a busy machine, issue 43).
IOPUB_TIMEOUT = json.loads((NOTEBOOK_DIR.parent / "app" / "voila.json").read_text(
    encoding="utf-8"))["VoilaExecutor"]["iopub_timeout"]
# Notebooks whose Checks cells still print (other branches are making them silent); the
# rest must print nothing when their checks pass, so that Voilà apps are not cluttered.
CHECKS_MAY_PRINT: set[str] = set()


@pytest.fixture(scope="session")
def kernel_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A kernelspec directory holding one spec: the running interpreter's ipykernel."""
    root = tmp_path_factory.mktemp("kernels")
    spec = root / KERNEL_NAME
    spec.mkdir()
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "workbench tests (current interpreter)",
        "language": "python",
    }), encoding="utf-8")
    return root


def _kernel_manager(kernel_dir: Path):
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager

    from workbench.course.kernelpoll import SlicedPollKernelClient

    specs = KernelSpecManager(kernel_dirs=[str(kernel_dir)], ensure_native_kernel=False)
    # Unix sockets, as app/voila.json asks of every course kernel: a TCP port picked here can
    # be bound by another process's kernel before this one binds it (Jupyter's port race; a
    # pre-heated Voilà kernel died of it in a fresh-clone run). The sockets sit beside the
    # connection file, in the test's directory.
    connection = kernel_dir / f"k{uuid.uuid4().hex[:8]}.json"  # short: a socket path has ≤ 107 bytes
    return AsyncKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=specs,
                              client_factory=SlicedPollKernelClient, transport="ipc",
                              connection_file=str(connection))


def _tree_snapshot() -> dict[str, float]:
    return {str(p): p.stat().st_mtime for p in NOTEBOOK_DIR.rglob("*") if p.is_file()}


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS, f"no notebooks found in {NOTEBOOK_DIR}"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_executes(path: Path, kernel_dir: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    before = _tree_snapshot()
    client = nbclient.NotebookClient(
        nb,
        km=_kernel_manager(kernel_dir),
        timeout=CELL_TIMEOUT,
        iopub_timeout=IOPUB_TIMEOUT,
        allow_errors=False,
        resources={"metadata": {"path": str(NOTEBOOK_DIR)}},
    )
    start = time.perf_counter()
    # raises CellExecutionError (with the traceback) if a cell fails; cleanup_kc: shut the
    # kernel down and stop its channels after (nbclient keeps a kernel whose manager it was
    # given alive: every notebook's kernel ran on to the end of the session, issue 43)
    client.execute(cleanup_kc=True)
    elapsed = time.perf_counter() - start
    errors = [out for cell in nb.cells if cell.cell_type == "code"
              for out in cell.outputs if out.output_type == "error"]
    assert not errors
    assert _tree_snapshot() == before, "executing a notebook must not write into notebooks/"
    if path.name not in CHECKS_MAY_PRINT:  # Voilà (`make app`) shows every cell's output
        noisy = {i: [out.get("text", out.get("data")) for out in cell.outputs]
                 for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
                 and "checks" in cell.metadata.get("tags", []) and cell.outputs}
        assert not noisy, f"{path.name}: passing checks must print nothing: {noisy}"
    print(f"{path.name}: executed in {elapsed:.1f} s")
    _check_or_record_run_time(path.stem, elapsed)


RECORD = "WORKBENCH_RECORD_RUN_TIMES"  # set to 1: write the measured times for notebook 00


def _check_or_record_run_time(stem: str, elapsed: float) -> None:
    """Notebook 00's run-time column is measured here: recorded with ``RECORD=1``, else
    compared with the recorded time (``start_here.run_time_disagrees``)."""
    from workbench.figures import start_here

    times_file = NOTEBOOK_DIR / start_here.RUN_TIMES
    if stem == "00_start_here":
        return  # 00 lists the others; its own time is not in its table
    if os.environ.get(RECORD) == "1":
        start_here.record_run_time(times_file, stem, elapsed)
        return
    recorded = start_here.load_run_times(times_file).get(stem)
    assert recorded is None or not start_here.run_time_disagrees(recorded, elapsed), (
        f"{stem}: ran in {elapsed:.0f} s but notebook 00 says {recorded:.0f} s; re-record with "
        f"{RECORD}=1 (on a warm numba cache) if the notebook changed")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_committed_clean(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    dirty = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
             and (cell.outputs or cell.execution_count is not None)]
    assert not dirty, f"{path.name}: cells {dirty} have outputs or execution counts"


def _code_lines(cell) -> list[str]:
    return [line.strip() for line in cell.source.splitlines()]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_opens_with_its_paper(path: Path) -> None:
    from workbench.figures.papers import PAPERS

    first = nbformat.read(path, as_version=4).cells[0]
    assert first.cell_type == "markdown", f"{path.name}: the first cell must be markdown"
    cited = [p.key for p in PAPERS.values() if p.title in first.source
             and p.authors.split(",")[0] in first.source]
    assert cited, f"{path.name}: the first cell must cite a paper (authors and title, as in " \
                  "workbench.figures.papers)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_checks_are_out_of_the_teaching_flow(path: Path) -> None:
    """A final "## Checks" section, every cell of it tagged ``checks``, no assert before it."""
    cells = nbformat.read(path, as_version=4).cells
    heads = [i for i, c in enumerate(cells)
             if c.cell_type == "markdown" and c.source.lstrip().startswith("## Checks")]
    assert len(heads) == 1, f"{path.name}: needs exactly one '## Checks' section"
    start = heads[0]
    tagged = [i for i, c in enumerate(cells) if "checks" in c.metadata.get("tags", [])]
    assert tagged == list(range(start, len(cells))), \
        f"{path.name}: cells {start}.. must be tagged 'checks' and no other"
    flow_asserts = [i for i, c in enumerate(cells[:start]) if c.cell_type == "code"
                    and any(line.startswith("assert") for line in _code_lines(c))]
    assert not flow_asserts, f"{path.name}: asserts in teaching cells {flow_asserts}"
