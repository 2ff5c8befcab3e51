"""Reading what the user gave: large logs are read in bounded memory and say what was skipped."""

from __future__ import annotations

import io

import pytest

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
