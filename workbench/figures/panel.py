"""The one set of widget helpers every notebook binds its sliders with (UI only).

* :func:`interactive_panel` — ``ipywidgets.interactive`` showing ``draw(compute(**values))``:
  ``panel.result`` is the last ``compute`` result, ``panel.last_figure`` what ``draw`` made of
  it (``panel.last_figures`` when ``draw`` returns several figures by name), shown by
  widgets updated one by one (:class:`~workbench.figures.panel_view.PanelView`), never by
  clearing and re-rendering the whole output;
* :func:`panel_controls` — a panel's control widgets by argument name;
* :func:`set_panel_values` — set several controls, re-run once;
* :func:`on_step_grid` — a float slider's value on its step grid (what ``compute`` gets);
* :func:`same_result` — deep equality of results holding arrays, for checking a panel's
  result against a direct call of its ``compute`` function;
* :func:`add_vocabulary_upload` — an upload box and a paste box beside a panel's
  ``vocabulary`` dropdown;
* :func:`render_outputs` and :func:`save_figures` — what a panel shows, rendered at once, and
  the figures it shows written to files.

This module computes and draws nothing itself and imports no notebook module: the
``compute`` and ``draw`` functions come from the figures modules, which import this one;
the widgets showing what ``draw`` returned are :mod:`workbench.figures.panel_view`.
What a vocabulary name means, and reading an uploaded vocabulary, are
:mod:`workbench.datasets.catalog`. ipywidgets, IPython, plotly and matplotlib are imported only
when a panel is made or a figure rendered. It caches nothing: a ``compute`` or ``draw``
function caches what does not depend on every control itself.

Example
-------
>>> import numpy as np
>>> same_result({"x": np.arange(3), "y": [None, 1.5]}, {"x": np.arange(3), "y": [None, 1.5]})
True
"""

from __future__ import annotations

import functools
import inspect
import math
import sys
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .._core.errors import ArgumentTypeError, UnknownNameError
from .._core.io import atomic_write
from .._core.validate import check_choice
from ..datasets.catalog import vocabulary_from_bytes, vocabulary_from_text
from ..experiments.prefetch import Prefetch, setting_key
from ..vocab import Vocabulary
from .panel_view import PanelView, render_outputs

__all__ = [
    "PANEL_MIN_HEIGHT",
    "add_vocabulary_upload",
    "interactive_panel",
    "on_step_grid",
    "panel_controls",
    "render_outputs",
    "same_result",
    "save_figures",
    "set_panel_values",
]


def same_result(a: Any, b: Any) -> bool:
    """Deep equality for results holding numpy arrays (``==`` on such dicts is ambiguous).

    Mappings need equal keys, lists and tuples equal types and lengths, arrays equal shapes
    and values (NaN equals NaN in float arrays and as a float); an array never equals a list.

    >>> same_result({"x": np.array([1.0, np.nan])}, {"x": np.array([1.0, np.nan])})
    True
    >>> same_result((1, 2), [1, 2]), same_result(np.array([1.0]), [1.0])
    (False, False)
    """
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
                and a.shape == b.shape
                and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")))
    if isinstance(a, Mapping) or isinstance(b, Mapping):
        return (isinstance(a, Mapping) and isinstance(b, Mapping) and a.keys() == b.keys()
                and all(same_result(a[k], b[k]) for k in a))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(same_result(x, y) for x, y in zip(a, b)))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


def add_vocabulary_upload(panel: Any, options: dict[str, Callable[[], Vocabulary]]) -> Any:
    """Let a panel's ``vocabulary`` dropdown take an uploaded or pasted vocabulary.

    Adds, above the panel's output, a file upload (``tokenizer.json``, ``.model``,
    ``encoder.json``, token list) and a box for pasted tokens. A loaded vocabulary joins
    ``options`` (the dict the panel's ``compute`` reads) and the dropdown, and is selected;
    a malformed file gets a message naming the problem. Returns the box added.
    """
    import html

    import ipywidgets

    dropdown = panel_controls(panel)["vocabulary"]
    upload = ipywidgets.FileUpload(accept=".json,.model,.txt,.vocab", multiple=False,
                                   description="upload vocabulary")
    pasted = ipywidgets.Textarea(placeholder="…or paste tokens, one per line",
                                 layout=ipywidgets.Layout(width="22em", height="4em"))
    use = ipywidgets.Button(description="use pasted tokens")
    message = ipywidgets.HTML(value="")

    def adopt(name: str, make: Callable[[], Vocabulary]) -> None:
        try:
            vocab = make()
        except (ValueError, TypeError, OSError) as err:
            message.value = f"<span style='color:#c92a2a'>{html.escape(str(err))}</span>"
            return
        options[name] = lambda vocab=vocab: vocab
        dropdown.options = list(options)
        dropdown.value = name
        message.value = f"loaded {html.escape(name)}: {len(vocab):,} tokens"

    def on_upload(change: Any) -> None:
        files = change["new"]
        if files:
            item = files[0]
            adopt(f"upload: {item['name']}",
                  lambda: vocabulary_from_bytes(item["name"], item["content"]))

    upload.observe(on_upload, names="value")
    use.on_click(lambda _b: adopt(f"pasted ({len(pasted.value.splitlines())} lines)",
                                  lambda: vocabulary_from_text(pasted.value)))
    box = ipywidgets.HBox([upload, pasted, use, message])
    panel.children = (*panel.children[:-1], box, panel.children[-1])
    panel.vocabulary_upload = box
    return box


def _remember(panel: Any, shown: Any) -> None:
    panel.last_figure = shown
    panel.last_figures = dict(shown) if isinstance(shown, Mapping) else {}


PANEL_MIN_HEIGHT = 360
"""Smallest height (px) of a panel's output area; it then grows to the tallest result shown
and never shrinks, so a short result does not make the page jump."""


def save_figures(figures: Mapping[str, Any], stem: str, fmt: str = "png",
                 directory: str = "figures") -> list[str]:
    """Write each figure to ``<directory>/<stem>-<name>.<fmt>``; return the paths.

    matplotlib figures are saved as ``fmt`` (``"png"`` or ``"svg"``); plotly figures as
    ``fmt`` when ``kaleido`` is installed, else as a self-contained ``.html`` (same
    interactivity, no extra dependency). Other items (tables) are skipped.
    """
    import os

    from matplotlib.figure import Figure

    fmt = check_choice(fmt, "fmt", ("png", "svg"))
    os.makedirs(directory, exist_ok=True)
    paths = []
    for name, fig in figures.items():
        path = os.path.join(directory, f"{stem}-{name}")
        if isinstance(fig, Figure):
            with atomic_write(f"{path}.{fmt}", "wb") as handle:
                fig.savefig(handle, format=fmt, bbox_inches="tight")
            paths.append(f"{path}.{fmt}")
        elif hasattr(fig, "write_html"):
            try:
                fig.write_image(f"{path}.{fmt}")
                paths.append(f"{path}.{fmt}")
            except (ImportError, ValueError, RuntimeError):  # kaleido missing
                fig.write_html(f"{path}.html", include_plotlyjs="cdn")
                paths.append(f"{path}.html")
    return paths


def interactive_panel(compute: Callable[..., Any], draw: Callable[[Any], Any],
                      ahead: Prefetch | None = None, **controls: Any) -> Any:
    """``ipywidgets.interactive`` showing ``draw(compute(**values))`` for the controls.

    On every change the panel shows a "computing…" cue, computes, draws and updates what it
    shows widget by widget: a matplotlib figure is a PNG replaced in its widget, a plotly
    figure is changed in place (``Plotly.react``) only when it changed, and an item ``draw`` returns
    unchanged (the same object: cache the figures that do not depend on every control) is
    not touched (:class:`~workbench.figures.panel_view.PanelView`). The
    area keeps the height of the tallest result it has shown (it never shrinks), so moving
    a control never makes the page below jump. A float slider's value reaches ``compute``
    on the slider's step grid (:func:`on_step_grid`: a step forth and back in the page
    computes what was shown before). A
    "save" button writes the figures shown (PNG or SVG, :func:`save_figures`) to
    ``figures/`` in the working directory.

    Parameters
    ----------
    compute : callable
        A pure function; ``controls`` name some of its arguments.
    draw : callable
        Takes ``compute``'s result and returns what to show: a figure (matplotlib or
        plotly, or anything ``display`` shows, e.g. a ``pandas.DataFrame``), a dict of
        those by name (shown in order), or None. It may print text (and warnings); the
        text is shown above the figures.
    ahead : Prefetch, optional
        Where settings of this panel are computed ahead in the background (e.g. by
        :func:`~workbench.figures.panel_neighbours.warm_neighbours`): before computing a
        setting the panel settles it there (:meth:`~workbench.experiments.prefetch.Prefetch.settle`
        with :func:`~workbench.experiments.prefetch.setting_key`), waiting for it if it is
        being computed instead of computing it a second time.
    **controls
        Argument names of ``compute`` mapped to widgets (or ``ipywidgets.fixed`` values).

    Returns
    -------
    ipywidgets.interactive
        Run once already. ``panel.result`` is the last ``compute`` result,
        ``panel.last_figure`` what ``draw`` returned and ``panel.last_figures`` that dict
        (empty unless ``draw`` returned a dict), so a notebook can check
        ``same_result(panel.result, compute(...))`` and the figure's data;
        ``panel.view.widgets`` the widgets showing them, by name; ``panel.draw`` the
        ``draw`` it calls (which also serialises the plotly figures drawn, once: pass it to
        :func:`~workbench.figures.panel_neighbours.warm_neighbours`); ``panel.last_timing``
        the seconds the last update spent in ``compute``, ``draw`` and updating the widgets
        (``{"compute_s", "draw_s", "show_s"}``, what ``benchmarks/bench_panels.py`` prints).

    Raises
    ------
    TypeError
        If a control names no argument of ``compute``.
    """
    import ipywidgets
    from IPython.display import clear_output, display

    params = inspect.signature(compute).parameters
    unknown = [name for name in controls if name not in params]
    if unknown:
        raise ArgumentTypeError(f"{compute.__name__} has no argument(s) {unknown}")
    view = PanelView()
    draw = _freezing(draw)
    state: dict[str, Any] = {"shown": None, "height": PANEL_MIN_HEIGHT, "displayed": (),
                             "timing": {}, "failed": True}
    status = ipywidgets.HTML(value="", layout=ipywidgets.Layout(min_width="7em"))
    status.add_class("workbench-status")

    def show(**values: Any) -> Any:
        # runs outside the panel's output area (_panel_class().update): the view's widgets
        # are updated in place; `after_update` displays them in the area when they change
        status.value = "<i>computing…</i>"
        if ahead is not None:
            ahead.settle(setting_key(values))
        try:
            result, shown, height, state["timing"] = _run(compute, draw, values, view)
        except Exception:
            state["failed"] = True  # the traceback is shown below the widgets, kept
            state["displayed"] = ()  # until the next update displays them anew
            raise
        finally:
            status.value = ""
        state["shown"], state["failed"] = shown, False
        # the area never shrinks: a shorter result keeps the height of the tallest one
        # shown so far, so moving a control never makes the page jump up
        state["height"] = max(state["height"], height)
        return result

    def after_update(panel: Any) -> None:
        # the view's widgets are displayed in the area once and then updated in place;
        # they are displayed again only when they change (a slot of another kind) or after
        # an error
        if not state["failed"] and state["displayed"] != view.children:
            with panel.out:
                clear_output(wait=True)
                for widget in view.children:
                    display(widget)
            state["displayed"] = view.children
        _remember(panel, state["shown"])
        panel.last_timing = state["timing"]
        if panel.out.layout.min_height != f"{state['height']}px":
            panel.out.layout.min_height = f"{state['height']}px"

    panel = _panel_class()(show, **controls)  # runs show() once, before after_update is set
    panel.clear_output = False  # the view is updated in place, never cleared
    panel.view = view
    panel.draw = draw
    panel.out.add_class("workbench-output")
    panel.after_update = after_update
    after_update(panel)

    _add_save_button(panel, status, getattr(compute, "__name__", "panel"))
    return panel


def _freezing(draw: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``draw``, with each plotly figure it returns serialised once, when drawn
    (:func:`~workbench.figures.plotly_view.freeze`): a figure drawn ahead (a warmed setting)
    or drawn again from a cache costs the slider step that shows it no serialising."""

    @functools.wraps(draw)
    def drawn(result: Any) -> Any:
        shown = draw(result)
        if "plotly" in sys.modules:  # else no plotly figure can be among them
            from plotly.basedatatypes import BaseFigure

            from .plotly_view import freeze

            for item in (shown.values() if isinstance(shown, Mapping) else [shown]):
                if isinstance(item, BaseFigure):
                    freeze(item)
        return shown

    return drawn


def _decimals(x: float) -> int:
    """The decimal places of ``x`` as Python writes it (``0.1`` → 1, ``1e-05`` → 5)."""
    mantissa, _, exponent = repr(float(x)).partition("e")
    return max(0, len(mantissa.partition(".")[2].rstrip("0")) - int(exponent or 0))


def on_step_grid(value: float, start: float, step: float) -> float:
    """``value`` put on the grid ``start + k·step`` (to the grid's decimal places) when it is
    within 1e-9 of a step of it, else ``value`` unchanged.

    A slider in the page steps with binary floats: 3.0 → 3.1 → back gives
    3.0000000000000004, and a panel would compute something else than it showed at 3.0.

    >>> on_step_grid(3.0000000000000004, 1.1, 0.1), on_step_grid(0.2345678, 0.0, 0.005)
    (3.0, 0.2345678)
    """
    if not (step > 0 and math.isfinite(value) and math.isfinite(start)):
        return value
    grid = round(start + round((value - start) / step) * step,
                 max(_decimals(start), _decimals(step)))
    return grid if abs(value - grid) <= 1e-9 * step else value


def _on_step_grid(widget: Any) -> Any:
    """A control's value for ``compute``: a float slider's (or float range slider's) values
    :func:`on_step_grid` of its ``min`` and ``step``; any other value as it is."""
    import ipywidgets

    value = widget.get_interact_value()
    if isinstance(widget, (ipywidgets.FloatSlider, ipywidgets.FloatRangeSlider)):
        if isinstance(value, tuple):
            return tuple(on_step_grid(v, widget.min, widget.step) for v in value)
        return on_step_grid(value, widget.min, widget.step)
    return value


@functools.cache
def _panel_class() -> type:
    """``ipywidgets.interactive`` whose update runs the function outside the output area.

    ``interactive.update`` runs the function inside ``with self.out`` (two messages to the
    page per step, setting and clearing the area's ``msg_id``, for output a panel does not
    make: its ``draw`` updates widgets in place and its printed text is captured). Here the
    area is entered only to show a traceback, figures left open in pyplot, and (by the
    instance's ``after_update(panel)``, called after every update) widgets displayed anew.
    """
    import sys

    import ipywidgets
    from IPython import get_ipython
    from ipywidgets.widgets.interaction import show_inline_matplotlib_plots

    class Panel(ipywidgets.interactive):
        after_update: Callable[[Any], None] | None = None

        def update(self, *args: Any) -> None:
            self.kwargs = {w._kwarg: _on_step_grid(w) for w in self.kwargs_widgets}
            try:
                self.result = self.f(**self.kwargs)
            except Exception as err:
                shell = get_ipython()
                with self.out:
                    if shell is None:
                        self.log.warning("Exception in panel callback: %s", err,
                                         exc_info=True)
                    else:
                        shell.showtraceback()
            pyplot = sys.modules.get("matplotlib.pyplot")
            if pyplot is not None and pyplot.get_fignums():
                with self.out:
                    show_inline_matplotlib_plots()
            if self.after_update is not None:
                self.after_update(self)

    return Panel


def _run(compute: Callable[..., Any], draw: Callable[[Any], Any], values: dict[str, Any],
         view: PanelView) -> tuple[Any, Any, int, dict[str, float]]:
    """``compute``, ``draw`` and ``view.show`` once: the result, what was drawn, the height
    estimate and the seconds each part took."""
    import contextlib
    import io
    import time

    text = io.StringIO()
    with contextlib.redirect_stdout(text), contextlib.redirect_stderr(text):
        start = time.perf_counter()
        result = compute(**values)
        computed = time.perf_counter()
        shown = draw(result)
        drawn = time.perf_counter()
    height = view.show(shown, text.getvalue())
    return result, shown, height, {"compute_s": computed - start, "draw_s": drawn - computed,
                                   "show_s": time.perf_counter() - drawn}


def _add_save_button(panel: Any, status: Any, stem: str) -> None:
    """The cue, a "save figures" button and its format below the controls of ``panel``."""
    import ipywidgets

    fmt = ipywidgets.Dropdown(options=["png", "svg"], value="png",
                              layout=ipywidgets.Layout(width="6em"))
    save = ipywidgets.Button(description="save figures", icon="download",
                             tooltip="write the figures shown to figures/ (working directory)")
    fmt.add_class("workbench-save-format")  # not a control of the panel (browser test)
    saved = ipywidgets.HTML(value="")

    def on_save(_button: Any) -> None:
        figs = panel.last_figures or ({"figure": panel.last_figure}
                                      if panel.last_figure is not None else {})
        paths = save_figures(figs, stem, fmt.value)
        saved.value = "saved: " + ", ".join(f"<code>{p}</code>" for p in paths)

    save.on_click(on_save)
    panel.save_button = save
    panel.children = (*panel.children[:-1],
                      ipywidgets.HBox([status, save, fmt, saved]), panel.children[-1])


def panel_controls(panel: Any) -> dict[str, Any]:
    """The control widgets of an ``ipywidgets.interactive`` panel, by argument name.

    Arguments bound with ``ipywidgets.fixed`` are not controls and are left out.
    """
    import ipywidgets

    return {getattr(w, "_kwarg", w.description): w for w in panel.kwargs_widgets
            if not isinstance(w, ipywidgets.fixed)}


def set_panel_values(panel: Any, **values: Any) -> Any:
    """Set several controls of an ``ipywidgets.interactive`` panel, then run it once.

    Setting ``control.value`` one at a time re-runs the panel after each change (as a click
    would); this sets them all with the panel's observer detached and calls
    ``panel.update()`` once. Returns ``panel.result``.

    Raises
    ------
    KeyError
        If a name is not one of the panel's controls.
    """
    controls = panel_controls(panel)
    unknown = set(values) - set(controls)
    if unknown:
        raise UnknownNameError(f"no controls named {sorted(unknown)}; the panel has "
                               f"{sorted(controls)}")
    for name in values:
        controls[name].unobserve(panel.update, names="value")
    try:
        for name, value in values.items():
            controls[name].value = value
    finally:
        for name in values:
            controls[name].observe(panel.update, names="value")
    panel.update()
    return panel.result
