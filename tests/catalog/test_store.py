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
