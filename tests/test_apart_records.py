"""A log pasted in a fenced block of its own, apart from a complete error elsewhere in the post
(a server's log beside its client's traceback): its error records are read as in a paste with
no exception line; its quiet warnings (no failure in their words) and the aftermath a traceback
leaves are not."""

from __future__ import annotations

from tests.views import lettered_entry

from errexplain._startup import replace
from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text
from errexplain.models import Entry


def _logged(letter: str, level: str, template: str) -> Entry:
    """A log site of the demo project at `level`."""
    return replace(lettered_entry(letter, template, level), kind="log")


FAILED = _logged("a", "error", "Request <rid> rejected: the widget queue of <n> slots is full")
DEFAULT = _logged("b", "warning", "Widget backend not set: using <name> for the widget pool")
VIEW = MemoryCatalog([FAILED, DEFAULT])

CLIENT = (
    "```\n"
    "Traceback (most recent call last):\n"
    '  File "/home/me/bench.py", line 12, in <module>\n'
    "    resp = client.post(url, json=req)\n"
    '  File "/env/site-packages/httpx/_models.py", line 761, in raise_for_status\n'
    "    raise HTTPStatusError(message, request=request, response=self)\n"
    "httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'http://h:30000/g'\n"
    "```\n"
)


START = [f"Prefill batch {i}, #new-token: 512" for i in range(14)]
"""A server's start-up records: the log's error lies further than a record beside the client's
traceback is read (explainer.BESIDE_NEAR)."""


def _server(*records: str, first: bool = False) -> str:
    order = [*records, *START] if first else [*START, *records]
    lines = "".join(f"[2026-01-29 13:12:{10 + i:02d}] {r}\n" for i, r in enumerate(order))
    return f"```\n{lines}```\n"


def _answers(text: str) -> list[str | None]:
    return [x.matches[0].entry.id if x.matches else None for x in explain_text(text, VIEW)]


def test_an_error_record_in_a_block_of_its_own_is_explained_beside_the_traceback():
    server = _server(
        "Widget backend not set: using fused for the widget pool",
        "Request 7f3a rejected: the widget queue of 64 slots is full",
    )
    early = _server(
        "Widget backend not set: using fused for the widget pool",
        "Request 7f3a rejected: the widget queue of 64 slots is full",
        first=True,
    )
    for text in (f"Client:\n{CLIENT}\nServer log:\n{server}", f"Server:\n{early}\n{CLIENT}"):
        answers = _answers(text)
        assert "a" * 16 in answers  # the server's error
        assert "b" * 16 not in answers  # a quiet start-up warning: context, not an error
        assert len(answers) == 2  # and the client's HTTPStatusError, each once


def test_the_aftermath_of_a_crash_in_a_block_of_its_own_is_not_an_error():
    server = _server("Received sigquit from a child process. It usually means the child failed.")
    exps = explain_text(f"{CLIENT}\n{server}", VIEW)
    assert [x.error.short_type for x in exps] == ["HTTPStatusError"]


def test_records_in_the_tracebacks_own_block_follow_the_beside_rules():
    # the same error record in the traceback's block but far from it: not read as apart
    filler = "".join(f"[2026-01-29 13:11:{i:02d}] Prefill batch {i}\n" for i in range(40))
    block = CLIENT[:-4] + filler + "[2026-01-29 13:12:59] Request 7f3a rejected: the widget "
    text = block + "queue of 64 slots is full\n```\n"
    assert "a" * 16 not in _answers(text)


FETCH = replace(
    lettered_entry("c", "Error fetching the prefill peer's info from its bootstrap: <e>", "error"),
    kind="log",
)
ANNOUNCE = replace(
    lettered_entry("d", "Widget scheduler hit an exception while serving: <tb>", "error"),
    kind="log",
)
SHORT = lettered_entry("e", "invalid value: <got>, expected <want>")
LINES_VIEW = MemoryCatalog([FAILED, DEFAULT, FETCH, ANNOUNCE, SHORT])


def _line_answers(text: str) -> list[str]:
    return [x.error.message for x in explain_text(text, LINES_VIEW)]


def test_a_bare_error_line_in_a_block_of_its_own_is_explained_beside_the_traceback():
    """A server's output pasted without log prefixes beside the client's traceback: with no
    record in the block, its lines are read as in a paste with no exception line."""
    server = (
        "```\nError fetching the prefill peer's info from its bootstrap:\n"
        "HTTPConnectionPool(host='10.0.0.5', port=8998): Connection refused\n```\n"
    )
    for text in (f"Client:\n{CLIENT}\nDecode log:\n{server}", f"Decode:\n{server}\n{CLIENT}"):
        exps = explain_text(text, LINES_VIEW)
        assert [x.matches[0].entry.id for x in exps if x.matches] == ["c" * 16]
        assert len(exps) == 2  # and the client's HTTPStatusError


def test_bare_lines_apart_that_only_look_like_errors_are_not_read():
    """The higher bar of a block's bare lines: a message announcing a traceback, the raise of
    a message in source code and a short template that reads anything stay out."""
    announced = (
        "```\nWidget scheduler hit an exception while serving:\nTraceback (most recent call "
        'last):\n  File "w.py", line 3, in serve\n    step()\n```\n'
    )
    source = (
        "```python\nif not ok:\n    raise RuntimeError(\"Error fetching the prefill peer's "
        'info from its bootstrap: " + str(e))\n```\n'
    )
    short = "```\nparse failed: invalid value: unit variant, expected newtype variant\n```\n"
    # announced with no header line, its frames straight after it: Python's, or IPython's
    framed = [
        f"```\nWidget scheduler hit an exception while serving:\n{frame}\n    step()\n```\n"
        for frame in ('  File "w.py", line 3, in serve', "File ~/w.py:3, in serve(req)")
    ]
    for block in (announced, source, short, *framed):
        assert len(_line_answers(f"{CLIENT}\n{block}")) == 1, block


def test_only_the_last_lines_of_a_long_block_apart_are_read():
    """A long output pasted bare beside a traceback costs a bounded number of lookups: its
    last APART_LINES lines, where a program's output ends with its error."""
    from errexplain.explainer import APART_LINES

    error = "Error fetching the prefill peer's info from its bootstrap: connection refused"
    filler = [f"step {i} of the build finished" for i in range(APART_LINES + 5)]
    late = "```\n" + "\n".join([*filler, error]) + "\n```\n"
    early = "```\n" + "\n".join([error, *filler]) + "\n```\n"
    # (the block before the traceback: a line right after one is read as beside it)
    assert error in _line_answers(f"{late}\n{CLIENT}")
    assert error not in _line_answers(f"{early}\n{CLIENT}")
