"""Golden outputs for the two seed errors pasted as noisy tracebacks.

Regenerate after a reviewed change with: UPDATE_GOLDENS=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from errexplain.explainer import explain_text
from errexplain.render.plain import render_explanations as render_text

REPO = Path(__file__).parent.parent.parent
GOLDEN = Path(__file__).parent.parent / "data" / "golden"


@pytest.mark.parametrize("name", ["kimi_k3_multirank.log", "hunyuan_qkv_fenced.md"])
def test_seed_errors_golden_plain(name, bundled_index):
    exps = explain_text((REPO / "examples" / name).read_text(), bundled_index)
    out = render_text(exps)
    golden = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDENS"):
        golden.write_text(out)
    assert out == golden.read_text()
    top = exps[0].matches[0]
    assert top.kind == "exact"
    assert bool(top.values) == ("{" in top.entry.template or "<" in top.entry.template)
    assert top.related, "seed entries list their related errors"


@pytest.mark.parametrize("name", ["kimi_k3_multirank.log", "hunyuan_qkv_fenced.md"])
def test_seed_errors_golden_rich(name, bundled_index, console):
    from errexplain.render.rich import print_explanations

    exps = explain_text((REPO / "examples" / name).read_text(), bundled_index)
    print_explanations(console, exps)
    out = console.file.getvalue()
    golden = GOLDEN / f"{name}.rich.txt"
    if os.environ.get("UPDATE_GOLDENS"):
        golden.write_text(out)
    assert out == golden.read_text()
    assert "\x1b[" not in out
