"""The regex opcode cache gives patterns that behave like re.compile's, and bad files are
ignored."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from errexplain import _rx

PATTERNS = [r"(?P<type>[A-Za-z_][\w.]*(?:Error|Exception)): ?(?P<msg>.*)", r"\s+",
            r'File "(?P<path>[^"\n]{1,1000})", line (?P<line>\d{1,9})', r"(?i)traceback"]


def test_cache_round_trip(tmp_path, monkeypatch):
    monkeypatch.setattr(_rx, "_codes", {})
    for p in PATTERNS:
        _rx.compile(p)
    _rx._dirty = True
    _rx.save(str(tmp_path))
    saved = dict(_rx._codes)
    monkeypatch.setattr(_rx, "_codes", {})
    _rx.load(str(tmp_path))
    assert set(_rx._codes) == set(saved)
    for key, args in _rx._codes.items():  # opcodes come back packed, then unpack equal
        assert memoryview(args[1]).cast("I").tolist() == saved[key][1]
    for p in PATTERNS:
        cached, plain = _rx.compile(p), re.compile(p)
        assert cached.pattern == plain.pattern and cached.flags == plain.flags
        assert cached.groupindex == plain.groupindex


@given(st.text(max_size=200))
def test_cached_patterns_match_like_re(text):
    for p in PATTERNS:
        a, b = _rx.compile(p).search(text), re.compile(p).search(text)
        assert (a and a.groupdict(), a and a.span()) == (b and b.groupdict(), b and b.span())


def test_corrupt_cache_file_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setattr(_rx, "_codes", {})
    _rx.compile(PATTERNS[0])
    _rx._dirty = True
    _rx.save(str(tmp_path))
    [f] = list(tmp_path.iterdir())
    f.write_bytes(b"\x00garbage")
    monkeypatch.setattr(_rx, "_codes", {})
    _rx.load(str(tmp_path))
    assert _rx._codes == {}
    assert _rx.compile(PATTERNS[1]).sub(" ", "a  b") == "a b"


def test_poisoned_entry_falls_back_to_re(monkeypatch):
    monkeypatch.setattr(_rx, "_codes", {(r"\d+", 0): (0, [1, 2, 3], 0, {}, ())})
    assert _rx.compile(r"\d+").findall("a1b22") == ["1", "22"]
