"""Hostile user catalogs are a bad catalog (CatalogError, exit 2), found fast and in bounded
memory, never a crash later in `explain` (issue 14)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from errexplain.catalog.load import load_catalog
from errexplain.errors import CatalogError

PROJECT = (
    "name: demo\nversion: 1.2.3\nlink: https://example.org/v{version}/{prefix}{path}#L{line}\n"
)
ENTRY = """\
- id: '{id}'
  exception: ValueError
  template: 'plain message number {n}'
  derived: true
"""


def _catalog(tmp_path: Path, entries: str, project: str = PROJECT) -> Path:
    root = tmp_path / "cat"
    (root / "demo" / "pkg").mkdir(parents=True)
    (root / "demo" / "project.yaml").write_text(project)
    (root / "demo" / "pkg" / "m.yaml").write_text("module: demo/pkg/m.py\nentries:\n" + entries)
    return root


def _fails(root: Path, *needles: str) -> str:
    with pytest.raises(CatalogError) as info:
        load_catalog([root])
    msg = info.value.message
    assert len(msg) < 1000, msg[:200]
    for needle in needles:
        assert needle in msg, msg
    return msg


def _bomb(levels: int, width: int = 5) -> str:
    lines = ["a0: &a0 [x, x, x, x, x]"]
    for k in range(1, levels):
        lines.append(f"a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * width) + "]")
    return "\n".join(lines)


def test_alias_bomb_inside_an_id_is_refused_fast(tmp_path):
    """A 479-byte catalog with an alias tree as its id reached 9.1 GB in the error message."""
    bomb = _bomb(10)  # 5**10 values when expanded; the old message formatted them all
    root = tmp_path / "cat"
    (root / "demo" / "pkg").mkdir(parents=True)
    (root / "demo" / "project.yaml").write_text(PROJECT)
    doc = bomb.replace("\n", "\n# ") + "\n"
    body = (
        "module: demo/pkg/m.py\nbombs:\n  "
        + bomb.replace("\n", "\n  ")
        + f"\nentries:\n- id: *a9\n  exception: ValueError\n  template: x {doc!r}\n"
    )
    (root / "demo" / "pkg" / "m.yaml").write_text(body)
    t0 = time.perf_counter()
    _fails(root, "alias")
    assert time.perf_counter() - t0 < 5


def test_alias_bomb_defined_inside_the_entry_is_refused(tmp_path):
    """Issue 14 defect 4 as filed: the anchors sit in the bad entry's own keys and its id is an
    alias of them, so no top-level key refuses the file first. The old error message formatted
    the expanded id: with 9 levels of 9 (556 bytes) it did not finish in 60 s under a 2 GB
    address-space limit; these 6 levels of 6 made a message of over a megabyte."""
    bomb = _bomb(7, width=6).replace("\n", "\n  ")
    entries = f"- {bomb}\n  id: *a6\n  exception: ValueError\n  template: m\n"
    t0 = time.perf_counter()
    _fails(_catalog(tmp_path, entries), "alias")
    assert time.perf_counter() - t0 < 5


def test_an_id_that_is_not_text_is_not_formatted(tmp_path):
    entries = "- id: [" + ", ".join(["abcdef"] * 300) + "]\n  exception: E\n  template: m\n"
    msg = _fails(_catalog(tmp_path, entries), "entry #1", "id")
    assert "abcdef" not in msg


@pytest.mark.parametrize(
    ("source", "key"),
    [
        ("{path: [1, 2], line: 3}", "source.path"),
        ("{path: a.py, function: {a: b}}", "source.function"),
    ],
)
def test_source_fields_of_the_wrong_type_are_a_bad_catalog(tmp_path, source, key):
    """`source: {path: [1, 2], function: {a: b}}` passed `catalog check`, then crashed explain."""
    entries = ENTRY.format(id="0123456789abcdef", n=1) + f"  source: {source}\n"
    _fails(_catalog(tmp_path, entries), key)


@pytest.mark.parametrize(
    ("link", "needle"),
    [
        ("https://x/{nope}", "unknown field {nope}"),
        ("https://x/{line:>200000000}", "no format spec"),
        ("https://x/{path!r}", "no format spec"),
        ("https://x/{path", "not a valid template"),
        ("https://x/{0}", "unknown field {0}"),
    ],
)
def test_bad_link_templates_are_a_bad_catalog(tmp_path, link, needle):
    """`link: "{nope}"` crashed `catalog check`; `{line:>200000000}` printed 200 MB."""
    project = f"name: demo\nversion: 1.2.3\nlink: '{link}'\n"
    entries = ENTRY.format(id="0123456789abcdef", n=1) + "  source: {path: a.py, line: 3}\n"
    _fails(_catalog(tmp_path, entries, project), "link", needle)


def test_a_yaml_symlink_loop_is_a_bad_catalog(tmp_path):
    root = _catalog(tmp_path, ENTRY.format(id="0123456789abcdef", n=1))
    os.symlink("loop.yaml", root / "demo" / "pkg" / "loop.yaml")
    _fails(root, "loop.yaml")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads everything")
def test_an_unreadable_subfolder_is_a_bad_catalog(tmp_path):
    root = _catalog(tmp_path, ENTRY.format(id="0123456789abcdef", n=1))
    locked = root / "demo" / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        _fails(root, "locked", "cannot read")
    finally:
        locked.chmod(0o700)


def test_a_folder_the_os_refuses_is_a_bad_catalog(tmp_path, monkeypatch):
    """The test above is skipped as root (root reads everything), so the same refusal is made
    here by the OS call itself: listing one subfolder raises PermissionError."""
    root = _catalog(tmp_path, ENTRY.format(id="0123456789abcdef", n=1))
    locked = root / "demo" / "locked"
    locked.mkdir()
    real_scandir = os.scandir

    def scandir(path="."):  # type: ignore[no-untyped-def]
        if os.fspath(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(locked))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    _fails(root, "locked", "cannot read")


def test_one_bad_entry_in_a_big_catalog_is_reported_fast(tmp_path):
    """One bad entry in a 50 MB user catalog took 65 s and 1.1 GB to report (the line lookup
    composed the whole file with the pure-Python loader)."""
    good = "".join(ENTRY.format(id=f"{i:016x}", n=i) for i in range(5_000))
    bad = "- id: 00000000000fffff\n  exception: ValueError\n  template: 'a <never closed'\n"
    root = _catalog(tmp_path, good + bad)
    t0 = time.perf_counter()
    _fails(root, "m.yaml:", "entry 00000000000fffff", "template")
    assert time.perf_counter() - t0 < 10


def test_the_store_reports_unreadable_folders_as_a_bad_catalog(tmp_path):
    from errexplain.catalog.store import catalog_key

    root = _catalog(tmp_path, ENTRY.format(id="0123456789abcdef", n=1))
    os.symlink("loop.yaml", root / "demo" / "loop.yaml")
    with pytest.raises(CatalogError, match="cannot read"):
        catalog_key([str(root)])


def test_keys_of_other_types_are_reported_not_crashed_on(tmp_path):
    """Found by bench/fuzz (catalog): `true:` next to text keys made sorting them crash."""
    entries = ENTRY.format(id="0123456789abcdef", n=1) + "  true: 1\n  zzz: 2\n  1: 3\n"
    _fails(_catalog(tmp_path, entries), "unknown key")


@pytest.mark.parametrize(
    ("field", "value"),
    [("kind", "{a: b}"), ("kind", "[raise]"), ("exception", "[ValueError, TypeError]")],
)
def test_kind_and_exception_of_the_wrong_type_are_a_bad_catalog(tmp_path, field, value):
    """Found by bench/fuzz catalog: `kind: {a: b}` crashed the loader (unhashable dict), and
    a list as `exception` was taken as the text of the list."""
    entry = ENTRY.format(id="0123456789abcdef", n=1)
    if field == "exception":
        entry = entry.replace("exception: ValueError", f"exception: {value}")
    else:
        entry += f"  {field}: {value}\n"
    _fails(_catalog(tmp_path, entry), "entry 0123456789abcdef", field, "must be text")
