"""Reading what the user gave: large logs are read in bounded memory and say what was skipped."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errexplain.errors import InputError
from errexplain.input import read as inputs
from errexplain.parse import parse_traceback

TB = (
    b"Traceback (most recent call last):\n"
    b'  File "/x/sglang/srt/distributed/utils.py", line 70, in ensure_divisibility\n'
    b"    assert numerator % denominator == 0\n"
    b"AssertionError: 16 is not divisible by 6\n"
)


def _log(lines: int, tb_every: int) -> bytes:
    out = io.BytesIO()
    for i in range(lines):
        out.write(
            f"[2026-10-02 11:04:09 TP0] Decode batch. #running-req: {i}, #token: 4\n".encode()
        )
        if i % tb_every == tb_every - 1:
            out.write(TB)
    return out.getvalue()


def test_large_log_keeps_tracebacks_and_reports_skipped(monkeypatch):
    monkeypatch.setattr(inputs, "SMALL", 64 * 1024)
    data = _log(60_000, 20_000)
    assert len(data) > 40 * inputs.SMALL
    got = inputs.read_stream(io.BytesIO(data), "big.log")
    assert got.size == len(data)
    assert 0 < got.skipped_bytes < len(data)
    assert len(got.text) < len(data) / 5
    [err] = parse_traceback(got.text)
    assert err.message == "16 is not divisible by 6" and err.count == 3
    assert any("skipped" in w for w in got.warnings())


def test_keep_limit_stops_and_says_so(monkeypatch):
    monkeypatch.setattr(inputs, "SMALL", 4096)
    monkeypatch.setattr(inputs, "KEEP_LIMIT", 50_000)
    got = inputs.read_stream(io.BytesIO(TB * 5_000), "tb.log")
    assert got.truncated_at_limit
    assert len(got.text.encode()) <= 50_000 + 1_000
    assert any("stopped keeping" in w for w in got.warnings())


def test_small_input_is_read_whole():
    got = inputs.read_stream(io.BytesIO(TB), "x")
    assert got.text == TB.decode() and not got.skipped_bytes and not got.warnings()


def test_invalid_utf8_is_replaced_with_a_warning():
    got = inputs.read_stream(io.BytesIO(b"caf\xe9\n" + TB), "x")
    assert "\ufffd" in got.text
    assert any("not valid UTF-8" in w for w in got.warnings())


def test_binary_input_is_refused():
    with pytest.raises(InputError, match="binary"):
        inputs.read_stream(io.BytesIO(b"\x7fELF\x00\x00" * 10), "core")


def test_utf16_bom_is_not_called_binary():
    got = inputs.read_stream(io.BytesIO("ValueError: x\n".encode("utf-16")), "w.log")
    assert got.replaced_bytes


def _reference(data: bytes, before: int, after: int) -> bytes:
    """The windows computed line by line: the definition the block scanner must reproduce."""
    import re
    from collections import deque

    from errexplain.input.window import INTERESTING

    pattern = re.compile(INTERESTING)
    prev: deque[bytes] = deque(maxlen=before)
    kept: list[bytes] = []
    left = 0
    for line in data.splitlines(keepends=True):
        if pattern.search(line):
            kept.extend(prev)
            prev.clear()
            left = after
        if left > 0:
            left -= 1
            kept.append(line)
        else:
            prev.append(line)
    return b"".join(kept)


_LINES = st.sampled_from(
    [
        b"INFO ok\n",
        b'  File "x.py", line 1, in f\n',
        b"ValueError: x\n",
        b"\n",
        b"   \n",
        b"Traceback (most recent call last):\n",
        b"noise noise noise noise\n",
        b"  | + sub\n",
        b"tail",
    ]
)


@settings(deadline=None)
@given(st.lists(_LINES, max_size=80), st.integers(1, 5), st.integers(1, 7), st.integers(1, 64))
def test_block_scanner_matches_line_by_line_definition(lines, before, after, block):
    from errexplain.input import window as _window

    data = b"".join(lines)
    old = _window.BLOCK
    _window.BLOCK = block
    try:
        win = _window.filter_stream(data[:block], io.BytesIO(data[block:]), before, after, 10**9)
    finally:
        _window.BLOCK = old
    assert b"".join(win.kept) == _reference(data, before, after)
    assert win.total == len(data) and win.skipped == len(data) - win.kept_size
