"""Module files parsed into parts: the same entries as parsing them one by one, cached by content
(a rebuild parses only changed files), damaged parts files ignored, and the parallel paths of a
build (parsing and record encoding) giving the same index as the serial ones."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from errexplain.catalog import parts
from errexplain.catalog.index import Index
from errexplain.catalog.index_build import build_bytes
from errexplain.catalog.load import load_catalog, load_module_file, load_project

ENTRY = """\
- id: '{id:016x}'
  exception: ValueError
  template: 'value {k} of <name> is out of range in part {i}'
  source:
    path: pkg/m{i}.py
    line: {line}
    function: C{i}.check
  condition: name > {k}
  related:
  - '{rel:016x}'
  meaning: Value {k} is out of range.
  examples:
  - value {k} of x is out of range in part {i}
  example_fix:
    after: x = {k}
  verified:
    how: read
    read:
    - C{i}.check
"""


def _catalog(root: Path, files: int = 12, per_file: int = 5) -> Path:
    (root / "demo").mkdir(parents=True)
    (root / "demo" / "project.yaml").write_text(
        "name: demo\nversion: '1.0'\nlink: https://example.org/{version}/{path}#L{line}\n"
    )
    for i in range(files):
        body = "".join(
            ENTRY.format(id=i * 100 + k, k=k, i=i, line=k + 1, rel=((i + 1) % files) * 100 + k)
            for k in range(per_file)
        )
        (root / "demo" / f"m{i}.yaml").write_text(f"module: pkg/m{i}.py\nentries:\n{body}")
    return root


@pytest.fixture
def cached(monkeypatch, tmp_path):
    """Parts files for catalogs of any size, and a count of the module files parsed."""
    monkeypatch.setattr(parts, "CACHE_MIN_FILES", 1)
    monkeypatch.setenv("ERREXPLAIN_CACHE_DIR", str(tmp_path / "cache"))
    parsed: list[str] = []
    real = parts.make_part

    def counting(path, project, parse):
        parsed.append(Path(path).name)
        return real(path, project, parse)

    monkeypatch.setattr(parts, "make_part", counting)
    return parsed


def test_entries_are_those_of_each_file_parsed_alone(cached, tmp_path):
    root = _catalog(tmp_path / "cat")
    project = load_project(root / "demo")
    alone = [e for i in range(12) for e in load_module_file(root / "demo" / f"m{i}.yaml", project)]
    assert sorted(load_catalog([root]).entries, key=lambda e: e.id) == sorted(
        alone, key=lambda e: e.id
    )


def test_a_rebuild_parses_only_the_changed_file(cached, tmp_path):
    root = _catalog(tmp_path / "cat")
    first = load_catalog([root])
    assert len(cached) == 12
    assert len(list((tmp_path / "cache").glob("parts-*.bin"))) == 1
    cached.clear()
    assert load_catalog([root]) == first
    assert cached == []
    edited = root / "demo" / "m3.yaml"
    edited.write_text(edited.read_text().replace("Value 2 is", "Value two is"))
    again = load_catalog([root])
    assert cached == ["m3.yaml"]
    assert "Value two is out of range." in {e.meaning for e in again.entries}
    assert again.template_facts == first.template_facts


def test_a_copy_of_the_catalog_elsewhere_parses_nothing(cached, tmp_path):
    """The parts are keyed by content: a fresh clone (new paths, new mtimes) reuses them."""
    load_catalog([_catalog(tmp_path / "one")])
    cached.clear()
    other = load_catalog([_catalog(tmp_path / "two")])
    assert cached == []
    assert {e.catalog_file for e in other.entries} == {
        str(tmp_path / "two" / "demo" / f"m{i}.yaml") for i in range(12)
    }


@pytest.mark.parametrize("damage", [b"", b"ERRXPT01junk", b"\x00" * 100])
def test_a_damaged_parts_file_is_parsed_again_and_rewritten(cached, tmp_path, damage):
    root = _catalog(tmp_path / "cat")
    first = load_catalog([root])
    [f] = (tmp_path / "cache").glob("parts-*.bin")
    good = f.read_bytes()
    f.write_bytes(damage + good[len(damage) + 20 :])  # (the magic, checksum or body wrong)
    cached.clear()
    assert load_catalog([root]) == first
    assert len(cached) == 12
    cached.clear()
    assert load_catalog([root]) == first  # rewritten whole
    assert cached == []


def test_other_project_metadata_is_another_parts_file(cached, tmp_path):
    root = _catalog(tmp_path / "cat")
    load_catalog([root])
    meta = root / "demo" / "project.yaml"
    meta.write_text(meta.read_text().replace("1.0", "2.0"))  # urls in every entry change
    cached.clear()
    entries = load_catalog([root]).entries
    assert len(cached) == 12
    assert all("/2.0/" in (e.source.url or "") for e in entries)
    assert len(list((tmp_path / "cache").glob("parts-*.bin"))) == 2


def test_an_unwritable_cache_still_loads(monkeypatch, tmp_path):
    monkeypatch.setattr(parts, "CACHE_MIN_FILES", 1)
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("x")
    monkeypatch.setenv("ERREXPLAIN_CACHE_DIR", str(blocker / "sub"))
    assert len(load_catalog([_catalog(tmp_path / "cat")]).entries) == 60


def test_encode_decode_round_trip(bundled_catalog):
    for e in bundled_catalog.entries:
        assert parts.decode(parts.encode(e), e.catalog_file or "") == e


def _answers(data: bytes) -> tuple[object, ...]:
    index = Index.from_bytes(data)
    index.position("x")
    index.sites_at("x")
    meta = {k: v for k, v in index.meta.items() if k not in ("offs_pages", "releases")}
    return (
        meta,
        index.candidates(),
        [index.entry(p) for p in range(len(index))],
        [index.related(p) for p in range(len(index))],
        [index._slot_items(n) for n in range(index.meta["nslots"])],
        index.word_stats(),
        index._ids,
        index._sites,
    )


def test_the_parallel_paths_build_the_same_index(tmp_path):
    root = _catalog(tmp_path / "cat", files=9, per_file=7)
    serial = load_catalog([root])
    serial_index = build_bytes(serial.entries, serial.projects, "k", (), serial.template_facts)
    parallel = load_catalog([root], parallel=True)
    assert parallel == serial
    data = build_bytes(
        parallel.entries, parallel.projects, "k", (), parallel.template_facts, parallel=True
    )
    assert _answers(data) == _answers(serial_index)
    assert _answers(build_bytes(serial.entries, serial.projects, "k")) == _answers(data)


HISTORY_ENTRY = """\
- id: '{id:016x}'
  exception: {exc}
  template: '{template}'
  source:
    path: pkg/m{i}.py
    line: {line}
    function: C{i}.check_{f}
  condition: self.limit_{g} > {k}
  releases: 0.1..0.3
  at: 0.1 pkg/old{o}.py:{line} C{i}.check_{f}; 0.2 :{line}; 0.3 pkg/m{i}.py:{line} C{i}.check_{f}
  related: [{related}]
"""


def _history_catalog(root: Path, files: int = 6, per_file: int = 50) -> Path:
    """Entries related within and across files by message, guard, function and class, with
    older paths, more than SMALL_INTS of them (positions that are shared int objects and not)."""
    (root / "demo").mkdir(parents=True)
    (root / "demo" / "project.yaml").write_text("name: demo\nversion: '0.3'\n")
    for i in range(files):
        body = "".join(
            HISTORY_ENTRY.format(
                id=i * 1000 + k,
                exc=("ValueError", "KeyError")[k % 2],
                template=f"limit {k % 7} exceeded by <n>" if k % 5 else f"part {i} row {k}",
                i=i,
                line=k + 1,
                f=k % 4,
                g=k % 9,
                k=k,
                o=(i, i + 1)[k % 3 == 0],
                related=", ".join(
                    f"'{((i + d) % files) * 1000 + (k + d) % per_file:016x}'" for d in (0, 1, 3)
                ),
            )
            for k in range(per_file)
        )
        (root / "demo" / f"m{i}.yaml").write_text(f"module: pkg/m{i}.py\nentries:\n{body}")
    return root


HISTORY_INDEX_SHA256 = "d35754aff1c757dda1432ca06ada6469d908b91140f2ff0001424a6a9901ea41"
"""The index of _history_catalog as main built it before the records were encoded in load
order (speed8), on CPython 3.11; updated in session 10, when the ``sites`` blob began to hold
message-carrying raise sites (a traceback cut before its exception line is located by its
frames: errexplain.match.sites), stored in buckets (FORMAT 16); and in session 17, when a
project row began to hold its ``log_prefixes`` (FORMAT 17); and in session 19, when the
lineage heads in ``meta`` became two byte strings searched in place (FORMAT 18); and in session
20, when a project row began to hold its ``main_part`` and ``shared_wording`` (FORMAT 19); and
in session 21, when a site key began to hold which of its sites have a message and the entries
filed under no word were put in file and line order (FORMAT 20); and in session 29, when a
candidate row began to end with whether its site prints its message (FORMAT 21); and in
session 32, when it began to end with the first release of its check's oldest wording
(FORMAT 22); and in session 36, when an assert whose test has `self.` began to be filed under
its test without it too (FORMAT 23); and in session 46, when a project row began to end with
its ``own_log_prefixes`` (FORMAT 24); and in session 57, when a candidate row began to end
with whether its site is a C++ check that prints its place before its text (FORMAT 25). Marshal's
bytes depend on which objects are shared and which referenced twice, so a change of how
records are encoded
can change bytes without changing an answer: this pins the bytes. Update it (with a reason)
when the index format changes."""


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the pinned bytes are of CPython 3.11")
@pytest.mark.parametrize("forked", [False, True])
def test_the_index_bytes_are_those_main_built(monkeypatch, tmp_path, forked):
    _history_catalog(tmp_path / "cat")
    monkeypatch.chdir(tmp_path)  # catalog files named by relative paths: the same every run
    monkeypatch.setenv("ERREXPLAIN_CACHE_DIR", str(tmp_path / "cache"))
    # (whatever this process read before: what a file is read into is of the file alone)
    catalog = load_catalog([Path("cat")])
    data = build_bytes(
        catalog.entries, catalog.projects, "k", (), catalog.template_facts, parallel=forked
    )
    assert hashlib.sha256(data).hexdigest() == HISTORY_INDEX_SHA256
