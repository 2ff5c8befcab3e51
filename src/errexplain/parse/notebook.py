"""A Jupyter notebook's saved outputs (an `.ipynb` file, nbformat 3 or 4, or a piece of one
pasted into an issue) read as the notebook shows them.

A notebook keeps what its code cells printed as JSON: a stream's text (`"output_type":
"stream"`, the server log sglang prints to stderr), an error's `ename`, `evalue` and the
`traceback` IPython drew (a list of strings, with colour codes), a result's `text/plain`. Read
raw, the error's frames hide inside escaped strings and its line is the JSON key `"evalue"`:
the type is lost, and the frames with it. :func:`notebook_outputs` gives the text the cells
printed instead, one output after another, each followed by a blank line; the error's own
line (`ValueError: ...`) is added when its traceback is empty or left it out.

- A whole notebook (or one cell, one output, a list of them) is decoded as JSON.
- A piece of one (a paste cut from the file, prose around it) is read line by line: the string
  lines of a `"traceback": [` or `"text": [` list are decoded, an `"ename"` and `"evalue"` pair
  with an empty or missing traceback is written `ename: evalue`, the cells' `source` lists and
  the JSON's own keys and brackets are left out, and any other line (the prose) is kept.

Pure: text in, text out; linear in the text (every pattern anchored on one line).
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, compile_regex

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["NOTEBOOK_NOTE", "notebook_outputs"]

NOTEBOOK_NOTE = (
    "read as a Jupyter notebook: the outputs its cells saved, as the notebook shows them "
    "(line numbers count those printed lines)"
)

_MARK = '"output_type"'
"""Every saved output has this key: a text without it holds no notebook output."""
_OUTPUT = compile_regex(
    r'"output_type"\s{0,8}:\s{0,8}"(?:stream|error|execute_result|display_data|pyerr|pyout)"'
)
"""The key with one of nbformat's output types as its value (another program's setting of the
same name, sglang's diffusion `"output_type": "pil"` in its logged arguments, is not one)."""
_SGR = compile_regex(r"\x1b\[[0-9;]{0,40}m")
_OUTPUT_LISTS = ("traceback", "text", "text/plain")
"""Keys of an output whose list of strings is what it printed."""
_LIST_OPEN = compile_regex(r'\s{0,80}"(?P<key>[\w/.+-]{1,60})"\s{0,8}:\s{0,8}\[\s{0,8}$')
_LIST_CLOSE = compile_regex(r"\s{0,80}\]\s{0,8},?\s{0,8}$")
_STRING_LINE = compile_regex(r'\s{0,80}(?P<s>"(?:[^"\\\n]|\\.){0,200000}")\s{0,8},?\s{0,8}$')
_KEY_STRING = compile_regex(
    r'\s{0,80}"(?P<key>[\w/.+-]{1,60})"\s{0,8}:\s{0,8}(?P<s>"(?:[^"\\\n]|\\.){0,200000}")'
    r"\s{0,8},?\s{0,8}$"
)
_EMPTY_LIST = compile_regex(r'\s{0,80}"(?P<key>[\w/.+-]{1,60})"\s{0,8}:\s{0,8}\[\s{0,8}\]')
_JSON_SYNTAX = compile_regex(r'\s{0,80}(?:[\[\]{}]\s{0,8},?\s{0,8}$|"[^"\n]{1,100}"\s{0,8}:)')
"""A line of the JSON's own (a bracket, or a key and its value): not printed by a cell."""


def notebook_outputs(text: str) -> str | None:
    """The text a notebook's cells printed, as the notebook shows it (module docstring); None
    when `text` holds no saved output of a notebook (the text is then read as it is)."""
    if _MARK not in text or not _OUTPUT.search(text):
        return None
    st = text.strip()
    if st[:1] in ("{", "["):
        import json

        try:
            doc = json.loads(st)
        except (ValueError, RecursionError):  # (a piece of a notebook: read line by line)
            doc = None
        if doc is not None:
            printed = [p for o in _outputs(doc, 0) if (p := _printed(o))]
            return _joined(printed) if printed else None
    return _excerpt(text)


def _joined(outputs: list[str]) -> str:
    return "\n\n".join(p.rstrip("\n") for p in outputs) + "\n"


_DEPTH = 8
"""How deep lists of cells or outputs nest in what is read (a notebook, its worksheets, a
cell, a list of outputs)."""


def _outputs(doc: object, depth: int) -> Iterator[dict[str, object]]:
    """Every saved output in a notebook (v4 `cells`, v3 `worksheets`), a cell, an output, or a
    list of any of them, in order."""
    if depth > _DEPTH:
        return
    if isinstance(doc, list):
        for item in doc:
            yield from _outputs(item, depth + 1)
    elif isinstance(doc, dict):
        if isinstance(doc.get("output_type"), str):
            yield doc
        for key in ("worksheets", "cells", "outputs"):
            if isinstance(doc.get(key), list):
                yield from _outputs(doc[key], depth + 1)


def _text(value: object) -> str:
    """A notebook's multi-line string: one string, or a list of strings each ending with its
    line break (nbformat's way of storing it)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(v for v in value if isinstance(v, str))
    return ""


def _printed(output: dict[str, object]) -> str:
    """What one output shows: a stream's text, an error's traceback (and its line when the
    traceback has none), a result's plain text; colour codes left out."""
    kind = output.get("output_type")
    if kind in ("error", "pyerr"):
        tb = output.get("traceback")
        lines = [v for v in tb if isinstance(v, str)] if isinstance(tb, list) else []
        shown = "".join(v if v.endswith("\n") else v + "\n" for v in lines)
        return _with_error_line(_SGR.sub("", shown), output.get("ename"), output.get("evalue"))
    if kind == "stream":
        return _SGR.sub("", _text(output.get("text")))
    data = output.get("data")
    plain = data.get("text/plain") if isinstance(data, dict) else output.get("text")
    return _SGR.sub("", _text(plain))


def _with_error_line(shown: str, ename: object, evalue: object) -> str:
    """`shown` with `ename: evalue` after it, unless its last line already says so (IPython's
    traceback ends with that line; a kernel that saved none, or `%tb` off, leaves it out)."""
    if not isinstance(ename, str) or not ename:
        return shown
    last = next((ln for ln in reversed(shown.splitlines()) if ln.strip()), "")
    if last.startswith(ename):
        return shown
    value = evalue if isinstance(evalue, str) else ""
    return shown + (f"{ename}: {value}" if value else ename) + "\n"


def _decoded(literal: str) -> str | None:
    import json

    try:
        value = json.loads(literal)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


class _Excerpt:
    """The line-by-line reading of a piece of a notebook (:func:`_excerpt`): a stack of the
    lists it is in (`cells`, `outputs`, a `traceback`), by their keys."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.lists: list[str] = []
        self.parts: list[str] = []  # the strings of the output list being read
        self.ename: str | None = None
        self.evalue: str | None = None
        self.found = False

    def line(self, raw: str) -> None:
        if self.lists and self.lists[-1] in _OUTPUT_LISTS and (m := _STRING_LINE.match(raw)):
            self._part(m["s"])
        elif m := _LIST_OPEN.match(raw):
            self.lists.append(m["key"])
            self.parts = []
        elif self.lists and _LIST_CLOSE.match(raw):
            self._close()
        elif m := _EMPTY_LIST.match(raw):
            if m["key"] == "traceback":
                self._error_line("")
        elif m := _KEY_STRING.match(raw):
            self._key(m["key"], m["s"])
        elif self.lists and _STRING_LINE.match(raw):
            pass  # (a string of a list no cell printed: a cell's source, a page's HTML)
        elif not _JSON_SYNTAX.match(raw):
            while self.lists:  # (the piece ends inside its lists: read so far)
                self._close()
            self.out.append(raw)  # (the prose around the piece)

    def _part(self, literal: str) -> None:
        """One string of an output's list: a traceback's parts are lines of their own, a
        stream's run on (each ends with its line break)."""
        if (s := _decoded(literal)) is not None:
            tb = self.lists[-1] == "traceback"
            self.parts.append(s if not tb or s.endswith("\n") else s + "\n")

    def _close(self) -> None:
        key, shown = self.lists.pop(), "".join(self.parts)
        self.parts = []
        if key == "traceback":
            self._error_line(shown)
        elif key in _OUTPUT_LISTS and shown:
            self.found = True
            self.out += [_SGR.sub("", shown).rstrip("\n"), ""]

    def _key(self, key: str, literal: str) -> None:
        value = _decoded(literal)
        if value is None:
            return
        if key == "ename":
            self.ename, self.evalue = value, None
        elif key == "evalue":
            self.evalue = value
        elif key in _OUTPUT_LISTS:  # (a multi-line string saved as one string)
            self.found = True
            self.out += [_SGR.sub("", value).rstrip("\n"), ""]

    def _error_line(self, shown: str) -> None:
        self.found = True
        text = _with_error_line(_SGR.sub("", shown), self.ename, self.evalue)
        self.ename = self.evalue = None
        if text.strip():
            self.out += [text.rstrip("\n"), ""]

    def finish(self) -> None:
        while self.lists:
            self._close()
        if self.ename is not None:  # (an error whose traceback the piece cut off)
            self._error_line("")


def _excerpt(text: str) -> str | None:
    """A piece of a notebook read line by line (module docstring); None when no output of a
    cell was found in it."""
    reader = _Excerpt()
    for raw in text.split("\n"):
        reader.line(raw)
    reader.finish()
    return "\n".join(reader.out) if reader.found else None
