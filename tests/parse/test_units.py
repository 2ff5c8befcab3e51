"""errexplain.parse.units: a traceback of a longer log is self-contained only when the parse
of the whole log is, at both its ends, the parse of its parts."""

from __future__ import annotations

from tests.logs_data import CUDA, traceback

from errexplain.parse import parse_traceback
from errexplain.parse.units import self_contained

TS = "2026-10-02 10:00:00"


def _check(unit: str, ahead: str = "", first: bool = False):
    return self_contained(unit + ahead, unit.count("\n"), first)


def test_a_whole_traceback_followed_by_another_is_its_own_parse():
    unit = traceback(TS, 0)
    assert _check(unit, traceback(TS, 1).split("\n")[0]) == parse_traceback(unit)


def test_a_unit_at_the_end_of_the_input_is_its_own_parse():
    unit = traceback(TS, 0)
    assert self_contained(unit.rstrip("\n"), unit.count("\n"), False) == parse_traceback(unit)


def test_a_message_that_the_parser_continues_onto_the_next_record_is_not():
    # same rank, same second: the parser reads the next record's first line into the message
    unit = traceback(TS, 0)
    assert _check(unit, traceback(TS, 0).split("\n")[0]) is None
    assert _check(unit, traceback(TS, 3).split("\n")[0]) is not None


def test_a_chain_that_continues_into_the_next_traceback_is_not():
    unit = traceback(TS, 0, "KeyError: 'w'") + (
        "During handling of the above exception, another exception occurred:\n\n"
    )
    assert _check(unit, "Traceback (most recent call last):") is None


def test_a_unit_that_opens_with_a_chain_line_is_not_unless_it_starts_the_text():
    unit = "During handling of the above exception, another exception occurred: " + (
        "Traceback (most recent call last):\n" + "\n".join(traceback(TS, 0).split("\n")[1:])
    )
    assert _check(unit) is None


def test_error_log_lines_and_bodies_and_two_streams_are_not():
    tb = traceback(TS, 0)
    assert _check(tb + f"[{TS}] ERROR: worker died: code 3\n") is None
    assert (
        _check(tb + f'[{TS}] INFO: {{"object": "error", "message": "bad", "code": 400}}\n') is None
    )
    assert _check("[rank0]: " + tb.replace("\n", "\n[rank1]: ", 2)) is None
    assert _check(tb, "[rank1]: Traceback (most recent call last):") is None


def test_the_first_unit_of_a_text_need_not_open_with_a_header():
    unit = f"[{TS} TP0] Load weight end.\n" + traceback(TS, 0)
    assert _check(unit, first=True) == parse_traceback(unit)
    assert _check(unit) is None
    assert [e.message for e in _check(unit, first=True)] == [CUDA.split(": ", 1)[1]]
