"""Where errexplain keeps its per-user cache (stdlib only: imported first on every run)."""

from __future__ import annotations

import os
import sys

CACHE_ENV = "ERREXPLAIN_CACHE_DIR"
CATALOG_ENV = "ERREXPLAIN_CATALOG"
"""A path list of user catalog directories merged over the bundled one."""


def cache_dir() -> str:
    """$ERREXPLAIN_CACHE_DIR, else the platform's user cache dir (XDG on Linux)."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return env
    platform = sys.platform  # a plain value: the same code type-checks on every platform
    if platform.startswith("linux"):
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
        return os.path.join(base, "errexplain")
    from platformdirs import user_cache_dir

    return str(user_cache_dir("errexplain", appauthor=False))
