"""Catalog YAML on disk: load the existing module files, render and write them atomically."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath
from typing import Any

from errexplain._startup import Record, write_atomic
from errexplain.catalog.load import SOURCE_KEYS, SOURCE_ORDER
from errexplain.catalog.yamlio import dump_yaml, parse_yaml
from errexplain.errors import ExtractError
from errexplain.models import format_releases, format_site, parse_releases, parse_site

PROJECT_FILE = "project.yaml"
RELEASES_FILE = "releases.yaml"
Entry = dict[str, Any]


class ChangedOnDisk(Exception):
    """A catalog file changed between loading it and writing the merged result."""

    def __init__(self, path: Path) -> None:
        super().__init__(str(path))
        self.path = path


class CatalogFile(Record):
    """One module file of an existing catalog: its path relative to the catalog dir."""

    name: str
    module: str | None
    entries: tuple[Entry, ...]
    raw: bytes = b""


def catalog_file_for(module: str) -> str:
    """``sglang/srt/x.py`` -> ``srt/x.yaml`` (the leading package directory is dropped); a C/C++
    source keeps its suffix (``.../utils.h`` -> ``.../utils.h.yaml``: `utils.h` and `utils.cuh`
    of one directory are two files)."""
    path = PurePosixPath(module)
    parts = (
        path.with_suffix(".yaml") if path.suffix == ".py" else path.with_name(path.name + ".yaml")
    ).parts
    return "/".join(parts[1:] if len(parts) > 1 else parts)


def _read_yaml(path: Path) -> tuple[bytes, Any]:
    try:
        raw = path.read_bytes()
        return raw, parse_yaml(raw, path)
    except OSError as exc:
        raise ExtractError(
            f"cannot read catalog file {path}: {exc.strerror}",
            hint="fix or delete the file, then run the extraction again",
        ) from exc


def read_module_files(out: Path) -> list[CatalogFile]:
    """Every module file under ``out`` (sorted), skipping ``project.yaml``/``releases.yaml``."""
    files: list[CatalogFile] = []
    if not out.is_dir():
        return files
    for path in sorted(out.rglob("*.yaml")):
        name = path.relative_to(out).as_posix()
        if name in (PROJECT_FILE, RELEASES_FILE):
            continue
        raw, doc = _read_yaml(path)
        if not isinstance(doc, dict) or not isinstance(doc.get("entries", []), list):
            raise ExtractError(
                f"catalog file {path} is not a mapping with an 'entries' list",
                hint="fix or delete the file, then run the extraction again",
            )
        entries = tuple(expand_entry(e) for e in doc.get("entries") or [] if isinstance(e, dict))
        files.append(CatalogFile(name, doc.get("module"), entries, raw))
    return files


def read_project_file(out: Path) -> tuple[dict[str, Any], bytes | None]:
    """``project.yaml`` as a mapping (empty when missing) and its raw bytes (None: missing)."""
    path = out / PROJECT_FILE
    if not path.exists():
        return {}, None
    raw, doc = _read_yaml(path)
    return (doc if isinstance(doc, dict) else {}), raw


def project_text(meta: dict[str, Any], raw: bytes | None, project: dict[str, Any]) -> str:
    """The text to write for ``project.yaml``: the file as it is (its comments kept: the
    releases tools/shared.py read, say) when ``project`` differs from what was read (``meta``)
    in its name and version at most, with those lines edited; else ``project`` dumped."""
    changed = {k for k in {*meta, *project} if meta.get(k) != project.get(k)}
    if raw is None or not changed <= {"name", "version"}:
        return dump(project)
    text = raw.decode("utf-8")
    lines = text.split("\n")
    for key in changed:
        line = dump({key: project[key]}).rstrip("\n")
        at = [i for i, ln in enumerate(lines) if ln.startswith(f"{key}:")]
        if key not in meta or len(at) != 1 or "\n" in line:
            return dump(project)
        lines[at[0]] = line
    return "\n".join(lines)


def compact_entry(entry: Entry) -> Entry:
    """The entry as written: `source` as ``PATH:LINE FUNCTION`` and `releases` as
    ``FIRST..LAST`` (the tokens of `at`; a third of the events of the mappings, which makes the
    first index build of a history catalog a third faster), each kept a mapping when it cannot
    be written so. Key order is kept."""
    out = dict(entry)
    src = entry.get("source")
    if isinstance(src, dict) and src.keys() <= SOURCE_KEYS:
        text = format_site(src.get("path"), src.get("line"), src.get("function"))
        if text is not None and (src.get("function") is None or type(src["function"]) is str):
            out["source"] = text
    rel = entry.get("releases")
    if isinstance(rel, dict) and rel.keys() == {"first", "last"}:
        first, last = rel["first"], rel["last"]
        text = format_releases(first, last) if type(first) is type(last) is str else None
        try:
            if text is not None and parse_releases(text) == (first, last):
                out["releases"] = text
        except ValueError:
            pass
    return out


def expand_entry(entry: Entry) -> Entry:
    """The entry as extraction works on it: `source` and `releases` as mappings (the inverse of
    :func:`compact_entry`; a text that does not parse is left for the loader to report)."""
    out = entry
    src = entry.get("source")
    if isinstance(src, str):
        try:
            fields = dict(zip(SOURCE_ORDER, parse_site(src), strict=True))
        except ValueError:
            pass
        else:
            out = dict(out)
            out["source"] = {k: v for k, v in fields.items() if v is not None}
    rel = entry.get("releases")
    if isinstance(rel, str):
        try:
            first, last = parse_releases(rel)
        except ValueError:
            pass
        else:
            out = dict(out) if out is entry else out
            out["releases"] = {"first": first, "last": last}
    return out


def dump(doc: dict[str, Any]) -> str:
    """YAML text of a catalog file (a module file's entries written by :func:`compact_entry`)."""
    items = doc.get("entries")
    if isinstance(items, list):
        doc = {**doc, "entries": [compact_entry(e) if isinstance(e, dict) else e for e in items]}
    return dump_yaml(doc)


def _mode() -> int:
    """0o666 minus the umask, as ``open()`` would create it (mkstemp gives 0o600)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def write_if_unchanged(path: Path, text: str, expected: bytes | None) -> bool:
    """Write ``text`` to ``path`` via a temporary file and rename; skip identical content.

    ``expected`` is what the file held when it was loaded before the merge (None: it did not
    exist). If someone changed it meanwhile, :class:`ChangedOnDisk` is raised, nothing written.
    """
    data = text.encode("utf-8")
    current = read_bytes(path)
    if current == data:
        return False
    if current != expected:
        raise ChangedOnDisk(path)
    write_atomic(str(path), data, mode=_mode())
    return True


def remove_file(path: Path, expected: bytes) -> bool:
    """Delete a catalog file left without entries, unless it changed since it was loaded."""
    current = read_bytes(path)
    if current is None:
        return False
    if current != expected:
        raise ChangedOnDisk(path)
    path.unlink()
    return True
