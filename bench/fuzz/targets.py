"""The fuzz targets of issue 14: each takes bytes and raises only its documented exceptions.

* ``parser``: text -> :func:`errexplain.parse.parse_traceback` (total: never raises), plus the
  masks and word splitting that every message goes through.
* ``template``: a template and a message -> compile (TemplateSyntaxError only), then match,
  prefix match, fill and re-match (a filled template matches itself with the same values).
* ``catalog``: a YAML module file -> the catalog loader (CatalogError only).
* ``index``: a valid index with bytes changed -> every read either returns the original
  answers or raises IndexCorrupt (never another exception, never a changed answer).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from errexplain.catalog.index import Index, IndexCorrupt, build_bytes
from errexplain.catalog.load import load_catalog, load_module_file, load_project
from errexplain.errors import CatalogError
from errexplain.match import normalize, template
from errexplain.parse import parse_traceback

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DATA = REPO / "tests" / "data"


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def parser(data: bytes) -> None:
    text = _text(data)
    for err in parse_traceback(text):
        assert isinstance(err.type, str) and isinstance(err.message, str)
    normalize.mask(text)
    normalize.words(text)


def template_target(data: bytes) -> None:
    text = _text(data)
    tmpl, _, msg = text.partition("\n")
    try:
        compiled = template.compile_template(tmpl)
    except template.TemplateSyntaxError:
        return
    template.match(tmpl, msg)
    template.match_prefix(compiled, template.normalize_ws(msg))
    values = {name: f"v{i}" for i, name in enumerate(compiled.names)}
    filled = template.fill(tmpl, values)
    assert template.match(tmpl, filled) is not None, (tmpl, filled)


_PROJECT = None
_TMP = Path(tempfile.mkdtemp(prefix="errexplain-fuzz-"))


def catalog(data: bytes) -> None:
    global _PROJECT
    if _PROJECT is None:
        _PROJECT = load_project(DATA / "catalog" / "demo")
    path = _TMP / "m.yaml"
    path.write_bytes(data)
    try:
        load_module_file(path, _PROJECT)
    except CatalogError:
        return


_GOOD: bytes | None = None
_ANSWERS: tuple[object, ...] = ()


def _answers(idx: Index) -> tuple[object, ...]:
    entries = tuple(idx.entry(i) for i in range(len(idx)))
    related = tuple(idx.related(i) for i in range(len(idx)))
    ids = tuple(idx.position(e.id) for e in entries)
    words = {w for e in entries for w in e.template.lower().split()}
    buckets = tuple(tuple(c.id for c in idx.bucket(w, words)) for w in sorted(words))
    return entries, related, ids, buckets, idx.word_stats().idf


def index(data: bytes) -> None:
    """`data` says where and how to change the bytes of a valid index: pairs of (offset,
    xor value), the offset scaled over the whole file."""
    global _GOOD, _ANSWERS
    if _GOOD is None:
        cat = load_catalog([DATA / "catalog"])
        _GOOD = build_bytes(cat.entries, cat.projects, "fuzz", cat.release_facts)
        _ANSWERS = _answers(Index.from_bytes(_GOOD))
        index.input_size = len(_GOOD)  # type: ignore[attr-defined]
    buf = bytearray(_GOOD)
    for i in range(0, len(data) - 2, 3):
        at = int.from_bytes(data[i : i + 2], "little") * len(buf) // 65536
        buf[at] ^= data[i + 2] or 1
    try:
        idx = Index.from_bytes(bytes(buf))
        got = _answers(idx)
    except IndexCorrupt:
        return
    assert got == _ANSWERS


index.input_size = 0  # type: ignore[attr-defined]  # set to the index's size on first use
TARGETS = {"parser": parser, "template": template_target, "catalog": catalog, "index": index}


def seeds(name: str) -> list[bytes]:
    """Starting inputs: the test corpus of tracebacks, the small catalog's templates and
    files, a few index changes."""
    if name == "parser":
        return [p.read_bytes() for p in sorted((DATA / "tracebacks").glob("*.txt"))]
    if name == "template":
        cat = load_catalog([DATA / "catalog"])
        return [
            (e.template + "\n" + (e.examples[0] if e.examples else "")).encode()
            for e in cat.entries
        ]
    if name == "catalog":
        return [p.read_bytes() for p in sorted((DATA / "catalog").rglob("*.yaml"))]
    return [bytes([i, i * 7 % 256, 0x5A]) for i in range(0, 256, 17)]
