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


class _Endless:
    """A stream of `size` bytes (one prefix, then filler) made block by block, never whole."""

    def __init__(self, prefix: bytes, fill: bytes, size: int, suffix: bytes = b"") -> None:
        self.data, self.fill, self.left, self.suffix = prefix, fill, size - len(prefix), suffix

    def read(self, n: int) -> bytes:
        """Up to n bytes, short only at the end (as a buffered reader's read)."""
        out = self.data[:n]
        self.data = self.data[len(out) :]
        k = min(n - len(out), self.left)
        self.left -= k
        out += (self.fill * (k // len(self.fill) + 1))[:k]
        tail, self.suffix = self.suffix[: n - len(out)], self.suffix[n - len(out) :]
        return out + tail


def test_one_long_line_is_cut_to_the_line_bound():
    """Issue 14: a single 200 MB line was kept whole (8.5 GB, 140 s) past the 32 MB bound."""
    from errexplain.bounds import LINE_BYTES

    size = 3 * inputs.SMALL
    got = inputs.read_stream(_Endless(b"ValueError: ", b"x", size, b"\n" + TB), "one.log")
    assert got.size == size + 1 + len(TB)
    assert len(got.text) <= LINE_BYTES + 2 * len(TB)
    assert got.text.startswith("ValueError: xxx") and got.text.endswith(TB.decode())
    assert got.cut_line_bytes == size - LINE_BYTES
    assert any(f"longer than {LINE_BYTES:,} bytes" in w for w in got.warnings())
    assert [e.type for e in parse_traceback(got.text)] == ["ValueError", "AssertionError"]


def test_long_line_in_a_small_input_is_cut():
    from errexplain.bounds import LINE_BYTES

    got = inputs.read_stream(io.BytesIO(b"ValueError: " + b"7" * 3 * LINE_BYTES + b"\n"), "x")
    assert len(got.text) == LINE_BYTES + 1 and got.cut_line_bytes > 0


def test_dense_log_keeps_its_final_traceback(monkeypatch):
    """Issue 14: in a log dense with error-like lines the filter filled its budget early and
    the traceback at the end was lost ("no Python exception found")."""
    monkeypatch.setattr(inputs, "SMALL", 4096)
    monkeypatch.setattr(inputs, "KEEP_LIMIT", 200_000)
    line = b"2026-10-02 11:04:09 WARNING server.py:12 upstream said Error 500 (retrying)\n"
    final = TB.replace(b"16 is not divisible by 6", b"12 is not divisible by 5")
    data = line * 40_000 + final
    got = inputs.read_stream(io.BytesIO(data), "dense.log")
    assert got.truncated_at_limit and len(got.text.encode()) <= 200_000
    assert got.text.endswith(final.decode())
    assert "12 is not divisible by 5" in [e.message for e in parse_traceback(got.text)]
    assert any("only the last" in w for w in got.warnings())
