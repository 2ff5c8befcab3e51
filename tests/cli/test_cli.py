from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from errexplain.cli import run_argv

REPO = Path(__file__).parent.parent.parent
EXAMPLES = REPO / "examples"
KIMI = "Kimi-K3 processor feature length does not match image grids: 5824 != 5760"


@pytest.fixture
def runner():
    return CliRunner()


class Result:
    def __init__(self, exit_code: int, stdout: str, stderr: str) -> None:
        self.exit_code, self.stdout, self.stderr = exit_code, stdout, stderr
        self.output = stdout + stderr


def run(runner, args, input=None):
    """The real command line (errexplain.cli.run_argv: the boundary included), with click's
    test isolation of stdin, stdout and stderr."""
    with runner.isolation(input=input) as (out, err, _):
        code = run_argv(["errexplain", *args])
        sys.stdout.flush()
        sys.stderr.flush()
        return Result(code, out.getvalue().decode(), err.getvalue().decode())


def test_explain_file_plain(runner):
    r = run(runner, ["explain", str(EXAMPLES / "kimi_k3_multirank.log")])
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "seen 2 times (TP0, TP1)" in out
    assert "pixel_values.shape[0] = 5824" in out
    assert "sglang/srt/multimodal/processors/kimi_k3.py:360" in out
    assert "blob/v0.5.23/python/sglang/srt/multimodal/processors/kimi_k3.py#L360" in out
    assert "Related errors" in out and "deferred feature length" in out
    assert "Solutions" in out and "1. " in out


def test_explain_stdin_json_schema(runner):
    text = (EXAMPLES / "hunyuan_qkv_fenced.md").read_text()
    r = run(runner, ["explain", "--json", "-"], input=text)
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    assert doc["schema"] == 1
    [err] = doc["errors"]
    assert err["exception"]["type"] == "ValueError"
    assert err["exception"]["frames"][-1]["line"] == 173
    m = err["matches"][0]
    assert set(m) >= {
        "id",
        "score",
        "kind",
        "template",
        "exception_type",
        "source",
        "values",
        "meaning",
        "trigger",
        "situations",
        "solutions",
        "example_fix",
        "related",
    }
    assert m["kind"] == "exact" and m["score"] == 1.0
    assert m["source"]["path"].endswith("hunyuan_qkv_pack_triton.py")
    assert m["source"]["line"] == 173
    assert {r["template"] for r in m["related"]} >= {"text QKV shapes must match"}


def test_python_api_matches_json(runner):
    import errexplain
    from errexplain.render.json import explanation_dict

    text = (EXAMPLES / "hunyuan_qkv_fenced.md").read_text()
    [rec] = errexplain.explain(text)
    r = run(runner, ["explain", "--json", "-"], input=text)
    assert json.loads(r.stdout)["errors"][0] == json.loads(json.dumps(explanation_dict(rec)))


def test_lookup_message(runner):
    r = run(runner, ["lookup", KIMI])
    assert r.exit_code == 0
    assert "sum(patch_counts) = 5760" in r.stdout


def test_lookup_with_type_prefix(runner):
    r = run(runner, ["lookup", "--json", "ValueError: image QKV shapes must match"])
    doc = json.loads(r.stdout)
    assert doc["errors"][0]["exception"]["type"] == "ValueError"


def test_show_and_related(runner):
    r = run(runner, ["lookup", "--json", KIMI])
    entry_id = json.loads(r.stdout)["errors"][0]["matches"][0]["id"]
    r = run(runner, ["show", entry_id])
    assert r.exit_code == 0 and "What it means" in r.stdout and "Examples" in r.stdout
    r = run(runner, ["show", "--json", entry_id])
    assert json.loads(r.stdout)["entry"]["id"] == entry_id
    r = run(runner, ["related", entry_id])
    assert r.exit_code == 0 and "deferred feature length" in r.stdout
    r = run(runner, ["related", "image QKV shapes must match"])
    assert "text QKV shapes must match" in r.stdout


def test_show_unknown_id(runner):
    r = run(runner, ["show", "0123456789abcdef"])
    assert r.exit_code == 2
    assert r.stderr.startswith("errexplain: no catalog entry has the id")


def test_search_and_list(runner):
    r = run(runner, ["search", "feature", "length", "image", "grids"])
    assert r.exit_code == 0
    assert "Kimi-K3" in r.stdout.splitlines()[0] or "feature length" in r.stdout
    r = run(
        runner,
        [
            "list",
            "--project",
            "sglang",
            "--type",
            "ValueError",
            "--path",
            "srt/multimodal",
            "--json",
            "--limit",
            "5",
        ],
    )
    rows = json.loads(r.stdout)["entries"]
    assert len(rows) == 5
    assert all(x["path"].startswith("sglang/srt/multimodal") for x in rows)


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (["explain", "-"], "", "is empty: nothing to explain"),
        (["explain", "/nonexistent/crash.log"], None, "no such file"),
        (["explain", "."], None, "is a directory"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(runner, args, stdin, needle):
    r = run(runner, args, input=stdin)
    assert r.exit_code == 2
    assert needle in r.stderr
    assert r.stderr.startswith("errexplain: ")
    assert "Traceback" not in r.stderr
    assert "hint: " in r.stderr


def test_no_exception_found_is_one_line_and_exit_1(runner):
    r = run(runner, ["explain", "-"], input="hello\nthis is not a traceback\n")
    assert r.exit_code == 1
    assert r.stderr.startswith("errexplain: no Python exception found")
    assert "hint: " in r.stderr and "Traceback" not in r.stderr


def test_binary_file(runner, tmp_path):
    f = tmp_path / "core.bin"
    f.write_bytes(b"\x7fELF\x00\x00\x01\x02" * 100)
    r = run(runner, ["explain", str(f)])
    assert r.exit_code == 2 and "binary" in r.stderr


def test_invalid_utf8_warns_and_explains(runner, tmp_path):
    f = tmp_path / "log.txt"
    f.write_bytes(b"caf\xe9 \xff\nValueError: image QKV shapes must match\n")
    r = run(runner, ["explain", str(f)])
    assert r.exit_code == 0
    assert "not valid UTF-8" in r.stderr


def test_no_match_exit_1_with_nearest(runner):
    r = run(runner, ["explain", "-"], input="ValueError: zebra quokka platypus\n")
    assert r.exit_code == 1
    assert "No catalog entry matches" in r.stdout
    assert "About ValueError" in r.stdout


def test_bad_user_catalog(runner, tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "project.yaml").write_text("name: x\nbogus: 1\n")
    r = run(runner, ["lookup", "--catalog", str(tmp_path), "x y z"])
    assert r.exit_code == 2
    assert "bogus: unknown key" in r.stderr


def test_missing_user_catalog_dir(runner):
    r = run(runner, ["lookup", "--catalog", "/nope/nope", "x y z"])
    assert r.exit_code == 2 and "catalog directory not found" in r.stderr


def test_help_lists_commands(runner):
    r = run(runner, ["--help"])
    assert r.exit_code == 0
    for cmd in ("explain", "lookup", "show", "related", "search", "list", "catalog"):
        assert cmd in r.stdout


def test_usage_error_exit_2():
    r = subprocess.run(
        [sys.executable, "-m", "errexplain", "explain", "--bogus"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 2


def test_module_help_subprocess():
    r = subprocess.run(
        [sys.executable, "-m", "errexplain", "--help"], capture_output=True, text=True, check=False
    )
    assert r.returncode == 0 and "explain" in r.stdout


def test_bare_pipe_fast_path_subprocess():
    text = (EXAMPLES / "kimi_k3_multirank.log").read_text()
    r = subprocess.run(
        [sys.executable, "-m", "errexplain"],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert "kimi_k3.py:360" in r.stdout
    assert "\x1b[" not in r.stdout


def test_catalog_stats_and_check_small(runner):
    r = run(runner, ["catalog", "check", str(REPO / "tests" / "data" / "catalog")])
    assert r.exit_code == 0 and "catalog OK" in r.stdout
    r = run(runner, ["catalog", "lint", str(REPO / "tests" / "data" / "catalog")])
    assert "too generic: 1" in r.stdout and r.exit_code == 1
    r = run(runner, ["catalog", "stats", "--json"])
    data = json.loads(r.stdout)
    assert data["schema"] == 1 and data["stats"]["by_project"]["sglang"] > 10000


def test_single_command_app_has_the_same_interface(runner):
    from errexplain.cli.typer_app import app, app_for

    small = app_for(["errexplain", "explain"])
    assert small is not app and len(small.registered_commands) == 1
    assert app_for(["errexplain", "catalog"]) is app
    assert app_for(["errexplain"]) is app
    full = runner.invoke(app, ["explain", "--help"]).stdout
    alone = runner.invoke(small, ["explain", "--help"]).stdout
    assert full == alone
    r = runner.invoke(small, ["explain", "--json", str(EXAMPLES / "hunyuan_qkv_fenced.md")])
    assert r.exit_code == 0 and json.loads(r.stdout)["schema"] == 1


def _old_format_regex_cache(directory: Path, poison: dict[str, str]) -> None:
    """A regex cache file as errexplain used to read from the cache dir, its checksums
    recomputed, with the programs of some patterns swapped for others' (issue 14: a crafted
    file crashed the interpreter or changed answers)."""
    import array
    import marshal
    import os
    import re as _re
    from zlib import adler32, crc32

    from errexplain import _startup

    tag = _startup._tag()
    entries = {}
    for target, source in poison.items():
        _, program = _re.compile(source), _startup._program(source, 0)
        assert program is not None
        flags, code, *rest = program
        packed = array.array("I", code).tobytes()
        key = (target, 0)
        head = f"{tag}\0{key!r}\0{flags}\0{tuple(rest)!r}".encode()
        digest = (crc32(packed, crc32(head)) << 32) | adler32(packed, adler32(head))
        entries[key] = (digest, flags, packed, *rest)
    f = directory / f"regex-{tag}.marshal"
    f.write_bytes(marshal.dumps((tag, entries)))
    os.chmod(f, 0o600)
    os.chmod(directory, 0o700)


def test_no_file_in_the_cache_dir_changes_an_answer(tmp_path, seeded):
    import os

    def run(cache: Path) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "ERREXPLAIN_CACHE_DIR": str(cache)}
        return subprocess.run(
            [sys.executable, "-m", "errexplain", "lookup", "16 is not divisible by 6"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    clean = run(seeded(tmp_path / "clean"))  # (with the run's index: no build of its own)
    poisoned = seeded(tmp_path / "poisoned")
    _old_format_regex_cache(poisoned, {r"\s+": r"\s+(?:not\s+)?", r"[\w+.-]{0,30}": r"\s+"})
    (poisoned / "regex.programs").write_bytes(b"\x00" * 64)
    assert (run(poisoned).returncode, run(poisoned).stdout) == (clean.returncode, clean.stdout)
    assert clean.returncode == 0
