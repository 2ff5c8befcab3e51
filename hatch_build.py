"""Hatch build hook: compile the bundled catalog (errors/) into the index shipped in the wheel,
so that the first run after `pip install` needs no index build."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogIndexHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        sys.path.insert(0, str(root / "src"))
        try:
            from errexplain._bundle import BUNDLE_FILE, bundle_blob
            from errexplain._version import __version__
            from errexplain.catalog.store import build

            programs = _regex_programs()
            bundle = bundle_blob(str(root / "src" / "errexplain"))
        finally:
            sys.path.pop(0)
        data = build((root / "errors",), key=f"bundled-{__version__}")
        out = Path(tempfile.mkdtemp(prefix="errexplain-index-")) / "catalog.idx"
        out.write_bytes(data)
        build_data["force_include"][str(out)] = "errexplain/_index/catalog.idx"
        progs = out.with_name("regex.programs")
        progs.write_bytes(programs)
        build_data["force_include"][str(progs)] = "errexplain/_index/regex.programs"
        code = out.with_name(BUNDLE_FILE)
        code.write_bytes(bundle)
        build_data["force_include"][str(code)] = f"errexplain/_index/{BUNDLE_FILE}"


REGEX_MODULES = (
    "errexplain.input.window",
    "errexplain.parse.inline",
    "errexplain.parse.lines",
    "errexplain.parse.traceback",
    "errexplain.match.normalize",
    "errexplain.match.release",
    "errexplain.match.template",
    "errexplain.match.rank",
    "errexplain.explainer",
    "errexplain.app.explain",
)
"""The modules whose patterns the piped path compiles (their programs ship in the wheel)."""


def _regex_programs() -> bytes:
    """Every pattern those modules compile at import, as this interpreter's programs."""
    import importlib

    for name in REGEX_MODULES:
        importlib.import_module(name)
    from errexplain._startup import programs_blob

    return programs_blob()
