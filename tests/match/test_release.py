"""errexplain.match.release: the user's release guessed from version strings, frames and
wordings, each narrowing the candidates unless it conflicts with the rest."""

from __future__ import annotations

import pytest

from errexplain.match.release import (
    Facts,
    guess,
    holds,
    parse_ranges,
    project_path,
    version_strings,
)
from errexplain.models import Frame

ORDER = ("0.2.0", "0.3.0", "0.4.0", "0.4.6", "0.4.6.post1", "0.5.0", "0.5.10")
FACTS = Facts(
    "sglang",
    ORDER,
    {
        "sglang/srt/managers/router/model_rpc.py": "0.2.0..0.3.0",
        "sglang/srt/managers/scheduler.py": "0.4.0..0.5.10",
        "sglang/srt/server_args.py": "0.2.0..0.5.10",
        "sglang/srt/entrypoints/engine.py": "0.4.6..0.5.10",
    },
)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("pip install sglang==0.4.6", ["0.4.6"]),
        ("Version: sglang 0.5.10.post1 (cu124)", ["0.5.10.post1"]),
        ("docker run lmsysorg/sglang:v0.4.6-cu124 ...", ["0.4.6"]),
        ("sglang: 0.4.6.post1\nflashinfer: 0.2.0", ["0.4.6.post1"]),
        ("sglang version 0.3.2, then sglang==0.4.0", ["0.3.2", "0.4.0"]),
        ("sglang==0.4.3post2", ["0.4.3.post2"]),
        ("mysglang==1.0.0 and sglang_router 0.1.4 and sglang.srt 3", []),
        ("我用sglang 0.4.6部署的模型", ["0.4.6"]),  # between ideographs, no space
        ("(sglang_0.4.4) me@node:~$ python -m sglang.launch_server", ["0.4.4"]),  # env name
        ("envs/sglang_router_0.1.4/bin/python", []),
    ],
)
def test_version_strings(text, found):
    assert version_strings(text, "sglang") == found


def test_parse_ranges_and_project_path():
    assert parse_ranges("0.2.0..0.3.0, 0.5.0", ORDER) == {0, 1, 5}
    assert parse_ranges("0.9.9..1.0.0, 0.4.6", ORDER) == {3}
    assert project_path("/usr/lib/python3/site-packages/sglang/srt/x.py", "sglang") == (
        "sglang/srt/x.py"
    )
    assert project_path("C:\\env\\sglang\\python\\sglang\\srt\\x.py", "sglang") == (
        "sglang/srt/x.py"
    )
    assert project_path("/home/me/run.py", "sglang") is None


def test_a_version_string_decides():
    g = guess("sglang==0.4.6 on 8xH100", (), FACTS)
    assert g is not None
    assert (g.first, g.last) == ("0.4.6", "0.4.6")
    assert g.evidence == ("version string sglang 0.4.6: 0.4.6",)
    assert holds(g, "0.4.6", ORDER) and not holds(g, "0.5.0", ORDER)


def test_frame_paths_narrow_to_the_releases_that_have_them():
    frames = (
        Frame("/x/site-packages/sglang/srt/server_args.py", 10, "f"),  # in every release
        Frame("/x/site-packages/sglang/srt/managers/router/model_rpc.py", 20, "g"),
    )
    g = guess("", frames, FACTS)
    assert g is not None and (g.first, g.last) == ("0.2.0", "0.3.0")
    assert any("model_rpc.py exists in: 0.2.0 to 0.3.0" in e for e in g.evidence)


def test_wording_and_site_lines_narrow_further():
    frames = (Frame("/x/sglang/srt/entrypoints/engine.py", 99, "f"),)
    g = guess("", frames, FACTS, wording=("0.4.0", "0.5.0"))
    assert g is not None and (g.first, g.last) == ("0.4.6", "0.5.0")
    g = guess("", frames, FACTS, lines=[("sglang/srt/entrypoints/engine.py", 99, {4})])
    assert g is not None and (g.first, g.last) == ("0.4.6.post1", "0.4.6.post1")


def test_conflicting_evidence_is_reported_not_applied():
    frames = (Frame("/x/sglang/srt/managers/router/model_rpc.py", 1, "f"),)
    g = guess("sglang==0.5.10", frames, FACTS)
    assert g is not None and (g.first, g.last) == ("0.5.10", "0.5.10")
    assert any("conflicts" in e for e in g.evidence)


def test_no_evidence_no_guess():
    assert guess("ValueError: x", (Frame("/home/me/run.py", 1, "f"),), FACTS) is None
    assert guess("sglang==9.9.9", (), FACTS) is None
    assert guess("", (), Facts("sglang", (), {})) is None
