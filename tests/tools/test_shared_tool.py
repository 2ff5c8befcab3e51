"""tools/shared.py: the messages another project's source raises word for word, written into
project.yaml's `shared_wording` without touching its other blocks (nor tools/adapted.py's)."""

from __future__ import annotations

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))

import adapted  # noqa: E402
import shared  # noqa: E402

from errexplain.catalog.load import load_project  # noqa: E402

PROJECT = """\
name: pkg
version: '1.0'
log_prefixes:
  pkg/:
  - '\\[\\d+\\] '
# files whose header says they were adapted from another project (tools/adapted.py)
adapted_from:
  lmdeploy:
  - pkg/a.py
"""


def test_upstream_literals_are_read_from_the_source_with_the_extractor(tmp_path: Path):
    (tmp_path / "up").mkdir()
    (tmp_path / "up" / "__init__.py").write_text("")
    (tmp_path / "up" / "m.py").write_text(
        "def f(n):\n"
        "    if n:\n"
        '        raise ValueError(f"The loader found no weights for layer {n} here")\n'
        '    raise KeyError(f"Bad {n}")\n'
    )
    found = shared.upstream_literals([str(tmp_path)], "up")
    assert ("The loader found no weights for layer ", " here") in found
    assert not any("Bad" in chunk for lits in found for chunk in lits)  # (too short)


def test_write_keeps_every_other_block_and_upstream(tmp_path: Path):
    yaml = tmp_path / "project.yaml"
    yaml.write_text(PROJECT)
    a, b = "a" * 16, "b" * 16
    shared.write(yaml, "vllm", [a, b], ["0.6.6", "0.8.5"])
    shared.write(yaml, "tgi", [b], ["3.0"])
    project = load_project(tmp_path)
    assert dict(project.shared) == {"vllm": f"{a} {b}", "tgi": b}
    assert project.adapted == (("lmdeploy", ("pkg/a.py",)),)
    assert project.log_prefixes == (("pkg/", ("\\[\\d+\\] ",)),)
    assert "#   vllm: 0.6.6, 0.8.5" in yaml.read_text()
    # tools/adapted.py rewrites its own block only
    adapted.write(yaml, {"vllm": {"pkg/c.py"}})
    project = load_project(tmp_path)
    assert dict(project.shared) == {"vllm": f"{a} {b}", "tgi": b}
    assert project.adapted == (("vllm", ("pkg/c.py",)),)
    assert yaml.read_text().count("tools/adapted.py") == 1
