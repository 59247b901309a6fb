"""A step back restores the figures: every control of notebooks 09–11's panels, kernel side.

The browser test (``tests/app/test_browser.py``) steps every control one step forth and one
back and asks the page to show the figures it showed before. This test does the same in the
kernel, without a browser: it runs a notebook's reading cells (up to its "Checks" heading,
in an IPython shell, working directory ``notebooks/``), then for every panel made by
:func:`workbench.figures.panel.interactive_panel` that the notebook binds to a name, steps
each control as the front end does — a slider by its ``step`` from the value it has, in
floats (a log slider in its exponent), a dropdown or selection slider to the next option
and back, a checkbox toggled — and compares the JSON of every plotly figure shown
(:func:`workbench.figures.plotly_view.figure_json`, what the page receives) and the HTML of
every table. A control whose step back lands an ulp away from where it began (a
``FloatLogSlider`` at a value off its grid) fails here.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("IPython")
pytest.importorskip("ipywidgets")

NOTEBOOK_DIR = Path(__file__).resolve().parents[2] / "notebooks"
STEPPED = ["09_partition_cover", "10_renyi_counterexamples", "11_efficiency_vs_regularisation"]


@contextlib.contextmanager
def _isolated_shell() -> Any:
    """A reset IPython shell that leaves the test process as it found it.

    ``InteractiveShell.instance()`` puts its user module in ``sys.modules["__main__"]`` and
    ``reset()`` clears that module's ``__dict__`` (``__spec__`` included); left there, every
    later test that spawns processes (Dask's default scheduler, ``multiprocessing``) failed
    with "module '__main__' has no attribute '__spec__'", and ``get_ipython()`` kept
    answering with this shell. So ``__main__`` is put back and the singleton cleared.
    """
    from IPython.core.interactiveshell import InteractiveShell

    main = sys.modules["__main__"]
    had_shell = InteractiveShell.initialized()
    try:
        shell = InteractiveShell.instance()
        shell.reset()
        yield shell
    finally:
        sys.modules["__main__"] = main
        if not had_shell:
            InteractiveShell.clear_instance()


@pytest.fixture
def ipython_shell() -> Any:
    with _isolated_shell() as shell:
        yield shell


def test_shell_left_main_without_spec() -> None:
    """The bug ``_isolated_shell`` mends: after the step-back test, CI's dask tests failed."""
    from IPython.core.interactiveshell import InteractiveShell

    main = sys.modules["__main__"]
    had_shell = InteractiveShell.initialized()
    with _isolated_shell() as shell:
        assert sys.modules["__main__"] is shell.user_module
        assert sys.modules["__main__"] is not main
    assert sys.modules["__main__"] is main
    assert hasattr(sys.modules["__main__"], "__spec__")
    assert InteractiveShell.initialized() == had_shell


def _reading_cells(path: Path) -> list[str]:
    """The code cells before the "Checks" heading (``%`` magics dropped)."""
    code = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and source.lstrip().startswith("## Checks"):
            break
        if cell["cell_type"] == "code":
            code.append("\n".join(line for line in source.splitlines()
                                  if not line.startswith("%")))
    return code


def _front_end_step(control: Any, value: Any, direction: int) -> Any:
    """The value the front end sends when ``control`` at ``value`` is moved one step in
    ``direction`` (+1/-1); a slider at its end moves the other way."""
    import ipywidgets as w

    if isinstance(control, w.Checkbox):
        return not value
    if isinstance(control, (w.SelectionSlider, w.Dropdown, w.ToggleButtons, w.RadioButtons)):
        values = [o[1] if isinstance(o, tuple) else o for o in control.options]
        i = values.index(value) + direction
        return values[i if 0 <= i < len(values) else i - 2 * direction]
    if isinstance(control, w.FloatLogSlider):
        exponent = math.log(value) / math.log(control.base)
        e = exponent + direction * control.step
        if not control.min <= e <= control.max:
            e = exponent - direction * control.step
        return control.base ** e
    if isinstance(control, (w.IntSlider, w.FloatSlider)):
        v = value + direction * control.step
        return v if control.min <= v <= control.max else value - direction * control.step
    raise TypeError(f"no front-end step for {type(control).__name__}")


def _shown(panel: Any) -> dict[str, str]:
    """What the panel shows, as the page receives it: plotly JSON, table HTML, else repr."""
    from workbench.figures.plotly_view import figure_json

    items = panel.last_figures or {"figure": panel.last_figure}
    out = {}
    for name, item in items.items():
        if hasattr(item, "to_plotly_json"):
            out[name] = figure_json(item)
        elif hasattr(item, "to_html"):
            out[name] = item.to_html()
        else:
            out[name] = repr(item)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("stem", STEPPED)
def test_step_back_restores_the_figures(stem: str, monkeypatch: pytest.MonkeyPatch,
                                        ipython_shell: Any) -> None:
    import ipywidgets as w

    from workbench.figures.panel import panel_controls

    monkeypatch.setenv("MPLBACKEND", "agg")
    monkeypatch.chdir(NOTEBOOK_DIR)
    shell = ipython_shell
    for source in _reading_cells(NOTEBOOK_DIR / f"{stem}.ipynb"):
        with contextlib.redirect_stdout(io.StringIO()):
            result = shell.run_cell(source, silent=True)
        assert result.success, f"{stem}: a reading cell failed: {result.error_in_exec!r}"
    panels = {name: obj for name, obj in shell.user_ns.items()
              if isinstance(obj, w.interactive) and "workbench-output" in obj.out._dom_classes
              and not name.startswith(("check", "_"))}
    assert panels, f"{stem} binds no panel to a name"
    stepped = 0
    for name, panel in panels.items():
        for control_name, control in panel_controls(panel).items():
            start, before = control.value, _shown(panel)
            with contextlib.redirect_stdout(io.StringIO()):
                control.value = _front_end_step(control, start, 1)
                forth, moved = _shown(panel), control.value
                control.value = _front_end_step(control, moved, -1 if moved != start else 1)
                back = _shown(panel)
            what = f"{stem}: {name}.{control_name} {start!r} -> {moved!r} -> {control.value!r}"
            assert forth != before, f"{what}: the step changed no figure"
            changed = [k for k in before if back.get(k) != before[k]]
            assert back == before, f"{what}: the step back did not restore {changed}"
            stepped += 1
    assert stepped >= len(panels)
    from workbench.experiments.prefetch import Prefetch

    for ahead in [obj for obj in shell.user_ns.values() if isinstance(obj, Prefetch)]:
        ahead.cancel()  # the neighbours still queued: not this test's work (its thread ends)
        assert ahead.join(timeout=60), f"{stem}: the prefetch thread's last call did not end"
