"""errexplain.repeats: a region of several tracebacks, parsed one distinct traceback at a time,
gives every field that parsing the region whole gives (error records, counts, ranks, dates,
samples), also on the paths that are rarely taken: texts that can overlap a timestamp, dates
from lines with other stamps, truncated tracebacks, a full cache, prefixes that only look like
a stamped one."""

from __future__ import annotations

import pytest
from tests.logs_data import CUDA, SITE, traceback

from errexplain import repeats
from errexplain import triage as tr

T0, T1 = "2026-10-02 10:00:00", "2026-10-02 10:00:01"
BAD_KEY = "KeyError: 'bad shape 3 in layer 0'"


def _both(text: str, memo: repeats.Memo | None = None) -> tuple[list, list, bool]:
    """(groups by units, groups by the whole region, whether the units were used)."""
    data = text.encode()
    memo = memo or repeats.Memo()
    used = repeats.fold_units(data, memo, tr._dates, tr._sample) is not None
    fast, whole = tr._Acc(), tr._Acc()
    tr._fold(fast, data, "f.log", memo)
    tr._fold(whole, data, "f.log")
    return fast.result(), whole.result(), used


def _truncated(ts: str, rank: int) -> str:
    p = f"[{ts} TP{rank}]"
    return (
        f"{p} Scheduler hit an exception: Traceback (most recent call last):\n"
        f'{p}   File "{SITE}sglang/srt/managers/scheduler.py", line 2890, in run_scheduler\n'
    )


def _late_exception(ts: str, later: str, rank: int) -> str:
    """A traceback whose exception line was logged a second later than its header."""
    lines = traceback(ts, rank).splitlines(keepends=True)
    return "".join(lines[:-1]) + lines[-1].replace(ts, later)


@pytest.mark.parametrize(
    "text",
    [
        # a message that starts with a digit: its text could overlap a stamp, dated as a whole
        "".join(traceback(T0, r, "ValueError: 5824 != 5760") for r in range(4)) * 3,
        # the exception line carries another stamp than the header line
        "".join(_late_exception(T0, T1, r) for r in range(4)) * 3,
        # the message's text also shown in another traceback's message: dated as a whole
        (traceback(T0, 0, "ValueError: bad shape 3") + traceback(T1, 1, BAD_KEY)) * 3,
        # a traceback cut before its exception line at the end of the region (dropped: the
        # region has complete ones)
        traceback(T0, 0) + traceback(T1, 1) + traceback(T1, 0) + _truncated(T1, 2),
    ],
    ids=["digit-first", "later-stamp", "shown-elsewhere", "truncated-last"],
)
def test_units_give_what_the_whole_region_gives(text):
    fast, whole, used = _both(text)
    assert used and fast == whole


@pytest.mark.parametrize(
    "text",
    [
        # a traceback cut before its exception line (left open at the next header), among
        # complete ones, or alone
        (traceback(T0, 0) + _truncated(T0, 1) + traceback(T1, 2)) * 3,
        "".join(_truncated(T0, r) for r in range(4)) * 2,
        # an exception inside a message (the parser reads it apart)
        traceback(T0, 0) + traceback(T0, 1, "RuntimeError: retry after: " + CUDA) * 2,
        # CR line ends (the parser makes line ends of them)
        (traceback(T0, 0) + traceback(T0, 1)).replace("\n", "\r\n") * 2,
    ],
    ids=["some-truncated", "all-truncated", "embedded", "crlf"],
)
def test_a_unit_that_is_not_self_contained_has_its_region_parsed_whole(text):
    fast, whole, used = _both(text)
    assert not used and fast == whole


def test_a_full_cache_drops_its_oldest_units_and_counts_stay_whole():
    text = "".join(traceback(f"2026-10-02 10:00:{k:02d}", k % 8) for k in range(40))
    memo = repeats.Memo(size=2)
    fast, whole, used = _both(text, memo)
    assert used and fast == whole and len(memo.units) == 2
    memo.pids.update({(k,): k for k in range(100)})  # past 16 x size: forgotten between regions
    fast, whole, used = _both(text, memo)
    assert used and fast == whole and len(memo.pids) < 100


def test_a_prefix_that_only_looks_stamped_makes_the_region_parse_whole():
    # `[<stamp> worker]` is no log prefix of the parser (not a rank): the stamp is its text
    odd = traceback(T0, 0).replace(f"[{T0} TP0]   File", f"[{T0} worker]   File", 1)
    text = odd + traceback(T0, 1) + odd
    fast, whole, used = _both(text)
    assert not used and fast == whole
