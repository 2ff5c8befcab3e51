"""Read the Python files (and the C/C++ sources, :data:`~errexplain.models.CPP_SUFFIXES`,
whose checks reach Python as exceptions) of a source directory, wheel, sdist or installed
distribution.

Archives are read in place (never extracted). Each file is named by its path inside the
installed package (``sglang/srt/managers/scheduler.py``).
"""

from __future__ import annotations

import importlib.metadata
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from errexplain._startup import Record
from errexplain.errors import ExtractError
from errexplain.models import CPP_SUFFIXES

_SKIP_DIRS = frozenset({"__pycache__", ".git", ".venv", "node_modules", "build", "dist"})
SOURCE_SUFFIXES = (".py", *CPP_SUFFIXES)


class SourceFile(Record):
    path: str
    data: bytes


def _package_name(project: str) -> str:
    return project.replace("-", "_").lower()


def _archive_root(names: list[str], package: str) -> str:
    """The directory whose files are read: the shallowest ``<package>/`` dir, with its parent
    kept in the package paths; else the archive root (wheel) or its single top directory."""
    best: str | None = None
    for name in names:
        parts = PurePosixPath(name).parts
        for i, part in enumerate(parts[:-1]):
            if part.lower() == package:
                prefix = "/".join(parts[:i])
                if best is None or len(prefix) < len(best):
                    best = prefix
                break
    if best is not None:
        return best + "/" if best else ""
    tops = {PurePosixPath(n).parts[0] for n in names if "/" in n}
    tops = {t for t in tops if not t.endswith((".dist-info", ".data"))}
    return next(iter(tops)) + "/" if len(tops) == 1 else ""


def _select(names: list[str], package: str) -> list[tuple[str, str]]:
    """(member name, package path) for every source member of the package."""
    root = _archive_root(names, package)
    has_package = any(n.startswith(f"{root}{package}/") for n in names)
    chosen = []
    for name in names:
        if not name.endswith(SOURCE_SUFFIXES) or not name.startswith(root):
            continue
        rel = name[len(root) :]
        if has_package and not rel.lower().startswith(package + "/"):
            continue
        if ".dist-info/" in rel or ".egg-info/" in rel or set(rel.split("/")) & _SKIP_DIRS:
            continue
        chosen.append((name, rel))
    return sorted(chosen, key=lambda item: item[1])


def _from_zip(path: Path, package: str) -> Iterator[SourceFile]:
    with zipfile.ZipFile(path) as archive:
        names = [i.filename for i in archive.infolist() if not i.is_dir()]
        for name, rel in _select(names, package):
            yield SourceFile(rel, archive.read(name))


def _from_tar(path: Path, package: str) -> Iterator[SourceFile]:
    with tarfile.open(path) as archive:
        members = {m.name: m for m in archive.getmembers() if m.isfile()}
        for name, rel in _select(sorted(members), package):
            handle = archive.extractfile(members[name])
            if handle is not None:
                yield SourceFile(rel, handle.read())


def _dir_root(path: Path, package: str) -> tuple[Path, Path]:
    """(directory to scan, directory the package paths are relative to)."""
    if (path / "__init__.py").exists() or path.name.lower() == package:
        return path, path.parent
    for sub in (path / package, path / "src" / package, path / "python" / package):
        if sub.is_dir():
            return sub, sub.parent
    return path, path


def _from_dir(path: Path, package: str) -> Iterator[SourceFile]:
    scan, rel_to = _dir_root(path, package)
    files = sorted(
        p
        for p in scan.rglob("*")
        if p.suffix in SOURCE_SUFFIXES
        and not set(p.relative_to(scan).parts[:-1]) & _SKIP_DIRS
        and p.is_file()
    )
    for file in files:
        yield SourceFile(file.relative_to(rel_to).as_posix(), file.read_bytes())


def _from_distribution(name: str) -> Iterator[SourceFile]:
    dist = importlib.metadata.distribution(name)
    files = sorted(
        (f for f in dist.files or () if f.suffix in SOURCE_SUFFIXES and ".." not in f.parts),
        key=str,
    )
    for file in files:
        if ".dist-info" in str(file):
            continue
        yield SourceFile(file.as_posix(), Path(str(dist.locate_file(file))).read_bytes())


def _unreadable(source: str | Path, why: str) -> ExtractError:
    return ExtractError(
        f"cannot read source {str(source)!r}: {why}",
        hint="pass a source directory, a .whl, a .tar.gz/.zip sdist, "
        "or the name of an installed distribution",
    )


def read_sources(source: str | Path, project: str) -> list[SourceFile]:
    """All source files of ``source``, sorted by package path. Raises :class:`ExtractError`."""
    package = _package_name(project)
    path = Path(source)
    try:
        if path.is_dir():
            return list(_from_dir(path, package))
        if path.is_file():
            name = path.name.lower()
            if name.endswith((".whl", ".zip")):
                return list(_from_zip(path, package))
            if name.endswith((".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar")):
                return list(_from_tar(path, package))
            raise _unreadable(source, "not a .whl, .zip or .tar.gz archive")
        if isinstance(source, str) and "/" not in source:
            return list(_from_distribution(source))
    except importlib.metadata.PackageNotFoundError:
        raise _unreadable(source, "no such directory, archive or installed distribution") from None
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError) as exc:
        raise _unreadable(source, f"{type(exc).__name__}: {exc}") from exc
    raise _unreadable(source, "no such directory, archive or installed distribution")
