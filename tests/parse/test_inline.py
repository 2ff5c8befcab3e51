"""errexplain.parse.inline: string literals decoded, HTTP error bodies, exception reprs and
error log lines found inside other text (all examples written for the test)."""

from __future__ import annotations

import json

import pytest

from errexplain.parse.inline import (
    decode_literal,
    error_log_message,
    exception_reprs,
    json_errors,
    string_at,
)
from errexplain.parse.lines import Line, clean_lines, embedded_exceptions, line_kind


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ("plain", "plain"),
        (r"a\nb\tc\\d\"e\'f\/g", "a\nb\tc\\d\"e'f/g"),
        (r"caf\u00e9 \x41 \U0001F600", "café A \U0001f600"),
        (r"\ud83d\ude00 ok", "\U0001f600 ok"),  # a JSON surrogate pair
        (r"\U00110000 stays", r"\U00110000 stays"),  # beyond Unicode: left as written
        (r"\q unknown", "q unknown"),
    ],
)
def test_decode_literal(body, text):
    assert decode_literal(body) == text


def test_string_at():
    assert string_at('x = "a\\"b" + 1', 5, '"') == ('a"b', 10)
    assert string_at("x = 'never closed", 5, "'") is None


def test_json_errors_need_an_error_marker_near_the_key():
    far = '{"message": "request done"}' + " " * 1000 + '{"code": 500}'
    assert json_errors(far) == []
    near = '{"message": "request failed", "code": 500}'
    assert json_errors(near) == [(1, "request failed")]
    both = '{"code": 503, "message": "busy"}' + " " * 1000 + '{"message": "fine"}'
    assert json_errors(both) == [(14, "busy")]


def test_json_errors_are_bounded():
    text = '{"error": {"message": "x"}}\n' * 300
    assert len(json_errors(text)) == 200


def test_reprs_are_bounded():
    assert len(exception_reprs("ValueError('x') " * 40)) == 16


def test_embedded_exceptions_are_bounded():
    assert len(embedded_exceptions("`ValueError: a` " * 40)) == 32


def _line(raw: str) -> Line:
    [line] = clean_lines(raw)
    return line


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("[worker-3] ERROR could not open socket", "could not open socket"),
        ("[worker-3] CRITICAL: could not open socket", "could not open socket"),
        ("[worker-3] INFO could not open socket", None),
        ("[worker-3] [rank 1] error: could not open socket", "could not open socket"),
        ("[worker-3] could not open socket", None),
        ("[2026-03-01 09:00:00] failed to connect", None),
        ("[E0301 09:00:00 scheduler.cc:12] could not open socket", "could not open socket"),
        ("(no tag) Error: could not open socket", None),
        ("[unclosed Error: could not open socket", None),
        ("", None),
    ],
)
def test_error_log_message(raw, message):
    assert error_log_message(_line(raw)) == message


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("File ~/a.py:3, in f()", "jframe"),
        ("File C:\\work\\a.py:3, in f(x, y)", "jframe"),
        ("File /a.py:3", "jframe"),
        ("File is missing", ""),
        ("Cell In[12], line 4", "jframe"),
        ("Cell In[12], line 4, in helper(x)", "jframe"),
        ("Input In [3], in <cell line: 2>()", "jframe"),
        ("Click here", ""),
        ("IndexError                                Traceback (most recent call last)", "jheader"),
        ("Traceback (most recent call last)", "jheader"),
        ("Traceback (most recent call last):", "header"),
        ("-" * 75, "rule"),
        ("----> 3 f()", ""),
    ],
)
def test_jupyter_line_kinds(text, kind):
    assert line_kind(text) == kind


def test_an_error_bodys_message_cut_by_the_end_of_the_paste_is_read_to_there() -> None:
    from errexplain.parse.inline import json_errors

    cut = (
        "BadRequestError: Error code: 400 - "
        "{'object': 'error', 'message': \"LoRA adapter 'x' was req"
    )
    # read to there, the cut marked as a paster marks it (the matcher reads a start)
    assert json_errors(cut) == [(cut.index("'message'"), "LoRA adapter 'x' was req...")]
    assert json_errors(cut + "...") == [(cut.index("'message'"), "LoRA adapter 'x' was req...")]
    # an unclosed string with more of the paste after it is no body
    assert json_errors(cut + "\nmore text after\n") == []


def test_an_error_body_cut_in_a_long_value_finds_the_template_it_starts() -> None:
    """The message of a body cut by the end of the paste, most of it a placeholder's value (a
    long path), is the start of its template: the literal text read is too short a share of
    the template to be trusted as an unmarked cut, but the unclosed body says it was cut."""
    from tests.views import catalog_view, one_entry

    from errexplain.explainer import explain_text

    template = (
        "Model adapter '<name>' was requested, but adapters are not enabled. Launch the server "
        "with the adapter flag and preload adapters with the paths option or the load endpoint."
    )
    e = one_entry(template, path="pkg/tm.py")
    view = catalog_view("memory", (e,))
    paste = (
        "openai.BadRequestError: Error code: 400 - "
        "{'object': 'error', 'message': \"Model adapter '/data/"
        + "x" * 90
        + "/checkpoint-1200' was requ"
    )
    (exp,) = explain_text(paste, view)
    assert exp.error.message.endswith("was requ...")
    assert exp.matches and exp.matches[0].entry.id == e.id


def test_a_body_escaped_inside_another_bodys_string_is_read_level_by_level():
    # a gateway's reply carries the backend's reply as a string, which carries the server's
    inner = '{"error":{"message":"n is too large: 9. At most 4 are allowed.","code":400}}'
    middle = json.dumps({"error": {"message": "Backend failed", "code": 400, "raw": inner}})
    outer = "first line\n" + json.dumps(
        {"error": {"message": "Provider returned error", "code": 400, "metadata": middle}}
    )
    got = json_errors(outer)
    assert [m for _, m in got] == [
        "Provider returned error",
        "Backend failed",
        "n is too large: 9. At most 4 are allowed.",
    ]
    assert {outer.count("\n", 0, offset) for offset, _ in got} == {1}  # (the body's line)


def test_a_body_whose_message_is_a_status_code_reads_its_type_sentence():
    from errexplain.parse.inline import json_errors

    body = (
        "{'object': 'error', 'message': '400', "
        "'type': 'Could not read the tool arguments as JSON', 'code': 400}"
    )
    assert [m for _, m in json_errors(body)] == ["Could not read the tool arguments as JSON"]
    # a class name in `type` is no message: the code stays what was printed
    plain = '{"object": "error", "message": "503", "type": "ServiceUnavailableError", "code": 503}'
    assert [m for _, m in json_errors(plain)] == ["503"]
