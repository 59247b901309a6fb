"""A regular (non-editable) install works: code and shipped data are found from anywhere.

The project is copied to a temporary directory and installed with ``pip install --no-deps``
into a fresh virtual environment; its third-party dependencies are borrowed from the running
interpreter's environment through a ``.pth`` line (so the test downloads nothing but the build
backend, which pip caches), while the editable install of this checkout stays invisible (a
``.pth`` line adds a directory to ``sys.path`` without processing the ``.pth`` files in it).
Then, from a directory that is not the checkout, every shipped vocabulary and a count table are
loaded and ``python -m workbench verify`` runs.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import pathlib, sys
import workbench
from workbench import datasets
root = pathlib.Path(workbench.__file__).resolve()
assert "site-packages" in root.parts, root
assert not str(datasets.DATA_DIR).startswith(sys.argv[1]), datasets.DATA_DIR
names = datasets.available_vocabularies()
assert names == ["ulm-8k", "bpe-8k", "gpt2"], names
for name in names:
    assert len(datasets.load_vocabulary(name)) > 1000
assert len(datasets.load_counts("un")) == 105505  # the count tables ship too (data/*.xz)
print("loaded", names, "from", datasets.DATA_DIR)
"""


@pytest.mark.slow
def test_pip_install_dot_loads_data_and_verifies(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", "*.egg-info", "build", "results", ".pytest_cache",
        ".ruff_cache", ".hypothesis", "notebooks", "tests", "benchmarks"))
    env_dir = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                           "'purelib'))"], check=True, capture_output=True, text=True)
    Path(site.stdout.strip(), "borrowed-deps.pth").write_text(
        sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps",
                    "--disable-pip-version-check", str(src)], check=True)
    shutil.rmtree(src)  # nothing may still read from the source tree
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = subprocess.run([str(python), "-c", SCRIPT, str(ROOT)], cwd=elsewhere,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "share/tokenisation-workbench/data" in run.stdout
    verify = subprocess.run([str(python), "-m", "workbench", "verify"], cwd=elsewhere,
                            capture_output=True, text=True)
    assert verify.returncode == 0, verify.stdout[-2000:] + verify.stderr[-2000:]
    assert " 0 fail" in verify.stdout
