"""The compiled index cache: rebuilt when a YAML file changes, survives corrupt or truncated
files, works when two processes build it at once, and falls back to memory when unwritable."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from errexplain.catalog import store as cache
from errexplain.catalog.index import Index, IndexCorrupt

DATA = Path(__file__).parent.parent / "data" / "catalog"


@pytest.fixture
def catalog_dir(tmp_path):
    dst = tmp_path / "cat"
    shutil.copytree(DATA, dst)
    return dst


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("ERREXPLAIN_CACHE_DIR", str(d))
    return d


def _index_files(d: Path) -> list[Path]:
    return sorted(d.glob("index-*.idx"))


def test_built_once_then_reused(catalog_dir, cache_dir):
    idx = cache.open_index((str(catalog_dir),))
    assert len(idx) == 11
    [f] = _index_files(cache_dir)
    mtime = f.stat().st_mtime_ns
    again = cache.open_index((str(catalog_dir),))
    assert again.key == idx.key
    assert f.stat().st_mtime_ns == mtime


def test_rebuilt_when_a_yaml_file_changes(catalog_dir, cache_dir):
    first = cache.open_index((str(catalog_dir),))
    f = catalog_dir / "demo" / "pkg" / "mixed.yaml"
    time.sleep(0.01)
    f.write_text(
        f.read_text().replace("Pixel rows and grid patch counts disagree.", "Changed meaning.")
    )
    second = cache.open_index((str(catalog_dir),))
    assert second.key != first.key
    texts = {second.entry(i).meaning for i in range(len(second))}
    assert "Changed meaning." in texts


@pytest.mark.parametrize("damage", ["truncate", "garbage", "empty"])
def test_corrupt_cache_is_rebuilt(catalog_dir, cache_dir, damage):
    cache.open_index((str(catalog_dir),))
    [f] = _index_files(cache_dir)
    data = f.read_bytes()
    f.write_bytes(
        {"truncate": data[: len(data) // 2], "garbage": b"\x00junk" * 100, "empty": b""}[damage]
    )
    with pytest.raises(IndexCorrupt):
        Index.open(str(f))
    idx = cache.open_index((str(catalog_dir),))
    assert len(idx) == 11
    assert Index.open(str(f)).key == idx.key


def test_unwritable_cache_serves_from_memory(catalog_dir, tmp_path, monkeypatch):
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("x")
    monkeypatch.setenv("ERREXPLAIN_CACHE_DIR", str(blocker / "sub"))
    idx = cache.open_index((str(catalog_dir),))
    assert len(idx) == 11


def test_two_processes_building_at_once_both_succeed(catalog_dir, cache_dir):
    code = (
        "import sys; from errexplain.catalog import store as cache; "
        "idx = cache.open_index((sys.argv[1],)); print(len(idx))"
    )
    env = {**os.environ, "ERREXPLAIN_CACHE_DIR": str(cache_dir)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(catalog_dir)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert [o.strip() for o, _ in outs] == ["11", "11"]
    [f] = _index_files(cache_dir)
    assert len(Index.open(str(f))) == 11
    assert not list(cache_dir.glob("*.tmp"))


def test_old_index_files_are_pruned(catalog_dir, cache_dir):
    cache_dir.mkdir(parents=True)
    for i in range(5):
        stale = cache_dir / f"index-stale{i}.idx"
        stale.write_bytes(b"old")
        os.utime(stale, (1_000_000 + i, 1_000_000 + i))
    cache.open_index((str(catalog_dir),))
    left = _index_files(cache_dir)
    assert len(left) == cache.KEEP_INDEXES
    assert any("stale" not in f.name for f in left)


def _everything(idx: Index) -> tuple:
    """Every answer an index can give (all of its parts read)."""
    entries = tuple(idx.entry(i) for i in range(len(idx)))
    related = tuple(idx.related(i) for i in range(len(idx)))
    words = {w for e in entries for w in e.template.lower().split()}
    buckets = tuple(tuple(c.id for c in idx.bucket(w, words)) for w in sorted(words))
    stats = idx.word_stats()
    ids = tuple(idx.position(e.id) for e in entries)
    sites = tuple(
        tuple(c.id for c in idx.sites(os.path.basename(e.source.path or ""), e.source.function))
        for e in entries
    )
    return entries, related, buckets, stats.idf, ids, sites


@pytest.mark.parametrize("where", [0.02, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.99])
def test_garbage_inside_the_cache_changes_no_answer_and_is_repaired(catalog_dir, cache_dir, where):
    """Issue 14: garbage inside the blobs with the header intact gave "bad marshal data" on
    every run, for good, or garbled prose and missing matches."""
    dirs = (str(catalog_dir),)
    want = _everything(cache.open_index(dirs))
    [f] = _index_files(cache_dir)
    good = f.read_bytes()
    data = bytearray(good)
    at = int(len(data) * where)
    data[at : at + 3] = bytes(b ^ 0x5A for b in data[at : at + 3])
    f.write_bytes(bytes(data))
    idx = cache.open_index(dirs)
    assert _everything(idx) == want
    assert Index.open(str(f)).key == idx.key
    assert _everything(Index.open(str(f))) == want  # the file was rebuilt


def test_a_waiting_process_reads_the_holders_index_instead_of_building(catalog_dir, cache_dir):
    """Issue 14: concurrent cold runs all built the index at once (35 s each)."""
    import threading

    dirs = (str(catalog_dir),)
    key = cache.catalog_key(dirs)
    path = str(cache_dir / f"index-{key}.idx")
    data = cache.build(dirs, key)
    got: list[bytes] = []
    builds: list[int] = []
    real_build = cache.build
    try:
        cache.build = lambda *a: builds.append(1) or real_build(*a)  # type: ignore[assignment]
        with cache.build_lock(str(cache_dir), name=f"index-{key}.lock") as locked:
            assert locked
            waiter = threading.Thread(
                target=lambda: got.append(cache._build_cached(dirs, key, path))
            )
            waiter.start()
            time.sleep(0.3)
            assert not got  # waiting for the lock
            cache.write_atomic(path, data)
        waiter.join(30)
    finally:
        cache.build = real_build  # type: ignore[assignment]
    assert got == [data] and not builds


def test_a_lock_held_too_long_builds_in_memory(catalog_dir, cache_dir, monkeypatch):
    monkeypatch.setattr(cache, "LOCK_WAIT", 0.2)
    dirs = (str(catalog_dir),)
    key = cache.catalog_key(dirs)
    with cache.build_lock(str(cache_dir)) as locked:
        assert locked
        with cache.build_lock(str(cache_dir)) as second:
            assert not second
        data = cache._build_cached(dirs, key, str(cache_dir / "x.idx"))
    assert Index.from_bytes(data).key == key


def test_temporary_files_of_killed_writers_are_pruned(catalog_dir, cache_dir):
    """Issue 14: `kill -9` during the write left temporary files that pruning never removed."""
    cache_dir.mkdir()
    old = [cache_dir / ".tmp-abc.part", cache_dir / ".idx-1.tmp"]
    fresh = cache_dir / ".tmp-new.part"
    for p in [*old, fresh]:
        p.write_bytes(b"x")
    for p in old:
        os.utime(p, (time.time() - 3600, time.time() - 3600))
    cache.open_index((str(catalog_dir),))
    assert not any(p.exists() for p in old) and fresh.exists()


def test_a_build_of_another_catalog_does_not_make_this_one_wait(catalog_dir, cache_dir):
    """One lock per catalog key: six checkouts of different catalogs sharing one cache dir
    waited LOCK_WAIT seconds for each other's builds."""
    import threading

    dirs = (str(catalog_dir),)
    key = cache.catalog_key(dirs)
    path = str(cache_dir / f"index-{key}.idx")
    got: list[bytes] = []
    with cache.build_lock(str(cache_dir), name="index-otherkey.lock") as locked:
        assert locked
        worker = threading.Thread(target=lambda: got.append(cache._build_cached(dirs, key, path)))
        worker.start()
        worker.join(30)
        assert got and Index.from_bytes(got[0]).key == key  # built while the other was held


def test_locks_of_pruned_catalogs_are_removed(cache_dir):
    import os

    cache_dir.mkdir()
    stale, live = cache_dir / "index-gone.lock", cache_dir / "index-live.lock"
    for p in (stale, live):
        p.write_bytes(b"")
        os.utime(p, (0, 0))
    (cache_dir / "index-live.idx").write_bytes(b"x")
    cache._prune(str(cache_dir), keep=str(cache_dir / "index-live.idx"))
    assert not stale.exists() and live.exists()


FIRST_BUILD = """\
import os, sys
os.environ["ERREXPLAIN_CACHE_DIR"] = sys.argv[2]
for text in sys.argv[5:]:  # as code loaded before would: CPython's one-character texts
    sys.intern(text)
from errexplain.catalog.store import build
data = build((sys.argv[1],), "k", parallel={"serial": False, "parallel": True}.get(sys.argv[3]))
with open(sys.argv[4], "wb") as fh:
    fh.write(data)
"""

BETA_ENTRY = """\
- id: '{id:016x}'
  exception: ValueError
  template: value <v> is out of range in part {i}
  source: pkg/b{i}.py:{line} check
  condition: v > limit
  versions:
  - r{k}
  - r6
  - x
  related:
  - '{rel:016x}'
"""


def _two_projects(root: Path) -> Path:
    """Project alpha: enough module files to be parsed by a process per core, with more
        distinct plain scalars than the YAML reader's cache holds (a process that reads alpha
        fills it up); project beta: parsed in the building process (too few files for workers) but
        enough for a parts file, with values shared across its files and with its project.yaml (r7,
    once in each file)."""
    from errexplain.catalog import parts
    from errexplain.catalog.yamlio import CACHE_SIZE

    (root / "alpha").mkdir(parents=True)
    (root / "alpha" / "project.yaml").write_text("name: alpha\nversion: '1.0'\n")
    files = parts.PARALLEL_MIN_FILES
    for i in range(files):
        versions = "".join(f"  - a{i}-{n}\n" for n in range(CACHE_SIZE // files + 10))
        (root / "alpha" / f"a{i}.yaml").write_text(
            f"module: pkg/a{i}.py\nentries:\n- id: '{i + 1:016x}'\n  exception: KeyError\n"
            f"  template: no key <k> in table {i}\n  source: pkg/a{i}.py:3 get\n"
            f"  versions:\n{versions}"
        )
    (root / "beta").mkdir()
    (root / "beta" / "project.yaml").write_text(
        "name: beta\nversion: r7\nlink: https://example.org/{version}/{path}#L{line}\n"
    )
    files = parts.CACHE_MIN_FILES
    for i in range(files):
        body = "".join(
            BETA_ENTRY.format(
                id=0x10000 + i * 2 + k, i=i, k=7 - k, line=k + 5, rel=0x10000 + (i + 1) % files * 2
            )
            for k in range(2)
        )
        (root / "beta" / f"b{i}.yaml").write_text(f"module: pkg/b{i}.py\nentries:\n{body}")
    return root


def _first_build(catalog: Path, cache: Path, how: str, *interned: str) -> bytes:
    """`store.build` in a fresh process, as a user's first build; `how`: serial (one process),
    parallel (a process per core for every part of the work) or default (by the work's size);
    `interned`: texts the process interns first."""
    out = cache.parent / f"{cache.name}-{how}.idx"
    cmd = [sys.executable, "-c", FIRST_BUILD, str(catalog), str(cache), how, str(out)]
    subprocess.run([*cmd, *interned], check=True)
    return out.read_bytes()


def test_a_first_build_gives_the_same_bytes_in_one_process_in_several_and_from_cached_parts(
    tmp_path,
):
    """Marshal's bytes of a value depend on which of its objects are one and which are held
    elsewhere: a first build parsing alpha in workers and beta in the building process (whose
    YAML cache alpha had not filled) gave other bytes than one parsing everything in one
    process; a rebuild after one edit, with its parts from the cache, must give them too."""
    root = _two_projects(tmp_path / "cat")
    serial = _first_build(root, tmp_path / "one", "serial")
    assert _first_build(root, tmp_path / "two", "default") == serial
    assert _first_build(root, tmp_path / "three", "parallel") == serial
    assert len(list((tmp_path / "two").glob("parts-*.bin"))) == 2  # (alpha's and beta's)
    edited = root / "beta" / "b3.yaml"
    edited.write_text(edited.read_text() + "# edited\n")
    assert _first_build(root, tmp_path / "two", "default") == serial
    assert _first_build(root, tmp_path / "three", "parallel") == serial
    assert len(Index.from_bytes(serial)) == 400 + 2 * 100


@pytest.mark.heavy
def test_the_bundled_catalog_gives_the_same_index_bytes_however_it_is_built(tmp_path):
    """The bundled catalog's first build (parsed by a process per core), a rebuild after one
    edit (its other parts from the cache) and a build in one process: one set of bytes."""
    from errexplain.catalog.locate import bundled_dir

    root = Path(shutil.copytree(bundled_dir(), tmp_path / "errors"))
    first = _first_build(root, tmp_path / "cache", "default")
    edited = root / "sglang" / "srt" / "managers" / "scheduler.yaml"
    edited.write_text(edited.read_text() + "# edited\n")
    assert _first_build(root, tmp_path / "cache", "default") == first
    assert _first_build(root, tmp_path / "one", "serial") == first


def test_one_character_texts_give_the_same_bytes_whatever_code_the_process_loaded(tmp_path):
    """CPython has one object for each one-character latin-1 text, interned or not as the code
    a process has loaded happens to hold one (marshal writes an interned text with another
    type byte)."""
    root = tmp_path / "cat" / "demo"
    root.mkdir(parents=True)
    (root / "project.yaml").write_text("name: demo\n")
    (root / "m.yaml").write_text(
        "module: m.py\nentries:\n- id: '00000000000000aa'\n  exception: KeyError\n"
        "  template: no key <k> in the table\n  source: m.py:3 get\n  versions: [q, \xa7]\n",
        encoding="utf-8",
    )
    plain = _first_build(tmp_path / "cat", tmp_path / "one", "serial")
    assert _first_build(tmp_path / "cat", tmp_path / "two", "serial", "q", "\xa7") == plain
