"""The one YAML reader and writer: the C safe loader/dumper where PyYAML was built with libyaml,
the pure-Python safe ones otherwise. Used by the catalog loader and by extract."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from errexplain.errors import CatalogError

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _Unusual(Exception):
    """The document uses a YAML feature the event reader leaves to the full loader."""


_STR = "tag:yaml.org,2002:str"
_PLAIN_TAGS = (None, "!")


def _event_kinds() -> dict[type, int]:
    return {
        yaml.ScalarEvent: 0,
        yaml.MappingStartEvent: 1,
        yaml.MappingEndEvent: 2,
        yaml.SequenceStartEvent: 3,
        yaml.SequenceEndEvent: 4,
        yaml.DocumentStartEvent: 5,
        yaml.DocumentEndEvent: 6,
        yaml.StreamStartEvent: 5,
        yaml.StreamEndEvent: 7,
    }


CACHE_SIZE = 65536
"""Plain scalars whose tag is remembered (keys, releases, line numbers repeat across the files
of a catalog; 4,096 filled up within the first tenth of the bundled catalog)."""
CACHE_TEXT_MAX = 40
"""Longer plain scalars (messages, prose) are not remembered: they rarely repeat in another
file, and their tag is quick to find (a text that is no number, date or null fails the
resolver's patterns within its first characters)."""


class _Scalars:
    """Plain scalars resolved and built exactly as the safe loader does: the resolver's own
    implicit-resolver table picks the tag, SafeConstructor builds anything but the common
    null/bool/int/str (fast paths that give the same values).

    The objects a document is read into are a matter of the document alone: equal plain
    scalars of a document are one object, no other document's object is among them, and
    nothing outside the document holds one of them (the cache remembers tags, under copies of
    the texts). Marshal's bytes of a value depend on which of its objects are one and which
    are held elsewhere, so a part, and then the index, would otherwise depend on what the
    process read before and on whether the cache had filled up: the index of a first build
    differed from one built in one process, or from parts kept in the cache."""

    def __init__(self) -> None:
        self.table = yaml.resolver.Resolver.yaml_implicit_resolvers
        self.constructor = yaml.constructor.SafeConstructor()
        self.cache: dict[str, str] = {}
        """The tag of each plain scalar's text, across documents."""
        self.document: dict[str, Any] = {}
        """The values of the plain scalars of the document being read, by text."""

    def begin(self) -> None:
        """A new document is read (or one was)."""
        if self.document:
            self.document = {}

    def plain(self, value: str) -> Any:
        hit = self.document.get(value, self)
        return self.new(value) if hit is self else hit

    def new(self, value: str) -> Any:
        """The value of a plain scalar the document has not held before."""
        tag = self.cache.get(value)
        if tag is None:
            tag = self._tag(value)
            if len(value) <= CACHE_TEXT_MAX and len(self.cache) < CACHE_SIZE:
                self.cache[value[:1] + value[1:]] = tag  # (a copy: not the document's object)
        out = value if tag is _STR else self._build(tag, value)
        self.document[value] = out
        return out

    def _tag(self, value: str) -> str:
        for candidate, regexp in self.table.get(value[:1] if value else "", ()):
            if regexp.match(value):
                if candidate.endswith((":null", ":bool", ":int", ":float", ":timestamp")):
                    return str(candidate)
                raise _Unusual(candidate)  # merge keys, "=" values: the full loader decides
        return _STR

    def _build(self, tag: str, value: str) -> Any:
        if tag.endswith(":null"):
            return None
        if tag.endswith(":bool"):
            return value.lower() in ("yes", "true", "on")
        if tag.endswith(":int") and value.isdigit() and (value[0] != "0" or len(value) == 1):
            return int(value)
        node = yaml.ScalarNode(tag, value)
        return self.constructor.yaml_constructors[tag](self.constructor, node)


_scalars: list[_Scalars] = []


_NO_KEY = object()


class _Builder:
    """Containers under construction, innermost last."""

    def __init__(self) -> None:
        self.stack: list[tuple[Any, Any]] = []
        self.container: Any = None
        self.key: Any = _NO_KEY  # the pending key of the innermost mapping
        self.root: Any = None

    def start(self, ev: Any, mapping: bool) -> None:
        if ev.tag not in _PLAIN_TAGS or (isinstance(self.container, dict) and self.key is _NO_KEY):
            raise _Unusual("tagged node or complex key")
        self.stack.append((self.container, self.key))
        self.container, self.key = ({} if mapping else []), _NO_KEY

    def end(self) -> None:
        value = self.container
        self.container, self.key = self.stack.pop()
        self.add(value)

    def add(self, value: Any) -> None:
        container = self.container
        if container is None:
            self.root = value
        elif type(container) is list:
            container.append(value)
        elif self.key is _NO_KEY:
            self.key = value
        else:
            container[self.key] = value
            self.key = _NO_KEY


def _scalar(ev: Any, scalars: _Scalars) -> Any:
    if ev.tag in _PLAIN_TAGS:
        return scalars.plain(ev.value) if ev.implicit[0] else ev.value
    if ev.tag == _STR:
        return ev.value
    raise _Unusual(ev.tag)


def _fast_load(data: bytes | str) -> Any:
    """``yaml.load(data, CSafeLoader)`` for the plain documents a catalog is made of, built
    from libyaml's events without the Python composer and constructor (about 3x faster on the
    bundled catalog). Anchors, aliases, explicit tags, merge keys, complex keys and several
    documents raise _Unusual: the full loader takes those (same values, same errors)."""
    from yaml._yaml import CParser

    if not _scalars:
        _scalars.append(_Scalars())
    scalars, kinds, out = _scalars[0], _event_kinds(), _Builder()
    scalars.begin()
    get = CParser(data).get_event
    docs = 0
    while True:
        ev: Any = get()
        kind = kinds.get(type(ev))
        if kind is None or getattr(ev, "anchor", None) is not None:
            raise _Unusual("alias or anchor")
        if kind == 0:
            out.add(_scalar(ev, scalars))
        elif kind in (1, 3):
            out.start(ev, kind == 1)
        elif kind in (2, 4):
            out.end()
        elif kind == 6:
            docs += 1
            if docs > 1:
                raise _Unusual("several documents")
        elif kind == 7:
            return out.root


_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\v",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX = {"x": 2, "u": 4, "U": 8}
_BREAKS = ("\r", "\x85", "\u2028", "\u2029", "\ufeff", "\t")
"""Characters that libyaml reads as line breaks, a byte-order mark or a tab (whose rules we do
not copy): a text holding one is left to the event reader."""


def _double_quoted(text: str) -> str:
    """The value of a one-line double-quoted scalar (escapes as YAML 1.1 defines them)."""
    if len(text) < 2 or text[-1] != '"':
        raise _Unusual("double-quoted scalar spans lines")
    body, out, i = text[1:-1], [], 0
    while True:
        j = body.find("\\", i)
        part = body[i:] if j < 0 else body[i:j]
        if '"' in part:
            raise _Unusual("text after a double-quoted scalar")
        out.append(part)
        if j < 0:
            return "".join(out)
        code = body[j + 1 : j + 2]
        if code in _ESCAPES:
            out.append(_ESCAPES[code])
            i = j + 2
        elif code in _HEX:
            digits = body[j + 2 : j + 2 + _HEX[code]]
            if len(digits) != _HEX[code] or digits.strip("0123456789abcdefABCDEF"):
                raise _Unusual("bad escape")
            out.append(chr(int(digits, 16)))
            i = j + 2 + _HEX[code]
        else:  # a line continuation or an invalid escape: the event reader decides
            raise _Unusual("escape")


def _fold(first: str, more: list[str]) -> str:
    """A quoted scalar's text spread over lines (`more`: the lines after the first, the last
    one cut before its closing quote), folded as YAML folds it: a line break between two lines
    becomes a space, n empty lines between them n newlines; spaces around a line break go, those
    after the opening and before the closing quote stay."""
    out = [first.rstrip(" ")]
    empty = 0
    for i, line in enumerate(more):
        last = i == len(more) - 1
        body = line.lstrip(" ") if last else line.strip(" ")
        if not body and not last:
            empty += 1
            continue
        out.append("\n" * empty if empty else " ")
        out.append(body)
        empty = 0
    return "".join(out)


def _is_item(body: str) -> bool:
    return body == "-" or body.startswith("- ")


class _LineReader:
    """Reads one document of the block-style subset that :func:`dump_yaml` writes (see
    :func:`_block_load`). `lines` holds (indent, text, raw line number) of every line that is
    not empty or a comment; `pos` is the next of them to read."""

    def __init__(self, text: str) -> None:
        if not _scalars:
            _scalars.append(_Scalars())
        _scalars[0].begin()
        self.new, self.known = _scalars[0].new, _scalars[0].document
        if any(c in text for c in _BREAKS):
            raise _Unusual("line break, BOM or tab")
        self.raw = text.split("\n")
        self.lines = [
            (len(line) - len(body), body, no)
            for no, line in enumerate(self.raw)
            if (body := line.lstrip(" ")) and body[0] != "#"
        ]
        for indent, body, _ in self.lines:
            if (indent == 0 and body.startswith(("---", "...", "%"))) or not body.isprintable():
                raise _Unusual("document marker, directive or non-printable character")
        self.n = len(self.lines)
        self.pos = 0

    def document(self) -> Any:
        if not self.lines:
            return None
        indent, top, _ = self.lines[0]
        if indent != 0:
            raise _Unusual("indented document")
        doc = self.seq(0) if _is_item(top) else self.mapping(0, None)
        if self.pos != self.n:
            raise _Unusual("text after the document")
        return doc

    def mapping(self, indent: int, first: tuple[str, int] | None) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        lines = self.lines
        while True:
            if first is not None:  # the first key of a mapping opened on a `- ` line
                (body, no), first = first, None
            elif self.pos >= self.n or lines[self.pos][0] < indent:
                return out
            else:
                at, body, no = lines[self.pos]
                if at > indent:
                    raise _Unusual("indentation")
            pair = self.key_of(body)
            if pair is None or pair[0] in out:
                raise _Unusual("not a key, or a duplicate key")
            key, rest = pair
            if rest:
                out[key] = self.scalar(rest, no)
            else:
                self.pos += 1
                out[key] = self.value_after(indent)

    def seq(self, indent: int) -> list[Any]:
        out: list[Any] = []
        lines = self.lines
        while self.pos < self.n:
            at, body, no = lines[self.pos]
            if at < indent or not _is_item(body):
                break
            if at > indent:
                raise _Unusual("indentation")
            rest = body[2:]
            if not rest.strip(" "):
                if rest:
                    raise _Unusual("trailing space")
                self.pos += 1
                out.append(self.value_after(indent))
            elif rest.startswith(("- ", " ")) or rest == "-":
                raise _Unusual("nested sequence on one line")
            elif self.key_of(rest) is not None:
                out.append(self.mapping(indent + 2, (rest, no)))
            else:
                out.append(self.scalar(rest, no))
        return out

    def value_after(self, indent: int) -> Any:
        """The block value after a `key:` or `-` line (None when nothing is nested)."""
        if self.pos < self.n:
            at, body, _ = self.lines[self.pos]
            if at > indent:
                return self.seq(at) if _is_item(body) else self.mapping(at, None)
            if at == indent and _is_item(body):
                return self.seq(indent)
        return None

    def key_of(self, body: str) -> tuple[Any, str] | None:
        """(key, rest after ': ') of a `key: value` or `key:` line, None for a scalar."""
        if body[0] in _INDICATORS:
            return None
        cut = body.find(": ")
        if cut < 0:
            if body[-1] != ":":
                return None
            cut = len(body) - 1
        key = body[:cut]
        hit = self.known.get(key, _NO_KEY)  # (the document's own scalars: see _Scalars)
        if hit is _NO_KEY:
            if key[-1] == " " or " #" in key or ":" in key:
                raise _Unusual("key")
            hit = self.new(key)
        return hit, body[cut + 2 :]

    def scalar(self, value: str, no: int) -> Any:
        """The value of a scalar that starts at line `no` after its key or dash; moves `pos`
        past the scalar's last line."""
        first = value[0]
        if first == "'":
            return self.single_quoted(value, no)
        self.pos += 1
        if first == '"':
            return _double_quoted(value)
        if first in _INDICATORS and not (first in "-?:" and value[1:2] not in ("", " ")):
            if value == "[]":  # ("-x", "?x", ":x" start plain scalars)
                return []
            if value == "{}":
                return {}
            raise _Unusual("indicator")
        hit = self.known.get(value, _NO_KEY)
        if hit is not _NO_KEY:
            return hit
        if ": " in value or " #" in value or value[-1] in " :":
            raise _Unusual("plain scalar YAML would read otherwise")
        return self.new(value)

    def single_quoted(self, value: str, no: int) -> str:
        inner = value[1:-1]
        if len(value) >= 2 and value[-1] == "'" and "'" not in inner.replace("''", ""):
            self.pos += 1
            return inner.replace("''", "'")
        if "'" in value[1:].replace("''", ""):
            raise _Unusual("text after a quoted scalar")
        more = []
        for line in self.raw[no + 1 :]:
            if not line.isprintable() or (not line.startswith(" ") and line[:3] in ("---", "...")):
                raise _Unusual("non-printable character or document marker")
            if "'" in line.replace("''", ""):
                close = line.rstrip(" ")
                if not close.endswith("'") or "'" in close[:-1].replace("''", ""):
                    raise _Unusual("text after a quoted scalar")
                more.append(close[:-1])
                end = no + len(more)
                while self.pos < self.n and self.lines[self.pos][2] <= end:
                    self.pos += 1
                return _fold(value[1:], more).replace("''", "'")
            more.append(line)
        raise _Unusual("unclosed quote")


def _block_load(text: str) -> Any:
    """``yaml.load(text, CSafeLoader)`` for the block-style subset that :func:`dump_yaml`
    writes, read line by line without libyaml's per-event Python objects (a third of the
    event reader's time on the bundled catalog): mappings of plain keys, sequences (indented or
    not), one-line plain scalars, single- and double-quoted scalars (a single-quoted one may
    span lines, folded), ``[]`` and ``{}``, comment lines. Anything else (block scalars, plain
    scalars over several lines, flow collections, anchors, tags, tabs, duplicate keys,
    document markers, non-printable characters, ...) raises _Unusual and the event reader or
    the full loader takes the file: the values are the safe loader's, or the file goes the
    slow way. Plain scalars are typed by the loader's own implicit resolvers (_Scalars)."""
    return _LineReader(text).document()


EXPANSION = 16
"""A document may hold at most this many values per byte of its text, counting every value
that an alias repeats as often as it is reachable (a plain document holds far fewer)."""


def _expanded_size(doc: Any, budget: int) -> int:
    """How many values `doc` holds with aliases expanded, stopping once past `budget`: linear
    in the budget however deep an alias tree nests (a "billion laughs" document shares its
    lists, which is cheap to load but explodes when walked or formatted)."""
    count, stack = 0, [doc]
    while stack and count <= budget:
        node = stack.pop()
        count += 1
        if isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return count


def parse_yaml(data: bytes | str, where: Path | str) -> Any:
    """Parse YAML text; a syntax error becomes a CatalogError naming `where` and the line. A
    document whose aliases expand past EXPANSION values per byte is refused (issue 14: a
    479-byte alias bomb inside an entry id reached 9.1 GB)."""
    try:
        if _LOADER is not yaml.SafeLoader:  # libyaml is there: the fast readers first
            try:
                text = data.decode("utf-8") if isinstance(data, bytes) else data
                return _block_load(text)  # (what dump_yaml writes; it declines the rest)
            except (_Unusual, UnicodeDecodeError):
                pass
            try:
                return _fast_load(data)  # (no aliases: it leaves those to the full loader)
            except _Unusual:
                pass
        doc = yaml.load(data, Loader=_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f"{where}:{mark.line + 1}" if mark else str(where)
        raise CatalogError(
            f"{at}: invalid YAML ({getattr(exc, 'problem', exc)})",
            hint="fix the file (see docs/catalog.md)",
        ) from None
    finally:
        if _scalars:  # the document's scalars are its own from now on (see _Scalars.document)
            _scalars[0].begin()
    budget = EXPANSION * len(data) + 1000
    if _expanded_size(doc, budget) > budget:
        raise CatalogError(
            f"{where}: YAML aliases expand to more than {budget:,} values (an alias bomb?)",
            hint="write the values out instead of repeating them through aliases",
        )
    return doc


def read_bytes(path: Path | str) -> bytes:
    """A catalog file's bytes; an unreadable file is a CatalogError."""
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise CatalogError(f"{path}: cannot read ({exc.strerror})") from None


def read_yaml(path: Path) -> Any:
    """Read and parse one YAML file."""
    return parse_yaml(read_bytes(path), path)


def dump_yaml(doc: Any) -> str:
    """YAML text for a document, keys in the given order, wide lines, block style."""
    text: str = yaml.dump(
        doc,
        Dumper=_DUMPER,
        sort_keys=False,
        allow_unicode=True,
        width=4096,
        default_flow_style=False,
    )
    return text


def entry_line(path: Path, index: int, count: int) -> int | None:
    """The line of the index-th of the `count` items of a module file's `entries` (only on the
    error path). Found in the text, without parsing the file a second time (that took a minute
    on a 50 MB catalog, issue 14): the items are the lines that start with `- ` at the indent
    of the first item after `entries:`; when their number is not `count` (flow style, odd
    layout) the line is not known (None)."""
    try:
        text = path.read_bytes()
    except OSError:
        return None
    start = 0 if text.startswith(b"entries:") else text.find(b"\nentries:") + 1
    if start <= 0 and not text.startswith(b"entries:"):
        return None
    indent = None
    found: list[int] = []
    for no, line in enumerate(text[start:].split(b"\n")[1:], start=1):
        body = line.lstrip(b" ")
        if line[:1] not in (b" ", b"-", b"#", b""):
            break  # the next top-level key
        if body.startswith(b"- ") and indent in (None, len(line) - len(body)):
            indent = len(line) - len(body)
            found.append(no)
    index = index + count if index < 0 else index
    if len(found) != count or not 0 <= index < count:
        return None
    return text.count(b"\n", 0, start) + 1 + found[index]
