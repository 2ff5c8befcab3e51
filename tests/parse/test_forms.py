"""Pastes with no Python traceback of their own (issue #9): HTTP error bodies, error log lines,
exception reprs, several errors quoted in prose, Jupyter/IPython tracebacks, and messages that
must not swallow what follows them. Every example here is written for the test."""

from __future__ import annotations

import time

import pytest

from errexplain.models import Frame, RaisedError
from errexplain.parse import parse_traceback


def one(text: str) -> RaisedError:
    errors = parse_traceback(text)
    assert len(errors) == 1, errors
    return errors[0]


def summary(text: str) -> list[tuple[str, str, str]]:
    return [(e.form, e.type, e.message) for e in parse_traceback(text)]


# 1a. HTTP / OpenAI-compatible error bodies --------------------------------------------------

CONTEXT_MSG = "This prompt (12000 tokens) does not fit the context window (4096 tokens)."


@pytest.mark.parametrize(
    "text",
    [
        # an OpenAI-compatible server's body on one line
        '{"object":"error","message":"' + CONTEXT_MSG + '","type":"BadRequestError",'
        '"param":null,"code":400}',
        # nested under "error"
        '{"error": {"message": "' + CONTEXT_MSG + '", "type": "invalid_request_error", '
        '"code": 400}}',
        # pretty-printed, after a line of prose
        'The server answered:\n{\n  "error": {\n    "message": "' + CONTEXT_MSG + '",\n'
        '    "type": "invalid_request_error",\n    "param": null,\n    "code": 400\n  }\n}\n',
        # a FastAPI body
        '$ curl -s localhost:30000/v1/models/foo\n{"detail":"' + CONTEXT_MSG + '"}\n',
        # inside a client exception, with a Python dict's quoting
        "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': '"
        + CONTEXT_MSG
        + "', 'type': 'BadRequestError', 'param': None, 'code': 400}",
    ],
    ids=["flat", "nested", "pretty", "detail", "client-exception"],
)
def test_error_bodies(text: str) -> None:
    err = one(text)
    assert (err.form, err.type, err.message) == ("json", "", CONTEXT_MSG)


def test_client_exception_wrapping_a_body_in_a_traceback() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/bench.py", line 12, in <module>\n'
        "    client.chat.completions.create(model=m, messages=msgs)\n"
        "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': \"The "
        "model's adapter 'lora-7' is not loaded.\", 'type': 'BadRequestError', 'param': None, "
        "'code': 400}\n"
    )
    err = one(text)
    # the error to explain is the server's, not the client's wrapper (nor its frames)
    assert (err.form, err.type) == ("json", "")
    assert err.message == "The model's adapter 'lora-7' is not loaded."
    assert err.frames == ()


def test_body_message_with_an_exception_head_and_escapes() -> None:
    text = (
        'HTTP/1.1 500 Internal Server Error\n{"error": {"message": "ValueError: the field '
        '\\"top_k\\" must be >= -1\\nGot: -5 \\u2192 rejected", "code": 500}}'
    )
    err = one(text)
    assert (err.form, err.type) == ("json", "ValueError")
    assert err.message == 'the field "top_k" must be >= -1\nGot: -5 \u2192 rejected'


def test_body_message_with_python_escapes() -> None:
    text = (
        "RuntimeError: request failed: {'error': {'message': 'can\\'t parse \\'tools\\'"
        "\\n(bad schema)', 'code': 422}}"
    )
    err = one(text)
    assert (err.form, err.type, err.message) == ("json", "", "can't parse 'tools'\n(bad schema)")


def test_body_holding_a_whole_traceback() -> None:
    text = (
        '{"object": "error", "message": "Traceback (most recent call last):\\n  File '
        '\\"/srv/app/worker.py\\", line 40, in step\\n    run()\\nKeyError: \'kv_cache\'", '
        '"code": 500}'
    )
    err = one(text)
    assert (err.form, err.type, err.message) == ("json", "KeyError", "'kv_cache'")
    assert err.frames == (Frame("/srv/app/worker.py", 40, "step", "run()"),)


def test_body_holding_a_traceback_cut_before_its_exception() -> None:
    text = (
        '{"detail": "Traceback (most recent call last):\\n  File \\"/srv/w.py\\", line 4, '
        'in f\\n    g()"}'
    )
    err = one(text)
    assert (err.form, err.type) == ("json", "")
    assert err.message.startswith("Traceback (most recent call last):\n")


def test_body_echoing_the_server_exception_is_one_error() -> None:
    text = (
        "[2026-03-01 09:00:00 TP0] Scheduler hit an exception: ValueError: top_p must be in "
        "(0, 1], got 1.5\n"
        '{"object":"error","message":"top_p must be in (0, 1], got 1.5","code":400}\n'
    )
    assert summary(text) == [("log", "ValueError", "top_p must be in (0, 1], got 1.5")]


@pytest.mark.parametrize(
    "text",
    [
        '{"message": "Server started on port 8000", "level": "info"}',
        '{"role": "user", "content": "Why does my ValueError happen?"}',
        '{"detail": ',
        '"message": "unterminated',
        "{'message': ''}",
    ],
)
def test_bodies_that_are_not_errors(text: str) -> None:
    assert parse_traceback(text) == ()


# 1b. Error log lines without an exception ---------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message", "rank"),
    [
        ("[2026-03-01 09:00:00 TP3] Error: the detokenizer stopped answering", None, "TP3"),
        ("ERROR 03-01 09:00:00 [engine.py:88] the detokenizer stopped answering", None, None),
        ("[scheduler] Error: the detokenizer stopped answering", None, None),
        (
            "2026-03-01 09:00:00,123 - sglang - ERROR - the detokenizer stopped answering",
            None,
            None,
        ),
        ("ERROR:root:the detokenizer stopped answering", None, None),
        ("ERROR:    the detokenizer stopped answering", None, None),
        ("2026-03-01 09:00:00 ERROR the detokenizer stopped answering", None, None),
        ("[2026-03-01 09:00:00] [ERROR] the detokenizer stopped answering", None, None),
        (
            "2026-03-01 09:00:00.123 | ERROR    | app.server:serve:42 - the detokenizer "
            "stopped answering",
            None,
            None,
        ),
        ("E0301 09:00:00.123456 4242 server.cc:88] the detokenizer stopped answering", None, None),
        (
            "[2026-03-01 09:00:00] Could not reach the detokenizer, error: timed out",
            "Could not reach the detokenizer, error: timed out",
            None,
        ),
    ],
)
def test_error_log_lines(line: str, message: str | None, rank: str | None) -> None:
    err = one("Loading model...\n" + line + "\nShutting down.\n")
    assert (err.form, err.type) == ("log", "")
    assert err.message == (message or "the detokenizer stopped answering")
    assert err.ranks == ((rank,) if rank else ())
    assert err.line_no == 2


def test_log_line_with_an_exception_head_gets_its_type() -> None:
    err = one("[2026-03-01 09:00:00] ERROR RuntimeError: NCCL timeout\n")
    assert (err.type, err.message) == ("RuntimeError", "NCCL timeout")


@pytest.mark.parametrize(
    "text",
    [
        "[2026-03-01 09:00:00] INFO error: 0 requests failed",
        "WARNING 03-01 09:00:00 [engine.py:88] Error: retrying",
        "[2026-03-01 09:00:00 TP0] Load weight end. error rate is low",
        "Error: not a log line",
        "[scheduler] ready",
        "[2026-03-01 09:00:00] Error: ",
    ],
)
def test_lines_that_are_not_error_logs(text: str) -> None:
    assert parse_traceback(text) == ()


def test_log_lines_echoing_an_exception_are_dropped() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/loader.py", line 9, in load\n'
        "    raise FileNotFoundError(path)\n"
        "FileNotFoundError: /models/tiny/config.json\n"
        "[2026-03-01 09:00:01] Error: /models/tiny/config.json\n"
        "ERROR 03-01 09:00:01 [api.py:3] load failed: /models/tiny/config.json (giving up)\n"
        "ERROR 03-01 09:00:02 [api.py:7] the health check failed as well\n"
    )
    assert summary(text) == [
        ("traceback", "FileNotFoundError", "/models/tiny/config.json"),
        ("log", "", "the health check failed as well"),
    ]


def test_log_line_introducing_a_traceback_is_not_an_error() -> None:
    text = (
        "ERROR 03-01 09:00:00 [engine.py:88] Engine loop failed\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/engine.py", line 88, in loop\n'
        "    step()\n"
        "RuntimeError: step failed\n"
    )
    assert summary(text) == [("traceback", "RuntimeError", "step failed")]


@pytest.mark.parametrize(
    "line",
    [
        "[2026-03-01 09:00:00] Failed to serve the request: 'NoneType' object is not iterable",
        "ERROR 03-01 09:00:00 [engine.py:88] Failed to serve the request: 'NoneType' object is"
        " not iterable",
    ],
)
def test_log_line_introducing_a_traceback_cut_before_its_exception_is_the_error(line) -> None:
    """`logger.exception(msg)` prints msg, then the traceback; a paste cut inside the traceback
    keeps only the log line's message (even with no `Error:` marker), with the frames read."""
    text = (
        f"{line}\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/pkg/serving.py", line 120, in handle\n'
        "    out = await self._run(req)\n"
        '  File "/srv/pkg/ser'
    )
    (err,) = parse_traceback(text)
    assert err.form == "log" and not err.truncated
    assert err.message == "Failed to serve the request: 'NoneType' object is not iterable"
    assert [(f.path, f.line) for f in err.frames] == [("/srv/pkg/serving.py", 120)]


def test_prose_line_above_a_cut_traceback_is_not_an_error() -> None:
    text = 'this is what I see:\nTraceback (most recent call last):\n  File "/srv/x.py", line 1'
    (err,) = parse_traceback(text)
    assert err.truncated and err.form == "traceback"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (
            "The assertion `assert self.req is None` fails in line 183 of pkg/sched.py.",
            ("pkg/sched.py", 183),
        ),
        (
            'I hit "assert self.req is None" at python/pkg/sched.py:183 today',
            ("python/pkg/sched.py", 183),
        ),
        ("`assert self.req is None` (pkg/sched.py, line 183) is triggered", ("pkg/sched.py", 183)),
        ("Sometimes `assert self.req is None` is triggered.", None),
        ("The worker dies on an assertion error (assert self.req is None) sometimes.", None),
        # a traceback's last two lines joined in the quote: the exception line is not the test
        ('Start-up fails due to "assert self.req is None  AssertionError"', None),
    ],
)
def test_assert_statements_quoted_in_prose(text: str, where) -> None:
    (err,) = parse_traceback(text + "\n")
    assert (err.type, err.message, err.form) == (
        "AssertionError",
        "assert self.req is None",
        "prose",
    )
    got = (err.frames[0].path, err.frames[0].line) if err.frames else None
    assert got == where
    if err.frames:
        assert err.frames[0].function is None and err.frames[0].code == "assert self.req is None"


@pytest.mark.parametrize(
    "text",
    [
        'It fails at `assert cfg["mode"] in ("a", "b")` on every start.',
        'It fails at `assert cfg[\'mode\'] in ("a", "b")` on every start.',
    ],
)
def test_assert_in_backticks_keeps_its_string_literals(text: str) -> None:
    (err,) = parse_traceback(text + "\n")
    assert (err.type, err.form) == ("AssertionError", "prose")
    assert err.message == "assert " + text.split("`assert ")[1].split("`")[0]


def test_code_that_asserts_is_not_prose() -> None:
    assert parse_traceback("    assert self.req is None\n") == ()
    assert parse_traceback("we `assert` things `here` a lot\n") == ()
    # in parentheses only beside a word for the failure, and balanced
    assert parse_traceback("we check (assert len(out) > 0) first\n") == ()
    assert parse_traceback("an assertion fails (assert len(out) > 0\n") == ()


def test_parenthesized_assert_keeps_the_parentheses_of_its_test() -> None:
    text = "crashes with AssertionError (assert len(output) > 0) as in #12\n"
    (err,) = parse_traceback(text)
    assert (err.message, err.form) == ("assert len(output) > 0", "prose")


def test_error_log_lines_are_bounded() -> None:
    text = "".join(f"[2026-03-01 09:00:00] Error: worker {i} lost\n" for i in range(300))
    errors = parse_traceback(text)
    assert len(errors) == 200
    assert errors[-1].message == "worker 199 lost"


# 2. Exceptions inside other text ------------------------------------------------------------


def test_asyncio_task_exception_repr() -> None:
    text = (
        "Task exception was never retrieved\n"
        "future: <Task finished name='Task-7' coro=<Poller.run() done, defined at "
        "/srv/poll.py:20> exception=RuntimeError(\"queue 'jobs' is closed\\n(shutdown)\")>\n"
    )
    err = one(text)
    assert (err.form, err.type, err.message) == (
        "repr",
        "RuntimeError",
        "queue 'jobs' is closed\n(shutdown)",
    )


def test_asyncio_block_with_its_traceback_is_one_error() -> None:
    text = (
        "Task exception was never retrieved\n"
        "future: <Task finished name='Task-7' coro=<run() done, defined at /srv/poll.py:20> "
        "exception=ValueError('no jobs')>\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/poll.py", line 22, in run\n'
        "    raise ValueError('no jobs')\n"
        "ValueError: no jobs\n"
    )
    assert summary(text) == [("traceback", "ValueError", "no jobs")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "[2026-03-01 09:00:00] Request failed: ValueError('bad value for \\'n\\'')",
            [("repr", "ValueError", "bad value for 'n'")],
        ),
        ("worker exited: exception=CancelledError()", [("repr", "CancelledError", "")]),
        ("lookup failed: KeyError('layer.7')", [("repr", "KeyError", "'layer.7'")]),
        (
            "retry 1: TimeoutError('read timed out'); retry 2: ConnectionError(\"reset\")",
            [("repr", "TimeoutError", "read timed out"), ("repr", "ConnectionError", "reset")],
        ),
    ],
)
def test_reprs_in_log_lines(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert summary(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "    raise ValueError('bad value')",
        "err = RuntimeError('x')",
        "return TypeError('nope')",
        "ValueError('two', 'args')",
        "call ValueError('open",
    ],
)
def test_code_is_not_a_repr(text: str) -> None:
    assert parse_traceback(text) == ()


def test_several_errors_quoted_in_prose() -> None:
    text = (
        "First I got `ValueError: tp size 3 is invalid` and after fixing it, "
        "`KeyError: 'lm_head.weight'`, then `OSError: disk full`.\n"
        "Any idea?\n"
    )
    assert summary(text) == [
        ("prose", "ValueError", "tp size 3 is invalid"),
        ("prose", "KeyError", "'lm_head.weight'"),
        ("prose", "OSError", "disk full"),
    ]


def test_quoted_error_does_not_take_the_next_prose_line() -> None:
    err = one('It fails with "RuntimeError: no GPU found" on start.\nWhat should I do?\n')
    assert (err.form, err.message) == ("prose", "no GPU found")


# 3. Messages polluted by what follows -------------------------------------------------------


def test_bare_exception_keeps_no_message() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/kernels.py", line 5, in forward\n'
        "    raise NotImplementedError\n"
        "NotImplementedError\n"
        "Process SpawnProcess-1:\n"
    )
    err = one(text)
    assert (err.type, err.message, err.form) == ("NotImplementedError", "", "traceback")


@pytest.mark.parametrize(
    "after",
    [
        "  at some_file.py:function",
        "    at run (/srv/app/index.js:10:5)",
        "[2026-01-02 10:00:00] Received sigquit from a child process.",
        "[2026-01-02 10:00:00 TP0] Scheduler stopped.",
        "2026-01-02 10:00:00,120 - app - INFO - shutting down",
        "2026/01/02 10:00:00 shutting down",
        "[10:00:00] shutting down",
        "[INFO] shutting down",
        "2026-01-02 10:00:00.123 | INFO     | app.main:run:3 - shutting down",
        "[..] Received sigquit from a child process.",  # a log prefix the paster elided
        "[...] Scheduler stopped.",
        "[TP0] Scheduler stopped.",  # sglang's prefix with its stamp left out
        "[DP3 TP3 EP3 PP1] Scheduler stopped.",
        "...",  # lines left out
        "\u2026",
        "[...]",
    ],
)
def test_final_message_stops_before(after: str) -> None:
    err = one("RuntimeError: the KV pool is exhausted\n" + after + "\n")
    assert err.message == "the KV pool is exhausted"


def test_output_after_a_blank_line_is_not_the_message() -> None:
    text = (
        "ValueError: unsupported dtype float8\n"
        "\n"
        "  Loading safetensors shards: 100% 4/4\n"
        "  Server stopped.\n"
    )
    assert one(text).message == "unsupported dtype float8"


# 4. Jupyter / IPython tracebacks ------------------------------------------------------------

JUPYTER = """\
---------------------------------------------------------------------------
OSError                                   Traceback (most recent call last)
Cell In[7], line 3
      1 import loader
      2 # ValueError: a comment, not an error
----> 3 loader.read_weights("ckpt/")

File ~/work/loader.py:41, in read_weights(path, strict)
     39 def read_weights(path, strict=True):
     40     if not exists(path):
---> 41         raise OSError(
     42             f"no weights under {path}"
     43         )

OSError: no weights under ckpt/
"""


def test_jupyter_traceback() -> None:
    err = one(JUPYTER)
    assert (err.form, err.type, err.message) == ("jupyter", "OSError", "no weights under ckpt/")
    assert err.frames == (
        Frame("Cell In[7]", 3, None, 'loader.read_weights("ckpt/")'),
        Frame("~/work/loader.py", 41, "read_weights", "raise OSError("),
    )


def test_jupyter_variants() -> None:
    text = (
        "Traceback (most recent call last)\n"
        "Input In [2], in <cell line: 1>()\n"
        "----> 1 f()\n"
        "\n"
        "File /opt/lib/python3.11/site-packages/pkg/mod.py:1204, in Model.f(self)\n"
        "   1202 x = 1\n"
        "   (...)\n"
        "-> 1204 return self.g()\n"
        "\n"
        "TypeError: g() missing 1 required positional argument: 'y'\n"
    )
    err = one(text)
    assert err.form == "jupyter"
    assert err.type == "TypeError"
    assert err.frames == (
        Frame("Input In [2]", 1, "<cell line: 1>", "f()"),
        Frame("/opt/lib/python3.11/site-packages/pkg/mod.py", 1204, "Model.f", "return self.g()"),
    )


def test_ipython7_traceback() -> None:
    text = (
        "ZeroDivisionError                         Traceback (most recent call last)\n"
        "<ipython-input-4-8f3a> in <module>\n"
        "----> 1 ratio(1, 0)\n"
        "\n"
        "/home/me/calc.py in ratio(a, b)\n"
        "      2 def ratio(a, b):\n"
        "----> 3     return a / b\n"
        "\n"
        "ZeroDivisionError: division by zero\n"
    )
    err = one(text)
    assert err.frames == (
        Frame("<ipython-input-4-8f3a>", 1, "<module>", "ratio(1, 0)"),
        Frame("/home/me/calc.py", 3, "ratio", "return a / b"),
    )


def test_jupyter_chain() -> None:
    second = JUPYTER.replace("OSError: no weights under", "RuntimeError: load failed for").replace(
        "OSError      ", "RuntimeError "
    )
    text = JUPYTER + "\nThe above exception was the direct cause of the following exception:\n\n"
    err = one(text + second)
    assert (err.type, err.message) == ("RuntimeError", "load failed for ckpt/")
    assert [(c.type, c.message) for c in err.chain] == [("OSError", "no weights under ckpt/")]


def test_jupyter_frame_after_a_plain_traceback_starts_its_own() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/a.py", line 1, in f\n'
        "File ~/nb/b.py:9, in g()\n"
        "----> 9 h()\n"
        "KeyError: 'k'\n"
    )
    err = one(text)
    assert (err.form, err.type, err.message) == ("jupyter", "KeyError", "'k'")
    assert err.frames == (Frame("~/nb/b.py", 9, "g", "h()"),)


def test_numbered_lines_outside_jupyter_are_not_context() -> None:
    text = "ValueError: bad rows:\n    12 rows dropped\n"
    assert one(text).message == "bad rows:\n    12 rows dropped"


def test_jupyter_traceback_without_final_line_is_truncated() -> None:
    err = one(JUPYTER.rsplit("\n\n", 1)[0])
    assert (err.truncated, err.form, len(err.frames)) == (True, "jupyter", 2)


# Forms of the other shapes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("ValueError: bare", "line"),
        (
            'Traceback (most recent call last):\n  File "a.py", line 1, in f\nValueError: x',
            "traceback",
        ),
        ("[2026-03-01 09:00:00 TP0] Scheduler hit an exception: ValueError: x", "log"),
        ("E       AssertionError: 3 != 4", "log"),
        ("Then it prints `AssertionError: 3 != 4`", "prose"),
    ],
)
def test_forms(text: str, form: str) -> None:
    assert one(text).form == form


# Linear time --------------------------------------------------------------------------------

ADVERSARIAL = [
    '"message": "' * 90_000,
    '{"error": {"message": "x", ' * 40_000,
    "{'detail': '" + "\\'" * 500_000,
    '"message": "' + "\\" * 1_000_000,
    "ValueError('" * 90_000,
    'x=RuntimeError("' + "\\\\" * 500_000 + '")',
    "KeyError()" * 100_000,
    "[2026-03-01 09:00:00] Error: x\n" * 35_000,
    "ERROR:root:" * 90_000,
    "[a] " * 250_000 + "Error: x",
    ("ERROR 03-01 09:00:00 [e.py:1] v\n" * 30_000),
    "File ~/" + "a" * 1_000_000,
    "File " + "a:1, in f(" * 100_000,
    "Cell In[1], line 1, in f(" * 40_000,
    "X " * 300_000 + "Traceback (most recent call last)",
    "OSError   Traceback (most recent call last)\n" + "---> 1 x\n" * 100_000,
    "OSError   Traceback (most recent call last)\n" + "/a.py in f(" * 90_000,
    "  at " + "a.py:" * 200_000,
    "`ValueError: a` " * 60_000,
    "RuntimeError: x\n"
    + "ERROR 03-01 09:00:00 [e.py:1] x distinct " * 1
    + "\n" * 2
    + "".join(f"ERROR:root:line {i} failed\n" for i in range(40_000)),
    "".join(f"ValueError: message number {i}\n" for i in range(20_000))
    + "".join(f"[scheduler] Error: message number {i} and more\n" for i in range(20_000)),
]


def _cpu(text: str) -> float:
    """CPU time of a parse, the better of two, each after a collection: one pause of the
    collector or of a loaded machine made a linear parse read 6.8x its quarter in CI."""
    import gc

    best = float("inf")
    for _ in range(2):
        gc.collect()
        start = time.process_time()
        assert isinstance(parse_traceback(text), tuple)
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.heavy
@pytest.mark.parametrize("text", ADVERSARIAL, ids=range(len(ADVERSARIAL)))
def test_linear_time_on_adversarial_input(text: str, untraced: None) -> None:
    """Linear, not quadratic: the whole input costs at most 6x its first quarter (quadratic
    work would cost 16x), measured side by side so that a loaded machine or a coverage
    tracer slows both alike; and it stays under a generous absolute bound."""
    quarter = _cpu(text[: len(text) // 4])
    full = _cpu(text)
    assert full <= 6 * quarter + 0.5
    assert full < 20.0


@pytest.mark.parametrize(
    "text",
    [
        "pydantic_core._pydantic_core.ValidationError: 2 validation errors for Req\n"
        "  Value error, n must be at least 1 [type=value_error, input_value=0, input_type=int]\n"
        "  Value error, other [type=value_error, input_value=1, input_type=int]\n",
        "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': \"1 validation"
        " error for Req\\n  Value error, n must be at least 1 [type=value_error, input_value=0,"
        " input_type=int]\", 'type': 'BadRequestError', 'param': None, 'code': 400}\n",
        '{"detail": "1 validation error for Req\\n  Value error, n must be at least 1'
        ' [type=value_error, input_value=0, input_type=int]"}\n',
    ],
)
def test_pydantic_validation_errors_stand_for_the_validator_error(text: str) -> None:
    (err,) = parse_traceback(text)
    assert (err.type, err.message) == ("ValueError", "n must be at least 1")


def test_pydantic_assertion_and_plain_validation_errors() -> None:
    text = (
        "ValidationError: 1 validation error for Req\n"
        "  Assertion failed, x must be set [type=assertion_error, input_value=None]\n"
    )
    assert [(e.type, e.message) for e in parse_traceback(text)] == [
        ("AssertionError", "x must be set")
    ]
    plain = "ValidationError: 1 validation error for Req\nname\n  Field required [type=missing]\n"
    (err,) = parse_traceback(plain)
    assert err.type == "ValidationError" and err.message.startswith("1 validation error")


def test_frames_with_odd_spacing() -> None:
    text = (
        'File "/x/pkg/models/qwen2.py",  line398, in load_weights\n'
        "    param = params_dict[name]\n"
        "KeyError: 'lm_head.weight'\n"
    )
    (err,) = parse_traceback(text)
    assert [(f.line, f.function, f.code) for f in err.frames] == [
        (398, "load_weights", "param = params_dict[name]")
    ]


def test_an_inline_code_error_does_not_take_the_next_inline_code_line() -> None:
    text = (
        "Then it FAILED at `alloc_req_slots`:\n"
        "  `RuntimeError: alloc_req_slots runs out of memory ... num_reqs=16`\n"
        '  `launch_status.json = {"exit_code":1}`.\n'
    )
    (err,) = parse_traceback(text)
    assert err.message == "alloc_req_slots runs out of memory ... num_reqs=16"


def test_argparse_usage_errors_after_a_long_usage_text() -> None:
    usage = "usage: sglang serve [-h] --model-path MODEL_PATH\n" + "".join(
        f"                   [--option-{i} OPTION_{i}]\n" for i in range(470)
    )
    for prog, msg in (
        ("sglang serve", "argument --tp-size: invalid int value: 'two'"),
        ("launch_server.py", "unrecognized arguments: --max-loaded-loras 1"),
    ):
        (err,) = parse_traceback(f"{usage}{prog}: error: {msg}\n")
        assert (err.type, err.message, err.form) == ("", msg, "argparse")
    assert parse_traceback("note: error: handling is described below, in prose\n") == ()
    assert parse_traceback("a sentence with error: in it\n") == ()
    (err,) = parse_traceback("sglang: error: argument --port: invalid int value: 'x'\n")
    assert err.form == "argparse"


@pytest.mark.parametrize(
    "text",
    [
        # prose in a script written without spaces: the error starts right after it
        "启动服务时报错ValueError: widget count 3 is not divisible by 2",
        "サーバー起動でValueError: widget count 3 is not divisible by 2",
        # what `raise Exception(...)` prints, quoted mid-sentence
        "when loading it fails with Exception: widget count 3 is not divisible by 2",
    ],
)
def test_an_exception_right_after_prose_is_found(text: str) -> None:
    err = one(text)
    assert err.type in ("ValueError", "Exception")
    assert err.message == "widget count 3 is not divisible by 2"


def test_prose_lines_each_naming_an_error_are_each_an_error() -> None:
    text = (
        " with --tp 8 --ep 8 it fails: RuntimeError: sizes 32 and 256 do not match\n"
        " with --tp 8 --ep 1 it fails: ValueError: width 192 is not divisible by 128\n"
        "with --tp 4 it loads\n"
    )
    first, second = parse_traceback(text)
    assert (first.type, first.message) == ("RuntimeError", "sizes 32 and 256 do not match")
    assert second.type == "ValueError"
    assert second.message.startswith("width 192 is not divisible by 128")
    # a word ending in a class-like name is no exception (`MyValueError:` inside an identifier)
    assert parse_traceback("see the field cfgValueError: none") == ()


# A text flattened onto one line, its line breaks shown as `⏎` ------------------------------


def test_a_text_flattened_with_break_marks_is_read_line_by_line() -> None:
    text = (
        "BODY: ## Problem \u23ce  \u23ce The server crashes on idle ranks: \u23ce ``` \u23ce "
        "AssertionError: the pool needs raw indices \u23ce ``` \u23ce  \u23ce ## Root cause "
        "\u23ce a later change \u2026[truncated]\n"
    )
    err = one(text)
    assert (err.type, err.message) == ("AssertionError", "the pool needs raw indices")
    assert err.line_no == 1  # (the parts keep the flattened line's number)


def test_a_flattened_traceback_keeps_its_frames() -> None:
    text = (
        "- TODO: one error below \u23ce ``` \u23ce "
        'File "/srv/pkg/sampling.py", line 164, in sample \u23ce '
        "    out = probs * scale \u23ce "
        "    TypeError: unsupported operand type(s) for *: 'Tensor' and 'NoneType' \u23ce "
        "``` \u23ce"
    )
    err = one(text)
    assert err.type == "TypeError"
    assert err.message == "unsupported operand type(s) for *: 'Tensor' and 'NoneType'"
    assert [(f.path, f.line, f.code) for f in err.frames] == [
        ("/srv/pkg/sampling.py", 164, "out = probs * scale")
    ]


def test_an_exception_line_indented_with_the_code_ends_the_traceback() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/pkg/sampling.py", line 164, in sample\n'
        "    out = probs * scale\n"
        "    TypeError: unsupported operand type(s) for *: 'Tensor' and 'NoneType'\n"
    )
    err = one(text)
    assert (err.type, err.frames[-1].code, err.frames[-1].more) == (
        "TypeError",
        "out = probs * scale",
        None,
    )


def test_code_that_reads_like_an_exception_line_inside_a_statement_stays_code() -> None:
    # Python 3.13 prints every line of the failing statement: a dict entry is not the error
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/pkg/route.py", line 12, in route\n'
        "    handlers = dispatch({\n"
        "        ValueError: on_value,\n"
        "    })\n"
        "KeyError: 'route'\n"
    )
    err = one(text)
    assert (err.type, err.message) == ("KeyError", "'route'")
    assert err.frames[-1].more == "ValueError: on_value,\n})"


def test_an_exception_line_that_is_a_list_item_ends_where_the_next_item_starts():
    """`- vLLM: ValueError: ...` then `- SGLang: ...`: the next item of the same list is not
    the message's next line; an indented line under the item still is."""
    text = (
        "Both engines fail:\n\n"
        "- vLLM 0.9: ValueError: The pool is too small for\n"
        "  the requested batch\n"
        "- SGLang: the server exits without an error\n"
        "1. ValueError: Invalid config\n"
        "2. restarted, same thing\n"
    )
    first, second = parse_traceback(text)
    assert first.message == "The pool is too small for\n  the requested batch"
    assert second.message == "Invalid config"
