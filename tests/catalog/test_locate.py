"""errexplain.catalog.locate: the cache directory, user catalog directories and the bundled
catalog of this source checkout."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from errexplain.catalog import locate
from errexplain.errors import CatalogError, ExitCode

REPO = Path(__file__).parent.parent.parent

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="XDG paths are used on Linux only"
)


# --------------------------------------------------------------------------------- cache_dir


def test_cache_dir_is_the_env_var_when_set(monkeypatch, tmp_path):
    monkeypatch.setenv("ERREXPLAIN_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert locate.cache_dir() == str(tmp_path / "mine")


@linux_only
def test_cache_dir_under_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.delenv("ERREXPLAIN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert locate.cache_dir() == os.path.join(str(tmp_path / "xdg"), "errexplain")


@linux_only
@pytest.mark.parametrize("xdg", [None, ""])
def test_cache_dir_defaults_to_home_cache(monkeypatch, tmp_path, xdg):
    monkeypatch.setenv("ERREXPLAIN_CACHE_DIR", "")  # empty counts as unset
    if xdg is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert locate.cache_dir() == os.path.join(str(tmp_path), ".cache", "errexplain")


# --------------------------------------------------------------------------------- user_dirs


def test_user_dirs_none_by_default():
    assert locate.user_dirs() == ()


def test_user_dirs_env_path_list_then_extra(monkeypatch, tmp_path):
    a, b, c = (tmp_path / n for n in "abc")
    for d in (a, b, c):
        d.mkdir()
    # empty items of the path list are ignored
    monkeypatch.setenv("ERREXPLAIN_CATALOG", os.pathsep.join(["", str(a), "", str(b)]))
    assert locate.user_dirs((str(c),)) == (str(a), str(b), str(c))


def test_user_dirs_expand_the_home_directory(monkeypatch, tmp_path):
    (tmp_path / "cat").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path))
    assert locate.user_dirs(("~/cat",)) == (str(tmp_path / "cat"),)


@pytest.mark.parametrize("where", ["env", "extra"])
def test_user_dirs_missing_directory(monkeypatch, tmp_path, where):
    missing = str(tmp_path / "nope")
    if where == "env":
        monkeypatch.setenv("ERREXPLAIN_CATALOG", missing)
        extra: tuple[str, ...] = ()
    else:
        extra = (missing,)
    with pytest.raises(CatalogError) as info:
        locate.user_dirs(extra)
    assert info.value.message == f"catalog directory not found: {missing}"
    assert "--catalog" in (info.value.hint or "")
    assert "$ERREXPLAIN_CATALOG" in (info.value.hint or "")
    assert info.value.exit_code == ExitCode.BAD_INPUT


def test_user_dirs_refuse_a_file(tmp_path):
    f = tmp_path / "file.yaml"
    f.write_text("name: x\n")
    with pytest.raises(CatalogError, match="not found"):
        locate.user_dirs((str(f),))


# ------------------------------------------------------------------------ bundled / prebuilt


def test_bundled_dir_is_errors_of_this_checkout():
    found = locate.bundled_dir()
    assert os.path.samefile(found, REPO / "errors")
    assert os.path.isfile(os.path.join(found, "python", "project.yaml"))


def test_bundled_dir_missing(monkeypatch, tmp_path):
    monkeypatch.setattr(locate, "_package_dir", lambda: str(tmp_path / "a" / "b" / "pkg"))
    with pytest.raises(CatalogError, match="bundled catalog is missing") as info:
        locate.bundled_dir()
    assert info.value.hint == "reinstall errexplain"


def test_bundled_dir_prefers_the_wheel_copy(monkeypatch, tmp_path):
    pkg = tmp_path / "site" / "errexplain"
    (pkg / "_catalog").mkdir(parents=True)
    monkeypatch.setattr(locate, "_package_dir", lambda: str(pkg))
    assert locate.bundled_dir() == str(pkg / "_catalog")


def test_prebuilt_index_is_none_in_a_checkout():
    assert locate.prebuilt_index() is None


def test_prebuilt_index_in_a_wheel(monkeypatch, tmp_path):
    (tmp_path / "_index").mkdir()
    (tmp_path / "_index" / "catalog.idx").write_bytes(b"x")
    monkeypatch.setattr(locate, "_package_dir", lambda: str(tmp_path))
    assert locate.prebuilt_index() == str(tmp_path / "_index" / "catalog.idx")


def test_package_dir_is_the_errexplain_package():
    import errexplain

    assert os.path.samefile(locate._package_dir(), os.path.dirname(errexplain.__file__))


def test_catalog_dirs_bundled_first(monkeypatch, tmp_path):
    monkeypatch.setenv("ERREXPLAIN_CATALOG", str(tmp_path))
    assert locate.catalog_dirs() == (locate.bundled_dir(), str(tmp_path))
