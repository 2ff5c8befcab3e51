"""errexplain.input.window: the block-wise scanner keeps exactly the windows the line-by-line
definition keeps, for any block size, and counts what it skipped."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from errexplain.input import window as _window


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
        b'{"detail": "x"}\n',
        b"ERROR:root:x\n",
        b"[tag] error: x\n",
        b"tail",
    ]
)


@settings(deadline=None)
@given(st.lists(_LINES, max_size=80), st.integers(1, 5), st.integers(1, 7), st.integers(1, 64))
def test_block_scanner_matches_line_by_line_definition(lines, before, after, block):
    data = b"".join(lines)
    old = _window.BLOCK
    _window.BLOCK = block
    try:
        win = _window.filter_stream(data[:block], io.BytesIO(data[block:]), before, after, 10**9)
    finally:
        _window.BLOCK = old
    assert b"".join(win.kept) == _reference(data, before, after)
    assert win.total == len(data) and win.skipped == len(data) - win.kept_size


def test_keep_limit_cuts_and_says_so():
    line = b"ValueError: x\n"
    data = line * 1000
    win = _window.filter_stream(data[:64], io.BytesIO(data[64:]), 1, 1, 10 * len(line))
    assert win.cut
    assert win.kept_size <= 11 * len(line)
    assert win.total == len(data)


def test_quiet_log_keeps_nothing_and_skips_everything():
    data = b"INFO step 1 ok\n" * 5000
    win = _window.filter_stream(data[:100], io.BytesIO(data[100:]), 3, 3, 10**9)
    assert win.kept_size == 0 and win.skipped == len(data) and not win.cut


@given(st.lists(st.sampled_from([b"", b"a", b"ab", b"abcdef", b"x" * 9, b"y" * 20]), max_size=30))
def test_bound_lines_cuts_every_long_line_and_only_those(parts):
    buf = b"\n".join(parts) + (b"\n" if len(parts) % 2 else b"")
    got, cut = _window.bound_lines(buf, 8)
    want = b"\n".join(p[:8] for p in buf.split(b"\n"))
    assert (got, cut) == (want, len(buf) - len(want))
