"""Where things are: the bundled catalog and its prebuilt index, user catalog directories
(``--catalog``, ``$ERREXPLAIN_CATALOG``) and the per-user cache directory.

This runs on every start, so it sticks to ``os``: the package directory comes from the
package's own ``__path__`` (``importlib.resources`` alone costs more than a whole explain);
only a package imported from a zip archive, which has no directory, falls back to
``importlib.resources``.
"""

from __future__ import annotations

import os
import sys

from errexplain._startup import user_cache_dir
from errexplain.errors import CatalogError

CACHE_ENV = "ERREXPLAIN_CACHE_DIR"
CATALOG_ENV = "ERREXPLAIN_CATALOG"
"""A path list of user catalog directories merged over the bundled one."""


def cache_dir() -> str:
    """$ERREXPLAIN_CACHE_DIR, else the platform's user cache dir (XDG on Linux)."""
    return os.environ.get(CACHE_ENV) or user_cache_dir("errexplain")


def _package_dir() -> str:
    """The installed package's directory (the parent of this subpackage)."""
    here = sys.modules[__package__ or "errexplain.catalog"].__path__[0]
    path = os.path.dirname(here)
    if os.path.isdir(path):
        return path
    from importlib import resources  # a zip import: the slow, general way

    return str(resources.files("errexplain"))


def bundled_dir() -> str:
    """The catalog shipped with the package (`_catalog` in a wheel), or `errors/` at the top
    of a source checkout (editable install)."""
    pkg = _package_dir()
    for path in (
        os.path.join(pkg, "_catalog"),
        os.path.normpath(os.path.join(pkg, os.pardir, os.pardir, "errors")),
    ):
        if os.path.isdir(path):
            return path
    raise CatalogError("the bundled catalog is missing", hint="reinstall errexplain")


def snippets_file(project: str) -> str | None:
    """The source snippets shipped for a project (errexplain.catalog.snippets), if any."""
    path = os.path.join(_package_dir(), "_snippets", f"{project}.snip")
    return path if os.path.isfile(path) else None


def prebuilt_index() -> str | None:
    """The index shipped inside a wheel (built from the bundled catalog at build time)."""
    path = os.path.join(_package_dir(), "_index", "catalog.idx")
    return path if os.path.isfile(path) else None


def user_dirs(extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """User catalog directories: $ERREXPLAIN_CATALOG (a path list), then --catalog options."""
    env = [p for p in os.environ.get(CATALOG_ENV, "").split(os.pathsep) if p]
    dirs = []
    for raw in [*env, *extra]:
        path = os.path.expanduser(raw)
        if not os.path.isdir(path):
            raise CatalogError(
                f"catalog directory not found: {raw}",
                hint=f"pass an existing directory to --catalog or fix ${CATALOG_ENV}",
            )
        dirs.append(path)
    return tuple(dirs)


def catalog_dirs(extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The bundled catalog, then the user's (later ones override earlier ones)."""
    return (bundled_dir(), *user_dirs(extra))
