"""`errexplain scan`: a directory of mixed compressed logs end to end (subprocess), the summary
table, `--json` (the `explain --json` error objects plus first_seen, last_seen, files), and the
exit codes."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import subprocess
import sys

import pytest
from tests.logs_data import CUDA, burst, info

from errexplain.app import scan
from errexplain.app.context import Context, Options
from errexplain.errors import ExitCode, InputError

FEATURE = "ValueError: Kimi-K3 processor feature length does not match image grids: 5824 != 5760"


def _logs(tmp_path):
    """node0.log, node1.log.gz, old/node2.log.bz2, old/node3.log.xz (+ .zst when available)."""
    (tmp_path / "old").mkdir()
    (tmp_path / "node0.log").write_text(
        info("2026-10-02 10:00:00", 40) + burst("2026-10-02 10:00:05", range(2), FEATURE)
    )
    files = {
        "node1.log.gz": (gzip.compress, burst("2026-10-02 10:01:00", range(2, 4), FEATURE)),
        "old/node2.log.bz2": (bz2.compress, burst("2026-10-02 09:00:00", range(2))),
        "old/node3.log.xz": (lzma.compress, burst("2026-10-02 11:00:00", range(4, 8), FEATURE)),
    }
    for name, (compress, text) in files.items():
        (tmp_path / name).write_bytes(compress((info("2026-10-02 08:00:00", 30) + text).encode()))
    try:
        import zstandard
    except ImportError:
        return 8  # FEATURE occurrences
    text = burst("2026-10-02 12:00:00", range(8, 9), FEATURE)
    (tmp_path / "node4.log.zst").write_bytes(zstandard.ZstdCompressor().compress(text.encode()))
    return 9


@pytest.mark.slow
def test_a_directory_of_mixed_compressed_logs_as_json(tmp_path):
    expected = _logs(tmp_path)
    r = subprocess.run(
        [sys.executable, "-m", "errexplain", "scan", "--json", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == ExitCode.EXPLAINED, r.stderr
    doc = json.loads(r.stdout)
    assert doc["schema"] == 1 and set(doc) == {"schema", "errors", "input"}
    feature, cuda = doc["errors"]
    assert feature["exception"]["count"] == expected
    ranks = feature["exception"]["ranks"]
    assert sorted(ranks, key=lambda r: int(r[2:])) == [f"TP{k}" for k in range(expected)]
    assert feature["matches"][0]["id"] == "410dccf11ac35f1e"
    assert feature["first_seen"] == "2026-10-02 10:00:05"
    assert feature["last_seen"] == (
        "2026-10-02 12:00:00" if expected == 9 else "2026-10-02 11:00:00"
    )
    names = [f.replace(str(tmp_path), "") for f in feature["files"]]
    zst = ["/node4.log.zst"] if expected == 9 else []
    assert names == ["/node0.log", "/node1.log.gz", *zst, "/old/node3.log.xz"]
    assert cuda["exception"]["message"] == CUDA.split(": ", 1)[1]
    assert cuda["exception"]["count"] == 2
    assert cuda["files"] == [str(tmp_path / "old" / "node2.log.bz2")]
    assert (cuda["first_seen"], cuda["last_seen"]) == ("2026-10-02 09:00:00",) * 2
    # the same error object as `explain --json`, plus three keys
    one = subprocess.run(
        [sys.executable, "-m", "errexplain", "explain", "--json", str(tmp_path / "node0.log")],
        capture_output=True,
        text=True,
        check=False,
    )
    explained = json.loads(one.stdout)["errors"][0]
    assert set(feature) == set(explained) | {"first_seen", "last_seen", "files"}
    assert set(feature["exception"]) == set(explained["exception"])
    assert len(doc["input"]["files"]) == (5 if expected == 9 else 4)


def _ctx(fmt="text"):
    out, err = io.StringIO(), io.StringIO()
    return Context(Options(fmt), io.BytesIO(), out, err), out, err


def test_summary_table_then_each_group_explained_once(tmp_path):
    _logs(tmp_path)
    ctx, out, err = _ctx()
    assert scan.run(ctx, [str(tmp_path / "node0.log"), str(tmp_path / "old")], 1) == 0
    text = out.getvalue()
    lines = text.splitlines()
    assert lines[0] == "2 distinct error(s), 8 occurrence(s) in 3 file(s), 0.0 MB read"
    assert lines[1].split() == [
        "#",
        "count",
        "error",
        "first",
        "seen",
        "last",
        "seen",
        "ranks",
        "files",
    ]
    assert lines[2].split()[:3] == ["1", "6", "ValueError:"]
    assert "TP0,TP1,TP4 +3" in lines[2] and "node0.log,node3.log.xz" in lines[2]
    assert lines[3].split()[:3] == ["2", "2", "RuntimeError:"]
    assert text.count("Match 1 of") == 2  # each group explained once
    assert "[seen 6 times" in text
    assert err.getvalue() == ""


def test_rich_summary(tmp_path):
    _logs(tmp_path)
    ctx, out, _ = _ctx("rich")
    assert scan.run(ctx, [str(tmp_path / "node0.log")], 1) == 0
    text = out.getvalue()
    assert "\u250f" in text and "count" in text and "2026-10-02" in text


def test_no_error_in_the_logs_exits_1(tmp_path):
    (tmp_path / "ok.log").write_text(info("2026-10-02 10:00:00", 20))
    ctx, out, err = _ctx()
    assert scan.run(ctx, [str(tmp_path)], 1) == ExitCode.NO_MATCH
    assert out.getvalue() == ""
    assert err.getvalue().startswith("errexplain: no Python error found in 1 file(s)")


def test_a_missing_path_is_bad_input(tmp_path):
    ctx, _, _ = _ctx()
    with pytest.raises(InputError, match="no such file or directory"):
        scan.run(ctx, [str(tmp_path / "missing.log")], 1)


def test_stdin(tmp_path):
    ctx, out, _ = _ctx("json")
    ctx = Context(
        Options("json"),
        io.BytesIO(burst("2026-10-02 10:00:00", range(3)).encode()),
        out,
        io.StringIO(),
    )
    assert scan.run(ctx, ["-"], 1) == 0
    (only,) = json.loads(out.getvalue())["errors"]
    assert only["files"] == ["stdin"] and only["exception"]["count"] == 3


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_progress_bar_on_a_terminal_for_large_inputs(tmp_path, monkeypatch):
    _logs(tmp_path)
    monkeypatch.setattr(scan, "PROGRESS_FROM", 0)
    err = _Tty()
    ctx = Context(Options("text"), io.BytesIO(), io.StringIO(), err)
    assert scan.run(ctx, [str(tmp_path / "node0.log"), str(tmp_path / "old")], 2) == 0
    assert "scanning" in err.getvalue()
    # not a terminal, or small inputs: no bar
    ctx, _, err2 = _ctx()
    assert scan.run(ctx, [str(tmp_path / "node0.log")], 1) == 0
    assert err2.getvalue() == ""


def _two_files(tmp_path, errors=True):
    text = burst("2026-10-02 10:00:05", range(2), FEATURE) if errors else ""
    for name in ("a.log", "b.log"):
        (tmp_path / name).write_text(info("2026-10-02 10:00:00", 40) + text)
    return [str(tmp_path / "a.log"), str(tmp_path / "b.log")]


def test_the_catalog_is_opened_while_the_workers_read(tmp_path, monkeypatch):
    """With a pool, this process opens the catalog between starting the workers and waiting
    for them; in one process it waits for the scan (an error-free log never opens it)."""
    from errexplain import triage

    events = []
    prepare, result = scan._prepare, triage.Scan.result
    monkeypatch.setattr(scan, "_prepare", lambda ctx: events.append("catalog") or prepare(ctx))

    def waited(self, progress=None):
        events.append("wait")
        return result(self, progress)

    monkeypatch.setattr(triage.Scan, "result", waited)
    paths = _two_files(tmp_path)
    ctx, out, _ = _ctx("json")
    assert scan.run(ctx, paths, 2) == ExitCode.EXPLAINED
    assert events == ["catalog", "wait"]
    assert json.loads(out.getvalue())["errors"][0]["exception"]["count"] == 4
    events.clear()
    assert scan.run(_ctx("json")[0], paths, 1) == ExitCode.EXPLAINED
    assert events == ["wait", "catalog"]
    events.clear()
    assert scan.run(_ctx()[0], _two_files(tmp_path, errors=False), 1) == ExitCode.NO_MATCH
    assert events == ["wait"]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bad_release_is_reported_only_when_there_is_something_to_explain(tmp_path, workers):
    """The catalog opened early (workers=2) raises its errors when they would have come."""
    opts = Options("json", release=(("sglang", "9.9.9"),))
    ctx = Context(opts, io.BytesIO(), io.StringIO(), io.StringIO())
    with pytest.raises(InputError, match=r"9\.9\.9 is not a sglang release"):
        scan.run(ctx, _two_files(tmp_path), workers)
    ctx = Context(opts, io.BytesIO(), io.StringIO(), io.StringIO())
    assert scan.run(ctx, _two_files(tmp_path, errors=False), workers) == ExitCode.NO_MATCH
