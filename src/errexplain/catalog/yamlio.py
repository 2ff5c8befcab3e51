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
"""Plain scalars remembered with their values (keys, releases, line numbers repeat across the
files of a catalog; 4,096 filled up within the first tenth of the bundled catalog)."""


class _Scalars:
    """Plain scalars resolved and built exactly as the safe loader does: the resolver's own
    implicit-resolver table picks the tag, SafeConstructor builds anything but the common
    null/bool/int/str (fast paths that give the same values)."""

    def __init__(self) -> None:
        self.table = yaml.resolver.Resolver.yaml_implicit_resolvers
        self.constructor = yaml.constructor.SafeConstructor()
        self.cache: dict[str, Any] = {}

    def plain(self, value: str) -> Any:
        hit = self.cache.get(value, self)
        if hit is not self:
            return hit
        tag = _STR
        for candidate, regexp in self.table.get(value[:1] if value else "", ()):
            if regexp.match(value):
                tag = candidate
                break
        if tag == _STR:
            out: Any = value
        elif tag.endswith(":null"):
            out = None
        elif tag.endswith(":bool"):
            out = value.lower() in ("yes", "true", "on")
        elif tag.endswith(":int") and value.isdigit() and (value[0] != "0" or len(value) == 1):
            out = int(value)
        elif tag.endswith((":int", ":float", ":timestamp")):
            node = yaml.ScalarNode(tag, value)
            out = self.constructor.yaml_constructors[tag](self.constructor, node)
        else:  # merge keys, "=" values: the full loader decides (and reports)
            raise _Unusual(tag)
        if len(self.cache) < CACHE_SIZE and not isinstance(out, (list, dict)):
            self.cache[value] = out
        return out


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
        if _LOADER is not yaml.SafeLoader:  # libyaml is there: the event reader first
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
