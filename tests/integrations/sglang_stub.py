"""A stand-in for the sglang function the integration tests fail in, written where a program
imports it from (`sglang/srt/layers/utils.py` under its folder): the traceback's innermost frame
is then in sglang's tree, as when the real package raises (a raise shown in the program's own
file would make sglang's same-text site a look-alike)."""

from __future__ import annotations

from pathlib import Path

IMPORT = "from sglang.srt.layers.utils import divide\n"
SOURCE = """\
def divide(heads, tp):
    if heads % tp:
        raise ValueError(f"{heads} is not divisible by {tp}")
"""


def write_stub(folder: Path) -> None:
    """sglang/srt/layers/utils.py (namespace packages: no __init__.py needed) under folder."""
    target = folder / "sglang" / "srt" / "layers"
    target.mkdir(parents=True, exist_ok=True)
    (target / "utils.py").write_text(SOURCE)
