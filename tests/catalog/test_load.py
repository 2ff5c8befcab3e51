from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from errexplain.catalog.integrity import check, lint
from errexplain.catalog.load import load_catalog
from errexplain.errors import CatalogError

DATA = Path(__file__).parent.parent / "data"


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "cat"
    shutil.copytree(DATA / "catalog", dst)
    return dst


def test_small_catalog_loads_and_checks(small_catalog):
    assert len(small_catalog.entries) == 11
    assert check(small_catalog) == []
    e = next(e for e in small_catalog.entries if e.source.line == 360)
    assert e.source.url == "https://example.org/demo/blob/v1.2.3/python/demo/pkg/images.py#L360"
    assert e.curated and not e.derived


def _break(tmp_path: Path, old: str, new: str) -> Path:
    root = _copy(tmp_path)
    f = root / "demo" / "pkg" / "mixed.yaml"
    f.write_text(f.read_text().replace(old, new, 1))
    return root


def test_unknown_key_names_file_line_entry_and_key(tmp_path):
    root = _break(tmp_path, "  meaning: Pixel rows", "  meening: Pixel rows")
    with pytest.raises(CatalogError) as exc:
        load_catalog([root])
    msg = exc.value.message
    assert "mixed.yaml:" in msg and "meening: unknown key" in msg and "entry " in msg


def test_bad_source_key_path(tmp_path):
    root = _break(tmp_path, "    line: 360", "    line: -4")
    with pytest.raises(CatalogError, match=r"source\.line: must be a positive integer"):
        load_catalog([root])


def test_bad_template(tmp_path):
    root = _break(tmp_path, "template: image QKV", "template: <image QKV")
    with pytest.raises(CatalogError, match="template: placeholder opened"):
        load_catalog([root])


def test_invalid_yaml(tmp_path):
    root = _copy(tmp_path)
    (root / "demo" / "pkg" / "broken.yaml").write_text("entries: [\n")
    with pytest.raises(CatalogError, match=r"broken\.yaml.*invalid YAML"):
        load_catalog([root])


def test_curated_entry_needs_example(tmp_path):
    root = _break(tmp_path, "  - 'feature length does not match image grids: 5824 != 5760'\n", "")
    with pytest.raises(CatalogError, match="examples: a curated entry needs"):
        load_catalog([root])


def test_user_catalog_overrides_by_id(tmp_path, small_catalog):
    root = _break(
        tmp_path, "meaning: Pixel rows and grid patch counts disagree.", "meaning: Overridden text."
    )
    merged = load_catalog([DATA / "catalog", root])
    assert "Overridden text." in {e.meaning for e in merged.entries}
    assert len(merged.overridden) == len(small_catalog.entries)


def test_dangling_related_and_example_not_first(tmp_path):
    root = _break(
        tmp_path,
        "  - 'feature length does not match image grids: 5824 != 5760'",
        "  - deferred feature length does not match image grids",
    )
    problems = check(load_catalog([root]))
    assert any("ranked first instead" in str(p) for p in problems)
    root2 = _break(tmp_path / "b", "related:\n  - ", "related:\n  - '0000000000000000'\n  - ")
    assert any("unknown id 0000000000000000" in str(p) for p in check(load_catalog([root2])))


def test_lint_reports_generic_and_duplicates(small_catalog):
    report = lint(small_catalog)
    assert any("'<e>'" in str(p) for p in report["too generic"])
    assert any("2 sites" in str(p) for p in report["duplicate templates"])
    assert report["dangling related ids"] == []


def test_missing_project_yaml(tmp_path):
    (tmp_path / "x").mkdir()
    with pytest.raises(CatalogError, match=r"no project\.yaml"):
        load_catalog([tmp_path / "x"])


HISTORY = (
    "  versions:\n  - 1.2.3\n",
    "  releases:\n    first: 1.2.0\n    last: 1.2.3\n"
    "  at: 1.2.0..1.2.1 demo/pkg/old.py:300 Processor.prepare; 1.2.3 demo/pkg/images.py:360\n"
    "  replaced_by: e0c0fd40da030a91\n",
)


def test_history_keys_load_and_reach_the_index(tmp_path):
    from errexplain.catalog.index import Index
    from errexplain.catalog.index_build import build_bytes

    root = _break(tmp_path, *HISTORY)
    catalog = load_catalog([root])
    e = catalog.by_id()["e3ed514efbc85910"]
    assert e.releases == ("1.2.0", "1.2.3") and e.replaced_by == "e0c0fd40da030a91"
    assert e.at is not None and e.at.startswith("1.2.0..1.2.1 demo/pkg/old.py:300")
    assert check(catalog) == []
    index = Index.from_bytes(build_bytes(catalog.entries, catalog.projects, "k"))
    pos = index.position(e.id)
    assert pos is not None and index.entry(pos) == e


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("last: 1.2.3\n", "last: 1.2.2\n", "at: spans 1.2.0..1.2.3, but releases says"),
        (":300 Processor", ":zero Processor", "at: span 1"),
        ("  releases:\n    first: 1.2.0\n", "  releases:\n    frist: 1.2.0\n", "releases.frist"),
        ("replaced_by: e0c0fd40da030a91", "replaced_by: nope", "replaced_by: must be 16"),
    ],
)
def test_bad_history_keys(tmp_path, old, new, key):
    root = _break(tmp_path, *HISTORY)
    f = root / "demo" / "pkg" / "mixed.yaml"
    f.write_text(f.read_text().replace(old, new, 1))
    with pytest.raises(CatalogError) as exc:
        load_catalog([root])
    assert key in exc.value.message


def test_dangling_lineage_is_reported(tmp_path):
    root = _break(
        tmp_path, "  derived: false\n", "  derived: false\n  lineage: '0000000000000000'\n"
    )
    problems = check(load_catalog([root]))
    assert [p.message for p in problems] == ["lineage: unknown id 0000000000000000"]


def test_empty_template_needs_a_statement(tmp_path):
    root = _break(
        tmp_path, "  template: deferred feature length does not match image grids", "  template: ''"
    )
    with pytest.raises(CatalogError, match=r"template: is empty: only a site with a `statement`"):
        load_catalog([root])


def test_message_less_log_and_via_entries_load(tmp_path):
    root = _copy(tmp_path)
    (root / "demo" / "pkg" / "kinds.yaml").write_text(
        """module: demo/pkg/kinds.py
entries:
- id: 00000000000000a1
  exception: NotImplementedError
  kind: raise
  template: ''
  source: {path: demo/pkg/kinds.py, line: 3, function: Base.forward}
  statement: raise NotImplementedError
  derived: false
  meaning: A subclass must implement forward; curated without an example.
- id: 00000000000000a2
  exception: error
  kind: log
  template: 'failed to load the model from <path>'
  source: {path: demo/pkg/kinds.py, line: 9, function: load}
  derived: true
- id: 00000000000000a3
  exception: TypeError
  template: 'config check failed: value <x> is out of range'
  source: {path: demo/pkg/kinds.py, line: 12, function: Config.check}
  via: Config._fail
  derived: true
"""
    )
    catalog = load_catalog([root])
    by_id = catalog.by_id()
    blank = by_id["00000000000000a1"]
    assert (blank.template, blank.statement, blank.curated) == (
        "",
        "raise NotImplementedError",
        True,
    )
    assert by_id["00000000000000a2"].kind == "log"
    assert by_id["00000000000000a3"].via == "Config._fail"
    assert check(catalog) == []
    assert not any(p.entry_id.startswith("00000000000000a") for p in lint(catalog)["too generic"])


VERIFIED = (
    "  derived: false\n",
    "  derived: false\n  verified:\n    how: run\n    release: 1.2.3\n"
    "    case: tools/verify/cases/demo.py::grid_mismatch\n",
)


def test_verified_record_loads_and_reaches_the_index(tmp_path):
    from errexplain.catalog.index import Index
    from errexplain.catalog.index_build import build_bytes

    catalog = load_catalog([_break(tmp_path, *VERIFIED)])
    e = next(e for e in catalog.entries if e.verified is not None)
    assert (e.verified.how, e.verified.release) == ("run", "1.2.3")
    assert e.verified.case == "tools/verify/cases/demo.py::grid_mismatch"
    index = Index.from_bytes(build_bytes(catalog.entries, catalog.projects, "k"))
    pos = index.position(e.id)
    assert pos is not None and index.entry(pos) == e


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("how: run", "how: guessed", "verified.how: must be run or read"),
        ("    case: tools/verify/cases/demo.py::grid_mismatch\n", "", "verified.case: is required"),
        ("how: run", "how: read", "verified.read: is required"),
        ("    release: 1.2.3\n", "    when: today\n", "verified.when: unknown key"),
    ],
)
def test_bad_verified_records(tmp_path, old, new, key):
    root = _break(tmp_path, *VERIFIED)
    f = root / "demo" / "pkg" / "mixed.yaml"
    f.write_text(f.read_text().replace(old, new, 1))
    with pytest.raises(CatalogError) as exc:
        load_catalog([root])
    assert key in exc.value.message


SHORT = (
    "  source:\n    path: demo/pkg/images.py\n    line: 360\n    function: Processor.prepare\n",
    "  source: demo/pkg/images.py:360 Processor.prepare\n",
)


def test_short_source_and_releases_load_as_the_mappings(tmp_path):
    """`source: PATH:LINE FUNCTION` and `releases: FIRST..LAST` (what extraction writes) give
    the same entries as the long mappings."""
    long_root = _break(tmp_path / "long", *HISTORY)
    short_root = _break(tmp_path / "short", *HISTORY)
    f = short_root / "demo" / "pkg" / "mixed.yaml"
    text = f.read_text().replace(*SHORT, 1)
    text = text.replace(
        "  releases:\n    first: 1.2.0\n    last: 1.2.3\n", "  releases: 1.2.0..1.2.3\n"
    )
    assert "source: demo/pkg/images.py:360" in text and "releases: 1.2.0..1.2.3" in text
    f.write_text(text)
    from errexplain._startup import replace

    by_long = {e.id: replace(e, catalog_file="") for e in load_catalog([long_root]).entries}
    by_short = {e.id: replace(e, catalog_file="") for e in load_catalog([short_root]).entries}
    assert by_short == by_long


@pytest.mark.parametrize(
    ("new", "key"),
    [
        ("  source: demo/pkg/images.py:360 Processor prepare\n", "source: 'demo/pkg/images.py:360"),
        ("  source: demo/pkg/images.py:0 Processor.prepare\n", "source: 'demo/pkg/images.py:0"),
        ("  source: demo/pkg/images.py:361 Processor.prepare\n", "at: its last span is"),
        ("  source: demo/pkg/other.py:360 Processor.prepare\n", "at: its last span is"),
    ],
)
def test_bad_short_source(tmp_path, new, key):
    root = _break(tmp_path, *HISTORY)
    f = root / "demo" / "pkg" / "mixed.yaml"
    f.write_text(f.read_text().replace(SHORT[0], new, 1))
    with pytest.raises(CatalogError) as exc:
        load_catalog([root])
    assert key in exc.value.message


def test_bad_short_releases(tmp_path):
    root = _break(tmp_path, *HISTORY)
    f = root / "demo" / "pkg" / "mixed.yaml"
    text = f.read_text().replace(
        "  releases:\n    first: 1.2.0\n    last: 1.2.3\n", "  releases: 1.2.0..\n"
    )
    f.write_text(text)
    with pytest.raises(CatalogError, match=r"releases: '1\.2\.0\.\.': expected 'FIRST\.\.LAST'"):
        load_catalog([root])
