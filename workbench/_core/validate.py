"""Argument checks for every public function of the package: one place, one error style.

The rule everywhere: the wrong *type* raises :class:`ArgumentTypeError`, a ``TypeError``
(``True``, ``3.0`` and ``"3"`` are not ints), a value of the right type but out of range or
not a number (``NaN``) raises :class:`InvalidValueError`, a ``ValueError``, and a request
whose memory or time would exceed a stated budget raises :class:`BudgetError` (a
``ValueError``) *before* anything is allocated; all three are ``workbench.WorkbenchError``
(``_core/errors.py``). Numba kernels never see unchecked input: public wrappers call these first.

Budgets: memory, :data:`MEMORY_BUDGET` = 6 GiB per call (:func:`check_budget`); time,
:data:`WORK_BUDGET_SECONDS` = 30 s of estimated work per call on the reference machine
(2 cores, one per call; :func:`check_work`). Each entry point whose time grows with its
arguments states its cost model (work units as a function of the arguments, and the
measured rate) in its docstring and refuses before starting. Long but legitimate work
(training, experiment runners) is not budgeted; it shows progress and can be interrupted.

This module does no mathematics and imports nothing of the package.

Example
-------
>>> check_n(5)
5
>>> check_lengths([2, 1, 3])
(2, 1, 3)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sized

import numpy as np

from .errors import ArgumentTypeError, BudgetError, InvalidValueError

#: Default memory budget of one public call (bytes): a quarter of the reference machine's
#: 24 GiB, so no single call can exhaust it.
MEMORY_BUDGET = 6 * 2**30


#: The largest integer a kernel can hold (int64); :func:`check_int`'s default maximum.
INT64_MAX = 2**63 - 1

def check_int(value: object, name: str, *, minimum: int | None = None,
              maximum: float | None = None, why: str = "") -> int:
    """Return ``value`` as a Python ``int``; refuse bools, floats and out-of-range values.

    Parameters
    ----------
    value : object
        The candidate (``int`` or NumPy integer).
    name : str
        Argument name used in error messages.
    minimum, maximum : int, optional
        Inclusive bounds. Without ``maximum``, ``2**63 - 1``: integers go to int64 arrays
        and kernels, so a larger one is refused here, naming the argument, instead of
        overflowing later (pass a larger ``maximum``, or ``math.inf`` for no bound, for
        exact Python-int arguments).
    why : str
        Appended to the error message when ``maximum`` is exceeded (e.g. why a cap exists).

    Raises
    ------
    ArgumentTypeError
        If ``value`` is not an integer (``True``, ``3.0`` and ``"3"`` are refused); a
        ``TypeError`` (and a ``ValueError``).
    ValueError
        If ``value`` is out of range.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ArgumentTypeError(f"{name} must be an int, not {type(value).__name__} ({value!r})")
    value = int(value)
    if minimum is not None and value < minimum:
        raise InvalidValueError(f"{name} must be >= {minimum}, got {value}")
    if maximum is None:  # every kernel stores integers as int64: refuse here, by name
        maximum, why = INT64_MAX, why or " (integers are int64)"
    if value > maximum:
        raise InvalidValueError(f"{name} must be <= {maximum}, got {value}{why}")
    return value


def check_n(n: object, *, minimum: int = 1, maximum: int | None = None, why: str = "") -> int:
    """Validate a string length ``n`` (an int ``>= minimum``, default 1)."""
    return check_int(n, "n", minimum=minimum, maximum=maximum, why=why)


#: Largest number of samples one call of a notebook experiment draws (:func:`check_samples`).
MAX_SAMPLES = 10**7


def check_samples(n_samples: object) -> int:
    """A number of samples, ``1 <= n_samples <= MAX_SAMPLES``.

    >>> check_samples(100)
    100
    """
    return check_int(n_samples, "n_samples", minimum=1, maximum=MAX_SAMPLES)


def check_lengths(lengths: Iterable[object], n: int | None = None) -> tuple[int, ...]:
    """Validate a composition: a non-empty sequence of positive ints (summing to ``n`` if given).

    Returns the lengths as a tuple of Python ints.

    Raises
    ------
    TypeError
        If ``lengths`` is not a sequence of ints (a ``str`` is refused).
    ValueError
        If it is empty, has a non-positive entry, or does not sum to ``n``.
    """
    if type(lengths) in (tuple, list) and all(type(x) is int for x in lengths):
        out = tuple(lengths)  # fast path: plain ints need no per-element conversion
        if out and min(out) >= 1 and max(out) <= INT64_MAX and (n is None or sum(out) == n):
            return out
    if isinstance(lengths, (str, bytes)) or not isinstance(lengths, (Iterable, np.ndarray)):
        raise ArgumentTypeError(f"lengths must be a sequence of ints, not {type(lengths).__name__}")
    if isinstance(lengths, np.ndarray):
        if lengths.ndim != 1:
            raise InvalidValueError(f"lengths must be one-dimensional, got shape {lengths.shape}")
        if lengths.size and not np.issubdtype(lengths.dtype, np.integer):
            raise ArgumentTypeError(f"lengths must hold integers, not {lengths.dtype}")
    out = tuple(check_int(x, "every token length") for x in lengths)
    if not out:
        raise InvalidValueError("lengths must contain at least one token length")
    if min(out) < 1:
        raise InvalidValueError(f"token lengths must be positive, got {list(out)}")
    if n is not None and sum(out) != n:
        raise InvalidValueError(f"token lengths {list(out)} sum to {sum(out)}, not n = {n}")
    return out


def check_real(value: object, name: str, *, minimum: float | None = None,
               maximum: float | None = None, allow_inf: bool = False,
               open_minimum: bool = False, open_maximum: bool = False) -> float:
    """Return ``value`` as a Python ``float``; refuse bools, strings, NaN and (unless allowed) ±inf.

    Parameters
    ----------
    value : object
        The candidate (``int``, ``float`` or a NumPy scalar).
    name : str
        Argument name used in error messages.
    minimum, maximum : float, optional
        Bounds, inclusive unless ``open_minimum`` / ``open_maximum``.
    allow_inf : bool
        Accept ``±inf`` (still subject to the bounds).

    Examples
    --------
    >>> check_real(0.5, "p", minimum=0.0, maximum=1.0)
    0.5
    >>> check_real(float("nan"), "tau")
    Traceback (most recent call last):
    ...
    workbench.InvalidValueError: tau must be a number, got nan
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer,
                                                                       np.floating)):
        raise ArgumentTypeError(f"{name} must be a real number, not {type(value).__name__} "
                                f"({value!r})")
    try:
        out = float(value)
    except OverflowError:  # an int past the float range (10**400)
        raise InvalidValueError(f"{name} must be finite, got an integer of "
                                f"{len(str(abs(int(value))))} digits") from None
    if math.isnan(out):
        raise InvalidValueError(f"{name} must be a number, got nan")
    if math.isinf(out) and not allow_inf:
        raise InvalidValueError(f"{name} must be finite, got {out}")
    if minimum is not None and (out < minimum or (open_minimum and out == minimum)):
        raise InvalidValueError(f"{name} must be {'>' if open_minimum else '>='} {minimum}, got "
                                f"{out}")
    if maximum is not None and (out > maximum or (open_maximum and out == maximum)):
        raise InvalidValueError(f"{name} must be {'<' if open_maximum else '<='} {maximum}, got "
                                f"{out}")
    return out


def check_probability(value: object, name: str = "p") -> float:
    """A probability in ``[0, 1]`` as a float (``TypeError`` / ``ValueError`` otherwise).

    >>> check_probability(1)
    1.0
    """
    out = check_real(value, name)
    if not 0.0 <= out <= 1.0:
        raise InvalidValueError(f"{name} must be in [0, 1], got {out}")
    return out


def check_tokens(value: object, name: str = "tokens") -> tuple:
    """A segmentation argument (a sequence of tokens) as a tuple, its items unchecked.

    One ``str`` (or ``bytes``) is refused, never split into its characters: ``"ab"`` given
    for ``("ab",)`` would silently become ``("a", "b")``. A non-iterable is refused too.

    >>> check_tokens(["a", "b"])
    ('a', 'b')
    >>> check_tokens("ab", "deterministic")
    Traceback (most recent call last):
    ...
    workbench.ArgumentTypeError: deterministic must be a sequence of tokens (a tuple of str), \
not one str 'ab'; the one-token segmentation is written ('ab',)
    """
    if isinstance(value, (str, bytes)):
        raise ArgumentTypeError(f"{name} must be a sequence of tokens (a tuple of str), not one "
                                f"{type(value).__name__} {value!r:.60}; the one-token "
                                f"segmentation is written ({value!r:.60},)")
    try:
        return tuple(value)  # type: ignore[call-overload]
    except TypeError:
        raise ArgumentTypeError(f"{name} must be a sequence of tokens (a tuple of str), not "
                                f"{type(value).__name__}") from None


def check_choice(value: object, name: str, choices: Iterable[str]) -> str:
    """One of a fixed set of strings; the error lists the valid ones.

    Membership is a question of value, so anything else (``None`` included) is a
    ``ValueError``.

    >>> check_choice("l2r", "direction", ("l2r", "r2l"))
    'l2r'
    """
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise InvalidValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got "
                                f"{value!r}")
    return value


_UNITS = ((2**40, "TiB"), (2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB"))


def _over_budget(n_bytes: int | float, budget: int | float) -> str:
    """``"needs ~X, over the budget of Y"`` with the need visibly over the budget.

    Both are written in the budget's unit with one decimal; when that rounds the need down
    to the budget's figure (6.0 GiB against 6.0 GiB), the exact byte counts are added.

    >>> _over_budget(10**12, 6 * 2**30)
    'needs ~931.3 GiB, over the budget of 6.0 GiB'
    >>> _over_budget(6 * 2**30 + 2**20, 6 * 2**30)
    'needs ~6.0 GiB (6,443,499,520 bytes), over the budget of 6.0 GiB (6,442,450,944 bytes)'
    >>> _over_budget(5000, 4096)
    'needs ~4.9 KiB, over the budget of 4.0 KiB'
    """
    scale, unit = next(((s, u) for s, u in _UNITS if budget >= s), (1, "bytes"))
    limit = f"{budget / scale:.1f} {unit}"
    if isinstance(n_bytes, int) and n_bytes.bit_length() > 1000:  # past the float range
        return f"needs over 2^{n_bytes.bit_length() - 1} bytes, over the budget of {limit}"
    if not math.isfinite(n_bytes):
        return f"needs an unbounded amount, over the budget of {limit}"
    need = f"{n_bytes / scale:.1f} {unit}"
    if round(n_bytes / scale, 1) <= round(budget / scale, 1):  # rounds to the budget
        need += f" ({math.ceil(n_bytes):,} bytes)"
        limit += f" ({math.floor(budget):,} bytes)"
    return f"needs ~{need}, over the budget of {limit}"


def check_budget(n_bytes: int | float, what: str, *, budget: int = MEMORY_BUDGET,
                 hint: str = "") -> None:
    """Refuse a request whose estimated size ``n_bytes`` exceeds ``budget`` (before allocating).

    The message gives the need and the budget in the budget's unit, and their exact byte
    counts when the rounded figures would look equal.

    >>> try:
    ...     check_budget(10**12, "a table")
    ... except BudgetError as err:
    ...     print(err)
    a table needs ~931.3 GiB, over the budget of 6.0 GiB per call
    >>> try:
    ...     check_budget(6 * 2**30 + 8, "a table")
    ... except BudgetError as err:
    ...     print(err)  # doctest: +NORMALIZE_WHITESPACE
    a table needs ~6.0 GiB (6,442,450,952 bytes), over the budget of 6.0 GiB
    (6,442,450,944 bytes) per call
    """
    if n_bytes > budget:
        raise BudgetError(f"{what} {_over_budget(n_bytes, budget)} per call{hint}")



#: Default time budget of one public call, in seconds of *estimated* work on the reference
#: machine (2 cores; one core per call). Entry points whose work grows with their arguments
#: estimate it from the arguments (a cost model per entry point, calibrated by measurement
#: and stated in its docstring) and call :func:`check_work` before starting.
WORK_BUDGET_SECONDS = 30.0


def check_work(units: int | float, what: str, *, rate: float,
               budget_seconds: float | None = None, hint: str = "") -> None:
    """Refuse a request whose estimated time ``units / rate`` exceeds the time budget.

    The time twin of :func:`check_budget`: called before any work, with the work the
    arguments imply (``units``: e.g. expected trials, lattice arcs, recursion nodes) and the
    rate at which this machine does them (units per second, measured), so that a call that
    would run for minutes or hours is refused at once instead.

    Parameters
    ----------
    units : int or float
        Estimated work (exact Python ints of any size are accepted; ``inf`` is over budget).
    what : str
        What is asked, naming the argument(s) that drive the cost, e.g.
        ``"sample_many(n=100000) of 'abc'"``.
    rate : float
        Units per second on the reference machine (measured; stated by the caller).
    budget_seconds : float, optional
        The budget; default :data:`WORK_BUDGET_SECONDS` (read at call time).
    hint : str
        How to get under the budget (appended to the message), e.g.
        ``" (ask for fewer samples)"``.

    Raises
    ------
    BudgetError
        If ``units / rate > budget_seconds``.

    Examples
    --------
    >>> check_work(10**6, "a small job", rate=1e6)
    >>> try:
    ...     check_work(10**12, "f(n=10**12)", rate=1e6, hint=" (lower n)")
    ... except BudgetError as err:
    ...     print(err)  # doctest: +NORMALIZE_WHITESPACE
    f(n=10**12) would take ~1e+06 s (1e+12 units at ~1e+06 per second),
    over the time budget of 30 s per call (lower n)
    """
    budget = WORK_BUDGET_SECONDS if budget_seconds is None else budget_seconds
    try:
        seconds = float(units) / rate
    except OverflowError:  # a Python int past the float range: certainly over
        seconds = float("inf")
    if seconds > budget:
        shown = (f"2^{units.bit_length()}" if isinstance(units, int) and seconds == math.inf
                 else f"{float(units):.3g}")
        raise BudgetError(f"{what} would take ~{seconds:.2g} s ({shown} units at ~{rate:.3g} "
                          f"per second), over the time budget of {budget:g} s per call{hint}")

#: One past the largest Unicode code point.
MAX_CODE_POINT = 0x110000


def check_flat_words(code_points: object, offsets: object) -> tuple[np.ndarray, np.ndarray]:
    """Validate words given flat: word ``w`` is ``code_points[offsets[w]:offsets[w+1]]``.

    Returns ``(code_points as int32, offsets as int64)``, both one-dimensional and
    contiguous; ``offsets`` starts at 0, never decreases and ends at ``len(code_points)``;
    every code point is in ``[0, 0x10FFFF]``.

    >>> cps, offs = check_flat_words(np.array([97, 98, 99]), [0, 2, 3])
    >>> cps.dtype, offs.tolist()
    (dtype('int32'), [0, 2, 3])
    >>> check_flat_words(np.array([97]), [0, 2])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.InvalidValueError: offsets must start at 0, ... end at len(code_points) = 1
    """
    arrays = []
    for value, name in ((code_points, "code_points"), (offsets, "offsets")):
        if isinstance(value, (str, bytes)):
            raise ArgumentTypeError(f"{name} must be a one-dimensional integer array, not "
                                    f"{type(value).__name__}")
        arr = np.asarray(value)
        if arr.ndim != 1:
            raise InvalidValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
        if arr.size and not np.issubdtype(arr.dtype, np.integer):
            raise ArgumentTypeError(f"{name} must hold integers, not {arr.dtype}")
        arrays.append(arr)
    cps, offs = arrays
    if cps.size and (int(cps.min()) < 0 or int(cps.max()) >= MAX_CODE_POINT):
        raise InvalidValueError("every code point must be in [0, 0x10FFFF]")
    if (offs.size == 0 or int(offs[0]) != 0 or int(offs[-1]) != cps.size
            or (offs.size > 1 and bool((np.diff(offs) < 0).any()))):
        raise InvalidValueError("offsets must start at 0, never decrease and end at "
                                f"len(code_points) = {cps.size}")
    return (np.ascontiguousarray(cps, dtype=np.int32),
            np.ascontiguousarray(offs, dtype=np.int64))


#: Rough cost of one entry of a Python ``dict`` or ``list`` (key, value, slot), for budgets
#: of Python containers (:func:`check_size`).
PY_ENTRY_BYTES = 120


def check_size(n_items: int, name: str, *, item_bytes: float, what: str,
               budget: int = MEMORY_BUDGET) -> int:
    """Refuse ``n_items`` entries of ``item_bytes`` each past ``budget``, naming the argument.

    The one memory check for an allocation that grows with an argument: the message says
    which argument (``name``) asked for how much, before anything is allocated.

    >>> try:
    ...     check_size(10**12, "n_cells", item_bytes=8, what="a histogram")
    ... except BudgetError as err:
    ...     print(err)
    n_cells = 1,000,000,000,000: a histogram needs ~7450.6 GiB, over the budget of 6.0 GiB per call
    """
    n_bytes = n_items * item_bytes
    if n_bytes > budget:
        raise BudgetError(f"{name} = {n_items:,}: {what} {_over_budget(n_bytes, budget)} per "
                          "call")
    return n_items


#: The most workers (processes or threads) one call may start: far above any machine this
#: package targets, far below what exhausts one (``num_threads=10**6``).
MAX_WORKERS = 256


def log_base(base: object) -> float:
    """``ln(base)`` of a logarithm base, after checking ``base > 0`` and ``base != 1``
    (2: bits, ``math.e``: nats).

    >>> log_base(2) == math.log(2)
    True
    """
    b = check_real(base, "base", minimum=0.0, open_minimum=True)
    if b == 1.0:
        raise InvalidValueError("base must not be 1 (log 1 = 0)")
    return math.log(b)


def check_workers(value: object, name: str = "num_threads") -> int:
    """A number of worker processes or threads, ``1 <= value <= MAX_WORKERS``.

    >>> check_workers(4)
    4
    """
    return check_int(value, name, minimum=1, maximum=MAX_WORKERS,
                     why=" (MAX_WORKERS: one call never starts more)")


def check_mapping(value: object, name: str) -> Mapping:
    """A mapping (``dict``-like) argument; anything else raises :class:`ArgumentTypeError`.

    >>> check_mapping({"a": 1}, "counts")
    {'a': 1}
    """
    if not isinstance(value, Mapping):
        raise ArgumentTypeError(f"{name} must be a mapping (e.g. a dict), not "
                                f"{type(value).__name__}")
    return value


def check_sized_input(values: object, name: str, *, item_bytes: float = 32.0) -> None:
    """Refuse a sized input (list, range, ...) whose conversion to an array would exceed the
    memory budget, before numpy materialises it; an ndarray is already allocated and passes.

    ``item_bytes`` covers the array plus numpy's temporaries of the conversion (a Python
    sequence of floats is read into an object buffer first).

    >>> try:
    ...     check_sized_input(range(10**9), "counts")
    ... except BudgetError as err:
    ...     print(str(err).split(", over")[0])
    len(counts) = 1,000,000,000: converting counts to an array needs ~29.8 GiB
    """
    if isinstance(values, np.ndarray) or not isinstance(values, Sized):
        return
    check_size(len(values), f"len({name})", item_bytes=item_bytes,
               what=f"converting {name} to an array")
