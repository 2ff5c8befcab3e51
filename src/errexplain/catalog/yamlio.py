"""The one YAML reader and writer: the C safe loader/dumper where PyYAML was built with libyaml,
the pure-Python safe ones otherwise. Used by the catalog loader and by extract."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from errexplain.errors import CatalogError

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


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


def read_yaml(path: Path) -> Any:
    """Read and parse one YAML file."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CatalogError(f"{path}: cannot read ({exc.strerror})") from None
    return parse_yaml(data, path)


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
