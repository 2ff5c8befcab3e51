"""A traceback cut before its exception line, announced by a log record (`[... TP0] Scheduler
hit an exception: Traceback (most recent call last):`): when nothing else in the paste is an
error, the record is explained (the catalog logs it with the traceback as its last value), never
with confidence; not when a line without a log prefix stands among the records above it (a
child's own print of the error that the cut traceback ends with)."""

from __future__ import annotations

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import ANNOUNCED_CAP, ANNOUNCED_NOTE, explain_text
from errexplain.models import Entry, Source


def _logged(eid: str, template: str, path: str, line: int, function: str) -> Entry:
    """An error-level log site of the demo project."""
    return Entry(
        id=eid * 16,
        project="demo",
        exception="error",
        kind="log",
        template=template,
        source=Source("demo", "1.0", path, line, function, None),
    )


WRAPPER = _logged(
    "a", "Worker loop stopped on an exception: <traceback>", "demo/worker.py", 40, "run_worker"
)
SIGNAL = _logged(
    "b",
    "Received a stop signal from a child process. It usually means the child failed.",
    "demo/launch.py",
    12,
    "on_signal",
)
VIEW = MemoryCatalog([WRAPPER, SIGNAL])

CUT = (
    '  File "/env/site-packages/demo/worker.py", line 40, in run_worker\n'
    "    worker.loop()\n"
    '  File "/env/site-packages/demo/model.py", line 9, in lo'
)


def _answers(text: str) -> list[tuple[str, float]]:
    return [(m.entry.id, m.score) for x in explain_text(text, VIEW) for m in x.matches[:1]]


def test_the_record_that_announced_a_cut_traceback_is_explained():
    # the record and the traceback's first line on one line (a record on a line of its own
    # before it is read by the parser, with the frames under it: tests/parse)
    head = (
        "[2026-01-29 13:12:36 TP0] Worker loop stopped on an exception: "
        "Traceback (most recent call last):\n"
    )
    text = f"```\n[2026-01-29 13:12:35 TP0] Load weight begin.\n{head}{CUT}\n```\n"
    exps = explain_text(text, VIEW)
    ((entry, score),) = _answers(text)
    assert entry == "a" * 16 and score <= ANNOUNCED_CAP < 0.9
    assert any(ANNOUNCED_NOTE in n for x in exps for n in x.notes)


def test_not_when_a_line_without_a_prefix_stands_among_the_records_above():
    text = (
        "[2026-01-29 13:12:35 TP0] Load weight begin.\n"
        "Failed to build the model: the checkpoint's weight shapes do not fit\n"
        "[2026-01-29 13:12:36 TP0] Worker loop stopped on an exception: "
        f"Traceback (most recent call last):\n{CUT}\n"
    )
    assert _answers(text) == []


def test_not_a_record_that_the_catalog_does_not_log():
    text = (
        "[2026-01-29 13:12:36 TP0] Something else went wrong in the pool: "
        f"Traceback (most recent call last):\n{CUT}\n"
    )
    assert _answers(text) == []


def test_the_announcing_record_is_explained_beside_a_record_that_reports_the_crash():
    """A record logged because the child died (`Received ... from a child process`) beside the
    cut traceback is the crash's consequence: the record that announced the traceback is still
    the error the traceback shows, and both are explained (each a record the paste holds)."""
    text = (
        "[2026-01-29 13:12:36] Received a stop signal from a child process. It usually means "
        "the child failed.\n"
        "[2026-01-29 13:12:36 TP0] Worker loop stopped on an exception: "
        f"Traceback (most recent call last):\n{CUT}\n"
    )
    answers = _answers(text)
    assert ("b" * 16, 1.0) in answers
    assert any(entry == "a" * 16 and score <= ANNOUNCED_CAP for entry, score in answers)


def test_the_posts_own_lines_above_the_log_do_not_count_as_among_its_records():
    """The lines before a log's first record (the command that was run, `the bug:`) are the
    post's: with no record above them, they stand before the log, not among its records."""
    text = (
        "run command:\n"
        "python -m demo.launch --workers 4\n"
        "the bug:\n"
        "[2026-01-29 13:12:36] Received a stop signal from a child process. It usually means "
        "the child failed.\n"
        "[2026-01-29 13:12:36 TP0] Worker loop stopped on an exception: "
        f"Traceback (most recent call last):\n{CUT}\n"
    )
    answers = _answers(text)
    assert any(entry == "a" * 16 and score <= ANNOUNCED_CAP for entry, score in answers)


def test_a_job_runners_relay_label_before_every_line_is_a_stream_prefix():
    """`<stamp> <job> >> (Actor pid=N) [<stamp> TP7] ...`: a runner that relays a ray job's
    output labels each line with its job before the actor's own prefix; the frames under the
    record are read as frames, and the record announces them."""
    relay = "[2025-12-18T16:24:02+08:00] rl-job-20251218-3da56 >> (Engine pid=3111) "
    text = (
        f"{relay}[2025-12-18 08:24:01 TP7] Worker loop stopped on an exception: "
        "Traceback (most recent call last):\n"
        + "".join(f"{relay}{line}\n" for line in CUT.splitlines())
    )
    exps = explain_text(text, VIEW)
    assert any(x.error.frames for x in exps)
    assert any(entry == "a" * 16 and score <= ANNOUNCED_CAP for entry, score in _answers(text))


def test_a_chain_whose_last_traceback_is_cut_is_announced_by_its_record():
    """The announced traceback ends a chain (`The above exception was the direct cause ...`)
    whose earlier link is complete (a socket timeout under the request the worker sent): the
    error the chain led to was cut, so the link is explained as its cause and the record as
    what the paste shows of the error itself, not the link alone as the paste's error."""
    text = (
        "```\n"
        "[2026-01-29 13:12:36] Worker loop stopped on an exception: "
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.10/socket.py", line 705, in readinto\n'
        "    return self._sock.recv_into(b)\n"
        "TimeoutError: timed out\n"
        "\n"
        "The above exception was the direct cause of the following exception:\n"
        "\n"
        "Traceback (most recent call last):\n"
        '  File "/env/site-packages/requests/adapters.py", line 667, in send\n'
        "    resp = conn.urlopen(\n"
        "```\n"
    )
    exps = explain_text(text, VIEW)
    record = [x for x in exps if x.matches]
    assert [x.matches[0].entry.id for x in record] == ["a" * 16]
    assert record[0].matches[0].score <= ANNOUNCED_CAP
    assert ANNOUNCED_NOTE in record[0].notes
    (cause,) = [x for x in exps if x.error.type == "TimeoutError"]
    assert any("caused the error below" in n for n in cause.notes)
    # each error once: the record is not repeated as a record beside the cut traceback
    assert len({(x.error.line_no, x.error.message) for x in exps}) == len(exps)


CLIENT = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/bench.py", line 12, in <module>\n'
    "    resp = client.chat.completions.create(**req)\n"
    '  File "/env/site-packages/openai/_base_client.py", line 1047, in request\n'
    "    raise self._make_status_error_from_response(err.response) from None\n"
    "openai.InternalServerError: Error code: 500 - upstream worker is gone\n"
)
SERVER = (
    "[2026-01-29 13:12:36 TP0] Worker loop stopped on an exception: "
    "Traceback (most recent call last):\n" + CUT + "\n"
)


def test_an_announced_cut_traceback_beside_another_process_error_is_still_explained():
    # the server's log (its traceback cut) and, apart from it, the client's complete traceback:
    # two errors, the server's read as the record that announced it
    for text in (
        f"Server log:\n```\n{SERVER}```\n\nClient:\n```\n{CLIENT}```\n",
        f"Client:\n```\n{CLIENT}```\n\nServer log:\n```\n{SERVER}```\n",
    ):
        exps = explain_text(text, VIEW)
        assert [x.error.short_type for x in exps if x.error.type].count("InternalServerError") == 1
        assert ("a" * 16) in [m.entry.id for x in exps for m in x.matches[:1]], text
        # the cut traceback itself is not shown as an error of no match beside them
        assert not any(x.error.truncated and not x.matches for x in exps)


def test_a_shorter_copy_of_a_complete_traceback_is_not_a_second_error():
    # another rank's copy of the complete traceback, cut: its innermost frame is one of the
    # complete traceback's frames, so it is that error, not another process's
    whole = (
        "[2026-01-29 13:12:36 TP1] Worker loop stopped on an exception: "
        "Traceback (most recent call last):\n"
        '  File "/env/site-packages/demo/worker.py", line 40, in run_worker\n'
        "    worker.loop()\n"
        '  File "/env/site-packages/demo/model.py", line 9, in loop\n'
        "    raise RuntimeError('bad widget')\n"
        "RuntimeError: bad widget\n"
    )
    cut = (
        "[2026-01-29 13:12:36 TP0] Worker loop stopped on an exception: "
        "Traceback (most recent call last):\n"
        '  File "/env/site-packages/demo/worker.py", line 40, in run_worker\n'
    )
    exps = explain_text(f"```\n{whole}{cut}```\n", VIEW)
    assert [x.error.message for x in exps if not x.matches or x.error.type] == ["bad widget"]


def _announcing(outer: str, inner: str) -> str:
    return (
        "[2026-01-29 13:12:36 TP0] Worker loop stopped on an exception: "
        "Traceback (most recent call last):\n"
        f'  File "{outer}", line 40, in run_worker\n'
        "    worker.loop()\n"
        f'  File "{inner}", line 9, in lo'
    )


def test_a_record_whose_cut_traceback_was_caught_in_a_forks_tree_is_a_look_alike():
    """The code that caught the error and logged the record (the traceback's outermost frame)
    lies in a sibling engine's source checkout, which logs the project's words: the project's
    record is a look-alike, listed as nearest, never the answer."""
    # (the checkout's directory names the project: the paste's words do not tell them apart)
    text = _announcing("/home/u/demo-port/vllm/worker.py", "/home/u/demo-port/vllm/model.py")
    (exp,) = [x for x in explain_text(text, VIEW) if x.error.message]
    assert not exp.matches and exp.look_alike
    assert [m.entry.id for m in exp.nearest] == ["a" * 16]
    assert any("caught in vllm, not in demo" in n for n in exp.notes)


def test_a_record_whose_cut_traceback_only_passes_through_another_engine_stays_the_answer():
    """The outermost frame is the project's own: an engine the error passed through further in
    says nothing of who logged the record."""
    text = _announcing("/env/site-packages/demo/worker.py", "/home/u/src/vllm/model.py")
    assert [entry for entry, _ in _answers(text)] == ["a" * 16]
