"""A catalog's module files parsed, validated and encoded: the part of an index build that grows
with the catalog, spread over a process per core and cached per file by content.

A *part* is one module file's entries as marshal data: each entry's fields (nested records as
tuples, the catalog file left out) and, for each of its templates, what the index needs of it
(:func:`~errexplain.match.normalize.template_facts`). Worker processes return parts as bytes,
which the parent decodes far faster than it unpickles records.

Parts are kept in the cache dir, one file per project and salt (``parts-<salt>.bin``), keyed by
the digest of each module file's bytes: a build after one edit parses one file, and a fresh
clone of the same catalog (new mtimes, so a new index key) parses none. The salt covers all
else that shapes a part: errexplain's version, the Python, the project's metadata and the size
and mtime of the modules that parse, validate and encode (a source checkout changes its code
without a version bump). Like an index, a parts file is checksummed, written atomically and
ignored (then rewritten) when damaged; it is as trusted as the index beside it.
"""

from __future__ import annotations

import marshal
import os
import zlib
from operator import attrgetter

from errexplain._startup import TYPE_CHECKING, astuple, write_atomic
from errexplain.catalog.forked import Forked, can_fork
from errexplain.catalog.yamlio import read_bytes
from errexplain.match.normalize import TemplateFacts, template_facts
from errexplain.models import Entry, ExampleFix, Project, Source, Verified

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from pathlib import Path
    from typing import Any

    Parse = Callable[[bytes, str, Project], list[Entry]]

MAGIC = b"ERRXPT01"
PARALLEL_MIN_FILES = 400
"""From this many files to parse, a process per core parses them (YAML parsing is CPU-bound;
the bundled catalog has ~3,600 module files); a build's `parallel` argument overrides it."""
_BATCH = 64
"""Files a worker parses before it sends their parts to the parent."""
CACHE_MIN_FILES = 100
"""Projects with fewer module files are parsed every time, without a parts file."""
KEEP_PARTS = 3
"""Parts files kept in the cache dir (the newest): older ones are of other salts."""
_SOURCE_FIELD = Entry._fields.index("source")
_FIX_FIELD = Entry._fields.index("example_fix")
_FILE_FIELD = Entry._fields.index("catalog_file")
_VERIFIED_FIELD = Entry._fields.index("verified")
_entry_fields = attrgetter(*Entry._fields)
_source_fields = attrgetter(*Source._fields)


def encode(e: Entry) -> tuple[Any, ...]:
    """An entry's fields as plain values (marshal keeps tuples, str, int, bool and None)."""
    rec = list(_entry_fields(e))
    rec[_SOURCE_FIELD] = _source_fields(e.source)
    rec[_FIX_FIELD] = astuple(e.example_fix) if e.example_fix else None
    rec[_FILE_FIELD] = None
    rec[_VERIFIED_FIELD] = astuple(e.verified) if e.verified else None
    return tuple(rec)


def decode(rec: Sequence[Any], catalog_file: str) -> Entry:
    """The entry of an :func:`encode`d record, found in `catalog_file`."""
    fields = list(rec)
    fields[_SOURCE_FIELD] = Source(*fields[_SOURCE_FIELD])
    fix = fields[_FIX_FIELD]
    fields[_FIX_FIELD] = ExampleFix(*fix) if fix else None
    fields[_FILE_FIELD] = catalog_file
    ver = fields[_VERIFIED_FIELD]
    fields[_VERIFIED_FIELD] = Verified(*ver) if ver else None
    return Entry(*fields)


def _digest(data: bytes) -> bytes:
    import hashlib

    return hashlib.blake2b(data, digest_size=16).digest()


def make_part(path: str, project: Project, parse: Parse) -> tuple[bytes, bytes]:
    """(digest of the file's bytes, its part): the file parsed and validated by `parse`
    (:func:`~errexplain.catalog.load.load_module_data`, which raises CatalogError)."""
    data = read_bytes(path)
    entries = parse(data, path, project)
    facts = {t: template_facts(t) for t in dict.fromkeys(e.template for e in entries)}
    return _digest(data), marshal.dumps((tuple(encode(e) for e in entries), facts))


def _make_parts(job: tuple[list[int], list[str], Project, Parse]) -> list[tuple[int, bytes, bytes]]:
    wanted, paths, project, parse = job
    with no_gc():
        return [(i, *make_part(paths[i], project, parse)) for i in wanted]


class no_gc:  # used like a function: `with no_gc():` (as store.build_lock)
    """The collector paused: a catalog is a million small objects and no cycles, and each
    collection walks all of them (an eighth of a build)."""

    def __enter__(self) -> None:
        import gc

        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.was:
            import gc

            gc.enable()


def intern_single_chars() -> None:
    """Intern every text of one latin-1 character. CPython has one object for each, interned
    or not depending on the code the process has loaded (marshal writes an interned text with
    another type byte): a build interns them all first, in every process, so a part or an index
    record holding one does not depend on what the process did before."""
    import sys

    for code in range(256):
        sys.intern(chr(code))


def workers(many: bool, parallel: bool | None) -> int:
    """How many processes share a build's work: one per core (at most 4) when there is `many`
    to do, or as `parallel` says (True: at least 2, even on one core; False: 1)."""
    if parallel is False or (parallel is None and not many):
        return 1
    cores = min(os.cpu_count() or 1, 4)
    return max(cores, 2) if parallel else cores


def _parse_all(
    wanted: list[int], paths: list[str], project: Project, parse: Parse, parallel: bool | None
) -> Iterator[tuple[int, bytes, bytes]]:
    """Parts of the files `wanted` (indices into `paths`), by a process per core when many
    (see :func:`workers`), each as soon as it is made."""
    n = workers(len(wanted) >= PARALLEL_MIN_FILES, parallel)
    if n < 2 or not wanted or not can_fork():  # one process
        yield from _make_parts((wanted, paths, project, parse))
        return

    def work(k: int) -> Iterator[list[tuple[int, bytes, bytes]]]:
        """Child k's share, every n-th file, sent a batch at a time: the parent decodes
        finished batches while the children parse the rest."""
        mine = wanted[k::n]
        for start in range(0, len(mine), _BATCH):
            yield _make_parts((mine[start : start + _BATCH], paths, project, parse))

    with Forked(n, work) as children:
        for _, batch in children.results():
            yield from batch


def load_parts(
    paths: Sequence[Path],
    project: Project,
    cache: str | None,
    parse: Parse,
    parallel: bool | None = None,
) -> tuple[list[Entry], dict[str, TemplateFacts]]:
    """The entries of a project's module files (in the given order), each parsed by `parse`,
    and the facts of their templates; parts come from the parts file in `cache` (a directory)
    when the project has CACHE_MIN_FILES files or more, and are written back there. Files are
    parsed by a process per core when there are PARALLEL_MIN_FILES or more to parse, or as
    `parallel` says (see :func:`workers`).

    What the parts are decoded into does not depend on where they came from (the cache, this
    process or a worker) nor on the order they arrived in: the facts are merged in file
    order. Marshal's bytes of a value depend on which of its objects are one (see
    :mod:`.records`), so the index is the same however its parts were made."""
    intern_single_chars()
    names = [str(p) for p in paths]
    use_cache = len(names) >= CACHE_MIN_FILES
    store = _PartsFile(cache, project, parse) if cache is not None and use_cache else None
    known = store.read() if store else {}
    digests: list[bytes | None] = [None] * len(names)
    blobs: list[bytes | None] = [None] * len(names)
    decoded: list[list[Entry]] = [[] for _ in names]
    file_facts: list[dict[str, TemplateFacts]] = [{} for _ in names]

    def take(i: int, part: bytes) -> None:
        recs, file_facts[i] = marshal.loads(part)
        decoded[i] = [decode(rec, names[i]) for rec in recs]

    with no_gc():
        if known:
            for i, name in enumerate(names):
                digests[i] = d = _digest(read_bytes(name))
                hit = blobs[i] = known.get(d)
                if hit is not None:
                    take(i, hit)
        missing = [i for i, b in enumerate(blobs) if b is None]
        for i, digest, blob in _parse_all(missing, names, project, parse, parallel):
            digests[i], blobs[i] = digest, blob
            take(i, blob)
        facts: dict[str, TemplateFacts] = {}
        for found in file_facts:  # in file order, not as the parts arrived
            facts.update(found)
    if store and (missing or len(known) != len(set(digests))):
        store.write(dict(zip(digests, blobs, strict=True)))  # type: ignore[arg-type]
    return [e for part in decoded for e in part], facts


class _PartsFile:
    """The parts file of a project in a cache dir: digest -> part."""

    def __init__(self, directory: str, project: Project, parse: Parse) -> None:
        self.directory = directory
        self.path = os.path.join(directory, f"parts-{_salt(project, parse)}.bin")

    def read(self) -> dict[bytes, bytes]:
        try:
            with open(self.path, "rb") as fh:
                data = fh.read()
        except OSError:
            return {}
        body = data[len(MAGIC) + 4 :]
        crc = int.from_bytes(data[len(MAGIC) : len(MAGIC) + 4], "little")
        if data[: len(MAGIC)] != MAGIC or zlib.crc32(body) != crc:
            return {}
        try:
            parts = marshal.loads(body)
        except (EOFError, ValueError, TypeError):
            return {}
        return parts if isinstance(parts, dict) else {}

    def write(self, parts: dict[bytes, bytes]) -> None:
        body = marshal.dumps(parts)
        data = MAGIC + zlib.crc32(body).to_bytes(4, "little") + body
        try:
            write_atomic(self.path, data)
            _prune(self.directory, keep=self.path)
        except OSError:  # a read-only cache: the next build parses again
            pass


def _salt(project: Project, parse: Parse) -> str:
    """What shapes a part besides the file's bytes (see the module doc)."""
    import sys

    from errexplain._version import __version__

    code = []
    for name in (__name__, parse.__module__, *_CODE):
        st = os.stat(getattr(sys.modules.get(name), "__file__", None) or os.devnull)
        code.append((name, st.st_size, st.st_mtime_ns))
    key = repr((MAGIC, __version__, sys.version, astuple(project), code)).encode()
    return f"{zlib.crc32(key):08x}{zlib.adler32(key):08x}"


_CODE = (
    "errexplain.catalog.yamlio",
    "errexplain.models",
    "errexplain.match.normalize",
    "errexplain.match.template",
)
"""The modules besides this one and the parser's whose code shapes a part (all imported by
then)."""


def _prune(directory: str, keep: str) -> None:
    """Keep the newest KEEP_PARTS parts files (always the one just written)."""
    with os.scandir(directory) as it:
        found = [e for e in it if e.name.startswith("parts-") and e.name.endswith(".bin")]
    found.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
    for e in found[KEEP_PARTS:]:
        if e.path != keep:
            os.unlink(e.path)
