"""Reading JSON files defensively: one reader for every loader, errors naming file and JSON path.

:func:`read_json` checks the file first (a regular file within a size budget: never
``/dev/zero``), decodes UTF-8 (a byte-order mark is dropped), parses with duplicate keys and
the non-numbers ``NaN`` / ``Infinity`` refused, and turns every failure (``OSError``,
malformed JSON, nesting too deep for the parser: ``RecursionError``) into the loader's error
class, a ``ValueError``, whose message names the file. It returns a :class:`Node`: the
document with its JSON path (``$``), whose typed accessors (``get``, ``list``, ``str``,
``int``, ``real``, ``dict``) refuse a wrong type or value by naming file and path
(``model.json: $.merges[3][0] must be a string, got int``), and whose :meth:`Node.blame`
turns a ``TypeError`` / ``ValueError`` raised while building an object from a part of the
document into the same kind of error.

:func:`decode_text` is the one rule for every text file the package reads (JSON, vocabulary
lists, count tables): UTF-8, a leading byte-order mark dropped (:func:`strip_bom`), bytes
that are not UTF-8 named by line.

This module knows no file format (the loaders in ``bpe``, ``greedtok``, ``vocab`` do) and
writes nothing (``_core.io`` does).

Example
-------
>>> import os, tempfile
>>> p = os.path.join(tempfile.mkdtemp(), "m.json")
>>> _ = open(p, "w").write('{"merges": [["a", "b"], ["ab", 5]]}')
>>> root = read_json(p, what="model")
>>> [[s.str() for s in m.list(length=2)] for m in root.get("merges").list()]
Traceback (most recent call last):
...
workbench.JSONFileError: ...m.json: invalid model: $.merges[1][1] must be a ...
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from .errors import ArgumentTypeError, InvalidValueError, public
from .validate import check_int, check_real

__all__ = ["MAX_JSON_FILE", "UTF8_BOM", "JSONFileError", "Node", "decode_text", "read_json",
           "strip_bom"]

#: The largest JSON file read (bytes).
MAX_JSON_FILE = 1 << 30

_MISSING = object()
#: UTF-8's byte-order mark: dropped at the start of every text file the package reads, so it
#: never becomes part of a first token, chunk or key.
UTF8_BOM = b"\xef\xbb\xbf"


@public
class JSONFileError(InvalidValueError):
    """A JSON file that cannot be read or has the wrong shape; names the file and JSON path."""


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _refuse_constant(name: str) -> None:
    raise InvalidValueError(f"the constant {name} is not a JSON number")


def read_bytes(path: str | os.PathLike, *, what: str, error: type[ValueError] = JSONFileError,
               max_bytes: int = MAX_JSON_FILE) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; anything else raises ``error``."""
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"path must be a str or path-like, not {type(path).__name__}")
    p = Path(path)
    try:
        info = p.stat()
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise error(f"{p}: cannot read a {what} ({kind})")
        if info.st_size > max_bytes:
            raise error(f"{p}: {info.st_size:,} bytes, over the {max_bytes:,}-byte limit for "
                        f"a {what}")
        return p.read_bytes()
    except OSError as err:
        raise error(f"{p}: cannot read a {what} ({err.strerror or err})") from None


def strip_bom(raw: bytes) -> bytes:
    """``raw`` without a leading UTF-8 byte-order mark (the same object when it has none).

    >>> strip_bom(b"\\xef\\xbb\\xbfa\\t1\\n"), strip_bom(b"a")
    (b'a\\t1\\n', b'a')
    """
    return raw[len(UTF8_BOM):] if raw.startswith(UTF8_BOM) else raw


def decode_text(name: str | os.PathLike, raw: bytes, *,
                error: type[ValueError] = JSONFileError) -> str:
    """The text of the file ``name`` from its bytes: UTF-8, a leading byte-order mark
    dropped (:func:`strip_bom`); bytes that are not UTF-8 raise ``error`` naming the file,
    the line and the byte offset."""
    body = strip_bom(raw)
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as err:
        at = len(raw) - len(body) + err.start
        line = raw[:at].count(b"\n") + 1
        raise error(f"{Path(name)}, line {line}: not UTF-8 text ({err.reason} at byte "
                    f"{at})") from None


def parse_json(name: str | os.PathLike, raw: bytes, *, what: str,
               error: type[ValueError] = JSONFileError) -> Node:
    """Parse the bytes of the JSON file ``name`` (errors name it); see :func:`read_json`."""
    p = Path(name)
    text = decode_text(p, raw, error=error)
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicates,
                         parse_constant=_refuse_constant)
    except _DuplicateKey as err:
        raise error(f"{p}: key {err.args[0]!r:.60} appears twice in one JSON object") from None
    except json.JSONDecodeError as err:
        raise error(f"{p}: malformed JSON at line {err.lineno}, column {err.colno} "
                    f"({err.msg})") from None
    except ValueError as err:  # NaN / Infinity
        raise error(f"{p}: {err}") from None
    except RecursionError:
        raise error(f"{p}: JSON nested too deeply to be a {what}") from None
    return Node(doc, "$", p, error, what)


def read_json(path: str | os.PathLike, *, what: str, error: type[ValueError] = JSONFileError,
              max_bytes: int = MAX_JSON_FILE) -> Node:
    """Read a JSON file as a :class:`Node`; every failure raises ``error`` naming the file.

    Parameters
    ----------
    path : path-like
    what : str
        What the file should hold ("BPE model"), for messages.
    error : ValueError subclass
        The loader's error class (its message always starts with the file name).
    max_bytes : int
        Size budget of the file.
    """
    raw = read_bytes(path, what=what, error=error, max_bytes=max_bytes)
    return parse_json(path, raw, what=what, error=error)


def _kind(value: object) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", int: "int",
            float: "number", type(None): "null"}.get(type(value), type(value).__name__)


class Node:
    """A value of a JSON document with its path; accessors check types, naming file and path.

    Attributes
    ----------
    value : object
        The decoded JSON value.
    path : str
        Its JSON path (``$``, ``$.merges[3]``).
    """

    __slots__ = ("error", "file", "path", "value", "what")

    def __init__(self, value: object, path: str, file: Path,
                 error: type[ValueError] = JSONFileError, what: str = "JSON file") -> None:
        self.value, self.path, self.file, self.error = value, path, file, error
        self.what = what

    def _at(self, value: object, path: str) -> Node:
        return Node(value, path, self.file, self.error, self.what)

    def fail(self, message: str) -> None:
        """Raise the loader's error: ``<file>: invalid <what>: <path> <message>``."""
        raise self.error(f"{self.file}: invalid {self.what}: {self.path} {message}")

    def _want(self, kind: str) -> None:
        self.fail(f"must be {kind}, got {_kind(self.value)} ({self.value!r:.40})")

    def dict(self) -> dict:
        """The value as a ``dict`` (a JSON object)."""
        if not isinstance(self.value, dict):
            self._want("an object")
        return self.value

    def has(self, key: str) -> bool:
        """Whether this object has ``key``."""
        return key in self.dict()

    def get(self, key: str, default: object = _MISSING) -> Node:
        """Member ``key`` of this object (missing: ``default`` if given, else an error)."""
        obj = self.dict()
        sub = f"{self.path}.{key}"
        if key not in obj:
            if default is _MISSING:
                raise self.error(f"{self.file}: invalid {self.what}: {sub} is missing")
            return self._at(default, sub)
        return self._at(obj[key], sub)

    def list(self, *, length: int | None = None) -> list[Node]:
        """The items of this array, as nodes (``length``: the exact length required)."""
        if not isinstance(self.value, list):
            self._want("an array")
        if length is not None and len(self.value) != length:
            self.fail(f"must have {length} items, got {len(self.value)}")
        return [self._at(v, f"{self.path}[{i}]") for i, v in enumerate(self.value)]

    def items(self) -> Iterator[tuple[str, Node]]:
        """``(key, node)`` for every member of this object."""
        for k, v in self.dict().items():
            yield k, self._at(v, f"{self.path}[{k!r:.40}]")

    def str(self) -> str:
        """The value as a ``str``."""
        if not isinstance(self.value, str):
            self._want("a string")
        return self.value

    def int(self, *, minimum: int | None = None, maximum: int | None = None) -> int:
        """The value as an ``int`` in ``[minimum, maximum]`` (default maximum ``2**63 - 1``)."""
        with self.blame():
            return check_int(self.value, "value", minimum=minimum, maximum=maximum)

    def real(self, *, minimum: float | None = None) -> float:
        """The value as a finite ``float``."""
        with self.blame():
            return check_real(self.value, "value", minimum=minimum)

    def optional(self) -> Node | None:
        """``None`` for JSON ``null``, else this node."""
        return None if self.value is None else self

    @contextlib.contextmanager
    def blame(self) -> Iterator[None]:
        """Turn a ``TypeError`` / ``ValueError`` raised inside into the loader's error here."""
        try:
            yield
        except self.error:
            raise
        except (TypeError, ValueError) as err:
            msg = str(err).removeprefix("value ")
            raise self.error(f"{self.file}: invalid {self.what}: {self.path}: {msg}") from None
