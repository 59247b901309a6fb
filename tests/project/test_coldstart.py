"""Cold start: a cheap ``import workbench``, a dependency-keyed numba cache, ``warmup``.

Issue 20: ``import workbench`` and ``--help`` load none of the heavy libraries; the numba
cache of a kernel is invalidated by an edit to its own module or a module it imports, not
by an edit anywhere in the package; ``python -m workbench warmup`` reaches every kernel.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from workbench._core import config

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numba", "pandas", "scipy", "sympy", "matplotlib", "plotly", "numpy")


def _loaded_after(code: str) -> list[str]:
    """Heavy top-level modules present in ``sys.modules`` after running ``code`` fresh."""
    probe = (f"import sys\n{code}\nimport json\n"
             f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & "
             f"set({list(HEAVY)!r}))))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_import_workbench_loads_no_heavy_library():
    assert _loaded_after("import workbench") == []


def test_help_loads_no_heavy_library():
    code = ("import contextlib, io\nfrom workbench.__main__ import main\n"
            "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['--help'])")
    assert _loaded_after(code) == []


def test_version_loads_no_heavy_library():
    code = ("import contextlib, io\nfrom workbench.__main__ import main\n"
            "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['--version'])")
    assert _loaded_after(code) == []


def test_first_sample_loads_only_numpy():
    """A fresh process's first small sample runs without numba (``grampa.interpreted``)."""
    code = ("from workbench import Grampa, datasets\n"
            "v = datasets.load_vocabulary('ulm-8k')\n"
            "Grampa(v, tau=2.0, seed=0).sample(v.to_alphabet(' tokenisation'))")
    assert _loaded_after(code) == ["numpy"]


FIRST_ENCODES = {
    "grampa": ("import workbench as wb\nfrom workbench.datasets import load_vocabulary\n"
               "wb.Grampa(load_vocabulary('ulm-8k'), tau=5.0, seed=0).encode_flat(['▁hello'])"),
    "multiplexer": ("import numpy as np\nfrom workbench import Grampa, Multiplexer\n"
                    "from workbench.datasets import load_vocabulary\n"
                    "from workbench.segmenters import default_segmenter\n"
                    "v = load_vocabulary('ulm-8k')\n"
                    "Multiplexer(default_segmenter(v), Grampa(v, seed=0), p=0.5, seed=0)"
                    ".encode_code_points(np.array([9601, 104, 105]), np.array([0, 1, 3]))"),
    "bpe": "from workbench import BPEModel\nBPEModel.from_gpt2().encode('hello world')",
    "no segmentation": ("from workbench import Grampa, SegmentationError, datasets\n"
                        "v = datasets.load_vocabulary('ulm-8k')\n"
                        "try:\n    Grampa(v, seed=0).sample('▁snow\\u2603')\n"
                        "except SegmentationError:\n    pass"),
}


@pytest.mark.parametrize("case", sorted(FIRST_ENCODES))
def test_first_encodes_load_only_numpy(case):
    """Issue 29: a first small encode (GRaMPa, the multiplexer, GPT-2's BPE) and the reason
    for a missing segmentation run without numba (each module's ``interpreted`` tier)."""
    assert _loaded_after(FIRST_ENCODES[case]) == ["numpy"]


def test_lazy_names_resolve_to_the_defining_objects():
    import workbench
    from workbench.grampa import Grampa
    from workbench.vocab import Vocabulary

    assert workbench.Grampa is Grampa and workbench.Vocabulary is Vocabulary
    assert set(workbench.__all__) <= set(dir(workbench))
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        workbench.nonexistent  # noqa: B018


def test_subpackages_reachable_as_attributes_after_a_bare_import():
    out = subprocess.run([sys.executable, "-c", "import workbench; print(workbench.theory"
                          ".__name__)"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "workbench.theory"


def test_dependency_closure_follows_imports_and_stops_at_them():
    names = {p.relative_to(config.PACKAGE_DIR).as_posix()
             for p in config.dependency_closure(config.PACKAGE_DIR / "lattice" / "kernels.py")}
    assert {"lattice/kernels.py", "lattice/rules.py", "_core/trie.py", "_core/config.py"} <= names
    assert not any(n.startswith(("figures/", "bpe/", "greedtok/")) for n in names)


def test_stamp_changes_with_a_dependency_not_with_an_unrelated_module(tmp_path, monkeypatch):
    """The bug the whole-package key fixed stays fixed; the cost it had is gone."""
    copy = tmp_path / "workbench"
    shutil.copytree(config.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(config, "PACKAGE_DIR", copy)
    lattice = copy / "lattice" / "kernels.py"
    before = config.source_stamp(lattice)
    figures = sorted((copy / "figures").glob("*.py"))[0]
    figures.write_text(figures.read_text(encoding="utf-8") + "\n# a comment\n", "utf-8")
    assert config.source_stamp(lattice) == before
    trie = copy / "_core" / "trie.py"
    trie.write_text(trie.read_text(encoding="utf-8") + "\n# a comment\n", "utf-8")
    assert config.source_stamp(lattice) != before


def test_package_kernels_use_the_dependency_keyed_locator():
    from workbench.lattice import count_segmentations
    from workbench.vocab import Vocabulary

    count_segmentations("abab", Vocabulary(["a", "b", "ab"]))
    from numba.core.registry import CPUDispatcher

    from workbench._core import trie

    kernels = [v for v in vars(trie).values() if isinstance(v, CPUDispatcher)]
    assert kernels
    for kernel in kernels:
        locator = kernel._cache._impl.locator
        assert isinstance(locator, config.DependencyKeyedLocator)
        assert Path(locator.get_cache_path()).is_relative_to(config.CACHE_ROOT)


@pytest.mark.slow
def test_warmup_reaches_every_kernel_and_a_new_process_loads_from_cache():
    out = subprocess.run([sys.executable, "-m", "workbench", "warmup"], cwd=ROOT,
                         capture_output=True, text=True, timeout=1800)
    assert out.returncode == 0, out.stderr
    assert "not reached" not in out.stderr
    total = out.stdout.split()[2]
    assert out.stdout.startswith(f"{total} of {total} kernels")
    probe = ("from workbench import Grampa, Vocabulary\nfrom workbench.grampa import fused\n"
             "Grampa(Vocabulary(['a','b','ab']), tau=2.0, seed=0).encode_flat(['abab'])\n"
             "print(len(fused.short_chunk.stats.cache_hits), "
             "len(fused.short_chunk.stats.cache_misses))")
    hits, misses = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                                  text=True, check=True).stdout.split()
    assert (int(hits), int(misses)) == (1, 0)


def _modules_after(code: str, names: tuple[str, ...]) -> dict[str, bool]:
    """Which of ``names`` are in ``sys.modules`` after running ``code`` in a fresh process."""
    probe = (f"import sys\n{code}\nimport json\n"
             f"print(json.dumps({{n: n in sys.modules for n in {list(names)!r}}}))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


#: The first call of a GRaMPa kernel (a request too large for the plain-Python first tier,
#: ``grampa.interpreted.applies``: 6,000 words of 4 characters are 48,000 lookups; a small
#: ``sample`` or ``encode`` in a process without numba runs in plain Python).
FIRST_KERNEL = ("from workbench import Grampa, Vocabulary\n"
                "Grampa(Vocabulary(['a', 'b', 'ab']), tau=2.0, seed=0)"
                ".encode_flat(['abab'] * 6000)")


def test_first_kernel_skips_scipy_linalg_and_f2py():
    """numba's start-up BLAS probe is answered without importing SciPy's linear algebra
    (and, through its array-API shim, numpy.f2py): ~0.2 s of the cold start."""
    loaded = _modules_after(FIRST_KERNEL, ("numba.np.arraymath", "scipy.linalg",
                                           "scipy.linalg.cython_blas", "numpy.f2py"))
    assert loaded == {"numba.np.arraymath": True, "scipy.linalg": False,
                      "scipy.linalg.cython_blas": False, "numpy.f2py": False}


@pytest.mark.slow  # compiles kernels in a fresh process (~8 s)
def test_kernels_needing_blas_still_compile_and_run_after_the_first_kernel():
    code = (FIRST_KERNEL + "\nimport numpy as np\nfrom numba import njit\n"
            "@njit\ndef f(a, b):\n    return np.dot(a, b), np.linalg.solve(a, b), a @ b\n"
            "a = np.array([[2.0, 1.0], [1.0, 3.0]]); b = np.array([1.0, 2.0])\n"
            "d, x, m = f(a, b)\n"
            "assert d.tolist() == [4.0, 7.0] and m.tolist() == [4.0, 7.0]\n"
            "assert np.allclose(x, [0.2, 0.6])\n"
            "import numba.np.arraymath as am\nassert am._HAVE_BLAS is False\n")
    loaded = _modules_after(code, ("scipy.linalg.cython_blas", "scipy.linalg.cython_lapack"))
    assert loaded == {"scipy.linalg.cython_blas": True, "scipy.linalg.cython_lapack": True}


def test_blas_probe_untouched_when_scipy_blas_is_already_loaded():
    code = ("import scipy.linalg.cython_blas\n" + FIRST_KERNEL
            + "\nimport numba.np.arraymath as am\nassert am._HAVE_BLAS is True\n")
    assert _modules_after(code, ("scipy.linalg.cython_blas",)) == {
        "scipy.linalg.cython_blas": True}


def test_blas_probe_block_is_lifted():
    """The ``None`` placed in ``sys.modules`` for the probe is gone after the import."""
    code = "import workbench._core.config as c\nassert c.BLAS_PROBE not in sys.modules\n"
    assert _modules_after(code, ("numba.np.arraymath",)) == {"numba.np.arraymath": True}


def test_cli_exit_keeps_its_output_and_code():
    """``python -m workbench`` freezes the GC before exiting: output and codes intact."""
    args = ["sample", "-n", "3", "--seed", "1", "--space", "hello", "tokens"]
    out = subprocess.run([sys.executable, "-m", "workbench", *args], cwd=ROOT,
                         capture_output=True, text=True)
    import contextlib
    import io

    from workbench.__main__ import main

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = main(args)
    assert (out.returncode, out.stdout) == (0, buffer.getvalue()) and code == 0
    assert len(out.stdout.splitlines()) == 6
    bad = subprocess.run([sys.executable, "-m", "workbench", "sample", "--tau", "0", "x"],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "error" in bad.stderr
