"""errexplain.triage: errors grouped across lines, ranks and files; counts, first/last seen;
the parse budget and the tail; the worker pool gives what one process gives."""

from __future__ import annotations

import gzip
import io

from tests.logs_data import CUDA, OOM, burst, info, traceback

from errexplain import triage as tr
from errexplain.input import logs


def _scan(paths, workers=1, **kw):
    return tr.triage(tr.plan([str(p) for p in paths], workers), io.BytesIO(), workers, **kw)


def _by_message(result):
    return {f"{g.error.type}: {g.error.message}": g for g in result.groups}


def _write_logs(tmp_path):
    a = (
        info("2026-10-02 10:00:00", 50)
        + burst("2026-10-02 10:00:01", range(4))
        + info("2026-10-02 10:00:02", 50)
        + burst("2026-10-02 10:05:00", range(2), OOM)
    )
    b = info("2026-10-02 11:00:00", 50) + burst("2026-10-02 11:30:00", range(4, 8))
    (tmp_path / "node0.log").write_text(a)
    (tmp_path / "node1.log.gz").write_bytes(gzip.compress(b.encode()))
    return tmp_path / "node0.log", tmp_path / "node1.log.gz"


def test_groups_count_ranks_files_and_dates_across_files(tmp_path):
    a, b = _write_logs(tmp_path)
    found = _scan([a, b])
    groups = _by_message(found)
    assert list(groups) == [CUDA, OOM]
    cuda, oom = groups[CUDA], groups[OOM]
    assert cuda.error.count == 8
    assert cuda.error.ranks == tuple(f"TP{k}" for k in range(8))
    assert cuda.files == (str(a), str(b))
    assert (cuda.first_seen, cuda.last_seen) == ("2026-10-02 10:00:01", "2026-10-02 11:30:00")
    assert oom.error.count == 2 and oom.files == (str(a),)
    assert (oom.first_seen, oom.last_seen) == ("2026-10-02 10:05:00", "2026-10-02 10:05:00")
    assert [f.line for f in cuda.error.frames] == [2890, 2417]
    assert found.files == (str(a), str(b)) and found.unparsed == 0 and found.warnings() == []


def test_a_directory_of_logs_and_stdin(tmp_path):
    _write_logs(tmp_path)
    stdin = io.BytesIO(burst("2026-10-02 09:00:00", range(1)).encode())
    found = tr.triage(tr.plan([str(tmp_path), "-"], 1), stdin, 1)
    cuda = _by_message(found)[CUDA]
    assert cuda.error.count == 9 and cuda.files[-1] == "stdin"
    assert cuda.first_seen == "2026-10-02 09:00:00"


def test_the_pool_and_the_split_give_what_one_process_gives(tmp_path, monkeypatch):
    quiet = info("2026-10-02 10:00:00", 2000)
    text = "".join(quiet + burst(f"2026-10-02 10:0{k}:00", range(8)) for k in range(6))
    big = tmp_path / "big.log"
    big.write_text(text + traceback("2026-10-02 10:59:59", 0, "ValueError: the end"))
    small = tmp_path / "small.log"
    small.write_text(burst("2026-10-02 12:00:00", range(2)))
    one = _scan([big, small], workers=1)
    monkeypatch.setattr(tr, "SPLIT_AT", 1024)
    plan = tr.plan([str(big)], 2)
    assert len(plan.tasks) == 2 and plan.tasks[0].end == plan.tasks[1].start
    split = _scan([big], workers=2)
    pooled = _scan([big, small], workers=2)
    assert _by_message(split)[CUDA].error.count == 48
    for result in (pooled,):
        assert [
            (g.error.message, g.error.count, g.first_seen, g.last_seen, g.files)
            for g in result.groups
        ] == [
            (g.error.message, g.error.count, g.first_seen, g.last_seen, g.files) for g in one.groups
        ]
    progress: list[int] = []
    _scan([big, small], workers=2, progress=progress.append)
    assert progress and progress[-1] == big.stat().st_size + small.stat().st_size


def test_a_dense_log_is_parsed_within_budget_and_keeps_the_final_traceback(tmp_path, monkeypatch):
    """The budget counts the bytes parsed: tracebacks that all differ (a number in each
    message) are parsed one by one until it runs out."""
    monkeypatch.setattr(logs, "BLOCK", 64 * 1024)
    monkeypatch.setattr(logs, "MAX_REGION", 16 * 1024)
    body = "".join(
        burst(f"2026-10-02 10:{k // 60:02d}:{k % 60:02d}", range(8), f"{CUDA} (step {k})")
        for k in range(900)
    )
    path = tmp_path / "dense.log"
    path.write_text(body + traceback("2026-10-02 23:59:59", 5, "ValueError: the very last one"))
    plan = tr.plan([str(path)], 1)
    found = tr.triage(plan, io.BytesIO(), 1, budget=64 * 1024)
    groups = _by_message(found)
    last = groups["ValueError: the very last one"]
    assert last.last_seen == "2026-10-02 23:59:59" and last.error.ranks == ("TP5",)
    assert found.unparsed > 0
    assert "not parsed" in found.warnings()[0]
    assert len(groups) < 900 + 1  # some steps were not parsed, as the warning says


def test_an_error_free_log_has_no_groups(tmp_path):
    path = tmp_path / "ok.log"
    path.write_text(info("2026-10-02 10:00:00", 100))
    found = _scan([path])
    assert found.groups == () and found.bytes_read == path.stat().st_size


def test_groups_key_on_the_first_line_of_the_message():
    acc = tr._Acc()
    from errexplain.models import RaisedError

    acc.add(RaisedError("E", "boom\nDecode batch. #token: 1"), ["b"], ["f"], "")
    acc.add(RaisedError("E", "boom"), ["a"], ["g"], "")
    (group,) = acc.result()
    assert group.error.message == "boom" and group.error.count == 2
    assert (group.first_seen, group.last_seen, group.files) == ("a", "b", ("f", "g"))


def test_a_progress_bar_redrawn_with_carriage_returns_keeps_the_dates_in_place(tmp_path):
    """A progress bar redraws itself with a lone \\r: the parser counts each redraw as a line,
    so the lines read for an error's date are numbered the same way; else the record logged
    after the error (here 10:09) is taken for its date."""
    log = tmp_path / "node0.log"
    log.write_bytes(
        b"[2026-10-02 10:00:00] Load weight begin.\n"
        b"Loading shards:  10%\rLoading shards:  50%\rLoading shards: 100%\n"
        b"[2026-10-02 10:00:05] Load weight end.\n"
        b"Traceback (most recent call last):\n"
        b'  File "/sgl/python/sglang/srt/models/llama.py", line 7, in load\n'
        b"    raise ValueError('the end')\n"
        b"ValueError: the end\n"
        b"[2026-10-02 10:09:00] Shutting down.\n"
        b"[2026-10-02 10:09:01] Bye.\n"
    )
    (group,) = _scan([log]).groups
    assert (group.first_seen, group.last_seen) == ("2026-10-02 10:00:05", "2026-10-02 10:00:05")


def _notebook(*outputs: dict) -> str:
    import json

    cell = {"cell_type": "code", "metadata": {}, "outputs": list(outputs), "source": ["run()\n"]}
    return json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _logged(text: str) -> dict:
    return {"name": "stderr", "output_type": "stream", "text": text.splitlines(keepends=True)}


def test_a_notebook_is_scanned_as_the_outputs_its_cells_saved(tmp_path):
    # a server started from a notebook: its log is a stream output, the traceback's lines are
    # escaped strings inside the JSON, which the byte searches alone would not find
    nb = _notebook(_logged(burst("2026-10-02 10:00:01", range(2))))
    (tmp_path / "serve.ipynb").write_text(nb)
    (tmp_path / "serve.json").write_text(nb)  # (a notebook saved under another name: by its head)
    (tmp_path / "node0.log").write_text(burst("2026-10-02 11:00:00", range(2, 4)))
    found = _scan([tmp_path / "serve.ipynb", tmp_path / "serve.json", tmp_path / "node0.log"])
    cuda = _by_message(found)[CUDA]
    assert cuda.error.count == 6 and cuda.error.ranks == ("TP0", "TP1", "TP2", "TP3")
    assert [f.line for f in cuda.error.frames] == [2890, 2417]
    assert cuda.first_seen == "2026-10-02 10:00:01" and len(cuda.files) == 3
    assert found.bytes_read == sum(p.stat().st_size for p in tmp_path.iterdir())


def test_a_notebook_error_output_is_read_with_its_type_and_frames(tmp_path):
    tb = [
        "\x1b[0;31mValueError\x1b[0m" + " " * 20 + "Traceback (most recent call last)",
        "File \x1b[0;32m~/w/load.py:12\x1b[0m, in \x1b[0;36mload\x1b[0m\x1b[0;34m(p)\x1b[0m\n"
        "\x1b[0;32m---> 12\x1b[0m     raise ValueError(f'no weights in {p}')\n",
        "\x1b[0;31mValueError\x1b[0m: no weights in w/",
    ]
    err = {"ename": "ValueError", "evalue": "no weights in w/", "output_type": "error"}
    (tmp_path / "a.ipynb").write_bytes(gzip.compress(_notebook({**err, "traceback": tb}).encode()))
    (tmp_path / "a.ipynb").rename(tmp_path / "a.ipynb.gz")
    (group,) = _scan([tmp_path / "a.ipynb.gz"]).groups
    assert (group.error.type, group.error.message) == ("ValueError", "no weights in w/")
    assert [(f.path, f.line, f.function) for f in group.error.frames] == [
        ("~/w/load.py", 12, "load")
    ]


def test_what_is_not_read_as_a_notebook_is_read_as_text(tmp_path, monkeypatch):
    log = burst("2026-10-02 10:00:01", range(2))
    # JSON that is no notebook, a notebook with no saved output, one over the size read whole
    (tmp_path / "a.json").write_text('{"cells": 3}\n' + log)
    (tmp_path / "b.ipynb").write_text(_notebook() + "\n" + log)
    (tmp_path / "c.ipynb").write_text(_notebook(_logged(log)))
    monkeypatch.setattr(tr, "NOTEBOOK_MAX", 100)
    for name in ("a.json", "b.ipynb"):
        assert _by_message(_scan([tmp_path / name]))[CUDA].error.count == 2
    # (read as text, the big one's log is an escaped string: not one error of it is made up)
    assert CUDA not in _by_message(_scan([tmp_path / "c.ipynb"]))
