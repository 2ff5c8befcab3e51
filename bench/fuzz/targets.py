"""The fuzz targets of issue 14: each takes bytes and raises only its documented exceptions.

* ``parser``: text -> :func:`errexplain.parse.parse_traceback` (total: never raises), plus the
  masks and word splitting of each message found.
* ``template``: a template and a message -> compile (TemplateSyntaxError only), then match,
  prefix match, fill and re-match (a filled template matches itself with the same values).
* ``catalog``: a YAML module file -> the catalog loader (CatalogError only).
* ``index``: a valid index with bytes changed -> every read either returns the original
  answers or raises IndexCorrupt (never another exception, never a changed answer).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from errexplain.catalog.index import Index, IndexCorrupt
from errexplain.catalog.index_build import build_bytes
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
        # what matching does with each message (tests/test_linear.py times them on big inputs)
        normalize.mask(err.message)
        normalize.words(err.message)


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
_SHM = Path("/dev/shm")
# a file per input: in memory where there is a tmpfs (a disk write per input dominated the run)
_TMP = Path(tempfile.mkdtemp(prefix="errexplain-fuzz-", dir=_SHM if _SHM.is_dir() else None))


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


def _sample(items: list, n: int) -> list:
    """At most n of items, spread evenly (deterministic)."""
    step = max(1, len(items) // n)
    return items[::step][:n]


def seeds(name: str) -> list[bytes]:
    """Starting inputs: the test corpus of tracebacks and the real pastes of bench/real; the
    templates of the test catalog and of the shipped one (with an example or a filled
    message); the test catalog's files and the shipped catalog's small ones; a few index
    changes."""
    if name == "parser":
        files = sorted((DATA / "tracebacks").glob("*.txt"))
        files += sorted((REPO / "bench" / "real" / "cases").glob("*.txt"))
        return [p.read_bytes() for p in files]
    if name == "template":
        cat = load_catalog([DATA / "catalog"])
        entries = list(cat.entries)
        entries += _sample([e for e in load_catalog([REPO / "errors"]).entries if e.template], 4000)
        out = []
        for e in entries:
            try:
                names = template.compile_template(e.template).names
            except template.TemplateSyntaxError:
                continue
            msg = e.examples[0] if e.examples else ""
            if not msg:
                msg = template.fill(e.template, {n: f"v{i}" for i, n in enumerate(names)})
            out.append((e.template + "\n" + msg).encode())
        return out
    if name == "catalog":
        files = sorted((DATA / "catalog").rglob("*.yaml"))
        small = [p for p in sorted((REPO / "errors").rglob("*.yaml")) if p.stat().st_size < 8192]
        return [p.read_bytes() for p in files + _sample(small, 300)]
    return [bytes([i, i * 7 % 256, 0x5A]) for i in range(0, 256, 17)]
