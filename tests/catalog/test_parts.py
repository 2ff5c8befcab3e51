"""Module files parsed into parts: the same entries as parsing them one by one, cached by content
(a rebuild parses only changed files), damaged parts files ignored, and the parallel paths of a
build (parsing and record encoding) giving the same index as the serial ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from errexplain.catalog import parts, records
from errexplain.catalog.index import Index, build_bytes
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


def test_the_parallel_paths_build_the_same_index(monkeypatch, tmp_path):
    root = _catalog(tmp_path / "cat", files=9, per_file=7)
    serial = load_catalog([root])
    serial_index = build_bytes(serial.entries, serial.projects, "k", (), serial.template_facts)
    monkeypatch.setattr(parts, "PARALLEL_MIN_FILES", 1)
    monkeypatch.setattr(records, "PARALLEL_MIN_ENTRIES", 1)
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    parallel = load_catalog([root])
    assert parallel == serial
    data = build_bytes(parallel.entries, parallel.projects, "k", (), parallel.template_facts)
    assert _answers(data) == _answers(serial_index)
    assert _answers(build_bytes(serial.entries, serial.projects, "k")) == _answers(data)
