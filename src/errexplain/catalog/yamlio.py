"""The one YAML reader and writer: the C safe loader/dumper where PyYAML was built with libyaml,
the pure-Python safe ones otherwise. Used by the catalog loader and by extract."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from errexplain.errors import CatalogError

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def parse_yaml(data: bytes | str, where: Path | str) -> Any:
    """Parse YAML text; a syntax error becomes a CatalogError naming `where` and the line."""
    try:
        return yaml.load(data, Loader=_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f"{where}:{mark.line + 1}" if mark else str(where)
        raise CatalogError(
            f"{at}: invalid YAML ({getattr(exc, 'problem', exc)})",
            hint="fix the file (see docs/catalog.md)",
        ) from None


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


def entry_line(path: Path, index: int) -> int | None:
    """The line of the index-th item of a module file's `entries` (only on the error path)."""
    try:
        node = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
        for key, value in node.value if node is not None else ():
            if key.value == "entries":
                return int(value.value[index].start_mark.line) + 1
    except Exception:
        return None
    return None
