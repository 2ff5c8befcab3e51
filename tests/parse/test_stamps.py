"""errexplain.parse.stamps: the timestamp of a log line, in a form that sorts by time."""

from __future__ import annotations

import pytest

from errexplain.parse.stamps import stamp


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("[2026-10-02 11:04:09 TP0] Decode batch.", "2026-10-02 11:04:09"),
        ("2026-10-02T11:04:09,123 INFO x", "2026-10-02 11:04:09.123"),
        ("[2026/10/02 11:04:09.5] x", "2026-10-02 11:04:09.5"),
        ("ERROR 05-12 10:11:12 [engine.py:12] boom", "05-12 10:11:12"),
        ("ValueError: 2026-10-02 11:04:09 is too late", "2026-10-02 11:04:09"),
        ("no time here", None),
        ("x" * 70 + " 2026-10-02 11:04:09", None),  # only the prefix is read
    ],
)
def test_stamp(line, expected):
    assert stamp(line) == expected


def test_stamps_sort_by_time():
    lines = ["[2026-10-02 09:59:59] a", "[2026-10-02 10:00:00.5] b", "[2026-10-01 23:00:00] c"]
    assert sorted(stamp(ln) for ln in lines) == [
        "2026-10-01 23:00:00",
        "2026-10-02 09:59:59",
        "2026-10-02 10:00:00.5",
    ]
